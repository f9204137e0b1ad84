//! A session engine without I/O: the JSON-RPC bookkeeping of an MCP client or server, as a
//! state machine the caller drives.
//!
//! The engine has no threads, no async runtime and no clock. The caller hands it each line that
//! arrived ([`Client::handle_line`]) and the current [`Instant`](std::time::Instant) when it asks for something that
//! can time out; the engine hands back the lines to write ([`Client::poll_transmit`], each one
//! JSON-RPC message without its newline, a [`Transmit`]), what happened ([`Client::poll_event`]), and when it next
//! needs the clock ([`Client::poll_timeout`], then [`Client::handle_timeout`]). A blocking stdio
//! loop, an async task or a test with byte strings drive the same engine.
//!
//! [`Client`] and [`Server`] are one [`Engine`] over two [`Side`]s: the methods both have
//! (reading a line, timeouts, [`Transmit`]s, events, answers, notifications, cancellation) are
//! [`Engine`]'s, each role's own are on its alias. Every table of requests in flight, here and in
//! the [`observe::Observer`], is a [`table::Table`], bounded by count and by bytes.
//!
//! It works at the JSON-RPC level, for every protocol version: a request is any version's typed
//! request (`R: RequestMethod`), sent with the engine's own integer id; its answer comes back as
//! an [`Answer`] that its [`Handle`] reads as `R::Result`. What the peer sends (requests,
//! notifications, `params`) is kept as JSON for the application to read as its version's types
//! ([`Request::read`]). Each line is parsed once, into a compact tree
//! ([`tree::Doc`](mcp_spec_types::tree::Doc), a few bytes per value), which the engine classifies and
//! validates; only what it hands the application or keeps becomes a `serde_json::Value`, so a
//! request it refuses or an answer or notification it drops costs a few times its length, not a
//! `Value` of it (an error answer's `data` aside, read with its `RpcError`).
//!
//! The engine answers for the application what the protocol fixes: `ping`; requests a client
//! did not declare the capability for (`sampling/createMessage`, `elicitation/create`,
//! `roots/list`: -32601; a server's [`Server::request`] for one is [`Error::NotDeclared`]);
//! before `initialize`, a server answers only `ping`; a line that is not JSON (-32700) or no
//! message at all (-32600) without an `id` (`"id": null` in a session of a version before 2025-11-25,
//! whose error requires one), a malformed request with -32600 (as
//! [`rpc::read_message`](mcp_spec_types::rpc::read_message) decides). It matches answers to requests in any
//! order, ties `notifications/progress` to its request by the token it put in `_meta`, writes
//! `notifications/cancelled` for [`Client::cancel`] and for a timeout and drops the late answer,
//! and on the receiving side drops the result and progress of a request the peer cancelled.
//! Nothing it reads panics: a line it cannot use is an [`Event::Dropped`] with the reason.
//!
//! A server built with [`Server::with_info`] and a [`ServerInfo`] also runs the lifecycle and the
//! protocol's session state: it answers `initialize` with the version
//! [`negotiate`](mcp_spec_types::negotiate) picks among those it serves ([`Server::version`]), waits for
//! `notifications/initialized` before it sends requests ([`Server::request`]; only `ping` earlier),
//! answers and keeps `logging/setLevel` and writes log messages at or above that level
//! ([`Server::log`]; a level the spec does not name is -32602), and validates each request against
//! the session's version before the application sees it (-32602 with the JSON pointer and rule;
//! [`Config::validate`]). A client that sends no `initialize` speaks 2026-07-28 per request: each
//! request's version and capabilities come from its `_meta` and are checked and forgotten with it,
//! `server/discover` is answered from the `ServerInfo`, results get `resultType` and the server's
//! identity, log messages go only to a request that asked for them ([`Server::log_for`]), and a
//! request that needs the client's input is answered with an `InputRequiredResult`
//! ([`Server::respond_input_required`]) and comes again with [`Request::input_responses`] and
//! [`Request::request_state`].
//!
//! Every table is bounded ([`Config`]): requests pending, requests in flight (by count and by
//! bytes, with ids and progress tokens of at most [`Config::max_id_len`] bytes), remembered
//! cancellations and the two queues. A full table is an [`Error`] value, or for an incoming
//! request, an error answer.
//!
//! [`observe::Observer`] keeps the same bookkeeping for both sides of a session seen from outside
//! (a recording, a proxy): one model of each side's requests in flight, and what each message did
//! that a role would have refused or dropped.
//!
//! ```
//! # #[cfg(feature = "v2025-11-25")] {
//! use std::time::{Duration, Instant};
//! use mcp_spec_engine::{Client, Config, Event};
//! use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
//!
//! let mut client = Client::new(Config::default());
//! let now = Instant::now();
//! // The id a request is built with is replaced by the engine's own.
//! let tools = client.request(ListToolsRequest::new(RequestId::Integer(0)), now, Some(Duration::from_secs(30))).unwrap();
//! let sent = client.poll_transmit().unwrap();
//! let sent: serde_json::Value = serde_json::from_slice(&sent.line).unwrap();
//! assert_eq!(sent, serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
//! assert_eq!(tools.id(), 1);
//!
//! // The server sends a notification first, then the answer.
//! client.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#).unwrap();
//! client.handle_line(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#).unwrap();
//! assert!(matches!(client.poll_event(), Some(Event::Notification { .. })));
//! let Some(Event::Answer(answer)) = client.poll_event() else { panic!() };
//! let result = tools.read(answer).unwrap();
//! assert!(result.tools.is_empty());
//! # }
//! ```
//!
//! Protocol 2026-07-28 has no session: a client made with [`Client::per_request`] sends no
//! `initialize` ([`Error::NoInitialize`]) and the engine puts the version, the client's
//! capabilities, its info and its log level ([`PerRequest`]) in every request's `params._meta`
//! (build the version's typed requests with `RequestMetaObject::default()`: the engine fills it;
//! `Client::discover` (feature `v2026-07-28`) sends `server/discover`). The input requests of an
//! `InputRequiredResult` answer come to the application as [`Event::Request`]s, as a session's
//! server requests do (only for capabilities the client declared; any other fails the request
//! with [`Failure::Input`]; [`Client::input_for`] names the request one is for); once it has
//! answered each ([`Client::respond`]), the engine sends the request again under a new id with
//! `inputResponses` and the server's `requestState` (at once when the server sent only a state),
//! for at most [`PerRequest::max_rounds`] rounds; the final answer comes to the first handle. An
//! unsupported-version error (-32022) is retried once with the first of [`PerRequest::versions`]
//! the server lists, else handed to the application as [`Failure::UnsupportedVersion`] with the
//! server's list. HTTP headers that mirror the message (`Mcp-Method`, `Mcp-Name`,
//! `MCP-Protocol-Version`) are the transport's: it reads them from each line the engine writes.
//!
//! A transport with a channel per request (Streamable HTTP: the SSE stream of the POST that
//! carried it) reads [`Transmit::request`] of each line [`Server::poll_transmit`] gives: the client
//! request it belongs to: its answer, its progress, a [`Server::log_for`] message, a request
//! made for it with [`Server::request_for`] and that request's cancellation.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

// The README's examples, compiled and run as doc tests (tests/docs.rs checks the guides show only these).
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;


mod check;
mod client;
mod endpoint;
mod info;
mod level;
mod server;
mod shared;
mod wire;

pub use client::{Client, ClientSide};
pub use shared::{Engine, Side};
pub use info::ServerInfo;
pub use level::LogLevel;
pub use server::{Server, ServerSide};
// The roles' bookkeeping seen from outside, for both sides at once (the checker's session rules).
pub mod observe;
// One table bounded by count and bytes for every model of requests in flight.
pub mod table;

#[cfg(test)]
mod tests;

use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde_json::{Map, Value};

use mcp_spec_types::runtime::{RequestMethod, RpcError};
use endpoint::Route;

// The client of a per-request version (2026-07-28).
mod per_request;
pub use per_request::{PerRequest, UNSUPPORTED_PROTOCOL_VERSION};

/// The bounds of an engine's tables and queues. A bound reached is an [`Error`] (or, for an
/// incoming request, an error answer), never more memory.
#[derive(Debug, Clone)]
pub struct Config {
    /// Requests this side sent and not yet answered (default 1024): [`Error::PendingFull`].
    pub max_pending: usize,
    /// Requests the peer sent that the application has not answered (default 256); one more is
    /// answered with -32603.
    pub max_in_flight: usize,
    /// The bytes the requests in flight may keep together (default 1 MiB): each weighs its id,
    /// its progress token, its method and (2026-07-28) the client capabilities of its `_meta`.
    /// A request that would pass it is answered with -32603, as one past `max_in_flight` is.
    pub max_in_flight_bytes: usize,
    /// The longest request id and progress token the peer may send, in bytes of the string
    /// (default 256; integers always fit). Real clients send integers (the TypeScript, Python
    /// and Rust SDKs count from 0 or 1), UUIDs (36 bytes) or short prefixed counters. A request
    /// with a longer id is answered with -32600 and `"id": null` (or no `id`, from 2025-11-25 on):
    /// JSON-RPC's answer when the id cannot be used, so the engine never writes the long id back;
    /// one with a longer progress token gets -32600 with its id. Neither reaches the application.
    pub max_id_len: usize,
    /// Cancelled or timed-out ids remembered so their late answers are dropped quietly (default
    /// 1024; the oldest is forgotten first, its late answer then reads as an unknown id).
    pub max_cancelled: usize,
    /// Lines to write and events each (default 1024): a full queue is [`Error::QueueFull`] until
    /// the caller drains it with `poll_transmit` / `poll_event`.
    pub max_queued: usize,
    /// Offer `ping` to the application as an [`Event::Request`] instead of answering it.
    pub take_ping: bool,
    /// A server validates each request of a method its version defines against that version's
    /// rules ([`mcp_spec_types::validate`]) before the application sees it, and answers one that breaks them
    /// with -32602 naming the JSON pointer and the rule, as
    /// [`rpc::read_message_checked`](mcp_spec_types::rpc::read_message_checked) does (default: on; its cost
    /// per message is in BENCHMARKS.md). Off, a log level the spec does not name is still refused.
    pub validate: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { max_pending: 1024, max_in_flight: 256, max_in_flight_bytes: 1 << 20, max_id_len: 256, max_cancelled: 1024, max_queued: 1024, take_ping: false, validate: true }
    }
}

/// A line the engine has to write ([`Server::poll_transmit`], [`Client::poll_transmit`]): one
/// JSON-RPC message without its newline, and the peer's request it belongs to.
///
/// `request` names the peer's request a line is for, so that a transport with a channel per
/// request (Streamable HTTP: the SSE stream of the POST that carried it) writes it there: the
/// answer to that request (or the error answer to a line with that id), its progress, a log
/// message of [`Server::log_for`], a request of [`Server::request_for`] and that request's
/// `notifications/cancelled`. `None`: a line of the session (a request, a notification, a
/// [`Server::log`], an error answer without an id), for the GET stream or the next POST. On a
/// client the same rule holds: its answers to the server's requests name them; its own requests,
/// notifications and cancellations are `None`. A transport with one channel (stdio) writes every
/// line in order and ignores `request`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmit {
    /// The message, without its newline.
    pub line: Vec<u8>,
    /// The peer's request the line belongs to, if any.
    pub request: Option<Id>,
}

/// A JSON-RPC request id as the peer wrote it: MCP ids are strings or integers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    Number(i64),
    String(String),
}

impl Id {
    /// The id as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            Id::Number(n) => Value::from(*n),
            Id::String(s) => Value::from(s.as_str()),
        }
    }
}

/// A request this side sent, waiting for its answer; it reads that answer as `R::Result`.
#[derive(Debug)]
pub struct Handle<R> {
    id: i64,
    _request: PhantomData<fn() -> R>,
}

impl<R: RequestMethod> Handle<R> {
    /// The id the engine gave the request (also its progress token, when it asked for progress).
    pub fn id(&self) -> i64 {
        self.id
    }

    /// Whether `answer` answers this request.
    pub fn answers(&self, answer: &Answer) -> bool {
        answer.id == self.id
    }

    /// Reads `answer` as this request's result, or its error.
    pub fn read(&self, answer: Answer) -> Result<R::Result, RequestError> {
        if answer.id != self.id {
            return Err(RequestError::OtherRequest(answer));
        }
        match answer.outcome {
            // Read from the `Value` the engine read, taken (not copied, not written out again).
            Ok(result) => serde_json::from_value::<R::Result>(result).map_err(|e| RequestError::Unreadable(e.to_string())),
            Err(Failure::Rpc(error)) => Err(RequestError::Rpc(error)),
            Err(Failure::TimedOut) => Err(RequestError::TimedOut),
            Err(Failure::UnsupportedVersion { requested, supported }) => Err(RequestError::UnsupportedVersion { requested, supported }),
            Err(Failure::Input(why)) => Err(RequestError::Input(why)),
        }
    }
}

/// The answer to a request this side sent, not yet read as its type: see [`Handle::read`].
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The request's id, as [`Handle::id`].
    pub id: i64,
    pub outcome: Result<Value, Failure>,
}

/// A request that got no result.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The peer answered with this error.
    Rpc(RpcError),
    /// No answer by the deadline; `notifications/cancelled` was written.
    TimedOut,
    /// (Per-request versions.) The server does not support the version asked for, and none it
    /// lists is one of [`PerRequest::versions`]: the fallback is the application's to choose.
    UnsupportedVersion { requested: String, supported: Vec<String> },
    /// (Per-request versions.) The server asked for input the client cannot give: a capability
    /// it did not declare, a method that is no input request, a malformed `InputRequiredResult`,
    /// or more rounds than [`PerRequest::max_rounds`].
    Input(String),
}

/// Why [`Handle::read`] has no result.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestError {
    Rpc(RpcError),
    TimedOut,
    /// See [`Failure::UnsupportedVersion`].
    UnsupportedVersion { requested: String, supported: Vec<String> },
    /// See [`Failure::Input`].
    Input(String),
    /// The result is not the request's result type.
    Unreadable(String),
    /// The answer is another request's; it is given back.
    OtherRequest(Answer),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RequestError::Rpc(e) => write!(f, "error {}: {}", e.code, e.message),
            RequestError::TimedOut => f.write_str("no answer before the deadline"),
            RequestError::UnsupportedVersion { requested, supported } => write!(f, "the server does not support {requested}; it supports {}", supported.join(", ")),
            RequestError::Input(why) => write!(f, "the server asked for input the client cannot give: {why}"),
            RequestError::Unreadable(e) => write!(f, "the result does not read as the request's result type: {e}"),
            RequestError::OtherRequest(a) => write!(f, "the answer is to request {}, not this one", a.id),
        }
    }
}

impl std::error::Error for RequestError {}

/// A request from the peer, waiting for the application's answer
/// ([`Client::respond`] / [`Server::respond`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub id: Id,
    pub method: String,
    /// `params` as sent; an object when present.
    pub params: Option<Value>,
}

impl Request {
    /// Reads the request as a version's request type, e.g. `v2025_11_25::CreateMessageRequest`:
    /// once, from the `params` the engine read (no copy of them, no JSON text in between).
    pub fn read<R: RequestMethod>(&self) -> Result<R, serde_json::Error> {
        use serde::de::value::MapDeserializer;
        let (jsonrpc, id, method) = (Value::from("2.0"), self.id.to_value(), Value::from(self.method.as_str()));
        let mut members = vec![("jsonrpc", &jsonrpc), ("id", &id), ("method", &method)];
        if let Some(params) = &self.params {
            members.push(("params", params));
        }
        R::deserialize(MapDeserializer::new(members.into_iter()))
    }

    /// `params._meta[key]`, e.g. [`negotiate::LOG_LEVEL_META_KEY`](mcp_spec_types::negotiate::LOG_LEVEL_META_KEY).
    pub fn meta(&self, key: &str) -> Option<&Value> {
        self.params.as_ref()?.get("_meta")?.get(key)
    }

    /// `params.inputResponses` of a request sent again after an `InputRequiredResult`
    /// (2026-07-28): the client's results, under the keys of the `inputRequests`.
    pub fn input_responses(&self) -> Option<&Map<String, Value>> {
        self.params.as_ref()?.get("inputResponses")?.as_object()
    }

    /// `params.requestState` of a request sent again after an `InputRequiredResult`, as the
    /// client sent it back (check it before trusting it).
    pub fn request_state(&self) -> Option<&str> {
        self.params.as_ref()?.get("requestState")?.as_str()
    }
}

/// What happened, in the order the lines arrived.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The answer to one of this side's requests (or its timeout): read it with its [`Handle`].
    Answer(Answer),
    /// `notifications/progress` for the request with this id (one sent with progress asked for).
    Progress { request: i64, params: Value },
    /// A request from the peer for the application to answer.
    Request(Request),
    /// The peer cancelled its request `id`: the engine will not write its result or progress.
    Cancelled { id: Id, reason: Option<String> },
    /// Any other notification.
    Notification { method: String, params: Option<Value> },
    /// A line the engine could not use, and why.
    Dropped(Dropped),
}

/// Why a line was not used.
#[derive(Debug, Clone, PartialEq)]
pub enum Dropped {
    NotJson(String),
    /// JSON, but not a JSON-RPC message the engine takes.
    Malformed(&'static str),
    /// An answer to no request of this side's.
    UnknownId(Id),
    /// A late answer to a request this side cancelled or gave up on.
    AfterCancel(i64),
    /// Progress for no pending request that asked for it.
    UnknownProgressToken(Value),
    /// Progress for a request this side cancelled or gave up on (its id): the server's work
    /// had not stopped yet, which the spec allows.
    ProgressAfterCancel(i64),
    /// An error answer without an id (or `"id": null`): the peer could not read something this side wrote.
    ErrorWithoutId(RpcError),
}

impl Dropped {
    fn describe(&self) -> String {
        match self {
            Dropped::NotJson(e) => format!("not JSON: {e}"),
            Dropped::Malformed(why) => (*why).to_owned(),
            other => format!("{other:?}"),
        }
    }
}

/// What the application asked for that the engine refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// [`Config::max_pending`] requests are already waiting for answers.
    PendingFull { cap: usize },
    /// A queue holds [`Config::max_queued`] items: drain it first.
    QueueFull { cap: usize },
    /// No request of the peer's with this id is in flight (never, or already answered).
    UnknownRequest,
    /// No request of this side's with this id is pending.
    NotPending,
    /// `initialize` is not cancelled (the spec forbids it).
    CancelInitialize,
    /// A client of a per-request version ([`Client::per_request`]) sends no `initialize`.
    NoInitialize,
    /// The request carried no progress token, so progress cannot be sent for it.
    NoProgressToken,
    /// Progress must increase with each notification.
    ProgressNotIncreasing { last: Option<f64>, next: f64 },
    /// The value did not serialize as a JSON-RPC message.
    Serialize(String),
    /// A server's request before `initialize` was answered (only `ping` may go earlier).
    NotInitialized,
    /// A server's request for a capability the client did not declare in its `initialize` (or,
    /// 2026-07-28, in the request's `_meta`).
    NotDeclared { capability: &'static str },
    /// An answer only a 2026-07-28 request (one without a session) takes.
    NotPerRequest,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::PendingFull { cap } => write!(f, "{cap} requests are already pending"),
            Error::QueueFull { cap } => write!(f, "a queue holds {cap} items: drain it first"),
            Error::UnknownRequest => f.write_str("no such request in flight"),
            Error::NotPending => f.write_str("no such request pending"),
            Error::CancelInitialize => f.write_str("initialize cannot be cancelled"),
            Error::NoInitialize => f.write_str("a per-request version has no initialize"),
            Error::NoProgressToken => f.write_str("the request has no progress token"),
            Error::ProgressNotIncreasing { last, next } => write!(f, "progress {next} does not increase on {last:?}"),
            Error::Serialize(e) => write!(f, "cannot serialize: {e}"),
            Error::NotInitialized => f.write_str("the session is not initialized"),
            Error::NotDeclared { capability } => write!(f, "the client did not declare `{capability}`"),
            Error::NotPerRequest => f.write_str("the request belongs to a session, not to a 2026-07-28 client"),
        }
    }
}

impl std::error::Error for Error {}

/// What became of an answer or progress the application gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    Written,
    /// The peer had cancelled the request: nothing was written, as the spec asks.
    Dropped,
}

pub(crate) fn refuse<K>(code: i64, message: String) -> Route<K> {
    Route::Refuse(RpcError { code, message, data: None })
}

// Server requests a client is offered only when its `initialize` declared the capability.
pub(crate) const CLIENT_CAPABILITY_OF: &[(&str, &str)] = &[("sampling/createMessage", "sampling"), ("elicitation/create", "elicitation"), ("roots/list", "roots")];

/// The capabilities an `initialize`'s params declare, by name (at most 64: the spec defines a handful).
pub(crate) fn capability_names(params: Option<&Value>) -> Vec<String> {
    let capabilities = params.and_then(|p| p.get("capabilities")).and_then(Value::as_object);
    capabilities.map(|c| c.keys().take(64).cloned().collect()).unwrap_or_default()
}

pub(crate) fn notification_params<N: Serialize>(notification: &N) -> Result<Map<String, Value>, Error> {
    match serde_json::to_value(notification).map_err(|e| Error::Serialize(e.to_string()))? {
        Value::Object(mut o) => match o.remove("params") {
            Some(Value::Object(p)) => Ok(p),
            None | Some(Value::Null) => Ok(Map::new()),
            Some(_) => Err(Error::Serialize("`params` must serialize as an object".into())),
        },
        _ => Err(Error::Serialize("a notification must serialize as an object".into())),
    }
}

// The transport adapters, outside the state machine: they use the roles' public methods only.
mod adapter;
// The adapters' loop, written once over a framer.
mod driver;
pub mod blocking;
#[cfg(feature = "tokio")]
pub mod tokio;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub use adapter::{Context, Role};
// What the adapters' `call` and `close` return.
mod call;
pub use call::{CallError, Closed};

// Tools from Rust types, for a server built on the engine.
#[cfg(feature = "tools")]
#[cfg_attr(docsrs, doc(cfg(feature = "tools")))]
pub mod tools;

#[cfg(feature = "skills")]
#[cfg_attr(docsrs, doc(cfg(feature = "skills")))]
pub mod skills;
