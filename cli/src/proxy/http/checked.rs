//! `proxy --http --enforce` and `--metrics ADDR`: the forwarding (server.rs's `handle`) as the
//! service that `mcp-spec-guard`'s layer wraps, so a request that breaks a MUST is answered by the
//! layer and never forwarded (and is recorded as the exchange it was), and `GET /metrics` on a
//! listener of its own, serving the layer's counters in Prometheus' text format.
//!
//! The report (`--findings`, stderr) still comes from the checker child (../checking.rs): it
//! numbers findings by the recording's lines and survives a stack overflow in checking. The layer
//! checks in this process, which it must to answer before forwarding; it runs only with these
//! options.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Either, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ALLOW, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use mcp_spec_guard::{Answered, Config, Guard, GuardBody, GuardLayer, McpChecks};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_service::Service;

use super::body::BoxError;
use super::server::{self, Answer, Ctx, Serving};
use crate::args::{CheckArgs, Settings};

/// The layer: enforce or audit mode, checking as the proxy's options say (`--protocol`,
/// `--extension`, `--strict`: the same settings as the checker child's).
pub fn layer(check: &CheckArgs, enforce: bool) -> GuardLayer {
    let config = if enforce { Config::enforce() } else { Config::default() };
    GuardLayer::new(config, McpChecks { settings: Settings::from(check) })
}

/// The forwarding as a `tower` service.
#[derive(Clone)]
pub struct Forwarding(pub Arc<Ctx>);

impl<B> Service<Request<B>> for Forwarding
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Answer;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Answer, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        Box::pin(server::handle(request, self.0.clone()))
    }
}

/// What the guarded accept loop's handlers share.
pub struct Guarded {
    ctx: Arc<Ctx>,
    service: Guard<Forwarding>,
}

impl Guarded {
    /// `layer` around the forwarding of `ctx`.
    pub fn new(layer: &GuardLayer, ctx: Arc<Ctx>) -> Arc<Guarded> {
        Arc::new(Guarded { service: tower_layer::Layer::layer(layer, Forwarding(ctx.clone())), ctx })
    }
}

type AnswerBody = Either<super::body::Tapped, Full<Bytes>>;
type GuardedAnswer = Response<Either<GuardBody<AnswerBody>, AnswerBody>>;

async fn handle(request: Request<Incoming>, g: Arc<Guarded>) -> Result<GuardedAnswer, Infallible> {
    // Kept for the recording in case the layer answers itself (the request is then not forwarded).
    let head = {
        let mut r = Request::new(());
        (*r.method_mut(), *r.uri_mut(), *r.headers_mut()) = (request.method().clone(), request.uri().clone(), request.headers().clone());
        r.into_parts().0
    };
    let mut service = g.service.clone();
    std::future::poll_fn(|cx| Service::<Request<Incoming>>::poll_ready(&mut service, cx)).await?;
    let response = service.call(request).await?;
    let Some(answered) = response.extensions().get::<Answered>().cloned() else { return Ok(response.map(Either::Left)) };
    let (parts, _) = response.into_parts();
    server::record_answered(&g.ctx, &head, answered.request.as_deref(), &parts, &answered.answer);
    Ok(Response::from_parts(parts, Either::Right(Either::Right(Full::new(answered.answer)))))
}

fn refused(g: &Guarded, parts: &hyper::http::request::Parts, status: u16, why: &str) -> GuardedAnswer {
    server::refused(&g.ctx, parts, status, why).map(Either::Right)
}

/// The proxy's accept loop with the layer in front of the forwarding.
pub async fn serve(listener: TcpListener, g: Arc<Guarded>, serving: Arc<Serving>, stop: impl Future<Output = ()>) {
    server::accept(listener, g, serving, stop, handle, refused).await
}

/// The media type of the text `GuardMetrics::text` writes (OpenMetrics, which Prometheus asks for).
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Scrapers served at once; more are closed at once (a scraper retries at its next interval).
const METRICS_CONNECTIONS: usize = 16;

/// How long a scraper may take to send its request head (and a kept-alive connection may idle).
const METRICS_HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `GET /metrics` on `listener` for as long as the runtime runs.
pub async fn serve_metrics(listener: TcpListener, layer: GuardLayer) {
    let connections = Arc::new(Semaphore::new(METRICS_CONNECTIONS));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else { continue };
        let layer = layer.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let answer = metrics_answer(&layer, request.method(), request.uri().path());
                async move { Ok::<_, Infallible>(answer) }
            });
            let mut http1 = hyper::server::conn::http1::Builder::new();
            http1.timer(TokioTimer::new()).header_read_timeout(METRICS_HEADER_TIMEOUT);
            let _ = http1.serve_connection(TokioIo::new(stream), service).await;
            drop(permit);
        });
    }
}

fn metrics_answer(layer: &GuardLayer, method: &Method, path: &str) -> Response<http_body_util::combinators::BoxBody<Bytes, Infallible>> {
    let (status, body) = match (method, path) {
        (&Method::GET, "/metrics") => (StatusCode::OK, layer.metrics().text()),
        (_, "/metrics") => (StatusCode::METHOD_NOT_ALLOWED, "GET only\n".to_string()),
        _ => (StatusCode::NOT_FOUND, "mcp-schema proxy: the counters are at /metrics\n".to_string()),
    };
    let mut r = Response::new(Full::new(Bytes::from(body)).boxed());
    *r.status_mut() = status;
    let ty = if status == StatusCode::OK { OPENMETRICS } else { "text/plain; charset=utf-8" };
    r.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(ty));
    if status == StatusCode::METHOD_NOT_ALLOWED {
        r.headers_mut().insert(ALLOW, HeaderValue::from_static("GET"));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_served_at_their_path_only() {
        let layer = layer(&CheckArgs::default(), false);
        let ok = metrics_answer(&layer, &Method::GET, "/metrics");
        assert_eq!(ok.status(), StatusCode::OK);
        assert_eq!(ok.headers()[CONTENT_TYPE], OPENMETRICS);
        assert_eq!(metrics_answer(&layer, &Method::POST, "/metrics").status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(metrics_answer(&layer, &Method::GET, "/").status(), StatusCode::NOT_FOUND);
    }
}
