//! Building blocks of the generated serde impls. Not a stable API.

use super::*;
use serde::de::{MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

pub use serde;
pub use serde_json;

mod channel;
mod fields;
mod keyed;
mod keys;
mod message;
mod raw;
mod shape;

pub use channel::*;
pub use fields::*;
pub use keyed::*;
pub use keys::*;
pub use message::*;
pub use raw::*;
pub use shape::*;

#[cfg(test)]
mod tests;
