//! The responses of the service: plain, JSON and SSE bodies, the checks on a request's headers,
//! and the JSON answer a one-request POST gets when its stream has nothing but the answer.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::StatusCode;
use mcp_spec_types::tree::{Doc, Node};
use tokio::sync::mpsc;

use super::session::Session;
use super::ResponseBody;
use mcp_spec_types::rpc::METHOD_NOT_FOUND;

/// A response of the service.
pub(super) type Reply = hyper::Response<ResponseBody>;

/// DNS-rebinding protection: no `Origin` (not a browser), a loopback one, or one allowed.
pub(super) fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    if allowed.iter().any(|a| a == "*" || a.eq_ignore_ascii_case(origin)) {
        return true;
    }
    origin.split_once("://").is_some_and(|(_, authority)| loopback(host_of(authority)))
}

/// A `Host` that names a loopback address or one of `allowed` (a request without one has none to check).
pub(super) fn host_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(host) = headers.get(header::HOST) else { return true };
    let Ok(host) = host.to_str() else { return false };
    let name = host_of(host);
    loopback(name) || allowed.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// The host of an authority (`name:port`, `[v6]:port`), without the port.
fn host_of(authority: &str) -> &str {
    let authority = authority.trim_end_matches('/');
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.rsplit_once(':').map_or(authority, |(host, _)| host),
    }
}

fn loopback(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "::1")
}

pub(super) fn accepts(headers: &HeaderMap, media: &str) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|v| v.contains(media) || v.contains("*/*"))
}

/// The status of an answer the engine gave at once: 200, but 400 for an error without an id (a
/// body that does not read); without a session (2026-07-28) 404 for -32601 and 400 for any error.
pub(super) fn status_of(line: &[u8], stateless: bool) -> StatusCode {
    let Ok(answer) = Doc::parse_slice(line) else { return StatusCode::OK };
    let Some(code) = answer.root().pointer("/error/code").and_then(Node::as_i64) else { return StatusCode::OK };
    match code {
        METHOD_NOT_FOUND if stateless => StatusCode::NOT_FOUND,
        _ if stateless || answer.root().get("id").is_none_or(Node::is_null) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

pub(super) fn batch(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"[".to_vec();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(line);
    }
    out.push(b']');
    out
}

pub(super) fn plain(status: StatusCode, text: &'static str) -> Reply {
    let mut response = hyper::Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

pub(super) fn too_large() -> Reply {
    plain(StatusCode::PAYLOAD_TOO_LARGE, "the body is larger than the server takes")
}

pub(super) fn json(status: StatusCode, body: Vec<u8>) -> Reply {
    let mut response = hyper::Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

pub(super) fn sse(events: mpsc::Receiver<Bytes>) -> Reply {
    sse_after(VecDeque::new(), events)
}

/// An SSE response whose first events (`head`) were already taken from the stream.
pub(super) fn sse_after(head: VecDeque<Bytes>, events: mpsc::Receiver<Bytes>) -> Reply {
    let mut response = hyper::Response::new(Events(head, events).boxed());
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// An SSE body: the events taken already, then the stream's as they come; it ends when the
/// stream drops its sender.
struct Events(VecDeque<Bytes>, mpsc::Receiver<Bytes>);

impl Body for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(event) = self.0.pop_front() {
            return Poll::Ready(Some(Ok(Frame::data(event))));
        }
        self.1.poll_recv(cx).map(|event| event.map(|e| Ok(Frame::data(e))))
    }
}

/// A POST of one request: its answer as JSON when it is the first line of its stream and nothing
/// follows, else the stream from its start (a stream the handler closed with
/// [`RequestContext::disconnect`] before writing: its priming event alone, to be resumed).
pub(super) async fn answer_or_stream(session: &Session, mut events: mpsc::Receiver<Bytes>, stateless: bool) -> Reply {
    let mut head = VecDeque::new();
    // The priming event is there at once; the next one is the handler's first line.
    while let Some(event) = events.recv().await {
        let priming = event.ends_with(b"data: \n\n");
        head.push_back(event);
        if !priming {
            break;
        }
    }
    // The answer and the end of the stream are written under the session's lock: holding it,
    // the stream has either ended with the answer or goes on.
    let ended = {
        let _state = session.lock();
        match events.try_recv() {
            Err(mpsc::error::TryRecvError::Disconnected) => true,
            Err(mpsc::error::TryRecvError::Empty) => false,
            Ok(event) => {
                head.push_back(event);
                false
            }
        }
    };
    let answer = head.back().filter(|e| ended && !e.ends_with(b"data: \n\n")).and_then(|e| data_of(e));
    match answer {
        Some(line) => json(status_of(&line, stateless), line),
        None => sse_after(head, events),
    }
}

/// The `data` of an event this module wrote (one line of JSON).
pub(super) fn data_of(event: &[u8]) -> Option<Vec<u8>> {
    let at = event.windows(7).position(|w| w == b"\ndata: ")? + 7;
    Some(event[at..].strip_suffix(b"\n\n")?.to_vec())
}
