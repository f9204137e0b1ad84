//! `mcp-schema proxy --http` on the guard layer (`mcp-spec-guard`).
//!
//! `--enforce`: a request that breaks a MUST is answered by the proxy with the JSON-RPC error
//! naming its rule, the upstream never sees it, and the recording has the exchange.
//!
//! `--metrics ADDR` scraped by a real Prometheus (Debian's `prometheus`, every second): a recorded session (tests/data/sessions/2025-06-18.jsonl) is played through the
//! proxy to an upstream that answers each request as the recorded server did, and the counters
//! Prometheus reads back through `/api/v1/query` equal what `mcp-schema check` finds on the
//! proxy's `--record`ing, rule by rule, and the messages it holds, by method and direction.
//! Skipped when `prometheus` is not installed, a failure under `CI=true` (.ci/run installs it).

#![cfg(unix)]

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

use crate::common::http_proxy::HttpProxy;
use crate::common::{self, TempFile};

/// A method no version defines.
const UNKNOWN: &str = "made/up";

/// A missing tool: skipped locally, a failure in CI.
fn missing(message: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message} (CI=true)");
    }
    eprintln!("skipped: {message}");
}

/// A port free now (Prometheus cannot announce one it picked).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The upstream: answers a request with the recorded answer of its id (a session id on every
/// answer), anything else with 202. It counts the requests it sees.
fn upstream(answers: HashMap<String, Value>) -> (u16, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    let counted = seen.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let answers = Arc::new(answers);
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            loop {
                let Ok((stream, _)) = listener.accept().await else { return };
                let (answers, counted) = (answers.clone(), counted.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                        let answers = answers.clone();
                        counted.fetch_add(1, Ordering::SeqCst);
                        async move {
                            let body = req.into_body().collect().await.map(|c| c.to_bytes()).unwrap_or_default();
                            let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                            let answer = match (message.get("id"), message.get("method")) {
                                (Some(id), Some(_)) => answers.get(&id.to_string()).cloned().unwrap_or_else(|| json!({"jsonrpc": "2.0", "id": id, "result": {}})),
                                _ => return Ok::<_, Infallible>(Response::builder().status(202).body(Full::new(Bytes::new())).unwrap()),
                            };
                            Ok(Response::builder().header("content-type", "application/json").header("mcp-session-id", "s1").body(Full::new(Bytes::from(answer.to_string()))).unwrap())
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
                });
            }
        });
    });
    (port, seen)
}

/// One HTTP exchange on its own connection: the status and the body (chunks joined).
fn exchange(port: u16, request: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        let (mut out, mut rest) = (Vec::new(), &body[..]);
        while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
            let n = usize::from_str_radix(std::str::from_utf8(&rest[..eol]).unwrap().trim(), 16).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&rest[eol + 2..eol + 2 + n]);
            rest = &rest[eol + 4 + n..];
        }
        body = out;
    }
    (status, body)
}

fn post(port: u16, message: &Value, session: Option<&str>) -> (u16, Vec<u8>) {
    let body = message.to_string();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\n",
        body.len()
    );
    if let Some(s) = session {
        head.push_str(&format!("mcp-session-id: {s}\r\nmcp-protocol-version: 2025-06-18\r\n"));
    }
    exchange(port, &format!("{head}\r\n{body}"))
}

/// Prometheus, killed (by its own handle) when the test ends.
struct Prometheus {
    child: Child,
    port: u16,
    data: String,
    _config: TempFile,
}

impl Prometheus {
    fn start(target: &str) -> Prometheus {
        let port = free_port();
        let config = format!("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: proxy\n    static_configs:\n      - targets: [\"{target}\"]\n");
        let dir = TempFile::new("prometheus.yml", config.as_bytes());
        let data = dir.path().replace("prometheus.yml", "data");
        let child = Command::new("prometheus")
            .args([format!("--config.file={}", dir.path()), format!("--storage.tsdb.path={data}"), format!("--web.listen-address=127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus starts");
        let mut p = Prometheus { child, port, data, _config: dir };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() || exchange(port, "GET /-/ready HTTP/1.0\r\n\r\n").0 != 200 {
            assert!(p.child.try_wait().unwrap().is_none(), "prometheus exited");
            assert!(Instant::now() < deadline, "prometheus never ready");
            std::thread::sleep(Duration::from_millis(100));
        }
        p
    }

    /// `/api/v1/query?query=QUERY`: the result vector as (labels, value).
    fn query(&self, query: &str) -> Vec<(Value, f64)> {
        let encoded: String = query.bytes().map(|b| if b.is_ascii_alphanumeric() || b == b'_' { (b as char).to_string() } else { format!("%{b:02X}") }).collect();
        let (status, body) = exchange(self.port, &format!("GET /api/v1/query?query={encoded} HTTP/1.0\r\n\r\n"));
        let v: Value = serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
        assert!(status == 200 && v["status"] == "success", "{query}: {v}");
        v["data"]["result"].as_array().unwrap().iter().map(|r| (r["metric"].clone(), r["value"][1].as_str().unwrap().parse().unwrap())).collect()
    }

    fn wait_until(&self, what: &str, mut done: impl FnMut(&Prometheus) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done(self) {
            assert!(Instant::now() < deadline, "Prometheus never saw {what}");
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// `sum by (LABELS) (METRIC)` as a map from the labels' values (joined with `,`) to the count.
fn by(p: &Prometheus, labels: &[&str], metric: &str) -> BTreeMap<String, u64> {
    let query = format!("sum by ({}) ({metric})", labels.join(","));
    p.query(&query).into_iter().map(|(m, v)| (labels.iter().map(|l| m[*l].as_str().unwrap_or("")).collect::<Vec<_>>().join(","), v as u64)).collect()
}

#[test]
fn prometheus_scrapes_the_counters_and_they_match_the_recording() {
    if Command::new("prometheus").arg("--version").output().is_err() {
        return missing("`prometheus` is not installed (apt-get install --no-install-recommends prometheus)");
    }
    let session = std::fs::read_to_string(common::data("sessions/2025-06-18.jsonl")).unwrap();
    let lines: Vec<Value> = session.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let answers: HashMap<String, Value> = lines.iter().filter(|l| l["dir"] == "s2c" && l["msg"].get("id").is_some()).map(|l| (l["msg"]["id"].to_string(), l["msg"].clone())).collect();
    let (up, upstream_saw) = upstream(answers);
    let mut proxy = HttpProxy::start(&format!("http://127.0.0.1:{up}/mcp"), &["--metrics", "127.0.0.1:0"]);
    let metrics = proxy.announced.rsplit("metrics on http://").next().and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("no metrics address: {}", proxy.announced)).to_string();
    let prometheus = Prometheus::start(&metrics);
    prometheus.wait_until("its target up", |p| p.query("up").iter().any(|(_, v)| *v == 1.0));

    // The client's side of the session, as recorded.
    let mut sent = 0;
    for (i, l) in lines.iter().filter(|l| l["dir"] == "c2s").enumerate() {
        let (status, _) = post(proxy.port, &l["msg"], (i > 0).then_some("s1"));
        assert!(status == 200 || status == 202, "{status} for {}", l["msg"]);
        sent += 1;
    }
    // Then a few requests that break rules the session does not, and one of a method no version
    // knows (counted as `_OTHER`, not under its own name).
    for m in [
        json!({"jsonrpc": "2.0", "id": 100, "method": "resources/read", "params": {"uri": "not a uri"}}),
        json!({"jsonrpc": "2.0", "id": 101, "method": "logging/setLevel", "params": {"level": "loud"}}),
        json!({"jsonrpc": "2.0", "id": 102, "method": UNKNOWN}),
    ] {
        assert_eq!(post(proxy.port, &m, Some("s1")).0, 200, "{m}");
        sent += 1;
    }
    // The answers are checked as they pass: the last scrape to count them all is awaited.
    let messages: u64 = lines.iter().filter(|l| l["dir"] == "c2s").map(|l| 1 + u64::from(l["msg"].get("id").is_some())).sum::<u64>() + 2 * 3;
    prometheus.wait_until(&format!("{messages} messages"), |p| p.query("sum(mcp_guard_messages_total)").first().is_some_and(|(_, v)| *v as u64 == messages));
    // A message is counted just before its findings: the checks' count standing still over more
    // than a scrape says every check has been counted.
    let checks_now = |p: &Prometheus| p.query("sum(mcp_guard_check_seconds_count)").first().map_or(0.0, |c| c.1);
    let mut last = -1.0;
    prometheus.wait_until("the checks' count settle", |p| {
        let now = checks_now(p);
        let settled = now == last;
        last = now;
        if !settled {
            std::thread::sleep(Duration::from_millis(1500));
        }
        settled
    });
    let findings = by(&prometheus, &["rule"], "mcp_guard_findings_total");
    let by_method = by(&prometheus, &["method", "direction"], "mcp_guard_messages_total");
    let check_count = prometheus.query("sum(mcp_guard_check_seconds_count)");
    let check_seconds = prometheus.query("sum(mcp_guard_check_seconds_sum)");
    assert_eq!(proxy.stop(), 0);
    assert_eq!(upstream_saw.load(Ordering::SeqCst), sent, "without --enforce every request goes upstream");

    // `check` on the proxy's recording finds the same, rule by rule.
    let (_, checked) = common::check_json(&[proxy.record.path()], None);
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for f in &checked.found {
        *expected.entry(f.rule.clone()).or_default() += 1;
    }
    // And the recording holds the same messages: each request's answer counts as its method.
    let recorded = proxy.lines();
    let mut methods: HashMap<String, String> = HashMap::new();
    let mut expected_by_method: BTreeMap<String, u64> = BTreeMap::new();
    for l in recorded.iter().filter(|l| l.get("dir").is_some()) {
        let (dir, msg) = (l["dir"].as_str().unwrap(), &l["msg"]);
        let method = match msg.get("method").and_then(Value::as_str) {
            Some(m) => {
                let m = if m == UNKNOWN { "_OTHER" } else { m };
                methods.insert(msg["id"].to_string(), m.to_string());
                m.to_string()
            }
            None => methods.get(&msg["id"].to_string()).cloned().unwrap_or_else(|| "_OTHER".into()),
        };
        *expected_by_method.entry(format!("{method},{dir}")).or_default() += 1;
    }
    let (checks, seconds) = (check_count.first().map_or(0.0, |c| c.1), check_seconds.first().map_or(0.0, |c| c.1));
    println!("{sent} requests sent, {messages} messages; {checks} checks timed, {:.1} µs each on average", seconds * 1e6 / checks.max(1.0));
    println!("Prometheus, findings by rule: {findings:?}\ncheck on the recording:      {expected:?}");
    println!("Prometheus, messages by method and direction: {by_method:?}");
    assert!(!expected.is_empty(), "the session has its deliberate invalid request");
    assert_eq!(findings, expected);
    assert_eq!(by_method, expected_by_method);
    assert!(checks as u64 >= messages, "each message's check is timed");
}

#[test]
fn enforce_answers_a_request_that_breaks_a_must_and_records_it() {
    let (up, upstream_saw) = upstream(HashMap::new());
    let mut proxy = HttpProxy::start(&format!("http://127.0.0.1:{up}/mcp"), &["--enforce"]);
    assert!(proxy.announced.contains("--enforce"), "{}", proxy.announced);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    assert_eq!(post(proxy.port, &init, None).0, 200);
    let bad = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "not a uri"}});
    let (status, body) = post(proxy.port, &bad, Some("s1"));
    let answer: Value = serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
    println!("{status} {answer}");
    assert_eq!(status, 200);
    assert_eq!((&answer["id"], &answer["error"]["code"]), (&json!(2), &json!(-32602)));
    assert_eq!((&answer["error"]["data"]["violations"][0]["rule"], &answer["error"]["data"]["violations"][0]["pointer"]), (&json!("format.uri"), &json!("/params/uri")));
    assert_eq!(upstream_saw.load(Ordering::SeqCst), 1, "the refused request never went upstream");
    // A request that keeps the rules goes on.
    assert_eq!(post(proxy.port, &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}), Some("s1")).0, 200);
    assert_eq!(upstream_saw.load(Ordering::SeqCst), 2);
    assert_eq!(proxy.stop(), 0);
    // The recording has the refused exchange as it happened, and `check` finds what was refused.
    let lines = proxy.lines();
    let messages: Vec<&Value> = lines.iter().filter(|l| l.get("dir").is_some()).map(|l| &l["msg"]).collect();
    assert!(messages.contains(&&bad), "the refused request is recorded");
    assert!(messages.iter().any(|m| m["id"] == 2 && m["error"]["code"] == -32602), "the proxy's answer is recorded");
    let (_, checked) = common::check_json(&[proxy.record.path()], None);
    assert!(checked.found.iter().any(|f| f.rule == "format.uri"), "{:?}", checked.found);
    let findings = std::fs::read_to_string(proxy.findings.path()).unwrap();
    assert!(findings.contains("format.uri"), "the report names it too:\n{findings}");
}
