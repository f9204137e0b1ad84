//! The workspace tests as one executable: each file named below is a module here (its tests are
//! `FILE::NAME`, e.g. `cargo test -p mcp-schema-tests --test all write::`), so the library with
//! every feature is linked once instead of once per file (BENCHMARKS.md, "Issue 32, the test run").
//! `tidy.rs`, `golden.rs` and `generator_hostile.rs` stay their own targets, for the commands the
//! docs give for them.

#![forbid(unsafe_code)]

mod adversarial;
mod apps_browser;
mod apps_csp;
mod behaviour;
mod builder_api;
mod convert_cases;
mod convert_roundtrip;
mod docs;
mod drift;
mod icons;
mod icons_browser;
mod keyed_unions;
mod modules;
mod overlay;
mod proptest_roundtrip;
mod read_agrees;
mod schema_diff;
mod schema_verify;
mod skills;
mod spec_examples;
mod tasks;
mod validate;
mod write;
