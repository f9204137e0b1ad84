//! [`Node`], a handle on one value of a [`Doc`], and the views of its kinds: [`Number`],
//! [`Array`] and [`Object`]. They answer as `serde_json::Value` answers for the same JSON.

use std::collections::HashMap;
use std::fmt;

pub use super::number::Number;
pub(super) use super::number::N;
use super::parse::next;
use super::{field_a, field_b, member, member_value, Doc, Tag};

/// One value of a [`Doc`]: copyable, 16 bytes, borrowing the document.
#[derive(Clone, Copy)]
pub struct Node<'v> {
    doc: &'v Doc<'v>,
    at: u32,
    /// The value half of a member entry (a key and its scalar value in one entry).
    value: bool,
}

/// What a [`Node`] is, to `match` on (as one would on a `Value`).
#[derive(Clone, Copy, Debug)]
pub enum Kind<'v> {
    Null,
    Bool(bool),
    Number(Number<'v>),
    String(&'v str),
    Array(Array<'v>),
    Object(Object<'v>),
}

impl<'v> Node<'v> {
    #[inline]
    pub(super) fn new(doc: &'v Doc<'v>, at: usize) -> Self {
        Node { doc, at: at as u32, value: false }
    }

    /// The value's entry (for a member's value, the entry it would have on its own).
    #[inline]
    fn entry(self) -> u64 {
        let e = self.doc.tape[self.at as usize];
        if self.value {
            member_value(e)
        } else {
            e
        }
    }

    #[inline]
    fn tag(self) -> Tag {
        Tag::from_bits(self.entry())
    }

    /// The document this value is part of.
    pub fn doc(self) -> &'v Doc<'v> {
        self.doc
    }

    pub fn kind(self) -> Kind<'v> {
        let e = self.entry();
        match Tag::from_bits(e) {
            Tag::Null => Kind::Null,
            Tag::False => Kind::Bool(false),
            Tag::True => Kind::Bool(true),
            Tag::Number | Tag::LongNumber => Kind::Number(self.number_unchecked()),
            Tag::Str | Tag::StrEscaped | Tag::LongStr | Tag::LongStrEscaped => Kind::String(self.str_unchecked()),
            Tag::Array => Kind::Array(Array { doc: self.doc, at: self.at }),
            Tag::Object | Tag::ObjectRepeated => Kind::Object(Object { doc: self.doc, at: self.at }),
            Tag::KeyNumber | Tag::KeyStr | Tag::KeyLiteral => unreachable!("a member entry is reached as its value"),
        }
    }

    fn str_unchecked(self) -> &'v str {
        self.doc.strings.of(&self.doc.text, self.entry()).expect("a string entry")
    }

    fn number_unchecked(self) -> Number<'v> {
        let e = self.entry();
        let (at, len) = match Tag::from_bits(e) {
            Tag::LongNumber => self.doc.strings.long[field_b(e) as usize],
            _ => (field_b(e) as usize, field_a(e) as usize),
        };
        Number { text: &self.doc.text[at..at + len] }
    }

    #[inline]
    pub fn is_null(self) -> bool {
        self.tag() == Tag::Null
    }

    #[inline]
    pub fn is_boolean(self) -> bool {
        matches!(self.tag(), Tag::False | Tag::True)
    }

    #[inline]
    pub fn is_number(self) -> bool {
        matches!(self.tag(), Tag::Number | Tag::LongNumber)
    }

    #[inline]
    pub fn is_string(self) -> bool {
        matches!(self.tag(), Tag::Str | Tag::StrEscaped | Tag::LongStr | Tag::LongStrEscaped)
    }

    #[inline]
    pub fn is_array(self) -> bool {
        self.tag() == Tag::Array
    }

    #[inline]
    pub fn is_object(self) -> bool {
        matches!(self.tag(), Tag::Object | Tag::ObjectRepeated)
    }

    pub fn as_bool(self) -> Option<bool> {
        match self.tag() {
            Tag::True => Some(true),
            Tag::False => Some(false),
            _ => None,
        }
    }

    #[inline]
    pub fn as_str(self) -> Option<&'v str> {
        if self.is_string() {
            Some(self.str_unchecked())
        } else {
            None
        }
    }

    pub fn as_number(self) -> Option<Number<'v>> {
        if self.is_number() {
            Some(self.number_unchecked())
        } else {
            None
        }
    }

    pub fn as_u64(self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    pub fn as_i64(self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    pub fn as_f64(self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    pub fn is_u64(self) -> bool {
        self.as_number().is_some_and(Number::is_u64)
    }

    pub fn is_i64(self) -> bool {
        self.as_number().is_some_and(Number::is_i64)
    }

    pub fn is_f64(self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    #[inline]
    pub fn as_array(self) -> Option<Array<'v>> {
        if self.is_array() {
            Some(Array { doc: self.doc, at: self.at })
        } else {
            None
        }
    }

    #[inline]
    pub fn as_object(self) -> Option<Object<'v>> {
        if self.is_object() {
            Some(Object { doc: self.doc, at: self.at })
        } else {
            None
        }
    }

    /// An object's value under `key` (the last, if repeated); `None` for anything else.
    pub fn get(self, key: &str) -> Option<Node<'v>> {
        self.as_object()?.get(key)
    }

    /// The value at a JSON pointer (RFC 6901), as `Value::pointer` finds it.
    pub fn pointer(self, pointer: &str) -> Option<Node<'v>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut at = self;
        for token in rest.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            at = match at.kind() {
                Kind::Object(o) => o.get(&token)?,
                Kind::Array(a) => {
                    if token.starts_with('+') || (token.len() > 1 && token.starts_with('0')) {
                        return None;
                    }
                    a.get(token.parse().ok()?)?
                }
                _ => return None,
            };
        }
        Some(at)
    }

    /// The same value as a `serde_json::Value` (what parsing its text with serde_json gives).
    pub fn to_value(self) -> serde_json::Value {
        use serde_json::Value;
        match self.kind() {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            Kind::Number(n) => Value::Number(n.to_number()),
            Kind::String(s) => Value::String(s.to_owned()),
            Kind::Array(a) => Value::Array(a.iter().map(Node::to_value).collect()),
            Kind::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.to_owned(), v.to_value())).collect()),
        }
    }

    /// Reads this value as `T`, the way `T::deserialize(&value)` reads the `Value` of the same JSON.
    pub fn deserialize<T: serde::Deserialize<'v>>(self) -> Result<T, serde_json::Error> {
        T::deserialize(self)
    }

    /// The value's JSON text exactly as the document holds it (whitespace inside and escapes kept): a
    /// slice of the text, so an untouched part can be passed on byte for byte or read again.
    pub fn json_text(self) -> &'v str {
        let text: &'v str = &self.doc.text;
        let e = self.entry();
        let (a, b) = (field_a(e) as usize, field_b(e) as usize);
        let (start, len) = match Tag::from_bits(e) {
            Tag::Null | Tag::True => (b, 4),
            Tag::False => (b, 5),
            Tag::Number => (b, a),
            Tag::LongNumber => self.doc.strings.long[b],
            Tag::Str => (b - 1, a + 2),
            Tag::LongStr => {
                let (at, len) = self.doc.strings.long[b];
                (at - 1, len + 2)
            }
            // Escaped strings and containers: their end is found by passing over them again.
            tag => {
                let start = match tag {
                    Tag::StrEscaped => b - 1,
                    Tag::LongStrEscaped => self.doc.strings.long[b].0 - 1,
                    _ => b,
                };
                (start, end_of(text.as_bytes(), start) - start)
            }
        };
        &text[start..start + len]
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_value(), f)
    }
}

/// Compact JSON, as `Value`'s `Display` writes it (keys in the text's order).
impl fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::ser::write_fmt(*self, f)
    }
}

impl PartialEq<serde_json::Value> for Node<'_> {
    fn eq(&self, other: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (self.kind(), other) {
            (Kind::Null, Value::Null) => true,
            (Kind::Bool(a), Value::Bool(b)) => a == *b,
            (Kind::Number(a), Value::Number(b)) => a.to_number() == *b,
            (Kind::String(a), Value::String(b)) => a == b,
            (Kind::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == *y),
            (Kind::Object(a), Value::Object(b)) => a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| x == *y)),
            _ => false,
        }
    }
}

/// Equal JSON, as two `Value`s of them would be equal (numbers by value, objects by key).
impl PartialEq for Node<'_> {
    fn eq(&self, other: &Node<'_>) -> bool {
        match (self.kind(), other.kind()) {
            (Kind::Null, Kind::Null) => true,
            (Kind::Bool(a), Kind::Bool(b)) => a == b,
            (Kind::Number(a), Kind::Number(b)) => a.to_number() == b.to_number(),
            (Kind::String(a), Kind::String(b)) => a == b,
            (Kind::Array(a), Kind::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y),
            (Kind::Object(a), Kind::Object(b)) => a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| x == y)),
            _ => false,
        }
    }
}

/// An array's elements.
#[derive(Clone, Copy)]
pub struct Array<'v> {
    doc: &'v Doc<'v>,
    at: u32,
}

impl<'v> Array<'v> {
    /// How many elements: counted by passing over them (cheap: a nested value is passed over at once).
    pub fn len(self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(self) -> bool {
        field_a(self.doc.tape[self.at as usize]) == 0
    }

    pub fn first(self) -> Option<Node<'v>> {
        self.iter().next()
    }

    /// The element at `i`: found by passing over those before it, so iterate rather than index in a loop.
    pub fn get(self, i: usize) -> Option<Node<'v>> {
        self.iter().nth(i)
    }

    pub fn iter(self) -> ArrayIter<'v> {
        ArrayIter { doc: self.doc, i: self.at as usize + 1, end: next(&self.doc.tape, self.at as usize) }
    }

    /// The array as a node.
    pub fn node(self) -> Node<'v> {
        Node::new(self.doc, self.at as usize)
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'v> IntoIterator for Array<'v> {
    type Item = Node<'v>;
    type IntoIter = ArrayIter<'v>;
    fn into_iter(self) -> ArrayIter<'v> {
        self.iter()
    }
}

pub struct ArrayIter<'v> {
    doc: &'v Doc<'v>,
    i: usize,
    end: usize,
}

impl<'v> Iterator for ArrayIter<'v> {
    type Item = Node<'v>;
    #[inline]
    fn next(&mut self) -> Option<Node<'v>> {
        if self.i >= self.end {
            return None;
        }
        let n = Node::new(self.doc, self.i);
        self.i = next(&self.doc.tape, self.i);
        Some(n)
    }
}

/// An object's entries, in the text's order; a repeated key is seen once, with its last value.
#[derive(Clone, Copy)]
pub struct Object<'v> {
    doc: &'v Doc<'v>,
    at: u32,
}

impl<'v> Object<'v> {
    /// Whether the text of this object has a key more than once (the tree shows each once, with its last value).
    pub fn has_repeated_key(self) -> bool {
        self.repeated()
    }

    fn repeated(self) -> bool {
        Tag::from_bits(self.doc.tape[self.at as usize]) == Tag::ObjectRepeated
    }

    /// Every member, repeated keys included.
    fn raw(self) -> Members<'v> {
        Members { doc: self.doc, i: self.at as usize + 1, end: next(&self.doc.tape, self.at as usize) }
    }

    /// How many distinct keys.
    pub fn len(self) -> usize {
        if self.repeated() {
            self.iter().count()
        } else {
            self.raw().count()
        }
    }

    pub fn is_empty(self) -> bool {
        field_a(self.doc.tape[self.at as usize]) == 0
    }

    /// The value under `key`; the last one if the key is repeated.
    pub fn get(self, key: &str) -> Option<Node<'v>> {
        self.get_key_value(key).map(|(_, v)| v)
    }

    /// The key as the document holds it (borrowed for `'v`) and its value.
    pub fn get_key_value(self, key: &str) -> Option<(&'v str, Node<'v>)> {
        let (doc, repeated) = (self.doc, self.repeated());
        let mut found = None;
        for (k, v) in self.raw() {
            if doc.key_is(k, key.as_bytes()) {
                found = Some((doc.key(k), v));
                if !repeated {
                    break;
                }
            }
        }
        found
    }

    pub fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(self) -> ObjectIter<'v> {
        // Which entries a later one of the same key hides: worked out once, in one pass, and
        // only for objects that repeat a key.
        let hidden = if self.repeated() {
            let mut last: HashMap<&str, usize> = HashMap::new();
            let mut n = 0;
            for (k, _) in self.raw() {
                last.insert(self.doc.key(k), n);
                n += 1;
            }
            let hide = self.raw().enumerate().map(|(i, (k, _))| last[self.doc.key(k)] != i).collect();
            Some(hide)
        } else {
            None
        };
        ObjectIter { entries: self.raw(), hidden, n: 0 }
    }

    pub fn keys(self) -> impl Iterator<Item = &'v str> {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(self) -> impl Iterator<Item = Node<'v>> {
        self.iter().map(|(_, v)| v)
    }

    /// The object as a node.
    pub fn node(self) -> Node<'v> {
        Node::new(self.doc, self.at as usize)
    }
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'v> IntoIterator for Object<'v> {
    type Item = (&'v str, Node<'v>);
    type IntoIter = ObjectIter<'v>;
    fn into_iter(self) -> ObjectIter<'v> {
        self.iter()
    }
}

pub struct ObjectIter<'v> {
    entries: Members<'v>,
    /// For an object that repeats a key: which entries to pass over.
    hidden: Option<Vec<bool>>,
    n: usize,
}

impl<'v> Iterator for ObjectIter<'v> {
    type Item = (&'v str, Node<'v>);
    #[inline]
    fn next(&mut self) -> Option<(&'v str, Node<'v>)> {
        loop {
            let (k, v) = self.entries.next()?;
            let n = self.n;
            self.n += 1;
            if self.hidden.as_ref().is_some_and(|h| h[n]) {
                continue;
            }
            return Some((self.entries.doc.key(k), v));
        }
    }
}

/// Where the string or container whose first byte is at `at` ends, in a text the tree has parsed (so
/// valid JSON: no limit of a reader's applies, such as numbers past 64 bits): brackets counted, strings
/// passed over with their escapes.
fn end_of(text: &[u8], at: usize) -> usize {
    let mut depth = 0usize;
    let mut i = at;
    loop {
        match text[i] {
            b'"' => {
                i += 1;
                while text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 0 {
                    return i + 1;
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// An object's members in the text's order, repeated keys included: the index of each key's entry
/// and its value (in the same entry, for a member entry; else the entries after it).
pub(super) struct Members<'v> {
    doc: &'v Doc<'v>,
    i: usize,
    end: usize,
}

impl<'v> Iterator for Members<'v> {
    type Item = (usize, Node<'v>);
    #[inline]
    fn next(&mut self) -> Option<(usize, Node<'v>)> {
        if self.i >= self.end {
            return None;
        }
        let k = self.i;
        if Tag::from_bits(self.doc.tape[k]).is_member() {
            self.i = k + 1;
            return Some((k, Node { doc: self.doc, at: k as u32, value: true }));
        }
        self.i = next(&self.doc.tape, k + 1);
        Some((k, Node::new(self.doc, k + 1)))
    }
}

impl<'v> Doc<'v> {
    /// The key whose entry is at `k`.
    #[inline]
    fn key(&'v self, k: usize) -> &'v str {
        self.strings.of(&self.text, self.tape[k]).expect("a key entry")
    }

    /// Whether the key whose entry is at `k` is `key`: lengths first, from the entry where it has them.
    #[inline]
    fn key_is(&self, k: usize, key: &[u8]) -> bool {
        let e = self.tape[k];
        let (a, b) = (field_a(e), field_b(e) as usize);
        let len = match Tag::from_bits(e) {
            Tag::Str => a as usize,
            Tag::KeyNumber | Tag::KeyStr | Tag::KeyLiteral => member::key_len(a) as usize,
            _ => return self.strings.of(&self.text, e).is_some_and(|s| s.as_bytes() == key),
        };
        len == key.len() && &self.text.as_bytes()[b..b + len] == key
    }
}
