//! The layer's counters for Prometheus (feature `metrics`): [`GuardMetrics`], a `prometheus-client`
//! collector read at each scrape, so the layer keeps one set of counters ([`Stats`]) whether or
//! not it is scraped. Labels are closed sets: `rule` (the checker's catalogue), `severity`,
//! `method`, `direction` (`c2s`, `s2c`).
//!
//! - `mcp_guard_requests_total`, `mcp_guard_messages_total{method,direction}` (`method`: the
//!   versions' methods, an answer its request's, else `_OTHER`),
//!   `mcp_guard_findings_total{rule,severity,direction}`, `mcp_guard_refused_total`,
//!   `mcp_guard_unchecked_total{what}` (`body`: past the body limit, `message`: past the message
//!   limit), `mcp_guard_internal_total`, `mcp_guard_sessions_dropped_total{why}` (`evicted`, `reset`);
//! - `mcp_guard_check_seconds`: a histogram of each check's time (the latency the layer adds);
//! - `mcp_guard_sessions`, `mcp_guard_session_bytes`: kept now;
//! - `mcp_server_operation_duration_seconds`: OpenTelemetry's `mcp.server.operation.duration`,
//!   with its advised buckets.

use std::fmt;
use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, NoLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::{Registry, Unit};

use crate::shared::Shared;
use crate::telemetry::Stats;

/// The collector of one layer's counters (its clones share them).
pub struct GuardMetrics {
    pub(crate) shared: Arc<Shared>,
}

impl fmt::Debug for GuardMetrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GuardMetrics")
    }
}

impl GuardMetrics {
    /// The counters in Prometheus' text format (OpenMetrics), as a `/metrics` endpoint serves them.
    pub fn text(self) -> String {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(self));
        let mut out = String::new();
        // Writing to a String does not fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
        out
    }
}

fn counter(encoder: &mut DescriptorEncoder<'_>, name: &str, help: &str, value: u64) -> fmt::Result {
    encoder.encode_descriptor(name, help, None, MetricType::Counter)?.encode_counter::<NoLabelSet, _, u64>(&value, None)
}

/// A histogram in seconds from per-bucket counts (not cumulative, the last `+Inf`).
fn histogram(encoder: &mut DescriptorEncoder<'_>, name: &str, help: &str, buckets: &[(f64, u64)], sum: f64) -> fmt::Result {
    let count = buckets.iter().map(|b| b.1).sum();
    encoder.encode_descriptor(name, help, Some(&Unit::Seconds), MetricType::Histogram)?.encode_histogram::<NoLabelSet>(sum, count, buckets, None)
}

fn gauge(encoder: &mut DescriptorEncoder<'_>, name: &str, help: &str, value: u64) -> fmt::Result {
    encoder.encode_descriptor(name, help, None, MetricType::Gauge)?.encode_gauge(&value)
}

impl Collector for GuardMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> fmt::Result {
        let s = &self.shared.stats;
        counter(&mut encoder, "mcp_guard_requests", "HTTP requests seen", Stats::get(&s.requests))?;
        let mut m = encoder.encode_descriptor("mcp_guard_messages", "JSON-RPC messages checked, by method (an answer: its request's) and direction", None, MetricType::Counter)?;
        for ((method, dir), n) in s.messages_by_method() {
            m.encode_family(&[("method", method), ("direction", dir)])?.encode_counter::<NoLabelSet, _, u64>(&n, None)?;
        }
        let mut m = encoder.encode_descriptor("mcp_guard_findings", "Findings reported, by rule, severity and direction", None, MetricType::Counter)?;
        for ((rule, severity, dir), n) in s.findings() {
            m.encode_family(&[("rule", rule), ("severity", severity), ("direction", dir)])?.encode_counter::<NoLabelSet, _, u64>(&n, None)?;
        }
        counter(&mut encoder, "mcp_guard_refused", "Requests the layer answered itself (enforce mode)", Stats::get(&s.refused))?;
        let mut m = encoder.encode_descriptor("mcp_guard_unchecked", "Request bodies and response messages past their limit, not checked", None, MetricType::Counter)?;
        for (what, n) in [("body", &s.too_long), ("message", &s.unchecked)] {
            m.encode_family(&[("what", what)])?.encode_counter::<NoLabelSet, _, u64>(&Stats::get(n), None)?;
        }
        counter(&mut encoder, "mcp_guard_internal", "The layer's own failures (a check that panicked)", Stats::get(&s.internal))?;
        let mut m = encoder.encode_descriptor("mcp_guard_sessions_dropped", "Sessions dropped to stay within the limits, or reset", None, MetricType::Counter)?;
        for (why, n) in [("evicted", &s.evicted), ("reset", &s.reset)] {
            m.encode_family(&[("why", why)])?.encode_counter::<NoLabelSet, _, u64>(&Stats::get(n), None)?;
        }
        let (buckets, sum) = s.checks();
        histogram(&mut encoder, "mcp_guard_check", "Time of each check (a message, an HTTP head or end): the latency the layer adds", &buckets, sum)?;
        let (kept, bytes) = self.shared.sessions.usage();
        gauge(&mut encoder, "mcp_guard_sessions", "Sessions kept", kept as u64)?;
        gauge(&mut encoder, "mcp_guard_session_bytes", "Bytes the kept sessions' checkers may hold", bytes as u64)?;
        let (buckets, sum) = s.operations();
        let help = "Time from a request's receipt to the end of its answer (OpenTelemetry's mcp.server.operation.duration)";
        histogram(&mut encoder, "mcp_server_operation_duration", help, &buckets, sum)
    }
}
