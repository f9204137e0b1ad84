//! An observer of both sides of a session: fed every line with the way it travelled, it keeps
//! one model of each side's requests in flight (their progress tokens and the last progress,
//! cancellations, answers) and of the lifecycle, and says what each message means for it.
//!
//! The [`Client`](super::Client) and [`Server`](super::Server) roles keep this bookkeeping for one
//! side and act on it (a cancelled request's result and progress are not written); the observer
//! keeps it for both and reports what a role would have refused or dropped: an answer to no
//! request, an answer or progress after a cancellation, progress that does not increase, a reused
//! id, a request before `initialize` was answered. A request leaves "in flight" once, when it is
//! answered or cancelled, and every observation reads that one notion: a late result and late
//! progress of a cancelled request are both [`Observation`]s of the same entry.
//!
//! It works at the JSON-RPC level for every protocol version and keeps what the caller attaches to
//! each request (the checker keeps what it types the answer with), handed back with the answer.
//! Every table is bounded ([`ObserverConfig`]); a long string id or token is kept as a digest, so
//! hostile ids cost a few bytes each. What a full table forgot is counted ([`Observer::forgotten`]):
//! an id it forgot is no longer known, so "never seen" observations say whether anything was.
//! A message is read from a `Value`'s map ([`Observer::observe`]) or from a compact tree's object
//! ([`Observer::observe_node`], `mcp_spec_types::tree`), with the same observations.
//!
//! ```
//! use mcp_spec_engine::observe::{Direction, Observation, Observer, ObserverConfig};
//! use serde_json::json;
//!
//! let mut observer: Observer = Observer::new(ObserverConfig::default());
//! let mut see = |at, dir, v: serde_json::Value| observer.observe(at, Some(dir), v.as_object().unwrap(), || ()).observations;
//! let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "count", "_meta": {"progressToken": "p"}}});
//! assert!(see(1, Direction::ClientToServer, call).is_empty());
//! see(2, Direction::ClientToServer, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}));
//! // The server goes on: its progress and its result both come after the cancellation.
//! let late = see(3, Direction::ServerToClient, json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p", "progress": 1}}));
//! assert_eq!(late, [Observation::ProgressAfterCancel { request_at: 1, cancelled_at: 2 }]);
//! let late = see(4, Direction::ServerToClient, json!({"jsonrpc": "2.0", "id": 2, "result": {"content": []}}));
//! assert_eq!(late, [Observation::AnsweredAfterCancel { request_at: 1, cancelled_at: 2 }]);
//! ```

mod table;
#[cfg(test)]
mod tests;

use mcp_spec_types::tree::{Node, Object, View};
use serde_json::{Map, Value};

use table::Key;

use crate::table::Table;

/// The way a message travelled: [`negotiate::Direction`](mcp_spec_types::negotiate::Direction), one type
/// under both names.
pub use mcp_spec_types::negotiate::Direction;

const BOTH: [Direction; 2] = [Direction::ClientToServer, Direction::ServerToClient];

/// The bounds of the observer's tables, per direction.
#[derive(Debug, Clone)]
pub struct ObserverConfig {
    /// Requests in flight remembered (default 4096); the oldest is forgotten first.
    pub max_in_flight: usize,
    /// Answered or cancelled request ids remembered, to tell a reused id or a late answer from an
    /// unknown one (default 4096), and as many tokens of ended requests.
    pub max_ended: usize,
    /// Bytes each table may hold, keys and attachments included (default 16 MiB).
    pub max_bytes: usize,
}

impl Default for ObserverConfig {
    fn default() -> Self {
        ObserverConfig { max_in_flight: 4096, max_ended: 4096, max_bytes: 16 << 20 }
    }
}

/// What an attachment weighs beyond its fixed size, roughly: it counts against
/// [`ObserverConfig::max_bytes`]. The bounded table's trait: one for every table.
pub use crate::table::Weigh;

/// A request in flight.
#[derive(Debug)]
pub struct InFlight<T> {
    /// Where the request was (the caller's position: a line number, a sequence number).
    pub at: u64,
    pub attachment: T,
    initialize: bool,
    token: Option<Key>,
    /// The last `progress` for its token, and where it came.
    last: Option<(f64, u64)>,
}

/// The request an answer answers, taken out of flight.
#[derive(Debug)]
pub struct Answered<T> {
    /// The way the request travelled (the answer went the other way).
    pub request: Direction,
    pub at: u64,
    pub attachment: T,
    initialize: bool,
}

/// What one message meant for the model.
#[derive(Debug)]
pub struct Seen<T> {
    /// The way the message travelled: as given, or for an answer the opposite of its request's.
    pub direction: Option<Direction>,
    /// For an answer: the request it answers.
    pub answered: Option<Answered<T>>,
    pub observations: Vec<Observation>,
}

/// What a message did that the protocol does not expect, or expects not to happen. Positions
/// (`*_at`) are the caller's, as given to [`Observer::observe`].
#[derive(Debug, Clone, PartialEq)]
pub enum Observation {
    /// A request with the id of a request of the same direction still in flight (it replaces it).
    DuplicateId { open_at: u64 },
    /// A request with the id of an answered or cancelled request of the same direction.
    ReusedId { request_at: u64 },
    /// An answer to no request in flight, none that was cancelled and none already answered
    /// (`forgotten`: the table of requests in flight forgot some, one of which it may answer).
    UnknownAnswer { forgotten: bool },
    /// A second answer to a request already answered.
    AnsweredAgain { request_at: u64 },
    /// An answer to a request its sender had cancelled: the receiver should not have sent it.
    AnsweredAfterCancel { request_at: u64, cancelled_at: u64 },
    /// Progress for a token no request in flight carries (`forgotten`: the table of requests in
    /// flight forgot some, one of which may have carried it).
    ProgressUnknownToken { forgotten: bool },
    /// Progress for the token of a request after it was answered.
    ProgressAfterAnswer { request_at: u64, answered_at: u64 },
    /// Progress for the token of a request after it was cancelled.
    ProgressAfterCancel { request_at: u64, cancelled_at: u64 },
    /// `progress` not above the last for the same request.
    ProgressNotIncreasing { last: f64, last_at: u64, progress: f64 },
    /// A cancellation of no request issued the same way (`forgotten`: a full table forgot some).
    CancelUnknown { forgotten: bool },
    /// The client cancelled `initialize`, which the spec forbids; the request stays in flight.
    CancelInitialize,
    /// The client's `initialize` is not the session's first message.
    InitializeNotFirst { first_at: u64 },
    /// A client request other than `ping` before `initialize` was answered.
    RequestBeforeInitialized { initialize_at: u64 },
    /// `notifications/initialized` before `initialize` was answered.
    InitializedBeforeAnswer { initialize_at: u64 },
    /// A server message other than `ping` and logging before `notifications/initialized`.
    ServerBeforeInitialized { request: bool },
}

/// An answered or cancelled request (by id), or the token of one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ended {
    request_at: u64,
    /// Where it was answered or cancelled.
    at: u64,
    cancelled: bool,
}

// Fixed-size: nothing beyond its slot.
impl Weigh for Ended {
    fn weight(&self) -> usize {
        0
    }
}

/// The attachment's weight and the token's.
impl<T: Weigh> Weigh for InFlight<T> {
    fn weight(&self) -> usize {
        self.attachment.weight() + self.token.as_ref().map_or(0, Weigh::weight)
    }
}

#[derive(Default)]
struct Lifecycle {
    first_at: Option<u64>,
    initialize: Option<(u64, Option<Key>)>,
    answered: bool,
    initialized: bool,
    version: Option<Box<str>>,
}

/// One model of a session's requests in flight, seen from outside: see the [module docs](self).
pub struct Observer<T = ()> {
    // Per direction the request travelled.
    open: [Table<Key, InFlight<T>>; 2],
    ended: [Table<Key, Ended>; 2],
    // The token of each request in flight that carried one: the request's id.
    tokens: [Table<Key, Key>; 2],
    ended_tokens: [Table<Key, Ended>; 2],
    lifecycle: Lifecycle,
}

/// What the observer reads of a message's parts: a `Value`, or a node of a `tree::Doc` (the same
/// answers for the same JSON, through `tree::View`), so a caller that holds either reads nothing twice.
pub(crate) trait Part<'a>: View<'a> {
    /// The part as an id or a token (`None` for what is no id).
    fn key(self) -> Option<Key>;
}

impl<'a> Part<'a> for &'a Value {
    fn key(self) -> Option<Key> {
        Key::of(self)
    }
}

impl<'a> Part<'a> for Node<'a> {
    fn key(self) -> Option<Key> {
        Key::of_node(self)
    }
}

/// The envelope's parts the model reads.
struct Parts<P> {
    method: Option<P>,
    id: Option<P>,
    params: Option<P>,
    result: Option<P>,
    error: bool,
}

fn token_of<'a, P: Part<'a>>(params: Option<P>) -> Option<Key> {
    params?.get("_meta")?.get(mcp_spec_types::runtime::meta::PROGRESS_TOKEN).and_then(P::key)
}

impl<T: Weigh> Observer<T> {
    pub fn new(config: ObserverConfig) -> Self {
        let b = config.max_bytes;
        fn t<V: Weigh>(cap: usize, bytes: usize) -> [Table<Key, V>; 2] {
            [Table::new(cap, bytes), Table::new(cap, bytes)]
        }
        Observer { open: t(config.max_in_flight, b), ended: t(config.max_ended, b), tokens: t(config.max_in_flight, b), ended_tokens: t(config.max_ended, b), lifecycle: Lifecycle::default() }
    }

    /// Sees one message at position `at` (increasing), travelling `dir` when known; `attach`
    /// gives what to keep with a request (called only for one with an id). A message whose
    /// direction is unknown is taken as the client's when it is a request, and matched against
    /// both sides otherwise.
    pub fn observe(&mut self, at: u64, dir: Option<Direction>, message: &Map<String, Value>, attach: impl FnOnce() -> T) -> Seen<T> {
        let parts = Parts { method: message.get("method"), id: message.get("id"), params: message.get("params"), result: message.get("result"), error: message.contains_key("error") };
        self.see(at, dir, parts, attach)
    }

    /// [`observe`](Self::observe) for a message read as a compact tree (`tree::Doc`): the same
    /// observations, with no `Value` of it (a repeated key counts with its last value, as in a
    /// `Value`).
    pub fn observe_node(&mut self, at: u64, dir: Option<Direction>, message: Object<'_>, attach: impl FnOnce() -> T) -> Seen<T> {
        let mut parts = Parts { method: None, id: None, params: None, result: None, error: false };
        for (key, value) in message.iter() {
            match key {
                "method" => parts.method = Some(value),
                "id" => parts.id = Some(value),
                "params" => parts.params = Some(value),
                "result" => parts.result = Some(value),
                "error" => parts.error = true,
                _ => {}
            }
        }
        self.see(at, dir, parts, attach)
    }

    fn see<'a, P: Part<'a>>(&mut self, at: u64, dir: Option<Direction>, message: Parts<P>, attach: impl FnOnce() -> T) -> Seen<T> {
        let mut seen = Seen { direction: dir, answered: None, observations: Vec::new() };
        let method = match message.method {
            Some(m) => match m.as_str() {
                Some(m) => Some(m),
                // A `method` that is no string makes no message the model can follow.
                None => return seen,
            },
            None => None,
        };
        let Parts { id, params, .. } = message;
        if method.is_none() && (message.result.is_some() || message.error) {
            self.answer(at, dir, id, &mut seen);
            if let (Some(a), Some(result)) = (&seen.answered, message.result) {
                if a.initialize {
                    self.lifecycle.version = result.get("protocolVersion").and_then(P::as_str).filter(|v| v.len() <= 64).map(Into::into);
                }
            }
        }
        let answers_initialize = seen.answered.as_ref().is_some_and(|a| a.initialize);
        self.lifecycle(at, dir, method, id, answers_initialize, &mut seen.observations);
        match (method, id) {
            (Some(method), Some(id)) => self.request(at, dir.unwrap_or(Direction::ClientToServer), method, id, params, attach, &mut seen.observations),
            (Some("notifications/progress"), None) => self.progress(at, dir, params, &mut seen.observations),
            (Some("notifications/cancelled"), None) => self.cancelled(at, dir, params, &mut seen.observations),
            _ => {}
        }
        seen
    }

    /// Requests travelling `dir` still in flight, oldest first.
    pub fn in_flight(&self, dir: Direction) -> impl Iterator<Item = &InFlight<T>> {
        self.open[dir.index()].iter_in_order().map(|(_, v)| v)
    }

    /// How many requests travelling `dir` are in flight.
    pub fn in_flight_len(&self, dir: Direction) -> usize {
        self.open[dir.index()].len()
    }

    /// Whether the request `id` travelling `dir` is in flight.
    pub fn is_in_flight(&self, dir: Direction, id: &Value) -> bool {
        Key::of(id).is_some_and(|k| self.open[dir.index()].contains(&k))
    }

    /// Entries the full tables forgot: requests in flight, ended requests and tokens.
    pub fn forgotten(&self) -> u64 {
        BOTH.iter().map(|&d| self.forgotten_in(d)).sum()
    }

    fn forgotten_in(&self, d: Direction) -> u64 {
        let i = d.index();
        self.open[i].evicted + self.ended[i].evicted + self.tokens[i].evicted + self.ended_tokens[i].evicted
    }

    /// Where the client's first `initialize` was, if it came.
    pub fn initialize_at(&self) -> Option<u64> {
        self.lifecycle.initialize.as_ref().map(|(at, _)| *at)
    }

    /// The version the server's answer to `initialize` chose (at most 64 bytes are kept).
    pub fn version(&self) -> Option<&str> {
        self.lifecycle.version.as_deref()
    }

    /// Whether the client sent `notifications/initialized`.
    pub fn is_initialized(&self) -> bool {
        self.lifecycle.initialized
    }

    fn answer<'a, P: Part<'a>>(&mut self, at: u64, dir: Option<Direction>, id: Option<P>, seen: &mut Seen<T>) {
        // An answer travels the other way from its request.
        let dirs: &[Direction] = match dir {
            Some(Direction::ClientToServer) => &[Direction::ServerToClient],
            Some(Direction::ServerToClient) => &[Direction::ClientToServer],
            None => &BOTH,
        };
        let Some(key) = id.and_then(P::key) else {
            seen.observations.push(Observation::UnknownAnswer { forgotten: false });
            return;
        };
        for &d in dirs {
            let i = d.index();
            if let Some(req) = self.open[i].remove(&key) {
                let ended = Ended { request_at: req.at, at, cancelled: false };
                self.end_token(d, &key, req.token.as_ref(), ended);
                self.ended[i].insert(key, ended);
                seen.direction = Some(d.opposite());
                seen.answered = Some(Answered { request: d, at: req.at, attachment: req.attachment, initialize: req.initialize });
                return;
            }
        }
        let ended = dirs.iter().find_map(|d| self.ended[d.index()].get(&key).copied());
        seen.observations.push(match ended {
            Some(e) if e.cancelled => Observation::AnsweredAfterCancel { request_at: e.request_at, cancelled_at: e.at },
            Some(e) => Observation::AnsweredAgain { request_at: e.request_at },
            None => Observation::UnknownAnswer { forgotten: dirs.iter().any(|d| self.open[d.index()].evicted > 0) },
        });
    }

    /// The request `id` travelling `d` ended: its token is no longer active.
    fn end_token(&mut self, d: Direction, id: &Key, token: Option<&Key>, ended: Ended) {
        let i = d.index();
        let Some(token) = token else { return };
        // Only if the token still names this request (a later request may have taken it).
        if self.tokens[i].get(token) == Some(id) {
            self.tokens[i].remove(token);
            self.ended_tokens[i].insert(token.clone(), ended);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn request<'a, P: Part<'a>>(&mut self, at: u64, d: Direction, method: &str, id: P, params: Option<P>, attach: impl FnOnce() -> T, out: &mut Vec<Observation>) {
        let Some(key) = id.key() else { return };
        let i = d.index();
        if let Some(e) = self.ended[i].get(&key) {
            out.push(Observation::ReusedId { request_at: e.request_at });
        }
        let token = token_of(params);
        if let Some(token) = &token {
            // A token given again is in flight again.
            self.ended_tokens[i].remove(token);
            self.tokens[i].insert(token.clone(), key.clone());
        }
        let attachment = attach();
        let entry = InFlight { at, attachment, initialize: method == "initialize", token: token.clone(), last: None };
        if let Some(old) = self.open[i].insert(key.clone(), entry) {
            out.push(Observation::DuplicateId { open_at: old.at });
            // The replaced request's token is its no more, unless the new one carries it too.
            if let Some(old_token) = old.token.filter(|t| Some(t) != token.as_ref()) {
                if self.tokens[i].get(&old_token) == Some(&key) {
                    self.tokens[i].remove(&old_token);
                }
            }
        }
    }

    fn progress<'a, P: Part<'a>>(&mut self, at: u64, dir: Option<Direction>, params: Option<P>, out: &mut Vec<Observation>) {
        let Some(token) = params.and_then(|p| p.get(mcp_spec_types::runtime::meta::PROGRESS_TOKEN)).and_then(P::key) else { return };
        // Progress travels the other way from its request.
        let dirs: &[Direction] = match dir {
            Some(Direction::ClientToServer) => &[Direction::ServerToClient],
            Some(Direction::ServerToClient) => &[Direction::ClientToServer],
            None => &BOTH,
        };
        let open = dirs.iter().find_map(|&d| Some((d, self.tokens[d.index()].get(&token)?.clone())));
        let Some((d, id)) = open else {
            let ended = dirs.iter().find_map(|d| self.ended_tokens[d.index()].get(&token).copied());
            out.push(match ended {
                Some(e) if e.cancelled => Observation::ProgressAfterCancel { request_at: e.request_at, cancelled_at: e.at },
                Some(e) => Observation::ProgressAfterAnswer { request_at: e.request_at, answered_at: e.at },
                // Only a forgotten request in flight could have been the token's: one forgotten
                // after it ended was not in flight anyway.
                None => Observation::ProgressUnknownToken { forgotten: BOTH.iter().any(|d| self.open[d.index()].evicted + self.tokens[d.index()].evicted > 0) },
            });
            return;
        };
        let Some(progress) = params.and_then(|p| p.get("progress")).and_then(P::as_f64) else { return };
        let Some(req) = self.open[d.index()].get_mut(&id) else { return };
        if let Some((last, last_at)) = req.last {
            if progress <= last {
                out.push(Observation::ProgressNotIncreasing { last, last_at, progress });
            }
        }
        req.last = Some((progress, at));
    }

    fn cancelled<'a, P: Part<'a>>(&mut self, at: u64, dir: Option<Direction>, params: Option<P>, out: &mut Vec<Observation>) {
        let Some(key) = params.and_then(|p| p.get("requestId")).and_then(P::key) else { return };
        if dir != Some(Direction::ServerToClient) && self.lifecycle.initialize.as_ref().is_some_and(|(_, k)| k.as_ref() == Some(&key)) {
            out.push(Observation::CancelInitialize);
            return;
        }
        // A cancellation travels the way its request did.
        let dirs: &[Direction] = match dir {
            Some(Direction::ClientToServer) => &[Direction::ClientToServer],
            Some(Direction::ServerToClient) => &[Direction::ServerToClient],
            None => &BOTH,
        };
        let mut known = false;
        for &d in dirs {
            let i = d.index();
            if let Some(req) = self.open[i].remove(&key) {
                let ended = Ended { request_at: req.at, at, cancelled: true };
                self.end_token(d, &key, req.token.as_ref(), ended);
                self.ended[i].insert(key.clone(), ended);
                known = true;
            } else if self.ended[i].contains(&key) {
                // Answered already: the cancellation crossed the answer, as the spec allows.
                known = true;
            }
        }
        if !known {
            out.push(Observation::CancelUnknown { forgotten: dirs.iter().any(|&d| self.open[d.index()].evicted + self.ended[d.index()].evicted > 0) });
        }
    }

    fn lifecycle<'a, P: Part<'a>>(&mut self, at: u64, dir: Option<Direction>, method: Option<&str>, id: Option<P>, answers_initialize: bool, out: &mut Vec<Observation>) {
        let l = &mut self.lifecycle;
        let first_at = *l.first_at.get_or_insert(at);
        let is_request = id.is_some() && method.is_some();
        if method == Some("initialize") && is_request && dir != Some(Direction::ServerToClient) {
            if l.initialize.is_none() {
                l.initialize = Some((at, id.and_then(P::key)));
                if first_at < at {
                    out.push(Observation::InitializeNotFirst { first_at });
                }
            }
            return;
        }
        let Some((initialize_at, _)) = l.initialize else { return };
        if answers_initialize {
            l.answered = true;
            return;
        }
        let Some(method) = method else { return };
        match dir {
            Some(Direction::ClientToServer) if method == "notifications/initialized" => {
                if !l.answered && !l.initialized {
                    out.push(Observation::InitializedBeforeAnswer { initialize_at });
                }
                l.initialized = true;
            }
            Some(Direction::ClientToServer) if is_request && method != "ping" && !l.answered => out.push(Observation::RequestBeforeInitialized { initialize_at }),
            Some(Direction::ServerToClient) if !l.initialized => {
                let allowed = if is_request { method == "ping" } else { method == "notifications/message" };
                if !allowed {
                    out.push(Observation::ServerBeforeInitialized { request: is_request });
                }
            }
            _ => {}
        }
    }
}
