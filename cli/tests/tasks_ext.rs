//! `check --ext tasks`: how the Tasks extension's messages are typed. A task handle answering
//! `tools/call` is the extension's `CreateTaskResult`, `tasks/*` and `notifications/tasks` are its
//! types, and a 2025-11-25 session keeps its own core `tasks/*`.

use crate::common;

use common::check_json;
use common::lines::{c2s, note, ok, req, s2c};
use serde_json::{json, Value};

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
}

fn jsonl(lines: &[Value]) -> Vec<u8> {
    lines.iter().flat_map(|l| serde_json::to_vec(l).unwrap().into_iter().chain([b'\n'])).collect()
}

fn session(handle: Value) -> Vec<Value> {
    vec![
        c2s(req(3, "tools/call", json!({"name": "slow", "arguments": {}, "_meta": meta()}))),
        s2c(ok(3, handle)),
        c2s(req(4, "tasks/get", json!({"taskId": "t1", "_meta": meta()}))),
        s2c(ok(4, json!({"resultType": "complete", "taskId": "t1", "status": "failed", "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:31:00Z", "ttlMs": null, "statusMessage": "boom", "error": {"code": -32603, "message": "boom"}}))),
        s2c(note("notifications/tasks", json!({"taskId": "t1", "status": "failed", "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:31:00Z", "ttlMs": null, "statusMessage": "boom", "error": {"code": -32603, "message": "boom"}}))),
    ]
}

fn handle() -> Value {
    json!({"resultType": "task", "taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:30:00Z", "ttlMs": null})
}

#[test]
fn the_extensions_messages_are_typed_by_its_module() {
    let (code, r) = check_json(&["--ext", "tasks", "--strict", "-"], Some(&jsonl(&session(handle()))));
    assert_eq!((code, r.found.len()), (0, 0), "{:?}", r.found);
    // The same handle without `createdAt`: reported as the extension's CreateTaskResult.
    let mut bad = handle();
    bad.as_object_mut().unwrap().remove("createdAt");
    let (_, r) = check_json(&["--ext", "tasks", "-"], Some(&jsonl(&session(bad))));
    assert_eq!(r.found.iter().map(|f| (f.line, f.pointer.as_str(), f.rule.as_str())).collect::<Vec<_>>(), [(2, "/msg/result", "required"), (2, "/msg/result", "deserialize")]);
    // Without the extension the handle is a CallToolResult without `content`, and `tasks/get` is no method.
    let (_, r) = check_json(&["-"], Some(&jsonl(&session(handle()))));
    assert!(r.found.iter().any(|f| f.line == 2 && f.rule == "required"), "{:?}", r.found);
    assert!(r.found.iter().any(|f| f.line == 3 && f.rule == "unknown-variant"), "{:?}", r.found);
}

#[test]
fn a_2025_11_25_session_keeps_its_core_tasks() {
    let lines = vec![
        c2s(req(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))),
        s2c(ok(1, json!({"protocolVersion": "2025-11-25", "capabilities": {"tasks": {"list": {}}}, "serverInfo": {"name": "s", "version": "1"}}))),
        c2s(note("notifications/initialized", json!({}))),
        c2s(req(2, "tasks/list", json!({}))),
        s2c(ok(2, json!({"tasks": []}))),
    ];
    let (code, r) = check_json(&["--ext", "tasks", "-"], Some(&jsonl(&lines)));
    assert_eq!((code, r.found.len()), (0, 0), "{:?}", r.found);
}
