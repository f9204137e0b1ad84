//! The check of a response while it passes: [`Tap`] keeps the frames handed on (shared, not
//! copied) until the next poll of the body, then splits them into messages (a JSON body, or SSE
//! events) in a bounded copy and checks each one as the server's. It never alters or holds back
//! what the client gets.

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
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
}

pub struct Tap {
    shared: Arc<Shared>,
    stream: StreamRef,
    session: Option<String>,
    x: u64,
    span: Span,
    /// When the request came (for `mcp.server.operation.duration`); `None` for a GET's stream.
    start: Option<Instant>,
    split: Split,
    taken: Vec<Bytes>,
    bytes: u64,
    ended: bool,
    done: bool,
}

/// Where a response is checked: its stream, session, exchange and span.
pub struct At {
    pub stream: StreamRef,
    pub session: Option<String>,
    pub x: u64,
    pub span: Span,
    pub start: Option<Instant>,
}

impl Tap {
    /// A tap for a response of `content_type`; `None` for one that carries no message.
    pub fn new(shared: Arc<Shared>, at: At, content_type: Option<&str>) -> Option<Tap> {
        let essence = content_type.map(|c| c.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
        let split = match essence.as_deref() {
            Some("application/json") => Split::Json { buf: Vec::new(), over: false },
            _ => return None,
        };
        Some(Tap { shared, stream: at.stream, session: at.session, x: at.x, span: at.span, start: at.start, split, taken: Vec::new(), bytes: 0, ended: false, done: false })
    }

    /// A frame handed on: kept (a reference, not a copy) until [`Tap::check_taken`].
    pub fn take(&mut self, data: &Bytes) {
        self.bytes += data.len() as u64;
        self.taken.push(data.clone());
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
            match &mut self.split {
                Split::Json { buf, over } => {
                    if !*over && buf.len() + chunk.len() <= max {
                        buf.extend_from_slice(&chunk);
                    } else if !*over {
                        *over = true;
                        *buf = Vec::new();
                    }
                }
            }
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
        }
        let (x, bytes) = (self.x, self.bytes);
        self.report(|s| s.end(x, bytes, complete));
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
