//! Reading a recording's `http` objects (cli/README.md, "Recording with HTTP context"): on a line
//! of its own (`at`: request, response, event, end) or on a message's wrapper (`part`). Keys the
//! reader does not use are ignored (a bridge adds its own).

use mcp_spec_types::tree::{Node, Object};

use super::{Headers, HttpLine, MsgAt, Part};
use mcp_spec_types::validate::describe;

/// What an `http` object is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Http {
    Line(Box<HttpLine>),
    Message(MsgAt),
}

fn uint(o: Object<'_>, key: &str) -> Result<Option<u64>, String> {
    match o.get(key).filter(|v| !v.is_null()) {
        None => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| format!("`http.{key}` must be a non-negative integer, found {}", describe(v))),
    }
}

fn string(o: Object<'_>, key: &str) -> Result<Option<String>, String> {
    match o.get(key).filter(|v| !v.is_null()) {
        None => Ok(None),
        Some(v) if v.is_string() => Ok(Some(super::cut(v.as_str().unwrap_or_default().to_string()))),
        Some(v) => Err(format!("`http.{key}` must be a string, found {}", describe(v))),
    }
}

fn headers(o: Object<'_>) -> Result<Headers, String> {
    let mut h = Headers::default();
    match o.get("headers").filter(|v| !v.is_null()) {
        None => {}
        Some(m) if m.is_object() => {
            // In the order a `Value` has them (sorted): the first bad one is the one reported.
            let mut members: Vec<(&str, Node)> = m.as_object().into_iter().flat_map(|m| m.iter()).collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            for (name, value) in members {
                match value.as_str() {
                    Some(s) => h.add(name, s),
                    None => return Err(format!("`http.headers.{}` must be a string, found {}", crate::bounded::clip(name), describe(value))),
                }
            }
        }
        Some(v) => return Err(format!("`http.headers` must be an object, found {}", describe(v))),
    }
    Ok(h)
}

/// Reads an `http` object; `with_message` says whether its line carries a `msg`. `Err` says why
/// it is not one (reported as `line.http`).
pub fn read(v: Node<'_>, with_message: bool) -> Result<Http, String> {
    let Some(o) = v.as_object() else { return Err(format!("`http` must be an object, found {}", describe(v))) };
    let x = uint(o, "x")?.ok_or("`http.x` (the exchange's number) is missing")?;
    if with_message {
        let part = match o.get("part").and_then(Node::as_str) {
            Some("request") => Part::Request,
            Some("response") => Part::Response,
            _ => return Err("`http.part` of a message must be \"request\" or \"response\"".into()),
        };
        return Ok(Http::Message(MsgAt { x, part, event: uint(o, "event")?, event_id: string(o, "eventId")? }));
    }
    let line = match o.get("at").and_then(Node::as_str) {
        Some("request") => HttpLine::Request { x, method: string(o, "method")?.unwrap_or_default(), path: string(o, "path")?.unwrap_or_default(), query: string(o, "query")?, headers: headers(o)? },
        Some("response") => {
            let status = uint(o, "status")?.filter(|s| (100..1000).contains(s)).ok_or("`http.status` must be an HTTP status (100 to 999)")?;
            HttpLine::Response { x, status: status as u16, headers: headers(o)? }
        }
        Some("event") => HttpLine::Event {
            x,
            event: uint(o, "event")?.unwrap_or(0),
            event_id: string(o, "eventId")?,
            kind: string(o, "type")?,
            data: string(o, "data")?.filter(|d| !d.is_empty()),
            retry: uint(o, "retry")?,
        },
        Some("end") => HttpLine::End {
            x,
            bytes: uint(o, "bytes")?,
            complete: match o.get("complete") {
                None => true,
                Some(v) if v.is_boolean() => v.as_bool() == Some(true),
                Some(v) => return Err(format!("`http.complete` must be a boolean, found {}", describe(v))),
            },
            error: string(o, "error")?,
        },
        _ => return Err("`http.at` must be \"request\", \"response\", \"event\" or \"end\" on a line without `msg`".into()),
    };
    Ok(Http::Line(Box::new(line)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn read(v: &Value, with_message: bool) -> Result<Http, String> {
        super::read(mcp_spec_types::tree::Doc::from_value(v).root(), with_message)
    }

    #[test]
    fn lines_and_messages_are_read_and_unknown_keys_ignored() {
        let v = json!({"x": 3, "at": "request", "method": "POST", "path": "/mcp", "leg": "client", "headers": {"Accept": "a", "cookie": "secret", "mcp-session-id": "s"}});
        let Http::Line(l) = read(&v, false).unwrap() else { panic!() };
        let HttpLine::Request { x, headers, query, .. } = *l else { panic!() };
        assert_eq!((x, headers.accept.as_deref(), headers.session_id.as_deref(), query), (3, Some("a"), Some("s"), None));
        let v = json!({"x": 3, "part": "response", "event": 1, "eventId": "e7"});
        assert_eq!(read(&v, true).unwrap(), Http::Message(MsgAt { x: 3, part: Part::Response, event: Some(1), event_id: Some("e7".into()) }));
        assert!(read(&json!({"at": "end"}), false).unwrap_err().contains("http.x"));
        assert!(read(&json!({"x": 1, "at": "response", "status": 99}), false).is_err());
        assert!(read(&json!({"x": 1, "at": "nope"}), false).is_err());
        assert!(read(&json!([1]), false).is_err());
        let long = "a".repeat(5000);
        let Http::Line(l) = read(&json!({"x": 0, "at": "request", "headers": {"origin": long}}), false).unwrap() else { panic!() };
        let HttpLine::Request { headers, .. } = *l else { panic!() };
        assert_eq!(headers.origin.unwrap().len(), super::super::VALUE_MAX);
    }
}
