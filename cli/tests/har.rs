//! `check FILE.har`: HTTP Archives made here (JSON answers, SSE streams, a 202, a batch, base64
//! bodies, entries out of order, non-MCP entries) and hostile ones (not JSON, nested too deep,
//! cut short, base64 garbage, an SSE stream that never ends its last event), and a real capture:
//! the TypeScript SDK client and server-everything over Streamable HTTP (`har_real/`, needs npm).

use crate::common;

use common::{output_text, run, TempFile};
use serde_json::{json, Value};

const URL: &str = "http://127.0.0.1:3001/mcp";

/// An entry: a POST of `body` (or a GET when `None`) answered with `status`, `mime` and `text`.
fn entry(time: &str, body: Option<Value>, status: u16, mime: &str, text: &str) -> Value {
    let mut req = json!({"method": "GET", "url": URL, "httpVersion": "HTTP/1.1", "headers": [{"name": "Accept", "value": "application/json, text/event-stream"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0});
    if let Some(b) = body {
        req["method"] = json!("POST");
        req["postData"] = json!({"mimeType": "application/json", "text": b.to_string()});
    }
    let content = if text.is_empty() { json!({"size": 0, "mimeType": mime}) } else { json!({"size": text.len(), "mimeType": mime, "text": text}) };
    json!({
        "startedDateTime": time, "time": 3.5, "request": req,
        "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "headers": [{"name": "Content-Type", "value": mime}], "cookies": [], "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1},
        "cache": {}, "timings": {"send": 0, "wait": 3, "receive": 0.5}
    })
}

/// The HAR of `entries`; each POST after an `initialize` gets the `MCP-Protocol-Version` header
/// its session negotiated, as a client does (the transport rules ask for it from 2025-06-18).
fn har(mut entries: Vec<Value>) -> Vec<u8> {
    let mut negotiated: Vec<(Value, Value)> = Vec::new();
    let session = |e: &Value| ["request", "response"].iter().flat_map(|s| e[*s]["headers"].as_array().cloned().unwrap_or_default()).find(|h| h["name"] == "Mcp-Session-Id").map(|h| h["value"].clone()).unwrap_or(Value::Null);
    for e in &mut entries {
        let body: Value = e["request"]["postData"]["text"].as_str().and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null);
        let sid = session(e);
        if body["method"] == "initialize" {
            negotiated.retain(|(s, _)| *s != sid);
            negotiated.push((sid, body["params"]["protocolVersion"].clone()));
        } else if let Some((_, v)) = negotiated.iter().rev().find(|(s, _)| *s == sid).filter(|_| body.to_string().contains("jsonrpc")) {
            if let Some(h) = e["request"]["headers"].as_array_mut().filter(|_| v != "2025-03-26") {
                h.push(json!({"name": "MCP-Protocol-Version", "value": v}));
            }
        }
    }
    serde_json::to_vec_pretty(&json!({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": entries}})).unwrap()
}

fn t(s: u32) -> String {
    format!("2026-11-26T00:00:{s:02}.000Z")
}

fn init(v: &str) -> Vec<Value> {
    let req = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let resp = json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": v, "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    vec![entry(&t(0), Some(req), 200, "application/json", &resp.to_string()), entry(&t(1), Some(initialized), 202, "", "")]
}

fn sse(events: &[(&str, Value)]) -> String {
    // A priming event (an id, no data), a comment, then each event with its id (ids are unique in a session).
    let mut s = format!("id: prime-{}\ndata:\n\n: keep-alive\n\n", events.first().map_or("", |e| e.0));
    for (id, v) in events {
        s.push_str(&format!("event: message\nid: {id}\ndata: {v}\n\n"));
    }
    s
}

struct Out {
    code: i32,
    /// (entry, place, pointer, rule, severity) of each finding, in output order.
    found: Vec<(u64, String, String, String, String)>,
    /// The `http` object of each value with findings.
    http: Vec<Value>,
    stderr: String,
}

fn check(name: &str, bytes: &[u8]) -> Out {
    let f = TempFile::new(name, bytes);
    let r = run(&["check", "--json", f.path()], None);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    let (mut found, mut http) = (Vec::new(), Vec::new());
    for line in r.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(vs) = v["violations"].as_array() else { continue };
        http.push(v["http"].clone());
        for d in vs {
            let s = |x: &Value| x.as_str().unwrap_or_default().to_string();
            found.push((v["line"].as_u64().unwrap(), s(&v["place"]), s(&d["pointer"]), s(&d["rule"]), s(&d["severity"])));
        }
    }
    Out { code: r.code, found, http, stderr: r.stderr }
}

fn session() -> Vec<Value> {
    let mut e = init("2025-11-25");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let tools = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}});
    e.push(entry(&t(2), Some(list), 200, "application/json", &tools.to_string()));
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {}, "_meta": {"progressToken": "p"}}});
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p", "progress": 1}});
    let result = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "hi"}]}});
    e.push(entry(&t(3), Some(call), 200, "text/event-stream", &sse(&[("e1", progress), ("e2", result)])));
    e
}

#[test]
fn a_session_over_json_and_sse_answers_passes() {
    let mut e = session();
    // Entries that are not MCP: a page and an API call without JSON-RPC.
    e.push(json!({"startedDateTime": t(4), "request": {"method": "GET", "url": "http://127.0.0.1:3001/favicon.ico", "headers": []}, "response": {"status": 200, "headers": [], "content": {"mimeType": "image/png", "text": "iVBORw0KGgo=", "encoding": "base64"}}}));
    e.push(entry(&t(5), Some(json!({"query": "x"})), 200, "application/json", "{\"ok\":true}"));
    let o = check("s.har", &har(e));
    assert_eq!((o.code, o.found.len()), (0, 0), "{:?}", o.found);
    // initialize (2), initialized, tools/list (2), tools/call, progress, result.
    assert!(o.stderr.contains("HAR: 6 entries, 2 skipped (not MCP), 8 messages checked"), "{}", o.stderr);
}

#[test]
fn findings_name_the_entry_the_place_and_the_pointer() {
    let mut e = session();
    let bad_call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"arguments": {}}});
    let bad_result = json!({"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text"}]}});
    e.push(entry(&t(4), Some(bad_call), 200, "text/event-stream", &sse(&[("e7", bad_result)])));
    let o = check("s.har", &har(e.clone()));
    assert_eq!(o.code, 1);
    let req: Vec<_> = o.found.iter().filter(|f| f.3 == "required").collect();
    assert!(req.iter().any(|f| f.0 == 4 && f.1 == "entry 4 (POST /mcp 200), request" && f.2 == "/params"), "{:?}", o.found);
    assert!(o.found.iter().any(|f| f.0 == 4 && f.1 == "entry 4 (POST /mcp 200), response, SSE event 1 (id \"e7\")" && f.2.starts_with("/result/content/0")), "{:?}", o.found);
    assert!(o.http.contains(&json!({"entry": 4, "method": "POST", "path": "/mcp", "status": 200, "sessionId": null, "protocolVersion": "2025-11-25", "part": "response", "event": 1, "eventId": "e7"})), "{:?}", o.http);
    // The text report names them the same way.
    let f = TempFile::new("s.har", &har(e));
    let r = run(&["check", f.path()], None);
    assert!(r.stdout.contains("s.har:entry 4 (POST /mcp 200), request: /params: error [required]"), "{}", r.stdout);
}

#[test]
fn a_batch_is_checked_in_2025_03_26_and_refused_after() {
    for (v, code) in [("2025-03-26", 0), ("2025-06-18", 1)] {
        let mut e = init(v);
        let batch = json!([{"jsonrpc": "2.0", "id": 2, "method": "ping"}, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}]);
        let answers = json!([{"jsonrpc": "2.0", "id": 2, "result": {}}, {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}]);
        e.push(entry(&t(2), Some(batch), 200, "application/json", &answers.to_string()));
        let o = check("b.har", &har(e));
        assert_eq!(o.code, code, "{v}: {:?}", o.found);
        if code == 1 {
            assert!(o.found.iter().all(|f| f.0 == 2 && f.3 == "jsonrpc.batch"), "{:?}", o.found);
        }
    }
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            s.push(if i <= c.len() { A[(n >> (18 - 6 * i)) as usize & 63] as char } else { '=' });
        }
    }
    s
}

#[test]
fn base64_bodies_are_decoded_and_garbage_is_reported() {
    let mut e = init("2025-11-25");
    let resp = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": 5}]}});
    let mut x = entry(&t(2), Some(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})), 200, "application/json", "");
    x["response"]["content"] = json!({"mimeType": "application/json", "encoding": "base64", "text": base64(resp.to_string().as_bytes())});
    e.push(x);
    let mut y = entry(&t(3), Some(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"})), 200, "application/json", "");
    y["response"]["content"] = json!({"mimeType": "application/json", "encoding": "base64", "text": "e30*!!"});
    e.push(y);
    let o = check("s.har", &har(e));
    assert_eq!(o.code, 1);
    // The decoded answer is checked: the tool's name is not a string.
    assert!(o.found.iter().any(|f| f.0 == 2 && f.1.ends_with("response") && f.2.starts_with("/result/tools/0")), "{:?}", o.found);
    assert!(o.found.iter().any(|f| f.0 == 3 && f.3 == "har.body"), "{:?}", o.found);
}

#[test]
fn entries_out_of_order_are_checked_in_time_order() {
    let mut e = init("2025-11-25");
    let bad = |id: u32| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {}});
    // File order: entry 2 at 0:09, entry 3 at 0:05; a tie (entry 4, also 0:05) stays after entry 3.
    e.push(entry(&t(9), Some(bad(2)), 202, "", ""));
    e.push(entry(&t(5), Some(bad(3)), 202, "", ""));
    e.push(entry(&t(5), Some(bad(4)), 202, "", ""));
    let o = check("s.har", &har(e));
    let mut order: Vec<u64> = o.found.iter().map(|f| f.0).collect();
    order.dedup();
    assert_eq!(order, vec![3, 4, 2], "{:?}", o.found);
    assert!(o.stderr.contains("in startedDateTime order"), "{}", o.stderr);
}

#[test]
fn a_har_is_found_by_its_content_whatever_its_name() {
    let mut e = init("2025-11-25");
    e.push(entry(&t(2), Some(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}})), 202, "", ""));
    for name in ["capture.json", "capture.txt", "CAPTURE.HAR"] {
        let o = check(name, &har(e.clone()));
        assert!(o.found.iter().any(|f| f.0 == 2 && f.2 == "/params"), "{name}: {:?}", o.found);
    }
}

#[test]
fn an_unterminated_sse_event_is_a_warning_not_a_message() {
    let mut e = init("2025-11-25");
    let ok = json!({"jsonrpc": "2.0", "id": 2, "result": {}});
    let text = format!("id: 0\ndata:\n\nid: 1\ndata: {ok}\n\nid: 2\ndata: {{\"jsonrpc\": \"2.0\", \"id\"");
    e.push(entry(&t(2), Some(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})), 200, "text/event-stream", &text));
    let o = check("s.har", &har(e));
    assert_eq!(o.code, 0, "{:?}", o.found);
    assert_eq!(o.found.iter().map(|f| (f.0, f.3.as_str(), f.4.as_str())).collect::<Vec<_>>(), vec![(2, "sse.unterminated", "warning")]);
    // A 20 MB stream with no line end at all: the same, in bounded time.
    let mut e = init("2025-11-25");
    e.push(entry(&t(2), Some(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})), 200, "text/event-stream", &format!("data: {}", "x".repeat(20 << 20))));
    let o = check("s.har", &har(e));
    assert!(o.found.iter().any(|f| f.3 == "sse.unterminated"), "{:?}", o.found);
}

#[test]
fn hostile_hars_are_reported_never_a_panic() {
    let deep = format!("{{\"log\": {{\"entries\": [{}", "[".repeat(100_000));
    let mut cut = har(session());
    cut.truncate(cut.len() * 2 / 3);
    let wrong_types = br#"{"log": {"entries": [{"request": 5}]}}"#.to_vec();
    let no_entries = br#"{"log": {"version": "1.2"}}"#.to_vec();
    let huge_key = format!("{{\"log\": {{\"{}\": 1, \"entries\": []}}}}", "k".repeat(1 << 20)).into_bytes();
    for (what, bytes) in [("deep", deep.into_bytes()), ("cut", cut), ("types", wrong_types), ("no entries", no_entries), ("not json", b"{\"log\": nope".to_vec())] {
        let o = check("h.har", &bytes);
        assert_eq!(o.code, 1, "{what}");
        assert!(o.found.iter().any(|f| f.3 == "har" && f.4 == "error"), "{what}: {:?}", o.found);
    }
    let o = check("h.har", &huge_key);
    assert_eq!((o.code, o.found.len()), (0, 0));
    // Many headers, long values: only the MCP ones are kept.
    let mut e = init("2025-11-25");
    let mut headers: Vec<Value> = (0..50_000).map(|i| json!({"name": format!("X-{i}"), "value": "v".repeat(100)})).collect();
    headers.push(json!({"name": "Accept", "value": "application/json, text/event-stream"}));
    e[0]["request"]["headers"] = json!(headers);
    let o = check("h.har", &har(e));
    assert_eq!((o.code, o.found.len()), (0, 0), "{:?}", o.found);
}

#[test]
fn a_real_capture_of_the_typescript_client_and_server_everything_passes() {
    let Some((dir, node)) = common::pinned_npm("har_real", "the real capture's packages") else { return };
    let out = TempFile::new("real.har", b"");
    let rec = std::process::Command::new(&node).arg("record.mjs").arg(out.path()).current_dir(&dir).output().unwrap();
    assert!(rec.status.success(), "recording failed: {}", output_text(&rec));
    let har: Value = serde_json::from_slice(&std::fs::read(out.path()).unwrap()).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    // The SDK's traffic: POSTs answered over SSE (with 2025-11-25's priming events), the 202 for
    // `notifications/initialized`, the GET stream and the DELETE that ends the session.
    let methods: Vec<&str> = entries.iter().map(|e| e["request"]["method"].as_str().unwrap()).collect();
    assert!(methods.contains(&"GET") && methods.contains(&"DELETE"), "{methods:?}");
    assert!(entries.iter().any(|e| e["response"]["status"] == 202));
    assert!(entries.iter().any(|e| e["response"]["content"]["mimeType"].as_str().unwrap_or("").starts_with("text/event-stream")));
    let o = check("real.har", &std::fs::read(out.path()).unwrap());
    assert_eq!((o.code, o.found.len()), (0, 0), "{:?}", o.found);
    let line = o.stderr.lines().find(|l| l.contains("HAR:")).unwrap();
    let n: usize = line.split(", ").find_map(|p| p.strip_suffix(" messages checked")).unwrap().parse().unwrap();
    assert!(n >= 17 && line.contains(" 0 skipped"), "{line}");
    // The same capture with the tools/list answer's tools missing `inputSchema`: a finding on that entry's SSE event.
    let mut bad = har.clone();
    let i = entries.iter().position(|e| e["request"]["postData"]["text"].as_str().is_some_and(|t| t.contains("\"tools/list\""))).unwrap();
    let text = bad["log"]["entries"][i]["response"]["content"]["text"].as_str().unwrap().replace("\"inputSchema\"", "\"inputSchemx\"");
    bad["log"]["entries"][i]["response"]["content"]["text"] = json!(text);
    let o = check("real.har", &serde_json::to_vec(&bad).unwrap());
    assert_eq!(o.code, 1);
    // The SDK names the session and the version on every request after initialize.
    let h = &o.http[0];
    assert!(h["sessionId"].as_str().is_some_and(|s| !s.is_empty()) && h["protocolVersion"].is_string(), "{h}");
    assert!(o.found.iter().any(|f| f.0 == i as u64 && f.1.starts_with(&format!("entry {i} (POST /mcp 200), response, SSE event 1 (id ")) && f.3 == "required"), "{:?}", o.found);
}

/// `e` as an entry of session `id`: the header on the request, or on the response for the
/// `initialize` that starts it.
fn in_session(mut e: Value, id: &str, on_response: bool) -> Value {
    let side = if on_response { "response" } else { "request" };
    e[side]["headers"].as_array_mut().unwrap().push(json!({"name": "Mcp-Session-Id", "value": id}));
    e
}

#[test]
fn each_session_of_a_har_is_a_stream_of_its_own() {
    // Two sessions, interleaved in time, each with its own initialize (in two versions).
    let (a, b) = (init("2025-11-25"), init("2025-06-18"));
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let tools = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": []}});
    let mut e = vec![
        in_session(a[0].clone(), "A", true),
        in_session(b[0].clone(), "B", true),
        in_session(a[1].clone(), "A", false),
        in_session(b[1].clone(), "B", false),
        in_session(entry(&t(4), Some(list.clone()), 200, "application/json", &tools.to_string()), "A", false),
        in_session(entry(&t(5), Some(list), 200, "application/json", &tools.to_string()), "B", false),
    ];
    for (n, x) in e.iter_mut().enumerate() {
        x["startedDateTime"] = json!(t(n as u32));
    }
    let o = check("two.har", &har(e.clone()));
    assert_eq!((o.code, o.found.len()), (0, 0), "{:?}", o.found);
    // The same entries without session ids are one stream: a second initialize is a finding there.
    for x in &mut e {
        for side in ["request", "response"] {
            x[side]["headers"].as_array_mut().unwrap().retain(|h| h["name"] != "Mcp-Session-Id");
        }
    }
    let o = check("one.har", &har(e));
    assert!(!o.found.is_empty(), "one stream with two initializes passed");
}

/// 2024-11-05 HTTP+SSE: the GET /sse entry starts first and holds every server message; the POSTs to
/// its endpoint are answered 202 "Accepted". Its messages are checked after the POSTs they answer.
fn legacy_session(post_query: &str) -> Vec<Value> {
    let base = "http://127.0.0.1:3001";
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let result = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2024-11-05", "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "s", "version": "1"}}});
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    let tools = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}});
    let stream = format!("event: endpoint\ndata: /message?sessionId=abc\n\nevent: message\ndata: {result}\n\nevent: message\ndata: {changed}\n\nevent: message\ndata: {tools}\n\n");
    let get = json!({"startedDateTime": t(0), "request": {"method": "GET", "url": format!("{base}/sse"), "headers": [{"name": "Accept", "value": "text/event-stream"}]}, "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}], "content": {"mimeType": "text/event-stream", "text": stream}}});
    let post = |n: u32, msg: Value| json!({"startedDateTime": t(n), "request": {"method": "POST", "url": format!("{base}/message?{post_query}"), "headers": [{"name": "Content-Type", "value": "application/json"}], "postData": {"mimeType": "application/json", "text": msg.to_string()}}, "response": {"status": 202, "headers": [], "content": {"mimeType": "text/plain", "text": "Accepted"}}});
    vec![get, post(1, init), post(2, json!({"jsonrpc": "2.0", "method": "notifications/initialized"})), post(3, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))]
}

#[test]
fn a_2024_11_05_http_sse_session_is_checked_in_the_order_it_happened() {
    let f = TempFile::new("legacy.har", &har(legacy_session("sessionId=abc")));
    let r = run(&["check", "--json", "--summary", f.path()], None);
    assert_eq!(r.code, 0, "{}", r.stdout);
    // No answer before its request, no notification before `notifications/initialized`, nothing left unanswered.
    assert!(!r.stdout.contains("\"rule\""), "{}", r.stdout);
    assert!(r.stdout.contains("\"unanswered_total\":0"), "{}", r.stdout);
    // POSTs to another URI than the endpoint the stream announced.
    let o = check("legacy.har", &har(legacy_session("sessionId=zzz")));
    assert_eq!(o.code, 1, "{:?}", o.found);
    assert!(o.found.iter().any(|f| f.3 == "transport.sse-post-endpoint" && f.1 == "entry 1 (POST /message 202)"), "{:?}", o.found);
}

#[test]
fn a_real_capture_of_the_2024_11_05_http_sse_transport_passes() {
    let Some((dir, node)) = common::pinned_npm("har_real", "the real capture's packages") else { return };
    let out = TempFile::new("legacy.har", b"");
    let rec = std::process::Command::new(&node).arg("record.mjs").arg(out.path()).arg("sse").current_dir(&dir).output().unwrap();
    assert!(rec.status.success(), "recording failed: {}", output_text(&rec));
    let o = check("legacy.har", &std::fs::read(out.path()).unwrap());
    assert_eq!((o.code, o.found.len()), (0, 0), "{:?}", o.found);
    assert!(o.stderr.contains(" 0 skipped (not MCP)"), "{}", o.stderr);
    // The same capture with the endpoint event moved after the first message.
    let mut har: Value = serde_json::from_slice(&std::fs::read(out.path()).unwrap()).unwrap();
    let stream = har["log"]["entries"][0]["response"]["content"]["text"].as_str().unwrap().to_string();
    let (endpoint, rest) = stream.split_once("\n\n").unwrap();
    let (first, after) = rest.split_once("\n\n").unwrap();
    har["log"]["entries"][0]["response"]["content"]["text"] = json!(format!("{first}\n\n{endpoint}\n\n{after}"));
    let o = check("moved.har", &serde_json::to_vec(&har).unwrap());
    assert!(o.found.iter().any(|f| f.0 == 0 && f.3 == "transport.sse-endpoint-first"), "{:?}", o.found);
}

/// HAR 1.2 has files in UTF-8, and readers must accept a byte order mark before the JSON and ignore it.
#[test]
fn a_byte_order_mark_before_the_har_is_ignored() {
    for name in ["bom.har", "bom.json"] {
        let mut bytes = b"\xef\xbb\xbf".to_vec();
        bytes.extend(har(session()));
        let o = check(name, &bytes);
        assert_eq!((o.code, o.found.len()), (0, 0), "{name}: {:?}", o.found);
        assert!(o.stderr.contains("HAR: 4 entries, 0 skipped (not MCP), 8 messages checked"), "{name}: {}", o.stderr);
    }
}

/// Two `log`s (or two `entries`): readers disagree on which one counts, so the file is reported,
/// never checked as the empty one and passed.
#[test]
fn a_repeated_log_or_entries_key_is_reported_not_passed_empty() {
    let v: Value = serde_json::from_slice(&har(session())).unwrap();
    let (log, entries) = (v["log"].to_string(), v["log"]["entries"].to_string());
    let two_logs = format!(r#"{{"log": {{"version": "1.2", "entries": []}}, "log": {log}}}"#);
    let two_entries = format!(r#"{{"log": {{"version": "1.2", "entries": [], "entries": {entries}}}}}"#);
    for (what, text, key) in [("two logs", two_logs, "`log` at the top of the file"), ("two entries", two_entries, "`entries` in `log`")] {
        let f = TempFile::new("twice.har", text.as_bytes());
        let r = run(&["check", "--json", f.path()], None);
        assert_eq!(r.code, 1, "{what}: {}{}", r.stdout, r.stderr);
        let found: Vec<Value> = r.stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).filter(|v| v["violations"].is_array()).collect();
        assert_eq!(found.len(), 1, "{what}: {}", r.stdout);
        let d = &found[0]["violations"][0];
        assert_eq!((d["rule"].as_str(), d["severity"].as_str()), (Some("har"), Some("error")), "{what}: {d}");
        assert!(d["message"].as_str().unwrap().contains(key), "{what}: {d}");
    }
}

/// An entry of `url` POSTing `body`, answered with the JSON `answer`, with no MCP header.
fn plain_post(time: &str, url: &str, body: Value, answer: Value) -> Value {
    let json = json!([{"name": "Content-Type", "value": "application/json"}]);
    json!({"startedDateTime": time, "request": {"method": "POST", "url": url, "headers": json, "postData": {"mimeType": "application/json", "text": body.to_string()}}, "response": {"status": 200, "headers": json, "content": {"mimeType": "application/json", "text": answer.to_string()}}})
}

/// `har(session())` with `more` entries added as they are (no MCP header added to them).
fn session_and(more: Vec<Value>) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(&har(session())).unwrap();
    v["log"]["entries"].as_array_mut().unwrap().extend(more);
    serde_json::to_vec(&v).unwrap()
}

/// A page that talks MCP and also JSON-RPC to other services: an Ethereum node, an A2A agent and
/// a language server over HTTP. Their entries are skipped as not MCP (each would be a false finding: an
/// unknown method, a reused id, an `initialize` without `protocolVersion`); JSON-RPC to the MCP
/// endpoint without any MCP header (a `ping`) is still MCP.
#[test]
fn other_json_rpc_traffic_in_a_har_is_skipped_not_checked_as_mcp() {
    let eth = "https://rpc.example.org/v1";
    let lsp = "http://127.0.0.1:4000/lsp";
    let others = vec![
        plain_post(&t(5), eth, json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": "0x00", "data": "0x70a08231"}, "latest"]}), json!({"jsonrpc": "2.0", "id": 1, "result": "0x0"})),
        plain_post(&t(6), eth, json!({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": []}), json!({"jsonrpc": "2.0", "id": 1, "result": "0x10"})),
        plain_post(&t(7), eth, json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}), json!({"jsonrpc": "2.0", "id": 2, "result": "pong"})),
        plain_post(&t(7), "https://agent.example.org/a2a", json!({"jsonrpc": "2.0", "id": "q", "method": "tasks/get", "params": {"id": "t1"}}), json!({"jsonrpc": "2.0", "id": "q", "result": {"id": "t1", "status": {"state": "completed"}}})),
        plain_post(&t(8), lsp, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"processId": 1, "rootUri": null, "capabilities": {}}}), json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": {"hoverProvider": true}}})),
        plain_post(&t(9), lsp, json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///a"}, "position": {"line": 0, "character": 0}}}), json!({"jsonrpc": "2.0", "id": 1, "result": null})),
    ];
    let o = check("page.har", &session_and(others.clone()));
    assert_eq!((o.code, o.found.len()), (0, 0), "{:?}", o.found);
    assert!(o.stderr.contains("HAR: 10 entries, 6 skipped (not MCP), 8 messages checked"), "{}", o.stderr);
    // A `ping` to the MCP endpoint is MCP, header or not: its bad answer (a result that is not an object) is found.
    let mut more = others;
    more.push(plain_post(&t(10), URL, json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}), json!({"jsonrpc": "2.0", "id": 9, "result": "pong"})));
    let o = check("page.har", &session_and(more));
    assert_eq!(o.code, 1, "{:?}", o.found);
    assert!(!o.found.is_empty() && o.found.iter().all(|f| f.0 == 10), "{:?}", o.found);
    assert!(o.stderr.contains("HAR: 11 entries, 6 skipped (not MCP), 10 messages checked"), "{}", o.stderr);
}

/// Entries held while they wait for their turn (here a second session's, while the first one's
/// are checked) past `--har-held`: one finding with their count, not one per entry.
#[test]
fn entries_past_the_held_budget_are_one_finding_with_a_count() {
    let (a, b) = (init("2025-11-25"), init("2025-11-25"));
    let mut e = vec![in_session(a[0].clone(), "A", true), in_session(b[0].clone(), "B", true), in_session(a[1].clone(), "A", false), in_session(b[1].clone(), "B", false)];
    for id in 2..42 {
        let list = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
        let tools = json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}});
        for s in ["A", "B"] {
            e.push(in_session(entry(&t(0), Some(list.clone()), 200, "application/json", &tools.to_string()), s, false));
        }
    }
    for (n, x) in e.iter_mut().enumerate() {
        x["startedDateTime"] = json!(format!("2026-11-26T00:{:02}:{:02}.000Z", n / 60, n % 60));
    }
    let f = TempFile::new("two.har", &har(e.clone()));
    let r = run(&["check", "--json", f.path()], None);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let r = run(&["check", "--json", "--har-held", "8K", f.path()], None);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let held: Vec<Value> = r.stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).filter(|v| v["violations"].to_string().contains("har.held")).collect();
    assert_eq!(held.len(), 1, "{}", r.stdout);
    let msg = held[0]["violations"][0]["message"].as_str().unwrap();
    let n: usize = msg.split(' ').next().unwrap().parse().unwrap();
    assert!(n > 10 && msg.contains(&format!("from entry {} on", held[0]["line"])), "{msg}");
    assert!(r.stderr.contains(&format!(", {n} not checked (past --har-held)")), "{}", r.stderr);
}

/// A `tools/call` answered by an SSE stream that ends without its answer, in 2025-06-18 and
/// 2025-11-25, and the client's `notifications/cancelled` for `cancels` sent `at` seconds in (the
/// stream runs from 3 s to 6 s). A HAR entry is a whole exchange, so the cancel's entry comes after
/// the stream's in time order although it was sent while the stream was open: no answer is owed
/// then, and neither `transport.sse-answer` nor `transport.sse-retry` may be reported (nor
/// `transport.json-answer` for a JSON answer cut to no response).
fn cancelled_stream_rules(cancels: u32, at: u32) -> Vec<Vec<String>> {
    ["2025-06-18", "2025-11-25", "json"]
        .iter()
        .map(|v| {
            // `json`: a JSON answer (2025-11-25) that holds only a log message, no response.
            let (v, json_answer) = if *v == "json" { ("2025-11-25", true) } else { (*v, false) };
            let mut e: Vec<Value> = init(v).into_iter().enumerate().map(|(n, x)| in_session(x, "S", n == 0)).collect();
            let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {}, "_meta": {"progressToken": "p"}}});
            let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p", "progress": 1}});
            let stream = if v == "2025-11-25" { sse(&[("e1", progress.clone())]) } else { format!("event: message\ndata: {progress}\n\n") };
            let (mime, text) = if json_answer { ("application/json", progress.to_string()) } else { ("text/event-stream", stream) };
            let mut s = in_session(entry(&t(3), Some(call), 200, mime, &text), "S", false);
            s["time"] = json!(3000.0);
            e.push(s);
            let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": cancels, "reason": "user"}});
            e.push(in_session(entry(&t(at), Some(cancel), 202, "", ""), "S", false));
            let o = check("cancel.har", &har(e));
            o.found.into_iter().map(|f| f.3).filter(|r| ["transport.sse-answer", "transport.sse-retry", "transport.json-answer"].contains(&r.as_str())).collect()
        })
        .collect()
}

#[test]
fn no_answer_is_owed_to_a_request_cancelled_while_its_stream_was_open() {
    assert_eq!(cancelled_stream_rules(3, 4), vec![Vec::<String>::new(); 3]);
    // Another request cancelled, or this one after its stream ended: the answer was owed.
    for (cancels, at) in [(9, 4), (3, 7)] {
        let found = cancelled_stream_rules(cancels, at);
        assert!(found.iter().all(|f| !f.is_empty()), "cancel of {cancels} at {at} s: {found:?}");
    }
}

/// 2026-07-28 clients in one HAR, each numbering its requests from 1: no session, so one stream,
/// but each entry is an exchange of its own (no `stream.id-reused`); an answer naming no request of
/// its entry is still unmatched.
#[test]
fn stateless_entries_are_checked_apart() {
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let tools = |id: u64| json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": []}}).to_string();
    let post26 = |n: u32, answer: String| {
        let mut e = entry(&t(n), Some(list.clone()), 200, "application/json", &answer);
        let h = e["request"]["headers"].as_array_mut().unwrap();
        h.push(json!({"name": "Content-Type", "value": "application/json"}));
        h.push(json!({"name": "MCP-Protocol-Version", "value": "2026-07-28"}));
        h.push(json!({"name": "Mcp-Method", "value": "tools/list"}));
        e
    };
    let rules = |o: &Out| o.found.iter().map(|f| f.3.clone()).filter(|r| r.starts_with("stream.") || r.starts_with("session.")).collect::<Vec<_>>();
    let o = check("clients.har", &har(vec![post26(0, tools(1)), post26(1, tools(1)), post26(2, tools(1))]));
    assert_eq!(rules(&o), Vec::<String>::new(), "{:?}", o.found);
    let o = check("wrong.har", &har(vec![post26(0, tools(1)), post26(1, tools(5))]));
    assert_eq!(rules(&o), ["stream.response-unmatched"], "{:?}", o.found);
}
