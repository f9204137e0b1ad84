//! How the crate's reader hands JSON text to a visitor: it calls `visit_borrowed_str` with a
//! handover recorded here, so the visitor knows the string is text to read, not a string value.
//! Kept values ([`Raw`]) take a value's text this way; the generated types take the rest of
//! the input and read it with their own tables (`read::fast`), then say how much they read.

use std::cell::Cell;

/// The name the generated types pass to `deserialize_newtype_struct` to ask the crate's reader
/// for the rest of the input. Other deserializers see a newtype struct and go on as before.
pub const FAST_TOKEN: &str = "$mcp_spec_types::private::Fast";

/// What the string handed to `visit_borrowed_str` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handover {
    /// One value's JSON text (serde_json's raw-value protocol, as the crate's reader speaks it).
    Raw,
    /// The input from the value on, at this nesting depth.
    Rest { depth: u32 },
}

thread_local! {
    static HANDOVER: Cell<Option<Handover>> = const { Cell::new(None) };
    static READ: Cell<usize> = const { Cell::new(0) };
    static OFFERED: Cell<bool> = const { Cell::new(false) };
}

/// Set by a generated struct or tagged union just before it asks a deserializer for a map:
/// the crate's reader, if it is the one asked, hands the type the rest of the input instead
/// ([`Handover::Rest`]). Cleared by whoever sees it first: the reader's `deserialize_map`, the
/// type's visitor when it is given a map, or the type itself once the call returns.
pub fn offer(on: bool) {
    OFFERED.with(|c| c.set(on));
}

/// Whether the map just asked for was offered (and clears the offer).
pub fn take_offer() -> bool {
    OFFERED.with(|c| c.replace(false))
}

/// A type the crate's reader can hand the rest of its input to: every generated type (the
/// reader's own path, `read::fast`, implements it).
pub trait ReadRest: Sized {
    /// Whether the type offers to take the rest of the input (a type the reader's own path does
    /// not read says no, and is read through serde).
    const OFFERS: bool = true;
    /// Reads a value from the start of `text` (at nesting `depth`) and records how much was read;
    /// an error when it cannot, and the read is then left to serde_json.
    fn read_rest<E: serde::de::Error>(text: &str, depth: u32) -> Result<Self, E>;
}

/// What a visitor given `v` by `visit_borrowed_str` reads: the value read from `v` when it is
/// the rest of the input handed over, else `string`'s (`v` is a string value). The result is
/// returned as it is made, not rewrapped: a message is a few hundred bytes, and each rewrapping
/// is a copy.
#[inline]
pub(crate) fn handed_over<T: ReadRest, E: serde::de::Error>(v: &str, string: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    match take_handover() {
        Some(Handover::Rest { depth }) => T::read_rest(v, depth),
        _ => string(),
    }
}

/// Runs `visit` (a `visit_borrowed_str` call) with `h` recorded; whatever the visitor did
/// not take is cleared after it, so it cannot reach a later visitor.
pub fn hand_over<T>(h: Handover, visit: impl FnOnce() -> T) -> T {
    HANDOVER.with(|c| c.set(Some(h)));
    // Cleared by a guard, so the value goes straight to the caller rather than through a local.
    let _cleared = ClearsHandover;
    visit()
}

struct ClearsHandover;

impl Drop for ClearsHandover {
    #[inline]
    fn drop(&mut self) {
        HANDOVER.with(|c| c.set(None));
    }
}

/// The handover for the string this visitor was just given, if it was one.
pub fn take_handover() -> Option<Handover> {
    HANDOVER.with(|c| c.take())
}

/// After a [`Handover::Rest`]: how many bytes of it the visitor read.
pub fn set_read(n: usize) {
    READ.with(|c| c.set(n));
}

pub fn take_read() -> usize {
    READ.with(|c| c.replace(0))
}

/// A serde visitor together with how a deserializer is asked for it: what a generated type
/// does with any deserializer but the crate's reader.
pub trait Entry<'de>: serde::de::Visitor<'de> + Sized {
    fn enter<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error>;
}

/// A map already opened, handed to a type as a whole object (serde's `MapAccessDeserializer`,
/// except that a newtype struct is asked for as one): a type that takes the crate reader's
/// handover then reads it with its serde visitor, as it would from serde_json.
pub struct MapDe<A>(pub A);

impl<'de, A: serde::de::MapAccess<'de>> serde::Deserializer<'de> for MapDe<A> {
    type Error = A::Error;
    fn deserialize_any<V: serde::de::Visitor<'de>>(self, v: V) -> Result<V::Value, A::Error> {
        v.visit_map(self.0)
    }
    fn deserialize_newtype_struct<V: serde::de::Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value, A::Error> {
        v.visit_newtype_struct(self)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
