//! A line is read once, as a compact tree (`tree::Doc`): what the engine decides from it is what a
//! `Value` of the same line decides (a repeated key: its last occurrence), its parse errors are
//! serde_json's, and what it hands the application is the `Value` serde_json reads.

use serde_json::{json, Value};

use super::*;
use crate::wire::{self, Incoming};

/// What a classification comes to, comparable.
#[derive(Debug, PartialEq)]
enum Seen {
    Request(Id, String, Option<Value>),
    Notification(String, Option<Value>),
    Result(Id, Value),
    Error(Option<Id>, mcp_spec_types::runtime::RpcError),
    Unreadable(Dropped, Option<Option<Id>>),
}

/// The engine's classification, on the tree.
fn on_tree(line: &[u8]) -> Seen {
    let doc = match wire::parse(line) {
        Ok(doc) => doc,
        Err(bad) => return Seen::Unreadable(bad.reason, bad.answer),
    };
    match wire::classify(doc.root()) {
        Ok(Incoming::Request { id, method, params, .. }) => Seen::Request(id, method.to_owned(), params.map(wire::value)),
        Ok(Incoming::Notification { method, params }) => Seen::Notification(method.to_owned(), params.map(wire::value)),
        Ok(Incoming::Result { id, result }) => Seen::Result(id, wire::value(result)),
        Ok(Incoming::Error { id, error }) => Seen::Error(id, error),
        Err(bad) => Seen::Unreadable(bad.reason, bad.answer),
    }
}

fn id_of(v: Value) -> Option<Id> {
    match v {
        Value::Number(n) => n.as_i64().map(Id::Number),
        Value::String(s) => Some(Id::String(s)),
        _ => None,
    }
}

/// The same rules read from a `Value` of the line: the engine's classification before the tree,
/// kept here as the reference.
fn on_value(line: &[u8]) -> Seen {
    let unreadable = |reason, answer| Seen::Unreadable(reason, answer);
    let mut o = match serde_json::from_slice::<Value>(line) {
        Err(e) => return unreadable(Dropped::NotJson(e.to_string()), Some(None)),
        Ok(Value::Object(o)) => o,
        Ok(Value::Array(_)) => return unreadable(Dropped::Malformed("a JSON-RPC batch, which only protocol version 2025-03-26 has"), Some(None)),
        Ok(_) => return unreadable(Dropped::Malformed("not a JSON object"), Some(None)),
    };
    let (has_method, has_id) = (o.contains_key("method"), o.contains_key("id"));
    let null_id = o.get("id") == Some(&Value::Null);
    let is_response = !has_method && (o.contains_key("result") || o.contains_key("error"));
    let id = o.remove("id").and_then(id_of);
    let answer = match (has_method, has_id) {
        (true, true) => Some(id.clone()),
        (true, false) => None,
        (false, _) if is_response => None,
        (false, _) => Some(None),
    };
    let bad = |reason: &'static str| Seen::Unreadable(Dropped::Malformed(reason), answer.clone());
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return bad("`jsonrpc` is not \"2.0\"");
    }
    if has_id && id.is_none() && !(is_response && null_id) {
        return bad("`id` is not a string or an integer");
    }
    if is_response {
        return match (o.remove("result"), o.remove("error"), id) {
            (Some(result), None, Some(id)) => Seen::Result(id, result),
            (Some(_), None, None) => bad("a result without an id"),
            (None, Some(error), id) => match serde_json::from_value(error) {
                Ok(error) => Seen::Error(id, error),
                Err(_) => bad("`error` is not a JSON-RPC error object"),
            },
            _ => bad("a response sets both `result` and `error`"),
        };
    }
    let Some(Value::String(method)) = o.remove("method") else {
        return bad(if has_method { "`method` is not a string" } else { "neither a request, a notification nor a response" });
    };
    let params = match o.remove("params") {
        p @ (None | Some(Value::Object(_))) => p,
        Some(_) => return bad("`params` is not an object"),
    };
    match id {
        Some(id) => Seen::Request(id, method, params),
        None => Seen::Notification(method, params),
    }
}

/// Lines whose keys repeat, in every order: each classified as its `Value` is.
#[test]
fn repeated_keys_are_read_as_a_value_reads_them_the_last() {
    let lines: &[&[u8]] = &[
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","method":"ping"}"#,
        br#"{"method":"ping","jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":1},"params":{"b":2}}"#,
        br#"{"jsonrpc":"2.0","id":1,"id":"two","method":"m"}"#,
        br#"{"jsonrpc":"2.0","id":"x","id":null,"method":"m"}"#,
        br#"{"jsonrpc":"1.0","jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progress":2}}"#,
        br#"{"jsonrpc":"2.0","jsonrpc":"1.0","method":"m"}"#,
        br#"{"jsonrpc":"2.0","method":"m","method":7}"#,
        br#"{"jsonrpc":"2.0","method":7,"method":"m","params":[],"params":{}}"#,
        br#"{"jsonrpc":"2.0","method":"m","params":{},"params":[]}"#,
        br#"{"jsonrpc":"2.0","id":3,"result":{"k":1,"k":{"z":1,"a":2}},"result":{"b":1,"a":[1,1.0,-0,1e2]}}"#,
        br#"{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m","code":-32601}}"#,
        br#"{"jsonrpc":"2.0","id":3,"error":{"code":1},"error":{"code":-32601,"message":"m","message":"n"}}"#,
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"},"id":null}"#,
    ];
    let (mut passed, mut failed) = (0, 0);
    for line in lines {
        let (tree, value) = (on_tree(line), on_value(line));
        if tree == value {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("{}: tree {tree:?}, Value {value:?}", String::from_utf8_lossy(line));
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
    // And the engine acts on it: the last `method` is the one answered.
    let mut s = Server::new(Config::default());
    s.handle_line(lines[0]).unwrap();
    let answers: Vec<Value> = std::iter::from_fn(|| s.poll_transmit()).map(|t| serde_json::from_slice(&t.line).unwrap()).collect();
    assert_eq!(answers, vec![json!({"jsonrpc": "2.0", "id": 1, "result": {}})], "answered as `ping`, not offered as `initialize`");
    assert!(s.poll_event().is_none());
}

/// Valid lines with bytes changed, cut and inserted: the tree's classification is the `Value`'s on
/// every one, parse errors (serde_json's text) included.
#[test]
fn mangled_lines_are_classified_as_their_value_is() {
    let lines: &[&[u8]] = &[
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"sampling":{}},"protocolVersion":"2025-11-25"}}"#,
        br#"{"jsonrpc":"2.0","id":"a\u00e9\n","result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"n":[1,-1,1.5,1e400]}}"#,
        br#"{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no","data":[1,{"a":null}]}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5,"total":18446744073709551616}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"\ud83d\ude00"}}"#,
        br#"[{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"_meta":{"progressToken":"t"}}}]"#,
        "{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775808,\"method\":\"é\",\"params\":{\"ü\":\"\u{1F600}\"}}".as_bytes(),
    ];
    let mut next = super::xorshift(0x9e37_79b9_7f4a_7c15);
    let (mut passed, mut failed) = (0, 0);
    for round in 0..20_000 {
        let mut line = lines[round % lines.len()].to_vec();
        super::mangle(&mut line, 4, &mut next);
        let (tree, value) = (on_tree(&line), on_value(&line));
        if tree == value {
            passed += 1;
        } else {
            failed += 1;
            if failed <= 5 {
                eprintln!("{}: tree {tree:?}, Value {value:?}", String::from_utf8_lossy(&line));
            }
        }
    }
    // Bytes that are no UTF-8, inside a string and out.
    for line in [&b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}"[..], b"\xff", b"{\"a\":1}\xc3", b"{\"a\":\"\xed\xa0\x80\"}"] {
        if on_tree(line) == on_value(line) {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("{}: tree {:?}, Value {:?}", String::from_utf8_lossy(line), on_tree(line), on_value(line));
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// Validation reads the request as it came; keys the envelope does not name change nothing: the
/// same answer, in every version built, as for the envelope and `params` alone (the message the
/// engine built to validate before it read the tree).
#[test]
fn keys_outside_the_envelope_do_not_change_validation() {
    let params = [json!({"name": "t"}), json!({"arguments": {"a": 1}}), json!({"name": 7, "_meta": {"progressToken": 1.5}})];
    let extras = [json!({"x": 1}), json!({"result": {}}), json!({"error": {"code": 1, "message": "m"}}), json!({"_meta": {"a": 1}}), json!({"result": 1, "error": null})];
    let (mut passed, mut failed, mut refused) = (0, 0, 0);
    for version in crate::check::BUILT {
        for p in &params {
            let alone = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": p});
            let expected = crate::check::request(version, "tools/call", mcp_spec_types::tree::Doc::from_value(&alone).root());
            refused += usize::from(expected.is_some());
            for extra in &extras {
                let mut line = alone.clone();
                for (k, v) in extra.as_object().unwrap() {
                    line[k] = v.clone();
                }
                let got = crate::check::request(version, "tools/call", mcp_spec_types::tree::Doc::from_value(&line).root());
                if got == expected {
                    passed += 1;
                } else {
                    failed += 1;
                    eprintln!("{version}: {line}: {got:?}, expected {expected:?}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed ({refused} of the messages alone refused)");
    assert_eq!(failed, 0);
}
