//! Progress and cancellation: progress only for tokens of requests still in flight, with
//! `progress` increasing; cancellation only of requests issued the same way, never `initialize`.
//!
//! One notion of in flight: a request leaves it when answered or cancelled, and then so does its
//! token. Progress for a cancelled request's token after the cancellation is reported
//! (`session/progress/cancelled`), as the late answer is (`response.unmatched`).

use serde_json::Value;

use super::rules::{CANCEL_INITIALIZE, CANCEL_UNKNOWN, PROGRESS_CANCELLED, PROGRESS_INCREASING, PROGRESS_TOKEN};
use super::{Capped, Msg, Sink};
use crate::bounded::shown;
use crate::check::{Dir, IdKey};

/// A progress token of a request in flight: the last `progress` reported for it.
struct Token {
    last: Option<(f64, u64)>,
}

impl crate::bounded::Weigh for Token {
    fn weight(&self) -> usize {
        0
    }
}

pub(crate) struct State {
    /// Tokens per direction of the request that carried them.
    tokens: [Capped<IdKey, Token>; 2],
    /// The token of each request in flight that carried one, by request id (for cancellations).
    by_request: [Capped<IdKey, IdKey>; 2],
    /// Tokens of cancelled requests: the line of the cancellation.
    cancelled: [Capped<IdKey, u64>; 2],
}

fn token_of(params: Option<&Value>) -> Option<IdKey> {
    params?.get("_meta")?.get("progressToken").and_then(IdKey::of)
}

impl State {
    pub fn new() -> State {
        State { tokens: super::per_dir(), by_request: super::per_dir(), cancelled: super::per_dir() }
    }

    pub fn evicted(&self) -> u64 {
        let sum = |e: [u64; 2]| e[0] + e[1];
        sum(self.tokens.each_ref().map(|t| t.evicted)) + sum(self.by_request.each_ref().map(|t| t.evicted)) + sum(self.cancelled.each_ref().map(|t| t.evicted))
    }

    pub fn observe(&mut self, msg: &Msg, whole: bool, issued: &[Capped<IdKey, u64>; 2], initialize: Option<&IdKey>, sink: &mut Sink) {
        if let Some(req) = &msg.answers {
            // Answered: its token is no longer active.
            if let (Some(token), Some(d)) = (token_of(req.params.as_ref()), msg.dir) {
                self.tokens[d.opposite().index()].remove(&token);
            }
            if let (Some(id), Some(d)) = (msg.id.and_then(IdKey::of), msg.dir) {
                if let Some(token) = self.by_request[d.opposite().index()].remove(&id) {
                    self.tokens[d.opposite().index()].remove(&token);
                }
            }
            return;
        }
        let Some(method) = msg.method else { return };
        if msg.id.is_some() {
            if let Some(token) = token_of(msg.params) {
                let d = msg.dir.unwrap_or(Dir::C2S).index();
                // A token given again is in flight again.
                self.cancelled[d].remove(&token);
                if let Some(id) = msg.id.and_then(IdKey::of) {
                    self.by_request[d].insert(id, token.clone());
                }
                self.tokens[d].insert(token, Token { last: None });
            }
            return;
        }
        // The way the request went that a notification about it refers to.
        let request_dirs = |same_way: bool| -> Vec<Dir> {
            match msg.dir {
                Some(d) if same_way => vec![d],
                Some(d) => vec![d.opposite()],
                None => vec![Dir::C2S, Dir::S2C],
            }
        };
        match method {
            "notifications/progress" => {
                let Some(token) = msg.param("progressToken").and_then(IdKey::of) else { return };
                let found = request_dirs(false).into_iter().find(|d| self.tokens[d.index()].contains(&token));
                let cancelled = request_dirs(false).into_iter().find_map(|d| self.cancelled[d.index()].get(&token).copied());
                if let (None, Some(line)) = (found, cancelled) {
                    let text = format!("progress for the token {} of a request cancelled on line {line}", msg.param("progressToken").map(shown).unwrap_or_default());
                    sink.report(&PROGRESS_CANCELLED, msg.pointer("/params/progressToken"), text);
                    return;
                }
                let Some(d) = found else {
                    // A token forgotten by a full table is not a token never given.
                    if whole && self.tokens.iter().all(|t| t.evicted == 0) {
                        let text = format!("progress for the token {}, which no request in flight carried", msg.param("progressToken").map(shown).unwrap_or_default());
                        sink.report(&PROGRESS_TOKEN, msg.pointer("/params/progressToken"), text);
                    }
                    return;
                };
                let Some(progress) = msg.param("progress").and_then(Value::as_f64) else { return };
                let Some(t) = self.tokens[d.index()].get_mut(&token) else { return };
                if let Some((last, line)) = t.last {
                    if progress <= last {
                        let text = format!("`progress` is {progress}, not more than the {last} of line {line}");
                        sink.report(&PROGRESS_INCREASING, msg.pointer("/params/progress"), text);
                    }
                }
                t.last = Some((progress, msg.line));
            }
            "notifications/cancelled" => {
                let Some(raw) = msg.param("requestId") else { return };
                let Some(key) = IdKey::of(raw) else { return };
                if msg.dir != Some(Dir::S2C) && initialize == Some(&key) {
                    sink.report(&CANCEL_INITIALIZE, msg.pointer("/params/requestId"), format!("request {} is the `initialize` request, which the client must not cancel", shown(raw)));
                    return;
                }
                let dirs = request_dirs(true);
                // Cancelled: no longer in flight, for its progress as for its answer.
                for d in &dirs {
                    if let Some(token) = self.by_request[d.index()].remove(&key) {
                        self.tokens[d.index()].remove(&token);
                        self.cancelled[d.index()].insert(token, msg.line);
                    }
                }
                let forgot = dirs.iter().any(|d| issued[d.index()].evicted > 0);
                if whole && !forgot && !dirs.iter().any(|d| issued[d.index()].contains(&key)) {
                    let way = msg.dir.map(|d| format!(" {}", d.name())).unwrap_or_default();
                    let text = format!("no{way} request with id {} was issued in this session", shown(raw));
                    sink.report(&CANCEL_UNKNOWN, msg.pointer("/params/requestId"), text);
                }
            }
            _ => {}
        }
    }
}
