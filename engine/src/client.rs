//! The client role.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::endpoint::{request_object, Endpoint, Message, Pending, Policy, Route};
use super::per_request::Waiting;
use super::shared::{Engine, Side};
use super::{capability_names, refuse, Config, Error, Failure, Handle, Id, PerRequest, Sent, CLIENT_CAPABILITY_OF};
use mcp_spec_types::rpc::{INVALID_REQUEST, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::{RequestMethod, RpcError};
use mcp_spec_types::write::WriteJson;

/// The client role: its shared methods are [`Engine`]'s. See the [crate docs](crate).
pub type Client = Engine<ClientSide>;

/// The client's side of the engine: what it declared, and (2026-07-28) the requests waiting for
/// the application's input. Made by [`Client::new`] and [`Client::per_request`].
pub struct ClientSide {
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
    take_ping: bool,
    // The answer to `initialize` named 2025-03-26: the server's batches are read.
    batches: bool,
}

impl Side for ClientSide {}

impl Client {
    /// A client of a session version (2024-11-05 to 2025-11-25): it sends `initialize` first.
    pub fn new(config: Config) -> Self {
        let side = ClientSide { declared: Vec::new(), per_request: None, version: String::new(), waiting: HashMap::new(), inputs: HashMap::new(), take_ping: config.take_ping, batches: false };
        Engine::with_side(config, side)
    }

    /// A client of a per-request version (2026-07-28 on): no `initialize`; every request carries
    /// the version and the client's capabilities in `params._meta` (see [`PerRequest`]). The input
    /// requests of an `InputRequiredResult` come as [`Event::Request`](crate::Event::Request)s (sampling, elicitation,
    /// roots: the same as a session's server requests; [`Client::input_for`] tells them apart),
    /// answered with [`respond`](Self::respond); once each is answered the engine sends the request
    /// again with them. An unsupported-version error is retried once with a version the server
    /// lists, when the client speaks one.
    pub fn per_request(config: Config, per_request: PerRequest) -> Self {
        let mut client = Client::new(config);
        client.side.declared = per_request.capabilities.keys().take(64).cloned().collect();
        client.side.version = per_request.versions.first().cloned().unwrap_or_default();
        client.side.per_request = Some(per_request);
        client
    }

    /// The version a per-request client's requests carry now (`None` for a session client).
    pub fn protocol_version(&self) -> Option<&str> {
        self.side.per_request.as_ref().map(|_| self.side.version.as_str())
    }

    /// Sets the `io.modelcontextprotocol/logLevel` of the requests to come (per-request client;
    /// `None`: no log messages). A request that sets its own keeps it.
    pub fn set_log_level(&mut self, level: Option<&str>) {
        if let Some(per) = &mut self.side.per_request {
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
    /// `params._meta`, and the server's progress comes as [`Event::Progress`](crate::Event::Progress) for this request.
    pub fn request_with_progress<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.send(request, now, timeout, true)
    }

    fn send<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>, progress: bool) -> Result<Handle<R>, Error> {
        if self.side.per_request.is_none() {
            let (handle, params) = self.endpoint.request(&request, now, timeout, progress)?;
            if R::METHOD == "initialize" {
                self.side.declared = capability_names(Some(&params));
            }
            return Ok(handle);
        }
        if R::METHOD == "initialize" {
            return Err(Error::NoInitialize);
        }
        self.endpoint.room_to_send(self.side.waiting.len())?;
        let mut object = request_object(&request)?;
        self.side.stamp(&mut object)?;
        let deadline = timeout.and_then(|t| now.checked_add(t));
        let (id, _) = self.endpoint.send(R::METHOD, object.clone(), None, deadline, progress, Some(object))?;
        Ok(Handle { id, _request: std::marker::PhantomData })
    }

    /// Whether `id` is one of the input requests of an `InputRequiredResult`; the id of the
    /// request it is for ([`Handle::id`]).
    pub fn input_for(&self, id: &Id) -> Option<i64> {
        self.side.inputs.get(id).map(|(handle, _)| *handle)
    }

    /// Requests sent and not yet answered (with those waiting for input).
    pub fn pending(&self) -> usize {
        self.endpoint.pending_len() + self.side.waiting.len()
    }
}

impl Policy for ClientSide {
    const DIRECTIONS: (&'static str, &'static str) = ("s2c", "c2s");
    type Kept = ();

    fn route(&mut self, id: &Id, method: &str, _: Message<'_>) -> Route<()> {
        // The ids input requests are offered under are the engine's.
        if self.inputs.contains_key(id) {
            return refuse(INVALID_REQUEST, "Invalid Request: this id is already in flight".into());
        }
        if method == "ping" && !self.take_ping {
            return Route::Answer(Value::Object(Map::new()));
        }
        match CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) {
            Some((_, capability)) if !self.declared.iter().any(|d| d == capability) => {
                refuse(METHOD_NOT_FOUND, format!("Method not found: {method} (the client did not declare `{capability}`)"))
            }
            _ => Route::Offer(()),
        }
    }

    fn answered(&mut self, endpoint: &mut Endpoint, pending: Pending, outcome: Result<Value, Failure>) {
        // The session's version decides whether the server's batches are read.
        if pending.method == "initialize" {
            self.batches = outcome.as_ref().is_ok_and(|r| r.get("protocolVersion").and_then(Value::as_str) == Some(super::endpoint::BATCH_VERSION));
        }
        self.on_answer(endpoint, pending, outcome);
    }

    fn batches(&self) -> bool {
        self.batches
    }

    /// An input request's response is made a `Value` first.
    fn respond<T: Serialize + WriteJson + ?Sized>(&mut self, endpoint: &mut Endpoint, id: &Id, result: &T) -> Result<Sent, Error> {
        if self.inputs.contains_key(id) {
            let result = serde_json::to_value(result).map_err(|e| Error::Serialize(e.to_string()))?;
            return self.answer_input(endpoint, id, Ok(result)).map(|sent| sent.unwrap_or(Sent::Written));
        }
        endpoint.respond(id, result)
    }

    fn respond_error(&mut self, endpoint: &mut Endpoint, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        if let Some(sent) = self.answer_input(endpoint, id, Err(error))? {
            return Ok(sent);
        }
        endpoint.respond_error(id, error)
    }

    fn cancel(&mut self, endpoint: &mut Endpoint, handle: i64, reason: Option<&str>) -> Result<(), Error> {
        if self.drop_waiting(endpoint, handle, Some(reason.unwrap_or("the request was cancelled"))) {
            return Ok(());
        }
        endpoint.cancel(handle, reason)
    }

    fn handle_timeout(&mut self, endpoint: &mut Endpoint, now: Instant) {
        // A request waiting for input has nothing at the server to cancel.
        let expired: Vec<i64> = self.waiting.iter().filter(|(_, w)| w.deadline.is_some_and(|d| d <= now)).map(|(id, _)| *id).collect();
        for id in expired {
            self.drop_waiting(endpoint, id, Some("timed out"));
            endpoint.push_event(crate::Event::Answer(crate::Answer { id, outcome: Err(Failure::TimedOut) }));
        }
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.waiting.values().filter_map(|w| w.deadline).min()
    }
}
