//! An MCP server over Streamable HTTP (protocol 2025-11-25), written on the generated crate and its
//! session engine (one `engine::Server` per session: `session.rs`), that
//! offers what the conformance suite's server scenarios call (`test_*` tools, `test://` resources,
//! prompts, completion, logging, progress, sampling, elicitation, SSE resumption).
//!
//! ```sh
//! conformance-server [--port 3001] [--validate]     # --port 0: any free port
//! ```
//!
//! It listens on 127.0.0.1 only, at `/mcp`. With `--validate` every message it writes is checked
//! with the crate's validators; findings go to stderr, and on Ctrl-C (SIGINT) it prints
//! `validated N messages, M findings` and exits with status 1 if there were any. `--record FILE`
//! (implies `--validate`) also appends every message it writes, and every JSON message it reads,
//! to FILE as JSONL.

#![forbid(unsafe_code)]

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_conformance::{ChannelBody, Checker};
use mcp_spec_engine::{self as engine, Config, Id, LogLevel, RequestError, Server, ServerInfo};
use mcp_spec_types::read_message;
use mcp_spec_types::rpc::{self, ErrorResponse};
use mcp_spec_types::runtime::{Message, RequestMethod, RpcError, SchemaType};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolRequestParams, CallToolResult, ClientMessage, ClientRequest, ContentBlock,
    RequestId, ServerMessage, ServerResult,
};
use serde_json::{json, Number, Value};
use session::{Posted, Session};
use tokio::sync::mpsc;

type Body = BoxBody<Bytes, Infallible>;
/// A failed request: the error answer, whose `id` [`Ctx::answer`] fills in.
type Failure = ErrorResponse<RequestId>;

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file holding one silent 8-bit sample at 8 kHz.
const WAV: &str = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";
/// How long a client waits before reconnecting to a stream the server closed.
const RETRY_MS: u64 = 500;
/// Versions whose messages the 2025-11-25 types read; any other request gets 2025-11-25. The
/// crate has no list of the versions a module reads, so this one is written out.
const VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

mod catalog;
mod ctx;
mod session;
mod stateless;

use catalog::*;
use ctx::*;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut port = 3001u16;
    let mut validate = false;
    let mut record = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => match args.next().and_then(|p| p.parse().ok()) {
                Some(number) => port = number,
                None => usage(),
            },
            "--validate" => validate = true,
            "--record" => record = Some(args.next().unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    let checker = match record {
        Some(path) => Some(Checker::recording(&path, "s2c").unwrap_or_else(|e| {
            eprintln!("cannot record to {path}: {e}");
            std::process::exit(2)
        })),
        None => validate.then(Checker::default),
    };
    let app = Arc::new(App {
        sessions: Mutex::default(),
        next_session: AtomicU64::new(1),
        checker,
    });
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("bind");
    // With `--port 0` the system picks the port; run.sh reads it from this line.
    let port = listener.local_addr().expect("a bound address").port();
    eprintln!("listening on http://127.0.0.1:{port}/mcp");
    // One signal listener for the whole loop, so a SIGINT between two accepts is not lost.
    let stop = tokio::signal::ctrl_c();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((tcp, _)) = accepted else { continue };
                let app = app.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| route(app.clone(), req));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tcp), service)
                        .await;
                });
            }
            _ = &mut stop => break,
        }
    }
    if let Some(checker) = &app.checker {
        eprintln!("{}", checker.summary());
        std::process::exit(i32::from(checker.findings() > 0));
    }
}

fn usage() -> ! {
    eprintln!("usage: conformance-server [--port N] [--validate] [--record FILE]");
    std::process::exit(2);
}

// Transport: HTTP routing, sessions (session.rs), SSE streams and their resumption.

/// Sessions kept at once; a new one past this ends the oldest.
const MAX_SESSIONS: usize = 1024;

struct App {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    next_session: AtomicU64,
    checker: Option<Checker>,
}

/// What the session engine answers `initialize` with, and the versions it negotiates.
fn session_info() -> ServerInfo {
    let capabilities = json!({"logging": {}, "completions": {}, "prompts": {"listChanged": false}, "resources": {"subscribe": true, "listChanged": false}, "tools": {"listChanged": false}});
    let info = ServerInfo::new("mcp-schema-conformance-server", env!("CARGO_PKG_VERSION"))
        .versions(VERSIONS);
    info.capabilities(&capabilities).expect("JSON")
}

async fn route(app: Arc<App>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    if !from_localhost(&req) {
        return Ok(plain(
            StatusCode::FORBIDDEN,
            "Host and Origin must be localhost",
        ));
    }
    if req.uri().path() != "/mcp" {
        return Ok(plain(StatusCode::NOT_FOUND, "not found"));
    }
    Ok(match *req.method() {
        Method::POST => app.post(req).await,
        Method::GET => app.get(&req),
        Method::DELETE => match session_header(&req) {
            Some(id) if app.sessions.lock().unwrap().remove(&id).is_some() => {
                plain(StatusCode::OK, "")
            }
            _ => plain(StatusCode::NOT_FOUND, "no such session"),
        },
        _ => plain(StatusCode::METHOD_NOT_ALLOWED, "use POST, GET or DELETE"),
    })
}

/// DNS rebinding protection: a browser page on another host must not reach this server.
fn from_localhost(req: &Request<Incoming>) -> bool {
    fn local(host: &str) -> bool {
        let name = match host.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => host.rsplit_once(':').map_or(host, |(h, _)| h),
        };
        matches!(name, "localhost" | "127.0.0.1" | "::1")
    }
    let header = |name| header_str(req, name);
    let host_ok = header(header::HOST.as_str()).is_none_or(local);
    let origin_ok = header(header::ORIGIN.as_str()).is_none_or(|origin| {
        origin
            .split_once("://")
            .is_some_and(|(_, rest)| local(rest.trim_end_matches('/')))
    });
    host_ok && origin_ok
}

fn header_str<'r>(req: &'r Request<Incoming>, name: &str) -> Option<&'r str> {
    req.headers().get(name)?.to_str().ok()
}

fn session_header(req: &Request<Incoming>) -> Option<String> {
    header_str(req, "mcp-session-id").map(str::to_owned)
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(text.to_owned())).boxed());
    *response.status_mut() = status;
    response
}

fn json_response(status: StatusCode, json: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(json)).boxed());
    *response.status_mut() = status;
    let content_type = HeaderValue::from_static("application/json");
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, content_type);
    response
}

fn sse_response(rx: mpsc::UnboundedReceiver<Bytes>) -> Response<Body> {
    let mut response = Response::new(ChannelBody(rx).boxed());
    let headers = response.headers_mut();
    let event_stream = HeaderValue::from_static("text/event-stream");
    headers.insert(header::CONTENT_TYPE, event_stream);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

impl App {
    fn session(&self, req: &Request<Incoming>) -> Option<Arc<Session>> {
        let id = session_header(req)?;
        self.sessions.lock().unwrap().get(&id).cloned()
    }

    /// Writes a message, checking it first in debug mode.
    fn write(&self, message: &ServerMessage) -> String {
        mcp_conformance::write(message, self.checker.as_ref())
    }

    /// Writes a line the engine made, checked as a 2026-07-28 message (`next`) or a 2025-11-25 one.
    fn wrote(&self, line: &[u8], next: bool) -> String {
        if next {
            return self.write_next(line);
        }
        mcp_conformance::wrote::<ServerMessage>(line, self.checker.as_ref());
        String::from_utf8_lossy(line).into_owned()
    }

    async fn post(self: Arc<Self>, req: Request<Incoming>) -> Response<Body> {
        let session = self.session(&req);
        let has_session_id = req.headers().contains_key("mcp-session-id");
        let headers = req.headers().clone();
        let Ok(body) = req.into_body().collect().await.map(|b| b.to_bytes()) else {
            return plain(StatusCode::BAD_REQUEST, "unreadable body");
        };
        if let Some(checker) = &self.checker {
            checker.received(&body);
        }
        if stateless::takes(&headers, &body) {
            return stateless::post(self.clone(), &headers, body).await;
        }
        let method = serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v.get("method")?.as_str().map(str::to_owned));
        // `initialize` starts a new session, whatever session id it came with.
        let session = match (method.as_deref(), session) {
            (Some("initialize"), _) => Arc::new(Session::new(
                Server::with_info(Config::default(), session_info()),
                false,
            )),
            (_, Some(session)) => session,
            (_, None) => {
                // A line that does not read gets its error answer (with its id, if it had one).
                if let Err(invalid) = read_message::<ClientMessage>(&body) {
                    if let Some(answer) = invalid.error_response() {
                        return json_response(StatusCode::BAD_REQUEST, self.write(&answer.into()));
                    }
                    return plain(StatusCode::BAD_REQUEST, &invalid.to_string());
                }
                return if has_session_id {
                    plain(StatusCode::NOT_FOUND, "no such session")
                } else {
                    plain(StatusCode::BAD_REQUEST, "missing Mcp-Session-Id")
                };
            }
        };
        let posted = match session.post(&self, &body) {
            Ok(posted) => posted,
            Err(e) => return plain(StatusCode::SERVICE_UNAVAILABLE, &e.to_string()),
        };
        match posted {
            Posted::Request(request) => {
                let rx = session.open_stream(&request.id);
                let ctx = Ctx {
                    app: self.clone(),
                    session,
                    id: request.id.clone(),
                };
                tokio::spawn(async move {
                    let outcome = ctx.run(&request).await;
                    ctx.finish(outcome);
                });
                sse_response(rx)
            }
            Posted::Answered(line) => {
                let mut response = json_response(
                    stateless::status(&line),
                    String::from_utf8_lossy(&line).into_owned(),
                );
                // The engine answered `initialize`: the session starts.
                if method.as_deref() == Some("initialize")
                    && session.with(|s| s.engine.is_initialized())
                {
                    let n = self.next_session.fetch_add(1, Ordering::Relaxed);
                    let id = format!("session-{n}");
                    let mut sessions = self.sessions.lock().unwrap();
                    // The spec lets a server end a session at any time (its id is then 404):
                    // the oldest goes, so sessions never pile up.
                    if sessions.len() >= MAX_SESSIONS {
                        let number = |id: &String| id.trim_start_matches("session-").parse::<u64>().unwrap_or(0);
                        if let Some(oldest) = sessions.keys().min_by_key(|id| number(id)).cloned() {
                            sessions.remove(&oldest);
                        }
                    }
                    sessions.insert(id.clone(), session);
                    drop(sessions);
                    let id = HeaderValue::from_str(&id).expect("ascii");
                    response.headers_mut().insert("mcp-session-id", id);
                }
                response
            }
            Posted::Nothing => plain(StatusCode::ACCEPTED, ""),
        }
    }

    /// A client resumes a stream with `Last-Event-ID`; this server has no stream of its own to
    /// offer on a plain GET.
    fn get(&self, req: &Request<Incoming>) -> Response<Body> {
        let Some(session) = self.session(req) else {
            return plain(StatusCode::NOT_FOUND, "no such session");
        };
        match header_str(req, "last-event-id").and_then(|id| session.resume(id)) {
            Some(rx) => sse_response(rx),
            None => plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "GET resumes a stream with Last-Event-ID",
            ),
        }
    }
}
