//! The erased side: [`Dyn`], the one deserializer type the crate's types are read with, and
//! the map, sequence and enum accesses it hands to their visitors. Compiled once per visitor
//! and seed type, not once per concrete deserializer.

use super::*;

/// Any deserializer, behind [`ErasedDe`].
pub struct Dyn<'a, 'de>(pub(super) &'a mut dyn ErasedDe<'de>);

/// A serde visitor behind [`ErasedVisitor`]: takes the one call it is made for and keeps its value.
struct Wrap<V: Sized, T> {
    v: Option<V>,
    out: Option<T>,
}

fn run<'de, V: Visitor<'de>>(d: &mut dyn ErasedDe<'de>, hint: Hint, v: V) -> Result<V::Value, Error> {
    let mut w = Wrap { v: Some(v), out: None };
    d.erased(hint, &mut w)?;
    w.out.ok_or_else(|| de::Error::custom("a visitor was not called"))
}

impl<'de, V: Visitor<'de>> ErasedVisitor<'de> for Wrap<V, V::Value> {
    fn erased_expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.v {
            Some(v) => v.expecting(f),
            None => f.write_str("a value"),
        }
    }

    fn erased_visit(&mut self, event: Event<'_, 'de>) -> Result<(), Error> {
        let Some(v) = self.v.take() else { return Err(de::Error::custom("a visitor was called twice")) };
        self.out = Some(match event {
            Event::Bool(x) => v.visit_bool(x)?,
            Event::I8(x) => v.visit_i8(x)?,
            Event::I16(x) => v.visit_i16(x)?,
            Event::I32(x) => v.visit_i32(x)?,
            Event::I64(x) => v.visit_i64(x)?,
            Event::I128(x) => v.visit_i128(x)?,
            Event::U8(x) => v.visit_u8(x)?,
            Event::U16(x) => v.visit_u16(x)?,
            Event::U32(x) => v.visit_u32(x)?,
            Event::U64(x) => v.visit_u64(x)?,
            Event::U128(x) => v.visit_u128(x)?,
            Event::F32(x) => v.visit_f32(x)?,
            Event::F64(x) => v.visit_f64(x)?,
            Event::Char(x) => v.visit_char(x)?,
            Event::Str(x) => v.visit_str(x)?,
            Event::BorrowedStr(x) => v.visit_borrowed_str(x)?,
            Event::String(x) => v.visit_string(x)?,
            Event::Bytes(x) => v.visit_bytes(x)?,
            Event::BorrowedBytes(x) => v.visit_borrowed_bytes(x)?,
            Event::ByteBuf(x) => v.visit_byte_buf(x)?,
            Event::None => v.visit_none()?,
            Event::Some(d) => v.visit_some(Dyn(d))?,
            Event::Unit => v.visit_unit()?,
            Event::Newtype(d) => v.visit_newtype_struct(Dyn(d))?,
            Event::Seq(s) => v.visit_seq(DynSeq(s))?,
            Event::Map(m) => v.visit_map(DynMap(m))?,
            Event::Enum(e) => v.visit_enum(DynEnum(e))?,
        });
        Ok(())
    }
}

impl<'de> Deserializer<'de> for Dyn<'_, 'de> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Any, v)
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Bool, v)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::I8, v)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::I16, v)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::I32, v)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::I64, v)
    }
    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::I128, v)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::U8, v)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::U16, v)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::U32, v)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::U64, v)
    }
    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::U128, v)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::F32, v)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::F64, v)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Char, v)
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Str, v)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::String, v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Bytes, v)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::ByteBuf, v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Option, v)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Unit, v)
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::UnitStruct(name), v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::NewtypeStruct(name), v)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Seq, v)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Tuple(len), v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(self, name: &'static str, len: usize, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::TupleStruct(name, len), v)
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Map, v)
    }
    fn deserialize_struct<V: Visitor<'de>>(self, name: &'static str, fields: &'static [&'static str], v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Struct(name, fields), v)
    }
    fn deserialize_enum<V: Visitor<'de>>(self, name: &'static str, variants: &'static [&'static str], v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Enum(name, variants), v)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::Identifier, v)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        run(self.0, Hint::IgnoredAny, v)
    }
    fn is_human_readable(&self) -> bool {
        self.0.erased_is_human_readable()
    }
}

/// A serde seed behind [`ErasedSeed`].
struct WrapSeed<S: Sized, T> {
    seed: Option<S>,
    out: Option<T>,
}

impl<'de, S: DeserializeSeed<'de>> ErasedSeed<'de> for WrapSeed<S, S::Value> {
    fn erased_seed(&mut self, d: &mut dyn ErasedDe<'de>) -> Result<(), Error> {
        let Some(seed) = self.seed.take() else { return Err(de::Error::custom("a seed was used twice")) };
        self.out = Some(seed.deserialize(Dyn(d))?);
        Ok(())
    }
}

fn seeded<'de, S: DeserializeSeed<'de>>(seed: S, call: impl FnOnce(&mut dyn ErasedSeed<'de>) -> Result<bool, Error>) -> Result<Option<S::Value>, Error> {
    let mut w = WrapSeed { seed: Some(seed), out: None };
    if !call(&mut w)? {
        return Ok(None);
    }
    w.out.map(Some).ok_or_else(|| de::Error::custom("a seed was not used"))
}

struct DynMap<'a, 'de>(&'a mut dyn ErasedMap<'de>);

impl<'de> MapAccess<'de> for DynMap<'_, 'de> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        seeded(seed, |s| self.0.erased_next_key(s))
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seeded(seed, |s| self.0.erased_next_value(s).map(|()| true))?.ok_or_else(|| de::Error::custom("a seed was not used"))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.erased_size_hint()
    }
}

struct DynSeq<'a, 'de>(&'a mut dyn ErasedSeq<'de>);

impl<'de> SeqAccess<'de> for DynSeq<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        seeded(seed, |s| self.0.erased_next(s))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.erased_size_hint()
    }
}

struct DynEnum<'a, 'de>(&'a mut dyn ErasedEnum<'de>);

impl<'a, 'de> EnumAccess<'de> for DynEnum<'a, 'de> {
    type Error = Error;
    type Variant = DynEnum<'a, 'de>;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant), Error> {
        let value = seeded(seed, |s| self.0.erased_variant(s).map(|()| true))?.ok_or_else(|| de::Error::custom("a seed was not used"))?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for DynEnum<'_, 'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        self.0.erased_unit()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seeded(seed, |s| self.0.erased_newtype(s).map(|()| true))?.ok_or_else(|| de::Error::custom("a seed was not used"))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, Error> {
        let mut w = Wrap { v: Some(v), out: None };
        self.0.erased_tuple(len, &mut w)?;
        w.out.ok_or_else(|| de::Error::custom("a visitor was not called"))
    }
    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], v: V) -> Result<V::Value, Error> {
        let mut w = Wrap { v: Some(v), out: None };
        self.0.erased_struct(fields, &mut w)?;
        w.out.ok_or_else(|| de::Error::custom("a visitor was not called"))
    }
}
