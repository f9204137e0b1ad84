//! One bounded table for every model of requests in flight: the engine's (a role's incoming
//! requests), the [`Observer`](crate::observe::Observer)'s (both sides of a session seen from
//! outside) and the checker's version bridge (requests it forwarded). A peer decides what goes in,
//! so the table is bounded by count and by bytes; what a full table does is the owner's choice:
//! a role refuses the request ([`Table::try_insert`]), an observer forgets the oldest entry
//! ([`Table::insert`], counted in [`Table::evicted`]).
//!
//! What an entry weighs is its key's and its value's [`Weigh`], plus, for a table that forgets
//! ([`Table::new`]), a fixed cost per entry; the keys of removed entries wait in the eviction queue
//! until it drops them, and are counted until then, so a stream of long keys inserted and removed
//! cannot grow the queue past the budget either.
//!
//! ```
//! use mcp_spec_engine::table::{Full, Table};
//!
//! let mut open: Table<String, String> = Table::new(2, 1 << 20);
//! open.insert("a".into(), "tools/call".into());
//! open.insert("b".into(), "ping".into());
//! open.insert("c".into(), "ping".into());
//! assert!(!open.contains("a"));
//! assert_eq!(open.evicted, 1);
//!
//! let mut refusing: Table<String, String> = Table::refusing(1, 1 << 20);
//! refusing.try_insert("a".into(), "ping".into()).unwrap();
//! assert_eq!(refusing.try_insert("b".into(), "ping".into()), Err(Full::Count));
//! ```

use std::borrow::Borrow;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

use serde_json::Value;

use crate::Id;

/// The bytes a key or a value holds beyond its fixed size, roughly: what a [`Table`]'s budget
/// counts.
pub trait Weigh {
    fn weight(&self) -> usize;
}

impl Weigh for () {
    fn weight(&self) -> usize {
        0
    }
}
impl Weigh for u64 {
    fn weight(&self) -> usize {
        0
    }
}
impl Weigh for String {
    fn weight(&self) -> usize {
        self.len()
    }
}
impl Weigh for Box<str> {
    fn weight(&self) -> usize {
        self.len()
    }
}
/// An integer id weighs 8 bytes, as the engine's in-flight budget has always counted it.
impl Weigh for Id {
    fn weight(&self) -> usize {
        match self {
            Id::Number(_) => 8,
            Id::String(s) => s.len(),
        }
    }
}
impl<A: Weigh, B: Weigh> Weigh for (A, B) {
    fn weight(&self) -> usize {
        self.0.weight() + self.1.weight()
    }
}
impl<T: Weigh> Weigh for Option<T> {
    fn weight(&self) -> usize {
        self.as_ref().map_or(0, Weigh::weight)
    }
}
impl<T: Weigh> Weigh for Vec<T> {
    fn weight(&self) -> usize {
        self.iter().map(|t| t.weight() + std::mem::size_of::<T>()).sum()
    }
}
impl Weigh for Value {
    fn weight(&self) -> usize {
        const NODE: usize = std::mem::size_of::<Value>();
        match self {
            Value::String(s) => s.len(),
            Value::Array(a) => a.iter().map(|v| NODE + v.weight()).sum(),
            Value::Object(o) => o.iter().map(|(k, v)| NODE + 24 + k.len() + v.weight()).sum(),
            _ => 0,
        }
    }
}

/// Why [`Table::try_insert`] refused an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// The table holds its count of entries.
    Count,
    /// The entry would take the table past its bytes.
    Bytes,
}

/// A map bounded by count and by bytes. See the [module docs](self).
pub struct Table<K, V> {
    map: HashMap<K, Entry<V>>,
    // Insertion order with each insert's number, for a table that forgets: a key removed and
    // inserted again is queued again, and only its latest place counts.
    order: VecDeque<(K, u64)>,
    forgets: bool,
    next: u64,
    cap: usize,
    budget: usize,
    bytes: usize,
    /// Entries forgotten to keep the bounds (a table that forgets).
    pub evicted: u64,
}

struct Entry<V> {
    value: V,
    // What the entry counts against the budget (its key, its value, its fixed cost).
    weight: usize,
    serial: u64,
}

impl<K: Hash + Eq + Clone + Weigh, V: Weigh> Table<K, V> {
    /// A table that forgets its oldest entry to take a new one past `cap` entries or `budget`
    /// bytes (an entry over the whole budget is forgotten at once, and counted).
    pub fn new(cap: usize, budget: usize) -> Self {
        Table { map: HashMap::new(), order: VecDeque::new(), forgets: true, next: 0, cap, budget, bytes: 0, evicted: 0 }
    }

    /// A table that refuses an entry past `cap` or `budget` ([`try_insert`](Self::try_insert)),
    /// counting only its keys' and values' weights.
    pub fn refusing(cap: usize, budget: usize) -> Self {
        Table { forgets: false, ..Table::new(cap, budget) }
    }

    fn cost(&self, key: &K, value: &V) -> usize {
        if self.forgets {
            // The key twice (the map and the queue) and the slots it takes.
            2 * key.weight() + value.weight() + 2 * std::mem::size_of::<K>() + std::mem::size_of::<Entry<V>>() + 8
        } else {
            key.weight() + value.weight()
        }
    }

    /// Inserts `value`, returning the value the key had (the entry is then the newest); a table
    /// that forgets then forgets its oldest entries until it is within its bounds again. A table that refuses takes it past
    /// them: use [`try_insert`](Self::try_insert) there.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        let old = self.remove(&key);
        let weight = self.cost(&key, &value);
        let serial = self.next;
        self.next += 1;
        self.bytes += weight;
        if self.forgets {
            self.order.push_back((key.clone(), serial));
        }
        self.map.insert(key, Entry { value, weight, serial });
        if self.forgets {
            self.forget_to_bounds();
        }
        old
    }

    /// Inserts `value` if the table has room for it (a key already in it is replaced, its room
    /// counted as free); else gives the value back with why.
    pub fn try_insert(&mut self, key: K, value: V) -> Result<Option<V>, Full> {
        let freed = self.map.get(&key).map(|e| e.weight);
        let count = self.map.len() - usize::from(freed.is_some());
        let freed = freed.unwrap_or(0);
        if count >= self.cap {
            return Err(Full::Count);
        }
        if self.bytes - freed + self.cost(&key, &value) > self.budget {
            return Err(Full::Bytes);
        }
        Ok(self.insert(key, value))
    }

    fn forget_to_bounds(&mut self) {
        while self.map.len() > self.cap || self.bytes > self.budget {
            let Some((k, serial)) = self.order.pop_front() else { break };
            self.bytes = self.bytes.saturating_sub(k.weight());
            if self.map.get(&k).is_some_and(|e| e.serial == serial) {
                self.remove(&k);
                self.evicted += 1;
            }
        }
        // Keys of removed entries linger in the queue; drop them once they dominate.
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
    }

    pub fn remove<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let (k, e) = self.map.remove_entry(key)?;
        // A forgetting table's key stays queued (one copy counted) until the queue drops it.
        let queued = if self.forgets { k.weight() } else { 0 };
        self.bytes = self.bytes.saturating_sub(e.weight - queued);
        if self.map.is_empty() {
            self.order.clear();
            self.bytes = 0;
        }
        Some(e.value)
    }

    pub fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.map.get(key).map(|e| &e.value)
    }

    /// The value to change in place; its weight is the one it was inserted with.
    pub fn get_mut<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.map.get_mut(key).map(|e| &mut e.value)
    }

    pub fn contains<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.map.contains_key(key)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// What the table holds, as its budget counts it.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.order.clear();
        self.bytes = 0;
    }

    /// The entries in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.map.iter().map(|(k, e)| (k, &e.value))
    }

    /// The entries, oldest first (a table that forgets; a refusing one keeps no order and gives
    /// them as [`iter`](Self::iter) does).
    pub fn iter_in_order(&self) -> Box<dyn Iterator<Item = (&K, &V)> + '_> {
        if !self.forgets {
            return Box::new(self.iter());
        }
        Box::new(self.order.iter().filter_map(|(k, serial)| self.map.get_key_value(k).filter(|(_, e)| e.serial == *serial).map(|(k, e)| (k, &e.value))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forgetting_table_keeps_its_count_and_bytes_oldest_out_first() {
        let mut t: Table<String, String> = Table::new(3, 4096);
        for n in 0..10 {
            t.insert(format!("k{n}"), "v".repeat(10));
        }
        assert_eq!((t.len(), t.evicted), (3, 7));
        assert_eq!(t.iter_in_order().count(), 3);
        assert!(t.contains("k9") && !t.contains("k6"));
        // One entry over the whole budget is forgotten at once.
        t.insert("big".into(), "x".repeat(8192));
        assert!(!t.contains("big"));
        assert!(t.bytes() <= 4096);
        // Long keys inserted and removed do not grow the queue past the budget.
        let mut t: Table<String, ()> = Table::new(4, 1 << 16);
        for n in 0..1000 {
            let key = format!("{n}{}", "k".repeat(4000));
            t.insert(key.clone(), ());
            t.remove(&key);
            t.insert(format!("short{n}"), ());
            assert!(t.bytes() <= 1 << 16, "{} bytes after {n}", t.bytes());
        }
        println!("forgetting table: {} entries, {} bytes, {} evicted", t.len(), t.bytes(), t.evicted);
    }

    #[test]
    fn a_refusing_table_refuses_by_count_and_by_bytes() {
        let mut t: Table<Id, String> = Table::refusing(2, 20);
        assert_eq!(t.try_insert(Id::Number(1), "abc".into()), Ok(None));
        assert_eq!(t.bytes(), 11);
        assert_eq!(t.try_insert(Id::String("x".into()), "y".repeat(9)), Err(Full::Bytes));
        assert_eq!(t.try_insert(Id::String("x".into()), "y".repeat(8)), Ok(None));
        assert_eq!(t.try_insert(Id::Number(3), String::new()), Err(Full::Count));
        // Replacing a key frees its room first.
        assert_eq!(t.try_insert(Id::Number(1), "abcd".into()), Err(Full::Bytes));
        assert_eq!(t.try_insert(Id::Number(1), "ab".into()), Ok(Some("abc".into())));
        assert_eq!(t.remove(&Id::Number(1)), Some("ab".into()));
        assert_eq!(t.bytes(), 9);
        assert_eq!(t.evicted, 0);
    }
}
