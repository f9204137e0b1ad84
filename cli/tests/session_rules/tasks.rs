//! `--ext tasks`: the Tasks extension's session rules on 2026-07-28, each with a session that keeps
//! it and the same session broken in one place. Lines 1-2 list the tool; the task is `t1`.

use super::common::lines::{c2s, note, ok, req, s2c};
use super::Case;
use serde_json::{json, Value};

const EXT: &[&str] = &["--ext", "tasks"];
const AT: &str = "2025-11-25T10:30:00Z";

/// A 2026-07-28 request's `_meta`, declaring the extension or not.
fn meta(declared: bool) -> Value {
    let caps = if declared { json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}) } else { json!({}) };
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}})
}

fn with_meta(declared: bool, mut params: Value) -> Value {
    params["_meta"] = meta(declared);
    params
}

/// `tools/list` (1) and its answer (2), then `rest`.
fn listed(rest: Vec<Value>) -> Vec<Value> {
    let mut v = vec![
        c2s(req(1, "tools/list", with_meta(true, json!({})))),
        s2c(ok(1, json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": [{"name": "slow", "inputSchema": {"type": "object"}}]}))),
    ];
    v.extend(rest);
    v
}

fn task_state(status: &str, extra: Value) -> Value {
    let mut t = json!({"taskId": "t1", "status": status, "createdAt": AT, "lastUpdatedAt": AT, "ttlMs": 60000});
    t.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    t
}

/// `tools/call` (3) answered with task `t1` (4), then `rest`.
fn created(extra: Value, rest: Vec<Value>) -> Vec<Value> {
    let mut handle = task_state("working", extra);
    handle["resultType"] = json!("task");
    let mut v = listed(vec![c2s(req(3, "tools/call", with_meta(true, json!({"name": "slow", "arguments": {}})))), s2c(ok(3, handle))]);
    v.extend(rest);
    v
}

fn get(id: i64, task: &str, declared: bool) -> Value {
    c2s(req(id, "tasks/get", with_meta(declared, json!({"taskId": task}))))
}

fn got(id: i64, status: &str, extra: Value) -> Value {
    let mut r = task_state(status, extra);
    r["resultType"] = json!("complete");
    s2c(ok(id, r))
}

fn error(id: i64, code: i64) -> Value {
    let mut e = json!({"code": code, "message": "no"});
    if code == -32021 {
        e["data"] = json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}});
    }
    s2c(json!({"jsonrpc": "2.0", "id": id, "error": e}))
}

/// `lines` as lines of one leg (`client` or `server`) of a bridge recording.
fn on(leg: &str, lines: Vec<Value>) -> Vec<Value> {
    lines.into_iter().map(|mut l| {
        l["leg"] = json!(leg);
        l
    }).collect()
}

/// A bridge recording: the client leg's `tools/call` (3) made task `t1` (lines 1-4); the server leg
/// lists its tools (5-6) and sends its own `tools/call` 3 (7), then `rest` on the server leg.
fn two_legs(rest: Vec<Value>) -> Vec<Value> {
    let mut v = on("client", created(json!({}), vec![]));
    v.extend(on("server", listed(vec![c2s(req(3, "tools/call", with_meta(true, json!({"name": "slow", "arguments": {}}))))])));
    v.extend(on("server", rest));
    v
}

fn ask(message: &str) -> Value {
    json!({"name": {"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}})
}

fn update(id: i64, key: &str) -> Value {
    c2s(req(id, "tasks/update", with_meta(true, json!({"taskId": "t1", "inputResponses": {key: {"action": "accept", "content": {"name": "Ada"}}}}))))
}

fn done() -> Value {
    json!({"result": {"resultType": "complete", "content": [{"type": "text", "text": "done"}]}})
}

/// `server/discover` (1) answered with `capabilities` (2).
fn discovered(capabilities: Value) -> Vec<Value> {
    let result = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": ["2026-07-28"], "capabilities": capabilities, "serverInfo": {"name": "s", "version": "1"}});
    vec![c2s(req(1, "server/discover", with_meta(true, json!({})))), s2c(ok(1, result))]
}

pub const CASES: &[Case] = &[
    Case {
        name: "tasks: a task answers only a request that declared the extension",
        flags: EXT,
        accept: || created(json!({}), vec![]),
        reject: || {
            let mut v = created(json!({}), vec![]);
            v[2] = c2s(req(3, "tools/call", with_meta(false, json!({"name": "slow", "arguments": {}}))));
            v
        },
        expect: ("session.tasks.undeclared", 4, "/msg/result/resultType", "error"),
    },
    Case {
        name: "tasks: only tools/call is answered with a task",
        flags: EXT,
        accept: || listed(vec![c2s(req(3, "prompts/list", with_meta(true, json!({})))), s2c(ok(3, json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "prompts": []})))]),
        reject: || {
            let mut handle = task_state("working", json!({}));
            handle["resultType"] = json!("task");
            listed(vec![c2s(req(3, "prompts/list", with_meta(true, json!({})))), s2c(ok(3, handle))])
        },
        expect: ("session.tasks.unsupported-method", 4, "/msg/result/resultType", "error"),
    },
    Case {
        name: "tasks: tasks/get from a client without the extension is answered -32021",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "t1", false), error(5, -32021)]),
        reject: || created(json!({}), vec![get(5, "t1", false), got(5, "working", json!({}))]),
        expect: ("session.tasks.undeclared-request", 6, "/msg/result", "error"),
    },
    Case {
        name: "tasks: a task subscription without the extension is answered -32021",
        flags: EXT,
        accept: || created(json!({}), vec![c2s(req(5, "subscriptions/listen", with_meta(false, json!({"notifications": {"taskIds": ["t1"]}})))), error(5, -32021)]),
        reject: || {
            let listen = c2s(req(5, "subscriptions/listen", with_meta(false, json!({"notifications": {"taskIds": ["t1"]}}))));
            let ack = s2c(note("notifications/subscriptions/acknowledged", json!({"notifications": {}, "_meta": {"io.modelcontextprotocol/subscriptionId": 5}})));
            created(json!({}), vec![listen, ack])
        },
        expect: ("session.tasks.listen-undeclared", 6, "/msg", "error"),
    },
    Case {
        name: "tasks: tasks/get of an unknown task is answered -32602",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "nope", true), error(5, -32602)]),
        reject: || created(json!({}), vec![get(5, "nope", true), error(5, -32603)]),
        expect: ("session.tasks.unknown-id", 6, "/msg/error/code", "error"),
    },
    Case {
        name: "tasks: tasks/cancel of an unknown task should be answered -32602",
        flags: EXT,
        accept: || created(json!({}), vec![c2s(req(5, "tasks/cancel", with_meta(true, json!({"taskId": "nope"})))), error(5, -32602)]),
        reject: || created(json!({}), vec![c2s(req(5, "tasks/cancel", with_meta(true, json!({"taskId": "nope"})))), s2c(ok(5, json!({"resultType": "complete"})))]),
        expect: ("session.tasks.unknown-id-ack", 6, "/msg/result", "warning"),
    },
    Case {
        name: "tasks: a task of unlimited lifetime is not reported missing",
        flags: EXT,
        accept: || created(json!({"ttlMs": null}), vec![get(5, "t1", true), got(5, "working", json!({"ttlMs": null}))]),
        reject: || created(json!({"ttlMs": null}), vec![get(5, "t1", true), error(5, -32602)]),
        expect: ("session.tasks.gone", 6, "/msg/error", "warning"),
    },
    Case {
        name: "tasks: a terminal status is final",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "t1", true), got(5, "completed", done()), get(7, "t1", true), got(7, "completed", done())]),
        reject: || created(json!({}), vec![get(5, "t1", true), got(5, "completed", done()), get(7, "t1", true), got(7, "working", json!({}))]),
        expect: ("session.tasks.status-transition", 8, "/msg/result/status", "error"),
    },
    Case {
        name: "tasks: an input key keeps its request",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "t1", true), got(5, "input_required", json!({"inputRequests": ask("Name?")})), get(7, "t1", true), got(7, "input_required", json!({"inputRequests": ask("Name?")}))]),
        reject: || created(json!({}), vec![get(5, "t1", true), got(5, "input_required", json!({"inputRequests": ask("Name?")})), get(7, "t1", true), got(7, "input_required", json!({"inputRequests": ask("Age?")}))]),
        expect: ("session.tasks.input-key", 8, "/msg/result/inputRequests/name", "error"),
    },
    Case {
        name: "tasks: tasks/update answers only outstanding input requests",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "t1", true), got(5, "input_required", json!({"inputRequests": ask("Name?")})), update(7, "name"), s2c(ok(7, json!({"resultType": "complete"})))]),
        reject: || created(json!({}), vec![get(5, "t1", true), got(5, "input_required", json!({"inputRequests": ask("Name?")})), update(7, "age"), s2c(ok(7, json!({"resultType": "complete"})))]),
        expect: ("session.tasks.update-key", 7, "/msg/params/inputResponses/age", "error"),
    },
    Case {
        name: "tasks: tasks/update only for a task that asked for input",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "t1", true), got(5, "input_required", json!({"inputRequests": ask("Name?")})), update(7, "name"), s2c(ok(7, json!({"resultType": "complete"})))]),
        reject: || created(json!({}), vec![get(5, "t1", true), got(5, "working", json!({})), update(7, "name"), s2c(ok(7, json!({"resultType": "complete"})))]),
        expect: ("session.tasks.update-key", 7, "/msg/params/inputResponses/name", "error"),
    },
    Case {
        name: "tasks: a bridge recording's legs keep their own tasks",
        flags: EXT,
        // The server leg's request 3 is no task's (the client leg's request 3 is); back on the client leg, `t1` is known.
        accept: || {
            let mut v = two_legs(vec![c2s(note("notifications/cancelled", json!({"requestId": 3})))]);
            v.extend(on("client", vec![get(5, "t1", true), got(5, "working", json!({}))]));
            v
        },
        reject: || {
            let mut handle = task_state("working", json!({}));
            handle["resultType"] = json!("task");
            two_legs(vec![s2c(ok(3, handle)), c2s(note("notifications/cancelled", json!({"requestId": 3})))])
        },
        expect: ("session.tasks.cancel-notification", 9, "/msg/params/requestId", "error"),
    },
    Case {
        name: "tasks: a task is cancelled with tasks/cancel, not notifications/cancelled",
        flags: EXT,
        accept: || created(json!({}), vec![c2s(req(5, "tasks/cancel", with_meta(true, json!({"taskId": "t1"})))), s2c(ok(5, json!({"resultType": "complete"})))]),
        reject: || created(json!({}), vec![c2s(note("notifications/cancelled", json!({"requestId": 3})))]),
        expect: ("session.tasks.cancel-notification", 5, "/msg/params/requestId", "error"),
    },
    Case {
        name: "tasks: 2025-11-25's tasks/result is answered -32601",
        flags: EXT,
        accept: || created(json!({}), vec![c2s(req(5, "tasks/result", with_meta(true, json!({"taskId": "t1"})))), error(5, -32601)]),
        reject: || created(json!({}), vec![c2s(req(5, "tasks/result", with_meta(true, json!({"taskId": "t1"})))), error(5, -32602)]),
        expect: ("session.tasks.result-removed", 6, "/msg/error/code", "error"),
    },
    Case {
        name: "tasks: a server declares the extension, not 2025-11-25's tasks capability",
        flags: EXT,
        accept: || discovered(json!({"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})),
        reject: || discovered(json!({"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}, "tasks": {"requests": {"tools": {"call": {}}}}})),
        expect: ("session.tasks.legacy-capability", 2, "/msg/result/capabilities/tasks", "error"),
    },
    Case {
        name: "tasks: a completed task's result is its request's result",
        flags: EXT,
        accept: || created(json!({}), vec![get(5, "t1", true), got(5, "completed", done())]),
        reject: || created(json!({}), vec![get(5, "t1", true), got(5, "completed", json!({"result": {"resultType": "complete", "content": "done"}}))]),
        expect: ("session.tasks.completed-result", 6, "/msg/result/result", "error"),
    },
];
