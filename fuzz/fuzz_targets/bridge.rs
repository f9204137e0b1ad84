#![no_main]
#![forbid(unsafe_code)]
//! The `bridge` fuzz target. See fuzz/src/bridge.rs for the property and tests/HOSTILE.md for how to run it.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_schema_fuzz::bridge(data));
