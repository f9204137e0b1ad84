//! What validating incoming requests costs a server: `rpc::read_message` (lenient) against
//! `rpc::Reader::default()` (validates each request of a defined method, issue 28 item 4), per
//! message, on the client requests of recorded 2025-11-25 sessions and on two made-up requests.
//! A counted loop, not a timed test: build it optimised, or the numbers mean nothing.
//!
//! ```sh
//! cargo run -q --release -p mcp-schema-examples --bin read_checked_cost
//! ```

use std::hint::black_box;
use std::time::Instant;

use mcp_spec_types::rpc::{read_message, Reader};
use mcp_spec_types::v2025_11_25::ClientMessage;
use serde_json::Value;

/// The client requests of a recorded session (`{"dir": "c2s", "msg": {...}}` lines).
fn requests(path: &std::path::Path) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["dir"] == "c2s" && l["msg"].get("method").is_some() && l["msg"].get("id").is_some())
        .map(|l| l["msg"].to_string().into_bytes())
        .collect()
}

/// Median nanoseconds per message of `read` over `corpus`, in `rounds` rounds.
fn per_message(corpus: &[Vec<u8>], rounds: usize, read: &dyn Fn(&[u8]) -> bool) -> f64 {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for m in corpus {
                black_box(read(black_box(m)));
            }
            start.elapsed().as_nanos() as f64 / corpus.len() as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut corpora: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    for name in ["2025-11-25-everything-tasks.jsonl", "2025-11-25-mixed-servers.jsonl"] {
        corpora.push((format!("{name} (client requests)"), requests(&root.join("bench/data/sessions").join(name))));
    }
    let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Lisbon","units":"metric","days":3},"_meta":{"progressToken":"p-7"}}}"#;
    corpora.push(("tools/call request".into(), vec![call.to_vec()]));
    let verbose = br#"{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":"verbose"}}"#;
    corpora.push(("logging/setLevel \"verbose\" (answered -32602)".into(), vec![verbose.to_vec()]));

    let checked = Reader::default();
    let rounds = if std::env::var_os("QUICK").is_some() { 200 } else { 2000 };
    println!("| corpus | requests | read_message | Reader::default() | added per request | ratio |");
    println!("|---|---|---|---|---|---|");
    for (name, corpus) in &corpora {
        let lenient = |m: &[u8]| read_message::<ClientMessage>(m).is_ok();
        let validating = |m: &[u8]| checked.read::<ClientMessage>(m).is_ok();
        // Warm up, then measure the two in turn.
        per_message(corpus, rounds / 10, &lenient);
        per_message(corpus, rounds / 10, &validating);
        let (a, b) = (per_message(corpus, rounds, &lenient), per_message(corpus, rounds, &validating));
        println!("| {name} | {} | {a:.0} ns | {b:.0} ns | {:.0} ns | {:.2}x |", corpus.len(), b - a, b / a);
    }
}
