//! A blocking transport for the engine, std only: newline-delimited JSON-RPC over any reader and
//! writer (stdio, a child process's pipes).
//!
//! A thread reads lines into a channel; [`Connection::next_event`] writes what the engine has to
//! write, hands the engine each line that arrived, wakes it at its deadline, and returns its
//! events one by one.
//!
//! What it holds is bounded in bytes: the reader thread reads ahead at most [`READ_AHEAD`] lines
//! and [`READ_AHEAD_BYTES`] (a longer line alone), and the lines written go through a writer
//! thread that holds at most [`WRITE_AHEAD_BYTES`] (a longer line alone; the rest waits in the
//! engine's queue, bounded by [`Config::max_queued`](super::Config::max_queued)). A peer that stops
//! reading therefore stops neither the engine's clock nor its memory bound: `next_event` waits for
//! the writer only until the engine's next deadline, then the request times out as it would
//! otherwise ([`Event::Answer`] with [`Failure::TimedOut`](super::Failure::TimedOut)). The application answers quick requests in place (through
//! [`Connection::engine`]) and long ones from a thread of its own through a [`Context`]
//! ([`Connection::context`]): the context's answer and progress come back through the same loop,
//! so other requests are answered meanwhile, and the context sees the peer's cancellation.
//!
//! ```no_run
//! # #[cfg(feature = "v2025-11-25")] {
//! use mcp_spec_engine::blocking::Connection;
//! use mcp_spec_engine::{Config, Event, Server};
//! use mcp_spec_types::runtime::RpcError;
//! use mcp_spec_types::v2025_11_25 as mcp;
//!
//! let mut conn = Connection::stdio(Server::new(Config::default()));
//! while let Some(event) = conn.next_event()? {
//!     let Event::Request(request) = event else { continue };
//!     match request.method.as_str() {
//!         "initialize" => {
//!             let capabilities = mcp::ServerCapabilities::default();
//!             let server = mcp::Implementation::new("demo", "0.1.0");
//!             let result = mcp::InitializeResult::new(mcp::LATEST_PROTOCOL_VERSION, capabilities, server);
//!             conn.engine().respond(&request.id, &result)?;
//!         }
//!         // Long work: on a thread, answered through the loop, stopped by a cancellation.
//!         "slow" => {
//!             let context = conn.context(&request);
//!             std::thread::spawn(move || {
//!                 std::thread::sleep(std::time::Duration::from_secs(2));
//!                 if !context.is_cancelled() {
//!                     context.respond(&mcp::EmptyResult::default());
//!                 }
//!             });
//!         }
//!         _ => {
//!             let error = RpcError { code: mcp::METHOD_NOT_FOUND, message: "Method not found".into(), data: None };
//!             conn.engine().respond_error(&request.id, &error)?;
//!         }
//!     }
//! }
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use super::adapter::{self, Sink};
pub use super::adapter::{Context, Role};
use super::driver::{self, Driver, Input, Lines, Received, Transport};
use super::{Event, Request};

/// The longest line read (64 MiB); a longer one is handed to the engine as a line that is not
/// JSON, so a request gets -32700 and the peer learns it.
pub const MAX_LINE: usize = 64 << 20;

/// Lines read ahead of the engine; the reader thread waits when this many are queued.
pub const READ_AHEAD: usize = 64;

/// Bytes read ahead of the engine (16 MiB): the reader thread waits while the lines queued and
/// the next one would hold more, unless none is queued (a line up to [`MAX_LINE`] goes alone).
/// So a peer faster than the engine costs at most this, the line being read and the line the
/// engine reads.
pub const READ_AHEAD_BYTES: usize = 16 << 20;

/// Bytes handed to the writer thread and not yet written (16 MiB; a longer line alone): past
/// them, lines wait in the engine's queue.
pub const WRITE_AHEAD_BYTES: usize = 16 << 20;

/// A session over a reader and a writer, driven by one thread. See the [module docs](self).
pub struct Connection<E: Role> {
    driver: Driver<E>,
    // Lines (with their newline) for the writer thread; `None` once dropped.
    output: Option<Sender<Vec<u8>>>,
    outbox: Arc<Outbox>,
    writer: Option<JoinHandle<()>>,
    inputs: Receiver<Input<E>>,
    sender: Sender<Input<E>>,
    gate: Arc<Gate>,
    // The peer's process, when the connection started it (`spawn`): `close` kills it if need be.
    child: Option<std::process::Child>,
}

impl<E: Role> Connection<E> {
    /// Reads lines from `input` on a thread of its own, writes to `output`.
    pub fn new(engine: E, input: impl Read + Send + 'static, output: impl Write + Send + 'static) -> Self {
        let (sender, inputs) = mpsc::channel();
        let gate = Arc::new(Gate { queued: Mutex::new(Some((0, 0))), room: Condvar::new() });
        let (lines, reader_gate) = (sender.clone(), gate.clone());
        // The thread ends at the end of input, on a read error, or when the connection is gone.
        std::thread::spawn(move || read_lines(BufReader::new(input), &lines, &reader_gate));
        let outbox = Arc::new(Outbox { state: Mutex::new(OutState { unwritten: 0, error: None, failed: None }), progress: Condvar::new() });
        let (lines_out, to_write) = mpsc::channel();
        let writer_outbox = outbox.clone();
        // The thread ends when the connection is dropped (after writing what it was given) or on a write error.
        let writer = std::thread::spawn(move || write_lines(output, &to_write, &writer_outbox));
        Connection { driver: Driver::new(engine, Lines), output: Some(lines_out), outbox, writer: Some(writer), inputs, sender, gate, child: None }
    }

    /// Over this process's stdin and stdout.
    pub fn stdio(engine: E) -> Self {
        Connection::new(engine, io::stdin(), io::stdout())
    }

    /// Records every line read and written to `to`, one `{"dir": "c2s"|"s2c", "msg": ...}`
    /// object a line, as the engine took or wrote it (the order is the engine's).
    pub fn record(&mut self, to: impl Write + Send + 'static) {
        self.driver.record(Box::new(to));
    }

    /// The engine, to send requests and notifications and to answer requests in place; what it
    /// queues is written at the next [`next_event`](Self::next_event) or [`flush`](Self::flush).
    pub fn engine(&mut self) -> &mut E {
        &mut self.driver.engine
    }

    /// A [`Context`] for `request`, to answer it from another thread. Make it when the request
    /// arrives, before later events, so it sees a cancellation.
    pub fn context(&mut self, request: &Request) -> Context<E> {
        let sender = self.sender.clone();
        let sink: Sink<E> = Arc::new(move |work| {
            // The connection may be gone; the work has nowhere to go then.
            let _ = sender.send(Input::Work(work));
        });
        self.driver.context(request, sink)
    }

    /// Runs the session until the engine has an event: `Ok(None)` once the input has ended and
    /// every context has answered. Writing fails with the writer's error; a read error is
    /// returned once, then the input counts as ended. What the engine queued is written before
    /// the event is returned, unless the peer stops reading past the engine's next deadline:
    /// then the deadline is handled (a request times out) and the lines go out later. A
    /// timeout's events never wait for the writer; its `notifications/cancelled` is written
    /// meanwhile ([`flush`](Self::flush) waits for it).
    pub fn next_event(&mut self) -> io::Result<Option<Event>> {
        self.next_event_before(None)
    }

    /// [`next_event`](Self::next_event), giving up at `deadline`: then an error of kind
    /// [`TimedOut`](io::ErrorKind::TimedOut), and the connection stays usable. Events already
    /// due come first.
    pub fn next_event_until(&mut self, deadline: Instant) -> io::Result<Option<Event>> {
        self.next_event_before(Some(deadline))
    }

    /// [`next_event_until`](Self::next_event_until) `timeout` from now.
    pub fn next_event_timeout(&mut self, timeout: std::time::Duration) -> io::Result<Option<Event>> {
        self.next_event_before(Instant::now().checked_add(timeout))
    }

    fn next_event_before(&mut self, deadline: Option<Instant>) -> io::Result<Option<Event>> {
        adapter::ready(driver::next_event(self, deadline))
    }

    /// Writes what the engine queued, and waits until the writer has written it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.drain(None).map(drop)
    }

    /// Hands the engine's lines to the writer thread and waits until it has written them all
    /// (`true`), or until `until` has passed (`false`).
    fn drain(&mut self, until: Option<Instant>) -> io::Result<bool> {
        loop {
            let more = self.hand_off(WRITE_AHEAD_BYTES)?;
            let mut state = self.outbox.lock();
            if let Some(error) = state.take_error() {
                return Err(error);
            }
            if state.unwritten == 0 && !more {
                return Ok(true);
            }
            // The writer wakes this at each line written.
            state = match until {
                None => self.outbox.progress.wait(state).unwrap_or_else(|e| e.into_inner()),
                Some(until) => {
                    let left = until.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(false);
                    }
                    self.outbox.progress.wait_timeout(state, left).unwrap_or_else(|e| e.into_inner()).0
                }
            };
            drop(state);
        }
    }

    /// Gives the writer thread the engine's lines while it holds less than `budget` bytes (or
    /// nothing); `true` when lines are left in the engine.
    fn hand_off(&mut self, budget: usize) -> io::Result<bool> {
        loop {
            if self.outbox.lock().unwritten >= budget {
                return Ok(true);
            }
            let Some(out) = self.driver.next_out()? else { return Ok(false) };
            let line = out.line;
            self.outbox.lock().unwritten += line.len();
            // The writer thread is gone only after a write error, which the caller reports.
            if let Some(output) = &self.output {
                let _ = output.send(line);
            }
        }
    }
}

// The driver's loop, on threads: neither await below ever waits on a waker.
impl<E: Role> Transport for Connection<E> {
    type Engine = E;
    type Framer = Lines;

    fn driver(&mut self) -> &mut Driver<E> {
        &mut self.driver
    }

    async fn write(&mut self, until: Option<Instant>) -> io::Result<bool> {
        self.drain(until)
    }

    async fn read(&mut self, until: Option<Instant>) -> Received<Input<E>> {
        let input = match until {
            Some(until) => match self.inputs.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(input) => input,
                Err(RecvTimeoutError::Timeout) => return Received::TimedOut,
                Err(RecvTimeoutError::Disconnected) => return Received::Closed,
            },
            None => match self.inputs.recv() {
                Ok(input) => input,
                Err(_) => return Received::Closed,
            },
        };
        if let Input::Message(line) = &input {
            self.gate.release(line.len());
        }
        Received::Input(input)
    }
}

impl<E: Role> Drop for Connection<E> {
    fn drop(&mut self) {
        // What is still queued (an answer, a cancellation) goes out before the writer closes.
        let _ = self.hand_off(usize::MAX);
        self.output = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        // Wakes a reader thread waiting for room, so it sees the connection is gone.
        self.gate.close();
    }
}

/// What the writer thread has left to write, and its error.
struct Outbox {
    state: Mutex<OutState>,
    progress: Condvar,
}

struct OutState {
    unwritten: usize,
    error: Option<io::Error>,
    // The kind of an error already returned: every later call fails with it too.
    failed: Option<io::ErrorKind>,
}

impl Outbox {
    fn lock(&self) -> std::sync::MutexGuard<'_, OutState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl OutState {
    fn take_error(&mut self) -> Option<io::Error> {
        if let Some(error) = self.error.take() {
            self.failed = Some(error.kind());
            return Some(error);
        }
        self.failed.map(|kind| io::Error::new(kind, "the writer failed earlier"))
    }
}

/// The writer thread: each line as it comes, the writer flushed whenever nothing more is waiting.
fn write_lines(mut output: impl Write, lines: &Receiver<Vec<u8>>, outbox: &Outbox) {
    while let Ok(line) = lines.recv() {
        let last = outbox.lock().unwritten == line.len();
        let result = output.write_all(&line).and_then(|()| if last { output.flush() } else { Ok(()) });
        let mut state = outbox.lock();
        let failed = result.is_err();
        match result {
            Ok(()) => state.unwritten -= line.len(),
            Err(e) => state.error = Some(e),
        }
        outbox.progress.notify_all();
        if failed {
            return;
        }
    }
    let _ = output.flush();
}

/// How many lines and bytes are queued and not yet taken: the reader waits at [`READ_AHEAD`]
/// lines or [`READ_AHEAD_BYTES`].
struct Gate {
    queued: Mutex<Option<(usize, usize)>>,
    room: Condvar,
}

impl Gate {
    /// Waits for room for a line of `len` bytes; `false` once the connection is gone.
    fn enter(&self, len: usize) -> bool {
        let Ok(mut queued) = self.queued.lock() else { return false };
        loop {
            match *queued {
                None => return false,
                Some((lines, bytes)) if lines == 0 || (lines < READ_AHEAD && bytes + len <= READ_AHEAD_BYTES) => {
                    *queued = Some((lines + 1, bytes + len));
                    return true;
                }
                Some(_) => match self.room.wait(queued) {
                    Ok(q) => queued = q,
                    Err(_) => return false,
                },
            }
        }
    }

    fn release(&self, len: usize) {
        if let Ok(mut queued) = self.queued.lock() {
            if let Some((lines, bytes)) = queued.as_mut() {
                *lines = lines.saturating_sub(1);
                *bytes = bytes.saturating_sub(len);
            }
            self.room.notify_one();
        }
    }

    fn close(&self) {
        if let Ok(mut queued) = self.queued.lock() {
            *queued = None;
            self.room.notify_one();
        }
    }
}

fn read_lines<E>(mut input: impl BufRead, lines: &Sender<Input<E>>, gate: &Gate) {
    loop {
        let line = match read_line(&mut input, MAX_LINE) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let _ = lines.send(Input::End(Some(e)));
                return;
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if !gate.enter(line.len()) || lines.send(Input::Message(line)).is_err() {
            return;
        }
    }
    let _ = lines.send(Input::End(None));
}

/// One line without its `\n` (or `\r\n`); `None` at the end of input. A line longer than
/// [`MAX_LINE`] is read to its end and given as a marker that is not JSON.
fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let n = input.by_ref().take(max as u64 + 1).read_until(b'\n', &mut line)?;
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
        // The rest of the line goes unread in bounded pieces.
        loop {
            line.clear();
            let n = input.by_ref().take(max as u64).read_until(b'\n', &mut line)?;
            if n == 0 || line.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(format!("(a line longer than {max} bytes)").into_bytes()));
    }
    // The last line, without a newline.
    Ok(Some(line))
}

// `call`, `spawn` and `close`.
mod client;

#[cfg(test)]
mod tests;
