//! Peak memory of `mcp-schema check` on a flood: one ~69 MB JSONL line holding a tool with
//! three million icons that each break a rule (`icon.scheme`). Findings per value are capped
//! (`--max-findings`, default 100), so the peak is the input and its parsed forms, not one
//! finding per icon.
//!
//!     cargo bench -p mcp-spec-types-cli --bench flood                          # release
//!     MCP_SCHEMA_FLOOD_MAX_FINDINGS=18446744073709551615 cargo bench ...    # no cap, for comparison
//!     MCP_SCHEMA_FLOOD_ICONS=300000 cargo bench ...                         # a smaller flood
//!
//! Prints the peak resident set size (Linux `VmHWM`) after building the input and after
//! checking it. Memory is a measurement here, not a test: it depends on the allocator and
//! the machine.

#![forbid(unsafe_code)]

use std::io::{self, Cursor};
use std::time::Instant;

use mcp_spec_types_cli::args::{CheckArgs, Protocol};
use mcp_spec_types_cli::check::Checker;
use mcp_spec_types_cli::report::Reporter;
use mcp_spec_types_cli::versions::version_index;

// The same allocator as the binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The process's peak resident set size in MiB (Linux); `None` elsewhere.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn show(mib: Option<f64>) -> String {
    mib.map_or("n/a".into(), |m| format!("{m:.0} MiB"))
}

fn flood(icons: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(icons * 24 + 256);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    out.extend_from_slice(b"\n");
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"icons":["#);
    for i in 0..icons {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"src":"ftp://a/b"}"#);
    }
    out.extend_from_slice(b"]}]}}\n");
    out
}

fn main() {
    let icons = env_number("MCP_SCHEMA_FLOOD_ICONS", 3_000_000);
    let max_findings = env_number("MCP_SCHEMA_FLOOD_MAX_FINDINGS", mcp_spec_types_cli::args::DEFAULT_MAX_FINDINGS);
    let input = flood(icons);
    let before = peak_rss_mib();
    let args = CheckArgs {
        protocol: Protocol::Fixed(version_index("2025-11-25").expect("a known version")),
        max_findings,
        ..CheckArgs::default()
    };
    let mut checker = Checker::new(&args);
    let mut rep = Reporter::new(io::sink(), false);
    let start = Instant::now();
    mcp_spec_types_cli::check_jsonl(&mut checker, "flood", Cursor::new(&input[..]), &mut rep).unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    let counts = rep.finish().unwrap();
    assert_eq!(counts.failed, 1, "the flood line fails");
    println!(
        "flood: {icons} bad icons, {:.1} MB line, --max-findings {max_findings}: {elapsed:.2} s; peak RSS {} with the input built, {} after checking",
        input.len() as f64 / 1e6,
        show(before),
        show(peak_rss_mib()),
    );
}
