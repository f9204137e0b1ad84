//! The check of a response while it passes: [`Tap`] keeps the frames handed on (shared, not
//! copied) until the next poll of the body, then splits them into messages (a JSON body, or SSE
//! events) in a bounded copy and checks each one as the server's. It never alters or holds back
//! what the client gets.

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use mcp_spec_check::sse::{SseEvent, SseParser};
use mcp_spec_types::tree::{Doc, Node};
use mcp_spec_types::validate::Severity;
use tracing::Span;

use crate::inspect::{Direction, Event, Finding};
use crate::shared::Shared;
use crate::sessions::StreamRef;
use crate::telemetry::{record_answer, Stats};

/// How a response body splits into messages.
enum Split {
    /// One JSON body, copied up to the message limit (`over`: it went past, and is not checked).
    Json { buf: Vec<u8>, over: bool },
    /// An event stream, split as it arrives (the checker's parser: its line and data capped).
    Sse { parser: SseParser, events: u64 },
    /// A body that carries no message (a 202's, a plain-text error's): only its end is told.
    Other,
}

pub struct Tap {
    shared: Arc<Shared>,
    stream: StreamRef,
    session: Option<String>,
    /// The stream is this exchange's alone: it is finished with the response.
    own: bool,
    x: u64,
    span: Span,
    /// When the request came (for `mcp.server.operation.duration`); `None` for a GET's stream.
    start: Option<Instant>,
    /// The method of the request the answers of this exchange answer (a single request's).
    answered: Option<&'static str>,
    split: Split,
    taken: Vec<Bytes>,
    bytes: u64,
    ended: bool,
    done: bool,
}

/// Where a response is checked: its stream, session, exchange and span.
pub struct At {
    pub stream: StreamRef,
    /// The session weighed after each check (none for a stream of one exchange).
    pub session: Option<String>,
    pub own: bool,
    pub x: u64,
    pub span: Span,
    pub start: Option<Instant>,
    pub answered: Option<&'static str>,
}

impl Tap {
    /// A tap for a response of `content_type`.
    pub fn new(shared: Arc<Shared>, at: At, content_type: Option<&str>) -> Tap {
        let essence = content_type.map(|c| c.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
        let split = match essence.as_deref() {
            Some("application/json") => Split::Json { buf: Vec::new(), over: false },
            Some("text/event-stream") => Split::Sse { parser: SseParser::new(shared.config.limits.max_message), events: 0 },
            _ => Split::Other,
        };
        Tap { shared, stream: at.stream, session: at.session, own: at.own, x: at.x, span: at.span, start: at.start, answered: at.answered, split, taken: Vec::new(), bytes: 0, ended: false, done: false }
    }

    /// A frame handed on: kept (a reference, not a copy) until [`Tap::check_taken`].
    pub fn take(&mut self, data: &Bytes) {
        self.bytes += data.len() as u64;
        if !matches!(self.split, Split::Other) {
            self.taken.push(data.clone());
        }
    }

    /// The service's body said its last frame has gone.
    pub fn at_end(&mut self) {
        self.ended = true;
    }

    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Splits and checks what was handed on since the last call.
    pub fn check_taken(&mut self) {
        let max = self.shared.config.limits.max_message;
        for chunk in std::mem::take(&mut self.taken) {
            let mut dispatched = Vec::new();
            match &mut self.split {
                Split::Sse { parser, .. } => parser.push(&chunk, |e| dispatched.push(e)),
                Split::Other => {}
                Split::Json { buf, over } => {
                    if !*over && buf.len() + chunk.len() <= max {
                        buf.extend_from_slice(&chunk);
                    } else if !*over {
                        *over = true;
                        *buf = Vec::new();
                    }
                }
            }
            for e in dispatched {
                self.event(e);
            }
        }
    }

    /// One SSE event: a message (its data), or an event without one (a priming event's id).
    fn event(&mut self, e: SseEvent) {
        let Split::Sse { events, .. } = &mut self.split else { return };
        let index = *events;
        *events += 1;
        // Only an id the event carries itself: one that is only still in force (sent with an earlier
        // event) is not sent again.
        let at = Event { index, id: e.id.as_deref().filter(|_| e.has_id), kind: e.event.as_deref(), data: &e.data, retry: e.retry };
        if e.cut.is_some() {
            Stats::add(&self.shared.stats.unchecked, 1);
        } else if e.data.trim().is_empty() {
            let x = self.x;
            self.report(|s| s.event(x, at));
        } else {
            self.message(e.data.as_bytes(), Some(at));
        }
    }

    /// The body ended (`complete`) or stopped: the rest is checked, and the exchange's end.
    pub fn finish(&mut self, complete: bool) {
        if self.done {
            return;
        }
        self.done = true;
        self.check_taken();
        match std::mem::replace(&mut self.split, Split::Json { buf: Vec::new(), over: false }) {
            Split::Json { over: true, .. } => Stats::add(&self.shared.stats.unchecked, 1),
            Split::Json { buf, .. } if buf.is_empty() => {}
            Split::Json { buf, .. } => self.message(&buf, None),
            // An event the stream ended inside is not dispatched (the SSE rules discard it).
            Split::Sse { mut parser, .. } => {
                parser.finish();
            }
            Split::Other => {}
        }
        let (x, bytes) = (self.x, self.bytes);
        let own = self.own;
        self.report(|s| {
            let mut found = s.end(x, bytes, complete);
            if own {
                found.extend(s.finish());
            }
            found
        });
        if let Some(start) = self.start {
            self.shared.stats.operation(start.elapsed());
        }
    }

    /// One server message (or batch of answers) as text.
    fn message(&mut self, text: &[u8], event: Option<Event<'_>>) {
        let x = self.x;
        match Doc::parse_slice(text) {
            Ok(doc) => {
                let root = doc.root();
                self.shared.stats.messages(Direction::ServerToClient, root, self.answered);
                for m in root.as_array().map_or_else(|| vec![root], |a| a.iter().collect::<Vec<Node<'_>>>()) {
                    record_answer(&self.span, m);
                }
                self.report(|s| s.message(x, Direction::ServerToClient, root, event));
            }
            Err(e) => {
                let f = Finding { rule: "json", severity: Severity::Error, pointer: String::new(), message: format!("not JSON: {e}") };
                self.report(|_| vec![f]);
            }
        }
    }
}

impl Tap {
    /// Checks and reports; a server's message is never refused, and a failure is counted by `check`.
    fn report(&self, f: impl FnOnce(&mut dyn crate::inspect::Stream) -> Vec<Finding>) {
        let _ = self.shared.check(&self.stream, self.session.as_deref(), Direction::ServerToClient, &self.span, f);
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        // A body dropped before its end (the client went away), or after its last frame without
        // the poll that would have seen the end.
        let ended = self.ended;
        self.finish(ended);
    }
}
