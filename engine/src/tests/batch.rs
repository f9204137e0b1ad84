//! JSON-RPC batches: read in a 2025-03-26 session (each member handled, the answers written as one
//! array once all are given), refused in every other version.

use std::time::Instant;

use serde_json::{json, Value};

use super::*;

fn send(s: &mut Server, message: Value) {
    s.handle_line(message.to_string().as_bytes()).unwrap();
}

fn written(s: &mut Server) -> Vec<Value> {
    std::iter::from_fn(|| s.poll_transmit()).map(|t| serde_json::from_slice(&t.line).expect("the engine writes JSON")).collect()
}

fn requests(s: &mut Server) -> Vec<Request> {
    std::iter::from_fn(|| s.poll_event()).filter_map(|e| if let Event::Request(r) = e { Some(r) } else { None }).collect()
}

fn session(version: &str) -> Server {
    let mut s = Server::with_info(Config::default(), ServerInfo::new("s", "1").versions(&[version]).capabilities(&json!({"tools": {}})).unwrap());
    send(&mut s, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}));
    send(&mut s, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(written(&mut s)[0]["result"]["protocolVersion"], json!(version));
    while s.poll_event().is_some() {}
    s
}

fn call(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t"}})
}

#[test]
fn a_2025_03_26_batch_is_read_and_answered_as_one_array() {
    let mut s = session("2025-03-26");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"});
    send(&mut s, json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, call(json!(2)), note, call(json!("three"))]));
    // The ping's answer waits for the others.
    assert!(written(&mut s).is_empty());
    let calls = requests(&mut s);
    assert_eq!(calls.iter().map(|r| r.id.clone()).collect::<Vec<_>>(), [Id::Number(2), Id::String("three".into())]);
    s.respond(&calls[1].id, &json!({"content": []})).unwrap();
    assert!(written(&mut s).is_empty());
    s.respond_error(&calls[0].id, &RpcError { code: -32603, message: "no".into(), data: None }).unwrap();
    let out = written(&mut s);
    assert_eq!(out.len(), 1, "{out:?}");
    let ids: Vec<Value> = out[0].as_array().expect("one array").iter().map(|a| a["id"].clone()).collect();
    assert_eq!(ids, [json!(1), json!("three"), json!(2)]);
    assert_eq!(out[0][2]["error"]["code"], json!(-32603));
}

#[test]
fn a_2025_03_26_batch_empty_invalid_or_of_notifications() {
    let mut s = session("2025-03-26");
    send(&mut s, json!([]));
    let out = written(&mut s);
    assert_eq!((out[0]["id"].clone(), out[0]["error"]["code"].clone()), (Value::Null, json!(-32600)), "{out:?}");
    // JSON-RPC's example: an array of invalid members is an array of errors.
    send(&mut s, json!([1, 2]));
    let out = written(&mut s);
    let errors = out[0].as_array().expect("an array");
    assert_eq!(errors.len(), 2);
    assert!(errors.iter().all(|e| e["id"].is_null() && e["error"]["code"] == json!(-32600)));
    // Notifications alone get nothing back.
    send(&mut s, json!([{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}, {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}]));
    assert!(written(&mut s).is_empty());
    // A cancelled member is left out of the array.
    send(&mut s, json!([call(json!(5)), call(json!(6))]));
    send(&mut s, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}));
    let calls = requests(&mut s);
    assert_eq!(s.respond(&calls[0].id, &json!({"content": []})).unwrap(), Sent::Dropped);
    s.respond(&calls[1].id, &json!({"content": []})).unwrap();
    let out = written(&mut s);
    assert_eq!(out, [json!([{"jsonrpc": "2.0", "id": 6, "result": {"content": []}}])]);
    assert_eq!(s.in_flight(), 0);
}

#[test]
fn batches_are_refused_in_other_versions() {
    for version in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut s = session(version);
        send(&mut s, json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, call(json!(2))]));
        let out = written(&mut s);
        assert_eq!(out.len(), 1, "{version}: {out:?}");
        assert_eq!(out[0]["error"]["code"], json!(-32600), "{version}");
        assert!(out[0]["error"]["message"].as_str().unwrap().contains("2025-03-26"), "{out:?}");
        assert!(requests(&mut s).is_empty());
    }
}

#[test]
fn a_2025_03_26_client_answers_a_servers_batch() {
    use mcp_spec_types::v2025_11_25 as mcp;
    let mut c = Client::new(Config::default());
    let params = mcp::InitializeRequestParams::new("2025-03-26", mcp::ClientCapabilities::default(), mcp::Implementation::new("c", "1"));
    c.request(mcp::InitializeRequest::new(params, mcp::RequestId::Integer(0)), Instant::now(), None).unwrap();
    let _ = c.poll_transmit();
    let batch = br#"[{"jsonrpc":"2.0","id":"p","method":"ping"},{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}]"#;
    c.handle_line(batch).unwrap();
    // Before the session's version is known, a batch is refused.
    let refused: Value = serde_json::from_slice(&c.poll_transmit().unwrap().line).unwrap();
    assert_eq!(refused["error"]["code"], json!(-32600));
    c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#).unwrap();
    c.handle_line(batch).unwrap();
    let answer: Value = serde_json::from_slice(&c.poll_transmit().unwrap().line).unwrap();
    assert_eq!(answer, json!([{"jsonrpc": "2.0", "id": "p", "result": {}}]));
}
