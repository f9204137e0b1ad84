//! The entry points a proxy or a middleware feeds HTTP traffic through, [`Checker::http`] and
//! [`Checker::message_at`], against the recording path they stand in for (`check_line` on the
//! recording's `http` lines and wrapped messages): the same findings on every line, pointers
//! aside (the recording's start with `/msg`), over recordings that draw transport, session and
//! schema findings. Then the 2026-07-28 mirrored headers, fed as a layer builds them (no JSON).

#![forbid(unsafe_code)]

use mcp_spec_check::check::{Checker, Direction, Outcome};
use mcp_spec_check::settings::Settings;
use mcp_spec_check::transport::jsonl::{self, Http};
use mcp_spec_check::transport::{Headers, HttpLine, MsgAt, Part};
use mcp_spec_types::tree::{Doc, Node};
use serde_json::{json, Value};

/// A recording's lines, one JSON value each.
fn recording_2025() -> Vec<Value> {
    let h = |sid: Option<&str>| {
        let mut h = json!({"accept": "application/json, text/event-stream", "content-type": "application/json", "host": "127.0.0.1:8080"});
        if let Some(s) = sid {
            h["mcp-session-id"] = json!(s);
            h["mcp-protocol-version"] = json!("2025-11-25");
        }
        h
    };
    vec![
        json!({"http": {"x": 0, "at": "request", "method": "POST", "path": "/mcp", "headers": h(None)}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}, "http": {"x": 0, "part": "request"}}),
        json!({"http": {"x": 0, "at": "response", "status": 200, "headers": {"content-type": "application/json", "mcp-session-id": "s1"}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}, "http": {"x": 0, "part": "response"}}),
        json!({"http": {"x": 0, "at": "end", "bytes": 120, "complete": true}}),
        json!({"http": {"x": 1, "at": "request", "method": "POST", "path": "/mcp", "headers": h(Some("s1"))}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "http": {"x": 1, "part": "request"}}),
        json!({"http": {"x": 1, "at": "response", "status": 202, "headers": {}}}),
        json!({"http": {"x": 1, "at": "end", "bytes": 0, "complete": true}}),
        // A call over SSE: a priming event, an event id sent twice, a bad result.
        json!({"http": {"x": 2, "at": "request", "method": "POST", "path": "/mcp", "headers": h(Some("s1"))}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 7, "arguments": []}}, "http": {"x": 2, "part": "request"}}),
        json!({"http": {"x": 2, "at": "response", "status": 200, "headers": {"content-type": "text/event-stream"}}}),
        json!({"http": {"x": 2, "at": "event", "event": 0, "eventId": "e1"}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "nobody", "progress": 1}}, "http": {"x": 2, "part": "response", "event": 1, "eventId": "e1"}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"content": "not an array"}}, "http": {"x": 2, "part": "response", "event": 2, "eventId": "e2"}}),
        json!({"http": {"x": 2, "at": "end", "bytes": 300, "complete": true}}),
        // A GET stream that answers a request it was not sent, a request with no version header, one left open.
        json!({"http": {"x": 3, "at": "request", "method": "GET", "path": "/mcp", "headers": {"accept": "text/event-stream", "mcp-session-id": "s1", "host": "127.0.0.1:8080"}}}),
        json!({"http": {"x": 3, "at": "response", "status": 200, "headers": {"content-type": "text/event-stream"}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 9, "result": {}}, "http": {"x": 3, "part": "response", "event": 0, "eventId": "e3"}}),
        json!({"http": {"x": 3, "at": "end", "bytes": 50, "complete": false, "error": "reset"}}),
        json!({"http": {"x": 4, "at": "request", "method": "POST", "path": "/mcp", "headers": {"accept": "application/json", "content-type": "application/json", "mcp-session-id": "s1", "host": "127.0.0.1:8080"}}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 2, "method": "ping"}, "http": {"x": 4, "part": "request"}}),
    ]
}

/// 2026-07-28, sessionless: a listed tool with an `x-mcp-header` mark, then calls whose headers do
/// not mirror their bodies.
fn recording_2026() -> Vec<Value> {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let h = |method: &str, extra: Value| {
        let mut h = json!({"accept": "application/json, text/event-stream", "content-type": "application/json", "host": "h", "mcp-protocol-version": "2026-07-28", "mcp-method": method});
        for (k, v) in extra.as_object().unwrap() {
            h[k] = v.clone();
        }
        h
    };
    let tool = json!({"name": "convert", "inputSchema": {"type": "object", "properties": {"unit": {"type": "string", "x-mcp-header": "Unit"}}}});
    vec![
        json!({"http": {"x": 0, "at": "request", "method": "POST", "path": "/mcp", "headers": h("tools/list", json!({}))}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}, "http": {"x": 0, "part": "request"}}),
        json!({"http": {"x": 0, "at": "response", "status": 200, "headers": {"content-type": "application/json"}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": [tool]}}, "http": {"x": 0, "part": "response"}}),
        json!({"http": {"x": 0, "at": "end", "bytes": 200, "complete": true}}),
        json!({"http": {"x": 1, "at": "request", "method": "POST", "path": "/mcp", "headers": h("tools/list", json!({"mcp-name": "convert", "mcp-param-unit": "km"}))}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "convert", "arguments": {"unit": "mi"}, "_meta": meta}}, "http": {"x": 1, "part": "request"}}),
        json!({"http": {"x": 1, "at": "response", "status": 200, "headers": {"content-type": "application/json"}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "content": []}}, "http": {"x": 1, "part": "response"}}),
        json!({"http": {"x": 1, "at": "end", "bytes": 90, "complete": true}}),
    ]
}

/// A finding as compared: rule, pointer into the message, severity, message text.
fn findings(o: &Outcome, strip: &str) -> Vec<(String, String, String, String)> {
    let mut v: Vec<_> = o.diags.iter().map(|d| (d.rule.to_string(), d.pointer.strip_prefix(strip).unwrap_or(&d.pointer).to_string(), format!("{:?}", d.severity), d.message.clone())).collect();
    v.sort();
    v
}

/// Feeds `lines` both ways; returns how many findings the recording path reported.
fn both_ways(name: &str, lines: &[Value]) -> usize {
    let mut recorded = Checker::new(Settings::default());
    let mut fed = Checker::new(Settings::default());
    let mut total = 0;
    let mut rules = std::collections::BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        let n = i as u64 + 1;
        let text = line.to_string();
        let by_line = recorded.check_line(text.as_bytes(), n);
        let doc = Doc::parse(&text).unwrap();
        let http = doc.root().get("http").unwrap();
        let direct = match doc.root().get("msg") {
            None => {
                let Http::Line(l) = jsonl::read(http, false).unwrap() else { panic!("line {n}: an http line") };
                fed.http(&l, n)
            }
            Some(msg) => {
                let Http::Message(at) = jsonl::read(http, true).unwrap() else { panic!("line {n}: a message's http") };
                let dir = if doc.root().get("dir").and_then(Node::as_str) == Some("c2s") { Direction::ClientToServer } else { Direction::ServerToClient };
                // The message on its own, as a layer parses a body.
                let text = msg.to_string();
                let body = Doc::parse(&text).unwrap();
                fed.message_at(dir, body.root(), &at, n)
            }
        };
        match &by_line {
            // A recording's HTTP line with no finding is not counted.
            None => assert!(direct.diags.is_empty(), "{name} line {n}: {:?}", direct.diags),
            Some(o) => {
                assert_eq!(findings(o, "/msg"), findings(&direct, ""), "{name} line {n}: {text}");
                assert_eq!((o.protocol, o.type_name, &o.place, &o.http), (direct.protocol, direct.type_name, &direct.place, &direct.http), "{name} line {n}");
                total += o.diags.len();
                rules.extend(o.diags.iter().map(|d| d.rule));
            }
        }
    }
    let (a, b) = (recorded.finish_transport(), fed.finish_transport());
    assert_eq!(a.iter().map(|o| findings(o, "")).collect::<Vec<_>>(), b.iter().map(|o| findings(o, "")).collect::<Vec<_>>(), "{name}: the ends");
    total += a.iter().map(|o| o.diags.len()).sum::<usize>();
    let (a, b) = (recorded.finish_stream(), fed.finish_stream());
    assert_eq!(a.outcomes.iter().map(|o| findings(o, "/msg")).collect::<Vec<_>>(), b.outcomes.iter().map(|o| findings(o, "")).collect::<Vec<_>>(), "{name}: the stream's end");
    println!("{name}: {} lines, {total} findings the same both ways: {rules:?}", lines.len());
    total
}

#[test]
fn http_and_message_at_find_what_the_recording_lines_find() {
    let a = both_ways("2025-11-25 session", &recording_2025());
    let b = both_ways("2026-07-28 sessionless", &recording_2026());
    // Both recordings draw findings, so agreeing is not agreeing on nothing.
    assert!(a >= 6 && b >= 2, "{a} and {b} findings");
}

/// A 2026-07-28 `tools/call` POST as a layer sees it: the head's headers, then the body.
fn call(c: &mut Checker, x: u64, mcp_method: &str) -> Outcome {
    let mut headers = Headers::default();
    for (k, v) in [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream"), ("Host", "h"), ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", mcp_method), ("Mcp-Name", "convert")] {
        headers.add(k, v);
    }
    let head = c.http(&HttpLine::Request { x, method: "POST".into(), path: "/mcp".into(), query: None, headers }, 2 * x);
    assert!(head.diags.is_empty(), "{:?}", head.diags);
    let body = format!(r#"{{"jsonrpc":"2.0","id":{x},"method":"tools/call","params":{{"name":"convert","arguments":{{"unit":"km"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#);
    let doc = Doc::parse(&body).unwrap();
    c.message_at(Direction::ClientToServer, doc.root(), &MsgAt { x, part: Part::Request, event: None, event_id: None }, 2 * x + 1)
}

#[test]
fn mirrored_headers_are_checked_from_a_layers_own_values() {
    let mut c = Checker::new(Settings::default());
    let rules = |o: &Outcome| o.diags.iter().map(|d| d.rule).collect::<Vec<_>>();
    let good = call(&mut c, 1, "tools/call");
    assert!(good.diags.is_empty(), "{:?}", good.diags);
    let bad = call(&mut c, 2, "tools/list");
    assert_eq!(rules(&bad), ["transport.mcp-method-header"], "{:?}", bad.diags);
    assert_eq!(bad.place.as_deref(), Some("exchange 2 (POST /mcp), request"));
    println!("a mismatched Mcp-Method: {:?}", rules(&bad));
}

/// Three 2026-07-28 clients through one checker, each numbering its requests from 1, the second's
/// exchange inside the first's; the third's answer names no request of its own exchange.
fn recording_2026_clients() -> Vec<Value> {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let h = json!({"accept": "application/json, text/event-stream", "content-type": "application/json", "host": "h", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list"});
    let request = |x: u64| json!({"http": {"x": x, "at": "request", "method": "POST", "path": "/mcp", "headers": h}});
    let list = |x: u64| json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}, "http": {"x": x, "part": "request"}});
    let response = |x: u64| json!({"http": {"x": x, "at": "response", "status": 200, "headers": {"content-type": "application/json"}}});
    let listed = |x: u64, id: u64| json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": []}}, "http": {"x": x, "part": "response"}});
    let end = |x: u64| json!({"http": {"x": x, "at": "end", "bytes": 60, "complete": true}});
    vec![request(0), list(0), request(1), list(1), response(1), listed(1, 1), end(1), response(0), listed(0, 1), end(0), request(2), list(2), response(2), listed(2, 5), end(2)]
}

#[test]
fn stateless_clients_share_a_checker_but_not_their_ids() {
    let lines = recording_2026_clients();
    // The same findings fed as a layer feeds them as read from the recording: the wrong answer's two.
    assert_eq!(both_ways("2026-07-28 clients", &lines), 2);
    let mut c = Checker::new(Settings::default());
    let mut rules = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(o) = c.check_line(l.to_string().as_bytes(), i as u64 + 1) {
            rules.extend(o.diags.iter().map(|d| (i + 1, d.rule)));
        }
    }
    rules.extend(c.finish_transport().iter().flat_map(|o| o.diags.iter().map(|d| (0, d.rule)).collect::<Vec<_>>()));
    let end = c.finish_stream();
    // The third's answer: unmatched, and its POST's JSON answers no request of it.
    assert_eq!(rules, [(14, "stream.response-unmatched"), (15, "transport.json-answer")]);
    // The third client's request was never answered: listed at the stream's end.
    assert_eq!((end.unanswered_total, end.unanswered.first().map(|u| u.line)), (1, Some(12)));
    println!("{} lines: {rules:?}, {} unanswered", lines.len(), end.unanswered_total);
}

#[test]
fn stateless_exchanges_left_open_stay_within_the_exchange_bound() {
    use mcp_spec_check::settings::Limits;
    let limits = Limits { open_exchanges: 8, ..Limits::default() };
    let mut c = Checker::new(Settings { limits, ..Settings::default() });
    let lines = recording_2026_clients();
    let mut n = 0;
    // 100 clients' requests, id 1 each, none answered: at most 8 exchanges (and their own states) kept.
    for x in 0..100u64 {
        for l in &lines[..2] {
            let mut l = l.clone();
            l["http"]["x"] = json!(x);
            n += 1;
            let o = c.check_line(l.to_string().as_bytes(), n);
            assert!(o.is_none_or(|o| o.diags.is_empty()), "line {n}: {l}");
        }
    }
    c.finish_transport();
    let end = c.finish_stream();
    // Each request is listed unanswered once, whether its exchange was forgotten early or ended here.
    assert_eq!((end.unanswered_total, c.dropped().exchanges), (100, 92));
    println!("100 open exchanges, 8 kept: {} unanswered, {:?} dropped", end.unanswered_total, c.dropped());
}

#[test]
fn a_bridge_recordings_legs_number_their_exchanges_apart() {
    // Exchange 0 of each leg, each with request id 1 in flight: two exchanges, not one.
    let lines = recording_2026_clients();
    let mut c = Checker::new(Settings::default());
    let mut found = Vec::new();
    for (n, leg) in ["client", "server"].iter().enumerate() {
        for (i, l) in lines[..2].iter().enumerate() {
            let mut l = l.clone();
            l["leg"] = json!(leg);
            if let Some(o) = c.check_line(l.to_string().as_bytes(), (2 * n + i + 1) as u64) {
                found.extend(o.diags.iter().map(|d| d.rule));
            }
        }
    }
    assert_eq!(found, Vec::<&str>::new());
    // The same four lines without legs are one exchange with id 1 twice.
    let mut c = Checker::new(Settings::default());
    let mut found = Vec::new();
    for (n, l) in lines[..2].iter().chain(&lines[..2]).enumerate() {
        if let Some(o) = c.check_line(l.to_string().as_bytes(), n as u64 + 1) {
            found.extend(o.diags.iter().map(|d| d.rule));
        }
    }
    assert!(found.contains(&"stream.id-reused"), "{found:?}");
    println!("without legs: {found:?}");
}
