//! Capabilities: each side uses only what the other declared, per version.

use mcp_spec_types::tree::{Doc, Node};

use super::rules::{CLIENT_CAPABILITY, SERVER_CAPABILITY};
use mcp_spec_engine::observe::Observer;

use super::{Msg, Sink, Waiting};
use crate::vocab::Direction;
use crate::vocab::PROTOCOL_META_KEY;
use crate::versions::version_index;

/// The `_meta` key of a 2026-07-28 request that declares the client's capabilities for it.

/// A method and the capability it needs: a path into the capabilities of one side (`owner`).
/// A request needs what the receiver declared; a notification what the sender itself declared
/// (`listChanged`, `subscribe`, `logging`).
struct Need {
    method: &'static str,
    /// The side that sends it.
    sender: Direction,
    /// Whose capabilities: `C2S` the client's, `S2C` the server's.
    owner: Direction,
    path: &'static [&'static str],
    /// The first version whose capabilities gate it (`completions` came in 2025-03-26).
    since: &'static str,
}

const fn need(method: &'static str, sender: Direction, path: &'static [&'static str]) -> Need {
    let owner = if method.as_bytes()[0] == b'n' { sender } else { sender.opposite() };
    Need { method, sender, owner, path, since: "2024-11-05" }
}

const NEEDS: &[Need] = &[
    need("tools/list", Direction::ClientToServer, &["tools"]),
    need("tools/call", Direction::ClientToServer, &["tools"]),
    need("resources/list", Direction::ClientToServer, &["resources"]),
    need("resources/templates/list", Direction::ClientToServer, &["resources"]),
    need("resources/read", Direction::ClientToServer, &["resources"]),
    need("resources/subscribe", Direction::ClientToServer, &["resources", "subscribe"]),
    need("resources/unsubscribe", Direction::ClientToServer, &["resources", "subscribe"]),
    need("prompts/list", Direction::ClientToServer, &["prompts"]),
    need("prompts/get", Direction::ClientToServer, &["prompts"]),
    need("logging/setLevel", Direction::ClientToServer, &["logging"]),
    Need { method: "completion/complete", sender: Direction::ClientToServer, owner: Direction::ServerToClient, path: &["completions"], since: "2025-03-26" },
    need("tasks/get", Direction::ClientToServer, &["tasks"]),
    need("tasks/result", Direction::ClientToServer, &["tasks"]),
    need("tasks/list", Direction::ClientToServer, &["tasks", "list"]),
    need("tasks/cancel", Direction::ClientToServer, &["tasks", "cancel"]),
    need("notifications/tools/list_changed", Direction::ServerToClient, &["tools", "listChanged"]),
    need("notifications/prompts/list_changed", Direction::ServerToClient, &["prompts", "listChanged"]),
    need("notifications/resources/list_changed", Direction::ServerToClient, &["resources", "listChanged"]),
    need("notifications/resources/updated", Direction::ServerToClient, &["resources", "subscribe"]),
    need("notifications/message", Direction::ServerToClient, &["logging"]),
    need("sampling/createMessage", Direction::ServerToClient, &["sampling"]),
    need("roots/list", Direction::ServerToClient, &["roots"]),
    need("elicitation/create", Direction::ServerToClient, &["elicitation"]),
    need("tasks/get", Direction::ServerToClient, &["tasks"]),
    need("tasks/result", Direction::ServerToClient, &["tasks"]),
    need("tasks/list", Direction::ServerToClient, &["tasks", "list"]),
    need("tasks/cancel", Direction::ServerToClient, &["tasks", "cancel"]),
    need("notifications/roots/list_changed", Direction::ClientToServer, &["roots", "listChanged"]),
];

/// Requests that may carry `task`, and the capability that lets the receiver take them as tasks.
const TASK_NEEDS: &[Need] = &[
    need("tools/call", Direction::ClientToServer, &["tasks", "requests", "tools", "call"]),
    need("sampling/createMessage", Direction::ServerToClient, &["tasks", "requests", "sampling", "createMessage"]),
    need("elicitation/create", Direction::ServerToClient, &["tasks", "requests", "elicitation", "create"]),
];

/// What a side declared, and on which line. Kept for the rest of the session as a compact tree of
/// its own (its text and 8 bytes per value), not a `Value`.
struct Declared {
    caps: Doc<'static>,
    line: u64,
}

pub(crate) struct State {
    client: Option<Declared>,
    server: Option<Declared>,
}

impl super::families::Tables for State {
    fn new(_: usize) -> State {
        State { client: None, server: None }
    }
}

/// Whether `path` leads to a declared capability (present, not `false` or `null`).
pub(super) fn declared(caps: Node<'_>, path: &[&str]) -> bool {
    let mut at = caps;
    for key in path {
        match at.get(key) {
            Some(v) => at = v,
            None => return false,
        }
    }
    !(at.is_null() || at.as_bool() == Some(false))
}

/// The capabilities rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::Core;
    type State = State;
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        let _ = cx;
        stream.capabilities.observe(msg, &stream.observer, sink)
    }
}

impl State {
    /// The server's capabilities (its `initialize` or `server/discover` answer), with that answer's line.
    pub(super) fn server(&self) -> Option<(Node<'_>, u64)> {
        self.server.as_ref().map(|d| (d.caps.root(), d.line))
    }

    pub fn observe(&mut self, msg: &Msg, requests: &Observer<Waiting>, sink: &mut Sink) {
        let (Some(v), Some(dir)) = (msg.version, msg.dir) else { return };
        if msg.method == Some("initialize") && dir == Direction::ClientToServer {
            if let Some(caps) = msg.param("capabilities") {
                self.client = Some(Declared { caps: Doc::parse_owned(caps.to_string()).expect("a tree's own text parses"), line: msg.line });
            }
            return;
        }
        if let (Some(req), Some(result)) = (&msg.answers, msg.result) {
            if matches!(&*req.method, "initialize" | "server/discover") {
                if let Some(caps) = result.get("capabilities") {
                    self.server = Some(Declared { caps: Doc::parse_owned(caps.to_string()).expect("a tree's own text parses"), line: msg.line });
                }
            }
            return;
        }
        let Some(method) = msg.method else { return };
        let gate = NEEDS.iter().find(|n| n.method == method && n.sender == dir && version_index(n.since).is_some_and(|s| v >= s));
        let Some(gate) = gate else { return };
        let owner = gate.owner;
        let mut needed: Vec<Vec<&str>> = vec![gate.path.to_vec()];
        if msg.param("task").is_some() {
            needed.extend(TASK_NEEDS.iter().filter(|n| n.method == method && n.sender == dir).map(|n| n.path.to_vec()));
        }
        if method == "elicitation/create" {
            // 2025-11-25: `url` mode needs `elicitation.url`; form mode needs `elicitation.form`,
            // or an `elicitation` object without modes (the older form-only declaration).
            match msg.param("mode").and_then(Node::as_str) {
                Some("url") => needed.push(vec!["elicitation", "url"]),
                _ => needed.push(vec!["elicitation", "form"]),
            }
        }
        if method == "sampling/createMessage" && msg.param("tools").is_some() {
            needed.push(vec!["sampling", "tools"]);
        }
        match owner {
            Direction::ServerToClient => {
                let Some(server) = &self.server else { return };
                for path in needed {
                    if !declared(server.caps.root(), &path) {
                        let text = format!("`{method}` needs the server capability `{}`, which the server did not declare (line {})", path.join("."), server.line);
                        sink.report(&SERVER_CAPABILITY, msg.pointer("/method"), text);
                    }
                }
            }
            Direction::ClientToServer => {
                // 2026-07-28: each request declares the client's capabilities in its `_meta`; the
                // server may use what a request it is still serving declared.
                let per_request: Vec<(u64, Doc<'static>)> = requests
                    .in_flight(Direction::ClientToServer)
                    .filter_map(|f| {
                        let r = &f.attachment.sent;
                        let meta = r.param("_meta")?;
                        meta.get(PROTOCOL_META_KEY)?;
                        Some((r.line, Doc::from_value(meta.get(mcp_spec_types::runtime::meta::CLIENT_CAPABILITIES)?)))
                    })
                    .collect();
                let stateless = !msg.version_has("initialize");
                let (sources, whence): (Vec<Node>, String) = match (&self.client, stateless) {
                    (Some(c), false) => (vec![c.caps.root()], format!("line {}", c.line)),
                    (_, true) if !per_request.is_empty() => {
                        let lines: Vec<String> = per_request.iter().map(|(l, _)| l.to_string()).collect();
                        (per_request.iter().map(|(_, c)| c.root()).collect(), format!("the `_meta` of the unanswered requests on lines {}", lines.join(", ")))
                    }
                    _ => return,
                };
                for path in needed {
                    let mode_path = path.len() == 2 && path[0] == "elicitation";
                    let ok = sources.iter().any(|caps| {
                        declared(*caps, &path)
                            // An `elicitation` object without modes declares form mode.
                            || (mode_path && path[1] == "form" && caps.get("elicitation").and_then(Node::as_object).is_some_and(|e| !e.contains_key("form") && !e.contains_key("url")))
                    });
                    if !ok {
                        let text = format!("`{method}` needs the client capability `{}`, which the client did not declare ({whence})", path.join("."));
                        sink.report(&CLIENT_CAPABILITY, msg.pointer("/method"), text);
                    }
                }
            }
        }
    }
}
