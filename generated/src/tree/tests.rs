//! The tree against `serde_json::Value` on the same texts: what each accepts, the error, the
//! value, and the typed reads.

use serde_json::Value;

use super::{Doc, Kind};

/// Parses `text` both ways and checks that they agree; returns whether it parsed.
fn agree(text: &str) -> bool {
    let tree = Doc::parse(text);
    let value = serde_json::from_str::<Value>(text);
    match (&tree, &value) {
        (Ok(doc), Ok(v)) => {
            assert_eq!(doc.root().to_value(), *v, "value of {text:?}");
            assert!(doc.root() == *v, "PartialEq on {text:?}");
            // Written back and read again: the same value (key order aside, which `Value` sorts).
            let again: Value = serde_json::from_str(&doc.root().to_string()).unwrap();
            assert_eq!(again, *v, "display of {text:?}");
            true
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "error on {text:?}");
            false
        }
        _ => panic!("{text:?}: tree {:?}, value {:?}", tree.map(|d| d.root().to_value()), value),
    }
}

#[test]
fn edge_cases_read_as_value_reads_them() {
    let cases = [
        "null", "true", "false", "0", "-0", "-0.0", "1.0", "1e2", "1E+2", "1e-2", "-1", "18446744073709551615",
        "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
        "1e400", "-1e400", "1e-400", "1.7976931348623157e308", "0.1", "1e0000001", "1e-0000400", "01", "-", "1.", ".5",
        "1e", "+1", "\"\"", "\"a\\\"b\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
        "\"\\x\"", "\"a\nb\"", "\"\\u0000\"", "[]", "{}", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{1:2}", "[",
        "{", "{\"a\":}", " [ 1 , { \"a\" : [ ] } ] ", "[1] x", "[1]\n", "\u{feff}1", "{\"a\":1,\"a\":2}",
        "{\"b\":1,\"a\":2,\"b\":3,\"c\":{\"x\":1,\"x\":[2]}}", "nul", "truex", "[true,false,null]", "\"\u{10ffff}\"",
        "{\"k\\u0065y\":1,\"key\":2}", "", "   ", "[[[[]]]]",
    ];
    let mut parsed = 0;
    for text in cases {
        parsed += agree(text) as usize;
    }
    println!("{} cases, {parsed} parsed, {} refused, 0 disagreed", cases.len(), cases.len() - parsed);
}

#[test]
fn bytes_that_are_not_utf8_get_serde_jsons_error() {
    for bytes in [&b"\"\xff\""[..], b"[1, \"a\xc3\"]", b"{\"k\xe2\x82\":1}", b"\xef\xbb\xbf1", b"[\"\xed\xa0\x80\"]"] {
        let tree = Doc::parse_slice(bytes).map(|_| ()).map_err(|e| e.to_string());
        let value = serde_json::from_slice::<Value>(bytes).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(tree, value, "{bytes:?}");
    }
}

#[test]
fn nesting_stops_where_serde_json_stops() {
    for depth in [126, 127, 128, 129, 500] {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let text = format!("{}1{}", open.repeat(depth), close.repeat(depth));
            agree(&text);
        }
    }
}

#[test]
fn a_repeated_key_is_seen_once_with_its_last_value() {
    let doc = Doc::parse(r#"{"b":1,"a":2,"b":3}"#).unwrap();
    let o = doc.root().as_object().unwrap();
    assert_eq!(o.len(), 2);
    assert_eq!(o.iter().map(|(k, v)| (k, v.as_u64().unwrap())).collect::<Vec<_>>(), [("a", 2), ("b", 3)]);
    assert_eq!(o.get("b").unwrap().as_u64(), Some(3));
    // Without a repeat, keys come in the text's order.
    let doc = Doc::parse(r#"{"z":1,"a":2}"#).unwrap();
    assert_eq!(doc.root().as_object().unwrap().keys().collect::<Vec<_>>(), ["z", "a"]);
}

#[test]
fn numbers_answer_as_value_numbers_do() {
    for text in ["0", "-0", "7", "-7", "18446744073709551615", "18446744073709551616", "-9223372036854775808", "9223372036854775808", "1.5", "1e2", "-1e-400"] {
        let doc = Doc::parse(text).unwrap();
        let n = doc.root();
        let v: Value = serde_json::from_str(text).unwrap();
        assert_eq!((n.as_u64(), n.as_i64(), n.as_f64().map(f64::to_bits)), (v.as_u64(), v.as_i64(), v.as_f64().map(f64::to_bits)), "{text}");
        assert_eq!((n.is_u64(), n.is_i64(), n.is_f64()), (v.is_u64(), v.is_i64(), v.is_f64()), "{text}");
        assert_eq!(n.to_string(), v.to_string(), "{text}");
    }
}

#[test]
fn strings_borrow_the_text_unless_escaped() {
    let text = r#"["plain","tab\there"]"#;
    let doc = Doc::parse(text).unwrap();
    let a = doc.root().as_array().unwrap();
    let plain = a.get(0).unwrap().as_str().unwrap();
    assert!(text.as_bytes().as_ptr_range().contains(&plain.as_ptr()));
    assert!(matches!(a.get(1).unwrap().kind(), Kind::String("tab\there")));
}

/// A container's text is found past numbers the typed reader does not take (beyond 64 bits, long
/// exponents: found by the tree fuzz target, where `json_text` panicked) and past brackets, quotes
/// and backslashes inside strings.
#[test]
fn a_container_knows_its_text_whatever_it_holds() {
    let texts = [
        "[9223372036854775872036854775807]",
        r#"{"result":92233720368547758070, "b": [1e-4000, -1.5E-400000]}"#,
        r#"[ {"a\"]}" : "\\" , "b":"]}\"{["} , "\u005d" ]"#,
        "[[[[ ]]] , [ 77777777777777777777777777777777777777 ] ]",
    ];
    let mut n = 0;
    for text in texts {
        let doc = Doc::parse(text).unwrap();
        assert_eq!(doc.root().json_text(), text.trim());
        let mut stack = vec![doc.root()];
        while let Some(x) = stack.pop() {
            assert_eq!(serde_json::from_str::<Value>(x.json_text()).unwrap(), x.to_value(), "{text}: {}", x.json_text());
            n += 1;
            match x.kind() {
                Kind::Array(a) => stack.extend(a.iter()),
                Kind::Object(o) => stack.extend(o.values()),
                _ => {}
            }
        }
    }
    println!("{n} nodes, each its text");
}

#[test]
fn every_node_knows_its_text() {
    let text = r#" { "a" : [ 1 , -2.5e3 , "x\ny" , { } , [ ] , null , true , false ] , "b\u0041" : { "c" : "plain" } } "#;
    let doc = Doc::parse(text).unwrap();
    let root = doc.root();
    assert_eq!(root.json_text(), text.trim());
    let a = root.get("a").unwrap();
    let texts: Vec<&str> = a.as_array().unwrap().iter().map(|n| n.json_text()).collect();
    assert_eq!(texts, ["1", "-2.5e3", r#""x\ny""#, "{ }", "[ ]", "null", "true", "false"]);
    assert_eq!(root.get("bA").unwrap().json_text(), r#"{ "c" : "plain" }"#);
    assert_eq!(root.get("bA").unwrap().get("c").unwrap().json_text(), r#""plain""#);
    // Each node's text parses to the node's value.
    let mut stack = vec![root];
    let mut n = 0;
    while let Some(x) = stack.pop() {
        assert_eq!(serde_json::from_str::<Value>(x.json_text()).unwrap(), x.to_value());
        n += 1;
        match x.kind() {
            Kind::Array(a) => stack.extend(a.iter()),
            Kind::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    assert_eq!(n, 12);
}

#[test]
fn a_raw_value_reads_as_the_nodes_own_text() {
    let text = r#"{"keep": {"b": [1, 2], "a": "\u00e9"}}"#;
    let doc = Doc::parse(text).unwrap();
    let raw: std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> = doc.root().deserialize().unwrap();
    assert_eq!(raw["keep"].get(), r#"{"b": [1, 2], "a": "\u00e9"}"#);
}

#[test]
fn one_key_objects_cost_16_bytes_each() {
    let text = format!("[{}]", vec![r#"{"k":1}"#; 100_000].join(","));
    let doc = Doc::parse(&text).unwrap();
    // The array, and per object its entry and one for the key with its value.
    assert_eq!(doc.tape.len(), 1 + 2 * 100_000);
    println!("{} bytes of text, {} bytes of tree", text.len(), doc.tree_bytes());
    assert!(doc.tree_bytes() <= 2 * text.len() + 64, "{} > 2 × {}", doc.tree_bytes(), text.len());
}

/// A key and its value share an entry only within the entry's limits (key 255 bytes, 15 bytes
/// between them, value 65,535 bytes, no escapes); on both sides of each limit every answer is
/// `Value`'s, and the value's text is the document's.
#[test]
fn members_on_both_sides_of_the_shared_entry_limits() {
    let long = |n: usize| "x".repeat(n);
    let cases: Vec<(String, String, String)> = vec![
        (long(255), ":".into(), "1".into()),
        (long(256), ":".into(), "1".into()),
        ("k".into(), format!("{}:", " ".repeat(14)), "true".into()),
        ("k".into(), format!("{}:", " ".repeat(15)), "false".into()),
        ("k".into(), format!(":{}", " ".repeat(14)), "null".into()),
        ("k".into(), ": ".into(), format!("\"{}\"", long(65_535))),
        ("k".into(), ": ".into(), format!("\"{}\"", long(65_536))),
        ("k".into(), ":".into(), format!("-0.{}1", "0".repeat(65_531))),
        ("k".into(), ":".into(), format!("0.{}1", "0".repeat(65_533))),
        ("k\\u00e9".into(), ":".into(), "2".into()),
        ("k".into(), ":".into(), "\"a\\nb\"".into()),
        ("".into(), ":".into(), "\"\"".into()),
        ("k".into(), ":".into(), "[1,{\"a\":null}]".into()),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (key, gap, value) in &cases {
        let text = format!(r#"{{"a":0, "{key}"{gap}{value}, "z":{{"{key}"{gap}{value}}}, "a" : 3}}"#);
        let doc = Doc::parse(&text).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let root = doc.root();
        let unescaped: String = serde_json::from_str(&format!("\"{key}\"")).unwrap();
        let ok = root.to_value() == v
            && root.get(&unescaped).map(|n| n.json_text()) == Some(value.as_str())
            && root.get("z").and_then(|z| z.get(&unescaped)).map(|n| n.to_value()) == Some(v["z"][&unescaped].clone())
            && root.get("a").and_then(|n| n.as_u64()) == Some(3)
            && root.as_object().unwrap().keys().collect::<Vec<_>>() == vec![unescaped.as_str(), "z", "a"]
            && root.deserialize::<Value>().ok() == Some(v.clone());
        if ok {
            passed += 1;
        } else {
            failed += 1;
            println!("differs: key {} bytes, gap {gap:?}, value {} bytes", key.len(), value.len());
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// Reads `text` as `T` from the tree and from a `Value`: the same value or the same error.
fn read_both<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) {
    let doc = Doc::parse(text).unwrap();
    let v: Value = serde_json::from_str(text).unwrap();
    let from_tree = T::deserialize(doc.root()).map_err(|e| e.to_string());
    let from_value = T::deserialize(&v).map_err(|e| e.to_string());
    assert_eq!(from_tree, from_value, "{text} as {}", std::any::type_name::<T>());
}

#[test]
fn typed_reads_from_the_tree_match_reads_from_a_value() {
    use std::collections::BTreeMap;
    type Map = BTreeMap<String, Option<Vec<u32>>>;
    let texts = [
        r#"{"a":[1,2],"b":null}"#, r#"{"a":[1,-2]}"#, r#"{"a":[4294967296]}"#, r#"{"a":"no"}"#, r#"{"a":[1],"a":[2]}"#,
        r#"[1,["x"]]"#, r#"{"Ok":3}"#, r#"{"Err":"e"}"#, r#""Ok""#, r#"{"Err":"x","Ok":1}"#, r#"{"Nope":1}"#, "1.5", "-0",
        "18446744073709551616", "null", r#""a\u00e9""#, "[true,false]", r#"[1,2,3]"#, r#"{"x":{"y":[1.0e1]}}"#,
    ];
    for text in texts {
        read_both::<Map>(text);
        read_both::<Result<u8, String>>(text);
        read_both::<(u8, Vec<String>)>(text);
        read_both::<Option<f64>>(text);
        read_both::<Value>(text);
        read_both::<String>(text);
        read_both::<Vec<bool>>(text);
        read_both::<(u8, u8)>(text);
        read_both::<i64>(text);
        // Each kind's own method refuses other kinds, as `Value`'s does, though the visitor would take them
        // (serde_json's map takes `null` as empty; found by the `tree` fuzz target).
        read_both::<serde_json::Map<String, Value>>(text);
        read_both::<bool>(text);
        read_both::<()>(text);
    }
    println!("{} texts × 12 types, all read alike", texts.len());
}

#[cfg(feature = "v2025-11-25")]
#[test]
fn generated_types_read_from_the_tree_as_from_a_value() {
    use crate::v2025_11_25::{ClientMessage, ServerMessage};
    let texts = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"a":[{"k":1}]}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":0.5}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#,
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{"contents":"not a list"}}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"ping","method":"tools/list"}"#,
    ];
    for text in texts {
        read_both::<ClientMessage>(text);
        read_both::<ServerMessage>(text);
    }
}

/// A small random JSON text, sometimes broken; the same seed gives the same text.
fn random_text(seed: &mut u64, depth: u32, out: &mut String) {
    fn step(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }
    let pick = step(seed) % if depth > 4 { 6 } else { 9 };
    const ATOMS: [&str; 18] = [
        "0", "-0", "1.25e3", "18446744073709551616", "-12", "true", "null", "\"a\"", "\"\\u00e9\\n\"", "\"\\ud83d\\ude00\"",
        "1e999", "\"\\ud800\"", "01", "\"k\"", "false", "3.0", "-9223372036854775809", "\"\u{e9}\"",
    ];
    match pick {
        0..=5 => out.push_str(ATOMS[(step(seed) % ATOMS.len() as u64) as usize]),
        6 | 7 => {
            let object = pick == 7;
            out.push(if object { '{' } else { '[' });
            for i in 0..step(seed) % 4 {
                if i > 0 {
                    out.push(',');
                }
                if object {
                    out.push_str(["\"a\"", "\"b\"", "\"a\\u0062\"", "\"\""][(step(seed) % 4) as usize]);
                    out.push(':');
                }
                random_text(seed, depth + 1, out);
            }
            out.push(if object { '}' } else { ']' });
        }
        _ => out.push_str([" ", ",", "]", "}", ":", "\"", "{\"a\"", "[1"][(step(seed) % 8) as usize]),
    }
}

#[test]
fn random_texts_read_as_value_reads_them() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let (mut parsed, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let mut text = String::new();
        random_text(&mut seed, 0, &mut text);
        if agree(&text) {
            parsed += 1;
        } else {
            refused += 1;
        }
    }
    println!("{} texts: {parsed} parsed, {refused} refused, 0 disagreed", parsed + refused);
    assert!(parsed > 1000 && refused > 1000, "the generator makes both kinds");
}
