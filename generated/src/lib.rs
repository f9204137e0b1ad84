// The crate root is hand-written, like the runtime and the validators it declares. What the
// generator writes is pulled in first: the protocol modules and the table of them.

#![doc = include_str!("../README.md")]
//!
//! ## Where the examples' names live
//!
//! [`runtime::Message`] is one JSON-RPC message typed down to its params and result; each version's
//! `ClientMessage` and `ServerMessage` is one, matched on its four variants. [`read_message`] and
//! [`from_slice`] read a line, [`to_vec_into`] and [`WriteJson`] write one, [`validate::validate_json`]
//! checks a value. The session engine built on them is the crate `mcp-spec-engine`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

// Written by `cargo xtask codegen` from schema/codegen.toml: a `#[cfg(feature)] pub mod` for each module
// (`src/generated/v2025_11_25.rs`, ...), `latest`, the table `modules` and `for_each_module!`. First, so that
// the hand-written modules below can call `for_each_module!` by name (a macro an `include!` defines
// cannot be named by its `crate::` path inside this crate). Included rather than
// declared as a child so the modules sit at the crate root (docs.rs pages and `crate::v2025_11_25`
// paths as before, no re-exports); its `mod` items resolve in its own folder, `src/generated/`.
include!("generated/modules.rs");

pub mod negotiate;
pub mod rpc;
pub mod runtime;
pub mod shortcuts;
pub mod tree;
pub mod validate;
pub mod write;
// Public only for the generated code (`read::fast`, like `runtime::__private`): not a stable API.
#[doc(hidden)]
pub mod read;
pub use rpc::{read_message, read_message_checked};
pub use read::{from_slice, from_str};
#[doc(hidden)]
pub use read::read_here as __read_here;
pub use write::{serialize_to_string, serialize_to_vec, serialize_to_vec_into, serialize_to_writer, to_string, to_vec, to_vec_into, to_writer, WriteJson};

