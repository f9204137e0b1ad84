//! Exchanges of a stateless version (2026-07-28 on, no `Mcp-Session-Id`): every client numbers its
//! own requests, so two clients' POSTs may both carry id 1. Each such exchange gets a model of
//! requests in flight (ids, answers, progress, cancellation) and a version tracker of its own,
//! swapped in while its messages are checked and ended with the exchange: its request and the
//! answers on its response are paired with each other only. What spans exchanges stays the
//! stream's: listed tools, tasks, cursors, the server's capabilities, and the transport's
//! `x-mcp-header` marks.

use std::collections::BTreeMap;

use mcp_spec_engine::observe::{Direction, Observer};
use mcp_spec_types::negotiate::VersionTracker;
use mcp_spec_types::tree::Node;

use super::{Checker, Leg};
use crate::session::{StreamEnd, Waiting, UNANSWERED_LISTED};
use crate::transport::Part;

/// One exchange's own state (or, while an exchange's is swapped in, the stream's).
struct Own {
    observer: Observer<Waiting>,
    versions: VersionTracker,
}

/// The open stateless exchanges' own states.
#[derive(Default)]
pub(super) struct Scopes {
    /// By leg (a bridge recording numbers each leg's exchanges apart) and exchange number; the one
    /// swapped in is not here. Past `Limits::open_exchanges` the
    /// oldest is ended early (the transport rules forget it at the same bound).
    open: BTreeMap<Key, Own>,
    /// The exchange swapped in, and the stream's own state meanwhile.
    current: Option<(Key, Own)>,
    /// The requests the ended exchanges left unanswered, for the stream's end.
    ended: StreamEnd,
}

/// An exchange: its leg (0: none), its number.
type Key = (u8, u64);

/// What a message restores once checked: the session's "whole" verdict, when it was set aside.
pub(super) type Restore = Option<Option<bool>>;

impl Checker {
    /// Before checking a message of exchange `x` (`None`: no HTTP context) that travelled in `part`:
    /// swaps in the exchange's own state when it is a stateless one, else the stream's.
    pub(super) fn scope_for(&mut self, x: Option<u64>, part: Part, msg: Node<'_>) -> Restore {
        let Some(x) = x.filter(|&x| self.stream.transport.stateless(x)) else {
            self.leave_exchange();
            return None;
        };
        // A cancellation POSTed on its own names a request of another exchange: it is checked
        // with that one. When none in flight has the id, the request may have ended already (an
        // ended exchange's ids are not kept), so an unknown id is not reported.
        let cancelled = (part == Part::Request && msg.get("method").and_then(Node::as_str) == Some("notifications/cancelled")).then(|| msg.pointer("/params/requestId")).flatten();
        let Some(id) = cancelled.map(|n| n.to_value()) else {
            self.enter_exchange(x);
            return None;
        };
        let in_flight = |o: &Own| o.observer.is_in_flight(Direction::ClientToServer, &id);
        let leg = self.key(x).0;
        let current = self.scopes.current.as_ref().filter(|_| self.session.in_flight(&id)).map(|(c, _)| *c);
        let other = || self.scopes.open.iter().rev().find(|(k, o)| k.0 == leg && in_flight(o)).map(|(k, _)| *k);
        match current.filter(|k| k.0 == leg).or_else(other) {
            Some((_, y)) => {
                self.enter_exchange(y);
                None
            }
            None => {
                self.enter_exchange(x);
                Some(self.session.set_whole(Some(false)))
            }
        }
    }

    /// After the message: what [`Checker::scope_for`] set aside.
    pub(super) fn restore(&mut self, r: Restore) {
        if let Some(whole) = r {
            self.session.set_whole(whole);
        }
    }

    /// The messages checked from here on (through [`Checker::check_wrapped`]) are those of exchange
    /// `x` of a stateless version, checked on their own until [`Checker::end_exchange`]: for a
    /// caller that reads exchanges whole and feeds no HTTP context (a HAR's entries).
    pub fn begin_exchange(&mut self, x: u64) {
        self.enter_exchange(x);
    }

    /// Exchange `x` of the leg being checked.
    fn key(&self, x: u64) -> Key {
        let leg = match self.leg {
            None => 0,
            Some(Leg::Client) => 1,
            Some(Leg::Server) => 2,
        };
        (leg, x)
    }

    fn enter_exchange(&mut self, x: u64) {
        let key = self.key(x);
        if self.scopes.current.as_ref().is_some_and(|(c, _)| *c == key) {
            return;
        }
        self.leave_exchange();
        let mut own = match self.scopes.open.remove(&key) {
            Some(own) => own,
            None => {
                if self.scopes.open.len() + 1 >= self.limits.open_exchanges.max(1) {
                    if let Some((_, oldest)) = self.scopes.open.pop_first() {
                        self.session.end_observer(oldest.observer, &mut self.scopes.ended);
                    }
                }
                Own { observer: self.session.exchange_observer(), versions: VersionTracker::new() }
            }
        };
        self.session.swap_observer(&mut own.observer);
        std::mem::swap(&mut self.stream.versions, &mut own.versions);
        self.scopes.current = Some((key, own));
    }

    /// Swaps the stream's own state back in.
    pub(super) fn leave_exchange(&mut self) {
        let Some((key, mut own)) = self.scopes.current.take() else { return };
        self.session.swap_observer(&mut own.observer);
        std::mem::swap(&mut self.stream.versions, &mut own.versions);
        self.scopes.open.insert(key, own);
    }

    /// Exchange `x` ended: its own state goes, its requests still waiting kept for the stream's end.
    pub fn end_exchange(&mut self, x: u64) {
        let key = self.key(x);
        if self.scopes.current.as_ref().is_some_and(|(c, _)| *c == key) {
            self.leave_exchange();
        }
        if let Some(own) = self.scopes.open.remove(&key) {
            self.session.end_observer(own.observer, &mut self.scopes.ended);
        }
    }

    /// Ends every exchange's own state, and hands over what they left unanswered.
    pub(super) fn end_exchanges(&mut self) -> StreamEnd {
        self.leave_exchange();
        for (_, own) in std::mem::take(&mut self.scopes.open) {
            self.session.end_observer(own.observer, &mut self.scopes.ended);
        }
        std::mem::take(&mut self.scopes.ended)
    }
}

/// `more` (what the exchanges left unanswered) added to a stream's end.
pub(super) fn merge(end: &mut StreamEnd, more: StreamEnd) {
    end.unanswered_total += more.unanswered_total;
    let room = UNANSWERED_LISTED.saturating_sub(end.unanswered.len());
    end.unanswered.extend(more.unanswered.into_iter().take(room));
}
