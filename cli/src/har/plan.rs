//! The first pass over a HAR: which entries are MCP ([`super::classify`]), and the two orders the
//! second pass checks them in, keeping a few bytes per MCP entry and none of its bodies: time
//! order for the transport rules (all sessions together), and session by session, each in time
//! order, for the checker. It also notes each `notifications/cancelled` the client sent (its
//! session, time and request id, a few bytes each): an entry is a whole exchange, so the entry of a
//! cancel sent while an SSE stream was open comes after the stream's in time order, and the
//! transport rules must learn of it from here before they end that stream ([`Plan::cancelled`]).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};


use super::classify::{class, Class};
use super::{Body, Entry, HarStats};
use crate::vocab::IdKey;

/// Sessions checked apart in one HAR; the entries of any later session join the entries without one.
pub(crate) const SESSIONS_MAX: usize = 256;

/// What the first pass keeps of an MCP entry (or of one that may be: [`Class::JsonRpc`]).
#[derive(Debug, Clone, Copy)]
struct Slot {
    index: u32,
    /// `startedDateTime`, in nanoseconds since 1970 (`i64::MIN`: not readable).
    started: i64,
    /// The session, as its number in the order sessions were first seen (0: no session id).
    session: u32,
    /// The endpoint, for [`Class::JsonRpc`] entries (its number in the order first seen).
    endpoint: u32,
    mcp: bool,
}

/// The first pass's result, fed entry by entry.
#[derive(Default)]
pub(crate) struct Planner {
    slots: Vec<Slot>,
    sessions: HashMap<u64, u32>,
    endpoints: HashMap<u64, u32>,
    /// Per endpoint number: whether an MCP entry went to it.
    mcp_endpoints: Vec<bool>,
    cancels: Vec<Cancel>,
}

/// A request the client cancelled: the session (a digest of the request's `Mcp-Session-Id`, 0
/// without one), when the cancel's entry started (nanoseconds since 1970) and a digest of the id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cancel {
    session: u64,
    started: i64,
    id: u64,
}

/// The order in which the second pass checks the MCP entries (as positions in [`Plan::indexes`]).
/// An order that is the file's (entries in time order; one session at a time) is not stored.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// The MCP entries' indexes in the file, ascending.
    pub indexes: Vec<u32>,
    /// Time order, for the transport rules (`None`: file order).
    by_time: Option<Vec<u32>>,
    /// Session by session, each in time order, for the checker (`None`: time order).
    by_session: Option<Vec<u32>>,
    /// Where in the session order each session after the first starts.
    pub session_starts: Vec<usize>,
    /// The client's cancels, sorted.
    cancels: Vec<Cancel>,
}

impl Plan {
    /// The `k`th entry in time order.
    pub(crate) fn by_time(&self, k: usize) -> Option<u32> {
        match &self.by_time {
            Some(v) => v.get(k).copied(),
            None => (k < self.indexes.len()).then_some(k as u32),
        }
    }

    /// Digests ([`id_digest`]) of the requests the client cancelled in `e`'s session while `e` was
    /// open: in a cancel whose entry started from `e`'s start to before its end.
    pub(crate) fn cancelled(&self, e: &Entry) -> Vec<u64> {
        let (Some(started), Some(ended)) = (e.started, e.ended) else { return Vec::new() };
        let session = session_digest(e);
        let at = |t: i128| Cancel { session, started: clamp(t), id: 0 };
        let (from, to) = (self.cancels.partition_point(|c| *c < at(started)), self.cancels.partition_point(|c| *c < at(ended)));
        self.cancels[from..to.max(from)].iter().map(|c| c.id).collect()
    }

    /// The `k`th entry in session order.
    pub(crate) fn by_session(&self, k: usize) -> Option<u32> {
        match &self.by_session {
            Some(v) => v.get(k).copied(),
            None => self.by_time(k),
        }
    }
}

pub(crate) fn digest(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// A request id as [`Plan::cancelled`] gives it.
pub(crate) fn id_digest(id: &IdKey) -> u64 {
    let mut h = DefaultHasher::new();
    id.hash(&mut h);
    h.finish()
}

/// The session of an entry as the transport rules match a cancel to it: the request's `Mcp-Session-Id`.
fn session_digest(e: &Entry) -> u64 {
    e.req.session_id.as_deref().map_or(0, digest)
}

fn clamp(t: i128) -> i64 {
    t.clamp(i128::from(i64::MIN + 1), i128::from(i64::MAX)) as i64
}

/// The request ids a client's `notifications/cancelled` (alone or in a batch) in `body` names.
fn cancelled_ids(body: &Body) -> Vec<IdKey> {
    let Body::Text { text, .. } = body else { return Vec::new() };
    if !text.contains("notifications/cancelled") {
        return Vec::new();
    }
    let Ok(doc) = mcp_spec_types::tree::Doc::parse(text) else { return Vec::new() };
    let v = doc.root();
    let items: Vec<mcp_spec_types::tree::Node> = match v.as_array() {
        Some(a) => a.iter().collect(),
        None => vec![v],
    };
    items.into_iter().filter(|m| m.get("method").and_then(|m| m.as_str()) == Some("notifications/cancelled")).filter_map(|m| m.pointer("/params/requestId").and_then(IdKey::of)).collect()
}

fn number(map: &mut HashMap<u64, u32>, key: u64) -> u32 {
    let n = map.len() as u32 + 1;
    *map.entry(key).or_insert(n)
}

impl Planner {
    /// Takes entry `e` (read in file order).
    pub(crate) fn take(&mut self, e: &Entry, stats: &mut HarStats) {
        stats.entries += 1;
        let c = class(e);
        if c == Class::NotMcp {
            stats.not_mcp += 1;
            return;
        }
        // Sessions and endpoints by digest: a file of a million session ids costs a few bytes each.
        let session = e.at.session_id.as_deref().map_or(0, |s| number(&mut self.sessions, digest(s)));
        let endpoint = number(&mut self.endpoints, e.endpoint);
        if self.mcp_endpoints.len() <= endpoint as usize {
            self.mcp_endpoints.resize(endpoint as usize + 1, false);
        }
        let mcp = c == Class::Mcp;
        self.mcp_endpoints[endpoint as usize] |= mcp;
        let started = e.started.map_or(i64::MIN, clamp);
        if started != i64::MIN {
            let session = session_digest(e);
            self.cancels.extend(cancelled_ids(&e.request).iter().map(|id| Cancel { session, started, id: id_digest(id) }));
        }
        self.slots.push(Slot { index: e.at.x as u32, started, session, endpoint, mcp });
    }

    /// The plan: JSON-RPC entries at an endpoint MCP used join the MCP entries, the others are
    /// counted as not MCP; then the orders.
    pub(crate) fn finish(mut self, stats: &mut HarStats) -> Plan {
        let endpoints = std::mem::take(&mut self.mcp_endpoints);
        let before = self.slots.len();
        self.slots.retain(|s| s.mcp || endpoints[s.endpoint as usize]);
        stats.not_mcp += before - self.slots.len();
        let slots = self.slots;
        let mut cancels = self.cancels;
        cancels.sort_unstable();
        // An entry with no readable time keeps its predecessor's, so it stays after it; equal times keep file order.
        let times = || {
            let mut last = i64::MIN;
            slots.iter().map(move |s| {
                let t = if s.started == i64::MIN { last } else { s.started };
                let earlier = t < last;
                last = last.max(t);
                (t, earlier)
            })
        };
        stats.reordered = times().any(|(_, earlier)| earlier);
        let by_time = stats.reordered.then(|| {
            let mut v: Vec<(i64, u32)> = times().enumerate().map(|(pos, (t, _))| (t, pos as u32)).collect();
            v.sort_by_key(|&(t, pos)| (t, pos));
            v.into_iter().map(|(_, pos)| pos).collect::<Vec<u32>>()
        });
        let order = |k: usize| by_time.as_ref().map_or(k as u32, |v| v[k]);
        let (by_session, session_starts) = by_session(&slots, (0..slots.len()).map(order));
        let by_session = (!session_starts.is_empty()).then_some(by_session);
        Plan { indexes: slots.iter().map(|s| s.index).collect(), by_time, by_session, session_starts, cancels }
    }
}

/// The slots (positions, in time order) grouped by session, the groups in the order their first
/// entry comes; entries without a session id are one group of their own. Returns the groups one
/// after another and where each after the first starts.
fn by_session(slots: &[Slot], by_time: impl Iterator<Item = u32>) -> (Vec<u32>, Vec<usize>) {
    let mut keys: Vec<u32> = Vec::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for pos in by_time {
        let mut key = slots[pos as usize].session;
        if key != 0 && !keys.contains(&key) && keys.len() >= SESSIONS_MAX {
            key = 0;
        }
        let g = match keys.iter().position(|k| *k == key) {
            Some(g) => g,
            None => {
                keys.push(key);
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        groups[g].push(pos);
    }
    if groups.len() == 1 {
        // One session (or none named): the session order is the time order, not stored.
        return (Vec::new(), Vec::new());
    }
    let mut starts = Vec::new();
    let mut all = Vec::new();
    for (n, g) in groups.into_iter().enumerate() {
        if n > 0 {
            starts.push(all.len());
        }
        all.extend(g);
    }
    (all, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(index: u32, session: u32) -> Slot {
        Slot { index, started: 0, session, endpoint: 0, mcp: true }
    }

    #[test]
    fn entries_are_grouped_by_session_and_the_number_of_groups_is_bounded() {
        // No id, A, B, A: three groups in the order they start, A's entries together.
        let slots = [slot(0, 0), slot(1, 1), slot(2, 2), slot(3, 1)];
        assert_eq!(by_session(&slots, 0..4), (vec![0, 1, 3, 2], vec![1, 3]));
        assert_eq!(by_session(&slots[1..2], 0..1), (vec![], vec![]));
        // Past the limit, later sessions join the entries without an id.
        let n = SESSIONS_MAX as u32 + 10;
        let slots: Vec<Slot> = (0..n).map(|i| slot(i, i + 1)).collect();
        let (all, starts) = by_session(&slots, 0..n);
        assert_eq!(starts.len(), SESSIONS_MAX);
        assert_eq!(all[starts[SESSIONS_MAX - 1]..], (SESSIONS_MAX as u32..n).collect::<Vec<_>>()[..]);
    }
}
