//! The Streamable HTTP client adapter (feature `http`): the engine's [`Client`] over hyper 1,
//! on the loop every adapter runs (the one [`tokio`](crate::tokio) runs, with a POST for a
//! write): [`Connection::next_event`] (and its deadline forms), [`Connection::call`],
//! [`Connection::close`].
//!
//! Each line the engine writes is POSTed with `Accept: application/json, text/event-stream`;
//! the answer is read as JSON or as an SSE stream whose events are lines for the engine. The
//! `Mcp-Session-Id` of the `initialize` answer is sent with every later request, and
//! `MCP-Protocol-Version` once `initialize` has negotiated one; a 2026-07-28 request (a
//! [`Client::per_request`] engine) carries `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
//! from its own message instead. Once the engine writes `notifications/initialized`, the GET
//! stream is opened for what the server sends outside any request (a 405 means it has none);
//! the requests after it are sent once it is answered (at most 2 s later), so no answer of theirs
//! can go to a GET stream that is still on its way.
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

use crate::adapter::{self, ClientLoop};
use crate::driver::{self, Bodies, Driver, Input, Received, Transport};
/// Which way a line went, for [`Connection::observe`]: [`Read`](Direction::Read) is a line the
/// server sent or an error answer the transport made.
pub use crate::driver::Direction;
use crate::{CallError, Client, Closed, Event, Handle};

mod era;
mod exchange;
mod sse;
#[cfg(test)]
mod tests;

// Not `mod connect`: tests/docs.rs resolves a README's `http::client::connect` by name, not namespace.
pub use era::{connect, Negotiated};
pub use exchange::{header_value, ExtraHeaders};
use exchange::Exchange;

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
    // The loop of every adapter; a message is a POST body, so nothing frames it.
    driver: Driver<Client, Bodies>,
    exchange: Arc<Exchange>,
    inputs: UnboundedReceiver<Input<Client>>,
    tasks: JoinSet<()>,
    // The GET stream's task: it never ends by itself.
    listener: Option<tokio::task::AbortHandle>,
}

impl Connection {
    /// A connection to the MCP endpoint `url` (`http://`; the application sends `initialize`,
    /// or uses a per-request engine). Call it inside a tokio runtime.
    pub fn new(url: &str, engine: Client, limits: Limits) -> io::Result<Self> {
        let url: Uri = url.parse().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{url}: {e}")))?;
        if url.scheme_str() != Some("http") {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "only http:// URLs (no TLS in this adapter)"));
        }
        let (sender, inputs) = mpsc::unbounded_channel();
        Ok(Connection { driver: Driver::new(engine, Bodies), exchange: Exchange::new(url, limits, sender), inputs, tasks: JoinSet::new(), listener: None })
    }

    /// The engine, to send requests and notifications and to answer the server's requests.
    pub fn engine(&mut self) -> &mut Client {
        &mut self.driver.engine
    }

    /// Headers of the application's own for each message POSTed from now on, from the message
    /// (e.g. 2026-07-28's `Mcp-Param-{Name}` for a tool's `x-mcp-header` arguments, values made
    /// with [`header_value`]); a pair that is no valid header is left out.
    pub fn extra_headers(&mut self, headers: ExtraHeaders) {
        *self.exchange.extra.lock().unwrap_or_else(|e| e.into_inner()) = Some(headers);
    }

    /// Sees every line written and read, in the loop's order (to record or validate them).
    pub fn observe(&mut self, mut observer: impl FnMut(Direction, &[u8]) + Send + 'static) {
        self.driver.observe(Box::new(move |direction, line| {
            observer(direction, line);
            Ok(())
        }));
    }

    /// The `Mcp-Session-Id` the server gave (session era).
    pub fn session_id(&self) -> Option<String> {
        self.exchange.session.lock().unwrap_or_else(|e| e.into_inner()).id.clone()
    }

    /// POSTs what the engine queued, each line in a task of its own (in `tasks`). Writing never
    /// waits, so for the driver everything queued is always written.
    fn transmit(&mut self) -> io::Result<()> {
        let mut tasks = std::mem::take(&mut self.tasks);
        let posted = self.transmit_into(&mut tasks);
        self.tasks = tasks;
        posted
    }

    fn transmit_into(&mut self, tasks: &mut JoinSet<()>) -> io::Result<()> {
        while let Some(crate::Transmit { line, .. }) = self.driver.next_out()? {
            let initialized = self.listener.is_none() && is_initialized_notification(&line);
            tasks.spawn(self.exchange.clone().post(line, self.exchange.before_post()));
            if initialized && self.listener.is_none() {
                self.exchange.opening_get_stream();
                self.listener = Some(tasks.spawn(self.exchange.clone().listen()));
            }
        }
        Ok(())
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
        driver::next_event(self, deadline).await
    }

    /// Sends `request`, runs the connection until its answer; every other event goes to
    /// `on_other` with the engine (as [`tokio::Connection::call`](crate::tokio::Connection::call)).
    pub async fn call<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::call(self, request, timeout, false, on_other).await
    }

    /// [`call`](Self::call), asking for progress: it comes to `on_other` as [`Event::Progress`].
    pub async fn call_with_progress<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::call(self, request, timeout, true, on_other).await
    }

    /// Runs the connection until the answer `handle` waits for.
    pub async fn wait_for<R: RequestMethod>(&mut self, handle: Handle<R>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::wait_for(self, handle, on_other).await
    }

    /// Ends the session within `grace`: POSTs what the engine queued, DELETEs the session (a
    /// server without sessions, or one that answers 405, keeps nothing to end), and stops the
    /// exchanges under way. [`Closed::StillOpen`] when the DELETE got no answer in time.
    pub async fn close(mut self, grace: Duration) -> io::Result<Closed> {
        let deadline = tokio::time::Instant::now() + grace;
        // The lines still queued (a cancellation, an answer) go out before the session ends;
        // the exchanges already under way (a stream waiting for an answer) are stopped.
        let mut last = JoinSet::new();
        self.transmit_into(&mut last)?;
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

// The driver's loop; this adapter's I/O is a POST task per message and the channel the tasks
// answer on.
impl Transport for Connection {
    type Engine = Client;
    type Framer = Bodies;

    fn driver(&mut self) -> &mut Driver<Client, Bodies> {
        &mut self.driver
    }

    /// Writing never waits (each message is POSTed in a task), so all of it is always out.
    async fn write(&mut self, _: Option<Instant>) -> io::Result<bool> {
        self.transmit()?;
        // Finished tasks are reaped so the set stays as large as the exchanges under way.
        while self.tasks.try_join_next().is_some() {}
        Ok(true)
    }

    async fn read(&mut self, until: Option<Instant>) -> Received<Input<Client>> {
        driver::receive(&mut self.inputs, until).await
    }
}

impl ClientLoop for Connection {
    fn client(&mut self) -> &mut Client {
        &mut self.driver.engine
    }

    async fn next(&mut self) -> io::Result<Option<Event>> {
        self.next_event().await
    }
}

/// Whether `line` is the client's `notifications/initialized` (its method, not a string that
/// merely holds the name, such as a tool argument).
fn is_initialized_notification(line: &[u8]) -> bool {
    // Read only the lines that hold the name at all.
    line.windows(25).any(|w| w == b"notifications/initialized")
        && mcp_spec_types::tree::Doc::parse_slice(line).is_ok_and(|m| m.root().get("method").and_then(|v| v.as_str()) == Some("notifications/initialized"))
}
