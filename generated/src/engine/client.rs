//! The client role.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::endpoint::{Endpoint, Route};
use super::{capability_names, notification_params, refuse, Config, Error, Event, Handle, Id, Sent, CLIENT_CAPABILITY_OF};
use crate::rpc::METHOD_NOT_FOUND;
use crate::runtime::{RequestMethod, RpcError};

/// The client role. See the [module docs](self).
pub struct Client {
    endpoint: Endpoint,
    // Capability names from the client's `initialize` (few: the spec defines a handful).
    declared: Vec<String>,
}

impl Client {
    pub fn new(config: Config) -> Self {
        Client { endpoint: Endpoint::new(config), declared: Vec::new() }
    }

    /// Sends `request` (its id replaced by the engine's); `timeout` counts from `now`. An
    /// `initialize` request also tells the engine which capabilities the client declared.
    pub fn request<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.send(request, now, timeout, false)
    }

    /// [`request`](Self::request), asking for progress: the engine puts a `progressToken` in
    /// `params._meta`, and the server's progress comes as [`Event::Progress`] for this request.
    pub fn request_with_progress<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>) -> Result<Handle<R>, Error> {
        self.send(request, now, timeout, true)
    }

    fn send<R: RequestMethod>(&mut self, request: R, now: Instant, timeout: Option<Duration>, progress: bool) -> Result<Handle<R>, Error> {
        let (handle, params) = self.endpoint.request(&request, now, timeout, progress)?;
        if R::METHOD == "initialize" {
            self.declared = capability_names(Some(&params));
        }
        Ok(handle)
    }

    /// Sends a notification (e.g. `notifications/initialized`).
    pub fn notify<N: crate::runtime::NotificationMethod>(&mut self, notification: &N) -> Result<(), Error> {
        let params = notification_params(notification)?;
        self.endpoint.notify(N::METHOD, params)
    }

    /// Writes `notifications/cancelled` for the request; a late answer to it is dropped.
    pub fn cancel<R: RequestMethod>(&mut self, handle: &Handle<R>, reason: Option<&str>) -> Result<(), Error> {
        self.endpoint.cancel(handle.id, reason)
    }

    /// Reads one line from the server. [`Error::QueueFull`]: the line was not read; drain the
    /// queues and hand it in again.
    pub fn handle_line(&mut self, line: &[u8]) -> Result<(), Error> {
        let (declared, take_ping) = (&self.declared, self.endpoint.config.take_ping);
        self.endpoint.handle_line(line, &mut |_, method, _| {
            if method == "ping" && !take_ping {
                return Route::Answer(Value::Object(Map::new()));
            }
            match CLIENT_CAPABILITY_OF.iter().find(|(m, _)| *m == method) {
                Some((_, capability)) if !declared.iter().any(|d| d == capability) => {
                    refuse(METHOD_NOT_FOUND, format!("Method not found: {method} (the client did not declare `{capability}`)"))
                }
                _ => Route::Offer,
            }
        })
    }

    /// Answers the server's request `id` with `result`.
    pub fn respond<T: Serialize>(&mut self, id: &Id, result: &T) -> Result<Sent, Error> {
        self.endpoint.respond(id, result)
    }

    /// Answers the server's request `id` with an error.
    pub fn respond_error(&mut self, id: &Id, error: &RpcError) -> Result<Sent, Error> {
        self.endpoint.respond_error(id, error)
    }

    /// Gives the answers that are due by `now` up: each becomes an [`Failure::TimedOut`] answer.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.endpoint.handle_timeout(now)
    }

    /// The earliest deadline of a pending request.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.endpoint.poll_timeout()
    }

    /// The next line to write, without its newline.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.endpoint.poll_transmit()
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.endpoint.poll_event()
    }

    /// Requests sent and not yet answered.
    pub fn pending(&self) -> usize {
        self.endpoint.pending_len()
    }
}
