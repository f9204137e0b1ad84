//! A 2025-11-25 session (or one stateless 2026-07-28 request) on the crate's session engine, and
//! its SSE streams: one per POSTed request, kept whole so a client can resume it. The engine
//! says which request each line it writes belongs to (`Transmit::request`); the line goes
//! on that request's stream.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Mutex;

use bytes::Bytes;
use mcp_conformance::sse;
use mcp_spec_engine::{Answer, Event, Id, Request, Server, Transmit};
use tokio::sync::{mpsc, oneshot};

use super::{App, RETRY_MS};

/// Ended streams kept for resumption; older ones are forgotten (a `Last-Event-ID` on one is
/// answered as an unknown stream), so a long session does not grow without bound.
const KEEP_ENDED: usize = 64;

pub(super) struct Session {
    state: Mutex<State>,
    /// Lines are checked as 2026-07-28 messages (a stateless request's), else as 2025-11-25 ones.
    next: bool,
}

pub(super) struct State {
    pub engine: Server,
    pub subscriptions: BTreeSet<String>,
    /// By stream number (numbers are not reused).
    streams: BTreeMap<usize, Stream>,
    next_stream: usize,
    /// Ended streams, oldest first.
    ended: VecDeque<usize>,
    /// The stream of each client request being answered: its POST's.
    stream_of: HashMap<Id, usize>,
    /// Requests of ours waiting for the client's answer, by the engine's id.
    waiting: HashMap<i64, oneshot::Sender<Answer>>,
}

impl State {
    /// Registers a waiter for the answer to our request `id`.
    pub fn wait(&mut self, id: i64) -> oneshot::Receiver<Answer> {
        let (tx, rx) = oneshot::channel();
        self.waiting.insert(id, tx);
        rx
    }

    /// Gives up waiting for the answer to our request `id` (the engine drops it if it comes).
    pub fn forget(&mut self, id: i64) {
        self.waiting.remove(&id);
    }
}

#[derive(Default)]
struct Stream {
    events: Vec<Bytes>,
    /// The connection the events go to now, if the client is connected.
    live: Option<mpsc::UnboundedSender<Bytes>>,
    /// The response was written: the stream ends after its last event.
    done: bool,
}

/// What one POSTed line did: a request for the application, or the engine's answer to write.
pub(super) enum Posted {
    Request(Request),
    Answered(Vec<u8>),
    Nothing,
}

impl Session {
    pub fn new(engine: Server, next: bool) -> Self {
        let state = State {
            engine,
            subscriptions: BTreeSet::new(),
            streams: BTreeMap::new(),
            next_stream: 0,
            ended: VecDeque::new(),
            stream_of: HashMap::new(),
            waiting: HashMap::new(),
        };
        Session {
            state: Mutex::new(state),
            next,
        }
    }

    pub fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.state.lock().unwrap())
    }

    /// Hands a POSTed line to the engine; answers to our requests go to their waiters.
    pub fn post(&self, app: &App, body: &[u8]) -> Result<Posted, mcp_spec_engine::Error> {
        let mut state = self.state.lock().unwrap();
        state.engine.handle_line(body)?;
        let mut posted = Posted::Nothing;
        while let Some(event) = state.engine.poll_event() {
            match event {
                Event::Request(request) => posted = Posted::Request(request),
                Event::Answer(answer) => {
                    if let Some(waiter) = state.waiting.remove(&answer.id) {
                        let _ = waiter.send(answer);
                    }
                }
                Event::Dropped(why) => eprintln!("dropped: {why:?}"),
                // The engine keeps the lifecycle.
                Event::Notification { method, .. } if method == "notifications/initialized" => {}
                Event::Notification { method, .. } => eprintln!("notification: {method}"),
                Event::Cancelled { .. } | Event::Progress { .. } => {}
            }
        }
        // One message per POST: what the engine wrote answers it.
        if let Some(Transmit { line, .. }) = state.engine.poll_transmit() {
            posted = Posted::Answered(app.wrote(&line, self.next).into_bytes());
        }
        Ok(posted)
    }

    /// Writes what the engine has to write, each line on the stream of the request it belongs to.
    pub fn flush(&self, app: &App) {
        let mut state = self.state.lock().unwrap();
        while let Some(Transmit { line, request }) = state.engine.poll_transmit() {
            let json = app.wrote(&line, self.next);
            let stream = request.and_then(|id| state.stream_of.get(&id).copied());
            match stream.and_then(|n| Some((n, state.streams.get_mut(&n)?))) {
                Some((n, stream)) => send(stream, n, &json),
                // This server opens no stream of the session's own (a plain GET is refused).
                None => eprintln!("no stream for: {json}"),
            }
        }
    }

    /// Opens the SSE stream of the client's request `id`, starting with a priming event (an id
    /// and no data) so the client can resume it from the start.
    pub fn open_stream(&self, id: &Id) -> mpsc::UnboundedReceiver<Bytes> {
        let mut state = self.state.lock().unwrap();
        let n = state.next_stream;
        state.next_stream += 1;
        let (tx, rx) = mpsc::unbounded_channel();
        let priming = Bytes::from(sse::event(Some(&format!("{n}-0")), Some(RETRY_MS), ""));
        let _ = tx.send(priming.clone());
        state.streams.insert(n, Stream { events: vec![priming], live: Some(tx), done: false });
        state.stream_of.insert(id.clone(), n);
        rx
    }

    /// Ends the stream of request `id` after what was written on it.
    pub fn finish(&self, id: &Id) {
        let mut state = self.state.lock().unwrap();
        if let Some(n) = state.stream_of.remove(id) {
            if let Some(s) = state.streams.get_mut(&n) {
                s.done = true;
                s.live = None;
            }
            state.ended.push_back(n);
            if state.ended.len() > KEEP_ENDED {
                if let Some(oldest) = state.ended.pop_front() {
                    state.streams.remove(&oldest);
                }
            }
        }
    }

    /// Closes the connection of request `id`'s stream without ending it (SEP-1699 polling).
    pub fn disconnect(&self, id: &Id) {
        let mut state = self.state.lock().unwrap();
        if let Some(s) = state.stream_of.get(id).copied().and_then(|n| state.streams.get_mut(&n)) {
            s.live = None;
        }
    }

    /// Reattaches a stream after the event `last_event_id` (`<stream>-<index>`).
    pub fn resume(&self, last_event_id: &str) -> Option<mpsc::UnboundedReceiver<Bytes>> {
        let (stream, index) = last_event_id.split_once('-')?;
        let (stream, index): (usize, usize) = (stream.parse().ok()?, index.parse().ok()?);
        let mut state = self.state.lock().unwrap();
        let s = state.streams.get_mut(&stream)?;
        let (tx, rx) = mpsc::unbounded_channel();
        for event in s.events.iter().skip(index + 1) {
            let _ = tx.send(event.clone());
        }
        if !s.done {
            s.live = Some(tx);
        }
        Some(rx)
    }
}

fn send(s: &mut Stream, stream: usize, json: &str) {
    let id = format!("{stream}-{}", s.events.len());
    let event = Bytes::from(sse::event(Some(&id), None, json));
    s.events.push(event.clone());
    if s.live.as_ref().is_some_and(|tx| tx.send(event).is_err()) {
        s.live = None;
    }
}
