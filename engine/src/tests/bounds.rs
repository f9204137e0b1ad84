//! The in-flight table bounded by bytes: ids and progress tokens past `Config::max_id_len`
//! refused with -32600, and the table's weight past `Config::max_in_flight_bytes` with -32603.

use serde_json::{json, Value};

use super::*;

fn send(s: &mut Server, message: Value) {
    s.handle_line(message.to_string().as_bytes()).unwrap();
}

fn written(s: &mut Server) -> Vec<Value> {
    std::iter::from_fn(|| s.poll_transmit()).map(|t| serde_json::from_slice(&t.line).expect("the engine writes JSON")).collect()
}

/// A session of `version`, initialized, queues drained.
fn session(config: Config, version: &str) -> Server {
    let mut s = Server::with_info(config, ServerInfo::new("s", "1").versions(&[version]).capabilities(&json!({"tools": {}})).unwrap());
    send(&mut s, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}));
    send(&mut s, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    written(&mut s);
    while s.poll_event().is_some() {}
    s
}

fn call(id: Value, token: Option<&str>) -> Value {
    let mut params = json!({"name": "t"});
    if let Some(token) = token {
        params["_meta"] = json!({"progressToken": token});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[test]
fn an_id_past_the_bound_is_invalid_request_with_a_null_id_and_never_kept() {
    for (version, id_key) in [("2025-06-18", Some(Value::Null)), ("2025-11-25", None)] {
        let mut s = session(Config::default(), version);
        let long = "i".repeat(64 << 10);
        for n in 0..300 {
            send(&mut s, call(json!(format!("{long}{n}")), None));
        }
        let out = written(&mut s);
        assert_eq!(out.len(), 300);
        for answer in &out {
            assert_eq!(answer["error"]["code"], json!(-32600), "{answer}");
            assert_eq!(answer.get("id").cloned(), id_key, "{version}: the long id is not written back");
            assert!(answer.to_string().len() < 200);
        }
        assert_eq!(s.in_flight(), 0);
        assert!(std::iter::from_fn(|| s.poll_event()).all(|e| matches!(e, Event::Dropped(Dropped::Malformed(_)))));
    }
}

#[test]
fn ids_and_tokens_at_the_bound_pass_and_longer_tokens_are_refused_with_the_id() {
    let mut s = session(Config::default(), "2025-11-25");
    let uuid = "0b0e3c52-5b0f-4a8e-9a47-2f5c8d9e1a10";
    send(&mut s, call(json!(uuid), Some(uuid)));
    send(&mut s, call(json!("i".repeat(256)), Some(&"t".repeat(256))));
    send(&mut s, call(json!(u64::MAX >> 1), None));
    assert_eq!(s.in_flight(), 3);
    send(&mut s, call(json!(7), Some(&"t".repeat(257))));
    let out = written(&mut s);
    assert_eq!((out.len(), out[0]["id"].clone(), out[0]["error"]["code"].clone()), (1, json!(7), json!(-32600)), "{out:?}");
    assert_eq!(s.in_flight(), 3);
}

#[test]
fn the_in_flight_table_is_bounded_by_bytes() {
    let config = Config { max_in_flight_bytes: 4096, ..Config::default() };
    let mut s = session(config, "2025-11-25");
    // Each request weighs its id (200 bytes), its token (202) and its method (10): 9 fit in 4096.
    for n in 0..20 {
        send(&mut s, call(json!(format!("{n:0>200}")), Some(&format!("{n:0>200}"))));
    }
    assert_eq!(s.in_flight(), 9);
    let out = written(&mut s);
    assert_eq!(out.len(), 11);
    assert!(out.iter().all(|a| a["error"]["code"] == json!(mcp_spec_types::rpc::INTERNAL_ERROR)), "{out:?}");
    // Answering one makes room for one more.
    let first = std::iter::from_fn(|| s.poll_event()).find_map(|e| if let Event::Request(r) = e { Some(r) } else { None }).unwrap();
    s.respond(&first.id, &json!({"content": []})).unwrap();
    send(&mut s, call(json!("again"), None));
    assert_eq!(s.in_flight(), 9);
}
