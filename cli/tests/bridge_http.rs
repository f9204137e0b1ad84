//! `mcp-schema proxy --http --to VERSION` against upstream stubs written here (hyper), one per
//! direction of version difference: what the client sees (session ids, JSON or SSE answers, 202,
//! 404 after DELETE), what the upstream gets (its own session and version headers, per-request
//! `_meta`), the verdicts in `--summary`, and a recording with both legs' HTTP lines that checks clean.
//!
//! Then real peers over Streamable HTTP, pinned in cli/tests/bridge_real/package.json (installed
//! by `npm ci`; skipped with a message without npm, a failure under `CI=true`): the TypeScript SDK
//! 1.x client with the SDK v2 server served by `createMcpHandler` with `legacy: 'reject'`
//! (2026-07-28 only) through `--to 2026-07-28`, and the SDK v2 client pinned to 2026-07-28 with
//! `server-everything streamableHttp` (stops at 2025-11-25) through `--to 2025-11-25`.

#![cfg(unix)]

use crate::common;

use std::convert::Infallible;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{json, Value};

use common::http_proxy::HttpProxy;
use common::{TempFile, BIN};

#[derive(Debug, Clone)]
struct Seen {
    method: String,
    headers: hyper::HeaderMap,
    body: Value,
}

type Answer = (u16, Vec<(&'static str, String)>, String);

/// An upstream whose answer to each request comes from `answer`; every request is kept.
async fn upstream(answer: fn(&Seen) -> Answer) -> (u16, Arc<Mutex<Vec<Seen>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let s = s.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                    let s = s.clone();
                    async move {
                        let (parts, body) = req.into_parts();
                        let body = body.collect().await.map(|b| b.to_bytes().to_vec()).unwrap_or_default();
                        let seen = Seen { method: parts.method.to_string(), headers: parts.headers, body: serde_json::from_slice(&body).unwrap_or(Value::Null) };
                        s.lock().unwrap().push(seen.clone());
                        let (status, headers, body) = answer(&seen);
                        // A stub that takes its time to answer says so in a header of its answer.
                        if let Some((_, ms)) = headers.iter().find(|(k, _)| *k == "x-stub-delay-ms") {
                            tokio::time::sleep(Duration::from_millis(ms.parse().unwrap())).await;
                        }
                        let mut resp = Response::builder().status(status);
                        for (k, v) in headers {
                            resp = resp.header(k, v);
                        }
                        Ok::<_, Infallible>(resp.body(Full::new(Bytes::from(body))).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    (port, seen)
}

/// The bridge over HTTP (`proxy --http --to VERSION --summary`) in front of a local upstream.
struct Bridge;

impl Bridge {
    fn start(upstream: u16, to: &str) -> HttpProxy {
        Bridge::start_with(upstream, to, &[])
    }

    fn start_with(upstream: u16, to: &str, extra: &[&str]) -> HttpProxy {
        HttpProxy::start(&format!("http://127.0.0.1:{upstream}/mcp"), &[&["--to", to, "--summary"], extra].concat())
    }
}

type Client = hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

/// One request: status, headers and the whole body.
async fn send(c: &Client, method: &str, port: u16, session: Option<&str>, body: &str) -> (u16, hyper::HeaderMap, String) {
    let mut req = Request::builder().method(method).uri(format!("http://127.0.0.1:{port}/mcp")).header("accept", "application/json, text/event-stream").header("content-type", "application/json");
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    // A 2026-07-28 request carries its version and method in headers too, as its clients send them.
    let msg: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    if let (Some(v), Some(m)) = (msg.pointer("/params/_meta").and_then(|m| m.get(META)).and_then(Value::as_str), msg.get("method").and_then(Value::as_str)) {
        req = req.header("mcp-protocol-version", v).header("mcp-method", m);
    }
    let resp = c.request(req.body(Full::new(Bytes::from(body.to_string()))).unwrap()).await.unwrap();
    let (status, headers) = (resp.status().as_u16(), resp.headers().clone());
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// The messages of an SSE body, in order.
fn events(body: &str) -> Vec<Value> {
    body.lines().filter_map(|l| l.strip_prefix("data: ")).map(|d| serde_json::from_str(d).unwrap()).collect()
}

fn content_type(h: &hyper::HeaderMap) -> &str {
    h.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("")
}

const META: &str = "io.modelcontextprotocol/protocolVersion";

/// A server of 2026-07-28 only: stateless, `server/discover`, `tools/list` answered on an SSE
/// stream after a log notification, `tools/call` as JSON.
fn server26(seen: &Seen) -> Answer {
    let id = seen.body.get("id").cloned().unwrap_or(Value::Null);
    let json = |v: Value| (200, vec![("content-type", "application/json".to_string())], v.to_string());
    match seen.body.get("method").and_then(Value::as_str) {
        Some("server/discover") => json(json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}, "logging": {}, "resources": {"subscribe": true}}, "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "stub26", "version": "1"}}}})),
        Some("tools/list") => {
            let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "listing"}});
            let result = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}});
            (200, vec![("content-type", "text/event-stream".to_string())], format!("id: a\ndata: {log}\n\nid: b\ndata: {result}\n\n"))
        }
        Some("tools/call") => json(json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": [{"type": "text", "text": "hi"}]}})),
        Some(_) => json(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no such method"}})),
        None => (400, vec![], String::new()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_client_talks_to_a_2026_07_28_server() {
    let (up, seen) = upstream(server26).await;
    let mut bridge = Bridge::start(up, "2026-07-28");
    let c: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}"#;
    let (status, h, body) = send(&c, "POST", bridge.port, None, init).await;
    assert_eq!((status, content_type(&h)), (200, "application/json"), "{body}");
    let session = h.get("mcp-session-id").unwrap().to_str().unwrap().to_string();
    assert!(session.len() == 32 && session.bytes().all(|b| b.is_ascii_hexdigit()), "{session}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((&answer["id"], &answer["result"]["protocolVersion"], &answer["result"]["serverInfo"]["name"]), (&json!(0), &json!("2025-06-18"), &json!("stub26")), "{answer}");
    let (status, _, _) = send(&c, "POST", bridge.port, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    assert_eq!(status, 202);
    // A notification first: an SSE stream that ends with the answer.
    let (status, h, body) = send(&c, "POST", bridge.port, Some(&session), r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).await;
    assert_eq!((status, content_type(&h)), (200, "text/event-stream"));
    let got = events(&body);
    assert_eq!(got.len(), 2, "{body}");
    assert_eq!((&got[0]["method"], &got[1]["id"], &got[1]["result"]["tools"][0]["name"]), (&json!("notifications/message"), &json!(1), &json!("echo")));
    assert!(got[1]["result"].get("resultType").is_none(), "taken off for 2025-06-18: {}", got[1]);
    let (status, h, body) = send(&c, "POST", bridge.port, Some(&session), r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#).await;
    assert_eq!((status, content_type(&h)), (200, "application/json"), "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["result"]["content"][0]["text"], "hi");
    // `resources/subscribe` has no 2026-07-28 form: refused by the bridge with its reason.
    let (status, _, body) = send(&c, "POST", bridge.port, Some(&session), r#"{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"file:///a"}}"#).await;
    let refused: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, &refused["id"]), (200, &json!(3)), "{body}");
    assert!(refused["error"]["message"].as_str().unwrap().starts_with("mcp-schema bridge:"), "{body}");
    // A 2025-03-26 client's batch: taken apart, answered on one SSE stream (JSON would have to be an array).
    let init = init.replace("2025-06-18", "2025-03-26");
    let (_, h, _) = send(&c, "POST", bridge.port, None, &init).await;
    let other = h.get("mcp-session-id").unwrap().to_str().unwrap().to_string();
    assert_ne!(other, session);
    let batch = r#"[{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    let (status, h, body) = send(&c, "POST", bridge.port, Some(&other), batch).await;
    assert_eq!((status, content_type(&h)), (200, "text/event-stream"), "{body}");
    let got = events(&body);
    assert_eq!((got.len(), &got[0]["id"], &got[0]["result"]["content"][0]["text"]), (1, &json!(7), &json!("hi")), "{body}");
    // A second GET stream of one session is refused.
    let get = |c: Client, port: u16, s: String| async move {
        let req = Request::builder().method("GET").uri(format!("http://127.0.0.1:{port}/mcp")).header("accept", "text/event-stream").header("mcp-session-id", s).body(Full::new(Bytes::new())).unwrap();
        c.request(req).await.unwrap()
    };
    let first = get(c.clone(), bridge.port, other.clone()).await;
    assert_eq!((first.status().as_u16(), content_type(first.headers())), (200, "text/event-stream"));
    assert_eq!(get(c.clone(), bridge.port, other.clone()).await.status().as_u16(), 409);
    drop(first);
    // No session, or an unknown one.
    assert_eq!(send(&c, "POST", bridge.port, None, r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#).await.0, 400);
    assert_eq!(send(&c, "DELETE", bridge.port, Some(&session), "").await.0, 200);
    assert_eq!(send(&c, "POST", bridge.port, Some(&session), r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#).await.0, 404);

    // The upstream: stateless POSTs, each with the version header and the per-request `_meta`.
    let seen = seen.lock().unwrap().clone();
    let methods: Vec<&str> = seen.iter().map(|s| s.body["method"].as_str().unwrap_or("")).collect();
    assert_eq!(methods, ["server/discover", "tools/list", "tools/call", "server/discover", "tools/call"]);
    for s in &seen {
        assert_eq!((s.method.as_str(), s.headers.get("mcp-protocol-version").map(|v| v.to_str().unwrap())), ("POST", Some("2026-07-28")));
        assert!(s.headers.get("mcp-session-id").is_none());
        assert_eq!(s.body["params"]["_meta"][META], "2026-07-28", "{}", s.body);
    }

    assert_eq!(bridge.stop(), 0);
    let lines = bridge.lines();
    // Both legs, each message line with its exchange; the upstream's exchanges numbered after the client's that caused them.
    let on = |leg: &str, m: &str| lines.iter().find(|l| l["leg"] == leg && l["msg"]["method"] == m).unwrap_or_else(|| panic!("no {leg} {m}")).clone();
    let (client_list, server_list) = (on("client", "tools/list"), on("server", "tools/list"));
    assert_eq!(client_list["bridge"]["verdict"], "converted");
    assert!(server_list["http"]["x"].as_u64() > client_list["http"]["x"].as_u64());
    let log = on("client", "notifications/message");
    assert_eq!((&log["http"]["x"], &log["http"]["event"]), (&client_list["http"]["x"], &json!(0)));
    assert!(lines.iter().any(|l| l["http"]["at"] == "request" && l["http"]["headers"]["mcp-protocol-version"] == "2026-07-28"));
    // Live, each client session is its own stream: nothing found. (Offline, `check` reads the file
    // as one session: the second session's `initialize` would be a reused id.)
    let findings = std::fs::read_to_string(bridge.findings.path()).unwrap();
    let messages = lines.iter().filter(|l| l.get("msg").is_some()).count();
    assert!(findings.lines().any(|l| l == format!("{messages} passed, 0 failed")) && findings.contains("findings per rule (both legs; a finding the bridge passed on is counted once, on the leg it came in)\n  none\n"), "{messages} messages: {findings}");
    assert!(findings.contains("bridge verdicts:") && findings.contains("refused") && findings.contains("resources/subscribe"), "{findings}");
}

/// A server of 2025-11-25: a session from `initialize`, no GET stream (405), JSON answers.
fn server25(seen: &Seen) -> Answer {
    let id = seen.body.get("id").cloned().unwrap_or(Value::Null);
    let json = |v: Value| (200, vec![("content-type", "application/json".to_string()), ("mcp-session-id", "up-1".to_string())], v.to_string());
    if seen.method == "GET" {
        return (405, vec![("allow", "POST, DELETE".to_string())], String::new());
    }
    if seen.method == "DELETE" {
        return (200, vec![], String::new());
    }
    match seen.body.get("method").and_then(Value::as_str) {
        Some("initialize") => json(json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "prompts": {}}, "serverInfo": {"name": "stub25", "version": "1"}}})),
        Some("tools/list") => json(json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}})),
        Some(m) if m.starts_with("notifications/") => (202, vec![], String::new()),
        Some(_) => json(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no such method"}})),
        None => (400, vec![], String::new()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_client_talks_to_an_older_server() {
    let (up, seen) = upstream(server25).await;
    let mut bridge = Bridge::start(up, "2025-11-25");
    let c: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();
    let meta = json!({META: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "new", "version": "2"}});
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}});
    let (status, h, body) = send(&c, "POST", bridge.port, None, &discover.to_string()).await;
    assert_eq!((status, content_type(&h)), (200, "application/json"), "{body}");
    assert!(h.get("mcp-session-id").is_none(), "stateless");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["result"]["supportedVersions"], json!(["2026-07-28"]), "{answer}");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}});
    let (status, _, body) = send(&c, "POST", bridge.port, None, &list.to_string()).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, &answer["result"]["resultType"], &answer["result"]["tools"][0]["name"]), (200, &json!("complete"), &json!("echo")), "{answer}");
    // `logging/setLevel` is not a 2026-07-28 request: the client's own version refuses it.
    let bad = json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "info", "_meta": meta}});
    let (_, _, body) = send(&c, "POST", bridge.port, None, &bad.to_string()).await;
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"]["message"].as_str().unwrap().starts_with("mcp-schema bridge:"), "{body}");
    tokio::time::sleep(Duration::from_millis(200)).await;

    // The upstream: the bridge's own initialize, then its session and version on every later request.
    let seen = seen.lock().unwrap().clone();
    let what: Vec<String> = seen.iter().map(|s| format!("{} {}", s.method, s.body["method"].as_str().unwrap_or(""))).collect();
    assert_eq!(&what[..2], ["POST initialize", "POST notifications/initialized"], "{what:?}");
    assert!(what.contains(&"GET ".to_string()) && what.contains(&"POST tools/list".to_string()), "{what:?}");
    for s in &seen[1..] {
        assert_eq!(s.headers.get("mcp-session-id").map(|v| v.to_str().unwrap()), Some("up-1"), "{}", s.body);
        assert_eq!(s.headers.get("mcp-protocol-version").map(|v| v.to_str().unwrap()), Some("2025-11-25"));
    }
    let list = seen.iter().find(|s| s.body["method"] == "tools/list").unwrap();
    assert!(list.body["params"].get("_meta").is_none_or(|m| m.get(META).is_none()), "per-request keys taken off: {}", list.body);

    assert_eq!(bridge.stop(), 0);
    // Clean but for the client's own mistake, which the client leg's checker reports too.
    let check = Command::new(BIN).args(["check", bridge.record.path()]).output().unwrap();
    let report = String::from_utf8_lossy(&check.stdout);
    let errors: Vec<&str> = report.lines().filter(|l| l.contains("error")).collect();
    assert!(!errors.is_empty() && errors.iter().all(|l| l.contains("logging/setLevel")), "{report}");
    let lines = bridge.lines();
    let get = lines.iter().find(|l| l["http"]["at"] == "request" && l["http"]["method"] == "GET").expect("the upstream GET is recorded");
    let x = &get["http"]["x"];
    assert!(lines.iter().any(|l| l["http"]["x"] == *x && l["http"]["status"] == 405));
    let findings = std::fs::read_to_string(bridge.findings.path()).unwrap();
    assert!(findings.contains("bridge verdicts:") && findings.contains("answered") && findings.contains("server/discover"), "{findings}");
}

/// [`server25`], whose `tools/call` answers after 300 ms with the text of its `who` argument.
fn server25_echo(seen: &Seen) -> Answer {
    if seen.body.get("method").and_then(Value::as_str) != Some("tools/call") {
        return server25(seen);
    }
    let result = json!({"jsonrpc": "2.0", "id": seen.body["id"], "result": {"content": [{"type": "text", "text": seen.body["params"]["arguments"]["who"]}]}});
    (200, vec![("content-type", "application/json".to_string()), ("mcp-session-id", "up-1".to_string()), ("x-stub-delay-ms", "300".to_string())], result.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stateless_clients_with_the_same_ids_get_their_own_answers() {
    // Every SDK starts its ids at 0 or 1: two 2026-07-28 clients' requests, both id 1, at once
    // through the one stateless bridge; each answer must reach its own client.
    let (up, seen) = upstream(server25_echo).await;
    let mut bridge = Bridge::start(up, "2025-11-25");
    let c: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();
    let meta = json!({META: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let call = |who: &str| json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"who": who}, "_meta": meta}}).to_string();
    let (a, b) = (call("a"), call("b"));
    let both = async { tokio::join!(send(&c, "POST", bridge.port, None, &a), send(&c, "POST", bridge.port, None, &b)) };
    let ((status_a, _, body_a), (status_b, _, body_b)) = tokio::time::timeout(Duration::from_secs(30), both).await.expect("both clients get an answer");
    for (status, body, who) in [(status_a, body_a, "a"), (status_b, body_b, "b")] {
        let answer: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
        assert_eq!((status, &answer["id"], &answer["result"]["content"][0]["text"]), (200, &json!(1), &json!(who)), "{answer}");
    }
    // Upstream, each carried an id of the bridge's, none the same.
    let ids: Vec<Value> = seen.lock().unwrap().iter().filter(|s| s.body["method"] == "tools/call").map(|s| s.body["id"].clone()).collect();
    assert!(ids.len() == 2 && ids[0] != ids[1] && ids.iter().all(|i| i.as_str().is_some_and(|i| i.starts_with("mcp-schema-bridge/"))), "{ids:?}");
    assert_eq!(bridge.stop(), 0);
}

// ---- real peers ----

fn peers() -> Option<(std::path::PathBuf, String)> {
    let (dir, node) = common::pinned_npm("bridge_real", "the real peers")?;
    Some((dir, node.to_str().unwrap().to_string()))
}

/// A server process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Waits until something listens on `port`.
fn wait_for(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nothing listens on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `client --url` against the bridge in front of `upstream`; checks that the client's steps
/// all passed, that the bridge's checker passed every message line of both legs, and that the
/// recording checks clean offline, whole and leg by leg. Returns the verdicts and the recording.
fn through(dir: &std::path::Path, node: &str, client: &str, steps: usize, upstream: u16, to: &str) -> (Value, Vec<Value>) {
    let mut bridge = Bridge::start_with(upstream, to, &["--json"]);
    let url = format!("http://127.0.0.1:{}/mcp", bridge.port);
    let out = Command::new(node).args([client, "--url", &url]).current_dir(dir).output().expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    assert!(out.status.success() && text.ends_with(&format!("{steps} passed, 0 failed\n")), "the client did not get the answers it expected:\n{}", common::output_text(&out));
    assert_eq!(bridge.stop(), 0);
    let lines = bridge.lines();
    let messages = lines.iter().filter(|l| l.get("msg").is_some()).count();
    let found = std::fs::read_to_string(bridge.findings.path()).unwrap();
    let reported: Vec<Value> = found.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let counts = reported.iter().find(|l| l.get("passed").is_some()).expect("the checker's counts");
    println!("{} lines recorded, {messages} messages (both legs)", lines.len());
    assert_eq!((counts["passed"].as_u64(), counts["failed"].as_u64(), counts["warned"].as_u64()), (Some(messages as u64), Some(0), Some(0)), "the bridge's findings:\n{found}");
    // Offline, the transport rules too: the only finding allowed is that the bridge's SSE answers to a
    // 2025-11-25 client start with no priming event (it does not offer resumption, so it sends no id).
    let again = common::run(&["check", bridge.record.path()], None);
    let others: Vec<&str> = again.stdout.lines().filter(|l| l.contains(": /") && !l.contains("[transport.sse-priming]")).collect();
    assert!(again.code == 0 && others.is_empty() && again.stdout.ends_with(&format!("{messages} passed, 0 failed\n")), "{}{}", again.stdout, again.stderr);
    let recording = std::fs::read_to_string(bridge.record.path()).unwrap();
    for leg in ["client", "server"] {
        let only: String = recording.lines().filter(|l| l.contains(&format!("\"leg\":\"{leg}\""))).map(|l| format!("{l}\n")).collect();
        let n = only.lines().filter(|l| l.contains("\"msg\"")).count();
        assert!(n > 10, "only {n} lines on the {leg} leg");
        let file = TempFile::new("leg.jsonl", only.as_bytes());
        let checked = common::run(&["check", file.path()], None);
        let others: Vec<&str> = checked.stdout.lines().filter(|l| l.contains(": /") && !l.contains("[transport.sse-priming]")).collect();
        assert!(checked.code == 0 && others.is_empty() && checked.stdout.ends_with(&format!("{n} passed, 0 failed\n")), "the {leg} leg: {}{}", checked.stdout, checked.stderr);
    }
    let verdicts = reported.iter().find_map(|l| l.get("bridge")).expect("the bridge's verdicts in the summary").clone();
    println!("verdicts: {verdicts}");
    (verdicts, lines)
}

fn count(v: &Value, verdict: &str, method: &str) -> u64 {
    v[verdict]["methods"][method].as_u64().unwrap_or(0)
}

fn total(v: &Value, verdict: &str) -> u64 {
    v[verdict]["total"].as_u64().unwrap_or(0)
}

#[test]
fn real_a_2025_client_with_a_2026_only_http_server() {
    let Some((dir, node)) = peers() else { return };
    let mut server = Command::new(&node).arg("server26http.mjs").current_dir(&dir).stdout(Stdio::piped()).spawn().expect("node runs");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _server = Server(server);
    let port: u16 = line.trim().strip_prefix("listening ").and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("no port: {line:?}"));
    let (v, lines) = through(&dir, &node, "client25.mjs", 14, port, "2026-07-28");
    assert_eq!((count(&v, "answered", "initialize"), count(&v, "answered", "ping"), total(&v, "answered")), (1, 1, 2));
    assert_eq!((count(&v, "dropped", "notifications/initialized"), count(&v, "refused", "resources/subscribe"), total(&v, "refused")), (1, 1, 1));
    assert_eq!((count(&v, "converted", "elicitation/create result"), total(&v, "forwarded")), (1, 0));
    // Stateless upstream: no session, the version on every POST; the client got a session of the bridge's.
    let ups: Vec<&Value> = lines.iter().filter(|l| l["http"]["at"] == "request" && l["http"]["headers"]["host"] == format!("127.0.0.1:{port}")).collect();
    assert!(ups.len() >= 9 && ups.iter().all(|l| l["http"]["headers"]["mcp-protocol-version"] == "2026-07-28" && l["http"]["headers"].get("mcp-session-id").is_none()));
    assert!(lines.iter().any(|l| l["http"]["at"] == "response" && l["http"]["headers"]["mcp-session-id"].is_string()));
    // The elicitation went down the SSE stream of the client's tools/call.
    let elicit = lines.iter().find(|l| l["leg"] == "client" && l["msg"]["method"] == "elicitation/create").expect("the elicitation");
    assert!(elicit["http"]["event"].is_u64(), "{elicit}");
}

#[test]
fn real_a_2026_client_with_server_everything_over_http() {
    let Some((dir, node)) = peers() else { return };
    let port = free_port();
    let server = Command::new(&node)
        .args([dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js").to_str().unwrap(), "streamableHttp"])
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("node runs");
    let _server = Server(server);
    wait_for(port);
    let (v, lines) = through(&dir, &node, "client26.mjs", 12, port, "2025-11-25");
    assert_eq!((count(&v, "answered", "server/discover"), count(&v, "dropped", "initialize result")), (1, 1));
    assert_eq!((count(&v, "converted", "sampling/createMessage"), total(&v, "refused"), total(&v, "forwarded")), (1, 0, 0));
    // The upstream session: the bridge's own initialize, then its id and version on every later request.
    let ups: Vec<&Value> = lines.iter().filter(|l| l["http"]["at"] == "request" && l["http"]["headers"]["host"] == format!("127.0.0.1:{port}")).collect();
    assert!(ups[1..].iter().all(|l| l["http"]["headers"]["mcp-session-id"].is_string() && l["http"]["headers"]["mcp-protocol-version"] == "2025-11-25"));
    assert!(ups.iter().any(|l| l["http"]["method"] == "GET"), "the upstream's GET stream");
    assert!(lines.iter().all(|l| l["http"]["at"] != "response" || l["http"]["headers"]["host"].is_null()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_upstream_fails_the_request_with_the_reason() {
    // A port nothing listens on: 1 (tcpmux); a port taken and let go could be another test's meanwhile.
    let port = 1;
    let mut bridge = Bridge::start(port, "2026-07-28");
    let c: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}"#;
    let (status, _, body) = send(&c, "POST", bridge.port, None, init).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, &answer["id"], &answer["error"]["code"]), (200, &json!(0), &json!(-32603)), "{body}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("could not be reached"), "{body}");
    assert_eq!(bridge.stop(), 0);
    let lines = bridge.lines();
    let up = lines.iter().find(|l| l["http"]["at"] == "response" && l["http"]["status"] == 502).expect("the bridge's own 502 for the upstream exchange");
    let x = &up["http"]["x"];
    assert!(lines.iter().any(|l| l["http"]["x"] == *x && l["http"]["at"] == "end" && l["http"]["complete"] == false && l["http"]["error"].as_str().unwrap().contains("could not be reached")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_http_errors_and_the_bridge_goes_on() {
    let (up, _) = upstream(server26).await;
    let mut bridge = Bridge::start(up, "2026-07-28");
    let c: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for (method, body, status) in [("POST", "not json", 400), ("POST", "[]", 400), ("POST", "3", 400), ("POST", deep.as_str(), 400), ("PUT", "{}", 405), ("GET", "", 405), ("DELETE", "", 400)] {
        assert_eq!(send(&c, method, bridge.port, None, body).await.0, status, "{method} {}", &body[..body.len().min(20)]);
    }
    assert_eq!(send(&c, "GET", bridge.port, Some("\u{e9}"), "").await.0, 404);
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}"#;
    assert_eq!(send(&c, "POST", bridge.port, None, init).await.0, 200);
    assert_eq!(bridge.stop(), 0);
}

/// [`server25`], with a GET stream that carries a notification.
fn server25_streaming(seen: &Seen) -> Answer {
    if seen.method == "GET" {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        return (200, vec![("content-type", "text/event-stream".to_string())], format!("id: g1\ndata: {note}\n\n"));
    }
    let (status, headers, body) = server25(seen);
    let body = body.replace(r#""tools":{}"#, r#""tools":{"listChanged":true}"#);
    (status, headers, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_upstream_sends_outside_any_post_reaches_the_clients_get_stream() {
    // Both before 2026-07-28, different versions: the client's initialize goes through converted.
    let (up, seen) = upstream(server25_streaming).await;
    let mut bridge = Bridge::start(up, "2025-11-25");
    let c: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}"#;
    let (_, h, body) = send(&c, "POST", bridge.port, None, init).await;
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["result"]["protocolVersion"], "2025-06-18", "{body}");
    let session = h.get("mcp-session-id").unwrap().to_str().unwrap().to_string();
    assert_eq!(send(&c, "POST", bridge.port, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await.0, 202);
    let req = Request::builder().method("GET").uri(format!("http://127.0.0.1:{}/mcp", bridge.port)).header("accept", "text/event-stream").header("mcp-session-id", &session).body(Full::new(Bytes::new())).unwrap();
    let resp = c.request(req).await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let mut body = resp.into_body();
    let frame = tokio::time::timeout(Duration::from_secs(10), body.frame()).await.expect("an event on the GET stream").unwrap().unwrap();
    let got = events(std::str::from_utf8(frame.data_ref().unwrap()).unwrap());
    assert_eq!(got[0]["method"], "notifications/tools/list_changed");
    drop(body);
    // The upstream: the client's initialize with the upstream's version, its session on the rest.
    let seen = seen.lock().unwrap().clone();
    assert_eq!((seen[0].body["method"].as_str(), seen[0].body["params"]["protocolVersion"].as_str()), (Some("initialize"), Some("2025-11-25")));
    assert!(seen.iter().any(|s| s.method == "GET" && s.headers.get("mcp-session-id").is_some()));
    assert_eq!(bridge.stop(), 0);
    let lines = bridge.lines();
    let note = lines.iter().find(|l| l["leg"] == "client" && l["msg"]["method"] == "notifications/tools/list_changed").expect("recorded on the client leg");
    let get = lines.iter().find(|l| l["http"]["at"] == "request" && l["http"]["method"] == "GET" && l["http"]["headers"]["mcp-session-id"] == session.as_str()).expect("the client's GET");
    assert_eq!((&note["http"]["x"], &note["http"]["event"]), (&get["http"]["x"], &json!(0)));
    let upstream_note = lines.iter().find(|l| l["leg"] == "server" && l["msg"]["method"] == "notifications/tools/list_changed").unwrap();
    assert_eq!(upstream_note["http"]["eventId"], "g1");
}
