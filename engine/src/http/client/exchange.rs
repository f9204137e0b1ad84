//! The HTTP side of the client adapter: one task per line the engine writes (a POST whose answer
//! is JSON or an SSE stream), the GET stream, resumption of a dropped stream with
//! `Last-Event-ID`, and the DELETE that ends a session. What they read goes back to the
//! connection's loop as lines; an HTTP failure of a request becomes an error answer to it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;

use super::sse::SseReader;
use super::{Limits, HTTP_ERROR};
use crate::driver::Input;
use crate::http::header::{self, LAST_EVENT_ID, METHOD, NAME, PROTOCOL_VERSION, SESSION_ID};
use crate::Client;
use mcp_spec_types::runtime::meta;
use mcp_spec_types::tree::{Doc, Node};

// Before the first resumption when the server set no `retry`.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);
// How long a POST sent after the GET stream was asked for waits for that stream's answer, so a
// server that never answers the GET delays requests by this much at most.
const GET_STREAM_WAIT: Duration = Duration::from_secs(2);

/// What every task shares: the HTTP client, the endpoint, the session.
pub(super) struct Exchange {
    http: hyper_util::client::legacy::Client<HttpConnector, Full<Bytes>>,
    url: Uri,
    limits: Limits,
    pub session: Mutex<Session>,
    // To the connection's loop: each message read, as the driver takes it.
    lines: UnboundedSender<Input<Client>>,
    /// The application's own headers for a message (e.g. 2026-07-28's `Mcp-Param-*`).
    pub extra: Mutex<Option<ExtraHeaders>>,
    // Whether the GET stream, once asked for, has been answered (true before it is asked for).
    // The POSTs after it wait: a server may send an answer on whichever stream is open, and one
    // that comes on the GET stream before that stream is the client's leaves a POST's own stream
    // (and its resumption with `Last-Event-ID`) racing the GET.
    listening: tokio::sync::watch::Sender<bool>,
}

/// See [`Connection::extra_headers`](super::Connection::extra_headers).
pub type ExtraHeaders = Arc<dyn Fn(&Value) -> Vec<(String, String)> + Send + Sync>;

/// The session's state as the HTTP side sees it.
#[derive(Default)]
pub(super) struct Session {
    /// `Mcp-Session-Id` from the `initialize` answer.
    pub id: Option<String>,
    /// The negotiated version (session era), sent as `MCP-Protocol-Version` after `initialize`.
    pub version: Option<String>,
}

/// The fields of a line the transport reads.
struct Outgoing {
    id: Option<Value>,
    method: Option<String>,
}

/// Whether a message's `id` is `id` (both absent included), as comparing `Value`s decides.
fn same_id(message: Node<'_>, id: Option<&Value>) -> bool {
    match (message.get("id"), id) {
        (Some(node), Some(id)) => node == *id,
        (None, None) => true,
        _ => false,
    }
}

impl Exchange {
    pub fn new(url: Uri, limits: Limits, lines: UnboundedSender<Input<Client>>) -> Arc<Self> {
        let mut connector = HttpConnector::new();
        // A request goes out in several writes; without this each waits for the server's delayed ACK.
        connector.set_nodelay(true);
        let http = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(connector);
        let listening = tokio::sync::watch::Sender::new(true);
        Arc::new(Exchange { http, url, limits, session: Mutex::new(Session::default()), lines, extra: Mutex::new(None), listening })
    }

    fn session(&self) -> std::sync::MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn send_line(&self, line: Vec<u8>) {
        // The connection may be gone; nothing is waiting for the line then.
        let _ = self.lines.send(Input::Message(line));
    }

    /// An error answer for request `id`, from the transport (no answer came over HTTP).
    fn fail(&self, id: Option<&Value>, status: Option<u16>, why: String) {
        if let Some(id) = id {
            let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": HTTP_ERROR, "message": why, "data": {"status": status}}});
            self.send_line(error.to_string().into_bytes());
        }
    }

    /// The headers every request of the session carries.
    fn builder(&self, method: Method, accept: &'static str) -> hyper::http::request::Builder {
        let session = self.session();
        let mut b = Request::builder().method(method).uri(self.url.clone()).header(ACCEPT, accept);
        if let Some(id) = session.id.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            b = b.header(SESSION_ID, id);
        }
        if let Some(version) = session.version.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            b = b.header(PROTOCOL_VERSION, version);
        }
        b
    }

    /// The GET stream is about to be asked for: POSTs from now on wait for its answer.
    pub fn opening_get_stream(&self) {
        self.listening.send_replace(false);
    }

    /// What a POST made now waits for before it is sent: the GET stream's answer, if asked for.
    pub fn before_post(&self) -> Option<tokio::sync::watch::Receiver<bool>> {
        let ready = self.listening.subscribe();
        let answered = *ready.borrow();
        (!answered).then_some(ready)
    }

    /// POSTs one line and hands its answer (JSON, or each event of an SSE stream) to the loop;
    /// first waits (at most [`GET_STREAM_WAIT`]) for `after`, the GET stream's answer.
    pub async fn post(self: Arc<Self>, line: Vec<u8>, after: Option<tokio::sync::watch::Receiver<bool>>) {
        if let Some(mut ready) = after {
            let _ = tokio::time::timeout(GET_STREAM_WAIT, ready.wait_for(|answered| *answered)).await;
        }
        // The line read as a tree for what the transport needs; a `Value` of it only for the
        // application's own headers, whose function takes one.
        let (out, headers) = {
            let Ok(doc) = Doc::parse_slice(&line) else { return };
            let message = doc.root();
            let method = message.get("method");
            let out = Outgoing { id: message.get("id").filter(|_| method.is_some()).map(Node::to_value), method: method.and_then(Node::as_str).map(str::to_owned) };
            let extra = self.extra.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let extra = extra.map(|f| f(&message.to_value())).unwrap_or_default();
            let standard = per_request_headers(message).into_iter().map(|(n, v)| (n.to_owned(), v));
            (out, standard.chain(extra).collect::<Vec<_>>())
        };
        let mut b = self.builder(Method::POST, "application/json, text/event-stream").header(CONTENT_TYPE, "application/json");
        for (name, value) in headers {
            if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(&value)) {
                b = b.header(name, value);
            }
        }
        let Ok(request) = b.body(Full::new(Bytes::from(line))) else { return };
        let response = match self.http.request(request).await {
            Ok(r) => r,
            Err(e) => return self.fail(out.id.as_ref(), None, format!("the POST failed: {e}")),
        };
        if out.method.as_deref() == Some("initialize") {
            let id = response.headers().get(SESSION_ID).and_then(|v| v.to_str().ok()).map(str::to_owned);
            self.session().id = id;
        }
        self.answer(&out, response).await;
    }

    async fn answer(&self, out: &Outgoing, response: Response<Incoming>) {
        let status = response.status();
        if status == StatusCode::ACCEPTED || (status.is_success() && out.id.is_none()) {
            return;
        }
        if !status.is_success() {
            let body = read_body(response.into_body(), 1 << 10).await.unwrap_or_default();
            // Some servers answer an HTTP error with a JSON-RPC error: it is the answer then.
            if let Ok(answer) = Doc::parse_slice(&body) {
                if answer.root().get("error").is_some() && same_id(answer.root(), out.id.as_ref()) {
                    return self.send_line(body);
                }
            }
            let text = String::from_utf8_lossy(&body);
            return self.fail(out.id.as_ref(), Some(status.as_u16()), format!("HTTP {status}: {}", text.trim()));
        }
        let sse = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|t| t.starts_with("text/event-stream"));
        if !sse {
            match read_body(response.into_body(), self.limits.max_body).await {
                Ok(body) => self.take(out, body),
                Err(why) => self.fail(out.id.as_ref(), Some(status.as_u16()), why),
            }
            return;
        }
        let mut reader = SseReader::new(self.limits.max_event);
        let mut answered = self.stream(out, response.into_body(), &mut reader).await;
        // A stream that ended before the answer is resumed from its last event id.
        let mut attempts = 0;
        while let Err(why) = answered {
            let Some(last) = reader.last_id.clone() else { return self.fail(out.id.as_ref(), None, format!("{why}, with no event id to resume from")) };
            if attempts == self.limits.max_resumptions {
                return self.fail(out.id.as_ref(), None, format!("{why}, {attempts} resumptions later"));
            }
            attempts += 1;
            tokio::time::sleep(reader.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis)).await;
            answered = match self.get(Some(&last)).await {
                Ok(body) => {
                    reader.new_stream();
                    self.stream(out, body, &mut reader).await
                }
                Err(e) => Err(e),
            };
        }
    }

    /// A body that is the answer (a JSON object, or a batch's array).
    fn take(&self, out: &Outgoing, body: Vec<u8>) {
        if out.method.as_deref() == Some("initialize") {
            self.note_version(&body);
        }
        self.send_line(body);
    }

    fn note_version(&self, line: &[u8]) {
        let answer = Doc::parse_slice(line).ok();
        if let Some(version) = answer.as_ref().and_then(|a| a.root().pointer("/result/protocolVersion")).and_then(Node::as_str) {
            self.session().version = Some(version.to_owned());
        }
    }

    /// Hands each event of a stream to the loop: `Ok` once the answer to `out` came (or the
    /// stream ended and none was due), `Err` when it ended or failed first.
    async fn stream(&self, out: &Outgoing, mut body: Incoming, reader: &mut SseReader) -> Result<(), String> {
        loop {
            let chunk = match body.frame().await {
                None => return if out.id.is_none() { Ok(()) } else { Err("the stream ended before the answer".into()) },
                Some(Err(e)) => return Err(format!("the stream failed: {e}")),
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => data,
                    Err(_) => continue,
                },
            };
            let events = reader.feed(&chunk).map_err(|too| format!("an event longer than {} bytes", too.0))?;
            for event in events {
                // An empty `data` primes the stream (an id to resume from); no message.
                if event.data.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                // Read as a tree: only the line the loop gets is read for its content.
                let message = Doc::parse_slice(&event.data).ok();
                let answers = out.id.is_some() && message.as_ref().is_some_and(|m| m.root().get("method").is_none() && same_id(m.root(), out.id.as_ref()));
                drop(message);
                if answers && out.method.as_deref() == Some("initialize") {
                    self.note_version(&event.data);
                }
                self.send_line(event.data);
                if answers {
                    return Ok(());
                }
            }
        }
    }

    /// A GET for the server's stream (`Last-Event-ID` to resume one); `Err` for any answer but
    /// an SSE stream.
    async fn get(&self, last_event_id: Option<&str>) -> Result<Incoming, String> {
        let mut b = self.builder(Method::GET, "text/event-stream");
        if let Some(last) = last_event_id.and_then(|v| HeaderValue::from_str(v).ok()) {
            b = b.header(LAST_EVENT_ID, last);
        }
        let request = b.body(Full::new(Bytes::new())).map_err(|e| e.to_string())?;
        let response = self.http.request(request).await.map_err(|e| format!("the GET failed: {e}"))?;
        if !response.status().is_success() {
            return Err(format!("the GET was answered with HTTP {}", response.status()));
        }
        Ok(response.into_body())
    }

    /// The server's own stream (its requests and notifications outside any request), when it
    /// offers one (405: it does not), resumed when it drops.
    pub async fn listen(self: Arc<Self>) {
        let mut reader = SseReader::new(self.limits.max_event);
        let nothing_due = Outgoing { id: None, method: None };
        for _ in 0..=self.limits.max_resumptions {
            let answer = self.get(reader.last_id.as_deref()).await;
            self.listening.send_replace(true);
            let Ok(body) = answer else { return };
            reader.new_stream();
            if self.stream(&nothing_due, body, &mut reader).await.is_ok() && reader.last_id.is_none() {
                return;
            }
            tokio::time::sleep(reader.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis)).await;
        }
    }

    /// DELETE of the session (405: the server keeps it; no session: nothing to end).
    pub async fn delete(&self) -> Result<Option<StatusCode>, String> {
        if self.session().id.is_none() {
            return Ok(None);
        }
        let request = self.builder(Method::DELETE, "application/json, text/event-stream").body(Full::new(Bytes::new())).map_err(|e| e.to_string())?;
        let response = self.http.request(request).await.map_err(|e| format!("the DELETE failed: {e}"))?;
        Ok(Some(response.status()))
    }
}

/// The headers a 2026-07-28 request mirrors (SEP-2243): `Mcp-Method`, `Mcp-Name` (the tool or
/// prompt name, the resource URI, the task id: `header::name_param`), `MCP-Protocol-Version` from its `_meta`. A session's lines
/// carry no per-request version, so they get none of these.
pub(super) fn per_request_headers(message: Node<'_>) -> Vec<(&'static str, String)> {
    let Some(version) = message.pointer("/params/_meta").and_then(|m| m.get(meta::PROTOCOL_VERSION)).and_then(Node::as_str) else { return Vec::new() };
    let Some(method) = message.get("method").and_then(Node::as_str) else { return Vec::new() };
    let mut headers = vec![(PROTOCOL_VERSION, version.to_owned()), (METHOD, method.to_owned())];
    let name = header::name_param(method).and_then(|key| message.get("params")?.get(key));
    if let Some(name) = name.and_then(Node::as_str) {
        headers.push((NAME, header_value(name)));
    }
    headers
}

/// A value as a 2026-07-28 header carries it (SEP-2243): as it is when it is visible ASCII or
/// space with no whitespace at either end (and does not look encoded), else `=?base64?…?=` of its
/// UTF-8 bytes.
pub fn header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b)) && value.trim() == value && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        return value.to_owned();
    }
    use base64::Engine as _;
    format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(value))
}

/// A whole body, at most `max` bytes.
async fn read_body(mut body: Incoming, max: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| format!("the body failed: {e}"))?;
        if let Ok(data) = frame.into_data() {
            if out.len() + data.len() > max {
                return Err(format!("a body longer than {max} bytes"));
            }
            out.extend_from_slice(&data);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use mcp_spec_types::tree::Doc;

    fn per_request_headers(message: &Value) -> Vec<(&'static str, String)> {
        super::per_request_headers(Doc::from_value(message).root())
    }

    #[test]
    fn per_request_headers_name_the_version_the_method_and_the_target() {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
        let call = json!({"method": "tools/call", "params": {"name": "my-tool", "_meta": meta}});
        assert_eq!(per_request_headers(&call), [("mcp-protocol-version", "2026-07-28".into()), ("mcp-method", "tools/call".into()), ("mcp-name", "my-tool".into())]);
        let read = json!({"method": "resources/read", "params": {"uri": "file:///a%20b", "_meta": meta}});
        assert_eq!(per_request_headers(&read)[2], ("mcp-name", "file:///a%20b".into()));
        // The Tasks extension: a task's requests carry its id, so an intermediary can route them (MUST).
        let task = json!({"method": "tasks/get", "params": {"taskId": "t-1", "_meta": meta}});
        assert_eq!(per_request_headers(&task)[2], ("mcp-name", "t-1".into()));
        assert_eq!(per_request_headers(&json!({"method": "tools/list", "params": {"_meta": meta}})).len(), 2);
        // A session's lines (no per-request version) and answers get none.
        assert!(per_request_headers(&json!({"method": "tools/call", "params": {"name": "t"}})).is_empty());
        assert!(per_request_headers(&json!({"id": 1, "result": {"_meta": meta}})).is_empty());
    }
}
