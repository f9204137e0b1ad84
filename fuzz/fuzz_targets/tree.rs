#![no_main]
#![forbid(unsafe_code)]
//! The `tree` fuzz target. See fuzz/src/tree.rs for the property and tests/HOSTILE.md for how to run it.
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_schema_fuzz::tree(data));
