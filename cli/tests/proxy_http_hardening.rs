//! `mcp-schema proxy --http` (and the bridge over HTTP, which shares its accept loop) as a server
//! facing untrusted clients and browsers: a DNS-rebound page is refused (403) before anything
//! goes upstream, a request without `Host` is 400, a half-sent request head is closed after the
//! header timeout, connections past the limit are answered 503, bodies held at once stay within
//! the budget, secret-looking query values stay out of the recording while the upstream URL's
//! query is carried, a malformed body from the client is its failure (400), and made-up session
//! ids do not use up the checker's streams. Raw sockets, so that each byte sent is the test's.

#![cfg(unix)]

use crate::common;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

type Proxy = common::http_proxy::HttpProxy;

/// What the upstream saw: each request's method, target and body length.
type Seen = Arc<Mutex<Vec<(String, String, usize)>>>;

/// An upstream that answers every JSON-RPC request with an empty result (JSON), `initialize` with
/// a fresh `Mcp-Session-Id`, and anything else with 202.
async fn upstream() -> (u16, Seen) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Seen = Arc::default();
    let s = seen.clone();
    tokio::spawn(async move {
        let sessions = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let (s, sessions) = (s.clone(), sessions.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                    let (s, sessions) = (s.clone(), sessions.clone());
                    async move {
                        let (parts, body) = req.into_parts();
                        let body = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                        s.lock().unwrap().push((parts.method.to_string(), parts.uri.to_string(), body.len()));
                        let msg: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                        let mut resp = Response::builder();
                        let answer = match (msg.get("method").and_then(Value::as_str), msg.get("id")) {
                            (Some("initialize"), Some(id)) => {
                                let n = sessions.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                                resp = resp.header("mcp-session-id", format!("issued-{n}"));
                                serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "stub", "version": "1"}}})
                            }
                            (Some(_), Some(id)) => serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}),
                            _ => return Ok::<_, Infallible>(resp.status(202).body(Full::new(Bytes::new())).unwrap()),
                        };
                        Ok(resp.header("content-type", "application/json").body(Full::new(Bytes::from(answer.to_string()))).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    (port, seen)
}

/// Sends `bytes` on a fresh connection and reads until the proxy closes it or sends a whole
/// answer (its head and `content-length` bytes), at most 20 s.
async fn raw(port: u16, bytes: &[u8]) -> String {
    let mut c = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    c.write_all(bytes).await.unwrap();
    read_answer(&mut c).await
}

async fn read_answer(c: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut buf = [0u8; 8192];
    while Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_millis(200), c.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        let text = String::from_utf8_lossy(&got);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").and_then(|v| v.trim().parse::<usize>().ok()));
            if len.is_some_and(|n| body.len() >= n) {
                break;
            }
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

fn post(port: u16, host: &str, extra: &str, body: &str) -> String {
    format!("POST /mcp HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n{extra}content-length: {}\r\n\r\n{body}", body.len())
        .replace("PORT", &port.to_string())
}

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

fn status(answer: &str) -> &str {
    answer.split(' ').nth(1).unwrap_or("none")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebound_page_is_refused_and_never_reaches_the_upstream() {
    let (up, seen) = upstream().await;
    for bridge in [false, true] {
        let extra: &[&str] = if bridge { &["--to", "2025-11-25"] } else { &[] };
        let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), extra);
        let p = proxy.port;
        // A page at a name the attacker points at 127.0.0.1: its name in `Host` and in `Origin`.
        let rebound = raw(p, post(p, "attacker.example:PORT", "origin: http://attacker.example:PORT\r\n", PING).as_bytes()).await;
        // A page on another site calling the proxy by its address: only `Origin` tells.
        let cross = raw(p, post(p, "127.0.0.1:PORT", "origin: http://attacker.example\r\n", PING).as_bytes()).await;
        let no_host = raw(p, format!("POST /mcp HTTP/1.1\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{PING}", PING.len()).as_bytes()).await;
        println!("bridge {bridge}: rebound {:?}, other origin {:?}, no Host {:?}", status(&rebound), status(&cross), status(&no_host));
        assert_eq!(status(&rebound), "403", "{rebound}");
        assert!(rebound.contains("attacker.example") && rebound.contains("DNS rebinding"), "{rebound}");
        assert_eq!(status(&cross), "403", "{cross}");
        assert!(cross.contains("Origin"), "{cross}");
        assert_eq!(status(&no_host), "400", "{no_host}");
        assert!(seen.lock().unwrap().is_empty(), "the upstream saw {:?}", seen.lock().unwrap());
        assert_eq!(proxy.stop(), 0);
        // Each refusal is in the recording with its answer and why.
        let lines = proxy.lines();
        let ends: Vec<&str> = lines.iter().filter(|l| l["http"]["at"] == "end").filter_map(|l| l["http"]["error"].as_str()).collect();
        let statuses: Vec<u64> = lines.iter().filter(|l| l["http"]["at"] == "response").filter_map(|l| l["http"]["status"].as_u64()).collect();
        if !bridge {
            assert_eq!(statuses, [403, 403, 400], "{lines:?}");
            assert!(ends.len() == 3 && ends[0].contains("DNS rebinding") && ends[2].contains("Host"), "{ends:?}");
        } else {
            assert_eq!(statuses, [403, 403, 400], "{lines:?}");
        }
    }
    // The proxy's own names pass, with or without `Origin`.
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), &[]);
    let p = proxy.port;
    for (host, origin) in [("127.0.0.1:PORT", ""), ("localhost:PORT", "origin: http://localhost:PORT\r\n"), ("[::1]:PORT", "origin: http://127.0.0.1:PORT\r\n")] {
        let ok = raw(p, post(p, host, origin, PING).as_bytes()).await;
        assert_eq!(status(&ok), "200", "{host} {origin}: {ok}");
    }
    assert_eq!(seen.lock().unwrap().len(), 3);
    assert_eq!(proxy.stop(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_head_is_closed_after_the_header_timeout() {
    let (up, _) = upstream().await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), &["--header-timeout", "1"]);
    let mut c = TcpStream::connect(("127.0.0.1", proxy.port)).await.unwrap();
    let started = Instant::now();
    c.write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: appl").await.unwrap();
    // The head never ends; the proxy must close the connection rather than wait for good.
    let got = read_answer(&mut c).await;
    let waited = started.elapsed();
    println!("a half-sent head was closed after {waited:?}: {got:?}");
    let mut probe = [0u8; 1];
    let closed = matches!(tokio::time::timeout(Duration::from_secs(1), c.read(&mut probe)).await, Ok(Ok(0) | Err(_)));
    assert!(closed && waited < Duration::from_secs(20), "the connection is still open after {waited:?}");
    assert_eq!(proxy.stop(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_limit_are_answered_503_and_the_proxy_recovers() {
    let (up, seen) = upstream().await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), &["--max-connections", "4"]);
    let p = proxy.port;
    let mut idle = Vec::new();
    for _ in 0..4 {
        let mut c = TcpStream::connect(("127.0.0.1", p)).await.unwrap();
        c.write_all(b"GET /mcp HTTP/1.1\r\nhost: 127.0.0").await.unwrap();
        idle.push(c);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let past = raw(p, post(p, "127.0.0.1:PORT", "", PING).as_bytes()).await;
    println!("a fifth connection: {:?}", past.lines().next());
    assert_eq!(status(&past), "503", "{past}");
    assert!(past.contains("--max-connections"), "{past}");
    assert!(seen.lock().unwrap().is_empty());
    // Once one goes, a client is served again.
    drop(idle.pop());
    let deadline = Instant::now() + Duration::from_secs(20);
    let ok = loop {
        let a = raw(p, post(p, "127.0.0.1:PORT", "", PING).as_bytes()).await;
        if status(&a) == "200" || Instant::now() > deadline {
            break a;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(status(&ok), "200", "{ok}");
    assert_eq!(proxy.stop(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_past_the_budget_are_refused_not_held() {
    let (up, seen) = upstream().await;
    for bridge in [false, true] {
        let extra: &[&str] = if bridge { &["--body-budget", "1", "--to", "2025-11-25"] } else { &["--body-budget", "1"] };
        let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), extra);
        let p = proxy.port;
        let big = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"_meta":{{"pad":"{}"}}}}}}"#, "x".repeat(2 << 20));
        // Said up front: refused before anything goes upstream.
        let declared = raw(p, post(p, "127.0.0.1:PORT", "", &big).as_bytes()).await;
        // Chunked, so only its growth tells.
        let mut chunked = format!("POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{p}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
        for piece in big.as_bytes().chunks(64 << 10) {
            chunked.push_str(&format!("{:x}\r\n{}\r\n", piece.len(), std::str::from_utf8(piece).unwrap()));
        }
        chunked.push_str("0\r\n\r\n");
        let grown = raw(p, chunked.as_bytes()).await;
        println!("bridge {bridge}: declared {:?}, chunked {:?}", status(&declared), status(&grown));
        for a in [&declared, &grown] {
            assert_eq!(status(a), "503", "{}", &a[..a.len().min(400)]);
            assert!(a.contains("--body-budget"), "{}", &a[..a.len().min(400)]);
        }
        assert!(seen.lock().unwrap().iter().all(|(_, _, len)| *len < (1 << 20)), "a body past the budget reached the upstream");
        assert_eq!(proxy.stop(), 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_query_values_stay_out_of_the_recording_and_the_upstreams_query_is_carried() {
    let (up, seen) = upstream().await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp?api_key=UPSTREAM-KEY"), &[]);
    let p = proxy.port;
    let req = format!("POST /mcp?token=CLIENT-SECRET&page=2 HTTP/1.1\r\nhost: 127.0.0.1:{p}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{PING}", PING.len());
    assert_eq!(status(&raw(p, req.as_bytes()).await), "200");
    assert_eq!(proxy.stop(), 0);
    let targets: Vec<String> = seen.lock().unwrap().iter().map(|(_, t, _)| t.clone()).collect();
    assert_eq!(targets, ["/mcp?api_key=UPSTREAM-KEY&token=CLIENT-SECRET&page=2"]);
    let recorded = std::fs::read_to_string(proxy.record.path()).unwrap();
    assert!(!recorded.contains("CLIENT-SECRET") && !recorded.contains("UPSTREAM-KEY"), "{recorded}");
    assert!(recorded.contains(r#""query":"token=REDACTED&page=2""#), "{recorded}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_body_from_the_client_is_its_failure() {
    let (up, _) = upstream().await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), &[]);
    let p = proxy.port;
    // A chunk of 5 bytes with 3 in it, then no chunk size at all.
    let req = format!("POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{p}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{{\"a\"\r\nzz\r\n");
    let answer = raw(p, req.as_bytes()).await;
    println!("{answer:?}");
    assert_eq!(status(&answer), "400", "{answer}");
    assert_eq!(proxy.stop(), 0);
    let lines = proxy.lines();
    let end = lines.iter().find(|l| l["http"]["at"] == "end").expect("an end line");
    assert!(end["http"]["error"].as_str().is_some_and(|e| e.contains("client")), "{end}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_session_ids_do_not_use_up_the_checkers_streams() {
    let (up, _) = upstream().await;
    let mut proxy = Proxy::start(&format!("http://127.0.0.1:{up}/mcp"), &[]);
    let p = proxy.port;
    // More invented ids than streams are kept apart (256), each with a ping the upstream answers.
    for i in 0..300 {
        let h = format!("mcp-session-id: made-up-{i}\r\nmcp-protocol-version: 2025-11-25\r\n");
        let a = raw(p, post(p, "127.0.0.1:PORT", &h, PING).as_bytes()).await;
        assert_eq!(status(&a), "200", "{a}");
    }
    // Then two real sessions: each must still be checked apart (else: a second `initialize` on one stream).
    for _ in 0..2 {
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let a = raw(p, post(p, "127.0.0.1:PORT", "", init).as_bytes()).await;
        let sid = a.lines().find_map(|l| l.strip_prefix("mcp-session-id: ")).expect("a session id").trim().to_string();
        let h = format!("mcp-session-id: {sid}\r\nmcp-protocol-version: 2025-11-25\r\n");
        assert_eq!(status(&raw(p, post(p, "127.0.0.1:PORT", &h, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).as_bytes()).await), "202");
        assert_eq!(status(&raw(p, post(p, "127.0.0.1:PORT", &h, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).as_bytes()).await), "200");
    }
    assert_eq!(proxy.stop(), 0);
    let found = std::fs::read_to_string(proxy.findings.path()).unwrap();
    println!("{}", found.lines().last().unwrap_or(""));
    let initialize: Vec<&str> = found.lines().filter(|l| l.contains("initialize")).collect();
    assert!(initialize.is_empty(), "the real sessions shared a stream:\n{}", initialize.join("\n"));
    // Each made-up id is reported (once), on the shared stream.
    let unissued = found.lines().filter(|l| l.contains("[transport.session-id-unissued]")).count();
    assert_eq!(unissued, 300, "{found}");
}
