//! The client of a per-request version (2026-07-28): `_meta` on every request, no `initialize`,
//! `server/discover`, InputRequiredResult and its retry, the unsupported-version fallback.

use super::*;
use mcp_spec_types::v2026_07_28::{self as mcp, CallToolRequest, CallToolRequestParams, ListToolsRequest, PaginatedRequestParams, RequestId, RequestMetaObject};

const V: &str = "2026-07-28";

fn client(capabilities: Value) -> Client {
    let per = PerRequest::new(V, &capabilities).unwrap().client_info(&json!({"name": "t", "version": "1"})).unwrap();
    Client::per_request(Config::default(), per)
}

fn call(name: &str) -> CallToolRequest {
    CallToolRequest::new(CallToolRequestParams::new(RequestMetaObject::default(), name), RequestId::Integer(0))
}

fn list() -> ListToolsRequest {
    ListToolsRequest::new(PaginatedRequestParams::new(RequestMetaObject::default()), RequestId::Integer(0))
}

fn line(v: Value) -> Vec<u8> {
    serde_json::to_vec(&v).unwrap()
}

fn input_required(id: i64, inputs: Value, state: Option<&str>) -> Vec<u8> {
    let mut result = json!({"resultType": "input_required", "inputRequests": inputs});
    if let Some(state) = state {
        result["requestState"] = json!(state);
    }
    line(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

fn elicit() -> Value {
    json!({"confirm": {"method": "elicitation/create", "params": {"message": "ok?", "requestedSchema": {"type": "object", "properties": {}}}}})
}

#[test]
fn every_request_carries_version_capabilities_and_info_and_there_is_no_initialize() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let v2025 = mcp_spec_types::v2025_11_25::InitializeRequest::new(
        mcp_spec_types::v2025_11_25::InitializeRequestParams::new(V, Default::default(), mcp_spec_types::v2025_11_25::Implementation::new("t", "1")),
        mcp_spec_types::v2025_11_25::RequestId::Integer(0),
    );
    assert_eq!(c.request(v2025, now, None).unwrap_err(), Error::NoInitialize);
    c.request(list(), now, None).unwrap();
    c.request(call("add"), now, None).unwrap();
    for sent in written(&mut c) {
        let meta = &sent["params"]["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], json!(V), "{sent}");
        assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"], json!({"elicitation": {}}));
        assert_eq!(meta["io.modelcontextprotocol/clientInfo"], json!({"name": "t", "version": "1"}));
        assert!(meta.get("io.modelcontextprotocol/logLevel").is_none());
        // What is written is a valid 2026-07-28 request.
        let report = mcp_spec_types::validate::validate_json::<mcp::ClientRequest>(&sent, &Default::default());
        assert!(report.is_valid(), "{sent}: {report:?}");
    }
    assert_eq!(c.protocol_version(), Some(V));
}

#[test]
#[allow(deprecated)] // logLevel is deprecated in 2026-07-28 (SEP-2577), and still in the schema.
fn the_log_level_goes_into_each_request_and_a_request_of_its_own_keeps_its() {
    let (mut c, now) = (client(json!({})), Instant::now());
    c.set_log_level(Some("debug"));
    c.request(list(), now, None).unwrap();
    let mut own = RequestMetaObject::default();
    own.io_modelcontextprotocol_log_level = Some(mcp::LoggingLevel::Error);
    c.request(CallToolRequest::new(CallToolRequestParams::new(own, "x"), RequestId::Integer(0)), now, None).unwrap();
    c.set_log_level(None);
    c.request(list(), now, None).unwrap();
    let out = written(&mut c);
    let level = |i: usize| out[i]["params"]["_meta"].get("io.modelcontextprotocol/logLevel").cloned();
    assert_eq!((level(0), level(1), level(2)), (Some(json!("debug")), Some(json!("error")), None));
}

#[test]
fn discover_is_a_typed_request() {
    let (mut c, now) = (client(json!({})), Instant::now());
    let discover = c.discover(now, None).unwrap();
    let sent = written(&mut c).remove(0);
    assert_eq!((sent["method"].clone(), sent["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].clone()), (json!("server/discover"), json!(V)));
    let answer = json!({"jsonrpc": "2.0", "id": discover.id(), "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
        "supportedVersions": [V], "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}});
    c.handle_line(&line(answer)).unwrap();
    let Some(Event::Answer(answer)) = c.poll_event() else { panic!() };
    assert_eq!(discover.read(answer).unwrap().supported_versions, vec![V.to_owned()]);
}

#[test]
fn a_result_without_result_type_is_complete() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let tool = c.request(call("plain"), now, None).unwrap();
    c.handle_line(&line(json!({"jsonrpc": "2.0", "id": tool.id(), "result": {"content": []}}))).unwrap();
    let [Event::Answer(answer)] = <[Event; 1]>::try_from(events(&mut c)).unwrap() else { panic!() };
    assert!(matches!(tool.read(answer), Ok(mcp::CallToolResultResponseResult::CallToolResult(_))));
}

#[test]
fn input_the_client_did_not_declare_or_cannot_give_fails_the_request() {
    let cases = [
        json!({"s": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}}}),
        json!({"p": {"method": "tools/list"}}),
        json!({"n": {"params": {}}}),
        json!({"x": {"method": "elicitation/create", "params": 3}}),
        // A key becomes an id: longer than `Config::max_id_len`, it is refused.
        json!({("k".repeat(257)): {"method": "elicitation/create", "params": {"message": "ok?", "requestedSchema": {"type": "object", "properties": {}}}}}),
    ];
    for inputs in cases {
        let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
        let tool = c.request(call("t"), now, None).unwrap();
        c.handle_line(&input_required(tool.id(), inputs.clone(), Some("s"))).unwrap();
        let [Event::Answer(answer)] = <[Event; 1]>::try_from(events(&mut c)).unwrap() else { panic!("{inputs}") };
        assert!(matches!(tool.read(answer), Err(RequestError::Input(_))), "{inputs}");
        assert_eq!(c.pending(), 0);
    }
    // Neither requests nor state: malformed.
    let (mut c, now) = (client(json!({})), Instant::now());
    let tool = c.request(call("t"), now, None).unwrap();
    c.handle_line(&line(json!({"jsonrpc": "2.0", "id": tool.id(), "result": {"resultType": "input_required"}}))).unwrap();
    let Some(Event::Answer(answer)) = c.poll_event() else { panic!() };
    assert!(matches!(tool.read(answer), Err(RequestError::Input(_))));
}

#[test]
fn an_unsupported_version_is_retried_once_with_a_listed_version_then_handed_over() {
    let unsupported = |id: i64, supported: Value| line(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": supported, "requested": V}}}));
    let mut per = PerRequest::new("2099-01-01", &json!({})).unwrap();
    per.versions.push(V.to_owned());
    let (mut c, now) = (Client::per_request(Config::default(), per), Instant::now());
    let tools = c.request(list(), now, None).unwrap();
    assert_eq!(written(&mut c)[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], json!("2099-01-01"));
    c.handle_line(&unsupported(tools.id(), json!([V]))).unwrap();
    assert!(c.poll_event().is_none());
    let retry = written(&mut c).remove(0);
    assert_ne!(retry["id"], json!(tools.id()));
    assert_eq!(retry["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], json!(V));
    assert_eq!(c.protocol_version(), Some(V));
    // Refused again: the error, with the server's list, for the application.
    c.handle_line(&unsupported(retry["id"].as_i64().unwrap(), json!([V]))).unwrap();
    let Some(Event::Answer(answer)) = c.poll_event() else { panic!() };
    assert_eq!(tools.read(answer), Err(RequestError::UnsupportedVersion { requested: V.into(), supported: vec![V.into()] }));
    // No version in common: handed over at once.
    let tools = c.request(list(), now, None).unwrap();
    written(&mut c);
    c.handle_line(&unsupported(tools.id(), json!(["2030-01-01", 7]))).unwrap();
    assert!(c.poll_transmit().is_none());
    let Some(Event::Answer(answer)) = c.poll_event() else { panic!() };
    assert!(matches!(tools.read(answer), Err(RequestError::UnsupportedVersion { supported, .. }) if supported == ["2030-01-01"]));
}

#[test]
fn the_pending_bound_counts_requests_waiting_for_input() {
    let config = Config { max_pending: 1, ..Config::default() };
    let mut c = Client::per_request(config, PerRequest::new(V, &json!({"elicitation": {}})).unwrap());
    let now = Instant::now();
    let a = c.request(call("a"), now, None).unwrap();
    c.handle_line(&input_required(a.id(), elicit(), None)).unwrap();
    assert_eq!(c.request(call("b"), now, None).unwrap_err(), Error::PendingFull { cap: 1 });
}

#[test]
fn a_session_client_reads_input_required_as_a_plain_result() {
    // 2025-11-25 has no resultType: the engine leaves the answer to the handle.
    let (mut c, now) = (Client::new(Config::default()), Instant::now());
    let tools = c.request(mcp_spec_types::v2025_11_25::ListToolsRequest::new(mcp_spec_types::v2025_11_25::RequestId::Integer(0)), now, None).unwrap();
    c.handle_line(&input_required(tools.id(), elicit(), Some("s"))).unwrap();
    assert!(matches!(c.poll_event(), Some(Event::Answer(_))));
}

#[test]
fn malformed_input_required_and_version_errors_never_panic() {
    let results = [
        json!({"resultType": "input_required", "inputRequests": [], "requestState": "s"}),
        json!({"resultType": "input_required", "requestState": 5}),
        json!({"resultType": "input_required", "inputRequests": {"k": null}}),
        json!({"resultType": "input_required", "inputRequests": {"k": {"method": 1}}}),
        json!({"resultType": 7, "content": []}),
    ];
    let errors = [json!({"code": -32022, "message": "m"}), json!({"code": -32022, "message": "m", "data": {"supported": "x", "requested": 1}}), json!({"code": -32022, "message": "m", "data": null})];
    let lines = results.iter().map(|r| json!({"result": r})).chain(errors.iter().map(|e| json!({"error": e})));
    for body in lines {
        let (mut c, now) = (client(json!({"elicitation": {}, "sampling": {}, "roots": {}})), Instant::now());
        let tool = c.request(call("t"), now, None).unwrap();
        let mut message = body.clone();
        message["jsonrpc"] = json!("2.0");
        message["id"] = json!(tool.id());
        c.handle_line(&line(message)).unwrap();
        let Some(Event::Answer(answer)) = c.poll_event() else { panic!("{body}") };
        assert!(tool.read(answer).is_err() || body["result"]["resultType"] == json!(7), "{body}");
        assert_eq!(c.pending(), 0, "{body}");
    }
}

fn offered(c: &mut Client) -> Vec<Request> {
    events(c).into_iter().map(|e| if let Event::Request(r) = e { r } else { panic!("{e:?}") }).collect()
}

#[test]
fn input_requests_are_offered_as_requests_then_the_request_goes_again_with_the_responses_and_the_state() {
    let (mut c, now) = (client(json!({"elicitation": {}, "roots": {}})), Instant::now());
    let tool = c.request_with_progress(call("confirm"), now, None).unwrap();
    let first = written(&mut c).remove(0);
    let inputs = json!({"confirm": elicit()["confirm"], "where": {"method": "roots/list"}});
    c.handle_line(&input_required(tool.id(), inputs, Some("opaque-1"))).unwrap();
    let asked = offered(&mut c);
    assert_eq!(asked.iter().map(|r| r.method.as_str()).collect::<Vec<_>>(), ["elicitation/create", "roots/list"]);
    assert!(asked.iter().all(|r| c.input_for(&r.id) == Some(tool.id())));
    let typed: mcp::ElicitRequest = asked[0].read().unwrap();
    assert!(matches!(typed.params, mcp::ElicitRequestParams::ElicitRequestFormParams(_)));
    assert_eq!(c.pending(), 1);
    // One answer of two: nothing goes yet.
    assert_eq!(c.respond(&asked[1].id, &json!({"roots": []})), Ok(Sent::Written));
    assert!(c.poll_transmit().is_none());
    c.respond(&asked[0].id, &json!({"action": "accept", "content": {}})).unwrap();
    let retry = written(&mut c).remove(0);
    // A new id (the spec: MUST differ), the original params, the responses and the state echoed.
    assert_ne!(retry["id"], first["id"]);
    assert_eq!(retry["params"]["name"], json!("confirm"));
    assert_eq!(retry["params"]["inputResponses"], json!({"confirm": {"action": "accept", "content": {}}, "where": {"roots": []}}));
    assert_eq!(retry["params"]["requestState"], json!("opaque-1"));
    assert_eq!(retry["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], json!(V));
    assert_eq!(c.input_for(&asked[0].id), None);
    // Progress of the retry (its token is its own id) is the same request's.
    let token = retry["params"]["_meta"]["progressToken"].clone();
    assert_eq!(token, retry["id"]);
    c.handle_line(&line(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}}))).unwrap();
    let done = json!({"jsonrpc": "2.0", "id": retry["id"], "result": {"resultType": "complete", "content": [{"type": "text", "text": "ok"}]}});
    c.handle_line(&line(done)).unwrap();
    let [Event::Progress { request, .. }, Event::Answer(answer)] = <[Event; 2]>::try_from(events(&mut c)).unwrap() else { panic!() };
    assert_eq!(request, tool.id());
    let mcp::CallToolResultResponseResult::CallToolResult(result) = tool.read(answer).unwrap() else { panic!() };
    assert_eq!(result.content.len(), 1);
    assert_eq!(c.pending(), 0);
}

#[test]
fn without_request_state_the_retry_has_none_and_other_requests_carry_neither() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let tool = c.request(call("no_state"), now, None).unwrap();
    written(&mut c);
    c.handle_line(&input_required(tool.id(), elicit(), None)).unwrap();
    let asked = offered(&mut c);
    c.request(call("unrelated"), now, None).unwrap();
    c.respond(&asked[0].id, &json!({"action": "accept"})).unwrap();
    let [unrelated, retry] = <[Value; 2]>::try_from(written(&mut c)).unwrap();
    assert!(unrelated["params"].get("inputResponses").is_none() && unrelated["params"].get("requestState").is_none());
    assert!(retry["params"].get("requestState").is_none() && retry["params"].get("inputResponses").is_some());
}

#[test]
fn refusing_an_input_request_fails_the_request() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let tool = c.request(call("t"), now, None).unwrap();
    c.handle_line(&input_required(tool.id(), elicit(), Some("s"))).unwrap();
    let asked = offered(&mut c);
    let no = mcp_spec_types::runtime::RpcError { code: -32603, message: "no UI".into(), data: None };
    c.respond_error(&asked[0].id, &no).unwrap();
    let [Event::Answer(answer)] = <[Event; 1]>::try_from(events(&mut c)).unwrap() else { panic!() };
    assert!(matches!(tool.read(answer), Err(RequestError::Input(why)) if why.contains("no UI")));
    assert_eq!((c.pending(), c.input_for(&asked[0].id)), (0, None));
}

#[test]
fn a_server_request_cannot_take_the_id_of_an_input_request() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let tool = c.request(call("t"), now, None).unwrap();
    c.handle_line(&input_required(tool.id(), elicit(), Some("s"))).unwrap();
    let asked = offered(&mut c);
    written(&mut c);
    c.handle_line(&line(json!({"jsonrpc": "2.0", "id": asked[0].id.to_value(), "method": "roots/list"}))).unwrap();
    assert_eq!(written(&mut c)[0]["error"]["code"], json!(-32600));
    assert!(c.poll_event().is_none());
}

#[test]
fn input_rounds_are_bounded() {
    let mut per = PerRequest::new(V, &json!({})).unwrap();
    per.max_rounds = 2;
    let (mut c, now) = (Client::per_request(Config::default(), per), Instant::now());
    let tool = c.request(call("t"), now, None).unwrap();
    let mut wire = tool.id();
    for round in 1..=3 {
        written(&mut c);
        // State only (load shedding): the request goes again at once, with no responses.
        c.handle_line(&input_required(wire, json!({}), Some("again"))).unwrap();
        if round <= 2 {
            assert!(c.poll_event().is_none(), "round {round}");
            let retry = c.poll_transmit().map(|t| json_of(t.line)).unwrap();
            assert!(retry["params"].get("inputResponses").is_none() && retry["params"]["requestState"] == json!("again"));
            wire = retry["id"].as_i64().unwrap();
        } else {
            let Some(Event::Answer(answer)) = c.poll_event() else { panic!() };
            assert!(matches!(tool.read(answer), Err(RequestError::Input(_))));
        }
    }
}

#[test]
fn a_request_waiting_for_input_can_be_cancelled_or_time_out() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let a = c.request(call("a"), now, Some(Duration::from_secs(5))).unwrap();
    let b = c.request(call("b"), now, Some(Duration::from_secs(9))).unwrap();
    written(&mut c);
    c.handle_line(&input_required(a.id(), elicit(), None)).unwrap();
    c.handle_line(&input_required(b.id(), elicit(), None)).unwrap();
    let asked = offered(&mut c);
    // Nothing is in flight at the server: no `notifications/cancelled`; the input request is withdrawn.
    c.cancel(&a, None).unwrap();
    assert!(c.poll_transmit().is_none());
    assert!(matches!(c.poll_event(), Some(Event::Cancelled { id, .. }) if id == asked[0].id));
    assert_eq!(c.respond(&asked[0].id, &json!({"action": "accept"})), Err(Error::UnknownRequest));
    assert_eq!(c.poll_timeout(), Some(now + Duration::from_secs(9)));
    c.handle_timeout(now + Duration::from_secs(10));
    let [Event::Cancelled { id, .. }, Event::Answer(answer)] = <[Event; 2]>::try_from(events(&mut c)).unwrap() else { panic!() };
    assert_eq!(id, asked[1].id);
    assert_eq!(b.read(answer), Err(RequestError::TimedOut));
    assert_eq!(c.pending(), 0);
}

#[test]
fn cancelling_a_retried_request_names_the_id_the_server_knows() {
    let (mut c, now) = (client(json!({"elicitation": {}})), Instant::now());
    let tool = c.request(call("t"), now, None).unwrap();
    c.handle_line(&input_required(tool.id(), elicit(), Some("s"))).unwrap();
    let asked = offered(&mut c);
    c.respond(&asked[0].id, &json!({"action": "cancel"})).unwrap();
    let retry = written(&mut c).pop().unwrap();
    c.cancel(&tool, Some("enough")).unwrap();
    let cancelled = written(&mut c).remove(0);
    assert_eq!((cancelled["method"].clone(), cancelled["params"]["requestId"].clone()), (json!("notifications/cancelled"), retry["id"].clone()));
    // Its late answer is dropped, under the retry's id.
    c.handle_line(&line(json!({"jsonrpc": "2.0", "id": retry["id"], "result": {"content": []}}))).unwrap();
    assert!(matches!(c.poll_event(), Some(Event::Dropped(Dropped::AfterCancel(id))) if json!(id) == retry["id"]));
    assert_eq!(c.pending(), 0);
}
