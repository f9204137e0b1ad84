//! The reader as a serde `Deserializer`, with the sequence, map and raw-value accesses it hands
//! to visitors.

use super::*;

macro_rules! numbers_by_shape {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.deserialize_i64(visitor)
        })*
    };
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => match self.string()? {
                Str::Input(s) => visitor.visit_borrowed_str(s),
                Str::Scratch(s) => visitor.visit_str(s),
            },
            Some(b'-' | b'0'..=b'9') => self.visit_number(visitor),
            Some(b'{') => self.deserialize_map(visitor),
            Some(b'[') => self.deserialize_seq(visitor),
            Some(b'n') => {
                self.expect(b"null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.expect(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.expect(b"false")?;
                visitor.visit_bool(false)
            }
            _ => give_up(),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b't' | b'f') => self.deserialize_any(visitor),
            _ => give_up(),
        }
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.visit_number(visitor),
            _ => give_up(),
        }
    }

    // Every other number type reads the number by its own shape (`visit_u64`, `visit_i64` or
    // `visit_f64`), as serde_json does; the visitor converts.
    numbers_by_shape!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64);

    fn deserialize_char<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => self.deserialize_any(visitor),
            _ => give_up(),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.expect(b"null")?;
                visitor.visit_none()
            }
            Some(_) => visitor.visit_some(self),
            None => give_up(),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => self.deserialize_any(visitor),
            _ => give_up(),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    // Only the two names the crate's reader hands text over for: the visitor of any other
    // newtype struct is left to serde_json, so that a generated type's visitor, whose
    // `visit_newtype_struct` is its serde path, is never compiled for this reader.
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if name == RAW_TOKEN {
            // The value's text, as serde_json's raw values and the crate's kept values take it.
            self.peek();
            let start = self.pos;
            self.skip()?;
            let text = &self.text[start..self.pos];
            // serde_json's own raw values take the text only as a map (which would compile
            // every generated type's visitor for one here): they are left to serde_json.
            return hand_over(Handover::Raw, || visitor.visit_borrowed_str::<GiveUp>(text)).or_else(|_| give_up());
        }
        if name != FAST_TOKEN || self.peek().is_none() {
            return give_up();
        }
        self.hand_over_rest(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() != Some(b'[') {
            return give_up();
        }
        self.enter()?;
        let v = visitor.visit_seq(Items { r: &mut *self, first: true })?;
        self.leave(b']')?;
        Ok(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _: &'static str, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() != Some(b'{') {
            take_offer();
            return give_up();
        }
        if take_offer() {
            return self.hand_over_rest(visitor);
        }
        self.enter()?;
        let v = visitor.visit_map(Entries { r: &mut *self, first: true })?;
        self.leave(b'}')?;
        Ok(v)
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], _: V) -> Result<V::Value> {
        give_up()
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip()?;
        visitor.visit_unit()
    }
}

pub(super) struct Items<'a, 'de> {
    r: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = GiveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.r.next_item(b']', &mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.r).map(Some)
    }
}

pub(super) struct Entries<'a, 'de> {
    r: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = GiveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.r.next_item(b'}', &mut self.first)? {
            return Ok(None);
        }
        if self.r.peek() != Some(b'"') {
            return give_up();
        }
        match self.r.string()? {
            Str::Input(s) => seed.deserialize(BorrowedStrDeserializer::<GiveUp>::new(s)),
            Str::Scratch(s) => seed.deserialize(StrDeserializer::<GiveUp>::new(s)),
        }
        .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.r.colon()?;
        seed.deserialize(&mut *self.r)
    }
}

impl<'de> Reader<'de> {
    /// Hands the rest of the input to a generated type (its visitor reads it with its own
    /// tables) and moves past what it read.
    fn hand_over_rest<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        #[cfg(test)]
        tests::HANDED_OVER.with(|n| n.set(n.get() + 1));
        let rest = &self.text[self.pos..];
        let depth = self.depth;
        // Moved on as the guard is dropped, after the value is made where it is returned.
        let _moved = MovesOn(&mut self.pos);
        hand_over(Handover::Rest { depth }, || visitor.visit_borrowed_str(rest))
    }
}

/// A reader's position, moved past what the visitor handed the rest of the input read
/// ([`take_read`]) when dropped.
struct MovesOn<'a>(&'a mut usize);

impl Drop for MovesOn<'_> {
    #[inline]
    fn drop(&mut self) {
        *self.0 += take_read();
    }
}
