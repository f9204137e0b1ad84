//! A blocking transport for the engine, std only: newline-delimited JSON-RPC over any reader and
//! writer (stdio, a child process's pipes).
//!
//! A thread reads lines into a channel; [`Connection::next_event`] writes what the engine has to
//! write, hands the engine each line that arrived, wakes it at its deadline, and returns its
//! events one by one. The application answers quick requests in place (through
//! [`Connection::engine`]) and long ones from a thread of its own through a [`Context`]
//! ([`Connection::context`]): the context's answer and progress come back through the same loop,
//! so other requests are answered meanwhile, and the context sees the peer's cancellation.
//!
//! ```no_run
//! # #[cfg(feature = "v2025-11-25")] {
//! use mcp_spec_types::engine::blocking::Connection;
//! use mcp_spec_types::engine::{Config, Event, Server};
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
use std::time::Instant;

use super::adapter::{self, Contexts, Sink, Work};
pub use super::adapter::{Context, Role};
use super::{Event, Request};

/// The longest line read (64 MiB); a longer one is handed to the engine as a line that is not
/// JSON, so a request gets -32700 and the peer learns it.
pub const MAX_LINE: usize = 64 << 20;

/// Lines read ahead of the engine; the reader thread waits when this many are queued.
const READ_AHEAD: usize = 64;

enum Input<E> {
    Line(Vec<u8>),
    End(Option<io::Error>),
    Work(Work<E>),
}

/// A session over a reader and a writer, driven by one thread. See the [module docs](self).
pub struct Connection<E: Role> {
    engine: E,
    output: Box<dyn Write + Send>,
    inputs: Receiver<Input<E>>,
    sender: Sender<Input<E>>,
    gate: Arc<Gate>,
    contexts: Contexts,
    ended: bool,
    recording: Option<Box<dyn Write + Send>>,
}

impl<E: Role> Connection<E> {
    /// Reads lines from `input` on a thread of its own, writes to `output`.
    pub fn new(engine: E, input: impl Read + Send + 'static, output: impl Write + Send + 'static) -> Self {
        let (sender, inputs) = mpsc::channel();
        let gate = Arc::new(Gate { queued: Mutex::new(Some(0)), room: Condvar::new() });
        let (lines, reader_gate) = (sender.clone(), gate.clone());
        // The thread ends at the end of input, on a read error, or when the connection is gone.
        std::thread::spawn(move || read_lines(BufReader::new(input), &lines, &reader_gate));
        Connection { engine, output: Box::new(output), inputs, sender, gate, contexts: Contexts::new(), ended: false, recording: None }
    }

    /// Over this process's stdin and stdout.
    pub fn stdio(engine: E) -> Self {
        Connection::new(engine, io::stdin(), io::stdout())
    }

    /// Records every line read and written to `to`, one `{"dir": "c2s"|"s2c", "msg": ...}`
    /// object a line, as the engine took or wrote it (the order is the engine's).
    pub fn record(&mut self, to: impl Write + Send + 'static) {
        self.recording = Some(Box::new(to));
    }

    /// The engine, to send requests and notifications and to answer requests in place; what it
    /// queues is written at the next [`next_event`](Self::next_event) or [`flush`](Self::flush).
    pub fn engine(&mut self) -> &mut E {
        &mut self.engine
    }

    /// A [`Context`] for `request`, to answer it from another thread. Make it when the request
    /// arrives, before later events, so it sees a cancellation.
    pub fn context(&mut self, request: &Request) -> Context<E> {
        let sender = self.sender.clone();
        let sink: Sink<E> = Arc::new(move |work| {
            // The connection may be gone; the work has nowhere to go then.
            let _ = sender.send(Input::Work(work));
        });
        self.contexts.make(request, sink)
    }

    /// Runs the session until the engine has an event: `Ok(None)` once the input has ended and
    /// every context has answered. Writing fails with the writer's error; a read error is
    /// returned once, then the input counts as ended.
    pub fn next_event(&mut self) -> io::Result<Option<Event>> {
        loop {
            self.flush()?;
            if let Some(event) = self.engine.poll_event() {
                self.contexts.saw(&event);
                return Ok(Some(event));
            }
            if self.ended && self.contexts.live() == 0 {
                return Ok(None);
            }
            let input = match self.engine.poll_timeout() {
                Some(deadline) => match self.inputs.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                    Ok(input) => input,
                    Err(RecvTimeoutError::Timeout) => {
                        self.engine.handle_timeout(Instant::now());
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return Ok(None),
                },
                None => match self.inputs.recv() {
                    Ok(input) => input,
                    Err(_) => return Ok(None),
                },
            };
            match input {
                Input::Line(line) => {
                    self.gate.release();
                    if let Some(r) = self.recording.as_mut() {
                        adapter::record(r, E::DIRECTIONS.0, &line)?;
                    }
                    // Both queues were drained above, so the engine has room for the line.
                    self.engine.handle_line(&line).map_err(io::Error::other)?;
                }
                Input::End(error) => {
                    self.ended = true;
                    if let Some(error) = error {
                        return Err(error);
                    }
                }
                Input::Work(work) => self.contexts.run(&mut self.engine, work),
            }
        }
    }

    /// Writes what the engine queued.
    pub fn flush(&mut self) -> io::Result<()> {
        let mut wrote = false;
        while let Some(line) = self.engine.poll_transmit() {
            if let Some(r) = self.recording.as_mut() {
                adapter::record(r, E::DIRECTIONS.1, &line)?;
            }
            self.output.write_all(&line)?;
            self.output.write_all(b"\n")?;
            wrote = true;
        }
        if wrote {
            self.output.flush()?;
        }
        Ok(())
    }
}

impl<E: Role> Drop for Connection<E> {
    fn drop(&mut self) {
        // What is still queued (an answer, a cancellation) goes out before the writer closes.
        let _ = self.flush();
        // Wakes a reader thread waiting for room, so it sees the connection is gone.
        self.gate.close();
    }
}

/// How many lines are queued and not yet taken: the reader waits at [`READ_AHEAD`].
struct Gate {
    queued: Mutex<Option<usize>>,
    room: Condvar,
}

impl Gate {
    /// Waits for room; `false` once the connection is gone.
    fn enter(&self) -> bool {
        let Ok(mut queued) = self.queued.lock() else { return false };
        loop {
            match *queued {
                None => return false,
                Some(n) if n < READ_AHEAD => {
                    *queued = Some(n + 1);
                    return true;
                }
                Some(_) => match self.room.wait(queued) {
                    Ok(q) => queued = q,
                    Err(_) => return false,
                },
            }
        }
    }

    fn release(&self) {
        if let Ok(mut queued) = self.queued.lock() {
            if let Some(n) = queued.as_mut() {
                *n = n.saturating_sub(1);
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
        if !gate.enter() || lines.send(Input::Line(line)).is_err() {
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

#[cfg(test)]
mod tests;
