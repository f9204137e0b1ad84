//! Reading one line as a JSON-RPC message at the envelope level, for any protocol version, and
//! writing the few messages the engine writes itself. A line is parsed once, into a compact tree
//! (`tree::Doc`: 8 bytes per value and key, strings borrowed from the line); it is classified and
//! validated on that tree, and only what reaches the application (params, results) is made a
//! `Value`, which its version's types read.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{Dropped, Id};
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::tree::{Doc, Kind, Node};
use mcp_spec_types::write::WriteJson;

/// One message, classified by the JSON-RPC envelope; its parts are nodes of the line's tree.
pub(crate) enum Incoming<'d> {
    Request { id: Id, method: &'d str, params: Option<Node<'d>>, message: Node<'d> },
    Notification { method: &'d str, params: Option<Node<'d>> },
    Result { id: Id, result: Node<'d> },
    Error { id: Option<Id>, error: RpcError },
}

/// A line that is not a message the engine takes, and whether it gets an error answer: as
/// `rpc::read_message` decides, a request does (with its id when that reads, else `null`), and
/// so does what is no message at all; a notification or a response does not.
pub(crate) struct Unreadable {
    pub reason: Dropped,
    /// `Some(id)`: answer it, with `"id": null` when `id` is `None`.
    pub answer: Option<Option<Id>>,
}

/// The line's tree; what serde_json says of a line that is no JSON (its own words, the tree's error).
pub(crate) fn parse(line: &[u8]) -> Result<Doc<'_>, Unreadable> {
    Doc::parse_slice(line).map_err(|e| Unreadable { reason: Dropped::NotJson(e.to_string()), answer: Some(None) })
}

/// An id as JSON-RPC gives it: a string, or a number that is an `i64`.
pub(crate) fn id_of(node: Node<'_>) -> Option<Id> {
    match node.kind() {
        Kind::Number(n) => n.as_i64().map(Id::Number),
        Kind::String(s) => Some(Id::String(s.to_owned())),
        _ => None,
    }
}

/// Classifies one message: a line's root, or a member of a batch.
pub(crate) fn classify(node: Node<'_>) -> Result<Incoming<'_>, Unreadable> {
    let o = match node.kind() {
        Kind::Object(o) => o,
        // Batches are taken apart by the endpoint, in a 2025-03-26 session only.
        Kind::Array(_) => return Err(Unreadable { reason: Dropped::Malformed("a JSON-RPC batch, which only protocol version 2025-03-26 has"), answer: Some(None) }),
        _ => return Err(Unreadable { reason: Dropped::Malformed("not a JSON object"), answer: Some(None) }),
    };
    // One pass over the envelope's keys (a repeated key: its last value, as a `Value` keeps).
    let (mut jsonrpc, mut method, mut id, mut params, mut result, mut error) = (None, None, None, None, None, None);
    for (key, value) in o.iter() {
        match key {
            "jsonrpc" => jsonrpc = Some(value),
            "method" => method = Some(value),
            "id" => id = Some(value),
            "params" => params = Some(value),
            "result" => result = Some(value),
            "error" => error = Some(value),
            _ => {}
        }
    }
    let (has_method, has_id) = (method.is_some(), id.is_some());
    // Older versions' peers answer what they could not read with `"id": null`.
    let null_id = id.is_some_and(Node::is_null);
    let is_response = !has_method && (result.is_some() || error.is_some());
    // An id that does not read still makes a request of it, answered with a null id.
    let id = id.and_then(id_of);
    let answer = match (has_method, has_id) {
        (true, true) => Some(id.clone()),
        (true, false) => None,
        (false, _) if is_response => None,
        (false, _) => Some(None),
    };
    let bad = |reason: &'static str| Unreadable { reason: Dropped::Malformed(reason), answer: answer.clone() };
    if jsonrpc.and_then(Node::as_str) != Some("2.0") {
        return Err(bad("`jsonrpc` is not \"2.0\""));
    }
    if has_id && id.is_none() && !(is_response && null_id) {
        return Err(bad("`id` is not a string or an integer"));
    }
    if is_response {
        return match (result, error, id) {
            (Some(result), None, Some(id)) => Ok(Incoming::Result { id, result }),
            (Some(_), None, None) => Err(bad("a result without an id")),
            (None, Some(error), id) => match RpcError::deserialize(error) {
                Ok(error) => Ok(Incoming::Error { id, error }),
                Err(_) => Err(bad("`error` is not a JSON-RPC error object")),
            },
            _ => Err(bad("a response sets both `result` and `error`")),
        };
    }
    let Some(method) = method.and_then(Node::as_str) else {
        return Err(bad(if has_method { "`method` is not a string" } else { "neither a request, a notification nor a response" }));
    };
    if params.is_some_and(|p| !p.is_object()) {
        return Err(bad("`params` is not an object"));
    }
    Ok(match id {
        Some(id) => Incoming::Request { id, method, params, message: node },
        None => Incoming::Notification { method, params },
    })
}

/// What a `Value` of this JSON would be; for the parts handed to the application. Read through
/// the tree's `Deserializer`: measured the fastest way on the engine bench's messages (the
/// answer's `result`: 0.71 us, against 0.93 for `Node::to_value` and 1.2 for reading the node's
/// text again with serde_json or the crate's reader).
pub(crate) fn value(node: Node<'_>) -> Value {
    // A `Value` takes any JSON; the fallback is never taken.
    Value::deserialize(node).unwrap_or_else(|_| node.to_value())
}

fn envelope() -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("jsonrpc".into(), Value::from("2.0"));
    o
}

/// An answer, `result` written as it is (its `WriteJson`), not turned into a `Value` first. The
/// envelope's keys are in the order a `Map` of them is written in (sorted), so that an answer
/// that is a `Value` comes out as it did when the whole line was one.
pub(crate) fn result<T: WriteJson + ?Sized>(id: &Id, result: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(b"{\"id\":");
    match id {
        Id::Number(n) => n.write_json(&mut out),
        Id::String(s) => s.write_json(&mut out),
    }
    out.extend_from_slice(b",\"jsonrpc\":\"2.0\",\"result\":");
    result.write_json(&mut out);
    out.push(b'}');
    out
}

/// `id` is `None` only when the request's id could not be read: then no `id` key, or
/// `"id": null` with `null_id` (see `Endpoint::null_id`).
pub(crate) fn error(id: Option<&Id>, null_id: bool, error: &RpcError) -> Vec<u8> {
    let mut o = envelope();
    if let Some(id) = id.map(Id::to_value).or(null_id.then_some(Value::Null)) {
        o.insert("id".into(), id);
    }
    // An `RpcError` always serializes.
    o.insert("error".into(), serde_json::to_value(error).unwrap_or(Value::Null));
    line(o)
}

pub(crate) fn notification(method: &str, params: Map<String, Value>) -> Vec<u8> {
    let mut o = envelope();
    o.insert("method".into(), Value::from(method));
    o.insert("params".into(), Value::Object(params));
    line(o)
}

/// JSON text already written (by the crate's writer), put in an envelope as it is.
pub(crate) struct Written(pub Vec<u8>);

impl WriteJson for Written {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0)
    }
}

pub(crate) fn line(o: Map<String, Value>) -> Vec<u8> {
    // The crate's writer: serde_json's bytes, faster; JSON text never holds a raw newline.
    o.to_json_vec()
}
