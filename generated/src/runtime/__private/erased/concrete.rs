//! The concrete side: a deserializer and its accesses behind the object-safe traits, and the
//! visitor and seed that hand serde's calls on to erased ones. Compiled once per concrete
//! deserializer; an error it makes is kept here and handed back where the read leaves.

use super::*;

/// A concrete deserializer behind [`ErasedDe`]: used once, then holds its error if it made one.
pub struct Erase<'de, D: Deserializer<'de>> {
    d: Option<D>,
    kept: Option<D::Error>,
    human: bool,
    _de: PhantomData<&'de ()>,
}

impl<'de, D: Deserializer<'de>> Erase<'de, D> {
    pub fn new(d: D) -> Self {
        let human = d.is_human_readable();
        Erase { d: Some(d), kept: None, human, _de: PhantomData }
    }

    /// The concrete error for one that left erased code through this deserializer.
    pub fn unerase(&mut self, e: Error) -> D::Error {
        unerase(e, &mut self.kept)
    }
}

fn unerase<E: de::Error>(e: Error, kept: &mut Option<E>) -> E {
    match (&*e.0, kept.take()) {
        (Kind::Kept(_), Some(k)) => k,
        _ => e.remake(),
    }
}

impl<'de, D: Deserializer<'de>> ErasedDe<'de> for Erase<'de, D> {
    fn erased(&mut self, hint: Hint, v: &mut dyn ErasedVisitor<'de>) -> Result<(), Error> {
        let Some(d) = self.d.take() else { return Err(de::Error::custom("a value was read twice")) };
        let v = Fwd(v);
        let out = match hint {
            Hint::Any => d.deserialize_any(v),
            Hint::Bool => d.deserialize_bool(v),
            Hint::I8 => d.deserialize_i8(v),
            Hint::I16 => d.deserialize_i16(v),
            Hint::I32 => d.deserialize_i32(v),
            Hint::I64 => d.deserialize_i64(v),
            Hint::I128 => d.deserialize_i128(v),
            Hint::U8 => d.deserialize_u8(v),
            Hint::U16 => d.deserialize_u16(v),
            Hint::U32 => d.deserialize_u32(v),
            Hint::U64 => d.deserialize_u64(v),
            Hint::U128 => d.deserialize_u128(v),
            Hint::F32 => d.deserialize_f32(v),
            Hint::F64 => d.deserialize_f64(v),
            Hint::Char => d.deserialize_char(v),
            Hint::Str => d.deserialize_str(v),
            Hint::String => d.deserialize_string(v),
            Hint::Bytes => d.deserialize_bytes(v),
            Hint::ByteBuf => d.deserialize_byte_buf(v),
            Hint::Option => d.deserialize_option(v),
            Hint::Unit => d.deserialize_unit(v),
            Hint::UnitStruct(name) => d.deserialize_unit_struct(name, v),
            Hint::NewtypeStruct(name) => d.deserialize_newtype_struct(name, v),
            Hint::Seq => d.deserialize_seq(v),
            Hint::Tuple(len) => d.deserialize_tuple(len, v),
            Hint::TupleStruct(name, len) => d.deserialize_tuple_struct(name, len, v),
            Hint::Map => d.deserialize_map(v),
            Hint::Struct(name, fields) => d.deserialize_struct(name, fields, v),
            Hint::Enum(name, variants) => d.deserialize_enum(name, variants, v),
            Hint::Identifier => d.deserialize_identifier(v),
            Hint::IgnoredAny => d.deserialize_ignored_any(v),
        };
        out.map_err(|e| keep(e, &mut self.kept))
    }

    fn erased_is_human_readable(&self) -> bool {
        self.human
    }
}

fn keep<E: fmt::Display>(e: E, kept: &mut Option<E>) -> Error {
    let text = e.to_string();
    *kept = Some(e);
    Error::kept(text)
}

/// serde's visitor calls, handed on to an erased visitor.
struct Fwd<'a, 'de>(&'a mut dyn ErasedVisitor<'de>);

impl<'de> Fwd<'_, 'de> {
    fn leaf<E: de::Error>(self, event: Event<'_, 'de>) -> Result<(), E> {
        self.0.erased_visit(event).map_err(Error::remake)
    }
}

impl<'de> Visitor<'de> for Fwd<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.erased_expecting(f)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.leaf(Event::Bool(v))
    }
    fn visit_i8<E: de::Error>(self, v: i8) -> Result<(), E> {
        self.leaf(Event::I8(v))
    }
    fn visit_i16<E: de::Error>(self, v: i16) -> Result<(), E> {
        self.leaf(Event::I16(v))
    }
    fn visit_i32<E: de::Error>(self, v: i32) -> Result<(), E> {
        self.leaf(Event::I32(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.leaf(Event::I64(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        self.leaf(Event::I128(v))
    }
    fn visit_u8<E: de::Error>(self, v: u8) -> Result<(), E> {
        self.leaf(Event::U8(v))
    }
    fn visit_u16<E: de::Error>(self, v: u16) -> Result<(), E> {
        self.leaf(Event::U16(v))
    }
    fn visit_u32<E: de::Error>(self, v: u32) -> Result<(), E> {
        self.leaf(Event::U32(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.leaf(Event::U64(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        self.leaf(Event::U128(v))
    }
    fn visit_f32<E: de::Error>(self, v: f32) -> Result<(), E> {
        self.leaf(Event::F32(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.leaf(Event::F64(v))
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<(), E> {
        self.leaf(Event::Char(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.leaf(Event::Str(v))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<(), E> {
        self.leaf(Event::BorrowedStr(v))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<(), E> {
        self.leaf(Event::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        self.leaf(Event::Bytes(v))
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<(), E> {
        self.leaf(Event::BorrowedBytes(v))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<(), E> {
        self.leaf(Event::ByteBuf(v))
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.leaf(Event::None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.leaf(Event::Unit)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let mut e = Erase::new(d);
        let out = self.0.erased_visit(Event::Some(&mut e));
        out.map_err(|x| e.unerase(x))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let mut e = Erase::new(d);
        let out = self.0.erased_visit(Event::Newtype(&mut e));
        out.map_err(|x| e.unerase(x))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        let mut s = EraseSeq { a, kept: None };
        let out = self.0.erased_visit(Event::Seq(&mut s));
        out.map_err(|x| unerase(x, &mut s.kept))
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        let mut m = EraseMap { a, kept: None };
        let out = self.0.erased_visit(Event::Map(&mut m));
        out.map_err(|x| unerase(x, &mut m.kept))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        let mut en = EraseEnum::<A> { access: Some(a), variant: None, kept: None };
        let out = self.0.erased_visit(Event::Enum(&mut en));
        out.map_err(|x| unerase(x, &mut en.kept))
    }
}

/// A seed's call, handed on to an erased seed.
struct FwdSeed<'a, 'de>(&'a mut dyn ErasedSeed<'de>);

impl<'de> DeserializeSeed<'de> for FwdSeed<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let mut e = Erase::new(d);
        let out = self.0.erased_seed(&mut e);
        out.map_err(|x| e.unerase(x))
    }
}

struct EraseMap<A, E> {
    a: A,
    kept: Option<E>,
}

impl<'de, A: MapAccess<'de>> ErasedMap<'de> for EraseMap<A, A::Error> {
    fn erased_next_key(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<bool, Error> {
        match self.a.next_key_seed(FwdSeed(seed)) {
            Ok(found) => Ok(found.is_some()),
            Err(e) => Err(keep(e, &mut self.kept)),
        }
    }
    fn erased_next_value(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<(), Error> {
        self.a.next_value_seed(FwdSeed(seed)).map_err(|e| keep(e, &mut self.kept))
    }
    fn erased_size_hint(&self) -> Option<usize> {
        self.a.size_hint()
    }
}

struct EraseSeq<A, E> {
    a: A,
    kept: Option<E>,
}

impl<'de, A: SeqAccess<'de>> ErasedSeq<'de> for EraseSeq<A, A::Error> {
    fn erased_next(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<bool, Error> {
        match self.a.next_element_seed(FwdSeed(seed)) {
            Ok(found) => Ok(found.is_some()),
            Err(e) => Err(keep(e, &mut self.kept)),
        }
    }
    fn erased_size_hint(&self) -> Option<usize> {
        self.a.size_hint()
    }
}

struct EraseEnum<'de, A: EnumAccess<'de>> {
    access: Option<A>,
    variant: Option<A::Variant>,
    kept: Option<A::Error>,
}

impl<'de, A: EnumAccess<'de>> EraseEnum<'de, A> {
    fn variant(&mut self) -> Result<A::Variant, Error> {
        self.variant.take().ok_or_else(|| de::Error::custom("an enum's content was read before its variant"))
    }
}

impl<'de, A: EnumAccess<'de>> ErasedEnum<'de> for EraseEnum<'de, A> {
    fn erased_variant(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<(), Error> {
        let Some(a) = self.access.take() else { return Err(de::Error::custom("an enum's variant was read twice")) };
        match a.variant_seed(FwdSeed(seed)) {
            Ok(((), variant)) => {
                self.variant = Some(variant);
                Ok(())
            }
            Err(e) => Err(keep(e, &mut self.kept)),
        }
    }
    fn erased_unit(&mut self) -> Result<(), Error> {
        self.variant()?.unit_variant().map_err(|e| keep(e, &mut self.kept))
    }
    fn erased_newtype(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<(), Error> {
        self.variant()?.newtype_variant_seed(FwdSeed(seed)).map_err(|e| keep(e, &mut self.kept))
    }
    fn erased_tuple(&mut self, len: usize, v: &mut dyn ErasedVisitor<'de>) -> Result<(), Error> {
        self.variant()?.tuple_variant(len, Fwd(v)).map_err(|e| keep(e, &mut self.kept))
    }
    fn erased_struct(&mut self, fields: &'static [&'static str], v: &mut dyn ErasedVisitor<'de>) -> Result<(), Error> {
        self.variant()?.struct_variant(fields, Fwd(v)).map_err(|e| keep(e, &mut self.kept))
    }
}
