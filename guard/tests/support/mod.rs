//! What the layer's tests share: a trivial JSON-RPC service that counts its calls, a client that
//! sends one request through a service and reads the whole answer, and a `tracing` subscriber that
//! records spans and events.

#![allow(dead_code)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Full};
use serde_json::{json, Value};
use tower_service::Service;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A JSON-RPC service: `initialize` answered with a session id, `tools/call` as an SSE stream (a
/// progress notification, then the result), any other request with an empty result as JSON, a
/// body of notifications only with 202. It counts its calls.
#[derive(Clone, Default)]
pub struct Echo {
    pub calls: Arc<AtomicUsize>,
}

impl<B> Service<Request<B>> for Echo
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Debug,
{
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            let method = request.method().clone();
            let bytes = request.into_body().collect().await.expect("the body").to_bytes();
            if method != http::Method::POST {
                return Ok(Response::builder().status(StatusCode::OK).body(Full::default()).unwrap());
            }
            let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
                return Ok(json_response(StatusCode::BAD_REQUEST, json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}), None));
            };
            let (Some(id), Some(m)) = (message.get("id"), message.get("method").and_then(Value::as_str)) else {
                return Ok(Response::builder().status(StatusCode::ACCEPTED).body(Full::default()).unwrap());
            };
            Ok(match m {
                "initialize" => {
                    let result = json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "echo", "version": "1"}});
                    json_response(StatusCode::OK, json!({"jsonrpc": "2.0", "id": id, "result": result}), Some("s1"))
                }
                "tools/call" => {
                    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}});
                    let result = json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "done"}]}});
                    let body = format!("event: message\ndata: {progress}\n\nevent: message\ndata: {result}\n\n");
                    Response::builder().header("content-type", "text/event-stream").body(Full::new(Bytes::from(body))).unwrap()
                }
                _ => json_response(StatusCode::OK, json!({"jsonrpc": "2.0", "id": id, "result": {}}), None),
            })
        })
    }
}

fn json_response(status: StatusCode, v: Value, session: Option<&str>) -> Response<Full<Bytes>> {
    let mut r = Response::builder().status(status).header("content-type", "application/json");
    if let Some(s) = session {
        r = r.header("mcp-session-id", s);
    }
    r.body(Full::new(Bytes::from(v.to_string()))).unwrap()
}

/// A POST of `body` with the given headers.
pub fn post(body: &str, headers: &[(&str, &str)]) -> Request<Full<Bytes>> {
    let mut r = Request::post("/mcp").header("content-type", "application/json").header("accept", "application/json, text/event-stream");
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    r.body(Full::new(Bytes::from(body.to_string()))).unwrap()
}

/// Sends `request` through `svc`: the answer's status, headers and whole body.
pub async fn send<S, RB>(svc: &mut S, request: Request<Full<Bytes>>) -> (StatusCode, http::HeaderMap, Bytes)
where
    S: Service<Request<Full<Bytes>>, Response = Response<RB>>,
    S::Error: std::fmt::Debug,
    RB: Body<Data = Bytes>,
    RB::Error: std::fmt::Debug,
{
    std::future::poll_fn(|cx| svc.poll_ready(cx)).await.unwrap();
    let response = svc.call(request).await.unwrap();
    let (parts, body) = response.into_parts();
    (parts.status, parts.headers, body.collect().await.unwrap().to_bytes())
}

/// Fields by name.
pub type Fields = HashMap<String, String>;

/// Events in order, each with its span's id.
pub type Events = Vec<(Option<u64>, Fields)>;

/// What the subscriber saw: each span's fields by id, and each event's fields with its span.
#[derive(Default, Clone)]
pub struct Seen {
    pub spans: Arc<Mutex<HashMap<u64, Fields>>>,
    pub events: Arc<Mutex<Events>>,
    next: Arc<AtomicU64>,
}

impl Seen {
    /// The events with a `rule` field, each with its span's fields.
    pub fn findings(&self) -> Vec<(Fields, Fields)> {
        let spans = self.spans.lock().unwrap();
        self.events.lock().unwrap().iter().filter(|(_, f)| f.contains_key("rule")).map(|(s, f)| (f.clone(), s.and_then(|s| spans.get(&s).cloned()).unwrap_or_default())).collect()
    }

    /// The spans' fields, in no particular order.
    pub fn all_spans(&self) -> Vec<Fields> {
        self.spans.lock().unwrap().values().cloned().collect()
    }
}

struct Visitor<'a>(&'a mut Fields);

impl Visit for Visitor<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_string(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }
}

impl Subscriber for Seen {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut fields = HashMap::new();
        fields.insert("span.name".to_string(), span.metadata().name().to_string());
        span.record(&mut Visitor(&mut fields));
        self.spans.lock().unwrap().insert(id, fields);
        Id::from_u64(id)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        if let Some(fields) = self.spans.lock().unwrap().get_mut(&span.into_u64()) {
            values.record(&mut Visitor(fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = HashMap::new();
        event.record(&mut Visitor(&mut fields));
        self.events.lock().unwrap().push((event.parent().map(Id::into_u64), fields));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Runs `f` on a current-thread runtime with `seen` as the subscriber.
pub fn run<F: Future>(seen: &Seen, f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    tracing::subscriber::with_default(seen.clone(), || rt.block_on(f))
}
