//! The host's side: each connection served with hyper (HTTP/1.1), each request sent upstream
//! with its headers and body as they come, and the answer sent back the same way.

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{Either, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE, HOST, ORIGIN};
use hyper::{Method, Request, Response, StatusCode};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::body::{BodyTap, Fault, Rewrite, Tapped};
use super::guard::{Guard, Refusal, Seen};
use super::limits::{BodyBudget, ServeOptions};
use crate::input::MAX_LINE;
use crate::transport::header::SESSION_ID;
use super::record::{self, Rec, Recorder, Route};
use super::upstream::{self, Upstream};

pub type Upstreams = Client<HttpsConnector<HttpConnector>, Tapped>;
pub(super) type Answer = Response<Either<Tapped, Full<Bytes>>>;

/// What every request's handler shares.
pub struct Ctx {
    pub upstream: Arc<Upstream>,
    pub client: Upstreams,
    pub rec: Recorder,
    pub next_x: AtomicU64,
    pub budget: BodyBudget,
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

/// How the accept loop serves: who may use it ([`Guard`]), how long a request head may take (and
/// a kept-alive connection idle), and how many connections are served at once.
pub struct Serving {
    pub guard: Guard,
    pub header_timeout: Option<Duration>,
    pub max_connections: usize,
    connections: Arc<Semaphore>,
    /// Connections closed at once because [`Serving::max_connections`] were open.
    pub refused_connections: AtomicU64,
}

impl Serving {
    pub fn new(listen: std::net::SocketAddr, o: &ServeOptions) -> Serving {
        Serving {
            guard: Guard::new(listen, &o.allow_hosts, &o.allow_origins),
            header_timeout: o.header_timeout,
            max_connections: o.max_connections.max(1),
            connections: Arc::new(Semaphore::new(o.max_connections.max(1))),
            refused_connections: AtomicU64::new(0),
        }
    }
}

/// What the guard reads of a request.
fn check(guard: &Guard, req: &Request<Incoming>) -> Result<(), Refusal> {
    let hosts: Vec<&[u8]> = req.headers().get_all(HOST).iter().map(|v| v.as_bytes()).collect();
    let origins: Vec<&[u8]> = req.headers().get_all(ORIGIN).iter().map(|v| v.as_bytes()).collect();
    let http11 = req.version() >= hyper::Version::HTTP_11;
    guard.check(&Seen { http11, hosts: &hosts, authority: req.uri().authority().map(|a| a.as_str()), origins: &origins })
}

/// The answer to a connection past the limit, written without waiting before it is closed.
fn busy(max: usize) -> String {
    let body = format!("mcp-schema proxy: too many connections (at most {max} at once, --max-connections); try again later\n");
    format!("HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\nretry-after: 1\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\n\r\n{body}", body.len())
}

/// Accepts connections until `stop` resolves, each request answered by `handle` (the proxy's, or
/// the bridge's over HTTP) once the guard lets it pass; one it refuses is answered by `refuse`
/// (which records it). A connection past [`Serving::max_connections`] is answered 503 and closed.
pub async fn accept<C, F, B>(
    listener: TcpListener,
    ctx: Arc<C>,
    serving: Arc<Serving>,
    stop: impl Future<Output = ()>,
    handle: fn(Request<Incoming>, Arc<C>) -> F,
    refuse: fn(&C, &hyper::http::request::Parts, u16, &str) -> Response<B>,
) where
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
        let Ok(permit) = serving.connections.clone().try_acquire_owned() else {
            serving.refused_connections.fetch_add(1, Ordering::Relaxed);
            let _ = stream.try_write(busy(serving.max_connections).as_bytes());
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (ctx, serving) = (ctx.clone(), serving.clone());
        let header_timeout = serving.header_timeout;
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                let (ctx, serving) = (ctx.clone(), serving.clone());
                async move {
                    match check(&serving.guard, &req) {
                        Ok(()) => handle(req, ctx).await,
                        Err(r) => {
                            let (parts, _) = req.into_parts();
                            Ok(refuse(&ctx, &parts, r.status, &r.why))
                        }
                    }
                }
            });
            let mut http1 = hyper::server::conn::http1::Builder::new();
            // The head's timeout also ends a kept-alive connection idle that long between requests.
            if let Some(t) = header_timeout {
                http1.timer(TokioTimer::new()).header_read_timeout(t);
            }
            let _ = http1.serve_connection(TokioIo::new(stream), service).await;
            drop(permit);
        });
    }
}

/// The proxy's accept loop.
pub async fn serve(listener: TcpListener, ctx: Arc<Ctx>, serving: Arc<Serving>, stop: impl Future<Output = ()>) {
    accept(listener, ctx, serving, stop, handle::<Incoming>, refused).await
}

/// What the guard layer answered itself (`--enforce`), recorded as the exchange it was: the
/// request's head and body, the answer's head and body, and its end.
pub(super) fn record_answered(ctx: &Ctx, request: &hyper::http::request::Parts, body: Option<&[u8]>, answer: &hyper::http::response::Parts, answer_body: &[u8]) {
    let x = ctx.next_x.fetch_add(1, Ordering::Relaxed);
    let session = record::header(&request.headers, SESSION_ID);
    let line = record::request_line(x, request.method.as_str(), request.uri.path(), request.uri.query(), &request.headers);
    ctx.rec.offer(Rec { x, line, route: Route::Request(session), check: None });
    if let Some(body) = body {
        BodyTap::request(ctx.rec.clone(), ctx.budget.clone(), x, is_json(&request.headers)).whole(body);
    }
    let route = Route::Response { session: None, ends: false };
    ctx.rec.offer(Rec { x, line: record::response_line(x, answer.status.as_u16(), &answer.headers), route, check: None });
    let content_type = answer.headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
    BodyTap::response(ctx.rec.clone(), ctx.budget.clone(), x, content_type).whole(answer_body);
}

/// A request the guard refused: recorded (request, response and an end saying why), not sent on.
pub(super) fn refused(ctx: &Ctx, parts: &hyper::http::request::Parts, status: u16, why: &str) -> Answer {
    let x = ctx.next_x.fetch_add(1, Ordering::Relaxed);
    let session = record::header(&parts.headers, SESSION_ID);
    let line = record::request_line(x, parts.method.as_str(), parts.uri.path(), parts.uri.query(), &parts.headers);
    ctx.rec.offer(Rec { x, line, route: Route::Request(session), check: None });
    refuse(ctx, x, StatusCode::from_u16(status).unwrap_or(StatusCode::FORBIDDEN), why)
}

fn is_json(h: &hyper::HeaderMap) -> bool {
    h.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_none_or(|v| {
        let m = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        m == "application/json" || m.ends_with("+json")
    })
}

/// Forwards one request and its answer, recording both (the request body: hyper's, or the guard
/// layer's hand-on of it).
pub(super) async fn handle<B>(req: Request<B>, ctx: Arc<Ctx>) -> Result<Answer, Infallible>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<super::body::BoxError>,
{
    let x = ctx.next_x.fetch_add(1, Ordering::Relaxed);
    let (mut parts, body) = req.into_parts();
    let path = parts.uri.path().to_string();
    let query = parts.uri.query().map(str::to_string);
    let session = record::header(&parts.headers, SESSION_ID);
    let line = record::request_line(x, parts.method.as_str(), &path, query.as_deref(), &parts.headers);
    ctx.rec.offer(Rec { x, line, route: Route::Request(session), check: None });

    let proxy_origin = parts.headers.get(HOST).and_then(|h| h.to_str().ok()).map(|h| format!("http://{h}"));
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let uri = match ctx.upstream.map(target) {
        Ok(u) => u,
        Err(e) => return Ok(refuse(&ctx, x, StatusCode::BAD_REQUEST, &format!("no upstream URL for this path: {e}"))),
    };
    let kept = parts.method == Method::POST && is_json(&parts.headers);
    // A body that says it will not fit is refused before anything goes upstream.
    let declared = parts.headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(n) = declared.filter(|&n| kept && n <= MAX_LINE && n > ctx.budget.free()) {
        ctx.budget.refused.fetch_add(1, Ordering::Relaxed);
        return Ok(refuse(&ctx, x, StatusCode::SERVICE_UNAVAILABLE, &format!("a body of {n} bytes: {}", ctx.budget.spent())));
    }
    let tap = BodyTap::request(ctx.rec.clone(), ctx.budget.clone(), x, kept);
    parts.uri = uri;
    upstream::upstream_request_headers(&mut parts.headers, &ctx.upstream);
    let (is_get, is_delete) = (parts.method == Method::GET, parts.method == Method::DELETE);
    let fault = Fault::default();
    let up = Request::from_parts(parts, Tapped::request(body, tap, fault.clone()));
    let resp = match ctx.client.request(up).await {
        Ok(r) => r,
        // The client's body failed (malformed, cut, or past the budget): the client's failure, not the upstream's.
        Err(_) if fault.get().is_some() => {
            let (status, why) = fault.get().unwrap_or_default();
            return Ok(refuse(&ctx, x, StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), &why));
        }
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
    let session = record::header(&parts.headers, SESSION_ID);
    let ends = is_delete && parts.status.is_success();
    let route = Route::Response { session, ends };
    ctx.rec.offer(Rec { x, line: record::response_line(x, parts.status.as_u16(), &parts.headers), route, check: None });
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
    let tap = BodyTap::response(ctx.rec.clone(), ctx.budget.clone(), x, content_type.as_deref());
    Ok(Response::from_parts(parts, Either::Left(Tapped::new(body, tap, rewrite))))
}

/// An answer of the proxy's own (the upstream could not be reached, the client's body failed, the
/// guard or a limit refused the request): recorded as the response, with the end line saying why.
fn refuse(ctx: &Ctx, x: u64, status: StatusCode, why: &str) -> Answer {
    let body = format!("mcp-schema proxy: {why}\n");
    let mut resp = Response::new(Either::Right(Full::new(Bytes::from(body.clone()))));
    *resp.status_mut() = status;
    resp.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    ctx.rec.offer(Rec { x, line: record::response_line(x, status.as_u16(), resp.headers()), route: Route::Response { session: None, ends: false }, check: None });
    ctx.rec.offer(Rec { x, line: record::end_line(x, body.len() as u64, Some(why)), route: Route::End, check: None });
    resp
}
