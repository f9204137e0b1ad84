//! The hostile requests of the layer's tests, one of each kind, with what enforce mode answers:
//! used in process against the engine (tests/engine.rs) and over real HTTP against rmcp and the
//! engine (the examples package's tests/guarded_http.rs includes this file).

use http::StatusCode;
use serde_json::{json, Value};

pub const V: &str = "2025-11-25";
pub const V26: &str = "2026-07-28";

/// A 2026-07-28 request's `_meta`.
pub fn meta26() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": V26, "io.modelcontextprotocol/clientCapabilities": {}})
}

/// One hostile request: what it is, its body and headers, and what enforce mode answers.
pub struct Hostile {
    pub name: &'static str,
    pub body: String,
    pub headers: Vec<(&'static str, String)>,
    pub rule: &'static str,
    pub pointer: &'static str,
    pub code: i64,
    pub status: StatusCode,
    /// The id the answer carries (null when the request has none a response can carry).
    pub id: Value,
}

/// What enforce mode answers: the rule and pointer named, the code, the HTTP status, the id.
type Expect = (&'static str, &'static str, i64, u16, Value);

fn hostile(name: &'static str, body: impl Into<String>, headers: Vec<(&'static str, String)>, expect: Expect) -> Hostile {
    let (rule, pointer, code, status, id) = expect;
    Hostile { name, body: body.into(), headers, rule, pointer, code, status: StatusCode::from_u16(status).unwrap(), id }
}

/// The hostile requests: in session `s` (2025-11-25) after its `tools/list` (id 1), or without a
/// session in 2026-07-28. (A 2026-07-28 `Mcp-Param-*` header is checked against the marks of a
/// `tools/list` on the same stream; without a session each exchange has its own, so it is not.)
pub fn hostiles(s: &str) -> Vec<Hostile> {
    let h = || vec![("mcp-session-id", s.to_string()), ("mcp-protocol-version", V.to_string())];
    let h26 = |method: &str| vec![("mcp-protocol-version", V26.to_string()), ("mcp-method", method.to_string())];
    let call26 = |id: u32, name: &str, args: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args, "_meta": meta26()}}).to_string();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    vec![
        hostile("a body that is not JSON", "{\"jsonrpc\":", h(), ("json", "", -32700, 400, Value::Null)),
        hostile("nesting 200 levels deep", deep, h(), ("json", "", -32700, 400, Value::Null)),
        hostile("no jsonrpc member", r#"{"id":4,"method":"ping"}"#, h(), ("jsonrpc.version", "", -32600, 200, json!(4))),
        hostile("jsonrpc 1.0", r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#, h(), ("jsonrpc.version", "/jsonrpc", -32600, 200, json!(5))),
        hostile("a null id", r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, h(), ("jsonrpc.id", "/id", -32600, 400, Value::Null)),
        hostile("a fractional id", r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, h(), ("jsonrpc.id", "/id", -32600, 400, Value::Null)),
        hostile("an object id", r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, h(), ("jsonrpc.id", "/id", -32600, 400, Value::Null)),
        hostile("a method that is a number", r#"{"jsonrpc":"2.0","id":6,"method":7}"#, h(), ("type", "/method", -32600, 200, json!(6))),
        hostile("a batch in 2025-11-25", r#"[{"jsonrpc":"2.0","id":8,"method":"ping"}]"#, h(), ("jsonrpc.batch", "", -32600, 400, Value::Null)),
        hostile("a tool name that is a number", r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":3}}"#, h(), ("type", "/params/name", -32602, 200, json!(9))),
        hostile("arguments that are an array", r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":[]}}"#, h(), ("type", "/params/arguments", -32602, 200, json!(10))),
        hostile("arguments against the listed inputSchema", r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"convert","arguments":{"value":1,"from":"parsecs","to":"feet"}}}"#, h(), ("session.tools.input-schema", "/params/arguments/from", -32602, 200, json!(11))),
        hostile("a _meta key with a space", r#"{"jsonrpc":"2.0","id":12,"method":"ping","params":{"_meta":{"bad key/x":1}}}"#, h(), ("meta.key-name", "/params/_meta/bad key~1x", -32602, 200, json!(12))),
        hostile("a uri that is not one", r#"{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{"uri":"not a uri"}}"#, h(), ("format.uri", "/params/uri", -32602, 200, json!(13))),
        hostile("a log level not in the enum", r#"{"jsonrpc":"2.0","id":14,"method":"logging/setLevel","params":{"level":"loud"}}"#, h(), ("enum", "/params/level", -32602, 200, json!(14))),
        hostile("a progress token that is an object", r#"{"jsonrpc":"2.0","id":15,"method":"tools/list","params":{"_meta":{"progressToken":{}}}}"#, h(), ("type", "/params/_meta/progressToken", -32602, 200, json!(15))),
        hostile("a request id used before in the session", r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, h(), ("stream.id-reused", "/id", -32600, 200, json!(1))),
        hostile("a server's request sent by the client", r#"{"jsonrpc":"2.0","id":51,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#, h(), ("unknown-variant", "/method", -32600, 200, json!(51))),
        hostile("a capability the server did not declare", r#"{"jsonrpc":"2.0","id":54,"method":"resources/subscribe","params":{"uri":"file:///x"}}"#, h(), ("session.capabilities.server", "/method", -32600, 200, json!(54))),
        hostile("progress for a token no request gave", r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"nobody","progress":1}}"#, h(), ("session.progress.token", "/params/progressToken", -32602, 400, Value::Null)),
        hostile("initialize without clientInfo", r#"{"jsonrpc":"2.0","id":17,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#, vec![], ("required", "/params", -32602, 400, json!(17))),
        hostile("cancelling initialize", r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}"#, h(), ("session.cancel.initialize", "/params/requestId", -32602, 400, Value::Null)),
        hostile("2026-07-28: Mcp-Method not the body's", json!({"jsonrpc": "2.0", "id": 20, "method": "tools/list", "params": {"_meta": meta26()}}).to_string(), h26("prompts/list"), ("transport.mcp-method-header", "/method", -32020, 400, json!(20))),
        hostile("2026-07-28: tools/call without Mcp-Name", call26(21, "echo", json!({})), h26("tools/call"), ("transport.mcp-name-header", "/params/name", -32020, 400, json!(21))),
        hostile("2026-07-28: _meta without protocolVersion", json!({"jsonrpc": "2.0", "id": 24, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}}).to_string(), h26("tools/list"), ("required", "/params/_meta", -32602, 400, json!(24))),
    ]
}

