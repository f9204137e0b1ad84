//! The host's side: each connection served with hyper (HTTP/1.1), each request sent upstream
//! with its headers and body as they come, and the answer sent back the same way.

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{Either, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

use super::body::{BodyTap, Rewrite, Tapped};
use super::record::{self, Rec, Recorder, Route};
use super::upstream::{self, Upstream};

pub type Upstreams = Client<HttpsConnector<HttpConnector>, Tapped>;
type Answer = Response<Either<Tapped, Full<Bytes>>>;

/// What every request's handler shares.
pub struct Ctx {
    pub upstream: Arc<Upstream>,
    pub client: Upstreams,
    pub rec: Recorder,
    pub next_x: AtomicU64,
}

/// The client to the upstream: HTTP/1.1, `https://` with rustls and the compiled-in Mozilla roots
/// (any body type: the bridge sends bodies of its own).
pub fn client<B>() -> Result<Client<HttpsConnector<HttpConnector>, B>, String>
where
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
{
    // Each frame goes out at once: no Nagle delay on a body passed piece by piece.
    let mut tcp = HttpConnector::new();
    tcp.set_nodelay(true);
    tcp.enforce_http(false);
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
        .map_err(|e| format!("TLS setup: {e}"))?
        .https_or_http()
        .enable_http1()
        .wrap_connector(tcp);
    Ok(Client::builder(TokioExecutor::new()).build(https))
}

/// Accepts connections until `stop` resolves, each request answered by `handle` (the proxy's, or
/// the bridge's over HTTP).
pub async fn accept<C, F, B>(listener: TcpListener, ctx: Arc<C>, stop: impl Future<Output = ()>, handle: fn(Request<Incoming>, Arc<C>) -> F)
where
    C: Send + Sync + 'static,
    F: Future<Output = Result<Response<B>, Infallible>> + Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of descriptors and the like: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => return,
        };
        let _ = stream.set_nodelay(true);
        let ctx = ctx.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| handle(req, ctx.clone()));
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

/// The proxy's accept loop.
pub async fn serve(listener: TcpListener, ctx: Arc<Ctx>, stop: impl Future<Output = ()>) {
    accept(listener, ctx, stop, handle).await
}

fn is_json(h: &hyper::HeaderMap) -> bool {
    h.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_none_or(|v| {
        let m = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        m == "application/json" || m.ends_with("+json")
    })
}

async fn handle(req: Request<Incoming>, ctx: Arc<Ctx>) -> Result<Answer, Infallible> {
    let x = ctx.next_x.fetch_add(1, Ordering::Relaxed);
    let (mut parts, body) = req.into_parts();
    let path = parts.uri.path().to_string();
    let query = parts.uri.query().map(str::to_string);
    let session = record::header(&parts.headers, "mcp-session-id");
    let line = record::request_line(x, parts.method.as_str(), &path, query.as_deref(), &parts.headers);
    ctx.rec.send(Rec { x, line, route: Route::Request(session), check: None });

    let proxy_origin = parts.headers.get(HOST).and_then(|h| h.to_str().ok()).map(|h| format!("http://{h}"));
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let uri = match ctx.upstream.map(target) {
        Ok(u) => u,
        Err(e) => return Ok(refuse(&ctx, x, StatusCode::BAD_REQUEST, &format!("no upstream URL for this path: {e}"))),
    };
    let tap = BodyTap::request(ctx.rec.clone(), x, parts.method == Method::POST && is_json(&parts.headers));
    parts.uri = uri;
    upstream::upstream_request_headers(&mut parts.headers, &ctx.upstream);
    let (is_get, is_delete) = (parts.method == Method::GET, parts.method == Method::DELETE);
    let up = Request::from_parts(parts, Tapped::new(body, tap, None));
    let resp = match ctx.client.request(up).await {
        Ok(r) => r,
        Err(e) => {
            let mut why = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                why.push_str(&format!(": {s}"));
                source = s.source();
            }
            return Ok(refuse(&ctx, x, StatusCode::BAD_GATEWAY, &format!("the upstream could not be reached: {why}")));
        }
    };
    let (mut parts, body) = resp.into_parts();
    let session = record::header(&parts.headers, "mcp-session-id");
    let ends = is_delete && parts.status.is_success();
    let route = Route::Response { session, ends };
    ctx.rec.send(Rec { x, line: record::response_line(x, parts.status.as_u16(), &parts.headers), route, check: None });
    upstream::strip_hop_by_hop(&mut parts.headers);
    let content_type = parts.headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let sse = content_type.as_deref().is_some_and(|c| c.trim_start().to_ascii_lowercase().starts_with("text/event-stream"));
    // Only a GET's stream can start with a 2024-11-05 `endpoint` event.
    let rewrite = match (is_get && sse, proxy_origin) {
        (true, Some(origin)) => {
            parts.headers.remove(CONTENT_LENGTH);
            Some(Rewrite::new(ctx.upstream.clone(), origin))
        }
        _ => None,
    };
    let tap = BodyTap::response(ctx.rec.clone(), x, content_type.as_deref());
    Ok(Response::from_parts(parts, Either::Left(Tapped::new(body, tap, rewrite))))
}

/// An answer of the proxy's own (the upstream could not be reached): recorded as the response,
/// with the end line saying why.
fn refuse(ctx: &Ctx, x: u64, status: StatusCode, why: &str) -> Answer {
    let body = format!("mcp-schema proxy: {why}\n");
    let mut resp = Response::new(Either::Right(Full::new(Bytes::from(body.clone()))));
    *resp.status_mut() = status;
    resp.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    ctx.rec.send(Rec { x, line: record::response_line(x, status.as_u16(), resp.headers()), route: Route::Response { session: None, ends: false }, check: None });
    ctx.rec.send(Rec { x, line: record::end_line(x, body.len() as u64, Some(why)), route: Route::End, check: None });
    resp
}
