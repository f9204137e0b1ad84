//! The engine driven with byte strings and a fake clock (instants made by adding to one `now`).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::*;

fn json_of(line: Vec<u8>) -> Value {
    serde_json::from_slice(&line).expect("the engine writes JSON")
}

fn written(engine: &mut Client) -> Vec<Value> {
    std::iter::from_fn(|| engine.poll_transmit()).map(|t| json_of(t.line)).collect()
}

fn events(engine: &mut Client) -> Vec<Event> {
    std::iter::from_fn(|| engine.poll_event()).collect()
}

/// A xorshift sequence from `seed`: the same on every run, with no dependency.
pub(super) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Up to `edits - 1` random edits of `line`: a byte changed, the line cut, a JSON character put in.
pub(super) fn mangle(line: &mut Vec<u8>, edits: u64, next: &mut impl FnMut() -> u64) {
    for _ in 0..next() % edits {
        let at = (next() % line.len() as u64) as usize;
        match next() % 3 {
            0 => line[at] = next() as u8,
            1 => line.truncate(at),
            _ => line.insert(at, b"{}[]\",:0-e\\"[(next() % 11) as usize]),
        }
        if line.is_empty() {
            break;
        }
    }
}

#[cfg(all(feature = "v2025-11-25", feature = "v2026-07-28"))]
mod per_request;
#[cfg(feature = "v2025-11-25")]
mod routed;
#[cfg(feature = "v2025-11-25")]
mod bounds;
#[cfg(feature = "v2025-11-25")]
mod batch;
mod server_role;
mod tree_read;

#[cfg(feature = "v2025-11-25")]
mod client {
    use super::*;
    use mcp_spec_types::v2025_11_25::{self as mcp, CallToolRequest, CallToolRequestParams, InitializeRequest, ListToolsRequest, PingRequest, RequestId};

    fn initialize(capabilities: mcp::ClientCapabilities) -> InitializeRequest {
        let params = mcp::InitializeRequestParams::new(mcp::LATEST_PROTOCOL_VERSION, capabilities, mcp::Implementation::new("t", "1"));
        InitializeRequest::new(params, RequestId::Integer(0))
    }

    fn call(name: &str) -> CallToolRequest {
        CallToolRequest::new(CallToolRequestParams::new(name), RequestId::Integer(0))
    }

    #[test]
    fn answers_match_their_requests_in_any_order() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let tools = c.request(ListToolsRequest::new(RequestId::Integer(99)), now, None).unwrap();
        let add = c.request(call("add"), now, None).unwrap();
        let out = written(&mut c);
        assert_eq!(out[0], json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        assert_eq!((out[1]["id"].clone(), out[1]["params"]["name"].clone()), (json!(2), json!("add")));
        c.handle_line(br#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"42"}]}}"#).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}"#).unwrap();
        let got = events(&mut c);
        let [Event::Answer(first), Event::Answer(second)] = <[Event; 2]>::try_from(got).unwrap() else { panic!() };
        assert!(!tools.answers(&first) && add.answers(&first));
        // The wrong handle gives the answer back.
        let Err(RequestError::OtherRequest(first)) = tools.read(first) else { panic!() };
        assert_eq!(add.read(first).unwrap().content.len(), 1);
        assert_eq!(tools.read(second).unwrap().tools[0].name, "add");
        assert_eq!(c.pending(), 0);
    }

    #[test]
    fn notifications_between_request_and_answer_are_events_of_their_own() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let tools = c.request(ListToolsRequest::new(RequestId::Integer(0)), now, None).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}"#).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#).unwrap();
        let got = events(&mut c);
        assert_eq!(got[0], Event::Notification { method: "notifications/tools/list_changed".into(), params: None });
        assert!(matches!(&got[1], Event::Notification { method, params: Some(p) } if method == "notifications/message" && p["data"] == "hi"));
        let Event::Answer(a) = got[2].clone() else { panic!("{got:?}") };
        assert!(tools.read(a).unwrap().tools.is_empty());
    }

    #[test]
    fn server_ping_is_answered_unless_the_application_takes_it() {
        let mut c = Client::new(Config::default());
        c.handle_line(br#"{"jsonrpc":"2.0","id":"p1","method":"ping"}"#).unwrap();
        assert_eq!(written(&mut c), [json!({"jsonrpc": "2.0", "id": "p1", "result": {}})]);
        assert!(events(&mut c).is_empty());

        let mut c = Client::new(Config { take_ping: true, ..Config::default() });
        c.handle_line(br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#).unwrap();
        assert!(written(&mut c).is_empty());
        let [Event::Request(r)] = <[Event; 1]>::try_from(events(&mut c)).unwrap() else { panic!() };
        assert_eq!(r.read::<PingRequest>().unwrap().id, RequestId::Integer(5));
        assert_eq!(c.respond(&r.id, &json!({})).unwrap(), Sent::Written);
        assert_eq!(written(&mut c), [json!({"jsonrpc": "2.0", "id": 5, "result": {}})]);
        // Answered once only.
        assert_eq!(c.respond(&r.id, &json!({})), Err(Error::UnknownRequest));
    }

    #[test]
    fn undeclared_sampling_is_refused_and_declared_sampling_offered() {
        let sampling = br#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#;
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        c.request(initialize(mcp::ClientCapabilities::default()), now, None).unwrap();
        written(&mut c);
        c.handle_line(sampling).unwrap();
        let out = written(&mut c);
        assert_eq!((out[0]["id"].clone(), out[0]["error"]["code"].clone()), (json!(7), json!(-32601)), "{out:?}");
        c.handle_line(br#"{"jsonrpc":"2.0","id":8,"method":"roots/list"}"#).unwrap();
        assert_eq!(written(&mut c)[0]["error"]["code"], -32601);
        assert!(events(&mut c).is_empty());

        let mut c = Client::new(Config::default());
        let capabilities = mcp::ClientCapabilities { sampling: Some(Default::default()), ..Default::default() };
        c.request(initialize(capabilities), now, None).unwrap();
        written(&mut c);
        c.handle_line(sampling).unwrap();
        assert!(written(&mut c).is_empty());
        let [Event::Request(r)] = <[Event; 1]>::try_from(events(&mut c)).unwrap() else { panic!() };
        assert_eq!(r.read::<mcp::CreateMessageRequest>().unwrap().params.max_tokens, 5);
    }

    #[test]
    fn a_cancelled_request_writes_cancelled_and_its_late_answer_is_dropped() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let slow = c.request(call("slow"), now, None).unwrap();
        written(&mut c);
        c.cancel(&slow, Some("user")).unwrap();
        assert_eq!(written(&mut c), [json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user"}})]);
        assert_eq!(c.cancel(&slow, None), Err(Error::NotPending));
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).unwrap();
        assert_eq!(events(&mut c), [Event::Dropped(Dropped::AfterCancel(1))]);
        // initialize is never cancelled.
        let init = c.request(initialize(Default::default()), now, None).unwrap();
        assert_eq!(c.cancel(&init, None), Err(Error::CancelInitialize));
    }

    #[test]
    fn a_request_past_its_deadline_times_out_and_is_cancelled() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let short = c.request(call("a"), now, Some(Duration::from_secs(1))).unwrap();
        let _long = c.request(call("b"), now, Some(Duration::from_secs(5))).unwrap();
        let _never = c.request(call("c"), now, None).unwrap();
        written(&mut c);
        assert_eq!(c.poll_timeout(), Some(now + Duration::from_secs(1)));
        c.handle_timeout(now + Duration::from_millis(999));
        assert!(events(&mut c).is_empty());
        c.handle_timeout(now + Duration::from_secs(1));
        let [Event::Answer(a)] = <[Event; 1]>::try_from(events(&mut c)).unwrap() else { panic!() };
        assert_eq!(short.read(a), Err(RequestError::TimedOut));
        assert_eq!(written(&mut c), [json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "timed out"}})]);
        assert_eq!(c.poll_timeout(), Some(now + Duration::from_secs(5)));
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).unwrap();
        assert_eq!(events(&mut c), [Event::Dropped(Dropped::AfterCancel(1))]);
    }

    #[test]
    fn progress_after_a_cancellation_is_named_so() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let slow = c.request_with_progress(call("slow"), now, None).unwrap();
        let timed = c.request_with_progress(call("t"), now, Some(Duration::from_secs(1))).unwrap();
        c.cancel(&slow, None).unwrap();
        c.handle_timeout(now + Duration::from_secs(1));
        events(&mut c);
        for token in [slow.id(), timed.id(), 9] {
            let line = format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},"progress":1}}}}"#);
            c.handle_line(line.as_bytes()).unwrap();
        }
        let got = events(&mut c);
        assert_eq!(got, [Event::Dropped(Dropped::ProgressAfterCancel(1)), Event::Dropped(Dropped::ProgressAfterCancel(2)), Event::Dropped(Dropped::UnknownProgressToken(json!(9)))]);
    }

    #[test]
    fn progress_is_tied_to_the_request_that_asked_for_it() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let plain = c.request(call("a"), now, None).unwrap();
        let counted = c.request_with_progress(call("count"), now, None).unwrap();
        let out = written(&mut c);
        assert_eq!(out[1]["params"]["_meta"]["progressToken"], json!(counted.id()));
        c.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1,"total":3}}"#).unwrap();
        // The plain request asked for none: its id is no token.
        let line = format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{},"progress":1}}}}"#, plain.id());
        c.handle_line(line.as_bytes()).unwrap();
        let got = events(&mut c);
        assert!(matches!(&got[0], Event::Progress { request: 2, params } if params["total"] == 3));
        assert_eq!(got[1], Event::Dropped(Dropped::UnknownProgressToken(json!(1))));
    }

    #[test]
    fn the_pending_table_is_bounded() {
        let (mut c, now) = (Client::new(Config { max_pending: 2, ..Config::default() }), Instant::now());
        let first = c.request(call("a"), now, None).unwrap();
        c.request(call("b"), now, None).unwrap();
        assert_eq!(c.request(call("c"), now, None).unwrap_err(), Error::PendingFull { cap: 2 });
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).unwrap();
        let Some(Event::Answer(a)) = c.poll_event() else { panic!() };
        first.read(a).unwrap();
        c.request(call("c"), now, None).unwrap();
    }

    #[test]
    fn the_queues_are_bounded_and_a_refused_line_can_be_handed_in_again() {
        let mut c = Client::new(Config { max_queued: 2, ..Config::default() });
        let note = br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
        c.handle_line(note).unwrap();
        c.handle_line(note).unwrap();
        assert_eq!(c.handle_line(note), Err(Error::QueueFull { cap: 2 }));
        c.poll_event().unwrap();
        c.handle_line(note).unwrap();
        assert_eq!(events(&mut c).len(), 2);
        // Unanswered pings fill the queue of lines to write.
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).unwrap();
        assert_eq!(c.handle_line(br#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#), Err(Error::QueueFull { cap: 2 }));
        assert_eq!(c.request(call("a"), Instant::now(), None).unwrap_err(), Error::QueueFull { cap: 2 });
    }

    #[test]
    fn the_in_flight_table_is_bounded() {
        let mut c = Client::new(Config { max_in_flight: 1, take_ping: true, ..Config::default() });
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).unwrap();
        let out = written(&mut c);
        assert_eq!((out[0]["id"].clone(), out[0]["error"]["code"].clone()), (json!(2), json!(-32603)));
        // A second request with an id already in flight is refused, not offered twice.
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
        assert_eq!(written(&mut c)[0]["error"]["code"], -32600);
        assert_eq!(events(&mut c).len(), 1);
    }

    #[test]
    fn garbage_lines_are_events_with_a_reason() {
        let mut c = Client::new(Config::default());
        let lines: &[&[u8]] = &[
            b"",
            b"{",
            b"\xff\xfe",
            b"[]",
            b"42",
            br#"{"jsonrpc":"2.0"}"#,
            br#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#,
            br#"{"jsonrpc":"2.0","method":7}"#,
            br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","method":"x","params":[1]}"#,
            br#"{"jsonrpc":"2.0","id":"nobody","result":{}}"#,
            br#"{"jsonrpc":"2.0","id":12,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        ];
        for line in lines {
            c.handle_line(line).unwrap();
        }
        let got = events(&mut c);
        assert_eq!(got.len(), lines.len(), "{got:?}");
        assert!(got.iter().all(|e| matches!(e, Event::Dropped(_))), "{got:?}");
        assert!(matches!(got[1], Event::Dropped(Dropped::NotJson(_))));
        assert_eq!(got[13], Event::Dropped(Dropped::UnknownId(Id::String("nobody".into()))));
        assert_eq!(got[14], Event::Dropped(Dropped::UnknownId(Id::Number(12))));
        assert!(matches!(&got[15], Event::Dropped(Dropped::ErrorWithoutId(e)) if e.code == -32700), "{got:?}");
        // Answered without an id (no version known: the newest versions' `id?`), as
        // `rpc::read_message` decides: what is not JSON (-32700), and what is no message or a
        // request whose id does not read (-32600). Responses and notifications get no answer.
        let out = written(&mut c);
        assert!(out.iter().all(|o| o.get("id").is_none()), "{out:?}");
        let codes: Vec<i64> = out.iter().map(|o| o["error"]["code"].as_i64().unwrap()).collect();
        assert_eq!(codes, [-32700, -32700, -32700, -32600, -32600, -32600, -32600], "{out:?}");
    }

    #[test]
    fn a_result_of_the_wrong_shape_is_an_error_of_the_handle_not_a_panic() {
        let (mut c, now) = (Client::new(Config::default()), Instant::now());
        let tools = c.request(ListToolsRequest::new(RequestId::Integer(0)), now, None).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":"no"}}"#).unwrap();
        let Some(Event::Answer(a)) = c.poll_event() else { panic!() };
        assert!(matches!(tools.read(a), Err(RequestError::Unreadable(_))));
        let other = c.request(ListToolsRequest::new(RequestId::Integer(0)), now, None).unwrap();
        c.handle_line(br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}"#).unwrap();
        let Some(Event::Answer(a)) = c.poll_event() else { panic!() };
        assert!(matches!(other.read(a), Err(RequestError::Rpc(RpcError { code: -32601, .. }))));
    }
}

#[cfg(feature = "v2025-11-25")]
mod server {
    use super::*;

    fn drain(s: &mut Server) -> (Vec<Value>, Vec<Event>) {
        (std::iter::from_fn(|| s.poll_transmit()).map(|t| json_of(t.line)).collect(), std::iter::from_fn(|| s.poll_event()).collect())
    }

    fn started() -> Server {
        let mut s = Server::new(Config::default());
        s.handle_line(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#).unwrap();
        let (_, events) = drain(&mut s);
        let [Event::Request(r)] = <[Event; 1]>::try_from(events).unwrap() else { panic!() };
        s.respond(&r.id, &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
        drain(&mut s);
        assert!(s.is_initialized());
        s
    }

    #[test]
    fn before_initialize_only_ping_is_answered() {
        let mut s = Server::new(Config::default());
        s.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).unwrap();
        let (out, events) = drain(&mut s);
        assert_eq!(out[0]["error"]["code"], -32600);
        assert_eq!(out[1], json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
        assert!(events.is_empty());
        // Still refused while initialize waits for its answer.
        s.handle_line(br#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#).unwrap();
        let (out, events) = drain(&mut s);
        assert_eq!((out.len(), out[0]["id"].clone(), out[0]["error"]["code"].clone()), (1, json!(4), json!(-32600)));
        // An error to initialize: initialize may come again.
        s.respond_error(&Id::Number(3), &RpcError { code: -32602, message: "version".into(), data: None }).unwrap();
        assert_eq!(events.len(), 1);
        s.handle_line(br#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#).unwrap();
        let (out, events) = drain(&mut s);
        assert_eq!((out.len(), events.len()), (1, 1));
        s.respond(&Id::Number(5), &json!({})).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#).unwrap();
        let (out, events) = drain(&mut s);
        assert_eq!(out[1]["error"]["code"], -32600);
        assert!(matches!(&events[..], [Event::Request(r)] if r.method == "tools/list"));
    }

    #[test]
    fn initialize_is_not_cancelled() {
        let mut s = Server::new(Config::default());
        s.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#).unwrap();
        assert_eq!(s.respond(&Id::Number(1), &json!({})), Ok(Sent::Written));
        let (out, events) = drain(&mut s);
        assert_eq!((out.len(), events.len()), (1, 1), "{events:?}");
        assert!(s.is_initialized());
    }

    #[test]
    fn a_cancelled_request_sends_neither_progress_nor_result() {
        let mut s = started();
        s.handle_line(br#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"count","_meta":{"progressToken":"tok"}}}"#).unwrap();
        let id = Id::String("c".into());
        assert_eq!(s.progress(&id, 1.0, Some(3.0), None), Ok(Sent::Written));
        s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c","reason":"enough"}}"#).unwrap();
        let (out, events) = drain(&mut s);
        assert_eq!(out, [json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "tok", "progress": 1.0, "total": 3.0}})]);
        assert_eq!(events[1], Event::Cancelled { id: id.clone(), reason: Some("enough".into()) });
        assert_eq!(s.progress(&id, 2.0, None, None), Ok(Sent::Dropped));
        assert_eq!(s.respond(&id, &json!({"content": []})), Ok(Sent::Dropped));
        assert_eq!(drain(&mut s), (vec![], vec![]));
        assert_eq!(s.in_flight(), 0);
        // A second cancellation, or one for an unknown id, is ignored.
        s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}"#).unwrap();
        assert_eq!(drain(&mut s), (vec![], vec![]));
    }

    #[test]
    fn progress_needs_the_token_and_must_increase() {
        let mut s = started();
        s.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}"#).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b","_meta":{"progressToken":9}}}"#).unwrap();
        assert_eq!(s.progress(&Id::Number(1), 1.0, None, None), Err(Error::NoProgressToken));
        assert_eq!(s.progress(&Id::Number(2), 1.0, None, Some("one")), Ok(Sent::Written));
        assert_eq!(s.progress(&Id::Number(2), 1.0, None, None), Err(Error::ProgressNotIncreasing { last: Some(1.0), next: 1.0 }));
        assert!(s.progress(&Id::Number(2), f64::NAN, None, None).is_err());
        assert_eq!(s.progress(&Id::Number(2), 1.5, None, None), Ok(Sent::Written));
        assert_eq!(s.progress(&Id::Number(3), 1.0, None, None), Err(Error::UnknownRequest));
        let (out, _) = drain(&mut s);
        assert_eq!(out.iter().map(|o| o["params"]["progressToken"].clone()).collect::<Vec<_>>(), [json!(9), json!(9)]);
        assert_eq!(out[0]["params"]["message"], "one");
        s.respond(&Id::Number(2), &json!({"content": []})).unwrap();
        assert_eq!(s.progress(&Id::Number(2), 2.0, None, None), Err(Error::UnknownRequest));
    }

    #[test]
    fn a_line_that_is_not_json_is_answered_with_the_id_its_version_allows() {
        // No version yet, and from 2025-11-25 on: the error's `id` is optional and never null.
        let mut s = Server::new(Config::default());
        s.handle_line(b"{not json").unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"x"}"#).unwrap();
        let (out, events) = drain(&mut s);
        assert_eq!(out[0], json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}));
        assert_eq!((out[1]["id"].clone(), out[1]["error"]["code"].clone()), (json!(4), json!(-32600)));
        assert!(events.iter().all(|e| matches!(e, Event::Dropped(_))));
        // Before 2025-11-25 an error needs an id: JSON-RPC's null is the one left.
        for (version, id) in [("2025-06-18", Some(Value::Null)), ("2025-11-25", None)] {
            let mut s = Server::new(Config::default());
            let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
            s.handle_line(init.to_string().as_bytes()).unwrap();
            drain(&mut s);
            s.respond(&Id::Number(1), &json!({"protocolVersion": version, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
            s.handle_line(b"{not json").unwrap();
            let (out, _) = drain(&mut s);
            assert_eq!(out.last().unwrap().get("id").cloned(), id, "{version}: {out:?}");
        }
    }
}

// Valid lines with bytes changed, cut and inserted, fed to both roles with requests, timeouts,
// answers and progress in between: nothing panics and no table outgrows its bound.
#[cfg(feature = "v2025-11-25")]
#[test]
fn mangled_lines_never_panic() {
    use mcp_spec_types::v2025_11_25::{PingRequest, RequestId};
    let lines: &[&[u8]] = &[
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"sampling":{}}}}"#,
        br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}"#,
        br#"{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no","data":[1,{"a":null}]}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"r"}}"#,
        br#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"_meta":{"progressToken":"t"}}}"#,
    ];
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let now = Instant::now();
    let mut client = Client::new(Config { max_pending: 8, max_in_flight: 4, max_cancelled: 4, max_queued: 16, take_ping: false, ..Config::default() });
    let mut server = Server::new(Config { max_in_flight: 4, max_queued: 16, ..Config::default() });
    for round in 0..20_000u64 {
        let mut line = lines[(next() % lines.len() as u64) as usize].to_vec();
        mangle(&mut line, 4, &mut next);
        let _ = client.request(PingRequest::new(RequestId::Integer(0)), now, Some(Duration::from_millis(round % 7)));
        client.handle_line(&line).unwrap();
        server.handle_line(&line).unwrap();
        client.handle_timeout(now + Duration::from_millis(round % 5));
        while let Some(event) = client.poll_event() {
            if let Event::Request(r) = event {
                let _ = client.respond(&r.id, &json!({}));
            }
        }
        while let Some(event) = server.poll_event() {
            if let Event::Request(r) = event {
                let _ = server.progress(&r.id, (round % 3) as f64, None, None);
                let _ = server.respond(&r.id, &json!({}));
            }
        }
        while client.poll_transmit().is_some() {}
        while server.poll_transmit().is_some() {}
        assert!(client.pending() <= 8 && server.in_flight() <= 4);
    }
}

#[cfg(feature = "v2025-11-25")]
mod server_requests {
    use super::*;
    use mcp_spec_types::v2025_11_25::{self as mcp, ListRootsRequest, PingRequest, RequestId};

    fn initialized(capabilities: Value) -> Server {
        let mut s = Server::new(Config::default());
        let line = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "c", "version": "1"}}});
        s.handle_line(line.to_string().as_bytes()).unwrap();
        s.respond(&Id::Number(0), &json!({})).unwrap();
        s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        while s.poll_transmit().is_some() {}
        while s.poll_event().is_some() {}
        s
    }

    #[test]
    fn a_server_asks_only_for_what_the_client_declared() {
        let now = Instant::now();
        let mut fresh = Server::new(Config::default());
        assert_eq!(fresh.request(ListRootsRequest::new(RequestId::Integer(0)), now, None).unwrap_err(), Error::NotInitialized);
        fresh.request(PingRequest::new(RequestId::Integer(0)), now, None).unwrap();

        let mut s = initialized(json!({}));
        assert_eq!(s.request(ListRootsRequest::new(RequestId::Integer(0)), now, None).unwrap_err(), Error::NotDeclared { capability: "roots" });
        let mut s = initialized(json!({"roots": {"listChanged": true}}));
        let roots = s.request(ListRootsRequest::new(RequestId::Integer(0)), now, Some(Duration::from_secs(1))).unwrap();
        let sent = json_of(s.poll_transmit().unwrap().line);
        assert_eq!((sent["method"].clone(), sent["id"].clone()), (json!("roots/list"), json!(1)));
        s.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///w"}]}}"#).unwrap();
        let Some(Event::Answer(a)) = s.poll_event() else { panic!() };
        let result: mcp::ListRootsResult = roots.read(a).unwrap();
        assert_eq!(result.roots[0].uri, "file:///w");
        // A second one times out and is cancelled like a client's.
        let again = s.request(ListRootsRequest::new(RequestId::Integer(0)), now, Some(Duration::from_secs(1))).unwrap();
        s.poll_transmit().unwrap();
        assert_eq!(s.poll_timeout(), Some(now + Duration::from_secs(1)));
        s.handle_timeout(now + Duration::from_secs(2));
        let Some(Event::Answer(a)) = s.poll_event() else { panic!() };
        assert_eq!(again.read(a), Err(RequestError::TimedOut));
        assert_eq!(json_of(s.poll_transmit().unwrap().line)["method"], "notifications/cancelled");
    }
}
