//! The checking core of `mcp-schema check`: a [`Checker`](check::Checker) reads one stream of MCP
//! traffic, a message at a time, and reports what breaks the schema of the session's version, the
//! session rules (lifecycle, capabilities, tool schemas, progress, tasks, ...) and the Streamable
//! HTTP transport rules. It does no I/O and holds bounded state: the `mcp-schema` command line,
//! its proxy and a middleware feed it what they read.
//!
//! Modules: [`check`] (the checker), [`session`] and [`transport`] (the rules over many messages),
//! [`rules`] (every rule's id, severity and text), [`settings`] (what a checker is asked to
//! check), [`input`] and [`sse`] (reading lines and event streams), [`versions`] (the protocol
//! versions and extensions), and the shared vocabulary ([`vocab`], [`bounded`], [`cost`], [`view`],
//! [`compat_icons`]).

#![forbid(unsafe_code)]
#![doc = include_str!("../README.md")]

pub mod bounded;
pub mod check;
pub mod compat_icons;
pub mod cost;
pub mod input;
pub mod rules;
pub mod session;
pub mod settings;
pub mod sse;
pub mod transport;
pub mod versions;
pub mod view;
pub mod vocab;
