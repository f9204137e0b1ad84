//! The reader behind [`crate::from_slice`] and [`crate::from_str`]: a JSON deserializer for
//! complete, valid input, with serde_json as the authority for everything else.
//!
//! It checks the input's UTF-8 once, up front, so strings are slices of it; it finds the end
//! of a string eight bytes at a time, and of a long one in 64-byte blocks; and its framing
//! (whitespace, commas, colons, brackets) is shared code rather than inlined into every
//! type's visitor. It makes the same visitor calls
//! serde_json makes for the same JSON (`visit_borrowed_str` for a string without escapes,
//! `visit_u64` / `visit_i64` / `visit_f64` by the same rules, serde_json's raw-value protocol).
//!
//! It never reports an error of its own. At anything it does not handle exactly as serde_json
//! does (malformed JSON, integers beyond 64 bits, exponents beyond three digits, `enum`s, byte
//! strings, nesting deeper than serde_json allows) it gives up, even where a visitor catches
//! that, and the caller reads the input again with serde_json, whose value or error is then
//! the answer. An error a visitor makes itself (a missing field, a union member that does not
//! fit) is one it makes under serde_json too, since it sees the same calls: caught, the read
//! goes on here; uncaught, it ends the read, and serde_json's error is the answer.

use std::cell::Cell;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, Visitor};
use serde::forward_to_deserialize_any;

// The name serde_json's raw-value protocol passes to `deserialize_newtype_struct`.
use crate::runtime::__private::RAW_VALUE_TOKEN as RAW_TOKEN;

/// serde_json refuses nesting deeper than this; stopping no later keeps its errors its own.
const MAX_DEPTH: u32 = 127;

thread_local! {
    static GAVE_UP: Cell<bool> = const { Cell::new(false) };
}

/// The read ends; the input is to be read by serde_json. When the reader itself gives up
/// ([`GiveUp::new`]) that is recorded, so a visitor that catches it cannot hide it.
#[derive(Debug)]
pub(crate) struct GiveUp;

impl GiveUp {
    #[cold]
    fn new() -> Self {
        GAVE_UP.with(|g| g.set(true));
        GiveUp
    }
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    /// A visitor's own error, not recorded: serde_json would hand the visitor the same calls,
    /// so it would make the same error there.
    fn custom<T: fmt::Display>(_: T) -> Self {
        GiveUp
    }
}

type Result<T> = std::result::Result<T, GiveUp>;

#[cold]
fn give_up<T>() -> Result<T> {
    Err(GiveUp::new())
}

/// Reads `text` as one `T`, or `None` when serde_json must read it.
pub(crate) fn read<'de, T: de::Deserialize<'de>>(text: &'de str) -> Option<T> {
    let before = GAVE_UP.with(|g| g.replace(false));
    let mut r = Reader { text, bytes: text.as_bytes(), pos: 0, depth: 0, scratch: String::new() };
    let out = T::deserialize(&mut r).and_then(|v| match r.peek() {
        None => Ok(v),
        Some(_) => give_up(),
    });
    let gave_up = GAVE_UP.with(|g| g.replace(before));
    match out {
        Ok(v) if !gave_up => Some(v),
        _ => None,
    }
}

struct Reader<'de> {
    text: &'de str,
    bytes: &'de [u8],
    pos: usize,
    depth: u32,
    /// Unescaped text of the last string that had escapes.
    scratch: String,
}

/// A string as read: a slice of the input, or unescaped into the scratch buffer.
enum Str<'de, 's> {
    Input(&'de str),
    Scratch(&'s str),
}

enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

/// Whether JSON text must not hold this byte unescaped, or it ends the string.
#[inline]
fn special(b: u8) -> bool {
    // `|`, not `||`: no branches, so blocks of bytes are tested as vectors.
    (b == b'"') | (b == b'\\') | (b < 0x20)
}

const ONES: u64 = u64::MAX / 255;

/// The high bit of each byte of `word` (little-endian) that is special; only the lowest set
/// bit is exact, which is all `find_special` uses (a borrow only runs past a special byte).
#[inline]
fn special_bits(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & (ONES << 7)
}

/// The index of the first `"`, `\` or control byte at or after `i`, or the length.
#[inline]
fn find_special(bytes: &[u8], mut i: usize) -> usize {
    let start = i;
    // Eight bytes at a time, which suits keys and short values; past 32 bytes, clean 64-byte
    // blocks are skipped first (the OR of the byte tests compiles to vector compares).
    while let Some(word) = bytes.get(i..i + 8) {
        let bits = special_bits(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        if bits != 0 {
            return i + (bits.trailing_zeros() / 8) as usize;
        }
        i += 8;
        if i - start >= 32 {
            while let Some(block) = bytes.get(i..i + 64) {
                let block: &[u8; 64] = block.try_into().expect("64 bytes");
                if block.iter().fold(0u8, |any, &b| any | special(b) as u8) != 0 {
                    break;
                }
                i += 64;
            }
        }
    }
    while i < bytes.len() && !special(bytes[i]) {
        i += 1;
    }
    i
}

impl<'de> Reader<'de> {
    /// The next byte that is not whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        // Only the test is inlined into every caller; whitespace (all at or below b' ') is
        // passed over by one shared copy of the loop.
        match self.bytes.get(self.pos) {
            Some(&b) if b > b' ' => Some(b),
            _ => self.peek_past_whitespace(),
        }
    }

    #[inline(never)]
    fn peek_past_whitespace(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b' ' | b'\n' | b'\t' | b'\r' => self.pos += 1,
                _ => return Some(b),
            }
        }
        None
    }

    /// Consumes `word` (a literal's remaining letters).
    fn expect(&mut self, word: &[u8]) -> Result<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            give_up()
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return give_up();
        }
        self.pos += 1;
        Ok(())
    }

    /// Consumes the closing bracket of the container just read.
    fn leave(&mut self, close: u8) -> Result<()> {
        if self.peek() != Some(close) {
            return give_up();
        }
        self.pos += 1;
        self.depth -= 1;
        Ok(())
    }

    /// Reads the string that starts at `pos` (at its `"`).
    fn string<'s>(&'s mut self) -> Result<Str<'de, 's>> {
        let start = self.pos + 1;
        let end = find_special(self.bytes, start);
        match self.bytes.get(end) {
            Some(b'"') => {
                self.pos = end + 1;
                Ok(Str::Input(&self.text[start..end]))
            }
            Some(b'\\') => {
                self.scratch.clear();
                self.scratch.push_str(&self.text[start..end]);
                self.pos = end;
                self.escaped()?;
                Ok(Str::Scratch(&self.scratch))
            }
            _ => give_up(),
        }
    }

    /// Continues a string at its first escape, unescaping into `scratch`.
    fn escaped(&mut self) -> Result<()> {
        loop {
            // At a backslash.
            let Some(&e) = self.bytes.get(self.pos + 1) else { return give_up() };
            self.pos += 2;
            let c = match e {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => self.unicode_escape()?,
                _ => return give_up(),
            };
            self.scratch.push(c);
            let end = find_special(self.bytes, self.pos);
            self.scratch.push_str(&self.text[self.pos..end]);
            self.pos = end;
            match self.bytes.get(end) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {}
                _ => return give_up(),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32> {
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
    fn unicode_escape(&mut self) -> Result<char> {
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
    fn number(&mut self) -> Result<Number> {
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
    fn float(&mut self, start: usize) -> Result<Number> {
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
    fn skip(&mut self) -> Result<()> {
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
    fn next_item(&mut self, close: u8, first: &mut bool) -> Result<bool> {
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
    fn key_colon(&mut self) -> Result<()> {
        if self.peek() != Some(b'"') {
            return give_up();
        }
        self.string()?;
        self.colon()
    }

    fn colon(&mut self) -> Result<()> {
        if self.peek() != Some(b':') {
            return give_up();
        }
        self.pos += 1;
        Ok(())
    }

    fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.number()? {
            Number::U64(n) => visitor.visit_u64(n),
            Number::I64(n) => visitor.visit_i64(n),
            Number::F64(n) => visitor.visit_f64(n),
        }
    }
}

macro_rules! numbers_by_shape {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.deserialize_i64(visitor)
        })*
    };
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => match self.string()? {
                Str::Input(s) => visitor.visit_borrowed_str(s),
                Str::Scratch(s) => visitor.visit_str(s),
            },
            Some(b'-' | b'0'..=b'9') => self.visit_number(visitor),
            Some(b'{') => self.deserialize_map(visitor),
            Some(b'[') => self.deserialize_seq(visitor),
            Some(b'n') => {
                self.expect(b"null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.expect(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.expect(b"false")?;
                visitor.visit_bool(false)
            }
            _ => give_up(),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b't' | b'f') => self.deserialize_any(visitor),
            _ => give_up(),
        }
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.visit_number(visitor),
            _ => give_up(),
        }
    }

    // Every other number type reads the number by its own shape (`visit_u64`, `visit_i64` or
    // `visit_f64`), as serde_json does; the visitor converts.
    numbers_by_shape!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64);

    fn deserialize_char<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => self.deserialize_any(visitor),
            _ => give_up(),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.expect(b"null")?;
                visitor.visit_none()
            }
            Some(_) => visitor.visit_some(self),
            None => give_up(),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => self.deserialize_any(visitor),
            _ => give_up(),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if name != RAW_TOKEN {
            return visitor.visit_newtype_struct(self);
        }
        // serde_json's raw-value protocol: a one-entry map from the token to the value's text.
        self.peek();
        let start = self.pos;
        self.skip()?;
        visitor.visit_map(RawEntry(Some(&self.text[start..self.pos])))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() != Some(b'[') {
            return give_up();
        }
        self.enter()?;
        let v = visitor.visit_seq(Items { r: &mut *self, first: true })?;
        self.leave(b']')?;
        Ok(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() != Some(b'{') {
            return give_up();
        }
        self.enter()?;
        let v = visitor.visit_map(Entries { r: &mut *self, first: true })?;
        self.leave(b'}')?;
        Ok(v)
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip()?;
        visitor.visit_unit()
    }
}

struct Items<'a, 'de> {
    r: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = GiveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.r.next_item(b']', &mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.r).map(Some)
    }
}

struct Entries<'a, 'de> {
    r: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = GiveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.r.next_item(b'}', &mut self.first)? {
            return Ok(None);
        }
        if self.r.peek() != Some(b'"') {
            return give_up();
        }
        match self.r.string()? {
            Str::Input(s) => seed.deserialize(BorrowedStrDeserializer::<GiveUp>::new(s)),
            Str::Scratch(s) => seed.deserialize(StrDeserializer::<GiveUp>::new(s)),
        }
        .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.r.colon()?;
        seed.deserialize(&mut *self.r)
    }
}

/// The one entry serde_json's raw-value protocol hands to the visitor.
struct RawEntry<'de>(Option<&'de str>);

impl<'de> de::MapAccess<'de> for RawEntry<'de> {
    type Error = GiveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(RawKey).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.0.take() {
            Some(text) => seed.deserialize(BorrowedStrDeserializer::<GiveUp>::new(text)),
            None => give_up(),
        }
    }
}

/// The key of [`RawEntry`]: the token, however it is asked for.
struct RawKey;

impl<'de> de::Deserializer<'de> for RawKey {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(RAW_TOKEN)
    }

    forward_to_deserialize_any! {
        bool u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 f32 f64 char str string seq
        bytes byte_buf map struct option unit newtype_struct ignored_any
        unit_struct tuple_struct tuple enum identifier
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// What serde_json reads, and whether this reader reads the same or leaves it to serde_json.
    fn agrees(json: &str) -> bool {
        let ours: Option<Value> = read(json);
        let theirs: Option<Value> = serde_json::from_str(json).ok();
        match (&ours, &theirs) {
            (Some(a), Some(b)) => {
                assert_eq!(a, b, "{json}");
                assert_eq!(a.to_string(), b.to_string(), "{json}");
                true
            }
            (Some(a), None) => panic!("{json}: serde_json refuses it, this reader gave {a}"),
            (None, _) => false,
        }
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for json in [
            r#"{"a":[1,-2,3.5,true,false,null,"x"],"b":{}}"#,
            " [ ] ",
            " \t\n\r{ \"a\" :\n[ 1 ,\t2 ]\r, \"b\":{ } } \n",
            r#""esc\"aped \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 end""#,
            "18446744073709551615",
            "-9223372036854775808",
            "-9223372036854775809",
            "-0",
            "-0.0",
            "1e2",
            "1E-2",
            "0.1",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "123456789.123456789e-12",
            r#"{"k":"ünïcödé","long":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"b"}"#,
        ] {
            assert!(agrees(json), "left to serde_json: {json}");
        }
    }

    #[test]
    fn leaves_the_rest_to_serde_json() {
        for json in [
            "",
            " ",
            "[1,]",
            r#"{"a":1,}"#,
            "[1 2]",
            r#"{"a" 1}"#,
            r#"{1:2}"#,
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "1e400",
            "1e0005",
            "18446744073709551616",
            "nul",
            "nullx",
            "[true false]",
            "\"\u{1}\"",
            r#""\ud800""#,
            r#""\udc00\ud800""#,
            r#""\x""#,
            "\"open",
            "{} {}",
            "\u{1}[]",
            "[\u{b}]",
            &"[".repeat(200),
            &format!("{}{}", "[".repeat(130), "]".repeat(130)),
        ] {
            assert!(!agrees(json), "read, but expected to be left to serde_json: {json:?}");
        }
    }

    #[test]
    fn a_caught_give_up_still_gives_up_but_a_caught_visitor_error_does_not() {
        // Reads any value and takes it if it is an unsigned integer: `None` where the read
        // failed, whatever failed.
        struct Caught(Option<u64>);
        impl<'de> de::Deserialize<'de> for Caught {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                struct Unsigned;
                impl<'de> Visitor<'de> for Unsigned {
                    type Value = u64;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("an unsigned integer")
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<u64, E> {
                        Ok(v)
                    }
                }
                Ok(Caught(d.deserialize_any(Unsigned).ok()))
            }
        }
        // The reader gives up on an integer beyond 64 bits (serde_json reads it as a float).
        assert!(read::<Vec<Caught>>("[123456789012345678901234567890]").is_none());
        // A string is no `u64`: the visitor's error, caught, as it would be under serde_json.
        let v = read::<Vec<Caught>>(r#"["x", 7]"#).expect("read here");
        assert_eq!(v.iter().map(|c| c.0).collect::<Vec<_>>(), [None, Some(7)]);
        assert!(read::<de::IgnoredAny>("1").is_some());
    }

    #[test]
    fn raw_values_are_the_input_text() {
        let v: Option<Box<serde_json::value::RawValue>> = read(r#" { "a" : [1, 2] } "#);
        assert_eq!(v.unwrap().get(), r#"{ "a" : [1, 2] }"#);
        let v: Option<Vec<Box<serde_json::value::RawValue>>> = read(r#"[1, "x\n", {}]"#);
        assert_eq!(v.unwrap().iter().map(|r| r.get()).collect::<Vec<_>>(), ["1", r#""x\n""#, "{}"]);
    }

    /// Numbers of every shape the grammar allows (and some it does not), from a fixed seed:
    /// each is read as serde_json reads it, float bits included, or left to serde_json.
    #[test]
    fn numbers_agree_with_serde_json() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let (mut read_here, mut left) = (0, 0);
        for _ in 0..20_000 {
            let mut t = String::new();
            if next(3) == 0 {
                t.push('-');
            }
            for i in 0..1 + next(22) {
                t.push(char::from(b'0' + if i == 0 { next(10) as u8 } else { next(10) as u8 }));
            }
            if next(2) == 0 {
                t.push('.');
                for _ in 0..next(20) {
                    t.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(3) == 0 {
                t.push(if next(2) == 0 { 'e' } else { 'E' });
                match next(3) {
                    0 => t.push('-'),
                    1 => t.push('+'),
                    _ => {}
                }
                for _ in 0..next(5) {
                    t.push(char::from(b'0' + next(10) as u8));
                }
            }
            let json = format!("[{t}]");
            if agrees(&json) {
                let ours: Value = read(&json).unwrap();
                let theirs: Value = serde_json::from_str(&json).unwrap();
                let bits = |v: &Value| v[0].as_f64().map(f64::to_bits);
                assert_eq!(bits(&ours), bits(&theirs), "{json}");
                assert_eq!((ours[0].is_u64(), ours[0].is_i64()), (theirs[0].is_u64(), theirs[0].is_i64()), "{json}");
                read_here += 1;
            } else {
                left += 1;
            }
        }
        // Most shapes are valid JSON with short exponents: the reader must take them itself.
        assert!(read_here > 10_000, "read {read_here}, left {left}");
    }

    #[test]
    fn strings_at_every_chunk_offset() {
        for len in 0..70 {
            for at in 0..len.max(1) {
                let mut s: String = "x".repeat(len);
                if len > 0 {
                    s.replace_range(at..at + 1, "\\n");
                }
                let json = format!("[\"{s}\",\"{}\"]", "y".repeat(len));
                assert!(agrees(&json), "{json}");
            }
        }
    }
}
