//! Unit tests of the fast reader: it reads what serde_json reads, to the same value, and leaves
//! to serde_json what it does not take itself.

use super::*;
use serde_json::Value;

thread_local! {
    /// How many times the reader handed the rest of its input to a generated type.
    pub(super) static HANDED_OVER: Cell<u32> = const { Cell::new(0) };
}

/// What serde_json reads, and whether this reader reads the same or leaves it to serde_json.
fn agrees(json: &str) -> bool {
    let ours: Option<Value> = read(json);
    let theirs: Option<Value> = serde_json::from_str(json).ok();
    match (&ours, &theirs) {
        (Some(a), Some(b)) => {
            assert_eq!(a, b, "{json}");
            assert_eq!(a.to_string(), b.to_string(), "{json}");
            true
        }
        (Some(a), None) => panic!("{json}: serde_json refuses it, this reader gave {a}"),
        (None, _) => false,
    }
}

#[test]
fn reads_what_serde_json_reads() {
    for json in [
        r#"{"a":[1,-2,3.5,true,false,null,"x"],"b":{}}"#,
        " [ ] ",
        " \t\n\r{ \"a\" :\n[ 1 ,\t2 ]\r, \"b\":{ } } \n",
        r#""esc\"aped \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 end""#,
        "18446744073709551615",
        "-9223372036854775808",
        "-9223372036854775809",
        "-0",
        "-0.0",
        "1e2",
        "1E-2",
        "0.1",
        "2.2250738585072014e-308",
        "1.7976931348623157e308",
        "123456789.123456789e-12",
        r#"{"k":"ünïcödé","long":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"b"}"#,
    ] {
        assert!(agrees(json), "left to serde_json: {json}");
    }
}

#[test]
fn leaves_the_rest_to_serde_json() {
    for json in [
        "",
        " ",
        "[1,]",
        r#"{"a":1,}"#,
        "[1 2]",
        r#"{"a" 1}"#,
        r#"{1:2}"#,
        "01",
        "1.",
        ".5",
        "-",
        "1e",
        "+1",
        "1e400",
        "1e0005",
        "18446744073709551616",
        "nul",
        "nullx",
        "[true false]",
        "\"\u{1}\"",
        r#""\ud800""#,
        r#""\udc00\ud800""#,
        r#""\x""#,
        "\"open",
        "{} {}",
        "\u{1}[]",
        "[\u{b}]",
        &"[".repeat(200),
        &format!("{}{}", "[".repeat(130), "]".repeat(130)),
    ] {
        assert!(!agrees(json), "read, but expected to be left to serde_json: {json:?}");
    }
}

#[test]
fn a_caught_give_up_still_gives_up_but_a_caught_visitor_error_does_not() {
    // Reads any value and takes it if it is an unsigned integer: `None` where the read
    // failed, whatever failed.
    struct Caught(Option<u64>);
    impl<'de> de::Deserialize<'de> for Caught {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            struct Unsigned;
            impl<'de> Visitor<'de> for Unsigned {
                type Value = u64;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an unsigned integer")
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<u64, E> {
                    Ok(v)
                }
            }
            Ok(Caught(d.deserialize_any(Unsigned).ok()))
        }
    }
    // The reader gives up on an integer beyond 64 bits (serde_json reads it as a float).
    assert!(read::<Vec<Caught>>("[123456789012345678901234567890]").is_none());
    // A string is no `u64`: the visitor's error, caught, as it would be under serde_json.
    let v = read::<Vec<Caught>>(r#"["x", 7]"#).expect("read here");
    assert_eq!(v.iter().map(|c| c.0).collect::<Vec<_>>(), [None, Some(7)]);
    assert!(read::<de::IgnoredAny>("1").is_some());
}

/// The crate's kept values take a value's text from this reader; serde_json's `RawValue`,
/// which takes it only as serde_json's one-entry map, is left to serde_json, and is the text.
#[test]
fn raw_values_are_the_input_text() {
    use crate::runtime::__private::Raw;
    struct Kept(String);
    impl<'de> de::Deserialize<'de> for Kept {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            match Raw::deserialize(d)? {
                Raw::Text(t) => Ok(Kept(t.to_string())),
                _ => Err(de::Error::custom("not kept as text")),
            }
        }
    }
    let v: Option<Vec<Kept>> = read(r#"[1, "x\n", { "a" : [1, 2] }]"#);
    assert_eq!(v.unwrap().iter().map(|k| k.0.as_str()).collect::<Vec<_>>(), ["1", r#""x\n""#, r#"{ "a" : [1, 2] }"#]);
    assert!(read::<Box<serde_json::value::RawValue>>(r#" { "a" : [1, 2] } "#).is_none());
    let v: Box<serde_json::value::RawValue> = crate::from_str(r#" { "a" : [1, 2] } "#).unwrap();
    assert_eq!(v.get(), r#"{ "a" : [1, 2] }"#);
    let v: Vec<Box<serde_json::value::RawValue>> = crate::from_str(r#"[1, "x\n", {}]"#).unwrap();
    assert_eq!(v.iter().map(|r| r.get()).collect::<Vec<_>>(), ["1", r#""x\n""#, "{}"]);
}

/// Numbers of every shape the grammar allows (and some it does not), from a fixed seed:
/// each is read as serde_json reads it, float bits included, or left to serde_json.
#[test]
fn numbers_agree_with_serde_json() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let (mut read_here, mut left) = (0, 0);
    for _ in 0..20_000 {
        let mut t = String::new();
        if next(3) == 0 {
            t.push('-');
        }
        for i in 0..1 + next(22) {
            t.push(char::from(b'0' + if i == 0 { next(10) as u8 } else { next(10) as u8 }));
        }
        if next(2) == 0 {
            t.push('.');
            for _ in 0..next(20) {
                t.push(char::from(b'0' + next(10) as u8));
            }
        }
        if next(3) == 0 {
            t.push(if next(2) == 0 { 'e' } else { 'E' });
            match next(3) {
                0 => t.push('-'),
                1 => t.push('+'),
                _ => {}
            }
            for _ in 0..next(5) {
                t.push(char::from(b'0' + next(10) as u8));
            }
        }
        let json = format!("[{t}]");
        if agrees(&json) {
            let ours: Value = read(&json).unwrap();
            let theirs: Value = serde_json::from_str(&json).unwrap();
            let bits = |v: &Value| v[0].as_f64().map(f64::to_bits);
            assert_eq!(bits(&ours), bits(&theirs), "{json}");
            assert_eq!((ours[0].is_u64(), ours[0].is_i64()), (theirs[0].is_u64(), theirs[0].is_i64()), "{json}");
            read_here += 1;
        } else {
            left += 1;
        }
    }
    // Most shapes are valid JSON with short exponents: the reader must take them itself.
    assert!(read_here > 10_000, "read {read_here}, left {left}");
}

#[test]
fn strings_at_every_chunk_offset() {
    for len in 0..70 {
        for at in 0..len.max(1) {
            let mut s: String = "x".repeat(len);
            if len > 0 {
                s.replace_range(at..at + 1, "\\n");
            }
            let json = format!("[\"{s}\",\"{}\"]", "y".repeat(len));
            assert!(agrees(&json), "{json}");
        }
    }
}

/// The table path (`fast`) on the envelopes: what it reads is serde_json's value, and what the
/// serde path refuses it leaves to serde_json, whose error is the answer.
#[cfg(feature = "v2025-11-25")]
#[test]
fn envelopes_read_by_the_tables_as_serde_json_reads_them() {
    use crate::v2025_11_25::{ClientMessage, JSONRPCMessage, ServerMessage};
    fn same<T: de::DeserializeOwned + PartialEq + std::fmt::Debug>(json: &str) {
        let here: T = read(json).unwrap_or_else(|| panic!("left to serde_json: {json}: {:?}", serde_json::from_str::<T>(json)));
        assert_eq!(here, serde_json::from_str::<T>(json).unwrap(), "{json}");
    }
    fn left<T: de::DeserializeOwned + PartialEq + std::fmt::Debug>(json: &str) {
        assert!(read::<T>(json).is_none(), "read here: {json}");
        let theirs = serde_json::from_str::<T>(json).map_err(|e| e.to_string());
        assert_eq!(crate::from_str::<T>(json).map_err(|e| e.to_string()), theirs, "{json}");
    }
    // Keys before the tag, escapes, unknown keys.
    same::<ClientMessage>(r#"{"params":{"name":"t","arguments":{"a":[1,2.5,-3,null]}},"jsonrpc":"2.0","id":"a\u0062","method":"tools/call","x":null}"#);
    // A method neither side names: a request with an `id`, else a notification.
    same::<ClientMessage>(r#"{"jsonrpc":"2.0","id":1,"method":"x/y","params":{}}"#);
    same::<ClientMessage>(r#"{"jsonrpc":"2.0","method":"x/y"}"#);
    // A result decided by a key (with an optional field's `null`, kept among the unknown keys),
    // one ranked over all its keys, an error.
    same::<ServerMessage>(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","title":null,"inputSchema":{"type":"object"}}]}}"#);
    same::<ServerMessage>(r#"{"id":3,"result":{"_meta":{"k":"v"}},"jsonrpc":"2.0"}"#);
    same::<JSONRPCMessage>(r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}"#);
    // Refused by the serde path: a repeated key, a notification with an `id`, a wrong literal,
    // a value of the wrong type.
    left::<ClientMessage>(r#"{"jsonrpc":"2.0","id":1,"method":"ping","id":2}"#);
    left::<ClientMessage>(r#"{"jsonrpc":"2.0","method":"notifications/initialized","id":5}"#);
    left::<ServerMessage>(r#"{"jsonrpc":"1.0","id":2,"result":{}}"#);
    left::<ServerMessage>(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":"none"}}"#);
}

/// Structs and tagged unions offered to the reader (`runtime::__private::deserialize_struct`) are read by the
/// tables wherever serde reaches them (at the top, inside a list, a map, an `Option`), with
/// serde_json's values; an offer that serde_json never took does not reach a later map.
#[cfg(feature = "v2025-11-25")]
#[test]
fn structs_and_tagged_unions_take_the_offer() {
    use crate::v2025_11_25::{CallToolResult, ClientRequest, Tool};
    use std::collections::BTreeMap;
    fn handed_over<T: de::DeserializeOwned + PartialEq + std::fmt::Debug>(json: &str) -> u32 {
        let before = HANDED_OVER.with(|n| n.get());
        let here: T = read(json).unwrap_or_else(|| panic!("left to serde_json: {json}"));
        assert_eq!(here, serde_json::from_str::<T>(json).unwrap(), "{json}");
        assert!(!crate::runtime::__private::take_offer(), "an offer outlived its read: {json}");
        HANDED_OVER.with(|n| n.get()) - before
    }
    let tool = r#"{"name":"t","inputSchema":{"type":"object"},"title":null,"x":[1]}"#;
    assert_eq!(handed_over::<Tool>(tool), 1);
    assert_eq!(handed_over::<Vec<Tool>>(&format!("[{tool},{tool}]")), 2);
    assert_eq!(handed_over::<BTreeMap<String, Option<Tool>>>(&format!(r#"{{"a":{tool},"b":null}}"#)), 1);
    assert_eq!(handed_over::<CallToolResult>(r#"{"content":[{"type":"text","text":"hi"}],"isError":false}"#), 1);
    assert_eq!(handed_over::<ClientRequest>(r#"{"id":1,"method":"tools/call","jsonrpc":"2.0","params":{"name":"t"}}"#), 1);
    // Refused by the tables as by the serde path: serde_json's error is the answer.
    assert!(read::<Tool>(r#"{"name":"t"}"#).is_none());
    assert_eq!(
        crate::from_str::<Tool>(r#"{"name":"t"}"#).map_err(|e| e.to_string()),
        serde_json::from_str::<Tool>(r#"{"name":"t"}"#).map_err(|e| e.to_string())
    );
    // serde_json refuses `12` before it visits: the offer must not reach the map read next.
    assert!(serde_json::from_str::<Tool>("12").is_err());
    assert_eq!(handed_over::<BTreeMap<String, Value>>(r#"{"a":1}"#), 0);
}

/// An input this reader refuses (a visitor's own error, no guess gone wrong) is answered by one
/// serde_json read without guessing: for messages with one key dropped or one value replaced, at
/// every depth, `from_str` and `from_slice` give serde_json's value or its error text, and many
/// of those inputs are refusals answered that way.
#[cfg(feature = "v2026-07-28")]
#[test]
fn refused_inputs_get_serde_json_errors() {
    use crate::v2026_07_28::{ClientMessage, ServerMessage};
    /// Every input one change away from `v`: a key dropped, or a value replaced.
    fn variants(v: &Value, out: &mut Vec<Value>, at: &mut dyn FnMut(Value) -> Value) {
        for other in [Value::Null, Value::from("x"), Value::from(1), Value::from(-1.5), Value::Array(vec![]), serde_json::json!({})] {
            if &other != v {
                out.push(at(other));
            }
        }
        match v {
            Value::Object(o) => {
                for k in o.keys() {
                    let mut dropped = o.clone();
                    dropped.remove(k);
                    out.push(at(Value::Object(dropped)));
                    variants(&o[k], out, &mut |x| {
                        let mut o = o.clone();
                        o.insert(k.clone(), x);
                        at(Value::Object(o))
                    });
                }
            }
            Value::Array(a) => {
                for i in 0..a.len() {
                    variants(&a[i], out, &mut |x| {
                        let mut a = a.clone();
                        a[i] = x;
                        at(Value::Array(a))
                    });
                }
            }
            _ => {}
        }
    }
    fn check<T: de::DeserializeOwned + PartialEq + std::fmt::Debug>(json: &str, refused: &mut usize) -> std::result::Result<(), String> {
        if matches!(read_fast::<T>(json), Outcome::Refused) {
            *refused += 1;
        }
        let theirs = serde_json::from_str::<T>(json).map_err(|e| e.to_string());
        let by_str = crate::from_str::<T>(json).map_err(|e| e.to_string());
        let by_slice = crate::from_slice::<T>(json.as_bytes()).map_err(|e| e.to_string());
        if by_str != theirs || by_slice != theirs {
            return Err(format!("{json}: serde_json {theirs:?}, from_str {by_str:?}, from_slice {by_slice:?}"));
        }
        Ok(())
    }
    let messages = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,"b"]},"_meta":{"k":1}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","title":"A","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}],"nextCursor":"c"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AA==","mimeType":"image/png"}],"isError":false}}"#,
        r#"{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"file:///a","text":"x","mimeType":"text/plain"}]}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","content":[{"type":"text","text":"a"}]}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2}}"#,
        r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"no","data":{"k":[1]}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///a"}}"#,
    ];
    let (mut passed, mut failed, mut refused) = (0, 0, 0);
    for m in messages {
        let mut inputs = vec![serde_json::from_str::<Value>(m).unwrap()];
        variants(&inputs[0].clone(), &mut inputs, &mut |x| x);
        for v in &inputs {
            let json = v.to_string();
            for r in [check::<ClientMessage>(&json, &mut refused), check::<ServerMessage>(&json, &mut refused)] {
                match r {
                    Ok(()) => passed += 1,
                    Err(e) => {
                        eprintln!("{e}");
                        failed += 1;
                    }
                }
            }
        }
    }
    println!("refused inputs: {passed} passed, {failed} failed ({refused} refused by this reader)");
    assert_eq!(failed, 0);
    assert!(refused > 100, "only {refused} refusals");
}

/// Strings with escapes are unescaped in a buffer each reader takes from the last one: a
/// shorter string after a longer one, in a reader of its own, keeps nothing of the first.
#[test]
fn a_kept_scratch_buffer_holds_only_the_string_read() {
    let (mut passed, mut failed) = (0, 0);
    let texts = [
        format!("{}\\n{}", "a".repeat(300), "b".repeat(300)),
        "x\\ty".to_string(),
        "\\\"".to_string(),
        format!("{}\\u00e9", "c".repeat(40)),
        "z\\\\".to_string(),
    ];
    for round in 0..3 {
        for t in &texts {
            let json = format!("\"{t}\"");
            let ours: Option<String> = read(&json);
            let theirs: String = serde_json::from_str(&json).unwrap();
            if ours.as_deref() == Some(theirs.as_str()) {
                passed += 1;
            } else {
                failed += 1;
                eprintln!("round {round}: {json} read as {ours:?}, serde_json reads {theirs:?}");
            }
        }
    }
    println!("kept scratch buffer: {passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// The key compare of the reader's tables (words, not `memcmp`) tells apart keys of every
/// length that differ in any one byte.
#[test]
fn keys_that_differ_in_one_byte_are_different_keys() {
    let (mut passed, mut failed) = (0, 0);
    for len in 0..=40usize {
        let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        if fast::same_key(&a, &a.clone()) {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("length {len}: a key differs from itself");
        }
        for at in 0..len {
            let mut b = a.clone();
            b[at] ^= 0x20;
            if fast::same_key(&a, &b) {
                failed += 1;
                eprintln!("length {len}: keys differing at {at} compare equal");
            } else {
                passed += 1;
            }
        }
        if len > 0 && fast::same_key(&a, &a[..len - 1]) {
            failed += 1;
            eprintln!("length {len}: a key equals its own prefix");
        }
    }
    println!("key compare: {passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// `special` is exactly the bytes JSON text must not hold unescaped in a string (RFC 8259: `"`,
/// `\` and U+0000 to U+001F), with the bit trick it uses; every byte value.
#[test]
fn special_is_quote_backslash_and_control_bytes() {
    let wrong: Vec<u8> = (0..=255u8).filter(|&b| reader::special(b) != (b == b'"' || b == b'\\' || b < 0x20)).collect();
    println!("{} passed, {} failed", 256 - wrong.len(), wrong.len());
    assert!(wrong.is_empty(), "misjudged bytes: {wrong:x?}");
}

/// The scans for a string's end (the first eight or sixteen bytes in the caller, then words,
/// then 64-byte blocks and the words of the block that holds the byte) find the first special
/// byte wherever it is, past bytes with the high bit set too.
#[test]
fn the_first_special_byte_is_found_at_every_offset() {
    let (mut passed, mut failed) = (0, 0);
    for len in 0..=200usize {
        // `None`: no special byte at all.
        for at in std::iter::once(None).chain((0..len).map(Some)) {
            for special in [b'"', b'\\', 0x1f] {
                let mut bytes: Vec<u8> = (0..len).map(|i| if i % 5 == 0 { 0xc3 } else { b'a' }).collect();
                if let Some(at) = at {
                    bytes[at] = special;
                }
                for start in [0, 1, 9] {
                    let start = start.min(len);
                    let want = bytes[start..].iter().position(|&b| reader::special(b)).map_or(len, |i| start + i);
                    for (scan, got) in [
                        ("find_special", reader::find_special(&bytes, start)),
                        ("find_special_here", reader::find_special_here(&bytes, start)),
                        ("find_special_here_16", reader::find_special_here_16(&bytes, start)),
                    ] {
                        if got == want {
                            passed += 1;
                        } else {
                            failed += 1;
                            eprintln!("{scan}: length {len}, special {special:#x} at {at:?}, from {start}: {got}, not {want}");
                        }
                    }
                }
            }
        }
    }
    println!("special byte scans: {passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// Strings with escapes at every density, as keys and as values, long and short, with
/// `\u` escapes and surrogate pairs among them, read as serde_json reads them.
#[test]
fn dense_and_sparse_escapes_agree_with_serde_json() {
    let escapes = [r#"\""#, r"\\", r"\/", r"\b", r"\f", r"\n", r"\r", r"\t", r"\u00e9", r"\u0000", r"\ud83d\ude00"];
    let mut count = 0;
    for gap in [0usize, 1, 3, 7, 8, 15, 16, 31, 63, 64, 65, 100] {
        for n in [1usize, 2, 5, 40] {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&"é".repeat(gap % 3));
                s.push_str(&"x".repeat(gap));
                s.push_str(escapes[(i + gap) % escapes.len()]);
            }
            let json = format!(r#"{{"{s}":"{s}","k{s}":["{s}"]}}"#);
            assert!(agrees(&json), "left to serde_json: {json}");
            count += 1;
        }
    }
    println!("escaped strings: {count} agree");
}

/// A member guessed at a key, then checked against the ranking over every key read: the keys
/// are kept on the stack up to eight and in a list past that, and keys out of the schema's order
/// and repeated keys are found (or refused) as the serde path does.
#[cfg(feature = "v2025-11-25")]
#[test]
fn guessed_members_with_many_keys_in_any_order() {
    use crate::v2025_11_25::{ServerMessage, ServerResult};
    fn same(json: &str) {
        let here: ServerMessage = read_here(json).unwrap_or_else(|| panic!("left to serde_json: {json}"));
        assert_eq!(here, serde_json::from_str::<ServerMessage>(json).unwrap(), "{json}");
    }
    let mut count = 0;
    for extra in [0usize, 7, 8, 9, 30] {
        let keys: String = (0..extra).map(|i| format!(r#","k{i}":{i}"#)).collect();
        // `content` guesses `CallToolResult`; unknown keys keep it the best.
        same(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[]{keys},"isError":true,"_meta":{{}}}}}}"#));
        // The schema's order reversed.
        same(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"isError":false,"structuredContent":{{"a":1}}{keys},"content":[{{"type":"text","text":"t"}}]}}}}"#));
        // A key of another member too: the guess is checked over every key and the ranking decides.
        let json = format!(r#"{{"result":{{"content":[]{keys},"tools":[]}},"id":2,"jsonrpc":"2.0"}}"#);
        let theirs = serde_json::from_str::<ServerMessage>(&json).map_err(|e| e.to_string());
        assert_eq!(crate::from_str::<ServerMessage>(&json).map_err(|e| e.to_string()), theirs, "{json}");
        // A repeated key: refused, serde_json's error.
        let json = format!(r#"{{"result":{{"content":[]{keys},"content":[]}},"id":3,"jsonrpc":"2.0"}}"#);
        let theirs = serde_json::from_str::<ServerMessage>(&json).map_err(|e| e.to_string());
        assert!(theirs.is_err(), "{json}");
        assert_eq!(crate::from_str::<ServerMessage>(&json).map_err(|e| e.to_string()), theirs, "{json}");
        assert!(read_here::<ServerResult>(r#"{"content":[],"content":[]}"#).is_none());
        count += 4;
    }
    println!("guessed members: {count} messages agree");
}
