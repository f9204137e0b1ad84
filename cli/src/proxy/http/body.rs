//! A body passed through chunk by chunk (each frame as it arrives, never more than one held),
//! with a tap that splits it into messages for the recorder: a JSON body whole at its end (at most
//! [`MAX_LINE`] bytes kept), an SSE stream event by event ([`crate::sse`], at most [`EVENT_MAX`]
//! bytes of one event kept). The tap does not wait: what it sends goes to a bounded queue.
//!
//! The only bytes changed are those of a 2024-11-05 `endpoint` event that names the upstream
//! ([`Upstream::endpoint`]): the first event of an SSE response to a GET is held until it is
//! complete (at most [`FIRST_EVENT_MAX`] bytes) to read it.

use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::{Bytes, BytesMut};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;
use hyper::body::{Body, Frame, Incoming, SizeHint};

use super::limits::{BodyBudget, Held};
use super::record::{end_line, event_line, message_line, skipped_line, Place, Rec, Recorder, Route};
use super::upstream::Upstream;
use crate::vocab::Direction;
use crate::proxy::lines::Line;
use crate::sse::{SseEvent, SseParser};
use crate::input::MAX_LINE;

/// Set when the proxy stops: the exchanges still open are cut by the proxy, not by a peer.
pub static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The most bytes of one SSE event's data (or one line of it) kept for checking.
pub const EVENT_MAX: usize = 16 << 20;
/// The most bytes of a stream's start held to read an `endpoint` event.
pub const FIRST_EVENT_MAX: usize = 64 << 10;

enum Kind {
    Json {
        buf: Vec<u8>,
        len: usize,
        /// The bytes of `buf` taken from the shared budget.
        held: Held,
        /// The budget had no room: the body is not kept (a request's is refused).
        over_budget: bool,
    },
    Sse(Box<SseParser>),
    /// Not MCP (an error page, an empty body): only counted.
    Skip,
}

/// What the tap of one body knows.
pub struct BodyTap {
    rec: Recorder,
    budget: BodyBudget,
    x: u64,
    dir: Direction,
    kind: Kind,
    bytes: u64,
    /// A response body's end is a line of its own (`"at":"end"`); a request body's is not.
    end_line: bool,
    /// Said when the body is dropped before its end.
    dropped: &'static str,
}

impl BodyTap {
    /// The request body's tap: a POST body read as JSON.
    pub fn request(rec: Recorder, budget: BodyBudget, x: u64, json: bool) -> BodyTap {
        let kind = if json { Kind::Json { buf: Vec::new(), len: 0, held: Held::none(), over_budget: false } } else { Kind::Skip };
        BodyTap { rec, budget, x, dir: Direction::ClientToServer, kind, bytes: 0, end_line: false, dropped: "the request body was not read to its end" }
    }

    /// The response body's tap, by its media type.
    pub fn response(rec: Recorder, budget: BodyBudget, x: u64, content_type: Option<&str>) -> BodyTap {
        let mime = content_type.unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        let kind = match mime.as_str() {
            "text/event-stream" => Kind::Sse(Box::new(SseParser::new(EVENT_MAX))),
            m if m == "application/json" || m.ends_with("+json") => Kind::Json { buf: Vec::new(), len: 0, held: Held::none(), over_budget: false },
            _ => Kind::Skip,
        };
        BodyTap { rec, budget, x, dir: Direction::ServerToClient, kind, bytes: 0, end_line: true, dropped: "the client went away" }
    }

    /// Takes in the next bytes; false when the budget had no room for them (first time only).
    fn feed(&mut self, data: &[u8]) -> bool {
        self.bytes += data.len() as u64;
        match &mut self.kind {
            Kind::Json { buf, len, held, over_budget } => {
                *len += data.len();
                if *len > MAX_LINE || *over_budget {
                    (*buf, *held) = (Vec::new(), Held::none());
                } else if held.grow(&self.budget, data.len()) {
                    buf.extend_from_slice(data);
                } else {
                    (*buf, *held, *over_budget) = (Vec::new(), Held::none(), true);
                    return false;
                }
            }
            Kind::Sse(p) => {
                let mut events = Vec::new();
                p.push(data, |e| events.push(e));
                let first = p.dispatched - events.len() as u64;
                for (i, e) in events.into_iter().enumerate() {
                    self.event(first + i as u64, e);
                }
            }
            Kind::Skip => {}
        }
        true
    }

    fn message(&self, place: &Place, msg: &[u8]) {
        let is_json = serde_json::from_slice::<serde::de::IgnoredAny>(msg).is_ok();
        let rec = if is_json {
            message_line(place, msg)
        } else if let Some((i, id)) = place.event {
            // Data that is not JSON is an event line; the checker still reports it.
            event_line(self.x, i, id, None, &String::from_utf8_lossy(msg), None)
        } else {
            // A request or response body that is not JSON: checked (and reported), not recorded
            // (an empty line is not written; findings name the line before).
            String::new()
        };
        // A recorded line is checked as recorded; only a body that is not JSON (not recorded) goes
        // raw (copied only then: a long body is not held twice more).
        let check = rec.is_empty().then(|| Line { dir: self.dir, bytes: msg.to_vec(), too_long: None, terminated: true, seq: 0 });
        // An event's data that is not JSON is an event line, not a message.
        let route = if is_json || rec.is_empty() { Route::Message } else { Route::None };
        self.rec.offer(Rec { x: self.x, line: rec, route, check });
    }

    fn event(&self, index: u64, e: SseEvent) {
        let id = e.id.as_deref().filter(|_| e.has_id);
        let carries_message = !e.data.is_empty() && e.event.as_deref().is_none_or(|t| t == "message");
        if let Some(len) = e.cut.filter(|_| e.event.as_deref().is_none_or(|t| t == "message")) {
            let place = Place { x: self.x, dir: self.dir, event: Some((index, id)) };
            return self.rec.offer(Rec { x: self.x, line: skipped_line(&place, len), route: Route::Message, check: None });
        }
        if carries_message {
            let place = Place { x: self.x, dir: self.dir, event: Some((index, id)) };
            return self.message(&place, e.data.as_bytes());
        }
        let line = event_line(self.x, index, id, e.event.as_deref(), &e.data, e.retry);
        self.rec.offer(Rec { x: self.x, line, route: Route::None, check: None });
    }

    /// A body that is all there (the guard layer's own answer, the request it refused).
    pub fn whole(mut self, bytes: &[u8]) {
        self.feed(bytes);
        self.finish(None);
    }

    /// The body ended (`error` says why when it did not end well).
    fn finish(mut self, error: Option<&str>) {
        match std::mem::replace(&mut self.kind, Kind::Skip) {
            Kind::Json { buf, len, over_budget, .. } if error.is_none() && len > 0 => {
                let place = Place { x: self.x, dir: self.dir, event: None };
                if len > MAX_LINE || over_budget {
                    self.rec.offer(Rec { x: self.x, line: skipped_line(&place, len), route: Route::Message, check: None });
                } else if !buf.trim_ascii().is_empty() {
                    self.message(&place, &buf);
                }
            }
            Kind::Sse(mut p) => {
                // An event the stream ended inside is not dispatched: nothing to record.
                let _ = p.finish();
            }
            _ => {}
        }
        if self.end_line {
            self.rec.offer(Rec { x: self.x, line: end_line(self.x, self.bytes, error), route: Route::End, check: None });
        }
    }
}

/// The recording's lines a body's tap writes of `chunks` (as they arrived), with `budget` bytes to
/// hold: the proxy's splitting of a body without the network, for tests and the fuzz target.
pub fn tap_lines(response: bool, content_type: Option<&str>, chunks: &[&[u8]], budget: usize) -> Vec<String> {
    let (rec, lines) = crate::proxy::queue::queue(4096);
    let budget = BodyBudget::new(budget);
    let mut tap = if response { BodyTap::response(rec, budget, 0, content_type) } else { BodyTap::request(rec, budget, 0, true) };
    for c in chunks {
        tap.feed(c);
    }
    tap.finish(None);
    lines.try_iter().filter_map(|e| if let crate::proxy::queue::Entry::Item(r) = e { Some(r.line) } else { None }).filter(|l| !l.is_empty()).collect()
}

/// The `endpoint` rewrite's state: the stream's start held until its first event is complete.
pub struct Rewrite {
    upstream: std::sync::Arc<Upstream>,
    proxy_origin: String,
    held: BytesMut,
}

impl Rewrite {
    pub fn new(upstream: std::sync::Arc<Upstream>, proxy_origin: String) -> Rewrite {
        Rewrite { upstream, proxy_origin, held: BytesMut::new() }
    }

    /// Whether the held bytes are the whole first event (or all that will be held).
    fn ready(&self) -> bool {
        let h = &self.held[..];
        h.len() >= FIRST_EVENT_MAX
            || memchr::memmem::find(h, b"\n\n").is_some()
            || memchr::memmem::find(h, b"\r\r").is_some()
            || memchr::memmem::find(h, b"\n\r\n").is_some()
            || memchr::memmem::find(h, b"\r\n\r").is_some()
    }

    /// The held bytes, with the `endpoint` event's data line rewritten if it has to change.
    fn release(self) -> Bytes {
        let held = self.held.freeze();
        let Ok(text) = std::str::from_utf8(&held) else { return held };
        // The first event's lines (up to the first blank line), each with its line end.
        let mut lines: Vec<&str> = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let end = rest.find(['\r', '\n']).map_or(rest.len(), |i| if rest[i..].starts_with("\r\n") { i + 2 } else { i + 1 });
            let (line, next) = rest.split_at(end);
            lines.push(line);
            rest = next;
            if line.trim_end_matches(['\r', '\n']).is_empty() {
                break;
            }
        }
        let field =
            |l: &str, name: &str| l.trim_end_matches(['\r', '\n']).strip_prefix(name).and_then(|v| v.strip_prefix(':')).map(|v| v.strip_prefix(' ').unwrap_or(v).to_string());
        let is_endpoint = lines.iter().any(|l| field(l, "event").as_deref() == Some("endpoint"));
        let data_lines: Vec<usize> = (0..lines.len()).filter(|&i| field(lines[i], "data").is_some()).collect();
        let ([only], true) = (&data_lines[..], is_endpoint) else { return held };
        let Some(new) = self.upstream.endpoint(&field(lines[*only], "data").unwrap_or_default(), &self.proxy_origin) else { return held };
        let ending = &lines[*only][lines[*only].trim_end_matches(['\r', '\n']).len()..];
        let replaced = format!("data: {new}{ending}");
        let mut out = BytesMut::with_capacity(held.len() + replaced.len());
        let mut at = 0;
        for (i, l) in lines.iter().enumerate() {
            out.extend_from_slice(if i == *only { replaced.as_bytes() } else { l.as_bytes() });
            at += l.len();
        }
        out.extend_from_slice(&held[at..]);
        out.freeze()
    }
}

/// A body forwarded frame by frame through its tap (and, for a legacy SSE stream, the rewrite).
pub struct Tapped {
    /// Hyper's body, or the guard layer's hand-on of it (`--enforce`, `--metrics`).
    inner: UnsyncBoxBody<Bytes, BoxError>,
    /// A request body's: where the client's failure is said, for the answer (400, or 503 past the budget).
    fault: Option<Fault>,
    tap: Option<BodyTap>,
    rewrite: Option<Rewrite>,
    /// The upstream's body has ended while held bytes were still to go out.
    ended: bool,
}

impl Tapped {
    pub fn new(inner: Incoming, tap: BodyTap, rewrite: Option<Rewrite>) -> Tapped {
        Tapped { inner: boxed(inner), fault: None, tap: Some(tap), rewrite, ended: false }
    }

    /// A request body whose failures (the client's) are said in `fault`.
    pub fn request<B>(inner: B, tap: BodyTap, fault: Fault) -> Tapped
    where
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Tapped { inner: boxed(inner), fault: Some(fault), tap: Some(tap), rewrite: None, ended: false }
    }

    fn pass(&mut self, data: Bytes) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let fits = self.tap.as_mut().is_none_or(|t| t.feed(&data));
        if let (false, Some(fault)) = (fits, &self.fault) {
            // A request body past the budget goes no further: the client gets 503, not a buffer.
            let why = self.tap.as_ref().map(|t| t.budget.spent()).unwrap_or_default();
            fault.set(503, why.clone());
            if let Some(t) = self.tap.take() {
                t.finish(Some(&why));
            }
            return Poll::Ready(Some(Err(why.into())));
        }
        // With a content length, hyper may never ask again once the last byte is in.
        if self.ended || (self.rewrite.is_none() && self.inner.is_end_stream()) {
            if let Some(t) = self.tap.take() {
                t.finish(None);
            }
        }
        Poll::Ready(Some(Ok(Frame::data(data))))
    }
}

impl Body for Tapped {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        loop {
            if this.ended {
                if let Some(rw) = this.rewrite.take() {
                    return this.pass(rw.release());
                }
                if let Some(t) = this.tap.take() {
                    t.finish(None);
                }
                return Poll::Ready(None);
            }
            match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        let Some(rw) = &mut this.rewrite else { return this.pass(data) };
                        rw.held.extend_from_slice(&data);
                        if rw.ready() {
                            let rw = this.rewrite.take().expect("just seen");
                            return this.pass(rw.release());
                        }
                    }
                    Err(trailers) => return Poll::Ready(Some(Ok(trailers))),
                },
                Some(Err(e)) => {
                    let why = if this.tap_is_response() { format!("upstream closed mid-stream: {e}") } else { format!("the client's request body failed: {e}") };
                    if let Some(fault) = &this.fault {
                        fault.set(400, why.clone());
                    }
                    if let Some(t) = this.tap.take() {
                        t.finish(Some(&why));
                    }
                    return Poll::Ready(Some(Err(e)));
                }
                None => this.ended = true,
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.rewrite.is_none() && (self.ended || self.inner.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        if self.rewrite.is_some() {
            SizeHint::default()
        } else {
            self.inner.size_hint()
        }
    }
}

impl Tapped {
    fn tap_is_response(&self) -> bool {
        self.fault.is_none()
    }
}

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn boxed<B>(body: B) -> UnsyncBoxBody<Bytes, BoxError>
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    UnsyncBoxBody::new(body.map_err(Into::into))
}

/// The client's failure while its request body was sent on: the status to answer and why.
#[derive(Clone, Default)]
pub struct Fault(std::sync::Arc<std::sync::Mutex<Option<(u16, String)>>>);

impl Fault {
    fn set(&self, status: u16, why: String) {
        let mut f = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f.get_or_insert((status, why));
    }

    pub fn get(&self) -> Option<(u16, String)> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

impl Drop for Tapped {
    fn drop(&mut self) {
        if let Some(t) = self.tap.take() {
            let why = if STOPPING.load(std::sync::atomic::Ordering::Relaxed) { "the proxy stopped" } else { t.dropped };
            t.finish(Some(why));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(upstream: &str, held: &[u8]) -> (bool, Vec<u8>) {
        let mut rw = Rewrite::new(std::sync::Arc::new(Upstream::parse(upstream).unwrap()), "http://127.0.0.1:8".into());
        rw.held.extend_from_slice(held);
        (rw.ready(), rw.release().to_vec())
    }

    #[test]
    fn the_endpoint_event_is_rewritten_and_nothing_else() {
        let (ready, out) = rewrite("http://127.0.0.1:9/sse", b"event: endpoint\r\ndata: http://127.0.0.1:9/message?sessionId=a\r\n\r\ndata: {}\r\n");
        assert!(ready);
        assert_eq!(out, b"event: endpoint\r\ndata: http://127.0.0.1:8/message?sessionId=a\r\n\r\ndata: {}\r\n");
        // Relative, or not an endpoint event, or not complete: the bytes as they came.
        for same in [&b"event: endpoint\ndata: /message?sessionId=a\n\n"[..], b"data: http://127.0.0.1:9/x\n\n", b"id: 1\ndata:\n\n"] {
            assert_eq!(rewrite("http://127.0.0.1:9/sse", same).1, same);
        }
        assert!(!rewrite("http://127.0.0.1:9/sse", b"event: endpoint\ndata: /m").0);
        // Under a base, the base goes.
        assert_eq!(rewrite("http://127.0.0.1:9/api/sse", b"data:/api/m?s=1\nevent:endpoint\n\n").1, b"data: /m?s=1\nevent:endpoint\n\n");
    }
}
