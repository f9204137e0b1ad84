//! The recording's HTTP lines (cli/README.md, "Recording"), and the recorder thread: it numbers
//! the lines in the order the forwarding tasks queued them, writes them to `--record`, and hands
//! each message to the checker on the stream of its exchange's session.
//!
//! An exchange's session is its request's `Mcp-Session-Id`, else its response's (the answer to
//! `initialize` assigns it), else none: the same rule as `check FILE.har`. The messages of an
//! exchange whose session is not known yet (a request without an id, before its response head)
//! wait for the response head.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use hyper::header::HeaderMap;
use serde_json::{json, Map, Value};

use crate::vocab::{dir_name, Direction};
use crate::proxy::checking::{CheckEvent, Numbered};
use crate::proxy::queue::{Queue, Queued};
use crate::proxy::recorder::{Lines, Recording};
use crate::proxy::lines::Line;

/// The longest header value, and event data, written to the recording (cut beyond).
pub const VALUE_MAX: usize = 1024;
/// Sessions checked apart; the messages of later sessions join those without one.
pub const SESSIONS_MAX: usize = 256;
/// Exchanges whose routing is remembered at once (requests in flight); the oldest goes first.
pub const EXCHANGES_MAX: usize = 4096;
/// Messages of one exchange held while its session is not known; more go on without one.
const HELD_MAX: usize = 256;

/// The headers kept in the recording: those the transport rules read, and the `Mcp-Param-{Name}`
/// headers a tool's `x-mcp-header` marks (2026-07-28) by prefix; no other (`authorization`, `cookie`: secrets).
pub use crate::transport::{header::PARAM_PREFIX, PARAMS_MAX, REQUEST_HEADERS, RESPONSE_HEADERS};

/// How a line routes its exchange's messages to a checker stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// A line of the exchange that routes nothing (an SSE event without a message).
    None,
    /// A message of the exchange's body (or a body that is not JSON, or one too long to keep).
    Message,
    /// A request head, with its `Mcp-Session-Id`.
    Request(Option<String>),
    /// A response head, with its `Mcp-Session-Id`; `ends` when it accepts a DELETE (the session is over).
    Response { session: Option<String>, ends: bool },
    /// The exchange is over.
    End,
}

/// One recording line of exchange `x`, and what the checker gets of it.
#[derive(Debug)]
pub struct Rec {
    pub x: u64,
    pub line: String,
    pub route: Route,
    /// Checked raw instead of as the recorded line: a body that is not JSON (it is not recorded).
    pub check: Option<Line>,
}

/// The forwarding tasks' way into the recorder: it never waits. A line that does not fit is
/// counted (neither recorded nor checked).
pub type Recorder = Queue<Rec>;

impl Queued for Rec {
    /// The recording's copy, and the checker's: the line itself, or the raw body that is not recorded.
    fn bytes(&self) -> usize {
        2 * self.line.len() + self.check.as_ref().map_or(0, |l| l.bytes.len())
    }
}

/// A header value as the recording keeps it: at most [`VALUE_MAX`] bytes, each byte read as
/// Latin-1 (visible ASCII stays itself; anything else shows as the byte it was).
fn latin1(bytes: &[u8]) -> String {
    bytes[..bytes.len().min(VALUE_MAX)].iter().map(|&b| b as char).collect()
}

/// The kept headers, names lowercased, a repeated one joined with ", ".
pub fn headers(h: &HeaderMap, keep: &[&str]) -> Map<String, Value> {
    let mut out = Map::new();
    for name in keep {
        let mut joined: Vec<u8> = Vec::new();
        for (i, v) in h.get_all(*name).iter().enumerate() {
            if i > 0 {
                joined.extend_from_slice(b", ");
            }
            joined.extend_from_slice(v.as_bytes());
            if joined.len() > VALUE_MAX {
                break;
            }
        }
        if h.contains_key(*name) {
            out.insert(name.to_string(), Value::String(latin1(&joined)));
        }
    }
    out
}

pub fn header(h: &HeaderMap, name: &str) -> Option<String> {
    h.get(name).map(|v| latin1(v.as_bytes()))
}

pub fn request_line(x: u64, method: &str, path: &str, query: Option<&str>, h: &HeaderMap) -> String {
    let mut kept = headers(h, &REQUEST_HEADERS);
    let params: Vec<&str> = h.keys().map(|k| k.as_str()).filter(|k| k.starts_with(PARAM_PREFIX)).take(PARAMS_MAX).collect();
    kept.extend(headers(h, &params));
    let mut o = json!({"x": x, "at": "request", "method": method, "path": path, "headers": kept});
    if let Some(q) = query {
        // Keys (`?api_key=`) travel in queries too; the recording keeps their names only.
        o["query"] = json!(super::upstream::redact_query(q));
    }
    json!({ "http": o }).to_string()
}

pub fn response_line(x: u64, status: u16, h: &HeaderMap) -> String {
    json!({"http": {"x": x, "at": "response", "status": status, "headers": headers(h, &RESPONSE_HEADERS)}}).to_string()
}

pub fn end_line(x: u64, bytes: u64, error: Option<&str>) -> String {
    match error {
        None => json!({"http": {"x": x, "at": "end", "bytes": bytes, "complete": true}}).to_string(),
        Some(e) => json!({"http": {"x": x, "at": "end", "bytes": bytes, "complete": false, "error": e}}).to_string(),
    }
}

/// Where a message was in its exchange: the body of the request or response, and for an SSE
/// event its index and own `id`.
pub struct Place<'a> {
    pub x: u64,
    pub dir: Direction,
    pub event: Option<(u64, Option<&'a str>)>,
}

impl Place<'_> {
    fn http(&self) -> Value {
        let part = if self.dir == Direction::ClientToServer { "request" } else { "response" };
        let mut o = json!({"x": self.x, "part": part});
        if let Some((i, id)) = self.event {
            o["event"] = json!(i);
            if let Some(id) = id {
                o["eventId"] = json!(id);
            }
        }
        o
    }
}

/// A message line: the message as it travelled when it is one line of JSON, else re-written
/// compactly (a JSONL line holds no line break; an SSE event's data lines are joined with `\n`).
pub fn message_line(place: &Place, msg: &[u8]) -> String {
    let mut out = format!("{{\"dir\":\"{}\",\"msg\":", dir_name(place.dir));
    let trimmed = msg.trim_ascii();
    if memchr::memchr2(b'\n', b'\r', trimmed).is_none() && std::str::from_utf8(trimmed).is_ok() {
        out.push_str(std::str::from_utf8(trimmed).unwrap_or("null"));
    } else {
        let v: Value = serde_json::from_slice(trimmed).unwrap_or(Value::Null);
        out.push_str(&v.to_string());
    }
    out.push_str(",\"http\":");
    out.push_str(&place.http().to_string());
    out.push('}');
    out
}

/// A message too long to keep: `{"dir":..,"msg":null,"skipped":LENGTH,"http":..}`, as the stdio proxy writes it.
pub fn skipped_line(place: &Place, len: usize) -> String {
    json!({"dir": dir_name(place.dir), "msg": null, "skipped": len, "http": place.http()}).to_string()
}

/// An SSE event that carries no message.
pub fn event_line(x: u64, index: u64, id: Option<&str>, kind: Option<&str>, data: &str, retry: Option<u64>) -> String {
    let mut o = json!({"x": x, "at": "event", "event": index});
    if let Some(id) = id {
        o["eventId"] = json!(id);
    }
    if let Some(k) = kind {
        o["type"] = json!(k);
    }
    // A 2024-11-05 `endpoint` names the URL the client posts to: its query as the request's is recorded.
    let redacted;
    let data = match (kind, data.split_once('?')) {
        (Some("endpoint"), Some((base, q))) => {
            redacted = format!("{base}?{}", super::upstream::redact_query(q));
            redacted.as_str()
        }
        _ => data,
    };
    if !data.is_empty() {
        let mut end = data.len().min(VALUE_MAX);
        while !data.is_char_boundary(end) {
            end -= 1;
        }
        o["data"] = json!(&data[..end]);
    }
    if let Some(r) = retry {
        o["retry"] = json!(r);
    }
    json!({ "http": o }).to_string()
}

struct Exchange {
    stream: Option<u64>,
    /// The exchange's lines for the checker while its session (its stream) is not known yet.
    held: Vec<ForChecker>,
    /// The request's `Mcp-Session-Id`.
    session: Option<String>,
}

/// What the checker child gets of one line: the recorded line as `check` reads it (HTTP lines
/// and messages alike, so the transport rules run live), or a raw body that was not recorded.
enum ForChecker {
    Recorded { number: u64, bytes: Vec<u8> },
    Raw(Numbered),
}

impl ForChecker {
    fn on(self, stream: u64, rec: &mut Recording) {
        rec.check(match self {
            ForChecker::Recorded { number, bytes } => CheckEvent::Wrapped { number, stream, bytes },
            ForChecker::Raw(mut n) => {
                n.stream = stream;
                CheckEvent::Line(n)
            }
        });
    }
}

/// `proxy --http`'s recorder (see the module's comment): the exchanges open and the checker stream
/// of each session the upstream issued.
#[derive(Default)]
pub(crate) struct Routed {
    exchanges: HashMap<u64, Exchange>,
    sessions: HashMap<String, u64>,
    next_stream: u64,
}

impl Lines for Routed {
    type Item = Rec;

    fn take(&mut self, r: Rec, rec: &mut Recording) {
        if !r.line.is_empty() {
            rec.record(r.line.as_bytes());
        }
        rec.queued_bytes().fetch_sub(r.line.len(), Ordering::Relaxed);
        if self.exchanges.len() >= EXCHANGES_MAX && !self.exchanges.contains_key(&r.x) {
            let oldest = self.exchanges.keys().min().copied().unwrap_or(r.x);
            for f in self.exchanges.remove(&oldest).map(|e| e.held).unwrap_or_default() {
                f.on(0, rec);
            }
        }
        let (is_message, ended) = (r.route == Route::Message, r.route == Route::End);
        let (release, ends_stream) = self.route(r.x, r.route);
        let stream = self.exchanges.get(&r.x).and_then(|e| e.stream);
        if stream == Some(0) && is_message {
            // A message without a session (a 2024-11-05 answer on the GET stream): the held
            // requests without one go first, so that each answer follows its request.
            let mut pending: Vec<(&u64, &mut Exchange)> = self.exchanges.iter_mut().filter(|(_, e)| e.stream.is_none() && !e.held.is_empty()).collect();
            pending.sort_by_key(|(x, _)| **x);
            for (_, other) in pending {
                other.stream = Some(0);
                for held in std::mem::take(&mut other.held) {
                    held.on(0, rec);
                }
            }
        }
        let Some(ex) = self.exchanges.get_mut(&r.x) else { unreachable!("inserted by route") };
        // What was held goes first, so the checker reads the exchange's lines in their order.
        if release {
            let stream = *ex.stream.get_or_insert(0);
            for f in std::mem::take(&mut ex.held) {
                f.on(stream, rec);
            }
        }
        let this = match r.check {
            Some(line) => Some(ForChecker::Raw(Numbered { number: rec.number(), line, stream: 0 })),
            None if !r.line.is_empty() => Some(ForChecker::Recorded { number: rec.number(), bytes: r.line.into_bytes() }),
            None => None,
        };
        if let Some(f) = this {
            match ex.stream {
                Some(stream) => f.on(stream, rec),
                None if ex.held.len() >= HELD_MAX => f.on(0, rec),
                None => ex.held.push(f),
            }
        }
        if let Some(stream) = ends_stream {
            rec.tell_if_room(CheckEvent::EndStream(stream));
        }
        if ended {
            self.exchanges.remove(&r.x);
        }
    }

    /// The exchanges still open: what they hold goes to their streams, oldest first.
    fn finish(&mut self, rec: &mut Recording) {
        let mut left: Vec<(u64, Exchange)> = self.exchanges.drain().collect();
        left.sort_by_key(|(x, _)| *x);
        for (_, ex) in left {
            for f in ex.held {
                f.on(ex.stream.unwrap_or(0), rec);
            }
        }
    }
}

impl Routed {
    /// Follows exchange `x`'s route to its session's stream (the exchange made if new): whether what
    /// it held goes now, and the stream that ends (a deleted session's).
    fn route(&mut self, x: u64, route: Route) -> (bool, Option<u64>) {
        let ex = self.exchanges.entry(x).or_insert(Exchange { stream: None, held: Vec::new(), session: None });
        let sessions = &mut self.sessions;
        match route {
            // Only an id the upstream issued (seen on a response) has a stream of its own: one a
            // client made up waits for the answer, and goes to the shared stream unless the
            // upstream takes it up (else invented ids would use up the streams for good).
            Route::Request(Some(s)) => {
                ex.stream = sessions.get(&s).copied();
                ex.session = Some(s);
                (false, None)
            }
            Route::Response { session, ends } => {
                let mut release = false;
                if ex.stream.is_none() {
                    ex.stream = Some(match (&ex.session, session) {
                        (Some(asked), Some(issued)) if *asked == issued => stream_of(sessions, &mut self.next_stream, Some(issued)),
                        (Some(asked), _) => sessions.get(asked).copied().unwrap_or(0),
                        (None, issued) => stream_of(sessions, &mut self.next_stream, issued),
                    });
                    release = true;
                }
                // A deleted session's stream ends now (its end's findings come while the proxy runs,
                // and its room in the table is free again).
                if let (true, Some(sid), Some(stream)) = (ends, &ex.session, ex.stream.filter(|&n| n != 0)) {
                    if sessions.get(sid) == Some(&stream) {
                        sessions.remove(sid);
                        return (release, Some(stream));
                    }
                }
                (release, None)
            }
            Route::End => (true, None),
            Route::None | Route::Message | Route::Request(None) => (false, None),
        }
    }
}

/// The checker stream of a session the upstream issued: its own while there is room, else the shared one (0).
fn stream_of(sessions: &mut HashMap<String, u64>, next_stream: &mut u64, session: Option<String>) -> u64 {
    let Some(s) = session else { return 0 };
    match sessions.get(&s) {
        Some(&n) => n,
        None if sessions.len() < SESSIONS_MAX => {
            *next_stream += 1;
            *sessions.entry(s).or_insert(*next_stream)
        }
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::{HeaderName, HeaderValue};

    #[test]
    fn only_the_listed_headers_are_kept_and_cut() {
        let mut h = HeaderMap::new();
        h.append("authorization", HeaderValue::from_static("Bearer secret"));
        h.append("cookie", HeaderValue::from_static("a=b"));
        h.append("accept", HeaderValue::from_static("application/json"));
        h.append("accept", HeaderValue::from_static("text/event-stream"));
        h.append(HeaderName::from_static("mcp-session-id"), HeaderValue::from_bytes(b"\xe9t\xe9").unwrap());
        h.append("origin", HeaderValue::from_str(&"o".repeat(3000)).unwrap());
        let line = request_line(3, "POST", "/mcp", Some("sessionId=abc"), &h);
        let v: Value = serde_json::from_str(&line).unwrap();
        let kept = &v["http"]["headers"];
        assert_eq!(kept.as_object().unwrap().len(), 3, "{line}");
        assert_eq!(kept["accept"], "application/json, text/event-stream");
        assert_eq!(kept["mcp-session-id"], "\u{e9}t\u{e9}");
        assert_eq!(kept["origin"].as_str().unwrap().len(), VALUE_MAX);
        assert_eq!((&v["http"]["x"], &v["http"]["at"], &v["http"]["query"]), (&json!(3), &json!("request"), &json!("sessionId=abc")));
        assert!(!line.contains("secret") && !line.contains("a=b"));
    }

    #[test]
    fn message_lines_keep_one_line_messages_as_they_travelled() {
        let place = Place { x: 1, dir: Direction::ServerToClient, event: Some((2, Some("e7"))) };
        assert_eq!(
            message_line(&place, b" {\"id\":1,  \"result\":{}} "),
            r#"{"dir":"s2c","msg":{"id":1,  "result":{}},"http":{"event":2,"eventId":"e7","part":"response","x":1}}"#
        );
        let place = Place { x: 0, dir: Direction::ClientToServer, event: None };
        assert_eq!(message_line(&place, b"{\"id\":1,\n\"method\":\"ping\"}"), r#"{"dir":"c2s","msg":{"id":1,"method":"ping"},"http":{"part":"request","x":0}}"#);
        let e = event_line(4, 0, Some("p"), Some("endpoint"), &"é".repeat(1000), Some(3000));
        let v: Value = serde_json::from_str(&e).unwrap();
        assert!(v["http"]["data"].as_str().unwrap().len() <= VALUE_MAX);
        assert_eq!((&v["http"]["type"], &v["http"]["retry"], &v["http"]["eventId"]), (&json!("endpoint"), &json!(3000), &json!("p")));
        assert!(!event_line(4, 1, None, None, "", None).contains("data"));
    }

    /// A line of exchange `x`: a message line when `message` names one, else an HTTP line.
    fn rec(x: u64, route: Route, message: Option<&str>) -> Rec {
        let line = match message {
            Some(m) => format!("{{\"dir\":\"c2s\",\"msg\":\"{m}\"}}"),
            None => format!("{{\"http\":{{\"x\":{x}}}}}"),
        };
        Rec { x, line, route, check: None }
    }

    #[test]
    fn messages_wait_for_their_session_and_sessions_are_streams() {
        let events = crate::proxy::recorder::replay(
            Routed::default(),
            [
            rec(0, Route::Request(None), None),
            rec(0, Route::Message, Some("init")),
            rec(1, Route::Request(None), None),
            rec(1, Route::Message, Some("stateless")),
            rec(0, Route::Response { session: Some("A".into()), ends: false }, None),
            rec(2, Route::Request(Some("A".into())), Some("list")),
            rec(1, Route::Response { session: None, ends: false }, None),
            rec(3, Route::Request(Some("B".into())), Some("other")),
            rec(3, Route::End, None),
            ],
        );
        // Every line goes to the checker (the transport rules read the HTTP lines too), an exchange's
        // lines in order and on its session's stream once that is known.
        let got: Vec<(u64, u64)> = events
            .into_iter()
            .filter_map(|e| match e {
                CheckEvent::Wrapped { number, stream, .. } => Some((number, stream)),
                _ => None,
            })
            .collect();
        // B was never issued by the upstream (no response named it): the shared stream.
        assert_eq!(got, vec![(1, 1), (2, 1), (5, 1), (6, 1), (3, 0), (4, 0), (7, 0), (8, 0), (9, 0)]);
    }

    #[test]
    fn a_held_request_goes_before_an_answer_without_a_session() {
        // 2024-11-05: the POST's 202 comes after its answer has arrived on the GET stream.
        let events = crate::proxy::recorder::replay(
            Routed::default(),
            [
            rec(0, Route::Request(None), None),
            rec(0, Route::Response { session: None, ends: false }, None),
            rec(1, Route::Request(None), None),
            rec(1, Route::Message, Some("request")),
            rec(0, Route::Message, Some("answer")),
            rec(1, Route::Response { session: None, ends: false }, None),
            ],
        );
        let got: Vec<u64> = events
            .into_iter()
            .filter_map(|e| match e {
                CheckEvent::Wrapped { number, .. } => Some(number),
                _ => None,
            })
            .collect();
        // The held request (line 4) goes before the answer (line 5).
        assert_eq!(got, [1, 2, 3, 4, 5, 6]);
    }
}
