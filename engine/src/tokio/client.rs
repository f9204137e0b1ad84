//! The tokio adapter's conveniences: [`Connection::call`] (send a request, run the loop until its
//! answer, every other event to a callback) and [`Connection::close`] (end the peer within a
//! grace period).

use std::io;
use std::time::Duration;

use mcp_spec_types::runtime::RequestMethod;
use tokio::io::AsyncWriteExt;

use super::{Connection, Input, Role};
use crate::adapter::{self, ClientLoop};
use crate::{CallError, Client, Closed, Event};

impl Connection<Client> {
    /// Sends `request` (its id replaced by the engine's), runs the connection until its answer
    /// and reads it as `R::Result`; every other event goes to `on_other` with the engine (to
    /// answer a server's request). `timeout` is the engine's deadline, as
    /// [`blocking::Connection::call`](crate::blocking::Connection::call)'s.
    pub async fn call<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::call(self, request, timeout, false, on_other).await
    }

    /// [`call`](Self::call), asking for progress: it comes to `on_other` as [`Event::Progress`].
    pub async fn call_with_progress<R: RequestMethod>(&mut self, request: R, timeout: Option<Duration>, on_other: impl FnMut(&mut Client, Event)) -> Result<R::Result, CallError> {
        adapter::call(self, request, timeout, true, on_other).await
    }
}

impl ClientLoop for Connection<Client> {
    fn client(&mut self) -> &mut Client {
        &mut self.driver.engine
    }

    async fn next(&mut self) -> io::Result<Option<Event>> {
        self.next_event().await
    }
}

impl<E: Role> Connection<E> {
    /// Ends the session within `grace`: writes what the engine queued (while time is left),
    /// shuts the output down (a stdio peer's stdin), then waits for the peer's output to end
    /// ([`Closed::Ended`]) or the grace period to pass ([`Closed::StillOpen`]: a process the
    /// application started is then its to kill). Events that arrive meanwhile are dropped.
    pub async fn close(mut self, grace: Duration) -> io::Result<Closed> {
        let deadline = tokio::time::Instant::now() + grace;
        let ended = tokio::time::timeout_at(deadline, async {
            // A write error means the peer is gone: its output's end is what is left to see.
            let _ = self.flush().await;
            let _ = self.output.shutdown().await;
            loop {
                match self.inputs.recv().await {
                    Some((Input::End(_), _)) | None => return,
                    Some((Input::Message(_) | Input::Work(_), _)) => {}
                }
            }
        });
        Ok(if ended.await.is_ok() { Closed::Ended(None) } else { Closed::StillOpen })
    }
}

#[cfg(all(test, feature = "v2025-11-25"))]
mod tests;
