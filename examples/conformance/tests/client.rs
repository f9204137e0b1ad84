//! The conformance client against a small HTTP server in the test (no Node needed).

#![forbid(unsafe_code)]

use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;

mod common;

/// Answers one request on its own connection: `initialize` with `capabilities`, `tools/list` with
/// no tools, a notification with 202, anything else with -32601. Each method goes into `seen`
/// before the answer does, so the client cannot exit before its last message is counted.
fn answer(
    tcp: TcpStream,
    capabilities: &serde_json::Value,
    seen: &Mutex<Vec<String>>,
) -> Option<()> {
    let message = common::read(&tcp)?.body;
    let method = message["method"].as_str()?;
    seen.lock().unwrap().push(method.to_string());
    let id = &message["id"];
    let reply = match method {
        _ if id.is_null() => None,
        "initialize" => Some(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "serverInfo": {"name": "test", "version": "1"}}})),
        "tools/list" => {
            Some(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}))
        }
        _ => Some(serde_json::json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32601, "message": "Method not found"}})),
    };
    common::reply(tcp, "200 OK", reply);
    Some(())
}

/// The methods the client sent to a server that declared `capabilities`.
fn methods_sent(capabilities: serde_json::Value) -> Vec<String> {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://127.0.0.1:{}/mcp",
        listener.local_addr().unwrap().port()
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server_seen = seen.clone();
    thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            answer(tcp, &capabilities, &server_seen);
        }
    });
    let output = Command::new(env!("CARGO_BIN_EXE_conformance-client"))
        .args(["--validate", &url])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("0 findings"), "{stderr}");
    let seen = seen.lock().unwrap().clone();
    seen
}

// Lifecycle: both parties "MUST ... Only use capabilities that were successfully negotiated".
#[test]
fn lists_tools_only_from_a_server_that_declared_them() {
    assert_eq!(
        methods_sent(serde_json::json!({})),
        ["initialize", "notifications/initialized"]
    );
    assert_eq!(
        methods_sent(serde_json::json!({"tools": {}})),
        ["initialize", "notifications/initialized", "tools/list"]
    );
}
