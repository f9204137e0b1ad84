//! The Tasks extension (`--ext tasks`, SEP-2663 on 2026-07-28): a task handle only for a request
//! that declared the extension and only for `tools/call`; each task's status moves as the state
//! machine allows, its `inputRequests` keys keep their meaning and `tasks/update` answers only
//! outstanding ones; unknown task ids and undeclared clients get the spec's errors; a completed
//! task's result is what its request returns; `notifications/cancelled` does not cancel a task; 2025-11-25's
//! `tasks/result` and `tasks` capability are gone.
//!
//! The rules see the same [`Msg`]s as the others, the extension's own messages (`tasks/*`,
//! `notifications/tasks`, and their answers) included. Every table is bounded: tasks by
//! [`SESSION_CAP`], input keys per task by [`INPUT_KEYS_CAP`]; what is forgotten turns the
//! "never seen" rules off, as elsewhere.

use mcp_spec_types::tree::{Node, View};

use super::rules::{
    TASKS_CANCEL_NOTIFICATION, TASKS_COMPLETED_RESULT, TASKS_GONE, TASKS_INPUT_KEY, TASKS_LEGACY_CAPABILITY, TASKS_LISTEN_UNDECLARED, TASKS_RESULT_REMOVED, TASKS_STATUS,
    TASKS_UNDECLARED, TASKS_UNDECLARED_REQUEST, TASKS_UNKNOWN_ID, TASKS_UNKNOWN_ID_ACK, TASKS_UNSUPPORTED_METHOD, TASKS_UPDATE_KEY,
};
use super::families::Tables;
use super::{Capped, Msg, Sink, SESSION_CAP};
use crate::bounded::{clip, shown_node, Text, Weigh};
use crate::vocab::Direction;
use crate::versions::VERSIONS;
use mcp_spec_types::rpc::{INVALID_PARAMS, METHOD_NOT_FOUND};
use mcp_spec_types::v2026_07_28::MISSING_REQUIRED_CLIENT_CAPABILITY as MISSING_CAPABILITY;
pub use mcp_spec_types::validate::tasks::EXTENSION_ID;

/// The requests that may be answered with a task ("Supported Methods").
const SUPPORTED: [&str; 1] = ["tools/call"];
/// `inputRequests` keys remembered per task; past it, new keys are not checked.
pub const INPUT_KEYS_CAP: usize = 256;

/// What the rules know of one task.
struct Task {
    status: Box<str>,
    /// The request that created it (method and version), for its result; unknown if the creation was not seen.
    origin: Option<(Box<str>, usize)>,
    /// `ttlMs` was `null` when last seen.
    unlimited: bool,
    /// Input keys: the key, its request (as a digest of its JSON), answered by a `tasks/update`.
    keys: Vec<(Text, Text, bool)>,
    /// The line of the answer that created it, if in view: every state since is then in view too.
    created_at: Option<u64>,
}

impl Weigh for Task {
    fn weight(&self) -> usize {
        self.status.len() + self.origin.as_ref().map_or(0, |o| o.0.len()) + self.keys.iter().map(|(k, r, _)| k.weight() + r.weight() + 64).sum::<usize>()
    }
}

fn terminal(status: &str) -> bool {
    matches!(status, "completed" | "failed" | "cancelled")
}

/// Whether a request's params (a kept `Value` or a node of the message's tree) declare the extension in
/// 2026-07-28's per-request capabilities.
pub fn declared<'a>(params: Option<impl View<'a>>) -> bool {
    params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(mcp_spec_types::runtime::meta::CLIENT_CAPABILITIES))
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(EXTENSION_ID))
        .is_some()
}

fn error_code(msg: &Msg) -> Option<i64> {
    msg.error?.get("code")?.as_i64()
}

pub(crate) struct State {
    /// The bytes each table may hold.
    bytes: usize,
    tasks: Option<Capped<Text, Task>>,
    /// Requests answered with a task (their id as shown), for `notifications/cancelled`.
    creators: Option<Capped<Text, ()>>,
    /// `subscriptions/listen` requests asking for task notifications without the extension.
    listens: Option<Capped<Text, ()>>,
    /// The version of the last core message: the extension's own messages are checked as the extension.
    last_version: Option<usize>,
}

/// The tasks rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::Extension("tasks");
    type State = State;
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        stream.tasks.observe(msg, cx.whole, sink)
    }
}

impl super::families::Tables for State {
    fn new(bytes: usize) -> State {
        State { bytes, tasks: None, creators: None, listens: None, last_version: None }
    }

    fn evicted(&self) -> u64 {
        self.tasks.as_ref().map_or(0, |t| t.evicted) + self.creators.as_ref().map_or(0, |t| t.evicted) + self.listens.as_ref().map_or(0, |t| t.evicted)
    }
}

impl State {
    fn tasks(&mut self) -> &mut Capped<Text, Task> {
        self.tasks.get_or_insert_with(|| Capped::new(SESSION_CAP, self.bytes))
    }

    pub(crate) fn observe(&mut self, msg: &Msg, whole: bool, sink: &mut Sink) {
        // A version whose core has tasks (2025-11-25) keeps its own meaning of `tasks/*`.
        if msg.version_has("tasks/get") {
            return;
        }
        if msg.version.is_some() {
            self.last_version = msg.version;
        }
        match (msg.method, msg.id, &msg.answers) {
            (Some(method), Some(_), _) => self.request(msg, method, sink),
            (Some(method), None, _) => self.notification(msg, method, sink),
            (None, _, Some(_)) => self.response(msg, whole, sink),
            _ => {}
        }
    }

    fn request(&mut self, msg: &Msg, method: &str, sink: &mut Sink) {
        match method {
            "tasks/update" => {
                let (Some(id), Some(responses)) = (msg.param("taskId").and_then(Node::as_str), msg.param("inputResponses").and_then(Node::as_object)) else { return };
                let Some(task) = self.tasks().get_mut(&Text::of(id)) else { return };
                // Only where the task's requests were in view: a key is then known or not. A task
                // whose creation was in view and that never listed `inputRequests` asked for nothing.
                let never_asked = match (task.keys.is_empty(), task.created_at) {
                    (true, None) => return,
                    (true, Some(line)) => Some(format!("the task never asked for input (no `inputRequests` since its creation on line {line})")),
                    (false, _) => None,
                };
                // Past the cap, new keys were not remembered: an unknown one may be one of them.
                let keys_full = task.keys.len() >= INPUT_KEYS_CAP;
                // In key order, as a `Value` holds them.
                let mut keys: Vec<&str> = responses.keys().collect();
                keys.sort_unstable();
                for key in keys {
                    let k = Text::of(key);
                    let problem = match task.keys.iter_mut().find(|(known, ..)| *known == k) {
                        None if keys_full => None,
                        None => Some(never_asked.clone().unwrap_or_else(|| "the task never asked for it".into())),
                        Some((_, _, true)) => Some("an earlier `tasks/update` answered it already".into()),
                        Some((_, _, answered)) => {
                            *answered = true;
                            None
                        }
                    };
                    if let Some(why) = problem {
                        let text = format!("`inputResponses` key `{}` of task `{}` is not an outstanding input request: {why}", clip(key), clip(id));
                        sink.report(&TASKS_UPDATE_KEY, msg.pointer(&format!("/params/inputResponses/{}", escape(key))), text);
                    }
                }
            }
            "subscriptions/listen" => {
                let asks = msg.param("notifications").and_then(|n| n.get("taskIds")).and_then(Node::as_array).is_some_and(|ids| !ids.is_empty());
                if asks && !declared(msg.params) {
                    let id = msg.id.map_or_else(|| "null".to_string(), shown_node);
                    self.listens.get_or_insert_with(|| Capped::new(SESSION_CAP, self.bytes)).insert(Text::of(&id), ());
                }
            }
            _ => {}
        }
    }

    fn notification(&mut self, msg: &Msg, method: &str, sink: &mut Sink) {
        match method {
            "notifications/tasks" => {
                if let Some(params) = msg.params {
                    self.state(params, &msg.pointer("/params"), None, sink);
                }
            }
            "notifications/cancelled" if msg.dir != Some(Direction::ServerToClient) => {
                let Some(request_id) = msg.param("requestId") else { return };
                let created = self.creators.as_ref().is_some_and(|c| c.contains(&Text::of(&shown_node(request_id))));
                if created {
                    let text = format!("`notifications/cancelled` names request {}, which a task answered: a task is cancelled with `tasks/cancel`", shown_node(request_id));
                    sink.report(&TASKS_CANCEL_NOTIFICATION, msg.pointer("/params/requestId"), text);
                }
            }
            "notifications/subscriptions/acknowledged" => {
                let Some(sub) = msg.param("_meta").and_then(|m| m.get(mcp_spec_types::runtime::meta::SUBSCRIPTION_ID)) else { return };
                let key = Text::of(&shown_node(sub));
                if self.listens.as_mut().and_then(|l| l.remove(&key)).is_some() {
                    let text = format!("the server acknowledged subscription {} asking for task notifications, but the request did not declare `{EXTENSION_ID}`: it must be answered with -32021", shown_node(sub));
                    sink.report(&TASKS_LISTEN_UNDECLARED, msg.pointer(""), text);
                }
            }
            _ => {}
        }
    }

    fn response(&mut self, msg: &Msg, whole: bool, sink: &mut Sink) {
        let Some(req) = &msg.answers else { return };
        let method = &*req.method;
        let code = error_code(msg);
        if let Some(result) = msg.result.filter(|r| r.get("resultType").and_then(Node::as_str) == Some("task")) {
            if !SUPPORTED.contains(&method) {
                let text = format!("`{}` was answered with a task (`resultType: \"task\"`); only `tools/call` may be, so a client must treat this answer as invalid", clip(method));
                sink.report(&TASKS_UNSUPPORTED_METHOD, msg.pointer("/result/resultType"), text);
            }
            if !declared(req.params.as_ref()) {
                let text = format!("a task answers the `{}` request of line {}, which did not declare `{EXTENSION_ID}` in its client capabilities", clip(method), req.line);
                sink.report(&TASKS_UNDECLARED, msg.pointer("/result/resultType"), text);
            }
            if let Some(id) = result.get("taskId").and_then(Node::as_str) {
                let origin = msg.version.or(self.last_version).map(|v| (Box::from(method), v));
                let task = Task { status: "".into(), origin, unlimited: false, keys: Vec::new(), created_at: Some(msg.line) };
                // A task id that comes again is a new task: its state starts over.
                self.tasks().insert(Text::of(id), task);
                self.creators.get_or_insert_with(|| Capped::new(SESSION_CAP, self.bytes)).insert(Text::of(&req.id), ());
            }
            self.state(result, &msg.pointer("/result"), None, sink);
            return;
        }
        match method {
            "tasks/get" | "tasks/update" | "tasks/cancel" => {
                let task_id = req.param_str("taskId");
                if !declared(req.params.as_ref()) {
                    if code != Some(MISSING_CAPABILITY) {
                        let got = code.map_or("a result".to_string(), |c| format!("error {c}"));
                        let text = format!("`{method}` from a client that did not declare `{EXTENSION_ID}` on it (line {}) must be answered with -32021, not {got}", req.line);
                        sink.report(&TASKS_UNDECLARED_REQUEST, msg.pointer(if code.is_some() { "/error/code" } else { "/result" }), text);
                    }
                    return;
                }
                let Some(task_id) = task_id else { return };
                let key = Text::of(task_id);
                let known = self.tasks.as_ref().is_some_and(|t| t.contains(&key));
                if known {
                    if code == Some(INVALID_PARAMS) && self.tasks.as_ref().and_then(|t| t.get(&key)).is_some_and(|t| t.unlimited) {
                        let text = format!("task `{}` was last seen with `ttlMs: null` (unlimited), yet `{method}` reports it not found", clip(task_id));
                        sink.report(&TASKS_GONE, msg.pointer("/error"), text);
                    }
                } else if whole && self.evicted() == 0 && code != Some(INVALID_PARAMS) {
                    let rule = if method == "tasks/get" { &TASKS_UNKNOWN_ID } else { &TASKS_UNKNOWN_ID_ACK };
                    let got = code.map_or("a result".to_string(), |c| format!("error {c}"));
                    let text = format!("`{method}` for task `{}`, which no answer in this session created, was answered with {got}, not -32602 (Invalid params)", clip(task_id));
                    sink.report(rule, msg.pointer(if code.is_some() { "/error/code" } else { "/result" }), text);
                }
                if let (Some(result), "tasks/get") = (msg.result, method) {
                    self.state(result, &msg.pointer("/result"), Some(task_id), sink);
                }
            }
            "tasks/result" if code != Some(METHOD_NOT_FOUND) => {
                let got = code.map_or("a result".to_string(), |c| format!("error {c}"));
                let text = format!("`tasks/result` (2025-11-25's) is removed with the extension and must be answered with -32601, not {got}");
                sink.report(&TASKS_RESULT_REMOVED, msg.pointer(if code.is_some() { "/error/code" } else { "/result" }), text);
            }
            "server/discover" => {
                if let Some(legacy) = msg.result.and_then(|r| r.get("capabilities")).and_then(|c| c.get("tasks")) {
                    let declares = msg.result.and_then(|r| r.get("capabilities")).and_then(|c| c.get("extensions")).and_then(|e| e.get(EXTENSION_ID)).is_some();
                    let text = format!("the server advertises 2025-11-25's `tasks` capability ({}){}", clip(&legacy.to_string()), if declares { " beside the extension" } else { " instead of the extension" });
                    sink.report(&TASKS_LEGACY_CAPABILITY, msg.pointer("/result/capabilities/tasks"), text);
                }
            }
            "subscriptions/listen" => {
                let key = Text::of(&req.id);
                if self.listens.as_mut().and_then(|l| l.remove(&key)).is_some() && code != Some(MISSING_CAPABILITY) {
                    let got = code.map_or("a result".to_string(), |c| format!("error {c}"));
                    let text = format!("`subscriptions/listen` asking for task notifications without declaring `{EXTENSION_ID}` (line {}) must be answered with -32021, not {got}", req.line);
                    sink.report(&TASKS_LISTEN_UNDECLARED, msg.pointer(""), text);
                }
            }
            _ => {}
        }
    }

    /// A task's state as a `CreateTaskResult`, a `tasks/get` result or a `notifications/tasks` shows it.
    fn state(&mut self, v: Node<'_>, pointer: &str, asked: Option<&str>, sink: &mut Sink) {
        let Some(id) = v.get("taskId").and_then(Node::as_str).or(asked) else { return };
        let Some(status) = v.get("status").and_then(Node::as_str) else { return };
        let tasks = self.tasks();
        let key = Text::of(id);
        if !tasks.contains(&key) {
            tasks.insert(key.clone(), Task { status: "".into(), origin: None, unlimited: false, keys: Vec::new(), created_at: None });
        }
        let Some(task) = tasks.get_mut(&key) else { return };
        if terminal(&task.status) && *task.status != *status {
            let text = format!("task `{}` was `{}`, a final status, and is now `{}`", clip(id), task.status, clip(status));
            sink.report(&TASKS_STATUS, format!("{pointer}/status"), text);
        }
        task.status = clip(status).into();
        task.unlimited = v.get("ttlMs").is_some_and(Node::is_null);
        if let Some(requests) = v.get("inputRequests").and_then(Node::as_object) {
            let mut requests: Vec<(&str, Node)> = requests.iter().collect();
            requests.sort_by(|a, b| a.0.cmp(b.0));
            for (k, request) in requests {
                let (key, digest) = (Text::of(k), Text::of(&crate::view::sorted_text(request)));
                match task.keys.iter().find(|(known, ..)| *known == key) {
                    Some((_, seen, _)) if *seen != digest => {
                        let text = format!("input key `{}` of task `{}` now names a different request than before: a key is never reused", clip(k), clip(id));
                        sink.report(&TASKS_INPUT_KEY, format!("{pointer}/inputRequests/{}", escape(k)), text);
                    }
                    Some(_) => {}
                    None if task.keys.len() < INPUT_KEYS_CAP => task.keys.push((key, digest, false)),
                    None => {}
                }
            }
        }
        if let (Some("completed"), Some(result), Some((method, version))) = (Some(status), v.get("result"), task.origin.as_ref()) {
            let module = &VERSIONS[*version];
            let Some(&(_, _, result_type)) = module.requests.iter().find(|(m, ..)| *m == &**method) else { return };
            let Some(dynamic) = (module.dynamic)(result_type) else { return };
            let report = (dynamic.validate_node)(result, &Default::default());
            let first = report.errors().next().map(|e| format!("{} at {}", e.message, if e.pointer.is_empty() { "(root)" } else { &e.pointer }));
            if let Some(first) = first {
                let text = format!("the completed task's `result` is not a {result_type} of {} (the result of its `{}` request): {first}", module.label, clip(method));
                sink.report(&TASKS_COMPLETED_RESULT, format!("{pointer}/result"), text);
            }
        }
    }
}

/// A key as one JSON pointer segment.
fn escape(key: &str) -> String {
    clip(key).replace('~', "~0").replace('/', "~1")
}
