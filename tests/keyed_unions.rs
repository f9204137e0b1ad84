//! Unions decided by the keys present (`JSONRPCMessage`, `ServerResult`, `ClientResult`,
//! text-or-blob contents, enum schemas) read without a `serde_json::Value` buffer. These
//! tests hold that reading to the same answer whatever the input source, and pin the rules:
//! a deciding key streams, otherwise the best-ranked member that can read the object wins.
//! `mcp_spec_types::from_slice` guesses a member at a key only it names and reads again when the
//! guess is wrong; it must give exactly what `serde_json::from_slice` gives.

use mcp_spec_types::{v2024_11_05 as v1, v2025_06_18 as v3, v2025_11_25 as v4, v2026_07_28 as v6};
use mcp_schema_tests::Tally;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::PathBuf;

fn sessions() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/data/sessions")
}

/// The same line through every kind of serde_json input gives the same value, which
/// writes back as the line.
fn all_sources_agree<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(line: &str) -> Result<(), String> {
    let from_str: T = serde_json::from_str(line).map_err(|e| format!("from_str: {e}"))?;
    let from_slice: T = serde_json::from_slice(line.as_bytes()).map_err(|e| format!("from_slice: {e}"))?;
    let from_reader: T = serde_json::from_reader(line.as_bytes()).map_err(|e| format!("from_reader: {e}"))?;
    let value: Value = serde_json::from_str(line).unwrap();
    let from_value: T = serde_json::from_value(value.clone()).map_err(|e| format!("from_value: {e}"))?;
    let from_ref = T::deserialize(&value).map_err(|e| format!("&Value: {e}"))?;
    let guessed_slice: T = mcp_spec_types::from_slice(line.as_bytes()).map_err(|e| format!("mcp_spec_types::from_slice: {e}"))?;
    let guessed_str: T = mcp_spec_types::from_str(line).map_err(|e| format!("mcp_spec_types::from_str: {e}"))?;
    // A valid message is read by the crate's own reader, not left to serde_json.
    let here: T = mcp_spec_types::__read_here(line).ok_or("the crate's reader left it to serde_json")?;
    for (how, other) in [
        ("from_slice", &from_slice),
        ("from_reader", &from_reader),
        ("from_value", &from_value),
        ("&Value", &from_ref),
        ("mcp_spec_types::from_slice", &guessed_slice),
        ("mcp_spec_types::from_str", &guessed_str),
        ("the crate's reader alone", &here),
    ] {
        if *other != from_str {
            return Err(format!("{how} differs from from_str"));
        }
    }
    let back = serde_json::to_value(&from_str).unwrap();
    if back != value {
        return Err(format!("round trip changed the message: {back}"));
    }
    Ok(())
}

#[test]
fn recorded_sessions_read_alike_from_every_source() {
    let mut tally = Tally::default();
    for (file, check) in [
        ("2024-11-05.jsonl", all_sources_agree::<v1::JSONRPCMessage> as fn(&str) -> Result<(), String>),
        ("2025-06-18.jsonl", all_sources_agree::<v3::JSONRPCMessage>),
        ("2025-11-25.jsonl", all_sources_agree::<v4::JSONRPCMessage>),
    ] {
        let text = std::fs::read_to_string(sessions().join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let rec: Value = serde_json::from_str(line).unwrap();
            let msg = rec["msg"].to_string();
            tally.check(check(&msg).map_err(|e| format!("{file}:{}: {e}", n + 1)));
            // Results read alone, as the union of the direction's results.
            if let Some(result) = rec["msg"].get("result") {
                let r = result.to_string();
                let outcome = if rec["dir"] == "s2c" { all_sources_agree::<v4::ServerResult>(&r) } else { all_sources_agree::<v4::ClientResult>(&r) };
                if file == "2025-11-25.jsonl" {
                    tally.check(outcome.map_err(|e| format!("{file}:{} result: {e}", n + 1)));
                }
            }
        }
    }
    assert!(tally.passed > 100, "only {} checks ran", tally.passed);
    tally.finish("sessions from every source");
}

#[test]
fn a_deciding_key_streams_wherever_it_comes() {
    // `result` decides the response whether it comes first (as the TypeScript SDK writes it) or last.
    let mut tally = Tally::default();
    for line in [
        r#"{"result":{"tools":[]},"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#,
        r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"m"},"id":"a"}"#,
        r#"{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"parse"}}"#,
    ] {
        tally.check(all_sources_agree::<v6::JSONRPCMessage>(line).map_err(|e| format!("{line}: {e}")));
        tally.check(all_sources_agree::<v4::JSONRPCMessage>(line).map_err(|e| format!("{line}: {e}")));
    }
    let m: v6::JSONRPCMessage = serde_json::from_str(r#"{"result":{"tools":[]},"jsonrpc":"2.0","id":1}"#).unwrap();
    tally.check(matches!(m, v6::JSONRPCMessage::JSONRPCResponse(v6::JSONRPCResponse::JSONRPCResultResponse(_))).then_some(()).ok_or("not a result response".into()));
    // The member a deciding key picks reports its own error; nothing else is tried.
    let e = serde_json::from_str::<v6::JSONRPCMessage>(r#"{"jsonrpc":"2.0","error":{"code":"x","message":"m"}}"#).unwrap_err().to_string();
    tally.check(e.contains("invalid type: string \"x\"").then_some(()).ok_or(format!("error response with a bad code: {e}")));
    tally.finish("deciding keys");
}

#[test]
fn only_a_result_no_member_names_a_key_of_is_kept_whole() {
    // `ServerResult` holds `EmptyResult` (= `Result`), which takes any object, but only when no other
    // member names one of its keys: a key a member names makes it that member or its error.
    let mut tally = Tally::default();
    for (line, want) in [
        (r#"{"content":"plain text"}"#, None),
        (r#"{"tools":5,"_meta":{"k":1}}"#, None),
        (r#"{"contents":[{"uri":"a","text":"t"}]}"#, Some("ReadResourceResult")),
        (r#"{"content":[{"type":"text","text":"t"}],"isError":true}"#, Some("CallToolResult")),
        (r#"{}"#, Some("Result")),
        (r#"{"_meta":{"k":1},"someNewKey":[1]}"#, Some("Result")),
    ] {
        let read = serde_json::from_str::<v4::ServerResult>(line);
        match (read, want) {
            (Ok(r), Some(want)) => {
                let got = mcp_spec_types::runtime::SchemaType::schema_name(&r);
                let back = serde_json::to_value(&r).unwrap();
                let ok = got == want && back == serde_json::from_str::<Value>(line).unwrap();
                tally.check(ok.then_some(()).ok_or(format!("{line}: read as {got}, written {back}")));
                tally.check(all_sources_agree::<v4::ServerResult>(line).map_err(|e| format!("{line}: {e}")));
            }
            (Err(e), None) => tally.check(e.to_string().contains("invalid type").then_some(()).ok_or(format!("{line}: {e}"))),
            (read, want) => tally.check(Err(format!("{line}: read {read:?}, want {want:?}"))),
        }
    }
    tally.finish("catch-all results");
}

#[test]
fn a_tie_on_keys_falls_through_to_the_member_that_reads_the_values() {
    // Titled and untitled multi-select schemas have the same keys; only `items` tells them apart.
    let titled = json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}});
    let untitled = json!({"type": "array", "items": {"type": "string", "enum": ["a"]}});
    let t: v6::EnumSchema = serde_json::from_value(titled.clone()).unwrap();
    let u: v6::EnumSchema = serde_json::from_str(&untitled.to_string()).unwrap();
    assert!(matches!(t, v6::EnumSchema::MultiSelectEnumSchema(v6::MultiSelectEnumSchema::TitledMultiSelectEnumSchema(_))), "{t:?}");
    assert!(matches!(u, v6::EnumSchema::MultiSelectEnumSchema(v6::MultiSelectEnumSchema::UntitledMultiSelectEnumSchema(_))), "{u:?}");
    assert_eq!(serde_json::to_value(&t).unwrap(), titled);
    // Nothing reads it: the best-ranked member's error, with the path inside the value.
    let e = serde_json::from_str::<v6::EnumSchema>(r#"{"type":"array","items":{"anyOf":3}}"#).unwrap_err().to_string();
    assert!(e.contains("missing field `type`") || e.contains("invalid type"), "{e}");
}

#[test]
fn keys_with_escapes_and_literals_written_with_escapes_still_decide() {
    // `"2.0"` written as `"2\u002e0"` is the same literal; `"re\u0073ult"` is the key `result`.
    let line = r#"{"jsonrpc":"2\u002e0","id":1,"re\u0073ult":{}}"#;
    let m: v6::JSONRPCMessage = serde_json::from_str(line).unwrap();
    assert!(matches!(m, v6::JSONRPCMessage::JSONRPCResponse(_)), "{m:?}");
    let r: v6::ReadResourceResultContentsItem = serde_json::from_str(r#"{"uri":"a","\u0062lob":"AA=="}"#).unwrap();
    assert!(matches!(r, v6::ReadResourceResultContentsItem::BlobResourceContents(_)), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Typed envelopes: `ClientMessage` / `ServerMessage`

fn envelope_for<C, S>(file: &std::path::Path, tally: &mut Tally) -> usize
where
    C: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
    S: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug,
{
    let text = std::fs::read_to_string(file).unwrap();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let rec: Value = serde_json::from_str(line).unwrap();
        let msg = rec["msg"].to_string();
        let outcome = if rec["dir"] == "c2s" { all_sources_agree::<C>(&msg) } else { all_sources_agree::<S>(&msg) };
        // The recordings hold one deliberately invalid `tools/call` (no `params.name`).
        let invalid = rec["msg"]["method"] == "tools/call" && rec["msg"]["params"].get("name").is_none();
        match (outcome, invalid) {
            (Ok(()), false) | (Err(_), true) => tally.check(Ok(())),
            (Ok(()), true) => tally.check(Err(format!("{}:{}: the invalid call was accepted", file.display(), i + 1))),
            (Err(e), false) => tally.check(Err(format!("{}:{}: {e}", file.display(), i + 1))),
        }
        n += 1;
    }
    n
}

#[test]
fn recorded_sessions_read_as_typed_envelopes() {
    let mut tally = Tally::default();
    let bidi = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/data/sessions/2025-11-25-bidirectional.jsonl");
    let mut n = envelope_for::<v1::ClientMessage, v1::ServerMessage>(&sessions().join("2024-11-05.jsonl"), &mut tally);
    n += envelope_for::<v3::ClientMessage, v3::ServerMessage>(&sessions().join("2025-06-18.jsonl"), &mut tally);
    n += envelope_for::<v4::ClientMessage, v4::ServerMessage>(&sessions().join("2025-11-25.jsonl"), &mut tally);
    n += envelope_for::<v4::ClientMessage, v4::ServerMessage>(&bidi, &mut tally);
    assert!(n > 150, "{n} messages");
    tally.finish("typed envelopes over recorded sessions");
}

#[test]
fn envelopes_pick_the_variant_by_method_result_or_error() {
    use mcp_spec_types::runtime::Message;
    let read = |line: &str| serde_json::from_str::<v4::ServerMessage>(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    // The result comes first, as the TypeScript SDK writes it, and is typed.
    match read(r#"{"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]},"jsonrpc":"2.0","id":7}"#) {
        Message::Result(r) => {
            assert_eq!(r.id, v4::RequestId::Integer(7));
            assert!(matches!(r.result, v4::ServerResult::ListToolsResult(_)), "{:?}", r.result);
        }
        other => panic!("{other:?}"),
    }
    // Keys before `method` are kept and replayed into the request.
    match read(r#"{"id":"r1","jsonrpc":"2.0","method":"roots/list"}"#) {
        Message::Request(v4::ServerRequest::ListRootsRequest(r)) => assert_eq!(r.id, v4::RequestId::String("r1".into())),
        other => panic!("{other:?}"),
    }
    assert!(matches!(read(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#), Message::Notification(v4::ServerNotification::ToolListChangedNotification(_))));
    assert!(matches!(read(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#), Message::Error(_)));
    // A method neither side names: `id` decides, and the object is kept whole.
    let line = r#"{"jsonrpc":"2.0","method":"x/custom","params":{"a":[1]},"id":3}"#;
    match read(line) {
        Message::Request(v4::ServerRequest::Unknown(m)) => assert_eq!(Value::Object(m), serde_json::from_str::<Value>(line).unwrap()),
        other => panic!("{other:?}"),
    }
    assert!(matches!(read(r#"{"method":"x/custom","jsonrpc":"2.0"}"#), Message::Notification(v4::ServerNotification::Unknown(_))));
    // A client method arriving from the server is not a server request.
    let e = serde_json::from_str::<v4::ServerMessage>(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#);
    assert!(matches!(e, Ok(Message::Request(v4::ServerRequest::Unknown(_)))), "{e:?}");
    // 2026-07-28: the server sends no requests, and the client's only notification is a single type.
    let e = serde_json::from_str::<v6::ServerMessage>(r#"{"jsonrpc":"2.0","id":1,"method":"x/y"}"#).unwrap_err().to_string();
    assert!(e.contains("no requests in this direction"), "{e}");
    let c: v6::ClientMessage = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#).unwrap();
    assert!(matches!(c, Message::Notification(_)), "{c:?}");
    // Not a message at all, and a bad literal: errors, with the rule.
    let e = serde_json::from_str::<v4::ClientMessage>(r#"{"jsonrpc":"2.0","id":1}"#).unwrap_err().to_string();
    assert!(e.contains("none of `method`, `result` and `error`"), "{e}");
    let e = serde_json::from_str::<v4::ClientMessage>(r#"{"jsonrpc":"1.0","id":1,"result":{}}"#).unwrap_err().to_string();
    assert!(e.contains("`jsonrpc` must be \"2.0\""), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Guessing (`mcp_spec_types::from_slice`): the same answer as `serde_json::from_slice`, always

/// Both readers give the same value, or the same error.
fn guess_agrees<T: DeserializeOwned + PartialEq + std::fmt::Debug>(json: &str) -> Result<(), String> {
    let plain = serde_json::from_str::<T>(json).map_err(|e| e.to_string());
    let guessed = mcp_spec_types::from_str::<T>(json).map_err(|e| e.to_string());
    let sliced = mcp_spec_types::from_slice::<T>(json.as_bytes()).map_err(|e| e.to_string());
    if plain != guessed || plain != sliced {
        return Err(format!("{json}: serde_json {plain:?}, mcp_spec_types::from_str {guessed:?}, mcp_spec_types::from_slice {sliced:?}"));
    }
    // What the crate's reader reads alone, serde_json reads too, as the same value.
    match (mcp_spec_types::__read_here::<T>(json), &plain) {
        (Some(here), Ok(v)) if here != *v => Err(format!("{json}: the crate's reader alone read {here:?}, serde_json {v:?}")),
        (Some(here), Err(e)) => Err(format!("{json}: the crate's reader alone read {here:?}, serde_json refused it: {e}")),
        _ => Ok(()),
    }
}

/// Results from the recordings, keyed by the direction that sends them.
fn recorded_results(files: &[PathBuf]) -> (Vec<JsonObject>, Vec<JsonObject>) {
    let (mut server, mut client) = (Vec::new(), Vec::new());
    for file in files {
        for line in std::fs::read_to_string(file).unwrap().lines() {
            let rec: Value = serde_json::from_str(line).unwrap();
            if let Some(Value::Object(r)) = rec["msg"].get("result") {
                if rec["dir"] == "s2c" { server.push(r.clone()) } else { client.push(r.clone()) }
            }
        }
    }
    (server, client)
}

/// Objects that make a guess go wrong: two results' keys in one object (both orders),
/// and each key's value swapped for a value of another kind.
fn mixed_results(results: &[JsonObject]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in results.iter().enumerate() {
        out.push(Value::Object(a.clone()).to_string());
        for key in a.keys() {
            for wrong in [json!("x"), json!(1), json!([]), json!({}), json!(null)] {
                let mut b = a.clone();
                b.insert(key.clone(), wrong);
                out.push(Value::Object(b).to_string());
            }
        }
        // Pairs of different results, a few neighbours each (enough to cover every pair of shapes).
        for b in results.iter().skip(i + 1).take(12) {
            if a.keys().eq(b.keys()) {
                continue;
            }
            for (first, second) in [(a, b), (b, a)] {
                let mut text = Value::Object(first.clone()).to_string();
                text.pop();
                for (k, v) in second.iter().filter(|(k, _)| !first.contains_key(*k)) {
                    text.push_str(&format!(",{}:{}", Value::String(k.clone()), v));
                }
                text.push('}');
                out.push(text);
            }
        }
    }
    out
}

type JsonObject = serde_json::Map<String, Value>;

#[test]
fn guessing_reads_exactly_what_serde_json_reads() {
    let mut tally = Tally::default();
    let bidi = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/data/sessions/2025-11-25-bidirectional.jsonl");
    let (server, client) = recorded_results(&[sessions().join("2025-11-25.jsonl"), bidi.clone()]);
    for r in mixed_results(&server) {
        tally.check(guess_agrees::<v4::ServerResult>(&r));
        tally.check(guess_agrees::<v4::ServerMessage>(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{r}}}"#)));
        tally.check(guess_agrees::<v1::ServerResult>(&r));
    }
    for r in mixed_results(&client) {
        tally.check(guess_agrees::<v4::ClientResult>(&r));
        tally.check(guess_agrees::<v4::ClientMessage>(&format!(r#"{{"id":"a","result":{r},"jsonrpc":"2.0"}}"#)));
    }
    // 2026-07-28: the spec's own result examples.
    let examples = mcp_schema_tests::upstream().join("mcp-spec/schema/2026-07-28/examples");
    let results: Vec<JsonObject> = mcp_schema_tests::example_files(&examples)
        .into_iter()
        .filter(|(name, _)| name.ends_with("Result"))
        .filter_map(|(_, path)| serde_json::from_str::<Value>(&std::fs::read_to_string(path).unwrap()).ok()?.as_object().cloned())
        .collect();
    assert!(results.len() > 10, "{} 2026-07-28 result examples", results.len());
    for r in mixed_results(&results) {
        tally.check(guess_agrees::<v6::ServerResult>(&r));
        tally.check(guess_agrees::<v6::ClientResult>(&r));
    }
    assert!(tally.passed > 2_000, "only {} checks ran", tally.passed);
    tally.finish("guessing agrees with serde_json");
}

#[test]
fn a_wrong_guess_is_taken_back() {
    // `contents` names only ReadResourceResult, but the value is no list: read again, it is
    // ReadResourceResult's error (the catch-all does not take an object with its key).
    let line = r#"{"contents":"not a list","x":1}"#;
    let e = mcp_spec_types::from_str::<v4::ServerResult>(line).unwrap_err().to_string();
    assert_eq!(e, serde_json::from_str::<v4::ServerResult>(line).unwrap_err().to_string());
    // `tools` comes first and names ListToolsResult, but the later keys rank CallToolResult higher.
    let line = r#"{"tools":[],"content":[],"structuredContent":{},"isError":false}"#;
    let r: v4::ServerResult = mcp_spec_types::from_str(line).unwrap();
    assert_eq!(r, serde_json::from_str::<v4::ServerResult>(line).unwrap());
    assert!(matches!(r, v4::ServerResult::CallToolResult(_)), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Validation picks the member the reader reads

/// Every value one edit away from `v`: each key removed, each value below replaced by
/// values of other kinds, so that members lose required keys and fields stop reading.
fn near(v: &Value, out: &mut Vec<Value>, budget: &mut usize) {
    fn walk(root: &Value, at: &mut Vec<PathStep>, here: &Value, out: &mut Vec<Value>, budget: &mut usize) {
        if *budget == 0 {
            return;
        }
        let replacements = [Value::Null, json!(5), json!(1.5), json!("x"), json!({}), json!([]), json!([{}])];
        for r in replacements {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            out.push(edit(root, at, Some(r)));
        }
        match here {
            Value::Object(o) => {
                for (k, x) in o {
                    at.push(PathStep::Key(k.clone()));
                    out.push(edit(root, at, None));
                    walk(root, at, x, out, budget);
                    at.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate().take(3) {
                    at.push(PathStep::Index(i));
                    walk(root, at, x, out, budget);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    walk(v, &mut Vec::new(), v, out, budget);
}

#[derive(Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

/// `root` with the value at `at` replaced (or removed, for `None`).
fn edit(root: &Value, at: &[PathStep], with: Option<Value>) -> Value {
    let mut v = root.clone();
    let mut here = &mut v;
    for (n, step) in at.iter().enumerate() {
        let last = n + 1 == at.len();
        match step {
            PathStep::Key(k) => {
                let o = here.as_object_mut().unwrap();
                if last {
                    match with {
                        Some(w) => {
                            o.insert(k.clone(), w);
                        }
                        None => {
                            o.remove(k);
                        }
                    }
                    return v;
                }
                here = o.get_mut(k).unwrap();
            }
            PathStep::Index(i) => {
                let a = here.as_array_mut().unwrap();
                if last {
                    a[*i] = with.unwrap_or(Value::Null);
                    return v;
                }
                here = &mut a[*i];
            }
        }
    }
    with.unwrap_or(Value::Null)
}

/// Whenever the reader takes `v`, validation picks the member it read.
fn picks_as_read<U: DeserializeOwned + mcp_spec_types::validate::KeyedCheck>(v: &Value) -> Result<(), String> {
    let Ok(read) = serde_json::from_value::<U>(v.clone()) else { return Ok(()) };
    let want = read.member_of();
    match mcp_spec_types::validate::picked::<U>(mcp_spec_types::tree::Doc::from_value(v).root()) {
        Some(got) if got == want => Ok(()),
        got => Err(format!("{}: read as member {want}, validated as {got:?}: {v}", std::any::type_name::<U>())),
    }
}

#[test]
fn validation_picks_the_member_the_reader_reads() {
    use mcp_spec_types::validate::KeyedCheck;
    fn all<U: DeserializeOwned + KeyedCheck>(v: &Value, tally: &mut Tally) {
        let mut values = vec![v.clone()];
        near(v, &mut values, &mut 4000);
        for x in &values {
            tally.check(picks_as_read::<U>(x));
        }
    }
    let mut tally = Tally::default();
    for file in ["2024-11-05.jsonl", "2025-06-18.jsonl", "2025-11-25.jsonl", "2026-07-28.jsonl"] {
        let text = std::fs::read_to_string(sessions().join(file)).unwrap();
        for line in text.lines() {
            let rec: Value = serde_json::from_str(line).unwrap();
            let msg = &rec["msg"];
            match file {
                "2024-11-05.jsonl" => all::<v1::JSONRPCMessage>(msg, &mut tally),
                "2025-06-18.jsonl" => all::<v3::JSONRPCMessage>(msg, &mut tally),
                "2025-11-25.jsonl" => all::<v4::JSONRPCMessage>(msg, &mut tally),
                _ => all::<v6::JSONRPCMessage>(msg, &mut tally),
            }
            if let Some(result) = msg.get("result") {
                match (file, rec["dir"] == "s2c") {
                    ("2025-11-25.jsonl", true) => all::<v4::ServerResult>(result, &mut tally),
                    ("2025-11-25.jsonl", false) => all::<v4::ClientResult>(result, &mut tally),
                    ("2026-07-28.jsonl", true) => all::<v6::ServerResult>(result, &mut tally),
                    _ => {}
                }
                for item in result.get("contents").and_then(Value::as_array).into_iter().flatten() {
                    all::<v4::ReadResourceResultContentsItem>(item, &mut tally);
                    all::<v6::ReadResourceResultContentsItem>(item, &mut tally);
                }
            }
            for schema in msg.pointer("/params/requestedSchema/properties").and_then(Value::as_object).into_iter().flat_map(|o| o.values()) {
                all::<v4::PrimitiveSchemaDefinition>(schema, &mut tally);
                all::<v6::PrimitiveSchemaDefinition>(schema, &mut tally);
            }
        }
    }
    // Ties on keys and members that cannot read their values.
    for v in [
        json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}),
        json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}),
        json!({"type": "string", "enum": ["a"], "enumNames": ["A"]}),
        json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}),
        json!({"type": "string", "enum": 5}),
    ] {
        all::<v6::EnumSchema>(&v, &mut tally);
        all::<v6::PrimitiveSchemaDefinition>(&v, &mut tally);
    }
    for v in [json!({"tools": [{"name": 5}]}), json!({"content": "plain text"}), json!({"tools": 5, "_meta": {"k": 1}}), json!({"contents": [{"uri": "a"}]})] {
        all::<v4::ServerResult>(&v, &mut tally);
    }
    assert!(tally.passed > 10_000, "only {} checks ran", tally.passed);
    tally.finish("validation picks the member the reader reads");
}

// ---------------------------------------------------------------------------------------------
// Every keyed union of every module, with minimal members built from the IR

use generator::ir::{Dispatch, ItemKind, Struct, Ty, TypeSpace};
use generator::parse::Literal;

macro_rules! dynamic_by_module {
    ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {
        fn dynamic(module: &str, name: &str) -> Option<&'static mcp_spec_types::runtime::dynamic::DynType> {
            $(if module == stringify!($m) {
                return mcp_spec_types::$m::dynamic(name);
            })*
            panic!("no module `{module}` in this test")
        }
    };
}
mcp_spec_types::for_each_module!(dynamic_by_module);

fn literal_value(l: &Literal) -> Value {
    match l {
        Literal::Str(s) => json!(s),
        Literal::Num(n) => serde_json::from_str(n).unwrap_or(json!(0)),
        Literal::Bool(b) => json!(b),
    }
}

/// The closed string enum a field's type is, if it is one.
fn closed_enum<'s>(space: &'s TypeSpace, ty: &Ty) -> Option<&'s [String]> {
    let Ty::Named(r) = space.deref(ty) else { return None };
    match &space.item(&r)?.kind {
        ItemKind::StringEnum(e) if !e.open => Some(&e.values),
        _ => None,
    }
}

/// A small value of the type: every required field, literals and enum values as the schema says.
fn sample(space: &TypeSpace, ty: &Ty, depth: usize) -> Value {
    if depth > 6 {
        return Value::Null;
    }
    match space.deref(ty) {
        Ty::String => json!("x"),
        Ty::Integer => json!(1),
        Ty::Number => json!(1.5),
        Ty::Boolean => json!(true),
        Ty::Null | Ty::Nullable(_) => Value::Null,
        Ty::Value | Ty::Object | Ty::Map(_) => json!({}),
        Ty::Array(_) => json!([]),
        Ty::Binding(rust) if rust.contains("Vec") => json!([]),
        Ty::Binding(_) => json!({}),
        Ty::Named(r) => match space.item(&r).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => minimal(space, s, depth + 1),
            Some(ItemKind::StringEnum(e)) => json!(e.values.first().cloned().unwrap_or_else(|| "x".into())),
            Some(ItemKind::Union(u)) => match &u.dispatch {
                Dispatch::Tag(t) if !t.cases.is_empty() => sample(space, &u.variants[t.cases[0].1].ty, depth + 1),
                _ => sample(space, &u.variants[0].ty, depth + 1),
            },
            Some(ItemKind::Const(l)) => literal_value(l),
            _ => Value::Null,
        },
    }
}

fn field_value(space: &TypeSpace, f: &generator::ir::Field, depth: usize) -> Value {
    match &f.literal {
        Some(l) => literal_value(l),
        None => sample(space, &f.ty, depth),
    }
}

/// A member at its smallest (required keys only), then with each optional key added alone.
fn minimal_objects(space: &TypeSpace, s: &Struct) -> Vec<Value> {
    let base = minimal(space, s, 0);
    let mut objects = vec![base.clone()];
    for f in s.fields.iter().filter(|f| f.optional && !f.never) {
        let mut o = base.clone();
        o[&f.name] = field_value(space, f, 0);
        objects.push(o);
    }
    objects
}

fn minimal(space: &TypeSpace, s: &Struct, depth: usize) -> Value {
    let mut o = serde_json::Map::new();
    for f in s.fields.iter().filter(|f| !f.optional && !f.never) {
        o.insert(f.name.clone(), field_value(space, f, depth));
    }
    Value::Object(o)
}

/// Why struct `s` cannot be `o`: a literal, closed enum or forbidden key the object contradicts.
fn contradiction(space: &TypeSpace, s: &Struct, o: &serde_json::Map<String, Value>) -> Option<String> {
    contradiction_of(space, s, o, true)
}

/// [`contradiction`], with closed enums left out when `enums` is false: a value an enum does not
/// name may be a newer version's, and reads as the enum's `Other`.
fn contradiction_of(space: &TypeSpace, s: &Struct, o: &serde_json::Map<String, Value>, enums: bool) -> Option<String> {
    for f in &s.fields {
        let Some(v) = o.get(&f.name) else { continue };
        if f.never {
            return Some(format!("`{}` is forbidden", f.name));
        }
        if let Some(l) = &f.literal {
            if *v != literal_value(l) {
                return Some(format!("`{}` must be {}", f.name, literal_value(l)));
            }
        } else if let Some(values) = closed_enum(space, &f.ty).filter(|_| enums) {
            if !v.as_str().is_some_and(|x| values.iter().any(|e| e == x)) {
                return Some(format!("`{}` must be one of {values:?}", f.name));
            }
        }
    }
    None
}

/// The structs a union member stands for, following nested unions.
fn leaves<'s>(space: &'s TypeSpace, ty: &Ty, depth: usize, out: &mut Vec<(String, &'s Struct)>) {
    if depth > 4 {
        return;
    }
    if let Some((item, s)) = space.struct_of(ty) {
        out.push((item.name.clone(), s));
    } else if let Some((_, u)) = space.union_of(ty) {
        for v in &u.variants {
            leaves(space, &v.ty, depth + 1, out);
        }
    }
}

/// The IR of every module, as the generator builds it from the pinned inputs.
fn schema_space() -> TypeSpace {
    let config = mcp_schema_tests::config();
    let inputs = mcp_schema_tests::inputs(&config);
    generator::type_space(&inputs, &config).unwrap_or_else(|d| panic!("{d}"))
}

/// Every union decided by keys (members all objects), in every module, with its dynamic handle.
fn keyed_unions(space: &TypeSpace) -> Vec<(&generator::ir::Module, &generator::ir::Item, &generator::ir::Union, &'static mcp_spec_types::runtime::dynamic::DynType)> {
    let mut out = Vec::new();
    for m in &space.modules {
        for item in &m.items {
            let ItemKind::Union(u) = &item.kind else { continue };
            if u.dispatch != Dispatch::Shape || !u.variants.iter().all(|v| space.struct_of(&v.ty).is_some() || space.union_of(&v.ty).is_some()) {
                continue;
            }
            if let Some(dynamic) = dynamic(&m.name, &item.name) {
                out.push((m, item, u, dynamic));
            }
        }
    }
    out
}

fn struct_named<'s>(space: &'s TypeSpace, module: &str, name: &str) -> Option<&'s Struct> {
    let in_module = space.module(module).and_then(|m| m.items.iter().find(|i| i.name == name));
    let any = || space.modules.iter().flat_map(|m| &m.items).find(|i| i.name == name);
    match &in_module.or_else(any)?.kind {
        ItemKind::Struct(s) => Some(s),
        _ => None,
    }
}

/// Reading and validation never take an object as a member whose literal fields (single
/// literals, closed string enums such as `NumberSchemaType`) or forbidden keys contradict it.
/// Every union decided by keys, in every module, is tried with each of its members at their
/// smallest (required keys only) and with one optional key at a time.
#[test]
fn no_keyed_union_takes_a_member_its_literals_contradict() {
    let space = schema_space();
    let mut tally = Tally::default();
    let mut unions = 0;
    for (m, item, u, dynamic) in keyed_unions(&space) {
        unions += 1;
        let mut members = Vec::new();
        for v in &u.variants {
            leaves(&space, &v.ty, 0, &mut members);
        }
        for (member, s) in &members {
            let objects = minimal_objects(&space, s);
            for o in objects {
                let at = format!("{}::{} as {member}: {o}", m.name, item.name);
                let map = o.as_object().unwrap();
                // Read: whatever member is taken, the object must not contradict it.
                if let Ok(read) = (dynamic.read_value)(&o) {
                    if let Some(why) = struct_named(&space, &m.name, read).and_then(|s| contradiction(&space, s, map)) {
                        tally.check(Err(format!("{at}: read as {read}, but {why}")));
                        continue;
                    }
                }
                // Validation picks as the reader does, so it reports no literal or enum it chose wrongly.
                let report = (dynamic.validate)(&o, &mcp_spec_types::validate::Options::default());
                let wrong: Vec<String> = report.violations.iter().filter(|v| matches!(v.rule, "literal" | "enum" | "never" | "no-variant")).map(|v| v.to_string()).collect();
                tally.check(if wrong.is_empty() { Ok(()) } else { Err(format!("{at}: validated as another member: {}", wrong.join("; "))) });
            }
        }
    }
    assert!(unions >= 20, "only {unions} keyed unions found");
    tally.finish("minimal members of every keyed union");
}

/// A message with an `id` key is a request or a response, never a notification: a request whose
/// id is invalid fails to read (as a request) and validation reports the id, in every version.
#[test]
fn an_invalid_id_does_not_make_a_request_a_notification() {
    fn check<T: DeserializeOwned + mcp_spec_types::validate::Validate + std::fmt::Debug>(line: &str) -> Result<(), String> {
        let name = std::any::type_name::<T>();
        if let Ok(read) = serde_json::from_str::<T>(line) {
            return Err(format!("{name} read {line} as {read:?}"));
        }
        if let Ok(read) = mcp_spec_types::from_str::<T>(line) {
            return Err(format!("{name} (mcp_spec_types::from_str) read {line} as {read:?}"));
        }
        let value: Value = serde_json::from_str(line).unwrap();
        let report = mcp_spec_types::validate::validate_json::<T>(&value, &mcp_spec_types::validate::Options::default());
        // 2025-03-26's union also holds batches (arrays), so it is decided by the values and reports no member.
        let names_it = |v: &&mcp_spec_types::validate::Violation| v.pointer == "/id" || v.rule == "no-variant";
        match report.violations.iter().filter(names_it).find(|v| v.severity == mcp_spec_types::validate::Severity::Error) {
            Some(_) => Ok(()),
            None => Err(format!("{name}: no error at /id for {line}: {:?}", report.violations)),
        }
    }
    let mut tally = Tally::default();
    for id in ["null", "1.0", "-0", "1.5", "{}", r#"{"a":1}"#, "[]", "[1]", "true", "9223372036854775808", "18446744073709551616"] {
        for params in ["", r#","params":{}"#] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"{params}}}"#);
            let id_last = format!(r#"{{"jsonrpc":"2.0","method":"tools/list"{params},"id":{id}}}"#);
            for l in [&line, &id_last] {
                tally.check(check::<v1::JSONRPCMessage>(l));
                tally.check(check::<mcp_spec_types::v2025_03_26::JSONRPCMessage>(l));
                tally.check(check::<v3::JSONRPCMessage>(l));
                tally.check(check::<v4::JSONRPCMessage>(l));
                tally.check(check::<v6::JSONRPCMessage>(l));
                tally.check(check::<mcp_spec_types::draft::JSONRPCMessage>(l));
            }
        }
    }
    // Valid ids still read as requests, and a message without one as a notification.
    let request: v6::JSONRPCMessage = serde_json::from_str(r#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"tools/list"}"#).unwrap();
    assert!(matches!(request, v6::JSONRPCMessage::JSONRPCRequest(_)), "{request:?}");
    let note: v4::JSONRPCMessage = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    assert!(matches!(note, v4::JSONRPCMessage::JSONRPCNotification(_)), "{note:?}");
    tally.finish("invalid ids are not notifications");
}

/// The typed envelopes agree: a notification's method with an `id` beside it is refused, wherever
/// the `id` comes, and the same message without one still reads as the notification.
#[test]
fn envelopes_refuse_a_notification_with_an_id() {
    let mut tally = Tally::default();
    for id in ["null", "1", "\"a\"", "1.5", "{}"] {
        for line in [
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"notifications/initialized"}}"#),
            format!(r#"{{"jsonrpc":"2.0","method":"notifications/initialized","id":{id}}}"#),
            format!(r#"{{"method":"notifications/initialized","params":{{}},"id":{id},"jsonrpc":"2.0"}}"#),
        ] {
            for (what, read) in [
                ("v4::ClientMessage", serde_json::from_str::<v4::ClientMessage>(&line).map(|m| format!("{m:?}"))),
                ("v4::ClientMessage (mcp_spec_types)", mcp_spec_types::from_str::<v4::ClientMessage>(&line).map(|m| format!("{m:?}"))),
                ("v3::ClientMessage", serde_json::from_str::<v3::ClientMessage>(&line).map(|m| format!("{m:?}"))),
            ] {
                tally.check(match read {
                    Err(e) if e.to_string().contains("no `id`") => Ok(()),
                    other => Err(format!("{what} {line}: {other:?}")),
                });
            }
        }
        let cancelled = format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":1}},"id":{id}}}"#);
        tally.check(match serde_json::from_str::<v4::ServerMessage>(&cancelled) {
            Err(e) if e.to_string().contains("no `id`") => Ok(()),
            other => Err(format!("v4::ServerMessage {cancelled}: {other:?}")),
        });
    }
    let note: v4::ClientMessage = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    assert!(matches!(note, mcp_spec_types::runtime::Message::Notification(_)), "{note:?}");
    tally.finish("envelopes refuse a notification with an id");
}

// ---------------------------------------------------------------------------------------------
// Closed enums and newer values: a value no member names rules no member out

/// Reads `line` as `U` from every source, with and without guessing, and checks that validation
/// picks the member read and reports the value at `pointer` as `enum`, not as `no-variant`.
fn reads_with_unknown_enum<U>(line: &str, pointer: &str) -> Result<U, String>
where
    U: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug + mcp_spec_types::validate::KeyedCheck + mcp_spec_types::validate::Validate,
{
    let name = std::any::type_name::<U>();
    all_sources_agree::<U>(line).map_err(|e| format!("{name} {line}: {e}"))?;
    let value: Value = serde_json::from_str(line).unwrap();
    picks_as_read::<U>(&value)?;
    let report = mcp_spec_types::validate::validate_json::<U>(&value, &mcp_spec_types::validate::Options::default());
    let rules: Vec<(&str, &str)> = report.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect();
    if !rules.contains(&("enum", pointer)) || rules.iter().any(|(r, _)| *r == "no-variant") {
        return Err(format!("{name} {line}: validation reported {rules:?}"));
    }
    Ok(serde_json::from_str(line).unwrap())
}

/// A form field type a newer version adds reads as the schema whose closed `type` enum it falls
/// in no member's set of: `NumberSchema` with `Other`, never a read error of the whole request.
#[test]
fn a_form_field_type_no_version_names_reads_as_other() {
    let line = r#"{"type":"date","title":"x"}"#;
    let mut tally = Tally::default();
    macro_rules! each_version {
        ($($m:ident),*) => {$(
            tally.check(reads_with_unknown_enum::<$m::PrimitiveSchemaDefinition>(line, "/type").and_then(|read| match read {
                $m::PrimitiveSchemaDefinition::NumberSchema(n) if n.r#type == $m::NumberSchemaType::Other("date".into()) => Ok(()),
                other => Err(format!("{}: {other:?}", stringify!($m))),
            }));
        )*};
    }
    each_version!(v3, v4, v6);
    // The reported case stays fixed: a value another member claims is that member's.
    for line in [r#"{"type":"boolean","title":"Confirm"}"#, r#"{"title":"Confirm","type":"boolean"}"#] {
        macro_rules! boolean {
            ($($m:ident),*) => {$(
                tally.check(all_sources_agree::<$m::PrimitiveSchemaDefinition>(line).and_then(|()| match serde_json::from_str(line).unwrap() {
                    $m::PrimitiveSchemaDefinition::BooleanSchema(_) => Ok(()),
                    other => Err(format!("{}: {other:?}", stringify!($m))),
                }));
                tally.check(picks_as_read::<$m::PrimitiveSchemaDefinition>(&serde_json::from_str(line).unwrap()));
            )*};
        }
        boolean!(v3, v4, v6);
    }
    tally.finish("unknown form field types");
}

/// Results with an enum value their version does not name read as their own type, not as the
/// catch-all `EmptyResult`, whether read through serde_json or guessed by `mcp_spec_types::from_slice`.
#[test]
fn a_result_with_a_newer_enum_value_keeps_its_type() {
    let mut tally = Tally::default();
    for line in [r#"{"action":"later"}"#, r#"{"action":"later","content":{"a":"b"}}"#, r#"{"content":{"a":1},"action":"later"}"#] {
        tally.check(reads_with_unknown_enum::<v4::ClientResult>(line, "/action").and_then(|read| match read {
            v4::ClientResult::ElicitResult(r) if r.action == v4::ElicitResultAction::Other("later".into()) => Ok(()),
            other => Err(format!("{line}: {other:?}")),
        }));
    }
    let line = r#"{"role":"system","content":{"type":"text","text":"t"},"model":"m"}"#;
    tally.check(reads_with_unknown_enum::<v4::ClientResult>(line, "/role").and_then(|read| match read {
        v4::ClientResult::CreateMessageResult(_) => Ok(()),
        other => Err(format!("{line}: {other:?}")),
    }));
    // A task status a newer version adds (GetTaskResult and CancelTaskResult tie on keys; the first is taken).
    let line = r#"{"taskId":"t","status":"paused","createdAt":"2025-01-01T00:00:00Z","lastUpdatedAt":"2025-01-01T00:00:00Z","ttl":null}"#;
    tally.check(reads_with_unknown_enum::<v4::ServerResult>(line, "/status").and_then(|read| match read {
        v4::ServerResult::GetTaskResult(r) if r.status == v4::TaskStatus::Other("paused".into()) => Ok(()),
        other => Err(format!("{line}: {other:?}")),
    }));
    tally.check(reads_with_unknown_enum::<v4::ClientResult>(line, "/status").and_then(|read| match read {
        v4::ClientResult::GetTaskResult(_) => Ok(()),
        other => Err(format!("{line}: {other:?}")),
    }));
    for line in [
        r#"{"resultType":"complete","ttlMs":0,"cacheScope":"session","tools":[]}"#,
        r#"{"tools":[],"cacheScope":"session","ttlMs":0}"#,
        r#"{"cacheScope":"session","ttlMs":5,"contents":[{"uri":"a","text":"t"}]}"#,
    ] {
        tally.check(reads_with_unknown_enum::<v6::ServerResult>(line, "/cacheScope").and_then(|read| match read {
            v6::ServerResult::ListToolsResult(r) if r.cache_scope == v6::CacheableResultCacheScope::Other("session".into()) => Ok(()),
            v6::ServerResult::ReadResourceResult(r) if r.cache_scope == v6::CacheableResultCacheScope::Other("session".into()) => Ok(()),
            other => Err(format!("{line}: {other:?}")),
        }));
    }
    tally.finish("results with newer enum values");
}

/// Every keyed union of every module: a member whose closed enum holds a value no member names
/// still reads (as itself, or as another member whose literals the object does not contradict),
/// and validation reports the value as `enum` rather than failing to pick a member.
#[test]
fn an_unknown_enum_value_never_makes_a_keyed_union_unreadable() {
    const NEWER: &str = "a-value-from-a-newer-version";
    let space = schema_space();
    let mut tally = Tally::default();
    let mut cases = 0;
    for (m, item, u, dynamic) in keyed_unions(&space) {
        let mut members = Vec::new();
        for v in &u.variants {
            leaves(&space, &v.ty, 0, &mut members);
        }
        for (member, s) in &members {
            for f in s.fields.iter().filter(|f| f.literal.is_none() && !f.never && closed_enum(&space, &f.ty).is_some()) {
                let mut base = minimal(&space, s, 0);
                base[&f.name] = field_value(&space, f, 0);
                // Only members that read with a value their enum names.
                if (dynamic.read_value)(&base).ok() != Some(member.as_str()) {
                    continue;
                }
                cases += 1;
                let mut o = base.clone();
                o[&f.name] = json!(NEWER);
                let at = format!("{}::{} as {member}: {o}", m.name, item.name);
                let read = match (dynamic.read_value)(&o) {
                    Ok(read) => read,
                    Err(e) => {
                        tally.check(Err(format!("{at}: not read: {e}")));
                        continue;
                    }
                };
                if (dynamic.read_json)(&o.to_string()).ok() != Some(read) {
                    tally.check(Err(format!("{at}: read from text as {:?}, from a value as {read}", (dynamic.read_json)(&o.to_string()))));
                    continue;
                }
                if let Some(why) = struct_named(&space, &m.name, read).and_then(|s| contradiction_of(&space, s, o.as_object().unwrap(), false)) {
                    tally.check(Err(format!("{at}: read as {read}, but {why}")));
                    continue;
                }
                let report = (dynamic.validate)(&o, &mcp_spec_types::validate::Options::default());
                let wrong: Vec<String> = report.violations.iter().filter(|v| matches!(v.rule, "literal" | "never" | "no-variant")).map(|v| v.to_string()).collect();
                let pointer = format!("/{}", f.name);
                let reported = report.violations.iter().any(|v| v.rule == "enum" && v.pointer == pointer);
                tally.check(match (wrong.is_empty(), read == member.as_str() && !reported) {
                    (true, false) => Ok(()),
                    (false, _) => Err(format!("{at}: validated as another member: {}", wrong.join("; "))),
                    (true, true) => Err(format!("{at}: read as {read}, but validation does not report {pointer}: {:?}", report.violations)),
                });
            }
        }
    }
    assert!(cases >= 20, "only {cases} members with a closed enum");
    tally.finish("unknown enum values in every keyed union");
}

// ---------------------------------------------------------------------------------------------
// A catch-all member (`EmptyResult`) never takes an object a specific member names a key of

/// What every reader and validation make of `json` as `T`: the same member (its schema name)
/// or an error from each, and validation's violations.
fn read_everywhere<T>(json: &str) -> Result<(&'static str, mcp_spec_types::validate::Report), String>
where
    T: DeserializeOwned + mcp_spec_types::runtime::SchemaType + mcp_spec_types::validate::Validate + PartialEq + std::fmt::Debug,
{
    let read = read_alike::<T>(json)?;
    let report = mcp_spec_types::validate::validate_json::<T>(&serde_json::from_str(json).unwrap(), &mcp_spec_types::validate::Options::default());
    Ok((mcp_spec_types::runtime::SchemaType::schema_name(&read), report))
}

/// `json` as `T` through serde_json (text and tree) and `mcp_spec_types::from_str`/`from_slice`:
/// the same value, or an error from each.
fn read_alike<T: DeserializeOwned + PartialEq + std::fmt::Debug>(json: &str) -> Result<T, String> {
    guess_agrees::<T>(json)?;
    let by_value = serde_json::from_value::<T>(serde_json::from_str(json).unwrap()).map_err(|e| e.to_string());
    let by_text = serde_json::from_str::<T>(json).map_err(|e| e.to_string());
    if by_value.is_ok() != by_text.is_ok() || by_value.as_ref().ok() != by_text.as_ref().ok() {
        panic!("{json}: from_value {by_value:?}, from_str {by_text:?}");
    }
    by_text
}

/// The read error, and validation's errors with their pointers and rules.
fn refused<T>(json: &str) -> (String, Vec<(String, &'static str)>)
where
    T: DeserializeOwned + mcp_spec_types::runtime::SchemaType + mcp_spec_types::validate::Validate + PartialEq + std::fmt::Debug,
{
    match read_everywhere::<T>(json) {
        Ok((got, _)) => panic!("{json}: read as {got}"),
        Err(e) => {
            let v: Value = serde_json::from_str(json).unwrap();
            let report = mcp_spec_types::validate::validate_json::<T>(&v, &mcp_spec_types::validate::Options::default());
            (e, report.errors().map(|e| (e.pointer.clone(), e.rule)).collect())
        }
    }
}

/// A result response around `result`.
fn envelope(result: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#)
}

#[test]
fn a_malformed_tools_list_is_no_empty_result() {
    let result = r#"{"tools":[{"name":"t","inputSchema":{"type":"string"}}]}"#;
    let (read, errors) = refused::<v4::ServerResult>(result);
    assert!(read.contains("object"), "{read}");
    assert!(errors.contains(&("/tools/0/inputSchema/type".into(), "literal")), "{errors:?}");
    assert_eq!(mcp_spec_types::validate::picked::<v4::ServerResult>(mcp_spec_types::tree::Doc::parse(result).unwrap().root()), Some(9), "ListToolsResult");
    // Inside the envelope the message is refused too, by every reader.
    let e = read_alike::<v4::ServerMessage>(&envelope(result)).unwrap_err();
    assert!(e.contains("object"), "{e}");
    // The same for the 2026-07-28 result, which has `resultType` (a key every result has).
    let result = r#"{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"t","inputSchema":{"type":"string"}}]}"#;
    let (_, errors) = refused::<v6::ServerResult>(result);
    assert!(errors.contains(&("/tools/0/inputSchema/type".into(), "literal")), "{errors:?}");
    assert!(read_alike::<v6::ServerMessage>(&envelope(result)).is_err());
    // No member ranks (a required key is missing), but `tools` names one: its error.
    let (read, errors) = refused::<v6::ServerResult>(r#"{"resultType":"complete","tools":[]}"#);
    assert!(read.contains("missing field `ttlMs`"), "{read}");
    assert!(errors.contains(&("".into(), "required")) && !errors.iter().any(|(_, r)| *r == "no-variant"), "{errors:?}");
}

#[test]
fn an_elicitation_answer_is_an_elicit_result_or_an_error() {
    let valid = r#"{"action":"accept","content":{"name":"a","age":3,"ok":true,"tags":["x"]}}"#;
    let (got, report) = read_everywhere::<v4::ClientResult>(valid).unwrap();
    assert_eq!(got, "ElicitResult");
    assert!(report.is_valid(), "{report:?}");
    let Ok(mcp_spec_types::runtime::Message::Result(r)) = read_alike::<v4::ClientMessage>(&envelope(valid)) else { panic!() };
    assert!(matches!(r.result, v4::ClientResult::ElicitResult(_)), "{:?}", r.result);
    // A nested object is no value a form field holds.
    let held = r#"{"action":"accept","content":{"name":{"first":"a"}}}"#;
    let (_, errors) = refused::<v4::ClientResult>(held);
    assert!(errors.iter().any(|(p, _)| p == "/content/name"), "{errors:?}");
    assert!(read_alike::<v4::ClientMessage>(&envelope(held)).is_err());
}

#[test]
fn empty_and_unknown_results_still_read_as_empty_result() {
    for result in [r#"{}"#, r#"{"_meta":{}}"#, r#"{"someNewKey":1}"#, r#"{"_meta":{"k":1},"widgets":[],"more":{"a":1}}"#] {
        for (got, report) in [read_everywhere::<v4::ServerResult>(result).unwrap(), read_everywhere::<v4::ClientResult>(result).unwrap(), read_everywhere::<v1::ServerResult>(result).unwrap()] {
            assert_eq!(got, "Result", "{result}");
            assert!(report.is_valid(), "{result}: {report:?}");
        }
        let v: Value = serde_json::from_str(result).unwrap();
        assert_eq!(mcp_spec_types::validate::picked::<v4::ServerResult>(mcp_spec_types::tree::Doc::from_value(&v).root()), Some(0), "{result}");
        let Ok(mcp_spec_types::runtime::Message::Result(r)) = read_alike::<v4::ServerMessage>(&envelope(result)) else { panic!("{result}") };
        assert!(matches!(r.result, v4::ServerResult::EmptyResult(_)), "{result}");
        let Ok(mcp_spec_types::runtime::Message::Result(r)) = read_alike::<v4::ClientMessage>(&envelope(result)) else { panic!("{result}") };
        assert!(matches!(r.result, v4::ClientResult::EmptyResult(_)), "{result}");
    }
    // 2026-07-28: `resultType` is every result's key, so it does not rule the catch-all out.
    let (got, _) = read_everywhere::<v6::ServerResult>(r#"{"resultType":"complete","someNewKey":1}"#).unwrap();
    assert_eq!(got, "Result");
}

#[test]
fn result_for_reads_an_envelope_result_as_the_request_result() {
    let line = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#;
    let Ok(mcp_spec_types::runtime::Message::Result(r)) = mcp_spec_types::from_str::<v4::ServerMessage>(line) else { panic!() };
    let tools = mcp_spec_types::runtime::result_for::<v4::ListToolsRequest>(&r.result).unwrap();
    assert_eq!(tools.tools.len(), 1);
    // An empty result is the answer to `ping`, and no tools list.
    let r: v4::ServerResult = serde_json::from_str("{}").unwrap();
    assert!(mcp_spec_types::runtime::result_for::<v4::PingRequest>(&r).is_ok());
    assert!(mcp_spec_types::runtime::result_for::<v4::ListToolsRequest>(&r).is_err());
}

/// Whether a member takes every object (nothing required, any other key kept), as the
/// generator decides it for structs.
fn takes_any_object(space: &TypeSpace, ty: &Ty) -> bool {
    let mut structs = Vec::new();
    leaves(space, ty, 0, &mut structs);
    space.struct_of(ty).is_some_and(|(_, s)| s.rest == Ty::Value && s.fields.iter().all(|f| f.optional || f.never)) && structs.len() == 1
}

/// In every union with a catch-all member, in every module, each other member at its smallest
/// (required keys only, then one optional key), and with each of its keys' values swapped for
/// values of the wrong kind, is read and validated as a specific member or refused; never as the
/// catch-all. The catch-all's own keys with unknown ones still read as the catch-all.
#[test]
fn a_key_that_identifies_a_member_rules_the_catch_all_out_everywhere() {
    let space = schema_space();
    let mut tally = Tally::default();
    let mut unions = 0;
    for (m, item, u, dynamic) in keyed_unions(&space) {
        let catch_alls: Vec<String> = u.variants.iter().filter(|v| takes_any_object(&space, &v.ty)).filter_map(|v| space.struct_of(&v.ty).map(|(i, _)| i.name.clone())).collect();
        if catch_alls.is_empty() {
            continue;
        }
        unions += 1;
        let mut members = Vec::new();
        for v in u.variants.iter().filter(|v| !takes_any_object(&space, &v.ty)) {
            leaves(&space, &v.ty, 0, &mut members);
        }
        let catch_all_keys: Vec<String> = u.variants.iter().filter(|v| takes_any_object(&space, &v.ty)).flat_map(|v| space.struct_of(&v.ty).unwrap().1.fields.iter().map(|f| f.name.clone())).collect();
        // Keys exactly one specific member requires (in every struct it may be): they say which
        // member an object means. Shared or optional keys say nothing.
        let mut requiring: std::collections::BTreeMap<String, usize> = Default::default();
        for v in u.variants.iter().filter(|v| !takes_any_object(&space, &v.ty)) {
            let mut structs = Vec::new();
            leaves(&space, &v.ty, 0, &mut structs);
            let required = |s: &Struct| s.fields.iter().filter(|f| !f.optional && !f.never).map(|f| f.name.clone()).collect::<std::collections::BTreeSet<_>>();
            let mut all = structs.iter().map(|(_, s)| required(s));
            let first = all.next().unwrap_or_default();
            for key in all.fold(first, |acc, set| acc.intersection(&set).cloned().collect()) {
                *requiring.entry(key).or_default() += 1;
            }
        }
        let identifying: Vec<String> = requiring.into_iter().filter(|(k, n)| *n == 1 && !catch_all_keys.contains(k)).map(|(k, _)| k).collect();
        for (member, s) in &members {
            let objects = minimal_objects(&space, s);
            let mut wrong = Vec::new();
            for o in &objects {
                for k in o.as_object().unwrap().keys().filter(|k| !catch_all_keys.contains(k)) {
                    for bad in [json!(7), json!("x"), json!([{"?": 1}]), json!({"?": [1]})] {
                        let mut b = o.clone();
                        b[k] = bad;
                        wrong.push(b);
                    }
                }
            }
            for o in objects.iter().chain(&wrong) {
                // Only objects holding a key that identifies a member say which member they mean.
                if !o.as_object().unwrap().keys().any(|k| identifying.contains(k)) {
                    continue;
                }
                let at = format!("{}::{} as {member}: {o}", m.name, item.name);
                if let Ok(read) = (dynamic.read_value)(o) {
                    tally.check(if catch_alls.iter().any(|c| c == read) { Err(format!("{at}: read as the catch-all {read}")) } else { Ok(()) });
                }
                if let Ok(read) = (dynamic.read_json)(&o.to_string()) {
                    tally.check(if catch_alls.iter().any(|c| c == read) { Err(format!("{at}: read from text as the catch-all {read}")) } else { Ok(()) });
                }
                // Validation never passes what the reader refuses.
                let report = (dynamic.validate)(o, &mcp_spec_types::validate::Options::default());
                let readable = (dynamic.read_value)(o).is_ok();
                tally.check(if readable || !report.is_valid() { Ok(()) } else { Err(format!("{at}: refused, but validation reports nothing")) });
            }
        }
        // The catch-all's keys with keys no member names, or with keys that no one member
        // requires (a newer version's result reusing shared keys): still the catch-all.
        let shared: Vec<Value> = members
            .iter()
            .flat_map(|(_, s)| s.fields.iter())
            .filter(|f| !f.never && !identifying.contains(&f.name) && !catch_all_keys.contains(&f.name))
            .map(|f| json!({ f.name.clone(): field_value(&space, f, 0), "x-unknown": [1] }))
            .collect();
        for o in [json!({}), json!({"x-unknown": 1}), json!({"_meta": {}, "x-unknown": [1]})] {
            let read = (dynamic.read_value)(&o);
            let ok = read.as_ref().is_ok_and(|r| catch_alls.iter().any(|c| c == r));
            tally.check(if ok { Ok(()) } else { Err(format!("{}::{}: {o} read as {read:?}", m.name, item.name)) });
        }
        // Those still read: as the catch-all, or as a member that needs no more than they hold.
        for o in shared {
            let read = (dynamic.read_value)(&o);
            tally.check(if read.is_ok() { Ok(()) } else { Err(format!("{}::{}: {o} is refused: {read:?}", m.name, item.name)) });
        }
    }
    assert!(unions >= 10, "only {unions} unions with a catch-all found");
    tally.finish("catch-all unions");
}

/// Every spec example of a result that reads as its own type reads through the result unions
/// too, as that type (or as `Result` where its keys are only `Result`'s own); an example its own
/// type refuses is refused by the unions as well, instead of becoming an `EmptyResult`.
#[test]
fn spec_result_examples_read_through_the_result_unions() {
    let mut tally = Tally::default();
    for (version, module) in [("2026-07-28", "v2026_07_28"), ("draft", "draft")] {
        let examples = mcp_schema_tests::upstream().join(format!("mcp-spec/schema/{version}/examples"));
        let unions: Vec<_> = ["ServerResult", "ClientResult"].into_iter().filter_map(|u| dynamic(module, u)).collect();
        assert!(!unions.is_empty(), "{module}: no result unions");
        for (name, path) in mcp_schema_tests::example_files(&examples) {
            let Some(own) = dynamic(module, &name).filter(|_| name.ends_with("Result")) else { continue };
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
            let reads = (own.read_value)(&v).is_ok();
            let through: Vec<_> = unions.iter().map(|u| (u.read_value)(&v)).collect();
            let at = format!("{module} {}", path.display());
            let ok = if reads {
                through.iter().any(|r| r.as_ref().is_ok_and(|got| *got == name || *got == "Result"))
            } else {
                through.iter().all(|r| r.as_ref().is_err())
            };
            tally.check(if ok { Ok(()) } else { Err(format!("{at}: as {name} {reads}, through the unions {through:?}")) });
        }
    }
    assert!(tally.passed > 20, "only {} examples", tally.passed);
    tally.finish("spec result examples through the unions");
}
