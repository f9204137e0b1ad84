//! What the server engine's validation of incoming requests (`engine::Config::validate`, on by
//! default) costs per message: a 2025-11-25 session on `engine::Server`, each request read, offered
//! and answered, with validation on and off, on the client requests of recorded sessions and on two
//! made-up requests. A counted loop, not a timed test: build it optimised.
//!
//! ```sh
//! cargo run -q --release -p mcp-schema-examples --bin engine_validate_cost
//! ```

#![forbid(unsafe_code)]

#[path = "../cost.rs"]
mod cost;

use std::hint::black_box;

use mcp_spec_engine::{Config, Event, Server, ServerInfo};
use serde_json::json;

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
    cost::median_per_message(rounds, corpus.len(), || {
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
    })
}

fn main() {
    // `initialize` opens the session each measurement starts from: not one of the requests measured.
    let corpora = cost::corpora(&["initialize"], "answered -32602 either way");
    let rounds = cost::rounds();
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
