//! The checking layer (`mcp-spec-guard`) in front of two real Streamable HTTP servers, over real
//! HTTP, one server process per mode: rmcp 3.11's `StreamableHttpService` in axum
//! (`rmcp_guarded`, feature `rmcp`) and the engine's `McpService` (`http_server_guarded`).
//! - The official clients (the TypeScript SDK v2 and Python `mcp` 2.x, in the session era and in
//!   2026-07-28, as tests/sdk_http.rs runs them) pass through all four.
//! - The hostile requests of the layer's own tests (guard/tests/support/hostile.rs) go to rmcp:
//!   in enforce mode each is answered by the layer with its JSON-RPC error, rule id and pointer,
//!   and rmcp never sees it (its `/served` count); in audit mode rmcp sees each, and the finding is
//!   a `tracing` event with the MCP span attributes (the JSON lines on the server's stderr).

#![forbid(unsafe_code)]

#[allow(dead_code)]
#[path = "../../guard/tests/support/hostile.rs"]
mod hostile;
mod sdks;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hostile::{hostiles, Hostile, V};
use sdks::http_clients_in_both_eras;
use serde_json::{json, Value};

/// A guarded server on a free port, its stderr's JSON lines collected; stopped when dropped.
struct Server {
    child: Child,
    addr: String,
    lines: Arc<Mutex<Vec<Value>>>,
}

impl Server {
    fn start(bin: &str, args: &[&str]) -> Server {
        let mut child = Command::new(bin).args(["--listen", "127.0.0.1:0"]).args(args).stderr(Stdio::piped()).spawn().unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line.trim().strip_prefix("listening on http://").and_then(|a| a.strip_suffix("/mcp")).unwrap_or_else(|| panic!("no address in {line:?}")).to_owned();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let seen = lines.clone();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if let Ok(v) = serde_json::from_str(&line) {
                    seen.lock().unwrap().push(v);
                }
            }
        });
        Server { child, addr, lines }
    }

    fn rmcp(mode: &str) -> Server {
        Server::start(env!("CARGO_BIN_EXE_rmcp_guarded"), &["--mode", mode])
    }

    fn engine(mode: &str) -> Server {
        Server::start(env!("CARGO_BIN_EXE_http_server_guarded"), &["--mode", mode])
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// The layer's findings (events with a `rule`) logged from line `from` on: each event's fields and its span's.
    fn findings(&self, from: usize) -> Vec<(Value, Value)> {
        let lines = self.lines.lock().unwrap();
        lines.iter().skip(from).filter(|l| l["fields"].get("rule").is_some()).map(|l| (l["fields"].clone(), l["span"].clone())).collect()
    }

    fn logged(&self) -> usize {
        self.lines.lock().unwrap().len()
    }

    /// Waits (at most 10 s) for a finding logged from line `from` on that `matches`.
    fn wait_finding(&self, from: usize, matches: impl Fn(&Value) -> bool) -> Option<(Value, Value)> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Some(hit) = self.findings(from).into_iter().find(|(e, _)| matches(e)) {
                return Some(hit);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Requests that reached rmcp so far (`rmcp_guarded`'s `GET /served`).
    fn served(&self) -> u64 {
        let (status, _, body) = http(&self.addr, &format!("GET /served HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.addr));
        assert_eq!(status, 200);
        String::from_utf8(body).unwrap().trim().parse().unwrap()
    }

    /// POSTs `body` to `/mcp` with `headers`: the status, the headers (lowercased names) and the body.
    fn post(&self, body: &str, headers: &[(&str, &str)]) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
        let request = format!("POST /mcp HTTP/1.1\r\nHost: {}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n{body}", self.addr, body.len());
        http(&self.addr, &request)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 exchange on its own connection: the status, the headers and the (de-chunked) body.
fn http(addr: &str, request: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a head");
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("a status");
    let headers: Vec<(String, String)> = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    let mut body = answer[split + 4..].to_vec();
    if headers.iter().any(|(k, v)| k == "transfer-encoding" && v == "chunked") {
        body = dechunk(&body);
    }
    (status, headers, body)
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..eol]).split(';').next().unwrap().trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[eol + 2 + size + 2..];
    }
    out
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// The JSON-RPC message of a body: the body itself, or the last SSE event's data.
fn answer_of(body: &[u8]) -> Value {
    let text = String::from_utf8_lossy(body);
    let json = text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).rfind(|d| !d.is_empty()).unwrap_or(&text);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("no answer in {text:?}: {e}"))
}

/// The MUSTs rmcp 3.11 breaks with these clients: the standalone GET stream's priming event has
/// the id `0` that the `initialize` answer's priming event had (ids must be unique across the
/// session's streams).
const RMCP_BREAKS: &[&str] = &["transport.event-id-unique"];

/// The official clients through `server`, in both eras: how many passed. `known`: the rules whose
/// errors the server is known to make.
fn sdk_clients_pass(server: &Server, label: &str, known: &[&str]) -> usize {
    let (passed, failed) = http_clients_in_both_eras(&server.url(), &format!("{label}, "));
    let mut by_rule = std::collections::BTreeMap::new();
    for (e, _) in server.findings(0) {
        *by_rule.entry(format!("{} {} {}", e["rule"].as_str().unwrap_or("?"), e["severity"].as_str().unwrap_or("?"), e["direction"].as_str().unwrap_or("?"))).or_insert(0) += 1;
    }
    println!("{label}: {passed} client runs passed, {} failed; the layer's findings on them: {by_rule:?}", failed.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // What the official clients and the server send breaks no other MUST (warnings are told, as a
    // progress rmcp sends after a cancellation is).
    let errors: Vec<&String> = by_rule.keys().filter(|k| k.contains(" error ") && !known.iter().any(|r| k.starts_with(&format!("{r} ")))).collect();
    assert!(errors.is_empty(), "{label}: {errors:?}");
    passed
}

/// A 2025-11-25 session opened on rmcp (`initialize` id 0, `tools/list` id 1, as the hostile
/// table expects): its id.
fn open(server: &Server) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": V, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let (status, headers, body) = server.post(&init.to_string(), &[]);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let s = header(&headers, "mcp-session-id").expect("a session").to_string();
    let h = [("mcp-session-id", s.as_str()), ("mcp-protocol-version", V)];
    let (status, _, _) = server.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, &h);
    assert_eq!(status, 202);
    let (status, _, body) = server.post(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, &h);
    assert_eq!((status, answer_of(&body)["result"]["tools"][0]["name"].as_str()), (200, Some("convert")));
    s
}

/// Whether `e` is the finding `case` names, on the request.
fn is_case(e: &Value, case: &Hostile) -> bool {
    e["rule"] == case.rule && e["pointer"] == case.pointer && e["direction"] == "c2s"
}

/// The code enforce mode answers `case` with on the two tools. They declare only `tools`: a
/// request for another capability (the table's server declares `resources` and `logging`) breaks
/// `session.capabilities.server` too, and that error (-32600) leads; the case's own rule is still
/// named.
fn code_on_two_tools(case: &Hostile) -> i64 {
    let method = serde_json::from_str::<Value>(&case.body).ok().and_then(|b| b["method"].as_str().map(str::to_string));
    if matches!(method.as_deref(), Some("resources/read" | "logging/setLevel")) { -32600 } else { case.code }
}

#[test]
fn rmcp_in_enforce_mode_passes_the_sdk_clients_and_refuses_each_hostile_request_unseen() {
    let server = Server::rmcp("enforce");
    sdk_clients_pass(&server, "rmcp_guarded --mode enforce", RMCP_BREAKS);
    let s = open(&server);
    let cases = hostiles(&s);
    let mut refused = 0;
    for case in &cases {
        let (before, from) = (server.served(), server.logged());
        let headers: Vec<(&str, &str)> = case.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, answer_headers, body) = server.post(&case.body, &headers);
        let served = server.served() - before;
        let v: Value = serde_json::from_slice(&body).unwrap_or_else(|_| panic!("{}: not JSON: {}", case.name, String::from_utf8_lossy(&body)));
        println!("{}: {status} {} (rmcp saw {served} requests)", case.name, v["error"]["message"]);
        assert_eq!(served, 0, "{}: rmcp saw it", case.name);
        assert_eq!(header(&answer_headers, "content-type"), Some("application/json"), "{}", case.name);
        assert_eq!((status, v["error"]["code"].as_i64(), &v["id"]), (case.status.as_u16(), Some(code_on_two_tools(case)), &case.id), "{}: {v}", case.name);
        let violations = v["error"]["data"]["violations"].as_array().unwrap();
        assert!(violations.iter().any(|x| x["rule"] == case.rule && x["pointer"] == case.pointer), "{}: {violations:?}", case.name);
        let (event, _) = server.wait_finding(from, |e| is_case(e, case)).unwrap_or_else(|| panic!("{}: no event", case.name));
        assert_eq!(event["refused"].as_bool(), Some(true), "{}", case.name);
        refused += 1;
    }
    println!("{refused} kinds of hostile request refused, rmcp saw none of them");
    assert!(refused >= 15);
    // The session goes on after its refusals.
    let (status, _, body) = server.post(r#"{"jsonrpc":"2.0","id":30,"method":"ping"}"#, &[("mcp-session-id", &s), ("mcp-protocol-version", V)]);
    assert_eq!((status, &answer_of(&body)["result"]), (200, &json!({})));
}

#[test]
fn rmcp_in_audit_mode_passes_the_sdk_clients_and_each_hostile_request_reported_with_the_mcp_attributes() {
    let server = Server::rmcp("audit");
    sdk_clients_pass(&server, "rmcp_guarded --mode audit", RMCP_BREAKS);
    let s = open(&server);
    let cases = hostiles(&s);
    for case in &cases {
        let (before, from) = (server.served(), server.logged());
        let headers: Vec<(&str, &str)> = case.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, _, _) = server.post(&case.body, &headers);
        assert_eq!(server.served(), before + 1, "{}: rmcp did not see it", case.name);
        let (event, span) = server.wait_finding(from, |e| is_case(e, case)).unwrap_or_else(|| panic!("{}: no finding {} at {}: {:?}", case.name, case.rule, case.pointer, server.findings(from)));
        println!("{}: rmcp answered {status}; {} at {:?}, span {}", case.name, event["rule"], event["pointer"], span["otel.name"]);
        assert_eq!((event["refused"].as_bool(), event["severity"].as_str()), (Some(false), Some("error")), "{}", case.name);
        assert_eq!((span["name"].as_str(), span["otel.kind"].as_str(), span["network.transport"].as_str(), span["network.protocol.name"].as_str()), (Some("mcp.request"), Some("server"), Some("tcp"), Some("http")));
        let body: Option<Value> = serde_json::from_str(&case.body).ok();
        if let Some(method) = body.as_ref().and_then(|b| b["method"].as_str()) {
            assert_eq!(span["mcp.method.name"], method, "{}", case.name);
            if let Some(id) = body.as_ref().and_then(|b| b["id"].as_u64()) {
                assert_eq!(span["jsonrpc.request.id"], id.to_string(), "{}", case.name);
            }
        }
        if case.headers.iter().any(|(k, _)| *k == "mcp-session-id") {
            assert_eq!(span["mcp.session.id"], s, "{}", case.name);
        }
        if let Some((_, version)) = case.headers.iter().find(|(k, _)| *k == "mcp-protocol-version") {
            assert_eq!(span["mcp.protocol.version"], version.as_str(), "{}", case.name);
        }
    }
    println!("{} kinds of hostile request passed to rmcp, each reported", cases.len());
    assert!(cases.len() >= 15);
}

#[test]
fn the_engine_behind_the_layer_passes_the_sdk_clients_in_both_modes() {
    for mode in ["enforce", "audit"] {
        let server = Server::engine(mode);
        sdk_clients_pass(&server, &format!("http_server_guarded --mode {mode}"), &[]);
        // The layer is there: a request that breaks a MUST is refused (enforce) or reported (audit).
        let from = server.logged();
        let (status, _, body) = server.post(r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#, &[]);
        let refused = server.wait_finding(from, |e| e["rule"] == "jsonrpc.version").expect("a finding")
            .0["refused"].as_bool();
        println!("http_server_guarded --mode {mode}: jsonrpc 1.0 answered {status} {}", String::from_utf8_lossy(&body));
        assert_eq!(refused, Some(mode == "enforce"));
    }
}
