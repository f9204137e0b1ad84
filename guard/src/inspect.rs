//! The seam between the layer and a checker: the layer feeds one stream of checks per session
//! with the HTTP exchanges and the messages they carry, in the order they happen, and gets back
//! findings. [`Checks`] makes a stream; [`Stream`] is one session's state.

use http::{HeaderMap, Method, StatusCode, Uri};
use mcp_spec_types::tree::Node;
use mcp_spec_types::validate::Severity;

use crate::config::Limits;

/// Which way a message travelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ClientToServer,
    ServerToClient,
}

/// One broken rule in a message or an exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's stable id (`type`, `jsonrpc.id`, `transport.mcp-method-header`, ...).
    pub rule: &'static str,
    pub severity: Severity,
    /// JSON pointer into the HTTP body: a batch member's findings start with its index (`/0/...`);
    /// `""` is the whole body, or the exchange for a rule on its HTTP part.
    pub pointer: String,
    pub message: String,
}

/// A request's head as the checker reads it.
#[derive(Debug, Clone, Copy)]
pub struct RequestHead<'a> {
    pub method: &'a Method,
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
}

/// An SSE event of a response: its index in the stream (from 0) and the fields it had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event<'a> {
    pub index: u64,
    /// The last event id in force.
    pub id: Option<&'a str>,
    /// The `event` field.
    pub kind: Option<&'a str>,
    /// The data, when it is not a message (a message is handed to [`Stream::message`]).
    pub data: &'a str,
    pub retry: Option<u64>,
}

/// One stream of checks (a session's, or the requests without one): exchange `x` is one HTTP
/// request and its response, numbered by the layer.
pub trait Stream: Send {
    /// A request's head, before its messages.
    fn request(&mut self, _x: u64, _head: RequestHead<'_>) -> Vec<Finding> {
        Vec::new()
    }

    /// One HTTP body's JSON (a message, or a batch of them), or an SSE event's (`event`).
    fn message(&mut self, x: u64, dir: Direction, body: Node<'_>, event: Option<Event<'_>>) -> Vec<Finding>;

    /// A response's head, after the request's messages.
    fn response(&mut self, _x: u64, _status: StatusCode, _headers: &HeaderMap) -> Vec<Finding> {
        Vec::new()
    }

    /// An SSE event that carried no message.
    fn event(&mut self, _x: u64, _event: Event<'_>) -> Vec<Finding> {
        Vec::new()
    }

    /// The response body ended (`complete`) or was dropped before its end, after `bytes`.
    fn end(&mut self, _x: u64, _bytes: u64, _complete: bool) -> Vec<Finding> {
        Vec::new()
    }

    /// The stream is over (its session ended, or its one exchange): what only the end shows.
    fn finish(&mut self) -> Vec<Finding> {
        Vec::new()
    }

    /// The bytes the stream holds now, or the most it can hold (what the session limits weigh).
    fn weight(&self) -> usize {
        0
    }
}

/// What makes streams: one per session, one per exchange without a session.
pub trait Checks: Send + Sync + 'static {
    /// A stream within `limits.session_bytes`; `version`: the one the `MCP-Protocol-Version` header
    /// of its first request names, for a stream that starts without an `initialize` (one
    /// exchange's, or a session the layer did not see open); `None` when the stream learns it.
    fn stream(&self, limits: &Limits, version: Option<&str>) -> Box<dyn Stream>;
}
