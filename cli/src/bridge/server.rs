//! The server's messages: answers to what the bridge sent it (the client's requests, converted, and
//! the bridge's own `initialize` or `server/discover`), its requests and its notifications.

use mcp_spec_types::convert::target_type_name;
use serde_json::{json, Map, Value};

use super::core::{error_response, key, method_of, refusal_message, Bridge, Down, Output, UpKind, INTERNAL_ERROR, METHOD_NOT_FOUND};
use super::input;
use super::record::{Leg, Verdict};
use super::shape::{self, Refusal};
use crate::vocab::Dir;
use crate::versions::{version_index, Info, VERSIONS};

pub(super) fn request_or_notification(b: &mut Bridge, line: &[u8], msg: Map<String, Value>, out: &mut Output) {
    let method = method_of(&msg);
    let id = msg.get("id").cloned();
    let (s, c) = (b.server, b.client_v());
    let (client_new, server_new) = (b.is_per_request(c), b.is_per_request(s));
    if let Some(id) = &id {
        if client_new && !server_new {
            if method == "ping" {
                let what = format!("{} has no ping", VERSIONS[c].name);
                b.note(out, Leg::Server, Dir::S2C, line, Verdict::Answered, &method, what, None);
                b.send_server(out, &json!({"jsonrpc": "2.0", "id": id, "result": {}}));
                return;
            }
            return input::server_request(b, line, msg, out);
        }
    }
    let value = Value::Object(msg);
    let (from, to) = (&b.infos[s], &b.infos[c]);
    let (source, target, side, union) = match &id {
        Some(_) => (from.requests.get(method.as_str()).map(|r| r.0), to.requests.get(method.as_str()).map(|r| r.0), &to.server_requests, from.server_requests.name()),
        None => (from.notifications.get(method.as_str()).copied(), to.notifications.get(method.as_str()).copied(), &to.server_notifications, from.server_notifications.name()),
    };
    let own_side = if id.is_some() { &from.server_requests } else { &from.server_notifications };
    let checked = match source {
        _ if own_side.holds(source.unwrap_or("")) == Some(false) => Err(Refusal::new(format!("a server sends no `{method}` in {}", from.module.label))),
        None => Err(Refusal::new(format!("`{method}` is not a server message of {}", from.module.label))),
        Some(source) => shape::sent_by(from, to, side, target, union, &method, &value).and_then(|()| shape::convert(from, to, source, target.unwrap_or(source), value)),
    };
    match checked {
        Ok(converted) => {
            let what = format!("{} -> {}", VERSIONS[s].name, VERSIONS[c].name);
            b.note(out, Leg::Server, Dir::S2C, line, Verdict::Converted, &method, what, None);
            b.send_client(out, &converted);
            if let Some(id) = id {
                b.track_down(&id, Down::Forward { server_id: id.clone(), method });
            }
        }
        Err(r) => b.refuse(out, Leg::Server, line, &method, id, r, METHOD_NOT_FOUND),
    }
}

/// The server's answer to a request the bridge sent it.
pub(super) fn response(b: &mut Bridge, line: &[u8], msg: Map<String, Value>, out: &mut Output) {
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let Some(mut up) = b.up.remove(&key(&id)) else {
        let what = "answers no request the bridge sent the server".to_string();
        return b.note(out, Leg::Server, Dir::S2C, line, Verdict::Dropped, &method_of(&msg), what, None);
    };
    let error = msg.get("error").cloned();
    let label = format!("{} {}", up.method, if error.is_some() { "error" } else { "result" });
    let mut result = msg.get("result").cloned().unwrap_or_else(|| json!({}));
    let (s, c) = (b.server, b.client_v());
    let (client_new, server_new) = (b.is_per_request(c), b.is_per_request(s));
    match up.kind {
        UpKind::OwnInitialize => {
            let what = "the answer to the bridge's own initialize, kept for server/discover".to_string();
            b.note(out, Leg::Server, Dir::S2C, line, Verdict::Dropped, &label, what, None);
            return b.server_initialized(error.map_or(Ok(result), Err), out);
        }
        UpKind::Discover => {
            let client_id = up.client_id.unwrap_or(Value::Null);
            let answer = match &error {
                Some(e) => json!({"jsonrpc": "2.0", "id": client_id, "error": e}),
                None => json!({"jsonrpc": "2.0", "id": client_id, "result": b.initialize_from_discover(&result)}),
            };
            b.note(out, Leg::Server, Dir::S2C, line, Verdict::Converted, &label, "server/discover result as the initialize result".into(), None);
            return b.send_client(out, &answer);
        }
        UpKind::Initialize | UpKind::Forward => {}
    }
    let client_id = up.client_id.clone().unwrap_or(Value::Null);
    if let Some(e) = error {
        let verdict = if client_id == id { Verdict::Forwarded } else { Verdict::Converted };
        b.note(out, Leg::Server, Dir::S2C, line, verdict, &label, String::new(), None);
        return b.send_client(out, &json!({"jsonrpc": "2.0", "id": client_id, "error": e}));
    }
    if server_new && !client_new && result.get("resultType").and_then(Value::as_str) == Some("input_required") {
        return input::input_required(b, line, &id, up, result, out);
    }
    let mut what = vec![format!("{} -> {}", VERSIONS[s].name, VERSIONS[c].name)];
    if up.kind == UpKind::Initialize {
        // Negotiation on the server leg: the version the server answered is the leg's from here on.
        if let Some(v) = result.get("protocolVersion").and_then(Value::as_str).and_then(version_index).filter(|&v| !b.is_per_request(v)) {
            b.server = v;
        }
    }
    let s = b.server;
    let converted = convert_result(&b.infos[s], &b.infos[c], &up.method, &mut result, &mut what);
    match converted {
        Ok(mut r) => {
            if up.kind == UpKind::Initialize {
                r["protocolVersion"] = Value::from(VERSIONS[c].name);
            }
            let answer = json!({"jsonrpc": "2.0", "id": client_id, "result": r});
            if up.awaiting_retry {
                // A 2026-07-28 client was told `input_required`: the answer waits for its retry.
                up.held_answer = Some(answer);
                what.push("held until the client retries".into());
                b.note(out, Leg::Server, Dir::S2C, line, Verdict::Converted, &label, what.join("; "), None);
                return b.track_up(&id, up);
            }
            b.note(out, Leg::Server, Dir::S2C, line, Verdict::Converted, &label, what.join("; "), None);
            b.send_client(out, &answer);
        }
        Err(r) => {
            b.note(out, Leg::Server, Dir::S2C, line, Verdict::Refused, &label, r.reason.clone(), r.row.clone());
            b.send_client(out, &error_response(client_id, INTERNAL_ERROR, refusal_message(&r)));
        }
    }
}

/// A result of `method` from `from` to `to`. To 2026-07-28 it gains `resultType` (and the cache
/// keys a list result requires); from it, those are taken off. A 2026-07-28 result type that is a
/// union with `InputRequiredResult` (`CallToolResultResponseResult`) converts as its plain member.
pub(super) fn convert_result(from: &Info, to: &Info, method: &str, result: &mut Value, what: &mut Vec<String>) -> Result<Value, Refusal> {
    let (Some(source), Some(target)) = (from.requests.get(method).map(|r| r.1), to.requests.get(method).map(|r| r.1)) else {
        return Err(Refusal::new(format!("`{method}` is a request of only one of the versions")));
    };
    let source = if target_type_name(source, from.module.name, to.module.name).is_some() { source } else { target };
    // Version names are dates, and `draft` sorts after them.
    let (from_new, to_new) = (from.module.name >= "2026-07-28", to.module.name >= "2026-07-28");
    if to_new && !from_new {
        let mut added = shape::complete_result(result, false);
        let mut r = shape::convert(from, to, source, target, result.clone());
        if r.as_ref().err().and_then(|e| e.row.as_deref()).is_some_and(|row| row.ends_with(".ttlMs") || row.ends_with(".cacheScope")) {
            added.extend(shape::complete_result(result, true));
            r = shape::convert(from, to, source, target, result.clone());
        }
        if !added.is_empty() {
            what.push(format!("added {}", added.join(", ")));
        }
        return r;
    }
    let mut r = shape::convert(from, to, source, target, result.clone())?;
    if from_new && !to_new {
        let taken = shape::plain_result(&mut r);
        if !taken.is_empty() {
            what.push(format!("took off {}", taken.join(", ")));
        }
    }
    Ok(r)
}
