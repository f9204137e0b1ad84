//! The conformance client speaking 2026-07-28 against a small HTTP server in the test: no
//! `initialize`, `_meta` and the transport's headers on every POST, the version fallback, an
//! `InputRequiredResult` answered and the call retried, a tool with an invalid `x-mcp-header`
//! never called.

#![forbid(unsafe_code)]

use std::net::TcpListener;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;

use serde_json::{json, Value};

mod common;

const V: &str = "2026-07-28";

/// Answers each POST as a 2026-07-28 server would; the first one is refused as an unsupported
/// version (HTTP 400, as the spec asks), like the suite's request-metadata scenario.
fn serve(post: &common::Post, refused_one: &mut bool) -> (&'static str, Option<Value>) {
    let m = &post.body;
    let id = m["id"].clone();
    if id.is_null() {
        return ("202 Accepted", None);
    }
    let ok = |result: Value| {
        (
            "200 OK",
            Some(json!({"jsonrpc": "2.0", "id": id, "result": result})),
        )
    };
    if !*refused_one {
        *refused_one = true;
        let error = json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [V], "requested": V}});
        return (
            "400 Bad Request",
            Some(json!({"jsonrpc": "2.0", "id": id, "error": error})),
        );
    }
    match m["method"].as_str().unwrap_or_default() {
        "server/discover" => ok(
            json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": [V],
            "capabilities": {"tools": {}}, "serverInfo": {"name": "t", "version": "1"}}),
        ),
        "tools/list" => ok(
            json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": [
                {"name": "confirm", "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}},
                {"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}},
            ]}),
        ),
        "tools/call" if m["params"].get("inputResponses").is_none() => ok(
            json!({"resultType": "input_required", "requestState": "state-1",
            "inputRequests": {"ok": {"method": "elicitation/create", "params": {"message": "ok?",
                "requestedSchema": {"type": "object", "properties": {"sure": {"type": "boolean", "default": true}}}}}}}),
        ),
        "tools/call" => {
            ok(json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]}))
        }
        _ => (
            "200 OK",
            Some(
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
            ),
        ),
    }
}

#[test]
fn speaks_2026_07_28_with_meta_headers_fallback_and_input_rounds() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://127.0.0.1:{}/mcp",
        listener.local_addr().unwrap().port()
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server_seen = seen.clone();
    thread::spawn(move || {
        let mut refused_one = false;
        for tcp in listener.incoming().flatten() {
            let Some(post) = common::read(&tcp) else {
                continue;
            };
            let (status, reply) = serve(&post, &mut refused_one);
            server_seen.lock().unwrap().push(post);
            common::reply(tcp, status, reply);
        }
    });
    let output = Command::new(env!("CARGO_BIN_EXE_conformance-client"))
        .args(["--validate", &url])
        .env("MCP_CONFORMANCE_PROTOCOL_VERSION", V)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("0 findings"), "{stderr}");
    let seen = seen.lock().unwrap();
    let methods: Vec<&str> = seen
        .iter()
        .map(|p| p.body["method"].as_str().unwrap_or_default())
        .collect();
    // The refused first request is sent again; the call goes twice (input, then the retry); no
    // initialize, and the tool with the invalid annotation is never called.
    assert_eq!(
        methods,
        [
            "server/discover",
            "server/discover",
            "tools/list",
            "tools/call",
            "tools/call"
        ]
    );
    for post in seen.iter() {
        let meta = &post.body["params"]["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], json!(V));
        assert!(meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"].is_object());
        assert_eq!(post.header("mcp-protocol-version"), Some(V));
        assert_eq!(post.header("mcp-method"), post.body["method"].as_str());
    }
    assert_ne!(seen[0].body["id"], seen[1].body["id"]);
    let (call, retry) = (&seen[3], &seen[4]);
    assert_eq!(
        (call.header("mcp-name"), call.header("mcp-param-region")),
        (Some("confirm"), Some("test"))
    );
    assert_ne!(call.body["id"], retry.body["id"]);
    assert_eq!(retry.body["params"]["requestState"], json!("state-1"));
    assert_eq!(
        retry.body["params"]["inputResponses"],
        json!({"ok": {"action": "accept", "content": {"sure": true}}})
    );
}
