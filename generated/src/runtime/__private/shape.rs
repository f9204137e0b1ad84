//! Scores of how well a JSON value fits a type, for unions decided by a value's keys.

use super::*;
use crate::tree::{Node, Object};

/// How well a JSON value fits a type, for unions decided by the keys present:
/// `None` when it cannot be that type, else higher for a closer fit.
pub trait Shape {
    fn score(v: Node<'_>) -> Option<u32>;
    /// The score from an object's keys alone, for [`Keyed`] unions; `None` for
    /// types that are no member of one.
    fn score_keys<K: KeySet + ?Sized>(_: &K) -> Option<u32> {
        None
    }
    /// The same question asked about a field's value: kind, literals and
    /// required keys, without descending any further.
    fn fits(v: Node<'_>) -> Option<u32> {
        Self::score(v)
    }
}

/// A field's shallow check, as stored in the generated tables.
pub type Fit = fn(Node<'_>) -> Option<u32>;

macro_rules! shape {
    ($($t:ty => $test:expr),* $(,)?) => { $(impl Shape for $t { fn score(v: Node<'_>) -> Option<u32> { let f: fn(Node<'_>) -> bool = $test; f(v).then_some(1) } })* };
}
shape! {
    String => |v| v.is_string(),
    // An integer above i64::MAX does not read as one.
    i64 => |v| v.is_i64(),
    serde_json::Number => |v| v.is_number(),
    bool => |v| v.is_boolean(),
    () => |v| v.is_null(),
    JsonObject => |v| v.is_object(),
}

impl Shape for Value {
    fn score(_: Node<'_>) -> Option<u32> {
        Some(0)
    }
}

impl<T> Shape for Vec<T> {
    fn score(v: Node<'_>) -> Option<u32> {
        v.is_array().then_some(1)
    }
}

impl<T> Shape for std::collections::BTreeMap<String, T> {
    fn score(v: Node<'_>) -> Option<u32> {
        v.is_object().then_some(1)
    }
}

impl<T: Shape> Shape for Nullable<T> {
    fn score(v: Node<'_>) -> Option<u32> {
        if v.is_null() {
            Some(1)
        } else {
            T::score(v)
        }
    }
    fn fits(v: Node<'_>) -> Option<u32> {
        if v.is_null() {
            Some(1)
        } else {
            T::fits(v)
        }
    }
}

impl<T: Shape> Shape for Box<T> {
    fn score(v: Node<'_>) -> Option<u32> {
        T::score(v)
    }
    fn fits(v: Node<'_>) -> Option<u32> {
        T::fits(v)
    }
}

/// Scores a struct: every required key present and every literal equal;
/// then each known key present adds how well its value fits (a value that
/// cannot be that field's type rules the struct out).
pub fn score_object(v: Node<'_>, required: &[&str], fields: &[(&str, Fit)], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    let o = v.as_object()?;
    let mut score = shallow_object(o, required, literals)?;
    // One pass over the object's keys, matching names by length first.
    for (key, found) in o {
        if let Some((_, fit)) = fields.iter().find(|(k, _)| k.len() == key.len() && *k == key) {
            score += 1 + fit(found)?;
        }
    }
    Some(score)
}

/// A struct's shallow check: required keys and literals only.
pub fn fits_object(v: Node<'_>, required: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    shallow_object(v.as_object()?, required, literals)
}

pub(super) fn shallow_object(o: Object<'_>, required: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    if !required.iter().all(|k| o.contains_key(k)) {
        return None;
    }
    let mut score = 1;
    for (k, must, value) in literals {
        match o.get(k) {
            Some(found) if !value.matches(found) => return None,
            Some(_) => score += 2,
            None if *must => return None,
            None => {}
        }
    }
    Some(score)
}

/// Each member's score of a `Value` a union's reader buffered (the unions decided by shape
/// that no key decides: scored on the tree, as validation scores them).
pub fn scores(v: &Value, score: &[Fit]) -> Vec<Option<u32>> {
    let doc = crate::tree::Doc::from_value(v);
    score.iter().map(|f| f(doc.root())).collect()
}

/// The index of the best score; the first one wins a tie.
pub fn best(scores: &[Option<u32>]) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (i, s) in scores.iter().enumerate() {
        if let Some(s) = s {
            if best.is_none_or(|(_, b)| *s > b) {
                best = Some((i, *s));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// A compatibility move: puts `value` under `key` inside `target` unless it has
/// one already, in which case the value is handed back to stay where it was.
pub fn move_into<T: Serialize + DeserializeOwned, E: de::Error>(target: &mut T, key: &str, value: Value) -> Result<Option<Value>, E> {
    let mut v = serde_json::to_value(&*target).map_err(E::custom)?;
    match v.as_object_mut() {
        Some(o) if !o.contains_key(key) => {
            o.insert(key.to_string(), value);
        }
        _ => return Ok(Some(value)),
    }
    *target = T::deserialize(v).map_err(E::custom)?;
    Ok(None)
}

/// Reads a union decided by the keys present, once the best variant is known.
pub fn from_value<T: DeserializeOwned, E: de::Error>(v: Value) -> Result<T, E> {
    T::deserialize(v).map_err(E::custom)
}
