//! `mcp-schema proxy --http --listen ADDR --upstream URL --to VERSION`: the bridge over Streamable
//! HTTP. Unlike `proxy --http` it cannot pass bytes through: it ends HTTP on both sides. To the
//! client it is a Streamable HTTP server of the client's version (client.rs); to the upstream it is
//! an HTTP client of `--to` (upstream.rs). Between them one [`Bridge`](super::Bridge) core per
//! client session (session.rs) converts each message and says what became of it; its lines for the
//! client go to the POST whose request they answer or belong to, else to the session's GET stream.
//!
//! The recording numbers the exchanges of both legs with one `x` counter, in the order they begin:
//! a client's request to the bridge, and the bridge's request to the upstream, each take the next
//! number; `leg` on a message line says which side it travelled, so `x` never needs it.

mod client;
mod session;
mod upstream;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;

use super::record::{Bridged, Item};
use super::Counts;
use crate::proxy::http::limits::BodyBudget;
use crate::proxy::http::Target;
use crate::proxy::queue::Queue;
use crate::proxy::recorder;
use crate::proxy::{fail, open_outputs, output, ProxyArgs, QUEUE_LINES};

pub use session::{GET_BACKLOG, POST_QUEUE};

/// Messages of one client batch (2025-03-26) taken; a longer batch is refused with 400.
pub const BATCH_MAX: usize = 1024;

/// What every request's handler shares.
pub(crate) struct Ctx {
    pub to: usize,
    pub url: hyper::Uri,
    pub authority: String,
    pub client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    pub rec: Queue<Item>,
    pub next_x: AtomicU64,
    pub next_stream: AtomicU64,
    /// Client sessions by the `Mcp-Session-Id` the bridge gave them (clients before 2026-07-28).
    pub sessions: Mutex<HashMap<String, Arc<Mutex<session::Session>>>>,
    /// The one bridge all 2026-07-28 clients' stateless requests go through.
    pub stateless: Mutex<Option<Arc<Mutex<session::Session>>>>,
    /// The verdicts of ended sessions.
    pub totals: Mutex<Counts>,
    /// Messages for a client's GET stream that found no room (none open and the backlog full, or one not read).
    pub dropped: AtomicU64,
    /// The bytes of POST bodies held at once (`--body-budget`).
    pub budget: BodyBudget,
}

impl Ctx {
    pub fn x(&self) -> u64 {
        self.next_x.fetch_add(1, Ordering::Relaxed)
    }
}

/// Runs until a signal ends the bridge; returns 0, or 2 if it could not listen or could not write
/// the findings or the recording (said on stderr).
pub fn run(a: &ProxyArgs, t: &Target, to: usize) -> i32 {
    let (stderr, findings, record) = match open_outputs(a) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let url: hyper::Uri = match t.upstream_url.parse() {
        Ok(u) => u,
        Err(e) => return fail(&format!("--upstream {}: {e}", t.upstream_url)),
    };
    let crate::proxy::http::Listening { runtime, listener, client, stop, at, serving } = match crate::proxy::http::listen(&t.listen, &t.serve) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let version = crate::versions::VERSIONS[to].name;
    output::note(&stderr, format!("listening on http://{at}, bridging to {} ({version})", t.shown_url()));
    crate::proxy::http::warn_beyond_loopback(&stderr, &serving);

    let (rec, from_handlers) = crate::proxy::queue::queue(QUEUE_LINES);
    let recording = recorder::start(recorder::Sinks { args: a, findings: findings.clone(), record }, &rec, from_handlers, Bridged { ended: None });

    let ctx = Arc::new(Ctx {
        to,
        authority: t.upstream.authority.clone(),
        url,
        client,
        rec: rec.clone(),
        next_x: AtomicU64::new(0),
        next_stream: AtomicU64::new(1),
        sessions: Mutex::new(HashMap::new()),
        stateless: Mutex::new(None),
        totals: Mutex::new(Counts::default()),
        dropped: AtomicU64::new(0),
        budget: BodyBudget::new(t.serve.body_budget),
    });
    runtime.block_on(crate::proxy::http::server::accept(listener, ctx.clone(), serving.clone(), stop, client::handle, client::refused));
    runtime.shutdown_timeout(Duration::from_millis(200));

    // The sessions still open count too.
    let mut totals = ctx.totals.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let open: Vec<_> = ctx.sessions.lock().unwrap_or_else(PoisonError::into_inner).drain().map(|(_, s)| s).chain(ctx.stateless.lock().unwrap_or_else(PoisonError::into_inner).take()).collect();
    for s in open {
        totals.merge(&s.lock().unwrap_or_else(PoisonError::into_inner).bridge.counts);
    }
    let record_error = recording.finish(&findings);
    crate::proxy::http::report_refusals(&stderr, &serving, &ctx.budget);
    let dropped = ctx.dropped.load(Ordering::Relaxed);
    if dropped > 0 {
        output::note(&stderr, format!("{dropped} messages for clients were dropped: no GET stream open (at most {GET_BACKLOG} wait per session) or one not read (at most {POST_QUEUE} queued)"));
    }
    if a.check.summary {
        crate::bridge::stdio::write_summary(&Mutex::new(totals), &findings, a.check.json);
    }
    let failed = output::report_write_errors(&stderr, &findings, &record_error);
    if failed {
        2
    } else {
        0
    }
}

