//! Protocol version negotiation, for an application that serves (or calls) peers of several
//! protocol versions, and reading helpers that tell which version a message is in.
//!
//! Two lifecycles exist:
//!
//! - **Handshake** (2024-11-05 to 2025-11-25): the client proposes a version in `initialize`; the
//!   server answers with the same version if it supports it, else with another version it supports,
//!   which should be its latest. The client disconnects if it cannot use the answer.
//!   [`answer_initialize`] is the server's side, [`accept_answer`] the client's.
//! - **Per request** (2026-07-28 and the draft): no `initialize`; every request carries its version
//!   in `params._meta["io.modelcontextprotocol/protocolVersion"]` (with the client's capabilities in
//!   `params._meta["io.modelcontextprotocol/clientCapabilities"]`), and a server that does not
//!   support it answers `UNSUPPORTED_PROTOCOL_VERSION` (-32022) listing the versions it supports.
//!   [`request_version`] is the server's side.
//!
//! [`VersionTracker`] reads a stream of messages and says which version each one is in, by the same
//! rules as `mcp-schema check --protocol auto`.
//!
//! Nothing here needs a version module's feature: versions are strings, messages `serde_json::Value`.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

/// The `_meta` key (on request params, 2026-07-28 and later) that carries the protocol version.
pub const PROTOCOL_VERSION_META_KEY: &str = crate::runtime::meta::PROTOCOL_VERSION;
/// The `_meta` key (on request params, 2026-07-28 and later) that carries the client's capabilities.
pub const CLIENT_CAPABILITIES_META_KEY: &str = crate::runtime::meta::CLIENT_CAPABILITIES;
/// The `_meta` key (on request params, 2026-07-28 and later) that names the client software.
pub const CLIENT_INFO_META_KEY: &str = crate::runtime::meta::CLIENT_INFO;
/// The `_meta` key (on results, 2026-07-28 and later) that names the server software.
pub const SERVER_INFO_META_KEY: &str = crate::runtime::meta::SERVER_INFO;
/// The `_meta` key (on request params, 2026-07-28 and later) that opts in to log messages.
pub const LOG_LEVEL_META_KEY: &str = crate::runtime::meta::LOG_LEVEL;

/// The error code of a request whose protocol version the server does not support (2026-07-28).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// JSON-RPC "invalid params": the answer to a per-request version that is missing or not a string.
pub const INVALID_PARAMS: i64 = crate::rpc::INVALID_PARAMS;

/// How a protocol version's sessions begin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifecycle {
    /// `initialize` proposes a version, its result answers one; the session keeps it.
    Handshake,
    /// No `initialize`: each request carries its version and capabilities in `_meta`.
    PerRequest,
}

/// Every protocol version this crate knows, oldest first, with its lifecycle (whether or not the
/// version's module is enabled). The test `versions_match_the_modules` keeps it in step with
/// `schema/codegen.toml`.
pub const VERSIONS: &[(&str, Lifecycle)] = &[
    ("2024-11-05", Lifecycle::Handshake),
    ("2025-03-26", Lifecycle::Handshake),
    ("2025-06-18", Lifecycle::Handshake),
    ("2025-11-25", Lifecycle::Handshake),
    ("2026-07-28", Lifecycle::PerRequest),
    ("draft", Lifecycle::PerRequest),
];

/// The lifecycle of a known version; `None` for a string this crate does not know.
pub fn lifecycle(version: &str) -> Option<Lifecycle> {
    VERSIONS.iter().find(|(v, _)| *v == version).map(|(_, l)| *l)
}

/// Whether `a` is a later release than `b`. Released versions are dates (`YYYY-MM-DD`), so their
/// text orders them; `draft` (or any other non-date) is never the latest release.
fn later(a: &str, b: &str) -> bool {
    match (is_date(a), is_date(b)) {
        (true, true) => a > b,
        (true, false) => true,
        _ => false,
    }
}

fn is_date(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() })
}

/// The latest released version of `versions` (`None` if it holds no date-shaped version).
pub fn latest<'a>(versions: &[&'a str]) -> Option<&'a str> {
    versions.iter().copied().filter(|v| is_date(v)).fold(None, |best, v| match best {
        Some(b) if !later(v, b) => Some(b),
        _ => Some(v),
    })
}

/// A server's answer to `initialize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitializeAnswer<'a> {
    /// The version to put in `InitializeResult.protocolVersion`.
    pub version: &'a str,
    /// The server supports what the client proposed; when `false`, the client decides whether to
    /// go on with `version` or disconnect.
    pub as_proposed: bool,
}

/// The version a server answers `initialize` with: the proposed one if `supported` holds it, else
/// the latest version of `supported` that has the `initialize` handshake. `None` when `supported`
/// holds no such version (a server of 2026-07-28 alone cannot answer `initialize`; it answers
/// "method not found").
///
/// Versions without a handshake (2026-07-28) are never answered here: a client that proposes one
/// in `initialize` gets the server's latest handshake version.
pub fn answer_initialize<'a>(proposed: &str, supported: &[&'a str]) -> Option<InitializeAnswer<'a>> {
    let handshake: Vec<&'a str> =
        supported.iter().copied().filter(|v| lifecycle(v) != Some(Lifecycle::PerRequest)).collect();
    if let Some(v) = handshake.iter().copied().find(|v| *v == proposed) {
        return Some(InitializeAnswer { version: v, as_proposed: true });
    }
    latest(&handshake).map(|version| InitializeAnswer { version, as_proposed: false })
}

/// The client's side of `initialize`: the version the session uses, or `Err` when the client must
/// disconnect (the server answered a version the client does not support).
pub fn accept_answer<'a>(answered: &str, supported: &[&'a str]) -> Result<&'a str, Disconnect> {
    supported
        .iter()
        .copied()
        .find(|v| *v == answered)
        .ok_or_else(|| Disconnect { answered: answered.to_string() })
}

/// The server answered `initialize` with a version the client does not support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disconnect {
    pub answered: String,
}

impl std::fmt::Display for Disconnect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the server answered protocol version `{}`, which this client does not support", self.answered)
    }
}

impl std::error::Error for Disconnect {}

/// Why a per-request version (2026-07-28) cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionError {
    /// `params._meta` has no version string: the request's params do not fit the schema.
    Missing,
    /// The server does not support the requested version.
    Unsupported { requested: String, supported: Vec<String> },
}

impl VersionError {
    /// The JSON-RPC error code to answer with.
    pub fn code(&self) -> i64 {
        match self {
            VersionError::Missing => INVALID_PARAMS,
            VersionError::Unsupported { .. } => UNSUPPORTED_PROTOCOL_VERSION,
        }
    }

    /// The JSON-RPC `error` object: for an unsupported version, `data` lists the supported
    /// versions and the requested one, as `UnsupportedProtocolVersionError` has it.
    pub fn error_object(&self) -> Value {
        match self {
            VersionError::Missing => json!({
                "code": INVALID_PARAMS,
                "message": format!("params._meta needs the string `{PROTOCOL_VERSION_META_KEY}`"),
            }),
            VersionError::Unsupported { requested, supported } => json!({
                "code": UNSUPPORTED_PROTOCOL_VERSION,
                "message": "Unsupported protocol version",
                "data": { "supported": supported, "requested": requested },
            }),
        }
    }

    /// The whole error response to the request with `id`.
    pub fn error_response(&self, id: Value) -> Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": self.error_object() })
    }
}

impl std::fmt::Display for VersionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VersionError::Missing => write!(f, "the request carries no `{PROTOCOL_VERSION_META_KEY}` in params._meta"),
            VersionError::Unsupported { requested, supported } => {
                write!(f, "protocol version `{requested}` is not supported (supported: {})", supported.join(", "))
            }
        }
    }
}

impl std::error::Error for VersionError {}

/// A server's check of a per-request version (2026-07-28): the version of `supported` that the
/// request names in `params._meta`, or the error to answer it with. `request` is the whole message.
pub fn request_version<'a>(request: &Value, supported: &[&'a str]) -> Result<&'a str, VersionError> {
    let requested = params_meta(request).and_then(|m| m.get(PROTOCOL_VERSION_META_KEY)).and_then(Value::as_str);
    let Some(requested) = requested else { return Err(VersionError::Missing) };
    supported.iter().copied().find(|v| *v == requested).ok_or_else(|| VersionError::Unsupported {
        requested: requested.to_string(),
        supported: supported.iter().map(|v| v.to_string()).collect(),
    })
}

/// `params._meta` of a request or notification.
pub fn params_meta(message: &Value) -> Option<&Map<String, Value>> {
    message.get("params")?.get("_meta")?.as_object()
}

/// A version a message names itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carried<'v> {
    /// `initialize` request: `params.protocolVersion`, what the client proposes.
    Proposed(&'v str),
    /// `initialize` result: `result.protocolVersion`, what the server answers.
    Answered(&'v str),
    /// `_meta["io.modelcontextprotocol/protocolVersion"]` on `params` or `result`.
    Meta(&'v str),
}

impl<'v> Carried<'v> {
    pub fn version(self) -> &'v str {
        match self {
            Carried::Proposed(v) | Carried::Answered(v) | Carried::Meta(v) => v,
        }
    }
}

/// The version `message` names itself, read from one message alone. A response's
/// `result.protocolVersion` counts as an `initialize` answer only when `answers_initialize` says
/// the response answers an `initialize` request ([`VersionTracker`] knows that from the ids).
pub fn carried_version(message: &Value, answers_initialize: bool) -> Option<Carried<'_>> {
    let o = message.as_object()?;
    if let Some(method) = o.get("method") {
        let params = o.get("params");
        if method == "initialize" && o.contains_key("id") {
            if let Some(v) = params.and_then(|p| p.get("protocolVersion")).and_then(Value::as_str) {
                return Some(Carried::Proposed(v));
            }
        }
        return meta_version(params).map(Carried::Meta);
    }
    let result = o.get("result");
    if answers_initialize {
        if let Some(v) = result.and_then(|r| r.get("protocolVersion")).and_then(Value::as_str) {
            return Some(Carried::Answered(v));
        }
    }
    meta_version(result).map(Carried::Meta)
}

fn meta_version(holder: Option<&Value>) -> Option<&str> {
    holder?.get("_meta")?.get(PROTOCOL_VERSION_META_KEY)?.as_str()
}

/// Which side sent a message: the way it travelled. The one direction type of the crate
/// (`mcp_spec_engine::observe::Direction` is this type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    ClientToServer,
    ServerToClient,
}

impl Direction {
    /// The way back: where the answer to a request that travelled this way goes.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        }
    }

    /// 0 for client to server, 1 for server to client: an index into a pair of per-direction tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Follows a session and tells the version of each message, as `mcp-schema check --protocol auto`
/// does: a version the message carries (a known one) is its version and the session's from then on;
/// otherwise the session's version so far. An `initialize` proposing a version without the handshake,
/// or one this crate does not know, is in the latest version that has `initialize`; its answer then
/// sets the session's version.
///
/// [`VersionTracker::read`] also says what it noticed that is worth reporting ([`VersionNote`]):
/// a version it does not know, a `_meta` version other than the session's, a second `initialize`.
/// Memory is bounded: it remembers at most [`INITIALIZE_PENDING_MAX`] unanswered `initialize` ids.
#[derive(Debug, Clone, Default)]
pub struct VersionTracker {
    current: Option<&'static str>,
    /// Ids of `initialize` requests not yet answered, per direction of the request, oldest first.
    initialize_ids: VecDeque<(Direction, Value)>,
    /// An `initialize` request was seen.
    initialized: bool,
}

/// Unanswered `initialize` requests a [`VersionTracker`] remembers; past it the oldest is forgotten
/// (its answer then no longer sets the version). A session has one.
pub const INITIALIZE_PENDING_MAX: usize = 16;

/// What [`VersionTracker::read`] made of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading<'m> {
    /// The message's version: the one it names, else the session's so far (as [`VersionTracker::observe`]).
    pub version: Option<&'static str>,
    /// The known version the message names itself (a proposal as the version it is read in).
    pub carried: Option<&'static str>,
    /// What is worth reporting, in the order it was found.
    pub notes: Vec<VersionNote<'m>>,
}

/// Something a [`VersionTracker`] noticed in a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionNote<'m> {
    /// The message names a version this crate does not know: an unknown proposal is read as the
    /// latest handshake version, any other unknown version leaves the session's.
    Unknown(Carried<'m>),
    /// `_meta` names a known version other than the session's so far (which it becomes).
    Changed { from: &'static str, to: &'static str },
    /// An `initialize` request after the session's first.
    InitializeAgain,
}

impl VersionTracker {
    pub fn new() -> Self {
        Self::default()
    }

    /// The session's version so far (`None` before any message named one).
    pub fn current(&self) -> Option<&'static str> {
        self.current
    }

    /// Reads one message; gives its version, `None` if neither it nor the session names one yet.
    /// `direction` is the side that sent it, when known (it pairs a response with its request).
    pub fn observe(&mut self, message: &Value, direction: Option<Direction>) -> Option<&'static str> {
        self.read(message, direction).version
    }

    /// [`VersionTracker::observe`], with the known version the message names and the notes.
    pub fn read<'m>(&mut self, message: &'m Value, direction: Option<Direction>) -> Reading<'m> {
        let mut notes = Vec::new();
        let answers_initialize = self.take_initialize_answer(message, direction);
        let is_initialize = message.get("method").is_some_and(|m| m == "initialize");
        let mut again = false;
        if let (true, Some(id)) = (is_initialize, message.get("id")) {
            again = std::mem::replace(&mut self.initialized, true);
            if self.initialize_ids.len() >= INITIALIZE_PENDING_MAX {
                self.initialize_ids.pop_front();
            }
            self.initialize_ids.push_back((direction.unwrap_or(Direction::ClientToServer), id.clone()));
        }
        // `_meta` is read on every message, also where a proposal or an answer decides.
        let holder = if message.get("method").is_some() { message.get("params") } else { message.get("result") };
        if let Some(m) = meta_version(holder) {
            match (known(m), self.current) {
                (None, _) => notes.push(VersionNote::Unknown(Carried::Meta(m))),
                (Some(to), Some(from)) if from != to => notes.push(VersionNote::Changed { from, to }),
                _ => {}
            }
        }
        if again {
            notes.push(VersionNote::InitializeAgain);
        }
        let carried = carried_version(message, answers_initialize);
        let version = match carried {
            Some(Carried::Proposed(p)) => Some(match known(p) {
                Some(v) if lifecycle(v) == Some(Lifecycle::Handshake) => v,
                _ => latest_handshake(),
            }),
            Some(c) => known(c.version()),
            None if is_initialize => Some(latest_handshake()),
            None => None,
        };
        if let Some(c @ (Carried::Proposed(_) | Carried::Answered(_))) = carried.filter(|c| known(c.version()).is_none()) {
            notes.push(VersionNote::Unknown(c));
        }
        if version.is_some() {
            self.current = version;
        }
        Reading { version: self.current, carried: version, notes }
    }

    /// Whether `message` is a response to a pending `initialize` (which it then no longer is).
    fn take_initialize_answer(&mut self, message: &Value, direction: Option<Direction>) -> bool {
        if message.get("method").is_some() || !(message.get("result").is_some() || message.get("error").is_some()) {
            return false;
        }
        let Some(id) = message.get("id") else { return false };
        // A response travels against its request.
        let request_direction = direction.map(Direction::opposite);
        let found = self
            .initialize_ids
            .iter()
            .position(|(d, i)| i == id && request_direction.is_none_or(|rd| rd == *d));
        match found {
            Some(i) => {
                self.initialize_ids.remove(i);
                true
            }
            None => false,
        }
    }
}

/// The `'static` name of a known version.
fn known(version: &str) -> Option<&'static str> {
    VERSIONS.iter().find(|(v, _)| *v == version).map(|(v, _)| *v)
}

fn latest_handshake() -> &'static str {
    let handshake: Vec<&'static str> =
        VERSIONS.iter().filter(|(_, l)| *l == Lifecycle::Handshake).map(|(v, _)| *v).collect();
    latest(&handshake).expect("a version with the handshake")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SERVER: &[&str] = &["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"];

    #[test]
    fn server_answers_a_supported_proposal_with_the_same_version() {
        for v in ["2024-11-05", "2025-06-18", "2025-11-25"] {
            assert_eq!(answer_initialize(v, SERVER), Some(InitializeAnswer { version: v, as_proposed: true }));
        }
    }

    #[test]
    fn server_answers_an_unsupported_proposal_with_its_latest_handshake_version() {
        // 2025-03-26 is not supported; an unknown future version and 2026-07-28 (no handshake) neither.
        for proposed in ["2025-03-26", "2099-01-01", "2026-07-28", "draft", ""] {
            assert_eq!(
                answer_initialize(proposed, SERVER),
                Some(InitializeAnswer { version: "2025-11-25", as_proposed: false }),
                "{proposed}"
            );
        }
        // Order of the list does not matter; `draft` is never the latest release.
        assert_eq!(answer_initialize("1999-01-01", &["2025-06-18", "draft", "2024-11-05"]).unwrap().version, "2025-06-18");
        // A server of 2026-07-28 alone has nothing to answer `initialize` with.
        assert_eq!(answer_initialize("2025-11-25", &["2026-07-28"]), None);
    }

    #[test]
    fn client_goes_on_with_a_supported_answer_and_disconnects_otherwise() {
        let client = ["2025-06-18", "2025-11-25"];
        assert_eq!(accept_answer("2025-06-18", &client), Ok("2025-06-18"));
        let err = accept_answer("2024-11-05", &client).unwrap_err();
        assert_eq!(err, Disconnect { answered: "2024-11-05".into() });
        // Negotiation end to end: a 2025-11-25 client and a server that stops at 2025-06-18.
        let answer = answer_initialize("2025-11-25", &["2025-03-26", "2025-06-18"]).unwrap();
        assert_eq!(accept_answer(answer.version, &client), Ok("2025-06-18"));
    }

    #[test]
    fn per_request_version_is_served_or_answered_with_the_right_error() {
        let req = |meta: Value| json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"_meta": meta}});
        let ok = req(json!({PROTOCOL_VERSION_META_KEY: "2026-07-28", CLIENT_CAPABILITIES_META_KEY: {}}));
        assert_eq!(request_version(&ok, SERVER), Ok("2026-07-28"));

        let unsupported = request_version(&req(json!({PROTOCOL_VERSION_META_KEY: "1900-01-01"})), SERVER).unwrap_err();
        assert_eq!(unsupported.code(), UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(
            unsupported.error_response(json!(7)),
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32022, "message": "Unsupported protocol version",
                "data": {"supported": SERVER, "requested": "1900-01-01"}}})
        );
        for missing in [req(json!({})), req(json!({PROTOCOL_VERSION_META_KEY: 2026})), json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})] {
            let e = request_version(&missing, SERVER).unwrap_err();
            assert_eq!((e.clone(), e.code()), (VersionError::Missing, INVALID_PARAMS));
        }
    }

    #[test]
    fn carried_versions_are_read_from_the_message() {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}});
        assert_eq!(carried_version(&init, false), Some(Carried::Proposed("2025-06-18")));
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-03-26"}});
        assert_eq!(carried_version(&answer, true), Some(Carried::Answered("2025-03-26")));
        // Without knowing it answers `initialize`, a result's `protocolVersion` is just a key.
        assert_eq!(carried_version(&answer, false), None);
        let meta = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {PROTOCOL_VERSION_META_KEY: "2026-07-28"}}});
        assert_eq!(carried_version(&meta, false), Some(Carried::Meta("2026-07-28")));
        let result_meta = json!({"jsonrpc": "2.0", "id": 2, "result": {"_meta": {PROTOCOL_VERSION_META_KEY: "2026-07-28"}}});
        assert_eq!(carried_version(&result_meta, false), Some(Carried::Meta("2026-07-28")));
        assert_eq!(carried_version(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), false), None);
        assert_eq!(carried_version(&json!([1, 2]), false), None);
    }

    #[test]
    fn tracker_follows_negotiation_and_meta() {
        let c2s = Some(Direction::ClientToServer);
        let s2c = Some(Direction::ServerToClient);
        let mut t = VersionTracker::new();
        assert_eq!(t.observe(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}), c2s), None);
        // A proposal without the handshake is read as the latest handshake version ...
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2026-07-28"}});
        assert_eq!(t.observe(&init, c2s), Some("2025-11-25"));
        // ... and the answer decides; a result with the same id in the other direction does not.
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18"}});
        assert_eq!(t.observe(&answer, c2s), Some("2025-11-25"));
        assert_eq!(t.observe(&answer, s2c), Some("2025-06-18"));
        assert_eq!(t.observe(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), c2s), Some("2025-06-18"));
        // A second answer to the same id is no longer an `initialize` answer.
        assert_eq!(t.observe(&json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2024-11-05"}}), s2c), Some("2025-06-18"));
        // A known `_meta` version wins; an unknown one leaves the session's.
        let meta = |v: &str| json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"_meta": {PROTOCOL_VERSION_META_KEY: v}}});
        assert_eq!(t.observe(&meta("2026-07-28"), c2s), Some("2026-07-28"));
        assert_eq!(t.observe(&meta("2999-01-01"), c2s), Some("2026-07-28"));
        assert_eq!(t.current(), Some("2026-07-28"));
    }

    #[test]
    fn tracker_notes_what_is_worth_reporting() {
        let c2s = Some(Direction::ClientToServer);
        let s2c = Some(Direction::ServerToClient);
        let mut t = VersionTracker::new();
        let init = |v: &str| json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": v}});
        let first = init("1999-01-01");
        let r = t.read(&first, c2s);
        assert_eq!((r.version, r.carried), (Some("2025-11-25"), Some("2025-11-25")));
        assert_eq!(r.notes, [VersionNote::Unknown(Carried::Proposed("1999-01-01"))]);
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "1998-01-01"}});
        assert_eq!(t.read(&answer, s2c).notes, [VersionNote::Unknown(Carried::Answered("1998-01-01"))]);
        assert_eq!(t.current(), Some("2025-11-25"), "an unknown answer leaves the version");
        let meta = |v: &str| json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {PROTOCOL_VERSION_META_KEY: v}}});
        let (same, other, unknown) = (meta("2025-11-25"), meta("2026-07-28"), meta("2999-01-01"));
        assert_eq!(t.read(&same, c2s).notes, []);
        let r = t.read(&other, c2s);
        assert_eq!((r.notes, r.carried), (vec![VersionNote::Changed { from: "2025-11-25", to: "2026-07-28" }], Some("2026-07-28")));
        let r = t.read(&unknown, c2s);
        assert_eq!((r.notes, r.carried, r.version), (vec![VersionNote::Unknown(Carried::Meta("2999-01-01"))], None, Some("2026-07-28")));
        let result_meta = json!({"jsonrpc": "2.0", "id": 2, "result": {"_meta": {PROTOCOL_VERSION_META_KEY: "2025-06-18"}}});
        assert_eq!(t.read(&result_meta, s2c).notes, [VersionNote::Changed { from: "2026-07-28", to: "2025-06-18" }]);
        let second = init("2025-06-18");
        assert_eq!(t.read(&second, c2s).notes, [VersionNote::InitializeAgain]);
    }

    #[test]
    fn tracker_remembers_a_bounded_number_of_initialize_ids() {
        let mut t = VersionTracker::new();
        for i in 0..10_000 {
            t.observe(&json!({"jsonrpc": "2.0", "id": i, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}), None);
        }
        assert_eq!(t.initialize_ids.len(), INITIALIZE_PENDING_MAX);
        // The newest is still answered; the oldest was forgotten.
        assert_eq!(t.observe(&json!({"jsonrpc": "2.0", "id": 9_999, "result": {"protocolVersion": "2024-11-05"}}), None), Some("2024-11-05"));
        assert_eq!(t.observe(&json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-03-26"}}), None), Some("2024-11-05"));
    }

    #[test]
    fn latest_orders_dates_and_skips_other_strings() {
        assert_eq!(latest(&["2025-06-18", "2026-07-28", "2024-11-05"]), Some("2026-07-28"));
        assert_eq!(latest(&["draft", "2025-03-26"]), Some("2025-03-26"));
        assert_eq!(latest(&["draft", "2025-3-26"]), None);
        assert_eq!(latest(&[]), None);
    }

    /// The lifecycle table follows the crate's modules: a version has `initialize` exactly when it
    /// is a handshake version.
    #[test]
    fn versions_match_the_modules() {
        use crate::modules::{ModuleKind, MODULES};
        let protocols: Vec<&str> = MODULES.iter().filter(|m| m.kind == ModuleKind::Version).filter_map(|m| m.protocol).collect();
        let ours: Vec<&str> = VERSIONS.iter().map(|(v, _)| *v).collect();
        assert_eq!(ours, protocols);
        macro_rules! has_initialize {
            ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {{
                let mut checked = 0;
                $(has_initialize!(@ checked $kind $m $feature $protocol);)*
                checked
            }};
            (@ $checked:ident version $m:ident $feature:literal $protocol:literal) => {
                #[cfg(feature = $feature)]
                {
                    let initialize = crate::$m::REQUESTS.iter().any(|(method, ..)| *method == "initialize");
                    assert_eq!(initialize, lifecycle($protocol) == Some(Lifecycle::Handshake), "{}", $protocol);
                    $checked += 1;
                }
            };
            (@ $checked:ident $kind:ident $m:ident $feature:literal $protocol:tt) => {};
        }
        let checked = for_each_module!(has_initialize);
        println!("{checked} enabled version modules checked against the lifecycle table");
    }
}
