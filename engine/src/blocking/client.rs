//! The blocking adapter's conveniences: [`Connection::call`] (send a request, run the loop until
//! its answer, every other event to a callback), [`Connection::spawn`] (a server process at the
//! other end of two pipes) and [`Connection::close`] (end the peer within a grace period).

use std::io;
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use mcp_spec_types::runtime::RequestMethod;

use super::{Connection, Input, Role};
use crate::adapter::{self, ClientLoop};
use crate::{CallError, Client, Closed, Event};

// How often `close` looks whether the child has exited (std has no wait with a timeout).
const EXIT_POLL: Duration = Duration::from_millis(10);

impl Connection<Client> {
    /// Sends `request` (its id replaced by the engine's), runs the connection until its answer
    /// and reads it as `R::Result`. Every other event goes to `on_other` with the engine, to
    /// answer a server's request (sampling, elicitation) or note a notification. `timeout`
    /// (from now) is the engine's deadline: past it, `notifications/cancelled` is written and
    /// the call fails with [`RequestError::TimedOut`](crate::RequestError::TimedOut).
    pub fn call<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::ready(adapter::call(self, request, timeout, false, on_other))
    }

    /// [`call`](Self::call), asking for progress: it comes to `on_other` as [`Event::Progress`].
    pub fn call_with_progress<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::ready(adapter::call(self, request, timeout, true, on_other))
    }
}

// `call`, written once for the three client connections, is async; this one's `next` blocks
// its thread and is ready when polled.
impl ClientLoop for Connection<Client> {
    fn client(&mut self) -> &mut Client {
        &mut self.driver.engine
    }

    async fn next(&mut self) -> io::Result<Option<Event>> {
        self.next_event()
    }
}

impl<E: Role> Connection<E> {
    /// Starts `command` with its stdin and stdout piped to a connection; [`close`](Self::close)
    /// kills it if it outlives its grace period. Its stderr is the command's to set.
    pub fn spawn(engine: E, command: &mut Command) -> io::Result<Self> {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
        let (to, from) = (child.stdin.take(), child.stdout.take());
        let (Some(to), Some(from)) = (to, from) else { return Err(io::Error::other("the child has no piped stdin or stdout")) };
        let mut conn = Connection::new(engine, from, to);
        conn.child = Some(child);
        Ok(conn)
    }

    /// Ends the session within `grace`: writes what the engine queued (while time is left),
    /// closes the peer's input (a stdio server's stdin), then waits for the child process of
    /// [`spawn`](Self::spawn) to exit, or without one, for the peer's output to end. Past
    /// `grace`, the child is killed ([`Closed::Killed`]); without one, [`Closed::StillOpen`].
    /// Events that arrive meanwhile are dropped.
    pub fn close(mut self, grace: Duration) -> io::Result<Closed> {
        let deadline = Instant::now() + grace;
        // A peer that stops reading must not hold the close past its grace.
        let _ = self.drain(Some(deadline));
        // The writer thread closes the output once it has written what it holds; it is not
        // waited for, since a peer that does not read would block it.
        self.output = None;
        self.writer = None;
        if let Some(mut child) = self.child.take() {
            loop {
                if let Some(status) = child.try_wait()? {
                    return Ok(Closed::Ended(Some(status)));
                }
                if Instant::now() >= deadline {
                    child.kill()?;
                    return Ok(Closed::Killed(child.wait()?));
                }
                std::thread::sleep(EXIT_POLL);
            }
        }
        loop {
            match self.inputs.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Input::Message(line)) => self.gate.release(line.len()),
                Ok(Input::End(_)) | Err(RecvTimeoutError::Disconnected) => return Ok(Closed::Ended(None)),
                Ok(Input::Work(_)) => {}
                Err(RecvTimeoutError::Timeout) => return Ok(Closed::StillOpen),
            }
        }
    }
}

#[cfg(all(test, feature = "v2025-11-25"))]
mod tests;
