//! Requests the server makes of the client (sampling, elicitation, roots) across 2026-07-28.
//!
//! 2026-07-28 has no server requests: a server that needs input answers the client's request with
//! an `InputRequiredResult` (`inputRequests`, `requestState`), and the client sends the request
//! again with `inputResponses`. Older versions send those as requests of their own while the
//! client's request runs.
//!
//! - 2026-07-28 server, older client: each input request goes to the client as a server request (its
//!   id the bridge's); once every one is answered, the bridge sends the original request again with
//!   `inputResponses` and `requestState`, and its answer goes to the client under the original id.
//! - Older server, 2026-07-28 client: a server request that comes while exactly one client request
//!   is in flight (a tool that samples while it runs: the usual case on stdio, where nothing else
//!   ties a server request to a client request) answers that request with an `InputRequiredResult`
//!   holding it; the client's retry carries the response, which the bridge sends the server as the
//!   answer to its request, and the server's final answer then answers the retry. With no or several
//!   requests in flight the server's request is refused (error -32601): which one it belongs to
//!   cannot be told.

use serde_json::{json, Map, Value};

use super::core::{error_response, key, method_of, refusal_message, Bridge, Down, Output, Up, UpKind, INTERNAL_ERROR, METHOD_NOT_FOUND, PENDING_MAX};
use super::record::{Leg, Verdict};
use super::shape::{self, convert_result, Refusal};
use crate::vocab::Direction;
use crate::versions::VERSIONS;

/// Input rounds one request may take; input requests in one result.
const MAX_ROUNDS: u32 = 8;
const MAX_INPUTS: usize = 64;

/// The waiting request's key in the bridge's table: not a server id (the request was answered).
fn waiting_key(server_id: &Value) -> String {
    format!("input:{}", key(server_id))
}

impl Bridge {
    /// 2026-07-28 server, older client: the server answered `up` (sent as `server_id`) with an `InputRequiredResult`.
    pub(super) fn input_required(&mut self, line: &[u8], server_id: &Value, mut up: Up, result: Value, out: &mut Output) {
        let label = format!("{} result", up.method);
        let (client_id, tag) = (up.client_id.clone().unwrap_or(Value::Null), up.tag);
        let (s, c) = (self.server, self.client_v());
        let fail = |b: &mut Bridge, out: &mut Output, r: Refusal| {
            b.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Refused, &label, r.reason.clone(), r.row.clone());
            b.send_answer(out, &error_response(client_id.clone(), INTERNAL_ERROR, refusal_message(&r)), tag);
        };
        up.rounds += 1;
        if up.sent.is_null() {
            return fail(self, out, Refusal::new("the request was too long to keep for a retry with input responses (over 64 KiB)"));
        }
        if up.rounds > MAX_ROUNDS {
            return fail(self, out, Refusal::new(format!("more than {MAX_ROUNDS} input rounds")));
        }
        let requests = match result.get("inputRequests") {
            None => Map::new(),
            Some(Value::Object(o)) if o.len() <= MAX_INPUTS => o.clone(),
            Some(_) => return fail(self, out, Refusal::new(format!("`inputRequests` is not an object of at most {MAX_INPUTS} requests"))),
        };
        up.state = result.get("requestState").and_then(Value::as_str).map(str::to_string);
        up.inputs.clear();
        let (from, to) = (&self.infos[s], &self.infos[c]);
        let mut asks = Vec::new();
        for (k, request) in &requests {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("").to_string();
            let (Some(source), Some(target)) = (from.requests.get(method.as_str()).map(|r| r.0), to.requests.get(method.as_str()).map(|r| r.0)) else {
                return fail(self, out, Refusal::new(format!("input request `{k}`: `{method}` is not a request of both versions")));
            };
            if to.server_requests.holds(target) == Some(false) {
                return fail(self, out, Refusal::new(format!("input request `{k}`: a server sends no `{method}` in {}", to.module.label)));
            }
            let mut full = request.clone();
            full["jsonrpc"] = Value::from("2.0");
            full["id"] = Value::from(0);
            match shape::convert(from, to, source, target, full) {
                Ok(converted) => asks.push((k.clone(), method, converted)),
                Err(r) => return fail(self, out, r),
            }
        }
        let wait = waiting_key(server_id);
        let what = format!("InputRequiredResult: {} input requests asked of the client as server requests ({} has no InputRequiredResult)", asks.len(), VERSIONS[c].name);
        self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &label, what, None);
        for (k, method, mut converted) in asks {
            let id = self.new_id();
            converted["id"] = id.clone();
            self.send_client(out, &converted);
            self.track_down(&id, Down::Input { up: wait.clone(), key: k.clone(), method });
            up.inputs.push((k, None));
        }
        let ready = up.inputs.is_empty();
        self.up.insert(wait.clone(), up);
        if ready {
            // Only `requestState` (load shedding): the request goes again at once.
            self.retry_up(&wait, out);
        }
    }

    /// The older client's answer to an input request (`key` of the request waiting under `wait`).
    pub(super) fn answer_input(&mut self, line: &[u8], wait: &str, k: String, method: &str, msg: Map<String, Value>, out: &mut Output) {
        let label = format!("{method} {}", if msg.contains_key("error") { "error" } else { "result" });
        if !self.up.contains(wait) {
            return self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Dropped, &label, "the request it was for has ended".into(), None);
        }
        let (s, c) = (self.server, self.client_v());
        let mut what = vec![format!("{} -> {}", VERSIONS[c].name, VERSIONS[s].name)];
        let converted = match msg.get("result") {
            None => Err(Refusal::new(format!("the client answered input request `{k}` with an error: {}", crate::bounded::clip(&msg.get("error").map(Value::to_string).unwrap_or_default())))),
            Some(result) => convert_result(&self.infos[c], &self.infos[s], method, &mut result.clone(), &mut what),
        };
        match converted {
            Ok(r) => {
                let up = self.up.get_mut(wait).expect("checked above");
                if let Some(slot) = up.inputs.iter_mut().find(|(key, _)| *key == k) {
                    slot.1 = Some(r);
                }
                let done = up.inputs.iter().all(|(_, r)| r.is_some());
                what.push(format!("kept as inputResponses[{k}] for the retry"));
                self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Converted, &label, what.join("; "), None);
                if done {
                    self.retry_up(wait, out);
                }
            }
            Err(r) => {
                // The request it was for cannot go on: its client gets the error.
                let up = self.up.remove(wait);
                self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Refused, &label, r.reason.clone(), r.row.clone());
                if let Some((id, tag)) = up.and_then(|u| Some((u.client_id?, u.tag))) {
                    self.send_answer(out, &error_response(id, INTERNAL_ERROR, refusal_message(&r)), tag);
                }
            }
        }
    }

    /// Sends the waiting request again with its input responses and request state.
    fn retry_up(&mut self, wait: &str, out: &mut Output) {
        let Some(mut up) = self.up.remove(wait) else { return };
        let id = self.new_id();
        let mut sent = up.sent.clone();
        sent["id"] = id.clone();
        if let Some(params) = sent.get_mut("params").and_then(Value::as_object_mut) {
            let responses: Map<String, Value> = up.inputs.drain(..).filter_map(|(k, r)| Some((k, r?))).collect();
            params.remove("inputResponses");
            params.remove("requestState");
            if !responses.is_empty() {
                params.insert("inputResponses".into(), Value::Object(responses));
            }
            if let Some(state) = up.state.take() {
                params.insert("requestState".into(), Value::from(state));
            }
        }
        self.send_server(out, &sent);
        up.sent = sent;
        self.track_up(&id, up);
    }

    /// Older server, 2026-07-28 client: a server request becomes an input request of the one client request in flight.
    pub(super) fn input_request_from_server(&mut self, line: &[u8], msg: Map<String, Value>, out: &mut Output) {
        let method = method_of(&msg);
        let server_id = msg.get("id").cloned().unwrap_or(Value::Null);
        let (s, c) = (self.server, self.client_v());
        let in_flight: Vec<String> = self.up.iter().filter(|(k, u)| u.kind == UpKind::Forward && u.client_id.is_some() && !k.starts_with("input:")).map(|(k, _)| k.clone()).collect();
        let row = Some(format!("{} -> {}, ServerRequest", VERSIONS[s].name, VERSIONS[c].name));
        if self.keys.len() >= PENDING_MAX {
            let reason = format!("more than {PENDING_MAX} input requests wait for the client's retry");
            return self.refuse(out, Leg::Server, line, &method, Some(server_id), Refusal { row, reason }, METHOD_NOT_FOUND);
        }
        if in_flight.len() != 1 {
            let reason = format!("{} has no server requests, and {} client requests are in flight, so no InputRequiredResult can carry it", VERSIONS[c].name, in_flight.len());
            return self.refuse(out, Leg::Server, line, &method, Some(server_id), Refusal { row, reason }, METHOD_NOT_FOUND);
        }
        let (from, to) = (&self.infos[s], &self.infos[c]);
        let types = from.requests.get(method.as_str()).map(|r| r.0).zip(to.requests.get(method.as_str()).map(|r| r.0));
        let converted = match types {
            Some((source, target)) => shape::convert(from, to, source, target, Value::Object(msg)),
            None => Err(Refusal { row, reason: format!("`{method}` is not an input request of {}", VERSIONS[c].name) }),
        };
        let mut request = match converted {
            Ok(r) => r,
            Err(r) => return self.refuse(out, Leg::Server, line, &method, Some(server_id), r, METHOD_NOT_FOUND),
        };
        if let Some(o) = request.as_object_mut() {
            o.remove("id");
            o.remove("jsonrpc");
        }
        let wait = in_flight[0].clone();
        let k = format!("bridge-{}", self.keys.len() + 1);
        self.keys.insert(k.clone(), (server_id, method.clone(), wait.clone()));
        let up = self.up.get_mut(&wait).expect("in flight");
        let client_method = up.method.clone();
        let what = format!("{} has no server requests: became inputRequests[{k}] of an InputRequiredResult answering the client's {client_method}", VERSIONS[c].name);
        if up.awaiting_retry {
            up.queued.push((k, request));
            self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &method, format!("{what} (next round)"), None);
            return;
        }
        up.awaiting_retry = true;
        let (client_id, tag) = (up.client_id.clone().unwrap_or(Value::Null), up.tag);
        self.note(out, Leg::Server, Direction::ServerToClient, line, Verdict::Converted, &method, what, None);
        self.send_answer(out, &json!({"jsonrpc": "2.0", "id": client_id, "result": {"resultType": "input_required", "inputRequests": {k: request}}}), tag);
    }

    /// A 2026-07-28 client's retry with `inputResponses` for input requests the bridge made of server
    /// requests: the responses answer those; the retry is not passed on. `false`: not such a retry.
    pub(super) fn retry_with_input(&mut self, line: &[u8], msg: &mut Map<String, Value>, out: &mut Output) -> bool {
        let Some(Value::Object(responses)) = msg.get("params").and_then(|p| p.get("inputResponses")) else { return false };
        let ours: Vec<(String, Value)> = responses.iter().filter(|(k, _)| self.keys.contains_key(*k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        if ours.is_empty() {
            return false;
        }
        let method = method_of(msg);
        let retry_id = msg.get("id").cloned().unwrap_or(Value::Null);
        let (s, c) = (self.server, self.client_v());
        let mut wait = None;
        for (k, response) in ours {
            let Some((server_id, input_method, w)) = self.keys.remove(&k) else { continue };
            let mut what = Vec::new();
            let answer = match convert_result(&self.infos[c], &self.infos[s], &input_method, &mut response.clone(), &mut what) {
                Ok(r) => json!({"jsonrpc": "2.0", "id": server_id, "result": r}),
                Err(r) => error_response(server_id, INTERNAL_ERROR, refusal_message(&r)),
            };
            self.send_server(out, &answer);
            wait = Some(w);
        }
        let what = format!("a retry with inputResponses: they answer the server's requests; not passed on ({} has no inputResponses)", VERSIONS[s].name);
        self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Converted, &method, what, None);
        let Some(wait) = wait else { return true };
        let Some(up) = self.up.get_mut(&wait) else { return true };
        up.client_id = Some(retry_id.clone());
        up.tag = self.tag;
        up.awaiting_retry = false;
        if !up.queued.is_empty() {
            let requests: Map<String, Value> = up.queued.drain(..).collect();
            up.awaiting_retry = true;
            self.send_client(out, &json!({"jsonrpc": "2.0", "id": retry_id, "result": {"resultType": "input_required", "inputRequests": requests}}));
        } else if let Some(mut answer) = up.held_answer.take() {
            self.up.remove(&wait);
            answer["id"] = retry_id;
            self.send_client(out, &answer);
        }
        true
    }
}
