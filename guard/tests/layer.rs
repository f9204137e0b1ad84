//! The layer over a trivial service with a test double for the checker: what each mode does with
//! a finding, the layer's own failures, the body limit, sessions, and the response tap.

#![forbid(unsafe_code)]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use http::StatusCode;
use mcp_spec_guard::{Checks, Config, Direction, Event, Finding, GuardLayer, Level, Limits, Mode, Stats, Stream};
use mcp_spec_types::tree::Node;
use mcp_spec_types::validate::Severity;
use serde_json::Value;
use support::{post, run, send, Echo, Seen};
use tower_layer::Layer;

/// The double: a request whose params hold `bad` breaks `type` there; `bad_id: true` breaks
/// `jsonrpc.id` at `/id`; method `panic` panics; a server message whose result holds `oops` breaks
/// `type`; a warning `meta.key-name` for params holding `warn`. Streams count the messages they saw.
struct Double {
    seen: Arc<AtomicUsize>,
}

struct DoubleStream(Arc<AtomicUsize>);

fn finding(rule: &'static str, severity: Severity, pointer: &str) -> Finding {
    Finding { rule, severity, pointer: pointer.to_string(), message: format!("{rule} broken") }
}

impl Stream for DoubleStream {
    fn message(&mut self, _: u64, dir: Direction, body: Node<'_>, _: Option<Event<'_>>) -> Vec<Finding> {
        self.0.fetch_add(1, Ordering::SeqCst);
        let mut out = Vec::new();
        let members: Vec<(String, Node<'_>)> = match body.as_array() {
            Some(a) => a.iter().enumerate().map(|(i, m)| (format!("/{i}"), m)).collect(),
            None => vec![(String::new(), body)],
        };
        for (at, m) in members {
            if m.get("method").and_then(Node::as_str) == Some("panic") {
                panic!("the double panics");
            }
            let params = m.get("params");
            if dir == Direction::ClientToServer && params.and_then(|p| p.get("bad")).is_some() {
                out.push(finding("type", Severity::Error, &format!("{at}/params/bad")));
            }
            if params.and_then(|p| p.get("warn")).is_some() {
                out.push(finding("meta.key-name", Severity::Warning, &format!("{at}/params/warn")));
            }
            if m.get("bad_id").is_some() {
                out.push(finding("jsonrpc.id", Severity::Error, &format!("{at}/id")));
            }
            if dir == Direction::ServerToClient && m.get("result").and_then(|r| r.get("oops")).is_some() {
                out.push(finding("type", Severity::Error, &format!("{at}/result/oops")));
            }
        }
        out
    }
}

impl Checks for Double {
    fn stream(&self, _: &Limits, _: Option<&str>) -> Box<dyn Stream> {
        Box::new(DoubleStream(self.seen.clone()))
    }
}

fn layer(config: Config) -> (GuardLayer, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    (GuardLayer::new(config, Double { seen: seen.clone() }), seen)
}

const BAD_CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"convert","bad":1}}"#;

#[test]
fn enforce_refuses_a_bad_request_and_the_service_never_sees_it() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::enforce());
    let echo = Echo::default();
    let mut svc = guard.layer(echo.clone());
    let (status, headers, body) = run(&seen, send(&mut svc, post(BAD_CALL, &[("mcp-session-id", "s1")])));
    let v: Value = serde_json::from_slice(&body).unwrap();
    println!("{status} {v}");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(v["id"], 7);
    assert_eq!(v["error"]["code"], -32602);
    assert_eq!(v["error"]["data"]["violations"][0]["rule"], "type");
    assert_eq!(v["error"]["data"]["violations"][0]["pointer"], "/params/bad");
    assert_eq!(echo.calls.load(Ordering::SeqCst), 0, "the service was called");
    assert_eq!(Stats::get(&guard.stats().refused), 1);
    let findings = seen.findings();
    assert_eq!(findings.len(), 1);
    let (event, span) = &findings[0];
    assert_eq!((event["rule"].as_str(), event["pointer"].as_str(), event["refused"].as_str()), ("type", "/params/bad", "true"));
    assert_eq!(span["mcp.method.name"], "tools/call");
    assert_eq!(span["otel.name"], "tools/call convert");
    assert_eq!(span["error.type"], "-32602");
    // A clean request passes.
    let (status, _, _) = run(&seen, send(&mut svc, post(r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#, &[("mcp-session-id", "s1")])));
    assert_eq!((status, echo.calls.load(Ordering::SeqCst)), (StatusCode::OK, 1));
}

#[test]
fn audit_passes_a_bad_request_and_reports_it_on_the_span() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::default());
    let echo = Echo::default();
    let mut svc = guard.layer(echo.clone());
    let (status, _, body) = run(&seen, send(&mut svc, post(BAD_CALL, &[("mcp-session-id", "s1"), ("mcp-protocol-version", "2025-06-18")])));
    println!("{status} {}", String::from_utf8_lossy(&body));
    assert_eq!(echo.calls.load(Ordering::SeqCst), 1, "the service was not called");
    // The service's answer (an SSE stream) is handed on unchanged.
    assert!(body.starts_with(b"event: message\ndata: {\"jsonrpc\""), "{body:?}");
    let findings = seen.findings();
    assert_eq!(findings.len(), 1);
    let (event, span) = &findings[0];
    assert_eq!((event["rule"].as_str(), event["refused"].as_str(), event["direction"].as_str()), ("type", "false", "c2s"));
    for (k, v) in [("otel.name", "tools/call convert"), ("otel.kind", "server"), ("mcp.method.name", "tools/call"), ("gen_ai.tool.name", "convert"), ("gen_ai.operation.name", "execute_tool"), ("jsonrpc.request.id", "7"), ("mcp.session.id", "s1"), ("mcp.protocol.version", "2025-06-18"), ("network.transport", "tcp"), ("network.protocol.name", "http")] {
        assert_eq!(span.get(k).map(String::as_str), Some(v), "{k} in {span:?}");
    }
    assert_eq!(guard.stats().findings_of("type"), 1);
    assert_eq!(Stats::get(&guard.stats().refused), 0);
}

#[test]
fn a_rule_turned_down_or_off_is_not_refused() {
    let seen = Seen::default();
    for (level, events) in [(Level::Report, 1), (Level::Off, 0)] {
        let (guard, _) = layer(Config::enforce().rule("type", level));
        let echo = Echo::default();
        let mut svc = guard.layer(echo.clone());
        let before = seen.findings().len();
        run(&seen, send(&mut svc, post(BAD_CALL, &[("mcp-session-id", "s1")])));
        println!("type at {level:?}: {} call(s), {} event(s)", echo.calls.load(Ordering::SeqCst), seen.findings().len() - before);
        assert_eq!(echo.calls.load(Ordering::SeqCst), 1, "{level:?}");
        assert_eq!(seen.findings().len() - before, events, "{level:?}");
    }
    // A warning is reported, not refused, unless its rule says so.
    let warn = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"warn":1}}"#;
    for (config, calls) in [(Config::enforce(), 1), (Config::enforce().rule("meta.key-name", Level::Refuse), 0)] {
        let (guard, _) = layer(config);
        let echo = Echo::default();
        let mut svc = guard.layer(echo.clone());
        run(&seen, send(&mut svc, post(warn, &[])));
        assert_eq!(echo.calls.load(Ordering::SeqCst), calls);
    }
}

#[test]
fn a_notification_only_post_and_bad_json_get_400() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::enforce());
    let echo = Echo::default();
    let mut svc = guard.layer(echo.clone());
    let (status, _, body) = run(&seen, send(&mut svc, post(r#"{"jsonrpc":"2.0","method":"notifications/x","params":{"bad":1}}"#, &[("mcp-session-id", "s1")])));
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!((status, v["id"].is_null(), v["error"]["code"].as_i64()), (StatusCode::BAD_REQUEST, true, Some(-32602)));
    let (status, _, body) = run(&seen, send(&mut svc, post(r#"{"jsonrpc":"2.0","id":1,"method""#, &[])));
    let v: Value = serde_json::from_slice(&body).unwrap();
    println!("{v}");
    assert_eq!((status, v["error"]["code"].as_i64()), (StatusCode::BAD_REQUEST, Some(-32700)));
    assert_eq!(v["error"]["data"]["violations"][0]["rule"], "json");
    assert_eq!(echo.calls.load(Ordering::SeqCst), 0);
}

#[test]
fn the_layers_own_failure_passes_with_fail_open_else_503() {
    let seen = Seen::default();
    let panic = r#"{"jsonrpc":"2.0","id":1,"method":"panic"}"#;
    for (fail_open, status, calls) in [(true, StatusCode::OK, 1), (false, StatusCode::SERVICE_UNAVAILABLE, 0)] {
        let (guard, _) = layer(Config { fail_open, ..Config::enforce() });
        let echo = Echo::default();
        let mut svc = guard.layer(echo.clone());
        let (got, _, _) = run(&seen, send(&mut svc, post(panic, &[])));
        println!("fail_open {fail_open}: {got}, {} call(s)", echo.calls.load(Ordering::SeqCst));
        assert_eq!((got, echo.calls.load(Ordering::SeqCst)), (status, calls), "fail_open {fail_open}");
        assert_eq!(Stats::get(&guard.stats().internal), 1);
        // The stream starts over and the next request is checked as usual.
        let (got, _, _) = run(&seen, send(&mut svc, post(BAD_CALL, &[])));
        assert_eq!(got, StatusCode::BAD_REQUEST);
    }
}

#[test]
fn a_body_past_the_limit_is_counted_in_audit_and_413_in_enforce() {
    let seen = Seen::default();
    let limits = Limits { max_body: 64, ..Limits::default() };
    let long = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"bad":"{}"}}}}"#, "x".repeat(100));
    for (mode, status, calls) in [(Mode::Audit, StatusCode::OK, 1), (Mode::Enforce, StatusCode::PAYLOAD_TOO_LARGE, 0)] {
        let (guard, checked) = layer(Config { mode, limits, ..Config::default() });
        let echo = Echo::default();
        let mut svc = guard.layer(echo.clone());
        let (got, _, _) = run(&seen, send(&mut svc, post(&long, &[])));
        println!("{mode:?}: a body past the limit got {got}, {} call(s)", echo.calls.load(Ordering::SeqCst));
        assert_eq!((got, echo.calls.load(Ordering::SeqCst)), (status, calls), "{mode:?}");
        assert_eq!(Stats::get(&guard.stats().too_long), 1);
        // Not checked: the double saw only the service's answer, if any.
        assert_eq!(checked.load(Ordering::SeqCst), calls);
    }
}

#[test]
fn responses_are_tapped_and_reported_never_altered() {
    let seen = Seen::default();
    let (guard, checked) = layer(Config::enforce());
    let mut svc = guard.layer(tower_service_fn(|body: Value| serde_json::json!({"jsonrpc": "2.0", "id": body["id"], "result": {"oops": 1}})));
    let request = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    let (status, _, body) = run(&seen, send(&mut svc, post(request, &[])));
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&body[..], br#"{"id":3,"jsonrpc":"2.0","result":{"oops":1}}"#);
    assert_eq!(checked.load(Ordering::SeqCst), 2, "the request and its answer");
    let findings = seen.findings();
    assert_eq!(findings.len(), 1);
    assert_eq!((findings[0].0["direction"].as_str(), findings[0].0["pointer"].as_str(), findings[0].0["refused"].as_str()), ("s2c", "/result/oops", "false"));
    let (buckets, _) = guard.stats().operations();
    assert_eq!(buckets.iter().map(|b| b.1).sum::<u64>(), 1, "one operation measured");
}

#[test]
fn an_initialize_starts_the_session_its_answer_names_and_delete_ends_it() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::enforce());
    let mut svc = guard.layer(Echo::default());
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let (_, headers, _) = run(&seen, send(&mut svc, post(init, &[])));
    assert_eq!(headers["mcp-session-id"], "s1");
    assert_eq!(guard.sessions().0, 1);
    // The span of the `initialize` carries the session its answer assigned.
    assert!(seen.all_spans().iter().any(|s| s.get("mcp.method.name").map(String::as_str) == Some("initialize") && s.get("mcp.session.id").map(String::as_str) == Some("s1")));
    let delete = http::Request::delete("/mcp").header("mcp-session-id", "s1").body(http_body_util::Full::default()).unwrap();
    let (status, _, _) = run(&seen, send(&mut svc, delete));
    assert_eq!(status, StatusCode::OK);
    assert_eq!(guard.sessions().0, 0);
}

#[test]
fn a_batch_member_that_breaks_a_rule_refuses_the_batch() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::enforce());
    let echo = Echo::default();
    let mut svc = guard.layer(echo.clone());
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping","bad_id":true}]"#;
    let (status, _, body) = run(&seen, send(&mut svc, post(batch, &[("mcp-session-id", "s1")])));
    let v: Value = serde_json::from_slice(&body).unwrap();
    println!("{v}");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v[0]["error"]["code"], -32600);
    assert_eq!(v[1]["error"]["data"]["violations"][0]["pointer"], "/1/id");
    assert_eq!(echo.calls.load(Ordering::SeqCst), 0);
}

/// A service answering each JSON request with `f` of it, as JSON.
fn tower_service_fn(f: fn(Value) -> Value) -> impl tower_service::Service<http::Request<mcp_spec_guard::Forward<http_body_util::Full<bytes::Bytes>>>, Response = http::Response<http_body_util::Full<bytes::Bytes>>, Error = std::convert::Infallible, Future: Send> + Clone + Send + 'static {
    Answer(f)
}

#[derive(Clone)]
struct Answer(fn(Value) -> Value);

impl<B: http_body::Body<Data = bytes::Bytes> + Send + 'static> tower_service::Service<http::Request<B>> for Answer
where
    B::Error: std::fmt::Debug,
{
    type Response = http::Response<http_body_util::Full<bytes::Bytes>>;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let f = self.0;
        Box::pin(async move {
            use http_body_util::BodyExt;
            let bytes = request.into_body().collect().await.unwrap().to_bytes();
            let answer = f(serde_json::from_slice(&bytes).unwrap());
            Ok(http::Response::builder().header("content-type", "application/json").body(http_body_util::Full::new(bytes::Bytes::from(answer.to_string()))).unwrap())
        })
    }
}

#[test]
fn the_layer_and_its_body_cross_threads() {
    fn shared<T: Send + Sync + Clone + 'static>() {}
    fn sent<T: Send + 'static>() {}
    shared::<GuardLayer>();
    shared::<mcp_spec_guard::Guard<Echo>>();
    sent::<mcp_spec_guard::GuardBody<http_body_util::Full<bytes::Bytes>>>();
    sent::<mcp_spec_guard::Forward<http_body_util::Full<bytes::Bytes>>>();
}

#[cfg(feature = "metrics")]
#[test]
fn the_counters_read_as_prometheus_text() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::default());
    let mut svc = guard.layer(Echo::default());
    run(&seen, send(&mut svc, post(BAD_CALL, &[("mcp-session-id", "s1")])));
    let text = guard.metrics().text();
    println!("{text}");
    for line in [
        "mcp_guard_requests_total 1",
        "mcp_guard_messages_total{method=\"tools/call\",direction=\"c2s\"} 1",
        "mcp_guard_findings_total{rule=\"type\",severity=\"error\",direction=\"c2s\"} 1",
        "mcp_guard_refused_total 0",
        "mcp_guard_sessions 1",
        "mcp_server_operation_duration_seconds_count 1",
        "mcp_server_operation_duration_seconds_bucket{le=\"+Inf\"} 1",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?}");
    }
    // Each check timed: the request's head and body, the answer's head, body and end at least.
    let checks = text.lines().find_map(|l| l.strip_prefix("mcp_guard_check_seconds_count ")).and_then(|n| n.parse::<u64>().ok());
    assert!(checks.is_some_and(|n| n >= 4), "{checks:?}");
}

#[cfg(feature = "metrics")]
#[test]
fn messages_count_by_method_and_an_unknown_one_as_other() {
    let seen = Seen::default();
    let (guard, _) = layer(Config::default());
    let mut svc = guard.layer(Echo::default());
    run(&seen, send(&mut svc, post(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, &[("mcp-session-id", "s1")])));
    run(&seen, send(&mut svc, post(r#"{"jsonrpc":"2.0","id":2,"method":"made/up"}"#, &[("mcp-session-id", "s1")])));
    let by = guard.stats().messages_by_method();
    println!("{by:?}");
    assert_eq!(by.get(&("tools/list", "c2s")), Some(&1));
    assert_eq!(by.get(&("tools/list", "s2c")), Some(&1), "an answer counts as its request's method");
    assert_eq!(by.get(&("_OTHER", "s2c")), Some(&1));
    assert_eq!(by.get(&("_OTHER", "c2s")), Some(&1), "a method no version knows is not a label value of its own");
    assert!(!by.keys().any(|k| k.0 == "made/up"));
}

/// A stream that records the ends it was told.
struct Ends(Arc<std::sync::Mutex<Vec<(u64, bool)>>>);

impl Stream for Ends {
    fn message(&mut self, _: u64, _: Direction, _: Node<'_>, _: Option<Event<'_>>) -> Vec<Finding> {
        Vec::new()
    }
    fn end(&mut self, _: u64, bytes: u64, complete: bool) -> Vec<Finding> {
        self.0.lock().unwrap().push((bytes, complete));
        Vec::new()
    }
}

struct MakeEnds(Arc<std::sync::Mutex<Vec<(u64, bool)>>>);

impl Checks for MakeEnds {
    fn stream(&self, _: &Limits, _: Option<&str>) -> Box<dyn Stream> {
        Box::new(Ends(self.0.clone()))
    }
}

#[test]
fn an_answer_not_polled_to_its_end_is_told_as_it_was() {
    use http_body::Body;
    let seen = Seen::default();
    let ends = Arc::new(std::sync::Mutex::new(Vec::new()));
    let guard = GuardLayer::new(Config::default(), MakeEnds(ends.clone()));
    let mut svc = guard.layer(Echo::default());
    run(&seen, async {
        // A 202 (no body) that is never polled, then an answer dropped before its body was read.
        for body in [r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#] {
            std::future::poll_fn(|cx| tower_service::Service::<http::Request<http_body_util::Full<bytes::Bytes>>>::poll_ready(&mut svc, cx)).await.unwrap();
            let response = tower_service::Service::call(&mut svc, post(body, &[])).await.unwrap();
            println!("{} is_end_stream {}", response.status(), response.body().is_end_stream());
            drop(response);
        }
    });
    assert_eq!(*ends.lock().unwrap(), vec![(0, true), (0, false)]);
}

#[test]
fn the_layers_own_answer_carries_what_it_read_and_said() {
    use http_body_util::BodyExt;
    use tower_service::Service;
    let seen = Seen::default();
    let (guard, _) = layer(Config::enforce());
    let mut svc = guard.layer(Echo::default());
    let response = run(&seen, svc.call(post(BAD_CALL, &[("mcp-session-id", "s1")]))).unwrap();
    let answered = response.extensions().get::<mcp_spec_guard::Answered>().cloned().expect("the refusal is marked");
    let body = run(&seen, response.into_body().collect()).unwrap().to_bytes();
    assert_eq!(answered.request.as_deref(), Some(BAD_CALL.as_bytes()));
    assert_eq!(answered.answer, body);
    // What the service answered is not marked.
    let response = run(&seen, svc.call(post(r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#, &[("mcp-session-id", "s1")]))).unwrap();
    assert!(response.extensions().get::<mcp_spec_guard::Answered>().is_none());
}
