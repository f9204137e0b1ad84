//! The client role.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::endpoint::{request_object, Endpoint, Route};
use super::per_request::Waiting;
use super::{capability_names, notification_params, refuse, Answer, Config, Error, Event, Failure, Handle, Id, PerRequest, Sent, Transmit, CLIENT_CAPABILITY_OF};
use mcp_spec_types::rpc::METHOD_NOT_FOUND;
use mcp_spec_types::runtime::{RequestMethod, RpcError};

/// The client role. See the [module docs](super).
pub struct Client {
    pub(super) endpoint: Endpoint,
    // Capability names from the client's `initialize`, or a per-request client's capabilities
    // (few: the spec defines a handful).
    pub(super) declared: Vec<String>,
    pub(super) per_request: Option<PerRequest>,
    // A per-request client's version now (one of `per_request.versions`).
    pub(super) version: String,
    // Requests answered with `InputRequiredResult`, waiting for the application's input
    // (counted in `max_pending` with the pending ones), and their input requests by the id they
    // were offered under (at most 64 each).
    pub(super) waiting: HashMap<i64, Waiting>,
    pub(super) inputs: HashMap<Id, (i64, String)>,
}

impl Client {
    /// A client of a session version (2024-11-05 to 2025-11-25): it sends `initialize` first.
    pub fn new(config: Config) -> Self {
        Client { endpoint: Endpoint::new(config), declared: Vec::new(), per_request: None, version: String::new(), waiting: HashMap::new(), inputs: HashMap::new() }
    }

    /// A client of a per-request version (2026-07-28 on): no `initialize`; every request carries
    /// the version and the client's capabilities in `params._meta` (see [`PerRequest`]). The input
    /// requests of an `InputRequiredResult` come as [`Event::Request`]s (sampling, elicitation,
    /// roots: the same as a session's server requests; [`Client::input_for`] tells them apart),
    /// answered with [`respond`](Self::respond); once each is answered the engine sends the request
    /// again with them. An unsupported-version error is retried once with a version the server
    /// lists, when the client speaks one.
    pub fn per_request(config: Config, per_request: PerRequest) -> Self {
        let mut client = Client::new(config);
        client.endpoint.hold_answers = true;
        client.declared = per_request.capabilities.keys().take(64).cloned().collect();
        client.version = per_request.versions.first().cloned().unwrap_or_default();
        client.per_request = Some(per_request);
        client
    }

    /// The version a per-request client's requests carry now (`None` for a session client).
    pub fn protocol_version(&self) -> Option<&str> {
        self.per_request.as_ref().map(|_| self.version.as_str())
    }

    /// Sets the `io.modelcontextprotocol/logLevel` of the requests to come (per-request client;
    /// `None`: no log messages). A request that sets its own keeps it.
    pub fn set_log_level(&mut self, level: Option<&str>) {
        if let Some(per) = &mut self.per_request {
            per.log_level = level.map(str::to_owned);
        }
    }

    /// `server/discover` (2026-07-28): the server's versions, capabilities and info.
    #[cfg(feature = "v2026-07-28")]
    pub fn discover(&mut self, now: Instant, timeout: Option<Duration>) -> Result<Handle<mcp_spec_types::v2026_07_28::DiscoverRequest>, Error> {
        use mcp_spec_types::v2026_07_28::{DiscoverRequest, RequestId, RequestMetaObject, RequestParams};
        // The engine fills the `_meta` in.
        self.request(DiscoverRequest::new(RequestParams::new(RequestMetaObject::default()), RequestId::Integer(0)), now, timeout)
    }

    /// Sends `request` (its id replaced by the engine's); `timeout` counts from `now`. An
    /// `initialize` request also tells the engine which capabilities the client declared.
    pub fn request<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.send(request, now, timeout, false)
    }

    /// [`request`](Self::request), asking for progress: the engine puts a `progressToken` in
    /// `params._meta`, and the server's progress comes as [`Event::Progress`] for this request.
    pub fn request_with_progress<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.send(request, now, timeout, true)
    }

    fn send<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>, progress: bool) -> Result<Handle<R>, Error> {
        if self.per_request.is_none() {
            let (handle, params) = self.endpoint.request(&request, now, timeout, progress)?;
            if R::METHOD == "initialize" {
                self.declared = capability_names(Some(&params));
            }
            return Ok(handle);
        }
        if R::METHOD == "initialize" {
            return Err(Error::NoInitialize);
        }
        self.endpoint.room_to_send(self.waiting.len())?;
        let mut object = request_object(&request)?;
        self.stamp(&mut object)?;
        let deadline = timeout.and_then(|t| now.checked_add(t));
        let (id, _) = self.endpoint.send(R::METHOD, object.clone(), None, deadline, progress, Some(object))?;
        Ok(Handle { id, _request: std::marker::PhantomData })
    }

    /// Sends a notification (e.g. `notifications/initialized`).
    pub fn notify<N: mcp_spec_types::runtime::NotificationMethod>(&mut self, notification: &N) -> Result<(), Error> {
        let params = notification_params(notification)?;
        self.endpoint.notify(None, N::METHOD, params)
    }

    /// Writes `notifications/cancelled` for the request; a late answer to it is dropped. A
    /// request waiting for input is dropped without a line (the server holds nothing for it).
    pub fn cancel<R: RequestMethod>(&mut self, handle: &Handle<R>, reason: Option<&str>) -> Result<(), Error> {
        if self.drop_waiting(handle.id, Some(reason.unwrap_or("the request was cancelled"))) {
            return Ok(());
        }
        self.endpoint.cancel(handle.id, reason)
    }

    /// Reads one line from the server. [`Error::QueueFull`]: the line was not read; drain the
    /// queues and hand it in again.
    pub fn handle_line(&mut self, line: &[u8]) -> Result<(), Error> {
        let (declared, take_ping, inputs) = (&self.declared, self.endpoint.config.take_ping, &self.inputs);
        let read = self.endpoint.handle_line(line, &mut |id, method, _| {
            // The ids input requests are offered under are the engine's.
            if inputs.contains_key(id) {
                return Route::Refuse(mcp_spec_types::runtime::RpcError { code: mcp_spec_types::rpc::INVALID_REQUEST, message: "Invalid Request: this id is already in flight".into(), data: None });
            }
            if method == "ping" && !take_ping {
                return Route::Answer(Value::Object(Map::new()));
            }
            match CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) {
                Some((_, capability)) if !declared.iter().any(|d| d == capability) => {
                    refuse(METHOD_NOT_FOUND, format!("Method not found: {method} (the client did not declare `{capability}`)"))
                }
                _ => Route::Offer,
            }
        });
        if let Some(held) = self.endpoint.take_held() {
            self.on_held(held);
        }
        read
    }

    /// Answers the server's request `id` with `result` (or an input request's: its response).
    /// `result` is any type of this crate or a `Value`, written as it is (its
    /// [`WriteJson`](mcp_spec_types::WriteJson)); an input request's response is made a `Value` first.
    pub fn respond<T: Serialize + mcp_spec_types::WriteJson + ?Sized>(&mut self, id: &Id, result: &T) -> Result<Sent, Error> {
        if self.inputs.contains_key(id) {
            let result = serde_json::to_value(result).map_err(|e| Error::Serialize(e.to_string()))?;
            return self.answer_input(id, Ok(result)).map(|sent| sent.unwrap_or(Sent::Written));
        }
        self.endpoint.respond(id, result)
    }

    /// Answers the server's request `id` with an error. An input request has no error answer:
    /// refusing one fails the request it is for ([`Failure::Input`]).
    pub fn respond_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        if let Some(sent) = self.answer_input(id, Err(error))? {
            return Ok(sent);
        }
        self.endpoint.respond_error(id, error)
    }

    /// Gives the answers that are due by `now` up: each becomes an [`Failure::TimedOut`] answer.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.endpoint.handle_timeout(now);
        // A request waiting for input has nothing at the server to cancel.
        let expired: Vec<i64> = self.waiting.iter().filter(|(_, w)| w.deadline.is_some_and(|d| d <= now)).map(|(id, _)| *id).collect();
        for id in expired {
            self.drop_waiting(id, Some("timed out"));
            self.endpoint.push_event(Event::Answer(Answer { id, outcome: Err(Failure::TimedOut) }));
        }
    }

    /// The earliest deadline of a pending request (or one waiting for input).
    pub fn poll_timeout(&self) -> Option<Instant> {
        let waiting = self.waiting.values().filter_map(|w| w.deadline).min();
        self.endpoint.poll_timeout().into_iter().chain(waiting).min()
    }

    /// The next line to write: see [`Transmit`] (on a client, `request` names the server's
    /// request an answer is for; `None` for the client's own lines).
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.endpoint.poll_transmit()
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.endpoint.poll_event()
    }

    /// Requests sent and not yet answered (with those waiting for input).
    pub fn pending(&self) -> usize {
        self.endpoint.pending_len() + self.waiting.len()
    }
}
