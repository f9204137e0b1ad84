//! An MCP client over Streamable HTTP (protocol 2025-11-25), written on the generated crate, in the
//! shape the conformance suite runs clients: `conformance-client [--validate] <server-url>`.
//!
//! It initializes, lists the tools and calls each one with arguments filled in from its input
//! schema. While a call runs it answers the server's requests (elicitation with the form's
//! defaults, sampling with a fixed reply, ping, roots) and resumes a stream the server closed,
//! after the `retry` delay, with `Last-Event-ID`. With `--validate` every message it writes is
//! checked with the crate's validators; findings go to stderr, then `validated N messages, M findings`.
//! `--record FILE` (implies `--validate`) also appends every message it writes, and every JSON
//! message it reads, to FILE as JSONL.

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
use mcp_spec_types::read_message;
use mcp_spec_types::runtime::{self, Message, RequestMethod, SchemaType};
use mcp_spec_types::v2025_11_25::{
    self as mcp, ClientMessage, ClientRequest, RequestId, ServerNotification, ServerRequest,
};
use serde_json::{json, Value};

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
    let mut client = Client {
        http: HttpClient::builder(TokioExecutor::new()).build_http(),
        url: url.parse().expect("a URL"),
        session: None,
        protocol: None,
        next_id: 0,
        checker,
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

/// What comes on the stream of a request `R`: the server's requests and notifications, and the
/// response, whose result is read straight as `R`'s result type.
type StreamMessage<R> = Message<
    RequestId,
    ServerRequest,
    ServerNotification,
    <R as RequestMethod>::Result,
    mcp::JSONRPCErrorResponse,
>;

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
            .request(|id| mcp::InitializeRequest::new(params, id))
            .await?;
        eprintln!(
            "server: {} {}, protocol {}",
            init.server_info.name, init.server_info.version, init.protocol_version
        );
        // Lifecycle, Operation: both parties "MUST ... Only use capabilities that were successfully
        // negotiated"; a server without `tools` gets no `tools/list`.
        let has_tools = init.capabilities.tools.is_some();
        self.protocol = Some(init.protocol_version);
        let initialized = mcp::InitializedNotification::default();
        let body = self.write(&Message::Notification(initialized.into()));
        self.send(Method::POST, Some(body), None).await?;
        // Requests the server makes outside any call of ours come on the session's own stream.
        // It is opened before any call, so the server never takes it for a resumption.
        if self.session.is_some() {
            if let Ok(stream) = self.send(Method::GET, None, None).await {
                tokio::spawn(self.clone().listen(stream));
            }
        }

        let tools = if has_tools {
            self.request(mcp::ListToolsRequest::new).await?.tools
        } else {
            Vec::new()
        };
        for tool in tools {
            let params = mcp::CallToolRequestParams {
                arguments: Some(arguments_for(&tool.input_schema)),
                ..mcp::CallToolRequestParams::new(&tool.name)
            };
            let result = self
                .request(|id| mcp::CallToolRequest::new(params, id))
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

    /// Writes a message, checking it first in debug mode.
    fn write(&self, message: &ClientMessage) -> String {
        mcp_conformance::write(message, self.checker.as_deref())
    }

    /// Sends a request and reads its response, typed for the request (`R::Result`).
    async fn request<R: RequestMethod + Into<ClientRequest>>(
        &mut self,
        make: impl FnOnce(RequestId) -> R,
    ) -> Result<R::Result, String> {
        self.next_id += 1;
        let id = RequestId::Integer(self.next_id);
        let body = self.write(&Message::Request(make(id.clone()).into()));
        let response = self.send(Method::POST, Some(body), None).await?;
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            self.session = Some(session.to_owned());
        }
        match self.read_response::<R>(response, &id).await? {
            Ok(result) => Ok(result),
            Err(e) => Err(format!("{}: error {}: {}", R::METHOD, e.code, e.message)),
        }
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
                let value = HeaderValue::from_str(value).map_err(|e| e.to_string())?;
                request = request.header(name, value);
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

    /// The response to request `id`: the body itself, or an event of its SSE stream. On the
    /// stream it answers the server's requests, and resumes the stream if it ends early.
    async fn read_response<R: RequestMethod>(
        &self,
        response: Response<Incoming>,
        id: &RequestId,
    ) -> Result<Result<R::Result, mcp::Error>, String> {
        let is_sse = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let mut body = response.into_body();
        if !is_sse {
            let bytes = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
            let answer = self.on_message::<R>(&bytes, id).await?;
            return answer.ok_or_else(|| "the body is not the response".into());
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
                        if let Some(answer) =
                            self.on_message::<R>(event.data.as_bytes(), id).await?
                        {
                            return Ok(answer);
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

    /// Handles one message on the stream of request `id`; the response when it is the one to `id`.
    async fn on_message<R: RequestMethod>(
        &self,
        data: &[u8],
        id: &RequestId,
    ) -> Result<Option<Result<R::Result, mcp::Error>>, String> {
        if let Some(checker) = &self.checker {
            checker.received(data);
        }
        let message = read_message::<StreamMessage<R>>(data)
            .map_err(|e| format!("unreadable message: {e}"))?;
        Ok(match message {
            Message::Result(response) if response.id == *id => Some(Ok(response.result)),
            Message::Error(response) if response.id.as_ref() == Some(id) => {
                Some(Err(response.error))
            }
            Message::Result(_) | Message::Error(_) => None,
            Message::Notification(notification) => {
                eprintln!("notification: {}", notification.method());
                None
            }
            Message::Request(request) => {
                self.serve(request).await?;
                None
            }
        })
    }

    /// Reads the session's standalone stream, answering what comes.
    async fn listen(self, stream: Response<Incoming>) {
        let mut body = stream.into_body();
        let mut reader = sse::Reader::default();
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(chunk) = frame.into_data() else {
                continue;
            };
            for event in reader
                .push(&chunk)
                .into_iter()
                .filter(|e| !e.data.is_empty())
            {
                if let Some(checker) = &self.checker {
                    checker.received(event.data.as_bytes());
                }
                let outcome = match read_message::<mcp::ServerMessage>(&event.data) {
                    Ok(Message::Request(request)) => self.serve(request).await,
                    Ok(other) => {
                        eprintln!("standalone stream: {}", other.schema_name());
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                };
                if let Err(e) = outcome {
                    eprintln!("standalone stream: {e}");
                }
            }
        }
    }

    /// Answers a request from the server (POSTed back).
    async fn serve(&self, request: ServerRequest) -> Result<(), String> {
        let answer = self.write(&answer(request));
        self.send(Method::POST, Some(answer), None).await.map(drop)
    }
}

/// The answer to a request from the server.
fn answer(request: ServerRequest) -> ClientMessage {
    use ServerRequest as R;
    let Some(id) = request.id() else {
        return request.method_not_found().into();
    };
    match request {
        R::PingRequest(_) => ClientMessage::result(id, mcp::EmptyResult::default()),
        R::ListRootsRequest(_) => ClientMessage::result(id, mcp::ListRootsResult::new(vec![])),
        R::CreateMessageRequest(_) => {
            let reply = mcp::TextContent::new("A reply from the conformance client.");
            let result =
                mcp::CreateMessageResult::new(mcp::Role::Assistant, reply.into(), "no-model");
            ClientMessage::result(id, result)
        }
        R::ElicitRequest(r) => ClientMessage::result(id, accept_defaults(&r.params)),
        other => other.method_not_found().into(),
    }
}

/// Accepts a form with every field at its default (SEP-1034).
fn accept_defaults(params: &mcp::ElicitRequestParams) -> mcp::ElicitResult {
    use mcp::{ElicitResultContentValue as Value, EnumSchema as E, PrimitiveSchemaDefinition as P};
    use mcp::{MultiSelectEnumSchema as Multi, SingleSelectEnumSchema as Single};
    let default = |field: &P| -> Option<Value> {
        match field {
            P::StringSchema(s) => s.default.clone().map(Value::String),
            P::NumberSchema(n) => n.default.clone().map(Value::Number),
            P::BooleanSchema(b) => b.default.map(Value::Boolean),
            P::EnumSchema(E::SingleSelectEnumSchema(Single::UntitledSingleSelectEnumSchema(s))) => {
                s.default.clone().map(Value::String)
            }
            P::EnumSchema(E::SingleSelectEnumSchema(Single::TitledSingleSelectEnumSchema(s))) => {
                s.default.clone().map(Value::String)
            }
            P::EnumSchema(E::LegacyTitledEnumSchema(s)) => s.default.clone().map(Value::String),
            P::EnumSchema(E::MultiSelectEnumSchema(Multi::UntitledMultiSelectEnumSchema(s))) => {
                s.default.clone().map(Value::StringArray)
            }
            P::EnumSchema(E::MultiSelectEnumSchema(Multi::TitledMultiSelectEnumSchema(s))) => {
                s.default.clone().map(Value::StringArray)
            }
        }
    };
    let content = match params {
        mcp::ElicitRequestParams::ElicitRequestFormParams(form) => {
            let properties = form.requested_schema.properties.iter();
            properties
                .filter_map(|(name, field)| Some((name.clone(), default(field)?)))
                .collect()
        }
        _ => Default::default(),
    };
    mcp::ElicitResult {
        content: Some(content),
        ..mcp::ElicitResult::new(mcp::ElicitResultAction::Accept)
    }
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
