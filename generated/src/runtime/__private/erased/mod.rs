//! One deserializer type for every read the crate makes itself.
//!
//! A generic `Deserialize` impl is compiled once for each deserializer type it is called with,
//! and the crate reads through many: its own reader, serde_json's over a string and over a slice,
//! `Value` and `&Value`, kept values, the run-time tables of `dynamic` and `convert`. Every place
//! in the crate that reads a `T` from a concrete deserializer goes through [`read_erased`]
//! instead, which hands `T` the one type [`Dyn`]: each type's reading code is then compiled once,
//! and only this module's adapters once per concrete deserializer.
//!
//! The values and errors are the concrete deserializer's own. An error it makes is kept in the
//! adapter that called it and handed back unchanged where the read leaves the erased code (so
//! serde_json's line and column are its own); an error a visitor makes is recorded by kind
//! (`invalid_type`, `missing_field`, ...) and made again, by the same constructor, as the concrete
//! error at the visitor call it came from.

use super::*;
use serde::de::{DeserializeSeed, EnumAccess, Expected, SeqAccess, Unexpected, VariantAccess};

/// Reads a `T` from `d`; `T`'s reading code runs against [`Dyn`], whatever `d` is.
pub fn read_erased<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    let mut e = Erase::new(d);
    let out = T::deserialize(Dyn(&mut e));
    out.map_err(|x| e.unerase(x))
}

/// [`read_erased`] for a seed.
pub fn seed_erased<'de, S: DeserializeSeed<'de>, D: Deserializer<'de>>(seed: S, d: D) -> Result<S::Value, D::Error> {
    let mut e = Erase::new(d);
    let out = seed.deserialize(Dyn(&mut e));
    out.map_err(|x| e.unerase(x))
}

/// `serde_json::from_str`, reading through [`Dyn`].
pub fn json_from_str<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = read_erased(&mut de)?;
    de.end()?;
    Ok(v)
}

/// `serde_json::from_slice`, reading through [`Dyn`].
pub fn json_from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let v = read_erased(&mut de)?;
    de.end()?;
    Ok(v)
}

// ---------------------------------------------------------------------------------------
// The error inside erased code

/// An error inside erased code: one a visitor made, by kind, or the mark of one the concrete
/// deserializer made, which the adapter that called it keeps.
pub struct Error(Box<Kind>);

enum Kind {
    /// Kept by its adapter; the text is what it displays, for code that words it into its own error.
    Kept(String),
    Custom(String),
    InvalidType(Unexp, String),
    InvalidValue(Unexp, String),
    InvalidLength(usize, String),
    UnknownVariant(String, &'static [&'static str]),
    UnknownField(String, &'static [&'static str]),
    MissingField(&'static str),
    DuplicateField(&'static str),
}

/// `serde::de::Unexpected`, owned.
enum Unexp {
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Char(char),
    Str(String),
    Bytes(Vec<u8>),
    Unit,
    Option,
    NewtypeStruct,
    Seq,
    Map,
    Enum,
    UnitVariant,
    NewtypeVariant,
    TupleVariant,
    StructVariant,
    Other(String),
}

impl Unexp {
    fn keep(u: Unexpected) -> Unexp {
        match u {
            Unexpected::Bool(b) => Unexp::Bool(b),
            Unexpected::Unsigned(n) => Unexp::Unsigned(n),
            Unexpected::Signed(n) => Unexp::Signed(n),
            Unexpected::Float(x) => Unexp::Float(x),
            Unexpected::Char(c) => Unexp::Char(c),
            Unexpected::Str(s) => Unexp::Str(s.to_string()),
            Unexpected::Bytes(b) => Unexp::Bytes(b.to_vec()),
            Unexpected::Unit => Unexp::Unit,
            Unexpected::Option => Unexp::Option,
            Unexpected::NewtypeStruct => Unexp::NewtypeStruct,
            Unexpected::Seq => Unexp::Seq,
            Unexpected::Map => Unexp::Map,
            Unexpected::Enum => Unexp::Enum,
            Unexpected::UnitVariant => Unexp::UnitVariant,
            Unexpected::NewtypeVariant => Unexp::NewtypeVariant,
            Unexpected::TupleVariant => Unexp::TupleVariant,
            Unexpected::StructVariant => Unexp::StructVariant,
            Unexpected::Other(s) => Unexp::Other(s.to_string()),
        }
    }

    fn get(&self) -> Unexpected<'_> {
        match self {
            Unexp::Bool(b) => Unexpected::Bool(*b),
            Unexp::Unsigned(n) => Unexpected::Unsigned(*n),
            Unexp::Signed(n) => Unexpected::Signed(*n),
            Unexp::Float(x) => Unexpected::Float(*x),
            Unexp::Char(c) => Unexpected::Char(*c),
            Unexp::Str(s) => Unexpected::Str(s),
            Unexp::Bytes(b) => Unexpected::Bytes(b),
            Unexp::Unit => Unexpected::Unit,
            Unexp::Option => Unexpected::Option,
            Unexp::NewtypeStruct => Unexpected::NewtypeStruct,
            Unexp::Seq => Unexpected::Seq,
            Unexp::Map => Unexpected::Map,
            Unexp::Enum => Unexpected::Enum,
            Unexp::UnitVariant => Unexpected::UnitVariant,
            Unexp::NewtypeVariant => Unexpected::NewtypeVariant,
            Unexp::TupleVariant => Unexpected::TupleVariant,
            Unexp::StructVariant => Unexpected::StructVariant,
            Unexp::Other(s) => Unexpected::Other(s),
        }
    }
}

impl Error {
    fn kept(text: String) -> Error {
        Error(Box::new(Kind::Kept(text)))
    }

    /// The same error made by `E`'s constructor of the same kind. A kept error is only remade
    /// where its adapter no longer holds it (code caught it and went on), from its text.
    fn remake<E: de::Error>(self) -> E {
        match *self.0 {
            Kind::Kept(text) => E::custom(text),
            Kind::Custom(m) => E::custom(m),
            Kind::InvalidType(u, exp) => E::invalid_type(u.get(), &exp.as_str()),
            Kind::InvalidValue(u, exp) => E::invalid_value(u.get(), &exp.as_str()),
            Kind::InvalidLength(n, exp) => E::invalid_length(n, &exp.as_str()),
            Kind::UnknownVariant(v, expected) => E::unknown_variant(&v, expected),
            Kind::UnknownField(f, expected) => E::unknown_field(&f, expected),
            Kind::MissingField(f) => E::missing_field(f),
            Kind::DuplicateField(f) => E::duplicate_field(f),
        }
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(Box::new(Kind::Custom(msg.to_string())))
    }
    fn invalid_type(unexp: Unexpected, exp: &dyn Expected) -> Self {
        Error(Box::new(Kind::InvalidType(Unexp::keep(unexp), exp.to_string())))
    }
    fn invalid_value(unexp: Unexpected, exp: &dyn Expected) -> Self {
        Error(Box::new(Kind::InvalidValue(Unexp::keep(unexp), exp.to_string())))
    }
    fn invalid_length(len: usize, exp: &dyn Expected) -> Self {
        Error(Box::new(Kind::InvalidLength(len, exp.to_string())))
    }
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Error(Box::new(Kind::UnknownVariant(variant.to_string(), expected)))
    }
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Error(Box::new(Kind::UnknownField(field.to_string(), expected)))
    }
    fn missing_field(field: &'static str) -> Self {
        Error(Box::new(Kind::MissingField(field)))
    }
    fn duplicate_field(field: &'static str) -> Self {
        Error(Box::new(Kind::DuplicateField(field)))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // Only for a caller that prints it inside erased code; the concrete error is what leaves.
        f.write_str(&self.clone_message())
    }
}

impl Error {
    fn clone_message(&self) -> String {
        let e: serde_json::Error = match &*self.0 {
            Kind::InvalidType(u, exp) => de::Error::invalid_type(u.get(), &exp.as_str()),
            Kind::InvalidValue(u, exp) => de::Error::invalid_value(u.get(), &exp.as_str()),
            Kind::InvalidLength(n, exp) => de::Error::invalid_length(*n, &exp.as_str()),
            Kind::UnknownVariant(v, expected) => de::Error::unknown_variant(v, expected),
            Kind::UnknownField(v, expected) => de::Error::unknown_field(v, expected),
            Kind::MissingField(f) => de::Error::missing_field(f),
            Kind::DuplicateField(f) => de::Error::duplicate_field(f),
            Kind::Custom(m) => de::Error::custom(m),
            Kind::Kept(text) => de::Error::custom(text),
        };
        e.to_string()
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Error({})", self.clone_message())
    }
}

impl std::error::Error for Error {}

// ---------------------------------------------------------------------------------------
// The object-safe traits

/// Which `deserialize_*` method was called.
#[derive(Clone, Copy)]
pub enum Hint {
    Any,
    Bool,
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
    Char,
    Str,
    String,
    Bytes,
    ByteBuf,
    Option,
    Unit,
    UnitStruct(&'static str),
    NewtypeStruct(&'static str),
    Seq,
    Tuple(usize),
    TupleStruct(&'static str, usize),
    Map,
    Struct(&'static str, &'static [&'static str]),
    Enum(&'static str, &'static [&'static str]),
    Identifier,
    IgnoredAny,
}

/// Which `visit_*` method was called, with its argument.
pub enum Event<'a, 'de> {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(&'a str),
    BorrowedStr(&'de str),
    String(String),
    Bytes(&'a [u8]),
    BorrowedBytes(&'de [u8]),
    ByteBuf(Vec<u8>),
    None,
    Some(&'a mut dyn ErasedDe<'de>),
    Unit,
    Newtype(&'a mut dyn ErasedDe<'de>),
    Seq(&'a mut dyn ErasedSeq<'de>),
    Map(&'a mut dyn ErasedMap<'de>),
    Enum(&'a mut dyn ErasedEnum<'de>),
}

pub trait ErasedDe<'de> {
    fn erased(&mut self, hint: Hint, v: &mut dyn ErasedVisitor<'de>) -> Result<(), Error>;
    fn erased_is_human_readable(&self) -> bool;
}

pub trait ErasedVisitor<'de> {
    fn erased_expecting(&self, f: &mut fmt::Formatter) -> fmt::Result;
    fn erased_visit(&mut self, event: Event<'_, 'de>) -> Result<(), Error>;
}

pub trait ErasedSeed<'de> {
    fn erased_seed(&mut self, d: &mut dyn ErasedDe<'de>) -> Result<(), Error>;
}

pub trait ErasedMap<'de> {
    fn erased_next_key(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<bool, Error>;
    fn erased_next_value(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<(), Error>;
    fn erased_size_hint(&self) -> Option<usize>;
}

pub trait ErasedSeq<'de> {
    fn erased_next(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<bool, Error>;
    fn erased_size_hint(&self) -> Option<usize>;
}

/// An enum's access: the variant is read first, then its content, from the same object.
pub trait ErasedEnum<'de> {
    fn erased_variant(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<(), Error>;
    fn erased_unit(&mut self) -> Result<(), Error>;
    fn erased_newtype(&mut self, seed: &mut dyn ErasedSeed<'de>) -> Result<(), Error>;
    fn erased_tuple(&mut self, len: usize, v: &mut dyn ErasedVisitor<'de>) -> Result<(), Error>;
    fn erased_struct(&mut self, fields: &'static [&'static str], v: &mut dyn ErasedVisitor<'de>) -> Result<(), Error>;
}

mod concrete;
mod dynamic;

pub use concrete::Erase;
pub use dynamic::Dyn;
