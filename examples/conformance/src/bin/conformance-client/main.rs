//! An MCP client over Streamable HTTP on the crate's session engine, in the shape the conformance
//! suite runs clients: `conformance-client [--validate] [--record FILE] <server-url>`.
//!
//! It speaks the version the suite names in `MCP_CONFORMANCE_PROTOCOL_VERSION` (2025-11-25 when
//! unset). 2025-11-25: it initializes, opens the session's stream, lists the tools and calls each
//! one with arguments filled in from its input schema, answering the server's requests
//! (elicitation with the form's defaults, sampling with a fixed reply, roots) and resuming a
//! stream the server closed, after the `retry` delay, with `Last-Event-ID`. 2026-07-28: no
//! session; the engine's per-request client puts the version and capabilities in each request's
//! `_meta`, offers the input requests of an `InputRequiredResult` as requests (the client gives
//! the same answers) and sends the call again, and retries a refused version; this transport adds the headers the version asks for (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), skips tools whose `x-mcp-header` annotations are
//! invalid, and also lists and reads resources and prompts the server declares. Arguments the
//! suite passes in `MCP_CONFORMANCE_CONTEXT` (`toolCalls`) are used for those tools.
//!
//! The engine does the JSON-RPC: ids, matching answers, ping, what the client did not declare.
//! With `--validate` every message it writes is checked with the crate's validators; findings go
//! to stderr, then `validated N messages, M findings`. `--record FILE` (implies `--validate`)
//! also appends every message it writes, and every JSON message it reads, to FILE as JSONL.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response};
use hyper_util::client::legacy::{connect::HttpConnector, Client as HttpClient};
use hyper_util::rt::TokioExecutor;
use mcp_conformance::{headers, sse, Checker};
use mcp_spec_engine::{self as engine, Answer, Config, Event, PerRequest};
use mcp_spec_types::runtime::RequestMethod;
use mcp_spec_types::{v2025_11_25 as mcp, v2026_07_28 as next};
use serde_json::{json, Value};

mod answers;
use answers::{arguments_for, context_calls, serve, texts, without_bad_nulls};

const NEXT: &str = "2026-07-28";
const TIMEOUT: Duration = Duration::from_secs(15);

fn usage() -> ! {
    eprintln!("usage: conformance-client [--validate] [--record FILE] <server-url>");
    std::process::exit(2);
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut validate = false;
    let mut record = None;
    let mut url = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--validate" => validate = true,
            "--record" => record = args.next().or_else(|| usage()),
            _ => url = Some(arg),
        }
    }
    let Some(url) = url else { usage() };
    let checker = match record {
        Some(path) => Some(Arc::new(Checker::recording(&path, "c2s").unwrap_or_else(
            |e| {
                eprintln!("cannot record to {path}: {e}");
                std::process::exit(2)
            },
        ))),
        None => validate.then(Arc::default),
    };
    let next = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").is_ok_and(|v| v == NEXT);
    let engine = if next {
        let capabilities = json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}});
        let info =
            json!({"name": "mcp-schema-conformance-client", "version": env!("CARGO_PKG_VERSION")});
        let per = PerRequest::new(NEXT, &capabilities)
            .and_then(|p| p.client_info(&info))
            .expect("JSON values");
        engine::Client::per_request(Config::default(), per)
    } else {
        engine::Client::new(Config::default())
    };
    let client = Client(Arc::new(Inner {
        http: HttpClient::builder(TokioExecutor::new()).build_http(),
        url: url.parse().expect("a URL"),
        next,
        engine: Mutex::new(engine),
        answers: Mutex::default(),
        session: Mutex::default(),
        protocol: Mutex::default(),
        tools: Mutex::default(),
        checker,
    }));
    // The suite waits for the client to exit; never make it wait forever.
    let outcome = match tokio::time::timeout(Duration::from_secs(20), client.run()).await {
        Ok(outcome) => outcome,
        Err(_) => Err("gave up after 20 s".into()),
    };
    if let Some(checker) = &client.0.checker {
        eprintln!("{}", checker.summary());
    }
    if let Err(e) = outcome {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

#[derive(Clone)]
struct Client(Arc<Inner>);

struct Inner {
    http: HttpClient<HttpConnector, Full<Bytes>>,
    url: hyper::Uri,
    /// Speaking 2026-07-28 (per-request), not 2025-11-25 (a session).
    next: bool,
    engine: Mutex<engine::Client>,
    /// Answers to this client's requests, by handle id, until their caller takes them.
    answers: Mutex<HashMap<i64, Answer>>,
    session: Mutex<Option<String>>,
    /// The version negotiated by `initialize` (2025-11-25), sent as `MCP-Protocol-Version`.
    protocol: Mutex<Option<String>>,
    /// Each callable tool's `x-mcp-header` arguments (2026-07-28).
    tools: Mutex<HashMap<String, Vec<(String, String)>>>,
    checker: Option<Arc<Checker>>,
}

type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

impl Client {
    async fn run(&self) -> Result<(), String> {
        if self.0.next {
            return self.run_next().await;
        }
        let capabilities = mcp::ClientCapabilities {
            sampling: Some(Default::default()),
            elicitation: Some(mcp::ClientCapabilitiesElicitation {
                form: Some(Default::default()),
                ..Default::default()
            }),
            roots: Some(Default::default()),
            ..Default::default()
        };
        let info =
            mcp::Implementation::new("mcp-schema-conformance-client", env!("CARGO_PKG_VERSION"));
        let params =
            mcp::InitializeRequestParams::new(mcp::LATEST_PROTOCOL_VERSION, capabilities, info);
        let init = self.call(mcp::InitializeRequest::new(params, id())).await?;
        eprintln!(
            "server: {} {}, protocol {}",
            init.server_info.name, init.server_info.version, init.protocol_version
        );
        // Lifecycle, Operation: both parties "MUST ... Only use capabilities that were successfully
        // negotiated"; a server without `tools` gets no `tools/list`.
        let has_tools = init.capabilities.tools.is_some();
        *lock(&self.0.protocol) = Some(init.protocol_version);
        self.notify(&mcp::InitializedNotification::default())
            .await?;
        // Requests the server makes outside any call of ours come on the session's own stream.
        // It is opened before any call, so the server never takes it for a resumption.
        if lock(&self.0.session).is_some() {
            if let Ok(stream) = self.http(Method::GET, None, Vec::new()).await {
                tokio::spawn(self.clone().listen(stream));
            }
        }
        let tools = if has_tools {
            self.call(mcp::ListToolsRequest::new(id())).await?.tools
        } else {
            Vec::new()
        };
        for tool in tools {
            let arguments =
                arguments_for(&serde_json::to_value(&tool.input_schema).unwrap_or_default());
            let params = mcp::CallToolRequestParams {
                arguments: Some(arguments),
                ..mcp::CallToolRequestParams::new(&tool.name)
            };
            let result = self.call(mcp::CallToolRequest::new(params, id())).await?;
            eprintln!(
                "{}: {}",
                tool.name,
                texts(&serde_json::to_value(&result.content).unwrap_or_default())
            );
        }
        // Ending the session is a courtesy; a server may not support it.
        if lock(&self.0.session).is_some() {
            let _ = self.http(Method::DELETE, None, Vec::new()).await;
        }
        Ok(())
    }

    /// 2026-07-28: discover, then list and use what the server has.
    async fn run_next(&self) -> Result<(), String> {
        let discover = lock(&self.0.engine)
            .discover(Instant::now(), Some(TIMEOUT))
            .map_err(|e| e.to_string())?;
        let found = self.answer_of(discover).await?;
        eprintln!("server versions: {}", found.supported_versions.join(", "));
        let capabilities = found.capabilities;
        let meta = next::RequestMetaObject::default;
        if capabilities.tools.is_some() {
            let list = self
                .call(next::ListToolsRequest::new(
                    next::PaginatedRequestParams::new(meta()),
                    next_id(),
                ))
                .await?;
            let given = context_calls();
            for tool in list.tools {
                let schema = serde_json::to_value(&tool.input_schema).unwrap_or_default();
                match headers::tool_headers(&schema) {
                    Ok(mirrored) => lock(&self.0.tools).insert(tool.name.clone(), mirrored),
                    Err(why) => {
                        eprintln!("{}: not called: {why}", tool.name);
                        continue;
                    }
                };
                let arguments = match given.get(&tool.name) {
                    Some(arguments) => without_bad_nulls(arguments, &schema),
                    None => arguments_for(&schema),
                };
                let params = next::CallToolRequestParams {
                    arguments: Some(arguments),
                    ..next::CallToolRequestParams::new(meta(), &tool.name)
                };
                // A tool the server lists but will not run is the server's answer, not the client's failure.
                match self
                    .call(next::CallToolRequest::new(params, next_id()))
                    .await
                {
                    Ok(result) => eprintln!(
                        "{}: {}",
                        tool.name,
                        texts(&serde_json::to_value(&result).unwrap_or_default()["content"])
                    ),
                    Err(e) => eprintln!("{}: {e}", tool.name),
                }
            }
        }
        if capabilities.resources.is_some() {
            let list = self
                .call(next::ListResourcesRequest::new(
                    next::PaginatedRequestParams::new(meta()),
                    next_id(),
                ))
                .await?;
            for resource in list.resources {
                let params = next::ReadResourceRequestParams::new(meta(), &resource.uri);
                self.call(next::ReadResourceRequest::new(params, next_id()))
                    .await?;
            }
        }
        if capabilities.prompts.is_some() {
            let list = self
                .call(next::ListPromptsRequest::new(
                    next::PaginatedRequestParams::new(meta()),
                    next_id(),
                ))
                .await?;
            for prompt in list.prompts {
                let params = next::GetPromptRequestParams::new(meta(), &prompt.name);
                self.call(next::GetPromptRequest::new(params, next_id()))
                    .await?;
            }
        }
        Ok(())
    }

    /// Sends a request through the engine and waits for its answer, read as `R::Result`.
    async fn call<R: RequestMethod>(&self, request: R) -> Result<R::Result, String> {
        let handle = lock(&self.0.engine)
            .request(request, Instant::now(), Some(TIMEOUT))
            .map_err(|e| e.to_string())?;
        self.answer_of(handle).await
    }

    async fn answer_of<R: RequestMethod>(
        &self,
        handle: engine::Handle<R>,
    ) -> Result<R::Result, String> {
        loop {
            self.pump().await?;
            if let Some(answer) = lock(&self.0.answers).remove(&handle.id()) {
                return handle
                    .read(answer)
                    .map_err(|e| format!("{}: {e}", R::METHOD));
            }
            // Another task (the session's stream) may be delivering it; the engine's deadline ends the wait.
            tokio::time::sleep(Duration::from_millis(10)).await;
            lock(&self.0.engine).handle_timeout(Instant::now());
        }
    }

    async fn notify<N: mcp_spec_types::runtime::NotificationMethod>(
        &self,
        notification: &N,
    ) -> Result<(), String> {
        lock(&self.0.engine)
            .notify(notification)
            .map_err(|e| e.to_string())?;
        self.pump().await
    }

    /// Hands the engine's events to the application and POSTs the lines it has to write, until
    /// both are empty.
    fn pump(&self) -> Boxed<'_, Result<(), String>> {
        Box::pin(async move {
            loop {
                let lines: Vec<Vec<u8>> = {
                    let mut engine = lock(&self.0.engine);
                    let events: Vec<Event> = std::iter::from_fn(|| engine.poll_event()).collect();
                    for event in events {
                        self.on_event(&mut engine, event);
                    }
                    std::iter::from_fn(|| engine.poll_transmit()).map(|t| t.line).collect()
                };
                if lines.is_empty() {
                    return Ok(());
                }
                for line in lines {
                    self.post(line).await?;
                }
            }
        })
    }

    fn on_event(&self, engine: &mut engine::Client, event: Event) {
        match event {
            Event::Answer(answer) => {
                lock(&self.0.answers).insert(answer.id, answer);
            }
            Event::Request(request) => {
                let outcome = match serve(&request.method, request.params.as_ref()) {
                    Ok(result) => engine.respond(&request.id, &result),
                    Err(error) => engine.respond_error(&request.id, &error),
                };
                if let Err(e) = outcome {
                    eprintln!("cannot answer {}: {e}", request.method);
                }
            }
            Event::Notification { method, .. } => eprintln!("notification: {method}"),
            Event::Progress { request, params } => eprintln!("progress of {request}: {params}"),
            Event::Cancelled { id, .. } => eprintln!("cancelled by the server: {id:?}"),
            Event::Dropped(why) => eprintln!("dropped: {why:?}"),
        }
    }

    /// POSTs one line the engine wrote and feeds what comes back (the body, or each event of
    /// its stream, resumed if the server closes it before the answer) to the engine.
    fn post(&self, line: Vec<u8>) -> Boxed<'_, Result<(), String>> {
        Box::pin(async move {
            if self.0.next {
                mcp_conformance::wrote::<next::ClientMessage>(&line, self.0.checker.as_deref());
            } else {
                mcp_conformance::wrote::<mcp::ClientMessage>(&line, self.0.checker.as_deref());
            }
            let message: Value = serde_json::from_slice(&line).map_err(|e| e.to_string())?;
            let extra = self.headers_for(&message);
            let response = self.http(Method::POST, Some(line), extra).await?;
            if let Some(session) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
            {
                if !self.0.next {
                    *lock(&self.0.session) = Some(session.to_owned());
                }
            }
            let awaited = message.get("method").and(message.get("id")).cloned();
            self.read_body(response, awaited).await
        })
    }

    /// The headers of a POST beyond the content headers: the session's (2025-11-25), or the
    /// per-message ones of 2026-07-28.
    fn headers_for(&self, message: &Value) -> Vec<(String, String)> {
        if !self.0.next {
            let session = lock(&self.0.session)
                .clone()
                .map(|s| ("mcp-session-id".to_owned(), s));
            let protocol = lock(&self.0.protocol)
                .clone()
                .map(|p| ("mcp-protocol-version".to_owned(), p));
            return session.into_iter().chain(protocol).collect();
        }
        // The header carries the version the message's `_meta` names (a response has none).
        let version = message
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .and_then(Value::as_str);
        let version = version
            .map(str::to_owned)
            .or_else(|| lock(&self.0.engine).protocol_version().map(str::to_owned));
        let mut extra: Vec<(String, String)> = version
            .map(|v| ("mcp-protocol-version".to_owned(), v))
            .into_iter()
            .collect();
        extra.extend(headers::standard(message));
        if message.get("method").and_then(Value::as_str) == Some("tools/call") {
            let name = message
                .pointer("/params/name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if let Some(mirrored) = lock(&self.0.tools).get(name) {
                extra.extend(headers::params(
                    mirrored,
                    message.pointer("/params/arguments"),
                ));
            }
        }
        extra
    }

    async fn http(
        &self,
        method: Method,
        body: Option<Vec<u8>>,
        extra: Vec<(String, String)>,
    ) -> Result<Response<Incoming>, String> {
        let mut request = Request::builder()
            .method(method.clone())
            .uri(self.0.url.clone())
            .header(header::ACCEPT, "application/json, text/event-stream");
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        if method != Method::POST {
            let session = lock(&self.0.session).clone();
            for (name, value) in [
                ("mcp-session-id", session),
                ("mcp-protocol-version", lock(&self.0.protocol).clone()),
            ] {
                if let Some(value) = value {
                    request = request.header(
                        name,
                        HeaderValue::from_str(&value).map_err(|e| e.to_string())?,
                    );
                }
            }
        }
        for (name, value) in extra {
            request = request.header(
                name,
                HeaderValue::from_str(&value).map_err(|e| e.to_string())?,
            );
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| e.to_string())?;
        let response = self
            .0
            .http
            .request(request)
            .await
            .map_err(|e| format!("{method}: {e}"))?;
        // A refusal with a JSON-RPC error in its body (an unsupported version: 400) is read: the
        // engine decides what it means.
        if !response.status().is_success() && !is_json(&response) {
            return Err(format!("{method}: HTTP {}", response.status()));
        }
        Ok(response)
    }

    /// Feeds a response body to the engine. `awaited`: the id of the request the POST carried;
    /// a stream that ends before its answer is resumed with `Last-Event-ID` after `retry`.
    async fn read_body(
        &self,
        response: Response<Incoming>,
        awaited: Option<Value>,
    ) -> Result<(), String> {
        let is_sse = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let mut body = response.into_body();
        if !is_sse {
            let bytes = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
            if !bytes.is_empty() {
                self.feed(&bytes).await?;
            }
            return Ok(());
        }
        let mut reader = sse::Reader::default();
        let (mut last_event_id, mut retry) = (None, Duration::from_secs(1));
        loop {
            match body.frame().await {
                Some(Ok(frame)) => {
                    let Ok(chunk) = frame.into_data() else {
                        continue;
                    };
                    for event in reader.push(&chunk) {
                        last_event_id = event.id.or(last_event_id);
                        retry = event.retry_ms.map_or(retry, Duration::from_millis);
                        if event.data.is_empty() {
                            continue;
                        }
                        let answers = serde_json::from_str::<Value>(&event.data)
                            .ok()
                            .filter(|m| m.get("method").is_none())
                            .and_then(|m| m.get("id").cloned());
                        self.feed(event.data.as_bytes()).await?;
                        if awaited.is_some() && answers == awaited {
                            return Ok(());
                        }
                    }
                }
                Some(Err(_)) | None if awaited.is_none() => return Ok(()),
                // The server closed the stream before answering: come back after `retry`.
                Some(Err(_)) | None => {
                    let Some(last) = &last_event_id else {
                        return Err(
                            "the stream ended before the response and cannot be resumed".into()
                        );
                    };
                    tokio::time::sleep(retry).await;
                    body = self
                        .http(
                            Method::GET,
                            None,
                            vec![("last-event-id".into(), last.clone())],
                        )
                        .await?
                        .into_body();
                    reader = sse::Reader::default();
                }
            }
        }
    }

    /// One message from the server: to the engine, then whatever it makes the client do.
    async fn feed(&self, data: &[u8]) -> Result<(), String> {
        if let Some(checker) = &self.0.checker {
            checker.received(data);
        }
        lock(&self.0.engine)
            .handle_line(data)
            .map_err(|e| e.to_string())?;
        self.pump().await
    }

    /// Reads the session's standalone stream, answering what comes.
    async fn listen(self, stream: Response<Incoming>) {
        if let Err(e) = self.read_body(stream, None).await {
            eprintln!("standalone stream: {e}");
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn is_json(response: &Response<Incoming>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"))
}

// The engine replaces the ids requests are built with.
fn id() -> mcp::RequestId {
    mcp::RequestId::Integer(0)
}

fn next_id() -> next::RequestId {
    next::RequestId::Integer(0)
}
