//! The Streamable HTTP client adapter (feature `http`): the engine's [`Client`] over hyper 1,
//! with the loop of the [`tokio`](crate::tokio) adapter: [`Connection::next_event`] (and its
//! deadline forms), [`Connection::call`], [`Connection::close`].
//!
//! Each line the engine writes is POSTed with `Accept: application/json, text/event-stream`;
//! the answer is read as JSON or as an SSE stream whose events are lines for the engine. The
//! `Mcp-Session-Id` of the `initialize` answer is sent with every later request, and
//! `MCP-Protocol-Version` once `initialize` has negotiated one; a 2026-07-28 request (a
//! [`Client::per_request`] engine) carries `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
//! from its own message instead. Once the engine writes `notifications/initialized`, the GET
//! stream is opened for what the server sends outside any request (a 405 means it has none).
//! An SSE stream that ends before its answer is resumed with a GET carrying `Last-Event-ID`,
//! after the server's `retry`, at most [`Limits::max_resumptions`] times. [`Connection::close`]
//! DELETEs the session. Bodies and events are bounded ([`Limits`]).
//!
//! A request that gets no answer over HTTP (a 4xx or 5xx, a broken connection, a body past its
//! bound) is answered by the transport with error [`HTTP_ERROR`] (`data.status`: the HTTP
//! status), so a `call` ends with it rather than at its deadline.
//!
//! [`connect`] picks the era: with a [`PerRequest`](crate::PerRequest) it sends `server/discover`
//! first and stays per request when the server lists the version; on any other outcome (an HTTP
//! 400, method not found, a version list without it: a server of sessions) it falls back to
//! `initialize` on a fresh engine, and says why ([`Negotiated::Session::fell_back`]).

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::Uri;
use mcp_spec_types::runtime::RequestMethod;
use tokio::sync::mpsc::{self, UnboundedReceiver};
use tokio::task::JoinSet;

use crate::{CallError, Client, Closed, Event, Handle};

mod connect;
mod exchange;
mod sse;
#[cfg(test)]
mod tests;

pub use connect::{connect, Negotiated};
pub use exchange::{header_value, ExtraHeaders};
use exchange::{Exchange, Input};

/// The error code of an answer the transport makes for a request HTTP did not answer
/// (JSON-RPC's range for implementation-defined errors); `data.status` is the HTTP status, or
/// null when no response came.
pub const HTTP_ERROR: i64 = -32000;

/// What the client reads at most.
#[derive(Debug, Clone)]
pub struct Limits {
    /// A JSON body (default 16 MiB).
    pub max_body: usize,
    /// One SSE event (default 16 MiB).
    pub max_event: usize,
    /// Resumptions of one dropped stream (default 3).
    pub max_resumptions: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_body: 16 << 20, max_event: 16 << 20, max_resumptions: 3 }
    }
}

/// A client session over Streamable HTTP. See the [module docs](self).
pub struct Connection {
    engine: Client,
    exchange: Arc<Exchange>,
    inputs: UnboundedReceiver<Input>,
    tasks: JoinSet<()>,
    // The GET stream's task: it never ends by itself.
    listener: Option<tokio::task::AbortHandle>,
    observer: Option<Observer>,
}

/// Which way a line went, for [`Connection::observe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A line the engine wrote, as it is POSTed.
    Written,
    /// A line handed to the engine: the server's, or an error answer the transport made.
    Read,
}

type Observer = Box<dyn FnMut(Direction, &[u8]) + Send>;

impl Connection {
    /// A connection to the MCP endpoint `url` (`http://`; the application sends `initialize`,
    /// or uses a per-request engine). Call it inside a tokio runtime.
    pub fn new(url: &str, engine: Client, limits: Limits) -> io::Result<Self> {
        let url: Uri = url.parse().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{url}: {e}")))?;
        if url.scheme_str() != Some("http") {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "only http:// URLs (no TLS in this adapter)"));
        }
        let (sender, inputs) = mpsc::unbounded_channel();
        Ok(Connection { engine, exchange: Exchange::new(url, limits, sender), inputs, tasks: JoinSet::new(), listener: None, observer: None })
    }

    /// The engine, to send requests and notifications and to answer the server's requests.
    pub fn engine(&mut self) -> &mut Client {
        &mut self.engine
    }

    /// Headers of the application's own for each message POSTed from now on, from the message
    /// (e.g. 2026-07-28's `Mcp-Param-{Name}` for a tool's `x-mcp-header` arguments, values made
    /// with [`header_value`]); a pair that is no valid header is left out.
    pub fn extra_headers(&mut self, headers: ExtraHeaders) {
        *self.exchange.extra.lock().unwrap_or_else(|e| e.into_inner()) = Some(headers);
    }

    /// Sees every line written and read, in the loop's order (to record or validate them).
    pub fn observe(&mut self, observer: impl FnMut(Direction, &[u8]) + Send + 'static) {
        self.observer = Some(Box::new(observer));
    }

    /// The `Mcp-Session-Id` the server gave (session era).
    pub fn session_id(&self) -> Option<String> {
        self.exchange.session.lock().unwrap_or_else(|e| e.into_inner()).id.clone()
    }

    /// POSTs what the engine queued, each line in a task of its own (in `tasks`).
    fn transmit(&mut self) {
        let mut tasks = std::mem::take(&mut self.tasks);
        self.transmit_into(&mut tasks);
        self.tasks = tasks;
    }

    fn transmit_into(&mut self, tasks: &mut JoinSet<()>) {
        while let Some(crate::Transmit { line, .. }) = self.engine.poll_transmit() {
            if let Some(observe) = self.observer.as_mut() {
                observe(Direction::Written, &line);
            }
            let initialized = line.windows(25).any(|w| w == b"notifications/initialized");
            tasks.spawn(self.exchange.clone().post(line));
            if initialized && self.listener.is_none() {
                self.listener = Some(tasks.spawn(self.exchange.clone().listen()));
            }
        }
    }

    /// Runs the session until the engine has an event (`None` never comes while the connection
    /// lives: HTTP has no end of input).
    pub async fn next_event(&mut self) -> io::Result<Option<Event>> {
        self.next_event_before(None).await
    }

    /// [`next_event`](Self::next_event), giving up at `deadline` with an error of kind
    /// [`TimedOut`](io::ErrorKind::TimedOut); the connection stays usable.
    pub async fn next_event_until(&mut self, deadline: Instant) -> io::Result<Option<Event>> {
        self.next_event_before(Some(deadline)).await
    }

    /// [`next_event_until`](Self::next_event_until) `timeout` from now.
    pub async fn next_event_timeout(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        self.next_event_before(Instant::now().checked_add(timeout)).await
    }

    async fn next_event_before(&mut self, deadline: Option<Instant>) -> io::Result<Option<Event>> {
        loop {
            self.transmit();
            // Finished tasks are reaped so the set stays as large as the exchanges under way.
            while self.tasks.try_join_next().is_some() {}
            if let Some(event) = self.engine.poll_event() {
                return Ok(Some(event));
            }
            if deadline.is_some_and(|d| d <= Instant::now()) {
                return Err(crate::adapter::deadline_passed());
            }
            let until = crate::adapter::earlier(self.engine.poll_timeout(), deadline);
            let input = match until {
                Some(until) => match tokio::time::timeout_at(until.into(), self.inputs.recv()).await {
                    Ok(input) => input,
                    Err(_) => {
                        self.engine.handle_timeout(Instant::now());
                        continue;
                    }
                },
                None => self.inputs.recv().await,
            };
            // The exchange holds a sender, so the channel stays open while the connection does.
            let Some(Input::Line(line)) = input else { return Ok(None) };
            if let Some(observe) = self.observer.as_mut() {
                observe(Direction::Read, &line);
            }
            // The loop drained both queues before waiting, so the engine has room.
            self.engine.handle_line(&line).map_err(io::Error::other)?;
        }
    }

    /// Sends `request`, runs the connection until its answer; every other event goes to
    /// `on_other` with the engine (as [`tokio::Connection::call`](crate::tokio::Connection::call)).
    pub async fn call<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        let handle = self.engine.request(request, Instant::now(), timeout)?;
        self.wait_for(handle, on_other).await
    }

    /// [`call`](Self::call), asking for progress: it comes to `on_other` as [`Event::Progress`].
    pub async fn call_with_progress<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        let handle = self.engine.request_with_progress(request, Instant::now(), timeout)?;
        self.wait_for(handle, on_other).await
    }

    /// Runs the connection until the answer `handle` waits for.
    pub async fn wait_for<R: RequestMethod>(&mut self, handle: Handle<R>, mut on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        loop {
            match self.next_event().await? {
                Some(Event::Answer(answer)) if handle.answers(&answer) => return Ok(handle.read(answer)?),
                Some(event) => on_other(&mut self.engine, event),
                None => return Err(CallError::Ended),
            }
        }
    }

    /// Ends the session within `grace`: POSTs what the engine queued, DELETEs the session (a
    /// server without sessions, or one that answers 405, keeps nothing to end), and stops the
    /// exchanges under way. [`Closed::StillOpen`] when the DELETE got no answer in time.
    pub async fn close(mut self, grace: Duration) -> io::Result<Closed> {
        let deadline = tokio::time::Instant::now() + grace;
        // The lines still queued (a cancellation, an answer) go out before the session ends;
        // the exchanges already under way (a stream waiting for an answer) are stopped.
        let mut last = JoinSet::new();
        self.transmit_into(&mut last);
        if let Some(listener) = &self.listener {
            listener.abort();
        }
        let _ = tokio::time::timeout_at(deadline, async { while last.join_next().await.is_some() {} }).await;
        self.tasks.abort_all();
        match tokio::time::timeout_at(deadline, self.exchange.delete()).await {
            Ok(Ok(_)) => Ok(Closed::Ended(None)),
            Ok(Err(why)) => Err(io::Error::other(why)),
            Err(_) => Ok(Closed::StillOpen),
        }
    }
}
