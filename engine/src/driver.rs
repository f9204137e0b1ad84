//! The loop every transport adapter runs, written once: feed the engine each message that
//! arrived, wake it at its deadlines, drain what it has to write through the transport's
//! [`Framer`], and hand the application its events. An adapter keeps only its I/O: how it waits
//! for input until a deadline, and how it writes until one ([`blocking`](crate::blocking) with
//! threads and channels, [`tokio`](crate::tokio) with tasks, cancel-safe, and `http::client`
//! with a task per POST). Each step here is synchronous, so an async adapter dropped at one of
//! its awaits leaves the driver whole.
//!
//! One round of [`next_event`], the loop itself (once, async: the blocking adapter's I/O never
//! waits on a waker, so it runs the same loop through [`adapter::ready`]):
//! 1. write what the engine queued, until [`Driver::write_until`] ([`Transport::write`]);
//! 2. [`Driver::after_write`] says what next: an event to return, the end, a round again, or
//!    [`Next::Read`] until a deadline;
//! 3. an input ([`Transport::read`], then [`Driver::take`]), or the deadline passed
//!    ([`Driver::timed_out`]).

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

/// A message is a whole HTTP body (a POST's): nothing to add.
#[cfg(feature = "http")]
pub(crate) struct Bodies;

#[cfg(feature = "http")]
impl Framer for Bodies {
    fn frame(&self, _: &mut Vec<u8>) {}
}

/// Which way a message went, for a connection's observer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A message the engine wrote, as it goes out (before its framing).
    Written,
    /// A message handed to the engine.
    Read,
}

/// Sees each message in the loop's order; its error ends the call that was running.
pub(crate) type Observer = Box<dyn FnMut(Direction, &[u8]) -> io::Result<()> + Send>;

/// What the adapter's reader and the contexts send the loop.
pub(crate) enum Input<E> {
    /// One message as read (for lines: without its newline).
    Message(Vec<u8>),
    /// The input ended, with its read error if it failed.
    End(Option<io::Error>),
    /// A context's work on the engine.
    Work(Work<E>),
}

/// What an adapter's [`Transport::read`] received: an input (`T`: [`Input`], or what the
/// adapter's channel carries), or none.
pub(crate) enum Received<T> {
    Input(T),
    /// The deadline passed first.
    TimedOut,
    /// No input can come any more (the channel closed).
    Closed,
}

impl<T> Received<T> {
    #[cfg(feature = "tokio")]
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Received<U> {
        match self {
            Received::Input(input) => Received::Input(f(input)),
            Received::TimedOut => Received::TimedOut,
            Received::Closed => Received::Closed,
        }
    }
}

/// An adapter's I/O, all the loop needs of it. Each await must be cancel-safe for the tokio
/// adapters' promise: one dropped in the middle leaves nothing half done.
pub(crate) trait Transport {
    type Engine: Role;
    type Framer: Framer;
    fn driver(&mut self) -> &mut Driver<Self::Engine, Self::Framer>;
    /// Writes what the driver has to write until `until`: whether all of it went out.
    async fn write(&mut self, until: Option<Instant>) -> io::Result<bool>;
    /// Waits for the next input until `until`.
    async fn read(&mut self, until: Option<Instant>) -> Received<Input<Self::Engine>>;
}

/// Runs `transport` until the engine has an event: `Ok(None)` once the input ended and every
/// context answered; an error of kind `TimedOut` when the caller's `deadline` passed first.
pub(crate) async fn next_event<T: Transport>(transport: &mut T, deadline: Option<Instant>) -> io::Result<Option<Event>> {
    loop {
        let until = transport.driver().write_until(deadline);
        let written = transport.write(until).await?;
        let until = match transport.driver().after_write(written, deadline) {
            Next::Event(event) => return Ok(Some(event)),
            Next::Done => return Ok(None),
            Next::Again => continue,
            Next::Late => return Err(adapter::deadline_passed()),
            Next::Read(until) => until,
        };
        match transport.read(until).await {
            Received::Input(input) => transport.driver().take(input)?,
            Received::TimedOut => transport.driver().timed_out(),
            Received::Closed => return Ok(None),
        }
    }
}

/// The tokio adapters' wait for an input until `until`, on their channel (cancel-safe).
#[cfg(feature = "tokio")]
pub(crate) async fn receive<T>(inputs: &mut tokio::sync::mpsc::UnboundedReceiver<T>, until: Option<Instant>) -> Received<T> {
    let received = match until {
        Some(until) => match tokio::time::timeout_at(until.into(), inputs.recv()).await {
            Ok(received) => received,
            Err(_) => return Received::TimedOut,
        },
        None => inputs.recv().await,
    };
    // The adapters hold a sender, so this comes only if that changes.
    received.map_or(Received::Closed, Received::Input)
}

/// What the loop does after a write.
enum Next {
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
    observer: Option<Observer>,
    // A deadline was handled and its events are not all returned yet.
    overdue: bool,
}

impl<E: Role, F: Framer> Driver<E, F> {
    pub fn new(engine: E, framer: F) -> Self {
        Driver { engine, framer, contexts: Contexts::new(), ended: false, observer: None, overdue: false }
    }

    /// Records each message to `to` in the checker's format ([`adapter::record`]).
    pub fn record(&mut self, mut to: Box<dyn Write + Send>) {
        self.observe(Box::new(move |direction, message| {
            let dir = match direction {
                Direction::Read => E::DIRECTIONS.0,
                Direction::Written => E::DIRECTIONS.1,
            };
            adapter::record(&mut to, dir, message)
        }));
    }

    pub fn observe(&mut self, observer: Observer) {
        self.observer = Some(observer);
    }

    pub fn context(&mut self, request: &Request, sink: Sink<E>) -> Context<E> {
        self.contexts.make(request, sink)
    }

    /// Until when to write: the engine's next deadline or the caller's `deadline`, whichever
    /// is first, so a peer that stops reading does not stop timeouts; at once when a timeout's
    /// events are due (they do not wait for the writer).
    fn write_until(&self, deadline: Option<Instant>) -> Option<Instant> {
        if self.overdue {
            Some(Instant::now())
        } else {
            adapter::earlier(self.engine.poll_timeout(), deadline)
        }
    }

    /// After writing until [`write_until`](Self::write_until): `written` is whether everything
    /// queued went out; `deadline` is the caller's (events already due come first).
    fn after_write(&mut self, written: bool, deadline: Option<Instant>) -> Next {
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
    fn timed_out(&mut self) {
        self.engine.handle_timeout(Instant::now());
        self.overdue = true;
    }

    /// An input: a message to the engine (the queues were drained before the read, so it has
    /// room), the end of input (its error returned once), or a context's work.
    fn take(&mut self, input: Input<E>) -> io::Result<()> {
        match input {
            Input::Message(message) => {
                if let Some(observe) = self.observer.as_mut() {
                    observe(Direction::Read, &message)?;
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
        if let Some(observe) = self.observer.as_mut() {
            observe(Direction::Written, &out.line)?;
        }
        self.framer.frame(&mut out.line);
        Ok(Some(out))
    }
}
