//! What the adapters' client conveniences share: [`CallError`], the one error of a `call` (send a
//! request, run the connection until its answer), and [`Closed`], what `close` found.

use std::fmt;
use std::io;
use std::process::ExitStatus;

use super::{Error, RequestError};

/// Why a `call` has no result.
#[derive(Debug)]
pub enum CallError {
    /// The engine did not send the request (a full table, a per-request client's `initialize`).
    Engine(Error),
    /// The transport failed.
    Io(io::Error),
    /// The peer's output ended before the answer came.
    Ended,
    /// The answer is an error, or unreadable, or none came in time ([`RequestError::TimedOut`]).
    Request(RequestError),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CallError::Engine(e) => write!(f, "not sent: {e}"),
            CallError::Io(e) => write!(f, "the transport failed: {e}"),
            CallError::Ended => f.write_str("the connection ended before the answer"),
            CallError::Request(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CallError {}

impl From<io::Error> for CallError {
    fn from(e: io::Error) -> Self {
        CallError::Io(e)
    }
}

impl From<Error> for CallError {
    fn from(e: Error) -> Self {
        CallError::Engine(e)
    }
}

impl From<RequestError> for CallError {
    fn from(e: RequestError) -> Self {
        CallError::Request(e)
    }
}

impl From<CallError> for io::Error {
    fn from(e: CallError) -> Self {
        match e {
            CallError::Io(e) => e,
            other => io::Error::other(other),
        }
    }
}

/// What `close(grace)` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// The peer ended within the grace period: its process exited (with this status), or, with
    /// no process, its output ended (Streamable HTTP: the session was deleted or needs no end).
    Ended(Option<ExitStatus>),
    /// The grace period passed and the peer's process was killed.
    Killed(ExitStatus),
    /// The grace period passed with the peer's output still open and no process to kill.
    StillOpen,
}
