//! `mcp-schema`: checks MCP traffic and documents against every schema version (`check`), checks
//! a live session (`proxy`) and converts between versions (`convert`).
//!
//! The binary (`src/main.rs`) only calls [`run`]; each subcommand has its module under [`cmd`]
//! (arguments, usage, run). The pieces are public so the benchmarks and tests can drive the
//! checker in memory.

// Two system calls need `unsafe` (proxy/signals.rs, proxy/checking.rs), each allowed on its own
// statement with a SAFETY comment; tests/tidy.rs checks that nothing else does.
#![deny(unsafe_code)]

pub mod args;
pub mod bounded;
pub mod bridge;
pub mod check;
pub mod cmd;
pub mod compat_icons;
pub mod convert;
pub mod cost;
pub mod har;
pub mod input;
pub mod proxy;
pub mod report;
pub mod rules;
pub mod session;
pub mod sse;
pub mod stream;
pub mod transport;
pub mod versions;
pub mod view;
pub mod vocab;

pub use cmd::run;
pub use input::MAX_LINE;
pub use stream::{check_files, check_jsonl};
