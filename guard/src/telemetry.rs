//! What the layer tells: one `tracing` span per HTTP request, named and attributed as
//! OpenTelemetry's MCP semantic conventions say (so a `tracing-opentelemetry` exporter carries
//! them as they are), each finding an event on it, and the counters ([`Stats`]).
//!
//! The span's fields: `otel.name` (`{mcp.method.name} {target}`, the target being the tool or
//! prompt name), `otel.kind` (`server`), `otel.status_code` (`ERROR` with `error.type`),
//! `mcp.method.name`, `mcp.protocol.version`, `mcp.session.id`, `jsonrpc.request.id`,
//! `gen_ai.tool.name`, `gen_ai.prompt.name`, `gen_ai.operation.name` (`execute_tool`),
//! `error.type` (the JSON-RPC error code, or `tool_error`), `rpc.response.status_code`,
//! `network.transport` (`tcp`), `network.protocol.name` (`http`), and the layer's own
//! `mcp.guard.refused`. A finding's event has `rule`, `severity`, `pointer`, `direction` and
//! `message`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use http::HeaderMap;
use mcp_spec_types::tree::{Kind, Node};
use mcp_spec_types::validate::Severity;
use tracing::field::Empty;
use tracing::{Level, Span};

use crate::inspect::{Direction, Finding};

/// Where 2026-07-28 carries a request's version.
const PROTOCOL_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The span of one HTTP request, its MCP attributes still empty.
pub fn request_span(method: &http::Method, headers: &HeaderMap) -> Span {
    let span = tracing::info_span!(
        "mcp.request",
        otel.name = %method,
        otel.kind = "server",
        otel.status_code = Empty,
        "mcp.method.name" = Empty,
        "mcp.protocol.version" = Empty,
        "mcp.session.id" = Empty,
        "jsonrpc.request.id" = Empty,
        "gen_ai.tool.name" = Empty,
        "gen_ai.prompt.name" = Empty,
        "gen_ai.operation.name" = Empty,
        "error.type" = Empty,
        "rpc.response.status_code" = Empty,
        "network.transport" = "tcp",
        "network.protocol.name" = "http",
        "mcp.guard.refused" = Empty,
    );
    if let Some(id) = header(headers, "mcp-session-id") {
        span.record("mcp.session.id", id);
    }
    if let Some(v) = header(headers, "mcp-protocol-version") {
        span.record("mcp.protocol.version", v);
    }
    span
}

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Records the request's MCP attributes from its body (a batch: from its first member).
pub fn record_request(span: &Span, body: Node<'_>) {
    let Some(message) = body.as_array().map_or(Some(body), |a| a.first()) else { return };
    let Some(method) = message.get("method").and_then(Node::as_str) else { return };
    span.record("mcp.method.name", method);
    let params = message.get("params");
    let name = params.and_then(|p| p.get("name")).and_then(Node::as_str);
    let target = match (method, name) {
        ("tools/call", Some(tool)) => {
            span.record("gen_ai.tool.name", tool);
            Some(tool)
        }
        ("prompts/get", Some(prompt)) => {
            span.record("gen_ai.prompt.name", prompt);
            Some(prompt)
        }
        _ => None,
    };
    if method == "tools/call" {
        span.record("gen_ai.operation.name", "execute_tool");
    }
    match target {
        Some(t) => span.record("otel.name", format!("{method} {t}")),
        None => span.record("otel.name", method),
    };
    if let Some(id) = message.get("id").and_then(id_text) {
        span.record("jsonrpc.request.id", id);
    }
    let carried = params.and_then(|p| p.get("_meta")).and_then(|m| m.get(PROTOCOL_META_KEY)).or_else(|| params.filter(|_| method == "initialize").and_then(|p| p.get("protocolVersion")));
    if let Some(v) = carried.and_then(Node::as_str) {
        span.record("mcp.protocol.version", v);
    }
}

/// An id as the conventions write it: a string; none for null or a value that is not an id.
fn id_text(id: Node<'_>) -> Option<String> {
    match id.kind() {
        Kind::String(s) => Some(s.to_string()),
        Kind::Number(_) if id.is_i64() || id.is_u64() => Some(id.json_text().to_string()),
        _ => None,
    }
}

/// Records a server message's outcome: `error.type` for an error (its code) or a tool's error.
pub fn record_answer(span: &Span, message: Node<'_>) {
    if let Some(code) = message.get("error").and_then(|e| e.get("code")).and_then(Node::as_i64) {
        record_error(span, code);
    } else if message.get("result").and_then(|r| r.get("isError")).and_then(Node::as_bool) == Some(true) {
        span.record("error.type", "tool_error");
        span.record("otel.status_code", "ERROR");
    }
}

pub fn record_error(span: &Span, code: i64) {
    span.record("error.type", code.to_string());
    span.record("rpc.response.status_code", code);
    span.record("otel.status_code", "ERROR");
}

/// A finding as an event on the request's span.
pub fn event(span: &Span, dir: Direction, f: &Finding, refused: bool) {
    let direction = match dir {
        Direction::ClientToServer => "c2s",
        Direction::ServerToClient => "s2c",
    };
    let (rule, pointer, message) = (f.rule, f.pointer.as_str(), f.message.as_str());
    let severity = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    match f.severity {
        Severity::Error => tracing::event!(parent: span, Level::WARN, rule, severity, pointer, direction, refused, message),
        Severity::Warning => tracing::event!(parent: span, Level::INFO, rule, severity, pointer, direction, refused, message),
    }
}

/// OpenTelemetry's advised buckets for `mcp.server.operation.duration`, in seconds.
pub const DURATION_BUCKETS: [f64; 14] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

/// The layer's counters, shared by its clones.
#[derive(Default)]
pub struct Stats {
    pub requests: AtomicU64,
    /// Messages checked each way (a batch's members one by one).
    pub messages_c2s: AtomicU64,
    pub messages_s2c: AtomicU64,
    /// Requests the layer answered itself (enforce mode).
    pub refused: AtomicU64,
    /// Request bodies past [`crate::Limits::max_body`], passed unchecked (audit) or answered 413.
    pub too_long: AtomicU64,
    /// Response messages past [`crate::Limits::max_message`], passed unchecked.
    pub unchecked: AtomicU64,
    /// The layer's own failures (a panic while checking).
    pub internal: AtomicU64,
    /// Sessions dropped to stay within the limits, and sessions whose state was reset.
    pub evicted: AtomicU64,
    pub reset: AtomicU64,
    /// Time spent checking, in nanoseconds (the latency the layer adds).
    pub check_nanos: AtomicU64,
    findings: Mutex<BTreeMap<(&'static str, &'static str, &'static str), u64>>,
    /// `mcp.server.operation.duration`: counts per bucket of [`DURATION_BUCKETS`] (and one past the last), and the sum.
    durations: [AtomicU64; 15],
    duration_nanos: AtomicU64,
}

impl Stats {
    pub fn count(&self, dir: Direction, f: &Finding) {
        let dir = if dir == Direction::ClientToServer { "c2s" } else { "s2c" };
        let severity = if f.severity == Severity::Error { "error" } else { "warning" };
        *self.findings.lock().unwrap_or_else(PoisonError::into_inner).entry((f.rule, severity, dir)).or_default() += 1;
    }

    /// Findings by (rule, severity, direction).
    pub fn findings(&self) -> BTreeMap<(&'static str, &'static str, &'static str), u64> {
        self.findings.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Findings of one rule, both directions.
    pub fn findings_of(&self, rule: &str) -> u64 {
        self.findings().iter().filter(|(k, _)| k.0 == rule).map(|(_, n)| n).sum()
    }

    pub fn operation(&self, took: Duration) {
        let s = took.as_secs_f64();
        let i = DURATION_BUCKETS.iter().position(|b| s <= *b).unwrap_or(DURATION_BUCKETS.len());
        self.durations[i].fetch_add(1, Ordering::Relaxed);
        self.duration_nanos.fetch_add(took.as_nanos().min(u64::MAX as u128) as u64, Ordering::Relaxed);
    }

    /// Operations measured per bucket of [`DURATION_BUCKETS`] (not cumulative; the last: past it), and their total seconds.
    pub fn operations(&self) -> ([u64; 15], f64) {
        (self.durations.each_ref().map(|a| a.load(Ordering::Relaxed)), self.duration_nanos.load(Ordering::Relaxed) as f64 / 1e9)
    }

    /// Counts the messages of a body (a batch's members) checked `dir`.
    pub fn messages(&self, dir: Direction, body: Node<'_>) {
        let n = body.as_array().map_or(1, |a| a.len() as u64);
        Stats::add(if dir == Direction::ClientToServer { &self.messages_c2s } else { &self.messages_s2c }, n);
    }

    pub fn get(a: &AtomicU64) -> u64 {
        a.load(Ordering::Relaxed)
    }

    pub fn add(a: &AtomicU64, n: u64) {
        a.fetch_add(n, Ordering::Relaxed);
    }
}
