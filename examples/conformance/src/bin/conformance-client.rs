//! An MCP client over Streamable HTTP (protocol 2025-11-25), written on the generated crate, in the
//! shape the conformance suite runs clients: `conformance-client [--validate] <server-url>`.
//!
//! It initializes, lists the tools and calls each one with arguments filled in from its input
//! schema. While a call runs it answers the server's requests (elicitation with the form's
//! defaults, sampling with a fixed reply, ping, roots) and resumes a stream the server closed,
//! after the `retry` delay, with `Last-Event-ID`. With `--validate` every message it writes is
//! checked with the crate's validators; findings go to stderr, then `validated N messages, M findings`.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response};
use hyper_util::client::legacy::{connect::HttpConnector, Client as HttpClient};
use hyper_util::rt::TokioExecutor;
use mcp_conformance::{sse, Checker};
use mcp_schema::runtime::{self, JsonConvert, Message, RequestMethod, ResultResponse, SchemaType};
use mcp_schema::v2025_11_25::{
    self as mcp, ClientNotification, ClientRequest, ClientResult, RequestId, ServerRequest,
};
use mcp_schema::validate::{validate, validate_json, Options};
use serde_json::{json, Value};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut validate = false;
    let mut url = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--validate" => validate = true,
            _ => url = Some(arg),
        }
    }
    let Some(url) = url else {
        eprintln!("usage: conformance-client [--validate] <server-url>");
        std::process::exit(2);
    };
    let mut client = Client {
        http: HttpClient::builder(TokioExecutor::new()).build_http(),
        url: url.parse().expect("a URL"),
        session: None,
        protocol: None,
        next_id: 0,
        checker: validate.then(Arc::default),
    };
    // The suite waits for the client to exit; never make it wait forever.
    let outcome = match tokio::time::timeout(Duration::from_secs(20), client.run()).await {
        Ok(outcome) => outcome,
        Err(_) => Err("gave up after 20 s".into()),
    };
    if let Some(checker) = &client.checker {
        eprintln!("{}", checker.summary());
    }
    if let Err(e) = outcome {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

#[derive(Clone)]
struct Client {
    http: HttpClient<HttpConnector, Full<Bytes>>,
    url: hyper::Uri,
    session: Option<String>,
    protocol: Option<String>,
    next_id: i64,
    checker: Option<Arc<Checker>>,
}

impl Client {
    async fn run(&mut self) -> Result<(), String> {
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
        let init = self
            .request::<mcp::InitializeRequest>(|id| {
                ClientRequest::InitializeRequest(mcp::InitializeRequest::new(params, id))
            })
            .await?;
        eprintln!(
            "server: {} {}, protocol {}",
            init.server_info.name, init.server_info.version, init.protocol_version
        );
        self.protocol = Some(init.protocol_version);
        self.notify(ClientNotification::InitializedNotification(
            Default::default(),
        ))
        .await?;
        // Requests the server makes outside any call of ours come on the session's own stream.
        // It is opened before any call, so the server never takes it for a resumption.
        if self.session.is_some() {
            if let Ok(stream) = self.send(Method::GET, None, None).await {
                tokio::spawn(self.clone().listen(stream));
            }
        }

        let tools = self
            .request::<mcp::ListToolsRequest>(|id| {
                ClientRequest::ListToolsRequest(mcp::ListToolsRequest::new(id))
            })
            .await?;
        for tool in tools.tools {
            let params = mcp::CallToolRequestParams {
                arguments: Some(arguments_for(&tool.input_schema)),
                ..mcp::CallToolRequestParams::new(&tool.name)
            };
            let result = self
                .request::<mcp::CallToolRequest>(|id| {
                    ClientRequest::CallToolRequest(mcp::CallToolRequest::new(params, id))
                })
                .await?;
            let text: Vec<&str> = result
                .content
                .iter()
                .filter_map(|c| match c {
                    mcp::ContentBlock::TextContent(t) => Some(t.text.as_str()),
                    _ => None,
                })
                .collect();
            eprintln!("{}: {}", tool.name, text.join(" "));
        }
        // Ending the session is a courtesy; a server may not support it.
        if self.session.is_some() {
            let _ = self.send(Method::DELETE, None, None).await;
        }
        Ok(())
    }

    /// Sends a request and reads its response, typed for the request (`R::Result`).
    async fn request<R: RequestMethod>(
        &mut self,
        make: impl FnOnce(RequestId) -> ClientRequest,
    ) -> Result<R::Result, String> {
        self.next_id += 1;
        let id = RequestId::Integer(self.next_id);
        let body = self.encode(&Message::Request(make(id.clone())));
        let response = self.send(Method::POST, Some(body), None).await?;
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_owned());
        }
        let text = self.read_response(response, &id).await?;
        match runtime::read_response::<R>(&text).map_err(|e| format!("{}: {e}", R::METHOD))? {
            runtime::Response::Result { result, .. } => Ok(result),
            runtime::Response::Error { error, .. } => Err(format!(
                "{}: error {}: {}",
                R::METHOD,
                error.code,
                error.message
            )),
        }
    }

    async fn notify(&mut self, notification: ClientNotification) -> Result<(), String> {
        let body = self.encode(&Message::Notification(notification));
        self.send(Method::POST, Some(body), None).await.map(drop)
    }

    async fn send(
        &self,
        method: Method,
        body: Option<String>,
        last_event_id: Option<&str>,
    ) -> Result<Response<Incoming>, String> {
        let mut request = Request::builder()
            .method(method.clone())
            .uri(self.url.clone())
            .header(header::ACCEPT, "application/json, text/event-stream");
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        for (name, value) in [
            ("mcp-session-id", self.session.as_deref()),
            ("mcp-protocol-version", self.protocol.as_deref()),
            ("last-event-id", last_event_id),
        ] {
            if let Some(value) = value {
                request = request.header(
                    name,
                    HeaderValue::from_str(value).map_err(|e| e.to_string())?,
                );
            }
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| e.to_string())?;
        let response = self
            .http
            .request(request)
            .await
            .map_err(|e| format!("{method}: {e}"))?;
        if !response.status().is_success() {
            return Err(format!("{method}: HTTP {}", response.status()));
        }
        Ok(response)
    }

    /// The response to request `id`, as JSON text: the body itself, or an event of its SSE stream.
    /// On the stream it answers the server's requests, and resumes the stream if it ends early.
    async fn read_response(
        &self,
        response: Response<Incoming>,
        id: &RequestId,
    ) -> Result<String, String> {
        let is_sse = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let mut body = response.into_body();
        if !is_sse {
            let bytes = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
            return String::from_utf8(bytes.to_vec()).map_err(|e| e.to_string());
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
                        if !event.data.is_empty() && self.on_message(&event.data, id).await? {
                            return Ok(event.data);
                        }
                    }
                }
                // The server closed the stream before answering: come back after `retry`.
                Some(Err(_)) | None => {
                    let Some(last) = &last_event_id else {
                        return Err(
                            "the stream ended before the response and cannot be resumed".into()
                        );
                    };
                    tokio::time::sleep(retry).await;
                    body = self.send(Method::GET, None, Some(last)).await?.into_body();
                    reader = sse::Reader::default();
                }
            }
        }
    }

    /// Reads the session's standalone stream, answering what comes.
    async fn listen(self, stream: Response<Incoming>) {
        let mut body = stream.into_body();
        let mut reader = sse::Reader::default();
        let nothing = RequestId::String(String::new());
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(chunk) = frame.into_data() else {
                continue;
            };
            for event in reader.push(&chunk) {
                if !event.data.is_empty() {
                    if let Err(e) = self.on_message(&event.data, &nothing).await {
                        eprintln!("standalone stream: {e}");
                    }
                }
            }
        }
    }

    /// Handles one message of a stream; `true` when it is the response to `id`.
    async fn on_message(&self, data: &str, id: &RequestId) -> Result<bool, String> {
        let message: mcp::ServerMessage =
            mcp_schema::from_str(data).map_err(|e| format!("unreadable message: {e}"))?;
        match message {
            Message::Result(response) => Ok(response.id == *id),
            Message::Error(response) => Ok(response.id.as_ref() == Some(id)),
            Message::Notification(notification) => {
                eprintln!("notification: {}", notification.schema_name());
                Ok(false)
            }
            Message::Request(request) => {
                let answer = self.answer(request);
                self.send(Method::POST, Some(answer), None).await?;
                Ok(false)
            }
        }
    }

    /// The answer to a request from the server, as JSON text.
    fn answer(&self, request: ServerRequest) -> String {
        use ServerRequest as R;
        let result = match request {
            R::PingRequest(r) => (r.id, ClientResult::EmptyResult(Default::default())),
            R::ListRootsRequest(r) => (
                r.id,
                ClientResult::ListRootsResult(mcp::ListRootsResult::new(vec![])),
            ),
            R::CreateMessageRequest(r) => {
                let content = mcp::SamplingMessageContent::SamplingMessageContentBlock(
                    mcp::SamplingMessageContentBlock::TextContent(mcp::TextContent::new(
                        "A reply from the conformance client.",
                    )),
                );
                (
                    r.id,
                    ClientResult::CreateMessageResult(mcp::CreateMessageResult::new(
                        mcp::Role::Assistant,
                        content,
                        "no-model",
                    )),
                )
            }
            R::ElicitRequest(r) => return self.accept_defaults(r),
            other => {
                let id = server_request_id(&other);
                let error = mcp::Error::new(
                    mcp::METHOD_NOT_FOUND,
                    format!("not supported: {}", other.schema_name()),
                );
                return self.encode(&Message::Error(mcp::JSONRPCErrorResponse {
                    id,
                    ..mcp::JSONRPCErrorResponse::new(error)
                }));
            }
        };
        self.encode(&Message::Result(ResultResponse {
            id: result.0,
            result: result.1,
            extra: Default::default(),
        }))
    }

    /// Accepts a form with every field at its default (SEP-1034).
    ///
    /// Written as JSON: `ElicitResult::content` holds strings, integers, booleans and string
    /// lists (the schema's `integer`), so a default such as 95.5 has no typed form.
    fn accept_defaults(&self, request: mcp::ElicitRequest) -> String {
        let mut content = serde_json::Map::new();
        if let mcp::ElicitRequestParams::ElicitRequestFormParams(form) = &request.params {
            for (name, schema) in &form.requested_schema.properties {
                let schema = schema.to_json().unwrap_or_default();
                if let Some(default) = schema.get("default") {
                    content.insert(name.clone(), default.clone());
                }
            }
        }
        let json = json!({"jsonrpc": "2.0", "id": request.id, "result": {"action": "accept", "content": content}});
        if let Some(checker) = &self.checker {
            let o = Options::default();
            let reports = [
                validate_json::<mcp::JSONRPCResultResponse>(&json, &o),
                validate_json::<mcp::ElicitResult>(&json["result"], &o),
            ];
            checker.record("ElicitResult", &reports);
        }
        json.to_string()
    }

    /// Writes a message, checking it first in debug mode.
    fn encode(&self, message: &mcp::ClientMessage) -> String {
        let json = serde_json::to_value(message).expect("generated types serialize");
        if let Some(checker) = &self.checker {
            let o = Options::default();
            // `ClientMessage` has no validator of its own: each kind is checked as its schema type,
            // a result as the type it holds (as `ClientResult`, `EmptyResult` would take any object).
            let reports = match message {
                Message::Request(_) => vec![validate_json::<ClientRequest>(&json, &o)],
                Message::Notification(_) => vec![validate_json::<ClientNotification>(&json, &o)],
                Message::Result(response) => {
                    let result = match &response.result {
                        ClientResult::EmptyResult(r) => validate(r, &o),
                        ClientResult::CreateMessageResult(r) => validate(r, &o),
                        ClientResult::ListRootsResult(r) => validate(r, &o),
                        ClientResult::ElicitResult(r) => validate(r, &o),
                        ClientResult::GetTaskResult(r) => validate(r, &o),
                        ClientResult::GetTaskPayloadResult(r) => validate(r, &o),
                        ClientResult::ListTasksResult(r) => validate(r, &o),
                        ClientResult::CancelTaskResult(r) => validate(r, &o),
                    };
                    vec![
                        validate_json::<mcp::JSONRPCResultResponse>(&json, &o),
                        result,
                    ]
                }
                Message::Error(_) => vec![validate_json::<mcp::JSONRPCErrorResponse>(&json, &o)],
            };
            checker.record(message.schema_name(), &reports);
        }
        json.to_string()
    }
}

/// The id of a server request this client does not handle: every variant has one, but the union
/// has no accessor.
fn server_request_id(request: &ServerRequest) -> Option<RequestId> {
    use ServerRequest as R;
    Some(match request {
        R::PingRequest(r) => r.id.clone(),
        R::CreateMessageRequest(r) => r.id.clone(),
        R::ListRootsRequest(r) => r.id.clone(),
        R::ElicitRequest(r) => r.id.clone(),
        R::GetTaskRequest(r) => r.id.clone(),
        R::GetTaskPayloadRequest(r) => r.id.clone(),
        R::ListTasksRequest(r) => r.id.clone(),
        R::CancelTaskRequest(r) => r.id.clone(),
        R::Unknown(raw) => RequestId::from_json_ref(raw.get("id")?).ok()?,
    })
}

/// Arguments for a tool: each property of its input schema with a value of the property's type.
fn arguments_for(schema: &mcp::ToolInputSchema) -> runtime::JsonObject {
    let properties = schema.properties.iter().flatten();
    properties
        .map(|(name, property)| {
            let value = match property.get("type").and_then(Value::as_str) {
                Some("number" | "integer") => json!(1),
                Some("boolean") => json!(true),
                Some("array") => json!([]),
                Some("object") => json!({}),
                _ => json!("test"),
            };
            (name.clone(), value)
        })
        .collect()
}
