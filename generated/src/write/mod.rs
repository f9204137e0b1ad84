//! A compact JSON writer whose output is byte-identical to `serde_json::to_vec`, built for
//! speed on MCP values: it writes straight into a `Vec<u8>` and scans strings eight bytes
//! at a time for the few bytes JSON must escape.
//!
//! Errors are `serde_json::Error`, the same ones serde_json returns for the same input
//! (a map key that is not a string, a non-finite float key, a custom error from a
//! `Serialize` impl).

use std::io;

use serde::ser::{self, Impossible, Serialize};
use serde_json::ser::Formatter as _;
use serde_json::Error;

// The struct names serde_json uses to pass `RawValue` (and, with `arbitrary_precision`,
// `Number`) text through a serializer verbatim.
use crate::runtime::__private::RAW_VALUE_TOKEN;
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Appends the compact JSON of `value` to `out`, byte for byte what `serde_json::to_vec`
/// writes. Reusing one buffer across messages avoids an allocation per message.
///
/// `value` is any type of this crate (messages, envelopes, results, params), a
/// `serde_json::Value` or a std type of those: see [`WriteJson`]. For any other `Serialize`
/// value, a caller's own envelope around the crate's types included, use
/// [`serialize_to_vec_into`].
#[inline]
pub fn to_vec_into<T: WriteJson + ?Sized>(out: &mut Vec<u8>, value: &T) {
    value.write_json(out)
}

/// The compact JSON of `value`, byte for byte what `serde_json::to_vec` returns. It cannot
/// fail: see [`to_vec_into`] for what `value` may be.
#[inline]
pub fn to_vec<T: WriteJson + ?Sized>(value: &T) -> Vec<u8> {
    value.to_json_vec()
}

/// The compact JSON of `value` as a `String`, what `serde_json::to_string` returns.
pub fn to_string<T: WriteJson + ?Sized>(value: &T) -> String {
    utf8(value.to_json_vec())
}

/// Writes the compact JSON of `value` to `writer` with one `write_all`; the only error is
/// the writer's own.
pub fn to_writer<W: io::Write, T: WriteJson + ?Sized>(mut writer: W, value: &T) -> io::Result<()> {
    writer.write_all(&value.to_json_vec())
}

/// Appends the compact JSON of any `Serialize` value to `out`, byte for byte what
/// `serde_json::to_vec` writes; on error `out` is left as it was. [`to_vec_into`] writes the
/// crate's own types and `Value` faster; this is for everything else, e.g. a caller's own
/// envelope around them. Errors are the ones serde_json gives for the same value (a map key
/// that is not a string, a non-finite float key, a custom error from a `Serialize` impl).
pub fn serialize_to_vec_into<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    let start = out.len();
    let r = value.serialize(Ser { out: &mut *out });
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// [`serialize_to_vec_into`] into a new buffer, what `serde_json::to_vec` returns.
pub fn serialize_to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(128);
    serialize_to_vec_into(&mut out, value)?;
    Ok(out)
}

/// [`serialize_to_vec_into`] as a `String`, what `serde_json::to_string` returns.
pub fn serialize_to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    Ok(utf8(serialize_to_vec(value)?))
}

/// Writes the compact JSON of any `Serialize` value to `writer` with one `write_all`. The
/// value is written to a buffer first, so nothing reaches `writer` when serializing fails.
pub fn serialize_to_writer<W: io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<(), Error> {
    let buf = serialize_to_vec(value)?;
    // serde_json has no public constructor for its I/O error, so the bytes go out
    // through its own serializer: `()` asks the formatter for `null`, which writes `buf`.
    struct Dump<'a>(&'a [u8]);
    impl serde_json::ser::Formatter for Dump<'_> {
        fn write_null<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(self.0)
        }
    }
    let mut ser = serde_json::Serializer::with_formatter(writer, Dump(&buf));
    ().serialize(&mut ser)
}

/// Only UTF-8 is ever written (str contents, ASCII syntax, number text), so the lossy branch
/// is never taken; it stands in for a panic.
fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

// ---------------------------------------------------------------------------------------
// The JSON-only path

/// Writes a value as compact JSON, byte for byte what `serde_json::to_vec` writes, without
/// going through `serde::Serialize`.
///
/// Every type of this crate implements it, as do `serde_json::Value` and the std types its
/// fields use; [`to_vec`], [`to_vec_into`], [`to_string`] and [`to_writer`] take any of them.
/// It is faster than [`serialize_to_vec_into`] on the same value because it knows the types
/// it writes: object keys are written as precomputed literals and `Value` trees (tool
/// schemas, `_meta`, arguments) are walked directly instead of through serde's generic
/// `Serialize` impls. It cannot fail: every map key is a string and a `Value` number is
/// always finite. The `Serialize` impls stay for other formats and for [`serialize_to_vec_into`].
pub trait WriteJson {
    /// Appends the compact JSON of `self` to `out`.
    fn write_json(&self, out: &mut Vec<u8>);

    /// The compact JSON of `self`, what `serde_json::to_vec` returns.
    fn to_json_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128);
        self.write_json(&mut out);
        out
    }
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        (**self).write_json(out)
    }
}

impl<T: WriteJson + ?Sized> WriteJson for Box<T> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        (**self).write_json(out)
    }
}

/// `None` is `null`, as serde writes it (fields of the crate's types skip it instead).
impl<T: WriteJson> WriteJson for Option<T> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Some(v) => v.write_json(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

impl<T: WriteJson> WriteJson for [T] {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            v.write_json(out);
        }
        out.push(b']');
    }
}

impl<T: WriteJson> WriteJson for Vec<T> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        self.as_slice().write_json(out)
    }
}

impl<V: WriteJson> WriteJson for std::collections::BTreeMap<String, V> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        let start = out.len();
        write_entries(out, self);
        end_object(out, start);
    }
}

impl WriteJson for serde_json::Map<String, serde_json::Value> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_object(out, self)
    }
}

impl WriteJson for str {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_str(out, self)
    }
}

impl WriteJson for String {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_str(out, self)
    }
}

impl WriteJson for bool {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}

impl WriteJson for () {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"null");
    }
}

macro_rules! write_json_ints {
    ($via:ident: $($t:ty),*) => {$(
        impl WriteJson for $t {
            #[inline]
            fn write_json(&self, out: &mut Vec<u8>) {
                $via(out, (*self).into())
            }
        }
    )*};
}
write_json_ints!(write_i64: i8, i16, i32, i64);
write_json_ints!(write_u64: u8, u16, u32, u64);

impl WriteJson for f64 {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_f64(out, *self)
    }
}

impl WriteJson for f32 {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_f32(out, *self)
    }
}

impl WriteJson for serde_json::Number {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_number(out, self)
    }
}

impl WriteJson for serde_json::Value {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        write_value(out, self)
    }
}

/// A `Value` tree, in the order and form `Value`'s `Serialize` impl gives serde_json.
fn write_value(out: &mut Vec<u8>, v: &serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => b.write_json(out),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(a) => {
            out.push(b'[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, v);
            }
            out.push(b']');
        }
        Value::Object(m) => write_object(out, m),
    }
}

fn write_object(out: &mut Vec<u8>, m: &serde_json::Map<String, serde_json::Value>) {
    let start = out.len();
    for (k, v) in m {
        write_key(out, k);
        write_value(out, v);
    }
    end_object(out, start);
}

/// Through `Number`'s own `Serialize` impl, so its text is the same whatever serde_json
/// features the build enables (with `arbitrary_precision` it is kept verbatim).
#[inline]
fn write_number(out: &mut Vec<u8>, n: &serde_json::Number) {
    let written = n.serialize(Ser { out });
    debug_assert!(written.is_ok(), "a Number is written without error");
}

/// `,"key":value` for each entry: the entries of an object that [`end_object`] closes.
#[doc(hidden)]
#[inline]
pub fn write_entries<'a, V: WriteJson + 'a>(out: &mut Vec<u8>, entries: impl IntoIterator<Item = (&'a String, &'a V)>) {
    for (k, v) in entries {
        write_key(out, k);
        v.write_json(out);
    }
}

/// Closes an object whose entries were each written from `start` with a leading comma:
/// the first comma becomes the `{`, so no entry needs to know whether it is the first.
#[doc(hidden)]
#[inline]
pub fn end_object(out: &mut Vec<u8>, start: usize) {
    if out.len() == start {
        out.extend_from_slice(b"{}");
    } else {
        out[start] = b'{';
        out.push(b'}');
    }
}

// The runtime's types, as their `Serialize` impls write them.

impl<T: WriteJson> WriteJson for crate::runtime::Nullable<T> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            crate::runtime::Nullable::Null => out.extend_from_slice(b"null"),
            crate::runtime::Nullable::Value(v) => v.write_json(out),
        }
    }
}

impl WriteJson for crate::runtime::NoRequests {
    fn write_json(&self, _: &mut Vec<u8>) {
        match *self {}
    }
}

impl WriteJson for crate::runtime::RpcError {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"code\":");
        self.code.write_json(out);
        out.extend_from_slice(b",\"message\":");
        self.message.write_json(out);
        if let Some(data) = &self.data {
            out.extend_from_slice(b",\"data\":");
            data.write_json(out);
        }
        out.push(b'}');
    }
}

impl<Id: WriteJson> WriteJson for crate::rpc::ErrorResponse<Id> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        self.id.write_json(out);
        out.extend_from_slice(b",\"error\":");
        self.error.write_json(out);
        out.push(b'}');
    }
}

impl<Id: WriteJson, Res: WriteJson> WriteJson for crate::runtime::ResultResponse<Id, Res> {
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        self.id.write_json(out);
        out.extend_from_slice(b",\"result\":");
        self.result.write_json(out);
        // The extra keys follow with their commas; the object is already open.
        write_entries(out, &self.extra);
        out.push(b'}');
    }
}

impl<Id, Req, Notif, Res, Err> WriteJson for crate::runtime::Message<Id, Req, Notif, Res, Err>
where
    Id: WriteJson,
    Req: WriteJson,
    Notif: WriteJson,
    Res: WriteJson,
    Err: WriteJson,
{
    #[inline]
    fn write_json(&self, out: &mut Vec<u8>) {
        use crate::runtime::Message;
        match self {
            Message::Request(v) => v.write_json(out),
            Message::Notification(v) => v.write_json(out),
            Message::Result(v) => v.write_json(out),
            Message::Error(v) => v.write_json(out),
        }
    }
}

mod key;
mod raw;
mod serializer;
mod strings;

use key::*;
use raw::*;
use serializer::*;
use strings::*;

/// What `t` writes, as a `Value`: the same as `serde_json::to_value(&t)` (the bytes are
/// `serde_json::to_vec`'s, and `float_roundtrip` reads every float back exactly), without
/// instantiating every type's `Serialize` for serde_json's value serializer (`dynamic`'s round
/// trips and the conversion routes).
#[cfg(any(feature = "convert", feature = "dynamic"))]
pub(crate) fn tree<T: WriteJson + ?Sized>(t: &T) -> Result<serde_json::Value, Error> {
    serde_json::from_slice(&t.to_json_vec())
}

#[cfg(test)]
mod tests;

