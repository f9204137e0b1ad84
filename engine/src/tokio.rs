//! The engine on tokio (feature `tokio`): newline-delimited JSON-RPC over any `AsyncRead` and
//! `AsyncWrite`, on the same loop as [`blocking`](super::blocking) (written once, async), over tokio I/O.
//!
//! A task reads lines (spawned by [`Connection::new`], so it is called inside a runtime); 
//! [`Connection::next_event`] writes what the engine queued, feeds it the lines, wakes it at its
//! deadline and returns its events. Long work runs in a task or a thread with a [`Context`]
//! ([`Connection::context`]), whose answer and progress come back through the loop. Lines the
//! application queues in place (`conn.engine().respond(..)`) are written at the next
//! `next_event` or [`flush`](Connection::flush): a connection dropped without either loses them.
//! Both are cancel-safe: under `tokio::time::timeout` or in `select!`, a call dropped in the middle
//! of a line keeps the rest of it, and the next call writes that rest before anything else.
//!
//! ```no_run
//! # #[cfg(feature = "v2025-11-25")]
//! # async fn serve() -> std::io::Result<()> {
//! use mcp_spec_engine::tokio::Connection;
//! use mcp_spec_engine::{Config, Event, Server};
//!
//! let mut conn = Connection::stdio(Server::new(Config::default()));
//! while let Some(event) = conn.next_event().await? {
//!     if let Event::Request(request) = event {
//!         let context = conn.context(&request);
//!         tokio::spawn(async move {
//!             // ... the work, checking `context.is_cancelled()` ...
//!             context.respond(&serde_json::json!({}));
//!         });
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! The feature takes tokio with `rt`, `sync`, `time`, `io-util` and `io-std` only (no macros, so
//! no proc-macro build).

use std::io;
use std::sync::Arc;
use std::time::Instant;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::adapter::Sink;
pub use super::adapter::{Context, Role};
use super::blocking::{MAX_LINE, READ_AHEAD, READ_AHEAD_BYTES};
use super::driver::{self, Driver, Input, Lines, Received, Transport};
use super::{Event, Request};

// An input, and for a line its permits (one line, its bytes): they go when the line is taken,
// letting the reader read more.
type Queued<E> = (Input<E>, Option<[OwnedSemaphorePermit; 2]>);

/// A session over an async reader and writer. See the [module docs](self).
pub struct Connection<E: Role> {
    driver: Driver<E>,
    output: Box<dyn AsyncWrite + Send + Unpin>,
    inputs: UnboundedReceiver<Queued<E>>,
    sender: UnboundedSender<Queued<E>>,
    // The line being written (with its newline) and how much of it is out: a cancelled
    // `next_event` or `flush` leaves the rest here, and the next call writes it first.
    writing: Vec<u8>,
    written: usize,
    // Lines went out since the writer was last flushed.
    unflushed: bool,
}

impl<E: Role> Connection<E> {
    /// Spawns the task that reads `input` (so call it inside a tokio runtime); writes to `output`.
    pub fn new(engine: E, input: impl AsyncRead + Send + Unpin + 'static, output: impl AsyncWrite + Send + Unpin + 'static) -> Self {
        let (sender, inputs) = mpsc::unbounded_channel();
        let lines = sender.clone();
        tokio::spawn(async move { read_lines(BufReader::new(input), lines).await });
        Connection { driver: Driver::new(engine, Lines), output: Box::new(output), inputs, sender, writing: Vec::new(), written: 0, unflushed: false }
    }

    /// Over this process's stdin and stdout.
    pub fn stdio(engine: E) -> Self {
        Connection::new(engine, tokio::io::stdin(), tokio::io::stdout())
    }

    /// Records every line read and written, as [`blocking::Connection::record`](super::blocking::Connection::record)
    /// does (written synchronously: meant for tests and debugging).
    pub fn record(&mut self, to: impl std::io::Write + Send + 'static) {
        self.driver.record(Box::new(to));
    }

    /// The engine, to send requests and notifications and to answer requests in place.
    pub fn engine(&mut self) -> &mut E {
        &mut self.driver.engine
    }

    /// A [`Context`] for `request`, to answer it from a task or a thread. Make it when the
    /// request arrives, before later events, so it sees a cancellation.
    pub fn context(&mut self, request: &Request) -> Context<E> {
        let sender = self.sender.clone();
        let sink: Sink<E> = Arc::new(move |work| {
            // The connection may be gone; the work has nowhere to go then.
            let _ = sender.send((Input::Work(work), None));
        });
        self.driver.context(request, sink)
    }

    /// Runs the session until the engine has an event: `Ok(None)` once the input has ended and
    /// every context has answered. What the engine queued is written first, but only until the
    /// engine's next deadline: a peer that stops reading does not stop timeouts, and a timeout's
    /// events do not wait for the writer (its lines go out with the next call).
    ///
    /// Cancel-safe, as [`flush`](Self::flush) is: dropped before it completes (under
    /// `tokio::time::timeout`, in `select!`), it loses no event and no line; a line it had begun
    /// to write is finished first by the next call.
    pub async fn next_event(&mut self) -> io::Result<Option<Event>> {
        self.next_event_before(None).await
    }

    /// [`next_event`](Self::next_event), giving up at `deadline`: then an error of kind
    /// [`TimedOut`](io::ErrorKind::TimedOut), and the connection stays usable (cancel-safe as
    /// `next_event`). Events already due come first.
    pub async fn next_event_until(&mut self, deadline: Instant) -> io::Result<Option<Event>> {
        self.next_event_before(Some(deadline)).await
    }

    /// [`next_event_until`](Self::next_event_until) `timeout` from now.
    pub async fn next_event_timeout(&mut self, timeout: std::time::Duration) -> io::Result<Option<Event>> {
        self.next_event_before(Instant::now().checked_add(timeout)).await
    }

    async fn next_event_before(&mut self, deadline: Option<Instant>) -> io::Result<Option<Event>> {
        driver::next_event(self, deadline).await
    }

    /// Writes what the engine queued. Cancel-safe: the part of a line not yet written when it is
    /// dropped stays in the connection and goes out first on the next call, so the peer never
    /// reads a line cut short or glued to the next one.
    pub async fn flush(&mut self) -> io::Result<()> {
        loop {
            // Progress is kept after each write that completed: a write future dropped while
            // pending has written nothing.
            while self.written < self.writing.len() {
                let n = self.output.write(&self.writing[self.written..]).await?;
                if n == 0 {
                    return Err(io::ErrorKind::WriteZero.into());
                }
                self.written += n;
                self.unflushed = true;
            }
            let Some(out) = self.driver.next_out()? else { break };
            self.writing = out.line;
            self.written = 0;
        }
        // A line may be far larger than the next: do not keep its buffer.
        if self.writing.capacity() > 1 << 16 {
            self.writing = Vec::new();
            self.written = 0;
        }
        if self.unflushed {
            self.output.flush().await?;
            self.unflushed = false;
        }
        Ok(())
    }
}

// The driver's loop over async I/O; both awaits are cancel-safe (the flush keeps a line's rest,
// a channel's `recv` loses nothing).
impl<E: Role> Transport for Connection<E> {
    type Engine = E;
    type Framer = Lines;

    fn driver(&mut self) -> &mut Driver<E> {
        &mut self.driver
    }

    async fn write(&mut self, until: Option<Instant>) -> io::Result<bool> {
        match until {
            Some(until) => match tokio::time::timeout_at(until.into(), self.flush()).await {
                Ok(flushed) => flushed.map(|()| true),
                Err(_) => Ok(false),
            },
            None => self.flush().await.map(|()| true),
        }
    }

    async fn read(&mut self, until: Option<Instant>) -> Received<Input<E>> {
        // The permits go with the line: the reader may read the next one.
        driver::receive(&mut self.inputs, until).await.map(|(input, _permits)| input)
    }
}

async fn read_lines<E>(mut input: impl AsyncBufRead + Unpin, lines: UnboundedSender<Queued<E>>) {
    // As the blocking reader: at most READ_AHEAD lines and READ_AHEAD_BYTES (a longer line alone).
    let (room, bytes) = (Arc::new(Semaphore::new(READ_AHEAD)), Arc::new(Semaphore::new(READ_AHEAD_BYTES)));
    loop {
        let line = match read_line(&mut input, MAX_LINE).await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let _ = lines.send((Input::End(Some(e)), None));
                return;
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(line_permit) = room.clone().acquire_owned().await else { return };
        let weight = line.len().clamp(1, READ_AHEAD_BYTES) as u32;
        let Ok(bytes_permit) = bytes.clone().acquire_many_owned(weight).await else { return };
        if lines.send((Input::Message(line), Some([line_permit, bytes_permit]))).is_err() {
            return;
        }
    }
    let _ = lines.send((Input::End(None), None));
}

/// As the blocking adapter reads a line: without its `\n` (or `\r\n`), a line longer than `max`
/// read to its end and given as a marker that is not JSON.
async fn read_line(input: &mut (impl AsyncBufRead + Unpin), max: usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let n = (&mut *input).take(max as u64 + 1).read_until(b'\n', &mut line).await?;
    if n == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        return Ok(Some(line));
    }
    if line.len() > max {
        loop {
            line.clear();
            let n = (&mut *input).take(max as u64).read_until(b'\n', &mut line).await?;
            if n == 0 || line.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(format!("(a line longer than {max} bytes)").into_bytes()));
    }
    Ok(Some(line))
}

// `call` and `close`.
mod client;

#[cfg(test)]
mod tests;
