//! The message counts behind `--summary`: messages per (leg, direction, kind, method), over every stream.

use std::collections::{BTreeMap, HashMap};

/// How many distinct (direction, kind, method) rows `--summary` counts; the rest are `(other)`.
pub const SUMMARY_METHODS_CAP: usize = 1024;

/// One row of the message counts: leg (`client`/`server` in a bridge recording, else empty),
/// direction, kind, method.
pub type MessageKey = (&'static str, &'static str, &'static str, String);

/// The message counts behind `--summary`: per (leg, direction, kind), a hash map of methods,
/// counted without building a key per message (a `BTreeMap` keyed by the four, with a `String`
/// made per lookup, took a tenth of `check`'s time on the corpora). Sorted when read.
#[derive(Default)]
pub(super) struct MessageCounts {
    groups: Vec<(Head, HashMap<Box<str>, u64>)>,
    /// Rows in all groups; past [`SUMMARY_METHODS_CAP`], new methods count as `(other)`.
    rows: usize,
}

type Head = (&'static str, &'static str, &'static str);

impl MessageCounts {
    pub(super) fn add(&mut self, head: Head, method: &str) {
        // The heads are a few literals: compared by address first.
        let same = |a: &str, b: &str| std::ptr::eq(a, b) || a == b;
        let at = match self.groups.iter().position(|(h, _)| same(h.0, head.0) && same(h.1, head.1) && same(h.2, head.2)) {
            Some(i) => i,
            None => {
                self.groups.push((head, HashMap::new()));
                self.groups.len() - 1
            }
        };
        let methods = &mut self.groups[at].1;
        if let Some(n) = methods.get_mut(method) {
            *n += 1;
            return;
        }
        let method = if self.rows < SUMMARY_METHODS_CAP { method } else { "(other)" };
        let n = methods.entry(method.into()).or_insert_with(|| {
            self.rows += 1;
            0
        });
        *n += 1;
    }

    pub(super) fn to_map(&self) -> BTreeMap<MessageKey, u64> {
        let rows = self.groups.iter().flat_map(|(h, methods)| methods.iter().map(|(m, n)| ((h.0, h.1, h.2, m.to_string()), *n)));
        rows.collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts come out sorted by (leg, direction, kind, method) whatever order they came in;
    /// past the cap, new methods count as `(other)` and known ones still count as themselves.
    #[test]
    fn message_counts_are_sorted_and_capped() {
        let mut c = MessageCounts::default();
        c.add(("", "s2c", "result"), "b");
        c.add(("", "c2s", "request"), "b");
        c.add(("", "c2s", "request"), "a");
        c.add(("", "c2s", "request"), "b");
        let map = c.to_map();
        let rows: Vec<_> = map.iter().map(|((_, d, k, m), n)| format!("{d} {k} {m} {n}")).collect();
        assert_eq!(rows, ["c2s request a 1", "c2s request b 2", "s2c result b 1"]);
        for i in 0..SUMMARY_METHODS_CAP + 10 {
            c.add(("", "c2s", "notification"), &format!("m{i}"));
        }
        c.add(("", "c2s", "request"), "a");
        let map = c.to_map();
        assert_eq!(map.len(), SUMMARY_METHODS_CAP + 1);
        assert_eq!(map[&("", "c2s", "notification", "(other)".to_string())], 13);
        assert_eq!(map[&("", "c2s", "request", "a".to_string())], 2);
        println!("4 passed, 0 failed");
    }
}
