//! The lifecycle: `initialize` first, and only pings (and logging) until both sides are ready.

use super::rules::{CLIENT_BEFORE_RESULT, INITIALIZED_ORDER, INITIALIZE_FIRST, SERVER_BEFORE_INITIALIZED};
use super::{Msg, Sink};
use crate::bounded::clip;
use crate::check::{Dir, IdKey};

#[derive(Default)]
pub(crate) struct State {
    /// The line of the stream's first message.
    first_line: Option<u64>,
    /// The client's first `initialize` request: its line and id.
    initialize: Option<(u64, Option<IdKey>)>,
    /// The server answered `initialize`.
    answered: bool,
    /// The client sent `notifications/initialized`.
    initialized: bool,
}

impl State {
    pub fn initialize_id(&self) -> Option<&IdKey> {
        self.initialize.as_ref()?.1.as_ref()
    }

    pub fn observe(&mut self, msg: &Msg, sink: &mut Sink) {
        let first = *self.first_line.get_or_insert(msg.line);
        // Versions without `initialize` (2026-07-28) have no lifecycle to follow.
        if !msg.version_has("initialize") {
            return;
        }
        let is_request = msg.id.is_some() && msg.method.is_some();
        if msg.method == Some("initialize") && is_request && msg.dir != Some(Dir::S2C) {
            if self.initialize.is_none() {
                self.initialize = Some((msg.line, msg.id.and_then(IdKey::of)));
                if first < msg.line {
                    let text = format!("`initialize` is not the first message of the session: line {first} came before it");
                    sink.report(&INITIALIZE_FIRST, msg.pointer("/method"), text);
                }
            }
            return;
        }
        let Some((init_line, _)) = self.initialize else { return };
        if msg.answers.as_ref().is_some_and(|r| &*r.method == "initialize") {
            self.answered = true;
            return;
        }
        let Some(method) = msg.method else { return };
        match msg.dir {
            Some(Dir::C2S) if method == "notifications/initialized" => {
                if !self.answered && !self.initialized {
                    let text = format!("`notifications/initialized` before the server answered `initialize` (line {init_line})");
                    sink.report(&INITIALIZED_ORDER, msg.pointer("/method"), text);
                }
                self.initialized = true;
            }
            Some(Dir::C2S) if is_request && method != "ping" && !self.answered => {
                let text = format!("`{}` sent before the server answered `initialize` (line {init_line}); only `ping` may be", clip(method));
                sink.report(&CLIENT_BEFORE_RESULT, msg.pointer("/method"), text);
            }
            Some(Dir::S2C) if !self.initialized => {
                let allowed = if is_request { method == "ping" } else { method == "notifications/message" };
                if !allowed {
                    let what = if is_request { "request" } else { "notification" };
                    let text = format!("the server sent the {what} `{}` before the client's `notifications/initialized`; only `ping` and logging may come before it", clip(method));
                    sink.report(&SERVER_BEFORE_INITIALIZED, msg.pointer("/method"), text);
                }
            }
            _ => {}
        }
    }
}
