//! Streamable HTTP for servers: [`McpService`], the engine's [`Server`] behind a
//! `tower_service::Service<http::Request<B>>`. Mount it in axum with
//! `Router::new().route_service("/mcp", service)`, or serve it alone with [`serve`].
//!
//! ```no_run
//! # #[cfg(feature = "v2025-11-25")]
//! # async fn run() -> std::io::Result<()> {
//! use mcp_spec_engine::http::server::{serve, McpService};
//! use mcp_spec_engine::ServerInfo;
//! use serde_json::json;
//!
//! let info = ServerInfo::new("demo", "0.1.0").capabilities(&json!({"tools": {}})).unwrap();
//! let service = McpService::new(info, |request: mcp_spec_engine::Request, _cx| async move {
//!     match request.method.as_str() {
//!         "tools/list" => Some(Ok(json!({"tools": []}))),
//!         _ => None, // -32601
//!     }
//! });
//! serve(tokio::net::TcpListener::bind("127.0.0.1:8808").await?, service).await
//! # }
//! ```
//!
//! What the transport asks of a server, done here:
//! - **Sessions** (2025-03-26 to 2025-11-25): the engine answers `initialize`, and a successful
//!   answer carries a new `Mcp-Session-Id`; every later request needs it (400 without, 404 for
//!   an unknown or ended one); DELETE ends it. At most [`Options::max_sessions`]: past that, the
//!   least recently used one ends.
//! - **Streams**: a POST that carries requests is answered with an SSE stream: their progress,
//!   log messages and server requests (sampling, elicitation), then their answers, then it
//!   closes. A POST of notifications or answers only is 202. What the engine answers itself
//!   (`initialize`, `ping`, `logging/setLevel`, an invalid request) is a JSON response. GET
//!   opens the session's stream, for the lines that belong to no request (`Server::notify`,
//!   `Server::log`).
//! - **Resumption**: from 2025-11-25 on, each stream starts with a priming event (an id, empty
//!   data and `retry`); every event has an id (`<stream>-<n>`), and a GET with `Last-Event-ID`
//!   resumes that stream after it, from the last [`Options::max_events`] events of the stream. A
//!   connection that does not read its events as fast as they come is closed, to be resumed.
//! - **Origin**: a request whose `Origin` is not a loopback one (`http://localhost:…`,
//!   `127.0.0.1`, `[::1]`) nor in [`Options::allowed_origins`] is 403 (DNS rebinding); with
//!   [`Options::allowed_hosts`], so is one whose `Host` is not a loopback or listed one.
//! - **`MCP-Protocol-Version`**: a session's request that names no known version is 400; without a session (2026-07-28), the header must name the version of the
//!   request's `_meta` (-32020, 400).
//! - **2026-07-28**: a POST without a session that is not an `initialize` is one request on its
//!   own ([`Server::stateless`]): version and capabilities from its `_meta`, `server/discover`
//!   answered by the engine, results completed, `InputRequiredResult` through
//!   [`RequestContext::respond_input_required`]; `subscriptions/listen` opens a stream the
//!   service keeps, acknowledged with what the server's capabilities support of its filter, for
//!   the changes [`McpService::publish`] announces.
//! - **Batches** in a 2025-03-26 session (the engine reads them); their answers share the stream.
//! - **JSON answers**: a POST of one request whose answer is the first line written for it gets
//!   it as JSON ([`Options::json_answers`]), with 2026-07-28's statuses without a session (404
//!   for -32601, 400 for another error).
//! - **Bounds**: bodies ([`Options::max_body`], 413), sessions, events kept per stream, ended
//!   streams kept per session, connections of [`serve`]; requests in flight per session are the
//!   engine's ([`Config`]).

mod context;
mod listen;
mod respond;
mod session;
#[cfg(all(test, feature = "v2025-11-25", feature = "v2026-07-28"))]
mod tests;

pub use context::{RequestContext, ServerRequestError};
pub use listen::{Change, SUBSCRIPTION_ID_META_KEY};

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Limited};
use hyper::body::Body;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::{Config, Request, Server, ServerInfo};
use context::Answerer;
use mcp_spec_types::negotiate::PROTOCOL_VERSION_META_KEY;
use mcp_spec_types::rpc::METHOD_NOT_FOUND;
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::tree::{Doc, Node};
use respond::{accepts, answer_or_stream, batch, host_allowed, json, origin_allowed, plain, sse, status_of, too_large, Reply};
use session::Session;
use super::header::{LAST_EVENT_ID, PROTOCOL_VERSION};

/// The body of every response of [`McpService`].
pub type ResponseBody = BoxBody<Bytes, Infallible>;

/// The session header.
pub use super::header::SESSION_ID;
/// The 2026-07-28 error for an `MCP-Protocol-Version` header that differs from the request's `_meta`.
pub use mcp_spec_types::v2026_07_28::HEADER_MISMATCH;

/// The service's bounds and checks. Every table is bounded; the defaults suit a server on one
/// machine.
#[derive(Debug, Clone)]
pub struct Options {
    /// Each session's engine (requests in flight, their bytes, ids).
    pub config: Config,
    /// Origins allowed besides loopback ones, as the browser sends them (`https://app.example`);
    /// `"*"` allows any (default: none).
    pub allowed_origins: Vec<String>,
    /// `Some`: a request's `Host` must name a loopback address or one of these hosts (without
    /// the port), else 403 — for a server on a loopback address, where a DNS-rebinding page's
    /// requests name the attacker's host, with no `Origin` on a same-origin GET. `None` (the
    /// default): any `Host`, as behind a reverse proxy.
    pub allowed_hosts: Option<Vec<String>>,
    /// Sessions kept at once (default 1024); one more ends the least recently used.
    pub max_sessions: usize,
    /// The largest POST body, in bytes (default 4 MiB); a larger one is 413.
    pub max_body: usize,
    /// Events kept per stream for resumption (default 256), also the most a connection may lag
    /// behind before it is closed.
    pub max_events: usize,
    /// Streams kept per session after their requests are answered, for resumption (default 64).
    pub keep_ended_streams: usize,
    /// The `retry` of priming events, ms (default 1000).
    pub retry_ms: u64,
    /// How long [`RequestContext::request`] waits for the client's answer (default 60 s).
    pub request_timeout: Duration,
    /// Open `subscriptions/listen` streams (2026-07-28; default 1024): one more ends the oldest.
    pub max_listeners: usize,
    /// A POST of one request whose answer is the first line written for it gets that answer as
    /// JSON, not as a stream of one event (default: on). The response head then waits for that
    /// first line; off, every request gets a stream at once (with its priming event).
    pub json_answers: bool,
    /// Sees every message read (`"c2s"`) and written (`"s2c"`) on a session or request stream,
    /// with the session's version (`None` without a session): a recording, a validator.
    pub record: Option<Recorder>,
}

/// A function [`Options::record`] calls with `(direction, session version, line)`.
#[derive(Clone)]
pub struct Recorder(pub Arc<RecordFn>);

/// What a [`Recorder`] calls.
pub type RecordFn = dyn Fn(&str, Option<&str>, &[u8]) + Send + Sync;

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("Recorder")
    }
}

impl Default for Options {
    fn default() -> Self {
        Options { config: Config::default(), allowed_origins: Vec::new(), allowed_hosts: None, max_sessions: 1024, max_body: 4 << 20, max_events: 256, keep_ended_streams: 64, retry_ms: 1000, request_timeout: Duration::from_secs(60), max_listeners: 1024, json_answers: true, record: None }
    }
}

/// What answers the requests the engine hands the application: an `async` function of the
/// request and its [`RequestContext`] (any closure `Fn(Request, RequestContext) -> impl Future`
/// whose output is an [`IntoAnswer`]). Each request runs in a task of its own.
pub trait Handler: Send + Sync + 'static {
    fn handle(&self, request: Request, cx: RequestContext) -> Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send>>;
}

impl<F, Fut> Handler for F
where
    F: Fn(Request, RequestContext) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoAnswer,
{
    fn handle(&self, request: Request, cx: RequestContext) -> Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send>> {
        let method = request.method.clone();
        let answer = self(request, cx);
        Box::pin(async move { answer.await.into_answer(&method) })
    }
}

/// A handler's output: a result or an error, or `None` for a method it does not handle
/// (-32601), as [`tools::Router::handle`](crate::tools) returns.
pub trait IntoAnswer {
    fn into_answer(self, method: &str) -> Result<Value, RpcError>;
}

impl IntoAnswer for Result<Value, RpcError> {
    fn into_answer(self, _: &str) -> Result<Value, RpcError> {
        self
    }
}

impl IntoAnswer for Option<Result<Value, RpcError>> {
    fn into_answer(self, method: &str) -> Result<Value, RpcError> {
        self.unwrap_or_else(|| Err(RpcError { code: METHOD_NOT_FOUND, message: format!("Method not found: {method}"), data: None }))
    }
}

/// The Streamable HTTP endpoint: a `tower_service::Service` (and `Clone`: clones share the
/// sessions). See the [module docs](self).
pub struct McpService<H> {
    shared: Arc<Shared<H>>,
}

impl<H> Clone for McpService<H> {
    fn clone(&self) -> Self {
        McpService { shared: self.shared.clone() }
    }
}

struct Shared<H> {
    info: ServerInfo,
    options: Options,
    handler: H,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    listeners: Mutex<listen::Listeners>,
    clock: AtomicU64,
    ids: std::collections::hash_map::RandomState,
}

impl<H: Handler> McpService<H> {
    /// A service whose engines answer `initialize` and `server/discover` from `info` (its
    /// `versions`: list `"2026-07-28"` to serve requests without a session too) and hand every
    /// other request to `handler`.
    pub fn new(info: ServerInfo, handler: H) -> Self {
        McpService::with_options(info, Options::default(), handler)
    }

    pub fn with_options(info: ServerInfo, options: Options, handler: H) -> Self {
        let listeners = Mutex::new(listen::Listeners::new(options.max_listeners));
        let shared = Shared { info, options, handler, sessions: Mutex::default(), listeners, clock: AtomicU64::new(0), ids: Default::default() };
        McpService { shared: Arc::new(shared) }
    }

    /// Sessions open now.
    pub fn sessions(&self) -> usize {
        self.shared.sessions.lock().map_or(0, |s| s.len())
    }

    /// Tells the open `subscriptions/listen` streams (2026-07-28 clients) of `change`, each that
    /// opted in to it; returns how many. Sessions hear of changes through their engines
    /// ([`for_each_session`](Self::for_each_session) with `Server::notify`).
    pub fn publish(&self, change: &Change) -> usize {
        self.shared.listeners.lock().map_or(0, |mut l| l.publish(change))
    }

    /// Runs `f` on each session's engine (e.g. `Server::notify` of a list change), then writes
    /// what it queued on the sessions' GET streams.
    pub fn for_each_session(&self, mut f: impl FnMut(&mut Server)) {
        let sessions: Vec<_> = self.shared.sessions.lock().map(|s| s.values().cloned().collect()).unwrap_or_default();
        for session in sessions {
            let mut state = session.lock();
            f(&mut state.engine);
            state.flush();
        }
    }
}

impl<H, B> tower_service::Service<hyper::Request<B>> for McpService<H>
where
    H: Handler,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    type Response = hyper::Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: hyper::Request<B>) -> Self::Future {
        let shared = self.shared.clone();
        Box::pin(async move { Ok(shared.route(request).await) })
    }
}

impl<H: Handler> Shared<H> {
    async fn route<B>(self: Arc<Self>, request: hyper::Request<B>) -> hyper::Response<ResponseBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        if !origin_allowed(request.headers(), &self.options.allowed_origins) {
            return plain(StatusCode::FORBIDDEN, "Origin not allowed");
        }
        if self.options.allowed_hosts.as_ref().is_some_and(|hosts| !host_allowed(request.headers(), hosts)) {
            return plain(StatusCode::FORBIDDEN, "Host not allowed");
        }
        match *request.method() {
            Method::POST => self.post(request).await,
            Method::GET => self.get(request.headers()),
            Method::DELETE => self.delete(request.headers()),
            _ => {
                let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "use POST, GET or DELETE");
                response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
                response
            }
        }
    }

    async fn post<B>(self: Arc<Self>, request: hyper::Request<B>) -> hyper::Response<ResponseBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let (parts, body) = request.into_parts();
        let declared = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.options.max_body as u64) {
            return too_large();
        }
        let body = match Limited::new(body, self.options.max_body).collect().await {
            Ok(body) => body.to_bytes(),
            Err(e) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
            Err(_) => return plain(StatusCode::BAD_REQUEST, "unreadable body"),
        };
        let session = match self.session_of(&parts.headers) {
            Ok(Some(session)) => session,
            Ok(None) => match self.new_session(&parts.headers, &body) {
                Ok(session) => session,
                Err(response) => return *response,
            },
            Err(response) => return *response,
        };
        match self.dispatch(&session, &body) {
            Ok((events, true, stateless)) => answer_or_stream(&session, events, stateless).await,
            Ok((events, false, _)) => sse(events),
            Err(response) => *response,
        }
    }

    /// Hands the body to the session's engine and starts a task per request: the response when
    /// it is known at once, else the stream of the POST, whether it may become a JSON answer, and
    /// whether the request has no session.
    fn dispatch(self: &Arc<Self>, session: &Arc<Session>, body: &[u8]) -> Result<(mpsc::Receiver<Bytes>, bool, bool), Box<Reply>> {
        let mut state = session.lock();
        let Ok(posted) = state.post(body) else {
            return Err(Box::new(plain(StatusCode::SERVICE_UNAVAILABLE, "the session's queues are full")));
        };
        let stateless = session.id.get().is_none() && !state.engine.is_initialized();
        let new_id = (session.id.get().is_none() && state.engine.is_initialized()).then(|| self.register(session));
        if posted.requests.is_empty() {
            drop(state);
            let mut response = match &posted.answers[..] {
                // A notification or answer the engine could not use is not accepted.
                [] if posted.dropped => plain(StatusCode::BAD_REQUEST, "the message was not accepted"),
                [] => plain(StatusCode::ACCEPTED, ""),
                [line] => json(status_of(line, stateless), line.clone()),
                lines => json(StatusCode::OK, batch(lines)),
            };
            if let Some(id) = new_id.and_then(|id| HeaderValue::from_str(&id).ok()) {
                response.headers_mut().insert(SESSION_ID, id);
            }
            return Err(Box::new(response));
        }
        if stateless && posted.requests.len() == 1 && posted.requests[0].method == "subscriptions/listen" {
            // Answered only when the subscription ends: the stream is the service's to keep.
            let Ok(mut listeners) = self.listeners.lock() else { return Err(Box::new(plain(StatusCode::SERVICE_UNAVAILABLE, ""))) };
            return Err(Box::new(sse(listeners.listen(&posted.requests[0], &self.info.capabilities, self.options.retry_ms, self.options.max_events))));
        }
        let single = self.options.json_answers && posted.requests.len() == 1 && posted.answers.is_empty();
        let events = state.open_stream(&posted.requests, posted.answers);
        let contexts: Vec<_> = posted.requests.iter().map(|r| (state.cancelled.get(&r.id).cloned().unwrap_or_default(), r)).map(|(flag, r)| RequestContext::new(session.clone(), r, flag, self.options.request_timeout)).collect();
        drop(state);
        for (request, cx) in posted.requests.into_iter().zip(contexts) {
            let shared = self.clone();
            tokio::spawn(async move {
                let mut answerer = Answerer(Some(cx.clone()));
                let answer = shared.handler.handle(request, cx).await;
                if let Some(cx) = answerer.0.take() {
                    cx.finish(answer);
                }
            });
        }
        Ok((events, single, stateless))
    }

    fn get(&self, headers: &HeaderMap) -> hyper::Response<ResponseBody> {
        let session = match self.session_of(headers) {
            Ok(Some(session)) => session,
            Ok(None) => return plain(StatusCode::BAD_REQUEST, "missing Mcp-Session-Id"),
            Err(response) => return *response,
        };
        if !accepts(headers, "text/event-stream") {
            return plain(StatusCode::NOT_ACCEPTABLE, "GET opens a text/event-stream");
        }
        let last_event_id = headers.get(LAST_EVENT_ID).and_then(|v| v.to_str().ok());
        match session.lock().attach(last_event_id) {
            Some(events) => sse(events),
            None => plain(StatusCode::NOT_FOUND, "no such stream"),
        }
    }

    fn delete(&self, headers: &HeaderMap) -> hyper::Response<ResponseBody> {
        match self.session_of(headers) {
            Ok(Some(session)) => {
                if let Some(id) = session.id.get() {
                    self.sessions.lock().map(|mut s| s.remove(id)).ok();
                }
                session.lock().end();
                plain(StatusCode::OK, "")
            }
            Ok(None) => plain(StatusCode::BAD_REQUEST, "missing Mcp-Session-Id"),
            Err(response) => *response,
        }
    }

    /// The session the request names: `Ok(None)` when it names none, 404 for an unknown one, 400
    /// for an `MCP-Protocol-Version` that is not the session's.
    fn session_of(&self, headers: &HeaderMap) -> Result<Option<Arc<Session>>, Box<Reply>> {
        let Some(id) = headers.get(SESSION_ID) else { return Ok(None) };
        let found = id.to_str().ok().and_then(|id| self.sessions.lock().ok()?.get(id).cloned());
        let Some(session) = found else { return Err(Box::new(plain(StatusCode::NOT_FOUND, "no such session"))) };
        session.last_used.store(self.clock.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        let asked = headers.get(PROTOCOL_VERSION).and_then(|v| v.to_str().ok());
        // A version no spec names is 400; another known one than the session's is let through
        // (clients send the one they first tried, and the conformance suite sends 2025-03-26).
        if asked.is_some_and(|v| mcp_spec_types::negotiate::lifecycle(v).is_none()) {
            return Err(Box::new(plain(StatusCode::BAD_REQUEST, "MCP-Protocol-Version names no protocol version")));
        }
        Ok(Some(session))
    }

    /// A POST without a session: an `initialize` starts one (registered once answered), anything
    /// else is a 2026-07-28 request on its own, if the server serves that version.
    /// The body is read here as a tree, for its method and `_meta` (the engine reads it again).
    fn new_session(&self, headers: &HeaderMap, body: &[u8]) -> Result<Arc<Session>, Box<Reply>> {
        let doc = Doc::parse_slice(body).ok();
        let message = doc.as_ref().map(Doc::root);
        let meta_version = message.and_then(|m| m.pointer("/params/_meta")).and_then(|m| m.get(PROTOCOL_VERSION_META_KEY)).and_then(Node::as_str);
        let initialize = message.and_then(|m| m.get("method")).and_then(Node::as_str) == Some("initialize") && meta_version.is_none();
        if initialize {
            let engine = Server::with_info(self.options.config.clone(), self.info.clone());
            return Ok(Arc::new(Session::new(engine, false, &self.options)));
        }
        if self.info.per_request_versions().is_empty() {
            return Err(Box::new(plain(StatusCode::BAD_REQUEST, "missing Mcp-Session-Id")));
        }
        let header = headers.get(PROTOCOL_VERSION).and_then(|v| v.to_str().ok());
        if let Some(meta) = meta_version.filter(|meta| header != Some(*meta)) {
            let message_text = format!("Header mismatch: MCP-Protocol-Version is {header:?}, params._meta names {meta:?}");
            let answer = serde_json::json!({"jsonrpc": "2.0", "id": message.and_then(|m| m.get("id")).map(Node::to_value), "error": {"code": HEADER_MISMATCH, "message": message_text}});
            let line = answer.to_string().into_bytes();
            if let Some(record) = &self.options.record {
                (record.0)("s2c", None, &line);
            }
            return Err(Box::new(json(StatusCode::BAD_REQUEST, line)));
        }
        let engine = Server::stateless(self.options.config.clone(), self.info.clone());
        Ok(Arc::new(Session::new(engine, true, &self.options)))
    }

    /// Gives an initialized session its id; past [`Options::max_sessions`], the least recently
    /// used one ends (the spec lets a server end a session at any time: its id is then 404).
    fn register(&self, session: &Arc<Session>) -> String {
        let mut hasher = self.ids.build_hasher();
        hasher.write_u64(self.clock.fetch_add(1, Ordering::Relaxed));
        let high = hasher.finish();
        hasher.write_u64(high);
        let id = format!("{high:016x}{:016x}", hasher.finish());
        let _ = session.id.set(id.clone());
        session.last_used.store(self.clock.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        let Ok(mut sessions) = self.sessions.lock() else { return id };
        if sessions.len() >= self.options.max_sessions.max(1) {
            let oldest = sessions.iter().min_by_key(|(_, s)| s.last_used.load(Ordering::Relaxed)).map(|(id, _)| id.clone());
            if let Some(ended) = oldest.and_then(|id| sessions.remove(&id)) {
                // Its lock is taken after the table's, never the other way round.
                ended.lock().end();
            }
        }
        sessions.insert(id.clone(), session.clone());
        id
    }
}

/// Connections [`serve`] keeps at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 1024;

/// Serves `service` on every connection `listener` accepts (HTTP/1.1, any path), at most
/// [`MAX_CONNECTIONS`] at once. Returns only if accepting fails. `service` is an [`McpService`],
/// or one wrapped in a `tower` layer (a checking guard, a counter).
pub async fn serve<S, RB>(listener: tokio::net::TcpListener, service: S) -> std::io::Result<()>
where
    S: tower_service::Service<hyper::Request<hyper::body::Incoming>, Response = hyper::Response<RB>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    RB: Body<Data = Bytes> + Send + 'static,
    RB::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let room = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(permit) = room.clone().acquire_owned().await else { return Ok(()) };
        let (tcp, _) = listener.accept().await?;
        // An SSE answer goes out as several small writes (priming event, data, end of body): without
        // this each waits for the client's delayed ACK.
        let _ = tcp.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| tower_service::Service::call(&mut service.clone(), request));
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(tcp), service).await;
            drop(permit);
        });
    }
}
