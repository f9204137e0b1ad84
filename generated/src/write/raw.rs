//! The text inside a RawValue: already JSON, written as is.

use super::*;

pub(super) struct RawSer<'a> {
    pub(super) out: &'a mut Vec<u8>,
}

#[cold]
pub(super) fn not_raw() -> Error {
    <Error as ser::Error>::custom("a raw JSON value must hold a string")
}

impl ser::Serializer for RawSer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.out.extend_from_slice(v.as_bytes());
        Ok(())
    }
    fn serialize_bool(self, _: bool) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_i64(self, _: i64) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_u64(self, _: u64) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_i8(self, _: i8) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_i16(self, _: i16) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_i32(self, _: i32) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_u8(self, _: u8) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_u16(self, _: u16) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_u32(self, _: u32) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_f32(self, _: f32) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_f64(self, _: f64) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_char(self, _: char) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(not_raw())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_raw())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_raw())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_raw())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_raw())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(not_raw())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(not_raw())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_raw())
    }
}
