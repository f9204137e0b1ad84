//! The serializer behind [`serialize_to_vec_into`](super::serialize_to_vec_into): values, sequences, maps and structs.

use super::*;

pub(super) struct Ser<'a> {
    pub(super) out: &'a mut Vec<u8>,
}

pub(super) struct Compound<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    /// A `RawValue` (or arbitrary-precision `Number`): its one field is written verbatim.
    raw: bool,
}

impl<'a> Compound<'a> {
    #[inline]
    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.out.push(b',');
        }
    }
}

/// Opens `{"variant":` for the enum variant forms that serde_json wraps in an object.
#[inline]
pub(super) fn open_variant(out: &mut Vec<u8>, variant: &str) {
    out.push(b'{');
    write_str(out, variant);
    out.push(b':');
}

impl<'a> ser::Serializer for Ser<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        write_i64(self.out, v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        fmt(self.out, |f, o| f.write_i128(o, v));
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        write_u64(self.out, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        fmt(self.out, |f, o| f.write_u128(o, v));
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        write_f32(self.out, v);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        write_f64(self.out, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(self.out, v);
        Ok(())
    }
    /// Bytes are an array of numbers, as in serde_json.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.out.push(b'[');
        for (i, b) in v.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            write_u64(self.out, (*b).into());
        }
        self.out.push(b']');
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        open_variant(self.out, variant);
        v.serialize(Ser { out: &mut *self.out })?;
        self.out.push(b'}');
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push(b'[');
        Ok(Compound { out: self.out, first: true, raw: false })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        open_variant(self.out, variant);
        self.out.push(b'[');
        Ok(Compound { out: self.out, first: true, raw: false })
    }
    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push(b'{');
        Ok(Compound { out: self.out, first: true, raw: false })
    }
    #[inline]
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a>, Error> {
        if name == RAW_VALUE_TOKEN || name == NUMBER_TOKEN {
            return Ok(Compound { out: self.out, first: true, raw: true });
        }
        self.out.push(b'{');
        Ok(Compound { out: self.out, first: true, raw: false })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        open_variant(self.out, variant);
        self.out.push(b'{');
        Ok(Compound { out: self.out, first: true, raw: false })
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.comma();
        v.serialize(Ser { out: &mut *self.out })
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.push(b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"]}");
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(KeySer { out: &mut *self.out })?;
        self.out.push(b':');
        Ok(())
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(Ser { out: &mut *self.out })
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.push(b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Error> {
        if self.raw {
            return if key == RAW_VALUE_TOKEN || key == NUMBER_TOKEN {
                v.serialize(RawSer { out: &mut *self.out })
            } else {
                Err(<Error as ser::Error>::custom("unexpected field in a raw JSON value"))
            };
        }
        self.comma();
        write_str(self.out, key);
        self.out.push(b':');
        v.serialize(Ser { out: &mut *self.out })
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        if !self.raw {
            self.out.push(b'}');
        }
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    fn end(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"}}");
        Ok(())
    }
}
