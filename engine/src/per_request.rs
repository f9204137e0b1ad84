//! The client side of the per-request protocol versions (2026-07-28 on): no `initialize`; each
//! request carries the version, the client's capabilities (and info, log level) in its `_meta`;
//! the input requests of an `InputRequiredResult` go to the application as requests, and once
//! each is answered the request goes again; an unsupported-version error names the versions the
//! server has.

use serde::Serialize;
use serde_json::{Map, Value};

use super::client::ClientSide;
use super::endpoint::{Endpoint, Pending};
use super::{Answer, Error, Event, Failure, Id, Request, Sent, CLIENT_CAPABILITY_OF};
use mcp_spec_types::runtime::{meta, RpcError};

/// The spec's error code for a version the server does not support (2026-07-28), as the types
/// crate names it.
pub use mcp_spec_types::negotiate::UNSUPPORTED_PROTOCOL_VERSION;

// Input requests in one `InputRequiredResult`, versions in one unsupported-version error:
// more is a malformed answer, not a reason to grow.
const MAX_INPUTS: usize = 64;
const MAX_VERSIONS: usize = 64;

/// What a client of a per-request version puts in the `_meta` of every request (see
/// [`Client::per_request`](crate::Client::per_request)): `io.modelcontextprotocol/protocolVersion` and
/// `.../clientCapabilities` always (the engine's values replace the request's), `.../clientInfo`
/// and `.../logLevel` when set and the request has none of its own.
#[derive(Debug, Clone)]
pub struct PerRequest {
    /// The versions the client speaks, preferred first; requests use the first until a server's
    /// unsupported-version answer lists another of them.
    pub versions: Vec<String>,
    /// `ClientCapabilities` as JSON; its keys are also what the engine offers input requests
    /// and server requests for.
    pub capabilities: Map<String, Value>,
    pub client_info: Option<Value>,
    /// `io.modelcontextprotocol/logLevel`: without it the server sends no log messages (the key
    /// is deprecated in 2026-07-28, SEP-2577, and still part of its schema).
    pub log_level: Option<String>,
    /// `InputRequiredResult` rounds one request may take before it fails (default 8).
    pub max_rounds: u32,
}

impl PerRequest {
    /// `capabilities` is the version's `ClientCapabilities` (an empty object declares none).
    pub fn new(version: &str, capabilities: &impl Serialize) -> Result<Self, Error> {
        let capabilities = match serde_json::to_value(capabilities).map_err(|e| Error::Serialize(e.to_string()))? {
            Value::Object(o) => o,
            _ => return Err(Error::Serialize("capabilities must serialize as an object".into())),
        };
        Ok(PerRequest { versions: vec![version.to_owned()], capabilities, client_info: None, log_level: None, max_rounds: 8 })
    }

    /// Sets `io.modelcontextprotocol/clientInfo` (the version's `Implementation`).
    pub fn client_info(mut self, info: &impl Serialize) -> Result<Self, Error> {
        self.client_info = Some(serde_json::to_value(info).map_err(|e| Error::Serialize(e.to_string()))?);
        Ok(self)
    }
}

/// An input request of an `InputRequiredResult`: its key, method and params.
type InputRequest = (String, String, Option<Value>);

/// A request waiting for the application's input.
pub(super) struct Waiting {
    pub method: &'static str,
    pub object: Map<String, Value>,
    pub deadline: Option<std::time::Instant>,
    pub progress: bool,
    pub rounds: u32,
    // The input requests' keys, each with its response once the application gave it.
    pub inputs: Vec<(String, Option<Value>)>,
    pub state: Option<String>,
}

/// The id an input request is offered under: the request's handle id and the server's key.
fn input_id(handle: i64, key: &str) -> Id {
    Id::String(format!("input/{handle}/{key}"))
}

impl ClientSide {
    /// Puts the per-request keys in the request's `params._meta`.
    pub(super) fn stamp(&self, object: &mut Map<String, Value>) -> Result<(), Error> {
        let Some(per) = &self.per_request else { return Ok(()) };
        let params = object.entry("params").or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(params) = params else {
            return Err(Error::Serialize("`params` must serialize as an object".into()));
        };
        let m = params.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(m) = m else {
            return Err(Error::Serialize("`_meta` must serialize as an object".into()));
        };
        m.insert(meta::PROTOCOL_VERSION.into(), Value::from(self.version.as_str()));
        m.insert(meta::CLIENT_CAPABILITIES.into(), Value::Object(per.capabilities.clone()));
        if let Some(info) = &per.client_info {
            m.entry(meta::CLIENT_INFO).or_insert_with(|| info.clone());
        }
        if let Some(level) = &per.log_level {
            m.entry(meta::LOG_LEVEL).or_insert_with(|| Value::from(level.as_str()));
        }
        Ok(())
    }

    /// What becomes of an answer to a per-request client's request.
    pub(super) fn on_answer(&mut self, endpoint: &mut Endpoint, pending: Pending, outcome: Result<Value, Failure>) {
        let handle = pending.handle;
        let fail = |why: String| Event::Answer(Answer { id: handle, outcome: Err(Failure::Input(why)) });
        let Some(object) = pending.original else {
            return endpoint.push_event(Event::Answer(Answer { id: handle, outcome }));
        };
        match &outcome {
            Ok(result) if result.get("resultType").and_then(Value::as_str) == Some("input_required") => {
                let round = pending.rounds + 1;
                let max = self.per_request.as_ref().map_or(0, |p| p.max_rounds);
                if round > max {
                    return endpoint.push_event(fail(format!("more than {max} input rounds")));
                }
                let (inputs, state) = match self.read_input_required(result, endpoint.config.max_id_len) {
                    Ok(read) => read,
                    Err(why) => return endpoint.push_event(fail(why)),
                };
                let keys = inputs.iter().map(|(key, _, _)| (key.clone(), None)).collect();
                let waiting = Waiting { method: pending.method, object: *object, deadline: pending.deadline, progress: pending.progress, rounds: round, inputs: keys, state };
                self.waiting.insert(handle, waiting);
                // Each input request is a request for the application; at most MAX_INPUTS events
                // past the queue's bound.
                for (key, method, params) in inputs {
                    self.inputs.insert(input_id(handle, &key), (handle, key.clone()));
                    endpoint.push_event(Event::Request(Request { id: input_id(handle, &key), method, params }));
                }
                // Only `requestState` (load shedding): the request goes again at once.
                if self.waiting.get(&handle).is_some_and(|w| w.inputs.is_empty()) {
                    self.retry_with_input(endpoint, handle);
                }
            }
            Err(Failure::Rpc(e)) if e.code == UNSUPPORTED_PROTOCOL_VERSION => {
                let data = e.data.as_ref();
                let supported: Vec<String> = data.and_then(|d| d.get("supported")).and_then(Value::as_array).into_iter().flatten().take(MAX_VERSIONS).filter_map(Value::as_str).map(str::to_owned).collect();
                let requested = data.and_then(|d| d.get("requested")).and_then(Value::as_str).unwrap_or(&self.version).to_owned();
                let ours = self.per_request.as_ref().and_then(|p| p.versions.iter().find(|v| supported.contains(v)).cloned());
                match ours {
                    // One retry per request: a server that refuses the version it lists is answered with the error.
                    Some(version) if !pending.version_retried => {
                        self.version = version;
                        let mut object = *object;
                        if self.stamp(&mut object).is_ok() && endpoint.send(pending.method, object.clone(), Some((handle, pending.rounds, true)), pending.deadline, pending.progress, Some(object)).is_ok() {
                            return;
                        }
                        endpoint.push_event(Event::Answer(Answer { id: handle, outcome }));
                    }
                    _ => endpoint.push_event(Event::Answer(Answer { id: handle, outcome: Err(Failure::UnsupportedVersion { requested, supported }) })),
                }
            }
            _ => endpoint.push_event(Event::Answer(Answer { id: handle, outcome })),
        }
    }

    fn read_input_required(&self, result: &Value, max_id_len: usize) -> Result<(Vec<InputRequest>, Option<String>), String> {
        let state = match result.get("requestState") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err("`requestState` is not a string".into()),
        };
        let requests = match result.get("inputRequests") {
            None => Map::new(),
            Some(Value::Object(o)) if o.len() <= MAX_INPUTS => o.clone(),
            Some(Value::Object(_)) => return Err(format!("more than {MAX_INPUTS} input requests")),
            Some(_) => return Err("`inputRequests` is not an object".into()),
        };
        if requests.is_empty() && state.is_none() {
            return Err("an InputRequiredResult with neither `inputRequests` nor `requestState`".into());
        }
        let mut inputs = Vec::with_capacity(requests.len());
        for (key, request) in requests {
            // The key becomes the id the input request is offered under.
            if key.len() > max_id_len {
                return Err(format!("an input request key is longer than {max_id_len} bytes"));
            }
            let method = request.get("method").and_then(Value::as_str).ok_or_else(|| format!("input request `{key}` has no method"))?;
            let Some((_, capability)) = CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) else {
                return Err(format!("input request `{key}`: `{method}` is not an input request"));
            };
            if !self.declared.iter().any(|d| d == capability) {
                return Err(format!("input request `{key}`: `{method}` needs `{capability}`, which the client did not declare"));
            }
            let params = match request.get("params") {
                p @ (None | Some(Value::Object(_))) => p.cloned(),
                Some(_) => return Err(format!("input request `{key}`: `params` is not an object")),
            };
            inputs.push((key, method.to_owned(), params));
        }
        Ok((inputs, state))
    }

    /// The application's answer to an input request; `Ok(None)`: `id` is no input request.
    pub(super) fn answer_input(&mut self, endpoint: &mut Endpoint, id: &Id, answer: Result<Value, &RpcError>) -> Result<Option<Sent>, Error> {
        let Some((handle, key)) = self.inputs.get(id).cloned() else { return Ok(None) };
        let waiting = self.waiting.get_mut(&handle).ok_or(Error::UnknownRequest)?;
        match answer {
            Ok(result) => {
                if let Some((_, slot)) = waiting.inputs.iter_mut().find(|(k, _)| *k == key) {
                    *slot = Some(result);
                }
                self.inputs.remove(id);
                if waiting.inputs.iter().all(|(_, r)| r.is_some()) {
                    self.retry_with_input(endpoint, handle);
                }
            }
            // An input response has no error form: the request fails, as the application decided.
            Err(error) => {
                self.drop_waiting(endpoint, handle, None);
                let why = format!("the application refused input `{key}`: {} {}", error.code, error.message);
                endpoint.push_event(Event::Answer(Answer { id: handle, outcome: Err(Failure::Input(why)) }));
            }
        }
        Ok(Some(Sent::Written))
    }

    /// Forgets a request waiting for input; its unanswered input requests are cancelled for the
    /// application (`reason` given) or silently.
    pub(super) fn drop_waiting(&mut self, endpoint: &mut Endpoint, handle: i64, reason: Option<&str>) -> bool {
        let Some(waiting) = self.waiting.remove(&handle) else { return false };
        for (key, response) in waiting.inputs {
            let id = input_id(handle, &key);
            if self.inputs.remove(&id).is_some() && response.is_none() {
                if let Some(reason) = reason {
                    endpoint.push_event(Event::Cancelled { id, reason: Some(reason.to_owned()) });
                }
            }
        }
        true
    }

    /// Sends a request again with the responses to its input requests and the server's
    /// `requestState` (none when the server sent none), under a new id.
    fn retry_with_input(&mut self, endpoint: &mut Endpoint, handle: i64) {
        let Some(waiting) = self.waiting.remove(&handle) else { return };
        let mut object = waiting.object.clone();
        let sent = self.stamp(&mut object).and_then(|()| {
            if let Some(Value::Object(params)) = object.get_mut("params") {
                params.remove("inputResponses");
                params.remove("requestState");
                if !waiting.inputs.is_empty() {
                    let responses = waiting.inputs.iter().map(|(k, r)| (k.clone(), r.clone().unwrap_or(Value::Null))).collect();
                    params.insert("inputResponses".into(), Value::Object(responses));
                }
                if let Some(state) = &waiting.state {
                    params.insert("requestState".into(), Value::from(state.as_str()));
                }
            }
            let retry = Some((handle, waiting.rounds, false));
            // Past the write queue's bound if need be: one line per request that was allowed in.
            endpoint.send_anyway(waiting.method, object, retry, waiting.deadline, waiting.progress, Some(waiting.object.clone()))
        });
        if let Err(e) = sent {
            endpoint.push_event(Event::Answer(Answer { id: handle, outcome: Err(Failure::Input(format!("the retry was not sent: {e}"))) }));
        }
    }
}
