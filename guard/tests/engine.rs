//! The layer with the project's checker in front of the engine's Streamable HTTP server
//! (`McpService`): hostile requests refused in enforce mode with the right JSON-RPC error, rule id
//! and pointer while the server never sees them, passed and reported in audit mode; a clean
//! session unchanged in both; SSE answers tapped; many sessions within the limits.

#![forbid(unsafe_code)]

mod support;

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::Full;
use mcp_spec_engine::http::server::{McpService, Options, RequestContext};
use mcp_spec_engine::{Request as McpRequest, ServerInfo};
use mcp_spec_guard::{Config, GuardLayer, Level, Limits, McpChecks, Mode, Stats};
use serde_json::{json, Value};

use support::{post, run, send, Seen};
use tower_layer::Layer;
use tower_service::Service;

/// The engine's service, counting the requests it is handed.
#[derive(Clone)]
struct Counted<S> {
    inner: S,
    calls: Arc<AtomicUsize>,
}

impl<S: Service<R>, R> Service<R> for Counted<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, r: R) -> S::Future {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.call(r)
    }
}

/// The tools: `convert` (units an enum; `unit` mirrored in `Mcp-Param-Unit` in 2026-07-28) and `echo`.
fn tools() -> Value {
    let unit = json!({"type": "string", "enum": ["meters", "feet", "inches", "miles"]});
    json!({"tools": [
        {"name": "convert", "inputSchema": {"type": "object", "properties": {"value": {"type": "number"}, "from": unit, "to": {"type": "string", "enum": ["meters", "feet"], "x-mcp-header": "Unit"}}, "required": ["value", "from", "to"]}},
        {"name": "echo", "inputSchema": {"type": "object"}}
    ]})
}

/// The engine; `sse`: every answer to a request as an event stream (else one request's answer is JSON).
fn engine(sse: bool) -> McpService<impl mcp_spec_engine::http::server::Handler> {
    let options = Options { json_answers: !sse, ..Options::default() };
    let info = ServerInfo::new("guarded", "0.1.0").versions(&["2025-11-25", "2026-07-28"]).capabilities(&json!({"tools": {}, "logging": {}, "resources": {}})).unwrap();
    McpService::with_options(info, options, |request: McpRequest, _cx: RequestContext| async move {
        match request.method.as_str() {
            "tools/list" => Some(Ok(tools())),
            // `broken` answers a result its version refuses (a content block without `type`).
            "tools/call" if request.params.as_ref().and_then(|p| p.get("name")) == Some(&json!("broken")) => Some(Ok(json!({"content": [{"text": "no type"}]}))),
            "tools/call" => Some(Ok(json!({"content": [{"type": "text", "text": "ok"}]}))),
            "resources/read" => Some(Ok(json!({"contents": []}))),
            _ => None,
        }
    })
}

const V: &str = "2025-11-25";
const V26: &str = "2026-07-28";

/// A 2025-11-25 session through `svc`: initialize, initialized, tools/list. Its id.
async fn open<S, RB>(svc: &mut S) -> String
where
    S: Service<Request<Full<Bytes>>, Response = http::Response<RB>>,
    S::Error: std::fmt::Debug,
    RB: http_body::Body<Data = Bytes>,
    RB::Error: std::fmt::Debug,
{
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": V, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let (status, headers, body) = send(svc, post(&init.to_string(), &[])).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let id = headers["mcp-session-id"].to_str().unwrap().to_string();
    let h = [("mcp-session-id", id.as_str()), ("mcp-protocol-version", V)];
    let (status, _, _) = send(svc, post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, &h)).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, _, body) = send(svc, post(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, &h)).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    id
}

/// A 2026-07-28 request's `_meta`.
fn meta26() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": {}})
}

/// One hostile request: what it is, its body and headers, and what enforce mode answers.
struct Hostile {
    name: &'static str,
    body: String,
    headers: Vec<(&'static str, String)>,
    rule: &'static str,
    pointer: &'static str,
    code: i64,
    status: StatusCode,
    /// The id the answer carries (null when the request has none a response can carry).
    id: Value,
}

/// What enforce mode answers: the rule and pointer named, the code, the HTTP status, the id.
type Expect = (&'static str, &'static str, i64, u16, Value);

fn hostile(name: &'static str, body: impl Into<String>, headers: Vec<(&'static str, String)>, expect: Expect) -> Hostile {
    let (rule, pointer, code, status, id) = expect;
    Hostile { name, body: body.into(), headers, rule, pointer, code, status: StatusCode::from_u16(status).unwrap(), id }
}

/// The hostile requests: in session `s` (2025-11-25) after its `tools/list` (id 1), or without a
/// session in 2026-07-28. (A 2026-07-28 `Mcp-Param-*` header is checked against the marks of a
/// `tools/list` on the same stream; without a session each exchange has its own, so it is not.)
fn hostiles(s: &str) -> Vec<Hostile> {
    let h = || vec![("mcp-session-id", s.to_string()), ("mcp-protocol-version", V.to_string())];
    let h26 = |method: &str| vec![("mcp-protocol-version", V26.to_string()), ("mcp-method", method.to_string())];
    let call26 = |id: u32, name: &str, args: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args, "_meta": meta26()}}).to_string();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    vec![
        hostile("a body that is not JSON", "{\"jsonrpc\":", h(), ("json", "", -32700, 400, Value::Null)),
        hostile("nesting 200 levels deep", deep, h(), ("json", "", -32700, 400, Value::Null)),
        hostile("no jsonrpc member", r#"{"id":4,"method":"ping"}"#, h(), ("jsonrpc.version", "", -32600, 200, json!(4))),
        hostile("jsonrpc 1.0", r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#, h(), ("jsonrpc.version", "/jsonrpc", -32600, 200, json!(5))),
        hostile("a null id", r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, h(), ("jsonrpc.id", "/id", -32600, 400, Value::Null)),
        hostile("a fractional id", r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, h(), ("jsonrpc.id", "/id", -32600, 400, Value::Null)),
        hostile("an object id", r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, h(), ("jsonrpc.id", "/id", -32600, 400, Value::Null)),
        hostile("a method that is a number", r#"{"jsonrpc":"2.0","id":6,"method":7}"#, h(), ("type", "/method", -32600, 200, json!(6))),
        hostile("a batch in 2025-11-25", r#"[{"jsonrpc":"2.0","id":8,"method":"ping"}]"#, h(), ("jsonrpc.batch", "", -32600, 400, Value::Null)),
        hostile("a tool name that is a number", r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":3}}"#, h(), ("type", "/params/name", -32602, 200, json!(9))),
        hostile("arguments that are an array", r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":[]}}"#, h(), ("type", "/params/arguments", -32602, 200, json!(10))),
        hostile("arguments against the listed inputSchema", r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"convert","arguments":{"value":1,"from":"parsecs","to":"feet"}}}"#, h(), ("session.tools.input-schema", "/params/arguments/from", -32602, 200, json!(11))),
        hostile("a _meta key with a space", r#"{"jsonrpc":"2.0","id":12,"method":"ping","params":{"_meta":{"bad key/x":1}}}"#, h(), ("meta.key-name", "/params/_meta/bad key~1x", -32602, 200, json!(12))),
        hostile("a uri that is not one", r#"{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{"uri":"not a uri"}}"#, h(), ("format.uri", "/params/uri", -32602, 200, json!(13))),
        hostile("a log level not in the enum", r#"{"jsonrpc":"2.0","id":14,"method":"logging/setLevel","params":{"level":"loud"}}"#, h(), ("enum", "/params/level", -32602, 200, json!(14))),
        hostile("a progress token that is an object", r#"{"jsonrpc":"2.0","id":15,"method":"tools/list","params":{"_meta":{"progressToken":{}}}}"#, h(), ("type", "/params/_meta/progressToken", -32602, 200, json!(15))),
        hostile("a request id used before in the session", r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, h(), ("stream.id-reused", "/id", -32600, 200, json!(1))),
        hostile("a server's request sent by the client", r#"{"jsonrpc":"2.0","id":51,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#, h(), ("unknown-variant", "/method", -32600, 200, json!(51))),
        hostile("a capability the server did not declare", r#"{"jsonrpc":"2.0","id":54,"method":"resources/subscribe","params":{"uri":"file:///x"}}"#, h(), ("session.capabilities.server", "/method", -32600, 200, json!(54))),
        hostile("progress for a token no request gave", r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"nobody","progress":1}}"#, h(), ("session.progress.token", "/params/progressToken", -32602, 400, Value::Null)),
        hostile("initialize without clientInfo", r#"{"jsonrpc":"2.0","id":17,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#, vec![], ("required", "/params", -32602, 400, json!(17))),
        hostile("cancelling initialize", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}"#, h(), ("session.cancel.initialize", "/params/requestId", -32602, 400, Value::Null)),
        hostile("2026-07-28: Mcp-Method not the body's", json!({"jsonrpc": "2.0", "id": 20, "method": "tools/list", "params": {"_meta": meta26()}}).to_string(), h26("prompts/list"), ("transport.mcp-method-header", "/method", -32020, 400, json!(20))),
        hostile("2026-07-28: tools/call without Mcp-Name", call26(21, "echo", json!({})), h26("tools/call"), ("transport.mcp-name-header", "/params/name", -32020, 400, json!(21))),
        hostile("2026-07-28: _meta without protocolVersion", json!({"jsonrpc": "2.0", "id": 24, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}}).to_string(), h26("tools/list"), ("required", "/params/_meta", -32602, 400, json!(24))),
    ]
}

fn post_owned(body: &str, headers: &[(&'static str, String)]) -> Request<Full<Bytes>> {
    let h: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    post(body, &h)
}

/// A layer over a counted engine, in `mode`.
/// What the guarded engine answers.
type Answer = http::Response<mcp_spec_guard::GuardBody<mcp_spec_engine::http::server::ResponseBody>>;

fn guarded(mode: Mode, limits: Limits, sse: bool) -> (GuardLayer, Arc<AtomicUsize>, impl Service<Request<Full<Bytes>>, Response = Answer, Error = Infallible>) {
    let config = Config { mode, limits, ..Config::default() }.rule("meta.key-name", Level::Refuse);
    let guard = GuardLayer::new(config, McpChecks::default());
    let calls = Arc::new(AtomicUsize::new(0));
    let svc = guard.layer(Counted { inner: engine(sse), calls: calls.clone() });
    (guard, calls, svc)
}

/// The JSON-RPC answer in a body: the body itself, or the last SSE event's data.
fn answer_of(body: &[u8]) -> Value {
    let text = String::from_utf8_lossy(body);
    let json = text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).rfind(|d| !d.is_empty()).unwrap_or(&text);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("no answer in {text:?}: {e}"))
}

/// A clean start: the session and a 2026-07-28 `tools/list` raise no finding.
async fn clean_start<S>(svc: &mut S, seen: &Seen) -> String
where
    S: Service<Request<Full<Bytes>>, Response = Answer, Error = Infallible>,
{
    let s = open(svc).await;
    let list26 = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta26()}});
    let (status, _, body) = send(svc, post(&list26.to_string(), &[("mcp-protocol-version", V26), ("mcp-method", "tools/list")])).await;
    let v = answer_of(&body);
    assert_eq!((status, &v["result"]["tools"]), (StatusCode::OK, &tools()["tools"]));
    assert_eq!(seen.findings().len(), 0, "a clean start has findings: {:?}", seen.findings());
    s
}

#[test]
fn enforce_answers_each_hostile_request_and_the_engine_never_sees_it() {
    let seen = Seen::default();
    let (guard, calls, mut svc) = guarded(Mode::Enforce, Limits::default(), false);
    run(&seen, async {
        let s = clean_start(&mut svc, &seen).await;
        let cases = hostiles(&s);
        for case in &cases {
            let before = calls.load(Ordering::SeqCst);
            let (status, headers, body) = send(&mut svc, post_owned(&case.body, &case.headers)).await;
            let v: Value = serde_json::from_slice(&body).unwrap_or_else(|_| panic!("{}: not JSON: {}", case.name, String::from_utf8_lossy(&body)));
            println!("{}: {status} {}", case.name, v["error"]["message"]);
            assert_eq!(calls.load(Ordering::SeqCst), before, "{}: the engine was called", case.name);
            assert_eq!(headers["content-type"], "application/json", "{}", case.name);
            assert_eq!((status, v["error"]["code"].as_i64(), &v["id"]), (case.status, Some(case.code), &case.id), "{}: {v}", case.name);
            let violations = v["error"]["data"]["violations"].as_array().unwrap();
            assert!(violations.iter().any(|x| x["rule"] == case.rule && x["pointer"] == case.pointer), "{}: {violations:?}", case.name);
            assert!(v["error"]["message"].as_str().unwrap().starts_with('['), "{}", case.name);
        }
        println!("{} kinds of hostile request refused, {} requests reached the engine (the clean start)", cases.len(), calls.load(Ordering::SeqCst));
        assert!(cases.len() >= 15);
        assert_eq!(Stats::get(&guard.stats().refused), cases.len() as u64);
        // The session goes on after its refusals.
        let (status, _, body) = send(&mut svc, post(r#"{"jsonrpc":"2.0","id":30,"method":"ping"}"#, &[("mcp-session-id", &s), ("mcp-protocol-version", V)])).await;
        assert_eq!((status, serde_json::from_slice::<Value>(&body).unwrap()["result"].clone()), (StatusCode::OK, json!({})));
    });
}

#[test]
fn audit_passes_each_hostile_request_and_reports_it_with_the_mcp_attributes() {
    let seen = Seen::default();
    let (guard, calls, mut svc) = guarded(Mode::Audit, Limits::default(), false);
    run(&seen, async {
        let s = clean_start(&mut svc, &seen).await;
        let cases = hostiles(&s);
        for case in &cases {
            let (before, events) = (calls.load(Ordering::SeqCst), seen.findings().len());
            let (status, _, _) = send(&mut svc, post_owned(&case.body, &case.headers)).await;
            assert_eq!(calls.load(Ordering::SeqCst), before + 1, "{}: the engine was not called", case.name);
            let found = &seen.findings()[events..];
            let hit = found.iter().find(|(e, _)| e["rule"] == case.rule && e["pointer"] == case.pointer && e["direction"] == "c2s");
            let Some((event, span)) = hit else { panic!("{}: no finding {} at {}: {found:?}", case.name, case.rule, case.pointer) };
            println!("{}: the engine answered {status}; {} at {:?}, span {:?}", case.name, event["rule"], event["pointer"], span.get("otel.name"));
            assert_eq!((event["refused"].as_str(), event["severity"].as_str()), ("false", "error"), "{}", case.name);
            assert_eq!((span["otel.kind"].as_str(), span["network.transport"].as_str(), span["network.protocol.name"].as_str()), ("server", "tcp", "http"));
            let body: Option<Value> = serde_json::from_str(&case.body).ok();
            if let Some(method) = body.as_ref().and_then(|b| b["method"].as_str()) {
                assert_eq!(span["mcp.method.name"], method, "{}", case.name);
            }
            if case.headers.iter().any(|(k, _)| *k == "mcp-session-id") {
                assert_eq!(span["mcp.session.id"], s, "{}", case.name);
            }
            if let Some(version) = case.headers.iter().find(|(k, _)| *k == "mcp-protocol-version") {
                assert_eq!(span["mcp.protocol.version"], version.1, "{}", case.name);
            }
        }
        assert_eq!(Stats::get(&guard.stats().refused), 0);
        let c2s: u64 = guard.stats().findings().iter().filter(|(k, _)| k.2 == "c2s").map(|(_, n)| n).sum();
        println!("{} kinds of hostile request passed; {c2s} client findings counted", cases.len());
        assert!(c2s >= cases.len() as u64);
    });
}

#[test]
fn sse_answers_are_tapped_and_reported_unaltered() {
    let seen = Seen::default();
    let (guard, _, mut svc) = guarded(Mode::Enforce, Limits::default(), true);
    run(&seen, async {
        let s = clean_start(&mut svc, &seen).await;
        let h = [("mcp-session-id", s.as_str()), ("mcp-protocol-version", V)];
        let s2c = Stats::get(&guard.stats().messages_s2c);
        let (status, headers, body) = send(&mut svc, post(r#"{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"broken","arguments":{}}}"#, &h)).await;
        let text = String::from_utf8_lossy(&body).to_string();
        println!("{status} {text:?}");
        assert_eq!((status, headers["content-type"].to_str().unwrap()), (StatusCode::OK, "text/event-stream"));
        assert!(text.contains(r#"{"text":"no type"}"#), "the answer went through unchanged: {text}");
        assert_eq!(Stats::get(&guard.stats().messages_s2c), s2c + 1, "the result event was checked");
        let found = seen.findings();
        let (event, span) = found.iter().find(|(e, _)| e["direction"] == "s2c").expect("a finding on the answer");
        println!("{:?} at {:?}: {:?}", event["rule"], event["pointer"], event["message"]);
        assert!(event["pointer"].starts_with("/result/content/0"), "{event:?}");
        assert_eq!((event["refused"].as_str(), span["gen_ai.tool.name"].as_str()), ("false", "broken"));
    });
}

#[test]
fn many_sessions_stay_within_the_bytes_limit() {
    let seen = Seen::default();
    let limits = Limits { sessions: 1000, session_bytes: 1 << 20, total_bytes: 8 << 20, ..Limits::default() };
    let (guard, _, mut svc) = guarded(Mode::Enforce, limits, false);
    run(&seen, async {
        for _ in 0..50 {
            open(&mut svc).await;
            assert!(guard.sessions().1 <= 8 << 20, "{:?}", guard.sessions());
        }
        let (kept, bytes) = guard.sessions();
        println!("50 sessions of at most 1 MiB within 8 MiB: {kept} kept ({bytes} bytes at most), {} dropped", Stats::get(&guard.stats().evicted));
        // Each weighs the most its checker can hold (under 1 MiB): as many as fit in 8 MiB, and no more.
        let each = bytes / kept;
        assert!(each <= 1 << 20 && kept * each <= 8 << 20 && (kept + 1) * each > 8 << 20, "{kept} of {each} bytes");
        assert_eq!(Stats::get(&guard.stats().evicted), 50 - kept as u64);
        assert_eq!(seen.findings().len(), 0, "{:?}", seen.findings());
    });
}

#[test]
fn many_sessions_stay_within_the_session_limit() {
    let seen = Seen::default();
    let limits = Limits { sessions: 16, ..Limits::default() };
    let (guard, _, mut svc) = guarded(Mode::Enforce, limits, false);
    run(&seen, async {
        for _ in 0..100 {
            open(&mut svc).await;
            assert!(guard.sessions().0 <= 16);
        }
        let (kept, bytes) = guard.sessions();
        println!("100 sessions through a limit of 16: {kept} kept, {} dropped, {bytes} bytes weighed", Stats::get(&guard.stats().evicted));
        assert_eq!(kept, 16);
        assert_eq!(Stats::get(&guard.stats().evicted), 84);
        assert_eq!(seen.findings().len(), 0, "{:?}", seen.findings());
    });
}


#[test]
fn a_session_dropped_by_the_limit_goes_on_unrefused() {
    let seen = Seen::default();
    let (guard, calls, mut svc) = guarded(Mode::Enforce, Limits { sessions: 2, ..Limits::default() }, false);
    run(&seen, async {
        let first = open(&mut svc).await;
        open(&mut svc).await;
        open(&mut svc).await;
        assert_eq!(Stats::get(&guard.stats().evicted), 1);
        // Its next requests are checked on a new stream, as the version its header names.
        let h = [("mcp-session-id", first.as_str()), ("mcp-protocol-version", V)];
        let before = calls.load(Ordering::SeqCst);
        for (i, body) in [r#"{"jsonrpc":"2.0","id":60,"method":"tools/list"}"#, r#"{"jsonrpc":"2.0","id":61,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#].iter().enumerate() {
            let (status, _, answer) = send(&mut svc, post(body, &h)).await;
            println!("after its eviction, request {i}: {status} {}", String::from_utf8_lossy(&answer));
            assert_eq!(status, StatusCode::OK);
        }
        // A session's request without the header is taken for 2025-03-26, as the transports page says.
        let (status, _, answer) = send(&mut svc, post(r#"{"jsonrpc":"2.0","id":62,"method":"tools/list"}"#, &[("mcp-session-id", "opened-elsewhere")])).await;
        println!("a session this layer never saw, without the header: {status} {}", String::from_utf8_lossy(&answer));
        assert_eq!(calls.load(Ordering::SeqCst), before + 3);
        let errors: Vec<_> = seen.findings().into_iter().filter(|(e, _)| e["severity"] == "error").collect();
        assert!(errors.is_empty(), "{errors:?}");
    });
}
