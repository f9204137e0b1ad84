//! 2026-07-28's `subscriptions/listen`: a request without a session that opens a long-lived SSE
//! stream for the notifications its filter opts in to (list changes, updates of resources). The
//! service answers it itself: the stream starts with `notifications/subscriptions/acknowledged`
//! naming what the server agreed to (what its capabilities support), and every notification on
//! it carries the request's id as `io.modelcontextprotocol/subscriptionId`.

use std::collections::VecDeque;

use bytes::Bytes;
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use crate::Request;

/// The `_meta` key naming the subscription a notification belongs to.
pub const SUBSCRIPTION_ID_META_KEY: &str = mcp_spec_types::runtime::meta::SUBSCRIPTION_ID;

/// Resource URIs one subscription may name (more are not agreed to).
const MAX_RESOURCE_SUBSCRIPTIONS: usize = 256;

/// A change for the `subscriptions/listen` streams to hear of ([`McpService::publish`](super::McpService::publish)).
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    /// `notifications/resources/updated` for this URI, to the streams that subscribed to it.
    ResourceUpdated(String),
}

struct Listener {
    id: Value,
    stream: u64,
    next_event: u64,
    agreed: Map<String, Value>,
    events: mpsc::Sender<Bytes>,
}

/// The open `subscriptions/listen` streams, at most `max` (one more ends the oldest).
pub(super) struct Listeners {
    open: VecDeque<Listener>,
    next_stream: u64,
    max: usize,
}

impl Listeners {
    pub fn new(max: usize) -> Self {
        Listeners { open: VecDeque::new(), next_stream: 0, max: max.max(1) }
    }

    /// Opens the stream of a `subscriptions/listen` request: a priming event, then the
    /// acknowledgement of what the server's `capabilities` support of the request's filter.
    pub fn listen(&mut self, request: &Request, capabilities: &Value, retry_ms: u64, capacity: usize) -> mpsc::Receiver<Bytes> {
        let filter = request.params.as_ref().and_then(|p| p.get("notifications")).and_then(Value::as_object);
        let supports = |capability: &str, flag: &str| capabilities.get(capability).and_then(|c| c.get(flag)).and_then(Value::as_bool) == Some(true);
        let mut agreed = Map::new();
        for (key, capability, flag) in [("toolsListChanged", "tools", "listChanged"), ("promptsListChanged", "prompts", "listChanged"), ("resourcesListChanged", "resources", "listChanged")] {
            if filter.and_then(|f| f.get(key)) == Some(&Value::Bool(true)) && supports(capability, flag) {
                agreed.insert(key.into(), Value::Bool(true));
            }
        }
        let uris = filter.and_then(|f| f.get("resourceSubscriptions")).and_then(Value::as_array);
        if let Some(uris) = uris.filter(|_| supports("resources", "subscribe")) {
            let uris: Vec<Value> = uris.iter().filter(|u| u.is_string()).take(MAX_RESOURCE_SUBSCRIPTIONS).cloned().collect();
            agreed.insert("resourceSubscriptions".into(), Value::Array(uris));
        }
        let (events, rx) = mpsc::channel(capacity.max(4));
        let stream = self.next_stream;
        self.next_stream += 1;
        let _ = events.try_send(Bytes::from(format!("id: l{stream}-0\nretry: {retry_ms}\ndata: \n\n")));
        let mut listener = Listener { id: request.id.to_value(), stream, next_event: 1, agreed: agreed.clone(), events };
        listener.send("notifications/subscriptions/acknowledged", Some(Value::Object(agreed)), None);
        if self.open.len() >= self.max {
            // Its sender dropped: that stream ends.
            self.open.pop_front();
        }
        self.open.push_back(listener);
        rx
    }

    /// Sends `change` on every stream that opted in to it; streams whose client is gone (or does
    /// not keep up) are closed. Returns how many streams it went to.
    pub fn publish(&mut self, change: &Change) -> usize {
        let (method, uri) = match change {
            Change::ToolsListChanged => ("notifications/tools/list_changed", None),
            Change::PromptsListChanged => ("notifications/prompts/list_changed", None),
            Change::ResourcesListChanged => ("notifications/resources/list_changed", None),
            Change::ResourceUpdated(uri) => ("notifications/resources/updated", Some(uri.as_str())),
        };
        let mut sent = 0;
        self.open.retain_mut(|listener| {
            let wanted = match uri {
                None => listener.agreed.get(opt_in_key(method)) == Some(&Value::Bool(true)),
                Some(uri) => listener.agreed.get("resourceSubscriptions").and_then(Value::as_array).is_some_and(|u| u.iter().any(|u| u == uri)),
            };
            if !wanted {
                return !listener.events.is_closed();
            }
            let kept = listener.send(method, None, uri);
            sent += usize::from(kept);
            kept
        });
        sent
    }
}

fn opt_in_key(method: &str) -> &'static str {
    match method {
        "notifications/tools/list_changed" => "toolsListChanged",
        "notifications/prompts/list_changed" => "promptsListChanged",
        _ => "resourcesListChanged",
    }
}

impl Listener {
    /// Writes one notification on the stream; `false` once the stream cannot take it.
    fn send(&mut self, method: &str, notifications: Option<Value>, uri: Option<&str>) -> bool {
        let mut params = Map::new();
        if let Some(n) = notifications {
            params.insert("notifications".into(), n);
        }
        if let Some(uri) = uri {
            params.insert("uri".into(), Value::from(uri));
        }
        params.insert("_meta".into(), json!({ SUBSCRIPTION_ID_META_KEY: self.id }));
        let line = json!({"jsonrpc": "2.0", "method": method, "params": params});
        let event = format!("id: l{}-{}\ndata: {line}\n\n", self.stream, self.next_event);
        self.next_event += 1;
        self.events.try_send(Bytes::from(event)).is_ok()
    }
}
