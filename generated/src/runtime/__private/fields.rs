//! How the generated builders read an object's fields: keys, field sources, the struct and
//! tagged-union visitors, and the per-field helpers the builders call.

use super::*;

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

/// Where a field's value comes from: straight from the input ([`FromMap`]), or from a
/// value kept before a union's deciding key was seen ([`FromRaw`]).
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
pub(super) trait MapFields<'de, A: MapAccess<'de>> {
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
pub(super) fn read_fields<'de, A: MapAccess<'de>>(map: &mut A, b: &mut dyn MapFields<'de, A>) -> Result<(), A::Error> {
    while let Some(key) = map.next_key::<Key<'de>>()? {
        b.map_field(key, map)?;
    }
    Ok(())
}

pub(super) struct StructVisitor<B>(&'static str, PhantomData<B>);

impl<'de, B: Builder + Default> Visitor<'de> for StructVisitor<B>
where
    B::Output: ReadRest,
{
    type Value = B::Output;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a {} object", self.0)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<B::Output, A::Error> {
        // The offer was for this map: a map inside it is another type's.
        offer(false);
        let mut b = B::default();
        read_fields(&mut map, &mut b)?;
        b.finish()
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<B::Output, E> {
        handed_over(v, || self.visit_str(v))
    }
}

/// How a generated struct is read by any deserializer: it asks for a map, as it always has (so
/// serde_json and every other deserializer see the same calls and give the same errors), with an
/// offer ([`offer`]) that only the crate's reader takes, by handing the rest of its input to the
/// visitor. A newtype struct of a private name, as the envelopes ask for, would compile
/// serde_json's raw-value branch once per type.
pub fn deserialize_struct<'de, D: Deserializer<'de>, B: Builder + Default>(d: D, name: &'static str) -> Result<B::Output, D::Error>
where
    B::Output: ReadRest,
{
    offer(B::Output::OFFERS);
    offer_ended(d.deserialize_map(StructVisitor::<B>(name, PhantomData)))
}

/// Clears the offer once the call it was made for returns (a deserializer that fails before it
/// visits never sees it), passing the call's result through.
#[inline]
fn offer_ended<T>(out: T) -> T {
    offer(false);
    out
}



pub(super) struct TaggedVisitor<U>(PhantomData<U>);

impl<'de, U: Tagged + ReadRest> Visitor<'de> for TaggedVisitor<U> {
    type Value = U;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(U::EXPECTING)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<U, E> {
        handed_over(v, || self.visit_str(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        offer(false);
        // Fields before the tag are kept as values; everything after it streams into the chosen variant.
        let mut before: Vec<(String, Raw<'de>)> = Vec::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if key.as_str() != U::TAG {
                let v: Value = map.next_value()?;
                before.push((key.into_string(), Raw::Value(v)));
                continue;
            }
            let kept = keep(&mut map)?;
            let tag = match kept.plain_str() {
                Some(s) => Raw::Str(s),
                None => match kept.read::<Value>().map_err(kept_error::<A::Error>)? {
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
            b.field(Key::Borrowed(U::TAG), FromRaw(&tag)).map_err(kept_error)?;
            for (k, v) in before {
                b.field(Key::Owned(k), FromRaw(&v)).map_err(kept_error)?;
            }
            read_fields(&mut map, &mut b)?;
            return b.finish();
        }
        let mut b = U::builder_for(None).ok_or_else(|| de::Error::missing_field(U::TAG))?;
        for (k, v) in before {
            b.field(Key::Owned(k), FromRaw(&v)).map_err(kept_error)?;
        }
        b.finish()
    }
}

/// [`deserialize_struct`] for a tagged union.
pub fn deserialize_tagged<'de, D: Deserializer<'de>, U: Tagged + ReadRest>(d: D) -> Result<U, D::Error> {
    offer(U::OFFERS);
    offer_ended(d.deserialize_map(TaggedVisitor::<U>(PhantomData)))
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
    pub fn matches<'a>(self, v: impl crate::tree::View<'a>) -> bool {
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
