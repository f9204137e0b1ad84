//! [`GuardLayer`] and the service it makes, [`Guard`]: each request's body read within its limit,
//! parsed once, checked on its session's stream, refused (enforce mode) or handed on, and its
//! response tapped ([`crate::tap`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http::{header, HeaderValue, Method, Request, Response, StatusCode};
use http_body::Body;
use mcp_spec_check::transport::header as mcp;
use mcp_spec_types::tree::{Doc, Node};
use mcp_spec_types::validate::Severity;
use tracing::Span;

use crate::answer::refuse;
use crate::body::{Forward, GuardBody};
use crate::config::{Config, Mode};
use crate::inspect::{Checks, Direction, Finding, RequestHead};
use crate::sessions::{Sessions, StreamRef};
use crate::shared::{Owner, Shared};
use crate::tap::{At, Tap};
use crate::telemetry::{method_label, record_error, record_request, request_span, Stats};

/// The layer: wraps any Streamable HTTP MCP service (`tower_service::Service<http::Request<_>>`).
/// Clones share the sessions and counters.
#[derive(Clone)]
pub struct GuardLayer {
    shared: Arc<Shared>,
}

impl GuardLayer {
    /// A layer that checks with `checks` as `config` says.
    pub fn new(config: Config, checks: impl Checks) -> Self {
        let sessions = Sessions::new(Arc::new(checks), config.limits);
        GuardLayer { shared: Arc::new(Shared::new(config, sessions)) }
    }

    /// The counters.
    pub fn stats(&self) -> &Stats {
        &self.shared.stats
    }

    /// Sessions kept now, and the bytes their checkers held when last weighed.
    pub fn sessions(&self) -> (usize, usize) {
        self.shared.sessions.usage()
    }

    /// The counters as a Prometheus collector (register it, or take its text).
    #[cfg(feature = "metrics")]
    pub fn metrics(&self) -> crate::GuardMetrics {
        crate::GuardMetrics { shared: self.shared.clone() }
    }
}

impl<S> tower_layer::Layer<S> for GuardLayer {
    type Service = Guard<S>;

    fn layer(&self, inner: S) -> Guard<S> {
        Guard { inner, shared: self.shared.clone() }
    }
}

/// The service in front of `S`.
#[derive(Clone)]
pub struct Guard<S> {
    inner: S,
    shared: Arc<Shared>,
}

/// In the extensions of a response the layer made itself (a refused request, one past the body
/// limit, or one it could not check with `fail_open` off): what it read of the request and what it
/// answered, for a caller that records the traffic.
#[derive(Debug, Clone)]
pub struct Answered {
    /// The request's body, when it was read whole.
    pub request: Option<Bytes>,
    pub answer: Bytes,
}

/// What the request check decided.
enum Verdict {
    Pass,
    Answer(StatusCode, Vec<u8>),
}

impl<S, B, RB> tower_service::Service<Request<B>> for Guard<S>
where
    S: tower_service::Service<Request<Forward<B>>, Response = Response<RB>> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Send,
    RB: Body<Data = Bytes> + Send + 'static,
{
    type Response = Response<GuardBody<RB>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone that was made ready is the one called (tower's usual swap).
        let clone = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, clone);
        let shared = self.shared.clone();
        Box::pin(handle(shared, inner, request))
    }
}

fn session_of(headers: &http::HeaderMap) -> Option<String> {
    headers.get(mcp::SESSION_ID).and_then(|v| v.to_str().ok()).map(str::to_string)
}

async fn handle<S, B, RB>(shared: Arc<Shared>, mut inner: S, request: Request<B>) -> Result<Response<GuardBody<RB>>, S::Error>
where
    S: tower_service::Service<Request<Forward<B>>, Response = Response<RB>>,
    B: Body<Data = Bytes> + Send + 'static,
    RB: Body<Data = Bytes>,
{
    let start = Instant::now();
    Stats::add(&shared.stats.requests, 1);
    let x = shared.next_exchange();
    let (parts, body) = request.into_parts();
    let span = request_span(&parts.method, &parts.headers);
    let session = session_of(&parts.headers);
    let version = parts.headers.get(mcp::PROTOCOL_VERSION).and_then(|v| v.to_str().ok());
    let head = RequestHead { method: &parts.method, uri: &parts.uri, headers: &parts.headers };
    let (forward, stream, owner, answered) = if parts.method == Method::POST {
        let read = Forward::read(body, shared.config.limits.max_body).await;
        let (stream, owner, verdict, answered) = match &read.whole {
            Some(bytes) => check_request(&shared, x, head, session.as_deref(), bytes, &span),
            None => {
                let (stream, owner) = shared.stream_for(session.as_deref(), None, version);
                let _ = shared.check(&stream, session.as_deref(), Direction::ClientToServer, &span, |s| s.request(x, head));
                let verdict = too_long(&shared, read.too_long, &span);
                (stream, owner, verdict, None)
            }
        };
        if let Verdict::Answer(status, body) = verdict {
            let body = Bytes::from(body);
            let mut r = answer(status, body.clone());
            r.extensions_mut().insert(Answered { request: read.whole.clone(), answer: body });
            return Ok(r);
        }
        (read.forward, stream, owner, answered)
    } else {
        // GET (the session's stream) and DELETE pass; their heads are checked.
        let (stream, owner) = shared.stream_for(session.as_deref(), None, version);
        let _ = shared.check(&stream, session.as_deref(), Direction::ClientToServer, &span, |s| s.request(x, head));
        (Forward::pass(body), stream, owner, None)
    };
    let method = parts.method.clone();
    let response = inner.call(Request::from_parts(parts, forward)).await?;
    let (parts, body) = response.into_parts();
    let _ = shared.check(&stream, session.as_deref(), Direction::ServerToClient, &span, |s| s.response(x, parts.status, &parts.headers));
    let assigned = session_of(&parts.headers);
    if let (None, Some(id)) = (&session, &assigned) {
        span.record("mcp.session.id", id.as_str());
    }
    let own = match (owner, &assigned) {
        (Owner::Session, _) => false,
        // An `initialize` answered with a session id starts that session; a failed one starts nothing.
        (Owner::Initialize, Some(id)) if parts.status.is_success() => {
            shared.dropped(shared.sessions.adopt(id, stream.clone()));
            false
        }
        _ => true,
    };
    if method == Method::DELETE && parts.status.is_success() {
        if let Some(id) = &session {
            let _ = shared.check(&stream, None, Direction::ServerToClient, &span, |s| s.finish());
            shared.sessions.end(id);
        }
    }
    let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let session = if own { None } else { session.or(assigned) };
    let at = At { stream, session, own, x, span, start: (method == Method::POST).then_some(start), answered };
    let tap = Tap::new(shared.clone(), at, content_type);
    Ok(Response::from_parts(parts, GuardBody::service(body, Some(tap))))
}

/// Checks a POST's head and body; picks its stream. Also: the method a single request's answer
/// answers (the `method` label of that answer's count).
fn check_request(shared: &Shared, x: u64, head: RequestHead<'_>, session: Option<&str>, bytes: &[u8], span: &Span) -> (StreamRef, Owner, Verdict, Option<&'static str>) {
    let doc = Doc::parse_slice(bytes);
    let body = doc.as_ref().ok().map(Doc::root);
    let not_json = doc.as_ref().err().map(|e| format!("not JSON: {e}"));
    let version = head.headers.get(mcp::PROTOCOL_VERSION).and_then(|v| v.to_str().ok());
    let (stream, owner) = shared.stream_for(session, body, version);
    let answered = body.filter(|b| b.get("id").is_some()).and_then(|b| b.get("method")).and_then(Node::as_str).map(method_label);
    if let Some(b) = body {
        record_request(span, b);
        shared.stats.messages(Direction::ClientToServer, b, None);
    }
    let checked = shared.check(&stream, session, Direction::ClientToServer, span, |s| {
        let mut found = s.request(x, head);
        match (body, not_json) {
            (Some(b), _) => found.extend(s.message(x, Direction::ClientToServer, b, None)),
            (None, message) => found.push(Finding { rule: "json", severity: Severity::Error, pointer: String::new(), message: message.unwrap_or_default() }),
        }
        found
    });
    let verdict = match checked {
        Err(()) if !shared.config.fail_open => Verdict::Answer(StatusCode::SERVICE_UNAVAILABLE, b"the request could not be checked".to_vec()),
        Err(()) => Verdict::Pass,
        Ok(refused) if refused.is_empty() => Verdict::Pass,
        Ok(refused) => {
            let refused: Vec<&Finding> = refused.iter().collect();
            let (status, code, answer) = refuse(body, &refused, session.is_none());
            Stats::add(&shared.stats.refused, 1);
            span.record("mcp.guard.refused", true);
            record_error(span, code);
            // The stream sees the answer as the client does, so the refused request is not left
            // open (its id, its exchange) in the session's state.
            let _ = shared.check(&stream, session, Direction::ServerToClient, span, |s| {
                let mut found = s.response(x, status, &answer_headers(&answer));
                if let Ok(doc) = Doc::parse_slice(&answer) {
                    found.extend(s.message(x, Direction::ServerToClient, doc.root(), None));
                }
                found.extend(s.end(x, answer.len() as u64, true));
                found
            });
            Verdict::Answer(status, answer)
        }
    };
    (stream, owner, verdict, answered)
}

/// A body past the limit, or one that failed: unchecked; 413 in enforce mode.
fn too_long(shared: &Shared, too_long: bool, span: &Span) -> Verdict {
    if !too_long {
        return Verdict::Pass;
    }
    Stats::add(&shared.stats.too_long, 1);
    tracing::event!(parent: span, tracing::Level::WARN, max_body = shared.config.limits.max_body, "the request body is past the limit: not checked");
    if shared.config.mode == Mode::Enforce {
        Stats::add(&shared.stats.refused, 1);
        return Verdict::Answer(StatusCode::PAYLOAD_TOO_LARGE, b"the request body is too long".to_vec());
    }
    Verdict::Pass
}

/// The headers of the layer's own answer: JSON-RPC errors are JSON, the rest plain text.
fn answer_headers(body: &[u8]) -> http::HeaderMap {
    let json = body.first() == Some(&b'{') || body.first() == Some(&b'[');
    let ty = if json { "application/json" } else { "text/plain; charset=utf-8" };
    let mut h = http::HeaderMap::new();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ty));
    h
}

fn answer<RB>(status: StatusCode, body: Bytes) -> Response<GuardBody<RB>> {
    let headers = answer_headers(&body);
    let mut r = Response::new(GuardBody::answer(body));
    *r.status_mut() = status;
    *r.headers_mut() = headers;
    r
}
