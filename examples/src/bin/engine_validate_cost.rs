//! What the server engine's validation of incoming requests (`engine::Config::validate`, on by
//! default) costs per message: a 2025-11-25 session on `engine::Server`, each request read, offered
//! and answered, with validation on and off, on the client requests of recorded sessions and on two
//! made-up requests. A counted loop, not a timed test: build it optimised.
//!
//! ```sh
//! cargo run -q --release -p mcp-schema-examples --bin engine_validate_cost
//! ```

use std::hint::black_box;
use std::time::Instant;

use mcp_spec_types::engine::{Config, Event, Server, ServerInfo};
use serde_json::{json, Value};

/// The client requests of a recorded session but `initialize` (`{"dir": "c2s", "msg": {...}}` lines).
fn requests(path: &std::path::Path) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["dir"] == "c2s" && l["msg"].get("id").is_some() && l["msg"]["method"].as_str().is_some_and(|m| m != "initialize"))
        .map(|l| l["msg"].to_string().into_bytes())
        .collect()
}

fn session(validate: bool) -> Server {
    let info = ServerInfo::new("cost", "1").versions(&["2025-11-25"]).capabilities(&json!({"logging": {}, "tools": {}})).expect("JSON");
    let mut s = Server::with_info(Config { validate, ..Config::default() }, info);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    s.handle_line(init.to_string().as_bytes()).expect("room");
    s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).expect("room");
    while s.poll_transmit().is_some() {}
    while s.poll_event().is_some() {}
    s
}

/// Median nanoseconds per message: read, offered to the application, answered, written.
fn per_message(s: &mut Server, corpus: &[Vec<u8>], rounds: usize) -> f64 {
    let result = json!({});
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for m in corpus {
                s.handle_line(black_box(m)).expect("the queues are drained");
                while let Some(event) = s.poll_event() {
                    if let Event::Request(r) = event {
                        black_box(s.respond(&r.id, &result).expect("in flight"));
                    }
                }
                while let Some(line) = s.poll_transmit() {
                    black_box(line);
                }
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
    corpora.push(("logging/setLevel \"verbose\" (answered -32602 either way)".into(), vec![verbose.to_vec()]));

    let rounds = if std::env::var_os("QUICK").is_some() { 200 } else { 2000 };
    println!("| corpus | requests | validate: false | validate: true | added per request | ratio |");
    println!("|---|---|---|---|---|---|");
    for (name, corpus) in &corpora {
        let (mut off, mut on) = (session(false), session(true));
        // Warm up, then measure the two in turn.
        per_message(&mut off, corpus, rounds / 10);
        per_message(&mut on, corpus, rounds / 10);
        let (a, b) = (per_message(&mut off, corpus, rounds), per_message(&mut on, corpus, rounds));
        println!("| {name} | {} | {a:.0} ns | {b:.0} ns | {:.0} ns | {:.2}x |", corpus.len(), b - a, b / a);
    }
}
