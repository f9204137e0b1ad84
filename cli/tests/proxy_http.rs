//! `mcp-schema proxy --http` against a small upstream written here (hyper): bytes pass unchanged
//! both ways (SSE with CRLF line ends and events split across chunks), streams are passed as they
//! come (never buffered whole) and a client that goes away closes the upstream side, the headers
//! that must not pass stop, the 2024-11-05 `endpoint` event is rewritten, an unreachable upstream
//! is a 502 in the recording, and the recording checks clean with `mcp-schema check`.
//! cli/tests/proxy_http_real.rs runs real peers through it.

#![cfg(unix)]

use crate::common;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Body, Frame, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::Value;
use tokio::sync::mpsc;

use common::TempFile;

/// A body fed through a channel: each `Bytes` one frame, sent when the test says.
struct Chan(mpsc::Receiver<Bytes>);

impl Body for Chan {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b))))
    }
}

fn chan() -> (mpsc::Sender<Bytes>, Chan) {
    let (tx, rx) = mpsc::channel(16);
    (tx, Chan(rx))
}

/// What the upstream saw of one request.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    headers: hyper::HeaderMap,
    body: Vec<u8>,
}

/// An upstream: every request is recorded; the answer comes from `answer` (status, headers, and
/// the body's chunks with a pause before each).
type Answer = (u16, Vec<(&'static str, String)>, Vec<(u64, Vec<u8>)>);

struct Upstream {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Whether a streamed answer's sender found its client gone.
    closed: Arc<Mutex<Vec<String>>>,
    /// Bytes of answers handed to hyper so far (it takes more only as the connection drains).
    sent: Arc<std::sync::atomic::AtomicUsize>,
}

async fn upstream(answer: fn(&Seen, u16) -> Answer) -> Upstream {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let closed = Arc::new(Mutex::new(Vec::new()));
    let sent = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (s, c, n) = (seen.clone(), closed.clone(), sent.clone());
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let _ = stream.set_nodelay(true);
            let (s, c, n) = (s.clone(), c.clone(), n.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                    let (s, c, n) = (s.clone(), c.clone(), n.clone());
                    async move {
                        let (parts, body) = req.into_parts();
                        let body = body.collect().await.map(|b| b.to_bytes().to_vec()).unwrap_or_default();
                        let seen = Seen { method: parts.method.to_string(), path: parts.uri.to_string(), headers: parts.headers, body };
                        s.lock().unwrap().push(seen.clone());
                        let (status, headers, chunks) = answer(&seen, port);
                        let (tx, body) = chan();
                        let what = format!("{} {}", seen.method, seen.path);
                        tokio::spawn(async move {
                            for (pause, chunk) in chunks {
                                tokio::time::sleep(Duration::from_millis(pause)).await;
                                let len = chunk.len();
                                if tx.send(Bytes::from(chunk)).await.is_err() {
                                    break;
                                }
                                n.fetch_add(len, std::sync::atomic::Ordering::SeqCst);
                            }
                            // Held open until the client goes: a stream that never ends by itself.
                            if what.starts_with("GET /held") {
                                tx.closed().await;
                                c.lock().unwrap().push(what);
                            }
                        });
                        let mut resp = Response::builder().status(status);
                        for (k, v) in headers {
                            resp = resp.header(k, v);
                        }
                        Ok::<_, Infallible>(resp.body(body).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    Upstream { port, seen, closed, sent }
}

/// The proxy, started on a free port in front of an upstream URL.
type Proxy = common::http_proxy::HttpProxy;

type Client = hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, Chan>;

fn client() -> Client {
    // No Nagle delay on bodies sent piece by piece (the proxy sets the same on its sockets).
    let mut tcp = hyper_util::client::legacy::connect::HttpConnector::new();
    tcp.set_nodelay(true);
    hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(tcp)
}

/// Sends a request whose body goes in `chunks` (a pause before each); returns status, headers
/// and the body's frames as they came.
async fn send(c: &Client, method: &str, url: &str, headers: &[(&str, &str)], chunks: Vec<(u64, Vec<u8>)>) -> (u16, hyper::HeaderMap, Vec<Bytes>) {
    let (tx, body) = chan();
    let mut req = Request::builder().method(method).uri(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    tokio::spawn(async move {
        for (pause, chunk) in chunks {
            tokio::time::sleep(Duration::from_millis(pause)).await;
            let _ = tx.send(Bytes::from(chunk)).await;
        }
    });
    let resp = c.request(req.body(body).unwrap()).await.unwrap();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let mut body = resp.into_body();
    let mut frames = Vec::new();
    while let Some(f) = body.frame().await {
        if let Ok(d) = f.unwrap().into_data() {
            frames.push(d);
        }
    }
    (status, headers, frames)
}

fn joined(chunks: &[(u64, Vec<u8>)]) -> Vec<u8> {
    chunks.iter().flat_map(|(_, c)| c.clone()).collect()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// The answer to `initialize` as an SSE stream: CRLF line ends, a priming event, and the answer
/// split in three chunks, the cut inside the data line and inside the CRLF.
fn init_answer() -> Vec<(u64, Vec<u8>)> {
    let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"stub","version":"1"}}}"#;
    let event = format!("id: e1\r\ndata: {result}\r\n\r\n");
    let (a, b) = event.split_at(20);
    let (b, c) = b.split_at(b.len() - 3);
    vec![(0, b"id: e0\r\nretry: 500\r\ndata:\r\n\r\n".to_vec()), (20, a.as_bytes().to_vec()), (20, b.as_bytes().to_vec()), (20, c.as_bytes().to_vec())]
}

fn stub(seen: &Seen, _port: u16) -> Answer {
    let session = || vec![("mcp-session-id", "s-1".to_string())];
    match (seen.method.as_str(), seen.body.windows(12).any(|w| w == b"\"initialize\"")) {
        ("POST", true) => (200, [session(), vec![("content-type", "text/event-stream".into()), ("connection", "x-hop".into()), ("x-hop", "1".into())]].concat(), init_answer()),
        ("POST", false) if seen.body.windows(11).any(|w| w == b"tools/list\"") => {
            let list = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}"#;
            (200, vec![("content-type", "application/json".into())], vec![(0, list[..30].to_vec()), (10, list[30..].to_vec())])
        }
        ("POST", false) => (202, vec![], vec![]),
        ("GET", _) => {
            let note = |i: u32| {
                format!("id: g{i}\r\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":{i}}}}}\r\n\r\n").into_bytes()
            };
            let mut all: Vec<u8> = (0..50).flat_map(note).collect();
            all.extend_from_slice(b": comment\r\nevent: other\r\ndata: x\r\n\r\ndata: not json\r\n\r\n");
            // Cut in 7-byte pieces: events and lines split everywhere.
            (200, vec![("content-type", "text/event-stream".into())], all.chunks(7).map(|c| (0, c.to_vec())).collect())
        }
        _ => (200, vec![], vec![]),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_passes_byte_for_byte_and_is_recorded() {
    let up = upstream(stub).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/mcp", up.port), &["--summary"]);
    let url = format!("http://127.0.0.1:{}/mcp", proxy.port);
    let c = client();
    let post = [("content-type", "application/json"), ("accept", "application/json, text/event-stream"), ("authorization", "Bearer secret-token"), ("x-custom", "kept")];

    // initialize, its body sent in two pieces; the answer's frames come as the upstream sent them.
    let body = INIT.as_bytes();
    let (status, headers, frames) = send(&c, "POST", &url, &post, vec![(0, body[..40].to_vec()), (30, body[40..].to_vec())]).await;
    assert_eq!((status, headers["mcp-session-id"].to_str().unwrap()), (200, "s-1"));
    assert!(!headers.contains_key("x-hop"), "a header the upstream's Connection named passed: {headers:?}");
    assert_eq!(frames.concat(), joined(&init_answer()));
    assert!(frames.len() >= 3, "the answer came in {} frames: buffered", frames.len());

    let with_session = [post.as_slice(), &[("mcp-session-id", "s-1"), ("mcp-protocol-version", "2025-11-25")]].concat();
    let note = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec();
    let (status, _, frames) = send(&c, "POST", &url, &with_session, vec![(0, note)]).await;
    assert_eq!((status, frames.len()), (202, 0));
    let list = b"{\"jsonrpc\":\"2.0\",\r\n \"id\":1,\"method\":\"tools/list\"}".to_vec();
    let (status, _, frames) = send(&c, "POST", &url, &with_session, vec![(0, list.clone())]).await;
    assert_eq!(status, 200);
    assert!(frames.concat().starts_with(br#"{"jsonrpc":"2.0","id":1,"result":{"tools""#));
    let get = [("accept", "text/event-stream"), ("mcp-session-id", "s-1"), ("mcp-protocol-version", "2025-11-25"), ("last-event-id", "g0")];
    let (_, _, frames) = send(&c, "GET", &format!("{url}?x=1"), &get, vec![]).await;
    assert_eq!(frames.concat(), joined(&stub(&Seen { method: "GET".into(), path: String::new(), headers: Default::default(), body: vec![] }, 0).2));
    let (status, _, _) = send(&c, "DELETE", &url, &[("mcp-session-id", "s-1"), ("mcp-protocol-version", "2025-11-25")], vec![]).await;
    assert_eq!(status, 200);

    // What the upstream got: the bodies as sent, `Host` its own, the other headers as sent.
    let seen = up.seen.lock().unwrap().clone();
    assert_eq!(seen.iter().map(|s| s.method.as_str()).collect::<Vec<_>>(), ["POST", "POST", "POST", "GET", "DELETE"]);
    assert_eq!((seen[0].body.as_slice(), seen[2].body.as_slice()), (INIT.as_bytes(), list.as_slice()));
    assert_eq!(seen[0].headers["host"], format!("127.0.0.1:{}", up.port));
    assert_eq!((seen[0].headers["authorization"].to_str().unwrap(), seen[0].headers["x-custom"].to_str().unwrap()), ("Bearer secret-token", "kept"));
    assert_eq!((seen[3].path.as_str(), seen[3].headers["last-event-id"].to_str().unwrap()), ("/mcp?x=1", "g0"));

    assert_eq!(proxy.stop(), 0);
    let lines = proxy.lines();
    let text = std::fs::read_to_string(proxy.record.path()).unwrap();
    assert!(!text.contains("secret-token"), "a secret in the recording");
    let http = |l: &Value| l.get("http").cloned().unwrap_or(Value::Null);
    let at = |x: u64, at: &str| lines.iter().find(|l| http(l)["x"] == x && http(l)["at"] == at).cloned().unwrap_or_else(|| panic!("no {at} line of exchange {x}:\n{text}"));
    assert_eq!(at(0, "request")["http"]["headers"]["host"], format!("127.0.0.1:{}", proxy.port));
    assert_eq!(at(0, "request")["http"]["method"], "POST");
    assert_eq!(at(0, "response")["http"]["headers"]["mcp-session-id"], "s-1");
    assert_eq!(at(0, "event")["http"], serde_json::json!({"x": 0, "at": "event", "event": 0, "eventId": "e0", "retry": 500}));
    assert_eq!(at(0, "end")["http"], serde_json::json!({"x": 0, "at": "end", "bytes": joined(&init_answer()).len(), "complete": true}));
    assert_eq!(at(3, "request")["http"]["query"], "x=1");
    let answer = lines.iter().find(|l| l["dir"] == "s2c" && l["msg"]["id"] == 0).unwrap();
    assert_eq!(answer["http"], serde_json::json!({"x": 0, "part": "response", "event": 1, "eventId": "e1"}));
    let notes = lines.iter().filter(|l| l["http"]["x"] == 3 && l["dir"] == "s2c").count();
    assert_eq!(notes, 50);
    let other = lines.iter().find(|l| http(l)["type"] == "other").unwrap();
    assert_eq!((&other["http"]["data"], &other["http"]["event"]), (&Value::from("x"), &Value::from(50)));
    let not_json = lines.iter().find(|l| http(l)["data"] == "not json").unwrap();
    assert_eq!((not_json["http"].get("type"), &not_json["http"]["event"]), (None, &Value::from(51)));
    // The request head comes before its messages, the response head before the answer.
    let pos = |f: &dyn Fn(&Value) -> bool| lines.iter().position(f).unwrap();
    assert!(pos(&|l| http(l)["x"] == 0 && http(l)["at"] == "request") < pos(&|l| l["msg"]["method"] == "initialize"));
    assert!(pos(&|l| http(l)["x"] == 0 && http(l)["at"] == "response") < pos(&|l| l["msg"]["id"] == 0 && l["dir"] == "s2c"));

    // Every message of the recording checks clean; the transport rules find the event that is not
    // JSON (the live checker found it too) and warn of the `Last-Event-ID` the stub never sent.
    let check = common::run(&["check", proxy.record.path()], None);
    let messages = lines.iter().filter(|l| l.get("msg").is_some()).count();
    assert_eq!(messages, 55, "{text}");
    let found_offline: Vec<&str> = check.stdout.lines().filter_map(|l| l.split('[').nth(1)?.split(']').next()).collect();
    assert_eq!(found_offline, ["transport.sse-data", "transport.last-event-id-known"], "{}", check.stdout);
    // The 55 messages and the GET's head (a warning only) pass; the event that is not JSON fails.
    assert!(check.code == 1 && check.stdout.ends_with(&format!("{} passed, 1 failed\n", messages + 1)), "{}{}", check.stdout, check.stderr);
    let found = std::fs::read_to_string(proxy.findings.path()).unwrap();
    // Live, the same findings as offline: the transport rules run on the HTTP lines as they come.
    assert!(found.contains("[transport.sse-data]") && found.contains("[transport.last-event-id-known]") && found.contains(&format!("{} passed, 1 failed", messages + 1)), "{found}");
    assert!(found.contains("notifications/message"), "no summary: {found}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_pass_as_they_come_and_a_client_that_goes_closes_the_upstream() {
    fn held(seen: &Seen, _: u16) -> Answer {
        let ev = |i: u32| {
            (
                if i == 0 { 0 } else { 300 },
                format!("data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":{i}}}}}\n\n").into_bytes(),
            )
        };
        let n = if seen.path.starts_with("/held") { 2 } else { 0 };
        (200, vec![("content-type", "text/event-stream".into())], (0..n).map(ev).collect())
    }
    let up = upstream(held).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/", up.port), &[]);
    let req = Request::get(format!("http://127.0.0.1:{}/held", proxy.port)).body(chan().1).unwrap();
    let resp = client().request(req).await.unwrap();
    let mut body = resp.into_body();
    let start = Instant::now();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert!(first.starts_with(b"data: "), "{first:?}");
    // The first event came before the upstream sent the second.
    assert!(start.elapsed() < Duration::from_millis(250), "the first event waited for the rest");
    let second = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert!(second.ends_with(b"\"data\":1}}\n\n"));
    drop(body);
    let deadline = Instant::now() + Duration::from_secs(10);
    while up.closed.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the upstream's stream stayed open after the client went");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(proxy.stop(), 0);
    let end = proxy.lines().into_iter().find(|l| l["http"]["at"] == "end").unwrap();
    assert_eq!((&end["http"]["complete"], &end["http"]["error"]), (&Value::from(false), &Value::from("the client went away")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_slows_the_upstream_down() {
    const TOTAL: usize = 64 << 20;
    fn big(seen: &Seen, _: u16) -> Answer {
        if seen.path.starts_with("/held") {
            return (200, vec![("content-type", "text/event-stream".into())], vec![]);
        }
        // 64 MiB of SSE events in 64 KiB chunks, as fast as they are taken.
        let event = format!("data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"{}\"}}}}\n\n", "x".repeat(950));
        let all: Vec<u8> = event.as_bytes().iter().copied().cycle().take(TOTAL).collect();
        (200, vec![("content-type", "text/event-stream".into())], all.chunks(64 << 10).map(|c| (0, c.to_vec())).collect())
    }
    let up = upstream(big).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/", up.port), &[]);
    let req = Request::get(format!("http://127.0.0.1:{}/big", proxy.port)).body(chan().1).unwrap();
    let mut body = client().request(req).await.unwrap().into_body();
    let mut got = body.frame().await.unwrap().unwrap().into_data().unwrap().len();
    // The host stops reading: the upstream may fill the sockets' and hyper's buffers, no more.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let sent = up.sent.load(std::sync::atomic::Ordering::SeqCst);
    println!("{sent} of {TOTAL} bytes sent while the host did not read");
    assert!(sent < TOTAL / 2, "{sent} bytes sent while the host read nothing: the proxy buffered the stream");
    while let Some(f) = body.frame().await {
        got += f.unwrap().into_data().map_or(0, |d| d.len());
    }
    assert_eq!(got, TOTAL);
    // A stream still open when the proxy stops is cut by the proxy.
    let req = Request::get(format!("http://127.0.0.1:{}/held", proxy.port)).body(chan().1).unwrap();
    let _open = client().request(req).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(proxy.stop(), 0);
    let ends: Vec<Value> = proxy.lines().into_iter().filter(|l| l["http"]["at"] == "end").collect();
    assert_eq!((&ends[0]["http"]["complete"], &ends[0]["http"]["bytes"]), (&Value::from(true), &Value::from(TOTAL)));
    assert_eq!(ends[1]["http"]["error"], "the proxy stopped", "{ends:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_legacy_endpoint_event_points_at_the_proxy() {
    fn legacy(seen: &Seen, port: u16) -> Answer {
        let data = if seen.path.contains("relative") { "/message?sessionId=r".to_string() } else { format!("http://127.0.0.1:{port}/message?sessionId=a") };
        let body = format!("event: endpoint\r\ndata: {data}\r\n\r\n").into_bytes();
        // Split inside the data line: the rewrite waits for the whole event.
        (200, vec![("content-type", "text/event-stream".into())], vec![(0, body[..25].to_vec()), (20, body[25..].to_vec())])
    }
    let up = upstream(legacy).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/sse", up.port), &[]);
    let c = client();
    let (_, _, frames) = send(&c, "GET", &format!("http://127.0.0.1:{}/sse", proxy.port), &[("accept", "text/event-stream")], vec![]).await;
    let expected = format!("event: endpoint\r\ndata: http://127.0.0.1:{}/message?sessionId=a\r\n\r\n", proxy.port);
    assert_eq!(String::from_utf8(frames.concat()).unwrap(), expected);
    let (_, _, frames) = send(&c, "GET", &format!("http://127.0.0.1:{}/sse-relative", proxy.port), &[], vec![]).await;
    assert_eq!(frames.concat(), b"event: endpoint\r\ndata: /message?sessionId=r\r\n\r\n".to_vec());
    assert_eq!(proxy.stop(), 0);
    let ev = proxy.lines().into_iter().find(|l| l["http"]["type"] == "endpoint").unwrap();
    assert_eq!(ev["http"]["data"], format!("http://127.0.0.1:{}/message?sessionId=a", proxy.port));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_upstream_is_a_502_in_the_recording() {
    // A port nobody listens on: 1 (tcpmux), which only a privileged service could take; a port bound
    // and let go could be taken by another test's listener meanwhile.
    let port = 1;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{port}/mcp"), &[]);
    let (status, _, frames) =
        send(&client(), "POST", &format!("http://127.0.0.1:{}/mcp", proxy.port), &[("content-type", "application/json")], vec![(0, INIT.as_bytes().to_vec())]).await;
    assert_eq!(status, 502);
    assert!(String::from_utf8_lossy(&frames.concat()).contains("could not be reached"));
    assert_eq!(proxy.stop(), 0);
    let lines = proxy.lines();
    assert_eq!(lines[1]["http"]["status"], 502, "{lines:?}");
    assert_eq!(lines[2]["http"]["complete"], false);
    assert!(lines[2]["http"]["error"].as_str().unwrap().contains("could not be reached"));
}

#[test]
fn a_busy_address_and_bad_arguments_are_status_2() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let r = common::run(&["proxy", "--http", "--listen", &addr, "--upstream", "http://127.0.0.1:1/mcp"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("could not listen"), "{}", r.stderr);
    for bad in [
        &["proxy", "--http", "--listen", "127.0.0.1:0"][..],
        &["proxy", "--http", "--upstream", "http://h/mcp"],
        &["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", "ftp://h/"],
        &["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", "http://h/", "--", "node"],
        &["proxy", "--listen", "127.0.0.1:0", "--", "node"],
    ] {
        let r = common::run(bad, None);
        assert_eq!(r.code, 2, "{bad:?}: {}", r.stderr);
    }
}

#[test]
fn check_reads_http_lines_as_context() {
    let rec = concat!(
        r#"{"http":{"x":0,"at":"request","method":"POST","path":"/mcp","headers":{"accept":"application/json, text/event-stream","content-type":"application/json"}}}"#,
        "\n",
        r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"},"http":{"x":0,"part":"request"}}"#,
        "\n",
        r#"{"http":{"x":0,"at":"response","status":200,"headers":{"content-type":"application/json"}}}"#,
        "\n",
        r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}},"http":{"x":0,"part":"response"}}"#,
        "\n",
        r#"{"http":{"x":0,"at":"end","bytes":36,"complete":true}}"#,
        "\n"
    );
    let f = TempFile::new("rec.jsonl", rec.as_bytes());
    let r = common::run(&["check", "--strict", "--protocol", "2025-11-25", f.path()], None);
    assert_eq!((r.code, r.stdout.as_str()), (0, "2 passed, 0 failed\n"), "{}", r.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_session_is_checked_apart() {
    static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    fn two(seen: &Seen, _: u16) -> Answer {
        let body = String::from_utf8_lossy(&seen.body).into_owned();
        let json = |s: &str| vec![(0, s.as_bytes().to_vec())];
        if body.contains("\"initialize\"") {
            let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"stub","version":"1"}}}"#;
            (200, vec![("content-type", "application/json".into()), ("mcp-session-id", format!("s-{n}"))], json(result))
        } else if body.contains("tools/list") {
            (200, vec![("content-type", "application/json".into())], json(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#))
        } else {
            (202, vec![], vec![])
        }
    }
    let up = upstream(two).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/mcp", up.port), &[]);
    let url = format!("http://127.0.0.1:{}/mcp", proxy.port);
    let c = client();
    let json = [("content-type", "application/json"), ("accept", "application/json, text/event-stream")];
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let (_, headers, _) = send(&c, "POST", &url, &json, vec![(0, INIT.as_bytes().to_vec())]).await;
        sessions.push(headers["mcp-session-id"].to_str().unwrap().to_string());
    }
    // The two sessions interleaved, the same request ids in each.
    for body in [r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#] {
        for s in &sessions {
            let h = [json.as_slice(), &[("mcp-session-id", s.as_str()), ("mcp-protocol-version", "2025-11-25")]].concat();
            send(&c, "POST", &url, &h, vec![(0, body.as_bytes().to_vec())]).await;
        }
    }
    assert_eq!(proxy.stop(), 0);
    // Read as one stream, the second `initialize` and the reused ids would be findings.
    let found = std::fs::read_to_string(proxy.findings.path()).unwrap();
    assert_eq!(found, "10 passed, 0 failed\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_upstream_is_reached_over_tls() {
    // A plain HTTP server behind an https:// URL: the TLS handshake fails, and says so.
    let up = upstream(stub).await;
    let mut proxy = Proxy::start(&format!("https://127.0.0.1:{}/mcp", up.port), &[]);
    let (status, _, frames) = send(&client(), "POST", &format!("http://127.0.0.1:{}/mcp", proxy.port), &[("content-type", "application/json")], vec![(0, INIT.as_bytes().to_vec())]).await;
    let text = String::from_utf8_lossy(&frames.concat()).into_owned();
    assert_eq!(status, 502, "{text}");
    assert!(text.to_lowercase().contains("tls") || text.contains("InvalidContentType") || text.contains("corrupt message"), "{text}");
    assert!(up.seen.lock().unwrap().is_empty(), "the upstream read a request in clear text");
    assert_eq!(proxy.stop(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_session_frees_its_stream() {
    static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    fn many(seen: &Seen, _: u16) -> Answer {
        if seen.body.windows(12).any(|w| w == b"\"initialize\"") {
            let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"stub","version":"1"}}}"#;
            (200, vec![("content-type", "application/json".into()), ("mcp-session-id", format!("m-{n}"))], vec![(0, result.as_bytes().to_vec())])
        } else {
            (202, vec![], vec![])
        }
    }
    let up = upstream(many).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/mcp", up.port), &[]);
    let url = format!("http://127.0.0.1:{}/mcp", proxy.port);
    let c = client();
    let json = [("content-type", "application/json"), ("accept", "application/json, text/event-stream")];
    // More sessions than are kept apart at once: each ends before the next starts.
    let n = 300;
    for _ in 0..n {
        let (_, headers, _) = send(&c, "POST", &url, &json, vec![(0, INIT.as_bytes().to_vec())]).await;
        let sid = headers["mcp-session-id"].to_str().unwrap().to_string();
        let h = [json.as_slice(), &[("mcp-session-id", sid.as_str()), ("mcp-protocol-version", "2025-11-25")]].concat();
        send(&c, "POST", &url, &h, vec![(0, br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec())]).await;
        send(&c, "DELETE", &url, &[("mcp-session-id", sid.as_str()), ("mcp-protocol-version", "2025-11-25")], vec![]).await;
    }
    assert_eq!(proxy.stop(), 0);
    // Past 256 live sessions the rest would share one stream: a second `initialize` there.
    let found = std::fs::read_to_string(proxy.findings.path()).unwrap();
    assert_eq!(found, format!("{} passed, 0 failed\n", 3 * n));
}

/// 2026-07-28 has no sessions, and each client numbers its own requests: two clients through the
/// proxy both send id 1, one while the other's waits. Each exchange is checked on its own (no
/// `stream.id-reused`, each answer paired with its own request), an answer naming no request of
/// its exchange is still `stream.response-unmatched`, and `check` of the recording finds the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessionless_clients_are_checked_apart() {
    fn answer(seen: &Seen, _: u16) -> Answer {
        let request: Value = serde_json::from_slice(&seen.body).unwrap_or(Value::Null);
        let id = if seen.headers.contains_key("x-wrong-id") { Value::from(99) } else { request["id"].clone() };
        let pause = if seen.headers.contains_key("x-slow") { 300 } else { 0 };
        let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "tools": []}}).to_string();
        (200, vec![("content-type", "application/json".into())], vec![(pause, body.into_bytes())])
    }
    let up = upstream(answer).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/mcp", up.port), &[]);
    let url = format!("http://127.0.0.1:{}/mcp", proxy.port);
    let c = client();
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#.to_vec();
    let h = [("content-type", "application/json"), ("accept", "application/json, text/event-stream"), ("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")];
    let slow = [h.as_slice(), &[("x-slow", "1")]].concat();
    let later = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        send(&c, "POST", &url, &h, vec![(0, list.clone())]).await
    };
    let (a, b) = tokio::join!(send(&c, "POST", &url, &slow, vec![(0, list.clone())]), later);
    assert_eq!((a.0, b.0), (200, 200));
    let wrong = [h.as_slice(), &[("x-wrong-id", "1")]].concat();
    assert_eq!(send(&c, "POST", &url, &wrong, vec![(0, list.clone())]).await.0, 200);
    assert_eq!(proxy.stop(), 0);

    let rules = |text: &str| -> Vec<String> { text.lines().filter_map(|l| Some(l.split('[').nth(1)?.split(']').next()?.to_string())).collect() };
    // The rules over exchanges and sessions (the stub's bodies are not complete 2026-07-28 messages).
    let spanning = |text: &str| -> Vec<String> { rules(text).into_iter().filter(|r| ["stream.", "session.", "transport."].iter().any(|p| r.starts_with(p))).collect() };
    let found = std::fs::read_to_string(proxy.findings.path()).unwrap();
    // The wrong answer: unmatched, its result checked as an unmatched one's, and its POST's JSON answers no request of it.
    assert_eq!(spanning(&found), ["stream.response-result", "stream.response-unmatched", "transport.json-answer"], "{found}");
    let check = common::run(&["check", proxy.record.path()], None);
    let mut sorted = [rules(&check.stdout), rules(&found)];
    sorted.iter_mut().for_each(|r| r.sort());
    assert_eq!(sorted[0], sorted[1], "{}", check.stdout);
    assert_eq!(check.stdout.lines().last(), found.lines().last(), "{}\n{found}", check.stdout);
}

/// `--ext skills` over Streamable HTTP: a stateless 2026-07-28 server lists a skill in one exchange and
/// serves one of its files with other bytes in the next; the Skills rules see both (the held entry is
/// the stream's, not the exchange's), and `check --ext skills` of the recording finds the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_skills_rules_run_on_http_exchanges() {
    fn answer(seen: &Seen, _: u16) -> Answer {
        let request: Value = serde_json::from_slice(&seen.body).unwrap_or(Value::Null);
        let zero = format!("sha256:{}", "0".repeat(64));
        let result = match request["method"].as_str() {
            Some("skills/list") => serde_json::json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skills": [{
                "uri": "skill://a/SKILL.md", "frontmatter": {"name": "a", "description": "d"},
                "resources": [{"uri": "skill://a/SKILL.md", "digest": zero, "size": 20}, {"uri": "skill://a/b.md", "digest": zero, "size": 2}],
            }]}),
            _ => serde_json::json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": [{"uri": "skill://a/b.md", "text": "three"}]}),
        };
        let body = serde_json::json!({"jsonrpc": "2.0", "id": request["id"], "result": result}).to_string();
        (200, vec![("content-type", "application/json".into())], vec![(0, body.into_bytes())])
    }
    let up = upstream(answer).await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{}/mcp", up.port), &["--ext", "skills"]);
    let url = format!("http://127.0.0.1:{}/mcp", proxy.port);
    let c = client();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}}"#;
    for (id, method, params) in [(1, "skills/list", String::new()), (2, "resources/read", r#""uri":"skill://a/b.md","#.to_string())] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{meta}}}}}"#).into_bytes();
        let mut h = vec![("content-type", "application/json"), ("accept", "application/json, text/event-stream"), ("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)];
        if method == "resources/read" {
            h.push(("mcp-name", "skill://a/b.md"));
        }
        assert_eq!(send(&c, "POST", &url, &h, vec![(0, body)]).await.0, 200);
    }
    assert_eq!(proxy.stop(), 0);
    let rules = |text: &str| -> Vec<String> { text.lines().filter_map(|l| Some(l.split('[').nth(1)?.split(']').next()?.to_string())).collect() };
    let found = std::fs::read_to_string(proxy.findings.path()).unwrap();
    assert_eq!(rules(&found), ["session.skills.content-digest"], "{found}");
    let check = common::run(&["check", "--ext", "skills", proxy.record.path()], None);
    assert_eq!(rules(&check.stdout), rules(&found), "{}", check.stdout);
}
