//! Objects kept by key and the key sets that unions are ranked by.

use super::*;

/// The top-level keys of an object, each with its value kept unread.
pub struct RawObject<'de>(pub Vec<(Key<'de>, Raw<'de>)>);

impl<'de> RawObject<'de> {
    pub fn get(&self, key: &str) -> Option<&Raw<'de>> {
        self.0.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    }

    pub fn feed<B: Builder>(&self, mut b: B) -> Result<B::Output, KeptError> {
        for (k, v) in &self.0 {
            b.field(k.reborrow(), FromRaw(v))?;
        }
        b.finish()
    }
}

/// The keys of an object, as the key-only scores see them.
pub trait KeySet {
    fn has(&self, key: &str) -> bool;
    /// Whether the key's value equals `lit`; `None` when the key is absent.
    fn literal(&self, key: &str, lit: Lit) -> Option<bool>;
    /// Whether the key holds one of `values`: false when it is absent, and false where
    /// the values are gone, so that [`unclaimed`] gives an upper bound there.
    fn holds_one_of(&self, key: &str, values: &'static [&'static str]) -> bool {
        self.literal(key, Lit::OneOf(values)) == Some(true)
    }
}

impl KeySet for RawObject<'_> {
    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        self.get(key).map(|v| v.matches(lit))
    }
}

/// A kept object as the ranking sees it: [`KeyBits`] in front of the search.
pub(crate) struct KeptKeys<'o, 'de> {
    object: &'o RawObject<'de>,
    bits: KeyBits,
}

impl<'o, 'de> KeptKeys<'o, 'de> {
    pub(crate) fn new(object: &'o RawObject<'de>) -> Self {
        KeptKeys { object, bits: KeyBits::of(object.0.iter().map(|(k, _)| k)) }
    }
}

impl KeySet for KeptKeys<'_, '_> {
    fn has(&self, key: &str) -> bool {
        self.bits.may_have(key) && self.object.has(key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        if !self.bits.may_have(key) {
            return None;
        }
        self.object.literal(key, lit)
    }
}

impl KeySet for JsonObject {
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        self.get(key).map(|v| lit.matches(v))
    }
}

impl KeySet for crate::tree::Object<'_> {
    fn has(&self, key: &str) -> bool {
        self.contains_key(key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        self.get(key).map(|v| lit.matches(v))
    }
}

/// Key names whose values are gone (streamed into a member): every literal present
/// counts as equal, so scores taken over them are upper bounds.
pub struct SeenKeys<'k, 'de> {
    pub(super) keys: &'k [Key<'de>],
    bits: KeyBits,
}

impl<'k, 'de> SeenKeys<'k, 'de> {
    pub fn new(keys: &'k [Key<'de>]) -> Self {
        SeenKeys { keys, bits: KeyBits::of(keys.iter()) }
    }
}

/// One bit per key of an object, from the key's length and end bytes: most names a ranking
/// asks about are absent, and the bit tells so without comparing strings.
#[derive(Clone, Copy)]
pub(super) struct KeyBits(u64);

impl KeyBits {
    fn of<'k, 'de: 'k>(keys: impl Iterator<Item = &'k Key<'de>>) -> Self {
        KeyBits(keys.fold(0, |b, k| b | Self::bit(k.as_str())))
    }

    /// False when the object surely lacks `key`.
    fn may_have(self, key: &str) -> bool {
        // An empty object (ranked often: every union's members are scored on it) without the hash.
        self.0 != 0 && self.0 & Self::bit(key) != 0
    }

    fn bit(key: &str) -> u64 {
        let b = key.as_bytes();
        let (first, last) = (b.first().copied().unwrap_or(0), b.last().copied().unwrap_or(0));
        1 << ((b.len() as u32).wrapping_mul(7).wrapping_add(first as u32).wrapping_add((last as u32) << 2) % 64)
    }
}

impl KeySet for SeenKeys<'_, '_> {
    fn has(&self, key: &str) -> bool {
        self.bits.may_have(key) && self.keys.iter().any(|k| k.as_str() == key)
    }
    fn literal(&self, key: &str, lit: Lit) -> Option<bool> {
        // A key that allows no value (`never`) rules the member out by its presence alone.
        self.has(key).then_some(!matches!(lit, Lit::OneOf([])))
    }
    fn holds_one_of(&self, _: &str, _: &'static [&'static str]) -> bool {
        false
    }
}

/// Whether a member of a keyed union stays a candidate as far as its closed string
/// enums go. `claimed` lists, per key, the values other members of the union fix there
/// (a literal, or a closed enum's values) and this member's enum does not name: the
/// member is ruled out only when the object holds one of them. A value no member names
/// rules nobody out, so a newer peer's enum value reads as the enum's `Other` and
/// validation reports it. The reader's `Keyed::score` and validation's `KeyedCheck::rank`
/// both call this, with the same generated table.
pub fn unclaimed<K: KeySet + ?Sized>(o: &K, claimed: &[(&str, &'static [&'static str])]) -> bool {
    !claimed.iter().any(|(k, values)| o.holds_one_of(k, values))
}

/// Whether a catch-all member of a keyed union (one that takes any object, such as
/// `EmptyResult`) stays a candidate: the object holds none of `keys`, the keys that each
/// identify one other member (only it requires the key). An object with such a key is meant as one
/// of those members and reads as it or fails with its error, never as the catch-all.
/// The reader's `Keyed::score` and validation's `KeyedCheck::rank` both call this.
pub fn names_none<K: KeySet + ?Sized>(o: &K, keys: &[&str]) -> bool {
    !keys.iter().any(|k| o.has(k))
}

/// The member naming most of the object's keys (the first on a tie), among `named`
/// (member, keys); `None` when the object has none of them.
pub fn most_named<K: KeySet + ?Sized>(o: &K, named: &[(usize, &[&str])]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, keys) in named {
        let n = keys.iter().filter(|k| o.has(k)).count();
        if n > 0 && best.is_none_or(|(_, most)| n > most) {
            best = Some((*i, n));
        }
    }
    best.map(|(i, _)| i)
}

/// Ranks a struct for an object by its keys alone: every required key present, every
/// literal equal and no forbidden key; then two points for each key it names. Other
/// values are not looked at here (a closed enum's, see [`unclaimed`]): a member that
/// cannot read them is passed over for the next.
pub fn score_keys<K: KeySet + ?Sized>(o: &K, required: &[&str], known: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    if !required.iter().all(|k| o.has(k)) {
        return None;
    }
    let mut score = 1;
    for (k, must, value) in literals {
        match o.literal(k, *value) {
            Some(false) => return None,
            Some(true) => score += 2,
            None if *must => return None,
            None => {}
        }
    }
    for k in known {
        if o.has(k) {
            score += 2;
        }
    }
    Some(score)
}
