//! What a handler holds while it answers one request: its progress, its log messages, its
//! requests to the client and its cancellation, each going to the request's own SSE stream.

use std::fmt;
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use super::session::{Flag, Session};
use crate::{Error, Id, LogLevel, Request, RequestError, Sent, Server};
use mcp_spec_types::rpc::INTERNAL_ERROR;
use mcp_spec_types::runtime::{meta::PROGRESS_TOKEN, RequestMethod, RpcError};

/// The context of one client request: made by the service for each request it hands a
/// [`Handler`](super::Handler). Clone it freely (into a blocking task, say); what it sends goes on
/// the stream of the POST that carried the request.
#[derive(Clone)]
pub struct RequestContext {
    session: Arc<Session>,
    id: Id,
    wants_progress: bool,
    cancelled: Arc<Flag>,
    timeout: Duration,
}

/// Why a server request got no result.
#[derive(Debug)]
pub enum ServerRequestError {
    /// The engine did not send it: the client did not declare the capability, the session is not
    /// ready, or the request has no session (2026-07-28: answer with
    /// [`RequestContext::respond_input_required`] instead).
    Refused(Error),
    /// The client's error answer, or none in time ([`RequestError::TimedOut`]; the engine sent
    /// `notifications/cancelled`).
    Failed(RequestError),
    /// The session ended before the answer came.
    SessionEnded,
    /// The client cancelled the request this one was made for; the engine sent
    /// `notifications/cancelled` for this one.
    Cancelled,
}

impl fmt::Display for ServerRequestError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ServerRequestError::Refused(e) => write!(f, "not sent: {e}"),
            ServerRequestError::Failed(e) => e.fmt(f),
            ServerRequestError::SessionEnded => f.write_str("the session ended"),
            ServerRequestError::Cancelled => f.write_str("the client cancelled the request it was made for"),
        }
    }
}

impl std::error::Error for ServerRequestError {}

impl RequestContext {
    pub(super) fn new(session: Arc<Session>, request: &Request, cancelled: Arc<Flag>, timeout: Duration) -> Self {
        let wants_progress = request.meta(PROGRESS_TOKEN).is_some();
        RequestContext { session, id: request.id.clone(), wants_progress, cancelled, timeout }
    }

    /// The request's id.
    pub fn id(&self) -> &Id {
        &self.id
    }

    /// The protocol version the request speaks: its session's, or (2026-07-28) its own.
    pub fn version(&self) -> String {
        self.with_engine(|server| server.version_of(&self.id).unwrap_or_default().to_owned())
    }

    /// The client capabilities that hold for the request (its session's `initialize`, or its
    /// `_meta`).
    pub fn client_capabilities(&self) -> Option<Value> {
        self.with_engine(|server| server.client_capabilities(&self.id).cloned())
    }

    /// Whether the client cancelled the request (or ended the session). What the handler sends
    /// after it is dropped.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.is_set()
    }

    /// Completes when the request is cancelled: `select!` it against the work.
    pub async fn cancelled(&self) {
        self.cancelled.wait().await
    }

    /// Whether the request asked for progress (a `progressToken` in its `_meta`).
    pub fn wants_progress(&self) -> bool {
        self.wants_progress
    }

    /// Sends `notifications/progress` for the request (refused without a token or when it does
    /// not increase; dropped once cancelled).
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> Result<Sent, Error> {
        self.with_engine(|server| server.progress(&self.id, progress, total, message))
    }

    /// Sends a log message about the request, if the client's level lets it through
    /// ([`Server::log_for`]).
    pub fn log<T: Serialize>(&self, level: LogLevel, logger: Option<&str>, data: &T) -> Result<Sent, Error> {
        self.with_engine(|server| server.log_for(&self.id, level, logger, data))
    }

    /// Sends a request to the client (sampling, elicitation, roots) on this request's stream and
    /// waits for its answer, at most [`Options::request_timeout`](super::Options::request_timeout)
    /// and no longer than the request it is made for: a client that cancels that one gets
    /// `notifications/cancelled` for this one too ([`ServerRequestError::Cancelled`]).
    pub async fn request<R: RequestMethod>(&self, request: R) -> Result<R::Result, ServerRequestError> {
        let (handle, answer) = {
            let mut state = self.session.lock();
            let handle = state.engine.request_for(&self.id, request, Instant::now(), None).map_err(ServerRequestError::Refused)?;
            let (tx, rx) = tokio::sync::oneshot::channel();
            state.waiting.insert(handle.id(), tx);
            state.flush();
            (handle, rx)
        };
        // The answer, the deadline or the client's cancellation of the request, whichever first.
        let mut answered = pin!(tokio::time::timeout(self.timeout, answer));
        let mut cancelled = pin!(self.cancelled.wait());
        let outcome = poll_fn(|cx| match answered.as_mut().poll(cx) {
            Poll::Ready(outcome) => Poll::Ready(Some(outcome)),
            Poll::Pending => cancelled.as_mut().poll(cx).map(|()| None),
        })
        .await;
        let (reason, error) = match outcome {
            Some(Ok(Ok(answer))) => return handle.read(answer).map_err(ServerRequestError::Failed),
            Some(Ok(Err(_))) => return Err(ServerRequestError::SessionEnded),
            Some(Err(_)) => ("no answer in time", ServerRequestError::Failed(RequestError::TimedOut)),
            None => ("the request it was made for was cancelled", ServerRequestError::Cancelled),
        };
        let mut state = self.session.lock();
        state.waiting.remove(&handle.id());
        let _ = state.engine.cancel(&handle, Some(reason));
        state.flush();
        Err(error)
    }

    /// Answers a 2026-07-28 request with an `InputRequiredResult` ([`Server::respond_input_required`]);
    /// what the handler returns afterwards is not sent.
    pub fn respond_input_required(&self, input_requests: Map<String, Value>, request_state: Option<&str>) -> Result<Sent, Error> {
        self.with_engine(|server| server.respond_input_required(&self.id, input_requests, request_state))
    }

    /// The session's `Mcp-Session-Id` (`None` for a request without a session).
    pub fn session_id(&self) -> Option<String> {
        self.session.id.get().cloned()
    }

    /// Closes the connection the request's stream goes to, without ending the stream: the
    /// client reconnects with `Last-Event-ID` and reads what was written meanwhile (the
    /// `retry` of the priming event says when). For long work without a connection held open.
    pub fn disconnect(&self) {
        self.session.lock().disconnect(&self.id)
    }

    /// Runs `f` on the session's engine (e.g. [`Server::notify`]), then writes what it queued.
    pub fn with_engine<T>(&self, f: impl FnOnce(&mut Server) -> T) -> T {
        let mut state = self.session.lock();
        let out = f(&mut state.engine);
        state.flush();
        out
    }

    /// Writes the handler's answer and ends the request's stream (after its other requests).
    pub(super) fn finish(&self, answer: Result<Value, RpcError>) {
        let mut state = self.session.lock();
        // Already answered (an `InputRequiredResult`): the engine refuses a second answer.
        let _ = match &answer {
            Ok(result) => state.engine.respond(&self.id, result),
            Err(error) => state.engine.respond_error(&self.id, error),
        };
        state.flush();
        state.finish(&self.id);
    }
}

/// Answers the request if its handler never did (it panicked): every request gets one answer.
pub(super) struct Answerer(pub Option<RequestContext>);

impl Drop for Answerer {
    fn drop(&mut self) {
        if let Some(cx) = self.0.take() {
            cx.finish(Err(RpcError { code: INTERNAL_ERROR, message: "the request's handler ended without an answer".into(), data: None }));
        }
    }
}
