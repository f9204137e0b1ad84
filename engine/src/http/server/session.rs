//! One session's engine and its SSE streams (a 2026-07-28 request without a session gets a
//! session of its own that nobody can name). Every POST that carries requests gets a stream; the
//! GET stream (number 0) takes the lines that belong to no request in flight. Each stream keeps
//! its last events so a client can resume it with `Last-Event-ID` (`<stream>-<index>`).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use bytes::Bytes;
use tokio::sync::{mpsc, oneshot, Notify};

use super::Options;
use crate::{Answer, Event, Id, Request, Server};

/// The stream of the session's own lines (the GET stream).
const SESSION_STREAM: u64 = 0;

pub(super) struct Session {
    /// Set once `initialize` is answered; never for a request without a session.
    pub id: OnceLock<String>,
    state: Mutex<State>,
    /// When the session was last used, on the service's clock of requests (least recently used goes first).
    pub last_used: AtomicU64,
}

/// A request's cancellation: set when the client cancels it or the session ends.
#[derive(Default)]
pub(super) struct Flag {
    set: AtomicBool,
    notify: Notify,
}

impl Flag {
    pub fn is_set(&self) -> bool {
        self.set.load(Ordering::Acquire)
    }

    pub fn set(&self) {
        self.set.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }

    pub async fn wait(&self) {
        loop {
            // Made before the check, so a `set` between the two still wakes it.
            let notified = self.notify.notified();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }
}

pub(super) struct State {
    pub engine: Server,
    streams: HashMap<u64, Stream>,
    next_stream: u64,
    /// Streams whose requests are all answered, oldest first (kept for resumption, up to a bound).
    ended: VecDeque<u64>,
    /// The stream of each client request being answered: its POST's.
    stream_of: HashMap<Id, u64>,
    /// The server's requests to the client waiting for their answers, by the engine's id.
    pub waiting: HashMap<i64, oneshot::Sender<Answer>>,
    pub cancelled: HashMap<Id, Arc<Flag>>,
    /// Streams start with a priming event (an id, no data): from 2025-11-25 on.
    priming: bool,
    max_events: usize,
    keep_ended: usize,
    retry_ms: u64,
    ended_session: bool,
    record: Option<super::Recorder>,
}

struct Stream {
    /// The last events (at most `max_events`), `events[0]` being number `first`.
    events: VecDeque<Bytes>,
    first: u64,
    /// Events from this number on have not gone to a connection yet (the GET stream's, before a GET).
    undelivered: u64,
    live: Option<mpsc::Sender<Bytes>>,
    /// Requests of the POST not answered yet; at 0 the stream ends (never the GET stream).
    open: usize,
    /// The POST's requests: their lines go to this stream until it ends (a 2025-03-26 batch's
    /// answers are one line, written for its first request, once the last is answered).
    requests: Vec<Id>,
}

impl Stream {
    fn next(&self) -> u64 {
        self.first + self.events.len() as u64
    }
}

/// What one POSTed body did.
pub(super) struct Posted {
    pub requests: Vec<Request>,
    /// Lines the engine wrote at once that belong to this POST (answers it gave itself).
    pub answers: Vec<Vec<u8>>,
    /// The engine could not use a message of the body (a notification or answer it dropped).
    pub dropped: bool,
}

impl Session {
    pub fn new(engine: Server, stateless: bool, options: &Options) -> Self {
        let mut state = State {
            engine,
            streams: HashMap::new(),
            next_stream: SESSION_STREAM + 1,
            ended: VecDeque::new(),
            stream_of: HashMap::new(),
            waiting: HashMap::new(),
            cancelled: HashMap::new(),
            priming: stateless,
            max_events: options.max_events.max(1),
            keep_ended: options.keep_ended_streams,
            retry_ms: options.retry_ms,
            ended_session: false,
            record: options.record.clone(),
        };
        state.streams.insert(SESSION_STREAM, Stream { events: VecDeque::new(), first: 0, undelivered: 0, live: None, open: 0, requests: Vec::new() });
        Session { id: OnceLock::new(), state: Mutex::new(state), last_used: AtomicU64::new(0) }
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        // A handler that panicked with the lock held leaves state that is still consistent line by line.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl State {
    /// Hands a POSTed body to the engine and sorts out what it did.
    pub fn post(&mut self, body: &[u8]) -> Result<Posted, crate::Error> {
        self.engine.handle_line(body)?;
        self.record("c2s", body);
        let mut requests = Vec::new();
        let mut dropped = false;
        while let Some(event) = self.engine.poll_event() {
            match event {
                Event::Request(request) => {
                    self.cancelled.insert(request.id.clone(), Arc::default());
                    requests.push(request);
                }
                Event::Answer(answer) => {
                    if let Some(waiter) = self.waiting.remove(&answer.id) {
                        let _ = waiter.send(answer);
                    }
                }
                Event::Cancelled { id, .. } => {
                    if let Some(flag) = self.cancelled.get(&id) {
                        flag.set();
                    }
                }
                // Notifications the engine keeps (`initialized`) or the application has no use for here.
                Event::Dropped(_) => dropped = true,
                Event::Notification { .. } | Event::Progress { .. } => {}
            }
        }
        let mut answers = Vec::new();
        while let Some(crate::Transmit { line, request }) = self.engine.poll_transmit() {
            match request.as_ref().and_then(|id| self.stream_of.get(id)).copied() {
                Some(stream) => self.push(stream, &line),
                // The request's own answer, or an error answer to a message without a usable id.
                None if request.is_some() || is_response(&line) => {
                    self.record("s2c", &line);
                    answers.push(line);
                }
                None => self.push(SESSION_STREAM, &line),
            }
        }
        if self.engine.version().is_some_and(|v| v >= "2025-11-25") {
            self.priming = true;
        }
        Ok(Posted { requests, answers, dropped })
    }

    /// Writes what the engine queued, each line on the stream of the request it belongs to (the
    /// GET stream for the session's own lines and for those of a request whose stream is gone).
    pub fn flush(&mut self) {
        while let Some(crate::Transmit { line, request }) = self.engine.poll_transmit() {
            let stream = request.and_then(|id| self.stream_of.get(&id).copied()).unwrap_or(SESSION_STREAM);
            self.push(stream, &line);
        }
    }

    /// Opens the SSE stream of a POST carrying `requests`, with the engine's own `answers` to
    /// the POST's other messages first.
    pub fn open_stream(&mut self, requests: &[Request], answers: Vec<Vec<u8>>) -> mpsc::Receiver<Bytes> {
        let n = self.next_stream;
        self.next_stream += 1;
        let (tx, rx) = mpsc::channel(self.max_events + 2);
        self.streams.insert(n, Stream { events: VecDeque::new(), first: 0, undelivered: 0, live: Some(tx), open: requests.len(), requests: requests.iter().map(|r| r.id.clone()).collect() });
        if self.priming {
            self.push_event(n, None);
        }
        for line in answers {
            self.push(n, &line);
        }
        for request in requests {
            self.stream_of.insert(request.id.clone(), n);
        }
        rx
    }

    /// The request `id` is answered (and its answer flushed): its stream ends with its last request.
    pub fn finish(&mut self, id: &Id) {
        self.cancelled.remove(id);
        let Some(n) = self.stream_of.get(id).copied() else { return };
        let Some(stream) = self.streams.get_mut(&n) else { return };
        stream.open = stream.open.saturating_sub(1);
        if stream.open == 0 {
            for request in std::mem::take(&mut stream.requests) {
                self.stream_of.remove(&request);
            }
            // Dropping the sender ends the response once its events are read.
            stream.live = None;
            self.ended.push_back(n);
            while self.ended.len() > self.keep_ended {
                if let Some(oldest) = self.ended.pop_front() {
                    self.streams.remove(&oldest);
                }
            }
        }
    }

    /// A GET: the session's stream (its undelivered lines first), or with `Last-Event-ID` the
    /// stream that event was on, from the event after it. `None`: no such stream (any more).
    pub fn attach(&mut self, last_event_id: Option<&str>) -> Option<mpsc::Receiver<Bytes>> {
        if self.ended_session {
            return None;
        }
        let (n, from) = match last_event_id {
            None => (SESSION_STREAM, None),
            Some(last) => {
                let (stream, index) = last.split_once('-')?;
                (stream.parse().ok()?, Some(index.parse::<u64>().ok()?.saturating_add(1)))
            }
        };
        let stream = self.streams.get_mut(&n)?;
        // A new connection replaces the old one: one connection per stream.
        stream.live = None;
        if self.priming && from.is_none() {
            self.push_event(n, None);
        }
        let stream = self.streams.get_mut(&n)?;
        let from = from.unwrap_or(stream.undelivered).max(stream.first);
        let (tx, rx) = mpsc::channel(self.max_events + 2);
        for event in stream.events.iter().skip((from - stream.first) as usize) {
            let _ = tx.try_send(event.clone());
        }
        stream.undelivered = stream.next();
        // An ended stream is replayed and closed.
        if n == SESSION_STREAM || stream.open > 0 {
            stream.live = Some(tx);
        }
        Some(rx)
    }

    /// The session is over (DELETE, or pushed out by newer ones): its requests see a
    /// cancellation, its connections close, its server requests get no answer.
    pub fn end(&mut self) {
        self.ended_session = true;
        for flag in self.cancelled.values() {
            flag.set();
        }
        for stream in self.streams.values_mut() {
            stream.live = None;
        }
        self.waiting.clear();
    }

    fn push(&mut self, n: u64, line: &[u8]) {
        self.record("s2c", line);
        self.push_event(n, Some(line))
    }

    fn record(&self, direction: &str, line: &[u8]) {
        if let Some(record) = &self.record {
            (record.0)(direction, self.engine.version(), line);
        }
    }

    /// Closes the connection of request `id`'s stream without ending the stream: the client
    /// resumes it with `Last-Event-ID` (SEP-1699's polling).
    pub fn disconnect(&mut self, id: &Id) {
        if let Some(stream) = self.stream_of.get(id).and_then(|n| self.streams.get_mut(n)) {
            stream.live = None;
        }
    }

    /// Adds an event to stream `n` and sends it to its connection; a connection that does not
    /// keep up is closed (the client resumes from what it read).
    fn push_event(&mut self, n: u64, data: Option<&[u8]>) {
        let (max_events, retry_ms) = (self.max_events, self.retry_ms);
        let Some(stream) = self.streams.get_mut(&n) else { return };
        let mut event = format!("id: {n}-{}\n", stream.next()).into_bytes();
        match data {
            Some(line) => {
                event.extend_from_slice(b"data: ");
                event.extend_from_slice(line);
                event.extend_from_slice(b"\n\n");
            }
            None => event.extend_from_slice(format!("retry: {retry_ms}\ndata: \n\n").as_bytes()),
        }
        let event = Bytes::from(event);
        stream.events.push_back(event.clone());
        if stream.events.len() > max_events {
            stream.events.pop_front();
            stream.first += 1;
        }
        if let Some(live) = &stream.live {
            if live.try_send(event).is_ok() {
                stream.undelivered = stream.next();
            } else {
                stream.live = None;
            }
        }
    }
}

/// Whether a line the engine wrote is an answer (no `method`), not a notification or request.
fn is_response(line: &[u8]) -> bool {
    mcp_spec_types::tree::Doc::parse_slice(line).is_ok_and(|d| d.root().get("method").is_none())
}
