//! One MCP server for every protocol version, over stdio.
//!
//! The application (`app.rs`) is written against ONE version module, 2025-11-25. This file
//! negotiates the peer's version and converts each incoming message from the peer's version to
//! 2025-11-25 and each answer back (`bridge.rs`); a client that sends no `initialize` speaks
//! 2026-07-28, and `gateway.rs` does what no type conversion can for it.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin multi_version_server [-- --record session.jsonl]
//! ```
//!
//! `--record FILE` writes every message in and out as `{"dir": "c2s"|"s2c", "msg": ...}` lines,
//! the format `mcp-schema check` reads. A `{pid}` in FILE becomes the process id: a client that
//! starts the server more than once (the TypeScript SDK probes `server/discover` in a process of
//! its own) gets one file per connection.

mod app;
mod bridge;
mod gateway;

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};

use mcp_spec_types::negotiate;
use mcp_spec_types::read_message;
use mcp_spec_types::runtime::Message;
use mcp_spec_types::v2025_11_25::ClientMessage;
use serde_json::{json, Value};

/// The version the application is written against.
pub const APP_VERSION: &str = "2025-11-25";

/// Every version this server answers.
pub const SUPPORTED: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut record = match args.as_slice() {
        [] => None,
        [flag, file] if flag == "--record" => {
            Some(BufWriter::new(File::create(file.replace("{pid}", &std::process::id().to_string()))?))
        }
        _ => {
            eprintln!("usage: multi_version_server [--record FILE]");
            std::process::exit(2);
        }
    };
    let mut session = Session::default();
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let message: Result<Value, _> = serde_json::from_str(&line);
        if let (Some(r), Ok(m)) = (record.as_mut(), &message) {
            writeln!(r, "{}", json!({"dir": "c2s", "msg": m}))?;
        }
        let answer = match message {
            Ok(m) => session.answer(&m),
            Err(e) => Some(gateway::error(Value::Null, -32700, format!("Parse error: {e}"))),
        };
        if let Some(answer) = answer {
            writeln!(out, "{answer}")?;
            out.flush()?; // the client waits for each answer
            if let Some(r) = record.as_mut() {
                writeln!(r, "{}", json!({"dir": "s2c", "msg": answer}))?;
                r.flush()?;
            }
        }
    }
    Ok(())
}

/// What one client connection negotiated.
#[derive(Default)]
struct Session {
    /// The version `initialize` settled on; `None` for a client that sends none (2026-07-28).
    negotiated: Option<&'static str>,
}

impl Session {
    /// The answer to one message; `None` for notifications and responses.
    fn answer(&mut self, message: &Value) -> Option<Value> {
        let id = message.get("id").cloned();
        let method = message.get("method").and_then(Value::as_str)?.to_string();
        let Some(id) = id else {
            // Notifications (`initialized`, `cancelled`, ...) need no answer from this application.
            eprintln!("notification: {method}");
            return None;
        };
        if method == "initialize" {
            return Some(self.initialize(id, message));
        }
        let peer = match self.negotiated {
            Some(peer) => peer,
            None => match gateway::route(message) {
                gateway::Route::Answer(answer) => return Some(answer),
                gateway::Route::App(converted) => return Some(self.run_app(gateway::VERSION, &method, id, converted)),
            },
        };
        match bridge::message(peer, APP_VERSION, message) {
            Ok(converted) => Some(self.run_app(peer, &method, id, converted)),
            Err(f) if f.unknown_method => Some(gateway::error(id, -32601, format!("Method not found: {f}"))),
            Err(f) => Some(gateway::error(id, -32602, format!("Invalid params: {f}"))),
        }
    }

    /// The handshake: the proposed version if supported, else the latest this server has.
    fn initialize(&mut self, id: Value, message: &Value) -> Value {
        let proposed = message.pointer("/params/protocolVersion").and_then(Value::as_str).unwrap_or_default();
        let Some(answer) = negotiate::answer_initialize(proposed, SUPPORTED) else {
            unreachable!("SUPPORTED has handshake versions")
        };
        self.negotiated = Some(answer.version);
        if !answer.as_proposed {
            eprintln!("client proposed {proposed:?}; answering {}", answer.version);
        }
        let result = serde_json::to_value(app::initialize_result(answer.version)).expect("a result writes as JSON");
        match bridge::result(APP_VERSION, answer.version, "initialize", &result) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(f) => gateway::error(id, -32603, format!("Internal error: {f}")),
        }
    }

    /// Runs the application on a request already in 2025-11-25 terms; converts its answer to `peer`.
    fn run_app(&self, peer: &str, method: &str, id: Value, request: Value) -> Value {
        let request = match read_message::<ClientMessage>(&request.to_string()) {
            Ok(Message::Request(request)) => request,
            Ok(_) => return gateway::error(id, -32600, "Invalid Request: not a request".into()),
            Err(invalid) => return serde_json::to_value(invalid.error_response()).unwrap_or(Value::Null),
        };
        let answer = serde_json::to_value(app::answer(request)).expect("an answer writes as JSON");
        let Some(result) = answer.get("result") else {
            // Error objects are the same in every version.
            return answer;
        };
        let converted = if peer == gateway::VERSION { gateway::result(method, result.clone()) } else { to_peer(peer, method, result.clone()) };
        match converted {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(f) => gateway::error(id, -32603, format!("Internal error: the answer does not convert to {peer}: {f}")),
        }
    }
}

/// A 2025-11-25 result for a peer of a handshake version. The one lossy case this application meets:
/// content blocks the peer's version lacks (`resource_link` before 2025-06-18) become text naming
/// the link, which every version has.
fn to_peer(peer: &str, method: &str, mut result: Value) -> Result<Value, bridge::Failure> {
    loop {
        match bridge::result(APP_VERSION, peer, method, &result) {
            Err(f) if method == "tools/call" => {
                let Some(block) = content_index(&f.pointer) else { return Err(f) };
                let Some(item) = result.pointer_mut(&format!("/content/{block}")) else { return Err(f) };
                if item["type"] == "text" {
                    return Err(f);
                }
                let text = match (item["type"].as_str(), item["uri"].as_str()) {
                    (Some("resource_link"), Some(uri)) => format!("{}: {uri}", item["name"].as_str().unwrap_or("resource")),
                    (kind, _) => format!("[{} content not available in protocol version {peer}]", kind.unwrap_or("unknown")),
                };
                *item = json!({"type": "text", "text": text});
            }
            other => return other,
        }
    }
}

/// `N` of a pointer `/content/N/...`.
fn content_index(pointer: &str) -> Option<usize> {
    pointer.strip_prefix("/content/")?.split('/').next()?.parse().ok()
}
