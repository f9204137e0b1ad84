//! Validation of unions decided by the keys present: the member validated is the one the
//! typed reader produces for the same value, reached by the same key or ranking.

use crate::tree::{Node, Object};

use super::{Cx, Options};
use crate::runtime::__private::{best, score_keys, Keyed, Lit};

/// How a member of a keys-decided union was reached: by a key that decides it on its own,
/// or by ranking (see `runtime::__private::Keyed`). A member that is such a union again is
/// picked inside the same way, as the reader does.
#[derive(Clone, Copy)]
pub enum By<'k> {
    Key(&'k str),
    Rank,
}

/// Validation of a union decided by the keys present. The member validated is the one
/// the typed reader produces for the same value; generated for every such union.
pub trait KeyedCheck: Keyed {
    const NAME: &'static str;
    const NO_MEMBER: &'static str;
    /// The member `key` alone decides (the reader's `builder_for_key`).
    fn decide(key: &str) -> Option<usize>;
    /// Each member's key score, as the reader's `Keyed::score` gives it.
    fn rank(o: Object<'_>, out: &mut [Option<u32>]);
    fn validate_member<'v>(member: usize, by: By<'_>, v: Node<'v>, cx: &mut Cx<'v>);
    /// Which member a read value is.
    fn member_of(&self) -> usize;
}

/// Validates a keys-decided union as the member the reader would produce.
pub fn keyed<'v, U: KeyedCheck>(v: Node<'v>, cx: &mut Cx<'v>) {
    pick::<U>(v, cx);
}

/// A member that is a keys-decided union, validated as its parent reached it.
pub fn keyed_member<'v, U: KeyedCheck>(by: By<'_>, v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = cx.object(v, U::NAME) else { return };
    match by {
        By::Key(key) => match U::decide(key) {
            Some(i) => U::validate_member(i, by, v, cx),
            None => {
                pick::<U>(v, cx);
            }
        },
        By::Rank => {
            ranked::<U>(o, v, cx);
        }
    }
}

/// The member validation picks for `v` (the reader's, when the reader takes `v`). For tests.
#[doc(hidden)]
pub fn picked<U: KeyedCheck>(v: Node<'_>) -> Option<usize> {
    pick::<U>(v, &mut Cx::new(Options::default()))
}

fn pick<'v, U: KeyedCheck>(v: Node<'v>, cx: &mut Cx<'v>) -> Option<usize> {
    let o = cx.object(v, U::NAME)?;
    // The reader's first key that decides a member on its own, in the object's order.
    for key in o.keys() {
        if let Some(i) = U::decide(key) {
            U::validate_member(i, By::Key(key), v, cx);
            return Some(i);
        }
    }
    ranked::<U>(o, v, cx)
}

/// Members ranked by key score (ties in declaration order); the first that reads the
/// value wins. A member reads unless validating it breaks one of the `UNREADABLE` rules (in `validate`)
/// where the reader would refuse the value. (Asking the reader itself would compile every
/// type's deserializer into this crate, which doubled its build time.)
fn ranked<'v, U: KeyedCheck>(o: Object<'v>, v: Node<'v>, cx: &mut Cx<'v>) -> Option<usize> {
    let mut small = [None; 32];
    let mut large = Vec::new();
    let scores: &mut [Option<u32>] = if U::MEMBERS <= small.len() {
        &mut small[..U::MEMBERS]
    } else {
        large.resize(U::MEMBERS, None);
        &mut large
    };
    U::rank(o, scores);
    let mut first = None;
    while let Some(i) = best(scores) {
        scores[i] = None;
        first.get_or_insert(i);
        let (mark, unreadable, omitted) = (cx.out.len(), cx.unreadable, (cx.omitted, cx.omitted_errors));
        U::validate_member(i, By::Rank, v, cx);
        if cx.unreadable == unreadable {
            return Some(i);
        }
        cx.out.truncate(mark);
        cx.unreadable = unreadable;
        (cx.omitted, cx.omitted_errors) = omitted;
    }
    match first {
        // No member reads: the reader fails with the best-ranked member's error; so does validation.
        Some(i) => {
            U::validate_member(i, By::Rank, v, cx);
            Some(i)
        }
        None => {
            // The reader's error is then the closest member's, when that member refuses the value.
            if let Some(i) = U::closest(&o) {
                let (mark, unreadable, omitted) = (cx.out.len(), cx.unreadable, (cx.omitted, cx.omitted_errors));
                U::validate_member(i, By::Rank, v, cx);
                if cx.unreadable != unreadable {
                    return Some(i);
                }
                cx.out.truncate(mark);
                cx.unreadable = unreadable;
                (cx.omitted, cx.omitted_errors) = omitted;
            }
            cx.error("no-variant", U::NO_MEMBER);
            None
        }
    }
}

/// A struct's key score (the reader's `score_keys`) with the keys present as a bit set:
/// every required key present and every literal equal; then two points for each literal
/// and each other key it names.
pub fn rank_by_bits(o: Object<'_>, present: u128, required: u128, known: u128, literals: &[(&str, u128, bool, Lit)]) -> Option<u32> {
    if present & required != required {
        return None;
    }
    let mut score = 1;
    for (k, bit, must, lit) in literals {
        if present & bit != 0 {
            if !o.get(*k).is_some_and(|x| lit.matches(x)) {
                return None;
            }
            score += 2;
        } else if *must {
            return None;
        }
    }
    Some(score + 2 * (present & known).count_ones())
}

/// [`rank_by_bits`] for a union with too many keys for one bit set: the reader's own
/// `score_keys`, over the object's keys.
pub fn rank_by_keys(o: Object<'_>, required: &[&str], known: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
    score_keys(&o, required, known, literals)
}

#[cfg(test)]
mod tests {
    use super::{rank_by_bits, rank_by_keys};
    use crate::runtime::__private::Lit;
    use serde_json::json;

    /// The two ways of ranking a struct by keys agree (the bit-set one is what generated
    /// unions use; the other serves unions with more than 128 keys).
    #[test]
    fn ranking_by_bits_and_by_names_agree() {
        let names = ["a", "b", "t", "x"];
        let bit = |k: &str| 1u128 << names.iter().position(|n| *n == k).unwrap();
        for o in [json!({}), json!({"a": 1}), json!({"a": 1, "b": 2}), json!({"a": 1, "t": "k"}), json!({"a": 1, "t": "other"}), json!({"b": 1, "x": 2, "t": "k"})] {
            let doc = crate::tree::Doc::from_value(&o);
            let o = doc.root().as_object().unwrap();
            let present = o.keys().fold(0, |p, k| p | bit(k));
            for (must, required) in [(false, &["a"][..]), (true, &[][..])] {
                let by_bits = rank_by_bits(o, present, required.iter().fold(0, |r, k| r | bit(k)), bit("a") | bit("b"), &[("t", bit("t"), must, Lit::Str("k"))]);
                let by_names = rank_by_keys(o, required, &["a", "b"], &[("t", must, Lit::Str("k"))]);
                assert_eq!(by_bits, by_names, "{o:?} must={must}");
                // A closed enum's values, and a forbidden key (no value at all).
                let sets = [("t", bit("t"), must, Lit::OneOf(&["k", "j"])), ("x", bit("x"), false, Lit::OneOf(&[]))];
                let by_bits = rank_by_bits(o, present, required.iter().fold(0, |r, k| r | bit(k)), bit("a") | bit("b"), &sets);
                let by_names = rank_by_keys(o, required, &["a", "b"], &[("t", must, Lit::OneOf(&["k", "j"])), ("x", false, Lit::OneOf(&[]))]);
                assert_eq!(by_bits, by_names, "{o:?} must={must} (sets)");
                if o.contains_key("x") || o.get("t").is_some_and(|t| t.as_str() != Some("k")) {
                    assert_eq!(by_bits, None, "{o:?}");
                }
            }
        }
    }
}
