//! Reading typed values from a [`Node`]: the calls `Value`'s deserializer makes for the same
//! JSON (so every type reads from the tree what it reads from a `Value`), with strings borrowed
//! from the document.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, Visitor};

use super::node::{ArrayIter, ObjectIter, N};
use crate::runtime::__private::RAW_VALUE_TOKEN as RAW_TOKEN;
use super::{Kind, Node};

type Error = serde_json::Error;

/// The number methods: a number only, as `Value` takes them.
macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.only(visitor, |n| n.is_number())
        }
    )*};
}

impl<'de> Deserializer<'de> for Node<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.kind() {
            Kind::Null => visitor.visit_unit(),
            Kind::Bool(b) => visitor.visit_bool(b),
            Kind::Number(n) => match n.value() {
                N::PosInt(u) => visitor.visit_u64(u),
                N::NegInt(i) => visitor.visit_i64(i),
                N::Float(f) => visitor.visit_f64(f),
            },
            Kind::String(s) => visitor.visit_borrowed_str(s),
            Kind::Array(a) => {
                let len = a.len();
                let mut seq = Seq { items: a.iter(), left: len };
                let out = visitor.visit_seq(&mut seq)?;
                if seq.left == 0 {
                    Ok(out)
                } else {
                    Err(de::Error::invalid_length(len, &"fewer elements in array"))
                }
            }
            Kind::Object(o) => {
                let len = o.len();
                let mut map = Map { entries: o.iter(), value: None, left: len };
                let out = visitor.visit_map(&mut map)?;
                if map.left == 0 {
                    Ok(out)
                } else {
                    Err(de::Error::invalid_length(len, &"fewer elements in map"))
                }
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Error> {
        // serde_json's raw-value protocol (its `RawValue`, and the values a union keeps unread): the
        // value's own text, borrowed from the document, rather than a copy of it as a tree.
        if name == RAW_TOKEN {
            return visitor.visit_map(RawText { text: Some(self.json_text()) });
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _name: &'static str, _variants: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.kind() {
            Kind::String(s) => visitor.visit_enum(s.into_deserializer()),
            Kind::Object(o) => {
                let mut entries = o.iter();
                let (Some((variant, value)), None) = (entries.next(), entries.next()) else {
                    return Err(de::Error::invalid_value(de::Unexpected::Map, &"map with a single key"));
                };
                visitor.visit_enum(Enum { variant, value })
            }
            _ => Err(de::Error::invalid_type(unexpected(self), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    // As `Value` does, each of these takes only its own kinds and refuses the rest (a visitor that
    // would take more, like a map's taking `null` as empty, does not get the chance).
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_boolean())
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_string())
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_string())
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_string())
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_string())
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_string() || n.is_array())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_string() || n.is_array())
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_null())
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_null())
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_array())
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_array())
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_array())
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_object())
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _name: &'static str, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        self.only(visitor, |n| n.is_object() || n.is_array())
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16
        deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64
    }
}

impl<'de> Node<'de> {
    /// Reads the value when `takes` it, else `Value`'s error for a value of the wrong kind.
    fn only<V: Visitor<'de>>(self, visitor: V, takes: impl Fn(Node<'de>) -> bool) -> Result<V::Value, Error> {
        if takes(self) {
            self.deserialize_any(visitor)
        } else {
            Err(de::Error::invalid_type(unexpected(self), &visitor))
        }
    }
}

fn unexpected(n: Node<'_>) -> de::Unexpected<'_> {
    match n.kind() {
        Kind::Null => de::Unexpected::Unit,
        Kind::Bool(b) => de::Unexpected::Bool(b),
        Kind::Number(x) => match x.value() {
            N::PosInt(u) => de::Unexpected::Unsigned(u),
            N::NegInt(i) => de::Unexpected::Signed(i),
            N::Float(f) => de::Unexpected::Float(f),
        },
        Kind::String(s) => de::Unexpected::Str(s),
        Kind::Array(_) => de::Unexpected::Seq,
        Kind::Object(_) => de::Unexpected::Map,
    }
}

struct Seq<'de> {
    items: ArrayIter<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        match self.items.next() {
            Some(x) => {
                self.left -= 1;
                seed.deserialize(x).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

struct Map<'de> {
    entries: ObjectIter<'de>,
    value: Option<Node<'de>>,
    left: usize,
}

impl<'de> de::MapAccess<'de> for Map<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((k, v)) => {
                self.left -= 1;
                self.value = Some(v);
                seed.deserialize(de::value::BorrowedStrDeserializer::new(k)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// One entry, the raw-value token to the value's text, as serde_json hands a raw value over.
struct RawText<'de> {
    text: Option<&'de str>,
}

impl<'de> de::MapAccess<'de> for RawText<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if self.text.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(RAW_TOKEN)).map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let text = self.text.take().ok_or_else(|| <Error as de::Error>::custom("value is missing"))?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(text))
    }
}

struct Enum<'de> {
    variant: &'de str,
    value: Node<'de>,
}

impl<'de> de::EnumAccess<'de> for Enum<'de> {
    type Error = Error;
    type Variant = Node<'de>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Node<'de>), Error> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(self.variant))?;
        Ok((v, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for Node<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        if self.is_null() {
            Ok(())
        } else {
            Err(de::Error::invalid_type(unexpected(self), &"unit variant"))
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.kind() {
            Kind::Array(_) => self.deserialize_any(visitor),
            _ => Err(de::Error::invalid_type(unexpected(self), &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        match self.kind() {
            Kind::Object(_) => self.deserialize_any(visitor),
            _ => Err(de::Error::invalid_type(unexpected(self), &"struct variant")),
        }
    }
}
