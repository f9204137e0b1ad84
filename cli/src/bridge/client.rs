//! The client's messages once both versions are known: converted to the server's version, or
//! answered, dropped or refused where only one version has them.

use mcp_spec_types::negotiate::CLIENT_CAPABILITIES_META_KEY;
use serde_json::{json, Map, Value};

use super::core::{key, method_of, Bridge, Down, Output, Up, UpKind, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use super::record::{Leg, Verdict};
use super::shape::{self, Refusal};
use crate::vocab::Direction;
use crate::versions::{versioned, Extension, VERSIONS};

/// The longest request kept for a retry with input responses: a longer one that gets an
/// `InputRequiredResult` is answered with an error (memory stays bounded: 4096 requests in flight).
const RETRY_KEEP: usize = 64 << 10;

impl Bridge {
    pub(super) fn request_or_notification_from_client(&mut self, line: &[u8], mut msg: Map<String, Value>, out: &mut Output) {
        let method = method_of(&msg);
        let id = msg.get("id").cloned();
        let (c, s) = (self.client_v(), self.server);
        let (client_new, server_new) = (self.is_per_request(c), self.is_per_request(s));
        if let Some(id) = &id {
            if self.answer_what_one_side_lacks(line, &msg, id, &method, out) {
                return;
            }
            if client_new && !server_new && self.retry_with_input(line, &mut msg, out) {
                return;
            }
        } else if method == "notifications/initialized" && server_new {
            let what = format!("{} has no initialize", VERSIONS[s].name);
            self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Dropped, &method, what, None);
            return;
        } else if method == "notifications/cancelled" && self.cancel_from_client(line, &mut msg, out) {
            return;
        }
        let mut value = Value::Object(msg);
        let mut what = vec![format!("{} -> {}", VERSIONS[c].name, VERSIONS[s].name)];
        if client_new && !server_new {
            let caps = value.get("params").and_then(|p| p.get("_meta")).and_then(|m| m.get(CLIENT_CAPABILITIES_META_KEY));
            if let (Some(caps), Some(init)) = (caps, &self.init_caps) {
                if !super::elide::same(caps, init) {
                    what.push("its clientCapabilities differ from those the server was initialized with, which the server keeps".into());
                }
            }
        }
        if server_new && !client_new && id.is_some() {
            shape::stamp(&mut value, VERSIONS[s].name, &self.caps, self.client_info.as_ref(), self.log_level.as_ref());
            what.push("per-request _meta keys added".into());
        }
        let is_initialize = method == "initialize";
        if is_initialize {
            if let Some(p) = value.get_mut("params").and_then(Value::as_object_mut) {
                p.insert("protocolVersion".into(), Value::from(VERSIONS[s].name));
                what.push(format!("protocolVersion {}", VERSIONS[s].name));
            }
        }
        if let Some(ext) = versioned(&method) {
            return self.versioned_from_client(line, value, id, &method, ext, what, out);
        }
        let (from, to) = (&self.infos[c], &self.infos[s]);
        let (source, target, side, union) = match &id {
            Some(_) => (from.requests.get(method.as_str()).map(|r| r.0), to.requests.get(method.as_str()).map(|r| r.0), &to.client_requests, from.client_requests.name()),
            None => (from.notifications.get(method.as_str()).copied(), to.notifications.get(method.as_str()).copied(), &to.client_notifications, from.client_notifications.name()),
        };
        let checked = match source {
            None => Err((METHOD_NOT_FOUND, Refusal::new(format!("`{method}` is not a client message of {}", from.module.label)))),
            Some(source) => match shape::sent_by(from, to, side, target, union, &method, &value) {
                Err(r) => Err((METHOD_NOT_FOUND, r)),
                Ok(()) => shape::convert(from, to, source, target.unwrap_or(source), value).map_err(|r| (INVALID_PARAMS, r)),
            },
        };
        match checked {
            Ok(mut converted) => {
                // The per-request keys go after converting: the 2026-07-28 request type requires them.
                if client_new && !server_new && !shape::unstamp(&mut converted).is_empty() {
                    what.push("per-request _meta keys taken off".into());
                }
                // Upstream the request carries an id of the bridge's: clients (and the bridge) choose theirs alike.
                let up_id = id.as_ref().map(|_| self.new_id());
                if let (Some(up_id), Some(o)) = (&up_id, converted.as_object_mut()) {
                    o.insert("id".into(), up_id.clone());
                }
                self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Converted, &method, what.join("; "), None);
                self.send_server(out, &converted);
                if let (Some(id), Some(up_id)) = (id, up_id) {
                    let kind = if is_initialize { UpKind::Initialize } else { UpKind::Forward };
                    // Kept for a retry with input responses (2026-07-28 server), within a bound.
                    let keep = server_new && !client_new && line.len() <= RETRY_KEEP;
                    self.track_up(&up_id, Up::forward(id, &method, kind, if keep { converted } else { Value::Null }));
                }
            }
            Err((code, r)) => self.refuse(out, Leg::Client, line, &method, id, r, code),
        }
    }

    /// A client request only one side's version has, answered by the bridge itself (`ping`,
    /// `logging/setLevel`, `server/discover`, `initialize`); `false` when it is none of them.
    fn answer_what_one_side_lacks(&mut self, line: &[u8], msg: &Map<String, Value>, id: &Value, method: &str, out: &mut Output) -> bool {
        let (c, s) = (self.client_v(), self.server);
        let (client_new, server_new) = (self.is_per_request(c), self.is_per_request(s));
        let answered = |b: &mut Bridge, out: &mut Output, what: &str| b.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Answered, method, what.to_string(), None);
        match method {
            "ping" if !self.infos[s].requests.contains_key("ping") => {
                answered(self, out, &format!("{} has no ping", VERSIONS[s].name));
                self.send_client(out, &json!({"jsonrpc": "2.0", "id": id, "result": {}}));
                true
            }
            "logging/setLevel" if server_new && !self.infos[s].requests.contains_key("logging/setLevel") => {
                // The level goes in each later request's `_meta` (`io.modelcontextprotocol/logLevel`), as 2026-07-28 asks for it.
                self.log_level = msg.get("params").and_then(|p| p.get("level")).cloned();
                answered(self, out, &format!("{} has no logging/setLevel: the level goes in each request's _meta", VERSIONS[s].name));
                self.send_client(out, &json!({"jsonrpc": "2.0", "id": id, "result": {}}));
                true
            }
            "server/discover" if client_new && !server_new => {
                answered(self, out, "from the server's initialize result");
                let result = self.discover_from_initialize();
                self.send_client(out, &json!({"jsonrpc": "2.0", "id": id, "result": result}));
                true
            }
            "initialize" if server_new => {
                // Answered from the server's `server/discover` (sent with the client's capabilities).
                let params = msg.get("params");
                let caps = params.and_then(|p| p.get("capabilities")).cloned().unwrap_or_else(|| json!({}));
                let (from, to) = (&self.infos[c], &self.infos[s]);
                self.caps = shape::convert(from, to, "ClientCapabilities", "ClientCapabilities", caps).unwrap_or_else(|_| json!({}));
                self.client_info = params.and_then(|p| p.get("clientInfo")).cloned().and_then(|i| shape::convert(from, to, "Implementation", "Implementation", i).ok());
                answered(self, out, &format!("from the server's server/discover ({} has no initialize)", VERSIONS[s].name));
                let own = self.new_id();
                let mut discover = json!({"jsonrpc": "2.0", "id": own, "method": "server/discover", "params": {}});
                shape::stamp(&mut discover, VERSIONS[s].name, &self.caps, self.client_info.as_ref(), None);
                self.send_server(out, &discover);
                self.track_up(&own, Up::forward(id.clone(), "initialize", UpKind::Discover, discover.clone()));
                true
            }
            _ => false,
        }
    }

    /// A message of an extension stated on a protocol version (Skills: 2026-07-28 on), which no conversion
    /// covers: passed on unchanged (but for the per-request keys) to a server of that version or later, refused
    /// to an earlier one, which cannot carry it.
    #[allow(clippy::too_many_arguments)]
    fn versioned_from_client(&mut self, line: &[u8], value: Value, id: Option<Value>, method: &str, ext: &Extension, mut what: Vec<String>, out: &mut Output) {
        let s = self.server;
        if let Some(why) = ext.refusal(method, s, &format!("the server's {}", VERSIONS[s].name)) {
            return self.refuse(out, Leg::Client, line, method, id, Refusal::new(why), METHOD_NOT_FOUND);
        }
        what.push(format!("the {} extension's message, unchanged", ext.name));
        let mut value = value;
        let up_id = id.as_ref().map(|_| self.new_id());
        if let (Some(up_id), Some(o)) = (&up_id, value.as_object_mut()) {
            o.insert("id".into(), up_id.clone());
        }
        self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Converted, method, what.join("; "), None);
        self.send_server(out, &value);
        if let (Some(id), Some(up_id)) = (id, up_id) {
            self.track_up(&up_id, Up::forward(id, method, UpKind::Forward, Value::Null));
        }
    }

    /// The client's answer to a request the bridge sent it.
    pub(super) fn response_from_client(&mut self, line: &[u8], msg: Map<String, Value>, out: &mut Output) {
        let id = msg.get("id").cloned().unwrap_or(Value::Null);
        match self.down.remove(&key(&id)) {
            None => {
                let what = "answers no request the bridge sent the client".to_string();
                self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Dropped, &method_of(&msg), what, None);
            }
            Some(Down::Input { up, key, method }) => self.answer_input(line, &up, key, &method, msg, out),
            Some(Down::Forward { server_id, method }) => {
                let label = format!("{method} {}", if msg.contains_key("error") { "error" } else { "result" });
                let (c, s) = (self.client_v(), self.server);
                let converted = match msg.get("result") {
                    None => Ok(json!({"jsonrpc": "2.0", "id": server_id, "error": msg.get("error").cloned().unwrap_or(Value::Null)})),
                    Some(result) => {
                        let (from, to) = (&self.infos[c], &self.infos[s]);
                        let types = from.requests.get(method.as_str()).zip(to.requests.get(method.as_str()));
                        match types {
                            Some((source, target)) => shape::convert(from, to, source.1, target.1, result.clone()).map(|r| json!({"jsonrpc": "2.0", "id": server_id, "result": r})),
                            None => Err(Refusal::new(format!("`{method}` is a request of only one of the versions"))),
                        }
                    }
                };
                match converted {
                    Ok(answer) => {
                        let what = format!("{} -> {}", VERSIONS[c].name, VERSIONS[s].name);
                        self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Converted, &label, what, None);
                        self.send_server(out, &answer);
                    }
                    Err(r) => {
                        // The server still gets an answer: the error says why the client's could not go.
                        self.refuse(out, Leg::Client, line, &label, None, r.clone(), INTERNAL_ERROR);
                        self.send_server(out, &super::core::error_response(server_id, INTERNAL_ERROR, super::core::refusal_message(&r)));
                    }
                }
            }
        }
    }
}
