//! `mcp-schema`: checks MCP traffic and documents against every schema version (`check`), checks
//! a live session (`proxy`) and converts between versions (`convert`).
//!
//! The binary (`src/main.rs`) only calls [`run`]; each subcommand has its module under [`cmd`]
//! (arguments, usage, run). The checker itself is the `mcp-spec-check` crate, re-exported here at
//! the same paths. The pieces are public so the benchmarks and tests can drive the checker in
//! memory.

// Two system calls need `unsafe` (proxy/signals.rs, proxy/checking.rs), each allowed on its own
// statement with a SAFETY comment; tests/tidy.rs checks that nothing else does.
#![deny(unsafe_code)]

pub mod args;
pub mod bridge;
pub mod cmd;
pub mod convert;
pub mod har;
pub mod proxy;
pub mod report;
pub mod stream;

// The checking core is its own crate (`mcp-spec-check`), for users that check messages without the
// command line; its modules stay at their old paths here.
pub use mcp_spec_check::{bounded, check, compat_icons, cost, input, rules, session, settings, sse, transport, versions, view, vocab};

pub use cmd::run;
pub use input::MAX_LINE;
pub use stream::{check_files, check_jsonl};
