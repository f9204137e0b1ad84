//! What both roles share: the table of requests this side sent (pending), the table of requests
//! the peer sent (in flight), and the two queues. Each role's `Policy` decides which incoming
//! requests reach the application and what becomes of an answer; everything else is here.

use std::collections::{HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::table::{Full, Table, Weigh};
use super::wire::{self, Incoming};
use super::{Answer, Config, Dropped, Error, Event, Failure, Handle, Id, Request, Sent, Transmit};
use mcp_spec_types::rpc::{INVALID_REQUEST, PARSE_ERROR};
use mcp_spec_types::runtime::{RequestMethod, RpcError};
use mcp_spec_types::tree::{Kind, Node};
use mcp_spec_types::write::WriteJson;

pub struct Pending {
    pub method: &'static str,
    pub deadline: Option<Instant>,
    pub progress: bool,
    // The application's id for the request ([`Handle::id`]): its first wire id; a retry
    // (2026-07-28: input given, another version) goes out under a new one.
    pub handle: i64,
    // A per-request client's request as first serialized, kept to build its retries.
    pub original: Option<Box<Map<String, Value>>>,
    pub rounds: u32,
    pub version_retried: bool,
    // The peer's request this one was made for (a server's request while handling it): its
    // cancellation goes where the request went.
    pub on_behalf: Option<Id>,
}

struct InFlight {
    // The spec: `initialize` is never cancelled, so a cancellation of it is ignored.
    cancellable: bool,
    token: Option<Value>,
    last_progress: Option<f64>,
    cancelled: bool,
    // What it counts against `Config::max_in_flight_bytes`.
    weight: usize,
    // The batch it came in, whose answers go out together.
    batch: Option<u64>,
}

/// What a role does with an incoming request once the endpoint has read it (public in name only:
/// the module is private, and the sealed `Side` names it).
pub enum Route<K> {
    /// The application gets it as [`Event::Request`], once the in-flight table takes it; the role
    /// then keeps `K` for it ([`Policy::offered`]).
    Offer(K),
    /// Answered now with this result.
    Answer(Value),
    /// Answered now with this error.
    Refuse(RpcError),
}

// JSON-RPC batches (2025-03-26): their members read one by one, their answers written together.
mod batch;
pub(crate) use batch::VERSION as BATCH_VERSION;
// What a role decides: the one trait the endpoint calls.
mod policy;
pub(crate) use policy::Policy;

pub struct Endpoint {
    pub config: Config,
    next_id: i64,
    pending: HashMap<i64, Pending>,
    // Ids this side cancelled or gave up on, oldest first: their late answers are dropped.
    cancelled: HashSet<i64>,
    cancelled_order: VecDeque<i64>,
    in_flight: Table<Id, InFlight>,
    // Each line with the peer's request it belongs to, for a transport that routes by request.
    transmit: VecDeque<Transmit>,
    events: VecDeque<Event>,
    // Handles whose request went out again under a new wire id (at most one per pending request).
    retried: HashMap<i64, i64>,
    batch: batch::Batches,
}

impl Endpoint {
    pub fn new(config: Config) -> Self {
        Endpoint {
            in_flight: Table::refusing(config.max_in_flight, config.max_in_flight_bytes),
            config,
            next_id: 1,
            pending: HashMap::new(),
            cancelled: HashSet::new(),
            cancelled_order: VecDeque::new(),
            transmit: VecDeque::new(),
            events: VecDeque::new(),
            retried: HashMap::new(),
            batch: batch::Batches::default(),
        }
    }

    pub fn push_event(&mut self, event: Event) {
        self.events.push_back(event);
    }

    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmit.pop_front()
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    pub fn poll_timeout(&self) -> Option<Instant> {
        self.pending.values().filter_map(|p| p.deadline).min()
    }

    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_in_flight(&self, id: &Id) -> bool {
        self.in_flight.contains(id)
    }

    /// `Some(true)` when the peer cancelled its request `id`, `None` when it is not in flight.
    pub fn is_cancelled(&self, id: &Id) -> Option<bool> {
        self.in_flight.get(id).map(|f| f.cancelled)
    }

    pub fn in_flight_len(&self) -> usize {
        self.in_flight.len()
    }

    fn write(&mut self, line: Vec<u8>) {
        self.transmit.push_back(Transmit { line, request: None });
    }

    /// Writes a line that belongs to the peer's request `id` (its answer, its progress, ...).
    fn write_for(&mut self, id: Option<&Id>, line: Vec<u8>) {
        self.transmit.push_back(Transmit { line, request: id.cloned() });
    }

    fn room_to_write(&self) -> Result<(), Error> {
        if self.transmit.len() >= self.config.max_queued {
            return Err(Error::QueueFull { cap: self.config.max_queued });
        }
        Ok(())
    }

    /// A line is taken only when both queues have room for what it may cause (one line to
    /// write, one event), so a caller that stops draining them stops the engine, not its memory.
    pub fn room_to_read(&self) -> Result<(), Error> {
        if self.events.len() >= self.config.max_queued {
            return Err(Error::QueueFull { cap: self.config.max_queued });
        }
        self.room_to_write()
    }

    pub fn request<R: RequestMethod>(&mut self, request: &R, now: Instant, timeout: Option<Duration>, progress: bool) -> Result<(Handle<R>, Value), Error> {
        let object = request_object(request)?;
        let deadline = timeout.and_then(|t| now.checked_add(t));
        let (id, params) = self.send(R::METHOD, object, None, deadline, progress, None)?;
        Ok((Handle { id, _request: PhantomData }, params))
    }

    /// As [`request`](Self::request), on behalf of the peer's request `on_behalf` in flight: the
    /// line and its cancellation are written for it.
    pub fn request_for<R: RequestMethod>(&mut self, on_behalf: &Id, request: &R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        if !self.in_flight.contains(on_behalf) {
            return Err(Error::UnknownRequest);
        }
        let handle = self.request(request, now, timeout, false)?.0;
        if let Some(p) = self.pending.get_mut(&handle.id) {
            p.on_behalf = Some(on_behalf.clone());
        }
        if let Some(last) = self.transmit.back_mut() {
            last.request = Some(on_behalf.clone());
        }
        Ok(handle)
    }

    /// Whether one more request may go out.
    pub fn room_to_send(&self, also_waiting: usize) -> Result<(), Error> {
        if self.pending.len() + also_waiting >= self.config.max_pending {
            return Err(Error::PendingFull { cap: self.config.max_pending });
        }
        self.room_to_write()
    }

    /// Writes the request `object` (a serialized request: its `jsonrpc`, `id` and `method` are
    /// the engine's) under a new id. `retry_of`: the request goes out again for this handle,
    /// with its rounds so far. Returns the new id and the params as written.
    pub fn send(&mut self, method: &'static str, object: Map<String, Value>, retry_of: Option<(i64, u32, bool)>, deadline: Option<Instant>, progress: bool, keep: Option<Map<String, Value>>) -> Result<(i64, Value), Error> {
        // A retry replaces a request that was pending, so it always has room in the table.
        match retry_of {
            None => self.room_to_send(0)?,
            Some(_) => self.room_to_write()?,
        }
        self.send_anyway(method, object, retry_of, deadline, progress, keep)
    }

    /// [`send`](Self::send) without the bounds: for a retry the engine makes on its own.
    pub fn send_anyway(&mut self, method: &'static str, mut object: Map<String, Value>, retry_of: Option<(i64, u32, bool)>, deadline: Option<Instant>, progress: bool, keep: Option<Map<String, Value>>) -> Result<(i64, Value), Error> {
        let id = self.next_id;
        // The engine's ids replace whatever id the request was built with.
        object.insert("jsonrpc".into(), Value::from("2.0"));
        object.insert("id".into(), Value::from(id));
        object.insert("method".into(), Value::from(method));
        if progress {
            let params = object.entry("params").or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(params) = params else {
                return Err(Error::Serialize("`params` must serialize as an object".into()));
            };
            let meta = params.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(meta) = meta else {
                return Err(Error::Serialize("`_meta` must serialize as an object".into()));
            };
            // The token is the request's own id: unique while the request is pending.
            meta.insert(mcp_spec_types::runtime::meta::PROGRESS_TOKEN.into(), Value::from(id));
        }
        self.next_id += 1;
        let (handle, rounds, version_retried) = retry_of.unwrap_or((id, 0, false));
        if handle != id {
            self.retried.insert(handle, id);
        }
        let original = keep.map(Box::new);
        self.pending.insert(id, Pending { method, deadline, progress, handle, original, rounds, version_retried, on_behalf: None });
        let params = object.get("params").cloned().unwrap_or(Value::Null);
        self.write(wire::line(object));
        Ok((id, params))
    }

    pub fn cancel(&mut self, handle: i64, reason: Option<&str>) -> Result<(), Error> {
        let id = self.retried.get(&handle).copied().unwrap_or(handle);
        match self.pending.get(&id) {
            None => return Err(Error::NotPending),
            // The spec: the client must not cancel `initialize`.
            Some(p) if p.method == "initialize" => return Err(Error::CancelInitialize),
            Some(_) => {}
        }
        self.room_to_write()?;
        let on_behalf = self.pending.remove(&id).and_then(|p| p.on_behalf);
        self.retried.remove(&handle);
        self.forget_later(id);
        self.write_for(on_behalf.as_ref(), cancelled_line(id, reason));
        Ok(())
    }

    fn forget_later(&mut self, id: i64) {
        if self.cancelled_order.len() >= self.config.max_cancelled {
            if let Some(old) = self.cancelled_order.pop_front() {
                self.cancelled.remove(&old);
            }
        }
        self.cancelled.insert(id);
        self.cancelled_order.push_back(id);
    }

    pub fn handle_timeout(&mut self, now: Instant) {
        let expired: Vec<i64> = self.pending.iter().filter(|(_, p)| p.deadline.is_some_and(|d| d <= now)).map(|(id, _)| *id).collect();
        for id in expired {
            let Some(p) = self.pending.remove(&id) else { continue };
            self.retried.remove(&p.handle);
            self.forget_later(id);
            // Written even past the queue cap: one line per request that was allowed in.
            self.write_for(p.on_behalf.as_ref(), cancelled_line(id, Some("timed out")));
            self.events.push_back(Event::Answer(Answer { id: p.handle, outcome: Err(Failure::TimedOut) }));
        }
    }

    /// Reads one line, parsed once into a compact tree; what the role decides goes to `side`.
    pub fn handle_line<P: Policy>(&mut self, line: &[u8], side: &mut P) -> Result<(), Error> {
        self.room_to_read()?;
        let doc = match wire::parse(line) {
            Ok(doc) => doc,
            Err(bad) => {
                self.handle_message(Err(bad), side);
                return Ok(());
            }
        };
        match doc.root().as_array() {
            Some(members) if side.batches() => self.handle_batch(members, side),
            _ => self.handle_message(wire::classify(doc.root()), side),
        }
        Ok(())
    }

    /// One message (a line, or a member of a batch).
    pub(super) fn handle_message<P: Policy>(&mut self, message: Result<Incoming<'_>, wire::Unreadable>, side: &mut P) {
        let message = match message {
            Ok(m) => m,
            Err(bad) => {
                // A malformed response or notification gets no answer: answering could loop.
                if let Some(id) = &bad.answer {
                    let error = match &bad.reason {
                        Dropped::NotJson(_) => RpcError { code: PARSE_ERROR, message: "Parse error".into(), data: None },
                        why => RpcError { code: INVALID_REQUEST, message: format!("Invalid Request: {}", why.describe()), data: None },
                    };
                    self.reply(id.as_ref(), wire::error(id.as_ref(), side.null_id(), &error));
                }
                return self.events.push_back(Event::Dropped(bad.reason));
            }
        };
        match message {
            Incoming::Request { id, method, params, message } => self.request_in(id, method, Message { message, params }, side),
            Incoming::Notification { method, params } => {
                side.notified(method);
                self.notification(method, params)
            }
            Incoming::Result { id, result } => self.answer(id, Ok(result), side),
            Incoming::Error { id: Some(id), error } => self.answer(id, Err(Failure::Rpc(error)), side),
            Incoming::Error { id: None, error } => self.events.push_back(Event::Dropped(Dropped::ErrorWithoutId(error))),
        }
    }

    /// A request of the peer's: answered now, refused, or in flight and offered to the application.
    fn request_in<P: Policy>(&mut self, id: Id, method: &str, message: Message<'_>, side: &mut P) {
        let token = message.meta(mcp_spec_types::runtime::meta::PROGRESS_TOKEN);
        if let Some(too_long) = self.too_long(&id, token) {
            // A long id is not written back (it could be the line's size): `null`, as for an unreadable id.
            let echo = (too_long != "id").then_some(&id);
            let message = format!("Invalid Request: the {too_long} is longer than {} bytes", self.config.max_id_len);
            self.reply(echo, wire::error(echo, side.null_id(), &RpcError { code: INVALID_REQUEST, message, data: None }));
            let why = if echo.is_some() { "a progress token longer than `Config::max_id_len`" } else { "an id longer than `Config::max_id_len`" };
            return self.events.push_back(Event::Dropped(Dropped::Malformed(why)));
        }
        if self.in_flight.contains(&id) {
            let error = RpcError { code: INVALID_REQUEST, message: "Invalid Request: this id is already in flight".into(), data: None };
            return self.reply(Some(&id), wire::error(Some(&id), false, &error));
        }
        match side.route(&id, method, message) {
            Route::Answer(result) => self.reply(Some(&id), wire::result(&id, &result)),
            Route::Refuse(error) => self.reply(Some(&id), wire::error(Some(&id), false, &error)),
            Route::Offer(kept) => {
                let weight = weight(method, message.params);
                // Only a request the table takes has its token and params made `Value`s.
                let entry = InFlight { cancellable: method != "initialize", token: None, last_progress: None, cancelled: false, weight, batch: None };
                let why = match self.in_flight.try_insert(id.clone(), entry) {
                    Err(Full::Count) => format!("too many requests in flight (at most {})", self.config.max_in_flight),
                    Err(Full::Bytes) => format!("too many requests in flight (their ids, tokens and state at most {} bytes)", self.config.max_in_flight_bytes),
                    Ok(_) => {
                        let batch = self.batch_joined(&id);
                        if let Some(f) = self.in_flight.get_mut(&id) {
                            f.batch = batch;
                            f.token = token.map(wire::value);
                        }
                        side.offered(&id, kept);
                        let params = message.params.map(wire::value);
                        return self.events.push_back(Event::Request(Request { id, method: method.to_owned(), params }));
                    }
                };
                self.reply(Some(&id), wire::error(Some(&id), false, &RpcError { code: mcp_spec_types::rpc::INTERNAL_ERROR, message: why, data: None }));
            }
        }
    }

    /// An answer to this side's request: its result is made a `Value` only for a request pending.
    fn answer<P: Policy>(&mut self, id: Id, outcome: Result<Node<'_>, Failure>, side: &mut P) {
        let own = match id {
            Id::Number(n) => n,
            Id::String(_) => return self.events.push_back(Event::Dropped(Dropped::UnknownId(id))),
        };
        if let Some(pending) = self.pending.remove(&own) {
            self.retried.remove(&pending.handle);
            side.answered(self, pending, outcome.map(wire::value));
        } else if self.cancelled.contains(&own) {
            self.events.push_back(Event::Dropped(Dropped::AfterCancel(own)));
        } else {
            self.events.push_back(Event::Dropped(Dropped::UnknownId(id)));
        }
    }

    /// A notification: those the engine consumes are read on the tree, the others made `Value`s.
    fn notification(&mut self, method: &str, params: Option<Node<'_>>) {
        match method {
            "notifications/progress" => {
                let token = params.and_then(|p| p.get(mcp_spec_types::runtime::meta::PROGRESS_TOKEN));
                match token.and_then(Node::as_i64).and_then(|t| self.pending.get(&t)).filter(|p| p.progress) {
                    Some(p) => self.events.push_back(Event::Progress { request: p.handle, params: params.map_or(Value::Null, wire::value) }),
                    // The token is the request's own id: a cancelled one is named as such.
                    None => match token.and_then(Node::as_i64).filter(|t| self.cancelled.contains(t)) {
                        Some(own) => self.events.push_back(Event::Dropped(Dropped::ProgressAfterCancel(own))),
                        None => self.events.push_back(Event::Dropped(Dropped::UnknownProgressToken(token.map_or(Value::Null, wire::value)))),
                    },
                }
            }
            "notifications/cancelled" => {
                let id = params.and_then(|p| p.get("requestId")).and_then(wire::id_of);
                let reason = params.and_then(|p| p.get("reason")).and_then(Node::as_str).map(str::to_owned);
                match id.as_ref().and_then(|id| self.in_flight.get_mut(id)) {
                    Some(f) if f.cancellable && !f.cancelled => {
                        f.cancelled = true;
                        self.events.push_back(Event::Cancelled { id: id.unwrap(), reason });
                    }
                    // Unknown or already answered (it may cross the answer), or `initialize`: ignored.
                    _ => {}
                }
            }
            _ => self.events.push_back(Event::Notification { method: method.to_owned(), params: params.map(wire::value) }),
        }
    }

    fn forget_in_flight(&mut self, id: &Id) {
        self.in_flight.remove(id);
    }

    /// Which of a request's id and progress token is longer than `Config::max_id_len`.
    fn too_long(&self, id: &Id, token: Option<Node<'_>>) -> Option<&'static str> {
        let max = self.config.max_id_len;
        if matches!(id, Id::String(s) if s.len() > max) {
            return Some("id");
        }
        // A token that is neither a string nor an integer is the validator's to refuse.
        token.and_then(Node::as_str).is_some_and(|t| t.len() > max).then_some("progress token")
    }

    /// Ends an incoming request: `answer` makes its answer, unless the peer cancelled it
    /// ([`Sent::Dropped`], nothing written).
    fn finish(&mut self, id: &Id, answer: impl FnOnce() -> Vec<u8>) -> Result<Sent, Error> {
        let (cancelled, batch) = match self.in_flight.get(id) {
            None => return Err(Error::UnknownRequest),
            Some(f) => (f.cancelled, f.batch),
        };
        // Checked before the entry goes, so a full queue leaves the request in flight.
        if !cancelled {
            self.room_to_write()?;
        }
        self.forget_in_flight(id);
        let line = (!cancelled).then(answer);
        match batch {
            Some(batch) => self.batch_answered(batch, line),
            None => line.into_iter().for_each(|line| self.write_for(Some(id), line)),
        }
        Ok(if cancelled { Sent::Dropped } else { Sent::Written })
    }

    /// Writes `result` as it is, through its `WriteJson`: no `Value` in between.
    pub fn respond<T: WriteJson + ?Sized>(&mut self, id: &Id, result: &T) -> Result<Sent, Error> {
        self.finish(id, || wire::result(id, result))
    }

    pub fn respond_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        self.finish(id, || wire::error(Some(id), false, error))
    }

    pub fn progress(&mut self, id: &Id, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<Sent, Error> {
        let f = self.in_flight.get(id).ok_or(Error::UnknownRequest)?;
        if f.cancelled {
            return Ok(Sent::Dropped);
        }
        let token = f.token.clone().ok_or(Error::NoProgressToken)?;
        // The spec: progress must increase with each notification (NaN never does).
        if !progress.is_finite() || f.last_progress.is_some_and(|last| progress <= last) {
            return Err(Error::ProgressNotIncreasing { last: f.last_progress, next: progress });
        }
        self.room_to_write()?;
        let mut params = Map::new();
        params.insert(mcp_spec_types::runtime::meta::PROGRESS_TOKEN.into(), token);
        params.insert("progress".into(), Value::from(progress));
        if let Some(total) = total {
            params.insert("total".into(), Value::from(total));
        }
        if let Some(message) = message {
            params.insert("message".into(), Value::from(message));
        }
        self.write_for(Some(id), wire::notification("notifications/progress", params));
        if let Some(f) = self.in_flight.get_mut(id) {
            f.last_progress = Some(progress);
        }
        Ok(Sent::Written)
    }

    /// Writes a notification, for the peer's request `on_behalf` when given.
    pub fn notify(&mut self, on_behalf: Option<&Id>, method: &str, params: Map<String, Value>) -> Result<(), Error> {
        self.room_to_write()?;
        self.write_for(on_behalf, wire::notification(method, params));
        Ok(())
    }
}

/// A request serialized, as the object the engine completes and writes.
pub(crate) fn request_object<R: Serialize>(request: &R) -> Result<Map<String, Value>, Error> {
    match serde_json::to_value(request).map_err(|e| Error::Serialize(e.to_string()))? {
        Value::Object(o) => Ok(o),
        _ => Err(Error::Serialize("a request must serialize as an object".into())),
    }
}

fn cancelled_line(id: i64, reason: Option<&str>) -> Vec<u8> {
    let mut params = Map::new();
    params.insert("requestId".into(), Value::from(id));
    if let Some(reason) = reason {
        params.insert("reason".into(), Value::from(reason));
    }
    wire::notification("notifications/cancelled", params)
}

/// What a request in flight keeps besides its id (the table weighs that), in bytes: its
/// progress token, its method, and the client capabilities of a 2026-07-28 request's `_meta`
/// (the server keeps them with it).
fn weight(method: &str, params: Option<Node<'_>>) -> usize {
    let meta = params.and_then(|p| p.get("_meta"));
    let token = meta.and_then(|m| m.get(mcp_spec_types::runtime::meta::PROGRESS_TOKEN)).map_or(0, json_len);
    let capabilities = meta.and_then(|m| m.get(mcp_spec_types::negotiate::CLIENT_CAPABILITIES_META_KEY)).map_or(0, json_len);
    token + method.len() + capabilities
}

impl Weigh for InFlight {
    fn weight(&self) -> usize {
        self.weight
    }
}

/// About the bytes `value` takes as JSON text (a lower bound of what it takes in memory as a `Value`).
fn json_len(value: Node<'_>) -> usize {
    match value.kind() {
        Kind::Null | Kind::Bool(_) | Kind::Number(_) => 8,
        Kind::String(s) => s.len() + 2,
        Kind::Array(a) => 2 + a.iter().map(json_len).sum::<usize>(),
        Kind::Object(o) => 2 + o.iter().map(|(k, v)| k.len() + 3 + json_len(v)).sum::<usize>(),
    }
}

/// An incoming request as the roles read it: the whole message (what a version's validator
/// reads) and its `params`, nodes of the line's tree (public in name only, as [`Policy`]).
#[derive(Clone, Copy)]
pub struct Message<'d> {
    pub message: Node<'d>,
    pub params: Option<Node<'d>>,
}

impl<'d> Message<'d> {
    /// `params._meta[key]`.
    pub fn meta(&self, key: &str) -> Option<Node<'d>> {
        self.params?.get("_meta")?.get(key)
    }

    /// `params[key]`.
    pub fn param(&self, key: &str) -> Option<Node<'d>> {
        self.params?.get(key)
    }
}
