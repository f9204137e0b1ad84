//! The property of the `bridge` fuzz target: the version bridge's core, lines in from either
//! side, outputs out. See tests/HOSTILE.md, section Fuzzing.

use std::collections::HashSet;

use mcp_spec_types_cli::bridge::{Bridge, Reply, Verdict};
use mcp_spec_types_cli::versions::VERSIONS;
use serde_json::Value;

use crate::show;

/// One step of the input: a line from a side, in a client exchange (`tag`), or an upstream failure.
enum Step<'a> {
    Client(&'a [u8], u64),
    Server(&'a [u8]),
    /// The exchange of the last request sent to the server failed (the HTTP bridge's case).
    Failed,
}

/// Reads `[to][count × (flags, len u16 LE)]...[bytes]` like `proxy_chunks`: `to` picks `--to`
/// (index into the versions); each descriptor's flags: bit 0 the side (0 client, 1 server),
/// bits 1–2 the client exchange (four clients, as stateless HTTP clients share one bridge), bit
/// 7 an upstream failure instead of a line.
fn steps(data: &[u8]) -> (usize, Vec<Step<'_>>) {
    let [to, lo, hi, rest @ ..] = data else { return (0, vec![Step::Client(data, 0)]) };
    let count = (u16::from_le_bytes([*lo, *hi]) as usize).min(rest.len() / 3);
    let (heads, mut bytes) = rest.split_at(count * 3);
    let mut out = Vec::new();
    for h in heads.chunks_exact(3) {
        if h[0] & 0x80 != 0 {
            out.push(Step::Failed);
            continue;
        }
        let len = (u16::from_le_bytes([h[1], h[2]]) as usize).min(bytes.len());
        let (line, more) = bytes.split_at(len);
        bytes = more;
        out.push(if h[0] & 1 == 0 { Step::Client(line, u64::from(h[0] >> 1 & 3)) } else { Step::Server(line) });
    }
    if !bytes.is_empty() {
        out.push(Step::Client(bytes, 0));
    }
    (*to as usize % VERSIONS.len(), out)
}

/// `bridge`: every step through one [`Bridge`]. Properties: no panic; each line for the client
/// has its reply kind; an answer is marked with a client exchange that sent a line before; every
/// line the bridge writes is a JSON-RPC object (unless it passed bytes unchanged), and every
/// request it sends the server carries an id of the bridge's, never one seen before (a client's
/// id never goes upstream: M4, L5); each line received gets exactly one verdict.
pub fn bridge(data: &[u8]) {
    let (to, steps) = steps(data);
    let mut b = Bridge::new(to);
    let mut tags = HashSet::new();
    let mut ids_up = HashSet::new();
    let mut last_up: Option<Value> = None;
    for step in steps {
        let (out, received) = match step {
            Step::Client(line, tag) => {
                tags.insert(tag);
                (b.from_client_at(line, Some(tag)), !line.trim_ascii().is_empty())
            }
            Step::Server(line) => (b.from_server(line), !line.trim_ascii().is_empty()),
            Step::Failed => match last_up.take() {
                Some(id) => (b.upstream_failed(&id, "fuzz: the exchange failed"), false),
                None => continue,
            },
        };
        assert_eq!(out.to_client.len(), out.replies.len(), "a reply kind per line for the client\ninput: {}", show(data));
        for r in &out.replies {
            if let Reply::Answer(Some(t)) = r {
                assert!(tags.contains(t), "an answer for client exchange {t}, which sent nothing\ninput: {}", show(data));
            }
        }
        let notes: Vec<Verdict> = out.records.iter().filter_map(|r| r.note.as_ref().map(|n| n.verdict)).collect();
        if received {
            // A line the bridge received: one verdict (a held line's comes when it is let go).
            assert!(notes.len() <= 1 + 1024, "{} verdicts for one line", notes.len());
        }
        let passed = notes.contains(&Verdict::Forwarded);
        if passed {
            continue;
        }
        for line in out.to_client.iter().chain(&out.to_server) {
            let v: Value = serde_json::from_slice(line).unwrap_or_else(|e| panic!("the bridge wrote a line that is not JSON ({e}): {}\ninput: {}", show(line), show(data)));
            assert!(v.is_object() && v["jsonrpc"] == "2.0", "not a JSON-RPC object: {v}\ninput: {}", show(data));
        }
        for line in &out.to_server {
            let v: Value = serde_json::from_slice(line).expect("checked above");
            if let (Some(_), Some(id)) = (v.get("method"), v.get("id")) {
                let own = id.as_str().is_some_and(|s| s.starts_with("mcp-schema-bridge/"));
                assert!(own, "a request went upstream with an id not the bridge's: {id}\ninput: {}", show(data));
                assert!(ids_up.insert(id.to_string()), "the id {id} went upstream twice\ninput: {}", show(data));
                last_up = Some(id.clone());
            }
        }
    }
}
