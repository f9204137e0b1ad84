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
use mcp_spec_check::transport::header as mcp;
use mcp_spec_types::runtime::meta;
use mcp_spec_types::tree::{Kind, Node};
use mcp_spec_types::validate::Severity;
use tracing::field::Empty;
use tracing::{Level, Span};

use crate::inspect::{Direction, Finding};

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
    if let Some(id) = header(headers, mcp::SESSION_ID) {
        span.record("mcp.session.id", id);
    }
    if let Some(v) = header(headers, mcp::PROTOCOL_VERSION) {
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
    let carried = params.and_then(|p| p.get("_meta")).and_then(|m| m.get(meta::PROTOCOL_VERSION)).or_else(|| params.filter(|_| method == "initialize").and_then(|p| p.get("protocolVersion")));
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
    let direction = dir_label(dir);
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

/// Buckets of one check's time (a message, an HTTP head or end), in seconds: from 10 µs to 1 s.
pub const CHECK_BUCKETS: [f64; 14] = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.25, 1.0];

/// The `method` label of a message that names no method the versions know, and of an answer
/// whose request is not known (OpenTelemetry's word for a value outside a closed set).
pub const OTHER_METHOD: &str = "_OTHER";

/// A method as a label: one of the versions' and extensions' methods, else [`OTHER_METHOD`], so
/// the label's values stay a closed set whatever the peers send.
pub fn method_label(method: &str) -> &'static str {
    mcp_spec_check::versions::methods().get(method).copied().unwrap_or(OTHER_METHOD)
}

/// Observations counted per bucket (not cumulative; the last: past every bound), and their sum in
/// nanoseconds: a counter of [`Stats`]' (the checks' is [`Stats::check_nanos`]), so it is summed once.
pub(crate) struct Histogram {
    bounds: &'static [f64],
    counts: Vec<AtomicU64>,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Self {
        Histogram { bounds, counts: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect() }
    }

    pub(crate) fn observe(&self, took: Duration, sum_nanos: &AtomicU64) {
        let s = took.as_secs_f64();
        let i = self.bounds.iter().position(|b| s <= *b).unwrap_or(self.bounds.len());
        self.counts[i].fetch_add(1, Ordering::Relaxed);
        sum_nanos.fetch_add(took.as_nanos().min(u64::MAX as u128) as u64, Ordering::Relaxed);
    }

    /// The upper bounds (the last `+Inf`) with their counts, not cumulative, and the total seconds.
    pub(crate) fn read(&self, sum_nanos: &AtomicU64) -> (Vec<(f64, u64)>, f64) {
        let bounds = self.bounds.iter().copied().chain([f64::INFINITY]);
        (bounds.zip(self.counts.iter().map(|c| c.load(Ordering::Relaxed))).collect(), sum_nanos.load(Ordering::Relaxed) as f64 / 1e9)
    }
}

/// The layer's counters, shared by its clones.
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
    /// Messages by (method label, direction).
    by_method: Mutex<BTreeMap<(&'static str, &'static str), u64>>,
    /// Each check's time ([`CHECK_BUCKETS`]).
    checks: Histogram,
    /// `mcp.server.operation.duration` ([`DURATION_BUCKETS`]), and its sum.
    durations: Histogram,
    duration_nanos: AtomicU64,
}

impl Default for Stats {
    fn default() -> Self {
        let zero = AtomicU64::new;
        Stats {
            requests: zero(0),
            messages_c2s: zero(0),
            messages_s2c: zero(0),
            refused: zero(0),
            too_long: zero(0),
            unchecked: zero(0),
            internal: zero(0),
            evicted: zero(0),
            reset: zero(0),
            check_nanos: zero(0),
            findings: Mutex::default(),
            by_method: Mutex::default(),
            checks: Histogram::new(&CHECK_BUCKETS),
            durations: Histogram::new(&DURATION_BUCKETS),
            duration_nanos: zero(0),
        }
    }
}

fn dir_label(dir: Direction) -> &'static str {
    if dir == Direction::ClientToServer {
        "c2s"
    } else {
        "s2c"
    }
}

impl Stats {
    pub fn count(&self, dir: Direction, f: &Finding) {
        let severity = if f.severity == Severity::Error { "error" } else { "warning" };
        *self.findings.lock().unwrap_or_else(PoisonError::into_inner).entry((f.rule, severity, dir_label(dir))).or_default() += 1;
    }

    /// Findings by (rule, severity, direction).
    pub fn findings(&self) -> BTreeMap<(&'static str, &'static str, &'static str), u64> {
        self.findings.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Findings of one rule, both directions.
    pub fn findings_of(&self, rule: &str) -> u64 {
        self.findings().iter().filter(|(k, _)| k.0 == rule).map(|(_, n)| n).sum()
    }

    /// Messages by (method, direction): a request's or notification's own method ([`method_label`]),
    /// an answer's request's.
    pub fn messages_by_method(&self) -> BTreeMap<(&'static str, &'static str), u64> {
        self.by_method.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub fn operation(&self, took: Duration) {
        self.durations.observe(took, &self.duration_nanos);
    }

    /// `mcp.server.operation.duration`: each bucket's upper bound (the last `+Inf`) with its count, not
    /// cumulative, and the total seconds.
    pub fn operations(&self) -> (Vec<(f64, u64)>, f64) {
        self.durations.read(&self.duration_nanos)
    }

    /// One check took `took`.
    pub fn checked(&self, took: Duration) {
        self.checks.observe(took, &self.check_nanos);
    }

    /// Each check's time: each bucket's upper bound (the last `+Inf`) with its count, not cumulative,
    /// and the total seconds ([`Stats::check_nanos`] in seconds).
    pub fn checks(&self) -> (Vec<(f64, u64)>, f64) {
        self.checks.read(&self.check_nanos)
    }

    /// Counts the messages of a body (a batch's members) checked `dir`; `answered`: the method of
    /// the request an answer among them answers, when the exchange had one.
    pub fn messages(&self, dir: Direction, body: Node<'_>, answered: Option<&'static str>) {
        let members = body.as_array().map_or_else(|| vec![body], |a| a.iter().collect::<Vec<Node<'_>>>());
        Stats::add(if dir == Direction::ClientToServer { &self.messages_c2s } else { &self.messages_s2c }, members.len() as u64);
        let mut by = self.by_method.lock().unwrap_or_else(PoisonError::into_inner);
        for m in members {
            let method = match m.get("method") {
                Some(name) => name.as_str().map_or(OTHER_METHOD, method_label),
                None => answered.unwrap_or(OTHER_METHOD),
            };
            *by.entry((method, dir_label(dir))).or_default() += 1;
        }
    }

    pub fn get(a: &AtomicU64) -> u64 {
        a.load(Ordering::Relaxed)
    }

    pub fn add(a: &AtomicU64, n: u64) {
        a.fetch_add(n, Ordering::Relaxed);
    }
}
