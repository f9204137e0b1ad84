//! An MCP server over Streamable HTTP (protocol 2025-11-25), written on the generated crate, that
//! offers what the conformance suite's server scenarios call (`test_*` tools, `test://` resources,
//! prompts, completion, logging, progress, sampling, elicitation, SSE resumption).
//!
//! ```sh
//! conformance-server [--port 3001] [--validate]     # --port 0: any free port
//! ```
//!
//! It listens on 127.0.0.1 only, at `/mcp`. With `--validate` every message it writes is checked
//! with the crate's validators; findings go to stderr, and on Ctrl-C (SIGINT) it prints
//! `validated N messages, M findings` and exits with status 1 if there were any.

use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_conformance::{sse, ChannelBody, Checker};
use mcp_schema::runtime::{JsonConvert, Message, ResultResponse};
use mcp_schema::v2025_11_25::{
    self as mcp, CallToolRequestParams, CallToolResult, ClientNotification, ClientRequest,
    ClientResult, ContentBlock, LoggingLevel, RequestId, ServerNotification, ServerRequest,
    ServerResult,
};
use mcp_schema::validate::{validate, validate_json, Options, Report};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

type Body = BoxBody<Bytes, Infallible>;

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file holding one silent 8-bit sample at 8 kHz.
const WAV: &str = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";
/// How long a client waits before reconnecting to a stream the server closed.
const RETRY_MS: u64 = 500;
/// Versions whose messages the 2025-11-25 types read; any other request gets 2025-11-25.
const VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut port = 3001u16;
    let mut validate = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => match args.next().and_then(|p| p.parse().ok()) {
                Some(number) => port = number,
                None => usage(),
            },
            "--validate" => validate = true,
            _ => usage(),
        }
    }
    let app = Arc::new(App {
        sessions: Mutex::default(),
        next_session: AtomicU64::new(1),
        checker: validate.then(Checker::default),
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
    eprintln!("usage: conformance-server [--port N] [--validate]");
    std::process::exit(2);
}

struct App {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    next_session: AtomicU64,
    checker: Option<Checker>,
}

struct Session {
    client_capabilities: mcp::ClientCapabilities,
    state: Mutex<SessionState>,
}

#[derive(Default)]
struct SessionState {
    /// Log notifications below this level are not sent (`logging/setLevel`).
    min_level: usize,
    subscriptions: BTreeSet<String>,
    /// The SSE stream of each POSTed request, kept whole so a client can resume one.
    streams: Vec<Stream>,
    /// Requests this server sent, by id, waiting for the client's answer.
    waiting: HashMap<i64, oneshot::Sender<Result<ClientResult, mcp::Error>>>,
    next_request: i64,
}

#[derive(Default)]
struct Stream {
    events: Vec<Bytes>,
    /// The connection the events go to now, if the client is connected.
    live: Option<mpsc::UnboundedSender<Bytes>>,
    /// The response was written: the stream ends after its last event.
    done: bool,
}

const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

fn level_rank(level: &LoggingLevel) -> usize {
    let name = level
        .to_json()
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    LEVELS.iter().position(|l| *l == name).unwrap_or(0)
}

impl Session {
    /// Opens an SSE stream that starts with a priming event (an id and no data), so the client
    /// can resume it from the start.
    fn open_stream(&self) -> (usize, mpsc::UnboundedReceiver<Bytes>) {
        let mut state = self.state.lock().unwrap();
        let n = state.streams.len();
        let (tx, rx) = mpsc::unbounded_channel();
        let priming = Bytes::from(sse::event(Some(&format!("{n}-0")), Some(RETRY_MS), ""));
        let _ = tx.send(priming.clone());
        state.streams.push(Stream {
            events: vec![priming],
            live: Some(tx),
            done: false,
        });
        (n, rx)
    }

    fn send(&self, stream: usize, json: &str) {
        let mut state = self.state.lock().unwrap();
        let s = &mut state.streams[stream];
        let event = Bytes::from(sse::event(
            Some(&format!("{stream}-{}", s.events.len())),
            None,
            json,
        ));
        s.events.push(event.clone());
        if let Some(tx) = &s.live {
            if tx.send(event).is_err() {
                s.live = None;
            }
        }
    }

    fn finish(&self, stream: usize) {
        let mut state = self.state.lock().unwrap();
        state.streams[stream].done = true;
        state.streams[stream].live = None;
    }

    /// Closes the connection of a stream without ending the stream (SEP-1699 polling).
    fn disconnect(&self, stream: usize) {
        self.state.lock().unwrap().streams[stream].live = None;
    }

    /// Reattaches a stream after the event `last_event_id` (`<stream>-<index>`).
    fn resume(&self, last_event_id: &str) -> Option<mpsc::UnboundedReceiver<Bytes>> {
        let (stream, index) = last_event_id.split_once('-')?;
        let (stream, index): (usize, usize) = (stream.parse().ok()?, index.parse().ok()?);
        let mut state = self.state.lock().unwrap();
        let s = state.streams.get_mut(stream)?;
        let (tx, rx) = mpsc::unbounded_channel();
        for event in s.events.iter().skip(index + 1) {
            let _ = tx.send(event.clone());
        }
        if !s.done {
            s.live = Some(tx);
        }
        Some(rx)
    }
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
    let header = |name| {
        req.headers()
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let host_ok = header(header::HOST).is_none_or(local);
    let origin_ok = header(header::ORIGIN).is_none_or(|origin| {
        origin
            .split_once("://")
            .is_some_and(|(_, rest)| local(rest.trim_end_matches('/')))
    });
    host_ok && origin_ok
}

fn session_header(req: &Request<Incoming>) -> Option<String> {
    Some(
        req.headers()
            .get("mcp-session-id")?
            .to_str()
            .ok()?
            .to_owned(),
    )
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(text.to_owned())).boxed());
    *response.status_mut() = status;
    response
}

fn json_response(status: StatusCode, json: String) -> Response<Body> {
    let mut response = plain(status, "");
    *response.body_mut() = Full::new(Bytes::from(json)).boxed();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

impl App {
    async fn post(self: Arc<Self>, req: Request<Incoming>) -> Response<Body> {
        let session_id = session_header(&req);
        let Ok(body) = req.into_body().collect().await.map(|b| b.to_bytes()) else {
            return plain(StatusCode::BAD_REQUEST, "unreadable body");
        };
        let message: mcp::ClientMessage = match mcp_schema::from_slice(&body) {
            Ok(message) => message,
            Err(e) => return self.unreadable(&body, e),
        };
        if let Message::Request(ClientRequest::InitializeRequest(init)) = message {
            return self.initialize(init);
        }
        let session = match session_id {
            None => return plain(StatusCode::BAD_REQUEST, "missing Mcp-Session-Id"),
            Some(id) => match self.sessions.lock().unwrap().get(&id) {
                Some(session) => session.clone(),
                None => return plain(StatusCode::NOT_FOUND, "no such session"),
            },
        };
        match message {
            Message::Request(request) => {
                let (stream, rx) = session.open_stream();
                let ctx = Ctx {
                    app: self.clone(),
                    session,
                    stream,
                };
                tokio::spawn(async move {
                    let answer = ctx.answer(request).await;
                    let json = ctx.app.encode(&answer);
                    ctx.session.send(ctx.stream, &json);
                    ctx.session.finish(ctx.stream);
                });
                sse_response(rx)
            }
            Message::Notification(ClientNotification::InitializedNotification(_)) => {
                plain(StatusCode::ACCEPTED, "")
            }
            Message::Notification(other) => {
                eprintln!(
                    "notification: {}",
                    mcp_schema::runtime::SchemaType::schema_name(&other)
                );
                plain(StatusCode::ACCEPTED, "")
            }
            Message::Result(response) => {
                self.deliver(&session, &response.id, Ok(response.result));
                plain(StatusCode::ACCEPTED, "")
            }
            Message::Error(response) => {
                if let Some(id) = &response.id {
                    self.deliver(&session, id, Err(response.error));
                }
                plain(StatusCode::ACCEPTED, "")
            }
        }
    }

    /// A body the typed reader refused: a parse error, or a request whose params do not fit its
    /// method (answered with the request's id, which only the raw JSON still has).
    fn unreadable(&self, body: &[u8], e: serde_json::Error) -> Response<Body> {
        let Ok(raw) = serde_json::from_slice::<Value>(body) else {
            return self.error_response(None, mcp::PARSE_ERROR, format!("parse error: {e}"));
        };
        let id = raw
            .get("id")
            .and_then(|id| RequestId::from_json_ref(id).ok());
        let known = raw
            .get("method")
            .and_then(Value::as_str)
            .is_some_and(|m| mcp::REQUESTS.iter().any(|(k, ..)| *k == m));
        let code = if known {
            mcp::INVALID_PARAMS
        } else {
            mcp::INVALID_REQUEST
        };
        self.error_response(id, code, e.to_string())
    }

    fn error_response(&self, id: Option<RequestId>, code: i64, message: String) -> Response<Body> {
        let response = mcp::JSONRPCErrorResponse {
            id,
            ..mcp::JSONRPCErrorResponse::new(mcp::Error::new(code, message))
        };
        json_response(
            StatusCode::BAD_REQUEST,
            self.encode(&Message::Error(response)),
        )
    }

    fn initialize(&self, init: mcp::InitializeRequest) -> Response<Body> {
        let asked = init.params.protocol_version.as_str();
        let version = VERSIONS
            .iter()
            .find(|v| **v == asked)
            .unwrap_or(&mcp::LATEST_PROTOCOL_VERSION);
        let capabilities = mcp::ServerCapabilities {
            logging: Some(Default::default()),
            completions: Some(Default::default()),
            prompts: Some(mcp::ServerCapabilitiesPrompts {
                list_changed: Some(false),
                ..Default::default()
            }),
            resources: Some(mcp::ServerCapabilitiesResources {
                subscribe: Some(true),
                list_changed: Some(false),
                ..Default::default()
            }),
            tools: Some(mcp::ServerCapabilitiesTools {
                list_changed: Some(false),
                ..Default::default()
            }),
            ..Default::default()
        };
        let info =
            mcp::Implementation::new("mcp-schema-conformance-server", env!("CARGO_PKG_VERSION"));
        let result = mcp::InitializeResult::new(*version, capabilities, info);

        let id = format!(
            "session-{}",
            self.next_session.fetch_add(1, Ordering::Relaxed)
        );
        let session = Session {
            client_capabilities: *init.params.capabilities,
            state: Mutex::default(),
        };
        self.sessions
            .lock()
            .unwrap()
            .insert(id.clone(), Arc::new(session));

        let answer = Message::Result(ResultResponse {
            id: init.id,
            result: ServerResult::InitializeResult(result),
            extra: Default::default(),
        });
        let mut response = json_response(StatusCode::OK, self.encode(&answer));
        response
            .headers_mut()
            .insert("mcp-session-id", HeaderValue::from_str(&id).expect("ascii"));
        response
    }

    /// A client resumes a stream with `Last-Event-ID`; this server has no stream of its own to
    /// offer on a plain GET.
    fn get(&self, req: &Request<Incoming>) -> Response<Body> {
        let session =
            session_header(req).and_then(|id| self.sessions.lock().unwrap().get(&id).cloned());
        let Some(session) = session else {
            return plain(StatusCode::NOT_FOUND, "no such session");
        };
        let last = req
            .headers()
            .get("last-event-id")
            .and_then(|v| v.to_str().ok());
        match last.and_then(|id| session.resume(id)) {
            Some(rx) => sse_response(rx),
            None => plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "GET resumes a stream with Last-Event-ID",
            ),
        }
    }

    fn deliver(&self, session: &Session, id: &RequestId, answer: Result<ClientResult, mcp::Error>) {
        let RequestId::Integer(n) = id else { return };
        if let Some(waiter) = session.state.lock().unwrap().waiting.remove(n) {
            let _ = waiter.send(answer);
        }
    }

    /// Writes a message, checking it first in debug mode.
    fn encode(&self, message: &mcp::ServerMessage) -> String {
        let json = serde_json::to_value(message).expect("generated types serialize");
        if let Some(checker) = &self.checker {
            let o = Options::default();
            // `ServerMessage` has no validator of its own: each kind is checked as its schema type,
            // a result as the response envelope plus the result's own type.
            let reports = match message {
                Message::Request(_) => vec![validate_json::<ServerRequest>(&json, &o)],
                Message::Notification(_) => vec![validate_json::<ServerNotification>(&json, &o)],
                Message::Result(response) => {
                    vec![
                        validate_json::<mcp::JSONRPCResultResponse>(&json, &o),
                        check_result(&response.result, &o),
                    ]
                }
                Message::Error(_) => vec![validate_json::<mcp::JSONRPCErrorResponse>(&json, &o)],
            };
            checker.record(
                mcp_schema::runtime::SchemaType::schema_name(message),
                &reports,
            );
        }
        json.to_string()
    }
}

/// Checks a result as the type it holds. Checking it as `ServerResult` would accept any object:
/// the union's `EmptyResult` member takes one.
fn check_result(result: &ServerResult, o: &Options) -> Report {
    use ServerResult as R;
    match result {
        R::EmptyResult(r) => validate(r, o),
        R::InitializeResult(r) => validate(r, o),
        R::CompleteResult(r) => validate(r, o),
        R::GetPromptResult(r) => validate(r, o),
        R::ListPromptsResult(r) => validate(r, o),
        R::ListResourceTemplatesResult(r) => validate(r, o),
        R::ListResourcesResult(r) => validate(r, o),
        R::ReadResourceResult(r) => validate(r, o),
        R::CallToolResult(r) => validate(r, o),
        R::ListToolsResult(r) => validate(r, o),
        R::GetTaskResult(r) => validate(r, o),
        R::GetTaskPayloadResult(r) => validate(r, o),
        R::ListTasksResult(r) => validate(r, o),
        R::CancelTaskResult(r) => validate(r, o),
    }
}

fn sse_response(rx: mpsc::UnboundedReceiver<Bytes>) -> Response<Body> {
    let mut response = Response::new(ChannelBody(rx).boxed());
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The id of any request: every variant carries one, but the union has no accessor.
fn request_id(request: &ClientRequest) -> Option<RequestId> {
    use ClientRequest as R;
    Some(match request {
        R::PingRequest(r) => r.id.clone(),
        R::InitializeRequest(r) => r.id.clone(),
        R::CompleteRequest(r) => r.id.clone(),
        R::SetLevelRequest(r) => r.id.clone(),
        R::GetPromptRequest(r) => r.id.clone(),
        R::ListPromptsRequest(r) => r.id.clone(),
        R::ListResourcesRequest(r) => r.id.clone(),
        R::ListResourceTemplatesRequest(r) => r.id.clone(),
        R::ReadResourceRequest(r) => r.id.clone(),
        R::SubscribeRequest(r) => r.id.clone(),
        R::UnsubscribeRequest(r) => r.id.clone(),
        R::CallToolRequest(r) => r.id.clone(),
        R::ListToolsRequest(r) => r.id.clone(),
        R::GetTaskRequest(r) => r.id.clone(),
        R::GetTaskPayloadRequest(r) => r.id.clone(),
        R::ListTasksRequest(r) => r.id.clone(),
        R::CancelTaskRequest(r) => r.id.clone(),
        R::Unknown(raw) => RequestId::from_json_ref(raw.get("id")?).ok()?,
    })
}

/// One request being answered: where its stream is, and the session it belongs to.
struct Ctx {
    app: Arc<App>,
    session: Arc<Session>,
    stream: usize,
}

fn error(code: i64, message: impl Into<String>) -> mcp::Error {
    mcp::Error::new(code, message)
}

impl Ctx {
    async fn answer(&self, request: ClientRequest) -> mcp::ServerMessage {
        let id = request_id(&request).unwrap_or(RequestId::Integer(0));
        match self.result(request).await {
            Ok(result) => Message::Result(ResultResponse {
                id,
                result,
                extra: Default::default(),
            }),
            Err(e) => Message::Error(mcp::JSONRPCErrorResponse {
                id: Some(id),
                ..mcp::JSONRPCErrorResponse::new(e)
            }),
        }
    }

    async fn result(&self, request: ClientRequest) -> Result<ServerResult, mcp::Error> {
        use ClientRequest as R;
        Ok(match request {
            R::PingRequest(_) => ServerResult::EmptyResult(Default::default()),
            R::SetLevelRequest(r) => {
                self.session.state.lock().unwrap().min_level = level_rank(&r.params.level);
                ServerResult::EmptyResult(Default::default())
            }
            R::CompleteRequest(r) => {
                let typed = r.params.argument.value.to_lowercase();
                let values = ["paris", "park", "party"]
                    .iter()
                    .filter(|v| v.starts_with(&typed))
                    .map(|v| v.to_string());
                ServerResult::CompleteResult(mcp::CompleteResult::new(
                    mcp::CompleteResultCompletion::new(values.collect()),
                ))
            }
            R::ListToolsRequest(_) => {
                ServerResult::ListToolsResult(mcp::ListToolsResult::new(tools()))
            }
            R::CallToolRequest(r) => ServerResult::CallToolResult(self.call_tool(r.params).await?),
            R::ListResourcesRequest(_) => {
                let resource =
                    |uri: &str, name: &str, mime: &str, description: &str| mcp::Resource {
                        description: Some(description.into()),
                        mime_type: Some(mime.into()),
                        ..mcp::Resource::new(name, uri)
                    };
                ServerResult::ListResourcesResult(mcp::ListResourcesResult::new(vec![
                    resource(
                        "test://static-text",
                        "static-text",
                        "text/plain",
                        "A fixed text resource",
                    ),
                    resource(
                        "test://static-binary",
                        "static-binary",
                        "image/png",
                        "A fixed PNG image",
                    ),
                    resource(
                        "test://watched-resource",
                        "watched-resource",
                        "text/plain",
                        "A resource to subscribe to",
                    ),
                ]))
            }
            R::ListResourceTemplatesRequest(_) => {
                let template = mcp::ResourceTemplate {
                    description: Some("JSON data for an id".into()),
                    mime_type: Some("application/json".into()),
                    ..mcp::ResourceTemplate::new("template-data", "test://template/{id}/data")
                };
                ServerResult::ListResourceTemplatesResult(mcp::ListResourceTemplatesResult::new(
                    vec![template],
                ))
            }
            R::ReadResourceRequest(r) => {
                ServerResult::ReadResourceResult(read_resource(&r.params.uri)?)
            }
            R::SubscribeRequest(r) => {
                self.session
                    .state
                    .lock()
                    .unwrap()
                    .subscriptions
                    .insert(r.params.uri);
                ServerResult::EmptyResult(Default::default())
            }
            R::UnsubscribeRequest(r) => {
                self.session
                    .state
                    .lock()
                    .unwrap()
                    .subscriptions
                    .remove(&r.params.uri);
                ServerResult::EmptyResult(Default::default())
            }
            R::ListPromptsRequest(_) => {
                ServerResult::ListPromptsResult(mcp::ListPromptsResult::new(prompts()))
            }
            R::GetPromptRequest(r) => ServerResult::GetPromptResult(get_prompt(
                &r.params.name,
                r.params.arguments.unwrap_or_default(),
            )?),
            R::InitializeRequest(_) => {
                return Err(error(
                    mcp::INVALID_REQUEST,
                    "the session is already initialized",
                ))
            }
            other => {
                let method = other
                    .to_json()
                    .ok()
                    .and_then(|v| v.get("method").cloned())
                    .unwrap_or_default();
                return Err(error(
                    mcp::METHOD_NOT_FOUND,
                    format!("method not found: {method}"),
                ));
            }
        })
    }

    fn notify(&self, notification: ServerNotification) {
        let json = self.app.encode(&Message::Notification(notification));
        self.session.send(self.stream, &json);
    }

    fn log(&self, level: LoggingLevel, text: &str) {
        if level_rank(&level) >= self.session.state.lock().unwrap().min_level {
            let params = mcp::LoggingMessageNotificationParams::new(level, json!(text));
            self.notify(ServerNotification::LoggingMessageNotification(
                mcp::LoggingMessageNotification::new(params),
            ));
        }
    }

    /// Sends a request to the client on this request's stream and waits for its answer.
    async fn ask(
        &self,
        make: impl FnOnce(RequestId) -> ServerRequest,
    ) -> Result<ClientResult, mcp::Error> {
        let (tx, rx) = oneshot::channel();
        let n = {
            let mut state = self.session.state.lock().unwrap();
            state.next_request += 1;
            let n = state.next_request;
            state.waiting.insert(n, tx);
            n
        };
        let json = self
            .app
            .encode(&Message::Request(make(RequestId::Integer(n))));
        self.session.send(self.stream, &json);
        match tokio::time::timeout(Duration::from_secs(30), rx).await {
            Ok(Ok(answer)) => answer,
            _ => Err(error(mcp::INTERNAL_ERROR, "the client did not answer")),
        }
    }

    async fn call_tool(&self, params: CallToolRequestParams) -> Result<CallToolResult, mcp::Error> {
        let pause = || tokio::time::sleep(Duration::from_millis(50));
        let arguments = params.arguments.unwrap_or_default();
        let text_arg = |name: &str| {
            arguments
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        Ok(match params.name.as_str() {
            "test_simple_text" => {
                CallToolResult::text("This is a simple text response for testing.")
            }
            "test_image_content" => CallToolResult::new(vec![image()]),
            "test_audio_content" => CallToolResult::new(vec![ContentBlock::AudioContent(
                mcp::AudioContent::new(WAV, "audio/wav"),
            )]),
            "test_embedded_resource" => CallToolResult::new(vec![embedded_text(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
            )]),
            "test_multiple_content_types" => CallToolResult::new(vec![
                ContentBlock::text("Multiple content types test:"),
                image(),
                embedded_text(
                    "test://mixed-content-resource",
                    "application/json",
                    r#"{"test":"data","value":123}"#,
                ),
            ]),
            "test_tool_with_logging" => {
                self.log(LoggingLevel::Info, "Tool execution started");
                pause().await;
                self.log(LoggingLevel::Info, "Tool processing data");
                pause().await;
                self.log(LoggingLevel::Info, "Tool execution completed");
                CallToolResult::text("Logging test completed")
            }
            "test_error_handling" => {
                CallToolResult::error("This tool intentionally returns an error for testing")
            }
            "test_tool_with_progress" => {
                let token = params.meta.and_then(|m| m.progress_token);
                for step in [0, 50, 100] {
                    if let Some(token) = &token {
                        let progress = mcp::ProgressNotificationParams {
                            total: Some(100.into()),
                            ..mcp::ProgressNotificationParams::new(token.clone(), step.into())
                        };
                        self.notify(ServerNotification::ProgressNotification(
                            mcp::ProgressNotification::new(progress),
                        ));
                    }
                    if step < 100 {
                        pause().await;
                    }
                }
                CallToolResult::text("Progress test completed")
            }
            "test_sampling" => {
                if self.session.client_capabilities.sampling.is_none() {
                    return Ok(CallToolResult::error(
                        "the client does not support sampling",
                    ));
                }
                let message = mcp::SamplingMessage::new(
                    mcp::Role::User,
                    mcp::SamplingMessageContent::SamplingMessageContentBlock(
                        mcp::SamplingMessageContentBlock::TextContent(mcp::TextContent::new(
                            text_arg("prompt"),
                        )),
                    ),
                );
                let params = mcp::CreateMessageRequestParams::new(vec![message], 100);
                let answer = self
                    .ask(|id| {
                        ServerRequest::CreateMessageRequest(mcp::CreateMessageRequest::new(
                            params, id,
                        ))
                    })
                    .await?;
                let ClientResult::CreateMessageResult(reply) = answer else {
                    return Err(error(
                        mcp::INTERNAL_ERROR,
                        "the client's answer is not a sampling result",
                    ));
                };
                let text = match &reply.content {
                    mcp::SamplingMessageContent::SamplingMessageContentBlock(
                        mcp::SamplingMessageContentBlock::TextContent(t),
                    ) => t.text.clone(),
                    other => other.to_json().map(|v| v.to_string()).unwrap_or_default(),
                };
                CallToolResult::text(format!("LLM response: {text}"))
            }
            "test_elicitation" => {
                let schema = json!({
                    "type": "object",
                    "properties": {
                        "username": {"type": "string", "description": "User's response"},
                        "email": {"type": "string", "description": "User's email address"}
                    },
                    "required": ["username", "email"]
                });
                let reply = self.elicit(&text_arg("message"), schema).await?;
                CallToolResult::text(format!("User response: {reply}"))
            }
            "test_elicitation_sep1034_defaults" => {
                let schema = json!({
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "default": "John Doe"},
                        "age": {"type": "integer", "default": 30},
                        "score": {"type": "number", "default": 95.5},
                        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                        "verified": {"type": "boolean", "default": true}
                    }
                });
                let reply = self
                    .elicit(
                        "Please review your profile (every field has a default)",
                        schema,
                    )
                    .await?;
                CallToolResult::text(format!("Elicitation completed: {reply}"))
            }
            "test_elicitation_sep1330_enums" => {
                let schema = json!({
                    "type": "object",
                    "properties": {
                        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                        "titledSingle": {"type": "string", "oneOf": [
                            {"const": "value1", "title": "First Option"},
                            {"const": "value2", "title": "Second Option"},
                            {"const": "value3", "title": "Third Option"}
                        ]},
                        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                                       "enumNames": ["Option One", "Option Two", "Option Three"]},
                        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                        "titledMulti": {"type": "array", "items": {"anyOf": [
                            {"const": "value1", "title": "First Choice"},
                            {"const": "value2", "title": "Second Choice"},
                            {"const": "value3", "title": "Third Choice"}
                        ]}}
                    }
                });
                let reply = self
                    .elicit("Please pick from each kind of list", schema)
                    .await?;
                CallToolResult::text(format!("Elicitation completed: {reply}"))
            }
            "test_reconnection" => {
                // Close the connection before the result: the client resumes with Last-Event-ID.
                pause().await;
                self.session.disconnect(self.stream);
                tokio::time::sleep(Duration::from_millis(200)).await;
                CallToolResult::text("Reconnection test completed successfully")
            }
            // `json_schema_2020_12_tool` only needs to be listed; calling it echoes the arguments.
            "json_schema_2020_12_tool" => {
                CallToolResult::text(serde_json::to_string(&arguments).unwrap_or_default())
            }
            other => return Err(error(mcp::INVALID_PARAMS, format!("unknown tool: {other}"))),
        })
    }

    /// Asks the client to fill in a form; answers `action=…, content=…`.
    async fn elicit(&self, message: &str, requested_schema: Value) -> Result<String, mcp::Error> {
        if self.session.client_capabilities.elicitation.is_none() {
            return Err(error(
                mcp::INVALID_REQUEST,
                "the client does not support elicitation",
            ));
        }
        let params = mcp::ElicitRequestFormParams::new(
            message,
            mcp::ElicitRequestFormParamsRequestedSchema::from_json(requested_schema)
                .expect("a valid requested schema"),
        );
        let params = mcp::ElicitRequestParams::ElicitRequestFormParams(params);
        let answer = self
            .ask(|id| ServerRequest::ElicitRequest(mcp::ElicitRequest::new(params, id)))
            .await?;
        let ClientResult::ElicitResult(reply) = answer else {
            return Err(error(
                mcp::INTERNAL_ERROR,
                "the client's answer is not an elicitation result",
            ));
        };
        let action = reply.action.to_json().unwrap_or_default();
        let content = serde_json::to_value(&reply.content).unwrap_or_default();
        Ok(format!(
            "action={}, content={content}",
            action.as_str().unwrap_or_default()
        ))
    }
}

fn image() -> ContentBlock {
    ContentBlock::ImageContent(mcp::ImageContent::new(PNG, "image/png"))
}

fn embedded_text(uri: &str, mime_type: &str, text: &str) -> ContentBlock {
    let contents = mcp::TextResourceContents {
        mime_type: Some(mime_type.into()),
        ..mcp::TextResourceContents::new(uri, text)
    };
    let resource = mcp::EmbeddedResource::new(mcp::EmbeddedResourceResource::TextResourceContents(
        contents,
    ));
    ContentBlock::EmbeddedResource(resource)
}

fn tools() -> Vec<mcp::Tool> {
    let no_arguments = json!({"type": "object", "properties": {}});
    let text_argument = |name: &str, description: &str| json!({"type": "object", "properties": {name: {"type": "string", "description": description}}, "required": [name]});
    let list = [
        (
            "test_simple_text",
            "Returns one text block",
            no_arguments.clone(),
        ),
        (
            "test_image_content",
            "Returns a PNG image",
            no_arguments.clone(),
        ),
        (
            "test_audio_content",
            "Returns a WAV clip",
            no_arguments.clone(),
        ),
        (
            "test_embedded_resource",
            "Returns an embedded text resource",
            no_arguments.clone(),
        ),
        (
            "test_multiple_content_types",
            "Returns text, an image and a resource",
            no_arguments.clone(),
        ),
        (
            "test_tool_with_logging",
            "Logs three messages while it runs",
            no_arguments.clone(),
        ),
        (
            "test_error_handling",
            "Always fails, as a tool error",
            no_arguments.clone(),
        ),
        (
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100",
            no_arguments.clone(),
        ),
        (
            "test_sampling",
            "Asks the client's model",
            text_argument("prompt", "The prompt to send to the model"),
        ),
        (
            "test_elicitation",
            "Asks the user for a name and an email",
            text_argument("message", "The message to show the user"),
        ),
        (
            "test_elicitation_sep1034_defaults",
            "Asks for fields that all have defaults",
            no_arguments.clone(),
        ),
        (
            "test_elicitation_sep1330_enums",
            "Asks with every kind of enum",
            no_arguments.clone(),
        ),
        (
            "test_reconnection",
            "Closes its stream before answering; resume with Last-Event-ID",
            no_arguments.clone(),
        ),
        (
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
                "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
                "additionalProperties": false
            }),
        ),
    ];
    list.into_iter()
        .map(|(name, description, schema)| mcp::Tool {
            description: Some(description.into()),
            ..mcp::Tool::with_input_schema(name, schema).expect("an object schema")
        })
        .collect()
}

fn read_resource(uri: &str) -> Result<mcp::ReadResourceResult, mcp::Error> {
    use mcp::ReadResourceResultContentsItem as Item;
    let text = |mime: &str, text: String| {
        Item::TextResourceContents(mcp::TextResourceContents {
            mime_type: Some(mime.into()),
            ..mcp::TextResourceContents::new(uri, text)
        })
    };
    let item = match uri {
        "test://static-text" => text(
            "text/plain",
            "This is the content of the static text resource.".into(),
        ),
        "test://watched-resource" => {
            text("text/plain", "This resource is watched for updates.".into())
        }
        "test://static-binary" => Item::BlobResourceContents(mcp::BlobResourceContents {
            mime_type: Some("image/png".into()),
            ..mcp::BlobResourceContents::new(uri, PNG)
        }),
        _ => match uri
            .strip_prefix("test://template/")
            .and_then(|rest| rest.strip_suffix("/data"))
        {
            Some(id) if !id.is_empty() && !id.contains('/') => {
                let data =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                text("application/json", data.to_string())
            }
            // The spec's code for a resource that does not exist.
            _ => {
                return Err(mcp::Error {
                    data: Some(json!({"uri": uri})),
                    ..error(-32002, "Resource not found")
                })
            }
        },
    };
    Ok(mcp::ReadResourceResult::new(vec![item]))
}

fn prompts() -> Vec<mcp::Prompt> {
    let argument = |name: &str, description: &str| mcp::PromptArgument {
        description: Some(description.into()),
        required: Some(true),
        ..mcp::PromptArgument::new(name)
    };
    let prompt = |name: &str, description: &str, arguments: Vec<mcp::PromptArgument>| mcp::Prompt {
        description: Some(description.into()),
        arguments: (!arguments.is_empty()).then_some(arguments),
        ..mcp::Prompt::new(name)
    };
    vec![
        prompt("test_simple_prompt", "A prompt without arguments", vec![]),
        prompt(
            "test_prompt_with_arguments",
            "A prompt with two arguments",
            vec![
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ],
        ),
        prompt(
            "test_prompt_with_embedded_resource",
            "A prompt that embeds a resource",
            vec![argument("resourceUri", "URI of the resource to embed")],
        ),
        prompt("test_prompt_with_image", "A prompt with an image", vec![]),
    ]
}

fn get_prompt(
    name: &str,
    arguments: std::collections::BTreeMap<String, String>,
) -> Result<mcp::GetPromptResult, mcp::Error> {
    let user = |content: ContentBlock| mcp::PromptMessage::new(mcp::Role::User, content);
    let argument = |key: &str| {
        arguments
            .get(key)
            .cloned()
            .ok_or_else(|| error(mcp::INVALID_PARAMS, format!("missing argument `{key}`")))
    };
    let messages = match name {
        "test_simple_prompt" => vec![user(ContentBlock::text(
            "This is a simple prompt for testing.",
        ))],
        "test_prompt_with_arguments" => {
            let (arg1, arg2) = (argument("arg1")?, argument("arg2")?);
            vec![user(ContentBlock::text(format!(
                "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
            )))]
        }
        "test_prompt_with_embedded_resource" => vec![
            user(embedded_text(
                &argument("resourceUri")?,
                "text/plain",
                "Embedded resource content for testing.",
            )),
            user(ContentBlock::text(
                "Please process the embedded resource above.",
            )),
        ],
        "test_prompt_with_image" => vec![
            user(image()),
            user(ContentBlock::text("Please analyze the image above.")),
        ],
        other => {
            return Err(error(
                mcp::INVALID_PARAMS,
                format!("unknown prompt: {other}"),
            ))
        }
    };
    Ok(mcp::GetPromptResult::new(messages))
}
