//! The server role.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::endpoint::{Endpoint, Route};
use super::info::ServerInfo;
use super::level::LogLevel;
use super::{capability_names, check, notification_params, refuse, Config, Error, Event, Handle, Id, Sent, Transmit, CLIENT_CAPABILITY_OF};
use mcp_spec_types::negotiate::{self, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY};
use mcp_spec_types::rpc::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::{RequestMethod, RpcError};

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
struct PerRequest {
    version: String,
    method: String,
    capabilities: Value,
    log_level: Option<LogLevel>,
}

// What an offered request leaves to do once the endpoint has it in flight (a full table answers it instead).
enum Offered {
    Initialize { id: Id, params: Option<Value> },
    PerRequest(Id, PerRequest),
}

// Everything but the endpoint, so that the routing closure borrows it beside the endpoint.
struct State {
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
    offered: Option<Offered>,
}

/// The server role: lifecycle, version negotiation, validation of what arrives, the in-flight
/// table, cancellation, progress, `ping`, logging, and 2026-07-28's per-request protocol. See the
/// [module docs](super).
pub struct Server {
    endpoint: Endpoint,
    state: State,
}

impl Server {
    /// A server whose application answers `initialize` itself (as [`Event::Request`]); the
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
        server.state.stateless = true;
        server
    }

    fn build(config: Config, info: Option<ServerInfo>) -> Self {
        let state = State {
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
            offered: None,
        };
        Server { endpoint: Endpoint::new(config), state }
    }

    /// Reads one line from the client. [`Error::QueueFull`]: the line was not read; drain the
    /// queues and hand it in again.
    pub fn handle_line(&mut self, line: &[u8]) -> Result<(), Error> {
        let state = &mut self.state;
        let mut initialized = false;
        self.endpoint.handle_line_with(line, &mut |id, method, params| state.route(id, method, params), &mut |method, _| initialized |= method == "notifications/initialized")?;
        if initialized && self.state.lifecycle == Lifecycle::Initialized {
            self.state.lifecycle = Lifecycle::Ready;
        }
        match self.state.offered.take() {
            Some(Offered::Initialize { id, params }) if self.endpoint.is_in_flight(&id) => {
                self.state.client_declared = capability_names(params.as_ref());
                self.state.initialize = params;
                self.state.lifecycle = Lifecycle::Initializing(id);
            }
            Some(Offered::PerRequest(id, p)) if self.endpoint.is_in_flight(&id) => {
                self.state.per_request.insert(id, p);
            }
            _ => {}
        }
        self.endpoint.null_id = needs_null_id(self.state.version.as_deref());
        self.endpoint.batches = self.state.version.as_deref() == Some(super::endpoint::BATCH_VERSION);
        Ok(())
    }

    /// Answers the client's request `id` with `result`. [`Sent::Dropped`]: the client had
    /// cancelled it, nothing was written. A successful answer to `initialize` starts the session,
    /// in the version its `protocolVersion` names. A 2026-07-28 result gets `resultType`
    /// (`"complete"` unless set), the server's identity in `_meta`, and, when cacheable and
    /// without them, `ttlMs: 0` and `cacheScope: "private"`.
    ///
    /// `result` is any type of this crate or a `Value` (a type of your own: its `Value`). It is
    /// written as it is (its [`WriteJson`](mcp_spec_types::WriteJson)); only what the engine completes or
    /// reads (a 2026-07-28 result, the `initialize` answer) is made a `Value` first.
    pub fn respond<T: Serialize + mcp_spec_types::WriteJson + ?Sized>(&mut self, id: &Id, result: &T) -> Result<Sent, Error> {
        let per_request = self.state.info.as_ref().and_then(|info| Some((info, self.state.per_request.get(id)?)));
        let initializing = self.state.lifecycle == Lifecycle::Initializing(id.clone());
        if per_request.is_none() && !initializing {
            let sent = self.endpoint.respond(id, result)?;
            self.state.per_request.remove(id);
            return Ok(sent);
        }
        let mut result = serde_json::to_value(result).map_err(|e| Error::Serialize(e.to_string()))?;
        if let Some((info, p)) = per_request {
            info.complete(&p.method, &mut result);
        }
        let sent = self.endpoint.respond(id, &result)?;
        self.state.per_request.remove(id);
        if initializing {
            self.state.version = result.get("protocolVersion").and_then(Value::as_str).map(str::to_owned);
            self.endpoint.null_id = needs_null_id(self.state.version.as_deref());
        self.endpoint.batches = self.state.version.as_deref() == Some(super::endpoint::BATCH_VERSION);
            self.state.lifecycle = Lifecycle::Initialized;
        }
        Ok(sent)
    }

    /// Answers the client's request `id` with an error. An error to `initialize` leaves the
    /// session where it was: only `ping` and a new `initialize` are answered.
    pub fn respond_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        let sent = self.endpoint.respond_error(id, error)?;
        self.state.per_request.remove(id);
        if self.state.lifecycle == Lifecycle::Initializing(id.clone()) {
            self.state.lifecycle = Lifecycle::New;
            self.state.initialize = None;
            self.state.client_declared.clear();
        }
        Ok(sent)
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
        let (Some(p), Some(info)) = (self.state.per_request.get(id), &self.state.info) else {
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
        self.state.per_request.remove(id);
        Ok(sent)
    }

    /// Sends progress for the client's request `id`, with the token the request carried.
    /// Refused when the request had no token or `progress` does not increase; [`Sent::Dropped`]
    /// once the client cancelled the request.
    pub fn progress(&mut self, id: &Id, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<Sent, Error> {
        self.endpoint.progress(id, progress, total, message)
    }

    /// Sends a notification (e.g. `notifications/tools/list_changed`).
    pub fn notify<N: mcp_spec_types::runtime::NotificationMethod>(&mut self, notification: &N) -> Result<(), Error> {
        let params = notification_params(notification)?;
        self.endpoint.notify(None, N::METHOD, params)
    }

    /// Writes a log message (`notifications/message`) for the session: [`Sent::Dropped`] when
    /// `level` is below the level the client set with `logging/setLevel` (none set: every level is
    /// sent). Refused before `initialize` is answered, and for a server without a session (a
    /// 2026-07-28 client gets log messages only for its requests: [`log_for`](Self::log_for)).
    pub fn log<T: Serialize>(&mut self, level: LogLevel, logger: Option<&str>, data: &T) -> Result<Sent, Error> {
        if !self.is_initialized() {
            return Err(Error::NotInitialized);
        }
        if self.state.log_level.is_some_and(|min| level < min) {
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
        let min = match self.state.per_request.get(id) {
            Some(p) => match p.log_level {
                Some(min) => Some(min),
                None => return Ok(Sent::Dropped),
            },
            None => self.state.log_level,
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
    /// [`Event::Answer`]. Refused until the client's `notifications/initialized` (but `ping`), so
    /// always without a session (2026-07-28: [`respond_input_required`](Self::respond_input_required)
    /// instead), and for `sampling/createMessage`, `elicitation/create` and `roots/list` when the
    /// client did not declare that capability.
    pub fn request<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.may_request(R::METHOD)?;
        Ok(self.endpoint.request(&request, now, timeout, false)?.0)
    }

    /// As [`request`](Self::request), made while handling the client's request `on_behalf` (in
    /// flight, else [`Error::UnknownRequest`]): [`poll_transmit`](Self::poll_transmit) names that
    /// request ([`Transmit::request`]) on the line and its `notifications/cancelled` on [`cancel`](Self::cancel) or a timeout, with
    /// that request's id, so that an HTTP transport writes them on its stream.
    pub fn request_for<R: RequestMethod>(&mut self, on_behalf: &Id, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.may_request(R::METHOD)?;
        self.endpoint.request_for(on_behalf, &request, now, timeout)
    }

    fn may_request(&self, method: &str) -> Result<(), Error> {
        if method != "ping" && self.state.lifecycle != Lifecycle::Ready {
            return Err(Error::NotInitialized);
        }
        if let Some((_, capability)) = CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) {
            if !self.state.client_declared.iter().any(|d| d == capability) {
                return Err(Error::NotDeclared { capability });
            }
        }
        Ok(())
    }

    /// Writes `notifications/cancelled` for a request to the client; a late answer is dropped.
    pub fn cancel<R: RequestMethod>(&mut self, handle: &Handle<R>, reason: Option<&str>) -> Result<(), Error> {
        self.endpoint.cancel(handle.id, reason)
    }

    /// Gives the answers to the server's requests that are due by `now` up.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.endpoint.handle_timeout(now)
    }

    /// The earliest deadline of a request to the client.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.endpoint.poll_timeout()
    }

    /// Whether `initialize` has been answered with a result.
    pub fn is_initialized(&self) -> bool {
        matches!(self.state.lifecycle, Lifecycle::Initialized | Lifecycle::Ready)
    }

    /// Whether the client sent `notifications/initialized`: from then on the server may send it
    /// requests.
    pub fn is_ready(&self) -> bool {
        self.state.lifecycle == Lifecycle::Ready
    }

    /// The session's protocol version, once `initialize` is answered.
    pub fn version(&self) -> Option<&str> {
        self.state.version.as_deref()
    }

    /// The version of the client's request `id` in flight: its own (2026-07-28) or the session's.
    pub fn version_of(&self, id: &Id) -> Option<&str> {
        match self.state.per_request.get(id) {
            Some(p) => Some(&p.version),
            None if self.endpoint.is_in_flight(id) => self.version(),
            None => None,
        }
    }

    /// The client capabilities that hold for its request `id` in flight: those of its `_meta`
    /// (2026-07-28), or those of the session's `initialize`.
    pub fn client_capabilities(&self, id: &Id) -> Option<&Value> {
        match self.state.per_request.get(id) {
            Some(p) => Some(&p.capabilities),
            None if self.endpoint.is_in_flight(id) => self.state.initialize.as_ref().and_then(|p| p.get("capabilities")),
            None => None,
        }
    }

    /// The params of the client's `initialize` (`capabilities`, `clientInfo`, ...).
    pub fn initialize_params(&self) -> Option<&Value> {
        self.state.initialize.as_ref()
    }

    /// The level the client set with `logging/setLevel`.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.state.log_level
    }

    /// Requests of the client's not answered yet (cancelled ones included until answered).
    pub fn in_flight(&self) -> usize {
        self.endpoint.in_flight_len()
    }

    #[cfg(all(test, feature = "v2026-07-28"))]
    pub(crate) fn state_sizes(&self) -> usize {
        self.state.per_request.len()
    }

    /// The next line to write, with the client's request it belongs to ([`Transmit`]).
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.endpoint.poll_transmit()
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.endpoint.poll_event()
    }
}

fn rpc_error(code: i64, message: String) -> RpcError {
    RpcError { code, message, data: None }
}

impl State {
    /// What becomes of a request of the client's.
    fn route(&mut self, id: &Id, method: &str, params: Option<&Value>) -> Route {
        match self.lifecycle {
            Lifecycle::New if self.stateless => self.per_request(id, method, params),
            Lifecycle::New if method == "initialize" => self.initialize(id, params),
            // A client that sends no `initialize` to a server of per-request versions speaks one of those.
            Lifecycle::New if method != "ping" && self.info.as_ref().is_some_and(|i| !i.per_request_versions().is_empty()) => self.per_request(id, method, params),
            Lifecycle::New if carries_version(params) => self.per_request(id, method, params),
            _ if method == "ping" => self.ping(),
            _ if method == "initialize" => refuse(INVALID_REQUEST, "Invalid Request: initialize was already received".into()),
            // The spec: no requests but ping before the server has answered initialize.
            Lifecycle::New | Lifecycle::Initializing(_) => refuse(INVALID_REQUEST, format!("Invalid Request: {method} before initialize was answered")),
            Lifecycle::Initialized | Lifecycle::Ready => self.session(id, method, params),
        }
    }

    fn ping(&self) -> Route {
        if self.take_ping {
            Route::Offer
        } else {
            Route::Answer(Value::Object(Map::new()))
        }
    }

    fn check(&self, version: &str, id: &Id, method: &str, params: Option<&Value>) -> Option<RpcError> {
        if !self.validate {
            return None;
        }
        check::request(version, id, method, params)
    }

    fn initialize(&mut self, id: &Id, params: Option<&Value>) -> Route {
        let proposed = params.and_then(|p| p.get("protocolVersion")).and_then(Value::as_str).unwrap_or("");
        let built: Vec<&str> = check::BUILT.to_vec();
        let supported = self.info.as_ref().map_or(built, ServerInfo::handshake_versions);
        let answer = negotiate::answer_initialize(proposed, &supported).map(|a| a.version.to_owned());
        if let Some(error) = answer.as_deref().and_then(|v| self.check(v, id, "initialize", params)) {
            return Route::Refuse(error);
        }
        let Some(info) = &self.info else {
            self.offered = Some(Offered::Initialize { id: id.clone(), params: params.cloned() });
            return Route::Offer;
        };
        let Some(version) = answer else {
            // A server of per-request versions alone has no handshake to offer.
            return refuse(METHOD_NOT_FOUND, format!("Method not found: initialize (this server serves {} per request)", info.versions.join(", ")));
        };
        let result = info.initialize_result(&version);
        self.version = Some(version);
        self.client_declared = capability_names(params);
        self.initialize = params.cloned();
        self.lifecycle = Lifecycle::Initialized;
        Route::Answer(result)
    }

    fn session(&mut self, id: &Id, method: &str, params: Option<&Value>) -> Route {
        let version = self.version.clone().unwrap_or_default();
        if let Some(error) = self.check(&version, id, method, params) {
            return Route::Refuse(error);
        }
        if method != "logging/setLevel" {
            return Route::Offer;
        }
        if self.info.as_ref().is_some_and(|i| !i.has_capability("logging")) {
            return refuse(METHOD_NOT_FOUND, "Method not found: logging/setLevel (the server did not declare `logging`)".into());
        }
        match read_level(Some(params.and_then(|p| p.get("level")).unwrap_or(&Value::Null)), "/params/level") {
            Ok(level) => {
                self.log_level = level;
                Route::Answer(Value::Object(Map::new()))
            }
            Err(error) => Route::Refuse(error),
        }
    }

    /// A request of a client that sent no `initialize` (2026-07-28).
    fn per_request(&mut self, id: &Id, method: &str, params: Option<&Value>) -> Route {
        let Some(info) = &self.info else { return refuse(INVALID_REQUEST, "Invalid Request: no initialize".into()) };
        let meta = params.and_then(|p| p.get("_meta"));
        let version = match meta.and_then(|m| m.get(PROTOCOL_VERSION_META_KEY)).and_then(Value::as_str) {
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
        if let Some(error) = self.check(&version, id, method, params) {
            return Route::Refuse(error);
        }
        if method == "server/discover" {
            return Route::Answer(info.discover_result());
        }
        let log_level = match meta.and_then(|m| m.get(LOG_LEVEL_META_KEY)) {
            None => None,
            Some(level) => match read_level(Some(level), &format!("/params/_meta/{}", LOG_LEVEL_META_KEY.replace('/', "~1"))) {
                Ok(level) => level,
                Err(error) => return Route::Refuse(error),
            },
        };
        let capabilities = meta.and_then(|m| m.get(CLIENT_CAPABILITIES_META_KEY)).cloned().unwrap_or_else(|| json!({}));
        let entry = PerRequest { version, method: method.to_owned(), capabilities, log_level };
        self.offered = Some(Offered::PerRequest(id.clone(), entry));
        Route::Offer
    }
}

fn carries_version(params: Option<&Value>) -> bool {
    params.and_then(|p| p.get("_meta")).and_then(|m| m.get(PROTOCOL_VERSION_META_KEY)).is_some()
}

/// A level the spec names; anything else is -32602 (with validation off too: a level the server
/// cannot order must not silence or flood the log). `Ok(None)` only for a missing level.
fn read_level(level: Option<&Value>, pointer: &str) -> Result<Option<LogLevel>, RpcError> {
    let Some(level) = level else { return Ok(None) };
    match level.as_str().and_then(LogLevel::parse) {
        Some(l) => Ok(Some(l)),
        None => {
            let message = format!("`{}` is not a log level (debug, info, notice, warning, error, critical, alert, emergency)", level.to_string().chars().take(64).collect::<String>());
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
