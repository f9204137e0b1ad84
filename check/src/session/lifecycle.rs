//! The lifecycle: `initialize` first, and only pings (and logging) until both sides are ready.
//! The engine's observer follows it ([`Observation`]s of the lifecycle); this maps them to rules.

use mcp_spec_engine::observe::Observation;

use super::rules::{CLIENT_BEFORE_RESULT, INITIALIZED_ORDER, INITIALIZE_FIRST, SERVER_BEFORE_INITIALIZED};
use super::{Msg, Sink};
use crate::bounded::clip;

/// The lifecycle rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::Core;
    type State = ();
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        let _ = (stream, cx);
        report(msg, sink)
    }
}

pub(crate) fn report(msg: &Msg, sink: &mut Sink) {
    // Versions without `initialize` (2026-07-28) have no lifecycle to follow.
    if !msg.version_has("initialize") {
        return;
    }
    let method = clip(msg.method.unwrap_or_default());
    for o in msg.observations {
        let (rule, text) = match *o {
            Observation::InitializeNotFirst { first_at } => (&INITIALIZE_FIRST, format!("`initialize` is not the first message of the session: line {first_at} came before it")),
            Observation::InitializedBeforeAnswer { initialize_at } => (&INITIALIZED_ORDER, format!("`notifications/initialized` before the server answered `initialize` (line {initialize_at})")),
            Observation::RequestBeforeInitialized { initialize_at } => (&CLIENT_BEFORE_RESULT, format!("`{method}` sent before the server answered `initialize` (line {initialize_at}); only `ping` may be")),
            Observation::ServerBeforeInitialized { request } => {
                let what = if request { "request" } else { "notification" };
                (&SERVER_BEFORE_INITIALIZED, format!("the server sent the {what} `{method}` before the client's `notifications/initialized`; only `ping` and logging may come before it"))
            }
            _ => continue,
        };
        sink.report(rule, msg.pointer("/method"), text);
    }
}
