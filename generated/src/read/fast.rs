//! The reader's own path for the generated types, without serde's visitors: per struct a table
//! of its keys, each with a rule, and a slot per key that the builder hands out by number; one
//! loop ([`read_object`]) reads every object, and a union picks its member's builder first.
//!
//! A generated type reaches this path from serde through [`deserialize`]: the crate's reader
//! hands it the rest of the input ([`Handover::Rest`]), every other deserializer sees a newtype
//! struct and calls the type's serde visitor as before. Values are those of the serde path. Where
//! the serde path would fail, the read fails without recording it ([`refuse`]), as a visitor's
//! own error does; where this reader does not handle the input exactly as serde_json does, it
//! gives up (recorded), and serde_json reads the input again (see [`super`]).

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde_json::{Number, Value};

pub use super::reader::Reader;
use super::reader::{Number as Num, Str};
use super::{give_up, gave_up, GiveUp, FAST_TOKEN, RAW_TOKEN};
use crate::runtime::__private::{guess_ranks_first, rank, set_read, take_handover, Builder, Entry, Handover, KeptKeys, Key, Keyed, Lit, MessageVisitor, NoBuilder, Raw, RawObject, ResultResponseBuilder, Tagged};
use crate::runtime::{JsonObject, Message, NoRequests, Nullable};

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
    fn filled(&self) -> bool;
    fn fill(&mut self, r: &mut Reader<'_>) -> Fast<()>;
}

impl<T: FastRead> Fill for Option<T> {
    fn filled(&self) -> bool {
        self.is_some()
    }
    fn fill(&mut self, r: &mut Reader<'_>) -> Fast<()> {
        *self = Some(T::read_fast(r)?);
        Ok(())
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
fn read_object_keys<'de>(r: &mut Reader<'de>, b: &mut dyn Slots, mut seen: Option<&mut Vec<Key<'de>>>) -> Fast<()> {
    if r.peek() != Some(b'{') {
        return refuse();
    }
    r.enter()?;
    let known = b.known();
    let mut first = true;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        if let Some(seen) = seen.as_deref_mut() {
            seen.push(key.reborrow());
        }
        let name = key.as_str();
        match known.iter().position(|k| k.key.len() == name.len() && k.key == name) {
            Some(i) => fill(b, i, known[i].rule, key, r)?,
            None => b.unknown(key, r)?,
        }
    }
    r.leave(b'}')
}

fn fill<'de>(b: &mut dyn Slots, i: usize, rule: Rule, key: Key<'de>, r: &mut Reader<'de>) -> Fast<()> {
    match rule {
        Rule::Required => match b.slot(i) {
            Slot::Value(s) if !s.filled() => s.fill(r),
            _ => refuse(),
        },
        Rule::Optional => {
            if b.extra().is_some_and(|e| e.contains_key(key.as_str())) {
                return refuse();
            }
            match b.slot(i) {
                Slot::Value(s) if !s.filled() => {
                    if r.peek() != Some(b'n') {
                        return s.fill(r);
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
    if r.peek() != Some(b'{') {
        return refuse();
    }
    let (pos, depth) = (r.pos, r.depth);
    r.enter()?;
    let mut first = true;
    let mut found = None;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        if key.as_str() == field {
            // The serde path refuses a tag that is not a string.
            if r.peek() != Some(b'"') {
                return refuse();
            }
            found = Some(r.key()?);
            break;
        }
        r.skip()?;
    }
    r.pos = pos;
    r.depth = depth;
    Ok(found)
}

/// A union decided by the keys present, with its members read by this path.
pub trait KeyedFast: Keyed {
    /// Reads the object at the reader as one member; `None` for no such member.
    fn read_member_fast(member: usize, r: &mut Reader<'_>) -> Option<Fast<Self>>;
}

/// What the keys scanned so far say about a keyed union's member.
enum Pick<'de, B> {
    /// A key only this member names: it reads the object.
    Decided(B),
    /// A key only this struct member names, in a union with a catch-all: read, then checked.
    Guess(usize, B),
    /// Neither: every key, with its value's text, for the ranking.
    Ranked(RawObject<'de>),
}

/// A union decided by the keys present, as the serde path decides it. The keys are scanned to
/// the first that decides a member (then that member's builder reads the whole object, which is
/// what the serde path does by replaying the keys before it) or that guesses one (read, and kept
/// when the whole ranking would also pick it first, as the serde path checks its guesses);
/// otherwise the members are ranked over all the keys, and the first that reads the object wins.
pub fn read_keyed<'de, U: KeyedFast>(r: &mut Reader<'de>) -> Fast<U>
where
    U::Builder: Slots,
{
    let (pos, depth) = (r.pos, r.depth);
    let kept = match scan_keys::<U>(r, true)? {
        Pick::Decided(mut b) => {
            read_object(r, &mut b)?;
            return b.finish();
        }
        Pick::Guess(member, mut b) => {
            let mut seen = Vec::new();
            match read_object_keys(r, &mut b, Some(&mut seen)).and_then(|_| b.finish()) {
                Ok(v) if v.settled() && guess_ranks_first::<U>(member, &seen) => return Ok(v),
                Err(e) if gave_up() => return Err(e),
                _ => {}
            }
            r.pos = pos;
            r.depth = depth;
            match scan_keys::<U>(r, false)? {
                Pick::Ranked(kept) => kept,
                _ => return refuse(),
            }
        }
        Pick::Ranked(kept) => kept,
    };
    for member in rank::<U, _>(&KeptKeys::new(&kept)) {
        match U::read_member_fast(member, r) {
            Some(Ok(v)) => return Ok(v),
            // This reader could not read it: nor can it rank the rest.
            Some(Err(e)) if gave_up() => return Err(e),
            _ => {
                r.pos = pos;
                r.depth = depth;
            }
        }
    }
    refuse()
}

/// A string enum: its value as the type makes it from the wire.
pub fn read_enum<T>(r: &mut Reader<'_>, from_wire: impl FnOnce(&str) -> T) -> Fast<T> {
    if r.peek() != Some(b'"') {
        return refuse();
    }
    Ok(match r.string()? {
        Str::Input(s) => from_wire(s),
        Str::Scratch(s) => from_wire(s),
    })
}

/// A value of the union member the scores picked (the serde path's `from_value`).
pub fn from_value<T: de::DeserializeOwned>(v: Value) -> Fast<T> {
    T::deserialize(v).map_or_else(|_| refuse(), Ok)
}

/// The next value's first byte, not consumed (what a union decided by the JSON kind looks at).
pub fn peek(r: &mut Reader<'_>) -> Option<u8> {
    r.peek()
}

/// A number as read, for a union decided by the JSON kind.
pub struct NumberToken(Num);

impl NumberToken {
    /// Whether serde_json hands this number to a visitor as a float.
    pub fn is_float(&self) -> bool {
        matches!(self.0, Num::F64(_))
    }
}

pub fn number(r: &mut Reader<'_>) -> Fast<NumberToken> {
    r.number().map(NumberToken)
}

/// A union member read from a number already read.
pub trait FromNumber: Sized {
    fn from_number(n: NumberToken) -> Fast<Self>;
}

impl FromNumber for i64 {
    fn from_number(n: NumberToken) -> Fast<Self> {
        match n.0 {
            Num::U64(v) => i64::try_from(v).map_or_else(|_| refuse(), Ok),
            Num::I64(v) => Ok(v),
            Num::F64(_) => refuse(),
        }
    }
}

impl FromNumber for Number {
    fn from_number(n: NumberToken) -> Fast<Self> {
        Ok(match n.0 {
            Num::U64(v) => v.into(),
            Num::I64(v) => v.into(),
            Num::F64(v) => return Number::from_f64(v).map_or_else(refuse, Ok),
        })
    }
}

impl FastRead for String {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        read_enum(r, str::to_string)
    }
}

impl FastRead for i64 {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b'-' | b'0'..=b'9') => i64::from_number(number(r)?),
            _ => refuse(),
        }
    }
}

impl FastRead for Number {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b'-' | b'0'..=b'9') => Number::from_number(number(r)?),
            _ => refuse(),
        }
    }
}

impl FastRead for bool {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b't') => r.expect(b"true").map(|_| true),
            Some(b'f') => r.expect(b"false").map(|_| false),
            _ => refuse(),
        }
    }
}

impl FastRead for () {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b'n') => r.expect(b"null"),
            _ => refuse(),
        }
    }
}

// serde_json's `Value` reads an object whose first key is one of these as something else.
const VALUE_TOKENS: [&str; 2] = [RAW_TOKEN, "$serde_json::private::Number"];

impl FastRead for Value {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        Ok(match r.peek() {
            Some(b'"') => Value::String(String::read_fast(r)?),
            Some(b'-' | b'0'..=b'9') => Value::Number(Number::from_number(number(r)?)?),
            Some(b'n') => {
                r.expect(b"null")?;
                Value::Null
            }
            Some(b't' | b'f') => Value::Bool(bool::read_fast(r)?),
            Some(b'[') => Value::Array(Vec::read_fast(r)?),
            Some(b'{') => {
                let mut first_key = true;
                Value::Object(read_map(r, JsonObject::new(), |m, k, v| {
                    if std::mem::take(&mut first_key) && VALUE_TOKENS.contains(&k.as_str()) {
                        return give_up();
                    }
                    m.insert(k.into_string(), v);
                    Ok(())
                })?)
            }
            _ => return give_up(),
        })
    }
}

/// An object's entries, each value as `T`, added by `put` (later keys replace earlier ones,
/// as serde's maps and serde_json's objects do).
fn read_map<M, T: FastRead>(r: &mut Reader<'_>, mut m: M, mut put: impl FnMut(&mut M, Key<'_>, T) -> Fast<()>) -> Fast<M> {
    if r.peek() != Some(b'{') {
        return refuse();
    }
    r.enter()?;
    let mut first = true;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        let v = T::read_fast(r)?;
        put(&mut m, key, v)?;
    }
    r.leave(b'}')?;
    Ok(m)
}

impl FastRead for JsonObject {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        read_map(r, JsonObject::new(), |m, k, v| {
            m.insert(k.into_string(), v);
            Ok(())
        })
    }
}

impl<T: FastRead> FastRead for BTreeMap<String, T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        read_map(r, BTreeMap::new(), |m, k, v| {
            m.insert(k.into_string(), v);
            Ok(())
        })
    }
}

impl<T: FastRead> FastRead for Vec<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        if r.peek() != Some(b'[') {
            return refuse();
        }
        r.enter()?;
        let mut items = Vec::new();
        let mut first = true;
        while r.next_item(b']', &mut first)? {
            items.push(T::read_fast(r)?);
        }
        r.leave(b']')?;
        Ok(items)
    }
}

impl<T: FastRead> FastRead for Box<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        T::read_fast(r).map(Box::new)
    }
}

impl<T: FastRead> FastRead for Nullable<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        if r.peek() == Some(b'n') {
            r.expect(b"null")?;
            return Ok(Nullable::Null);
        }
        T::read_fast(r).map(Nullable::Value)
    }
}

/// How a generated type is read by any deserializer: through this path from the crate's
/// reader, through the serde visitor `v` from every other.
pub fn deserialize<'de, D: Deserializer<'de>, T: FastRead, V: Entry<'de, Value = T>>(d: D, v: V) -> Result<T, D::Error> {
    d.deserialize_newtype_struct(FAST_TOKEN, Channel(v, PhantomData))
}

/// Reads the rest of the input handed over, and says how much of it was read.
fn read_rest<T: FastRead>(text: &str, depth: u32) -> Fast<T> {
    let mut r = Reader::new(text, depth);
    let v = T::read_fast(&mut r)?;
    set_read(r.pos);
    Ok(v)
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
        match take_handover() {
            Some(Handover::Rest { depth }) => read_rest(v, depth).map_err(|_| E::custom("left to serde_json")),
            _ => self.0.visit_borrowed_str(v),
        }
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

/// Scans the object at the reader (leaving the reader where it was) to the first key that decides
/// or, with `guess`, guesses a member; without one, keeps every key with its value's text.
fn scan_keys<'de, U: KeyedFast>(r: &mut Reader<'de>, guess: bool) -> Fast<Pick<'de, U::Builder>> {
    if r.peek() != Some(b'{') {
        return refuse();
    }
    let (pos, depth) = (r.pos, r.depth);
    r.enter()?;
    let mut kept = RawObject(Vec::new());
    let mut first = true;
    let mut pick = None;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        if let Some(b) = U::builder_for_key(key.as_str()) {
            pick = Some(Pick::Decided(b));
            break;
        }
        if let Some((member, b)) = U::guess_for_key(key.as_str()).filter(|_| guess) {
            pick = Some(Pick::Guess(member, b));
            break;
        }
        r.peek();
        let start = r.pos;
        r.skip()?;
        let text: &'de str = &r.text[start..r.pos];
        kept.0.push((key, Raw::Text(text)));
    }
    let pick = match pick {
        Some(p) => p,
        None => {
            r.leave(b'}')?;
            Pick::Ranked(kept)
        }
    };
    r.pos = pos;
    r.depth = depth;
    Ok(pick)
}

/// Where the JSON-RPC envelope's keys point: the first of `method`, `result` and `error`.
enum Kind<'de> {
    Method(Key<'de>),
    Result,
    Error,
}

/// The JSON-RPC envelope, read as its serde visitor reads it: the first of `method`, `result`
/// and `error` decides; a known method's request or notification is read by its builder; a
/// method neither side names is a request when the message has an `id`; a notification with
/// an `id` is refused.
impl<Id, Req, Notif, Res, Err> FastRead for Message<Id, Req, Notif, Res, Err>
where
    Id: FastRead + de::DeserializeOwned,
    Req: Tagged,
    Req::Builder: Slots,
    Notif: Tagged,
    Notif::Builder: Slots,
    Res: FastRead + de::DeserializeOwned,
    Err: FastRead,
{
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        if r.peek() != Some(b'{') {
            return refuse();
        }
        let (pos, depth) = (r.pos, r.depth);
        r.enter()?;
        let mut kind: Option<Kind<'_>> = None;
        let mut has_id = false;
        let mut first = true;
        while r.next_item(b'}', &mut first)? {
            let key = r.key()?;
            r.colon()?;
            match (key.as_str(), &kind) {
                ("method", None) => {
                    let method = r.key()?;
                    // A known request needs nothing more from the scan.
                    if Req::knows(method.as_str()) {
                        kind = Some(Kind::Method(method));
                        break;
                    }
                    kind = Some(Kind::Method(method));
                }
                ("result", None) => {
                    kind = Some(Kind::Result);
                    break;
                }
                ("error", None) => {
                    kind = Some(Kind::Error);
                    break;
                }
                ("id", _) => {
                    has_id = true;
                    r.skip()?;
                }
                _ => r.skip()?,
            }
        }
        r.pos = pos;
        r.depth = depth;
        Ok(match kind {
            Some(Kind::Method(m)) if Req::knows(m.as_str()) || (has_id && !Notif::knows(m.as_str())) => Message::Request(read_chosen::<Req>(r, m.as_str())?),
            Some(Kind::Method(m)) if !has_id => Message::Notification(read_chosen::<Notif>(r, m.as_str())?),
            Some(Kind::Method(_)) | None => return refuse(),
            Some(Kind::Result) => {
                let mut b = ResultResponseBuilder::<Id, Res>::default();
                read_object(r, &mut b)?;
                Message::Result(b.finish()?)
            }
            Some(Kind::Error) => Message::Error(Err::read_fast(r)?),
        })
    }
}

/// A tagged union whose tag is already known, read by that tag's builder.
fn read_chosen<U: Tagged>(r: &mut Reader<'_>, tag: &str) -> Fast<U>
where
    U::Builder: Slots,
{
    let mut b = U::builder_for(Some(tag)).map_or_else(refuse, Ok)?;
    read_object(r, &mut b)?;
    b.finish()
}

impl<'de, Id, Req, Notif, Res, Err> Deserialize<'de> for Message<Id, Req, Notif, Res, Err>
where
    Id: de::DeserializeOwned + FastRead,
    Req: Tagged + de::DeserializeOwned,
    Req::Builder: Slots,
    Notif: Tagged + de::DeserializeOwned,
    Notif::Builder: Slots,
    Res: de::DeserializeOwned + FastRead,
    Err: de::DeserializeOwned + FastRead,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d, MessageVisitor(PhantomData))
    }
}

impl<Id: FastRead, Res: FastRead> Slots for ResultResponseBuilder<Id, Res> {
    fn known(&self) -> &'static [Known] {
        const KNOWN: &[Known] = &[
            Known { key: "jsonrpc", rule: Rule::Literal(Lit::Str("2.0")) },
            Known { key: "id", rule: Rule::Required },
            Known { key: "result", rule: Rule::Required },
        ];
        KNOWN
    }
    fn slot(&mut self, i: usize) -> Slot<'_> {
        match i {
            0 => Slot::Seen(&mut self.jsonrpc),
            1 => Slot::Value(&mut self.id),
            2 => Slot::Value(&mut self.result),
            _ => Slot::Gone,
        }
    }
    fn unknown<'de>(&mut self, key: Key<'de>, r: &mut Reader<'de>) -> Fast<()> {
        unknown(&mut self.extra, key, r)
    }
    fn extra(&mut self) -> Option<&mut JsonObject> {
        Some(&mut self.extra)
    }
}

impl Slots for NoBuilder {
    fn known(&self) -> &'static [Known] {
        match *self {}
    }
    fn slot(&mut self, _: usize) -> Slot<'_> {
        match *self {}
    }
    fn unknown<'de>(&mut self, _: Key<'de>, _: &mut Reader<'de>) -> Fast<()> {
        match *self {}
    }
    fn extra(&mut self) -> Option<&mut JsonObject> {
        match *self {}
    }
}

impl FastRead for NoRequests {
    fn read_fast(_: &mut Reader<'_>) -> Fast<Self> {
        refuse()
    }
}
