//! What every clone of a layer shares (settings, sessions, counters), and the one place a check
//! runs: [`Shared::check`] calls the checker, catches its panics, weighs the session, and reports
//! each finding as its rule's level says.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use mcp_spec_types::tree::Node;
use tracing::Span;

use crate::config::{Config, Level, Mode};
use crate::inspect::{Direction, Finding, Stream};
use crate::sessions::{lock, Dropped, Sessions, StreamRef};
use crate::telemetry::{event, Stats};

pub(crate) struct Shared {
    pub config: Config,
    pub sessions: Sessions,
    pub stats: Stats,
    next_x: AtomicU64,
}

impl Shared {
    pub fn new(config: Config, sessions: Sessions) -> Shared {
        Shared { config, sessions, stats: Stats::default(), next_x: AtomicU64::new(0) }
    }

    /// The next exchange's number (from 1).
    pub fn next_exchange(&self) -> u64 {
        self.next_x.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Runs `f` on `stream` (a panic is the layer's failure, counted, and resets the stream),
    /// reports each finding on `span` as its rule's level says, and returns those it refuses.
    /// `Err` when the check failed.
    pub fn check(&self, stream: &StreamRef, session: Option<&str>, dir: Direction, span: &Span, f: impl FnOnce(&mut dyn Stream) -> Vec<Finding>) -> Result<Vec<Finding>, ()> {
        let start = Instant::now();
        let found = {
            let mut s = lock(stream);
            let r = catch_unwind(AssertUnwindSafe(|| f(&mut **s)));
            if r.is_err() {
                *s = self.sessions.new_stream(None);
            }
            r
        };
        let found = match found {
            Ok(found) => found,
            Err(_) => {
                Stats::add(&self.stats.internal, 1);
                tracing::event!(parent: span, tracing::Level::ERROR, "the check panicked (a bug in the checker); its stream starts over");
                return Err(());
            }
        };
        if let Some(id) = session {
            self.dropped(self.sessions.weigh(id, stream));
        }
        self.stats.checked(start.elapsed());
        let mut refused = Vec::new();
        for f in found {
            let level = self.config.level(f.rule, f.severity);
            if level == Level::Off {
                continue;
            }
            let refuse = level == Level::Refuse && self.config.mode == Mode::Enforce && dir == Direction::ClientToServer;
            event(span, dir, &f, refuse);
            self.stats.count(dir, &f);
            if refuse {
                refused.push(f);
            }
        }
        Ok(refused)
    }

    pub fn dropped(&self, d: Dropped) {
        Stats::add(&self.stats.evicted, d.evicted);
        Stats::add(&self.stats.reset, d.reset);
    }

    /// The stream a request is checked on: its session's; without one, one of its own exchange, or
    /// an `initialize`'s to be adopted by the session its answer names. `version`: what its
    /// `MCP-Protocol-Version` header names, for a stream that starts without an `initialize`.
    pub fn stream_for(&self, session: Option<&str>, body: Option<Node<'_>>, version: Option<&str>) -> (StreamRef, Owner) {
        if let Some(id) = session {
            let (s, d) = self.sessions.session(id, version.or(Some(HEADERLESS_VERSION)));
            self.dropped(d);
            return (s, Owner::Session);
        }
        let initialize = body.and_then(|b| b.get("method")).and_then(Node::as_str) == Some("initialize");
        (self.sessions.fresh(version), if initialize { Owner::Initialize } else { Owner::Exchange })
    }
}

/// The version of a session's request without `MCP-Protocol-Version`: "the server SHOULD assume
/// protocol version 2025-03-26" (the transports page, from 2025-06-18 on), the one version of
/// Streamable HTTP without the header.
const HEADERLESS_VERSION: &str = "2025-03-26";

/// Whose a request's stream is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Its session's (`Mcp-Session-Id`).
    Session,
    /// An `initialize`'s without a session: the session its answer names takes it.
    Initialize,
    /// Its exchange's alone: it ends with the response.
    Exchange,
}
