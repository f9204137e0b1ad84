//! The session rules (`session.*`): for each rule, a session that keeps it checks without
//! any session finding, and the same session broken in one place gets exactly that rule's
//! finding, on the line and pointer of the message that breaks it.

use crate::common;
mod skills;
mod tasks;

use common::lines::{c2s, note, ok, req, s2c};
use common::{check_json, Cases};
use serde_json::{json, Value};

/// A 2025-11-25 client's capabilities that declare everything the cases use.
fn all_client_caps() -> Value {
    json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {"form": {}, "url": {}}})
}

fn all_server_caps() -> Value {
    json!({"tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true}, "prompts": {}, "logging": {}, "completions": {}})
}

/// `initialize` (id 1), its result and `notifications/initialized`: lines 1 to 3.
fn start(client: Value, server: Value) -> Vec<Value> {
    vec![
        c2s(req(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": client, "clientInfo": {"name": "c", "version": "1"}}))),
        s2c(ok(1, json!({"protocolVersion": "2025-11-25", "capabilities": server, "serverInfo": {"name": "s", "version": "1"}}))),
        c2s(note("notifications/initialized", json!({}))),
    ]
}

fn started(rest: Vec<Value>) -> Vec<Value> {
    let mut v = start(all_client_caps(), all_server_caps());
    v.extend(rest);
    v
}

fn tool(name: &str, input: Value) -> Value {
    json!({"name": name, "inputSchema": input})
}

fn echo_schema() -> Value {
    json!({"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]})
}

/// `$ref` to `#/$defs/d0`, which refers to `d1`, ... to `d{links}`, an object.
fn ref_chain(links: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..links {
        defs.insert(format!("d{i}"), json!({"$ref": format!("#/$defs/d{}", i + 1)}));
    }
    defs.insert(format!("d{links}"), json!({"type": "object"}));
    json!({"type": "object", "$ref": "#/$defs/d0", "$defs": defs})
}

/// A pattern that backtracks exponentially on a run of `a`s.
fn backtracking_schema() -> Value {
    json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^((a*)*)\\2b$"}}})
}

/// A listing of `tools` answered on lines 4 and 5.
fn listed(tools: Vec<Value>, rest: Vec<Value>) -> Vec<Value> {
    let mut v = started(vec![c2s(req(2, "tools/list", json!({}))), s2c(ok(2, json!({"tools": tools})))]);
    v.extend(rest);
    v
}

fn call(id: i64, name: &str, args: Value) -> Value {
    c2s(req(id, "tools/call", json!({"name": name, "arguments": args})))
}

fn text_result(extra: Value) -> Value {
    let mut r = json!({"content": [{"type": "text", "text": "ok"}]});
    for (k, v) in extra.as_object().unwrap() {
        r[k] = v.clone();
    }
    r
}

fn ui_tool() -> Value {
    json!({"name": "forecast", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://weather/forecast.html"}}})
}

fn ui_contents(mime: &str) -> Value {
    json!({"contents": [{"uri": "ui://weather/forecast.html", "mimeType": mime, "text": "<!doctype html><p>hi</p>"}]})
}

fn v2h(msg: Value) -> Value {
    json!({"dir": "view2host", "msg": msg})
}

fn h2v(msg: Value) -> Value {
    json!({"dir": "host2view", "msg": msg})
}

/// The view's `ui/initialize` (id 1), the host's answer and the view's `initialized`.
fn app_start() -> Vec<Value> {
    vec![
        v2h(req(1, "ui/initialize", json!({"appInfo": {"name": "v", "version": "1"}, "appCapabilities": {}, "protocolVersion": "2026-01-26"}))),
        h2v(ok(1, json!({"protocolVersion": "2026-01-26", "hostInfo": {"name": "h", "version": "1"}, "hostCapabilities": {}, "hostContext": {}}))),
        v2h(note("ui/notifications/initialized", json!({}))),
    ]
}

fn app_started(rest: Vec<Value>) -> Vec<Value> {
    let mut v = app_start();
    v.extend(rest);
    v
}

/// The server lists `refresh` with `visibility` (lines 4, 5), then the view starts (6 to 8) and calls it (9).
fn app_calls_listed(visibility: Value) -> Vec<Value> {
    let refresh = json!({"name": "refresh", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": visibility}}});
    let mut v = listed(vec![refresh], app_start());
    v.push(v2h(req(2, "tools/call", json!({"name": "refresh", "arguments": {}}))));
    v
}

/// A 2026-07-28 request's `_meta` with the client's capabilities for it.
fn meta_2026(caps: Value) -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}})
}

struct Case {
    name: &'static str,
    /// Extra options (`--ext apps`).
    flags: &'static [&'static str],
    accept: fn() -> Vec<Value>,
    reject: fn() -> Vec<Value>,
    /// The one session finding of `reject`: rule, line, pointer, severity.
    expect: (&'static str, u64, &'static str, &'static str),
}

const CASES: &[Case] = &[
    Case {
        name: "a request id is not reused in the session",
        flags: &[],
        accept: || started(vec![c2s(req(5, "ping", json!({}))), s2c(ok(5, json!({}))), c2s(req(6, "ping", json!({})))]),
        reject: || started(vec![c2s(req(5, "ping", json!({}))), s2c(ok(5, json!({}))), c2s(req(5, "ping", json!({})))]),
        expect: ("stream.id-reused", 6, "/msg/id", "error"),
    },
    Case {
        name: "initialize comes first",
        flags: &[],
        accept: || started(vec![]),
        reject: || {
            let mut v = vec![c2s(req(0, "tools/list", json!({})))];
            v.extend(started(vec![]));
            v
        },
        expect: ("session.lifecycle.initialize-first", 2, "/msg/method", "error"),
    },
    Case {
        name: "the client sends only ping before the initialize result",
        flags: &[],
        accept: || {
            let mut v = start(all_client_caps(), all_server_caps());
            v.insert(1, c2s(req(9, "ping", json!({}))));
            v
        },
        reject: || {
            let mut v = start(all_client_caps(), all_server_caps());
            v.insert(1, c2s(req(9, "tools/list", json!({}))));
            v
        },
        expect: ("session.lifecycle.client-early", 2, "/msg/method", "warning"),
    },
    Case {
        name: "the server sends only ping and logging before initialized",
        flags: &[],
        accept: || {
            let mut v = start(all_client_caps(), all_server_caps());
            v.insert(2, s2c(req(1, "ping", json!({}))));
            v.insert(3, s2c(note("notifications/message", json!({"level": "info", "data": "starting"}))));
            v
        },
        reject: || {
            let mut v = start(all_client_caps(), all_server_caps());
            v.insert(2, s2c(req(1, "roots/list", json!({}))));
            v
        },
        expect: ("session.lifecycle.server-early", 3, "/msg/method", "warning"),
    },
    Case {
        name: "initialized follows the initialize result",
        flags: &[],
        accept: || started(vec![]),
        reject: || {
            let mut v = start(all_client_caps(), all_server_caps());
            v.swap(1, 2);
            v
        },
        expect: ("session.lifecycle.initialized-order", 2, "/msg/method", "error"),
    },
    Case {
        name: "a request needs the server's capability",
        flags: &[],
        accept: || started(vec![c2s(req(2, "prompts/list", json!({})))]),
        reject: || {
            let mut v = start(all_client_caps(), json!({"tools": {}}));
            v.push(c2s(req(2, "prompts/list", json!({}))));
            v
        },
        expect: ("session.capabilities.server", 4, "/msg/method", "error"),
    },
    Case {
        name: "resources/subscribe needs resources.subscribe",
        flags: &[],
        accept: || started(vec![c2s(req(2, "resources/subscribe", json!({"uri": "file:///a"})))]),
        reject: || {
            let mut v = start(all_client_caps(), json!({"resources": {"listChanged": true}}));
            v.push(c2s(req(2, "resources/subscribe", json!({"uri": "file:///a"}))));
            v
        },
        expect: ("session.capabilities.server", 4, "/msg/method", "error"),
    },
    Case {
        name: "a list-changed notification needs the sender's listChanged",
        flags: &[],
        accept: || started(vec![s2c(note("notifications/tools/list_changed", json!({})))]),
        reject: || {
            let mut v = start(all_client_caps(), json!({"tools": {"listChanged": false}}));
            v.push(s2c(note("notifications/tools/list_changed", json!({}))));
            v
        },
        expect: ("session.capabilities.server", 4, "/msg/method", "error"),
    },
    Case {
        name: "completion/complete needs completions (2025-03-26 and later)",
        flags: &[],
        accept: || started(vec![c2s(req(2, "completion/complete", json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "x"}})))]),
        reject: || {
            let mut v = start(all_client_caps(), json!({"prompts": {}}));
            v.push(c2s(req(2, "completion/complete", json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "x"}}))));
            v
        },
        expect: ("session.capabilities.server", 4, "/msg/method", "error"),
    },
    Case {
        name: "a server request needs the client's capability",
        flags: &[],
        accept: || started(vec![s2c(req(1, "roots/list", json!({})))]),
        reject: || {
            let mut v = start(json!({"sampling": {}}), all_server_caps());
            v.push(s2c(req(1, "roots/list", json!({}))));
            v
        },
        expect: ("session.capabilities.client", 4, "/msg/method", "error"),
    },
    Case {
        name: "URL-mode elicitation needs elicitation.url",
        flags: &[],
        accept: || started(vec![s2c(req(1, "elicitation/create", json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e1"})))]),
        reject: || {
            let mut v = start(json!({"elicitation": {"form": {}}}), all_server_caps());
            v.push(s2c(req(1, "elicitation/create", json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e1"}))));
            v
        },
        expect: ("session.capabilities.client", 4, "/msg/method", "error"),
    },
    Case {
        name: "form elicitation: an elicitation object without modes declares form",
        flags: &[],
        accept: || {
            let mut v = start(json!({"elicitation": {}}), all_server_caps());
            v.push(s2c(req(1, "elicitation/create", json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string"}}}}))));
            v
        },
        reject: || {
            let mut v = start(json!({"elicitation": {"url": {}}}), all_server_caps());
            v.push(s2c(req(1, "elicitation/create", json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string"}}}}))));
            v
        },
        expect: ("session.capabilities.client", 4, "/msg/method", "error"),
    },
    Case {
        name: "2026-07-28: the capabilities of the request in flight",
        flags: &[],
        accept: || {
            vec![
                c2s(req(1, "tools/call", json!({"name": "t", "arguments": {}, "_meta": meta_2026(json!({"sampling": {}}))}))),
                s2c(req(7, "sampling/createMessage", json!({"messages": [], "maxTokens": 5}))),
            ]
        },
        reject: || {
            vec![
                c2s(req(1, "tools/call", json!({"name": "t", "arguments": {}, "_meta": meta_2026(json!({}))}))),
                s2c(req(7, "sampling/createMessage", json!({"messages": [], "maxTokens": 5}))),
            ]
        },
        expect: ("session.capabilities.client", 2, "/msg/method", "error"),
    },
    Case {
        name: "2026-07-28: the server capabilities from server/discover",
        flags: &[],
        accept: || {
            vec![
                c2s(req(1, "server/discover", json!({"_meta": meta_2026(json!({}))}))),
                s2c(ok(1, json!({"supportedVersions": ["2026-07-28"], "capabilities": {"prompts": {}}}))),
                c2s(req(2, "prompts/list", json!({"_meta": meta_2026(json!({}))}))),
            ]
        },
        reject: || {
            vec![
                c2s(req(1, "server/discover", json!({"_meta": meta_2026(json!({}))}))),
                s2c(ok(1, json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}))),
                c2s(req(2, "prompts/list", json!({"_meta": meta_2026(json!({}))}))),
            ]
        },
        expect: ("session.capabilities.server", 3, "/msg/method", "error"),
    },
    Case {
        name: "tools/call arguments against the listed inputSchema",
        flags: &[],
        accept: || listed(vec![tool("echo", echo_schema())], vec![call(3, "echo", json!({"message": "hi"}))]),
        reject: || listed(vec![tool("echo", echo_schema())], vec![call(3, "echo", json!({"message": 5}))]),
        expect: ("session.tools.input-schema", 6, "/msg/params/arguments/message", "error"),
    },
    Case {
        name: "structuredContent against the listed outputSchema",
        flags: &[],
        accept: || {
            let mut t = tool("temp", json!({"type": "object"}));
            t["outputSchema"] = json!({"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]});
            listed(vec![t], vec![call(3, "temp", json!({})), s2c(ok(3, text_result(json!({"structuredContent": {"t": 1.5}}))))])
        },
        reject: || {
            let mut t = tool("temp", json!({"type": "object"}));
            t["outputSchema"] = json!({"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]});
            listed(vec![t], vec![call(3, "temp", json!({})), s2c(ok(3, text_result(json!({"structuredContent": {"t": "warm"}}))))])
        },
        expect: ("session.tools.output-schema", 7, "/msg/result/structuredContent/t", "warning"),
    },
    Case {
        name: "only a complete result is held to the outputSchema (2026-07-28's input_required is not)",
        flags: &[],
        accept: || {
            let mut t = tool("ask", json!({"type": "object"}));
            t["outputSchema"] = json!({"type": "object"});
            let asking = json!({"resultType": "input_required", "inputRequests": {"name": {"method": "elicitation/create", "params": {}}}});
            listed(vec![t], vec![call(3, "ask", json!({})), s2c(ok(3, asking))])
        },
        reject: || {
            let mut t = tool("ask", json!({"type": "object"}));
            t["outputSchema"] = json!({"type": "object"});
            listed(vec![t], vec![call(3, "ask", json!({})), s2c(ok(3, text_result(json!({"resultType": "complete"}))))])
        },
        expect: ("session.tools.output-schema", 7, "/msg/result", "warning"),
    },
    Case {
        name: "a called tool was listed",
        flags: &[],
        accept: || listed(vec![tool("echo", echo_schema())], vec![call(3, "echo", json!({"message": "hi"}))]),
        reject: || listed(vec![tool("echo", echo_schema())], vec![call(3, "ecco", json!({"message": "hi"}))]),
        expect: ("session.tools.unlisted", 6, "/msg/params/name", "warning"),
    },
    Case {
        name: "tool schemas are valid JSON Schema (draft-07 by its $schema)",
        flags: &[],
        accept: || {
            let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"type": "integer"}}});
            listed(vec![tool("a", schema)], vec![])
        },
        reject: || listed(vec![tool("a", json!({"type": "object", "properties": {"a": {"type": 5}}}))], vec![]),
        expect: ("session.tools.schema-invalid", 5, "/msg/result/tools/0/inputSchema/properties/a/type", "error"),
    },
    Case {
        name: "a tool schema with an unknown $schema is not used",
        flags: &[],
        accept: || listed(vec![tool("a", json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}))], vec![]),
        reject: || listed(vec![tool("a", json!({"$schema": "https://example.com/my-meta-schema", "type": "object"}))], vec![]),
        expect: ("session.tools.schema-unusable", 5, "/msg/result/tools/0/inputSchema/$schema", "warning"),
    },
    Case {
        name: "tool schemas past the checker's bounds are not used",
        flags: &[],
        accept: || listed(vec![tool("deep", ref_chain(500))], vec![call(3, "deep", json!({}))]),
        reject: || listed(vec![tool("deep", ref_chain(5_000))], vec![call(3, "deep", json!({}))]),
        expect: ("session.tools.schema-unusable", 5, "/msg/result/tools/0/inputSchema", "warning"),
    },
    Case {
        name: "a pattern past the regex budget is undecided",
        flags: &[],
        accept: || listed(vec![tool("m", backtracking_schema())], vec![call(3, "m", json!({"s": "aab"}))]),
        reject: || listed(vec![tool("m", backtracking_schema())], vec![call(3, "m", json!({"s": "a".repeat(30)}))]),
        expect: ("session.tools.pattern-undecided", 6, "/msg/params/arguments/s", "warning"),
    },
    Case {
        name: "resources/read contents carry the requested URI",
        flags: &[],
        accept: || started(vec![c2s(req(2, "resources/read", json!({"uri": "file:///a.txt"}))), s2c(ok(2, json!({"contents": [{"uri": "file:///a.txt", "text": "a"}]})))]),
        reject: || started(vec![c2s(req(2, "resources/read", json!({"uri": "file:///a.txt"}))), s2c(ok(2, json!({"contents": [{"uri": "file:///b.txt", "text": "b"}]})))]),
        expect: ("session.resources.read-uri", 5, "/msg/result/contents/0/uri", "warning"),
    },
    Case {
        name: "resource updates only for subscribed URIs",
        flags: &[],
        accept: || {
            started(vec![
                c2s(req(2, "resources/subscribe", json!({"uri": "file:///a.txt"}))),
                s2c(ok(2, json!({}))),
                s2c(note("notifications/resources/updated", json!({"uri": "file:///a.txt"}))),
            ])
        },
        reject: || {
            started(vec![
                c2s(req(2, "resources/subscribe", json!({"uri": "file:///a.txt"}))),
                s2c(ok(2, json!({}))),
                c2s(req(3, "resources/unsubscribe", json!({"uri": "file:///a.txt"}))),
                s2c(ok(3, json!({}))),
                s2c(note("notifications/resources/updated", json!({"uri": "file:///a.txt"}))),
            ])
        },
        expect: ("session.resources.updated-unsubscribed", 8, "/msg/params/uri", "warning"),
    },
    Case {
        name: "cursors only as received",
        flags: &[],
        accept: || {
            started(vec![
                c2s(req(2, "prompts/list", json!({}))),
                s2c(ok(2, json!({"prompts": [], "nextCursor": "page-2"}))),
                c2s(req(3, "prompts/list", json!({"cursor": "page-2"}))),
            ])
        },
        reject: || {
            started(vec![
                c2s(req(2, "prompts/list", json!({}))),
                s2c(ok(2, json!({"prompts": [], "nextCursor": "page-2"}))),
                c2s(req(3, "prompts/list", json!({"cursor": "page-3"}))),
            ])
        },
        expect: ("session.pagination.cursor", 6, "/msg/params/cursor", "error"),
    },
    Case {
        name: "progress only for a token of a request in flight",
        flags: &[],
        accept: || {
            started(vec![
                c2s(req(2, "tools/call", json!({"name": "slow", "_meta": {"progressToken": "p1"}}))),
                s2c(note("notifications/progress", json!({"progressToken": "p1", "progress": 1}))),
                s2c(ok(2, text_result(json!({})))),
            ])
        },
        reject: || {
            started(vec![
                c2s(req(2, "tools/call", json!({"name": "slow", "_meta": {"progressToken": "p1"}}))),
                s2c(ok(2, text_result(json!({})))),
                s2c(note("notifications/progress", json!({"progressToken": "p1", "progress": 1}))),
            ])
        },
        expect: ("session.progress.token", 6, "/msg/params/progressToken", "error"),
    },
    Case {
        name: "progress increases",
        flags: &[],
        accept: || {
            started(vec![
                c2s(req(2, "tools/call", json!({"name": "slow", "_meta": {"progressToken": 7}}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 1}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 2.5}))),
            ])
        },
        reject: || {
            started(vec![
                c2s(req(2, "tools/call", json!({"name": "slow", "_meta": {"progressToken": 7}}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 2}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 2}))),
            ])
        },
        expect: ("session.progress.increasing", 6, "/msg/params/progress", "error"),
    },
    Case {
        name: "no progress for a cancelled request",
        flags: &[],
        accept: || {
            started(vec![
                c2s(req(2, "tools/call", json!({"name": "slow", "_meta": {"progressToken": 7}}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 1}))),
                c2s(note("notifications/cancelled", json!({"requestId": 2}))),
                // The same token given again by a new request is in flight again.
                c2s(req(3, "tools/call", json!({"name": "slow", "_meta": {"progressToken": 7}}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 1}))),
            ])
        },
        reject: || {
            started(vec![
                c2s(req(2, "tools/call", json!({"name": "slow", "_meta": {"progressToken": 7}}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 1}))),
                c2s(note("notifications/cancelled", json!({"requestId": 2}))),
                s2c(note("notifications/progress", json!({"progressToken": 7, "progress": 2}))),
            ])
        },
        expect: ("session.progress.cancelled", 7, "/msg/params/progressToken", "warning"),
    },
    Case {
        name: "cancellation of an issued request",
        flags: &[],
        accept: || started(vec![c2s(req(5, "tools/call", json!({"name": "slow"}))), c2s(note("notifications/cancelled", json!({"requestId": 5})))]),
        reject: || started(vec![c2s(req(5, "tools/call", json!({"name": "slow"}))), c2s(note("notifications/cancelled", json!({"requestId": 6})))]),
        expect: ("session.cancel.unknown-request", 5, "/msg/params/requestId", "error"),
    },
    Case {
        name: "cancellation of a request issued the same way",
        flags: &[],
        accept: || started(vec![s2c(req(5, "roots/list", json!({}))), s2c(note("notifications/cancelled", json!({"requestId": 5})))]),
        reject: || started(vec![s2c(req(5, "roots/list", json!({}))), c2s(note("notifications/cancelled", json!({"requestId": 5})))]),
        expect: ("session.cancel.unknown-request", 5, "/msg/params/requestId", "error"),
    },
    Case {
        name: "the client does not cancel initialize",
        flags: &[],
        accept: || started(vec![c2s(req(2, "ping", json!({}))), c2s(note("notifications/cancelled", json!({"requestId": 2})))]),
        reject: || started(vec![c2s(note("notifications/cancelled", json!({"requestId": 1})))]),
        expect: ("session.cancel.initialize", 4, "/msg/params/requestId", "error"),
    },
    Case {
        name: "apps: a tool's UI resource is listed or read",
        flags: &["--ext", "apps"],
        accept: || listed(vec![ui_tool()], vec![c2s(req(3, "resources/read", json!({"uri": "ui://weather/forecast.html"})))]),
        reject: || listed(vec![ui_tool()], vec![]),
        expect: ("session.apps.ui-resource", 5, "/msg/result/tools/0/_meta/ui/resourceUri", "warning"),
    },
    Case {
        name: "apps: a tool's UI resource exists",
        flags: &["--ext", "apps"],
        accept: || {
            listed(vec![ui_tool()], vec![c2s(req(3, "resources/read", json!({"uri": "ui://weather/forecast.html"}))), s2c(ok(3, ui_contents("text/html;profile=mcp-app")))])
        },
        reject: || {
            let error = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32002, "message": "Resource not found"}});
            listed(vec![ui_tool()], vec![c2s(req(3, "resources/read", json!({"uri": "ui://weather/forecast.html"}))), s2c(error)])
        },
        expect: ("session.apps.ui-resource-missing", 7, "/msg/error", "error"),
    },
    Case {
        name: "apps: each message comes from the side that sends it",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}})))]),
        reject: || app_started(vec![v2h(note("ui/notifications/tool-input", json!({"arguments": {}})))]),
        expect: ("session.apps.wrong-side", 4, "/msg/method", "error"),
    },
    Case {
        name: "apps: the view's ui/initialize comes first",
        flags: &["--ext", "apps"],
        accept: || {
            let mut v = vec![v2h(note("ui/notifications/sandbox-proxy-ready", json!({})))];
            v.extend(app_start());
            v
        },
        reject: || {
            let mut v = vec![v2h(note("ui/notifications/size-changed", json!({"width": 300, "height": 200})))];
            v.extend(app_start());
            v
        },
        expect: ("session.apps.initialize-first", 2, "/msg/method", "error"),
    },
    Case {
        name: "apps: the view sends only ping before the ui/initialize result",
        flags: &["--ext", "apps"],
        accept: || {
            let mut v = app_start();
            v.insert(1, v2h(req(2, "ping", json!({}))));
            v.insert(2, h2v(ok(2, json!({}))));
            v
        },
        reject: || {
            let mut v = app_start();
            v.insert(1, v2h(req(2, "ui/open-link", json!({"url": "https://example.com"}))));
            v
        },
        expect: ("session.apps.view-early", 2, "/msg/method", "warning"),
    },
    Case {
        name: "apps: the host sends nothing before the view's initialized",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {"city": "Oslo"}})))]),
        reject: || {
            let mut v = app_start();
            v.insert(2, h2v(note("ui/notifications/tool-input", json!({"arguments": {"city": "Oslo"}}))));
            v
        },
        expect: ("session.apps.host-early", 3, "/msg/method", "error"),
    },
    Case {
        name: "apps: the host sends nothing when the view never sent ui/initialize",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}})))]),
        reject: || vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}})))],
        expect: ("session.apps.host-early", 1, "/msg/method", "error"),
    },
    Case {
        name: "apps: a host message before ui/initialize is the host's fault, on its line",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}})))]),
        reject: || {
            let mut v = vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}})))];
            v.extend(app_start());
            v
        },
        expect: ("session.apps.host-early", 1, "/msg/method", "error"),
    },
    Case {
        name: "apps: tool-input is sent at most once",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![h2v(note("ui/notifications/tool-input-partial", json!({"arguments": {}}))), h2v(note("ui/notifications/tool-input", json!({"arguments": {"city": "Oslo"}})))]),
        reject: || app_started(vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}}))), h2v(note("ui/notifications/tool-input", json!({"arguments": {}})))]),
        expect: ("session.apps.tool-input-once", 5, "/msg/method", "warning"),
    },
    Case {
        name: "apps: no tool-input-partial after tool-input",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![h2v(note("ui/notifications/tool-input-partial", json!({"arguments": {}}))), h2v(note("ui/notifications/tool-input-partial", json!({"arguments": {"city": "Os"}})))]),
        reject: || app_started(vec![h2v(note("ui/notifications/tool-input", json!({"arguments": {}}))), h2v(note("ui/notifications/tool-input-partial", json!({"arguments": {}})))]),
        expect: ("session.apps.partial-after-input", 5, "/msg/method", "error"),
    },
    Case {
        name: "apps: nothing after the teardown's answer",
        flags: &["--ext", "apps"],
        accept: || app_started(vec![v2h(note("ui/notifications/size-changed", json!({"width": 300, "height": 200}))), h2v(req(1, "ui/resource-teardown", json!({}))), v2h(ok(1, json!({})))]),
        reject: || app_started(vec![h2v(req(1, "ui/resource-teardown", json!({}))), v2h(ok(1, json!({}))), v2h(note("ui/notifications/size-changed", json!({"width": 300, "height": 200})))]),
        expect: ("session.apps.after-teardown", 6, "/msg", "warning"),
    },
    Case {
        name: "apps: a view calls only tools visible to apps",
        flags: &["--ext", "apps"],
        accept: || app_calls_listed(json!(["app"])),
        reject: || app_calls_listed(json!(["model"])),
        expect: ("session.apps.tool-visibility", 9, "/msg/params/name", "error"),
    },
];

fn jsonl(lines: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        out.extend(serde_json::to_vec(l).unwrap());
        out.push(b'\n');
    }
    out
}

/// The findings of `lines` by rules of the session rule table: (rule, line, pointer, severity).
fn session_findings(flags: &[&str], lines: &[Value]) -> Vec<(String, u64, String, String)> {
    let mut args = flags.to_vec();
    args.push("-");
    let (_, r) = check_json(&args, Some(&jsonl(lines)));
    let in_table = |id: &str| mcp_spec_types_cli::session::RULES.iter().any(|r| r.id == id);
    r.found.into_iter().filter(|f| in_table(&f.rule)).map(|f| (f.rule, f.line, f.pointer, f.severity)).collect()
}

#[test]
fn each_rule_accepts_and_rejects() {
    let mut cases = Cases::default();
    for c in CASES.iter().chain(tasks::CASES).chain(skills::CASES) {
        cases.check(&format!("{} (accept)", c.name), || {
            let found = session_findings(c.flags, &(c.accept)());
            if found.is_empty() {
                Ok(())
            } else {
                Err(format!("expected no session finding, found {found:?}"))
            }
        });
        cases.check(&format!("{} (reject)", c.name), || {
            let found = session_findings(c.flags, &(c.reject)());
            let (rule, line, pointer, severity) = c.expect;
            let want = vec![(rule.to_string(), line, pointer.to_string(), severity.to_string())];
            if found == want {
                Ok(())
            } else {
                Err(format!("expected {want:?}, found {found:?}"))
            }
        });
    }
    cases.finish();
}

/// Every rule in the table has a case, and the README's table lists every rule.
#[test]
fn every_rule_is_tested_and_documented() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for rule in mcp_spec_types_cli::session::RULES {
        let every = || CASES.iter().chain(tasks::CASES).chain(skills::CASES);
        assert!(every().any(|c| c.expect.0 == rule.id), "no case rejects with `{}`", rule.id);
        let severity = match rule.severity {
            mcp_spec_types::validate::Severity::Error => "error",
            mcp_spec_types::validate::Severity::Warning => "warning",
        };
        assert!(every().filter(|c| c.expect.0 == rule.id).all(|c| c.expect.3 == severity), "`{}` is a {severity}", rule.id);
        assert!(readme.contains(&format!("| `{}` |", rule.id)), "cli/README.md lists `{}`", rule.id);
    }
}

/// `--strict` makes a session warning an error (and fails the line).
#[test]
fn strict_makes_session_warnings_errors() {
    let lines = listed(vec![tool("echo", echo_schema())], vec![call(3, "ecco", json!({"message": "hi"}))]);
    let found = session_findings(&["--strict"], &lines);
    assert_eq!(found, vec![("session.tools.unlisted".to_string(), 6, "/msg/params/name".to_string(), "error".to_string())]);
}

/// A capture that starts mid-session cannot tell "never sent" from "sent before the capture":
/// the rules that need the whole session stay quiet on it.
#[test]
fn fragments_get_no_never_seen_findings() {
    let lines = vec![
        s2c(note("notifications/progress", json!({"progressToken": "p1", "progress": 1}))),
        c2s(note("notifications/cancelled", json!({"requestId": 6}))),
        c2s(req(3, "prompts/list", json!({"cursor": "page-3"}))),
        s2c(note("notifications/resources/updated", json!({"uri": "file:///a.txt"}))),
    ];
    assert_eq!(session_findings(&[], &lines), vec![]);
}

/// Each listing replaces the tools of the one before: a call is checked against the last.
#[test]
fn the_last_listing_decides() {
    let mut lines = listed(vec![tool("echo", echo_schema())], vec![]);
    lines.push(c2s(req(3, "tools/list", json!({}))));
    lines.push(s2c(ok(3, json!({"tools": [tool("echo", json!({"type": "object", "properties": {"message": {"type": "integer"}}}))]}))));
    lines.push(call(4, "echo", json!({"message": "hi"})));
    let found = session_findings(&[], &lines);
    assert_eq!(found, vec![("session.tools.input-schema".to_string(), 8, "/msg/params/arguments/message".to_string(), "error".to_string())]);
}

/// Compiled schemas are reused across listings, findings are not lost: a bad schema is reported
/// at every listing, and a good one listed again still checks the calls.
#[test]
fn relisting_reuses_schemas_and_reports_again() {
    let bad = tool("a", json!({"type": "object", "properties": {"a": {"type": 5}}}));
    let mut lines = listed(vec![bad.clone(), tool("echo", echo_schema())], vec![]);
    lines.push(c2s(req(3, "tools/list", json!({}))));
    lines.push(s2c(ok(3, json!({"tools": [bad, tool("echo", echo_schema())]}))));
    lines.push(call(4, "echo", json!({"message": 1})));
    let found = session_findings(&[], &lines);
    let invalid = |line| ("session.tools.schema-invalid".to_string(), line, "/msg/result/tools/0/inputSchema/properties/a/type".to_string(), "error".to_string());
    let input = ("session.tools.input-schema".to_string(), 8, "/msg/params/arguments/message".to_string(), "error".to_string());
    assert_eq!(found, vec![invalid(5), invalid(7), input]);
}

/// The host must reject a view's call of a tool not visible to apps: a result is reported too,
/// an error answer is not.
#[test]
fn apps_host_must_reject_hidden_tool_calls() {
    let mut accepted = app_calls_listed(json!(["model"]));
    accepted.push(h2v(ok(2, text_result(json!({})))));
    let found = session_findings(&["--ext", "apps"], &accepted);
    let call = ("session.apps.tool-visibility".to_string(), 9, "/msg/params/name".to_string(), "error".to_string());
    assert_eq!(found, vec![call.clone(), ("session.apps.tool-visibility".to_string(), 10, "/msg/result".to_string(), "error".to_string())]);
    let mut rejected = app_calls_listed(json!(["model"]));
    rejected.push(h2v(json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "not visible to apps"}})));
    assert_eq!(session_findings(&["--ext", "apps"], &rejected), vec![call]);
}

/// Ids are each side's own: the host's request 1 and the view's request 1 wait side by side,
/// and each answer is typed by its own request.
#[test]
fn apps_ids_are_numbered_per_side() {
    let lines = app_started(vec![
        v2h(req(2, "ui/request-display-mode", json!({"mode": "fullscreen"}))),
        h2v(req(2, "ui/resource-teardown", json!({}))),
        h2v(ok(2, json!({"mode": "fullscreen"}))),
        v2h(ok(2, json!({}))),
    ]);
    let (_, r) = check_json(&["--ext", "apps", "-"], Some(&jsonl(&lines)));
    assert!(r.found.is_empty(), "{:?}", r.found);
    // The host's answer typed as `ui/request-display-mode`'s result: a bad `mode` is caught.
    let mut bad = lines.clone();
    bad[5] = h2v(ok(2, json!({"mode": "sideways"})));
    let (_, r) = check_json(&["--ext", "apps", "-"], Some(&jsonl(&bad)));
    assert!(r.found.iter().any(|f| f.line == 6 && f.pointer == "/msg/result/mode"), "{:?}", r.found);
}
