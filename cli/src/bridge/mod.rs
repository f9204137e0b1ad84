//! `mcp-schema proxy --to VERSION`: a client of one protocol version with a server of another.
//!
//! The bridge itself does no I/O ([`Bridge`]: a line in, the lines for each side, the recording's
//! lines of both legs and a verdict out), so any transport can carry it; `stdio.rs` wires it to the
//! stdio proxy. The recording's lines carry `leg` (`client`: between the client and the bridge, in
//! the client's version; `server`: between the bridge and the server, in `--to`), and each line the
//! bridge received carries `bridge` with its verdict; `check` reads the two legs as two streams.

mod client;
mod cancel;
mod core;
mod elide;
mod guard;
pub mod head;
pub mod http;
mod input;
mod record;
mod server;
pub mod shape;
pub mod stdio;
#[cfg(test)]
mod hardening_tests;
#[cfg(test)]
mod memory_tests;
#[cfg(test)]
mod tests;

pub use self::core::{Bridge, Output, Reply};
pub use record::{into_line, wait_until_unique, write_line, write_line_with, Counts, Leg, Note, Record, Verdict};
