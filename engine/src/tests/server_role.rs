//! The server role's lifecycle, negotiation, logging, validation and 2026-07-28's per-request
//! protocol, driven with byte strings.

use serde_json::{json, Value};
#[cfg(feature = "v2026-07-28")]
use serde_json::Map;

use crate::*;
#[cfg(feature = "v2026-07-28")]
use mcp_spec_types::negotiate::{CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY};

fn drain(s: &mut Server) -> (Vec<Value>, Vec<Event>) {
    let out = std::iter::from_fn(|| s.poll_transmit()).map(|t| serde_json::from_slice(&t.line).expect("the engine writes JSON")).collect();
    (out, std::iter::from_fn(|| s.poll_event()).collect())
}

fn send(s: &mut Server, message: Value) -> (Vec<Value>, Vec<Event>) {
    s.handle_line(message.to_string().as_bytes()).unwrap();
    drain(s)
}

fn info() -> ServerInfo {
    ServerInfo::new("s", "1").versions(&["2025-06-18", "2025-11-25", "2026-07-28"]).capabilities(&json!({"logging": {}, "tools": {}})).unwrap().instructions("be brief")
}

fn initialize(id: i64, version: &str, capabilities: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"protocolVersion": version, "capabilities": capabilities, "clientInfo": {"name": "c", "version": "1"}}})
}

const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A server with a 2025-11-25 session whose client declared `capabilities`, `notifications/initialized` sent.
fn session(config: Config, capabilities: Value) -> Server {
    let mut s = Server::with_info(config, info());
    send(&mut s, initialize(0, "2025-11-25", capabilities));
    s.handle_line(INITIALIZED).unwrap();
    drain(&mut s);
    s
}

/// A 2026-07-28 request: version and capabilities in `_meta`, and what else `meta` holds.
#[cfg(feature = "v2026-07-28")]
fn per_request(id: i64, method: &str, mut params: Value, capabilities: Value, meta: Value) -> Value {
    let mut m = Map::new();
    m.insert(PROTOCOL_VERSION_META_KEY.into(), json!("2026-07-28"));
    m.insert(CLIENT_CAPABILITIES_META_KEY.into(), capabilities);
    m.insert("io.modelcontextprotocol/clientInfo".into(), json!({"name": "c", "version": "1"}));
    m.extend(meta.as_object().cloned().unwrap_or_default());
    params["_meta"] = Value::Object(m);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[cfg(feature = "v2025-11-25")]
mod lifecycle {
    use super::*;
    use mcp_spec_types::v2025_11_25::{ListRootsRequest, PingRequest, RequestId};
    use std::time::{Duration, Instant};

    #[test]
    fn initialize_is_answered_with_the_negotiated_version() {
        let mut s = Server::with_info(Config::default(), info());
        assert_eq!(s.version(), None);
        let (out, events) = send(&mut s, initialize(1, "2025-11-25", json!({"roots": {}})));
        assert!(events.is_empty(), "the engine answers initialize itself: {events:?}");
        assert_eq!(out, [json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"logging": {}, "tools": {}}, "serverInfo": {"name": "s", "version": "1"}, "instructions": "be brief"}})]);
        assert_eq!(s.version(), Some("2025-11-25"));
        assert_eq!(s.initialize_params().unwrap()["clientInfo"]["name"], "c");
        let result = mcp_spec_types::validate::validate_json::<mcp_spec_types::v2025_11_25::InitializeResult>(&out[0]["result"], &Default::default());
        assert!(result.is_valid(), "{:?}", result.violations);

        // A version the server lacks: its latest handshake version, never a per-request one.
        for (proposed, answered) in [("2025-06-18", "2025-06-18"), ("2024-11-05", "2025-11-25"), ("2026-07-28", "2025-11-25"), ("1999-01-01", "2025-11-25")] {
            let mut s = Server::with_info(Config::default(), info());
            let (out, _) = send(&mut s, initialize(1, proposed, json!({})));
            assert_eq!((out[0]["result"]["protocolVersion"].as_str(), s.version()), (Some(answered), Some(answered)), "{proposed}");
        }
        // A server of per-request versions alone has no initialize.
        let mut s = Server::with_info(Config::default(), info().versions(&["2026-07-28"]));
        let (out, _) = send(&mut s, initialize(1, "2025-11-25", json!({})));
        assert_eq!(out[0]["error"]["code"], -32601);
        assert!(!s.is_initialized());
    }

    #[test]
    fn an_application_answering_initialize_sets_the_session_version() {
        let mut s = Server::new(Config::default());
        let (_, events) = send(&mut s, initialize(1, "2025-06-18", json!({})));
        assert!(matches!(&events[..], [Event::Request(r)] if r.method == "initialize"));
        assert_eq!(s.version(), None);
        s.respond(&Id::Number(1), &json!({"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
        assert_eq!(s.version(), Some("2025-06-18"));
        assert!(s.is_initialized() && !s.is_ready());
    }

    #[test]
    fn requests_to_the_client_wait_for_initialized() {
        let now = Instant::now();
        // Before initialize: nothing but ping, either way; a server that also serves 2026-07-28
        // takes a request without initialize for a per-request one that lacks its version.
        let mut s = Server::with_info(Config::default(), info().versions(&["2025-11-25"]));
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        assert_eq!(out[0]["error"]["code"], -32600);
        let mut s = Server::with_info(Config::default(), info());
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        assert_eq!(out[0]["error"]["code"], -32602);
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
        assert_eq!(out[0]["result"], json!({}));
        assert_eq!(s.log(LogLevel::Error, None, &"early"), Err(Error::NotInitialized));
        send(&mut s, initialize(2, "2025-11-25", json!({"roots": {}})));
        // Answered, not yet initialized: the client may send requests; the server only pings and logs.
        let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}));
        assert!(out.is_empty() && matches!(&events[..], [Event::Request(r)] if r.method == "tools/list"));
        assert!(s.is_initialized() && !s.is_ready());
        assert_eq!(s.request(ListRootsRequest::new(RequestId::Integer(0)), now, None).unwrap_err(), Error::NotInitialized);
        s.request(PingRequest::new(RequestId::Integer(0)), now, Some(Duration::from_secs(1))).unwrap();
        assert_eq!(s.log(LogLevel::Info, Some("boot"), &"starting"), Ok(Sent::Written));
        let (out, _) = drain(&mut s);
        assert_eq!(out[0]["method"], "ping");
        assert_eq!(out[1], json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "logger": "boot", "data": "starting"}}));
        // The notification is still an event for the application.
        s.handle_line(INITIALIZED).unwrap();
        assert!(s.is_ready());
        assert!(matches!(&drain(&mut s).1[..], [Event::Notification { method, .. }] if method == "notifications/initialized"));
        s.request(ListRootsRequest::new(RequestId::Integer(0)), now, None).unwrap();
        // A second initialize is refused in every state.
        let (out, _) = send(&mut s, initialize(9, "2025-11-25", json!({})));
        assert_eq!(out.last().unwrap()["error"]["code"], -32600);
    }
}

#[cfg(feature = "v2025-11-25")]
mod logging {
    use super::*;

    #[test]
    fn set_level_is_answered_and_filters_log_messages() {
        let mut s = session(Config::default(), json!({}));
        // No level set: every message goes out.
        assert_eq!(s.log(LogLevel::Debug, None, &json!({"n": 1})), Ok(Sent::Written));
        let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "warning"}}));
        assert_eq!((out[1].clone(), events.len()), (json!({"jsonrpc": "2.0", "id": 1, "result": {}}), 0));
        assert_eq!(s.log_level(), Some(LogLevel::Warning));
        assert_eq!(s.log(LogLevel::Info, None, &"quiet"), Ok(Sent::Dropped));
        assert_eq!(s.log(LogLevel::Warning, None, &"loud"), Ok(Sent::Written));
        assert_eq!(s.log(LogLevel::Emergency, None, &"louder"), Ok(Sent::Written));
        let (out, _) = drain(&mut s);
        assert_eq!(out.iter().map(|o| o["params"]["level"].clone()).collect::<Vec<_>>(), [json!("warning"), json!("emergency")]);
        // A request's log messages follow the session's level; none once it is cancelled.
        send(&mut s, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t"}}));
        assert_eq!(s.log_for(&Id::Number(2), LogLevel::Info, None, &"quiet"), Ok(Sent::Dropped));
        assert_eq!(s.log_for(&Id::Number(2), LogLevel::Error, None, &"loud"), Ok(Sent::Written));
        send(&mut s, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}));
        assert_eq!(s.log_for(&Id::Number(2), LogLevel::Error, None, &"late"), Ok(Sent::Dropped));
        assert_eq!(s.log_for(&Id::Number(7), LogLevel::Error, None, &"who"), Err(Error::UnknownRequest));
    }

    // Issue 28, item 4: `verbose` once read as `LoggingLevel::Other`, above `emergency`, and silenced everything.
    #[test]
    fn an_unknown_level_is_invalid_params_with_or_without_validation() {
        for validate in [true, false] {
            let mut s = session(Config { validate, ..Config::default() }, json!({}));
            let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 7, "method": "logging/setLevel", "params": {"level": "verbose"}}));
            assert!(events.is_empty());
            let error = &out[0]["error"];
            assert_eq!((out[0]["id"].clone(), error["code"].clone()), (json!(7), json!(-32602)), "{out:?}");
            assert!(error["message"].as_str().unwrap().starts_with("Invalid params: /params/level: [enum]"), "{error}");
            assert_eq!(error["data"]["violations"][0]["pointer"], "/params/level");
            assert_eq!(s.log_level(), None);
            assert_eq!(s.log(LogLevel::Debug, None, &"still heard"), Ok(Sent::Written));
        }
        // With validation off, a missing level is refused the same way.
        let mut s = session(Config { validate: false, ..Config::default() }, json!({}));
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 8, "method": "logging/setLevel", "params": {}}));
        assert_eq!(out[0]["error"]["code"], -32602);
    }

    // The same with the engine's first API alone (`Server::new`, the application answers initialize).
    #[test]
    fn an_unknown_level_is_refused_by_a_server_without_info() {
        let mut s = Server::new(Config::default());
        send(&mut s, initialize(0, "2025-11-25", json!({})));
        s.respond(&Id::Number(0), &json!({"protocolVersion": "2025-11-25", "capabilities": {"logging": {}}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
        drain(&mut s);
        let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "verbose"}}));
        assert!(events.is_empty(), "{events:?}");
        assert_eq!((out[0]["id"].clone(), out[0]["error"]["code"].clone()), (json!(1), json!(-32602)));
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": {"level": "error"}}));
        assert_eq!(out[0]["result"], json!({}));
        assert_eq!(s.log_level(), Some(LogLevel::Error));
    }

    #[test]
    fn set_level_needs_the_logging_capability() {
        let mut s = Server::with_info(Config::default(), ServerInfo::new("s", "1").versions(&["2025-11-25"]));
        send(&mut s, initialize(0, "2025-11-25", json!({})));
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "info"}}));
        assert_eq!(out[0]["error"]["code"], -32601);
    }

    #[test]
    fn log_levels_are_ordered_as_the_spec_orders_them() {
        assert!(LogLevel::ALL.windows(2).all(|w| w[0] < w[1]));
        assert!(LogLevel::ALL.iter().all(|l| LogLevel::parse(l.as_str()) == Some(*l)));
        assert_eq!((LogLevel::parse("verbose"), LogLevel::parse("INFO")), (None, None));
    }
}

#[cfg(feature = "v2025-11-25")]
mod validation {
    use super::*;

    #[test]
    fn params_are_checked_against_the_session_version() {
        let mut s = session(Config::default(), json!({}));
        let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}}}));
        assert!(events.is_empty());
        assert_eq!(out[0]["error"]["code"], -32602);
        assert_eq!(out[0]["error"]["data"]["violations"][0]["pointer"], "/params", "{out:?}");
        assert!(out[0]["error"]["message"].as_str().unwrap().contains("name"), "{out:?}");
        // A rule that only validation knows: a progress token of the wrong type.
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t", "_meta": {"progressToken": 1.5}}}));
        assert_eq!(out[0]["error"]["code"], -32602, "{out:?}");
        // Methods the version does not define are the application's to answer.
        let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 3, "method": "x/y", "params": {"a": 1}}));
        assert!(out.is_empty() && events.len() == 1);

        // Switched off, the request reaches the application as sent.
        let mut s = session(Config { validate: false, ..Config::default() }, json!({}));
        let (out, events) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}}}));
        assert!(out.is_empty() && matches!(&events[..], [Event::Request(r)] if r.id == Id::Number(1)));
    }

    #[test]
    fn initialize_is_checked_against_the_version_it_negotiates() {
        let mut s = Server::with_info(Config::default(), info());
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}));
        assert_eq!(out[0]["error"]["code"], -32602);
        assert!(!s.is_initialized());
    }
}

#[cfg(feature = "v2026-07-28")]
mod per_request {
    use super::*;

    fn server() -> Server {
        Server::with_info(Config::default(), info())
    }

    #[test]
    fn a_request_without_initialize_carries_its_version_and_capabilities() {
        let mut s = server();
        let (out, events) = send(&mut s, per_request(1, "tools/list", json!({}), json!({"elicitation": {}}), json!({})));
        assert!(out.is_empty(), "{out:?}");
        let [Event::Request(r)] = &events[..] else { panic!("{events:?}") };
        assert_eq!((s.version_of(&r.id), s.version()), (Some("2026-07-28"), None));
        assert_eq!(s.client_capabilities(&r.id), Some(&json!({"elicitation": {}})));
        s.respond(&r.id, &json!({"tools": []})).unwrap();
        let (out, _) = drain(&mut s);
        let result = &out[0]["result"];
        assert_eq!((result["resultType"].clone(), result["ttlMs"].clone(), result["cacheScope"].clone()), (json!("complete"), json!(0), json!("private")));
        assert_eq!(result["_meta"][SERVER_INFO_META_KEY], json!({"name": "s", "version": "1"}));
        let report = mcp_spec_types::validate::validate_json::<mcp_spec_types::v2026_07_28::ListToolsResult>(result, &Default::default());
        assert!(report.is_valid(), "{:?}", report.violations);
        // Capabilities are the request's own: the next one declares none and has none.
        send(&mut s, per_request(2, "tools/call", json!({"name": "t"}), json!({}), json!({})));
        assert_eq!(s.client_capabilities(&Id::Number(2)), Some(&json!({})));
        assert_eq!(s.client_capabilities(&Id::Number(1)), None);
        // What the application set stays; a result that is not cacheable gets no cache fields.
        s.respond(&Id::Number(2), &json!({"content": [], "resultType": "complete"})).unwrap();
        let (out, _) = drain(&mut s);
        assert!(out[0]["result"].get("ttlMs").is_none());
        assert!(!s.is_initialized());
    }

    #[test]
    fn an_unsupported_or_missing_version_is_refused() {
        let mut s = server();
        let mut request = per_request(1, "tools/list", json!({}), json!({}), json!({}));
        request["params"]["_meta"][PROTOCOL_VERSION_META_KEY] = json!("2099-01-01");
        let (out, events) = send(&mut s, request);
        assert!(events.is_empty());
        assert_eq!(out[0]["error"]["code"], -32022);
        assert_eq!(out[0]["error"]["data"], json!({"supported": ["2025-06-18", "2025-11-25", "2026-07-28"], "requested": "2099-01-01"}));
        // A server of per-request versions alone: a request without a version is invalid params.
        let mut s = Server::with_info(Config::default(), info().versions(&["2026-07-28"]));
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
        assert_eq!(out[0]["error"]["code"], -32602);
        // A stateless server: no initialize can come, so a request without a version is invalid params.
        let mut s = Server::stateless(Config::default(), info());
        let (out, _) = send(&mut s, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {}}}));
        assert_eq!(out[0]["error"]["code"], -32602);
        let (out, _) = send(&mut s, initialize(4, "2025-11-25", json!({})));
        assert_eq!((out[0]["error"]["code"].clone(), s.is_initialized()), (json!(-32602), false));
        let mut init = per_request(5, "initialize", json!({}), json!({}), json!({}));
        init["params"]["protocolVersion"] = json!("2025-11-25");
        let (out, _) = send(&mut s, init);
        assert_eq!(out[0]["error"]["code"], -32601);
        // A server of handshake versions alone answers a per-request client as before initialize.
        let mut s = Server::new(Config::default());
        let (out, _) = send(&mut s, per_request(3, "tools/list", json!({}), json!({}), json!({})));
        assert_eq!(out[0]["error"]["code"], -32600);
    }

    #[test]
    fn server_discover_is_answered_from_the_server_info() {
        let mut s = server();
        let (out, events) = send(&mut s, per_request(1, "server/discover", json!({}), json!({}), json!({})));
        assert!(events.is_empty());
        let result = &out[0]["result"];
        assert_eq!(result["supportedVersions"], json!(["2025-06-18", "2025-11-25", "2026-07-28"]));
        assert_eq!((result["capabilities"].clone(), result["instructions"].clone()), (json!({"logging": {}, "tools": {}}), json!("be brief")));
        let report = mcp_spec_types::validate::validate_json::<mcp_spec_types::v2026_07_28::DiscoverResult>(result, &Default::default());
        assert!(report.is_valid(), "{:?}", report.violations);
    }

    #[test]
    fn ping_and_set_level_do_not_exist_per_request() {
        let mut s = server();
        for (id, method, params) in [(1, "ping", json!({})), (2, "logging/setLevel", json!({"level": "info"}))] {
            let (out, events) = send(&mut s, per_request(id, method, params, json!({}), json!({})));
            assert_eq!((out[0]["error"]["code"].clone(), events.len()), (json!(-32601), 0), "{method}");
        }
        assert_eq!(s.log(LogLevel::Error, None, &"no session"), Err(Error::NotInitialized));
    }

    #[test]
    fn log_messages_only_for_a_request_that_asked_at_its_level() {
        let mut s = server();
        send(&mut s, per_request(1, "tools/call", json!({"name": "a"}), json!({}), json!({LOG_LEVEL_META_KEY: "warning"})));
        send(&mut s, per_request(2, "tools/call", json!({"name": "b"}), json!({}), json!({})));
        assert_eq!(s.log_for(&Id::Number(1), LogLevel::Info, None, &"quiet"), Ok(Sent::Dropped));
        assert_eq!(s.log_for(&Id::Number(1), LogLevel::Error, Some("a"), &"loud"), Ok(Sent::Written));
        assert_eq!(s.log_for(&Id::Number(2), LogLevel::Emergency, None, &"unasked"), Ok(Sent::Dropped));
        let (out, _) = drain(&mut s);
        assert_eq!(out, [json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "error", "logger": "a", "data": "loud"}})]);
        // An unknown level is refused, never trusted.
        let (out, events) = send(&mut s, per_request(3, "tools/call", json!({"name": "c"}), json!({}), json!({LOG_LEVEL_META_KEY: "verbose"})));
        assert_eq!((out[0]["error"]["code"].clone(), events.len()), (json!(-32602), 0));
    }

    #[test]
    fn input_required_and_the_retried_request() {
        let mut s = server();
        let elicit = json!({"method": "elicitation/create", "params": {"mode": "form", "message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}});
        send(&mut s, per_request(1, "tools/call", json!({"name": "ask"}), json!({"elicitation": {}}), json!({})));
        let mut asks = Map::new();
        asks.insert("sampling".into(), json!({"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}));
        assert_eq!(s.respond_input_required(&Id::Number(1), asks, None), Err(Error::NotDeclared { capability: "sampling" }));
        assert_eq!(s.respond_input_required(&Id::Number(1), Map::new(), None).map_err(|e| matches!(e, Error::Serialize(_))), Err(true));
        let mut asks = Map::new();
        asks.insert("name".into(), elicit.clone());
        assert_eq!(s.respond_input_required(&Id::Number(1), asks, Some("step-1")), Ok(Sent::Written));
        let (out, _) = drain(&mut s);
        let result = &out[0]["result"];
        assert_eq!((result["resultType"].clone(), result["requestState"].clone(), result["inputRequests"]["name"].clone()), (json!("input_required"), json!("step-1"), elicit));
        let report = mcp_spec_types::validate::validate_json::<mcp_spec_types::v2026_07_28::InputRequiredResult>(result, &Default::default());
        assert!(report.is_valid(), "{:?}", report.violations);
        // The retry: a new request with the answers and the state.
        let retry = per_request(2, "tools/call", json!({"name": "ask", "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}, "requestState": "step-1"}), json!({"elicitation": {}}), json!({}));
        let (out, events) = send(&mut s, retry);
        assert!(out.is_empty(), "{out:?}");
        let [Event::Request(r)] = &events[..] else { panic!("{events:?}") };
        assert_eq!((r.request_state(), r.input_responses().unwrap()["name"]["content"]["name"].clone()), (Some("step-1"), json!("Ada")));
        // A request of a session takes no InputRequiredResult; an unknown id is unknown.
        let mut s = session(Config::default(), json!({"elicitation": {}}));
        send(&mut s, json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "t"}}));
        assert_eq!(s.respond_input_required(&Id::Number(5), Map::new(), Some("x")), Err(Error::NotPerRequest));
        assert_eq!(s.respond_input_required(&Id::Number(6), Map::new(), Some("x")), Err(Error::UnknownRequest));
    }

    #[test]
    fn the_per_request_table_is_bounded_by_the_in_flight_table() {
        let mut s = Server::with_info(Config { max_in_flight: 2, ..Config::default() }, info());
        for id in 0..5 {
            send(&mut s, per_request(id, "tools/call", json!({"name": "t"}), json!({}), json!({})));
        }
        assert_eq!(s.in_flight(), 2);
        assert_eq!(s.version_of(&Id::Number(4)), None);
        for id in 0..2 {
            s.respond(&Id::Number(id), &json!({"content": []})).unwrap();
        }
        assert_eq!((s.in_flight(), s.version_of(&Id::Number(0))), (0, None));
    }
}

// Per-request and session lines with bytes changed, cut and inserted, fed to a server with info and
// a stateless one, answered in every way the application can: nothing panics, and the per-request
// table never outgrows the in-flight table.
#[cfg(feature = "v2026-07-28")]
#[test]
fn mangled_per_request_lines_never_panic() {
    let lines: Vec<Vec<u8>> = vec![
        per_request(1, "tools/call", json!({"name": "t", "inputResponses": {"a": {"action": "accept"}}, "requestState": "s"}), json!({"elicitation": {}}), json!({LOG_LEVEL_META_KEY: "info"})).to_string().into_bytes(),
        per_request(2, "server/discover", json!({}), json!({}), json!({})).to_string().into_bytes(),
        per_request(3, "logging/setLevel", json!({"level": "debug"}), json!({}), json!({})).to_string().into_bytes(),
        initialize(4, "2025-11-25", json!({"sampling": {}})).to_string().into_bytes(),
        br#"{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"warning"}}"#.to_vec(),
        INITIALIZED.to_vec(),
    ];
    let mut next = super::xorshift(0x9e37_79b9_7f4a_7c15);
    let config = Config { max_in_flight: 4, max_queued: 16, ..Config::default() };
    let mut servers = [Server::with_info(config.clone(), info()), Server::stateless(config, info())];
    for round in 0..10_000u64 {
        let mut line = lines[(next() % lines.len() as u64) as usize].clone();
        super::mangle(&mut line, 3, &mut next);
        for s in &mut servers {
            s.handle_line(&line).unwrap();
            while let Some(event) = s.poll_event() {
                let Event::Request(r) = event else { continue };
                let _ = s.log_for(&r.id, LogLevel::Warning, None, &"w");
                let _ = match round % 3 {
                    0 => s.respond(&r.id, &json!({"content": []})),
                    1 => s.respond_input_required(&r.id, Map::new(), Some("state")),
                    _ => s.respond_error(&r.id, &mcp_spec_types::runtime::RpcError { code: -1, message: "no".into(), data: None }),
                };
            }
            while s.poll_transmit().is_some() {}
            assert!(s.in_flight() <= 4);
            assert!(s.state_sizes() <= 4);
        }
    }
}

/// An answer goes out as its own type writes it (`WriteJson`, no `Value` in between) in the
/// envelope the engine's other lines have; a `Value` answer, as the whole line as a `Map` was.
#[cfg(feature = "v2025-11-25")]
#[test]
fn answers_are_written_as_their_type_writes_them() {
    use mcp_spec_types::v2025_11_25::{CallToolResult, ContentBlock, TextContent};
    let mut s = session(Config::default(), json!({}));
    let call = |s: &mut Server, id: i64| send(s, json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t"}}));
    call(&mut s, 1);
    let mut typed = CallToolResult::new(vec![ContentBlock::TextContent(TextContent::new("a\"b"))]);
    typed.structured_content = json!({"z": 1, "a": [1.5, null, u64::MAX]}).as_object().cloned();
    typed.is_error = Some(false);
    s.respond(&Id::Number(1), &typed).unwrap();
    let line = s.poll_transmit().unwrap().line;
    let want = [&b"{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":"[..], &mcp_spec_types::to_vec(&typed), b"}"].concat();
    assert_eq!(String::from_utf8_lossy(&line), String::from_utf8_lossy(&want));
    // Not the `Value`'s order: its keys would be sorted.
    assert_ne!(mcp_spec_types::to_vec(&typed), serde_json::to_vec(&serde_json::to_value(&typed).unwrap()).unwrap());

    call(&mut s, 2);
    let value = json!({"content": [{"type": "text", "text": "x"}], "isError": true, "_meta": {"k": 0.1}});
    s.respond(&Id::Number(2), &value).unwrap();
    let line = s.poll_transmit().unwrap().line;
    assert_eq!(line, serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 2, "result": value})).unwrap());
    send(&mut s, json!({"jsonrpc": "2.0", "id": "s\"4", "method": "tools/call", "params": {"name": "t"}}));
    s.respond(&Id::String("s\"4".into()), &value).unwrap();
    let line = s.poll_transmit().unwrap().line;
    assert_eq!(line, serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": "s\"4", "result": value})).unwrap());
}
