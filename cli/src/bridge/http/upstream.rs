//! The upstream's side: the bridge as an HTTP client of `--to`. Each message for the server is a
//! POST (with the upstream's `Mcp-Session-Id` once it gave one, and `MCP-Protocol-Version` once
//! negotiated); the lines of one core output go in order, each after the previous one's response
//! head. Each answer, a JSON body or the events of an SSE stream ([`crate::sse`]), goes through
//! [`Bridge::from_server`](crate::bridge::Bridge::from_server) as it arrives. Once the upstream has
//! given a session, a GET stream is opened for what it sends outside any POST (405 is fine).

use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE};
use hyper::{Method, Request, Response};
use mcp_spec_types::tree::Doc;
use serde_json::Value;

use super::session::{Origin, Send, Session};
use super::Ctx;
use crate::bridge::record::on_leg;
use crate::bridge::elide::WRAP_ROOM;
use crate::bridge::Leg;
use crate::proxy::http::record::{end_line, event_line, header, request_line, response_line};
use crate::proxy::http::EVENT_MAX;
use crate::sse::SseParser;
use crate::input::MAX_LINE;
use crate::transport::header::SESSION_ID;

fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Messages queued for the upstream per session.
pub const OUTBOX: usize = 4096;

/// Starts the session's sender: its messages go upstream in the order the core gave them; the
/// initialization and notifications wait for their response head before the next goes (a
/// request's answer may take long: the next message does not wait for it).
pub fn start(ctx: &Arc<Ctx>, s: &Arc<Mutex<Session>>) {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Send>(OUTBOX);
    lock(s).outbox = Some(tx);
    let (ctx, s) = (ctx.clone(), s.clone());
    tokio::spawn(async move {
        while let Some(send) = rx.recv().await {
            if send.initialize || send.id.is_none() {
                send_one(ctx.clone(), s.clone(), send).await;
            } else {
                tokio::spawn(send_one(ctx.clone(), s.clone(), send));
            }
        }
    });
}

async fn send_one(ctx: Arc<Ctx>, s: Arc<Mutex<Session>>, send: Send) {
    let (x, id, context, initialize) = (send.x, send.id.clone(), send.context, send.initialize);
    let mut req = Request::new(Full::new(send.body));
    *req.method_mut() = Method::POST;
    *req.uri_mut() = ctx.url.clone();
    *req.headers_mut() = send.headers;
    match ctx.client.request(req).await {
        Err(e) => failed(&ctx, &s, x, id.as_ref(), &format!("the upstream could not be reached: {}", why(&e))),
        Ok(resp) => {
            let status = resp.status();
            ctx.rec.offer(on_leg(response_line(x, status.as_u16(), resp.headers()), Leg::Server));
            let start_get = {
                let mut session = lock(&s);
                if let (None, Some(up)) = (&session.upstream_session, header(resp.headers(), SESSION_ID)) {
                    session.upstream_session = Some(up);
                }
                // After the initialization (not with its answer): a server may refuse a GET before it.
                let get = !initialize && session.upstream_session.is_some() && !session.upstream_get;
                session.upstream_get |= get;
                get
            };
            // The body is read on its own: the next message need not wait for a long stream.
            tokio::spawn(answer(ctx.clone(), s.clone(), x, id, context, resp));
            if start_get {
                tokio::spawn(get_stream(ctx.clone(), s.clone()));
            }
        }
    }
}

fn why(e: &dyn std::error::Error) -> String {
    let mut why = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        why.push_str(&format!(": {s}"));
        source = s.source();
    }
    why
}

/// The exchange failed before a JSON-RPC answer: the response the bridge stands in for, its end,
/// and the client's request failed with the reason.
fn failed(ctx: &Arc<Ctx>, s: &Arc<Mutex<Session>>, x: u64, id: Option<&Value>, why: &str) {
    ctx.rec.offer(on_leg(response_line(x, 502, &HeaderMap::new()), Leg::Server));
    ctx.rec.offer(on_leg(end_line(x, 0, Some(why)), Leg::Server));
    fail_request(ctx, s, id, why);
}

fn fail_request(ctx: &Arc<Ctx>, s: &Arc<Mutex<Session>>, id: Option<&Value>, why: &str) {
    let Some(id) = id else { return };
    let mut session = lock(s);
    let out = session.bridge.upstream_failed(id, why);
    session.deliver(ctx, out, Origin::Bridge, None);
}

/// One message from the upstream through the core.
fn from_server(ctx: &Arc<Ctx>, s: &Arc<Mutex<Session>>, msg: Bytes, origin: Origin, context: Option<u64>) {
    let mut session = lock(s);
    let out = session.bridge.from_server_shared(msg);
    session.deliver(ctx, out, origin, context);
}

/// Reads an upstream response: a JSON body whole (at most [`MAX_LINE`] bytes), an SSE stream
/// event by event.
async fn answer(ctx: Arc<Ctx>, s: Arc<Mutex<Session>>, x: u64, id: Option<Value>, context: Option<u64>, resp: Response<Incoming>) {
    let status = resp.status();
    let length = header(resp.headers(), "content-length").and_then(|v| v.trim().parse::<usize>().ok()).filter(|&n| n <= MAX_LINE);
    let mime = resp.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let mut body = resp.into_body();
    let mut bytes = 0u64;
    if mime == "text/event-stream" {
        let mut parser = SseParser::new(EVENT_MAX);
        let mut error = None;
        while let Some(frame) = body.frame().await {
            let data = match frame {
                Ok(f) => match f.into_data() {
                    Ok(d) => d,
                    Err(_) => continue,
                },
                Err(e) => {
                    error = Some(format!("upstream closed mid-stream: {}", why(&e)));
                    break;
                }
            };
            bytes += data.len() as u64;
            let mut events = Vec::new();
            parser.push(&data, |e| events.push(e));
            let first = parser.dispatched - events.len() as u64;
            for (i, e) in events.into_iter().enumerate() {
                let index = first + i as u64;
                let id = e.id.as_deref().filter(|_| e.has_id);
                if !e.data.is_empty() && e.cut.is_none() && e.event.as_deref().is_none_or(|t| t == "message") && serde_json::from_str::<serde::de::IgnoredAny>(&e.data).is_ok() {
                    from_server(&ctx, &s, Bytes::from(e.data), Origin::Upstream(x, Some((index, id))), context);
                } else {
                    ctx.rec.offer(on_leg(event_line(x, index, id, e.event.as_deref(), &e.data, e.retry), Leg::Server));
                }
            }
        }
        ctx.rec.offer(on_leg(end_line(x, bytes, error.as_deref()), Leg::Server));
        if let Some(why) = error {
            fail_request(&ctx, &s, id.as_ref(), &why);
        }
        return;
    }
    // Of its length (and room for its recording line's wrapper): a long answer is neither grown nor copied.
    let mut buf = Vec::with_capacity(length.map_or(0, |n| n + WRAP_ROOM));
    let mut error = None;
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(f) => {
                if let Ok(d) = f.into_data() {
                    bytes += d.len() as u64;
                    if buf.len() + d.len() <= MAX_LINE {
                        buf.extend_from_slice(&d);
                    }
                }
            }
            Err(e) => {
                error = Some(format!("upstream closed mid-body: {}", why(&e)));
                break;
            }
        }
    }
    let whole = error.is_none() && bytes <= MAX_LINE as u64;
    let mut answered = false;
    if whole && buf.trim_ascii_start().starts_with(b"{") {
        // One message: whether it answers the request, from its compact tree; its bytes go to the
        // core as they came.
        let answers = Doc::parse_slice(&buf).ok().map(|doc| {
            let root = doc.root();
            root.get("method").is_none() && id.as_ref().is_some_and(|id| root.get("id").is_some_and(|n| n == *id))
        });
        if let Some(a) = answers {
            answered = a;
            from_server(&ctx, &s, Bytes::from(buf), Origin::Upstream(x, None), context);
        }
    } else if whole && crate::cost::check(&buf).is_ok() {
        // A batch (2025-03-26) is split through its `Value`: the cost guard stays here.
        if let Ok(Value::Array(messages)) = serde_json::from_slice::<Value>(&buf) {
            for m in &messages {
                from_server(&ctx, &s, Bytes::from(serde_json::to_vec(m).unwrap_or_default()), Origin::Upstream(x, None), context);
            }
            answered = messages.iter().any(|m| m.get("method").is_none() && m.get("id") == id.as_ref());
        }
    }
    ctx.rec.offer(on_leg(end_line(x, bytes, error.as_deref()), Leg::Server));
    if !answered && id.is_some() {
        let why = error.unwrap_or_else(|| format!("the upstream answered HTTP {status} without a JSON-RPC answer"));
        fail_request(&ctx, &s, id.as_ref(), &why);
    }
}

/// The upstream's GET stream (its messages belong to no POST); ends when the upstream ends it.
async fn get_stream(ctx: Arc<Ctx>, s: Arc<Mutex<Session>>) {
    let x = ctx.x();
    let mut headers = lock(&s).upstream_headers(&ctx, None);
    headers.remove(CONTENT_TYPE);
    headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
    if let Some(resp) = bodyless(&ctx, x, Method::GET, headers).await {
        answer(ctx.clone(), s, x, None, None, resp).await;
    }
}

/// Sends a request without a body upstream as exchange `x`, recording its head and the answer's
/// (or, when the upstream cannot be reached, a 502 and the exchange's end).
async fn bodyless(ctx: &Ctx, x: u64, method: Method, headers: HeaderMap) -> Option<hyper::Response<hyper::body::Incoming>> {
    ctx.rec.offer(on_leg(request_line(x, method.as_str(), ctx.url.path(), ctx.url.query(), &headers), Leg::Server));
    let mut req = Request::new(Full::new(Bytes::new()));
    *req.method_mut() = method;
    *req.uri_mut() = ctx.url.clone();
    *req.headers_mut() = headers;
    match ctx.client.request(req).await {
        Err(e) => {
            ctx.rec.offer(on_leg(response_line(x, 502, &HeaderMap::new()), Leg::Server));
            ctx.rec.offer(on_leg(end_line(x, 0, Some(&format!("the upstream could not be reached: {}", why(&e)))), Leg::Server));
            None
        }
        Ok(resp) => {
            ctx.rec.offer(on_leg(response_line(x, resp.status().as_u16(), resp.headers()), Leg::Server));
            Some(resp)
        }
    }
}

/// DELETE of the upstream session, when the client ended its session.
pub async fn delete(ctx: Arc<Ctx>, upstream_session: String, mut headers: HeaderMap) {
    let x = ctx.x();
    headers.remove(CONTENT_TYPE);
    if let Ok(v) = HeaderValue::from_str(&upstream_session) {
        headers.insert(SESSION_ID, v);
    }
    if let Some(resp) = bodyless(&ctx, x, Method::DELETE, headers).await {
        let bytes = resp.into_body().collect().await.map_or(0, |b| b.to_bytes().len() as u64);
        ctx.rec.offer(on_leg(end_line(x, bytes, None), Leg::Server));
    }
}
