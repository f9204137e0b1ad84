//! A server's lines with the client request each belongs to (`Transmit::request`), as a
//! transport with a channel per request (Streamable HTTP) routes them.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::*;
use mcp_spec_types::v2025_11_25::{CreateMessageRequest, CreateMessageRequestParams, PingRequest, RequestId, Role, SamplingMessage, TextContent};

fn info() -> ServerInfo {
    ServerInfo::new("s", "1").versions(&["2025-11-25"]).capabilities(&json!({"logging": {}, "tools": {}})).unwrap()
}

fn send(s: &mut Server, message: Value) {
    s.handle_line(message.to_string().as_bytes()).unwrap();
}

fn routed(s: &mut Server) -> Vec<(Value, Option<Id>)> {
    std::iter::from_fn(|| s.poll_transmit()).map(|t| (serde_json::from_slice(&t.line).expect("the engine writes JSON"), t.request)).collect()
}

/// A 2025-11-25 session whose client declared sampling, `notifications/initialized` sent.
fn session() -> Server {
    let mut s = Server::with_info(Config::default(), info());
    send(&mut s, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "c", "version": "1"}}}));
    s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    assert_eq!(routed(&mut s).into_iter().map(|(_, id)| id).collect::<Vec<_>>(), [Some(Id::Number(0))]);
    while s.poll_event().is_some() {}
    s
}

fn call(id: Value, token: Option<i64>) -> Value {
    let mut params = json!({"name": "t"});
    if let Some(token) = token {
        params["_meta"] = json!({"progressToken": token});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn sampling() -> CreateMessageRequest {
    let message = SamplingMessage::new(Role::User, TextContent::new("hi").into());
    CreateMessageRequest::new(CreateMessageRequestParams::new(vec![message], 10), RequestId::Integer(0))
}

#[test]
fn each_line_names_the_request_it_belongs_to() {
    let mut s = session();
    let (seven, a) = (Id::Number(7), Id::String("a".into()));
    send(&mut s, call(json!(7), Some(70)));
    send(&mut s, call(json!("a"), None));
    s.log(LogLevel::Info, None, &"session").unwrap();
    s.log_for(&seven, LogLevel::Info, None, &"for 7").unwrap();
    s.progress(&seven, 1.0, None, None).unwrap();
    let handle = s.request_for(&seven, sampling(), Instant::now(), None).unwrap();
    s.notify(&mcp_spec_types::v2025_11_25::ToolListChangedNotification::default()).unwrap();
    s.respond(&a, &json!({"content": []})).unwrap();
    s.respond_error(&seven, &RpcError { code: -1, message: "no".into(), data: None }).unwrap();
    let out = routed(&mut s);
    let got: Vec<(&str, Option<Id>)> = out.iter().map(|(v, id)| (v["method"].as_str().unwrap_or(if v.get("error").is_some() { "error" } else { "result" }), id.clone())).collect();
    assert_eq!(
        got,
        [
            ("notifications/message", None),
            ("notifications/message", Some(seven.clone())),
            ("notifications/progress", Some(seven.clone())),
            ("sampling/createMessage", Some(seven.clone())),
            ("notifications/tools/list_changed", None),
            ("result", Some(a)),
            ("error", Some(seven)),
        ]
    );
    assert_eq!(out[3].0["id"], json!(handle.id()));
}

#[test]
fn poll_transmit_drains_one_queue_in_order() {
    let mut s = session();
    for id in 1..=3 {
        send(&mut s, json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
    }
    for id in 1..=3 {
        let t = s.poll_transmit().unwrap();
        assert_eq!((serde_json::from_slice::<Value>(&t.line).unwrap()["id"].clone(), t.request), (json!(id), Some(Id::Number(id))));
    }
    assert!(s.poll_transmit().is_none());
}

#[test]
fn the_engine_s_own_answers_name_their_request() {
    let mut s = session();
    // `ping`, a malformed request with an id, a duplicate id, a params error: each for its request.
    send(&mut s, json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}));
    send(&mut s, json!({"jsonrpc": "2.0", "id": 4, "method": 5}));
    send(&mut s, call(json!(8), None));
    send(&mut s, call(json!(8), None));
    send(&mut s, json!({"jsonrpc": "2.0", "id": 9, "method": "logging/setLevel", "params": {"level": "loud"}}));
    // Not JSON: no id to name, so the session's.
    s.handle_line(b"{not json").unwrap();
    let ids: Vec<Option<Id>> = routed(&mut s).into_iter().map(|(_, id)| id).collect();
    assert_eq!(ids, [Some(Id::String("p".into())), Some(Id::Number(4)), Some(Id::Number(8)), Some(Id::Number(9)), None]);
}

#[test]
fn the_cancellation_of_a_request_for_a_request_goes_with_it() {
    let mut s = session();
    let now = Instant::now();
    send(&mut s, call(json!(7), None));
    let asked = s.request_for(&Id::Number(7), PingRequest::new(RequestId::Integer(0)), now, None).unwrap();
    let timed = s.request_for(&Id::Number(7), PingRequest::new(RequestId::Integer(0)), now, Some(Duration::from_secs(1))).unwrap();
    let plain = s.request(PingRequest::new(RequestId::Integer(0)), now, Some(Duration::from_secs(1))).unwrap();
    routed(&mut s);
    s.cancel(&asked, Some("done")).unwrap();
    s.handle_timeout(now + Duration::from_secs(2));
    let mut out = routed(&mut s);
    out.sort_by_key(|(v, _)| v["params"]["requestId"].as_i64());
    let got: Vec<(Value, Option<Id>)> = out.into_iter().map(|(v, id)| (v["params"]["requestId"].clone(), id)).collect();
    assert_eq!(got, [(json!(asked.id()), Some(Id::Number(7))), (json!(timed.id()), Some(Id::Number(7))), (json!(plain.id()), None)]);
}

#[test]
fn a_request_for_a_request_needs_it_in_flight_and_the_session_ready() {
    let mut s = session();
    let now = Instant::now();
    assert_eq!(s.request_for(&Id::Number(7), sampling(), now, None).unwrap_err(), Error::UnknownRequest);
    send(&mut s, call(json!(7), None));
    routed(&mut s);
    s.respond(&Id::Number(7), &json!({"content": []})).unwrap();
    assert_eq!(s.request_for(&Id::Number(7), sampling(), now, None).unwrap_err(), Error::UnknownRequest);
    assert_eq!(routed(&mut s).len(), 1, "only the answer");
    // Before `notifications/initialized`, and for a capability the client did not declare, as `request`.
    let mut early = Server::with_info(Config::default(), info());
    send(&mut early, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}));
    send(&mut early, call(json!(1), None));
    assert_eq!(early.request_for(&Id::Number(1), sampling(), now, None).unwrap_err(), Error::NotInitialized);
    early.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    assert_eq!(early.request_for(&Id::Number(1), sampling(), now, None).unwrap_err(), Error::NotDeclared { capability: "sampling" });
    // No room: refused, nothing written, nothing pending.
    let mut full = Server::with_info(Config { max_pending: 1, ..Config::default() }, info());
    send(&mut full, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}));
    full.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    send(&mut full, call(json!(1), None));
    full.request(PingRequest::new(RequestId::Integer(0)), now, None).unwrap();
    routed(&mut full);
    assert_eq!(full.request_for(&Id::Number(1), PingRequest::new(RequestId::Integer(0)), now, None).unwrap_err(), Error::PendingFull { cap: 1 });
    assert!(full.poll_transmit().is_none());
}

#[test]
fn a_client_names_the_server_request_its_answer_is_for() {
    let mut c = Client::new(Config::default());
    let capabilities = json!({"sampling": {}});
    c.request(mcp_spec_types::v2025_11_25::InitializeRequest::new(serde_json::from_value(json!({"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "c", "version": "1"}})).unwrap(), RequestId::Integer(0)), Instant::now(), None).unwrap();
    let own = c.poll_transmit().unwrap();
    assert_eq!(own.request, None);
    c.handle_line(br#"{"jsonrpc":"2.0","id":"s-1","method":"ping"}"#).unwrap();
    let answer = c.poll_transmit().unwrap();
    assert_eq!((serde_json::from_slice::<Value>(&answer.line).unwrap()["id"].clone(), answer.request), (json!("s-1"), Some(Id::String("s-1".into()))));
}

/// `Request::read` reads the `params` the engine kept as the crate's reader reads the line: the
/// same typed request, unknown keys and `_meta` included (no round trip through text to lose them).
#[test]
fn a_request_reads_as_its_line_reads() {
    use mcp_spec_types::v2025_11_25::CallToolRequest;
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 40.5, "c": [1, {"d": null}]}}}),
        json!({"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {"name": "t", "_meta": {"progressToken": 7, "vendor/k": {"deep": true}}, "extraKey": [1, 2]}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "big", "arguments": {"n": 18446744073709551615u64, "f": 1e300}}}),
    ];
    let (mut same, mut differ) = (0, 0);
    for line in lines {
        let mut s = session();
        let text = line.to_string();
        s.handle_line(text.as_bytes()).unwrap();
        let Some(Event::Request(request)) = s.poll_event() else { panic!("no request for {line}") };
        let read: CallToolRequest = request.read().unwrap();
        let expected: CallToolRequest = mcp_spec_types::from_slice(text.as_bytes()).unwrap();
        if serde_json::to_value(&read).unwrap() == serde_json::to_value(&expected).unwrap() { same += 1 } else { differ += 1 }
    }
    println!("{same} read as their line, {differ} differ");
    assert_eq!(differ, 0);
}
