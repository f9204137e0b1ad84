//! Values kept unread while a union waits for its deciding key.

use super::*;

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
// which `Raw` then keeps as a `Value`. Defined here, the leaf the reader and writer share.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";
use RAW_VALUE_TOKEN as RAW_TOKEN;

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
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Raw<'de>, E> {
                // The crate's reader hands a value's text over this way.
                match take_handover() {
                    Some(Handover::Raw) => Ok(Raw::Text(v)),
                    _ => self.visit_str(v),
                }
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
pub(super) const KEPT_DEPTH: usize = 126;

/// Fails when `text` nests deeper than [`KEPT_DEPTH`], with serde_json's own words.
pub(super) fn within_depth<E: de::Error>(text: &str) -> Result<(), E> {
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
    /// The kept value read as `T`; JSON text is parsed now, straight into `T`. The error is
    /// serde_json's whatever the outer deserializer: kept values are read by one copy of each
    /// type's reading code, and the caller turns the error into its own ([`de::Error::custom`]).
    pub fn read<T: Deserialize<'de>>(&self) -> Result<T, KeptError> {
        match self {
            Raw::Text(text) => {
                within_depth::<KeptError>(text)?;
                T::deserialize(&mut serde_json::Deserializer::from_str(text))
            }
            Raw::Value(v) => T::deserialize(v.clone()),
            Raw::Str(s) => T::deserialize(StrValue(s)),
        }
    }

    /// The string this value holds when it is borrowed from the input and needs no unescaping.
    pub(super) fn plain_str(&self) -> Option<&'de str> {
        match *self {
            Raw::Text(t) if t.len() >= 2 && t.starts_with('"') && !t.contains('\\') => Some(&t[1..t.len() - 1]),
            Raw::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(super) fn matches(&self, lit: Lit) -> bool {
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
pub(super) struct StrValue<'de>(pub(super) &'de str);

impl<'de> Deserializer<'de> for StrValue<'de> {
    type Error = KeptError;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, KeptError> {
        v.visit_borrowed_str(self.0)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, KeptError> {
        v.visit_some(self)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, v: V) -> Result<V::Value, KeptError> {
        if name == RAW_TOKEN {
            return Value::String(self.0.to_string()).deserialize_newtype_struct(name, v);
        }
        v.visit_newtype_struct(self)
    }
    fn deserialize_enum<V: Visitor<'de>>(self, name: &'static str, variants: &'static [&'static str], v: V) -> Result<V::Value, KeptError> {
        de::value::BorrowedStrDeserializer::<KeptError>::new(self.0).deserialize_enum(name, variants, v)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// What reading a kept value fails with, whatever deserializer the value came from.
pub type KeptError = serde_json::Error;

/// A field source over a kept value. Its error is [`KeptError`] for every outer deserializer,
/// so each builder's field dispatch has one copy for kept values, not one per error type.
pub struct FromRaw<'r, 'de>(pub &'r Raw<'de>);

impl<'r, 'de> FieldSource<'de> for FromRaw<'r, 'de> {
    type Error = KeptError;
    fn take<T: Deserialize<'de>>(self) -> Result<T, KeptError> {
        self.0.read()
    }
}

/// A kept value's error as the outer deserializer's (the same words; see [`Raw::read`]).
pub fn kept_error<E: de::Error>(e: KeptError) -> E {
    E::custom(e)
}
