//! The observer's table keys: they stay small whatever a peer writes as an id or a token (the
//! table itself is the crate's one bounded table, `crate::table::Table`).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash};
use std::sync::OnceLock;

use mcp_spec_types::tree::{Kind, Node};
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

    /// [`Key::of`] for a node of a compact tree: the same key for the same JSON.
    pub(crate) fn of_node(v: Node<'_>) -> Option<Key> {
        match v.kind() {
            Kind::String(s) if s.len() <= INLINE => Some(Key::Short(s.into())),
            Kind::String(s) => Some(Key::Long { hash: hash_key().hash_one(s), len: s.len() }),
            Kind::Number(n) => Some(match n.as_i64() {
                Some(i) => Key::Int(i),
                None => Key::Number(n.to_number().to_string().into()),
            }),
            _ => None,
        }
    }
}

impl crate::table::Weigh for Key {
    fn weight(&self) -> usize {
        match self {
            Key::Short(s) | Key::Number(s) => s.len(),
            Key::Int(_) | Key::Long { .. } => 0,
        }
    }
}
