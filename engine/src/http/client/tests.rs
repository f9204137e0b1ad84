//! The HTTP client adapter against a scripted server on a local port: the session's headers,
//! SSE answers and their resumption, HTTP failures as answers, the bounds, and `connect`'s choice.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

use super::{connect, Connection, Direction, Limits, Negotiated, HTTP_ERROR};
use crate::{CallError, Client, Closed, Config, Event, PerRequest, RequestError};
use mcp_spec_types::v2025_11_25 as mcp;

/// One request the server saw: method, headers (lower-case names), the JSON-RPC method.
#[derive(Debug, Clone)]
struct Seen {
    http: String,
    headers: Vec<(String, String)>,
    rpc: Option<String>,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

type Script = Arc<dyn Fn(&Seen, &Value) -> Response<Full<Bytes>> + Send + Sync>;

/// Serves `script` on a local port; the URL and what it saw.
async fn serve(script: Script) -> (String, Arc<Mutex<Vec<Seen>>>) {
    serve_slow_get(script, Duration::ZERO).await
}

/// [`serve`], answering each GET `delay` late; the log then has a `GET answered` entry when it is.
async fn serve_slow_get(script: Script, delay: Duration) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let (script, log) = (script.clone(), log.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                    let (script, log) = (script.clone(), log.clone());
                    async move {
                        let headers = request.headers().iter().map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap_or("").to_owned())).collect();
                        let http = request.method().to_string();
                        let body = request.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                        let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                        let seen = Seen { http, headers, rpc: message.get("method").and_then(Value::as_str).map(str::to_owned) };
                        log.lock().unwrap().push(seen.clone());
                        if seen.http == "GET" && !delay.is_zero() {
                            tokio::time::sleep(delay).await;
                            log.lock().unwrap().push(Seen { http: "GET answered".into(), headers: Vec::new(), rpc: None });
                        }
                        Ok::<_, std::convert::Infallible>(script(&seen, &message))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    (url, seen)
}

fn json_answer(message: &Value, result: Value) -> Response<Full<Bytes>> {
    let body = json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
    Response::builder().header("content-type", "application/json").body(Full::new(Bytes::from(body))).unwrap()
}

fn sse(body: String) -> Response<Full<Bytes>> {
    Response::builder().header("content-type", "text/event-stream").body(Full::new(Bytes::from(body))).unwrap()
}

fn status(code: u16, body: &str) -> Response<Full<Bytes>> {
    Response::builder().status(code).body(Full::new(Bytes::from(body.to_owned()))).unwrap()
}

fn run(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(test)
}

fn initialize() -> mcp::InitializeRequest {
    let params = mcp::InitializeRequestParams::new("2025-11-25", mcp::ClientCapabilities::default(), mcp::Implementation::new("t", "1"));
    mcp::InitializeRequest::new(params, mcp::RequestId::Integer(0))
}

fn list() -> mcp::ListToolsRequest {
    mcp::ListToolsRequest::new(mcp::RequestId::Integer(0))
}

fn session_server(seen: &Seen, message: &Value) -> Response<Full<Bytes>> {
    match (seen.http.as_str(), seen.rpc.as_deref()) {
        ("POST", Some("initialize")) => {
            let mut r = json_answer(message, json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}));
            r.headers_mut().insert("mcp-session-id", "s-1".parse().unwrap());
            r
        }
        ("POST", Some("tools/list")) => {
            let token = &message["params"]["_meta"]["progressToken"];
            let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}});
            let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": []}});
            sse(format!("id: 1\ndata: {progress}\n\nid: 2\ndata: {answer}\n\n"))
        }
        ("POST", _) => status(202, ""),
        ("GET", _) => status(405, ""),
        ("DELETE", _) => status(200, ""),
        _ => status(400, "?"),
    }
}

#[test]
fn a_session_keeps_its_id_and_version_reads_sse_and_ends_with_delete() {
    run(async {
        let (url, seen) = serve(Arc::new(session_server)).await;
        let mut conn = Connection::new(&url, Client::new(Config::default()), Limits::default()).unwrap();
        let init = conn.call(initialize(), Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        assert_eq!(init.protocol_version, "2025-11-25");
        assert_eq!(conn.session_id().as_deref(), Some("s-1"));
        conn.engine().notify(&mcp::InitializedNotification::default()).unwrap();
        let mut progress = 0;
        let tools = conn.call_with_progress(list(), Some(Duration::from_secs(30)), |_, e| progress += matches!(e, Event::Progress { .. }) as usize).await.unwrap();
        assert!(tools.tools.is_empty());
        assert_eq!(progress, 1);
        assert_eq!(conn.close(Duration::from_secs(30)).await.unwrap(), Closed::Ended(None));
        let seen = seen.lock().unwrap().clone();
        let first = &seen[0];
        assert_eq!((first.header("mcp-session-id"), first.header("accept")), (None, Some("application/json, text/event-stream")));
        let listed = seen.iter().find(|s| s.rpc.as_deref() == Some("tools/list")).unwrap();
        assert_eq!((listed.header("mcp-session-id"), listed.header("mcp-protocol-version")), (Some("s-1"), Some("2025-11-25")));
        let deleted = seen.iter().find(|s| s.http == "DELETE").expect("a DELETE");
        assert_eq!(deleted.header("mcp-session-id"), Some("s-1"));
        println!("{} HTTP requests: {:?}", seen.len(), seen.iter().map(|s| (s.http.as_str(), s.rpc.as_deref())).collect::<Vec<_>>());
    });
}

#[test]
fn a_request_past_its_timeout_is_cancelled_and_the_observer_sees_each_message_in_order() {
    run(async {
        // tools/list is accepted and never answered: the engine's deadline ends the call.
        let script: Script = Arc::new(|seen, message| if seen.rpc.as_deref() == Some("tools/list") { status(202, "") } else { session_server(seen, message) });
        let (url, _) = serve(script).await;
        let mut conn = Connection::new(&url, Client::new(Config::default()), Limits::default()).unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let observed = log.clone();
        conn.observe(move |direction, line| observed.lock().unwrap().push((direction, String::from_utf8_lossy(line).into_owned())));
        conn.call(initialize(), Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        // In a task of its own: the call's future is Send.
        let (conn, late) = tokio::spawn(async move {
            let late = conn.call(list(), Some(Duration::from_millis(50)), |_, _| {}).await;
            (conn, late)
        })
        .await
        .unwrap();
        assert!(matches!(late, Err(CallError::Request(RequestError::TimedOut))), "{late:?}");
        assert_eq!(conn.close(Duration::from_secs(30)).await.unwrap(), Closed::Ended(None));
        let log = log.lock().unwrap().clone();
        let what = |line: &str| serde_json::from_str::<Value>(line).ok().and_then(|m| m.get("method").and_then(Value::as_str).map(str::to_owned)).unwrap_or_else(|| "(answer)".into());
        let seen: Vec<_> = log.iter().map(|(d, line)| (*d, what(line))).collect();
        let expected = [(Direction::Written, "initialize"), (Direction::Read, "(answer)"), (Direction::Written, "tools/list"), (Direction::Written, "notifications/cancelled")];
        assert_eq!(seen, expected.map(|(d, m)| (d, m.to_owned())));
    });
}

#[test]
fn the_get_stream_opens_once_initialized_and_brings_the_servers_messages() {
    run(async {
        let script: Script = Arc::new(|seen, message| match seen.http.as_str() {
            "GET" => sse(format!("data: {}\n\n", json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}))),
            _ => session_server(seen, message),
        });
        let (url, seen) = serve(script).await;
        let mut conn = Connection::new(&url, Client::new(Config::default()), Limits::default()).unwrap();
        conn.call(initialize(), Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        assert!(!seen.lock().unwrap().iter().any(|s| s.http == "GET"), "no GET before the session is initialized");
        conn.engine().notify(&mcp::InitializedNotification::default()).unwrap();
        let event = conn.next_event_timeout(Duration::from_secs(30)).await.unwrap();
        assert!(matches!(&event, Some(Event::Notification { method, .. }) if method == "notifications/tools/list_changed"), "{event:?}");
        let get = seen.lock().unwrap().iter().find(|s| s.http == "GET").cloned().unwrap();
        assert_eq!((get.header("accept"), get.header("mcp-session-id")), (Some("text/event-stream"), Some("s-1")));
        // Nothing more comes: the deadline ends the wait, the connection stays usable.
        let quiet = conn.next_event_timeout(Duration::from_millis(50)).await.unwrap_err();
        assert_eq!(quiet.kind(), std::io::ErrorKind::TimedOut);
    });
}

#[test]
fn requests_after_initialized_wait_for_the_get_streams_answer() {
    // A server may put an answer on any stream open: a GET that reaches it after the next POST
    // can take that POST's answer (the conformance suite's sse-retry scenario then sees no
    // resumption). So the POSTs after the GET is asked for go once it is answered.
    run(async {
        let script: Script = Arc::new(|seen, message| match seen.http.as_str() {
            "GET" => sse(String::new()),
            _ => session_server(seen, message),
        });
        let (url, seen) = serve_slow_get(script, Duration::from_millis(200)).await;
        let mut conn = Connection::new(&url, Client::new(Config::default()), Limits::default()).unwrap();
        conn.call(initialize(), Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        conn.engine().notify(&mcp::InitializedNotification::default()).unwrap();
        conn.call(list(), Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        let order: Vec<String> = seen.lock().unwrap().iter().map(|s| format!("{} {}", s.http, s.rpc.as_deref().unwrap_or(""))).collect();
        let at = |what: &str| order.iter().position(|o| o.trim() == what).unwrap_or_else(|| panic!("no {what} in {order:?}"));
        assert!(at("GET answered") < at("POST tools/list"), "{order:?}");
    });
}

#[test]
fn a_stream_that_drops_before_its_answer_is_resumed_with_last_event_id() {
    run(async {
        let answered: Arc<Mutex<Option<Value>>> = Arc::default();
        let keep = answered.clone();
        let script: Script = Arc::new(move |seen, message| match seen.http.as_str() {
            "POST" => {
                *keep.lock().unwrap() = Some(message["id"].clone());
                // Primes the stream with an id, then ends it.
                sse("retry: 10\nid: e1\ndata: \n\n".into())
            }
            _ if seen.header("last-event-id") == Some("e1") => {
                let id = keep.lock().unwrap().clone();
                sse(format!("id: e2\ndata: {}\n\n", json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}})))
            }
            _ => status(405, ""),
        });
        let (url, seen) = serve(script).await;
        let mut conn = Connection::new(&url, Client::new(Config::default()), Limits::default()).unwrap();
        let tools = conn.call(list(), Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        assert!(tools.tools.is_empty());
        let gets = seen.lock().unwrap().iter().filter(|s| s.http == "GET").count();
        assert_eq!(gets, 1);
        assert!(answered.lock().unwrap().is_some());
    });
}

#[test]
fn http_failures_and_bodies_past_their_bound_answer_the_request() {
    run(async {
        let script: Script = Arc::new(|seen, message| match seen.header("x-case") {
            _ if message["method"] == "tools/list" && message["params"]["cursor"] == "big" => json_answer(message, json!({"tools": [], "pad": "x".repeat(4096)})),
            _ if message["method"] == "tools/list" => status(500, "boom"),
            _ => status(202, ""),
        });
        let (url, _) = serve(script).await;
        let limits = Limits { max_body: 1024, ..Limits::default() };
        let mut conn = Connection::new(&url, Client::new(Config::default()), limits).unwrap();
        let failed = conn.call(list(), Some(Duration::from_secs(30)), |_, _| {}).await;
        let Err(CallError::Request(RequestError::Rpc(e))) = failed else { panic!("{failed:?}") };
        assert_eq!((e.code, e.data.unwrap()["status"].clone()), (HTTP_ERROR, json!(500)));
        assert!(e.message.contains("boom"), "{}", e.message);
        let mut big = list();
        big.params = Some(mcp::PaginatedRequestParams { cursor: Some("big".into()), ..Default::default() });
        let failed = conn.call(big, Some(Duration::from_secs(30)), |_, _| {}).await;
        let Err(CallError::Request(RequestError::Rpc(e))) = failed else { panic!("{failed:?}") };
        assert!(e.message.contains("longer than 1024"), "{}", e.message);
    });
}

fn per_request() -> PerRequest {
    PerRequest::new("2026-07-28", &json!({})).unwrap()
}

#[test]
fn connect_stays_per_request_when_discover_lists_the_version() {
    run(async {
        let script: Script = Arc::new(|seen, message| match seen.rpc.as_deref() {
            Some("server/discover") => json_answer(message, json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})),
            Some("tools/call") => json_answer(message, json!({"resultType": "complete", "content": []})),
            _ => status(400, "no"),
        });
        let (url, seen) = serve(script).await;
        let (mut conn, negotiated) = connect(&url, Config::default(), Limits::default(), Some(per_request()), Some(initialize()), Duration::from_secs(30)).await.unwrap();
        assert!(matches!(negotiated, Negotiated::PerRequest { .. }), "{negotiated:?}");
        use mcp_spec_types::v2026_07_28 as next;
        let call = next::CallToolRequest::new(next::CallToolRequestParams::new(next::RequestMetaObject::default(), "echo"), next::RequestId::Integer(0));
        conn.call(call, Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        conn.extra_headers(Arc::new(|m| vec![("mcp-param-region".into(), super::header_value(m["params"]["name"].as_str().unwrap_or("")))]));
        let call = next::CallToolRequest::new(next::CallToolRequestParams::new(next::RequestMetaObject::default(), "écho"), next::RequestId::Integer(0));
        conn.call(call, Some(Duration::from_secs(30)), |_, _| {}).await.unwrap();
        let seen = seen.lock().unwrap().clone();
        assert_eq!((seen[0].header("mcp-method"), seen[0].header("mcp-protocol-version")), (Some("server/discover"), Some("2026-07-28")));
        assert_eq!((seen[1].header("mcp-method"), seen[1].header("mcp-name")), (Some("tools/call"), Some("echo")));
        // A name outside plain ASCII goes as SEP-2243's base64 form; the application's headers are added.
        assert_eq!((seen[2].header("mcp-name"), seen[2].header("mcp-param-region")), (Some("=?base64?w6ljaG8=?="), Some("=?base64?w6ljaG8=?=")));
        assert!(seen.iter().all(|s| s.rpc.as_deref() != Some("initialize")));
    });
}

#[test]
fn header_values_outside_plain_ascii_are_base64() {
    let cases = [("us-west1", "us-west1"), ("us west 1", "us west 1"), ("", ""), (" padded ", "=?base64?IHBhZGRlZCA=?="), ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="), ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="), ("=?base64?x?=", "=?base64?PT9iYXNlNjQ/eD89?=")];
    for (value, header) in cases {
        assert_eq!(super::header_value(value), header, "{value:?}");
    }
    println!("{} passed, 0 failed", cases.len());
}

#[test]
fn connect_falls_back_to_initialize_when_the_server_refuses_the_per_request_form() {
    let mut cases = 0;
    // A server of sessions: a 400 for a request without one, or method not found, or a
    // discover result without the version.
    for refusal in ["400", "-32601", "-32022", "listed"] {
        run(async {
            let script: Script = Arc::new(move |seen, message| match seen.rpc.as_deref() {
                Some("server/discover") if refusal == "400" => status(400, "Bad Request: no session"),
                Some("server/discover") if refusal == "-32601" => json_answer(message, Value::Null).map(|_| Full::new(Bytes::from(json!({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}).to_string()))),
                Some("server/discover") if refusal == "-32022" => {
                    let error = json!({"code": -32022, "message": "Unsupported protocol version", "data": {"requested": "2026-07-28", "supported": ["2025-11-25"]}});
                    status(200, &json!({"jsonrpc": "2.0", "id": message["id"], "error": error}).to_string())
                }
                Some("server/discover") => json_answer(message, json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": ["2025-11-25"], "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})),
                _ => session_server(seen, message),
            });
            let (url, _) = serve(script).await;
            let (conn, negotiated) = connect(&url, Config::default(), Limits::default(), Some(per_request()), Some(initialize()), Duration::from_secs(30)).await.unwrap();
            let Negotiated::Session { initialized, fell_back } = negotiated else { panic!("{refusal}: {negotiated:?}") };
            assert_eq!(initialized.protocol_version, "2025-11-25");
            println!("{refusal}: fell back because {}", fell_back.unwrap());
            assert_eq!(conn.session_id().as_deref(), Some("s-1"));
        });
        cases += 1;
    }
    println!("{cases} passed, 0 failed");
}

#[test]
fn connect_returns_a_transport_failure_instead_of_falling_back() {
    run(async {
        // Nothing listens there: no HTTP answer at all is no sign of a server of sessions.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/mcp");
        let outcome = connect(&url, Config::default(), Limits::default(), Some(per_request()), Some(initialize()), Duration::from_secs(30)).await;
        let Err(CallError::Request(RequestError::Rpc(e))) = outcome else { panic!("{:?}", outcome.map(|(_, n)| n)) };
        assert_eq!((e.code, e.data.unwrap()["status"].clone()), (HTTP_ERROR, Value::Null));
    });
}

#[test]
fn only_the_initialized_notification_opens_the_get_stream() {
    let cases: [(&[u8], bool); 3] = [
        (br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, true),
        (br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"notifications/initialized"}}}"#, false),
        (br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#, false),
    ];
    let wrong: Vec<_> = cases.iter().filter(|(line, is)| super::is_initialized_notification(line) != *is).map(|(line, _)| String::from_utf8_lossy(line)).collect();
    println!("{} passed, {} failed", cases.len() - wrong.len(), wrong.len());
    assert!(wrong.is_empty(), "{wrong:?}");
}
