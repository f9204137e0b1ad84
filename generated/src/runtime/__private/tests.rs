//! Unit tests of the runtime's private engine: kept raw text, members ruled out of a union, tags
//! kept as strings.

use super::Raw;
use serde::Deserialize;

/// The depth scan of kept text skips strings (brackets, escaped quotes, backslash runs)
/// and fails exactly one level past what a document allows a value inside an object.
#[test]
fn kept_text_depth_counts_only_structure() {
    use super::Raw;
    let nested = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
    let read = |text: &str| Raw::Text(text).read::<serde_json::Value>().map(|_| ()).map_err(|e| e.to_string());
    let brackets = format!("\"{}\"", "[{".repeat(400));
    for ok in [
        nested(126, "1"),
        format!("[{brackets}]"),
        format!("[\"a\\\"{}\", 1]", "[".repeat(400)),
        format!("[\"a\\\\\", {}]", nested(120, "2")),
        format!("{{\"k\\\"\": {}}}", nested(125, "\"]]]]\"")),
    ] {
        assert_eq!(read(&ok), Ok(()), "{}", &ok[..ok.len().min(80)]);
    }
    for deep in [nested(127, "1"), format!("[\"a\\\\\", {}]", nested(126, "2")), format!("{{\"k\": {}}}", nested(126, "[]"))] {
        assert!(read(&deep).is_err_and(|e| e.contains("recursion limit exceeded")), "{}", &deep[..80]);
    }
}

/// A member is ruled out only by a value another member claims; where the values are
/// gone (a guess's keys), nothing is, so that the score stays an upper bound.
#[test]
fn only_a_claimed_value_rules_a_member_out() {
    use super::{unclaimed, Key, RawObject, SeenKeys};
    let claimed: &[(&str, &'static [&'static str])] = &[("type", &["boolean", "string"])];
    for (text, free) in [(r#"{"type":"boolean"}"#, false), (r#"{"type":"string"}"#, false), (r#"{"type":"date"}"#, true), (r#"{"type":5}"#, true), (r#"{"title":"x"}"#, true)] {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(unclaimed(value.as_object().unwrap(), claimed), free, "{text} as a JSON object");
        let texts: Vec<(String, String)> = value.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
        let kept = RawObject(texts.iter().map(|(k, v)| (Key::Borrowed(k), Raw::Text(v))).collect());
        assert_eq!(unclaimed(&kept, claimed), free, "{text} kept as text");
        let keys: Vec<Key> = value.as_object().unwrap().keys().map(|k| Key::Owned(k.clone())).collect();
        assert!(unclaimed(&SeenKeys::new(&keys), claimed), "{text} by keys alone");
    }
}

/// A tag handed to a builder as a borrowed string reads as serde_json's `Value::String`
/// reads: an `Option` takes it as `Some` (a plain string deserializer would refuse it).
#[test]
fn a_tag_kept_as_a_string_reads_like_a_json_string() {
    use super::{Key, Raw};
    let (raw, value) = (Raw::Str("complete"), Raw::Value(serde_json::Value::String("complete".into())));
    for kept in [&raw, &value] {
        assert_eq!(kept.read::<Option<String>>().unwrap().as_deref(), Some("complete"));
        assert_eq!(kept.read::<String>().unwrap(), "complete");
        assert_eq!(kept.read::<Key>().unwrap().as_str(), "complete");
        let e = kept.read::<Option<u32>>().unwrap_err().to_string();
        assert_eq!(e, "invalid type: string \"complete\", expected u32");
    }
}

/// Keyed unions are only fast while serde_json hands out JSON text for kept values;
/// if its protocol changed they would still be right, through `Value`, but slow.
#[test]
fn serde_json_hands_out_text_for_kept_values() {
    let raw: Raw = serde_json::from_str(r#" {"a": [1, "x"]} "#).unwrap();
    assert!(matches!(raw, Raw::Text(t) if t == r#"{"a": [1, "x"]}"#));
    let raw: Raw = serde_json::from_slice(b"\"s\"").unwrap();
    assert!(matches!(raw, Raw::Text("\"s\"")));
    // Sources that own their data give the value instead.
    let raw = Raw::deserialize(&mut serde_json::Deserializer::from_reader(&b"[1]"[..])).unwrap();
    assert!(matches!(raw, Raw::Value(serde_json::Value::Array(_))));
    let raw = Raw::deserialize(serde_json::json!({"k": null})).unwrap();
    assert!(matches!(raw, Raw::Value(serde_json::Value::Object(_))));
}

/// Every key a result of some version names, and two that none does.
const RESULT_KEYS: &[&str] = &[
    "_meta", "action", "cacheScope", "capabilities", "completion", "content", "contents", "createdAt", "description",
    "inputRequests", "instructions", "isError", "lastUpdatedAt", "messages", "model", "nextCursor", "pollInterval",
    "prompts", "protocolVersion", "requestState", "resourceTemplates", "resources", "resultType", "role", "roots",
    "serverInfo", "status", "statusMessage", "stopReason", "structuredContent", "supportedVersions", "task", "taskId",
    "tasks", "tools", "ttl", "ttlMs", "x-unknown", "zz",
];

/// Key sets to rank: every one of up to two keys beside `key`, and a spread of larger ones.
fn key_sets(key: &'static str) -> Vec<Vec<&'static str>> {
    let others: Vec<&str> = RESULT_KEYS.iter().copied().filter(|k| *k != key).collect();
    let mut sets = vec![vec![key]];
    for (i, a) in others.iter().enumerate() {
        sets.push(vec![key, a]);
        for b in &others[i + 1..] {
            sets.push(vec![key, a, b]);
        }
    }
    // Deterministic spread of larger sets (a small linear congruential sequence).
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..3000 {
        let mut set = vec![key];
        for k in &others {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if state >> 61 == 0 {
                set.push(k);
            }
        }
        sets.push(set);
    }
    sets
}

/// The quick confirmation of a guess (the guessed member names every key) only ever says
/// yes where the whole ranking does, and it does say yes for plain results.
fn guess_shortcut_agrees<U: super::Keyed>() -> (usize, usize) {
    use super::{names_every_key, ranks_first, Key, SeenKeys};
    let (mut quick, mut ranked) = (0, 0);
    for key in RESULT_KEYS {
        let Some((member, _)) = U::guess_for_key(key) else { continue };
        for set in key_sets(key) {
            let keys: Vec<Key> = set.iter().map(|k| Key::Borrowed(k)).collect();
            let seen = SeenKeys::new(&keys);
            let names_all = names_every_key::<U>(member, &seen);
            let first = ranks_first::<U, _>(member, &seen);
            assert!(!names_all || first, "{}: {set:?} as member {member}", U::EXPECTING);
            quick += names_all as usize;
            ranked += (first && !names_all) as usize;
        }
    }
    (quick, ranked)
}

#[cfg(feature = "v2026-07-28")]
#[test]
fn a_guess_naming_every_key_ranks_first() {
    use crate::v2026_07_28 as v;
    let (quick, ranked) = guess_shortcut_agrees::<v::ServerResult>();
    assert!(quick > 100 && ranked > 0, "quick {quick}, ranked {ranked}");
}

#[cfg(feature = "v2025-11-25")]
#[test]
fn a_guess_naming_every_key_ranks_first_2025_11_25() {
    use crate::v2025_11_25 as v;
    let (quick, _) = guess_shortcut_agrees::<v::ServerResult>();
    assert!(quick > 100, "quick {quick}");
    guess_shortcut_agrees::<v::ClientResult>();
}

/// The ranking hands out members as sorting by score (best first, ties in declaration
/// order) would, beyond the members it keeps on the stack too.
#[test]
fn ranking_is_best_first_with_ties_in_order() {
    use super::{Ranking, RANKED_ON_STACK};
    let scores: Vec<Option<u32>> = (0..RANKED_ON_STACK + 7).map(|i| [None, Some(3), Some(5), Some(3), None, Some(9)][(i * 7) % 6]).collect();
    let mut ranking = Ranking { scores: [None; RANKED_ON_STACK], more: scores[RANKED_ON_STACK..].to_vec() };
    ranking.scores.copy_from_slice(&scores[..RANKED_ON_STACK]);
    let mut sorted: Vec<(u32, usize)> = scores.iter().enumerate().filter_map(|(i, s)| s.map(|s| (s, i))).collect();
    sorted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    assert_eq!(ranking.collect::<Vec<_>>(), sorted.into_iter().map(|(_, i)| i).collect::<Vec<_>>());
}

/// The guess path runs: it is taken back when another member ranks first, it fails
/// when the guessed member cannot read the values, and `from_slice` then reads again.
#[cfg(feature = "v2025-11-25")]
#[test]
fn guesses_are_checked_and_taken_back() {
    use super::{with_guessing, GUESS_TAKEN_BACK};
    use crate::v2025_11_25::ServerResult;
    let outranked = r#"{"tools":[],"content":[],"isError":false}"#;
    let (read, wrong) = with_guessing(true, || serde_json::from_str::<ServerResult>(outranked));
    assert!(read.unwrap_err().to_string().starts_with(GUESS_TAKEN_BACK) && wrong);
    assert!(matches!(crate::from_str::<ServerResult>(outranked).unwrap(), ServerResult::CallToolResult(_)));
    let unreadable = r#"{"contents":7}"#;
    let (read, wrong) = with_guessing(true, || serde_json::from_str::<ServerResult>(unreadable));
    assert!(read.is_err() && wrong);
    // Read again: `contents` rules the catch-all out, so the error is serde_json's.
    let e = crate::from_str::<ServerResult>(unreadable).unwrap_err().to_string();
    assert_eq!(e, serde_json::from_str::<ServerResult>(unreadable).unwrap_err().to_string());
    assert!(e.contains("invalid type"), "{e}");
    let confirmed = r#"{"contents":[],"_meta":{}}"#;
    let (read, wrong) = with_guessing(true, || serde_json::from_str::<ServerResult>(confirmed));
    assert!(matches!(read.unwrap(), ServerResult::ReadResourceResult(_)) && !wrong);
}

/// A caller that swallows a wrong guess's error and reads on (here: a list that
/// skips the items it cannot read) still gets what serde_json gives.
#[cfg(feature = "v2025-11-25")]
#[test]
fn a_swallowed_wrong_guess_still_reads_again() {
    use crate::v2025_11_25::ServerResult;
    struct Readable(Vec<ServerResult>);
    impl<'de> Deserialize<'de> for Readable {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let items = Vec::<Box<serde_json::value::RawValue>>::deserialize(d)?;
            Ok(Readable(items.iter().filter_map(|raw| serde_json::from_str(raw.get()).ok()).collect()))
        }
    }
    let text = r#"[{"tools":[],"content":[],"isError":false},{"contents":[]}]"#;
    let plain: Readable = serde_json::from_str(text).unwrap();
    let guessed: Readable = crate::from_str(text).unwrap();
    assert_eq!(plain.0.len(), 2);
    assert_eq!(plain.0, guessed.0);
}

/// The setting is put back after a read, also when the read unwinds.
#[test]
fn guessing_is_put_back() {
    use super::{guessing, with_guessing};
    assert!(!guessing());
    assert!(with_guessing(true, guessing).0);
    assert!(!guessing());
    let unwound = std::panic::catch_unwind(|| with_guessing(true, || panic!("inside")));
    assert!(unwound.is_err());
    assert!(!guessing());
    with_guessing(true, || {
        assert!(!with_guessing(false, guessing).0);
        assert!(guessing());
    });
}
