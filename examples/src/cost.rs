//! What the two request-validation cost examples share (`read_checked_cost`, `engine_validate_cost`,
//! each includes this file): the same corpora, and the median of a counted loop.

use std::path::Path;
use std::time::Instant;

use serde_json::Value;

/// Rounds per measurement (`QUICK` set: a tenth).
pub fn rounds() -> usize {
    if std::env::var_os("QUICK").is_some() { 200 } else { 2000 }
}

/// The client requests of two recorded 2025-11-25 sessions (but the methods in `skip`), a
/// `tools/call`, and `logging/setLevel` with the unknown level `verbose` (its label ends in
/// `verbose_note`), each as named corpus of lines.
pub fn corpora(skip: &[&str], verbose_note: &str) -> Vec<(String, Vec<Vec<u8>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/data/sessions");
    let mut corpora: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    for name in ["2025-11-25-everything-tasks.jsonl", "2025-11-25-mixed-servers.jsonl"] {
        corpora.push((format!("{name} (client requests)"), requests(&root.join(name), skip)));
    }
    let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Lisbon","units":"metric","days":3},"_meta":{"progressToken":"p-7"}}}"#;
    corpora.push(("tools/call request".into(), vec![call.to_vec()]));
    let verbose = br#"{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":"verbose"}}"#;
    corpora.push((format!("logging/setLevel \"verbose\" ({verbose_note})"), vec![verbose.to_vec()]));
    corpora
}

/// The client requests of a recorded session (`{"dir": "c2s", "msg": {...}}` lines).
fn requests(path: &Path, skip: &[&str]) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["dir"] == "c2s" && l["msg"].get("id").is_some() && l["msg"]["method"].as_str().is_some_and(|m| !skip.contains(&m)))
        .map(|l| l["msg"].to_string().into_bytes())
        .collect()
}

/// Median nanoseconds per message of `once` (one pass over `messages` messages), in `rounds` rounds.
pub fn median_per_message(rounds: usize, messages: usize, mut once: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            once();
            start.elapsed().as_nanos() as f64 / messages as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
