//! The JSON-RPC envelope rules of the basic protocol.

use crate::tree::Node;

use super::{describe, Cx};

/// Checks a message's envelope: `jsonrpc` is `"2.0"`; a request or response id is a string or an
/// integer in the signed 64-bit range, never null; a notification has no id; a response sets exactly one
/// of `result` and `error`; an error has an integer `code` and a string `message`.
pub fn envelope<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else {
        cx.error("jsonrpc.message", format!("a message must be an object, found {}", describe(v)));
        return;
    };
    match o.get("jsonrpc") {
        Some(s) if s.as_str() == Some("2.0") => {}
        Some(other) => cx.key("jsonrpc", |cx| cx.error("jsonrpc.version", format!("`jsonrpc` must be \"2.0\", found {}", describe(other)))),
        None => cx.error("jsonrpc.version", "a message must carry `\"jsonrpc\": \"2.0\"`"),
    }
    let is_request = o.contains_key("method");
    match o.get("id") {
        Some(id) if id.is_null() => cx.key("id", |cx| cx.error("jsonrpc.id", "an id must be a string or an integer, never null")),
        // Requests and the responses that answer them share one rule: `RequestId` reads i64 integers only.
        Some(n) if n.is_u64() && !n.is_i64() => {
            cx.key("id", |cx| cx.error("jsonrpc.id", format!("an integer id must be within the signed 64-bit range, found {n}")))
        }
        Some(id) if id.is_number() && !id.is_i64() => {
            cx.key("id", |cx| cx.error("jsonrpc.id", format!("an id must be a string or an integer, found {}", describe(id))))
        }
        Some(id) if !(id.is_string() || id.is_number()) => {
            cx.key("id", |cx| cx.error("jsonrpc.id", format!("an id must be a string or an integer, found {}", describe(id))))
        }
        _ => {}
    }
    if is_request {
        return;
    }
    match (o.get("result"), o.get("error")) {
        (Some(_), Some(_)) => cx.error("jsonrpc.response", "a response must not set both `result` and `error`"),
        (None, None) if o.contains_key("id") => cx.error("jsonrpc.response", "a response must set `result` or `error`"),
        (None, None) => cx.error("jsonrpc.message", "not a request, notification or response: no `method`, `result` or `error`"),
        (None, Some(e)) => cx.key("error", |cx| error_object(e, cx)),
        (Some(_), None) => {
            if !o.contains_key("id") {
                cx.error("jsonrpc.id", "a successful response must carry the id of its request");
            }
        }
    }
}

/// The part of [`envelope`] a typed response cannot express: exactly one of `result` and `error`.
pub fn response_fields<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    if o.contains_key("result") && o.contains_key("error") {
        cx.error("jsonrpc.response", "a response must not set both `result` and `error`");
    }
}

fn error_object<'v>(e: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = e.as_object() else {
        cx.error("jsonrpc.error", format!("an error must be an object, found {}", describe(e)));
        return;
    };
    match o.get("code") {
        Some(n) if n.is_i64() => {}
        Some(c) => cx.key("code", |cx| cx.error("jsonrpc.error", format!("an error code must be an integer, found {}", describe(c)))),
        None => cx.error("jsonrpc.error", "an error must have a `code`"),
    }
    match o.get("message") {
        Some(s) if s.is_string() => {}
        Some(m) => cx.key("message", |cx| cx.error("jsonrpc.error", format!("an error message must be a string, found {}", describe(m)))),
        None => cx.error("jsonrpc.error", "an error must have a `message`"),
    }
}
