//! The streams of checks by `Mcp-Session-Id`: at most [`Limits::sessions`], the least recently
//! used dropped first, and their weight bounded per session and in total.
//!
//! A request without a session id is checked on a stream of its own exchange
//! ([`Sessions::fresh`]): requests of different clients are independent (2026-07-28's carry their
//! version in `_meta`; a legacy server may assign no ids), so one client's ids are never taken for
//! another's reused ones. What a stream learns across exchanges is then lost for them: the tools'
//! `x-mcp-header` marks from a `tools/list` (so `Mcp-Param-*` headers go unchecked) and their
//! schemas. An `initialize`'s stream becomes the session its answer's `Mcp-Session-Id` names
//! ([`Sessions::adopt`]), so the session's later messages are checked after their `initialize`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::Limits;
use crate::inspect::{Checks, Stream};

/// One stream, locked while a message of it is checked.
pub type StreamRef = Arc<Mutex<Box<dyn Stream>>>;

pub fn lock(s: &StreamRef) -> std::sync::MutexGuard<'_, Box<dyn Stream>> {
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Entry {
    stream: StreamRef,
    tick: u64,
    weight: usize,
}

struct Table {
    by_id: HashMap<String, Entry>,
    /// Last use → session id: the first is the least recently used.
    order: BTreeMap<u64, String>,
    tick: u64,
    total: usize,
}

/// What a call to the table dropped, for the counters.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Dropped {
    /// Sessions dropped (least recently used) to stay within the count or the total bytes.
    pub evicted: u64,
    /// Sessions whose stream was reset for passing its own bytes.
    pub reset: u64,
}

pub struct Sessions {
    checks: Arc<dyn Checks>,
    limits: Limits,
    table: Mutex<Table>,
}

impl Sessions {
    pub fn new(checks: Arc<dyn Checks>, limits: Limits) -> Sessions {
        let table = Table { by_id: HashMap::new(), order: BTreeMap::new(), tick: 0, total: 0 };
        Sessions { checks, limits, table: Mutex::new(table) }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A stream that has seen nothing; `version`: the one its exchange's request names.
    pub fn new_stream(&self, version: Option<&str>) -> Box<dyn Stream> {
        self.checks.stream(&self.limits, version)
    }

    /// A stream in no table, for one exchange without a session (or an `initialize`'s).
    pub fn fresh(&self, version: Option<&str>) -> StreamRef {
        Arc::new(Mutex::new(self.new_stream(version)))
    }

    /// Session `id`'s stream, made if it is new (a session whose `initialize` this layer did not
    /// see, or dropped: `version` is the one its request's header names, which it is checked as).
    pub fn session(&self, id: &str, version: Option<&str>) -> (StreamRef, Dropped) {
        let mut t = self.table();
        if let Some(s) = t.touch(id) {
            return (s, Dropped::default());
        }
        let stream = self.fresh(version);
        let dropped = self.insert(&mut t, id, stream.clone());
        (stream, dropped)
    }

    /// Names `stream` session `id` (the answer to an `initialize` assigned it).
    pub fn adopt(&self, id: &str, stream: StreamRef) -> Dropped {
        let mut t = self.table();
        t.remove(id);
        self.insert(&mut t, id, stream)
    }

    /// Session `id` is over (a DELETE was accepted).
    pub fn end(&self, id: &str) {
        self.table().remove(id);
    }

    /// Sessions kept now, and the bytes their streams held when last weighed.
    pub fn usage(&self) -> (usize, usize) {
        let t = self.table();
        (t.by_id.len(), t.total)
    }

    /// Weighs session `id`'s stream after a check: one past [`Limits::session_bytes`] is reset
    /// (when a fresh one weighs less), and sessions are dropped, least recently used first, while
    /// all pass [`Limits::total_bytes`].
    pub fn weigh(&self, id: &str, stream: &StreamRef) -> Dropped {
        let mut weight = lock(stream).weight();
        let mut dropped = Dropped::default();
        if weight > self.limits.session_bytes {
            let fresh = self.new_stream(None);
            if fresh.weight() < weight {
                weight = fresh.weight();
                *lock(stream) = fresh;
                dropped.reset += 1;
            }
        }
        let mut t = self.table();
        let Some(e) = t.by_id.get_mut(id) else { return dropped };
        let before = std::mem::replace(&mut e.weight, weight);
        t.total = t.total - before + weight;
        while t.total > self.limits.total_bytes {
            // The session just checked is the one in use: the others go first.
            let Some(oldest) = t.order.values().find(|k| *k != id).cloned() else { break };
            t.remove(&oldest);
            dropped.evicted += 1;
        }
        dropped
    }

    fn insert(&self, t: &mut Table, id: &str, stream: StreamRef) -> Dropped {
        let mut dropped = Dropped::default();
        while t.by_id.len() >= self.limits.sessions.max(1) {
            let Some((_, oldest)) = t.order.pop_first() else { break };
            t.forget(&oldest);
            dropped.evicted += 1;
        }
        t.tick += 1;
        let tick = t.tick;
        t.order.insert(tick, id.to_string());
        t.by_id.insert(id.to_string(), Entry { stream, tick, weight: 0 });
        dropped
    }
}

impl Table {
    fn touch(&mut self, id: &str) -> Option<StreamRef> {
        self.tick += 1;
        let tick = self.tick;
        let e = self.by_id.get_mut(id)?;
        let old = std::mem::replace(&mut e.tick, tick);
        let stream = e.stream.clone();
        if let Some(name) = self.order.remove(&old) {
            self.order.insert(tick, name);
        }
        Some(stream)
    }

    fn remove(&mut self, id: &str) {
        if let Some(e) = self.by_id.get(id) {
            let tick = e.tick;
            self.order.remove(&tick);
            self.forget(id);
        }
    }

    /// Drops `id`'s entry (its place in `order` is already gone).
    fn forget(&mut self, id: &str) {
        if let Some(e) = self.by_id.remove(id) {
            self.total -= e.weight;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::{Direction, Event, Finding};
    use mcp_spec_types::tree::Node;

    /// A stream that weighs what it was fed.
    struct Heavy(usize);

    impl Stream for Heavy {
        fn message(&mut self, _: u64, _: Direction, body: Node<'_>, _: Option<Event<'_>>) -> Vec<Finding> {
            self.0 += body.doc().text().len();
            Vec::new()
        }
        fn weight(&self) -> usize {
            self.0
        }
    }

    struct MakeHeavy;

    impl Checks for MakeHeavy {
        fn stream(&self, _: &Limits, _: Option<&str>) -> Box<dyn Stream> {
            Box::new(Heavy(0))
        }
    }

    fn feed(s: &StreamRef, bytes: usize) {
        let text = format!("\"{}\"", "x".repeat(bytes - 2));
        let doc = mcp_spec_types::tree::Doc::parse(&text).unwrap();
        lock(s).message(0, Direction::ClientToServer, doc.root(), None);
    }

    #[test]
    fn many_sessions_keep_the_most_recent() {
        let limits = Limits { sessions: 8, ..Limits::default() };
        let t = Sessions::new(Arc::new(MakeHeavy), limits);
        let mut evicted = 0;
        for i in 0..1000 {
            let (_, d) = t.session(&format!("s{i}"), None);
            evicted += d.evicted;
            // s0 stays in use, so it is never the least recently used.
            t.session("s0", None);
        }
        println!("1000 sessions through a table of 8: {evicted} evicted");
        assert_eq!(t.usage().0, 8);
        assert_eq!(evicted, 1000 - 8);
        assert!(t.table().by_id.contains_key("s0"));
        assert!(t.table().by_id.contains_key("s999"));
        assert!(!t.table().by_id.contains_key("s500"));
    }

    #[test]
    fn bytes_are_bounded_per_session_and_in_total() {
        let limits = Limits { sessions: 1000, session_bytes: 1000, total_bytes: 5000, ..Limits::default() };
        let t = Sessions::new(Arc::new(MakeHeavy), limits);
        let (mut resets, mut evicted) = (0, 0);
        for i in 0..100 {
            let id = format!("s{i}");
            let (s, _) = t.session(&id, None);
            feed(&s, 900);
            let d = t.weigh(&id, &s);
            evicted += d.evicted;
            assert!(t.usage().1 <= 5000, "total {} after session {i}", t.usage().1);
        }
        let (s, _) = t.session("s99", None);
        feed(&s, 200);
        resets += t.weigh("s99", &s).reset;
        println!("100 sessions of 900 bytes under a total of 5000: {evicted} evicted, {resets} reset; kept {:?}", t.usage());
        assert_eq!(resets, 1);
        assert_eq!(evicted, 100 - 5);
        assert_eq!(t.usage(), (5, 4 * 900));
    }

    #[test]
    fn an_initialize_stream_is_adopted_and_a_session_ends() {
        let t = Sessions::new(Arc::new(MakeHeavy), Limits::default());
        let s = t.fresh(None);
        feed(&s, 10);
        t.adopt("abc", s.clone());
        assert!(Arc::ptr_eq(&t.session("abc", None).0, &s));
        t.end("abc");
        assert!(!Arc::ptr_eq(&t.session("abc", None).0, &s));
    }
}
