//! The server's messages: answers to what the bridge sent it (the client's requests, converted, and
//! the bridge's own `initialize` or `server/discover`), its requests and its notifications.

use mcp_spec_types::negotiate::SERVER_INFO_META_KEY;
use serde_json::{json, Map, Value};

use super::core::{error_response, key, method_of, refusal_message, Bridge, Down, Output, UpKind, INTERNAL_ERROR, METHOD_NOT_FOUND};
use super::record::{Leg, Verdict};
use super::shape::{self, convert_result, Refusal};
use crate::vocab::Direction;
use crate::versions::{version_index, versioned, VERSIONS};

impl Bridge {
    pub(super) fn request_or_notification_from_server(&mut self, line: &[u8], msg: Map<String, Value>, out: &mut Output) {
        let method = method_of(&msg);
        let id = msg.get("id").cloned();
        let (s, c) = (self.server, self.client_v());
        let (client_new, server_new) = (self.is_per_request(c), self.is_per_request(s));
        if let Some(id) = &id {
            if client_new && !server_new {
                if method == "ping" {
                    let what = format!("{} has no ping", VERSIONS[c].name);
                    self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Answered, &method, what, None);
                    self.send_server(out, &json!({"jsonrpc": "2.0", "id": id, "result": {}}));
                    return;
                }
                return self.input_request_from_server(line, msg, out);
            }
        }
        let value = Value::Object(msg);
        let (from, to) = (&self.infos[s], &self.infos[c]);
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
                self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &method, what, None);
                self.send_client(out, &converted);
                if let Some(id) = id {
                    self.track_down(&id, Down::Forward { server_id: id.clone(), method });
                }
            }
            Err(r) => self.refuse(out, Leg::Server, line, &method, id, r, METHOD_NOT_FOUND),
        }
    }

    /// The server's answer to a request the bridge sent it.
    pub(super) fn response_from_server(&mut self, line: &[u8], msg: Map<String, Value>, out: &mut Output) {
        let id = msg.get("id").cloned().unwrap_or(Value::Null);
        let Some(mut up) = self.up.remove(&key(&id)) else {
            let what = "answers no request the bridge sent the server".to_string();
            return self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Dropped, &method_of(&msg), what, None);
        };
        let error = msg.get("error").cloned();
        let label = format!("{} {}", up.method, if error.is_some() { "error" } else { "result" });
        let mut result = msg.get("result").cloned().unwrap_or_else(|| json!({}));
        let (s, c) = (self.server, self.client_v());
        let (client_new, server_new) = (self.is_per_request(c), self.is_per_request(s));
        match up.kind {
            UpKind::OwnInitialize => {
                let what = "the answer to the bridge's own initialize, kept for server/discover".to_string();
                self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Dropped, &label, what, None);
                return self.server_initialized(error.map_or(Ok(result), Err), out);
            }
            UpKind::Discover => {
                let client_id = up.client_id.unwrap_or(Value::Null);
                let answer = match &error {
                    Some(e) => json!({"jsonrpc": "2.0", "id": client_id, "error": e}),
                    None => json!({"jsonrpc": "2.0", "id": client_id, "result": self.initialize_from_discover(&result)}),
                };
                self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &label, "server/discover result as the initialize result".into(), None);
                return self.send_answer(out, &answer, up.tag);
            }
            UpKind::Initialize | UpKind::Forward => {}
        }
        let client_id = up.client_id.clone().unwrap_or(Value::Null);
        if let Some(e) = error {
            let verdict = if client_id == id { Verdict::Forwarded } else { Verdict::Converted };
            self.note(out, Leg::Server, Direction::ServerToClient, line, verdict, &label, String::new(), None);
            return self.send_answer(out, &json!({"jsonrpc": "2.0", "id": client_id, "error": e}), up.tag);
        }
        if server_new && !client_new && result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            return self.input_required(line, &id, up, result, out);
        }
        let mut what = vec![format!("{} -> {}", VERSIONS[s].name, VERSIONS[c].name)];
        if up.kind == UpKind::Initialize {
            // Negotiation on the server leg: the version the server answered is the leg's from here on.
            if let Some(v) = result.get("protocolVersion").and_then(Value::as_str).and_then(version_index).filter(|&v| !self.is_per_request(v)) {
                self.server = v;
            }
        }
        let s = self.server;
        // An extension's result that no conversion covers (Skills, whose request went on unchanged) comes back so too.
        let converted = match versioned(&up.method) {
            Some(ext) => {
                what.push(format!("the {} extension's result, unchanged", ext.name));
                Ok(result.clone())
            }
            None => convert_result(&self.infos[s], &self.infos[c], &up.method, &mut result, &mut what),
        };
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
                    self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &label, what.join("; "), None);
                    return self.track_up(&id, up);
                }
                self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &label, what.join("; "), None);
                self.send_answer(out, &answer, up.tag);
            }
            Err(r) => {
                self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Refused, &label, r.reason.clone(), r.row.clone());
                self.send_answer(out, &error_response(client_id, INTERNAL_ERROR, refusal_message(&r)), up.tag);
            }
        }
    }

    /// The `initialize` result a client before 2026-07-28 gets from the server's `server/discover` result.
    pub(super) fn initialize_from_discover(&self, discover: &Value) -> Value {
        let client = self.client_v();
        let (from, to) = (&self.infos[self.server], &self.infos[client]);
        let caps = discover.get("capabilities").cloned().unwrap_or_else(|| json!({}));
        let caps = shape::convert(from, to, "ServerCapabilities", "ServerCapabilities", caps).unwrap_or_else(|_| json!({}));
        let info = discover.get("_meta").and_then(|m| m.get(SERVER_INFO_META_KEY)).cloned().and_then(|i| shape::convert(from, to, "Implementation", "Implementation", i).ok());
        let info = info.unwrap_or_else(|| json!({"name": "mcp-schema-bridge", "version": env!("CARGO_PKG_VERSION")}));
        let mut result = json!({"protocolVersion": VERSIONS[client].name, "capabilities": caps, "serverInfo": info});
        if let Some(i) = discover.get("instructions") {
            result["instructions"] = i.clone();
        }
        result
    }

    /// The `server/discover` result a 2026-07-28 client gets from the server's `initialize` result.
    pub(super) fn discover_from_initialize(&self) -> Value {
        let client = self.client_v();
        let init = self.init_result.clone().unwrap_or_else(|| json!({}));
        let (from, to) = (&self.infos[self.server], &self.infos[client]);
        let caps = init.get("capabilities").cloned().unwrap_or_else(|| json!({}));
        let caps = shape::convert(from, to, "ServerCapabilities", "ServerCapabilities", caps).unwrap_or_else(|_| json!({}));
        let mut result = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": [VERSIONS[client].name], "capabilities": caps});
        if let Some(info) = init.get("serverInfo").cloned().and_then(|i| shape::convert(from, to, "Implementation", "Implementation", i).ok()) {
            result["_meta"] = json!({ SERVER_INFO_META_KEY: info });
        }
        if let Some(i) = init.get("instructions") {
            result["instructions"] = i.clone();
        }
        result
    }
}
