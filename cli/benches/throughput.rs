//! Throughput of `mcp-schema check` on realistic traffic, in MB/s on one core.
//!
//! The corpus is built in memory by repeating the recorded server-everything sessions
//! (tests/data/sessions/, every version) to about 64 MB (`MCP_SCHEMA_BENCH_MB` to change it), then
//! checked as a JSONL stream with the default checks, with `--roundtrip`, and with
//! `--no-validate`. Results go to a sink, so only checking is measured.
//!
//!     cargo bench -p mcp-spec-types-cli --bench throughput          # release
//!     cargo test  -p mcp-spec-types-cli --bench throughput --release # the same, through the test profile
//!     cargo test  -p mcp-spec-types-cli --bench throughput           # debug build, for comparison

#![forbid(unsafe_code)]

use std::io::{self, Cursor};
use std::path::Path;
use std::time::Instant;

use mcp_spec_types_cli::args::{CheckArgs, Protocol};
use mcp_spec_types_cli::check::Checker;
use mcp_spec_types_cli::report::Reporter;

// The same allocator as the binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn corpus(target_bytes: usize) -> (Vec<u8>, usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sessions");
    let mut one = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "jsonl")).collect();
    names.sort();
    for p in names {
        one.extend(std::fs::read(p).unwrap());
    }
    let mut out = Vec::with_capacity(target_bytes + one.len());
    let mut sessions = 0;
    while out.len() < target_bytes {
        out.extend_from_slice(&one);
        sessions += 1;
    }
    (out, sessions)
}

/// CPU time of this thread (Linux), so a busy machine does not skew the figure; `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

fn measure(name: &str, data: &[u8], args: &CheckArgs, rounds: usize) {
    let (mut best_wall, mut best_cpu) = (f64::MAX, f64::MAX);
    let mut counts = None;
    for _ in 0..rounds {
        let mut checker = Checker::new(args);
        let mut rep = Reporter::new(io::sink(), false);
        let (start, cpu) = (Instant::now(), thread_cpu_seconds());
        mcp_spec_types_cli::check_jsonl(&mut checker, "bench", Cursor::new(data), &mut rep).unwrap();
        best_wall = best_wall.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu, thread_cpu_seconds()) {
            best_cpu = best_cpu.min(b - a);
        }
        counts = Some(rep.finish().unwrap());
    }
    let c = counts.unwrap();
    let mb = data.len() as f64 / 1e6;
    let cpu = if best_cpu < f64::MAX { format!("{:8.1} MB/s per CPU-second", mb / best_cpu) } else { String::new() };
    println!("{name:<28} {:8.1} MB/s wall {cpu}  (best of {rounds}; {} passed, {} failed)", mb / best_wall, c.passed, c.failed);
}

fn main() {
    let mb: usize = std::env::var("MCP_SCHEMA_BENCH_MB").ok().and_then(|s| s.parse().ok()).unwrap_or(64);
    let debug = cfg!(debug_assertions);
    // A debug build is ~20x slower: keep its corpus small.
    let target = if debug { mb.min(8) } else { mb } << 20;
    let (data, sessions) = corpus(target);
    let lines = data.iter().filter(|&&b| b == b'\n').count();
    println!(
        "corpus: {:.1} MB, {lines} messages ({sessions} repetitions of the recorded sessions); {} build",
        data.len() as f64 / 1e6,
        if debug { "debug" } else { "release" }
    );
    let rounds = if debug { 1 } else { 3 };
    let base = CheckArgs { protocol: Protocol::Auto, files: vec!["-".into()], ..CheckArgs::default() };
    measure("check", &data, &base, rounds);
    measure("check --roundtrip", &data, &CheckArgs { roundtrip: true, ..base.clone() }, rounds);
    measure("check --no-validate", &data, &CheckArgs { validate: false, ..base.clone() }, rounds);
    measure("check --strict --ext apps", &data, &CheckArgs { strict: true, extensions: vec![0], ..base.clone() }, rounds);
}
