//! The bridge without I/O: a line from the client or the server goes in; the lines to write to each
//! side, the recording's lines of both legs and a verdict on the line come out.
//!
//! The client's version is what it negotiates with the bridge (its `initialize`, or the `_meta`
//! version of a 2026-07-28 request); the server's is `--to`. Equal versions pass bytes unchanged.
//! Otherwise every message is converted by the generated conversions, and the bridge stands in for
//! what only one side's version has (the lifecycle, `ping`, `server/discover`, the per-request
//! `_meta` keys, input requests: see `input.rs`).

use std::collections::{HashMap, VecDeque};

use bytes::Bytes;
use mcp_spec_types::negotiate::{CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY};
use serde_json::{json, Map, Value};

use super::elide::{self, NotRead};
use super::record::{Counts, Leg, Note, Record, Verdict};
use super::shape::{self, Refusal};
use crate::bounded::{Capped, Weigh};
use crate::vocab::Direction;
use crate::versions::{version_index, Info, VERSIONS};

/// JSON-RPC error codes the bridge answers with.
pub use mcp_spec_types::rpc::{INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};

/// Client lines (and their bytes) held while the bridge initializes the server; past either, the
/// line is refused.
const HELD_MAX: usize = 1024;
const HELD_BYTES: usize = 64 << 20;
/// Requests waiting for an answer per side; past it, the oldest are forgotten (their answers are then dropped).
pub(super) const PENDING_MAX: usize = 4096;
/// The bytes those requests may hold per side (each keeps what it sent for a retry, up to 64 KiB).
const PENDING_BYTES: usize = 64 << 20;

/// What one line gave.
#[derive(Debug, Default)]
pub struct Output {
    pub to_client: Vec<Bytes>,
    /// For each line of `to_client`: whether it answers a request, and of which client exchange.
    pub replies: Vec<Reply>,
    pub to_server: Vec<Bytes>,
    pub records: Vec<Record>,
}

/// What a line for the client is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// The answer to a request of the client exchange given to [`Bridge::from_client_at`] (`None`:
    /// not known, e.g. bytes passed unchanged).
    Answer(Option<u64>),
    /// A request or notification.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Nothing from the client yet.
    Start,
    /// Both legs speak the same version: bytes pass unchanged.
    Same,
    /// The bridge is initializing a server before 2026-07-28 for a 2026-07-28 client.
    Initializing,
    /// The server refused that `initialize`: requests get its error.
    Failed,
    Ready,
}

/// A request sent to the server, by its id there.
#[derive(Debug)]
pub(super) struct Up {
    /// The id the client used; `None` for the bridge's own requests. Upstream, every request
    /// carries an id of the bridge's (two clients, or a client and the bridge, may use the same).
    pub client_id: Option<Value>,
    /// The client exchange that carried it (an HTTP POST), where its answer goes.
    pub tag: Option<u64>,
    pub method: String,
    pub kind: UpKind,
    /// The request as sent (server form), for a retry with input responses.
    pub sent: Value,
    pub rounds: u32,
    /// Input requests of an `InputRequiredResult` (client before 2026-07-28): each key with the
    /// client's answer once given; the `requestState` to send back.
    pub inputs: Vec<(String, Option<Value>)>,
    pub state: Option<String>,
    /// A 2026-07-28 client was told `input_required` and has not retried yet (input.rs).
    pub awaiting_retry: bool,
    /// Server requests for the next round, and the server's final answer if it came first.
    pub queued: Vec<(String, Value)>,
    pub held_answer: Option<Value>,
}

#[derive(Debug, PartialEq)]
pub(super) enum UpKind {
    Forward,
    /// The client's `initialize`, converted (both before 2026-07-28).
    Initialize,
    /// `server/discover` sent to answer the client's `initialize` (server on 2026-07-28).
    Discover,
    /// The bridge's own `initialize` of a server before 2026-07-28 (client on 2026-07-28).
    OwnInitialize,
}

/// A request sent to the client, by its id there.
#[derive(Debug)]
pub(super) enum Down {
    /// A server request passed on (both before 2026-07-28).
    Forward { server_id: Value, method: String },
    /// An input request of an `InputRequiredResult`, asked of a client before 2026-07-28.
    Input { up: String, key: String, method: String },
}

pub struct Bridge {
    pub(super) infos: Vec<Info>,
    /// The server leg's version: `--to`, or what the server answered `initialize` with.
    pub(super) server: usize,
    pub(super) client: Option<usize>,
    /// The first version without `initialize` (2026-07-28).
    pub(super) per_request: usize,
    pub(super) phase: Phase,
    next_id: u64,
    pub(super) up: Capped<String, Up>,
    pub(super) down: Capped<String, Down>,
    held: VecDeque<(Vec<u8>, Option<u64>)>,
    /// The client exchange of the line being read (`None` while a server line is read).
    pub(super) tag: Option<u64>,
    /// The client's capabilities and info in the server's version (client before 2026-07-28 with a 2026-07-28 server).
    pub(super) caps: Value,
    pub(super) client_info: Option<Value>,
    /// The level of the client's `logging/setLevel`, sent in each request's `_meta` to a 2026-07-28 server.
    pub(super) log_level: Option<Value>,
    /// With a 2026-07-28 client: the capabilities the server was initialized with, as the client
    /// declared them, and the server's `initialize` result (for `server/discover`).
    pub(super) init_caps: Option<Value>,
    pub(super) init_result: Option<Value>,
    /// Input request keys handed to a 2026-07-28 client: key -> (the server request's id, its method, the waiting request's key).
    pub(super) keys: HashMap<String, (Value, String, String)>,
    pub counts: Counts,
    /// The buffer the line being read is a slice of, when the caller handed it over: a long line's
    /// recording shares it instead of a copy.
    owner: Option<Bytes>,
}

/// A request id as a map key: its JSON text.
pub(super) fn key(id: &Value) -> String {
    id.to_string()
}

pub(super) fn error_response(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The reason and row of a refusal, as one error message.
pub(super) fn refusal_message(r: &Refusal) -> String {
    match &r.row {
        Some(row) => format!("mcp-schema bridge: {} (CONVERSIONS.md: {row})", r.reason),
        None => format!("mcp-schema bridge: {}", r.reason),
    }
}

impl Bridge {
    /// A bridge whose server speaks `to` (an index into [`VERSIONS`]).
    pub fn new(to: usize) -> Bridge {
        let per_request = VERSIONS.iter().position(|m| m.name == "2026-07-28").unwrap_or(VERSIONS.len());
        Bridge {
            infos: VERSIONS.iter().map(Info::new).collect(),
            server: to,
            client: None,
            per_request,
            phase: Phase::Start,
            next_id: 0,
            up: Capped::new(PENDING_MAX, PENDING_BYTES),
            down: Capped::new(PENDING_MAX, PENDING_BYTES),
            held: VecDeque::new(),
            tag: None,
            caps: json!({}),
            client_info: None,
            log_level: None,
            init_caps: None,
            init_result: None,
            keys: HashMap::new(),
            counts: Counts::default(),
            owner: None,
        }
    }

    /// Nothing of the bridge's own waits to reach the server: no client lines held for the
    /// server's initialization, no input round (2026-07-28 server) waiting for a retry. Once the
    /// client has closed its side, the server's side closes when this holds.
    pub fn settled(&self) -> bool {
        self.phase != Phase::Initializing && self.held.is_empty() && !self.up.iter().any(|(k, _)| k.starts_with("input:"))
    }

    /// The client leg's version, once known.
    pub fn client_version(&self) -> Option<&'static str> {
        self.client.map(|i| VERSIONS[i].name)
    }

    pub fn server_version(&self) -> &'static str {
        VERSIONS[self.server].name
    }

    pub(super) fn is_per_request(&self, v: usize) -> bool {
        v >= self.per_request
    }

    pub(super) fn new_id(&mut self) -> Value {
        self.next_id += 1;
        Value::from(format!("mcp-schema-bridge/{}", self.next_id))
    }

    pub(super) fn track_up(&mut self, id: &Value, mut up: Up) {
        if up.client_id.is_some() && up.tag.is_none() {
            up.tag = self.tag;
        }
        self.up.insert(key(id), up);
    }

    pub(super) fn track_down(&mut self, id: &Value, down: Down) {
        self.down.insert(key(id), down);
    }

    // ---- output helpers: each sent line is also a line of its leg in the recording ----

    #[allow(clippy::too_many_arguments)]
    pub(super) fn note(&mut self, out: &mut Output, leg: Leg, dir: Direction, bytes: &[u8], verdict: Verdict, method: &str, what: String, row: Option<String>) {
        self.note_shared(out, leg, dir, elide::shared(bytes), verdict, method, what, row);
    }

    /// [`Bridge::note`] of bytes the output shares (a line passed unchanged is copied once).
    #[allow(clippy::too_many_arguments)]
    fn note_shared(&mut self, out: &mut Output, leg: Leg, dir: Direction, bytes: Bytes, verdict: Verdict, method: &str, what: String, row: Option<String>) {
        let note = Note { verdict, method: method.to_string(), what, row };
        self.counts.add(&note);
        out.records.push(Record { leg, dir, bytes, note: Some(note) });
    }

    pub(super) fn send_server(&self, out: &mut Output, msg: &Value) {
        let bytes = Bytes::from(elide::to_vec(msg));
        out.records.push(Record { leg: Leg::Server, dir: Direction::ClientToServer, bytes: bytes.clone(), note: None });
        out.to_server.push(bytes);
    }

    /// A message for the client; an answer goes to the exchange of the client line being read.
    pub(super) fn send_client(&self, out: &mut Output, msg: &Value) {
        if msg.get("method").is_none() {
            self.send_answer(out, msg, self.tag);
        } else {
            let bytes = Bytes::from(elide::to_vec(msg));
            out.records.push(Record { leg: Leg::Client, dir: Direction::ServerToClient, bytes: bytes.clone(), note: None });
            out.to_client.push(bytes);
            out.replies.push(Reply::Other);
        }
    }

    /// A message for the client that answers a request of client exchange `tag`.
    pub(super) fn send_answer(&self, out: &mut Output, msg: &Value, tag: Option<u64>) {
        let bytes = Bytes::from(elide::to_vec(msg));
        out.records.push(Record { leg: Leg::Client, dir: Direction::ServerToClient, bytes: bytes.clone(), note: None });
        out.to_client.push(bytes);
        out.replies.push(Reply::Answer(tag));
    }

    // ---- the client's lines ----

    /// A line from the client (without its `\n`).
    pub fn from_client(&mut self, line: &[u8]) -> Output {
        self.from_client_at(line, None)
    }

    /// [`Bridge::from_client_at`] of a line the caller hands over (not copied for the recording).
    pub fn from_client_shared(&mut self, line: Bytes, tag: Option<u64>) -> Output {
        self.owner = Some(line.clone());
        let out = self.from_client_at(&line, tag);
        self.owner = None;
        out
    }

    /// [`Bridge::from_server`] of a line the caller hands over.
    pub fn from_server_shared(&mut self, line: Bytes) -> Output {
        self.owner = Some(line.clone());
        let out = self.from_server(&line);
        self.owner = None;
        out
    }

    /// A line from the client that came in client exchange `tag` (an HTTP POST): the answers to
    /// its requests are marked with it in [`Output::answers`], whatever ids its client chose.
    pub fn from_client_at(&mut self, line: &[u8], tag: Option<u64>) -> Output {
        self.tag = tag;
        let mut out = Output::default();
        let line = trim(line);
        if line.is_empty() {
            return out;
        }
        if self.phase == Phase::Same {
            return self.pass(line, Leg::Client);
        }
        let (mut msg, parts) = match elide::read(line) {
            Ok(m) => m,
            Err(NotRead::Costly(e)) => {
                self.too_costly(&mut out, Leg::Client, line, &e);
                return out;
            }
            Err(NotRead::Invalid(why)) => {
                self.note(&mut out, Leg::Client, Direction::ClientToServer, line, Verdict::Refused, "(not a message)", why.clone(), None);
                let code = if why.starts_with("not JSON") { PARSE_ERROR } else { INVALID_REQUEST };
                self.send_client(&mut out, &error_response(Value::Null, code, format!("mcp-schema bridge: {why}")));
                return out;
            }
        };
        let _parts = elide::Scope::set(parts, line, self.owner.as_ref());
        if self.phase == Phase::Start {
            self.start(&msg);
            if self.phase == Phase::Same {
                return self.pass(line, Leg::Client);
            }
        }
        if self.phase == Phase::Initializing {
            if self.init_caps.is_none() {
                // First line of a 2026-07-28 client: the bridge initializes the server first.
                if !self.whole(&mut msg, Leg::Client, line, &mut out) {
                    return out;
                }
                self.initialize_server(&msg, &mut out);
            }
            if self.held.len() < HELD_MAX && self.held.iter().map(|(l, _)| l.len()).sum::<usize>() + line.len() <= HELD_BYTES {
                self.held.push_back((line.to_vec(), self.tag));
            } else {
                let r = Refusal::new("too many requests while the server is being initialized");
                self.refuse(&mut out, Leg::Client, line, &method_of(&msg), request_id(&msg), r, INTERNAL_ERROR);
            }
            return out;
        }
        self.client_message(line, msg, &mut out);
        out
    }

    /// Decides the client's version from its first message.
    fn start(&mut self, msg: &Map<String, Value>) {
        let method = msg.get("method").and_then(Value::as_str);
        let meta_version = msg.get("params").and_then(|p| p.get("_meta")).and_then(|m| m.get(PROTOCOL_VERSION_META_KEY)).and_then(Value::as_str);
        let server_new = self.is_per_request(self.server);
        let client = if method == Some("initialize") {
            let proposed = msg.get("params").and_then(|p| p.get("protocolVersion")).and_then(Value::as_str).and_then(version_index);
            // An unknown proposal, or one without `initialize`: the newest version that has it.
            Some(proposed.filter(|&v| !self.is_per_request(v)).unwrap_or(self.per_request - 1))
        } else if let Some(v) = meta_version.and_then(version_index).filter(|&v| self.is_per_request(v)) {
            Some(v)
        } else if method == Some("server/discover") {
            Some(self.per_request)
        } else {
            None
        };
        match client {
            Some(c) if c == self.server => {
                self.client = Some(c);
                self.phase = Phase::Same;
            }
            Some(c) => {
                self.client = Some(c);
                self.phase = if self.is_per_request(c) && !server_new { Phase::Initializing } else { Phase::Ready };
            }
            // A client that starts without `initialize` and without a version: as old as the server, or
            // the newest version with `initialize` in front of a 2026-07-28 server.
            None if !server_new => {
                self.client = Some(self.server);
                self.phase = Phase::Same;
            }
            None => {
                self.client = Some(self.per_request - 1);
                self.phase = Phase::Ready;
            }
        }
    }

    /// Unchanged bytes from `leg` to the other side.
    fn pass(&mut self, line: &[u8], from: Leg) -> Output {
        let mut out = Output::default();
        let (dir, to) = match from {
            Leg::Client => (Direction::ClientToServer, Leg::Server),
            Leg::Server => (Direction::ServerToClient, Leg::Client),
        };
        // Its head only: the bytes pass as they are, no tree is needed.
        let head = super::head::Head::of(line);
        let method = match &head {
            Some(h) => match &h.method {
                Some(m) => crate::bounded::clip(m).into_owned(),
                None if h.error.is_some() => "(error)".into(),
                None => "(result)".into(),
            },
            None => "(not a message)".into(),
        };
        let bytes = elide::share(self.owner.as_ref(), line);
        self.note_shared(&mut out, from, dir, bytes.clone(), Verdict::Forwarded, &method, String::new(), None);
        out.records.push(Record { leg: to, dir, bytes: bytes.clone(), note: None });
        match from {
            Leg::Client => out.to_server.push(bytes),
            Leg::Server => {
                out.to_client.push(bytes);
                let answer = head.is_some_and(|h| h.method.is_none() && h.id().is_some());
                out.replies.push(if answer { Reply::Answer(None) } else { Reply::Other });
            }
        }
        out
    }

    /// Refuses a message from `leg`: a request (`id`) gets `code` with the reason and row; anything
    /// else is not passed on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn refuse(&mut self, out: &mut Output, leg: Leg, line: &[u8], method: &str, id: Option<Value>, r: Refusal, code: i64) {
        let dir = if leg == Leg::Client { Direction::ClientToServer } else { Direction::ServerToClient };
        self.note(out, leg, dir, line, Verdict::Refused, method, r.reason.clone(), r.row.clone());
        if let Some(id) = id {
            let answer = error_response(id, code, refusal_message(&r));
            match leg {
                Leg::Client => self.send_client(out, &answer),
                Leg::Server => self.send_server(out, &answer),
            }
        }
    }

    /// The bridge's `initialize` of a server before 2026-07-28, for a 2026-07-28 client whose first
    /// request's `_meta` gives the capabilities and info.
    fn initialize_server(&mut self, first: &Map<String, Value>, out: &mut Output) {
        let client = self.client.unwrap_or(self.per_request);
        let meta = first.get("params").and_then(|p| p.get("_meta"));
        let caps = meta.and_then(|m| m.get(CLIENT_CAPABILITIES_META_KEY)).cloned().unwrap_or_else(|| json!({}));
        let (from, to) = (&self.infos[client], &self.infos[self.server]);
        let server_caps = shape::convert(from, to, "ClientCapabilities", "ClientCapabilities", caps.clone()).unwrap_or_else(|_| json!({}));
        let info = meta.and_then(|m| m.get(CLIENT_INFO_META_KEY)).cloned().and_then(|i| shape::convert(from, to, "Implementation", "Implementation", i).ok());
        let info = info.unwrap_or_else(|| json!({"name": "mcp-schema-bridge", "version": env!("CARGO_PKG_VERSION")}));
        let id = self.new_id();
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"protocolVersion": VERSIONS[self.server].name, "capabilities": server_caps, "clientInfo": info}});
        self.init_caps = Some(caps);
        self.send_server(out, &request);
        self.track_up(&id, Up::own("initialize", UpKind::OwnInitialize, request.clone()));
    }

    /// The server answered the bridge's `initialize`: `notifications/initialized`, then the held lines.
    pub(super) fn server_initialized(&mut self, result: Result<Value, Value>, out: &mut Output) {
        match result {
            Ok(result) => {
                if let Some(v) = result.get("protocolVersion").and_then(Value::as_str).and_then(version_index).filter(|&v| !self.is_per_request(v)) {
                    self.server = v;
                }
                self.init_result = Some(result);
                self.send_server(out, &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
                self.phase = Phase::Ready;
            }
            Err(error) => {
                self.init_result = Some(json!({"error": error}));
                self.phase = Phase::Failed;
            }
        }
        let tag = self.tag;
        while let Some((line, held_tag)) = self.held.pop_front() {
            self.tag = held_tag;
            if let Ok((msg, parts)) = elide::read(&line) {
                let _parts = elide::Scope::set(parts, &line, None);
                self.client_message(&line, msg, out);
            }
        }
        self.tag = tag;
    }

    /// One client message once both legs' versions are known.
    fn client_message(&mut self, line: &[u8], mut msg: Map<String, Value>, out: &mut Output) {
        if self.phase == Phase::Failed {
            let error = self.init_result.as_ref().and_then(|r| r.get("error")).cloned().unwrap_or(Value::Null);
            let r = Refusal::new(format!("the server refused the bridge's `initialize`: {}", crate::bounded::clip(&error.to_string())));
            return self.refuse(out, Leg::Client, line, &method_of(&msg), request_id(&msg), r, INTERNAL_ERROR);
        }
        // What the bridge answers itself or keeps past this line is read whole.
        let kept = match msg.get("method").and_then(Value::as_str) {
            Some(m) => {
                matches!(m, "ping" | "logging/setLevel" | "server/discover" | "initialize" | "notifications/initialized" | "notifications/cancelled")
                    || msg.get("params").and_then(|p| p.get("inputResponses")).is_some()
            }
            None => msg.get("id").is_some_and(|id| matches!(self.down.get(&key(id)), Some(Down::Input { .. }))),
        };
        if kept && !self.whole(&mut msg, Leg::Client, line, out) {
            return;
        }
        if msg.contains_key("method") {
            self.request_or_notification_from_client(line, msg, out);
        } else {
            self.response_from_client(line, msg, out);
        }
    }

    // ---- the server's lines ----

    /// A line from the server (without its `\n`).
    pub fn from_server(&mut self, line: &[u8]) -> Output {
        self.tag = None;
        let mut out = Output::default();
        let line = trim(line);
        if line.is_empty() {
            return out;
        }
        if self.phase == Phase::Same {
            return self.pass(line, Leg::Server);
        }
        let (mut msg, parts) = match elide::read(line) {
            Ok(m) => m,
            Err(NotRead::Costly(e)) => {
                self.too_costly(&mut out, Leg::Server, line, &e);
                return out;
            }
            Err(NotRead::Invalid(why)) => {
                self.note(&mut out, Leg::Server, Direction::ServerToClient, line, Verdict::Dropped, "(not a message)", why, None);
                return out;
            }
        };
        let _parts = elide::Scope::set(parts, line, self.owner.as_ref());
        // What the bridge answers itself or keeps past this line is read whole.
        let (client_new, server_new) = (self.is_per_request(self.client_v()), self.is_per_request(self.server));
        let kept = if msg.contains_key("method") {
            msg.contains_key("id") && client_new && !server_new
        } else {
            let up = msg.get("id").and_then(|id| self.up.get(&key(id)));
            let input = msg.get("result").and_then(|r| r.get("resultType")).and_then(Value::as_str) == Some("input_required");
            up.is_some_and(|u| matches!(u.kind, UpKind::OwnInitialize | UpKind::Discover) || u.awaiting_retry || input)
        };
        if kept && !self.whole(&mut msg, Leg::Server, line, &mut out) {
            return out;
        }
        if msg.contains_key("method") {
            self.request_or_notification_from_server(line, msg, &mut out);
        } else {
            self.response_from_server(line, msg, &mut out);
        }
        out
    }

    /// The request the bridge sent the server as `id` got no answer (the HTTP exchange failed: the
    /// upstream could not be reached, or answered with an HTTP error and no JSON-RPC message): the
    /// client's request gets an error saying why; the bridge's own requests are forgotten.
    pub fn upstream_failed(&mut self, id: &Value, why: &str) -> Output {
        let mut out = Output::default();
        let Some(up) = self.up.remove(&key(id)) else { return out };
        if up.kind == UpKind::OwnInitialize {
            self.server_initialized(Err(json!({"code": INTERNAL_ERROR, "message": why})), &mut out);
        } else if let Some(client_id) = up.client_id {
            self.send_answer(&mut out, &error_response(client_id, INTERNAL_ERROR, format!("mcp-schema bridge: {why}")), up.tag);
        }
        out
    }

    /// The client leg's version index (the server's until known).
    pub(super) fn client_v(&self) -> usize {
        self.client.unwrap_or(self.server)
    }
}

impl Weigh for Up {
    fn weight(&self) -> usize {
        self.client_id.weight() + self.method.len() + self.sent.weight() + self.inputs.weight() + self.state.weight() + self.queued.weight() + self.held_answer.weight()
    }
}

impl Weigh for Down {
    fn weight(&self) -> usize {
        match self {
            Down::Forward { server_id, method } => server_id.weight() + method.len(),
            Down::Input { up, key, method } => up.len() + key.len() + method.len(),
        }
    }
}

impl Up {
    pub(super) fn own(method: &str, kind: UpKind, sent: Value) -> Up {
        Up { client_id: None, tag: None, method: method.to_string(), kind, sent, rounds: 0, inputs: Vec::new(), state: None, awaiting_retry: false, queued: Vec::new(), held_answer: None }
    }

    pub(super) fn forward(client_id: Value, method: &str, kind: UpKind, sent: Value) -> Up {
        Up { client_id: Some(client_id), ..Up::own(method, kind, sent) }
    }
}

/// The line without trailing JSON whitespace and a leading byte order mark.
fn trim(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|b| !b" \t\r\n".contains(b)).map_or(0, |i| i + 1);
    let line = &line[..end];
    line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line)
}

/// The id of a request (not of a response).
pub(super) fn request_id(msg: &Map<String, Value>) -> Option<Value> {
    msg.get("id").filter(|_| msg.contains_key("method")).cloned()
}

/// The method, or `(result)`/`(error)` for a response.
pub(super) fn method_of(msg: &Map<String, Value>) -> String {
    match msg.get("method").and_then(Value::as_str) {
        Some(m) => crate::bounded::clip(m).into_owned(),
        None if msg.contains_key("error") => "(error)".into(),
        None => "(result)".into(),
    }
}
