//! The reader's state and its scanning: whitespace, strings (eight bytes at a time, long ones
//! in 64-byte blocks), numbers and skipping a value.

use super::*;

pub struct Reader<'de> {
    pub(crate) text: &'de str,
    pub(crate) bytes: &'de [u8],
    pub(crate) pos: usize,
    pub(crate) depth: u32,
    /// Unescaped text of the last string that had escapes.
    pub(crate) scratch: String,
}

/// A string as read: a slice of the input, or unescaped into the scratch buffer.
pub(crate) enum Str<'de, 's> {
    Input(&'de str),
    Scratch(&'s str),
}

pub(crate) enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

/// Whether JSON text must not hold this byte unescaped, or it ends the string.
#[inline]
pub(crate) fn special(b: u8) -> bool {
    // `|`, not `||`: no branches, so blocks of bytes are tested as vectors. Flipping bit 1 maps
    // `"` (0x22) to 0x20 and the control bytes onto themselves, and nothing else to 0x20 or
    // below: one unsigned compare for both (a tenth fewer instructions per block).
    ((b ^ 0x02) <= 0x20) | (b == b'\\')
}

pub(crate) const ONES: u64 = u64::MAX / 255;

/// The high bit of each byte of `word` (little-endian) that is special; only the lowest set
/// bit is exact, which is all `find_special` uses (a borrow only runs past a special byte).
#[inline]
pub(crate) fn special_bits(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & (ONES << 7)
}

/// The index of the first `"`, `\` or control byte at or after `i`, or the length.
#[inline(never)]
pub(crate) fn find_special(bytes: &[u8], i: usize) -> usize {
    // Eight bytes at a time, which suits keys and short values; past 32 bytes the rest is
    // another function's, so this one (in every string read) needs few registers.
    let mut j = i;
    while let Some(word) = bytes.get(j..j + 8) {
        let bits = special_bits(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        if bits != 0 {
            return j + (bits.trailing_zeros() / 8) as usize;
        }
        j += 8;
        if j - i >= 32 {
            return find_special_long(bytes, j);
        }
    }
    find_special_tail(bytes, j)
}

/// [`find_special`] with its first eight bytes tested in the caller: they hold most keys and
/// many values whole, and the call costs more than the test.
#[inline(always)]
pub(crate) fn find_special_here(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i..i + 8) {
        Some(word) => match special_bits(u64::from_le_bytes(word.try_into().expect("8 bytes"))) {
            0 => find_special(bytes, i + 8),
            bits => i + (bits.trailing_zeros() / 8) as usize,
        },
        None => find_special(bytes, i),
    }
}

/// [`find_special_here`] over sixteen bytes: an object's key (most are shorter).
#[inline(always)]
pub(crate) fn find_special_here_16(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i..i + 16) {
        Some(words) => {
            let word = |j: usize| u64::from_le_bytes(words[j..j + 8].try_into().expect("8 bytes"));
            match special_bits(word(0)) {
                0 => match special_bits(word(8)) {
                    0 => find_special(bytes, i + 16),
                    bits => i + 8 + (bits.trailing_zeros() / 8) as usize,
                },
                bits => i + (bits.trailing_zeros() / 8) as usize,
            }
        }
        None => find_special_here(bytes, i),
    }
}

/// [`find_special`] past a long string's first 32 bytes: clean 64-byte blocks are skipped
/// (the OR of the byte tests compiles to vector compares); the block that holds a special byte
/// is searched eight bytes at a time, without going back to the block test.
#[inline(never)]
fn find_special_long(bytes: &[u8], mut i: usize) -> usize {
    while let Some(block) = bytes.get(i..i + 64) {
        let block: &[u8; 64] = block.try_into().expect("64 bytes");
        if block.iter().fold(0u8, |any, &b| any | special(b) as u8) != 0 {
            break;
        }
        i += 64;
    }
    // A special byte within the next 64 bytes, or fewer than 64 left.
    while let Some(word) = bytes.get(i..i + 8) {
        let bits = special_bits(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        if bits != 0 {
            return i + (bits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    find_special_tail(bytes, i)
}

/// The last bytes of the input, fewer than eight, one at a time.
#[inline]
fn find_special_tail(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && !special(bytes[i]) {
        i += 1;
    }
    i
}

thread_local! {
    /// The scratch buffer of the last reader that unescaped a string, kept for the next one:
    /// a reader per message (and per handover) would otherwise grow its own from empty.
    static SCRATCH: Cell<String> = const { Cell::new(String::new()) };
}

/// A scratch buffer larger than this is not kept between reads.
const SCRATCH_KEPT: usize = 1 << 16;

impl Drop for Reader<'_> {
    #[inline]
    fn drop(&mut self) {
        if self.scratch.capacity() != 0 && self.scratch.capacity() <= SCRATCH_KEPT {
            SCRATCH.with(|s| s.set(std::mem::take(&mut self.scratch)));
        }
    }
}

impl<'de> Reader<'de> {
    /// A reader of `text`, which starts `depth` levels deep in the document.
    pub(crate) fn new(text: &'de str, depth: u32) -> Self {
        Reader { text, bytes: text.as_bytes(), pos: 0, depth, scratch: String::new() }
    }

    /// An object's key, at its opening quote.
    pub(crate) fn key(&mut self) -> Result<Key<'de>> {
        if self.peek() != Some(b'"') {
            return give_up();
        }
        Ok(match self.string_here(find_special_here_16)? {
            Str::Input(s) => Key::Borrowed(s),
            Str::Scratch(s) => Key::Owned(s.to_string()),
        })
    }

    /// The next byte that is not whitespace, not consumed.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<u8> {
        // Only the test is inlined into every caller; whitespace (all at or below b' ') is
        // passed over by one shared copy of the loop.
        match self.bytes.get(self.pos) {
            Some(&b) if b > b' ' => Some(b),
            _ => self.peek_past_whitespace(),
        }
    }

    #[inline(never)]
    pub(crate) fn peek_past_whitespace(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b' ' | b'\n' | b'\t' | b'\r' => self.pos += 1,
                _ => return Some(b),
            }
        }
        None
    }

    /// Consumes `word` (a literal's remaining letters).
    pub(crate) fn expect(&mut self, word: &[u8]) -> Result<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            give_up()
        }
    }

    pub(crate) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return give_up();
        }
        self.pos += 1;
        Ok(())
    }

    /// Consumes the closing bracket of the container just read.
    pub(crate) fn leave(&mut self, close: u8) -> Result<()> {
        if self.peek() != Some(close) {
            return give_up();
        }
        self.pos += 1;
        self.depth -= 1;
        Ok(())
    }

    /// Reads the string that starts at `pos` (at its `"`).
    pub(crate) fn string<'s>(&'s mut self) -> Result<Str<'de, 's>> {
        self.string_here(find_special_here)
    }

    /// [`Self::string`], inlined into the caller (an object's key, read for every member).
    #[inline(always)]
    fn string_here<'s>(&'s mut self, find: impl Fn(&[u8], usize) -> usize) -> Result<Str<'de, 's>> {
        // Most strings have no escape: this path is kept small (the escapes are another
        // function's), so a key or a short value costs few instructions besides its scan. The
        // bytes are the text's own, so the slice's check of `end` knows the quote found there.
        let text = self.text;
        let start = self.pos + 1;
        let end = find(text.as_bytes(), start);
        if text.as_bytes().get(end) == Some(&b'"') {
            self.pos = end + 1;
            return Ok(Str::Input(&text[start..end]));
        }
        self.string_escaped(start, end)
    }

    /// [`Self::string`] from `end`, its first special byte that is not the closing quote.
    #[inline(never)]
    fn string_escaped<'s>(&'s mut self, start: usize, end: usize) -> Result<Str<'de, 's>> {
        if self.bytes.get(end) != Some(&b'\\') {
            return give_up();
        }
        if self.scratch.capacity() == 0 {
            self.scratch = SCRATCH.with(Cell::take);
        }
        self.scratch.clear();
        self.scratch.push_str(&self.text[start..end]);
        self.pos = end;
        self.escaped()?;
        Ok(Str::Scratch(&self.scratch))
    }

    /// Continues a string at its first escape, unescaping into `scratch`.
    pub(crate) fn escaped(&mut self) -> Result<()> {
        // The position in a local, and the one-byte escapes pushed as bytes: escapes can be
        // dense (JSON text inside a string escapes every quote).
        let text = self.text;
        let bytes = text.as_bytes();
        let mut pos = self.pos;
        loop {
            // At a backslash.
            let Some(&e) = bytes.get(pos + 1) else { return give_up() };
            pos += 2;
            let c = match e {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'b' => 8,
                b'f' => 12,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'u' => {
                    self.pos = pos;
                    let c = self.unicode_escape()?;
                    pos = self.pos;
                    self.scratch.push(c);
                    0
                }
                _ => return give_up(),
            };
            if c != 0 {
                self.scratch.push(c as char);
            }
            let end = find_special_here(bytes, pos);
            if end > pos {
                self.scratch.push_str(&text[pos..end]);
            }
            pos = end;
            match bytes.get(end) {
                Some(b'"') => {
                    self.pos = end + 1;
                    return Ok(());
                }
                Some(b'\\') => {}
                _ => {
                    self.pos = pos;
                    return give_up();
                }
            }
        }
    }

    pub(crate) fn hex4(&mut self) -> Result<u32> {
        let Some(digits) = self.bytes.get(self.pos..self.pos + 4) else { return give_up() };
        let mut n = 0;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return give_up(),
            };
            n = n * 16 + v as u32;
        }
        self.pos += 4;
        Ok(n)
    }

    /// After `\u`: one character, from a surrogate pair where it takes two escapes.
    pub(crate) fn unicode_escape(&mut self) -> Result<char> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                    return give_up();
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return give_up();
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return give_up(),
            c => c,
        };
        char::from_u32(code).map_or_else(give_up, Ok)
    }

    /// Reads a number at `pos`, valued as serde_json values it.
    pub(crate) fn number(&mut self) -> Result<Number> {
        let start = self.pos;
        let negative = self.bytes[self.pos] == b'-';
        if negative {
            self.pos += 1;
        }
        let digits = self.pos;
        let mut significand: u64 = 0;
        while let Some(&d @ b'0'..=b'9') = self.bytes.get(self.pos) {
            // Beyond u64, serde_json makes a float of the integer; left to it.
            let Some(s) = significand.checked_mul(10).and_then(|s| s.checked_add((d - b'0') as u64)) else { return give_up() };
            significand = s;
            self.pos += 1;
        }
        let count = self.pos - digits;
        if count == 0 || (count > 1 && self.bytes[digits] == b'0') {
            return give_up();
        }
        if matches!(self.bytes.get(self.pos), Some(b'.' | b'e' | b'E')) {
            return self.float(start);
        }
        Ok(if !negative {
            Number::U64(significand)
        } else if significand == 0 {
            // serde_json reads `-0` as the float -0.0.
            Number::F64(-0.0)
        } else if significand <= i64::MAX as u64 + 1 {
            Number::I64((significand as i64).wrapping_neg())
        } else {
            Number::F64(-(significand as f64))
        })
    }

    /// The fraction and exponent of a number whose integer part ends at `pos`. Both readers
    /// round the decimal text correctly (serde_json has `float_roundtrip` on), so parsing
    /// the same text gives the same `f64`.
    pub(crate) fn float(&mut self, start: usize) -> Result<Number> {
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            let from = self.pos;
            while let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if self.pos == from {
                return give_up();
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            let from = self.pos;
            while let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            // Long exponents meet serde_json's range and zero rules: left to it.
            if self.pos == from || self.pos - from > 3 {
                return give_up();
            }
        }
        match self.text[start..self.pos].parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Number::F64(f)),
            _ => give_up(),
        }
    }

    /// Checks and passes over one value.
    pub(crate) fn skip(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'"') => self.string().map(drop),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(b'n') => self.expect(b"null"),
            Some(b't') => self.expect(b"true"),
            Some(b'f') => self.expect(b"false"),
            Some(b'[') => {
                self.enter()?;
                let mut first = true;
                while self.next_item(b']', &mut first)? {
                    self.skip()?;
                }
                self.leave(b']')
            }
            Some(b'{') => {
                self.enter()?;
                let mut first = true;
                while self.next_item(b'}', &mut first)? {
                    self.key_colon()?;
                    self.skip()?;
                }
                self.leave(b'}')
            }
            _ => give_up(),
        }
    }

    /// Before an array element or object entry: whether there is one (past its comma).
    /// Leaves the closing bracket for `leave`.
    #[inline]
    pub(crate) fn next_item(&mut self, close: u8, first: &mut bool) -> Result<bool> {
        match self.peek() {
            Some(c) if c == close => Ok(false),
            Some(b',') if !*first => {
                self.pos += 1;
                match self.peek() {
                    // A trailing comma.
                    Some(c) if c == close => give_up(),
                    Some(_) => Ok(true),
                    None => give_up(),
                }
            }
            Some(_) if *first => {
                *first = false;
                Ok(true)
            }
            _ => give_up(),
        }
    }

    /// Passes over a key and its colon (for `skip`).
    pub(crate) fn key_colon(&mut self) -> Result<()> {
        if self.peek() != Some(b'"') {
            return give_up();
        }
        self.string()?;
        self.colon()
    }

    pub(crate) fn colon(&mut self) -> Result<()> {
        if self.peek() != Some(b':') {
            return give_up();
        }
        self.pos += 1;
        Ok(())
    }

    pub(crate) fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.number()? {
            Number::U64(n) => visitor.visit_u64(n),
            Number::I64(n) => visitor.visit_i64(n),
            Number::F64(n) => visitor.visit_f64(n),
        }
    }
}
