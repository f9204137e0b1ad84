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
use mcp_spec_types::engine::{self, Config, Id, LogLevel, RequestError, Server, ServerInfo};
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

mod session;
mod stateless;

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

// Request handling: what each request gets.

/// One request being answered: its id, and the session it belongs to.
struct Ctx {
    app: Arc<App>,
    session: Arc<Session>,
    id: Id,
}

fn error(code: i64, message: impl Into<String>) -> Failure {
    ErrorResponse::new(None, code, message)
}

impl Ctx {
    /// The request read as 2025-11-25, answered (2026-07-28 shares its params and results).
    async fn run(&self, request: &engine::Request) -> Result<Value, RpcError> {
        let mut line = serde_json::Map::new();
        line.insert("jsonrpc".into(), json!("2.0"));
        line.insert("id".into(), request.id.to_value());
        line.insert("method".into(), json!(request.method));
        if let Some(params) = &request.params {
            line.insert("params".into(), params.clone());
        }
        let Ok(Message::Request(typed)) =
            read_message::<ClientMessage>(Value::Object(line).to_string())
        else {
            return Err(error(rpc::INVALID_PARAMS, "Invalid params").error);
        };
        match self.result(typed).await {
            Ok(result) => Ok(serde_json::to_value(&result).unwrap_or_default()),
            Err(failure) => Err(failure.error),
        }
    }

    /// Writes the answer and ends the request's stream.
    fn finish(&self, outcome: Result<Value, RpcError>) {
        let written = self.session.with(|s| match &outcome {
            Ok(result) => s.engine.respond(&self.id, result),
            Err(error) => s.engine.respond_error(&self.id, error),
        });
        if let Err(e) = written {
            eprintln!("answer: {e}");
        }
        self.session.flush(&self.app);
        self.session.finish(&self.id);
    }

    /// Whether the client declared `capability` (in `initialize`, or in a 2026-07-28 request's `_meta`).
    fn declared(&self, capability: &str) -> bool {
        self.session.with(|s| {
            s.engine
                .client_capabilities(&self.id)
                .is_some_and(|c| c.get(capability).is_some())
        })
    }

    async fn result(&self, request: ClientRequest) -> Result<ServerResult, Failure> {
        use ClientRequest as R;
        let empty = || Ok(mcp::EmptyResult::default().into());
        match request {
            R::CompleteRequest(r) => {
                let typed = r.params.argument.value.to_lowercase();
                let values = ["paris", "park", "party"]
                    .iter()
                    .filter(|v| v.starts_with(&typed))
                    .map(|v| v.to_string());
                let completion = mcp::CompleteResultCompletion::new(values.collect());
                Ok(mcp::CompleteResult::new(completion).into())
            }
            R::ListToolsRequest(_) => Ok(mcp::ListToolsResult::new(tools()).into()),
            R::CallToolRequest(r) => Ok(self.call_tool(r.params).await?.into()),
            R::ListResourcesRequest(_) => Ok(mcp::ListResourcesResult::new(resources()).into()),
            R::ListResourceTemplatesRequest(_) => {
                let template = mcp::ResourceTemplate {
                    description: Some("JSON data for an id".into()),
                    mime_type: Some("application/json".into()),
                    ..mcp::ResourceTemplate::new("template-data", "test://template/{id}/data")
                };
                Ok(mcp::ListResourceTemplatesResult::new(vec![template]).into())
            }
            R::ReadResourceRequest(r) => Ok(read_resource(&r.params.uri)?.into()),
            R::SubscribeRequest(r) => {
                self.session.with(|s| s.subscriptions.insert(r.params.uri));
                empty()
            }
            R::UnsubscribeRequest(r) => {
                self.session.with(|s| s.subscriptions.remove(&r.params.uri));
                empty()
            }
            R::ListPromptsRequest(_) => Ok(mcp::ListPromptsResult::new(prompts()).into()),
            R::GetPromptRequest(r) => {
                let arguments = r.params.arguments.unwrap_or_default();
                Ok(get_prompt(&r.params.name, arguments)?.into())
            }
            // The engine answers `initialize`, `ping` and `logging/setLevel` itself.
            other => Err(other.method_not_found()),
        }
    }

    /// A log message about this request, at or above the session's level (2026-07-28: the
    /// request's, none without one): the engine decides.
    fn log(&self, level: LogLevel, logger: Option<&str>, text: &str) {
        let _ = self
            .session
            .with(|s| s.engine.log_for(&self.id, level, logger, &text));
        self.session.flush(&self.app);
    }

    /// Progress for this request, if it asked for it (a progress token).
    fn progress(&self, step: f64) {
        let _ = self
            .session
            .with(|s| s.engine.progress(&self.id, step, Some(100.0), None));
        self.session.flush(&self.app);
    }

    /// Sends a request to the client on this request's stream and waits for its answer.
    async fn ask<Q: RequestMethod>(&self, request: Q) -> Result<Q::Result, Failure> {
        let asked = self.session.with(|s| {
            let handle = s
                .engine
                .request_for(&self.id, request, Instant::now(), None)?;
            let answer = s.wait(handle.id());
            Ok::<_, engine::Error>((handle, answer))
        });
        let (handle, answer) = asked.map_err(|e| error(rpc::INVALID_REQUEST, e.to_string()))?;
        self.session.flush(&self.app);
        match tokio::time::timeout(Duration::from_secs(30), answer).await {
            Ok(Ok(answer)) => handle.read(answer).map_err(|e| match e {
                RequestError::Rpc(e) => error(e.code, e.message),
                other => error(rpc::INTERNAL_ERROR, other.to_string()),
            }),
            _ => {
                let _ = self.session.with(|s| {
                    s.forget(handle.id());
                    s.engine.cancel(&handle, Some("no answer in 30 s"))
                });
                self.session.flush(&self.app);
                Err(error(rpc::INTERNAL_ERROR, "the client did not answer"))
            }
        }
    }

    async fn call_tool(&self, params: CallToolRequestParams) -> Result<CallToolResult, Failure> {
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
            "test_audio_content" => {
                CallToolResult::new(vec![mcp::AudioContent::new(WAV, "audio/wav").into()])
            }
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
                self.log(LogLevel::Info, None, "Tool execution started");
                pause().await;
                self.log(LogLevel::Info, None, "Tool processing data");
                pause().await;
                self.log(LogLevel::Info, None, "Tool execution completed");
                CallToolResult::text("Logging test completed")
            }
            "test_error_handling" => {
                CallToolResult::error("This tool intentionally returns an error for testing")
            }
            "test_tool_with_progress" => {
                for step in [0, 50, 100] {
                    self.progress(f64::from(step));
                    if step < 100 {
                        pause().await;
                    }
                }
                CallToolResult::text("Progress test completed")
            }
            "test_sampling" => {
                if !self.declared("sampling") {
                    return Ok(CallToolResult::error(
                        "the client does not support sampling",
                    ));
                }
                let prompt = mcp::TextContent::new(text_arg("prompt"));
                let message = mcp::SamplingMessage::new(mcp::Role::User, prompt.into());
                let params = mcp::CreateMessageRequestParams::new(vec![message], 100);
                let ask = mcp::CreateMessageRequest::new(params, RequestId::Integer(0));
                let reply = self.ask(ask).await?;
                let text = match &reply.content {
                    mcp::SamplingMessageContent::SamplingMessageContentBlock(
                        mcp::SamplingMessageContentBlock::TextContent(t),
                    ) => t.text.clone(),
                    other => format!("({})", other.schema_name()),
                };
                CallToolResult::text(format!("LLM response: {text}"))
            }
            "test_elicitation" => {
                let reply = self.elicit(&text_arg("message"), contact_form()).await?;
                CallToolResult::text(format!("User response: {reply}"))
            }
            "test_elicitation_sep1034_defaults" => {
                let message = "Please review your profile (every field has a default)";
                let reply = self.elicit(message, defaults_form()).await?;
                CallToolResult::text(format!("Elicitation completed: {reply}"))
            }
            "test_elicitation_sep1330_enums" => {
                let message = "Please pick from each kind of list";
                let reply = self.elicit(message, enums_form()).await?;
                CallToolResult::text(format!("Elicitation completed: {reply}"))
            }
            "test_reconnection" => {
                // Close the connection before the result: the client resumes with Last-Event-ID.
                pause().await;
                self.session.disconnect(&self.id);
                tokio::time::sleep(Duration::from_millis(200)).await;
                CallToolResult::text("Reconnection test completed successfully")
            }
            // `json_schema_2020_12_tool` only needs to be listed; calling it echoes the arguments.
            "json_schema_2020_12_tool" => {
                CallToolResult::text(serde_json::to_string(&arguments).unwrap_or_default())
            }
            other => return Err(error(rpc::INVALID_PARAMS, format!("unknown tool: {other}"))),
        })
    }

    /// Asks the client to fill in a form; answers `action=…, content=…`.
    async fn elicit(
        &self,
        message: &str,
        requested_schema: mcp::ElicitRequestFormParamsRequestedSchema,
    ) -> Result<String, Failure> {
        if !self.declared("elicitation") {
            return Err(error(
                rpc::INVALID_REQUEST,
                "the client does not support elicitation",
            ));
        }
        let params = mcp::ElicitRequestFormParams::new(message, requested_schema);
        let reply = self
            .ask(mcp::ElicitRequest::new(
                params.into(),
                RequestId::Integer(0),
            ))
            .await?;
        let content = serde_json::to_value(&reply.content).unwrap_or_default();
        Ok(format!(
            "action={}, content={content}",
            reply.action.as_str()
        ))
    }
}

// Scenario content: the tools' forms, resources and prompts the suite calls for.

/// A form's requested schema with these fields.
fn form<const N: usize>(
    fields: [(&str, mcp::PrimitiveSchemaDefinition); N],
) -> mcp::ElicitRequestFormParamsRequestedSchema {
    let properties = fields.map(|(name, field)| (name.to_owned(), field));
    mcp::ElicitRequestFormParamsRequestedSchema::new(BTreeMap::from(properties))
}

fn strings<const N: usize>(values: [&str; N]) -> Vec<String> {
    values.map(str::to_owned).to_vec()
}

/// The form `test_elicitation` asks for: two required strings.
fn contact_form() -> mcp::ElicitRequestFormParamsRequestedSchema {
    let text = |description: &str| mcp::StringSchema {
        description: Some(description.into()),
        ..Default::default()
    };
    let (username, email) = (text("User's response"), text("User's email address"));
    mcp::ElicitRequestFormParamsRequestedSchema {
        required: Some(strings(["username", "email"])),
        ..form([("username", username.into()), ("email", email.into())])
    }
}

/// SEP-1034: a field of each kind, each with a default.
fn defaults_form() -> mcp::ElicitRequestFormParamsRequestedSchema {
    let name = mcp::StringSchema {
        default: Some("John Doe".into()),
        ..Default::default()
    };
    let number = |kind, default| mcp::NumberSchema {
        default: Some(default),
        ..mcp::NumberSchema::new(kind)
    };
    let age = number(mcp::NumberSchemaType::Integer, 30.into());
    let score = Number::from_f64(95.5).expect("finite");
    let score = number(mcp::NumberSchemaType::Number, score);
    let status = mcp::UntitledSingleSelectEnumSchema {
        default: Some("active".into()),
        ..mcp::UntitledSingleSelectEnumSchema::new(strings(["active", "inactive", "pending"]))
    };
    let verified = mcp::BooleanSchema {
        default: Some(true),
        ..Default::default()
    };
    form([
        ("name", name.into()),
        ("age", age.into()),
        ("score", score.into()),
        ("status", status.into()),
        ("verified", verified.into()),
    ])
}

/// SEP-1330: every kind of enum field.
fn enums_form() -> mcp::ElicitRequestFormParamsRequestedSchema {
    use mcp::TitledMultiSelectEnumSchemaItemsAnyOfItem as Choice;
    use mcp::TitledSingleSelectEnumSchemaOneOfItem as OneOf;
    let options = || strings(["option1", "option2", "option3"]);
    let untitled_single = mcp::UntitledSingleSelectEnumSchema::new(options());
    let titled_single = mcp::TitledSingleSelectEnumSchema::new(vec![
        OneOf::new("value1", "First Option"),
        OneOf::new("value2", "Second Option"),
        OneOf::new("value3", "Third Option"),
    ]);
    let legacy = mcp::LegacyTitledEnumSchema {
        enum_names: Some(strings(["Option One", "Option Two", "Option Three"])),
        ..mcp::LegacyTitledEnumSchema::new(strings(["opt1", "opt2", "opt3"]))
    };
    let items = mcp::UntitledMultiSelectEnumSchemaItems::new(options());
    let untitled_multi = mcp::UntitledMultiSelectEnumSchema::new(items);
    let items = mcp::TitledMultiSelectEnumSchemaItems::new(vec![
        Choice::new("value1", "First Choice"),
        Choice::new("value2", "Second Choice"),
        Choice::new("value3", "Third Choice"),
    ]);
    let titled_multi = mcp::TitledMultiSelectEnumSchema::new(items);
    form([
        ("untitledSingle", untitled_single.into()),
        ("titledSingle", titled_single.into()),
        ("legacyEnum", legacy.into()),
        ("untitledMulti", untitled_multi.into()),
        ("titledMulti", titled_multi.into()),
    ])
}

fn resources() -> Vec<mcp::Resource> {
    let resource = |uri: &str, name: &str, mime: &str, description: &str| mcp::Resource {
        description: Some(description.into()),
        mime_type: Some(mime.into()),
        ..mcp::Resource::new(name, uri)
    };
    vec![
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
    ]
}

fn image() -> ContentBlock {
    mcp::ImageContent::new(PNG, "image/png").into()
}

fn embedded_text(uri: &str, mime_type: &str, text: &str) -> ContentBlock {
    let contents = mcp::TextResourceContents {
        mime_type: Some(mime_type.into()),
        ..mcp::TextResourceContents::new(uri, text)
    };
    mcp::EmbeddedResource::new(contents.into()).into()
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

fn read_resource(uri: &str) -> Result<mcp::ReadResourceResult, Failure> {
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
            _ => {
                let not_found = error(mcp::RESOURCE_NOT_FOUND, "Resource not found");
                return Err(not_found.with_data(json!({ "uri": uri })));
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
    arguments: BTreeMap<String, String>,
) -> Result<mcp::GetPromptResult, Failure> {
    let user = |content: ContentBlock| mcp::PromptMessage::new(mcp::Role::User, content);
    let argument = |key: &str| {
        arguments
            .get(key)
            .cloned()
            .ok_or_else(|| error(rpc::INVALID_PARAMS, format!("missing argument `{key}`")))
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
                rpc::INVALID_PARAMS,
                format!("unknown prompt: {other}"),
            ))
        }
    };
    Ok(mcp::GetPromptResult::new(messages))
}
