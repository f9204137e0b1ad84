//! Progress and cancellation: progress only for tokens of requests still in flight, with
//! `progress` increasing; cancellation only of requests issued the same way, never `initialize`.
//!
//! One notion of in flight, the engine's observer's: a request leaves it once, answered or
//! cancelled, and its token with it. This maps its observations to rules: progress after the
//! cancellation is `session.progress.cancelled`, as the late answer is `stream.response-unmatched`
//! (the checker's), both read off the same entry.

use mcp_spec_engine::observe::Observation;

use super::rules::{CANCEL_INITIALIZE, CANCEL_UNKNOWN, PROGRESS_CANCELLED, PROGRESS_INCREASING, PROGRESS_TOKEN};
use super::{Msg, Sink};
use crate::vocab::dir_name;
use crate::bounded::shown_node;

/// The progress rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::Core;
    type State = ();
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        let _ = stream;
        report(msg, cx.whole, sink)
    }
}

pub(crate) fn report(msg: &Msg, whole: bool, sink: &mut Sink) {
    let token = || msg.param("progressToken").map(shown_node).unwrap_or_default();
    let request_id = || msg.param("requestId").map(shown_node).unwrap_or_default();
    for o in msg.observations {
        let (rule, pointer, text) = match *o {
            Observation::ProgressAfterCancel { cancelled_at, .. } => (&PROGRESS_CANCELLED, "/params/progressToken", format!("progress for the token {} of a request cancelled on line {cancelled_at}", token())),
            Observation::ProgressAfterAnswer { request_at, answered_at } => {
                (&PROGRESS_TOKEN, "/params/progressToken", format!("progress for the token {} of the request of line {request_at}, answered on line {answered_at}", token()))
            }
            // A token forgotten by a full table is not a token never given; nor is one given
            // before a capture that starts mid-session.
            Observation::ProgressUnknownToken { forgotten: false } if whole => (&PROGRESS_TOKEN, "/params/progressToken", format!("progress for the token {}, which no request in flight carried", token())),
            Observation::ProgressNotIncreasing { last, last_at, progress } => (&PROGRESS_INCREASING, "/params/progress", format!("`progress` is {progress}, not more than the {last} of line {last_at}")),
            Observation::CancelInitialize => (&CANCEL_INITIALIZE, "/params/requestId", format!("request {} is the `initialize` request, which the client must not cancel", request_id())),
            Observation::CancelUnknown { forgotten: false } if whole => {
                let way = msg.dir.map(|d| format!(" {}", dir_name(d))).unwrap_or_default();
                (&CANCEL_UNKNOWN, "/params/requestId", format!("no{way} request with id {} was issued in this session", request_id()))
            }
            _ => continue,
        };
        sink.report(rule, msg.pointer(pointer), text);
    }
}
