//! The layer's own answers in enforce mode: the JSON-RPC error a request's version defines for
//! what it broke, naming each rule and pointer, with the HTTP status the transport gives it.
//!
//! The code: -32700 for a body that is not JSON, -32020 (`HeaderMismatch`, HTTP 400) for the
//! 2026-07-28 header rules, -32602 for a finding inside `params`, -32600 for any other (the
//! envelope, the id, the lifecycle); `deserialize` goes with the finding it comes with. The body
//! is `{"jsonrpc":"2.0","id":ID,"error":{code, message:"[rule] pointer: text",
//! data:{violations:[{pointer,rule,message}],omitted}}}`, the shape
//! `mcp_spec_types::rpc::invalid_params` gives.

use http::StatusCode;
use mcp_spec_types::rpc::{INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR};
use mcp_spec_types::tree::Node;
use serde_json::{json, Value};

use crate::inspect::Finding;

/// 2026-07-28's error for a header that disagrees with the body (its transports page).
pub use mcp_spec_types::v2026_07_28::HEADER_MISMATCH;

/// The rules whose breach the server answers with [`HEADER_MISMATCH`].
pub const HEADER_RULES: [&str; 5] = ["transport.protocol-version-meta", "transport.mcp-method-header", "transport.mcp-name-header", "transport.mcp-param-header", "transport.header-mismatch-400"];

/// Most violations named in one answer; the rest are counted in `omitted`.
const NAMED_MAX: usize = 32;

/// A message its version's type does not read: it comes with the finding that says why (on the
/// envelope, or in `params`), which picks the code.
const DESERIALIZE: &str = "deserialize";

/// The JSON-RPC code for one finding.
pub fn code_of(f: &Finding) -> i64 {
    if f.rule == DESERIALIZE {
        INVALID_PARAMS
    } else if f.rule == "json" {
        PARSE_ERROR
    } else if HEADER_RULES.contains(&f.rule) {
        HEADER_MISMATCH
    } else if member_pointer(&f.pointer).1.starts_with("/params") {
        INVALID_PARAMS
    } else {
        INVALID_REQUEST
    }
}

/// Which code wins when one message broke several rules: the one about the outermost part.
fn rank(code: i64) -> u8 {
    match code {
        PARSE_ERROR => 0,
        HEADER_MISMATCH => 1,
        INVALID_REQUEST => 2,
        _ => 3,
    }
}

/// A batch member's index and the pointer inside it; `(None, pointer)` for a finding on the
/// whole body (or in a body that is one message).
fn member_pointer(pointer: &str) -> (Option<usize>, &str) {
    let Some(rest) = pointer.strip_prefix('/') else { return (None, pointer) };
    let end = rest.find('/').unwrap_or(rest.len());
    let head = &rest[..end];
    match head.parse::<usize>() {
        Ok(i) if head.bytes().all(|b| b.is_ascii_digit()) => (Some(i), &rest[end..]),
        _ => (None, pointer),
    }
}

/// The layer's answer to a request it refuses for `refused` (not empty): its status, the code of
/// its (first) error, and its body.
/// `body` is the parsed request body (`None` when it is not JSON); `stateless`: the request had no
/// session (2026-07-28 answers its errors with 400 there).
pub fn refuse(body: Option<Node<'_>>, refused: &[&Finding], stateless: bool) -> (StatusCode, i64, Vec<u8>) {
    let code = best_code(refused);
    let Some(items) = body.and_then(Node::as_array) else {
        let id = body.and_then(request_id);
        let status = if code == HEADER_MISMATCH || code == PARSE_ERROR || stateless || id.is_none() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
        return (status, code, error(id, code, refused).to_string().into_bytes());
    };
    // A batch (2025-03-26): every request member gets an error, its own or one naming the member
    // that broke a rule; a finding on the batch itself gets one error without an id.
    if refused.iter().any(|f| member_pointer(&f.pointer).0.is_none()) {
        return (StatusCode::BAD_REQUEST, code, error(None, code, refused).to_string().into_bytes());
    }
    let mut answers = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(id) = request_id(item) else { continue };
        let own: Vec<&Finding> = refused.iter().copied().filter(|f| member_pointer(&f.pointer).0 == Some(i)).collect();
        answers.push(if own.is_empty() { error(Some(id), INVALID_REQUEST, refused) } else { error(Some(id), best_code(&own), &own) });
    }
    if answers.is_empty() {
        return (StatusCode::BAD_REQUEST, code, error(None, code, refused).to_string().into_bytes());
    }
    (StatusCode::OK, code, Value::Array(answers).to_string().into_bytes())
}

fn best_code(refused: &[&Finding]) -> i64 {
    refused.iter().map(|f| code_of(f)).min_by_key(|c| rank(*c)).unwrap_or(INVALID_REQUEST)
}

/// A request's id, when it is one a response can carry (a string or an integer).
fn request_id(message: Node<'_>) -> Option<Value> {
    let o = message.as_object()?;
    o.get("method")?;
    let id = o.get("id")?;
    (id.is_string() || id.is_i64() || id.is_u64()).then(|| id.to_value())
}

fn error(id: Option<Value>, code: i64, refused: &[&Finding]) -> Value {
    let first = refused.iter().find(|f| code_of(f) == code).or(refused.first());
    let message = match first {
        Some(f) => format!("[{}] {}: {}", f.rule, if f.pointer.is_empty() { "(root)" } else { &f.pointer }, f.message),
        None => "refused".to_string(),
    };
    let violations: Vec<Value> = refused.iter().take(NAMED_MAX).map(|f| json!({"pointer": f.pointer, "rule": f.rule, "message": f.message})).collect();
    let data = json!({"violations": violations, "omitted": refused.len().saturating_sub(NAMED_MAX)});
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message, "data": data}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_spec_types::tree::Doc;
    use mcp_spec_types::validate::Severity;

    fn f(rule: &'static str, pointer: &str) -> Finding {
        Finding { rule, severity: Severity::Error, pointer: pointer.to_string(), message: "m".to_string() }
    }

    fn answer(body: &str, refused: &[Finding], stateless: bool) -> (StatusCode, Value) {
        let doc = Doc::parse(body).ok();
        let r: Vec<&Finding> = refused.iter().collect();
        let (status, _, bytes) = refuse(doc.as_ref().map(Doc::root), &r, stateless);
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[test]
    fn codes_follow_the_part_broken() {
        assert_eq!(code_of(&f("json", "")), PARSE_ERROR);
        assert_eq!(code_of(&f("transport.mcp-method-header", "")), HEADER_MISMATCH);
        assert_eq!(code_of(&f("type", "/params/name")), INVALID_PARAMS);
        assert_eq!(code_of(&f("type", "/3/params/name")), INVALID_PARAMS);
        assert_eq!(code_of(&f("jsonrpc.id", "/id")), INVALID_REQUEST);
        assert_eq!(code_of(&f("jsonrpc.id", "/2/id")), INVALID_REQUEST);
        assert_eq!(code_of(&f("session.lifecycle.initialize-first", "")), INVALID_REQUEST);
        assert_eq!(member_pointer("/12/params/x"), (Some(12), "/params/x"));
        assert_eq!(member_pointer("/12"), (Some(12), ""));
        assert_eq!(member_pointer("/params"), (None, "/params"));
    }

    #[test]
    fn a_request_gets_its_id_and_every_violation() {
        let (status, v) = answer(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":3}}"#, &[f("type", "/params/name"), f("jsonrpc.version", "/jsonrpc")], false);
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["id"], 7);
        assert_eq!(v["error"]["code"], INVALID_REQUEST);
        assert_eq!(v["error"]["message"], "[jsonrpc.version] /jsonrpc: m");
        assert_eq!(v["error"]["data"]["violations"][0]["rule"], "type");
        assert_eq!(v["error"]["data"]["violations"][0]["pointer"], "/params/name");
        assert_eq!(v["error"]["data"]["violations"][1]["rule"], "jsonrpc.version");
        let (status, v) = answer(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#, &[f("type", "/params/name")], true);
        assert_eq!((status, v["error"]["code"].as_i64()), (StatusCode::BAD_REQUEST, Some(INVALID_PARAMS)));
    }

    #[test]
    fn no_usable_id_is_null_and_400() {
        for body in [r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#, "{nope"] {
            let (status, v) = answer(body, &[f("jsonrpc.id", "/id")], false);
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert!(v["id"].is_null(), "{body}");
        }
        let (_, v) = answer("{nope", &[f("json", "")], false);
        assert_eq!(v["error"]["code"], PARSE_ERROR);
    }

    #[test]
    fn a_batch_answers_each_request_member() {
        let body = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":3}}]"#;
        let (status, v) = answer(body, &[f("type", "/2/params/name")], false);
        assert_eq!(status, StatusCode::OK);
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!((&a[0]["id"], &a[0]["error"]["code"]), (&json!(1), &json!(INVALID_REQUEST)));
        assert_eq!(a[0]["error"]["data"]["violations"][0]["pointer"], "/2/params/name");
        assert_eq!((&a[1]["id"], &a[1]["error"]["code"]), (&json!("b"), &json!(INVALID_PARAMS)));
        let (status, v) = answer(body, &[f("jsonrpc.batch", "")], false);
        assert_eq!((status, v["error"]["code"].as_i64(), v["id"].is_null()), (StatusCode::BAD_REQUEST, Some(INVALID_REQUEST), true));
    }
}
