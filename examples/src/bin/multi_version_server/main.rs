//! One MCP server for every protocol version, over stdio, on the crate's session engine.
//!
//! The application (`app.rs`) is written against ONE version module, 2025-11-25. The engine
//! (`engine::Server` with a `ServerInfo` naming every supported version) answers `initialize` with
//! the negotiated version, takes a client that sends no `initialize` for a 2026-07-28 one (its
//! version and capabilities checked per request, `server/discover` answered), validates each
//! request against its version, and answers `ping` and `logging/setLevel`. This file converts each
//! request from its version to 2025-11-25 and each answer back (`bridge.rs`); `gateway.rs` adds
//! the fields a 2026-07-28 result needs before it converts.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin multi_version_server [-- --record session.jsonl]
//! ```
//!
//! `--record FILE` writes every message in and out as `{"dir": "c2s"|"s2c", "msg": ...}` lines,
//! the format `mcp-schema check` reads. A `{pid}` in FILE becomes the process id: a client that
//! starts the server more than once (the TypeScript SDK probes `server/discover` in a process of
//! its own) gets one file per connection.

#![forbid(unsafe_code)]

mod app;
mod bridge;
mod gateway;

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};

use mcp_spec_engine::{Config, Event, Request, Server, ServerInfo, Transmit};
use mcp_spec_types::read_message;
use mcp_spec_types::rpc::{INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::{Message, RpcError};
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
    let mut info = ServerInfo::new(app::SERVER_NAME, app::SERVER_VERSION).versions(SUPPORTED).instructions(app::INSTRUCTIONS);
    info.capabilities = serde_json::to_value(app::capabilities()).expect("capabilities write as JSON");
    info.discover_ttl_ms = gateway::TTL_MS;
    let mut server = Server::with_info(Config::default(), info);
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let (Some(r), Ok(m)) = (record.as_mut(), serde_json::from_str::<Value>(&line)) {
            writeln!(r, "{}", json!({"dir": "c2s", "msg": m}))?;
        }
        // The queues are drained after each line, so there is always room.
        if let Err(e) = server.handle_line(line.as_bytes()) {
            eprintln!("line not read: {e}");
        }
        while let Some(event) = server.poll_event() {
            match event {
                Event::Request(request) => answer(&mut server, &request),
                // `initialized`, `cancelled` (this application answers at once), unreadable lines.
                other => eprintln!("{other:?}"),
            }
        }
        while let Some(Transmit { line: answer, .. }) = server.poll_transmit() {
            out.write_all(&answer)?;
            out.write_all(b"\n")?;
            out.flush()?; // the client waits for each answer
            if let Some(r) = record.as_mut() {
                let msg: Value = serde_json::from_slice(&answer).unwrap_or(Value::Null);
                writeln!(r, "{}", json!({"dir": "s2c", "msg": msg}))?;
                r.flush()?;
            }
        }
    }
    Ok(())
}

fn rpc_error(code: i64, message: String) -> RpcError {
    RpcError { code, message, data: None }
}

/// Runs the application on one request, converted from its version to 2025-11-25, and converts its
/// answer back.
fn answer(server: &mut Server, request: &Request) {
    let peer = server.version_of(&request.id).unwrap_or(APP_VERSION).to_owned();
    let mut message = json!({"jsonrpc": "2.0", "id": request.id.to_value(), "method": request.method});
    if let Some(params) = &request.params {
        message["params"] = params.clone();
    }
    let outcome = match bridge::message(&peer, APP_VERSION, &message) {
        Ok(converted) => run_app(&peer, &request.method, converted),
        Err(f) if f.unknown_method => Err(rpc_error(METHOD_NOT_FOUND, format!("Method not found: {f}"))),
        Err(f) => Err(rpc_error(INVALID_PARAMS, format!("Invalid params: {f}"))),
    };
    let sent = match outcome {
        Ok(result) => server.respond(&request.id, &result),
        Err(error) => server.respond_error(&request.id, &error),
    };
    if let Err(e) = sent {
        eprintln!("answer not sent: {e}");
    }
}

/// The application's result (converted to `peer`) or error, for a request in 2025-11-25 terms.
fn run_app(peer: &str, method: &str, request: Value) -> Result<Value, RpcError> {
    let request = match read_message::<ClientMessage>(request.to_string()) {
        Ok(Message::Request(request)) => request,
        Ok(_) => return Err(rpc_error(INVALID_REQUEST, "Invalid Request: not a request".into())),
        Err(invalid) => return Err(invalid.error),
    };
    let answer = serde_json::to_value(app::answer(request)).expect("an answer writes as JSON");
    let Some(result) = answer.get("result") else {
        // Error objects are the same in every version.
        return Err(serde_json::from_value(answer["error"].clone()).unwrap_or_else(|e| rpc_error(INTERNAL_ERROR, format!("Internal error: {e}"))));
    };
    let converted = if peer == gateway::VERSION { gateway::result(method, result.clone()) } else { to_peer(peer, method, result.clone()) };
    converted.map_err(|f| rpc_error(INTERNAL_ERROR, format!("Internal error: the answer does not convert to {peer}: {f}")))
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
