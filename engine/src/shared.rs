//! The engine of one side, its shared methods written once: [`Client`](crate::Client) is
//! `Engine<ClientSide>` and [`Server`](crate::Server) is `Engine<ServerSide>`. What differs
//! between them (which requests reach the application, what an answer to this side's request
//! does, how an answer of the application's is completed) is the side's policy, a sealed trait
//! the endpoint calls directly.

use std::time::Instant;

use serde::Serialize;

use crate::endpoint::{Endpoint, Policy};
use crate::{notification_params, Config, Error, Event, Handle, Id, Sent, Transmit};
use mcp_spec_types::runtime::{NotificationMethod, RequestMethod, RpcError};
use mcp_spec_types::write::WriteJson;

/// One side of a session: [`ClientSide`](crate::ClientSide) or [`ServerSide`](crate::ServerSide)
/// (sealed). Its state is the role's: lifecycle, negotiated version, per-request bookkeeping.
pub trait Side: Policy {}

/// The engine of one side ([`Client`](crate::Client), [`Server`](crate::Server)): the tables and
/// queues both roles have, and the side's state. See the [crate docs](crate).
pub struct Engine<S: Side> {
    pub(crate) endpoint: Endpoint,
    pub(crate) side: S,
}

impl<S: Side> Engine<S> {
    pub(crate) fn with_side(config: Config, side: S) -> Self {
        Engine { endpoint: Endpoint::new(config), side }
    }

    /// Reads one line from the peer. [`Error::QueueFull`]: the line was not read; drain the
    /// queues and hand it in again.
    pub fn handle_line(&mut self, line: &[u8]) -> Result<(), Error> {
        self.endpoint.handle_line(line, &mut self.side)
    }

    /// Gives the answers to this side's requests that are due by `now` up: each becomes an
    /// [`Failure::TimedOut`](crate::Failure::TimedOut) answer and its `notifications/cancelled` is
    /// written (a client's request waiting for input has nothing at the server to cancel).
    pub fn handle_timeout(&mut self, now: Instant) {
        self.endpoint.handle_timeout(now);
        self.side.handle_timeout(&mut self.endpoint, now);
    }

    /// The earliest deadline of this side's requests (pending, or waiting for input).
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.endpoint.poll_timeout().into_iter().chain(self.side.poll_timeout()).min()
    }

    /// The next line to write, with the peer's request it belongs to ([`Transmit`]).
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.endpoint.poll_transmit()
    }

    /// What happened, in the order the lines arrived.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.endpoint.poll_event()
    }

    /// Answers the peer's request `id` with `result`. [`Sent::Dropped`]: the peer had cancelled
    /// it, nothing was written.
    ///
    /// `result` is any type of this crate or a `Value` (a type of your own: its `Value`), written
    /// as it is (its [`WriteJson`]). On a server, a successful answer to `initialize` starts the
    /// session in the version its `protocolVersion` names, and a 2026-07-28 result gets
    /// `resultType` (`"complete"` unless set), the server's identity in `_meta`, and, when
    /// cacheable and without them, `ttlMs: 0` and `cacheScope: "private"`. On a client, the
    /// answer to an input request ([`Client::input_for`](crate::Client::input_for)) is its
    /// response, sent with the request again once all are given.
    pub fn respond<T: Serialize + WriteJson + ?Sized>(&mut self, id: &Id, result: &T) -> Result<Sent, Error> {
        self.side.respond(&mut self.endpoint, id, result)
    }

    /// Answers the peer's request `id` with an error. On a server, an error to `initialize`
    /// leaves the session where it was (only `ping` and a new `initialize` are answered); on a
    /// client, an input request has no error answer: refusing one fails the request it is for
    /// ([`Failure::Input`](crate::Failure::Input)).
    pub fn respond_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        self.side.respond_error(&mut self.endpoint, id, error)
    }

    /// Sends a notification (e.g. `notifications/initialized`, `notifications/tools/list_changed`).
    pub fn notify<N: NotificationMethod>(&mut self, notification: &N) -> Result<(), Error> {
        let params = notification_params(notification)?;
        self.endpoint.notify(None, N::METHOD, params)
    }

    /// Writes `notifications/cancelled` for this side's request; a late answer to it is dropped.
    /// A client's request waiting for input is dropped without a line (the server holds nothing
    /// for it).
    pub fn cancel<R: RequestMethod>(&mut self, handle: &Handle<R>, reason: Option<&str>) -> Result<(), Error> {
        self.side.cancel(&mut self.endpoint, handle.id, reason)
    }
}
