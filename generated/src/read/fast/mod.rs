//! The reader's own path for the generated types, without serde's visitors: per struct a table
//! of its keys, each with a rule, and a slot per key that the builder hands out by number; one
//! loop ([`read_object`]) reads every object, and a union picks its member's builder first.
//!
//! A generated type reaches this path from serde through [`deserialize`] (the envelopes, the
//! unions decided by keys) or the offer of `runtime::__private::deserialize_struct` and
//! `deserialize_tagged` (the structs and tagged unions): the crate's reader hands it the rest of
//! the input (`Handover::Rest`), every other deserializer sees a newtype struct, or the map it
//! always saw, and calls the type's serde visitor as before. Values are those of the serde path.
//! Where the serde path would fail, the read fails without recording it ([`refuse`]), as a
//! visitor's own error does; where this reader does not handle the input exactly as serde_json
//! does, it gives up (recorded), and serde_json reads the input again (see [`super`]).

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde_json::Value;

pub use super::reader::Reader;
use super::{give_up, gave_up, GiveUp, FAST_TOKEN, RAW_TOKEN};
use crate::runtime::__private::{handed_over, set_read, Builder, Entry, Key, Lit, ReadRest, Tagged};
use crate::runtime::JsonObject;

mod envelope;
mod values;

pub use envelope::{read_keyed, KeyedFast};
pub use values::{from_node, from_value, next_tree, number, peek, read_enum, FromNumber, NumberToken};

pub type Fast<T> = Result<T, GiveUp>;

/// A failure the serde path reports as an error of its own (a repeated key, a wrong literal, a
/// missing field, a value of another type): not recorded, so a caller may try something else.
pub fn refuse<T>() -> Fast<T> {
    Err(GiveUp)
}

/// A type this path reads.
pub trait FastRead: Sized {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self>;
}

/// How a struct's key is read into its slot: the generated builders' `required`, `optional`,
/// `optional_value` and `literal`, as data.
#[derive(Clone, Copy)]
pub enum Rule {
    /// Read as the slot's type; a second one is refused.
    Required,
    /// As `Required`, but `null` (which the schema does not allow here) is kept among the
    /// unknown keys, so it is written back as it came.
    Optional,
    /// A value the schema fixes: checked, then only its presence is kept.
    Literal(Lit),
}

/// One key of a struct, in the order the builder numbers its slots.
pub struct Known {
    pub key: &'static str,
    pub rule: Rule,
}

pub enum Slot<'a> {
    Value(&'a mut dyn Fill),
    /// A literal's flag.
    Seen(&'a mut bool),
    /// No slot (a builder that holds an unknown member's object).
    Gone,
}

/// A builder's slot for a value of one type: one copy per field type, shared by every builder.
pub trait Fill {
    /// Reads the slot's value, refused when the slot is filled already (a repeated key); with
    /// `null_left`, a `null` is left unread and `Ok(false)` said.
    fn fill(&mut self, r: &mut Reader<'_>, null_left: bool) -> Fast<bool>;
}

impl<T: FastRead> Fill for Option<T> {
    fn fill(&mut self, r: &mut Reader<'_>, null_left: bool) -> Fast<bool> {
        if self.is_some() {
            return refuse();
        }
        if null_left && r.peek() == Some(b'n') {
            return Ok(false);
        }
        *self = Some(T::read_fast(r)?);
        Ok(true)
    }
}

/// A builder, as the reading loop sees it: generated for every struct and union builder.
pub trait Slots {
    fn known(&self) -> &'static [Known];
    fn slot(&mut self, i: usize) -> Slot<'_>;
    /// A key the struct does not name.
    fn unknown<'de>(&mut self, key: Key<'de>, r: &mut Reader<'de>) -> Fast<()>;
    /// Where an optional field's `null` is kept; `None` where no field is read by [`Rule::Optional`].
    fn extra(&mut self) -> Option<&mut JsonObject>;
}

/// Reads one object into a builder: every struct and union shares this loop.
pub fn read_object(r: &mut Reader<'_>, b: &mut dyn Slots) -> Fast<()> {
    read_object_keys(r, b, None)
}

/// [`read_object`], also handing each key to `seen` (what a guessed member is checked by).
pub(super) fn read_object_keys<'de>(r: &mut Reader<'de>, b: &mut dyn Slots, mut seen: Option<&mut SeenList<'de>>) -> Fast<()> {
    if r.peek() != Some(b'{') {
        return refuse();
    }
    r.enter()?;
    let known = b.known();
    let mut first = true;
    // Where the search for the next key starts: after the last key found, since objects
    // mostly list their keys in the schema's order.
    let mut next = 0;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        if let Some(seen) = seen.as_deref_mut() {
            seen.push(key.reborrow());
        }
        match find_known(known, key.as_str().as_bytes(), next) {
            Some(i) => {
                next = i + 1;
                fill(b, i, known[i].rule, key, r)?
            }
            None => b.unknown(key, r)?,
        }
    }
    r.leave(b'}')
}

/// The index of `name` in `known`, searched from `from` on and then from the start.
#[inline]
fn find_known(known: &[Known], name: &[u8], from: usize) -> Option<usize> {
    // Length and first byte before the whole key: most keys differ there; the rest is
    // compared in words, without a call to `memcmp`.
    let is = |k: &Known| k.key.len() == name.len() && k.key.as_bytes().first() == name.first() && same_key(k.key.as_bytes(), name);
    let from = from.min(known.len());
    for (i, k) in known[from..].iter().enumerate() {
        if is(k) {
            return Some(from + i);
        }
    }
    for (i, k) in known[..from].iter().enumerate() {
        if is(k) {
            return Some(i);
        }
    }
    None
}

/// The keys of an object as read, for a guessed member's check: the first few on the stack
/// (a result has few keys; a list per guess was an allocation per message).
pub(super) struct SeenList<'de> {
    first: [Key<'de>; SEEN_ON_STACK],
    len: usize,
    /// Every key, once there are more than the stack holds.
    all: Vec<Key<'de>>,
}

const SEEN_ON_STACK: usize = 8;

impl<'de> SeenList<'de> {
    pub(super) fn new() -> Self {
        SeenList { first: std::array::from_fn(|_| Key::Borrowed("")), len: 0, all: Vec::new() }
    }

    fn push(&mut self, key: Key<'de>) {
        if self.len < SEEN_ON_STACK {
            self.first[self.len] = key;
        } else {
            if self.all.is_empty() {
                self.all.extend(self.first.iter_mut().map(|k| std::mem::replace(k, Key::Borrowed(""))));
            }
            self.all.push(key);
        }
        self.len += 1;
    }

    pub(super) fn keys(&self) -> &[Key<'de>] {
        if self.len <= SEEN_ON_STACK {
            &self.first[..self.len]
        } else {
            &self.all
        }
    }
}

/// Whether two keys of the same length are equal: up to 16 bytes as two overlapping words
/// (a key is short, and a call to `memcmp` costs more than the compare).
#[inline]
pub(super) fn same_key(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let w4 = |s: &[u8], i: usize| u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]);
    let w8 = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

fn fill<'de>(b: &mut dyn Slots, i: usize, rule: Rule, key: Key<'de>, r: &mut Reader<'de>) -> Fast<()> {
    match rule {
        Rule::Required => match b.slot(i) {
            Slot::Value(s) => s.fill(r, false).map(drop),
            _ => refuse(),
        },
        Rule::Optional => {
            if b.extra().is_some_and(|e| !e.is_empty() && e.contains_key(key.as_str())) {
                return refuse();
            }
            match b.slot(i) {
                Slot::Value(s) => {
                    if s.fill(r, true)? {
                        return Ok(());
                    }
                }
                _ => return refuse(),
            }
            r.expect(b"null")?;
            match b.extra() {
                Some(e) => {
                    e.insert(key.into_string(), Value::Null);
                    Ok(())
                }
                None => refuse(),
            }
        }
        Rule::Literal(lit) => match b.slot(i) {
            Slot::Seen(seen) if !*seen => {
                let ok = match lit {
                    Lit::Str(s) => read_enum(r, |v| v == s)?,
                    _ => lit.matches(&Value::read_fast(r)?),
                };
                *seen = ok;
                if ok {
                    Ok(())
                } else {
                    refuse()
                }
            }
            _ => refuse(),
        },
    }
}

/// An unknown key, kept with its value.
pub fn unknown(extra: &mut JsonObject, key: Key<'_>, r: &mut Reader<'_>) -> Fast<()> {
    let v = Value::read_fast(r)?;
    match extra.entry(key.into_string()) {
        serde_json::map::Entry::Vacant(e) => {
            e.insert(v);
            Ok(())
        }
        serde_json::map::Entry::Occupied(_) => refuse(),
    }
}

/// An unknown key whose value the schema types through an index signature (the generator emits
/// it for such a struct; the pinned schemas have none).
#[allow(dead_code)]
pub fn rest<T: FastRead>(rest: &mut BTreeMap<String, T>, key: Key<'_>, r: &mut Reader<'_>) -> Fast<()> {
    let v = T::read_fast(r)?;
    match rest.entry(key.into_string()) {
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(v);
            Ok(())
        }
        std::collections::btree_map::Entry::Occupied(_) => refuse(),
    }
}

/// A struct: its builder filled by the shared loop.
pub fn read_struct<B: Slots + Builder + Default>(r: &mut Reader<'_>) -> Fast<B::Output> {
    let mut b = B::default();
    read_object(r, &mut b)?;
    b.finish()
}

/// A union chosen by one field: the object is scanned to that field, then read from its start
/// by the chosen member's builder (the tag is one of its keys, as on the serde path).
pub fn read_tagged<U: Tagged>(r: &mut Reader<'_>) -> Fast<U>
where
    U::Builder: Slots,
{
    let tag = find_tag(r, U::TAG)?;
    let mut b = U::builder_for(tag.as_ref().map(Key::as_str)).map_or_else(refuse, Ok)?;
    read_object(r, &mut b)?;
    b.finish()
}

/// The string value of `field` in the object at the reader, leaving the reader where it was.
fn find_tag<'de>(r: &mut Reader<'de>, field: &str) -> Fast<Option<Key<'de>>> {
    let mut found = None;
    scan(r, |key, r| {
        if key.as_str() != field {
            r.skip()?;
            return Ok(false);
        }
        // The serde path refuses a tag that is not a string.
        if r.peek() != Some(b'"') {
            return refuse();
        }
        found = Some(r.key()?);
        Ok(true)
    })?;
    Ok(found)
}

/// Goes over the top-level keys of the object at the reader, in order, and leaves the reader
/// where it was: `at` gets each key with the reader at its value, passes over the value (or reads
/// it) and says whether to stop. Every look before a read (a tag, a keyed union's deciding key,
/// the envelope's kind) is this loop.
pub(super) fn scan<'de>(r: &mut Reader<'de>, mut at: impl FnMut(Key<'de>, &mut Reader<'de>) -> Fast<bool>) -> Fast<()> {
    if r.peek() != Some(b'{') {
        return refuse();
    }
    let (pos, depth) = (r.pos, r.depth);
    r.enter()?;
    let mut first = true;
    let mut stopped = false;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        if at(key, r)? {
            stopped = true;
            break;
        }
    }
    if !stopped {
        r.leave(b'}')?;
    }
    r.pos = pos;
    r.depth = depth;
    Ok(())
}

/// How a generated type is read by any deserializer: through this path from the crate's
/// reader, through the serde visitor `v` from every other.
pub fn deserialize<'de, D: Deserializer<'de>, T: FastRead, V: Entry<'de, Value = T>>(d: D, v: V) -> Result<T, D::Error> {
    d.deserialize_newtype_struct(FAST_TOKEN, Channel(v, PhantomData))
}

/// The structs' and tagged unions' serde visitors take the reader's handover through this:
/// it reads the rest of the input handed over, and says how much of it was read.
impl<T: FastRead> ReadRest for T {
    fn read_rest<E: de::Error>(text: &str, depth: u32) -> Result<T, E> {
        // How far the read went is recorded as the reader is dropped, after the value is made
        // where it is returned (recording first would hold the value in a local: a copy).
        // The handover's reader moves by it, also after a failed read, as any reader stands
        // where it failed.
        let mut r = SaysRead(Reader::new(text, depth));
        T::read_fast(&mut r.0).map_err(|_| E::custom("left to serde_json"))
    }
}

/// A reader that records how much it read ([`set_read`]) when dropped.
struct SaysRead<'de>(Reader<'de>);

impl Drop for SaysRead<'_> {
    #[inline]
    fn drop(&mut self) {
        set_read(self.0.pos);
    }
}

/// The visitor [`deserialize`] hands out: the handed-over input goes to [`FastRead`], every
/// other call to the type's serde visitor, unchanged.
pub struct Channel<T, V>(V, PhantomData<T>);

macro_rules! forward {
    ($($method:ident($($arg:ident: $t:ty),*);)*) => {
        $(fn $method<E: de::Error>(self, $($arg: $t),*) -> Result<T, E> {
            self.0.$method($($arg),*)
        })*
    };
}

impl<'de, T: FastRead, V: Entry<'de, Value = T>> Visitor<'de> for Channel<T, V> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<T, E> {
        handed_over(v, || self.0.visit_borrowed_str(v))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        self.0.enter(d)
    }

    forward! {
        visit_bool(v: bool);
        visit_i64(v: i64);
        visit_i128(v: i128);
        visit_u64(v: u64);
        visit_u128(v: u128);
        visit_f64(v: f64);
        visit_str(v: &str);
        visit_string(v: String);
        visit_bytes(v: &[u8]);
        visit_borrowed_bytes(v: &'de [u8]);
        visit_byte_buf(v: Vec<u8>);
        visit_none();
        visit_unit();
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        self.0.visit_some(d)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        self.0.visit_seq(seq)
    }

    // Reached only from a deserializer that answers a newtype struct with a map (serde's
    // `MapAccessDeserializer`, serde_json's raw-value branch, which never runs for this name):
    // the object is read as a `Value` first, so that the visitor is not compiled once more for
    // every such map.
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let v = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        self.0.enter(v).map_err(de::Error::custom)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<T, A::Error> {
        self.0.visit_enum(data)
    }
}
