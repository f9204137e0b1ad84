//! One scripted client conversation with the two-tool server, on the engine (`two_tools`) and on
//! rmcp (`examples/rmcp-compare`, only where its binary has been built: `cargo build` in that
//! folder, or `TWO_TOOLS_RMCP=path`): listing, a conversion, a bad argument, an unknown tool, and
//! `count` with progress, answering another call while it runs, then cancelled.

#![forbid(unsafe_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Peer {
    fn start(exe: &str) -> Peer {
        let mut child = Command::new(exe).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
        let (stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if send.send(value).is_err() {
                    break;
                }
            }
        });
        Peer { child, stdin: Some(stdin), lines }
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, within 10 s.
    fn next(&self) -> Value {
        self.lines.recv_timeout(Duration::from_secs(10)).expect("the server wrote nothing for 10 s")
    }

    /// Lines until the answer to `id`; the lines before it are returned too.
    fn answer(&self, id: u64) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let line = self.next();
            if line["id"] == id && line.get("method").is_none() {
                return (line, before);
            }
            before.push(line);
        }
    }

    fn call(&mut self, id: u64, name: &str, arguments: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}));
        let (answer, others) = self.answer(id);
        assert!(others.is_empty(), "{others:?}");
        answer
    }
}


// A failed assertion leaves no server behind.
impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_progress(line: &Value, token: &str) -> bool {
    line["method"] == "notifications/progress" && line["params"]["progressToken"] == token
}

/// The conversation; `ours` adds the checks that only the engine's server meets (the JSON pointer
/// of a bad argument, enum values inline).
fn converse(exe: &str, ours: bool) {
    let mut peer = Peer::start(exe);

    peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "script", "version": "1"}}}));
    let (init, _) = peer.answer(1);
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
    peer.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    peer.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let (list, _) = peer.answer(2);
    let tools = list["result"]["tools"].as_array().expect("tools");
    let names: Vec<_> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["convert", "count"]);
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    }
    if ours {
        assert_eq!(tools[0]["inputSchema"]["properties"]["to"]["enum"], json!(["meters", "feet", "inches", "miles"]));
        assert!(tools[0]["inputSchema"].get("$schema").is_none(), "2025-11-25's default dialect is not named");
    }

    let converted = peer.call(3, "convert", json!({"value": 12, "from": "inches", "to": "feet"}));
    let structured = &converted["result"]["structuredContent"];
    assert_eq!(structured["unit"], "feet", "{converted}");
    assert!((structured["value"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{converted}");
    let text = converted["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), *structured, "the text block carries the same JSON");

    let bad = peer.call(4, "convert", json!({"value": 12, "from": "inches", "to": "parsecs"}));
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    let text = bad["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("parsecs"), "{text}");
    if ours {
        assert!(text.contains("`/to`"), "{text}");
    }

    let unknown = peer.call(5, "nope", json!({}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    // `count` with progress; another call is answered while it runs; then it is cancelled.
    peer.send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "count", "arguments": {"to": 100, "delayMs": 30}, "_meta": {"progressToken": "c"}}}));
    let first = peer.next();
    assert!(is_progress(&first, "c"), "{first}");
    assert_eq!(first["params"]["progress"], 1.0);
    peer.send(json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "convert", "arguments": {"value": 1, "from": "miles", "to": "meters"}}}));
    let (during, progress) = peer.answer(8);
    assert_eq!(during["result"]["structuredContent"]["value"], 1609.344, "{during}");
    assert!(progress.iter().all(|p| is_progress(p, "c")), "{progress:?}");
    // Still counting after that answer.
    let later = peer.next();
    assert!(is_progress(&later, "c"), "{later}");
    let reached = later["params"]["progress"].as_f64().unwrap();
    assert!(reached < 100.0);

    peer.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "enough"}}));
    // The server reads the ping after the cancellation: what it writes after the pong must not
    // be about request 7. (Progress between the two was written before it read the cancellation.)
    peer.send(json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}));
    let (pong, between) = peer.answer(9);
    assert_eq!(pong["result"], json!({}));
    assert!(between.iter().all(|p| is_progress(p, "c")), "{between:?}");
    let deadline = Instant::now() + Duration::from_millis(600);
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        if let Ok(line) = peer.lines.recv_timeout(left) {
            panic!("written after the cancellation was read: {line}");
        }
    }
    // The session goes on.
    let again = peer.call(10, "convert", json!({"value": 3, "from": "feet", "to": "feet"}));
    assert_eq!(again["result"]["structuredContent"]["value"], 3.0, "{again}");

    // `count` stopped when cancelled: with its input closed the server ends at once, where the
    // rest of the count would take more than 2 s (the engine's loop waits for unfinished work).
    drop(peer.stdin.take());
    let closed = Instant::now();
    while peer.child.try_wait().unwrap().is_none() {
        assert!(closed.elapsed() < Duration::from_secs(1), "still running 1 s after its input closed");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(peer.lines.try_iter().all(|line| line["id"] != 7), "a result for the cancelled request");
}

#[test]
fn two_tools_on_the_engine() {
    converse(env!("CARGO_BIN_EXE_two_tools"), true);
}

#[test]
fn two_tools_on_rmcp_where_built() {
    let exe = std::env::var_os("TWO_TOOLS_RMCP").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rmcp-compare/target/debug/two-tools-rmcp"));
    if !exe.exists() {
        eprintln!("skipped: {} is not built (cargo build in examples/rmcp-compare)", exe.display());
        return;
    }
    converse(exe.to_str().unwrap(), false);
}
