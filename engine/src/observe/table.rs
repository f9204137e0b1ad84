// The observer's tables: keys that stay small whatever a peer writes as an id or a token, and a
// map that keeps at most a count of entries and a byte budget, forgetting the oldest first.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::sync::OnceLock;

use serde_json::Value;

/// Strings up to this many bytes are keys as written; longer ones as a digest.
const INLINE: usize = 128;

/// A request id or a progress token as a map key. A long string is kept as a 64-bit keyed hash
/// (std's SipHash, with a key random per process, so a peer cannot aim at a collision) and its
/// length: a table of hostile 1 MB ids holds a few bytes per id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Int(i64),
    Short(Box<str>),
    Long { hash: u64, len: usize },
    /// Any other number, by its text (ids must be integers, but an answer can still match it).
    Number(Box<str>),
}

fn hash_key() -> &'static RandomState {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    KEY.get_or_init(RandomState::new)
}

impl Key {
    /// `None` for what is no id (`null`, an object, ...).
    pub(crate) fn of(v: &Value) -> Option<Key> {
        match v {
            Value::String(s) if s.len() <= INLINE => Some(Key::Short(s.as_str().into())),
            Value::String(s) => Some(Key::Long { hash: hash_key().hash_one(s), len: s.len() }),
            Value::Number(n) => Some(match n.as_i64() {
                Some(i) => Key::Int(i),
                None => Key::Number(n.to_string().into()),
            }),
            _ => None,
        }
    }

    pub(crate) fn weight(&self) -> usize {
        match self {
            Key::Short(s) | Key::Number(s) => s.len(),
            Key::Int(_) | Key::Long { .. } => 0,
        }
    }
}

/// A map from [`Key`]s bounded by count and by bytes (the keys' and the values' weight, as
/// given with each insert, plus a fixed cost per entry), forgetting the oldest entry first.
pub(crate) struct Table<V> {
    map: HashMap<Key, Entry<V>>,
    // Insertion order with each insert's number: a key removed and inserted again is queued
    // again, and only its latest place counts.
    order: VecDeque<(Key, u64)>,
    next: u64,
    cap: usize,
    budget: usize,
    bytes: usize,
    pub evicted: u64,
}

struct Entry<V> {
    value: V,
    weight: usize,
    serial: u64,
}

fn entry_cost<V>() -> usize {
    2 * std::mem::size_of::<Key>() + std::mem::size_of::<Entry<V>>() + 8
}

impl<V> Table<V> {
    pub fn new(cap: usize, budget: usize) -> Self {
        Table { map: HashMap::new(), order: VecDeque::new(), next: 0, cap, budget, bytes: 0, evicted: 0 }
    }

    /// Inserts `value` weighing `weight` bytes; returns the value the key had.
    pub fn insert(&mut self, key: Key, value: V, weight: usize) -> Option<V> {
        let serial = self.next;
        self.next += 1;
        let old = self.remove(&key);
        // Queued keys are counted until they leave the queue, removed or not.
        self.bytes += weight + 2 * key.weight() + entry_cost::<V>();
        self.order.push_back((key.clone(), serial));
        self.map.insert(key, Entry { value, weight, serial });
        while self.map.len() > self.cap || self.bytes > self.budget {
            let Some((k, serial)) = self.order.pop_front() else { break };
            self.bytes = self.bytes.saturating_sub(k.weight());
            if self.map.get(&k).is_some_and(|e| e.serial == serial) {
                self.remove(&k);
                self.evicted += 1;
            }
        }
        if self.order.len() > 2 * self.cap.max(self.map.len()).max(16) {
            let (map, bytes) = (&self.map, &mut self.bytes);
            self.order.retain(|(k, serial)| {
                let keep = map.get(k).is_some_and(|e| e.serial == *serial);
                if !keep {
                    *bytes = bytes.saturating_sub(k.weight());
                }
                keep
            });
        }
        old
    }

    pub fn remove(&mut self, key: &Key) -> Option<V> {
        let e = self.map.remove(key)?;
        // The key stays in `order` (its bytes counted) until it leaves the queue.
        self.bytes = self.bytes.saturating_sub(key.weight() + e.weight + entry_cost::<V>());
        Some(e.value)
    }

    pub fn get(&self, key: &Key) -> Option<&V> {
        self.map.get(key).map(|e| &e.value)
    }

    pub fn get_mut(&mut self, key: &Key) -> Option<&mut V> {
        self.map.get_mut(key).map(|e| &mut e.value)
    }

    pub fn contains(&self, key: &Key) -> bool {
        self.map.contains_key(key)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// The entries, oldest first.
    pub fn iter_in_order(&self) -> impl Iterator<Item = &V> {
        self.order.iter().filter_map(|(k, serial)| self.map.get(k).filter(|e| e.serial == *serial).map(|e| &e.value))
    }
}
