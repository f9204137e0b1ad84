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

/// Appends the compact JSON of `value` to `out`. Reusing one buffer across messages
/// avoids an allocation per message. On error `out` is left as it was.
///
/// For the crate's own types and `Value`, [`WriteJson::write_json`] writes the same bytes
/// faster. This entry point stays generic over `Serialize` so that any value can be
/// written, a caller's own envelope around the crate's types included.
pub fn to_vec_into<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    let start = out.len();
    let r = value.serialize(Ser { out: &mut *out });
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// The compact JSON of `value`, byte for byte what `serde_json::to_vec` returns.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(128);
    to_vec_into(&mut out, value)?;
    Ok(out)
}

/// The compact JSON of `value` as a `String`, what `serde_json::to_string` returns.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    // Only UTF-8 is ever written (str contents, ASCII syntax), so this never fails.
    String::from_utf8(to_vec(value)?).map_err(<Error as ser::Error>::custom)
}

/// Writes the compact JSON of `value` to `writer` with one `write_all`. The value is
/// written to a buffer first, so nothing reaches `writer` when serializing fails.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<(), Error> {
    let buf = to_vec(value)?;
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

// ---------------------------------------------------------------------------------------
// The JSON-only path

/// Writes a value as compact JSON, byte for byte what `serde_json::to_vec` writes, without
/// going through `serde::Serialize`.
///
/// Every type of this crate implements it, as do `serde_json::Value` and the std types its
/// fields use. It is faster than [`to_vec_into`] on the same value because it knows the
/// types it writes: object keys are written as precomputed literals and `Value` trees (tool
/// schemas, `_meta`, arguments) are walked directly instead of through serde's generic
/// `Serialize` impls. It cannot fail: every map key is a string and a `Value` number is
/// always finite. The `Serialize` impls stay for other formats and for [`to_vec_into`].
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

// ---------------------------------------------------------------------------------------
// Strings

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// A mask whose lowest set bit is the high bit of the first byte (in little-endian
/// order) that JSON escapes: `"`, `\` or a byte below 0x20. Zero when there is none.
/// Borrows can set bits above the first hit, never below it, so the lowest bit is exact.
#[inline(always)]
fn special(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_in(quote) | zero_in(backslash) | control) & HIGHS
}

/// What follows the backslash for each byte below 0x20 (`u` means `\u00xx`).
const SHORT: [u8; 32] = {
    let mut t = [b'u'; 32];
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t
};

/// How much of a long clean string is scanned before it is copied (see [`write_str_general`]).
const COPY_RUN: usize = 16 * 1024;

#[cold]
fn escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match b {
        b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
        _ => match SHORT[b as usize] {
            b'u' => out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xf) as usize]]),
            c => out.extend_from_slice(&[b'\\', c]),
        },
    }
}

/// Whether a byte is one JSON escapes, for the byte-wise paths.
#[inline(always)]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

const SPACES: u64 = ONES * b' ' as u64;

/// The bytes of a string shorter than 8 in one word, first byte lowest, zeros above.
/// Overlapping loads instead of a byte loop or a copy into a padded buffer.
#[inline(always)]
fn short_word(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]) as u64;
        lo | hi << (8 * (n - 4))
    } else if n > 0 {
        b[0] as u64 | (b[n / 2] as u64) << (8 * (n / 2)) | (b[n - 1] as u64) << (8 * (n - 1))
    } else {
        0
    }
}

#[inline(always)]
fn word(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Writes `s` as a JSON string. Most strings in MCP values are keys and short words,
/// so strings up to 16 bytes are checked with one or two (overlapping) word loads and
/// copied with fixed-size stores; longer ones are scanned a word at a time and clean
/// runs copied with one `extend_from_slice`.
#[inline]
fn write_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let n = b.len();
    if n < 8 {
        let w = short_word(b);
        if special(w | SPACES << (8 * n)) == 0 {
            // `"`, the bytes, `"`, then zeros: 16 bytes written, the excess cut off.
            let x = b'"' as u128 | (w as u128) << 8 | (b'"' as u128) << (8 * (n + 1));
            out.extend_from_slice(&x.to_le_bytes());
            out.truncate(out.len() - (14 - n));
            return;
        }
    } else if n <= 16 {
        let (w1, w2) = (word(b, 0), word(b, n - 8));
        if special(w1) | special(w2) == 0 {
            out.reserve(18);
            out.push(b'"');
            out.extend_from_slice(&w1.to_le_bytes());
            out.truncate(out.len() - (16 - n));
            out.extend_from_slice(&w2.to_le_bytes());
            out.push(b'"');
            return;
        }
    }
    write_str_general(out, b);
}

/// `,"key":`, the start of an object entry: [`write_str`] with the comma and colon written
/// in the same stores for the short clean keys that most keys are.
#[inline]
fn write_key(out: &mut Vec<u8>, key: &str) {
    let b = key.as_bytes();
    let n = b.len();
    if n < 8 {
        let w = short_word(b);
        if special(w | SPACES << (8 * n)) == 0 {
            // `,"`, the bytes, `":`, then zeros: 16 bytes written, the excess cut off.
            let x = b',' as u128
                | (b'"' as u128) << 8
                | (w as u128) << 16
                | (b'"' as u128) << (8 * (n + 2))
                | (b':' as u128) << (8 * (n + 3));
            out.extend_from_slice(&x.to_le_bytes());
            out.truncate(out.len() - (12 - n));
            return;
        }
    } else if n <= 16 {
        let (w1, w2) = (word(b, 0), word(b, n - 8));
        if special(w1) | special(w2) == 0 {
            out.reserve(20);
            out.extend_from_slice(b",\"");
            out.extend_from_slice(&w1.to_le_bytes());
            out.truncate(out.len() - (16 - n));
            out.extend_from_slice(&w2.to_le_bytes());
            out.extend_from_slice(b"\":");
            return;
        }
    }
    out.push(b',');
    write_str_general(out, b);
    out.push(b':');
}

fn write_str_general(out: &mut Vec<u8>, b: &[u8]) {
    let n = b.len();
    out.reserve(n + 2);
    out.push(b'"');
    let (mut start, mut i) = (0, 0);
    while i + 8 <= n {
        // Inside a clean run of 32 bytes or more (a base64 blob, a file's text), 64 bytes at a
        // time with a test that compiles to vector compares; the run is copied every 16 KiB,
        // while its bytes are still in cache, rather than read from memory a second time.
        if i - start >= 32 {
            while let Some(block) = b.get(i..i + 64) {
                if block.iter().fold(0u8, |any, &c| any | needs_escape(c) as u8) != 0 {
                    break;
                }
                i += 64;
                if i - start >= COPY_RUN {
                    out.extend_from_slice(&b[start..i]);
                    start = i;
                }
            }
            if i + 8 > n {
                break;
            }
        }
        // Clean text (descriptions) two words at a time.
        if i + 16 <= n && special(word(b, i)) | special(word(b, i + 8)) == 0 {
            i += 16;
            continue;
        }
        let m = special(word(b, i));
        if m == 0 {
            i += 8;
            continue;
        }
        let j = i + (m.trailing_zeros() / 8) as usize;
        out.extend_from_slice(&b[start..j]);
        escape(out, b[j]);
        i = j + 1;
        start = i;
    }
    // The last partial word: one overlapping load when the string is long enough (it
    // may see an escaped byte again, then the byte loop sorts it out).
    if i < n && (n < 8 || special(word(b, n - 8)) != 0) {
        for j in i..n {
            if needs_escape(b[j]) {
                out.extend_from_slice(&b[start..j]);
                escape(out, b[j]);
                start = j + 1;
            }
        }
    }
    out.extend_from_slice(&b[start..]);
    out.push(b'"');
}

// ---------------------------------------------------------------------------------------
// Numbers: serde_json's own formatter, so digits match it exactly (itoa for integers,
// its float printer for finite floats). Writing to a Vec cannot fail.

#[inline]
fn fmt<F: FnOnce(&mut serde_json::ser::CompactFormatter, &mut Vec<u8>) -> io::Result<()>>(out: &mut Vec<u8>, f: F) {
    let _ = f(&mut serde_json::ser::CompactFormatter, out);
}

#[inline]
fn write_i64(out: &mut Vec<u8>, v: i64) {
    fmt(out, |f, o| f.write_i64(o, v));
}

#[inline]
fn write_u64(out: &mut Vec<u8>, v: u64) {
    fmt(out, |f, o| f.write_u64(o, v));
}

/// serde_json writes non-finite floats as `null`.
#[inline]
fn write_f64(out: &mut Vec<u8>, v: f64) {
    if v.is_finite() {
        fmt(out, |f, o| f.write_f64(o, v));
    } else {
        out.extend_from_slice(b"null");
    }
}

#[inline]
fn write_f32(out: &mut Vec<u8>, v: f32) {
    if v.is_finite() {
        fmt(out, |f, o| f.write_f32(o, v));
    } else {
        out.extend_from_slice(b"null");
    }
}

/// The error serde_json returns for a map key of this kind, taken from serde_json itself
/// (its constructors are private) so the message and category are the same.
#[cold]
fn key_error(float: bool) -> Error {
    struct BadKey(bool);
    impl Serialize for BadKey {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap;
            let mut m = s.serialize_map(Some(1))?;
            if self.0 {
                m.serialize_entry(&f64::NAN, &())?;
            } else {
                m.serialize_entry(&(), &())?;
            }
            m.end()
        }
    }
    let msg = if float { "float key must be finite (got NaN or +/-inf)" } else { "key must be a string" };
    serde_json::to_writer(io::sink(), &BadKey(float)).err().unwrap_or_else(|| <Error as ser::Error>::custom(msg))
}

// ---------------------------------------------------------------------------------------
// The serializer

struct Ser<'a> {
    out: &'a mut Vec<u8>,
}

struct Compound<'a> {
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
fn open_variant(out: &mut Vec<u8>, variant: &str) {
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

// ---------------------------------------------------------------------------------------
// Map keys: strings as strings; integers, floats and bools quoted, as serde_json does;
// anything else is serde_json's "key must be a string" error.

struct KeySer<'a> {
    out: &'a mut Vec<u8>,
}

impl KeySer<'_> {
    #[inline]
    fn quoted(self, f: impl FnOnce(&mut Vec<u8>)) -> Result<(), Error> {
        self.out.push(b'"');
        f(self.out);
        self.out.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for KeySer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(self.out, v);
        Ok(())
    }
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|o| o.extend_from_slice(if v { b"true" } else { b"false" }))
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
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.quoted(|o| write_i64(o, v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.quoted(|o| fmt(o, |f, o| f.write_i128(o, v)))
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
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.quoted(|o| write_u64(o, v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.quoted(|o| fmt(o, |f, o| f.write_u128(o, v)))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(key_error(true));
        }
        self.quoted(|o| write_f32(o, v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(key_error(true));
        }
        self.quoted(|o| write_f64(o, v))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(key_error(false))
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(key_error(false))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_error(false))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Err(key_error(false))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(key_error(false))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_error(false))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_error(false))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_error(false))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_error(false))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_error(false))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(key_error(false))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_error(false))
    }
}

// ---------------------------------------------------------------------------------------
// The text inside a RawValue: already JSON, written as is.

struct RawSer<'a> {
    out: &'a mut Vec<u8>,
}

#[cold]
fn not_raw() -> Error {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn same<T: Serialize + ?Sized>(v: &T) {
        assert_eq!(String::from_utf8(to_vec(v).unwrap()).unwrap(), serde_json::to_string(v).unwrap());
    }

    #[test]
    fn special_finds_the_first_escaped_byte() {
        for pos in 0..8 {
            for b in [b'"', b'\\', 0u8, 0x1f, b'\n'] {
                let mut w = [b'a'; 8];
                w[pos] = b;
                // A second special byte later must not move the answer.
                if pos < 7 {
                    w[7] = b'"';
                }
                let m = special(u64::from_le_bytes(w));
                assert_eq!((m.trailing_zeros() / 8) as usize, pos, "{w:?}");
            }
        }
        for b in [b' ', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xa2, 0xdc, 0xff] {
            assert_eq!(special(u64::from_le_bytes([b; 8])), 0, "byte {b:#x}");
        }
    }

    #[test]
    fn small_values_match_serde_json() {
        same("");
        same("a\"b\\c\u{1}\u{7f}é\u{2028}😀");
        same(&[1.5f64, -0.0, f64::NAN, 1e300]);
        same(&(1u8, -2i8, 'x', (), Some(3), None::<u8>));
        same(&[i64::MIN, i64::MAX]);
        same(&u64::MAX);
        same(&i128::MIN);
        same(&serde_json::json!({"a": [], "b": {}, "c": [{}], "d": null}));
    }

    #[test]
    fn to_vec_into_appends_and_restores_on_error() {
        let mut buf = b"x".to_vec();
        to_vec_into(&mut buf, &[1, 2]).unwrap();
        assert_eq!(buf, b"x[1,2]");
        let mut bad = std::collections::BTreeMap::new();
        bad.insert(vec![1], 2);
        let e = to_vec_into(&mut buf, &[bad.clone()]).unwrap_err();
        assert_eq!(buf, b"x[1,2]");
        assert_eq!(e.to_string(), serde_json::to_vec(&bad).unwrap_err().to_string());
    }

    #[test]
    fn to_writer_and_to_string() {
        let v = serde_json::json!({"k": "v\n"});
        let mut out = Vec::new();
        to_writer(&mut out, &v).unwrap();
        assert_eq!(out, serde_json::to_vec(&v).unwrap());
        assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
    }
}
