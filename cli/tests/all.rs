//! The CLI's tests as one executable: each file beside this one is a module here (its tests are
//! `FILE::NAME`, e.g. `cargo test -p mcp-spec-types-cli --test all har::`), so the CLI and the
//! library are linked once instead of once per file (BENCHMARKS.md, "Issue 32, the test run").
//! `rules.rs` stays its own target, for the `--test rules` command that rewrites the rule tables.
//! A file here without its `mod` line would never run: `tests/tidy.rs` fails on it.

#![deny(unsafe_code)]

mod common;

mod apps_bridge;
mod bounds;
mod bridge;
mod bridge_http;
mod bridge_real;
mod cli;
mod compat_icons;
mod convert_cli;
mod har;
mod har_bounds;
mod har_chromium;
mod hardening;
mod import_cycles;
mod mutations;
mod one_model;
mod overlay_ext;
mod peer_schemas;
mod proxy;
mod proxy_hardening;
mod proxy_http;
mod proxy_http_hardening;
mod proxy_http_real;
mod proxy_http_layer;
mod proxy_real;
mod proxy_stop;
mod session_rules;
mod sessions;
mod skills_ext;
mod summary;
mod tasks_ext;
mod skills_real;
mod tasks_real;
mod transport_rules;

