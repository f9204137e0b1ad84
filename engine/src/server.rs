//! The server role.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::endpoint::{Endpoint, Message, Policy, Route};
use super::info::ServerInfo;
use super::level::LogLevel;
use super::shared::{Engine, Side};
use super::{capability_names, check, refuse, Config, Error, Handle, Id, Sent, CLIENT_CAPABILITY_OF};
use mcp_spec_types::negotiate::{self, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY};
use mcp_spec_types::rpc::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::{RequestMethod, RpcError};
use mcp_spec_types::tree::Node;
use mcp_spec_types::write::WriteJson;

#[derive(Debug, Clone, PartialEq)]
enum Lifecycle {
    /// Only `ping` and `initialize` are answered (and, with a per-request version served, requests
    /// that carry their version).
    New,
    /// `initialize` was offered to the application and is not answered yet.
    Initializing(Id),
    /// `initialize` is answered; the client's `notifications/initialized` has not come.
    Initialized,
    /// The client sent `notifications/initialized`.
    Ready,
}

// A request of a client that sent no `initialize` (2026-07-28): what its `_meta` said, kept only
// while the request is in flight, never for the next one.
#[doc(hidden)]
pub struct PerRequest {
    version: String,
    method: String,
    capabilities: Value,
    log_level: Option<LogLevel>,
}

// What an offered request leaves to do once the endpoint has it in flight (a full table answers it instead).
#[doc(hidden)]
pub enum Offered {
    Session,
    Initialize(Option<Value>),
    PerRequest(PerRequest),
}

/// The server's side of the engine: the lifecycle, the session's version and level, and what each
/// 2026-07-28 request's `_meta` said. Made by [`Server::new`], [`Server::with_info`] and
/// [`Server::stateless`].
pub struct ServerSide {
    info: Option<ServerInfo>,
    // No session can start: every request is per request.
    stateless: bool,
    validate: bool,
    take_ping: bool,
    lifecycle: Lifecycle,
    version: Option<String>,
    // The client's `initialize` params (its capabilities and clientInfo).
    initialize: Option<Value>,
    client_declared: Vec<String>,
    log_level: Option<LogLevel>,
    // At most one entry per request in flight.
    per_request: HashMap<Id, PerRequest>,
}

/// The server role: lifecycle, version negotiation, validation of what arrives, the in-flight
/// table, cancellation, progress, `ping`, logging, and 2026-07-28's per-request protocol; its
/// shared methods are [`Engine`]'s. See the [crate docs](crate).
pub type Server = Engine<ServerSide>;

impl Side for ServerSide {}

impl Server {
    /// A server whose application answers `initialize` itself (as [`Event::Request`](crate::Event::Request)); the
    /// session's version is then the one its answer names. Serves no per-request version.
    pub fn new(config: Config) -> Self {
        Server::build(config, None)
    }

    /// A server that answers `initialize` (the version negotiated through
    /// [`negotiate::answer_initialize`] among `info.versions`) and `server/discover` itself, and
    /// serves the per-request versions (2026-07-28) of `info.versions` to clients that send no
    /// `initialize`.
    pub fn with_info(config: Config, info: ServerInfo) -> Self {
        Server::build(config, Some(info))
    }

    /// A server for requests that can have no session (one HTTP POST without a session id, say):
    /// every request is a per-request one, so one without `params._meta`'s version is -32602, not
    /// "before initialize". `info.versions` still names the handshake versions to the client (in
    /// `server/discover` and in -32022's list).
    pub fn stateless(config: Config, info: ServerInfo) -> Self {
        let mut server = Server::build(config, Some(info));
        server.side.stateless = true;
        server
    }

    fn build(config: Config, info: Option<ServerInfo>) -> Self {
        let side = ServerSide {
            stateless: false,
            info,
            validate: config.validate,
            take_ping: config.take_ping,
            lifecycle: Lifecycle::New,
            version: None,
            initialize: None,
            client_declared: Vec::new(),
            log_level: None,
            per_request: HashMap::new(),
        };
        Engine::with_side(config, side)
    }

    /// Answers a 2026-07-28 request with an `InputRequiredResult`: the client is to fulfil
    /// `input_requests` (key → `{"method", "params"}`: `elicitation/create`, `sampling/createMessage`,
    /// `roots/list`) and send the request again with `inputResponses` under the same keys and
    /// `requestState` as given here ([`Request::input_responses`](super::Request::input_responses),
    /// [`Request::request_state`](super::Request::request_state)). Refused for a request of a
    /// session ([`Error::NotPerRequest`]: use [`request`](Self::request) there), for an input
    /// request whose capability the request's `_meta` did not declare, and when both are empty.
    /// The state comes back from the client as it likes: protect what it must not change (e.g. a
    /// MAC over it).
    pub fn respond_input_required(&mut self, id: &Id, input_requests: Map<String, Value>, request_state: Option<&str>) -> Result<Sent, Error> {
        let (Some(p), Some(info)) = (self.side.per_request.get(id), &self.side.info) else {
            return Err(if self.endpoint.is_in_flight(id) { Error::NotPerRequest } else { Error::UnknownRequest });
        };
        if input_requests.is_empty() && request_state.is_none() {
            return Err(Error::Serialize("an InputRequiredResult carries inputRequests or requestState".into()));
        }
        for request in input_requests.values() {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            if let Some((_, capability)) = CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) {
                if p.capabilities.get(*capability).is_none() {
                    return Err(Error::NotDeclared { capability });
                }
            }
        }
        let mut result = Map::new();
        result.insert("resultType".into(), json!("input_required"));
        if !input_requests.is_empty() {
            result.insert("inputRequests".into(), Value::Object(input_requests));
        }
        if let Some(s) = request_state {
            result.insert("requestState".into(), Value::from(s));
        }
        let mut result = Value::Object(result);
        info.complete(&p.method, &mut result);
        let sent = self.endpoint.respond(id, &result)?;
        self.side.per_request.remove(id);
        Ok(sent)
    }

    /// Sends progress for the client's request `id`, with the token the request carried.
    /// Refused when the request had no token or `progress` does not increase; [`Sent::Dropped`]
    /// once the client cancelled the request.
    pub fn progress(&mut self, id: &Id, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<Sent, Error> {
        self.endpoint.progress(id, progress, total, message)
    }

    /// Writes a log message (`notifications/message`) for the session: [`Sent::Dropped`] when
    /// `level` is below the level the client set with `logging/setLevel` (none set: every level is
    /// sent). Refused before `initialize` is answered, and for a server without a session (a
    /// 2026-07-28 client gets log messages only for its requests: [`log_for`](Self::log_for)).
    pub fn log<T: Serialize>(&mut self, level: LogLevel, logger: Option<&str>, data: &T) -> Result<Sent, Error> {
        if !self.is_initialized() {
            return Err(Error::NotInitialized);
        }
        if self.side.log_level.is_some_and(|min| level < min) {
            return Ok(Sent::Dropped);
        }
        self.write_log(None, level, logger, data)
    }

    /// Writes a log message about the client's request `id`. A 2026-07-28 request gets it only
    /// when its `_meta` asked for log messages (`io.modelcontextprotocol/logLevel`) at `level` or
    /// below; a request of a session as [`log`](Self::log) decides. [`Sent::Dropped`] also once the
    /// client cancelled the request.
    pub fn log_for<T: Serialize>(&mut self, id: &Id, level: LogLevel, logger: Option<&str>, data: &T) -> Result<Sent, Error> {
        let cancelled = self.endpoint.is_cancelled(id).ok_or(Error::UnknownRequest)?;
        let min = match self.side.per_request.get(id) {
            Some(p) => match p.log_level {
                Some(min) => Some(min),
                None => return Ok(Sent::Dropped),
            },
            None => self.side.log_level,
        };
        if cancelled || min.is_some_and(|min| level < min) {
            return Ok(Sent::Dropped);
        }
        self.write_log(Some(id), level, logger, data)
    }

    fn write_log<T: Serialize>(&mut self, on_behalf: Option<&Id>, level: LogLevel, logger: Option<&str>, data: &T) -> Result<Sent, Error> {
        let mut params = Map::new();
        params.insert("level".into(), Value::from(level.as_str()));
        if let Some(logger) = logger {
            params.insert("logger".into(), Value::from(logger));
        }
        params.insert("data".into(), serde_json::to_value(data).map_err(|e| Error::Serialize(e.to_string()))?);
        self.endpoint.notify(on_behalf, "notifications/message", params)?;
        Ok(Sent::Written)
    }

    /// Sends a request to the client (its id replaced by the engine's); the answer comes as
    /// [`Event::Answer`](crate::Event::Answer). Refused until the client's `notifications/initialized` (but `ping`), so
    /// always without a session (2026-07-28: [`respond_input_required`](Self::respond_input_required)
    /// instead), and for `sampling/createMessage`, `elicitation/create` and `roots/list` when the
    /// client did not declare that capability.
    pub fn request<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.may_request(R::METHOD)?;
        Ok(self.endpoint.request(&request, now, timeout, false)?.0)
    }

    /// As [`request`](Self::request), made while handling the client's request `on_behalf` (in
    /// flight, else [`Error::UnknownRequest`]): [`poll_transmit`](Self::poll_transmit) names that
    /// request ([`Transmit::request`](crate::Transmit::request)) on the line and its `notifications/cancelled` on [`cancel`](Self::cancel) or a timeout, with
    /// that request's id, so that an HTTP transport writes them on its stream.
    pub fn request_for<R: RequestMethod>(&mut self, on_behalf: &Id, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.may_request(R::METHOD)?;
        self.endpoint.request_for(on_behalf, &request, now, timeout)
    }

    fn may_request(&self, method: &str) -> Result<(), Error> {
        if method != "ping" && self.side.lifecycle != Lifecycle::Ready {
            return Err(Error::NotInitialized);
        }
        if let Some((_, capability)) = CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) {
            if !self.side.client_declared.iter().any(|d| d == capability) {
                return Err(Error::NotDeclared { capability });
            }
        }
        Ok(())
    }

    /// Whether `initialize` has been answered with a result.
    pub fn is_initialized(&self) -> bool {
        matches!(self.side.lifecycle, Lifecycle::Initialized | Lifecycle::Ready)
    }

    /// Whether the client sent `notifications/initialized`: from then on the server may send it
    /// requests.
    pub fn is_ready(&self) -> bool {
        self.side.lifecycle == Lifecycle::Ready
    }

    /// The session's protocol version, once `initialize` is answered.
    pub fn version(&self) -> Option<&str> {
        self.side.version.as_deref()
    }

    /// The version of the client's request `id` in flight: its own (2026-07-28) or the session's.
    pub fn version_of(&self, id: &Id) -> Option<&str> {
        match self.side.per_request.get(id) {
            Some(p) => Some(&p.version),
            None if self.endpoint.is_in_flight(id) => self.version(),
            None => None,
        }
    }

    /// The client capabilities that hold for its request `id` in flight: those of its `_meta`
    /// (2026-07-28), or those of the session's `initialize`.
    pub fn client_capabilities(&self, id: &Id) -> Option<&Value> {
        match self.side.per_request.get(id) {
            Some(p) => Some(&p.capabilities),
            None if self.endpoint.is_in_flight(id) => self.side.initialize.as_ref().and_then(|p| p.get("capabilities")),
            None => None,
        }
    }

    /// The params of the client's `initialize` (`capabilities`, `clientInfo`, ...).
    pub fn initialize_params(&self) -> Option<&Value> {
        self.side.initialize.as_ref()
    }

    /// The level the client set with `logging/setLevel`.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.side.log_level
    }

    /// Requests of the client's not answered yet (cancelled ones included until answered).
    pub fn in_flight(&self) -> usize {
        self.endpoint.in_flight_len()
    }

    #[cfg(all(test, feature = "v2026-07-28"))]
    pub(crate) fn state_sizes(&self) -> usize {
        self.side.per_request.len()
    }

}

impl Policy for ServerSide {
    const DIRECTIONS: (&'static str, &'static str) = ("c2s", "s2c");
    type Kept = Offered;

    fn route(&mut self, _: &Id, method: &str, message: Message<'_>) -> Route<Offered> {
        self.route_request(method, message)
    }

    fn offered(&mut self, id: &Id, kept: Offered) {
        match kept {
            Offered::Session => {}
            Offered::Initialize(params) => {
                self.client_declared = capability_names(params.as_ref());
                self.initialize = params;
                self.lifecycle = Lifecycle::Initializing(id.clone());
            }
            Offered::PerRequest(p) => {
                self.per_request.insert(id.clone(), p);
            }
        }
    }

    fn notified(&mut self, method: &str) {
        if method == "notifications/initialized" && self.lifecycle == Lifecycle::Initialized {
            self.lifecycle = Lifecycle::Ready;
        }
    }

    fn null_id(&self) -> bool {
        needs_null_id(self.version.as_deref())
    }

    fn batches(&self) -> bool {
        self.version.as_deref() == Some(super::endpoint::BATCH_VERSION)
    }

    /// Written by the crate's writer; a 2026-07-28 result gets its keys put into that text
    /// ([`complete_text`](super::info::complete_text)). Only the `initialize` answer, which the
    /// engine reads, is made a `Value` first.
    fn respond<T: Serialize + WriteJson + ?Sized>(&mut self, endpoint: &mut Endpoint, id: &Id, result: &T) -> Result<Sent, Error> {
        let initializing = self.lifecycle == Lifecycle::Initializing(id.clone());
        if !initializing {
            let sent = match self.info.as_ref().and_then(|info| Some((info, self.per_request.get(id)?))) {
                Some((info, p)) => {
                    let mut text = Vec::new();
                    result.write_json(&mut text);
                    super::info::complete_text(info, &p.method, &mut text);
                    endpoint.respond(id, &super::wire::Written(text))?
                }
                None => endpoint.respond(id, result)?,
            };
            self.per_request.remove(id);
            return Ok(sent);
        }
        // `initialize` is never a per-request method.
        let result = serde_json::to_value(result).map_err(|e| Error::Serialize(e.to_string()))?;
        let sent = endpoint.respond(id, &result)?;
        self.per_request.remove(id);
        if initializing {
            self.version = result.get("protocolVersion").and_then(Value::as_str).map(str::to_owned);
            self.lifecycle = Lifecycle::Initialized;
        }
        Ok(sent)
    }

    fn respond_error(&mut self, endpoint: &mut Endpoint, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        let sent = endpoint.respond_error(id, error)?;
        self.per_request.remove(id);
        if self.lifecycle == Lifecycle::Initializing(id.clone()) {
            self.lifecycle = Lifecycle::New;
            self.initialize = None;
            self.client_declared.clear();
        }
        Ok(sent)
    }
}

fn rpc_error(code: i64, message: String) -> RpcError {
    RpcError { code, message, data: None }
}

impl ServerSide {
    /// What becomes of a request of the client's.
    fn route_request(&mut self, method: &str, message: Message<'_>) -> Route<Offered> {
        match self.lifecycle {
            Lifecycle::New if self.stateless => self.per_request(method, message),
            Lifecycle::New if method == "initialize" => self.initialize(message),
            // A client that sends no `initialize` to a server of per-request versions speaks one of those.
            Lifecycle::New if method != "ping" && self.info.as_ref().is_some_and(|i| !i.per_request_versions().is_empty()) => self.per_request(method, message),
            Lifecycle::New if message.meta(PROTOCOL_VERSION_META_KEY).is_some() => self.per_request(method, message),
            _ if method == "ping" => self.ping(),
            _ if method == "initialize" => refuse(INVALID_REQUEST, "Invalid Request: initialize was already received".into()),
            // The spec: no requests but ping before the server has answered initialize.
            Lifecycle::New | Lifecycle::Initializing(_) => refuse(INVALID_REQUEST, format!("Invalid Request: {method} before initialize was answered")),
            Lifecycle::Initialized | Lifecycle::Ready => self.session(method, message),
        }
    }

    fn ping(&self) -> Route<Offered> {
        if self.take_ping {
            Route::Offer(Offered::Session)
        } else {
            Route::Answer(Value::Object(Map::new()))
        }
    }

    fn check(&self, version: &str, method: &str, message: Message<'_>) -> Option<RpcError> {
        if !self.validate {
            return None;
        }
        check::request(version, method, message.message)
    }

    fn initialize(&mut self, message: Message<'_>) -> Route<Offered> {
        let proposed = message.param("protocolVersion").and_then(Node::as_str).unwrap_or("");
        let built: Vec<&str> = check::BUILT.to_vec();
        let supported = self.info.as_ref().map_or(built, ServerInfo::handshake_versions);
        let answer = negotiate::answer_initialize(proposed, &supported).map(|a| a.version.to_owned());
        if let Some(error) = answer.as_deref().and_then(|v| self.check(v, "initialize", message)) {
            return Route::Refuse(error);
        }
        // Kept for the session (a `Value`) only once it is offered or answered.
        let Some(info) = &self.info else {
            return Route::Offer(Offered::Initialize(message.params.map(super::wire::value)));
        };
        let Some(version) = answer else {
            // A server of per-request versions alone has no handshake to offer.
            return refuse(METHOD_NOT_FOUND, format!("Method not found: initialize (this server serves {} per request)", info.versions.join(", ")));
        };
        let result = info.initialize_result(&version);
        let params = message.params.map(super::wire::value);
        self.version = Some(version);
        self.client_declared = capability_names(params.as_ref());
        self.initialize = params;
        self.lifecycle = Lifecycle::Initialized;
        Route::Answer(result)
    }

    fn session(&mut self, method: &str, message: Message<'_>) -> Route<Offered> {
        let version = self.version.clone().unwrap_or_default();
        if let Some(error) = self.check(&version, method, message) {
            return Route::Refuse(error);
        }
        if method != "logging/setLevel" {
            return Route::Offer(Offered::Session);
        }
        if self.info.as_ref().is_some_and(|i| !i.has_capability("logging")) {
            return refuse(METHOD_NOT_FOUND, "Method not found: logging/setLevel (the server did not declare `logging`)".into());
        }
        match read_level(Some(message.param("level")), "/params/level") {
            Ok(level) => {
                self.log_level = level;
                Route::Answer(Value::Object(Map::new()))
            }
            Err(error) => Route::Refuse(error),
        }
    }

    /// A request of a client that sent no `initialize` (2026-07-28).
    fn per_request(&mut self, method: &str, message: Message<'_>) -> Route<Offered> {
        let Some(info) = &self.info else { return refuse(INVALID_REQUEST, "Invalid Request: no initialize".into()) };
        let version = match message.meta(PROTOCOL_VERSION_META_KEY).and_then(Node::as_str) {
            None => return refuse(INVALID_PARAMS, format!("Invalid params: params._meta needs the string `{PROTOCOL_VERSION_META_KEY}`")),
            Some(v) if info.per_request_versions().contains(&v) => v.to_owned(),
            // Every version served, handshake ones included, so the client can fall back to `initialize`.
            Some(v) => {
                let e = negotiate::VersionError::Unsupported { requested: v.chars().take(64).collect(), supported: info.versions.clone() };
                return Route::Refuse(serde_json::from_value(e.error_object()).unwrap_or_else(|_| rpc_error(e.code(), e.to_string())));
            }
        };
        // Not in the per-request versions: the session and its level are gone.
        if matches!(method, "ping" | "logging/setLevel" | "initialize") {
            return refuse(METHOD_NOT_FOUND, format!("Method not found: {method} (protocol version {version})"));
        }
        if let Some(error) = self.check(&version, method, message) {
            return Route::Refuse(error);
        }
        if method == "server/discover" {
            return Route::Answer(info.discover_result());
        }
        let log_level = match message.meta(LOG_LEVEL_META_KEY) {
            None => None,
            Some(level) => match read_level(Some(Some(level)), &format!("/params/_meta/{}", LOG_LEVEL_META_KEY.replace('/', "~1"))) {
                Ok(level) => level,
                Err(error) => return Route::Refuse(error),
            },
        };
        let capabilities = message.meta(CLIENT_CAPABILITIES_META_KEY).map_or_else(|| json!({}), super::wire::value);
        let entry = PerRequest { version, method: method.to_owned(), capabilities, log_level };
        Route::Offer(Offered::PerRequest(entry))
    }
}

/// A level the spec names; anything else is -32602 (with validation off too: a level the server
/// cannot order must not silence or flood the log). `Ok(None)` only for a missing level; a
/// `Some(None)` level is the key's absence where one is required (read as `null`).
fn read_level(level: Option<Option<Node<'_>>>, pointer: &str) -> Result<Option<LogLevel>, RpcError> {
    let Some(level) = level else { return Ok(None) };
    match level.and_then(Node::as_str).and_then(LogLevel::parse) {
        Some(l) => Ok(Some(l)),
        None => {
            let shown = level.map_or_else(|| "null".to_owned(), |l| l.to_string());
            let message = format!("`{}` is not a log level (debug, info, notice, warning, error, critical, alert, emergency)", shown.chars().take(64).collect::<String>());
            let data = json!({"violations": [{"pointer": pointer, "rule": "enum", "message": message}], "omitted": 0});
            Err(RpcError { code: INVALID_PARAMS, message: format!("Invalid params: {pointer}: [enum] {message}"), data: Some(data) })
        }
    }
}

/// Whether an error answer to a request whose id could not be read says `"id": null`: the
/// versions before 2025-11-25 require an `id` (JSON-RPC's `null` is the only one left); from
/// 2025-11-25 on it is optional and never `null`, so the key is left out, as it is before a
/// version is known.
fn needs_null_id(version: Option<&str>) -> bool {
    // Dated versions compare as text; anything else (a draft) is newer.
    version.is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()) && v < "2025-11-25")
}
