//! [`Doc::parse`]: one pass over the text, without recursion, appending one entry per value.
//! Strings and whitespace are scanned by the crate's typed reader's code, so both readers
//! agree on what a string is; numbers it leaves alone (beyond 64 bits, long exponents) are
//! judged by serde_json itself.

use std::borrow::Cow;
use std::collections::HashSet;

use super::{entry, field_a, field_b, member, Doc, Strings, Tag, MANY};
use crate::read::reader::{Reader, Str};
use crate::read::MAX_DEPTH;

pub(super) fn parse(text: Cow<'_, str>) -> Result<Doc<'_>, serde_json::Error> {
    if text.len() > u32::MAX as usize {
        return Err(<serde_json::Error as serde::de::Error>::custom("JSON text over 4 GiB"));
    }
    let mut b = Builder { tape: Vec::with_capacity(first_capacity(text.len())), strings: Strings::default() };
    if b.build(&text).is_none() {
        return Err(error(&text));
    }
    Ok(Doc { text, tape: b.tape, strings: b.strings })
}

/// From this many bytes of text on, the tape is given its largest possible size at once.
const LARGE: usize = 1 << 20;

/// The tape's first capacity. Every entry takes at least two bytes of text (a value and its comma,
/// a key and its colon, `[]`), bar the first and the brackets of the nesting limit, so a large text
/// reserves that bound once: it is never copied to grow (a copy would hold it twice, on allocators
/// that cannot move a block in place), and the part it does not use is never touched, so it costs
/// address space, not memory. A message takes about one entry per 6 to 10 bytes: a small text gets
/// room for one per 5, so it is rarely grown, and is not shrunk after (a copy per message cost more
/// than the bytes it gave back).
fn first_capacity(len: usize) -> usize {
    if len >= LARGE {
        len / 2 + 2 * MAX_DEPTH as usize + 2
    } else {
        len / 5 + 16
    }
}

/// serde_json's error for a text the tree refused (it refuses what serde_json refuses).
#[cold]
fn error(text: &str) -> serde_json::Error {
    match serde_json::from_str::<Skim>(text) {
        Err(e) => e,
        // The one limit of the tree's own: 2^28 entries in one container.
        Ok(Skim) => <serde_json::Error as serde::de::Error>::custom("the compact tree cannot hold this text: over 268 million values in one array or object"),
    }
}

/// serde_json's error for bytes that are not UTF-8: what `from_slice::<Value>` says of them.
#[cold]
pub(super) fn slice_error(bytes: &[u8]) -> serde_json::Error {
    match serde_json::from_slice::<Skim>(bytes) {
        Err(e) => e,
        Ok(Skim) => <serde_json::Error as serde::de::Error>::custom("invalid UTF-8"),
    }
}

/// Reads any JSON as a `Value` would (numbers valued, strings unescaped, nesting counted) but
/// keeps nothing: serde_json's errors for a bad text without the cost of its tree.
/// (`IgnoredAny` would not do: serde_json skips it without valuing numbers or escapes.)
struct Skim;

impl<'de> serde::Deserialize<'de> for Skim {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Skim, D::Error> {
        d.deserialize_any(Skim)
    }
}

impl<'de> serde::de::Visitor<'de> for Skim {
    type Value = Skim;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skim, E> {
        Ok(Skim)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Skim, E> {
        Ok(Skim)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Skim, E> {
        Ok(Skim)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Skim, E> {
        Ok(Skim)
    }
    fn visit_str<E>(self, _: &str) -> Result<Skim, E> {
        Ok(Skim)
    }
    fn visit_unit<E>(self) -> Result<Skim, E> {
        Ok(Skim)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Skim, A::Error> {
        while seq.next_element::<Skim>()?.is_some() {}
        Ok(Skim)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Skim, A::Error> {
        while map.next_entry::<Skim, Skim>()?.is_some() {}
        Ok(Skim)
    }
}

struct Builder {
    tape: Vec<u64>,
    strings: Strings,
}

/// A container being read: the index of its entry and how many entries it has so far.
struct Open {
    at: usize,
    count: u32,
    object: bool,
}

impl Builder {
    /// `None` on anything serde_json would refuse.
    fn build(&mut self, text: &str) -> Option<()> {
        let mut r = Reader::new(text, 0);
        let mut open: Vec<Open> = Vec::new();
        'value: loop {
            match r.peek()? {
                c @ (b'{' | b'[') => {
                    let object = c == b'{';
                    if open.len() as u32 >= MAX_DEPTH {
                        return None;
                    }
                    let at = self.tape.len();
                    self.tape.push(entry(if object { Tag::Object } else { Tag::Array }, 0, r.pos as u32));
                    r.pos += 1;
                    open.push(Open { at, count: 0, object });
                    match r.peek()? {
                        b'}' if object => {}
                        b']' if !object => {}
                        _ if object => {
                            self.key(&mut r)?;
                            continue 'value;
                        }
                        _ => continue 'value,
                    }
                    // Empty: closed below as a finished value.
                    r.pos += 1;
                    let o = open.pop().expect("just pushed");
                    self.close(o, text)?;
                }
                b'"' => self.string(&mut r)?,
                b'-' | b'0'..=b'9' => self.number(&mut r, text)?,
                b'n' => {
                    self.tape.push(entry(Tag::Null, 0, r.pos as u32));
                    r.expect(b"null").ok()?;
                }
                b't' => {
                    self.tape.push(entry(Tag::True, 0, r.pos as u32));
                    r.expect(b"true").ok()?;
                }
                b'f' => {
                    self.tape.push(entry(Tag::False, 0, r.pos as u32));
                    r.expect(b"false").ok()?;
                }
                _ => return None,
            }
            // A scalar is finished: a member's value joins its key's entry where it can.
            if open.last().is_some_and(|o| o.object) {
                self.join_member();
            }
            // A value is finished: go on in the container it is in, closing those that end.
            loop {
                let Some(top) = open.last_mut() else { break 'value };
                top.count = top.count.saturating_add(1);
                match r.peek()? {
                    b',' => {
                        r.pos += 1;
                        if top.object {
                            self.key(&mut r)?;
                        }
                        continue 'value;
                    }
                    b'}' if top.object => {}
                    b']' if !top.object => {}
                    _ => return None,
                }
                r.pos += 1;
                let o = open.pop().expect("a container is open");
                self.close(o, text)?;
            }
        }
        // Only whitespace may follow.
        match r.peek() {
            None => Some(()),
            Some(_) => None,
        }
    }

    /// A key and its colon.
    fn key(&mut self, r: &mut Reader) -> Option<()> {
        if r.peek()? != b'"' {
            return None;
        }
        self.string(r)?;
        if r.peek()? != b':' {
            return None;
        }
        r.pos += 1;
        Some(())
    }

    fn string(&mut self, r: &mut Reader) -> Option<()> {
        let start = r.pos + 1;
        match r.string().ok()? {
            Str::Input(s) => {
                let len = s.len();
                self.span(Tag::Str, Tag::LongStr, start, len);
            }
            Str::Scratch(s) => {
                self.strings.escaped.push((start, self.strings.unescaped.len()));
                self.strings.unescaped.push_str(s);
                let len = s.len();
                self.span(Tag::StrEscaped, Tag::LongStrEscaped, start, len);
            }
        }
        Some(())
    }

    fn number(&mut self, r: &mut Reader, text: &str) -> Option<()> {
        let start = r.pos;
        if r.number().is_err() {
            // Past what the typed reader takes (beyond 64 bits, long exponents): the grammar
            // here, the value's range from serde_json.
            r.pos = start;
            scan_number(r.bytes, &mut r.pos)?;
            serde_json::from_str::<serde_json::Number>(&text[start..r.pos]).ok()?;
        }
        self.span(Tag::Number, Tag::LongNumber, start, r.pos - start);
        Some(())
    }

    /// Makes the last two entries, a key and its scalar value, one member entry if both are short
    /// enough (see [`member`]); most members of a message are.
    #[inline]
    fn join_member(&mut self) {
        let n = self.tape.len();
        let (k, v) = (self.tape[n - 2], self.tape[n - 1]);
        if Tag::from_bits(k) != Tag::Str || field_a(k) > member::KEY_MAX {
            return;
        }
        let (len, at) = (field_a(v), field_b(v));
        let (tag, len, at) = match Tag::from_bits(v) {
            Tag::Number => (Tag::KeyNumber, len, at),
            Tag::Str => (Tag::KeyStr, len, at - 1),
            Tag::Null => (Tag::KeyLiteral, 0, at),
            Tag::False => (Tag::KeyLiteral, 1, at),
            Tag::True => (Tag::KeyLiteral, 2, at),
            _ => return,
        };
        let gap = at - (field_b(k) + field_a(k) + 1);
        if len > member::VALUE_MAX || gap > member::GAP_MAX {
            return;
        }
        self.tape[n - 2] = entry(tag, member::pack(field_a(k), gap, len), field_b(k));
        self.tape.pop();
    }

    fn span(&mut self, short: Tag, long: Tag, at: usize, len: usize) {
        if len < MANY as usize && at <= u32::MAX as usize {
            self.tape.push(entry(short, len as u32, at as u32));
        } else {
            self.tape.push(entry(long, 0, self.strings.long.len() as u32));
            self.strings.long.push((at, len));
        }
    }

    /// Writes how many entries a finished container holds into its entry; `None` past [`MANY`].
    fn close(&mut self, o: Open, text: &str) -> Option<()> {
        let inside = self.tape.len() - o.at - 1;
        if inside >= MANY as usize {
            return None;
        }
        let mut tag = if o.object { Tag::Object } else { Tag::Array };
        if o.object && o.count > 1 && self.repeats_a_key(o.at, self.tape.len(), text) {
            tag = Tag::ObjectRepeated;
        }
        let bracket = self.tape[o.at] as u32;
        self.tape[o.at] = entry(tag, inside as u32, bracket);
        Some(())
    }

    /// Whether the object whose entries run from `at` (its own) to `end` has a key twice.
    fn repeats_a_key(&self, at: usize, end: usize, text: &str) -> bool {
        let key = |i: usize| self.strings.of(text, self.tape[i]).unwrap_or("");
        let mut keys = Vec::new();
        let mut i = at + 1;
        while i < end {
            keys.push(i);
            i = if Tag::from_bits(self.tape[i]).is_member() { i + 1 } else { next(&self.tape, i + 1) };
        }
        if keys.len() <= 8 {
            return keys.iter().enumerate().any(|(n, &a)| keys[n + 1..].iter().any(|&b| key(a) == key(b)));
        }
        let mut seen = HashSet::with_capacity(keys.len());
        !keys.iter().all(|&i| seen.insert(key(i)))
    }
}

/// The index of the entry after the value at `i` (past a container's contents).
#[inline]
pub(super) fn next(tape: &[u64], i: usize) -> usize {
    let e = tape[i];
    match Tag::from_bits(e) {
        Tag::Array | Tag::Object | Tag::ObjectRepeated => i + 1 + field_a(e) as usize,
        _ => i + 1,
    }
}

/// Passes over a number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn scan_number(b: &[u8], pos: &mut usize) -> Option<()> {
    let digits = |pos: &mut usize| {
        let from = *pos;
        while let Some(b'0'..=b'9') = b.get(*pos) {
            *pos += 1;
        }
        *pos > from
    };
    if b.get(*pos) == Some(&b'-') {
        *pos += 1;
    }
    match b.get(*pos)? {
        b'0' => *pos += 1,
        b'1'..=b'9' => {
            digits(pos);
        }
        _ => return None,
    }
    if b.get(*pos) == Some(&b'.') {
        *pos += 1;
        if !digits(pos) {
            return None;
        }
    }
    if let Some(b'e' | b'E') = b.get(*pos) {
        *pos += 1;
        if let Some(b'+' | b'-') = b.get(*pos) {
            *pos += 1;
        }
        if !digits(pos) {
            return None;
        }
    }
    Some(())
}
