//! The transport rules on recordings with HTTP context (cli/README.md, "Transport rules"): for
//! each rule a recording it accepts and one it reports, built here and checked by the binary.

use crate::common;

use common::{check_json, run};
use serde_json::{json, Map, Value};

/// A recording with HTTP context, built line by line.
#[derive(Clone)]
struct Rec {
    lines: Vec<Value>,
    next: u64,
    v: &'static str,
    sid: Option<&'static str>,
    negotiated: bool,
}

/// An SSE event of a response: a message with its id, or an event with no message.
enum Ev {
    Msg(Option<&'static str>, Value),
    Bare(Value),
}

fn priming(id: &'static str) -> Ev {
    Ev::Bare(json!({"eventId": id}))
}

fn init_req(v: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})
}

fn init_result(v: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": v, "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}})
}

fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

fn list(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"})
}

fn listed(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}})
}

fn ping(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

fn pong(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {}})
}

fn log_note() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}})
}

const JSON: Option<&str> = Some("application/json");

impl Rec {
    /// No traffic yet.
    fn bare(v: &'static str) -> Rec {
        Rec { lines: Vec::new(), next: 0, v, sid: None, negotiated: false }
    }

    /// `initialize` (answered with session `s1` when `sessions`) and `notifications/initialized`.
    fn new(v: &'static str) -> Rec {
        let mut r = Rec::bare(v);
        r.handshake(Some("s1"));
        r
    }

    fn handshake(&mut self, sid: Option<&'static str>) {
        self.sid = None;
        self.negotiated = false;
        let x = self.request("POST", &[]);
        self.c2s(x, init_req(self.v));
        let mut h = json!({"content-type": "application/json"});
        if let Some(s) = sid {
            h["mcp-session-id"] = json!(s);
        }
        self.response(x, 200, h);
        self.s2c(x, init_result(self.v));
        self.end(x, 100, true);
        self.sid = sid;
        self.negotiated = true;
        self.post(&[], initialized(), 202, None, &[]);
    }

    /// The headers a well-behaved client sends, with `over` set (a value) or removed (`None`).
    fn headers(&self, method: &str, over: &[(&str, Option<&str>)]) -> Value {
        let mut h = Map::new();
        let accept = if method == "GET" { "text/event-stream" } else { "application/json, text/event-stream" };
        h.insert("accept".into(), json!(accept));
        if method == "POST" {
            h.insert("content-type".into(), json!("application/json"));
        }
        h.insert("host".into(), json!("127.0.0.1:8080"));
        if let Some(s) = self.sid {
            h.insert("mcp-session-id".into(), json!(s));
        }
        if self.negotiated && self.v != "2025-03-26" {
            h.insert("mcp-protocol-version".into(), json!(self.v));
        }
        for (k, v) in over {
            match v {
                Some(v) => h.insert(k.to_string(), json!(v)),
                None => h.remove(*k),
            };
        }
        Value::Object(h)
    }

    fn request(&mut self, method: &str, over: &[(&str, Option<&str>)]) -> u64 {
        let x = self.next;
        self.next += 1;
        self.lines.push(json!({"http": {"x": x, "at": "request", "method": method, "path": "/mcp", "headers": self.headers(method, over)}}));
        x
    }

    /// 2026-07-28: the request line just pushed gains `Mcp-Method` (and `Mcp-Name`) from `msg`,
    /// as a client sends them, unless `over` names the header.
    fn mirror(&mut self, over: &[(&str, Option<&str>)], msg: &Value) {
        if !matches!(self.v, "2026-07-28" | "draft") || msg.get("id").is_none() {
            return;
        }
        let Some(method) = msg.get("method").and_then(Value::as_str) else { return };
        let name = match method {
            "tools/call" | "prompts/get" => msg.pointer("/params/name"),
            "resources/read" => msg.pointer("/params/uri"),
            _ => None,
        };
        let headers = self.lines.last_mut().unwrap()["http"]["headers"].as_object_mut().unwrap();
        for (k, v) in [("mcp-method", Some(json!(method))), ("mcp-name", name.cloned())] {
            if let (Some(v), false) = (v, over.iter().any(|(o, _)| o.eq_ignore_ascii_case(k))) {
                headers.insert(k.into(), v);
            }
        }
    }

    fn c2s(&mut self, x: u64, msg: Value) {
        self.lines.push(json!({"dir": "c2s", "msg": msg, "http": {"x": x, "part": "request"}}));
    }

    fn response(&mut self, x: u64, status: u16, headers: Value) {
        self.lines.push(json!({"http": {"x": x, "at": "response", "status": status, "headers": headers}}));
    }

    fn s2c(&mut self, x: u64, msg: Value) {
        self.lines.push(json!({"dir": "s2c", "msg": msg, "http": {"x": x, "part": "response"}}));
    }

    fn events(&mut self, x: u64, events: Vec<Ev>) {
        for (i, e) in events.into_iter().enumerate() {
            match e {
                Ev::Msg(id, msg) => {
                    let mut h = json!({"x": x, "part": "response", "event": i});
                    if let Some(id) = id {
                        h["eventId"] = json!(id);
                    }
                    self.lines.push(json!({"dir": "s2c", "msg": msg, "http": h}));
                }
                Ev::Bare(mut v) => {
                    v["x"] = json!(x);
                    v["at"] = json!("event");
                    v["event"] = json!(i);
                    self.lines.push(json!({"http": v}));
                }
            }
        }
    }

    fn end(&mut self, x: u64, bytes: u64, complete: bool) {
        self.lines.push(json!({"http": {"x": x, "at": "end", "bytes": bytes, "complete": complete}}));
    }

    /// A POST of `msg` answered `status` with `ctype` and JSON `answers` (in one body).
    fn post(&mut self, over: &[(&str, Option<&str>)], msg: Value, status: u16, ctype: Option<&str>, answers: &[Value]) -> u64 {
        let x = self.request("POST", over);
        self.mirror(over, &msg);
        self.c2s(x, msg);
        let h = match ctype {
            Some(c) => json!({"content-type": c}),
            None => json!({}),
        };
        self.response(x, status, h);
        for a in answers {
            self.s2c(x, a.clone());
        }
        self.end(x, if answers.is_empty() { 0 } else { 40 }, true);
        x
    }

    /// A POST of `msg` answered 200 with an SSE stream of `events`.
    fn post_sse(&mut self, over: &[(&str, Option<&str>)], msg: Value, events: Vec<Ev>, complete: bool) -> u64 {
        let x = self.request("POST", over);
        self.mirror(over, &msg);
        self.c2s(x, msg);
        self.response(x, 200, json!({"content-type": "text/event-stream"}));
        self.events(x, events);
        self.end(x, 100, complete);
        x
    }

    /// A POST of `msg` answered 200 with an SSE stream of `events`, during which the client cancels
    /// request `cancelled` (a POST of `notifications/cancelled`, 202); then the server ends the stream whole.
    fn post_sse_cancelled(&mut self, msg: Value, events: Vec<Ev>, cancelled: i64) -> u64 {
        let x = self.request("POST", &[]);
        self.mirror(&[], &msg);
        self.c2s(x, msg);
        self.response(x, 200, json!({"content-type": "text/event-stream"}));
        self.events(x, events);
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": cancelled, "reason": "user"}});
        self.post(&[], cancel, 202, None, &[]);
        self.end(x, 100, true);
        x
    }

    /// A GET answered `status` (an SSE stream of `events` when 200).
    fn get(&mut self, over: &[(&str, Option<&str>)], status: u16, events: Vec<Ev>) -> u64 {
        let x = self.request("GET", over);
        let h = if status == 200 { json!({"content-type": "text/event-stream"}) } else { json!({}) };
        self.response(x, status, h);
        self.events(x, events);
        self.end(x, 10, true);
        x
    }

    /// Another request of the session: `tools/list` answered in JSON.
    fn list(&mut self, id: i64) -> u64 {
        self.post(&[], list(id), 200, JSON, &[listed(id)])
    }

    fn text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for l in &self.lines {
            out.extend_from_slice(l.to_string().as_bytes());
            out.push(b'\n');
        }
        out
    }

    /// The transport findings (rule ids) of `check --json`.
    fn found(&self) -> Vec<String> {
        let (_, r) = check_json(&["-"], Some(&self.text()));
        r.found.into_iter().map(|f| f.rule).filter(|r| r.starts_with("transport.") || r.starts_with("line.")).collect()
    }

    fn reports(&self, rule: &str) {
        let f = self.found();
        assert!(f.iter().any(|r| r == rule), "{rule} not reported; found {f:?}\n{}", String::from_utf8_lossy(&self.text()));
    }

    fn accepts(&self, rule: &str) {
        let f = self.found();
        assert!(!f.iter().any(|r| r == rule), "{rule} reported; found {f:?}\n{}", String::from_utf8_lossy(&self.text()));
    }

    fn clean(&self) {
        let f = self.found();
        assert!(f.is_empty(), "findings: {f:?}\n{}", String::from_utf8_lossy(&self.text()));
    }
}

#[test]
fn a_well_behaved_session_of_each_version_has_no_transport_findings() {
    for v in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut r = Rec::new(v);
        r.list(1);
        r.post_sse(&[], ping(2), vec![priming("p1"), Ev::Msg(Some("e1"), pong(2))], true);
        r.get(&[], 200, vec![Ev::Msg(Some("g1"), log_note())]);
        let x = r.request("DELETE", &[]);
        r.response(x, 200, json!({}));
        r.end(x, 0, true);
        r.clean();
    }
    // 2026-07-28: no handshake, each POST names its version.
    let mut r = Rec::bare("2026-07-28");
    let mut call = list(1);
    call["params"] = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    r.post(&[("mcp-protocol-version", Some("2026-07-28"))], call, 200, JSON, &[listed(1)]);
    r.clean();
}

#[test]
fn http_lines_are_context_not_messages_and_a_bad_one_is_reported() {
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    let (code, out) = check_json(&["-"], Some(&r.text()));
    // 4 messages (initialize, its result, initialized, tools/list and its answer: 5) pass; the http lines are not counted.
    assert_eq!((code, out.passed, out.failed), (0, 5, 0));
    r.lines.push(json!({"http": {"x": 9, "at": "sideways"}}));
    r.lines.push(json!({"dir": "c2s", "msg": ping(5), "http": {"x": 9}}));
    let (code, out) = check_json(&["-"], Some(&r.text()));
    assert_eq!(code, 1);
    assert_eq!(out.found.iter().filter(|f| f.rule == "line.http").count(), 2, "{:?}", out.found);
    // A value that merely has an `http` key (no `at`) is checked as a message, as before.
    let (_, out) = check_json(&["-"], Some(b"{\"http\": {\"x\": 1}}\n"));
    assert!(out.found.iter().all(|f| f.rule != "line.http") && out.failed == 1, "{:?}", out.found);
}

#[test]
fn a_finding_names_its_exchange() {
    let mut r = Rec::new("2025-11-25");
    r.post(&[("accept", Some("application/json"))], list(1), 200, JSON, &[listed(1)]);
    let run = run(&["check", "--json", "-"], Some(&r.text()));
    let line = run.stdout.lines().find(|l| l.contains("transport.post-accept")).expect(&run.stdout);
    let v: Value = serde_json::from_str(line).unwrap();
    assert_eq!(v["place"], "exchange 2 (POST /mcp 200)");
    assert_eq!(v["http"]["x"], 2);
    assert_eq!(v["http"]["sessionId"], "s1");
    let text = common::run(&["check", "-"], Some(&r.text()));
    assert!(text.stdout.contains("<stdin>:exchange 2 (POST /mcp 200): /: error [transport.post-accept]"), "{}", text.stdout);
    let sum = common::run(&["check", "--summary", "-"], Some(&r.text()));
    assert!(sum.stdout.contains("transport.post-accept (error): 1"), "{}", sum.stdout);
}

#[test]
fn post_accept() {
    let mut r = Rec::new("2025-06-18");
    r.list(1);
    r.accepts("transport.post-accept");
    r.post(&[("accept", Some("application/json"))], list(2), 200, JSON, &[listed(2)]);
    r.reports("transport.post-accept");
}

#[test]
fn post_body() {
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.accepts("transport.post-body");
    let x = r.request("POST", &[]);
    r.response(x, 400, json!({}));
    r.end(x, 0, true);
    r.reports("transport.post-body");
    // 2026-07-28: a response in a POST body.
    let mut r = Rec::bare("2026-07-28");
    r.post(&[("mcp-protocol-version", Some("2026-07-28"))], pong(1), 202, None, &[]);
    r.reports("transport.post-body");
}

#[test]
fn accepted_202() {
    let mut r = Rec::new("2025-11-25");
    r.accepts("transport.accepted-202");
    r.post(&[], initialized(), 200, JSON, &[]);
    r.reports("transport.accepted-202");
    let mut r = Rec::new("2025-11-25");
    r.post(&[], initialized(), 202, JSON, &[pong(1)]);
    r.reports("transport.accepted-202");
    // Refused with an error status: a JSON-RPC error is allowed, a result is not.
    let mut r = Rec::new("2025-11-25");
    r.post(&[], initialized(), 400, JSON, &[json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "no"}})]);
    r.accepts("transport.accepted-202");
    r.post(&[], initialized(), 400, JSON, &[pong(1)]);
    r.reports("transport.accepted-202");
}

#[test]
fn request_content_type() {
    let mut r = Rec::new("2025-03-26");
    r.list(1);
    r.accepts("transport.request-content-type");
    r.post(&[], list(2), 200, Some("text/plain"), &[]);
    r.reports("transport.request-content-type");
}

#[test]
fn json_answer() {
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.accepts("transport.json-answer");
    r.post(&[], list(2), 200, JSON, &[listed(3)]);
    r.reports("transport.json-answer");
}

#[test]
fn sse_answer() {
    let mut r = Rec::new("2025-06-18");
    r.post_sse(&[], ping(1), vec![Ev::Msg(None, log_note()), Ev::Msg(None, pong(1))], true);
    // Cut short (not complete): the answer may still come; not reported.
    r.post_sse(&[], ping(2), vec![Ev::Msg(None, log_note())], false);
    r.accepts("transport.sse-answer");
    r.post_sse(&[], ping(3), vec![Ev::Msg(None, log_note())], true);
    r.reports("transport.sse-answer");
}

#[test]
fn sse_priming() {
    let mut r = Rec::new("2025-11-25");
    r.post_sse(&[], ping(1), vec![priming("p1"), Ev::Msg(Some("e1"), pong(1))], true);
    r.accepts("transport.sse-priming");
    r.post_sse(&[], ping(2), vec![Ev::Msg(Some("e2"), pong(2))], true);
    r.reports("transport.sse-priming");
    // Not a rule of 2025-06-18.
    let mut r = Rec::new("2025-06-18");
    r.post_sse(&[], ping(2), vec![Ev::Msg(Some("e2"), pong(2))], true);
    r.accepts("transport.sse-priming");
}

#[test]
fn sse_retry() {
    let mut r = Rec::new("2025-11-25");
    r.post_sse(&[], ping(1), vec![Ev::Bare(json!({"eventId": "p1", "retry": 1000}))], true);
    r.accepts("transport.sse-retry");
    r.post_sse(&[], ping(2), vec![priming("p2")], true);
    r.reports("transport.sse-retry");
}

/// No answer is due to a request the client cancelled: `transport.sse-answer`, `sse-retry` and `json-answer` stay quiet when the
/// server then ends the stream; a cancellation of another request changes nothing.
#[test]
fn no_answer_is_owed_to_a_cancelled_request() {
    let mut r = Rec::new("2025-06-18");
    r.post_sse_cancelled(list(1), vec![Ev::Msg(None, log_note())], 1);
    r.clean();
    let mut r = Rec::new("2025-06-18");
    r.post_sse_cancelled(list(1), vec![Ev::Msg(None, log_note())], 9);
    r.reports("transport.sse-answer");
    let mut r = Rec::new("2025-11-25");
    r.post_sse_cancelled(list(1), vec![priming("p1")], 1);
    r.clean();
    let mut r = Rec::new("2025-11-25");
    r.post_sse_cancelled(list(1), vec![priming("p1")], 9);
    r.reports("transport.sse-retry");
    // A JSON answer cut to no response after the cancellation: none was owed.
    for (cancelled, owed) in [(1, false), (9, true)] {
        let mut r = Rec::new("2025-11-25");
        let x = r.request("POST", &[]);
        r.c2s(x, list(1));
        r.response(x, 200, json!({"content-type": "application/json"}));
        r.post(&[], json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": cancelled}}), 202, None, &[]);
        r.s2c(x, log_note());
        r.end(x, 40, true);
        if owed {
            r.reports("transport.json-answer");
        } else {
            r.accepts("transport.json-answer");
        }
    }
}

#[test]
fn sse_no_requests() {
    let head = [("mcp-protocol-version", Some("2026-07-28"))];
    let mut call = list(1);
    call["params"] = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    let mut r = Rec::bare("2026-07-28");
    r.post_sse(&head, call.clone(), vec![Ev::Msg(None, log_note()), Ev::Msg(None, listed(1))], true);
    r.accepts("transport.sse-no-requests");
    r.post_sse(&head, call, vec![Ev::Msg(None, json!({"jsonrpc": "2.0", "id": 7, "method": "roots/list"})), Ev::Msg(None, listed(1))], true);
    r.reports("transport.sse-no-requests");
}

#[test]
fn sse_data() {
    let mut r = Rec::new("2025-11-25");
    r.post_sse(&[], ping(1), vec![priming("p1"), Ev::Msg(Some("e1"), pong(1))], true);
    r.accepts("transport.sse-data");
    r.post_sse(&[], ping(2), vec![priming("p2"), Ev::Bare(json!({"eventId": "e2", "data": "not json"}))], true);
    r.reports("transport.sse-data");
}

#[test]
fn get_accept() {
    let mut r = Rec::new("2025-11-25");
    r.get(&[], 200, vec![]);
    r.accepts("transport.get-accept");
    r.get(&[("accept", Some("application/json"))], 200, vec![]);
    r.reports("transport.get-accept");
}

#[test]
fn get_response() {
    let mut r = Rec::new("2025-11-25");
    r.get(&[], 405, vec![]);
    r.get(&[], 200, vec![]);
    r.accepts("transport.get-response");
    let x = r.request("GET", &[]);
    r.response(x, 200, json!({"content-type": "application/json"}));
    r.end(x, 2, true);
    r.reports("transport.get-response");
}

#[test]
fn get_no_response() {
    let mut r = Rec::new("2025-11-25");
    r.get(&[], 200, vec![Ev::Msg(Some("g1"), log_note())]);
    r.accepts("transport.get-no-response");
    r.get(&[], 200, vec![Ev::Msg(Some("g2"), pong(1))]);
    r.reports("transport.get-no-response");
}

#[test]
fn session_id_chars() {
    let mut r = Rec::bare("2025-11-25");
    r.handshake(Some("abc-DEF_123~"));
    r.accepts("transport.session-id-chars");
    let mut r = Rec::bare("2025-11-25");
    r.handshake(Some("has space"));
    r.reports("transport.session-id-chars");
}

#[test]
fn session_id_missing_and_400() {
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.accepts("transport.session-id-missing");
    r.accepts("transport.session-required-400");
    r.post(&[("mcp-session-id", None)], list(2), 400, None, &[]);
    r.reports("transport.session-id-missing");
    r.accepts("transport.session-required-400");
    r.post(&[("mcp-session-id", None)], list(3), 200, JSON, &[listed(3)]);
    r.reports("transport.session-required-400");
    // A server that assigns no session: nothing to send.
    let mut r = Rec::bare("2025-11-25");
    r.handshake(None);
    r.list(1);
    r.accepts("transport.session-id-missing");
}

#[test]
fn session_id_unissued() {
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.accepts("transport.session-id-unissued");
    // An id no response assigned (a client made it up): reported once, however often it comes.
    r.post(&[("mcp-session-id", Some("made-up"))], list(2), 200, JSON, &[listed(2)]);
    r.post(&[("mcp-session-id", Some("made-up"))], list(3), 200, JSON, &[listed(3)]);
    r.reports("transport.session-id-unissued");
    assert_eq!(r.found().iter().filter(|f| *f == "transport.session-id-unissued").count(), 1);
}

#[test]
fn session_ended_404_and_restart() {
    let mut r = Rec::new("2025-11-25");
    let x = r.request("DELETE", &[]);
    r.response(x, 204, json!({}));
    r.end(x, 0, true);
    r.post(&[], list(1), 404, None, &[]);
    r.handshake(Some("s2"));
    r.list(2);
    r.accepts("transport.session-ended-404");
    r.accepts("transport.session-restart");
    let mut bad = Rec::new("2025-11-25");
    let x = bad.request("DELETE", &[]);
    bad.response(x, 200, json!({}));
    bad.end(x, 0, true);
    bad.list(1);
    bad.reports("transport.session-ended-404");
    // Answered 404, the client sends the ended id again instead of a new initialize.
    let mut r = Rec::new("2025-11-25");
    r.post(&[], list(1), 404, None, &[]);
    r.post(&[], list(2), 404, None, &[]);
    r.reports("transport.session-restart");
}

#[test]
fn protocol_version_header() {
    let mut r = Rec::new("2025-06-18");
    r.list(1);
    r.accepts("transport.protocol-version-header");
    r.post(&[("mcp-protocol-version", None)], list(2), 200, JSON, &[listed(2)]);
    r.reports("transport.protocol-version-header");
    // On a GET too: every request after initialization.
    let mut r = Rec::new("2025-11-25");
    r.get(&[], 200, vec![]);
    r.accepts("transport.protocol-version-header");
    r.get(&[("mcp-protocol-version", None)], 200, vec![]);
    r.reports("transport.protocol-version-header");
    // 2025-03-26 has no such header.
    let mut r = Rec::new("2025-03-26");
    r.post(&[("mcp-protocol-version", None)], list(2), 200, JSON, &[listed(2)]);
    r.accepts("transport.protocol-version-header");
}

#[test]
fn protocol_version_negotiated() {
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.accepts("transport.protocol-version-negotiated");
    r.post(&[("mcp-protocol-version", Some("2025-06-18"))], list(2), 200, JSON, &[listed(2)]);
    r.reports("transport.protocol-version-negotiated");
}

#[test]
fn protocol_version_meta() {
    let body = |v: &str| {
        let mut m = list(1);
        m["params"] = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": v}});
        m
    };
    let mut r = Rec::bare("2026-07-28");
    r.post(&[("mcp-protocol-version", Some("2026-07-28"))], body("2026-07-28"), 400, None, &[]);
    r.accepts("transport.protocol-version-meta");
    r.post(&[("mcp-protocol-version", Some("2026-07-28"))], body("2025-11-25"), 400, None, &[]);
    r.reports("transport.protocol-version-meta");
}

#[test]
fn protocol_version_header_in_2026_07_28() {
    let mut call = list(1);
    call["params"] = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
    // A notification POST: its headers are left undefined by the page.
    let mut r = Rec::bare("2026-07-28");
    r.post(&[], json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}), 202, None, &[]);
    r.accepts("transport.protocol-version-header");
    r.post(&[], call, 200, JSON, &[listed(1)]);
    r.reports("transport.protocol-version-header");
}

#[test]
fn protocol_version_400() {
    let mut r = Rec::new("2025-11-25");
    r.post(&[("mcp-protocol-version", Some("1999-01-01"))], list(1), 400, None, &[]);
    r.accepts("transport.protocol-version-400");
    r.post(&[("mcp-protocol-version", Some("1999-01-01"))], list(2), 200, JSON, &[listed(2)]);
    r.reports("transport.protocol-version-400");
}

#[test]
fn event_id_unique() {
    let mut r = Rec::new("2025-11-25");
    r.post_sse(&[], ping(1), vec![priming("a0"), Ev::Msg(Some("a1"), pong(1))], true);
    r.get(&[], 200, vec![Ev::Msg(Some("b1"), log_note())]);
    r.accepts("transport.event-id-unique");
    r.get(&[], 200, vec![Ev::Msg(Some("a1"), log_note())]);
    r.reports("transport.event-id-unique");
    let mut r = Rec::new("2025-11-25");
    r.get(&[], 200, vec![Ev::Msg(Some("c1"), log_note()), Ev::Msg(Some("c1"), log_note())]);
    r.reports("transport.event-id-unique");
}

#[test]
fn last_event_id_and_resumption() {
    // A POST stream cut after its priming event, resumed by GET: the answer comes there.
    let mut r = Rec::new("2025-11-25");
    r.post_sse(&[], ping(1), vec![Ev::Bare(json!({"eventId": "a0", "retry": 10}))], false);
    r.get(&[], 200, vec![Ev::Msg(Some("b0"), log_note())]);
    r.get(&[("last-event-id", Some("a0"))], 200, vec![Ev::Msg(Some("a1"), pong(1))]);
    r.accepts("transport.last-event-id-known");
    r.accepts("transport.resume-same-stream");
    r.accepts("transport.get-no-response");
    r.accepts("transport.event-id-unique");
    let mut bad = Rec::new("2025-11-25");
    bad.get(&[("last-event-id", Some("never"))], 200, vec![]);
    bad.reports("transport.last-event-id-known");
    // The resumed stream replays an event of the other stream (b0, sent on the GET stream).
    r.get(&[("last-event-id", Some("a0"))], 200, vec![Ev::Msg(Some("b0"), log_note())]);
    r.reports("transport.resume-same-stream");
}

#[test]
fn origin() {
    let mut r = Rec::new("2025-11-25");
    r.post(&[("origin", Some("http://127.0.0.1:8080"))], list(1), 200, JSON, &[listed(1)]);
    r.post(&[("origin", Some("http://evil.example"))], list(2), 403, None, &[]);
    r.accepts("transport.origin");
    r.post(&[("origin", Some("http://evil.example"))], list(3), 200, JSON, &[listed(3)]);
    r.reports("transport.origin");
}

/// The 2024-11-05 HTTP+SSE transport: a GET /sse stream that announces the endpoint and carries
/// the server's messages, the client's POSTs to the endpoint answered 202.
fn legacy(endpoint_first: bool, post_path: &str) -> Rec {
    let mut r = Rec::bare("2024-11-05");
    r.lines.push(json!({"http": {"x": 0, "at": "request", "method": "GET", "path": "/sse", "headers": {"accept": "text/event-stream", "host": "h"}}}));
    r.lines.push(json!({"http": {"x": 0, "at": "response", "status": 200, "headers": {"content-type": "text/event-stream"}}}));
    let endpoint = json!({"http": {"x": 0, "at": "event", "event": 0, "type": "endpoint", "data": "/messages?sessionId=abc"}});
    let (path, query) = post_path.split_once('?').unwrap_or((post_path, ""));
    let post = |x: u64, msg: Value| {
        vec![
            json!({"http": {"x": x, "at": "request", "method": "POST", "path": path, "query": query, "headers": {"content-type": "application/json", "host": "h"}}}),
            json!({"dir": "c2s", "msg": msg, "http": {"x": x, "part": "request"}}),
            json!({"http": {"x": x, "at": "response", "status": 202, "headers": {}}}),
            json!({"http": {"x": x, "at": "end", "bytes": 8, "complete": true}}),
        ]
    };
    if endpoint_first {
        r.lines.push(endpoint.clone());
    }
    r.lines.extend(post(1, init_req("2024-11-05")));
    r.lines.push(json!({"dir": "s2c", "msg": init_result("2024-11-05"), "http": {"x": 0, "part": "response", "event": 1}}));
    if !endpoint_first {
        let mut late = endpoint;
        late["http"]["event"] = json!(2);
        r.lines.push(late);
    }
    r.lines.extend(post(2, initialized()));
    r.lines.push(json!({"http": {"x": 0, "at": "end", "bytes": 300, "complete": true}}));
    r
}

#[test]
fn legacy_http_sse_passes() {
    legacy(true, "/messages?sessionId=abc").clean();
}

#[test]
fn sse_endpoint_first() {
    legacy(true, "/messages?sessionId=abc").accepts("transport.sse-endpoint-first");
    legacy(false, "/messages?sessionId=abc").reports("transport.sse-endpoint-first");
}

#[test]
fn sse_post_endpoint() {
    legacy(true, "/messages?sessionId=abc").accepts("transport.sse-post-endpoint");
    legacy(true, "/messages?sessionId=zzz").reports("transport.sse-post-endpoint");
}

#[test]
fn unended_exchanges_are_checked_at_the_end_of_the_recording() {
    let mut r = Rec::new("2025-11-25");
    let x = r.request("POST", &[("accept", Some("text/html"))]);
    r.c2s(x, list(1));
    r.reports("transport.post-accept");
}

#[test]
fn hostile_http_lines_never_panic_and_state_stays_bounded() {
    let mut text = String::new();
    for x in 0..3000u64 {
        text.push_str(&json!({"http": {"x": x, "at": "request", "method": "GET", "path": "/mcp", "headers": {"mcp-session-id": format!("s{x}"), "last-event-id": "\u{0}\u{ff}"}}}).to_string());
        text.push('\n');
        text.push_str(&json!({"http": {"x": x, "at": "event", "event": x, "eventId": format!("{x}")}}).to_string());
        text.push('\n');
    }
    for junk in [json!({"http": null}), json!({"http": {"x": -1, "at": "end"}}), json!({"http": {"x": 1, "at": "response", "status": 200, "headers": [1]}}), json!({"http": {"x": 18446744073709551615u64, "at": "end", "complete": "yes"}}), json!({"dir": "s2c", "msg": [], "http": {"x": 2, "part": "response", "event": "x"}})] {
        text.push_str(&junk.to_string());
        text.push('\n');
    }
    let r = run(&["check", "-"], Some(text.as_bytes()));
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
}

/// A HAR entry: `method` with request `headers` and body, answered `status` with response headers and body.
fn har_entry(n: u32, method: &str, headers: Value, body: Option<Value>, status: u16, resp_headers: Value, text: &str) -> Value {
    let pairs = |h: &Value| -> Vec<Value> { h.as_object().unwrap().iter().map(|(k, v)| json!({"name": k, "value": v})).collect() };
    let mut req = json!({"method": method, "url": "http://127.0.0.1:8080/mcp", "headers": pairs(&headers)});
    if let Some(b) = body {
        req["postData"] = json!({"mimeType": "application/json", "text": b.to_string()});
    }
    let ct = resp_headers.get("content-type").and_then(Value::as_str).unwrap_or("").to_string();
    json!({"startedDateTime": format!("2026-11-26T00:00:{n:02}.000Z"), "request": req, "response": {"status": status, "headers": pairs(&resp_headers), "content": {"mimeType": ct, "text": text}}})
}

#[test]
fn the_same_rules_apply_to_a_har() {
    let h = |over: &[(&str, &str)]| {
        let mut h = json!({"Accept": "application/json, text/event-stream", "Host": "127.0.0.1:8080", "Mcp-Session-Id": "s1", "MCP-Protocol-Version": "2025-11-25"});
        for (k, v) in over {
            h[*k] = json!(v);
        }
        h
    };
    let mut first = h(&[]);
    first.as_object_mut().unwrap().retain(|k, _| k == "Accept" || k == "Host");
    let entries = |accept: &str, prime: &str| {
        vec![
            har_entry(0, "POST", first.clone(), Some(init_req("2025-11-25")), 200, json!({"content-type": "application/json", "mcp-session-id": "s1"}), &init_result("2025-11-25").to_string()),
            har_entry(1, "POST", h(&[]), Some(initialized()), 202, json!({}), ""),
            har_entry(2, "POST", h(&[("Accept", accept)]), Some(ping(1)), 200, json!({"content-type": "text/event-stream"}), &format!("{prime}id: e1\ndata: {}\n\n", pong(1))),
        ]
    };
    let har = |e: Vec<Value>| serde_json::to_vec(&json!({"log": {"version": "1.2", "entries": e}})).unwrap();
    let good = common::TempFile::new("good.har", &har(entries("application/json, text/event-stream", "id: p\ndata:\n\n")));
    let r = run(&["check", "--json", good.path()], None);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(!r.stdout.contains("transport."), "{}", r.stdout);
    let bad = common::TempFile::new("bad.har", &har(entries("application/json", "")));
    let r = run(&["check", "--json", bad.path()], None);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let lines: Vec<Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let accept = lines.iter().find(|l| l.to_string().contains("transport.post-accept")).expect(&r.stdout);
    assert_eq!(accept["place"], "entry 2 (POST /mcp 200)");
    assert_eq!(accept["http"]["entry"], 2);
    let priming = lines.iter().find(|l| l.to_string().contains("transport.sse-priming")).expect(&r.stdout);
    assert_eq!(priming["place"], "entry 2 (POST /mcp 200), response, SSE event 0 (id \"e1\")");
}

/// A 2026-07-28 request with its `_meta` version.
fn request26(id: i64, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

const V26: (&str, Option<&str>) = ("mcp-protocol-version", Some("2026-07-28"));

#[test]
fn mcp_method_header() {
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], request26(1, "tools/list", json!({})), 200, JSON, &[listed(1)]);
    r.accepts("transport.mcp-method-header");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26, ("mcp-method", None)], request26(1, "tools/list", json!({})), 400, None, &[]);
    r.reports("transport.mcp-method-header");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26, ("mcp-method", Some("prompts/list"))], request26(1, "tools/list", json!({})), 400, None, &[]);
    r.reports("transport.mcp-method-header");
    // Not a rule before 2026-07-28.
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.accepts("transport.mcp-method-header");
}

#[test]
fn mcp_name_header() {
    let call = |name: &str| request26(1, "tools/call", json!({"name": name, "arguments": {}}));
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "resultType": "complete"}});
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], call("get_weather"), 200, JSON, &[answer.clone()]);
    // A name outside the header-safe set travels base64-encoded.
    r.post(&[V26, ("mcp-name", Some("=?base64?R3LDvMOfZQ==?="))], call("Grüße"), 200, JSON, &[answer.clone()]);
    r.accepts("transport.mcp-name-header");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26, ("mcp-name", Some("other_tool"))], call("get_weather"), 400, None, &[]);
    r.reports("transport.mcp-name-header");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26, ("mcp-name", None)], request26(2, "resources/read", json!({"uri": "file:///a"})), 400, None, &[]);
    r.reports("transport.mcp-name-header");
}

/// A `tools/list` answer with one tool whose `region` argument is mirrored as `Mcp-Param-Region`.
fn marked_tools(region_type: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": [{"name": "sql", "inputSchema": {"type": "object", "properties": {
        "region": {"type": region_type, "x-mcp-header": "Region"}, "query": {"type": "string"}}}}]}})
}

#[test]
fn mcp_param_header() {
    let call = |args: Value| request26(2, "tools/call", json!({"name": "sql", "arguments": args}));
    let answer = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [], "resultType": "complete"}});
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], request26(1, "tools/list", json!({})), 200, JSON, &[marked_tools("string")]);
    r.post(&[V26, ("mcp-param-region", Some("us-west1"))], call(json!({"region": "us-west1", "query": "q"})), 200, JSON, &[answer.clone()]);
    r.post(&[V26], call(json!({"query": "q"})), 200, JSON, &[answer.clone()]);
    r.accepts("transport.mcp-param-header");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], request26(1, "tools/list", json!({})), 200, JSON, &[marked_tools("string")]);
    r.post(&[V26], call(json!({"region": "us-west1", "query": "q"})), 400, None, &[]);
    r.reports("transport.mcp-param-header");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], request26(1, "tools/list", json!({})), 200, JSON, &[marked_tools("string")]);
    r.post(&[V26, ("Mcp-Param-Region", Some("eu-west4"))], call(json!({"region": "us-west1", "query": "q"})), 400, None, &[]);
    r.reports("transport.mcp-param-header");
}

#[test]
fn x_mcp_header() {
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], request26(1, "tools/list", json!({})), 200, JSON, &[marked_tools("string")]);
    r.accepts("transport.x-mcp-header");
    // `number` is not a type a header may mirror.
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], request26(1, "tools/list", json!({})), 200, JSON, &[marked_tools("number")]);
    r.reports("transport.x-mcp-header");
}

#[test]
fn header_mismatch_400() {
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26, ("mcp-method", Some("prompts/list"))], request26(1, "tools/list", json!({})), 400, JSON, &[json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32020, "message": "Header mismatch"}})]);
    r.accepts("transport.header-mismatch-400");
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26, ("mcp-method", Some("prompts/list"))], request26(1, "tools/list", json!({})), 200, JSON, &[listed(1)]);
    r.reports("transport.header-mismatch-400");
}

/// Every rule in the table has a rejecting case here, and the README's table lists it with its severity.
#[test]
fn every_rule_is_tested_and_documented() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let tests = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/transport_rules.rs")).unwrap();
    for rule in mcp_spec_types_cli::transport::rules::RULES {
        assert!(tests.contains(&format!(".reports(\"{}\")", rule.id)), "no case rejects with `{}`", rule.id);
        assert!(tests.contains(&format!(".accepts(\"{}\")", rule.id)), "no case accepts for `{}`", rule.id);
        let severity = match rule.severity {
            mcp_spec_types::validate::Severity::Error => "error",
            mcp_spec_types::validate::Severity::Warning => "warning",
        };
        assert!(readme.contains(&format!("| `{}` | {severity} |", rule.id)), "cli/README.md lists `{}` as a {severity}", rule.id);
    }
}

#[test]
fn strict_makes_transport_warnings_errors() {
    let mut r = Rec::new("2025-11-25");
    r.post(&[("origin", Some("http://evil.example"))], list(3), 200, JSON, &[listed(3)]);
    let (code, out) = check_json(&["-"], Some(&r.text()));
    assert_eq!(code, 0);
    assert!(out.found.iter().any(|f| f.rule == "transport.origin" && f.severity == "warning"));
    let (code, out) = check_json(&["--strict", "-"], Some(&r.text()));
    assert_eq!(code, 1);
    assert!(out.found.iter().any(|f| f.rule == "transport.origin" && f.severity == "error"));
}

#[test]
fn max_findings_bounds_transport_findings_too() {
    // One exchange that breaks three rules at its end: no Accept, no version header, a 200 with no content type.
    let mut r = Rec::new("2025-11-25");
    r.post(&[("accept", None), ("mcp-protocol-version", None)], list(1), 200, None, &[]);
    let run = run(&["check", "--max-findings", "1", "-"], Some(&r.text()));
    let lines: Vec<&str> = run.stdout.lines().filter(|l| l.contains("exchange 2")).collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(lines[1].contains("and 2 more findings (2 of them errors)"), "{}", run.stdout);
}

/// 2026-07-28 has no sessions and every client numbers its own requests: two clients' POSTs
/// through one proxy carry the same ids. Each exchange is checked on its own (its request with the
/// answers on its response), while the `x-mcp-header` marks one exchange's `tools/list` taught still
/// hold for the later ones; a session of an earlier version still shares its ids.
#[test]
fn stateless_exchanges_are_checked_apart() {
    // The rules over exchanges and sessions (the bodies here are not complete 2026-07-28 messages).
    let all = |r: &Rec| -> Vec<String> {
        let rules = check_json(&["-"], Some(&r.text())).1.found.into_iter().map(|f| f.rule);
        rules.filter(|r| ["stream.", "session.", "transport."].iter().any(|p| r.starts_with(p))).collect()
    };
    let list26 = |id| request26(id, "tools/list", json!({}));
    let call = |args: Value| request26(1, "tools/call", json!({"name": "sql", "arguments": args}));
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "resultType": "complete"}});
    let json_ct = json!({"content-type": "application/json"});
    let mut r = Rec::bare("2026-07-28");
    // Two clients' `tools/list`, both id 1, the second answered while the first waits.
    let a = r.request("POST", &[V26]);
    r.mirror(&[V26], &list26(1));
    let b = r.request("POST", &[V26]);
    r.mirror(&[V26], &list26(1));
    r.c2s(a, list26(1));
    r.c2s(b, list26(1));
    r.response(b, 200, json_ct.clone());
    r.s2c(b, marked_tools("string"));
    r.end(b, 40, true);
    r.response(a, 200, json_ct.clone());
    r.s2c(a, marked_tools("string"));
    r.end(a, 40, true);
    // A third and a fourth client call the tool, id 1 again: the marks learnt above still apply.
    r.post(&[V26, ("mcp-param-region", Some("us-west1"))], call(json!({"region": "us-west1", "query": "q"})), 200, JSON, &[answer]);
    assert_eq!(all(&r), Vec::<String>::new(), "{}", String::from_utf8_lossy(&r.text()));
    r.post(&[V26], call(json!({"region": "us-west1", "query": "q"})), 400, None, &[]);
    assert_eq!(all(&r), ["transport.mcp-param-header"], "{}", String::from_utf8_lossy(&r.text()));

    // A client cancels, in a POST of its own, a request in flight on another exchange: known there.
    let mut r = Rec::bare("2026-07-28");
    let a = r.request("POST", &[V26]);
    r.mirror(&[V26], &list26(7));
    r.c2s(a, list26(7));
    r.post(&[V26], json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}), 202, None, &[]);
    let cancelled = r.clone();
    r.response(a, 200, json_ct.clone());
    r.end(a, 0, true);
    assert_eq!(all(&r), Vec::<String>::new(), "{}", String::from_utf8_lossy(&r.text()));
    // The cancellation reached that request: an answer after it is a late one.
    let mut r = cancelled;
    r.response(a, 200, json_ct.clone());
    r.s2c(a, marked_tools("string").as_object().cloned().map(|mut m| { m.insert("id".into(), json!(7)); Value::Object(m) }).unwrap());
    r.end(a, 40, true);
    // (Its result is then checked as any result, which this incomplete one is not.)
    assert_eq!(all(&r), ["stream.response-result", "stream.response-unmatched"], "{}", String::from_utf8_lossy(&r.text()));

    // An exchange's answer that names no request of its own exchange is still unmatched.
    let mut r = Rec::bare("2026-07-28");
    r.post(&[V26], list26(1), 200, JSON, &[marked_tools("string")]);
    let mut other = marked_tools("string");
    other["id"] = json!(2);
    r.post(&[V26], list26(3), 200, JSON, &[other]);
    // (And its result is checked as an unmatched one, and the JSON answer answers no request of its POST.)
    assert_eq!(all(&r), ["stream.response-result", "stream.response-unmatched", "transport.json-answer"], "{}", String::from_utf8_lossy(&r.text()));
    // A 2025-11-25 session reusing an id: one stream, as before.
    let mut r = Rec::new("2025-11-25");
    r.list(1);
    r.list(1);
    assert_eq!(all(&r), ["stream.id-reused"], "{}", String::from_utf8_lossy(&r.text()));
}
