//! Capabilities: each side uses only what the other declared, per version.

use serde_json::Value;

use super::rules::{CLIENT_CAPABILITY, SERVER_CAPABILITY};
use mcp_spec_types::engine::observe::Observer;

use super::{Msg, Sink, Waiting};
use crate::vocab::Dir;
use crate::vocab::PROTOCOL_META_KEY;
use crate::versions::version_index;

/// The `_meta` key of a 2026-07-28 request that declares the client's capabilities for it.
const CLIENT_CAPABILITIES_META_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// A method and the capability it needs: a path into the capabilities of one side (`owner`).
/// A request needs what the receiver declared; a notification what the sender itself declared
/// (`listChanged`, `subscribe`, `logging`).
struct Need {
    method: &'static str,
    /// The side that sends it.
    sender: Dir,
    /// Whose capabilities: `C2S` the client's, `S2C` the server's.
    owner: Dir,
    path: &'static [&'static str],
    /// The first version whose capabilities gate it (`completions` came in 2025-03-26).
    since: &'static str,
}

const fn need(method: &'static str, sender: Dir, path: &'static [&'static str]) -> Need {
    let owner = if method.as_bytes()[0] == b'n' { sender } else { sender.opposite() };
    Need { method, sender, owner, path, since: "2024-11-05" }
}

const NEEDS: &[Need] = &[
    need("tools/list", Dir::C2S, &["tools"]),
    need("tools/call", Dir::C2S, &["tools"]),
    need("resources/list", Dir::C2S, &["resources"]),
    need("resources/templates/list", Dir::C2S, &["resources"]),
    need("resources/read", Dir::C2S, &["resources"]),
    need("resources/subscribe", Dir::C2S, &["resources", "subscribe"]),
    need("resources/unsubscribe", Dir::C2S, &["resources", "subscribe"]),
    need("prompts/list", Dir::C2S, &["prompts"]),
    need("prompts/get", Dir::C2S, &["prompts"]),
    need("logging/setLevel", Dir::C2S, &["logging"]),
    Need { method: "completion/complete", sender: Dir::C2S, owner: Dir::S2C, path: &["completions"], since: "2025-03-26" },
    need("tasks/get", Dir::C2S, &["tasks"]),
    need("tasks/result", Dir::C2S, &["tasks"]),
    need("tasks/list", Dir::C2S, &["tasks", "list"]),
    need("tasks/cancel", Dir::C2S, &["tasks", "cancel"]),
    need("notifications/tools/list_changed", Dir::S2C, &["tools", "listChanged"]),
    need("notifications/prompts/list_changed", Dir::S2C, &["prompts", "listChanged"]),
    need("notifications/resources/list_changed", Dir::S2C, &["resources", "listChanged"]),
    need("notifications/resources/updated", Dir::S2C, &["resources", "subscribe"]),
    need("notifications/message", Dir::S2C, &["logging"]),
    need("sampling/createMessage", Dir::S2C, &["sampling"]),
    need("roots/list", Dir::S2C, &["roots"]),
    need("elicitation/create", Dir::S2C, &["elicitation"]),
    need("tasks/get", Dir::S2C, &["tasks"]),
    need("tasks/result", Dir::S2C, &["tasks"]),
    need("tasks/list", Dir::S2C, &["tasks", "list"]),
    need("tasks/cancel", Dir::S2C, &["tasks", "cancel"]),
    need("notifications/roots/list_changed", Dir::C2S, &["roots", "listChanged"]),
];

/// Requests that may carry `task`, and the capability that lets the receiver take them as tasks.
const TASK_NEEDS: &[Need] = &[
    need("tools/call", Dir::C2S, &["tasks", "requests", "tools", "call"]),
    need("sampling/createMessage", Dir::S2C, &["tasks", "requests", "sampling", "createMessage"]),
    need("elicitation/create", Dir::S2C, &["tasks", "requests", "elicitation", "create"]),
];

/// What a side declared, and on which line.
struct Declared {
    caps: Value,
    line: u64,
}

#[derive(Default)]
pub(crate) struct State {
    client: Option<Declared>,
    server: Option<Declared>,
}

/// Whether `path` leads to a declared capability (present, not `false` or `null`).
fn declared(caps: &Value, path: &[&str]) -> bool {
    let mut at = caps;
    for key in path {
        match at.get(key) {
            Some(v) => at = v,
            None => return false,
        }
    }
    !matches!(at, Value::Null | Value::Bool(false))
}

impl State {
    pub fn observe(&mut self, msg: &Msg, requests: &Observer<Waiting>, sink: &mut Sink) {
        let (Some(v), Some(dir)) = (msg.version, msg.dir) else { return };
        if msg.method == Some("initialize") && dir == Dir::C2S {
            if let Some(caps) = msg.param("capabilities") {
                self.client = Some(Declared { caps: caps.clone(), line: msg.line });
            }
            return;
        }
        if let (Some(req), Some(result)) = (&msg.answers, msg.result) {
            if matches!(&*req.method, "initialize" | "server/discover") {
                if let Some(caps) = result.get("capabilities") {
                    self.server = Some(Declared { caps: caps.clone(), line: msg.line });
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
            match msg.param("mode").and_then(Value::as_str) {
                Some("url") => needed.push(vec!["elicitation", "url"]),
                _ => needed.push(vec!["elicitation", "form"]),
            }
        }
        if method == "sampling/createMessage" && msg.param("tools").is_some() {
            needed.push(vec!["sampling", "tools"]);
        }
        match owner {
            Dir::S2C => {
                let Some(server) = &self.server else { return };
                for path in needed {
                    if !declared(&server.caps, &path) {
                        let text = format!("`{method}` needs the server capability `{}`, which the server did not declare (line {})", path.join("."), server.line);
                        sink.report(&SERVER_CAPABILITY, msg.pointer("/method"), text);
                    }
                }
            }
            Dir::C2S => {
                // 2026-07-28: each request declares the client's capabilities in its `_meta`; the
                // server may use what a request it is still serving declared.
                let per_request: Vec<(u64, &Value)> = requests
                    .in_flight(Dir::C2S.direction())
                    .filter_map(|f| {
                        let r = &f.attachment.sent;
                        let meta = r.param("_meta")?;
                        meta.get(PROTOCOL_META_KEY)?;
                        Some((r.line, meta.get(CLIENT_CAPABILITIES_META_KEY)?))
                    })
                    .collect();
                let stateless = !msg.version_has("initialize");
                let (sources, whence): (Vec<&Value>, String) = match (&self.client, stateless) {
                    (Some(c), false) => (vec![&c.caps], format!("line {}", c.line)),
                    (_, true) if !per_request.is_empty() => {
                        let lines: Vec<String> = per_request.iter().map(|(l, _)| l.to_string()).collect();
                        (per_request.iter().map(|(_, c)| *c).collect(), format!("the `_meta` of the unanswered requests on lines {}", lines.join(", ")))
                    }
                    _ => return,
                };
                for path in needed {
                    let mode_path = path.len() == 2 && path[0] == "elicitation";
                    let ok = sources.iter().any(|caps| {
                        declared(caps, &path)
                            // An `elicitation` object without modes declares form mode.
                            || (mode_path && path[1] == "form" && caps.get("elicitation").and_then(Value::as_object).is_some_and(|e| !e.contains_key("form") && !e.contains_key("url")))
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
