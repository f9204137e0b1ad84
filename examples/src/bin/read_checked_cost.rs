//! What validating incoming requests costs a server: `rpc::read_message` (lenient) against
//! `rpc::Reader::default()` (validates each request of a defined method, issue 28 item 4), per
//! message, on the client requests of recorded 2025-11-25 sessions and on two made-up requests.
//! A counted loop, not a timed test: build it optimised, or the numbers mean nothing.
//!
//! ```sh
//! cargo run -q --release -p mcp-schema-examples --bin read_checked_cost
//! ```

#![forbid(unsafe_code)]

#[path = "../cost.rs"]
mod cost;

use std::hint::black_box;

use mcp_spec_types::rpc::{read_message, Reader};
use mcp_spec_types::v2025_11_25::ClientMessage;

/// Median nanoseconds per message of `read` over `corpus`, in `rounds` rounds.
fn per_message(corpus: &[Vec<u8>], rounds: usize, read: &dyn Fn(&[u8]) -> bool) -> f64 {
    cost::median_per_message(rounds, corpus.len(), || {
        for m in corpus {
            black_box(read(black_box(m)));
        }
    })
}

fn main() {
    let corpora = cost::corpora(&[], "answered -32602");
    let checked = Reader::default();
    let rounds = cost::rounds();
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
