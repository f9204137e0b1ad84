//! A JSON document as a compact tree: [`Doc`] holds the text and one 8-byte entry per value,
//! key and container (a tape); [`Node`] is a copyable handle on one of them. It is what the
//! validators, the checker, the bridge and the engine walk, in place of `serde_json::Value`.
//!
//! Why not `Value`: serde_json's map allocates a B-tree node (about 0.6 KiB) for every
//! non-empty object, so a message of many small objects costs hundreds of times its bytes.
//! Here a message costs its text plus 8 bytes per value and key, a short key and its scalar
//! value sharing one (a `{"k":1}` object: 16 bytes), strings are slices of the text (or of one
//! buffer for those with escapes), and numbers keep their text until asked for.
//!
//! It reads exactly what `serde_json::Value` reads (with the crate's `float_roundtrip`) and
//! gives the same answers: integers within `u64`/`i64` exact, larger ones and those with a
//! fraction or exponent as the correctly rounded `f64`, `-0` as the float `-0.0`, out-of-range
//! floats and lone surrogates refused, nesting past serde_json's limit refused, and on an
//! object with a repeated key the last one wins. On any input it refuses, the error is
//! serde_json's own for the same text. Where it differs from `Value`, on purpose: an object's
//! keys come in the order the text has them (a `Value` sorts them), and a repeated key is seen
//! once, where its last occurrence is.
//!
//! ```
//! use mcp_spec_types::tree::{Doc, Kind};
//!
//! let doc = Doc::parse(r#"{"id":1,"method":"ping","params":{"a":[1,-2,3.5,"x"]},"id":7}"#).unwrap();
//! let root = doc.root();
//! assert_eq!(root.get("method").and_then(|m| m.as_str()), Some("ping"));
//! assert_eq!(root.get("id").and_then(|n| n.as_u64()), Some(7)); // the last `id`
//! let a = root.get("params").unwrap().get("a").unwrap().as_array().unwrap();
//! assert_eq!(a.len(), 4);
//! assert!(matches!(a.get(3).unwrap().kind(), Kind::String("x")));
//! assert_eq!(root.to_value(), serde_json::from_str::<serde_json::Value>(doc.text()).unwrap());
//! ```

mod de;
mod node;
mod number;
mod parse;
mod ser;
mod view;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

pub use node::{Array, ArrayIter, Kind, Node, Number, Object, ObjectIter};
pub use view::View;

/// What an entry is: the top four bits of its `u64`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
enum Tag {
    /// The literals: `b` is the offset of their text.
    Null = 0,
    False = 1,
    True = 2,
    /// `a`: length, `b`: offset of its text.
    Number = 3,
    /// `a`: length, `b`: offset of its text (after the quote; no escapes).
    Str = 4,
    /// `a`: unescaped length, `b`: offset of its text (after the quote); the unescaped text is
    /// found through [`Strings::escaped`].
    StrEscaped = 5,
    /// `a`: how many entries it holds (all levels), `b`: offset of its `[` in the text.
    Array = 6,
    /// As `Array`; its entries are each a key followed by its value.
    Object = 7,
    /// An object with a repeated key: reading it skips all but the last occurrence.
    ObjectRepeated = 8,
    /// A number or string too long for `a`: `b` indexes [`Strings::long`] (text offset, length or unescaped length).
    LongNumber = 9,
    LongStr = 10,
    LongStrEscaped = 11,
    /// An object's member whose key is a short string without escapes and whose value is a short
    /// scalar: both in one entry (`b`: the key's offset; `a`: see [`member`]), so an object of
    /// scalars costs one entry per member, not two. The value is a number, a string without
    /// escapes, or a literal (`null`, `false`, `true` as 0, 1, 2 in the value's length field).
    KeyNumber = 12,
    KeyStr = 13,
    KeyLiteral = 14,
}

impl Tag {
    fn from_bits(bits: u64) -> Tag {
        match bits >> 60 {
            0 => Tag::Null,
            1 => Tag::False,
            2 => Tag::True,
            3 => Tag::Number,
            4 => Tag::Str,
            5 => Tag::StrEscaped,
            6 => Tag::Array,
            7 => Tag::Object,
            8 => Tag::ObjectRepeated,
            9 => Tag::LongNumber,
            10 => Tag::LongStr,
            11 => Tag::LongStrEscaped,
            12 => Tag::KeyNumber,
            13 => Tag::KeyStr,
            _ => Tag::KeyLiteral,
        }
    }

    /// A key and its value in one entry.
    #[inline]
    fn is_member(self) -> bool {
        matches!(self, Tag::KeyNumber | Tag::KeyStr | Tag::KeyLiteral)
    }
}

/// A member entry's `a`: the key's length (8 bits), the bytes between the key's closing quote and
/// the value (4 bits: the colon and any spaces), and the value's length (16 bits).
mod member {
    pub(super) const KEY_MAX: u32 = 0xff;
    pub(super) const GAP_MAX: u32 = 0xf;
    pub(super) const VALUE_MAX: u32 = 0xffff;

    #[inline]
    pub(super) fn pack(key_len: u32, gap: u32, value_len: u32) -> u32 {
        (key_len << 20) | (gap << 16) | value_len
    }

    #[inline]
    pub(super) fn key_len(a: u32) -> u32 {
        a >> 20
    }

    /// Where the value's text starts (its quote, for a string) and its length.
    #[inline]
    pub(super) fn value(a: u32, key_at: u32) -> (u32, u32) {
        (key_at + (a >> 20) + 1 + ((a >> 16) & GAP_MAX), a & VALUE_MAX)
    }
}

/// The entry a member's value would have on its own.
#[inline]
fn member_value(e: u64) -> u64 {
    let (at, len) = member::value(field_a(e), field_b(e));
    match Tag::from_bits(e) {
        Tag::KeyNumber => entry(Tag::Number, len, at),
        Tag::KeyStr => entry(Tag::Str, len, at + 1),
        _ => entry([Tag::Null, Tag::False, Tag::True][len as usize], 0, at),
    }
}

/// `a` is 28 bits: a longer string or number goes to [`Strings::long`]; a container holding more entries, or a
/// document with more, is refused.
const MANY: u32 = (1 << 28) - 1;

#[inline]
fn entry(tag: Tag, a: u32, b: u32) -> u64 {
    debug_assert!(a <= MANY);
    ((tag as u64) << 60) | ((a as u64) << 32) | b as u64
}

#[inline]
fn field_a(e: u64) -> u32 {
    ((e >> 32) as u32) & MANY
}

#[inline]
fn field_b(e: u64) -> u32 {
    e as u32
}

/// What a string entry needs besides the text: the unescaped strings and the side tables.
#[derive(Clone, Default)]
struct Strings {
    unescaped: String,
    /// For each string with escapes, in text order: its text offset and where its unescaped text starts.
    escaped: Vec<(usize, usize)>,
    /// Spans of numbers and strings too long for an entry's 28 bits: (text offset, length in the text,
    /// or unescaped length for an escaped string).
    long: Vec<(usize, usize)>,
}

impl Strings {
    /// The unescaped text of the escaped string whose text starts at `at`.
    fn unescaped_at(&self, at: usize, len: usize) -> &str {
        let i = self.escaped.binary_search_by_key(&at, |&(t, _)| t).expect("every escaped string is listed");
        let from = self.escaped[i].1;
        &self.unescaped[from..from + len]
    }

    /// The string an entry holds, if it is one.
    #[inline]
    fn of<'a>(&'a self, text: &'a str, e: u64) -> Option<&'a str> {
        let (a, b) = (field_a(e) as usize, field_b(e) as usize);
        Some(match Tag::from_bits(e) {
            Tag::Str => &text[b..b + a],
            Tag::StrEscaped => self.unescaped_at(b, a),
            Tag::LongStr => {
                let (at, len) = self.long[b];
                &text[at..at + len]
            }
            Tag::LongStrEscaped => {
                let (at, len) = self.long[b];
                self.unescaped_at(at, len)
            }
            // A member entry, as a key.
            Tag::KeyNumber | Tag::KeyStr | Tag::KeyLiteral => &text[b..b + member::key_len(a as u32) as usize],
            _ => return None,
        })
    }

    fn bytes(&self) -> usize {
        self.unescaped.capacity() + (self.escaped.capacity() + self.long.capacity()) * 16
    }
}

/// A parsed JSON document: its text, a tape of one entry per value, and the unescaped text
/// of strings that had escapes. `'t` is the lifetime of the text (`'static` when owned).
#[derive(Clone)]
pub struct Doc<'t> {
    text: Cow<'t, str>,
    tape: Vec<u64>,
    strings: Strings,
}

impl<'t> Doc<'t> {
    /// Parses `text`, borrowing it. The error is serde_json's for the same text.
    pub fn parse(text: &'t str) -> Result<Doc<'t>, serde_json::Error> {
        parse::parse(Cow::Borrowed(text))
    }

    /// [`Doc::parse`] for bytes, which must be UTF-8 (serde_json's error otherwise).
    pub fn parse_slice(bytes: &'t [u8]) -> Result<Doc<'t>, serde_json::Error> {
        match crate::read::utf8(bytes) {
            Some(text) => Doc::parse(text),
            None => Err(parse::slice_error(bytes)),
        }
    }

    /// The root value.
    #[inline]
    pub fn root(&self) -> Node<'_> {
        Node::new(self, 0)
    }

    /// The text the document was parsed from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Bytes the document occupies besides its text: its entries and its unescaped strings. (The tape
    /// of a text of 1 MiB or more reserves address space for the most entries such a text can hold,
    /// half its length; the part past this figure is never written, so it takes no memory.)
    pub fn tree_bytes(&self) -> usize {
        self.tape.len() * 8 + self.strings.bytes()
    }

    /// The same document owning its text.
    pub fn into_owned(self) -> Doc<'static> {
        Doc { text: Cow::Owned(self.text.into_owned()), tape: self.tape, strings: self.strings }
    }
}

impl Doc<'static> {
    /// Parses `text`, keeping it.
    pub fn parse_owned(text: String) -> Result<Doc<'static>, serde_json::Error> {
        parse::parse(Cow::Owned(text))
    }

    /// The document of a `Value` (through its text): for callers that hold a `Value` already.
    pub fn from_value(value: &serde_json::Value) -> Doc<'static> {
        let text = value.to_string();
        Doc::parse_owned(text).expect("a Value's own text parses")
    }
}

impl std::fmt::Debug for Doc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.root(), f)
    }
}
