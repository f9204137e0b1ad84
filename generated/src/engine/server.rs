//! The server role.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::endpoint::{Endpoint, Route};
use super::{capability_names, notification_params, refuse, Config, Error, Event, Handle, Id, Sent, CLIENT_CAPABILITY_OF};
use crate::rpc::INVALID_REQUEST;
use crate::runtime::{RequestMethod, RpcError};

#[derive(Debug, Clone, PartialEq)]
enum Lifecycle {
    /// Only `ping` and `initialize` are answered.
    New,
    /// `initialize` was offered and is not answered yet.
    Initializing(Id),
    Ready,
}

/// The server role: the in-flight table, cancellation, progress, `ping`, and the start of the
/// lifecycle. See the [module docs](self).
pub struct Server {
    endpoint: Endpoint,
    lifecycle: Lifecycle,
    // Capability names from the client's `initialize`.
    client_declared: Vec<String>,
}

impl Server {
    pub fn new(config: Config) -> Self {
        Server { endpoint: Endpoint::new(config), lifecycle: Lifecycle::New, client_declared: Vec::new() }
    }

    /// Reads one line from the client. [`Error::QueueFull`]: the line was not read; drain the
    /// queues and hand it in again.
    pub fn handle_line(&mut self, line: &[u8]) -> Result<(), Error> {
        let (lifecycle, take_ping) = (&self.lifecycle, self.endpoint.config.take_ping);
        let mut initialize = None;
        self.endpoint.handle_line(line, &mut |id, method, params| match (method, lifecycle) {
            ("ping", _) if !take_ping => Route::Answer(Value::Object(Map::new())),
            ("ping", _) => Route::Offer,
            ("initialize", Lifecycle::New) => {
                initialize = Some((id.clone(), capability_names(params)));
                Route::Offer
            }
            ("initialize", _) => refuse(INVALID_REQUEST, "Invalid Request: initialize was already received".into()),
            (_, Lifecycle::Ready) => Route::Offer,
            // The spec: no requests but ping before the server has answered initialize.
            (_, _) => refuse(INVALID_REQUEST, format!("Invalid Request: {method} before initialize was answered")),
        })?;
        // Only once it is in flight: a full table answered it with an error instead.
        if let Some((id, declared)) = initialize.filter(|(id, _)| self.endpoint.is_in_flight(id)) {
            self.lifecycle = Lifecycle::Initializing(id);
            self.client_declared = declared;
        }
        Ok(())
    }

    /// Answers the client's request `id` with `result`. [`Sent::Dropped`]: the client had
    /// cancelled it, nothing was written. A successful answer to `initialize` starts the session.
    pub fn respond<T: Serialize>(&mut self, id: &Id, result: &T) -> Result<Sent, Error> {
        let sent = self.endpoint.respond(id, result)?;
        if self.lifecycle == Lifecycle::Initializing(id.clone()) {
            self.lifecycle = Lifecycle::Ready;
        }
        Ok(sent)
    }

    /// Answers the client's request `id` with an error. An error to `initialize` leaves the
    /// session where it was: only `ping` and a new `initialize` are answered.
    pub fn respond_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        let sent = self.endpoint.respond_error(id, error)?;
        if self.lifecycle == Lifecycle::Initializing(id.clone()) {
            self.lifecycle = Lifecycle::New;
        }
        Ok(sent)
    }

    /// Sends progress for the client's request `id`, with the token the request carried.
    /// Refused when the request had no token or `progress` does not increase; [`Sent::Dropped`]
    /// once the client cancelled the request.
    pub fn progress(&mut self, id: &Id, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<Sent, Error> {
        self.endpoint.progress(id, progress, total, message)
    }

    /// Sends a notification (e.g. `notifications/tools/list_changed`).
    pub fn notify<N: crate::runtime::NotificationMethod>(&mut self, notification: &N) -> Result<(), Error> {
        let params = notification_params(notification)?;
        self.endpoint.notify(N::METHOD, params)
    }

    /// Sends a request to the client (its id replaced by the engine's); the answer comes as
    /// [`Event::Answer`]. Refused before `initialize` is answered (but `ping`), and for
    /// `sampling/createMessage`, `elicitation/create` and `roots/list` when the client did not
    /// declare that capability.
    pub fn request<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        if R::METHOD != "ping" && self.lifecycle != Lifecycle::Ready {
            return Err(Error::NotInitialized);
        }
        if let Some((_, capability)) = CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == R::METHOD) {
            if !self.client_declared.iter().any(|d| d == capability) {
                return Err(Error::NotDeclared { capability });
            }
        }
        Ok(self.endpoint.request(&request, now, timeout, false)?.0)
    }

    /// Writes `notifications/cancelled` for a request to the client; a late answer is dropped.
    pub fn cancel<R: RequestMethod>(&mut self, handle: &Handle<R>, reason: Option<&str>) -> Result<(), Error> {
        self.endpoint.cancel(handle.id, reason)
    }

    /// Gives the answers to the server's requests that are due by `now` up.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.endpoint.handle_timeout(now)
    }

    /// The earliest deadline of a request to the client.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.endpoint.poll_timeout()
    }

    /// Whether `initialize` has been answered with a result.
    pub fn is_initialized(&self) -> bool {
        self.lifecycle == Lifecycle::Ready
    }

    /// Requests of the client's not answered yet (cancelled ones included until answered).
    pub fn in_flight(&self) -> usize {
        self.endpoint.in_flight_len()
    }

    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.endpoint.poll_transmit()
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.endpoint.poll_event()
    }
}
