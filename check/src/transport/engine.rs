//! The transport rules' state: the open exchanges, the sessions (their version, whether they
//! ended, the SSE event ids their streams sent) and the 2024-11-05 endpoints, all bounded.
//!
//! What a rule needs from the request side is taken when the request's head arrives (the
//! session's state then); the rules on a whole exchange run when it ends ([`super::exchange`]),
//! the rules on one message or event when it arrives.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::{Hash, Hasher};

use mcp_spec_types::tree::Node;
use serde_json::Value;

use super::{diag, rules};
use super::{Headers, HttpLine, MsgAt, Part, Where};
use crate::settings::Limits;
use crate::vocab::{Diag, IdKey, PROTOCOL_META_KEY};
use crate::versions::{version_index, LATEST, VERSIONS};

// Exchanges open at once, sessions and SSE event ids per session (as 64-bit digests) remembered:
// `Limits` (settings.rs); past each the oldest is forgotten (an exchange's end rules do not run).
/// Request ids remembered per exchange (a 2025-03-26 batch may hold many).
pub const IDS_MAX: usize = 256;
/// 2024-11-05 endpoints remembered.
const ENDPOINTS_MAX: usize = 64;

/// What a line found, and the exchange it concerns.
#[derive(Debug, Default)]
pub struct Found {
    pub diags: Vec<Diag>,
    pub at: Where,
}

#[derive(Debug, Default)]
pub(super) struct Session {
    /// The version `initialize` negotiated.
    pub version: Option<&'static str>,
    /// A DELETE of it was answered 2xx.
    pub ended: bool,
    /// A request carrying it was answered 404.
    pub got_404: bool,
    /// A response assigned it (or took it up: answered a request carrying it with it).
    pub issued: bool,
    /// Event id digest -> (the stream it was first sent on, the exchange that last sent it).
    events: HashMap<u64, (u64, u64)>,
    order: VecDeque<u64>,
}

/// One open exchange: its request, its response so far, and what the request side saw.
#[derive(Debug, Default)]
pub(super) struct Exchange {
    pub at: Where,
    pub method: String,
    pub path: String,
    pub req: Headers,
    pub status: Option<u16>,
    pub resp: Headers,
    /// The version the rules use before a result names one (see [`Transport::version_of`]).
    pub version: &'static str,
    /// The session's negotiated version when the request came (`None`: not yet initialized).
    pub negotiated: Option<&'static str>,
    /// A session (other than the request's) was open when the request came.
    pub live_session: bool,
    pub session_ended: bool,
    pub session_got_404: bool,
    /// The request carries a session id no response has issued, not reported before.
    pub unissued: bool,
    /// A 2024-11-05 HTTP+SSE exchange (its GET stream began with `endpoint`, or it POSTs to one).
    pub legacy: bool,
    /// The request's path did not match an endpoint announced earlier (2024-11-05).
    pub off_endpoint: bool,
    pub req_lines: u32,
    pub requests: Vec<IdKey>,
    pub has_initialize: bool,
    pub has_response: bool,
    pub meta_version: Option<String>,
    pub initialize_id: Option<IdKey>,
    pub answered: Vec<IdKey>,
    /// Requests of the POST the client cancelled (`notifications/cancelled`) while the exchange was open: no answer is due.
    pub cancelled: Vec<IdKey>,
    pub resp_messages: u32,
    /// A response message other than a JSON-RPC error response.
    pub resp_not_error: bool,
    pub events: u64,
    pub sent_event_id: bool,
    pub retry: bool,
    /// The stream an SSE event id on this stream belongs to: itself, or the one `Last-Event-ID` resumes.
    pub root: u64,
    pub resumes: bool,
    /// The session had sent the event id `Last-Event-ID` names when the request came.
    pub last_event_known: bool,
    /// The version the `initialize` result in this exchange negotiated.
    pub result_version: Option<&'static str>,
    /// A request's mirrored headers (2026-07-28) were missing or did not match its body.
    pub header_mismatch: bool,
}

/// The transport rules over one recording or HAR.
pub struct Transport {
    noun: &'static str,
    open: BTreeMap<u64, Exchange>,
    pub(super) sessions: HashMap<String, Session>,
    session_order: VecDeque<String>,
    /// Traffic without a session id (sessionless servers, 2026-07-28).
    pub(super) sessionless: Session,
    /// The announced endpoints' digests.
    endpoints: VecDeque<u64>,
    /// The `x-mcp-header` marks of the tools listed so far (2026-07-28).
    tools: super::mirror::Tools,
    /// Exchanges and sessions forgotten by the bounds, over every recording so far.
    pub forgotten: u64,
    /// Digests of the unissued session ids reported (each once, at most `Limits::sessions` remembered).
    unissued_reported: std::collections::HashSet<u64>,
    /// The line being fed (set by the caller), kept with each exchange's request.
    pub line: u64,
    /// The version of an exchange nothing else names: `check --protocol V`'s, else the latest.
    fallback: &'static str,
    limits: Limits,
}

pub(super) fn version_name(i: usize) -> &'static str {
    VERSIONS[i].name
}

fn known(v: &str) -> Option<&'static str> {
    version_index(v).map(version_name)
}

pub(super) fn digest(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// The `ORIGIN`'s host and port against `Host`: whether they name the same authority.
pub(super) fn same_origin(origin: &str, host: &str) -> bool {
    let authority = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    let authority = authority.split('/').next().unwrap_or("");
    let default_port = |a: &str, scheme_port: &str| if a.contains(':') && !a.ends_with(']') { a.to_ascii_lowercase() } else { format!("{}:{scheme_port}", a.to_ascii_lowercase()) };
    let port = if origin.starts_with("https:") { "443" } else { "80" };
    default_port(authority, port) == default_port(host, port)
}

impl Transport {
    /// `noun` names an exchange in findings: `exchange` for a recording, `entry` for a HAR.
    pub fn new(noun: &'static str) -> Transport {
        Transport::with_limits(noun, Limits::default())
    }

    /// A transport whose state stays within `limits` (its exchanges, sessions, event ids and marks table).
    pub fn with_limits(noun: &'static str, limits: Limits) -> Transport {
        let tools = super::mirror::Tools::new(limits.table_bytes);
        Transport { noun, open: BTreeMap::new(), sessions: HashMap::new(), session_order: VecDeque::new(), sessionless: Session::default(), endpoints: VecDeque::new(), tools, forgotten: 0, unissued_reported: Default::default(), line: 0, fallback: LATEST, limits }
    }

    /// Exchanges that name no version (no negotiation, header or `_meta`) are held to `version`'s rules.
    pub fn with_fallback(mut self, version: &'static str) -> Transport {
        self.fallback = version;
        self
    }

    fn session_mut(&mut self, id: Option<&str>) -> &mut Session {
        let Some(id) = id else { return &mut self.sessionless };
        if !self.sessions.contains_key(id) {
            if self.sessions.len() >= self.limits.sessions {
                if let Some(old) = self.session_order.pop_front() {
                    self.sessions.remove(&old);
                    self.forgotten += 1;
                }
            }
            self.session_order.push_back(id.to_string());
            self.sessions.insert(id.to_string(), Session::default());
        }
        self.sessions.get_mut(id).expect("inserted above")
    }

    fn session(&self, id: Option<&str>) -> Option<&Session> {
        match id {
            Some(id) => self.sessions.get(id),
            None => Some(&self.sessionless),
        }
    }

    /// The version an exchange's rules use: 2024-11-05 for HTTP+SSE, else what its `initialize`
    /// result said, the session's negotiated version, the header's, the request's `_meta`, the latest.
    pub(super) fn version_of(ex: &Exchange) -> &'static str {
        if ex.legacy {
            return "2024-11-05";
        }
        ex.result_version.unwrap_or(ex.version)
    }

    /// Whether exchange `x` is open and of a stateless version (2026-07-28 on: no session, its
    /// request naming its version in `MCP-Protocol-Version` or `_meta`): its request and the
    /// answers on its response belong together, apart from every other exchange's.
    pub fn stateless(&self, x: u64) -> bool {
        let Some(ex) = self.open.get(&x) else { return false };
        let named = ex.req.protocol_version.as_deref().or(ex.meta_version.as_deref()).and_then(known);
        ex.at.session_id.is_none() && !ex.legacy && named.is_some_and(rules::stateless)
    }

    /// Feeds one line of HTTP context.
    pub fn line(&mut self, line: &HttpLine) -> Found {
        let x = line.x();
        match line {
            HttpLine::Request { method, path, query, headers, .. } => {
                let found = Found { diags: Vec::new(), at: self.request(x, method, path, query.as_deref(), headers) };
                return found;
            }
            HttpLine::Response { status, headers, .. } => self.response(x, *status, headers),
            HttpLine::Event { event, event_id, kind, data, retry, .. } => return self.event(x, *event, event_id.as_deref(), kind.as_deref(), data.as_deref(), *retry),
            HttpLine::End { bytes, complete, error, .. } => {
                let Some(ex) = self.open.remove(&x) else { return Found { diags: Vec::new(), at: self.unknown(x) } };
                let diags = self.end_rules(&ex, *bytes, *complete && error.is_none());
                return Found { diags, at: ex.at };
            }
        }
        Found { diags: Vec::new(), at: self.at(x) }
    }

    fn unknown(&self, x: u64) -> Where {
        Where { noun: self.noun, x, ..Where::default() }
    }

    fn at(&self, x: u64) -> Where {
        self.open.get(&x).map(|e| e.at.clone()).unwrap_or_else(|| self.unknown(x))
    }

    fn request(&mut self, x: u64, method: &str, path: &str, query: Option<&str>, headers: &Headers) -> Where {
        if self.open.len() >= self.limits.open_exchanges && !self.open.contains_key(&x) {
            self.open.pop_first();
            self.forgotten += 1;
        }
        let sid = headers.session_id.clone();
        let live_session = sid.is_none() && self.sessions.values().any(|s| !s.ended && !s.got_404);
        let (negotiated, ended, got_404, issued) = match self.session(sid.as_deref()) {
            Some(s) => (s.version, s.ended, s.got_404, s.issued),
            None => (None, false, false, false),
        };
        // Reported once per id: a client that made one up, or a session older than the recording.
        let unissued = match sid.as_deref() {
            Some(s) if !issued && !got_404 => {
                let d = digest(s);
                let new = !self.unissued_reported.contains(&d);
                if new && self.unissued_reported.len() < self.limits.sessions {
                    self.unissued_reported.insert(d);
                }
                new
            }
            _ => false,
        };
        let header = headers.protocol_version.as_deref().and_then(known);
        let last_event_known = headers.last_event_id.as_deref().is_some_and(|id| self.session(sid.as_deref()).is_some_and(|s| s.events.contains_key(&digest(id))));
        let uri = match query {
            Some(q) => format!("{path}?{q}"),
            None => path.to_string(),
        };
        let legacy = method == "POST" && self.endpoints.contains(&digest(&uri));
        let off_endpoint = method == "POST" && !legacy && sid.is_none() && !self.endpoints.is_empty();
        // Kept cut, as the headers are: a peer's long request line costs no more than a header.
        let (method, path) = (super::cut(method.to_string()), super::cut(path.to_string()));
        let at = Where { noun: self.noun, x, line: self.line, method: Some(method.clone()), path: Some(path.clone()), status: None, session_id: sid.clone(), protocol_version: headers.protocol_version.clone() };
        let ex = Exchange {
            at: at.clone(),
            method,
            path,
            req: headers.clone(),
            version: negotiated.or(header).unwrap_or(self.fallback),
            negotiated,
            live_session,
            session_ended: ended,
            session_got_404: got_404,
            unissued,
            legacy,
            off_endpoint,
            last_event_known,
            root: x,
            ..Exchange::default()
        };
        self.open.insert(x, ex);
        at
    }

    fn response(&mut self, x: u64, status: u16, headers: &Headers) {
        let Some(ex) = self.open.get_mut(&x) else { return };
        ex.status = Some(status);
        ex.at.status = Some(status.into());
        ex.resp = headers.clone();
        if ex.at.session_id.is_none() {
            ex.at.session_id = headers.session_id.clone();
        }
        let (sid, method) = (ex.req.session_id.clone(), ex.method.clone());
        let assigned = if sid.is_none() { headers.session_id.clone() } else { None };
        let last_event_id = ex.req.last_event_id.clone();
        let ok = (200..300).contains(&status);
        if let Some(s) = &sid {
            if status == 404 {
                self.session_mut(Some(s)).got_404 = true;
            }
            if method == "DELETE" && ok {
                self.session_mut(Some(s)).ended = true;
            }
        }
        let taken_up = sid.as_ref().filter(|s| ok && headers.session_id.as_ref() == Some(*s));
        if let Some(s) = assigned.as_ref().or(taken_up) {
            self.session_mut(Some(s)).issued = true;
            if let Some(ex) = self.open.get_mut(&x) {
                ex.unissued = false;
            }
        }
        // A resumed stream's events belong to the stream the named event came on.
        if let (Some(id), true) = (last_event_id, method == "GET") {
            let root = self.session(sid.as_deref()).and_then(|s| s.events.get(&digest(&id))).map(|&(root, _)| root);
            if let Some(ex) = self.open.get_mut(&x) {
                ex.resumes = true;
                if let Some(r) = root {
                    ex.root = r;
                }
            }
        }
    }

    /// Feeds one JSON-RPC message (or batch) of an exchange.
    pub fn message(&mut self, at: &MsgAt, msg: Node<'_>) -> Found {
        let mut diags = Vec::new();
        let Some(ex) = self.open.get_mut(&at.x) else { return Found { diags, at: self.unknown(at.x) } };
        let items: Vec<Node> = match msg.as_array() {
            Some(a) => a.iter().collect(),
            None => vec![msg],
        };
        let mut cancels = Vec::new();
        match at.part {
            Part::Request => {
                ex.req_lines += 1;
                for m in items {
                    if m.get("method").and_then(Node::as_str) == Some("notifications/cancelled") {
                        cancels.extend(m.pointer("/params/requestId").and_then(IdKey::of));
                    }
                    let method = m.get("method").and_then(Node::as_str);
                    let id = m.get("id").and_then(IdKey::of);
                    match (method, id) {
                        (Some(method), Some(id)) => {
                            if method == "initialize" {
                                ex.has_initialize = true;
                                ex.initialize_id = Some(id.clone());
                                if let Some(v) = m.pointer("/params/protocolVersion").and_then(Node::as_str).and_then(known) {
                                    ex.version = v;
                                }
                            }
                            if let Some(v) = m.get("params").and_then(|p| p.get("_meta")).and_then(|m| m.get(PROTOCOL_META_KEY)).and_then(Node::as_str) {
                                if ex.meta_version.is_none() {
                                    ex.meta_version = Some(super::cut(v.to_string()));
                                    if ex.negotiated.is_none() && ex.req.protocol_version.is_none() {
                                        ex.version = known(v).unwrap_or(ex.version);
                                    }
                                }
                            }
                            if ex.requests.len() < IDS_MAX {
                                ex.requests.push(id);
                            }
                            if ex.method == "POST" && rules::MCP_METHOD_HEADER.applies(Transport::version_of(ex)) {
                                let found = super::mirror::check_request(m, &ex.req, &self.tools);
                                ex.header_mismatch |= !found.is_empty();
                                diags.extend(found);
                            }
                        }
                        (Some(_), None) => {}
                        _ => ex.has_response = true,
                    }
                }
            }
            Part::Response => {
                ex.resp_messages += 1;
                let mut result_version = None;
                for &m in &items {
                    let is_request = m.get("method").is_some() && m.get("id").is_some();
                    let is_response = m.get("method").is_none() && (m.get("result").is_some() || m.get("error").is_some());
                    ex.resp_not_error |= m.get("error").is_none();
                    if let Some(result) = m.get("result").filter(|r| r.get("tools").is_some_and(Node::is_array)) {
                        if rules::X_MCP_HEADER.applies(Transport::version_of(ex)) {
                            self.tools.learn(result, &mut diags);
                        }
                    }
                    if is_response {
                        if let Some(id) = m.get("id").and_then(IdKey::of) {
                            if ex.initialize_id.as_ref() == Some(&id) || m.pointer("/result/serverInfo").is_some() {
                                result_version = m.pointer("/result/protocolVersion").and_then(Node::as_str).and_then(known);
                            }
                            if ex.answered.len() < IDS_MAX {
                                ex.answered.push(id);
                            }
                        }
                        let v = Transport::version_of(ex);
                        if ex.method == "GET" && !ex.legacy && !ex.resumes && rules::GET_NO_RESPONSE.applies(v) {
                            diags.push(diag(&rules::GET_NO_RESPONSE, "", "a JSON-RPC response on the GET stream, which resumes no stream (no `Last-Event-ID`)".into()));
                        }
                    }
                    if is_request && ex.method == "POST" && at.event.is_some() && rules::SSE_NO_REQUESTS.applies(Transport::version_of(ex)) {
                        diags.push(diag(&rules::SSE_NO_REQUESTS, "", format!("a JSON-RPC request (`{}`) on the SSE stream of a POST", crate::bounded::clip(m.get("method").and_then(Node::as_str).unwrap_or("?")))));
                    }
                }
                if let Some(v) = result_version {
                    ex.result_version = Some(v);
                    let sid = ex.at.session_id.clone();
                    self.session_mut(sid.as_deref()).version = Some(v);
                }
                if let Some(i) = at.event {
                    let f = self.event(at.x, i, at.event_id.as_deref(), None, None, None);
                    diags.extend(f.diags.into_iter().filter(|d| d.rule != rules::SSE_DATA.id));
                }
            }
        }
        if !cancels.is_empty() {
            self.cancel(at.x, &cancels);
        }
        Found { diags, at: self.at(at.x) }
    }

    /// The client cancelled `ids` (in the request of exchange `x`): the open exchanges of the same
    /// session whose POST carried one of them owe no answer to it.
    fn cancel(&mut self, x: u64, ids: &[IdKey]) {
        let sid = self.open.get(&x).and_then(|e| e.req.session_id.clone());
        for ex in self.open.values_mut().filter(|e| e.req.session_id == sid && e.method == "POST") {
            for id in ids {
                if ex.requests.contains(id) && !ex.cancelled.contains(id) {
                    ex.cancelled.push(id.clone());
                }
            }
        }
    }

    /// The client cancelled, while exchange `x` was open, those of its requests `is_cancelled` names:
    /// for a reader that feeds each exchange whole (a HAR), so the cancel's exchange comes after.
    pub fn cancelled_while_open(&mut self, x: u64, is_cancelled: &dyn Fn(&IdKey) -> bool) {
        let Some(ex) = self.open.get_mut(&x).filter(|e| e.method == "POST") else { return };
        let ids: Vec<IdKey> = ex.requests.iter().filter(|id| is_cancelled(id) && !ex.cancelled.contains(id)).cloned().collect();
        ex.cancelled.extend(ids);
    }

    /// An SSE event (with or without a message): `kind` and `data` only for one without.
    fn event(&mut self, x: u64, index: u64, id: Option<&str>, kind: Option<&str>, data: Option<&str>, retry: Option<u64>) -> Found {
        let mut diags = Vec::new();
        let Some(ex) = self.open.get_mut(&x) else { return Found { diags, at: self.unknown(x) } };
        let first = ex.events == 0;
        ex.events += 1;
        ex.retry |= retry.is_some();
        ex.sent_event_id |= id.is_some();
        if kind == Some("endpoint") && ex.method == "GET" {
            if first {
                ex.legacy = true;
                if let Some(uri) = data.map(endpoint_uri) {
                    if self.endpoints.len() >= ENDPOINTS_MAX {
                        self.endpoints.pop_front();
                    }
                    self.endpoints.push_back(digest(&uri));
                }
            } else {
                diags.push(diag(&rules::SSE_ENDPOINT_FIRST, "", format!("the `endpoint` event is event {index} of the stream, not the first")));
            }
            return Found { diags, at: self.at(x) };
        }
        let ex = self.open.get_mut(&x).expect("checked above");
        let v = Transport::version_of(ex);
        if first && ex.method == "POST" && rules::SSE_PRIMING.applies(v) && ex.has_request() {
            let priming = id.is_some() && data.is_none() && kind.is_none() && index == 0 && ex.resp_messages == 0;
            if !priming {
                diags.push(diag(&rules::SSE_PRIMING, "", "the stream's first event is not a priming event (an id and empty data)".into()));
            }
        }
        if matches!(kind, None | Some("message")) && data.is_some() && rules::SSE_DATA.applies(v) {
            diags.push(diag(&rules::SSE_DATA, "", "a `message` event whose data is not a JSON-RPC message (not JSON)".into()));
        }
        if let Some(id) = id {
            let (root, resumes, noun) = (ex.root, ex.resumes, self.noun);
            let sid = ex.at.session_id.clone();
            let v_rule = rules::EVENT_ID_UNIQUE.applies(v);
            let s = self.session_mut(sid.as_deref());
            let d = digest(id);
            let shown = crate::bounded::shown(&Value::String(id.to_string()));
            match s.events.get(&d).copied() {
                Some((_, last)) if last == x && v_rule => diags.push(diag(&rules::EVENT_ID_UNIQUE, "", format!("event id {shown} was already sent on this stream"))),
                Some((r, _)) if r == root => {}
                Some((r, _)) if v_rule && resumes => diags.push(diag(&rules::RESUME_SAME_STREAM, "", format!("the resumed stream replays event id {shown}, first sent on the stream of {noun} {r}"))),
                Some((r, _)) if v_rule => diags.push(diag(&rules::EVENT_ID_UNIQUE, "", format!("event id {shown} was first sent on the stream of {noun} {r}"))),
                _ => {}
            }
            let max = self.limits.event_ids;
            let s = self.session_mut(sid.as_deref());
            let entry = s.events.entry(d).or_insert((root, x));
            entry.1 = x;
            if s.order.back() != Some(&d) {
                s.order.push_back(d);
            }
            while s.order.len() > max {
                if let Some(old) = s.order.pop_front() {
                    s.events.remove(&old);
                }
            }
        }
        Found { diags, at: self.at(x) }
    }

    /// Ends every exchange still open (the recording stopped first): their end rules run as for
    /// a response cut short. Returns what they found, oldest exchange first.
    pub fn finish(&mut self) -> Vec<Found> {
        let open = std::mem::take(&mut self.open);
        let out = open.into_values().map(|ex| Found { diags: self.end_rules(&ex, None, false), at: ex.at.clone() }).filter(|f| !f.diags.is_empty()).collect();
        self.reset();
        out
    }

    /// The version an exchange is checked as when neither its session nor its header names one.
    pub fn fallback(&self) -> &'static str {
        self.fallback
    }

    /// Forgets everything (a new recording) but its limits and the count of what they made it forget.
    pub fn reset(&mut self) {
        let forgotten = self.forgotten;
        *self = Transport::with_limits(self.noun, self.limits).with_fallback(self.fallback);
        self.forgotten = forgotten;
    }
}

/// The path and query of an `endpoint` event's URI (absolute or relative).
pub(super) fn endpoint_uri(data: &str) -> String {
    let rest = match data.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => data,
    };
    rest.split('#').next().unwrap_or("").trim().to_string()
}

impl Exchange {
    pub(super) fn has_request(&self) -> bool {
        !self.requests.is_empty() || self.has_initialize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_against_hosts() {
        assert!(same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(same_origin("https://Example.com", "example.com"));
        assert!(same_origin("http://example.com", "example.com:80"));
        assert!(same_origin("http://[::1]:3000", "[::1]:3000"));
        assert!(same_origin("http://[::1]", "[::1]"));
        assert!(!same_origin("http://127.0.0.1:3000", "127.0.0.1:8080"));
        assert!(!same_origin("https://example.com", "example.com:80"));
        assert!(!same_origin("http://evil.example", "localhost:8080"));
    }

    #[test]
    fn endpoint_uris() {
        assert_eq!(endpoint_uri("/message?sessionId=a"), "/message?sessionId=a");
        assert_eq!(endpoint_uri("http://h:1/message?sessionId=a#f"), "/message?sessionId=a");
        assert_eq!(endpoint_uri("http://h"), "/");
    }
}
