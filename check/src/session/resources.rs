//! Resources and pagination: read contents carry the URI asked for, updates only for
//! subscribed URIs, cursors only as the same method returned them.

use mcp_spec_types::tree::Node;

use super::rules::{CURSOR_UNKNOWN, READ_URI, UPDATED_UNSUBSCRIBED};
use super::{Capped, Msg, Sink, SESSION_CAP};
use crate::bounded::{clip, Text};
use crate::vocab::Direction;

pub(crate) struct State {
    /// Subscribed URIs, with the line of the `resources/subscribe`.
    subscribed: Capped<String, u64>,
    /// `nextCursor` values received, per method.
    cursors: Capped<(Text, Text), ()>,
    /// URIs listed by `resources/list` or asked for with `resources/read` (for MCP Apps).
    pub seen_uris: Capped<String, ()>,
}

/// The resources rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::Core;
    type State = State;
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        stream.resources.observe(msg, cx.whole, sink)
    }
}

impl super::families::Tables for State {
    fn new(bytes: usize) -> State {
        State { subscribed: Capped::new(SESSION_CAP, bytes), cursors: Capped::new(SESSION_CAP, bytes), seen_uris: Capped::new(SESSION_CAP, bytes) }
    }

    fn evicted(&self) -> u64 {
        self.subscribed.evicted + self.cursors.evicted + self.seen_uris.evicted
    }
}

impl State {
    pub fn observe(&mut self, msg: &Msg, whole: bool, sink: &mut Sink) {
        if let (Some(req), Some(result)) = (&msg.answers, msg.result) {
            if let Some(next) = result.get("nextCursor").and_then(Node::as_str) {
                self.cursors.insert((Text::of(&req.method), Text::of(next)), ());
            }
            match &*req.method {
                "resources/list" => {
                    let listed = result.get("resources").and_then(Node::as_array).into_iter().flatten();
                    for uri in listed.filter_map(|r| r.get("uri")?.as_str()) {
                        self.seen_uris.insert(uri.to_string(), ());
                    }
                }
                "resources/read" => read_uri(msg, req.param_str("uri"), result, sink),
                _ => {}
            }
            return;
        }
        let Some(method) = msg.method else { return };
        let uri = msg.param("uri").and_then(Node::as_str);
        if msg.id.is_some() {
            if let Some(cursor) = msg.param("cursor").and_then(Node::as_str) {
                if whole && self.cursors.evicted == 0 && !self.cursors.contains(&(Text::of(&clip(method)), Text::of(cursor))) {
                    let text = format!("the cursor `{}` is no `nextCursor` a `{}` result returned in this session", clip(cursor), clip(method));
                    sink.report(&CURSOR_UNKNOWN, msg.pointer("/params/cursor"), text);
                }
            }
        }
        match (method, uri, msg.dir) {
            ("resources/subscribe", Some(uri), _) => {
                self.subscribed.insert(uri.to_string(), msg.line);
            }
            ("resources/unsubscribe", Some(uri), _) => {
                self.subscribed.remove(&uri.to_string());
            }
            ("resources/read", Some(uri), _) => {
                self.seen_uris.insert(uri.to_string(), ());
            }
            ("notifications/resources/updated", Some(uri), Some(Direction::ServerToClient) | None) => {
                // 2026-07-28 delivers updates on `subscriptions/listen` streams instead.
                let known = self.subscribed.evicted == 0;
                if whole && known && msg.version_has("resources/subscribe") && !self.subscribed.contains(&uri.to_string()) {
                    let text = format!("an update for `{}`, which the client has not subscribed to (or has unsubscribed from)", clip(uri));
                    sink.report(&UPDATED_UNSUBSCRIBED, msg.pointer("/params/uri"), text);
                }
            }
            _ => {}
        }
    }
}

/// `resources/read`: at least one of the contents is the resource asked for (the others may
/// be parts of it, e.g. the files of a directory).
fn read_uri(msg: &Msg, requested: Option<&str>, result: Node<'_>, sink: &mut Sink) {
    let (Some(requested), Some(contents)) = (requested, result.get("contents").and_then(Node::as_array)) else { return };
    let uris: Vec<&str> = contents.iter().filter_map(|c| c.get("uri")?.as_str()).collect();
    if !uris.is_empty() && !uris.contains(&requested) {
        let text = format!("`resources/read` asked for `{}` but no content has that URI (found `{}`)", clip(requested), clip(uris[0]));
        sink.report(&READ_URI, msg.pointer("/result/contents/0/uri"), text);
    }
}
