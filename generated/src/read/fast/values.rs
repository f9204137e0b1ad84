//! What the table path reads that is not a generated struct: strings, numbers, `Value`, maps,
//! lists, and the pieces the generated unions and enums call.

use std::collections::BTreeMap;

use serde::de;
use serde_json::{Number, Value};

use super::super::reader::{Number as Num, Str};
use super::{give_up, refuse, Fast, FastRead, Reader, RAW_TOKEN};
use crate::runtime::__private::Key;
use crate::runtime::{JsonObject, Nullable};

/// A string enum: its value as the type makes it from the wire.
pub fn read_enum<T>(r: &mut Reader<'_>, from_wire: impl FnOnce(&str) -> T) -> Fast<T> {
    if r.peek() != Some(b'"') {
        return refuse();
    }
    Ok(match r.string()? {
        Str::Input(s) => from_wire(s),
        Str::Scratch(s) => from_wire(s),
    })
}

/// A value of the union member the scores picked (the serde path's `from_value`).
pub fn from_value<T: de::DeserializeOwned>(v: Value) -> Fast<T> {
    T::deserialize(v).map_or_else(|_| refuse(), Ok)
}

/// The next value read into its compact tree (for a union scored on it): its text passed over, then parsed.
pub fn next_tree<'de>(r: &mut Reader<'de>) -> Fast<crate::tree::Doc<'de>> {
    r.peek();
    let start = r.pos;
    r.skip()?;
    crate::tree::Doc::parse(&r.text[start..r.pos]).map_or_else(|_| give_up(), Ok)
}

/// A union's member read from the tree it was scored on.
pub fn from_node<T: de::DeserializeOwned>(n: crate::tree::Node<'_>) -> Fast<T> {
    T::deserialize(n).map_or_else(|_| refuse(), Ok)
}

/// The next value's first byte, not consumed (what a union decided by the JSON kind looks at).
pub fn peek(r: &mut Reader<'_>) -> Option<u8> {
    r.peek()
}

/// A number as read, for a union decided by the JSON kind.
pub struct NumberToken(Num);

impl NumberToken {
    /// Whether serde_json hands this number to a visitor as a float.
    pub fn is_float(&self) -> bool {
        matches!(self.0, Num::F64(_))
    }
}

pub fn number(r: &mut Reader<'_>) -> Fast<NumberToken> {
    r.number().map(NumberToken)
}

/// A union member read from a number already read.
pub trait FromNumber: Sized {
    fn from_number(n: NumberToken) -> Fast<Self>;
}

impl FromNumber for i64 {
    fn from_number(n: NumberToken) -> Fast<Self> {
        match n.0 {
            Num::U64(v) => i64::try_from(v).map_or_else(|_| refuse(), Ok),
            Num::I64(v) => Ok(v),
            Num::F64(_) => refuse(),
        }
    }
}

impl FromNumber for Number {
    fn from_number(n: NumberToken) -> Fast<Self> {
        Ok(match n.0 {
            Num::U64(v) => v.into(),
            Num::I64(v) => v.into(),
            Num::F64(v) => return Number::from_f64(v).map_or_else(refuse, Ok),
        })
    }
}

impl FastRead for String {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        read_enum(r, str::to_string)
    }
}

impl FastRead for i64 {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b'-' | b'0'..=b'9') => i64::from_number(number(r)?),
            _ => refuse(),
        }
    }
}

impl FastRead for Number {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b'-' | b'0'..=b'9') => Number::from_number(number(r)?),
            _ => refuse(),
        }
    }
}

impl FastRead for bool {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b't') => r.expect(b"true").map(|_| true),
            Some(b'f') => r.expect(b"false").map(|_| false),
            _ => refuse(),
        }
    }
}

impl FastRead for () {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        match r.peek() {
            Some(b'n') => r.expect(b"null"),
            _ => refuse(),
        }
    }
}

// serde_json's `Value` reads an object whose first key is one of these as something else.
const VALUE_TOKENS: [&str; 2] = [RAW_TOKEN, "$serde_json::private::Number"];

impl FastRead for Value {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        Ok(match r.peek() {
            Some(b'"') => Value::String(String::read_fast(r)?),
            Some(b'-' | b'0'..=b'9') => Value::Number(Number::from_number(number(r)?)?),
            Some(b'n') => {
                r.expect(b"null")?;
                Value::Null
            }
            Some(b't' | b'f') => Value::Bool(bool::read_fast(r)?),
            Some(b'[') => Value::Array(Vec::read_fast(r)?),
            Some(b'{') => {
                let mut first_key = true;
                Value::Object(read_map(r, JsonObject::new(), |m, k, v| {
                    if std::mem::take(&mut first_key) && VALUE_TOKENS.contains(&k.as_str()) {
                        return give_up();
                    }
                    m.insert(k.into_string(), v);
                    Ok(())
                })?)
            }
            _ => return give_up(),
        })
    }
}

/// An object's entries, each value as `T`, added by `put` (later keys replace earlier ones,
/// as serde's maps and serde_json's objects do).
fn read_map<M, T: FastRead>(r: &mut Reader<'_>, mut m: M, mut put: impl FnMut(&mut M, Key<'_>, T) -> Fast<()>) -> Fast<M> {
    if r.peek() != Some(b'{') {
        return refuse();
    }
    r.enter()?;
    let mut first = true;
    while r.next_item(b'}', &mut first)? {
        let key = r.key()?;
        r.colon()?;
        let v = T::read_fast(r)?;
        put(&mut m, key, v)?;
    }
    r.leave(b'}')?;
    Ok(m)
}

impl FastRead for JsonObject {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        read_map(r, JsonObject::new(), |m, k, v| {
            m.insert(k.into_string(), v);
            Ok(())
        })
    }
}

impl<T: FastRead> FastRead for BTreeMap<String, T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        read_map(r, BTreeMap::new(), |m, k, v| {
            m.insert(k.into_string(), v);
            Ok(())
        })
    }
}

/// Elements larger than this are given room one at a time at first.
const LARGE_ELEMENT: usize = 128;

impl<T: FastRead> FastRead for Vec<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        if r.peek() != Some(b'[') {
            return refuse();
        }
        r.enter()?;
        // Room for one large element at first (most lists of structs hold one): four of
        // them would be an allocation past 1 KiB, which glibc serves only after
        // consolidating its free lists.
        let mut items = Vec::new();
        let mut first = true;
        while r.next_item(b']', &mut first)? {
            let item = T::read_fast(r)?;
            if std::mem::size_of::<T>() > LARGE_ELEMENT && items.capacity() == 0 {
                items.reserve_exact(1);
            }
            items.push(item);
        }
        r.leave(b']')?;
        Ok(items)
    }
}

impl<T: FastRead> FastRead for Box<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        T::read_fast(r).map(Box::new)
    }
}

impl<T: FastRead> FastRead for Nullable<T> {
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        if r.peek() == Some(b'n') {
            r.expect(b"null")?;
            return Ok(Nullable::Null);
        }
        T::read_fast(r).map(Nullable::Value)
    }
}

