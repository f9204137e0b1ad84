//! [`crate::from_slice`] and [`crate::from_str`], and the reader behind them: a JSON deserializer for
//! complete, valid input, with serde_json as the authority for everything else.
//!
//! It checks the input's UTF-8 once, up front, so strings are slices of it; it finds the end
//! of a string eight bytes at a time, and of a long one in 64-byte blocks; and its framing
//! (whitespace, commas, colons, brackets) is shared code rather than inlined into every
//! type's visitor.
//!
//! The generated types are read without serde's visitors ([`fast`]): per struct a table of its
//! keys and a slot per key, one loop for every object, a union's member picked before its object
//! is read. The generated types reach that path from serde: this reader hands them the rest of the
//! input, where the JSON-RPC envelopes (`Message`) and the unions decided by keys ask for a newtype
//! struct of a private name (which every other deserializer passes on to the type's serde
//! visitor), and the structs and tagged unions ask for a map with an offer that only this reader
//! takes (`runtime::__private::deserialize_struct`). Any other type is read through serde: the
//! reader makes the same visitor calls serde_json makes for the same JSON
//! (`visit_borrowed_str` for a string without escapes, `visit_u64` / `visit_i64` / `visit_f64` by
//! the same rules); a value kept unread takes its text as a string handed over. serde_json's own
//! `RawValue` is left to serde_json.
//!
//! It never reports an error of its own. At anything it does not handle exactly as serde_json
//! does (malformed JSON, integers beyond 64 bits, exponents beyond three digits, `enum`s, byte
//! strings, nesting deeper than serde_json allows) it gives up, even where a visitor catches
//! that, and the caller reads the input again with serde_json, whose value or error is then
//! the answer. An error a visitor makes itself (a missing field, a union member that does not
//! fit) is one it makes under serde_json too, since it sees the same calls: caught, the read
//! goes on here; uncaught, it ends the read, and serde_json's error is the answer.

use std::cell::Cell;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, Visitor};

use crate::runtime::__private::{hand_over, take_offer, take_read, with_guessing, Guessing, Handover, Key, FAST_TOKEN};

// The name serde_json's raw-value protocol passes to `deserialize_newtype_struct`.
use crate::runtime::__private::RAW_VALUE_TOKEN as RAW_TOKEN;

/// serde_json refuses nesting deeper than this; stopping no later keeps its errors its own.
pub(crate) const MAX_DEPTH: u32 = 127;

thread_local! {
    static GAVE_UP: Cell<bool> = const { Cell::new(false) };
}

/// The read ends; the input is to be read by serde_json. When the reader itself gives up
/// (`GiveUp::new`) that is recorded, so a visitor that catches it cannot hide it.
#[derive(Debug)]
pub struct GiveUp;

impl GiveUp {
    #[cold]
    fn new() -> Self {
        GAVE_UP.with(|g| g.set(true));
        GiveUp
    }
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    /// A visitor's own error, not recorded: serde_json would hand the visitor the same calls,
    /// so it would make the same error there.
    fn custom<T: fmt::Display>(_: T) -> Self {
        GiveUp
    }
}

type Result<T> = std::result::Result<T, GiveUp>;

/// Whether the reader has given up on the input being read.
fn gave_up() -> bool {
    GAVE_UP.with(|g| g.get())
}

#[cold]
fn give_up<T>() -> Result<T> {
    Err(GiveUp::new())
}

/// Reads `text` as one `T`, or `None` when serde_json must read it (the tests' view of [`read_outcome`]).
#[cfg(test)]
pub(crate) fn read<'de, T: de::Deserialize<'de>>(text: &'de str) -> Option<T> {
    read_outcome(text).read()
}

/// What this reader made of an input.
pub(crate) enum Outcome<T> {
    Read(T),
    /// A visitor's own error ended the read: serde_json, making the same calls, fails too.
    Refused,
    /// Given up, or input after the value: serde_json must read it.
    Left,
}

impl<T> Outcome<T> {
    /// The value, when this reader made it.
    fn read(self) -> Option<T> {
        match self {
            Outcome::Read(v) => Some(v),
            Outcome::Refused | Outcome::Left => None,
        }
    }
}

pub(crate) fn read_outcome<'de, T: de::Deserialize<'de>>(text: &'de str) -> Outcome<T> {
    let mut ending = Ending::default();
    let out = read_value(text, &mut ending);
    let left = ending.left(out.is_ok());
    // Matched in place rather than mapped: a message is a few hundred bytes, and each
    // rewrapping of it is a copy.
    match out {
        _ if left => Outcome::Left,
        Ok(v) => Outcome::Read(v),
        Err(_) => Outcome::Refused,
    }
}

/// How a read ended, besides its value.
#[derive(Default)]
struct Ending {
    /// The reader gave up (recorded): serde_json must read the input.
    gave_up: bool,
    /// Input after the value: serde_json's error (`trailing characters`).
    trailing: bool,
}

impl Ending {
    /// Whether serde_json must read the input (given up, or a value with input after it); else a
    /// read value is the answer, and a refused read (a visitor's own error) is serde_json's error too.
    #[inline]
    fn left(&self, read: bool) -> bool {
        self.gave_up || (read && self.trailing)
    }
}

/// Reads `text` as one `T`, and says in `ending` how the read ended: the value is returned
/// as the reader made it, without an outcome wrapped around it.
fn read_value<'de, T: de::Deserialize<'de>>(text: &'de str, ending: &mut Ending) -> Result<T> {
    let before = GAVE_UP.with(|g| g.replace(false));
    let mut read = Reading { r: Reader::new(text, 0), ending, before };
    T::deserialize(&mut read.r)
}

/// A read in progress: as it is dropped, after the value is made where it is returned (not
/// held in a local: a copy), it says in `ending` how the read ended.
struct Reading<'de, 'e> {
    r: Reader<'de>,
    ending: &'e mut Ending,
    /// The record of giving up from before this read, put back after it.
    before: bool,
}

impl Drop for Reading<'_, '_> {
    #[inline]
    fn drop(&mut self) {
        self.ending.trailing = self.r.peek().is_some();
        self.ending.gave_up = GAVE_UP.with(|g| g.replace(self.before));
    }
}

mod deserializer;
pub mod fast;
pub(crate) mod reader;

use reader::*;

/// Reads `T` from JSON bytes: the same value or error as [`serde_json::from_slice`], faster.
///
/// The input is read first by the crate's own JSON reader, which makes the visitor calls
/// serde_json makes for the same JSON; on anything it does not handle exactly as serde_json
/// does, and on any error, the input is read by serde_json, whose answer is returned.
///
/// It is also faster where a union has a member that takes any object (`ServerResult` and
/// `ClientResult` hold `EmptyResult`). Through `serde_json`, such a union keeps each of its
/// keys' values as JSON text until every key is in, because the whole object is ranked: a
/// later key may rank another member higher. Here a key that only one member names streams
/// the rest of the object into that member straight away; the guess is kept when that member
/// reads the object and no other member ranks above it for the keys present, and otherwise
/// (rare, and any error) the input is read again the `serde_json` way, giving its value or
/// error. A 10 MB `resources/read` result is read once instead of twice.
///
/// The catch-all never takes an object that holds a key identifying another member (one that
/// only that member requires): a malformed result is an error naming the field, not an
/// `EmptyResult` with extra keys. An object with only `_meta`, keys no member knows, or keys
/// several members share (a newer version's result) still reads.
///
/// ```
/// # #[cfg(feature = "v2025-11-25")] {
/// use mcp_spec_types::v2025_11_25::{ServerMessage, ServerResult};
/// use mcp_spec_types::runtime::Message;
/// let line = br#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"file:///a","blob":"AAAA"}]}}"#;
/// let Message::Result(r) = mcp_spec_types::from_slice::<ServerMessage>(line).unwrap() else { panic!() };
/// assert!(matches!(r.result, ServerResult::ReadResourceResult(_)));
/// // `contents` is `ReadResourceResult`'s key: its error, not an `EmptyResult`.
/// let line = br#"{"jsonrpc":"2.0","id":2,"result":{"contents":"not a list"}}"#;
/// assert!(mcp_spec_types::from_slice::<ServerMessage>(line).is_err());
/// // Keys no result of this version names: a newer version's result, kept whole.
/// let line = br#"{"jsonrpc":"2.0","id":3,"result":{"widgets":[]}}"#;
/// let Message::Result(r) = mcp_spec_types::from_slice::<ServerMessage>(line).unwrap() else { panic!() };
/// assert!(matches!(r.result, ServerResult::EmptyResult(_)));
/// # }
/// ```
pub fn from_slice<'a, T: de::Deserialize<'a>>(bytes: &'a [u8]) -> std::result::Result<T, serde_json::Error> {
    match utf8(bytes) {
        Some(json) => answer(json, || serde_json::from_slice(bytes)),
        None => guess_then_read(|| serde_json::from_slice(bytes)),
    }
}

/// The input as text, checked with SIMD (`simdutf8`): over a large string the check cost as much as
/// the reader's own scan with `std::str::from_utf8` (BENCHMARKS.md, "The typed read, fifth round").
/// Its error says only that the input is not UTF-8: serde_json's read of the bytes gives the error.
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

/// [`from_slice`] for a string.
pub fn from_str<'a, T: de::Deserialize<'a>>(json: &'a str) -> std::result::Result<T, serde_json::Error> {
    answer(json, || serde_json::from_str(json))
}

/// [`read_fast`] as the answer, with `serde` (serde_json's read of the same input) where this
/// reader cannot give it. One function, so that a value read is moved once, into the answer.
fn answer<'a, T: de::Deserialize<'a>>(
    json: &'a str,
    serde: impl Fn() -> std::result::Result<T, serde_json::Error>,
) -> std::result::Result<T, serde_json::Error> {
    let guessing = Guessing::set(true);
    let mut ending = Ending::default();
    let out = read_value(json, &mut ending);
    if guessing.went_wrong() {
        drop((out, guessing));
        let not_guessing = Guessing::set(false);
        let out = read_outcome(json);
        drop(not_guessing);
        return match out {
            Outcome::Read(v) => Ok(v),
            Outcome::Refused => refused(serde),
            Outcome::Left => guess_then_read(serde),
        };
    }
    drop(guessing);
    // As `read_outcome` decides, without its `Outcome` around the value.
    let left = ending.left(out.is_ok());
    match out {
        _ if left => guess_then_read(serde),
        Ok(v) => Ok(v),
        Err(_) => refused(serde),
    }
}

/// The crate's own reader, guessing, and after a wrong guess not guessing (the order
/// [`guess_then_read`] follows with serde_json). [`answer`] is this, inlined.
fn read_fast<'a, T: de::Deserialize<'a>>(json: &'a str) -> Outcome<T> {
    // A guard rather than `with_guessing`: the value stays where `read` put it, not moved
    // through a tuple.
    let guessing = Guessing::set(true);
    let out = read_outcome(json);
    if !guessing.went_wrong() {
        return out;
    }
    drop((out, guessing));
    let _not_guessing = Guessing::set(false);
    read_outcome(json)
}

/// The answer for an input this reader refused without a wrong guess: an error, and the one
/// [`guess_then_read`] would return, serde_json's without guessing. A guess that stays right
/// changes no outcome, so guessing cannot turn that error into a value: one read, not two.
fn refused<T>(read: impl FnOnce() -> std::result::Result<T, serde_json::Error>) -> std::result::Result<T, serde_json::Error> {
    with_guessing(false, read).0
}

/// The crate's own reader alone: `Some` when it read `json` as `T`, `None` when [`from_str`]
/// would leave it to serde_json. For tests that check which path read a value, not only the value.
#[doc(hidden)]
pub fn read_here<'a, T: de::Deserialize<'a>>(json: &'a str) -> Option<T> {
    read_fast(json).read()
}

fn guess_then_read<T>(read: impl Fn() -> std::result::Result<T, serde_json::Error>) -> std::result::Result<T, serde_json::Error> {
    match with_guessing(true, &read) {
        (Ok(v), false) => Ok(v),
        _ => with_guessing(false, read).0,
    }
}

#[cfg(test)]
mod tests;
