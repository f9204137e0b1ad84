//! What a role decides, as the one trait the endpoint and the shared methods call: which incoming
//! request reaches the application, what becomes of an answer to this side's request, and how the
//! application's answers are written. The roles' state lives with their policy; the endpoint
//! hands itself to a hook that must write or send.

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use super::{Endpoint, Message, Pending, Route};
use crate::{Answer, Error, Event, Failure, Id, Sent};
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::write::WriteJson;

pub trait Policy: Send + 'static {
    /// How a recording names what arrives and what is written (`c2s`/`s2c`).
    const DIRECTIONS: (&'static str, &'static str);

    /// What the role keeps for a request it offered, once the in-flight table took it.
    type Kept;

    /// What becomes of a request of the peer's (its id is not in flight), read on the line's tree:
    /// its `params` become a `Value` only once it is offered.
    fn route(&mut self, id: &Id, method: &str, message: Message<'_>) -> Route<Self::Kept>;

    /// The request `id` is in flight and offered to the application.
    fn offered(&mut self, _id: &Id, _kept: Self::Kept) {}

    /// A notification the endpoint does not consume itself is about to be an event.
    fn notified(&mut self, _method: &str) {}

    /// The answer to this side's request (out of the pending table).
    fn answered(&mut self, endpoint: &mut Endpoint, pending: Pending, outcome: Result<Value, Failure>) {
        endpoint.push_event(Event::Answer(Answer { id: pending.handle, outcome }));
    }

    /// Write `"id": null` (not no `id`) in an error answer to a request whose id did not read.
    fn null_id(&self) -> bool {
        false
    }

    /// Read JSON-RPC batches (a line that is an array of messages): only a 2025-03-26 session.
    fn batches(&self) -> bool;

    /// The application's answer to the peer's request `id`.
    fn respond<T: Serialize + WriteJson + ?Sized>(&mut self, endpoint: &mut Endpoint, id: &Id, result: &T) -> Result<Sent, Error> {
        endpoint.respond(id, result)
    }

    /// The application's error answer to the peer's request `id`.
    fn respond_error(&mut self, endpoint: &mut Endpoint, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        endpoint.respond_error(id, error)
    }

    /// The application gives up on its request `handle`.
    fn cancel(&mut self, endpoint: &mut Endpoint, handle: i64, reason: Option<&str>) -> Result<(), Error> {
        endpoint.cancel(handle, reason)
    }

    /// After the endpoint gave up on its requests due by `now`.
    fn handle_timeout(&mut self, _endpoint: &mut Endpoint, _now: Instant) {}

    /// A deadline of the role's own, besides the pending requests'.
    fn poll_timeout(&self) -> Option<Instant> {
        None
    }
}
