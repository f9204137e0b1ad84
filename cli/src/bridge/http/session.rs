//! One client session: its [`Bridge`] core, where each line the core gives for the client goes
//! (the POST whose request it answers or belongs to, else the GET stream), and the recording's
//! lines of both legs with their HTTP context. Everything here runs under the session's lock and
//! never waits: the client's streams are bounded queues.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;

use bytes::Bytes;
use hyper::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE, HOST};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::Ctx;
use crate::bridge::record::{on_leg, Item};
use crate::bridge::head::Head;
use crate::bridge::{Bridge, Leg, Output, Record, Reply};
use crate::vocab::Direction;
use crate::proxy::http::record::{end_line, request_line, response_line};
use crate::transport::header;

/// Pieces queued for one client response (a POST's answer, the GET stream).
pub const POST_QUEUE: usize = 1024;
/// Client POSTs waiting for answers per session; past it the oldest is given up (its response ends).
pub const POSTS_MAX: usize = 4096;
/// Messages kept for a client with no GET stream open; past it they are dropped and counted.
pub const GET_BACKLOG: usize = 256;

/// A piece of a client response: the whole JSON body, or one SSE event.
pub enum Piece {
    Json(Bytes),
    Sse(Bytes),
}

impl Piece {
    pub fn bytes(self) -> Bytes {
        match self {
            Piece::Json(b) | Piece::Sse(b) => b,
        }
    }
}

/// A client POST with requests, waiting for their answers.
struct Post {
    tx: mpsc::Sender<Piece>,
    left: usize,
    /// `Some(true)`: answered with JSON; `Some(false)`: an SSE stream; `None`: nothing sent yet.
    json: Option<bool>,
    events: u64,
    bytes: u64,
}

struct GetStream {
    x: u64,
    tx: mpsc::Sender<Piece>,
    events: u64,
    bytes: u64,
}

/// Where the lines the core received came from.
#[derive(Clone, Copy)]
pub enum Origin<'a> {
    /// The body of client POST `x`.
    Client(u64),
    /// Upstream exchange `x`, its JSON body or an SSE event (index, id).
    Upstream(u64, Option<(u64, Option<&'a str>)>),
    /// The bridge itself (an upstream exchange that failed).
    Bridge,
}

/// A message for the upstream, its exchange already numbered and its head recorded.
pub struct Send {
    pub x: u64,
    pub body: Bytes,
    pub headers: HeaderMap,
    /// The request's id, if it is one (to fail it when the exchange does).
    pub id: Option<Value>,
    /// The client POST the upstream's answers belong to.
    pub context: Option<u64>,
    pub initialize: bool,
}

pub struct Session {
    pub stream: u64,
    /// The `Mcp-Session-Id` given to the client (`None`: the stateless 2026-07-28 bridge).
    pub id: Option<String>,
    pub bridge: Bridge,
    pub upstream_session: Option<String>,
    pub upstream_get: bool,
    /// The POSTs waiting for answers: the core marks each answer with the POST of its request
    /// (whatever id its client chose: stateless clients all start at 0 or 1).
    posts: HashMap<u64, Post>,
    get: Option<GetStream>,
    backlog: VecDeque<(Bytes, Record)>,
    /// Messages for the upstream, sent in this order by the session's sender (upstream.rs).
    pub outbox: Option<mpsc::Sender<Send>>,
    /// The exchanges of client lines the core holds while it initializes the upstream, oldest
    /// first (the core lets them go in this order): their recording lines keep their exchange.
    held: VecDeque<u64>,
}

/// Exchanges of held client lines remembered (the core holds at most as many lines).
const HELD_MAX: usize = 1024;

fn http_line(x: u64, part: &str, event: Option<(u64, Option<&str>)>) -> Value {
    let mut o = json!({"x": x, "part": part});
    if let Some((i, id)) = event {
        o["event"] = json!(i);
        if let Some(id) = id {
            o["eventId"] = json!(id);
        }
    }
    o
}

pub fn sse_event(msg: &[u8]) -> Bytes {
    let mut b = Vec::with_capacity(msg.len() + 24);
    b.extend_from_slice(b"event: message\ndata: ");
    b.extend_from_slice(msg);
    b.extend_from_slice(b"\n\n");
    Bytes::from(b)
}

impl Session {
    pub fn new(ctx: &Ctx, id: Option<String>) -> Session {
        let stream = ctx.next_stream.fetch_add(1, Ordering::Relaxed);
        Session { stream, id, bridge: Bridge::new(ctx.to), upstream_session: None, upstream_get: false, posts: HashMap::new(), get: None, backlog: VecDeque::new(), outbox: None, held: VecDeque::new() }
    }

    /// Queues `r` for the recording (its line made on the recorder's thread, in its message's
    /// buffer when nothing else holds it by then).
    fn record(&self, ctx: &Ctx, r: Record, http: Option<&Value>) {
        let checked = serde_json::from_slice::<serde::de::IgnoredAny>(&r.bytes).is_ok();
        ctx.rec.offer(Item::Record { record: Box::new(r), http: http.cloned(), stream: checked.then_some(self.stream) });
    }

    /// A client POST with these request ids: its answer waits on the returned queue. A batch is
    /// answered with an SSE stream (a JSON answer to a batch would have to be an array).
    pub fn open_post(&mut self, x: u64, requests: usize, batch: bool) -> mpsc::Receiver<Piece> {
        let (tx, rx) = mpsc::channel(POST_QUEUE);
        if self.posts.len() >= POSTS_MAX {
            // The oldest waits no longer: its client's response ends.
            if let Some(oldest) = self.posts.keys().min().copied() {
                self.posts.remove(&oldest);
            }
        }
        self.posts.insert(x, Post { tx, left: requests, json: batch.then_some(false), events: 0, bytes: 0 });
        rx
    }

    /// A GET stream for the client: what waited for it goes first.
    pub fn open_get(&mut self, ctx: &Ctx, x: u64) -> Option<mpsc::Receiver<Piece>> {
        if self.get.as_ref().is_some_and(|g| !g.tx.is_closed()) {
            return None;
        }
        let (tx, rx) = mpsc::channel(POST_QUEUE);
        self.get = Some(GetStream { x, tx, events: 0, bytes: 0 });
        for (line, r) in std::mem::take(&mut self.backlog) {
            self.for_get(ctx, line, r);
        }
        Some(rx)
    }

    /// The session is over: its streams close; what waited for a GET stream is recorded undelivered.
    pub fn close(&mut self, ctx: &Ctx) {
        self.posts.clear();
        self.get = None;
        self.outbox = None;
        for (_, r) in std::mem::take(&mut self.backlog) {
            self.record(ctx, r, None);
        }
    }

    pub fn client_headers(&self, json: bool) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, HeaderValue::from_static(if json { "application/json" } else { "text/event-stream" }));
        if let Some(v) = self.id.as_deref().and_then(|s| HeaderValue::from_str(s).ok()) {
            h.insert(header::SESSION_ID, v);
        }
        h
    }

    /// The core's output: each line the core received recorded where it came from, each line for
    /// the client routed, each line for the upstream numbered and queued to be sent in order.
    pub fn deliver(&mut self, ctx: &Ctx, out: Output, origin: Origin, context: Option<u64>) {
        let mut to_client = out.to_client.into_iter().zip(out.replies);
        let mut to_server = out.to_server.into_iter();
        let mut client_line_recorded = false;
        for r in out.records {
            match (&r.note, r.leg, r.dir) {
                (Some(_), leg, _) => {
                    let http = match (origin, leg) {
                        (Origin::Client(x), Leg::Client) => {
                            client_line_recorded = true;
                            Some(http_line(x, "request", None))
                        }
                        (Origin::Upstream(x, event), Leg::Server) => Some(http_line(x, "response", event)),
                        // A client line the core held while it initialized the upstream, let go now.
                        (_, Leg::Client) => self.held.pop_front().map(|x| http_line(x, "request", None)),
                        _ => None,
                    };
                    self.record(ctx, r, http.as_ref());
                }
                (None, Leg::Client, Direction::ServerToClient) => {
                    if let Some((line, reply)) = to_client.next() {
                        self.route(ctx, line, reply, r, context);
                    }
                }
                (None, Leg::Server, Direction::ClientToServer) => {
                    if let Some(body) = to_server.next() {
                        let x = ctx.x();
                        // The head only (method, id, the mirrored parameters): no second tree of the message.
                        let head = Head::of(&body).unwrap_or_default();
                        let method = head.method.as_deref();
                        let headers = self.upstream_headers(ctx, Some(&head));
                        let path = ctx.url.path().to_string();
                        ctx.rec.offer(on_leg(request_line(x, "POST", &path, ctx.url.query(), &headers), Leg::Server));
                        self.record(ctx, r, Some(&http_line(x, "request", None)));
                        let id = head.id().filter(|_| method.is_some());
                        let send = Send { x, body, headers, id: id.clone(), context, initialize: method == Some("initialize") };
                        if self.outbox.as_ref().is_none_or(|o| o.try_send(send).is_err()) {
                            ctx.rec.offer(on_leg(end_line(x, 0, Some("not sent: the session has ended, or too many messages wait for the upstream")), Leg::Server));
                            if let Some(id) = id {
                                let out = self.bridge.upstream_failed(&id, "too many messages wait for the upstream");
                                self.deliver(ctx, out, Origin::Bridge, context);
                            }
                        }
                    }
                }
                _ => self.record(ctx, r, None),
            }
        }
        if let (Origin::Client(x), false) = (origin, client_line_recorded) {
            if self.held.len() < HELD_MAX {
                self.held.push_back(x);
            }
        }
    }

    /// The headers of a request to the upstream: its session and, once negotiated (2025-06-18 and
    /// later), its version; to 2026-07-28, those that mirror the message (`Mcp-Method`, `Mcp-Name`).
    pub fn upstream_headers(&self, ctx: &Ctx, msg: Option<&Head>) -> HeaderMap {
        let method = msg.and_then(|m| m.method.as_deref());
        let initialize = method == Some("initialize");
        let mut h = HeaderMap::new();
        h.insert(ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
        h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Ok(v) = HeaderValue::from_str(&ctx.authority) {
            h.insert(HOST, v);
        }
        if let Some(v) = self.upstream_session.as_deref().and_then(|s| HeaderValue::from_str(s).ok()) {
            h.insert(header::SESSION_ID, v);
        }
        let version = self.bridge.server_version();
        if !initialize && version >= "2025-06-18" {
            h.insert(header::PROTOCOL_VERSION, HeaderValue::from_static(version));
        }
        if let (Some(method), true) = (method, version >= "2026-07-28") {
            let name = header::name_param(method).and_then(|key| msg?.param(key));
            for (header, value) in [(header::METHOD, Some(method)), (header::NAME, name.as_deref())] {
                if let Some(v) = value.and_then(|v| HeaderValue::from_str(&mirror(v)).ok()) {
                    h.insert(header, v);
                }
            }
        }
        h
    }

    /// A line for the client: to the POST its answer belongs to, else the POST the upstream
    /// exchange answered (`context`), else the GET stream.
    fn route(&mut self, ctx: &Ctx, line: Bytes, reply: Reply, r: Record, context: Option<u64>) {
        let answer = matches!(reply, Reply::Answer(_));
        let post = match reply {
            Reply::Answer(Some(x)) => Some(x),
            Reply::Answer(None) | Reply::Other => context.filter(|x| self.posts.contains_key(x)),
        };
        let Some(x) = post else { return self.for_get(ctx, line, r) };
        let Some(p) = self.posts.get_mut(&x) else { return self.for_get(ctx, line, r) };
        let first = p.events == 0 && p.bytes == 0;
        let json = *p.json.get_or_insert(answer && p.left == 1);
        if answer {
            p.left = p.left.saturating_sub(1);
        }
        let (piece, http) = if json {
            (Piece::Json(line), http_line(x, "response", None))
        } else {
            p.events += 1;
            let event = sse_event(&line);
            // The record's handle is then the message's last: its recording line is made in it.
            drop(line);
            (Piece::Sse(event), http_line(x, "response", Some((p.events - 1, None))))
        };
        let size = match &piece {
            Piece::Json(b) | Piece::Sse(b) => b.len() as u64,
        };
        p.bytes += size;
        let (left, bytes) = (p.left, p.bytes);
        let sent = p.tx.try_send(piece).is_ok();
        if first {
            ctx.rec.offer(on_leg(response_line(x, 200, &self.client_headers(json)), Leg::Client));
        }
        self.record(ctx, r, Some(&http));
        if left == 0 {
            self.posts.remove(&x);
            let why = (!sent).then_some("the client went away, or its stream was full");
            ctx.rec.offer(on_leg(end_line(x, bytes, why), Leg::Client));
        }
    }

    fn for_get(&mut self, ctx: &Ctx, line: Bytes, r: Record) {
        if let Some(g) = &mut self.get {
            let piece = Piece::Sse(sse_event(&line));
            let size = piece_len(&piece);
            match g.tx.try_send(piece) {
                Ok(()) => {
                    drop(line);
                    g.events += 1;
                    g.bytes += size;
                    let http = http_line(g.x, "response", Some((g.events - 1, None)));
                    return self.record(ctx, r, Some(&http));
                }
                // A client that does not read its stream loses what does not fit.
                Err(mpsc::error::TrySendError::Full(_)) => {
                    ctx.dropped.fetch_add(1, Ordering::Relaxed);
                    return self.record(ctx, r, None);
                }
                Err(mpsc::error::TrySendError::Closed(_)) => {}
            }
            // Gone: later lines wait for the next GET.
            let (x, bytes) = (g.x, g.bytes);
            self.get = None;
            ctx.rec.offer(on_leg(end_line(x, bytes, Some("the client went away")), Leg::Client));
        }
        if self.backlog.len() < GET_BACKLOG {
            self.backlog.push_back((line, r));
        } else {
            ctx.dropped.fetch_add(1, Ordering::Relaxed);
            self.record(ctx, r, None);
        }
    }

    /// The GET stream ended (the client went away): its end line.
    pub fn get_ended(&mut self, ctx: &Ctx, x: u64) {
        if let Some(g) = self.get.take_if(|g| g.x == x) {
            ctx.rec.offer(on_leg(end_line(g.x, g.bytes, Some("the client went away")), Leg::Client));
        }
    }
}

/// A value as a mirroring header carries it (2026-07-28): the engine's client writes it the same way.
pub use mcp_spec_engine::http::client::header_value as mirror;

fn piece_len(p: &Piece) -> u64 {
    match p {
        Piece::Json(b) | Piece::Sse(b) => b.len() as u64,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn mirrored_values_are_plain_or_base64() {
        assert_eq!(super::mirror("echo"), "echo");
        assert_eq!(super::mirror("file:///a b"), "file:///a b");
        assert_eq!(super::mirror("ü"), "=?base64?w7w=?=");
        assert_eq!(super::mirror(" x"), "=?base64?IHg=?=");
        assert_eq!(super::mirror("=?base64?x?="), "=?base64?PT9iYXNlNjQ/eD89?=");
    }
}
