//! What the transport adapters ([`blocking`](super::blocking), and `tokio` and `http::client`
//! behind their features) share: the [`Role`] they drive, the [`Context`] that lets work on
//! another thread answer a request, report progress and learn that the peer cancelled it, and a
//! client connection's `call` ([`ClientLoop`]).

use std::collections::HashMap;
use std::future::Future;
use std::io::{self, Write};
use std::pin::pin;
use std::task::{Context as TaskContext, Poll, Waker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use super::{CallError, Client, Engine, Error, Event, Handle, Id, Request, Sent, Server, Side, Transmit};
use mcp_spec_types::rpc::INTERNAL_ERROR;
use mcp_spec_types::runtime::{RequestMethod, RpcError};
use mcp_spec_types::write::WriteJson;

mod sealed {
    pub trait Sealed {}
    impl<S: super::Side> Sealed for super::Engine<S> {}
}

/// An engine a transport adapter can drive: [`Client`](super::Client) or
/// [`Server`](super::Server) (sealed; implemented once, for every [`Engine`]).
pub trait Role: sealed::Sealed + Send + 'static {
    /// How a recording names what arrives and what is written (`c2s`/`s2c`, from the roles).
    #[doc(hidden)]
    const DIRECTIONS: (&'static str, &'static str);
    #[doc(hidden)]
    fn handle_line(&mut self, line: &[u8]) -> Result<(), Error>;
    #[doc(hidden)]
    fn handle_timeout(&mut self, now: Instant);
    #[doc(hidden)]
    fn poll_timeout(&self) -> Option<Instant>;
    #[doc(hidden)]
    fn poll_transmit(&mut self) -> Option<Transmit>;
    #[doc(hidden)]
    fn poll_event(&mut self) -> Option<Event>;
    #[doc(hidden)]
    fn respond_serialized(&mut self, id: &Id, result: &Serialized) -> Result<Sent, Error>;
    #[doc(hidden)]
    fn respond_rpc_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error>;
}

impl<S: Side> Role for Engine<S> {
    const DIRECTIONS: (&'static str, &'static str) = S::DIRECTIONS;
    fn handle_line(&mut self, line: &[u8]) -> Result<(), Error> {
        Engine::handle_line(self, line)
    }
    fn handle_timeout(&mut self, now: Instant) {
        Engine::handle_timeout(self, now)
    }
    fn poll_timeout(&self) -> Option<Instant> {
        Engine::poll_timeout(self)
    }
    fn poll_transmit(&mut self) -> Option<Transmit> {
        Engine::poll_transmit(self)
    }
    fn poll_event(&mut self) -> Option<Event> {
        Engine::poll_event(self)
    }
    fn respond_serialized(&mut self, id: &Id, result: &Serialized) -> Result<Sent, Error> {
        Engine::respond(self, id, result)
    }
    fn respond_rpc_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        Engine::respond_error(self, id, error)
    }
}

/// A [`Context`]'s answer, written as JSON on the context's thread; the loop puts it in its
/// envelope as it is. Not a public type: it only crosses [`Role`].
#[doc(hidden)]
pub struct Serialized(String);

impl WriteJson for Serialized {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.as_bytes())
    }
}

/// Only where the engine completes or reads the result (a 2026-07-28 result, `initialize`): the
/// text read back as the `Value` it is.
impl Serialize for Serialized {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_json::from_str::<Value>(&self.0).map_err(serde::ser::Error::custom)?.serialize(s)
    }
}

/// Something for the adapter's loop to run on its engine, sent from a [`Context`].
pub(crate) enum Work<E> {
    Run(Box<dyn FnOnce(&mut E) + Send>),
    /// The context's last word: runs, then the request's context is gone.
    Finish(Id, Box<dyn FnOnce(&mut E) + Send>),
}

pub(crate) type Sink<E> = Arc<dyn Fn(Work<E>) + Send + Sync>;

/// A request of the peer's, for work that runs on another thread or task: it answers the
/// request, sends progress, and sees the cancellation, all through the adapter's loop (the
/// engine stays on the loop's thread). Made by the adapter's `context(&request)` when the
/// request arrives.
///
/// Every context ends in one answer: [`respond`](Self::respond), [`respond_error`](Self::respond_error),
/// or when it is dropped unanswered, a -32603 error. Once the peer has cancelled the request,
/// the engine writes none of them, nor any progress.
pub struct Context<E: Role> {
    id: Id,
    token: bool,
    cancelled: Arc<AtomicBool>,
    sink: Sink<E>,
    last_progress: Option<f64>,
    answered: bool,
}

impl<E: Role> Context<E> {
    /// The request's id.
    pub fn id(&self) -> &Id {
        &self.id
    }

    /// Whether the peer cancelled the request (`notifications/cancelled`). Long work checks it
    /// and stops; whatever it sends after is dropped anyway.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// Whether the request asked for progress (a `progressToken` in `params._meta`).
    pub fn wants_progress(&self) -> bool {
        self.token
    }

    /// Answers the request with `result`, written as JSON on this thread (the crate's
    /// [`serialize_to_string`](mcp_spec_types::serialize_to_string), no `Value` in between).
    pub fn respond<T: Serialize>(mut self, result: &T) {
        self.answered = true;
        match mcp_spec_types::write::serialize_to_string(result) {
            Ok(json) => {
                let answer = Serialized(json);
                self.finish(move |e, id| drop(e.respond_serialized(id, &answer)))
            }
            Err(err) => {
                let error = RpcError { code: INTERNAL_ERROR, message: format!("the result did not serialize: {err}"), data: None };
                self.finish(move |e, id| drop(e.respond_rpc_error(id, &error)))
            }
        }
    }

    /// Answers the request with an error.
    pub fn respond_error(mut self, error: RpcError) {
        self.answered = true;
        self.finish(move |e, id| drop(e.respond_rpc_error(id, &error)))
    }

    /// Runs `f` on the engine in the adapter's loop, e.g. to send a notification.
    pub fn with(&self, f: impl FnOnce(&mut E) + Send + 'static) {
        (self.sink)(Work::Run(Box::new(f)))
    }

    fn finish(&self, f: impl FnOnce(&mut E, &Id) + Send + 'static) {
        let id = self.id.clone();
        (self.sink)(Work::Finish(self.id.clone(), Box::new(move |e| f(e, &id))))
    }
}

impl Context<Server> {
    /// Sends `notifications/progress` for the request. Refused when the request asked for no
    /// progress or `progress` does not increase; nothing is sent once it was cancelled.
    pub fn progress(&mut self, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<(), Error> {
        if !self.token {
            return Err(Error::NoProgressToken);
        }
        // Checked here, where the worker can still act on it; the engine checks again.
        if !progress.is_finite() || self.last_progress.is_some_and(|last| progress <= last) {
            return Err(Error::ProgressNotIncreasing { last: self.last_progress, next: progress });
        }
        self.last_progress = Some(progress);
        if !self.is_cancelled() {
            let (id, message) = (self.id.clone(), message.map(str::to_owned));
            self.with(move |server| drop(server.progress(&id, progress, total, message.as_deref())));
        }
        Ok(())
    }
}

impl<E: Role> Drop for Context<E> {
    fn drop(&mut self) {
        if !self.answered {
            // No request goes unanswered; for a cancelled one the engine writes nothing.
            let error = RpcError { code: INTERNAL_ERROR, message: "the request's handler ended without an answer".into(), data: None };
            let id = self.id.clone();
            (self.sink)(Work::Finish(self.id.clone(), Box::new(move |e: &mut E| drop(e.respond_rpc_error(&id, &error)))));
        }
    }
}

/// The loop's side of the contexts: the cancellation flags of the requests that have one, and
/// how many contexts are still to finish (bounded by the engine's in-flight table, since each
/// answers one request).
pub(crate) struct Contexts {
    flags: HashMap<Id, Arc<AtomicBool>>,
    live: usize,
}

impl Contexts {
    pub fn new() -> Self {
        Contexts { flags: HashMap::new(), live: 0 }
    }

    pub fn make<E: Role>(&mut self, request: &Request, sink: Sink<E>) -> Context<E> {
        let cancelled = self.flags.entry(request.id.clone()).or_default().clone();
        self.live += 1;
        let token = request.params.as_ref().and_then(|p| p.get("_meta")).and_then(|m| m.get(mcp_spec_types::runtime::meta::PROGRESS_TOKEN)).is_some();
        Context { id: request.id.clone(), token, cancelled, sink, last_progress: None, answered: false }
    }

    /// Sets the flag of a request the engine reported cancelled.
    pub fn saw(&self, event: &Event) {
        if let Event::Cancelled { id, .. } = event {
            if let Some(flag) = self.flags.get(id) {
                flag.store(true, Ordering::Release);
            }
        }
    }

    pub fn run<E>(&mut self, engine: &mut E, work: Work<E>) {
        match work {
            Work::Run(f) => f(engine),
            Work::Finish(id, f) => {
                f(engine);
                self.flags.remove(&id);
                self.live = self.live.saturating_sub(1);
            }
        }
    }

    /// Contexts not yet finished: the loop keeps running for them after the input ends.
    pub fn live(&self) -> usize {
        self.live
    }
}

/// Writes each line in and out as `{"dir": "c2s"|"s2c", "msg": ...}` (the checker's recording
/// format); a line that is not JSON is kept as a string under `"text"`. The message is written
/// compact from its tree (keys in the line's order), so a body with newlines still makes one line.
pub(crate) fn record(to: &mut dyn Write, dir: &str, line: &[u8]) -> std::io::Result<()> {
    match mcp_spec_types::tree::Doc::parse_slice(line) {
        Ok(msg) => writeln!(to, "{{\"dir\":{},\"msg\":{}}}", Value::from(dir), msg.root())?,
        Err(_) => writeln!(to, "{}", json!({"dir": dir, "text": String::from_utf8_lossy(line)}))?,
    }
    to.flush()
}

/// The earlier of two optional instants (`None`: never).
pub(crate) fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    a.into_iter().chain(b).min()
}

/// What `next_event_until` returns when its deadline passes first.
pub(crate) fn deadline_passed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "the deadline passed before the next event")
}

/// A client connection as `call` sees it: its engine and its next event. `call` and `wait_for`
/// are written once, async, over it: the blocking adapter's `next` never waits on a waker (it
/// blocks its thread), so [`ready`] runs them there without an executor.
pub(crate) trait ClientLoop {
    fn client(&mut self) -> &mut Client;
    async fn next(&mut self) -> io::Result<Option<Event>>;
}

/// Sends `request` (asking for progress when `progress`), and runs `conn` until its answer.
pub(crate) async fn call<R: RequestMethod>(conn: &mut impl ClientLoop, request: R, timeout: Option<Duration>, progress: bool, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
    let engine = conn.client();
    let handle = if progress { engine.request_with_progress(request, Instant::now(), timeout)? } else { engine.request(request, Instant::now(), timeout)? };
    wait_for(conn, handle, on_other).await
}

/// Runs `conn` until the answer `handle` waits for, every other event to `on_other`.
pub(crate) async fn wait_for<R: RequestMethod>(conn: &mut impl ClientLoop, handle: Handle<R>, mut on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
    loop {
        match conn.next().await? {
            Some(Event::Answer(answer)) if handle.answers(&answer) => return Ok(handle.read(answer)?),
            Some(event) => on_other(conn.client(), event),
            None => return Err(CallError::Ended),
        }
    }
}

/// The output of a future that never waits on its waker (one over a blocking connection).
pub(crate) fn ready<T>(future: impl Future<Output = T>) -> T {
    match pin!(future).poll(&mut TaskContext::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("a blocking connection's future waited on its waker"),
    }
}
