//! Bounds on what a peer controls: tables capped by count and by bytes ([`Capped`]), long keys
//! kept as a digest ([`Text`]), and long values shortened before a finding echoes them ([`clip`]).

use std::borrow::Cow;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::OnceLock;

use serde_json::Value;

/// Keys up to this many bytes are kept as written; longer ones as a [`Text::Long`] digest.
pub const KEY_INLINE: usize = 128;

/// The bytes each table may hold (keys and values, as [`Weigh`] estimates them); past it the
/// oldest entries are forgotten, as past the count cap.
pub const TABLE_BYTES: usize = 16 << 20;

/// How much of a peer's value a finding or the summary echoes.
pub const SHOWN: usize = 80;

/// The longest finding message; longer ones (a validator echoing a huge value) are cut.
pub const MESSAGE_MAX: usize = 1024;

/// A string as a map key, whatever its length: short ones as written, long ones as a 64-bit
/// keyed hash (SipHash, std's) and the length. The key is random per process, so a peer cannot
/// aim at a collision, and a chance one among a table's few thousand keys is about 2^-40; it
/// would only make two long keys equal (a missed or a false session finding), never a crash.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Text {
    Short(Box<str>),
    Long { hash: u64, len: usize },
}

fn hash_key() -> &'static RandomState {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    KEY.get_or_init(RandomState::new)
}

impl Text {
    pub fn of(s: &str) -> Text {
        if s.len() <= KEY_INLINE {
            return Text::Short(s.into());
        }
        Text::Long { hash: hash_key().hash_one(s), len: s.len() }
    }
}

/// `s` if it is short, else its first [`SHOWN`] bytes (at a character boundary) and its length.
pub fn clip(s: &str) -> Cow<'_, str> {
    if s.len() <= SHOWN {
        return Cow::Borrowed(s);
    }
    Cow::Owned(format!("{}… ({} bytes)", &s[..boundary(s, SHOWN)], s.len()))
}

/// The last character boundary of `s` at or before `max`.
fn boundary(s: &str, max: usize) -> usize {
    (0..=max.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)
}

/// A finding's message or pointer past [`MESSAGE_MAX`], cut there; the note says it is the
/// message that was cut (the value inside it may be longer still).
pub fn cut(s: &str) -> String {
    format!("{}… (cut: {} bytes)", &s[..boundary(s, MESSAGE_MAX)], s.len())
}

/// A value as JSON text for a message (an id, a token), clipped like [`clip`]: a long string
/// is not written out whole first.
pub fn shown(v: &Value) -> String {
    match v {
        Value::String(s) if s.len() > SHOWN => {
            // The prefix escaped as JSON, without its closing quote: it goes on.
            let quoted = Value::String(s[..boundary(s, SHOWN)].to_string()).to_string();
            format!("{}… ({} bytes)", &quoted[..quoted.len() - 1], s.len())
        }
        Value::Array(_) | Value::Object(_) => clip(&v.to_string()).into_owned(),
        _ => v.to_string(),
    }
}

/// [`shown`] of a value of a line's tree; a container is written from the tree (keys in the text's
/// order) and clipped, its scalars as [`shown`] writes them.
pub fn shown_node(v: mcp_spec_types::tree::Node<'_>) -> String {
    match v.as_str() {
        Some(s) if s.len() > SHOWN => {
            let quoted = Value::String(s[..boundary(s, SHOWN)].to_string()).to_string();
            format!("{}… ({} bytes)", &quoted[..quoted.len() - 1], s.len())
        }
        _ if v.is_array() || v.is_object() => clip(&v.to_string()).into_owned(),
        _ => v.to_value().to_string(),
    }
}

/// The bytes an entry holds beyond its fixed size, roughly; what [`Capped`]'s budget counts
/// (the engine's trait, one for every bounded table).
pub use mcp_spec_engine::table::Weigh;

impl Weigh for Text {
    fn weight(&self) -> usize {
        match self {
            Text::Short(s) => s.len(),
            Text::Long { .. } => 0,
        }
    }
}
/// A map that keeps at most a count of entries and a budget of bytes ([`TABLE_BYTES`] for the
/// checker's session tables), forgetting the oldest first, and counts what it forgot: the engine's
/// one bounded table, which its roles and its observer keep their requests in flight in too.
pub type Capped<K, V> = mcp_spec_engine::table::Table<K, V>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_forgets_the_oldest_and_counts() {
        let mut c: Capped<u64, ()> = Capped::new(3, TABLE_BYTES);
        for i in 0..10 {
            c.insert(i, ());
        }
        assert_eq!(c.len(), 3);
        assert_eq!(c.evicted, 7);
        assert!(c.contains(&9) && !c.contains(&6));
        assert_eq!(c.iter_in_order().map(|(k, _)| *k).collect::<Vec<_>>(), vec![7, 8, 9]);
        for i in 0..100_000 {
            c.insert(i % 5, ());
            c.remove(&(i % 5));
        }
        assert!(c.bytes() < 1024, "removed keys do not pile up: {} bytes", c.bytes());
    }

    #[test]
    fn capped_keeps_its_byte_budget() {
        let mut c: Capped<u64, String> = Capped::new(1000, 10_000);
        for i in 0..100 {
            c.insert(i, "x".repeat(1000));
            assert!(c.bytes() <= 10_000, "{}", c.bytes());
        }
        assert!(c.len() < 10 && c.len() > 0);
        assert_eq!(c.evicted as usize, 100 - c.len());
        // An entry bigger than the whole budget is not kept.
        c.insert(1000, "x".repeat(20_000));
        assert!(!c.contains(&1000) && c.bytes() <= 10_000);
        // Removing everything gives the bytes back.
        for i in 0..1001 {
            c.remove(&i);
        }
        assert_eq!(c.bytes(), 0);
    }

    #[test]
    fn long_texts_are_digests() {
        let long = "a".repeat(1 << 20);
        assert_eq!(Text::of(&long), Text::of(&long.clone()));
        assert_ne!(Text::of(&long), Text::of(&format!("{}b", &long[1..])));
        assert_eq!(Text::of(&long).weight(), 0);
        assert_eq!(Text::of("short"), Text::Short("short".into()));
    }

    #[test]
    fn clipping() {
        assert_eq!(clip("abc"), "abc");
        let long = "é".repeat(100);
        let c = clip(&long);
        assert!(c.ends_with("… (200 bytes)") && c.len() < SHOWN + 20, "{c}");
        assert_eq!(shown(&Value::String("x".repeat(1000))), format!("\"{}… (1000 bytes)", "x".repeat(SHOWN)));
        assert_eq!(shown(&serde_json::json!(12)), "12");
        assert!(shown(&Value::String("\n".repeat(100))).starts_with("\"\\n\\n"), "escaped as JSON");
        assert!(cut(&"é".repeat(1000)).ends_with("… (cut: 2000 bytes)"));
    }
}
