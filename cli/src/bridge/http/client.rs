//! The client's side: the Streamable HTTP transport of the client's version. `initialize` (up to
//! 2025-11-25) opens a session with an `Mcp-Session-Id` the bridge makes up; later requests name
//! it (404 once it has ended); GET opens the stream for what belongs to no POST; DELETE ends the
//! session and its upstream session. A 2026-07-28 client's POSTs carry no session: they all go
//! through one stateless bridge. A POST of only notifications and responses gets 202; one with
//! requests gets its answer as JSON when that is the only message for it, else an SSE stream that
//! ends with the last answer.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{Either, Full};
use http_body_util::BodyExt;
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{HeaderMap, HeaderValue, ALLOW, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::Value;
use tokio::sync::mpsc;

use super::session::{Origin, Piece, Session};
use crate::bridge::head::Head;
use super::{upstream, Ctx};
use crate::bridge::record::on_leg;
use crate::bridge::Leg;
use crate::bridge::elide::WRAP_ROOM;
use crate::proxy::http::limits::Held;
use crate::proxy::http::record::{end_line, header, request_line, response_line, SESSIONS_MAX};
use crate::input::MAX_LINE;
use crate::transport::header::SESSION_ID;

pub type Answer = Response<Either<Stream, Full<Bytes>>>;

/// A client response fed from its session's queue; `on_drop` runs when the client is gone or the
/// stream has ended.
pub struct Stream {
    rx: mpsc::Receiver<Piece>,
    first: Option<Bytes>,
    on_drop: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl Body for Stream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if let Some(b) = this.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(b))));
        }
        this.rx.poll_recv(cx).map(|p| p.map(|p| Ok(Frame::data(p.bytes()))))
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(f) = self.on_drop.take() {
            f();
        }
    }
}

fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An answer of the bridge's own with a short text body, recorded with its end.
fn plain(ctx: &Ctx, x: u64, status: StatusCode, why: &str, extra: Option<(hyper::header::HeaderName, &'static str)>) -> Answer {
    let body = if why.is_empty() { String::new() } else { format!("mcp-schema bridge: {why}\n") };
    let mut resp = Response::new(Either::Right(Full::new(Bytes::from(body.clone()))));
    *resp.status_mut() = status;
    if !body.is_empty() {
        resp.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    }
    if let Some((name, value)) = extra {
        resp.headers_mut().insert(name, HeaderValue::from_static(value));
    }
    ctx.rec.offer(on_leg(response_line(x, status.as_u16(), resp.headers()), Leg::Client));
    ctx.rec.offer(on_leg(end_line(x, body.len() as u64, None), Leg::Client));
    resp
}

pub async fn handle(req: Request<Incoming>, ctx: Arc<Ctx>) -> Result<Answer, Infallible> {
    let x = ctx.x();
    let (parts, body) = req.into_parts();
    ctx.rec.offer(on_leg(request_line(x, parts.method.as_str(), parts.uri.path(), parts.uri.query(), &parts.headers), Leg::Client));
    let session_id = header(&parts.headers, SESSION_ID);
    let known = session_id.as_ref().map(|id| ctx.sessions.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned());
    if let Some(None) = known {
        return Ok(plain(&ctx, x, StatusCode::NOT_FOUND, "no such session (it ended, or the bridge never gave this id)", None));
    }
    let known = known.flatten();
    match parts.method {
        Method::POST => Ok(post(&ctx, x, known, &parts.headers, body).await),
        Method::GET => Ok(match known {
            None => plain(&ctx, x, StatusCode::METHOD_NOT_ALLOWED, "a GET stream needs the Mcp-Session-Id of a session", Some((ALLOW, "POST"))),
            Some(s) => get(&ctx, x, s),
        }),
        Method::DELETE => Ok(match known {
            None => plain(&ctx, x, StatusCode::BAD_REQUEST, "DELETE needs the Mcp-Session-Id of a session", None),
            Some(s) => {
                end_session(&ctx, &s);
                plain(&ctx, x, StatusCode::OK, "", None)
            }
        }),
        _ => Ok(plain(&ctx, x, StatusCode::METHOD_NOT_ALLOWED, "Streamable HTTP has GET, POST and DELETE", Some((ALLOW, "GET, POST, DELETE")))),
    }
}

/// Ends a client session: its upstream session is deleted, its verdicts kept for the summary.
fn end_session(ctx: &Arc<Ctx>, s: &Arc<Mutex<Session>>) {
    let mut session = lock(s);
    if let Some(id) = &session.id {
        ctx.sessions.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
    }
    session.close(ctx);
    ctx.totals.lock().unwrap_or_else(PoisonError::into_inner).merge(&session.bridge.counts);
    session.bridge.counts = Default::default();
    if let Some(up) = session.upstream_session.take() {
        let headers = session.upstream_headers(ctx, None);
        drop(session);
        tokio::spawn(upstream::delete(ctx.clone(), up, headers));
    }
}

fn get(ctx: &Arc<Ctx>, x: u64, s: Arc<Mutex<Session>>) -> Answer {
    let mut session = lock(&s);
    let Some(rx) = session.open_get(ctx, x) else {
        drop(session);
        return plain(ctx, x, StatusCode::CONFLICT, "this session's GET stream is already open", None);
    };
    let headers = session.client_headers(false);
    ctx.rec.offer(on_leg(response_line(x, 200, &headers), Leg::Client));
    drop(session);
    let (ctx2, s2) = (ctx.clone(), s.clone());
    let on_drop: Box<dyn FnOnce() + Send + Sync> = Box::new(move || lock(&s2).get_ended(&ctx2, x));
    respond(headers, Stream { rx, first: None, on_drop: Some(on_drop) })
}

fn respond(headers: HeaderMap, body: Stream) -> Answer {
    let mut resp = Response::new(Either::Left(body));
    *resp.headers_mut() = headers;
    resp
}

/// Whether a message is a 2026-07-28 request (its `_meta` names that version, or it is `server/discover`).
fn per_request(msg: &Head) -> bool {
    msg.method.as_deref() == Some("server/discover") || msg.meta_version().is_some_and(|v| v.as_str() >= "2026-07-28")
}

/// A request the proxy's guard refused (`Host`, `Origin`): recorded with its answer and why.
pub fn refused(ctx: &Ctx, parts: &hyper::http::request::Parts, status: u16, why: &str) -> Answer {
    let x = ctx.x();
    ctx.rec.offer(on_leg(request_line(x, parts.method.as_str(), parts.uri.path(), parts.uri.query(), &parts.headers), Leg::Client));
    plain(ctx, x, StatusCode::from_u16(status).unwrap_or(StatusCode::FORBIDDEN), why, None)
}

/// A POST's body whole (at most `max` bytes), held within the budget shared by all bodies, in one
/// buffer of its `Content-Length` and room for its recording line's wrapper: a long message is
/// neither grown nor copied on its way to the core. `Err` has the status to answer and why.
async fn collect(ctx: &Ctx, headers: &HeaderMap, mut body: Incoming, max: usize) -> Result<(Bytes, Held), (u16, String)> {
    let too_long = || (413, format!("the body is longer than {max} bytes"));
    let length = header(headers, "content-length").and_then(|v| v.trim().parse::<usize>().ok());
    if length.is_some_and(|n| n > max) {
        return Err(too_long());
    }
    let mut held = Held::none();
    // Not past what the budget has free: such a body is refused as it comes.
    let mut buf = Vec::with_capacity(length.filter(|&n| n <= ctx.budget.free()).map_or(0, |n| n + WRAP_ROOM));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| (400, format!("reading the body: {e}")))?;
        let Ok(data) = frame.into_data() else { continue };
        if buf.len() + data.len() > max {
            return Err(too_long());
        }
        if !held.grow(&ctx.budget, data.len()) {
            return Err((503, ctx.budget.spent()));
        }
        buf.extend_from_slice(&data);
    }
    Ok((Bytes::from(buf), held))
}

async fn post(ctx: &Arc<Ctx>, x: u64, known: Option<Arc<Mutex<Session>>>, headers: &HeaderMap, body: Incoming) -> Answer {
    // Held within the budget shared by all bodies until this POST is handled.
    let (body, _held) = match collect(ctx, headers, body, MAX_LINE).await {
        Ok(b) => b,
        Err((status, why)) => return plain(ctx, x, StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), &why, None),
    };
    // One message goes to the core as it came (the core weighs its tree before reading it: see
    // crate::cost); only its head is read here. A batch (2025-03-26) is split, within the budget.
    let batch = body.trim_ascii_start().starts_with(b"[");
    let split: Vec<Vec<u8>> = if batch {
        if let Err(e) = crate::cost::check(&body) {
            return plain(ctx, x, StatusCode::PAYLOAD_TOO_LARGE, &e.to_string(), None);
        }
        match serde_json::from_slice::<Value>(&body) {
            Ok(Value::Array(a)) if !a.is_empty() && a.len() <= crate::bridge::http::BATCH_MAX => a.iter().map(|m| serde_json::to_vec(m).unwrap_or_default()).collect(),
            _ => return plain(ctx, x, StatusCode::BAD_REQUEST, "the body is not a JSON-RPC message", None),
        }
    } else {
        Vec::new()
    };
    let lines: Vec<&[u8]> = if batch { split.iter().map(Vec::as_slice).collect() } else { vec![&body[..]] };
    let Some(messages) = lines.iter().map(|l| Head::of(l)).collect::<Option<Vec<Head>>>() else {
        return plain(ctx, x, StatusCode::BAD_REQUEST, "the body is not a JSON-RPC message", None);
    };
    let session = match known {
        Some(s) => s,
        None if messages.iter().any(|m| m.method.as_deref() == Some("initialize")) => {
            let mut sessions = ctx.sessions.lock().unwrap_or_else(PoisonError::into_inner);
            if sessions.len() >= SESSIONS_MAX {
                drop(sessions);
                return plain(ctx, x, StatusCode::SERVICE_UNAVAILABLE, &format!("too many sessions (at most {SESSIONS_MAX}): end one with DELETE"), None);
            }
            let id = new_session_id();
            let s = Arc::new(Mutex::new(Session::new(ctx, Some(id.clone()))));
            upstream::start(ctx, &s);
            sessions.insert(id, s.clone());
            s
        }
        None if messages.iter().all(per_request) => ctx
            .stateless
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert_with(|| {
                let s = Arc::new(Mutex::new(Session::new(ctx, None)));
                upstream::start(ctx, &s);
                s
            })
            .clone(),
        None => return plain(ctx, x, StatusCode::BAD_REQUEST, "no Mcp-Session-Id: send initialize first", None),
    };
    let requests = messages.iter().filter(|m| m.is_request()).count();
    drop(messages);
    let rx = {
        let mut guard = lock(&session);
        let rx = (requests > 0).then(|| guard.open_post(x, requests, batch));
        if batch {
            for line in lines {
                let out = guard.bridge.from_client_at(line, Some(x));
                guard.deliver(ctx, out, Origin::Client(x), rx.as_ref().map(|_| x));
            }
        } else {
            drop(lines);
            // The body is handed over: the recording shares it, and its line is made in it.
            let out = guard.bridge.from_client_shared(body, Some(x));
            guard.deliver(ctx, out, Origin::Client(x), rx.as_ref().map(|_| x));
        }
        rx
    };
    let Some(mut rx) = rx else {
        return plain(ctx, x, StatusCode::ACCEPTED, "", None);
    };
    // The first piece says which: the only answer (JSON), or the start of an SSE stream.
    match rx.recv().await {
        None => plain(ctx, x, StatusCode::NOT_FOUND, "the session ended before its answer", None),
        Some(piece) => {
            let json = matches!(piece, Piece::Json(_));
            let headers = lock(&session).client_headers(json);
            respond(headers, Stream { rx, first: Some(piece.bytes()), on_drop: None })
        }
    }
}

/// A fresh session id: 128 bits in hex, from the standard library's randomly keyed hasher.
fn new_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let half = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        h.write_u64(nanos);
        h.write_u64(salt);
        h.finish()
    };
    format!("{:016x}{:016x}", half(1), half(2))
}
