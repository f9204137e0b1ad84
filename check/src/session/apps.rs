//! MCP Apps (`--ext apps`): a tool's UI resource exists. (That a `ui://` resource is read with
//! the MCP Apps MIME type is the validator's `apps.mime-type`: read contents carry their URI.)
//! On the view<->host channel: each message from the side that sends it, the `ui/initialize`
//! handshake first, nothing after the teardown, the tool's input sent once and complete last, and
//! the view calling only tools visible to apps.

use std::collections::BTreeMap;


use mcp_spec_types::tree::{Node, Object};

use super::rules::{
    APPS_AFTER_TEARDOWN, APPS_HOST_EARLY, APPS_INITIALIZE_FIRST, APPS_PARTIAL_AFTER_INPUT, APPS_TOOL_HIDDEN, APPS_TOOL_INPUT_ONCE, APPS_UI_MISSING,
    APPS_UI_RESOURCE, APPS_VIEW_EARLY, APPS_WRONG_SIDE,
};
use super::{resources, tools, Capped, Msg, Sink, SESSION_CAP};
use crate::bounded::clip;
use crate::vocab::{AppsSide, Diag, IdKey, Outcome};

/// The apps rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::CoreWith("apps");
    type State = Channel;
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        let _ = cx;
        observe(msg, &stream.tools, sink)
    }
    fn finish(stream: &super::Stream, strict: bool) -> Vec<Outcome> {
        finish(strict, &stream.tools, &stream.resources)
    }
}

/// A `resources/read` answered with an error: if a tool names that URI as its UI, the resource
/// it must have is missing.
pub(crate) fn observe(msg: &Msg, tools: &tools::State, sink: &mut Sink) {
    let Some(req) = &msg.answers else { return };
    if &*req.method != "resources/read" {
        return;
    }
    let (Some(uri), None) = (req.param_str("uri"), msg.result) else { return };
    let named_by = tools.tools.iter_in_order().find(|(_, t)| t.ui_uri.as_deref() == Some(uri));
    if let Some((name, t)) = named_by {
        let text = format!("reading `{}`, the UI resource of the tool `{}` (line {}), failed", clip(uri), clip(name), t.line);
        sink.report(&APPS_UI_MISSING, msg.pointer("/error"), text);
    }
}

/// The end of a whole session: tools whose UI resource was never listed nor read.
fn finish(strict: bool, tools: &tools::State, resources: &resources::State) -> Vec<Outcome> {
    let mut by_line: BTreeMap<u64, Vec<Diag>> = BTreeMap::new();
    for (name, t) in tools.tools.iter_in_order() {
        let Some(uri) = &t.ui_uri else { continue };
        if resources.seen_uris.contains(uri) {
            continue;
        }
        let message = format!("the UI resource `{}` of the tool `{}` was never listed nor read in this session, so its existence is unconfirmed", clip(uri), clip(name));
        by_line.entry(t.line).or_default().push(Diag::checked(&APPS_UI_RESOURCE, strict, format!("{}/_meta/ui/resourceUri", t.pointer), message));
    }
    by_line.into_iter().map(|(line, diags)| Outcome { line, diags, ..Outcome::default() }).collect()
}

/// The sandbox proxy's own messages (`ui/notifications/sandbox-proxy-ready`, `...-resource-ready`):
/// between the host and the sandbox in front of the view, outside the view's lifecycle.
const SANDBOX_PREFIX: &str = "ui/notifications/sandbox-";

/// One message of the view<->host channel as its rules see it.
pub(crate) struct ChannelMsg<'a> {
    pub side: AppsSide,
    pub line: u64,
    pub prefix: &'a str,
    pub o: Object<'a>,
    /// The sender's unions do not hold the method, the other side's do.
    pub wrong_side: bool,
    /// For a response: the method of the request it answers.
    pub answers: Option<&'a str>,
}

impl ChannelMsg<'_> {
    fn method(&self) -> Option<&str> {
        self.o.get("method").and_then(Node::as_str)
    }
    fn pointer(&self, rest: &str) -> String {
        format!("{}{rest}", self.prefix)
    }
}

/// The view<->host channel's lifecycle.
pub(crate) struct Channel {
    /// The line of the view's first message (the sandbox's own aside; the host's early messages
    /// are the host's fault, reported on their own lines).
    first_line: Option<u64>,
    /// The view's `ui/initialize`: its line and id.
    initialize: Option<(u64, Option<IdKey>)>,
    answered: bool,
    initialized: bool,
    /// The host's `ui/resource-teardown` ids, and the line of the view's answer to one.
    teardown_ids: Vec<IdKey>,
    torn_down: Option<u64>,
    /// The line of the host's `ui/notifications/tool-input` (the complete arguments).
    tool_input: Option<u64>,
    /// The view's `tools/call`s of tools not visible to apps, by id: the host must reject them.
    hidden_calls: Capped<IdKey, String>,
}

impl super::families::Tables for Channel {
    fn new(bytes: usize) -> Channel {
        Channel { first_line: None, initialize: None, answered: false, initialized: false, teardown_ids: Vec::new(), torn_down: None, tool_input: None, hidden_calls: Capped::new(SESSION_CAP, bytes) }
    }

    fn evicted(&self) -> u64 {
        self.hidden_calls.evicted
    }
}

impl Channel {
    pub fn observe(&mut self, msg: &ChannelMsg, tools: &tools::State, sink: &mut Sink) {
        let method = msg.method();
        let id = msg.o.get("id");
        let is_request = method.is_some() && id.is_some();
        if let (true, Some(m)) = (msg.wrong_side, method) {
            let other = msg.side.opposite().name();
            let text = format!("`{}` is sent by the {other}, not the {}: this line travels {}", clip(m), msg.side.name(), msg.side.dir_name());
            sink.report(&APPS_WRONG_SIDE, msg.pointer("/method"), text);
        }
        if method.is_some_and(|m| m.starts_with(SANDBOX_PREFIX)) {
            return;
        }
        if let Some(torn) = self.torn_down {
            let text = format!("a message after the view answered `ui/resource-teardown` (line {torn}): the host tears the view down after that answer");
            sink.report(&APPS_AFTER_TEARDOWN, msg.pointer(""), text);
        }
        if let (AppsSide::Host, Some(m)) = (msg.side, method) {
            if !self.initialized {
                let what = if is_request { "request" } else { "notification" };
                let before = if self.initialize.is_some() { "before the view's `ui/notifications/initialized`" } else { "before the view opened the channel with `ui/initialize`" };
                sink.report(&APPS_HOST_EARLY, msg.pointer("/method"), format!("the host sent the {what} `{}` {before}", clip(m)));
            }
            self.tool_input(msg, m, sink);
        }
        if msg.side == AppsSide::View {
            self.first_line.get_or_insert(msg.line);
        }
        match (msg.side, method) {
            (AppsSide::View, Some("ui/initialize")) if is_request && !msg.wrong_side => {
                if self.initialize.is_none() {
                    self.initialize = Some((msg.line, id.and_then(IdKey::of)));
                    if let Some(first) = self.first_line.filter(|&l| l < msg.line) {
                        let text = format!("the view's `ui/initialize` is not its first message on the channel: line {first} came before it");
                        sink.report(&APPS_INITIALIZE_FIRST, msg.pointer("/method"), text);
                    }
                }
                return;
            }
            (AppsSide::View, Some("ui/notifications/initialized")) => self.initialized = true,
            (AppsSide::Host, Some("ui/resource-teardown")) if is_request => {
                // The few teardowns in flight are what matters; an endless stream of them is not kept.
                if self.teardown_ids.len() >= SESSION_CAP {
                    self.teardown_ids.remove(0);
                }
                self.teardown_ids.extend(id.and_then(IdKey::of));
            }
            _ => {}
        }
        let Some((init_line, _)) = self.initialize else { return };
        match (msg.side, method) {
            (AppsSide::Host, None) if msg.answers == Some("ui/initialize") => self.answered = true,
            (AppsSide::View, None) if msg.answers == Some("ui/resource-teardown") => {
                let answers_teardown = id.and_then(IdKey::of).is_some_and(|k| self.teardown_ids.contains(&k));
                if answers_teardown {
                    self.torn_down = Some(msg.line);
                }
            }
            (AppsSide::View, Some(m)) if is_request && m != "ping" && !self.answered => {
                let text = format!("the view sent `{}` before the host answered `ui/initialize` (line {init_line}); only `ping` may be", clip(m));
                sink.report(&APPS_VIEW_EARLY, msg.pointer("/method"), text);
            }
            _ => {}
        }
        self.visibility(msg, tools, sink);
    }

    /// The host's `tool-input` (at most once) and `tool-input-partial` (only before it).
    fn tool_input(&mut self, msg: &ChannelMsg, method: &str, sink: &mut Sink) {
        match (method, self.tool_input) {
            ("ui/notifications/tool-input", None) => self.tool_input = Some(msg.line),
            ("ui/notifications/tool-input", Some(first)) => {
                let text = format!("`ui/notifications/tool-input` again (the first was line {first}): the host sends it at most once");
                sink.report(&APPS_TOOL_INPUT_ONCE, msg.pointer("/method"), text);
            }
            ("ui/notifications/tool-input-partial", Some(first)) => {
                let text = format!("`ui/notifications/tool-input-partial` after the complete `ui/notifications/tool-input` (line {first}): the host must stop sending partial input then");
                sink.report(&APPS_PARTIAL_AFTER_INPUT, msg.pointer("/method"), text);
            }
            _ => {}
        }
    }

    /// A view's `tools/call` of a listed tool not visible to apps, and the host's answer to it.
    fn visibility(&mut self, msg: &ChannelMsg, tools: &tools::State, sink: &mut Sink) {
        let key = msg.o.get("id").and_then(IdKey::of);
        match (msg.side, msg.method()) {
            (AppsSide::View, Some("tools/call")) => {
                let Some(name) = msg.o.get("params").and_then(|p| p.get("name")).and_then(Node::as_str) else { return };
                let Some(tool) = tools.tools.get(&name.to_string()) else { return };
                let Some(visibility) = &tool.visibility else { return };
                if visibility.iter().any(|v| v == "app") {
                    return;
                }
                let text = format!("the view called `{}`, whose `_meta.ui.visibility` ({}, line {}) does not include \"app\": a view calls only tools visible to apps, and the host must reject this call", clip(name), clip(&format!("{visibility:?}")), tool.line);
                sink.report(&APPS_TOOL_HIDDEN, msg.pointer("/params/name"), text);
                if let Some(k) = key {
                    self.hidden_calls.insert(k, name.to_string());
                }
            }
            (AppsSide::Host, None) if msg.answers == Some("tools/call") => {
                let Some(name) = key.and_then(|k| self.hidden_calls.remove(&k)) else { return };
                if msg.o.contains_key("result") {
                    let text = format!("the host answered the view's call of `{}`, a tool not visible to apps, with a result instead of an error", clip(&name));
                    sink.report(&APPS_TOOL_HIDDEN, msg.pointer("/result"), text);
                }
            }
            _ => {}
        }
    }
}
