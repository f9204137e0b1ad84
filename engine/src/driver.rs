//! The loop every transport adapter runs, written once: feed the engine each message that
//! arrived, wake it at its deadlines, drain what it has to write through the transport's
//! [`Framer`], and hand the application its events. An adapter keeps only its I/O: how it waits
//! for input until a deadline, and how it writes until one ([`blocking`](crate::blocking) with
//! threads and channels, [`tokio`](crate::tokio) with tasks, cancel-safe). Each step here is
//! synchronous, so an async adapter dropped at one of its awaits leaves the driver whole.
//!
//! One round, as an adapter runs it:
//! 1. write what the engine queued, until [`Driver::write_until`];
//! 2. [`Driver::after_write`] says what next: an event to return, the end, a round again, or
//!    [`Next::Read`] until a deadline;
//! 3. an input ([`Driver::take`]), or the deadline passed ([`Driver::timed_out`]).

use std::io::{self, Write};
use std::time::Instant;

use crate::adapter::{self, Context, Contexts, Role, Sink, Work};
use crate::{Event, Request, Transmit};

/// How a transport puts one message on the wire; the reading side hands the driver whole
/// messages (a line; for HTTP a POST body or an SSE event's data).
pub(crate) trait Framer: Send + 'static {
    fn frame(&self, message: &mut Vec<u8>);
}

/// Newline-delimited JSON-RPC (stdio, a child's pipes): each message and `\n`.
pub(crate) struct Lines;

impl Framer for Lines {
    fn frame(&self, message: &mut Vec<u8>) {
        message.push(b'\n');
    }
}

/// What the adapter's reader and the contexts send the loop.
pub(crate) enum Input<E> {
    /// One message as read (for lines: without its newline).
    Message(Vec<u8>),
    /// The input ended, with its read error if it failed.
    End(Option<io::Error>),
    /// A context's work on the engine.
    Work(Work<E>),
}

/// What the loop does after a write.
pub(crate) enum Next {
    /// Return this event.
    Event(Event),
    /// The input ended and every context answered: the session is over.
    Done,
    /// Write again (the deadline passed while writing).
    Again,
    /// The caller's own deadline (`next_event_until`) passed with no event.
    Late,
    /// Wait for an input until this deadline (none: until one comes).
    Read(Option<Instant>),
}

/// The engine, its contexts and the loop's state. See the [module docs](self).
pub(crate) struct Driver<E: Role, F: Framer = Lines> {
    pub engine: E,
    framer: F,
    contexts: Contexts,
    ended: bool,
    recording: Option<Box<dyn Write + Send>>,
    // A deadline was handled and its events are not all returned yet.
    overdue: bool,
}

impl<E: Role, F: Framer> Driver<E, F> {
    pub fn new(engine: E, framer: F) -> Self {
        Driver { engine, framer, contexts: Contexts::new(), ended: false, recording: None, overdue: false }
    }

    pub fn record(&mut self, to: Box<dyn Write + Send>) {
        self.recording = Some(to);
    }

    pub fn context(&mut self, request: &Request, sink: Sink<E>) -> Context<E> {
        self.contexts.make(request, sink)
    }

    /// Until when to write: the engine's next deadline or the caller's `deadline`, whichever
    /// is first, so a peer that stops reading does not stop timeouts; at once when a timeout's
    /// events are due (they do not wait for the writer).
    pub fn write_until(&self, deadline: Option<Instant>) -> Option<Instant> {
        if self.overdue {
            Some(Instant::now())
        } else {
            adapter::earlier(self.engine.poll_timeout(), deadline)
        }
    }

    /// After writing until [`write_until`](Self::write_until): `written` is whether everything
    /// queued went out; `deadline` is the caller's (events already due come first).
    pub fn after_write(&mut self, written: bool, deadline: Option<Instant>) -> Next {
        if !written && !self.overdue {
            self.timed_out();
        }
        if let Some(event) = self.engine.poll_event() {
            self.contexts.saw(&event);
            return Next::Event(event);
        }
        self.overdue = false;
        if deadline.is_some_and(|d| d <= Instant::now()) {
            return Next::Late;
        }
        if !written {
            return Next::Again;
        }
        if self.ended && self.contexts.live() == 0 {
            return Next::Done;
        }
        Next::Read(adapter::earlier(self.engine.poll_timeout(), deadline))
    }

    /// The deadline of [`Next::Read`] passed with no input.
    pub fn timed_out(&mut self) {
        self.engine.handle_timeout(Instant::now());
        self.overdue = true;
    }

    /// An input: a message to the engine (the queues were drained before the read, so it has
    /// room), the end of input (its error returned once), or a context's work.
    pub fn take(&mut self, input: Input<E>) -> io::Result<()> {
        match input {
            Input::Message(message) => {
                if let Some(r) = self.recording.as_mut() {
                    adapter::record(r, E::DIRECTIONS.0, &message)?;
                }
                self.engine.handle_line(&message).map_err(io::Error::other)
            }
            Input::End(error) => {
                self.ended = true;
                error.map_or(Ok(()), Err)
            }
            Input::Work(work) => {
                self.contexts.run(&mut self.engine, work);
                Ok(())
            }
        }
    }

    /// The next message the engine has to write, recorded and framed for the transport (its
    /// `request` says which peer request it belongs to).
    pub fn next_out(&mut self) -> io::Result<Option<Transmit>> {
        let Some(mut out) = self.engine.poll_transmit() else { return Ok(None) };
        if let Some(r) = self.recording.as_mut() {
            adapter::record(r, E::DIRECTIONS.1, &out.line)?;
        }
        self.framer.frame(&mut out.line);
        Ok(Some(out))
    }
}
