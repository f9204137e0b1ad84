//! `mcp-schema proxy --http --listen ADDR --upstream URL`: a reverse proxy for MCP's Streamable
//! HTTP (and the 2024-11-05 HTTP+SSE transport) on hyper and tokio. Every request goes upstream
//! with its headers (hop-by-hop ones dropped, `Host` the upstream's), and its answer comes back,
//! bodies passed frame by frame as they arrive in both directions (server.rs, body.rs). A tap on
//! each body splits it into messages (a JSON body, each SSE event) and queues them, with their HTTP
//! context, for the recorder (record.rs) without waiting; the recorder writes `--record` and feeds
//! the same checker child as the stdio proxy (../checking.rs), one checker stream per
//! `Mcp-Session-Id`. With `--enforce` or `--metrics`, the guard layer wraps the forwarding too
//! (checked.rs). The proxy runs until SIGINT, SIGTERM or SIGHUP, then reports the end of each
//! stream and exits.

mod body;
mod checked;
pub mod guard;
pub mod limits;
pub mod record;
pub(crate) mod server;
pub mod upstream;

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

pub use body::{EVENT_MAX, FIRST_EVENT_MAX};
pub use record::{EXCHANGES_MAX, REQUEST_HEADERS, RESPONSE_HEADERS, SESSIONS_MAX, VALUE_MAX};
pub use body::tap_lines;
pub use limits::ServeOptions;
pub use upstream::{redact_query, Upstream};

pub use super::setup::Target;
use super::setup::{fail, open_outputs, ProxyArgs};
use super::{output, recorder, QUEUE_LINES};

/// Runs until a signal ends the proxy; returns 0, or 2 if it could not listen or could not write
/// the findings or the recording (said on stderr).
pub fn run(a: &ProxyArgs, t: &Target) -> i32 {
    let (stderr, findings, record) = match open_outputs(a) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let Listening { runtime, listener, client, stop, at, serving } = match listen(&t.listen, &t.serve) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    // The layer checks in this process only when asked: to answer before forwarding, or to count.
    let layer = (t.enforce || t.metrics.is_some()).then(|| checked::layer(&a.check, t.enforce));
    let mut announced = format!("listening on http://{at}, forwarding to {}", t.shown_url());
    if let (Some(layer), Some(addr)) = (&layer, &t.metrics) {
        let metrics = match runtime.block_on(tokio::net::TcpListener::bind(addr)).and_then(|l| Ok((l.local_addr()?, l))) {
            Ok(m) => m,
            Err(e) => return fail(&format!("could not listen on {addr} (--metrics): {e}")),
        };
        announced.push_str(&format!(", metrics on http://{}/metrics", metrics.0));
        runtime.spawn(checked::serve_metrics(metrics.1, layer.clone()));
    }
    if t.enforce {
        announced.push_str(", refusing requests that break a MUST (--enforce)");
    }
    output::note(&stderr, announced);
    warn_beyond_loopback(&stderr, &serving);

    let (rec, from_forwarders) = super::queue::queue(QUEUE_LINES);
    let recording = recorder::start(recorder::Sinks { args: a, findings: findings.clone(), record }, &rec, from_forwarders, record::Routed::default());

    let budget = limits::BodyBudget::new(t.serve.body_budget);
    let ctx = Arc::new(server::Ctx { upstream: Arc::new(t.upstream.clone()), client, rec: rec.clone(), next_x: AtomicU64::new(0), budget: budget.clone() });
    match layer {
        Some(layer) => {
            runtime.block_on(checked::serve(listener, checked::Guarded::new(&layer, ctx), serving.clone(), stop));
        }
        None => runtime.block_on(server::serve(listener, ctx, serving.clone(), stop)),
    }
    // The exchanges still open end here: their taps record them as cut.
    body::STOPPING.store(true, std::sync::atomic::Ordering::Relaxed);
    runtime.shutdown_timeout(Duration::from_millis(200));

    let record_error = recording.finish(&findings);
    report_refusals(&stderr, &serving, &budget);
    let failed = output::report_write_errors(&stderr, &findings, &record_error);
    if failed {
        2
    } else {
        0
    }
}

/// What both HTTP modes (`--http`, and the bridge over HTTP) run on: the runtime, the bound
/// listener, a client for the upstream, the stop signal and the address bound.
pub(crate) struct Listening<B, S> {
    pub runtime: tokio::runtime::Runtime,
    pub listener: tokio::net::TcpListener,
    pub client: hyper_util::client::legacy::Client<hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>, B>,
    pub stop: S,
    /// The address actually bound (`--listen` may ask for port 0).
    pub at: String,
    /// The accept loop's guard and limits, for the address bound.
    pub serving: Arc<server::Serving>,
}

/// A listen address other machines can reach: said at the start, as the proxy then serves them too.
pub(crate) fn warn_beyond_loopback(stderr: &output::Out, serving: &server::Serving) {
    if serving.guard.listens_beyond_loopback() {
        output::note(
            stderr,
            "warning: listening beyond loopback: other machines can reach the proxy and, through it, the upstream with no authentication of its own; `Host` and `Origin` are still checked (--allow-host, --allow-origin)".into(),
        );
    }
}

/// What the limits refused while the proxy ran, said at its end (each refused request is in the recording too).
pub(crate) fn report_refusals(stderr: &output::Out, serving: &server::Serving, budget: &limits::BodyBudget) {
    let connections = serving.refused_connections.load(std::sync::atomic::Ordering::Relaxed);
    if connections > 0 {
        output::note(stderr, format!("{connections} connections were answered 503 and closed: {} were open (--max-connections)", serving.max_connections));
    }
    let bodies = budget.refused.load(std::sync::atomic::Ordering::Relaxed);
    if bodies > 0 {
        output::note(stderr, format!("{bodies} bodies found no room in the {} MiB held at once (--body-budget): requests answered 503, responses not checked", budget.total >> 20));
    }
}

/// Starts the runtime, binds `listen` and makes the upstream client; an error says which step failed.
pub(crate) fn listen<B>(listen: &str, serve: &ServeOptions) -> Result<Listening<B, impl std::future::Future<Output = ()>>, String>
where
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
{
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| format!("starting: {e}"))?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(listen)).map_err(|e| format!("could not listen on {listen}: {e}"))?;
    let client = server::client()?;
    // Caught before the address is announced: whoever waits for it may signal at once.
    let stop = {
        let _in_runtime = runtime.enter();
        stopped()
    };
    let bound = listener.local_addr().map_err(|e| format!("could not listen on {listen}: {e}"))?;
    let serving = Arc::new(server::Serving::new(bound, serve));
    Ok(Listening { runtime, listener, client, stop, at: bound.to_string(), serving })
}

/// Catches SIGINT, SIGTERM and SIGHUP now (call it inside the runtime); the future resolves on
/// the first of them.
#[cfg(unix)]
pub(crate) fn stopped() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let kinds = [SignalKind::interrupt(), SignalKind::terminate(), SignalKind::hangup()];
    let mut streams: Vec<_> = kinds.into_iter().filter_map(|k| signal(k).ok()).collect();
    async move {
        if streams.is_empty() {
            return std::future::pending().await;
        }
        let waits = streams.iter_mut().map(|s| Box::pin(s.recv()));
        futures_select_all(waits.collect()).await;
    }
}

#[cfg(not(unix))]
pub(crate) fn stopped() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Waits for the first of the futures.
#[cfg(unix)]
async fn futures_select_all<F: std::future::Future + Unpin>(mut futs: Vec<F>) {
    std::future::poll_fn(|cx| {
        for f in &mut futs {
            if std::pin::Pin::new(&mut *f).poll(cx).is_ready() {
                return std::task::Poll::Ready(());
            }
        }
        std::task::Poll::Pending
    })
    .await
}
