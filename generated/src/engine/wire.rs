// Reading one line as a JSON-RPC message at the envelope level, for any protocol version, and
// writing the few messages the engine writes itself. Params and results stay `Value`s: the
// application reads them as its version's types.

use serde_json::{Map, Value};

use super::{Dropped, Id};
use crate::runtime::RpcError;

/// One message, classified by the JSON-RPC envelope.
pub(crate) enum Incoming {
    Request { id: Id, method: String, params: Option<Value> },
    Notification { method: String, params: Option<Value> },
    Result { id: Id, result: Value },
    Error { id: Option<Id>, error: RpcError },
}

/// What a line that is not a message still says: its request id when it had a readable one, so a
/// receiver can answer it, and whether it was JSON at all.
pub(crate) struct Unreadable {
    pub reason: Dropped,
    /// A request's id, when the object had a `method` and a readable `id`.
    pub request_id: Option<Id>,
}

pub(crate) fn classify(line: &[u8]) -> Result<Incoming, Unreadable> {
    let bad = |reason| Unreadable { reason, request_id: None };
    let value: Value = serde_json::from_slice(line).map_err(|e| bad(Dropped::NotJson(e.to_string())))?;
    let Value::Object(mut o) = value else {
        // Batches (2025-03-26 only) are not taken apart here: a line is one message.
        return Err(bad(Dropped::Malformed("not a JSON object")));
    };
    let id = match o.remove("id") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(v) => match Id::from_value(v) {
            Some(id) => Some(Some(id)),
            None => return Err(bad(Dropped::Malformed("`id` is not a string or an integer"))),
        },
    };
    let method = match o.remove("method") {
        None => None,
        Some(Value::String(m)) => Some(m),
        Some(_) => return Err(Unreadable { reason: Dropped::Malformed("`method` is not a string"), request_id: id.flatten() }),
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        let request_id = if method.is_some() { id.flatten() } else { None };
        return Err(Unreadable { reason: Dropped::Malformed("`jsonrpc` is not \"2.0\""), request_id });
    }
    match (method, id) {
        (Some(_), Some(None)) => Err(bad(Dropped::Malformed("a request's `id` is null"))),
        (Some(method), Some(Some(id))) => match o.remove("params") {
            p @ (None | Some(Value::Object(_))) => Ok(Incoming::Request { id, method, params: p }),
            Some(_) => Err(Unreadable { reason: Dropped::Malformed("`params` is not an object"), request_id: Some(id) }),
        },
        (Some(method), None) => match o.remove("params") {
            p @ (None | Some(Value::Object(_))) => Ok(Incoming::Notification { method, params: p }),
            Some(_) => Err(bad(Dropped::Malformed("`params` is not an object"))),
        },
        (None, id) => match (o.remove("result"), o.remove("error"), id) {
            (Some(result), None, Some(Some(id))) => Ok(Incoming::Result { id, result }),
            (None, Some(error), id) => match serde_json::from_value::<RpcError>(error) {
                Ok(error) => Ok(Incoming::Error { id: id.flatten(), error }),
                Err(_) => Err(bad(Dropped::Malformed("`error` is not a JSON-RPC error object"))),
            },
            (Some(_), Some(_), _) => Err(bad(Dropped::Malformed("a response sets both `result` and `error`"))),
            (Some(_), None, _) => Err(bad(Dropped::Malformed("a result without an id"))),
            (None, None, _) => Err(bad(Dropped::Malformed("neither a request, a notification nor a response"))),
        },
    }
}

fn envelope() -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("jsonrpc".into(), Value::from("2.0"));
    o
}

pub(crate) fn result(id: &Id, result: Value) -> Vec<u8> {
    let mut o = envelope();
    o.insert("id".into(), id.to_value());
    o.insert("result".into(), result);
    line(o)
}

/// `id` is `None` only when the request's id could not be read: written as `"id": null`.
pub(crate) fn error(id: Option<&Id>, error: &RpcError) -> Vec<u8> {
    let mut o = envelope();
    o.insert("id".into(), id.map_or(Value::Null, Id::to_value));
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

pub(crate) fn line(o: Map<String, Value>) -> Vec<u8> {
    // A map of `Value`s always serializes; JSON text never holds a raw newline.
    serde_json::to_vec(&Value::Object(o)).unwrap_or_default()
}
