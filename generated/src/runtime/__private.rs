//! Building blocks of the generated serde impls. Not a stable API.

use super::*;
use serde::de::{MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

pub use serde;
pub use serde_json;

/// An object key, borrowed from the input when it has no escapes.
pub enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> Key<'de> {
    pub fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(s) => s,
            Key::Owned(s) => s,
        }
    }

    pub fn reborrow(&self) -> Key<'de> {
        match self {
            Key::Borrowed(s) => Key::Borrowed(s),
            Key::Owned(s) => Key::Owned(s.clone()),
        }
    }

    pub fn into_string(self) -> String {
        match self {
            Key::Borrowed(s) => s.to_string(),
            Key::Owned(s) => s,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v))
            }
        }
        d.deserialize_str(V)
    }
}

/// Where a field's value comes from: straight from the input, or from a
/// value buffered before a union's tag was seen.
pub trait FieldSource<'de> {
    type Error: de::Error;
    fn take<T: Deserialize<'de>>(self) -> Result<T, Self::Error>;
}

pub struct FromMap<'a, A>(pub &'a mut A);

impl<'de, 'a, A: MapAccess<'de>> FieldSource<'de> for FromMap<'a, A> {
    type Error = A::Error;
    fn take<T: Deserialize<'de>>(self) -> Result<T, A::Error> {
        self.0.next_value()
    }
}

pub struct FromValue<E>(pub Value, pub PhantomData<E>);

impl<E> FromValue<E> {
    pub fn new(v: Value) -> Self {
        FromValue(v, PhantomData)
    }
}

impl<'de, E: de::Error> FieldSource<'de> for FromValue<E> {
    type Error = E;
    fn take<T: Deserialize<'de>>(self) -> Result<T, E> {
        T::deserialize(self.0).map_err(E::custom)
    }
}

/// Collects one object's fields; generated for every struct and tagged union.
pub trait Builder {
    type Output;
    fn field<'de, S: FieldSource<'de>>(&mut self, key: Key<'de>, src: S) -> Result<(), S::Error>;
    fn finish<E: de::Error>(self) -> Result<Self::Output, E>;
}

/// A union that picks its variant from one field before reading the rest.
pub trait Tagged: Sized {
    const TAG: &'static str;
    const EXPECTING: &'static str;
    type Builder: Builder<Output = Self>;
    /// The builder for a tag value, or for an absent tag (`None`); `None` back means the tag is required.
    fn builder_for(tag: Option<&str>) -> Option<Self::Builder>;
    /// Whether the schema names this tag value (rather than leaving it to `Unknown`).
    fn knows(tag: &str) -> bool;
}

/// A builder's field dispatch for one kind of map, callable without knowing the builder's
/// type: [`read_fields`] then runs as one copy per map kind, not one per struct.
trait MapFields<'de, A: MapAccess<'de>> {
    fn map_field(&mut self, key: Key<'de>, map: &mut A) -> Result<(), A::Error>;
}

impl<'de, A: MapAccess<'de>, B: Builder> MapFields<'de, A> for B {
    // Out of line: the unions' visitors stream their first field through this same copy
    // rather than a second one of the builder's `field` for the map.
    #[inline(never)]
    fn map_field(&mut self, key: Key<'de>, map: &mut A) -> Result<(), A::Error> {
        self.field(key, FromMap(map))
    }
}

/// Feeds the map's remaining entries to a builder. Out of line and blind to the builder's
/// type so that every struct and union shares the key reading and framing.
#[inline(never)]
fn read_fields<'de, A: MapAccess<'de>>(map: &mut A, b: &mut dyn MapFields<'de, A>) -> Result<(), A::Error> {
    while let Some(key) = map.next_key::<Key<'de>>()? {
        b.map_field(key, map)?;
    }
    Ok(())
}

struct StructVisitor<B>(&'static str, PhantomData<B>);

impl<'de, B: Builder + Default> Visitor<'de> for StructVisitor<B> {
    type Value = B::Output;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a {} object", self.0)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<B::Output, A::Error> {
        let mut b = B::default();
        read_fields(&mut map, &mut b)?;
        b.finish()
    }
}

pub fn deserialize_struct<'de, D: Deserializer<'de>, B: Builder + Default>(d: D, name: &'static str) -> Result<B::Output, D::Error> {
    d.deserialize_map(StructVisitor::<B>(name, PhantomData))
}

struct TaggedVisitor<U>(PhantomData<U>);

impl<'de, U: Tagged> Visitor<'de> for TaggedVisitor<U> {
    type Value = U;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(U::EXPECTING)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        // Fields before the tag are kept as values; everything after it streams into the chosen variant.
        let mut before: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if key.as_str() != U::TAG {
                let v: Value = map.next_value()?;
                before.push((key.into_string(), v));
                continue;
            }
            let kept = keep(&mut map)?;
            let tag = match kept.plain_str() {
                Some(s) => Raw::Str(s),
                None => match kept.read::<Value, A::Error>()? {
                    s @ Value::String(_) => Raw::Value(s),
                    other => return Err(de::Error::custom(format_args!("`{}` must be a string, found {}", U::TAG, kind_name(&other)))),
                },
            };
            // One of the two forms built just above.
            let name = match &tag {
                Raw::Str(s) => s,
                Raw::Value(Value::String(s)) => s.as_str(),
                _ => "",
            };
            let mut b = U::builder_for(Some(name)).ok_or_else(|| de::Error::custom(format_args!("unsupported `{}` value {name:?}", U::TAG)))?;
            // The tag goes in as a kept value, like the fields kept before it: the builder's
            // dispatch then runs for two kinds of source (kept, streamed), not three.
            b.field(Key::Borrowed(U::TAG), FromRaw::<A::Error>(&tag, PhantomData))?;
            for (k, v) in before {
                b.field(Key::Owned(k), FromValue::<A::Error>::new(v))?;
            }
            read_fields(&mut map, &mut b)?;
            return b.finish();
        }
        let mut b = U::builder_for(None).ok_or_else(|| de::Error::missing_field(U::TAG))?;
        for (k, v) in before {
            b.field(Key::Owned(k), FromValue::<A::Error>::new(v))?;
        }
        b.finish()
    }
}

pub fn deserialize_tagged<'de, D: Deserializer<'de>, U: Tagged>(d: D) -> Result<U, D::Error> {
    d.deserialize_map(TaggedVisitor::<U>(PhantomData))
}

/// A value kept unread while a union decided by keys waits for the deciding key:
/// the JSON text itself when the input is a serde_json string or slice (no tree is
/// built), otherwise the value.
pub enum Raw<'de> {
    Text(&'de str),
    Value(Value),
    /// A string value already read (unquoted, unescaped), borrowed from the input.
    Str(&'de str),
}

// serde_json hands a value's JSON text to a newtype struct of this name (its
// `raw_value` protocol). Deserializers that do not know it give the value itself,
// which `Raw` then keeps as a `Value`.
use crate::write::RAW_VALUE_TOKEN as RAW_TOKEN;

impl<'de> Deserialize<'de> for Raw<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw<'de>, A::Error> {
                let Some(first) = map.next_key::<Key<'de>>()? else { return Ok(Raw::Value(Value::Object(JsonObject::new()))) };
                if first.as_str() == RAW_TOKEN {
                    return match map.next_value::<Key<'de>>()? {
                        Key::Borrowed(text) => Ok(Raw::Text(text)),
                        Key::Owned(text) => serde_json::from_str(&text).map(Raw::Value).map_err(de::Error::custom),
                    };
                }
                let mut o = JsonObject::new();
                o.insert(first.into_string(), map.next_value()?);
                while let Some(k) = map.next_key::<String>()? {
                    o.insert(k, map.next_value()?);
                }
                Ok(Raw::Value(Value::Object(o)))
            }
            fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Raw<'de>, D::Error> {
                Value::deserialize(d).map(Raw::Value)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(Value::String(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(Value::String(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(Value::Null))
            }
            fn visit_none<E: de::Error>(self) -> Result<Raw<'de>, E> {
                Ok(Raw::Value(Value::Null))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw<'de>, D::Error> {
                Value::deserialize(d).map(Raw::Value)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Raw<'de>, A::Error> {
                Value::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Raw::Value)
            }
        }
        d.deserialize_newtype_struct(RAW_TOKEN, V)
    }
}

/// Levels a kept value may nest. serde_json allows 127 levels in a document; a kept value
/// sits inside at least one object, and parsing its text alone would start the count
/// afresh, so without this a union that keeps values would accept one level (or more)
/// that every other entry point refuses.
const KEPT_DEPTH: usize = 126;

/// Fails when `text` nests deeper than [`KEPT_DEPTH`], with serde_json's own words.
fn within_depth<E: de::Error>(text: &str) -> Result<(), E> {
    // Each level takes two bytes at least: shorter texts need no scan.
    if text.len() <= 2 * KEPT_DEPTH {
        return Ok(());
    }
    let b = text.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                // Skip the string: to the next quote that no odd run of backslashes escapes.
                let mut j = i + 1;
                loop {
                    let Some(q) = text[j..].find('"') else { return Ok(()) };
                    let end = j + q;
                    let slashes = b[j..end].iter().rev().take_while(|&&c| c == b'\\').count();
                    j = end + 1;
                    if slashes % 2 == 0 {
                        break;
                    }
                }
                i = j;
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > KEPT_DEPTH {
                    return Err(E::custom("recursion limit exceeded"));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

impl<'de> Raw<'de> {
    /// The kept value read as `T`; JSON text is parsed now, straight into `T`.
    pub fn read<T: Deserialize<'de>, E: de::Error>(&self) -> Result<T, E> {
        match self {
            Raw::Text(text) => {
                within_depth::<E>(text)?;
                T::deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(E::custom)
            }
            Raw::Value(v) => T::deserialize(v.clone()).map_err(E::custom),
            Raw::Str(s) => T::deserialize(StrValue::<E>(s, PhantomData)),
        }
    }

    /// The string this value holds when it is borrowed from the input and needs no unescaping.
    fn plain_str(&self) -> Option<&'de str> {
        match *self {
            Raw::Text(t) if t.len() >= 2 && t.starts_with('"') && !t.contains('\\') => Some(&t[1..t.len() - 1]),
            Raw::Str(s) => Some(s),
            _ => None,
        }
    }

    fn matches(&self, lit: Lit) -> bool {
        match (self, lit) {
            (Raw::Value(v), _) => lit.matches(v),
            (Raw::Str(s), _) => lit.matches(&Value::String(s.to_string())),
            // A string literal is plain ASCII; the text matches unless written with escapes.
            (Raw::Text(t), Lit::Str(s)) if !t.contains('\\') => t.len() == s.len() + 2 && t.starts_with('"') && &t[1..t.len() - 1] == s,
            (Raw::Text(t), Lit::OneOf(set)) if !t.contains('\\') => t.len() >= 2 && t.starts_with('"') && set.contains(&&t[1..t.len() - 1]),
            (Raw::Text(t), _) => serde_json::from_str::<Value>(t).is_ok_and(|v| lit.matches(&v)),
        }
    }

    /// The string this value holds, if it is one.
    pub fn string(&self) -> Option<String> {
        match self {
            Raw::Text(t) => t.starts_with('"').then(|| serde_json::from_str(t).ok()).flatten(),
            Raw::Value(v) => v.as_str().map(str::to_string),
            Raw::Str(s) => Some(s.to_string()),
        }
    }
}

/// A string already read, handed on as serde_json's `Value::String` hands it (an `Option`
/// reads it as `Some`, an enum as a unit variant) without building the `Value`.
struct StrValue<'de, E>(&'de str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for StrValue<'de, E> {
    type Error = E;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_borrowed_str(self.0)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        v.visit_some(self)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, v: V) -> Result<V::Value, E> {
        if name == RAW_TOKEN {
            return Value::String(self.0.to_string()).deserialize_newtype_struct(name, v).map_err(E::custom);
        }
        v.visit_newtype_struct(self)
    }
    fn deserialize_enum<V: Visitor<'de>>(self, name: &'static str, variants: &'static [&'static str], v: V) -> Result<V::Value, E> {
        de::value::BorrowedStrDeserializer::<E>::new(self.0).deserialize_enum(name, variants, v)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// A field source over a kept value.
pub struct FromRaw<'r, 'de, E>(pub &'r Raw<'de>, pub PhantomData<E>);

impl<'r, 'de, E: de::Error> FieldSource<'de> for FromRaw<'r, 'de, E> {
    type Error = E;
    fn take<T: Deserialize<'de>>(self) -> Result<T, E> {
        self.0.read()
    }
}

/// The top-level keys of an object, each with its value kept unread.
pub struct RawObject<'de>(pub Vec<(Key<'de>, Raw<'de>)>);

impl<'de> RawObject<'de> {
    pub fn get(&self, key: &str) -> Option<&Raw<'de>> {
        self.0.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    }

    pub fn feed<B: Builder, E: de::Error>(&self, mut b: B) -> Result<B::Output, E> {
        for (k, v) in &self.0 {
            b.field(k.reborrow(), FromRaw::<E>(v, PhantomData))?;
        }
        b.finish()
    }
}

/// The keys of an object, as the key-only scores see them.
pub trait KeySet {
    fn has(&self, key: &str) -> bool;
    /// Whether the key's value equals `lit`; `None` when the key is absent.
    fn literal(&self, key: &str, lit: Lit) -> Option<bool>;
    /// Whether the key holds one of `values`: false when it is absent, and false where
    /// the values are gone, so that [`unclaimed`] gives an upper bound there.
    fn holds_one_of(&self, key: &str, values: &'static [&'static str]) -> bool {
        self.literal(key, Lit::OneOf(values)) == Some(true)
    }
}

impl KeySet for RawObject<'_> {
    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        self.get(key).map(|v| v.matches(lit))
    }
}

/// A kept object as the ranking sees it: [`KeyBits`] in front of the search.
struct KeptKeys<'o, 'de> {
    object: &'o RawObject<'de>,
    bits: KeyBits,
}

impl<'o, 'de> KeptKeys<'o, 'de> {
    fn new(object: &'o RawObject<'de>) -> Self {
        KeptKeys { object, bits: KeyBits::of(object.0.iter().map(|(k, _)| k)) }
    }
}

impl KeySet for KeptKeys<'_, '_> {
    fn has(&self, key: &str) -> bool {
        self.bits.may_have(key) && self.object.has(key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        if !self.bits.may_have(key) {
            return None;
        }
        self.object.literal(key, lit)
    }
}

impl KeySet for JsonObject {
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        self.get(key).map(|v| lit.matches(v))
    }
}

/// Key names whose values are gone (streamed into a member): every literal present
/// counts as equal, so scores taken over them are upper bounds.
pub struct SeenKeys<'k, 'de> {
    keys: &'k [Key<'de>],
    bits: KeyBits,
}

impl<'k, 'de> SeenKeys<'k, 'de> {
    pub fn new(keys: &'k [Key<'de>]) -> Self {
        SeenKeys { keys, bits: KeyBits::of(keys.iter()) }
    }
}

/// One bit per key of an object, from the key's length and end bytes: most names a ranking
/// asks about are absent, and the bit tells so without comparing strings.
#[derive(Clone, Copy)]
struct KeyBits(u64);

impl KeyBits {
    fn of<'k, 'de: 'k>(keys: impl Iterator<Item = &'k Key<'de>>) -> Self {
        KeyBits(keys.fold(0, |b, k| b | Self::bit(k.as_str())))
    }

    /// False when the object surely lacks `key`.
    fn may_have(self, key: &str) -> bool {
        self.0 & Self::bit(key) != 0
    }

    fn bit(key: &str) -> u64 {
        let b = key.as_bytes();
        let (first, last) = (b.first().copied().unwrap_or(0), b.last().copied().unwrap_or(0));
        1 << ((b.len() as u32).wrapping_mul(7).wrapping_add(first as u32).wrapping_add((last as u32) << 2) % 64)
    }
}

impl KeySet for SeenKeys<'_, '_> {
    fn has(&self, key: &str) -> bool {
        self.bits.may_have(key) && self.keys.iter().any(|k| k.as_str() == key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        // A key that allows no value (`never`) rules the member out by its presence alone.
        self.has(key).then_some(!matches!(lit, Lit::OneOf([])))
    }
    fn holds_one_of(&self, _: &str, _: &'static [&'static str]) -> bool {
        false
    }
}

/// Whether a member of a keyed union stays a candidate as far as its closed string
/// enums go. `claimed` lists, per key, the values other members of the union fix there
/// (a literal, or a closed enum's values) and this member's enum does not name: the
/// member is ruled out only when the object holds one of them. A value no member names
/// rules nobody out, so a newer peer's enum value reads as the enum's `Other` and
/// validation reports it. The reader's `Keyed::score` and validation's `KeyedCheck::rank`
/// both call this, with the same generated table.
pub fn unclaimed<K: KeySet + ?Sized>(o: &K, claimed: &[(&str, &'static [&'static str])]) -> bool {
    !claimed.iter().any(|(k, values)| o.holds_one_of(k, values))
}

/// Whether a catch-all member of a keyed union (one that takes any object, such as
/// `EmptyResult`) stays a candidate: the object holds none of `keys`, the keys that each
/// identify one other member (only it requires the key). An object with such a key is meant as one
/// of those members and reads as it or fails with its error, never as the catch-all.
/// The reader's `Keyed::score` and validation's `KeyedCheck::rank` both call this.
pub fn names_none<K: KeySet + ?Sized>(o: &K, keys: &[&str]) -> bool {
    !keys.iter().any(|k| o.has(k))
}

/// The member naming most of the object's keys (the first on a tie), among `named`
/// (member, keys); `None` when the object has none of them.
pub fn most_named<K: KeySet + ?Sized>(o: &K, named: &[(usize, &[&str])]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, keys) in named {
        let n = keys.iter().filter(|k| o.has(k)).count();
        if n > 0 && best.is_none_or(|(_, most)| n > most) {
            best = Some((*i, n));
        }
    }
    best.map(|(i, _)| i)
}

/// Ranks a struct for an object by its keys alone: every required key present, every
/// literal equal and no forbidden key; then two points for each key it names. Other
/// values are not looked at here (a closed enum's, see [`unclaimed`]): a member that
/// cannot read them is passed over for the next.
pub fn score_keys<K: KeySet + ?Sized>(o: &K, required: &[&str], known: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    if !required.iter().all(|k| o.has(k)) {
        return None;
    }
    let mut score = 1;
    for (k, must, value) in literals {
        match o.literal(k, *value) {
            Some(false) => return None,
            Some(true) => score += 2,
            None if *must => return None,
            None => {}
        }
    }
    for k in known {
        if o.has(k) {
            score += 2;
        }
    }
    Some(score)
}

/// A union decided by the keys present, read without building a tree.
///
/// A key that only one member names, in a union none of whose members takes every
/// object, decides at once: the fields before it are replayed and the rest streams
/// into that member. Otherwise the members are ranked by the keys ([`score_keys`]),
/// leaving out a member whose closed enum holds a value another member claims
/// ([`unclaimed`]) and a catch-all when a key identifying another member is present
/// ([`names_none`]), and the first that reads the object wins.
pub trait Keyed: Sized {
    const MEMBERS: usize;
    const EXPECTING: &'static str;
    const NO_MATCH: &'static str;
    type Builder: Builder<Output = Self>;
    /// The builder of the member that `key` alone decides.
    fn builder_for_key(key: &str) -> Option<Self::Builder>;
    /// In a union with a member that takes any object: the struct member that `key`
    /// alone names, as a guess that [`from_slice`] confirms or
    /// takes back.
    fn guess_for_key(_key: &str) -> Option<(usize, Self::Builder)> {
        None
    }
    /// Whether a guessed member's closed enums hold no value another member claims: the
    /// ranking of the whole object, which a guess skips, would rule it out ([`unclaimed`]).
    fn settled(&self) -> bool {
        true
    }
    /// In a union with a catch-all: the member naming most of the object's keys that rule
    /// the catch-all out ([`names_none`]). When no member ranks, its error is the union's.
    fn closest<K: KeySet + ?Sized>(_o: &K) -> Option<usize> {
        None
    }
    fn score<K: KeySet + ?Sized>(member: usize, o: &K) -> Option<u32>;
    /// Reads the object as one member; `None` when that member cannot even start
    /// (a tagged member without a readable tag).
    fn read_member<'de, E: de::Error>(member: usize, o: &RawObject<'de>) -> Option<Result<Self, E>>;

    /// Reads the object as the best-ranked member that can read it; with none, the
    /// best-ranked member's error.
    fn read<'de, E: de::Error>(o: &RawObject<'de>) -> Result<Self, E> {
        let mut first_err = None;
        for i in rank::<Self, _>(&KeptKeys::new(o)) {
            match Self::read_member::<E>(i, o) {
                Some(Ok(v)) => return Ok(v),
                Some(Err(e)) => {
                    first_err.get_or_insert(e);
                }
                None => {}
            }
        }
        if first_err.is_none() {
            // No member ranks, but one names keys that rule the catch-all out: its error
            // (a missing field) says more than that no member matches.
            if let Some(Some(Err(e))) = Self::closest(o).map(|i| Self::read_member::<E>(i, o)) {
                return Err(e);
            }
        }
        Err(first_err.unwrap_or_else(|| E::custom(Self::NO_MATCH)))
    }
}

/// The members that rank for `o`, best first; a tie keeps declaration order.
fn rank<U: Keyed, K: KeySet + ?Sized>(o: &K) -> Ranking {
    let mut ranking = Ranking { scores: [None; RANKED_ON_STACK], more: Vec::new() };
    for i in 0..U::MEMBERS {
        let score = U::score(i, o);
        match ranking.scores.get_mut(i) {
            Some(slot) => *slot = score,
            None => ranking.more.push(score),
        }
    }
    ranking
}

/// Members a ranking keeps without allocating; every schema's unions have fewer.
const RANKED_ON_STACK: usize = 32;

/// The scores of a union's members, handed out best first. The first member usually reads
/// the object, so the order is found one member at a time rather than sorted.
struct Ranking {
    scores: [Option<u32>; RANKED_ON_STACK],
    more: Vec<Option<u32>>,
}

impl Iterator for Ranking {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let mut best: Option<(usize, u32)> = None;
        for (i, score) in self.scores.iter().chain(&self.more).enumerate() {
            if let Some(s) = *score {
                if best.is_none_or(|(_, b)| s > b) {
                    best = Some((i, s));
                }
            }
        }
        let (i, _) = best?;
        match self.scores.get_mut(i) {
            Some(slot) => *slot = None,
            None => self.more[i - RANKED_ON_STACK] = None,
        }
        Some(i)
    }
}

/// [`ranks_first`] for a member guessed at a key that no other member names, over the keys
/// `seen` (distinct; the builder refuses a repeated key). A struct's key-only score is one plus
/// two for each of its fields present ([`score_keys`] over [`SeenKeys`]), a union's the best of
/// its members'. So when the guessed member names every key, its score is `1 + 2 × keys`, and
/// every other member scores at least two less, lacking the key of the guess: it ranks first
/// without the others being scored. Otherwise the whole ranking decides.
fn guess_ranks_first<U: Keyed>(member: usize, seen: &[Key]) -> bool {
    let keys = SeenKeys::new(seen);
    let quick = names_every_key::<U>(member, &keys);
    debug_assert!(!quick || ranks_first::<U, _>(member, &keys), "a guess that names every key ranks first");
    quick || ranks_first::<U, _>(member, &keys)
}

/// Whether `member` names every key of `seen`: its score is the highest any member can have.
fn names_every_key<U: Keyed>(member: usize, seen: &SeenKeys) -> bool {
    U::score(member, seen) == Some(1 + 2 * seen.keys.len() as u32)
}

/// Whether `member` comes first in [`rank`]'s order, without building it.
fn ranks_first<U: Keyed, K: KeySet + ?Sized>(member: usize, o: &K) -> bool {
    let Some(mine) = U::score(member, o) else { return false };
    (0..U::MEMBERS).filter(|&i| i != member).all(|i| U::score(i, o).is_none_or(|s| s < mine || (s == mine && member < i)))
}

/// Reads a tagged union's builder from a kept object: its tag, as a string.
pub fn tagged_builder<U: Tagged>(o: &RawObject) -> Option<U::Builder> {
    U::builder_for(o.get(U::TAG).and_then(Raw::string).as_deref())
}

struct KeyedVisitor<U>(PhantomData<U>);

impl<'de, U: Keyed> Visitor<'de> for KeyedVisitor<U> {
    type Value = U;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(U::EXPECTING)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        let mut kept = RawObject(Vec::new());
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if let Some(mut b) = U::builder_for_key(key.as_str()) {
                for (k, v) in kept.0 {
                    b.field(k, FromRaw::<A::Error>(&v, PhantomData))?;
                }
                b.map_field(key, &mut map)?;
                read_fields(&mut map, &mut b)?;
                return b.finish();
            }
            if let Some((member, b)) = U::guess_for_key(key.as_str()).filter(|_| guessing()) {
                return stream_guess::<U, A>(member, b, kept, key, map);
            }
            let v = keep(&mut map)?;
            kept.0.push((key, v));
        }
        U::read(&kept)
    }
}

/// Streams the rest of an object into a guessed member, then checks that reading
/// the whole object first (see [`Keyed::read`]) would have tried that member first:
/// its score must beat every other member's best possible score over the same keys.
/// A wrong guess (taken back, or a member that cannot read the object) is an error
/// and is also recorded, so that [`from_slice`] reads the input
/// again without guessing even where a caller swallowed the error and went on.
fn stream_guess<'de, U: Keyed, A: MapAccess<'de>>(member: usize, b: U::Builder, kept: RawObject<'de>, key: Key<'de>, map: A) -> Result<U, A::Error> {
    let read = stream_guessed::<U, A>(member, b, kept, key, map);
    if read.is_err() {
        GUESS.with(|g| g.set(Guess::Wrong));
    }
    read
}

fn stream_guessed<'de, U: Keyed, A: MapAccess<'de>>(member: usize, mut b: U::Builder, kept: RawObject<'de>, key: Key<'de>, mut map: A) -> Result<U, A::Error> {
    let mut seen = Vec::with_capacity(kept.0.len() + 4);
    for (k, v) in kept.0 {
        seen.push(k.reborrow());
        b.field(k, FromRaw::<A::Error>(&v, PhantomData))?;
    }
    seen.push(key.reborrow());
    b.map_field(key, &mut map)?;
    while let Some(k) = map.next_key::<Key<'de>>()? {
        seen.push(k.reborrow());
        b.map_field(k, &mut map)?;
    }
    let out = b.finish()?;
    if out.settled() && guess_ranks_first::<U>(member, &seen) {
        Ok(out)
    } else {
        Err(de::Error::custom(GUESS_TAKEN_BACK))
    }
}

pub(crate) const GUESS_TAKEN_BACK: &str = "another member of the union ranks first for these keys";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Guess {
    Off,
    On,
    /// A guess went wrong in this read: no more guessing, and the read is done again.
    Wrong,
}

thread_local! {
    static GUESS: std::cell::Cell<Guess> = const { std::cell::Cell::new(Guess::Off) };
}

pub(crate) fn guessing() -> bool {
    GUESS.with(|g| g.get()) == Guess::On
}

/// Runs `f` with guessing on or off; returns what it returned and whether a guess
/// went wrong. The previous setting is put back after it (also when `f` unwinds).
pub(crate) fn with_guessing<T>(on: bool, f: impl FnOnce() -> T) -> (T, bool) {
    struct Restore(Guess);
    impl Drop for Restore {
        fn drop(&mut self) {
            GUESS.with(|g| g.set(self.0));
        }
    }
    let _restore = Restore(GUESS.with(|g| g.replace(if on { Guess::On } else { Guess::Off })));
    let out = f();
    (out, GUESS.with(|g| g.get()) == Guess::Wrong)
}

/// Keeps a map's next value unread. A source that knows its size is a tree already
/// (`Value`, `&Value`): its values are taken as they are rather than printed as text.
fn keep<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Raw<'de>, A::Error> {
    if map.size_hint().is_some() {
        map.next_value().map(Raw::Value)
    } else {
        map.next_value()
    }
}

/// The kept fields as a map, for a type that is read whole once they are all in.
pub struct RawMap<'r, 'de, E> {
    fields: std::slice::Iter<'r, (Key<'de>, Raw<'de>)>,
    value: Option<&'r Raw<'de>>,
    error: PhantomData<E>,
}

impl<'r, 'de, E: de::Error> MapAccess<'de> for RawMap<'r, 'de, E> {
    type Error = E;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        let Some((k, v)) = self.fields.next() else { return Ok(None) };
        self.value = Some(v);
        let key: de::value::CowStrDeserializer<E> = de::IntoDeserializer::into_deserializer(std::borrow::Cow::Owned(k.as_str().to_string()));
        seed.deserialize(key).map(Some)
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.value.take() {
            Some(Raw::Text(text)) => {
                within_depth::<E>(text)?;
                seed.deserialize(&mut serde_json::Deserializer::from_str(text)).map_err(E::custom)
            }
            Some(Raw::Value(v)) => seed.deserialize(v.clone()).map_err(E::custom),
            Some(Raw::Str(s)) => seed.deserialize(StrValue::<E>(s, PhantomData)),
            None => Err(E::custom("value asked for before its key")),
        }
    }
}

impl<'de> RawObject<'de> {
    /// Reads the kept fields as one `T`.
    pub fn read_as<T: Deserialize<'de>, E: de::Error>(&self) -> Result<T, E> {
        T::deserialize(de::value::MapAccessDeserializer::new(RawMap::<E> { fields: self.0.iter(), value: None, error: PhantomData }))
    }
}

#[doc(hidden)]
pub enum NoBuilder {}

impl Builder for NoBuilder {
    type Output = NoRequests;
    fn field<'de, S: FieldSource<'de>>(&mut self, _: Key<'de>, _: S) -> Result<(), S::Error> {
        match *self {}
    }
    fn finish<E: de::Error>(self) -> Result<NoRequests, E> {
        match self {}
    }
}

#[doc(hidden)]
pub struct ResultResponseBuilder<Id, Res> {
    jsonrpc: bool,
    id: Option<Id>,
    result: Option<Res>,
    extra: JsonObject,
}

impl<Id, Res> Default for ResultResponseBuilder<Id, Res> {
    fn default() -> Self {
        ResultResponseBuilder { jsonrpc: false, id: None, result: None, extra: JsonObject::new() }
    }
}

impl<Id: DeserializeOwned, Res: DeserializeOwned> Builder for ResultResponseBuilder<Id, Res> {
    type Output = ResultResponse<Id, Res>;
    fn field<'de, S: FieldSource<'de>>(&mut self, key: Key<'de>, src: S) -> Result<(), S::Error> {
        match key.as_str() {
            "jsonrpc" => literal(&mut self.jsonrpc, "jsonrpc", Lit::Str("2.0"), src),
            "id" => required(&mut self.id, "id", src),
            "result" => required(&mut self.result, "result", src),
            _ => unknown(&mut self.extra, key, src),
        }
    }
    fn finish<E: de::Error>(self) -> Result<ResultResponse<Id, Res>, E> {
        need_literal::<E>(self.jsonrpc, "jsonrpc")?;
        Ok(ResultResponse { id: need(self.id, "id")?, result: need(self.result, "result")?, extra: self.extra })
    }
}

#[doc(hidden)]
pub struct MessageVisitor<M>(pub PhantomData<M>);

/// Reads a tagged union whose tag was just read, replaying the keys kept before it.
fn stream_tagged<'de, U: Tagged, A: MapAccess<'de>>(tag: Key<'de>, kept: RawObject<'de>, map: &mut A) -> Result<U, A::Error> {
    let mut b = U::builder_for(Some(tag.as_str())).ok_or_else(|| de::Error::custom(format_args!("unsupported `{}` value {:?}", U::TAG, tag.as_str())))?;
    // As a kept value, so that the builder's dispatch runs for two kinds of source, not three.
    let tag = match tag {
        Key::Borrowed(s) => Raw::Str(s),
        Key::Owned(s) => Raw::Value(Value::String(s)),
    };
    b.field(Key::Borrowed(U::TAG), FromRaw::<A::Error>(&tag, PhantomData))?;
    for (k, v) in kept.0 {
        b.field(k, FromRaw::<A::Error>(&v, PhantomData))?;
    }
    read_fields(map, &mut b)?;
    b.finish()
}

const NOTIFICATION_WITH_ID: &str = "a notification has no `id`: a message with one is a request or a response";

/// The rest of a notification's keys, refusing `id`.
struct NoId<'m, A>(&'m mut A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for NoId<'_, A> {
    type Error = A::Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        // Keys are read as `Key` by every caller here; the name is checked before the seed sees it.
        match self.0.next_key::<Key<'de>>()? {
            None => Ok(None),
            Some(k) if k.as_str() == "id" => Err(de::Error::custom(NOTIFICATION_WITH_ID)),
            Some(k) => seed.deserialize(KeyDeserializer::<A::Error>(k, PhantomData)).map(Some),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

/// Hands a key already read to a seed.
struct KeyDeserializer<'de, E>(Key<'de>, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for KeyDeserializer<'de, E> {
    type Error = E;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        match self.0 {
            Key::Borrowed(s) => v.visit_borrowed_str(s),
            other => v.visit_string(other.into_string()),
        }
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, Id, Req, Notif, Res, Err> Visitor<'de> for MessageVisitor<Message<Id, Req, Notif, Res, Err>>
where
    Id: DeserializeOwned,
    Req: Tagged + DeserializeOwned,
    Notif: Tagged + DeserializeOwned,
    Res: DeserializeOwned,
    Err: DeserializeOwned,
{
    type Value = Message<Id, Req, Notif, Res, Err>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kept = RawObject(Vec::new());
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "method" => {
                    let method = map.next_value::<Key<'de>>()?;
                    if Req::knows(method.as_str()) {
                        return stream_tagged::<Req, A>(method, kept, &mut map).map(Message::Request);
                    }
                    if Notif::knows(method.as_str()) {
                        // A message with an `id` (valid or not) is never a notification.
                        if kept.get("id").is_some() {
                            return Err(de::Error::custom(NOTIFICATION_WITH_ID));
                        }
                        return stream_tagged::<Notif, _>(method, kept, &mut NoId(&mut map)).map(Message::Notification);
                    }
                    // A method neither side names: `id` tells, once every key is in.
                    kept.0.push((key, Raw::Value(Value::String(method.into_string()))));
                    while let Some(k) = map.next_key::<Key<'de>>()? {
                        let v = keep(&mut map)?;
                        kept.0.push((k, v));
                    }
                    return if kept.get("id").is_some() {
                        kept.read_as::<Req, A::Error>().map(Message::Request)
                    } else {
                        kept.read_as::<Notif, A::Error>().map(Message::Notification)
                    };
                }
                "result" => {
                    let mut b = ResultResponseBuilder::<Id, Res>::default();
                    for (k, v) in kept.0 {
                        b.field(k, FromRaw::<A::Error>(&v, PhantomData))?;
                    }
                    b.map_field(key, &mut map)?;
                    read_fields(&mut map, &mut b)?;
                    return b.finish().map(Message::Result);
                }
                "error" => {
                    let v = keep(&mut map)?;
                    kept.0.push((key, v));
                    while let Some(k) = map.next_key::<Key<'de>>()? {
                        let v = keep(&mut map)?;
                        kept.0.push((k, v));
                    }
                    return kept.read_as::<Err, A::Error>().map(Message::Error);
                }
                _ => {
                    let v = keep(&mut map)?;
                    kept.0.push((key, v));
                }
            }
        }
        Err(de::Error::custom("not a JSON-RPC message: it has none of `method`, `result` and `error`"))
    }
}

pub fn deserialize_keyed<'de, D: Deserializer<'de>, U: Keyed>(d: D) -> Result<U, D::Error> {
    d.deserialize_map(KeyedVisitor::<U>(PhantomData))
}

pub fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

// Field setters used by generated builders.

pub fn required<'de, T: Deserialize<'de>, S: FieldSource<'de>>(slot: &mut Option<T>, name: &'static str, src: S) -> Result<(), S::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(src.take()?);
    Ok(())
}

/// An optional field. `null`, which the schema does not allow here, is kept
/// among the unknown fields so that it is written back as it came.
pub fn optional<'de, T: Deserialize<'de>, S: FieldSource<'de>>(slot: &mut Option<T>, key: Key<'de>, src: S, extra: &mut JsonObject) -> Result<(), S::Error> {
    if slot.is_some() || extra.contains_key(key.as_str()) {
        return Err(de::Error::custom(format_args!("duplicate field `{}`", key.as_str())));
    }
    match src.take::<Option<T>>()? {
        Some(v) => *slot = Some(v),
        None => {
            extra.insert(key.into_string(), Value::Null);
        }
    }
    Ok(())
}

/// An optional field that may hold any JSON value, `null` included.
pub fn optional_value<'de, S: FieldSource<'de>>(slot: &mut Option<Value>, name: &'static str, src: S) -> Result<(), S::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(src.take::<Value>()?);
    Ok(())
}

pub fn unknown<'de, S: FieldSource<'de>>(extra: &mut JsonObject, key: Key<'de>, src: S) -> Result<(), S::Error> {
    let v: Value = src.take()?;
    // An owned key moves into the map rather than being copied.
    match extra.entry(key.into_string()) {
        serde_json::map::Entry::Vacant(e) => {
            e.insert(v);
            Ok(())
        }
        serde_json::map::Entry::Occupied(e) => Err(de::Error::custom(format_args!("duplicate field `{}`", e.key()))),
    }
}

/// An unknown key whose value the schema types through an index signature.
pub fn rest<'de, T: Deserialize<'de>, S: FieldSource<'de>>(rest: &mut std::collections::BTreeMap<String, T>, key: Key<'de>, src: S) -> Result<(), S::Error> {
    let v: T = src.take()?;
    match rest.entry(key.into_string()) {
        std::collections::btree_map::Entry::Vacant(e) => {
            e.insert(v);
            Ok(())
        }
        std::collections::btree_map::Entry::Occupied(e) => Err(de::Error::custom(format_args!("duplicate field `{}`", e.key()))),
    }
}

/// A value the schema fixes for a field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lit {
    Str(&'static str),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// One of these strings; with none, no value at all (a `never` field, which rules a
    /// keyed union's member out by its presence).
    OneOf(&'static [&'static str]),
}

impl Lit {
    pub fn matches(self, v: &Value) -> bool {
        match self {
            Lit::Str(s) => v.as_str() == Some(s),
            Lit::Int(i) => v.as_i64() == Some(i) && !v.is_f64(),
            Lit::Float(x) => v.as_f64() == Some(x),
            Lit::Bool(b) => v.as_bool() == Some(b),
            Lit::OneOf(set) => v.as_str().is_some_and(|s| set.contains(&s)),
        }
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Lit::Str(s) => write!(f, "{s:?}"),
            Lit::Int(i) => write!(f, "{i}"),
            Lit::Float(x) => write!(f, "{x}"),
            Lit::Bool(b) => write!(f, "{b}"),
            Lit::OneOf(set) => write!(f, "one of {set:?}"),
        }
    }
}

/// A field whose value the schema fixes; it is checked here and never stored.
pub fn literal<'de, S: FieldSource<'de>>(seen: &mut bool, name: &'static str, expected: Lit, src: S) -> Result<(), S::Error> {
    if *seen {
        return Err(de::Error::duplicate_field(name));
    }
    let ok = match expected {
        Lit::Str(s) => src.take::<Key<'de>>().map(|k| k.as_str() == s)?,
        _ => {
            let v: Value = src.take()?;
            expected.matches(&v)
        }
    };
    if !ok {
        return Err(de::Error::custom(format_args!("`{name}` must be {expected}")));
    }
    *seen = true;
    Ok(())
}

pub fn need<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

pub fn need_literal<E: de::Error>(seen: bool, name: &'static str) -> Result<(), E> {
    if seen {
        Ok(())
    } else {
        Err(E::missing_field(name))
    }
}

/// How well a JSON value fits a type, for unions decided by the keys present:
/// `None` when it cannot be that type, else higher for a closer fit.
pub trait Shape {
    fn score(v: &Value) -> Option<u32>;
    /// The score from an object's keys alone, for [`Keyed`] unions; `None` for
    /// types that are no member of one.
    fn score_keys<K: KeySet + ?Sized>(_: &K) -> Option<u32> {
        None
    }
    /// The same question asked about a field's value: kind, literals and
    /// required keys, without descending any further.
    fn fits(v: &Value) -> Option<u32> {
        Self::score(v)
    }
}

/// A field's shallow check, as stored in the generated tables.
pub type Fit = fn(&Value) -> Option<u32>;

macro_rules! shape {
    ($($t:ty => $test:expr),* $(,)?) => { $(impl Shape for $t { fn score(v: &Value) -> Option<u32> { let f: fn(&Value) -> bool = $test; f(v).then_some(1) } })* };
}
shape! {
    String => |v| v.is_string(),
    // An integer above i64::MAX does not read as one.
    i64 => |v| v.is_i64(),
    serde_json::Number => |v| v.is_number(),
    bool => |v| v.is_boolean(),
    () => |v| v.is_null(),
    JsonObject => |v| v.is_object(),
}

impl Shape for Value {
    fn score(_: &Value) -> Option<u32> {
        Some(0)
    }
}

impl<T> Shape for Vec<T> {
    fn score(v: &Value) -> Option<u32> {
        v.is_array().then_some(1)
    }
}

impl<T> Shape for std::collections::BTreeMap<String, T> {
    fn score(v: &Value) -> Option<u32> {
        v.is_object().then_some(1)
    }
}

impl<T: Shape> Shape for Nullable<T> {
    fn score(v: &Value) -> Option<u32> {
        if v.is_null() {
            Some(1)
        } else {
            T::score(v)
        }
    }
    fn fits(v: &Value) -> Option<u32> {
        if v.is_null() {
            Some(1)
        } else {
            T::fits(v)
        }
    }
}

impl<T: Shape> Shape for Box<T> {
    fn score(v: &Value) -> Option<u32> {
        T::score(v)
    }
    fn fits(v: &Value) -> Option<u32> {
        T::fits(v)
    }
}

/// Scores a struct: every required key present and every literal equal;
/// then each known key present adds how well its value fits (a value that
/// cannot be that field's type rules the struct out).
pub fn score_object(v: &Value, required: &[&str], fields: &[(&str, Fit)], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    let o = v.as_object()?;
    let mut score = shallow_object(o, required, literals)?;
    // Objects have few keys: one pass over them, matching names by length first, costs
    // less than a map lookup (string comparisons down the tree) for every field.
    for (key, found) in o {
        if let Some((_, fit)) = fields.iter().find(|(k, _)| k.len() == key.len() && *k == key) {
            score += 1 + fit(found)?;
        }
    }
    Some(score)
}

/// A struct's shallow check: required keys and literals only.
pub fn fits_object(v: &Value, required: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    shallow_object(v.as_object()?, required, literals)
}

/// A key's value; small objects (most MCP objects) are scanned, comparing lengths first,
/// which beats the map's string comparisons down the tree.
fn lookup<'o>(o: &'o JsonObject, key: &str) -> Option<&'o Value> {
    if o.len() > 8 {
        return o.get(key);
    }
    o.iter().find(|(k, _)| k.len() == key.len() && k.as_str() == key).map(|(_, v)| v)
}

fn shallow_object(o: &JsonObject, required: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    if !required.iter().all(|k| lookup(o, k).is_some()) {
        return None;
    }
    let mut score = 1;
    for (k, must, value) in literals {
        match lookup(o, k) {
            Some(found) if !value.matches(found) => return None,
            Some(_) => score += 2,
            None if *must => return None,
            None => {}
        }
    }
    Some(score)
}

/// The index of the best score; the first one wins a tie.
pub fn best(scores: &[Option<u32>]) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (i, s) in scores.iter().enumerate() {
        if let Some(s) = s {
            if best.is_none_or(|(_, b)| *s > b) {
                best = Some((i, *s));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// A compatibility move: puts `value` under `key` inside `target` unless it has
/// one already, in which case the value is handed back to stay where it was.
pub fn move_into<T: Serialize + DeserializeOwned, E: de::Error>(target: &mut T, key: &str, value: Value) -> Result<Option<Value>, E> {
    let mut v = serde_json::to_value(&*target).map_err(E::custom)?;
    match v.as_object_mut() {
        Some(o) if !o.contains_key(key) => {
            o.insert(key.to_string(), value);
        }
        _ => return Ok(Some(value)),
    }
    *target = T::deserialize(v).map_err(E::custom)?;
    Ok(None)
}

/// Reads a union decided by the keys present, once the best variant is known.
pub fn from_value<T: DeserializeOwned, E: de::Error>(v: Value) -> Result<T, E> {
    T::deserialize(v).map_err(E::custom)
}

#[cfg(test)]
mod tests {
    use super::Raw;
    use serde::Deserialize;

    /// The depth scan of kept text skips strings (brackets, escaped quotes, backslash runs)
    /// and fails exactly one level past what a document allows a value inside an object.
    #[test]
    fn kept_text_depth_counts_only_structure() {
        use super::Raw;
        let nested = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        let read = |text: &str| Raw::Text(text).read::<serde_json::Value, serde_json::Error>().map(|_| ()).map_err(|e| e.to_string());
        let brackets = format!("\"{}\"", "[{".repeat(400));
        for ok in [
            nested(126, "1"),
            format!("[{brackets}]"),
            format!("[\"a\\\"{}\", 1]", "[".repeat(400)),
            format!("[\"a\\\\\", {}]", nested(120, "2")),
            format!("{{\"k\\\"\": {}}}", nested(125, "\"]]]]\"")),
        ] {
            assert_eq!(read(&ok), Ok(()), "{}", &ok[..ok.len().min(80)]);
        }
        for deep in [nested(127, "1"), format!("[\"a\\\\\", {}]", nested(126, "2")), format!("{{\"k\": {}}}", nested(126, "[]"))] {
            assert!(read(&deep).is_err_and(|e| e.contains("recursion limit exceeded")), "{}", &deep[..80]);
        }
    }

    /// A member is ruled out only by a value another member claims; where the values are
    /// gone (a guess's keys), nothing is, so that the score stays an upper bound.
    #[test]
    fn only_a_claimed_value_rules_a_member_out() {
        use super::{unclaimed, Key, RawObject, SeenKeys};
        let claimed: &[(&str, &'static [&'static str])] = &[("type", &["boolean", "string"])];
        for (text, free) in [(r#"{"type":"boolean"}"#, false), (r#"{"type":"string"}"#, false), (r#"{"type":"date"}"#, true), (r#"{"type":5}"#, true), (r#"{"title":"x"}"#, true)] {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(unclaimed(value.as_object().unwrap(), claimed), free, "{text} as a JSON object");
            let texts: Vec<(String, String)> = value.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            let kept = RawObject(texts.iter().map(|(k, v)| (Key::Borrowed(k), Raw::Text(v))).collect());
            assert_eq!(unclaimed(&kept, claimed), free, "{text} kept as text");
            let keys: Vec<Key> = value.as_object().unwrap().keys().map(|k| Key::Owned(k.clone())).collect();
            assert!(unclaimed(&SeenKeys::new(&keys), claimed), "{text} by keys alone");
        }
    }

    /// A tag handed to a builder as a borrowed string reads as serde_json's `Value::String`
    /// reads: an `Option` takes it as `Some` (a plain string deserializer would refuse it).
    #[test]
    fn a_tag_kept_as_a_string_reads_like_a_json_string() {
        use super::{Key, Raw};
        let (raw, value) = (Raw::Str("complete"), Raw::Value(serde_json::Value::String("complete".into())));
        for kept in [&raw, &value] {
            assert_eq!(kept.read::<Option<String>, serde_json::Error>().unwrap().as_deref(), Some("complete"));
            assert_eq!(kept.read::<String, serde_json::Error>().unwrap(), "complete");
            assert_eq!(kept.read::<Key, serde_json::Error>().unwrap().as_str(), "complete");
            let e = kept.read::<Option<u32>, serde_json::Error>().unwrap_err().to_string();
            assert_eq!(e, "invalid type: string \"complete\", expected u32");
        }
    }

    /// Keyed unions are only fast while serde_json hands out JSON text for kept values;
    /// if its protocol changed they would still be right, through `Value`, but slow.
    #[test]
    fn serde_json_hands_out_text_for_kept_values() {
        let raw: Raw = serde_json::from_str(r#" {"a": [1, "x"]} "#).unwrap();
        assert!(matches!(raw, Raw::Text(t) if t == r#"{"a": [1, "x"]}"#));
        let raw: Raw = serde_json::from_slice(b"\"s\"").unwrap();
        assert!(matches!(raw, Raw::Text("\"s\"")));
        // Sources that own their data give the value instead.
        let raw = Raw::deserialize(&mut serde_json::Deserializer::from_reader(&b"[1]"[..])).unwrap();
        assert!(matches!(raw, Raw::Value(serde_json::Value::Array(_))));
        let raw = Raw::deserialize(serde_json::json!({"k": null})).unwrap();
        assert!(matches!(raw, Raw::Value(serde_json::Value::Object(_))));
    }

    /// Every key a result of some version names, and two that none does.
    const RESULT_KEYS: &[&str] = &[
        "_meta", "action", "cacheScope", "capabilities", "completion", "content", "contents", "createdAt", "description",
        "inputRequests", "instructions", "isError", "lastUpdatedAt", "messages", "model", "nextCursor", "pollInterval",
        "prompts", "protocolVersion", "requestState", "resourceTemplates", "resources", "resultType", "role", "roots",
        "serverInfo", "status", "statusMessage", "stopReason", "structuredContent", "supportedVersions", "task", "taskId",
        "tasks", "tools", "ttl", "ttlMs", "x-unknown", "zz",
    ];

    /// Key sets to rank: every one of up to two keys beside `key`, and a spread of larger ones.
    fn key_sets(key: &'static str) -> Vec<Vec<&'static str>> {
        let others: Vec<&str> = RESULT_KEYS.iter().copied().filter(|k| *k != key).collect();
        let mut sets = vec![vec![key]];
        for (i, a) in others.iter().enumerate() {
            sets.push(vec![key, a]);
            for b in &others[i + 1..] {
                sets.push(vec![key, a, b]);
            }
        }
        // Deterministic spread of larger sets (a small linear congruential sequence).
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..3000 {
            let mut set = vec![key];
            for k in &others {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if state >> 61 == 0 {
                    set.push(k);
                }
            }
            sets.push(set);
        }
        sets
    }

    /// The quick confirmation of a guess (the guessed member names every key) only ever says
    /// yes where the whole ranking does, and it does say yes for plain results.
    fn guess_shortcut_agrees<U: super::Keyed>() -> (usize, usize) {
        use super::{names_every_key, ranks_first, Key, SeenKeys};
        let (mut quick, mut ranked) = (0, 0);
        for key in RESULT_KEYS {
            let Some((member, _)) = U::guess_for_key(key) else { continue };
            for set in key_sets(key) {
                let keys: Vec<Key> = set.iter().map(|k| Key::Borrowed(k)).collect();
                let seen = SeenKeys::new(&keys);
                let names_all = names_every_key::<U>(member, &seen);
                let first = ranks_first::<U, _>(member, &seen);
                assert!(!names_all || first, "{}: {set:?} as member {member}", U::EXPECTING);
                quick += names_all as usize;
                ranked += (first && !names_all) as usize;
            }
        }
        (quick, ranked)
    }

    #[cfg(feature = "v2026-07-28")]
    #[test]
    fn a_guess_naming_every_key_ranks_first() {
        use crate::v2026_07_28 as v;
        let (quick, ranked) = guess_shortcut_agrees::<v::ServerResult>();
        assert!(quick > 100 && ranked > 0, "quick {quick}, ranked {ranked}");
    }

    #[cfg(feature = "v2025-11-25")]
    #[test]
    fn a_guess_naming_every_key_ranks_first_2025_11_25() {
        use crate::v2025_11_25 as v;
        let (quick, _) = guess_shortcut_agrees::<v::ServerResult>();
        assert!(quick > 100, "quick {quick}");
        guess_shortcut_agrees::<v::ClientResult>();
    }

    /// The ranking hands out members as sorting by score (best first, ties in declaration
    /// order) would, beyond the members it keeps on the stack too.
    #[test]
    fn ranking_is_best_first_with_ties_in_order() {
        use super::{Ranking, RANKED_ON_STACK};
        let scores: Vec<Option<u32>> = (0..RANKED_ON_STACK + 7).map(|i| [None, Some(3), Some(5), Some(3), None, Some(9)][(i * 7) % 6]).collect();
        let mut ranking = Ranking { scores: [None; RANKED_ON_STACK], more: scores[RANKED_ON_STACK..].to_vec() };
        ranking.scores.copy_from_slice(&scores[..RANKED_ON_STACK]);
        let mut sorted: Vec<(u32, usize)> = scores.iter().enumerate().filter_map(|(i, s)| s.map(|s| (s, i))).collect();
        sorted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        assert_eq!(ranking.collect::<Vec<_>>(), sorted.into_iter().map(|(_, i)| i).collect::<Vec<_>>());
    }

    /// The guess path runs: it is taken back when another member ranks first, it fails
    /// when the guessed member cannot read the values, and `from_slice` then reads again.
    #[cfg(feature = "v2025-11-25")]
    #[test]
    fn guesses_are_checked_and_taken_back() {
        use super::{with_guessing, GUESS_TAKEN_BACK};
        use crate::v2025_11_25::ServerResult;
        let outranked = r#"{"tools":[],"content":[],"isError":false}"#;
        let (read, wrong) = with_guessing(true, || serde_json::from_str::<ServerResult>(outranked));
        assert!(read.unwrap_err().to_string().starts_with(GUESS_TAKEN_BACK) && wrong);
        assert!(matches!(crate::from_str::<ServerResult>(outranked).unwrap(), ServerResult::CallToolResult(_)));
        let unreadable = r#"{"contents":7}"#;
        let (read, wrong) = with_guessing(true, || serde_json::from_str::<ServerResult>(unreadable));
        assert!(read.is_err() && wrong);
        // Read again: `contents` rules the catch-all out, so the error is serde_json's.
        let e = crate::from_str::<ServerResult>(unreadable).unwrap_err().to_string();
        assert_eq!(e, serde_json::from_str::<ServerResult>(unreadable).unwrap_err().to_string());
        assert!(e.contains("invalid type"), "{e}");
        let confirmed = r#"{"contents":[],"_meta":{}}"#;
        let (read, wrong) = with_guessing(true, || serde_json::from_str::<ServerResult>(confirmed));
        assert!(matches!(read.unwrap(), ServerResult::ReadResourceResult(_)) && !wrong);
    }

    /// A caller that swallows a wrong guess's error and reads on (here: a list that
    /// skips the items it cannot read) still gets what serde_json gives.
    #[cfg(feature = "v2025-11-25")]
    #[test]
    fn a_swallowed_wrong_guess_still_reads_again() {
        use crate::v2025_11_25::ServerResult;
        struct Readable(Vec<ServerResult>);
        impl<'de> Deserialize<'de> for Readable {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let items = Vec::<Box<serde_json::value::RawValue>>::deserialize(d)?;
                Ok(Readable(items.iter().filter_map(|raw| serde_json::from_str(raw.get()).ok()).collect()))
            }
        }
        let text = r#"[{"tools":[],"content":[],"isError":false},{"contents":[]}]"#;
        let plain: Readable = serde_json::from_str(text).unwrap();
        let guessed: Readable = crate::from_str(text).unwrap();
        assert_eq!(plain.0.len(), 2);
        assert_eq!(plain.0, guessed.0);
    }

    /// The setting is put back after a read, also when the read unwinds.
    #[test]
    fn guessing_is_put_back() {
        use super::{guessing, with_guessing};
        assert!(!guessing());
        assert!(with_guessing(true, guessing).0);
        assert!(!guessing());
        let unwound = std::panic::catch_unwind(|| with_guessing(true, || panic!("inside")));
        assert!(unwound.is_err());
        assert!(!guessing());
        with_guessing(true, || {
            assert!(!with_guessing(false, guessing).0);
            assert!(guessing());
        });
    }
}
