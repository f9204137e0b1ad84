//! Hostile input against the generated crate and the `mcp-schema check` binary (issue 8).
//!
//! An MCP peer is untrusted: nothing it sends may crash, hang or exhaust a process that
//! reads it with `mcp-schema`, and nothing valid may be lost. Every case here has a
//! defined outcome: a value, or an error that names the problem; never a panic; memory
//! bounded by a small multiple of the input. The outcomes are summed up in
//! `tests/HOSTILE.md`. Times are printed (informally, no timed asserts) so that a
//! quadratic blow-up shows in the log.

use std::time::Instant;

use mcp_spec_types::runtime::SchemaType;
use mcp_spec_types::validate::{validate_json, Options};
use mcp_spec_types::{v2024_11_05 as v1, v2025_03_26 as v2, v2025_06_18 as v3, v2025_11_25 as v4, v2026_07_28 as v6};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// serde_json's default recursion limit, which the generated crate relies on.
const SERDE_JSON_DEPTH: usize = 128;

fn err<T: DeserializeOwned>(input: &[u8]) -> String {
    match serde_json::from_slice::<T>(input) {
        Ok(_) => panic!("{} accepted {}", std::any::type_name::<T>(), String::from_utf8_lossy(&input[..input.len().min(200)])),
        Err(e) => e.to_string(),
    }
}

/// Reads, writes, reads again: the same value and the same JSON as the input.
fn lossless<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(input: &str) -> T {
    let t: T = serde_json::from_str(input).unwrap_or_else(|e| panic!("{}: {e}\n{}", std::any::type_name::<T>(), &input[..input.len().min(300)]));
    let text = serde_json::to_string(&t).unwrap();
    let again: T = serde_json::from_str(&text).unwrap();
    assert!(t == again, "read -> write -> read changed the value");
    let a: Value = serde_json::from_str(input).unwrap();
    let b: Value = serde_json::from_str(&text).unwrap();
    assert!(a == b, "not lossless");
    t
}

fn timed<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let r = f();
    eprintln!("adversarial: {what}: {:.2?}", start.elapsed());
    r
}

// ---------------------------------------------------------------------------------------------
// Nesting

fn nested(open: &str, close: &str, depth: usize, inner: &str) -> String {
    let mut s = String::with_capacity(depth * (open.len() + close.len()) + inner.len());
    for _ in 0..depth {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// Places `deep` where a peer could: in a typed field, in a `JSONValue` field, among the
/// unknown keys, before the tag (buffered), and as the whole message.
fn deep_places(deep: &str) -> Vec<(&'static str, String)> {
    vec![
        ("whole message", deep.to_string()),
        ("JSONValue field", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{deep}}},{META}}}}}"#)),
        ("unknown key", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","x-deep":{deep},"params":{{"name":"x",{META}}}}}"#)),
        ("before the tag", format!(r#"{{"x-deep":{deep},"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x",{META}}}}}"#)),
        ("result content", format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","content":[{{"type":"text","text":"a","x":{deep}}}]}}}}"#)),
        ("unknown method params", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"vendor/x","params":{{"a":{deep}}}}}"#)),
    ]
}

#[test]
fn nesting_100_000_deep_is_a_recursion_limit_error() {
    for (open, close) in [("[", "]"), (r#"{"a":"#, "}")] {
        let deep = nested(open, close, 100_000, "1");
        for (place, msg) in deep_places(&deep) {
            let bytes = msg.as_bytes();
            for e in [
                err::<v6::JSONRPCMessage>(bytes),
                err::<v6::ClientRequest>(bytes),
                err::<v6::ServerResult>(bytes),
                err::<v4::JSONRPCMessage>(bytes),
                err::<v3::ClientRequest>(bytes),
                err::<v2::ServerResult>(bytes),
                err::<v1::JSONRPCMessage>(bytes),
                err::<mcp_spec_types::draft::JSONRPCMessage>(bytes),
                err::<mcp_spec_types::resource_metadata::ClientRequest>(bytes),
            ] {
                // A union that checks the JSON kind first says so before descending.
                // A union decided by keys skips the unknown key's value without recursing (serde_json's
                // skipping is iterative), then finds no member for the object.
                let kind = place == "whole message" && (e.contains("invalid type: sequence") || e.contains("expected a") || e.contains("no variant of"));
                assert!(e.contains("recursion limit exceeded") || kind, "{open}… {place}: {e}");
            }
            // From a reader and as a stream, the same.
            let e = serde_json::from_reader::<_, v6::JSONRPCMessage>(bytes).unwrap_err().to_string();
            let kind = place == "whole message" && e.contains("invalid type: sequence");
            assert!(e.contains("recursion limit exceeded") || kind, "{place} (reader): {e}");
            let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<v6::JSONRPCMessage>();
            assert!(stream.next().unwrap().is_err());
        }
    }
    // Unclosed: the same error, before the end of input is noticed.
    let e = err::<v2::JSONRPCMessage>("[".repeat(100_000).as_bytes());
    assert!(e.contains("recursion limit exceeded"), "{e}");
    // A union that takes only objects refuses the first `[` without descending.
    let e = err::<v6::JSONRPCMessage>("[".repeat(100_000).as_bytes());
    assert!(e.contains("invalid type: sequence"), "{e}");
}

#[test]
fn nesting_just_below_the_limit_is_read_and_kept() {
    // The message itself and the levels down to the deep value count against the limit.
    let deep = nested("[", "]", SERDE_JSON_DEPTH - 8, "1");
    for (place, msg) in deep_places(&deep) {
        if place == "whole message" {
            continue;
        }
        let m: v6::JSONRPCMessage = lossless(&msg);
        let value: Value = serde_json::from_str(&msg).unwrap();
        let report = validate_json::<v6::JSONRPCMessage>(&value, &Options::default());
        let _ = (m.schema_name(), report);
    }
}

/// Around the limit every entry point takes exactly what `serde_json::Value` takes: a union
/// decided by keys keeps values as text and parses them afresh, which must not grant them
/// levels the document as a whole does not have.
#[test]
fn every_entry_point_has_the_same_nesting_limit() {
    fn same<T: DeserializeOwned>(what: &str, msg: &str, want: bool) -> Result<(), String> {
        let via_serde = serde_json::from_str::<T>(msg).is_ok();
        let via_ours = mcp_spec_types::from_str::<T>(msg).is_ok();
        if via_serde != want || via_ours != want {
            return Err(format!("{what}: serde_json {via_serde}, mcp_spec_types::from_str {via_ours}, Value {want}"));
        }
        Ok(())
    }
    let mut tally = mcp_schema_tests::Tally::default();
    for depth in SERDE_JSON_DEPTH - 8..SERDE_JSON_DEPTH + 2 {
        for (open, close) in [("[", "]"), (r#"{"a":"#, "}")] {
            let deep = nested(open, close, depth, "1");
            for (place, msg) in deep_places(&deep) {
                if place == "whole message" || place == "result content" {
                    continue;
                }
                let want = serde_json::from_str::<Value>(&msg).is_ok();
                let at = |t: &str| format!("{t} {open} x{depth} {place}");
                tally.check(same::<v6::JSONRPCMessage>(&at("v6::JSONRPCMessage"), &msg, want));
                tally.check(same::<v4::JSONRPCMessage>(&at("v4::JSONRPCMessage"), &msg, want));
                tally.check(same::<v1::JSONRPCMessage>(&at("v1::JSONRPCMessage"), &msg, want));
                tally.check(same::<mcp_spec_types::draft::JSONRPCMessage>(&at("draft::JSONRPCMessage"), &msg, want));
                tally.check(same::<v6::ClientMessage>(&at("v6::ClientMessage"), &msg, want));
                tally.check(same::<v6::ClientRequest>(&at("v6::ClientRequest"), &msg, want));
            }
            // A result kept by a keyed union, read alone.
            let result = format!(r#"{{"resultType":"complete","x":{deep},"content":[]}}"#);
            let want = serde_json::from_str::<Value>(&result).is_ok();
            tally.check(same::<v6::ServerResult>(&format!("v6::ServerResult {open} x{depth}"), &result, want));
        }
    }
    tally.finish("the same nesting limit everywhere");
}

// ---------------------------------------------------------------------------------------------
// Size

fn big_text(len: usize) -> String {
    // Mostly ASCII with a multi-byte character and an escape every so often.
    let unit = "abcdefghijklmnopqrstuvwxyz é \\n 0123456789 \\u00e9 ";
    let mut s = String::with_capacity(len + unit.len());
    while s.len() < len {
        s.push_str(unit);
    }
    s
}

#[test]
fn a_100_mb_string_is_read_in_linear_time() {
    let text = big_text(100 << 20);
    let decoded: String = timed("100 MB string: as a plain String", || serde_json::from_str(&format!("\"{text}\"")).unwrap());
    // In a typed field of a content block (a union tagged by `type`, streamed into the variant) ...
    let result = format!(r#"{{"resultType":"complete","content":[{{"type":"text","text":"{text}"}}]}}"#);
    let r: v6::CallToolResult = timed("100 MB string, typed field: read", || serde_json::from_str(&result).unwrap());
    let v6::ContentBlock::TextContent(t) = &r.content[0] else { panic!("not dispatched on type") };
    assert!(t.text == decoded);
    drop(r);
    // ... before the tag, where the dispatcher buffers it ...
    let request = format!(r#"{{"params":{{"name":"{text}",{META}}},"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#);
    let m: v6::ClientRequest = timed("100 MB string, before the tag: read", || serde_json::from_str(&request).unwrap());
    let v6::ClientRequest::CallToolRequest(call) = m else { panic!("not dispatched on method") };
    assert!(call.params.name == decoded);
    drop(call);
    // ... and below a union decided by keys, which reads the message as a serde_json::Value first.
    let m: v6::JSONRPCMessage = timed("100 MB string, by keys: read", || serde_json::from_str(&request).unwrap());
    assert_eq!(m.schema_name(), "JSONRPCRequest");
    drop(m);
    // 10 MB for comparison (the time should scale by about 10, not 100), read and written back.
    let small = big_text(10 << 20);
    let msg = format!(r#"{{"params":{{"name":"{small}",{META}}},"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#);
    let m: v6::ClientRequest = timed("10 MB string, before the tag: read", || serde_json::from_str(&msg).unwrap());
    let out = timed("10 MB string, before the tag: write", || serde_json::to_string(&m).unwrap());
    assert!(serde_json::from_str::<v6::ClientRequest>(&out).unwrap() == m);
}

#[test]
fn a_million_element_array_is_read_validated_and_written() {
    const N: usize = 1_000_000;
    // Content blocks: each one dispatched on `type`.
    let mut content = String::with_capacity(N * 30);
    content.push('[');
    for i in 0..N {
        if i > 0 {
            content.push(',');
        }
        content.push_str(if i % 2 == 0 { r#"{"type":"text","text":"a"}"# } else { r#"{"type":"vendor/x","n":1}"# });
    }
    content.push(']');
    let msg = format!(r#"{{"resultType":"complete","content":{content}}}"#);
    let r: v6::CallToolResult = timed("1M content blocks: read", || serde_json::from_str(&msg).unwrap());
    assert_eq!(r.content.len(), N);
    let value: Value = serde_json::from_str(&msg).unwrap();
    let report = timed("1M content blocks: validate", || validate_json::<v6::CallToolResult>(&value, &Options::default()));
    // One violation per unknown block (it is reported, not dropped), none for the text blocks.
    assert_eq!(report.violations.len(), N / 2, "{:?}", report.violations.first());
    assert!(report.violations.iter().all(|v| v.rule == "unknown-variant"), "{:?}", report.violations.first());

    // Numbers in a JSONValue field and a typed `string[]`; `@maxItems` reports once.
    let numbers = format!("[{}]", vec!["-9223372036854775808"; N].join(","));
    let msg = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","arguments":{{"n":{numbers}}},{META}}}}}"#);
    let m: v6::JSONRPCMessage = timed("1M integers in arguments: read", || serde_json::from_str(&msg).unwrap());
    assert_eq!(m.schema_name(), "JSONRPCRequest");
    let values = format!("[{}]", vec![r#""v""#; N].join(","));
    let msg = format!(r#"{{"resultType":"complete","completion":{{"values":{values}}}}}"#);
    let r: v6::CompleteResult = timed("1M strings in completion.values: read", || serde_json::from_str(&msg).unwrap());
    assert_eq!(r.completion.values.len(), N);
    let report = validate_json::<v6::CompleteResult>(&serde_json::from_str(&msg).unwrap(), &Options::default());
    let max_items: Vec<_> = report.violations.iter().filter(|v| v.rule == "max-items").collect();
    assert_eq!(max_items.len(), 1, "{:?}", report.violations);
    assert_eq!(max_items[0].pointer, "/completion/values");
}

// ---------------------------------------------------------------------------------------------
// Numbers

/// What a number does in each kind of field (serde_json without `arbitrary_precision`).
/// `Ok(text)`: read, and written back as `text`; `Err(part)`: an error containing `part`.
#[test]
fn numbers_at_the_edges_per_field_kind() {
    type Outcome = Result<&'static str, &'static str>;
    // (input, integer field (`i64`), `@TJS-type number` field (`serde_json::Number`), unknown key (`extra`))
    let table: &[(&str, Outcome, Outcome, Outcome)] = &[
        ("1e400", Err("number out of range"), Err("number out of range"), Err("number out of range")),
        ("-1e400", Err("number out of range"), Err("number out of range"), Err("number out of range")),
        // `-0` is an integer in JSON Schema, but serde_json reads it as the float -0.0.
        ("-0", Err("invalid type: floating point `-0.0`, expected i64"), Ok("-0.0"), Ok("-0.0")),
        ("-0.0", Err("invalid type: floating point `-0.0`, expected i64"), Ok("-0.0"), Ok("-0.0")),
        // Underflow rounds to zero, keeping the sign.
        ("1e-400", Err("invalid type: floating point `0.0`, expected i64"), Ok("0.0"), Ok("0.0")),
        ("-1e-400", Err("invalid type: floating point `-0.0`, expected i64"), Ok("-0.0"), Ok("-0.0")),
        // Past u64: a float, rounded.
        ("18446744073709551616", Err("expected i64"), Ok("1.8446744073709552e+19"), Ok("1.8446744073709552e+19")),
        ("18446744073709551615", Err("invalid value: integer `18446744073709551615`, expected i64"), Ok("18446744073709551615"), Ok("18446744073709551615")),
        ("9223372036854775808", Err("invalid value: integer `9223372036854775808`, expected i64"), Ok("9223372036854775808"), Ok("9223372036854775808")),
        ("9223372036854775807", Ok("9223372036854775807"), Ok("9223372036854775807"), Ok("9223372036854775807")),
        ("-9223372036854775808", Ok("-9223372036854775808"), Ok("-9223372036854775808"), Ok("-9223372036854775808")),
        ("-9223372036854775809", Err("expected i64"), Ok("-9.223372036854776e+18"), Ok("-9.223372036854776e+18")),
        // An integral float is not an integer field's value; a number field keeps it a float.
        ("1.0", Err("invalid type: floating point `1.0`, expected i64"), Ok("1.0"), Ok("1.0")),
        ("1e2", Err("expected i64"), Ok("100.0"), Ok("100.0")),
        ("0.1", Err("expected i64"), Ok("0.1"), Ok("0.1")),
        ("1.7976931348623157e308", Err("expected i64"), Ok("1.7976931348623157e+308"), Ok("1.7976931348623157e+308")),
        ("5e-324", Err("expected i64"), Ok("5e-324"), Ok("5e-324")),
        ("-", Err("invalid number"), Err("invalid number"), Err("invalid number")),
        ("01", Err("invalid number"), Err("invalid number"), Err("invalid number")),
        ("1.", Err("invalid number"), Err("invalid number"), Err("invalid number")),
        ("NaN", Err("expected value"), Err("expected value"), Err("expected value")),
        ("Infinity", Err("expected value"), Err("expected value"), Err("expected value")),
        ("+1", Err("expected value"), Err("expected value"), Err("expected value")),
    ];
    fn check(kind: &str, input: &str, expected: Outcome, read: Result<Value, serde_json::Error>, field: &str) {
        match (read, expected) {
            (Ok(v), Ok(text)) => assert_eq!(v[field].to_string(), text, "{kind} {input}"),
            (Err(e), Err(part)) => assert!(e.to_string().contains(part), "{kind} {input}: `{e}` does not contain `{part}`"),
            (got, want) => panic!("{kind} {input}: got {got:?}, expected {want:?}"),
        }
    }
    fn via<T: Serialize + DeserializeOwned>(json: &str) -> Result<Value, serde_json::Error> {
        serde_json::from_str::<T>(json).map(|t| serde_json::to_value(&t).unwrap())
    }
    for &(n, int, number, extra) in table {
        // Integer: `Resource.size`, `CreateMessageRequestParams.maxTokens`, the error `code`.
        check("integer (size)", n, int, via::<v6::Resource>(&format!(r#"{{"uri":"u","name":"n","size":{n}}}"#)), "size");
        check("integer (maxTokens)", n, int, via::<v4::CreateMessageRequestParams>(&format!(r#"{{"messages":[],"maxTokens":{n}}}"#)), "maxTokens");
        check("integer (code)", n, int, via::<v6::Error>(&format!(r#"{{"code":{n},"message":"m"}}"#)), "code");
        // Number: `ProgressNotificationParams.progress`, `Annotations.priority`.
        check("number (progress)", n, number, via::<v6::ProgressNotificationParams>(&format!(r#"{{"progressToken":"t","progress":{n}}}"#)), "progress");
        check("number (priority)", n, number, via::<v4::Annotations>(&format!(r#"{{"priority":{n}}}"#)), "priority");
        // Unknown key, kept in `extra` as a serde_json::Value.
        check("extra", n, extra, via::<v6::ProgressNotificationParams>(&format!(r#"{{"progressToken":"t","progress":1,"x":{n}}}"#)), "x");
        check("JSONValue", n, extra, via::<v6::CallToolRequestParams>(&format!(r#"{{"name":"t","arguments":{{"x":{n}}},{META}}}"#)).map(|v| v["arguments"].clone()), "x");
    }
    // A request id is `string | integer`: the same integer rule, and the union names itself.
    let e = err::<v6::JSONRPCRequest>(br#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#);
    assert!(e.contains("floating point `-0.0`"), "{e}");
    let e = err::<v6::JSONRPCRequest>(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#);
    assert!(e.contains("floating point `1.5`"), "{e}");
    // A literal integer (the JSON-RPC error codes of 2026-07-28) is not matched by a float.
    let e = err::<v6::ParseError>(br#"{"code":-32700.0,"message":"m"}"#);
    assert!(e.contains("`code` must be -32700"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Text

#[test]
fn invalid_utf8_and_lone_surrogates_are_errors() {
    let cases: &[(&[u8], &str)] = &[
        (b"{\"jsonrpc\":\"2.0\",\"method\":\"x\xff\"}", "invalid unicode code point"),
        (b"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"\xc3\":1}", "invalid unicode code point"),
        (b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"\xed\xa0\x80\"}}", "invalid unicode code point"),
        (b"{\"jsonrpc\":\"2.0\",\xff\"method\":\"x\"}", "key must be a string"),
        (br#"{"jsonrpc":"2.0","method":"\ud800"}"#, "hex escape"),
        (br#"{"jsonrpc":"2.0","method":"\udc00"}"#, "lone leading surrogate in hex escape"),
        (br#"{"jsonrpc":"2.0","method":"\ud800\u0041"}"#, "lone leading surrogate in hex escape"),
        (br#"{"jsonrpc":"2.0","method":"x","params":{"k\udfff":1}}"#, "lone leading surrogate in hex escape"),
        (br#"{"jsonrpc":"2.0","method":"x","params":{"a":"\ud800"}}"#, "hex escape"),
        (br#"{"jsonrpc":"2.0","method":"\u12"}"#, "escape"),
    ];
    for (input, part) in cases {
        // Types that read the whole object name the problem ...
        for e in [err::<v6::JSONRPCMessage>(input), err::<v1::JSONRPCMessage>(input), err::<v1::ClientNotification>(input), err::<Value>(input)] {
            assert!(e.contains(part), "{}: `{e}` does not contain `{part}`", String::from_utf8_lossy(input));
        }
        // ... one that stops at an earlier problem (here: `method` is not its literal) names that.
        err::<v6::ClientNotification>(input);
    }
    // A valid pair, NUL and the other control escapes are kept.
    let m: v6::JSONRPCMessage = lossless(r#"{"jsonrpc":"2.0","method":"x\ud83d\ude00\u0000\u001f","params":{"\u0000":"\b\f\n\r\t"}}"#);
    assert_eq!(serde_json::to_value(&m).unwrap()["method"], "x😀\u{0}\u{1f}");
}

// ---------------------------------------------------------------------------------------------
// Duplicate keys

#[test]
fn duplicate_keys() {
    // Generated structs reject a repeated key, known or unknown, with an error naming it ...
    let rejected: &[(&str, &str)] = &[
        (r#"{"type":"text","text":"a","text":"b"}"#, "duplicate field `text`"),
        (r#"{"type":"text","type":"text","text":"a"}"#, "duplicate field `type`"),
        (r#"{"type":"text","text":"a","x":1,"x":2}"#, "duplicate field `x`"),
        (r#"{"type":"text","text":"a","annotations":null,"annotations":{}}"#, "duplicate field `annotations`"),
        (r#"{"type":"text","text":"a","annotations":{"priority":1,"priority":0.5}}"#, "duplicate field `priority`"),
    ];
    for (input, part) in rejected {
        let e = err::<v6::ContentBlock>(input.as_bytes());
        assert!(e.contains(part), "{input}: {e}");
    }
    for (input, part) in [
        (r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"ping"}"#, "duplicate field `method`"),
        (r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#, "duplicate field `jsonrpc`"),
        (r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#, "duplicate field `id`"),
        (r#"{"jsonrpc":"2.0","id":1,"method":"ping","x":1,"x":2}"#, "duplicate field `x`"),
    ] {
        for e in [err::<v6::JSONRPCRequest>(input.as_bytes()), err::<v1::ClientRequest>(input.as_bytes()), err::<v4::ClientRequest>(input.as_bytes())] {
            assert!(e.contains(part), "{input}: {e}");
        }
    }
    // ... while maps (`_meta`, index signatures, `JSONValue` such as `arguments`) follow
    // serde_json::Map and keep the last, as serde_json::Value does.
    let c: v6::ContentBlock = serde_json::from_str(r#"{"type":"text","text":"a","_meta":{"k":1,"k":2}}"#).unwrap();
    assert_eq!(serde_json::to_value(&c).unwrap()["_meta"], json!({"k": 2}));
    let p: v4::CallToolRequestParams = serde_json::from_str(r#"{"name":"t","arguments":{"a":1,"a":2}}"#).unwrap();
    assert_eq!(serde_json::to_value(&p).unwrap()["arguments"], json!({"a": 2}));
    let v: Value = serde_json::from_str(r#"{"a":1,"a":2}"#).unwrap();
    assert_eq!(v, json!({"a": 2}));
}

/// Unions decided by the keys present (`JSONRPCMessage`, `ServerResult`, text-or-blob resource
/// contents) read their members through the members' own builders, so a repeated key is the
/// same error there as through a struct or a tagged union. The one exception is 2025-03-26's
/// `JSONRPCMessage`, which also takes batches (arrays): it still reads a serde_json::Value
/// first and keeps the last of a repeated key, as Value does (tests/HOSTILE.md).
#[test]
fn duplicate_keys_are_rejected_through_unions_decided_by_keys() {
    let cases = [
        (r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"ping"}"#, "duplicate field `method`"),
        (r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#, "duplicate field `id`"),
        (r#"{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}"#, "duplicate field `a`"),
    ];
    let mut checked = 0;
    for (input, want) in cases {
        for e in [
            serde_json::from_str::<v1::JSONRPCMessage>(input).map(|_| ()),
            serde_json::from_str::<v4::JSONRPCMessage>(input).map(|_| ()),
            serde_json::from_str::<v6::JSONRPCMessage>(input).map(|_| ()),
        ] {
            assert!(e.as_ref().is_err_and(|e| e.to_string().contains(want)), "{input}: {e:?}");
            checked += 1;
        }
        // The exception, pinned so that a change to it is noticed.
        assert!(serde_json::from_str::<v2::JSONRPCMessage>(input).is_ok(), "{input}");
    }
    let e = serde_json::from_str::<v4::ReadResourceResultContentsItem>(r#"{"uri":"a","text":"x","text":"y"}"#).unwrap_err();
    assert!(e.to_string().contains("duplicate field `text`"), "{e}");
    let e = serde_json::from_str::<v6::ServerResult>(r#"{"tools":[],"tools":[]}"#).unwrap_err();
    assert!(e.to_string().contains("duplicate field `tools`"), "{e}");
    assert_eq!(checked, 9);
    // JSONRPCRequest's `params` is an open object (a map), so it keeps the last, like `_meta`.
    let r = serde_json::from_str::<v4::JSONRPCMessage>(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"n":1,"n":2}}"#).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap()["params"], json!({"n": 2}));
}

// ---------------------------------------------------------------------------------------------
// Framing

#[test]
fn byte_order_mark_trailing_garbage_and_framing() {
    let msg = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    // A byte order mark is not JSON: serde_json rejects it (the checker strips it, see below).
    let bom = [b"\xef\xbb\xbf".as_slice(), msg.as_bytes()].concat();
    assert!(err::<v6::JSONRPCMessage>(&bom).contains("expected value at line 1 column 1"));
    // Trailing garbage, a second message, a stray bracket: errors; trailing whitespace is fine.
    for (tail, part) in [(" x", "trailing characters"), (msg, "trailing characters"), ("}", "trailing characters"), ("\0", "trailing characters")] {
        let e = err::<v6::JSONRPCMessage>(format!("{msg}{tail}").as_bytes());
        assert!(e.contains(part), "{tail:?}: {e}");
    }
    let _: v6::JSONRPCMessage = serde_json::from_str(&format!(" \n\t\r{msg} \n\t\r")).unwrap();
    // Empty input, only whitespace, truncated anywhere: errors, never a panic.
    for input in ["", " ", "\n", "{", r#"{"jsonrpc""#, r#"{"jsonrpc":"2.0","#] {
        assert!(err::<v6::JSONRPCMessage>(input.as_bytes()).contains("EOF while parsing"), "{input:?}");
    }
    for cut in 0..msg.len() {
        assert!(serde_json::from_str::<v6::JSONRPCMessage>(&msg[..cut]).is_err());
        assert!(serde_json::from_str::<v1::JSONRPCMessage>(&msg[..cut]).is_err());
    }
    // A stream of messages (JSONL): each one read, the garbage after them an error, the stream stops.
    let jsonl = format!("{msg}\n\n{msg}\nnot json\n{msg}\n");
    let items: Vec<_> = serde_json::Deserializer::from_str(&jsonl).into_iter::<v6::JSONRPCMessage>().collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok() && items[2].is_err());
}

// ---------------------------------------------------------------------------------------------
// The checker binary (`mcp-schema check`)

/// The `mcp-schema` binary built next to this test (`cargo test --workspace` builds it), or
/// `$MCP_SCHEMA_BIN`. `None`, with a notice, when it is missing or older than its sources.
fn checker() -> Option<std::path::PathBuf> {
    if let Ok(p) = std::env::var("MCP_SCHEMA_BIN") {
        return Some(p.into());
    }
    let root = mcp_schema_tests::workspace_root();
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join(format!("mcp-schema{}", std::env::consts::EXE_SUFFIX));
    let skip = |why: &str| {
        eprintln!("adversarial: SKIPPED the checker cases: {why} (run `cargo test --workspace`, or set MCP_SCHEMA_BIN)");
        None
    };
    if !root.join("cli/src/main.rs").is_file() {
        return skip("the checker (cli/) is not in this tree");
    }
    let Ok(built) = bin.metadata().and_then(|m| m.modified()) else { return skip(&format!("{} is not built", bin.display())) };
    let newest = |dir: &str| std::fs::read_dir(root.join(dir)).ok().into_iter().flatten().flatten().filter_map(|e| e.metadata().ok()?.modified().ok()).max();
    let newest_source = newest("cli/src").max(newest("check/src"))?;
    if newest_source > built {
        return skip(&format!("{} is older than cli/src or check/src", bin.display()));
    }
    Some(bin)
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn check_stdin(bin: &std::path::Path, args: &[&str], input: &[u8]) -> Run {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .arg("check")
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the checker answers while it reads.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run { code: out.status.code(), stdout: String::from_utf8_lossy(&out.stdout).into_owned(), stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

#[test]
fn checker_survives_hostile_lines() {
    let Some(bin) = checker() else { return };
    let ok = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let deep = nested("[", "]", 100_000, "1");
    let deep_in = format!(r#"{{"jsonrpc":"2.0","method":"x","params":{{"a":{deep}}}}}"#);
    let huge = format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"{}"}}}}"#, big_text(100 << 20));
    let million = format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":[{}]}}}}"#, vec!["0"; 1_000_000].join(","));
    let cases: Vec<(&str, Vec<u8>, i32, &str)> = vec![
        // (case, stdin, expected exit status, text expected in the output)
        ("valid", format!("{ok}\n").into_bytes(), 0, ""),
        ("empty lines are skipped", format!("\n{ok}\n\n\r\n{ok}\n\n").into_bytes(), 0, ""),
        ("no final newline", ok.as_bytes().to_vec(), 0, ""),
        ("empty input", Vec::new(), 0, ""),
        ("byte order mark", [b"\xef\xbb\xbf".as_slice(), ok.as_bytes(), b"\n"].concat(), 0, ""),
        ("trailing garbage", format!("{ok} x\n").into_bytes(), 1, "trailing characters"),
        ("two values on a line", format!("{ok}{ok}\n").into_bytes(), 1, "trailing characters"),
        ("not JSON", b"hello\n".to_vec(), 1, "expected value"),
        ("invalid UTF-8", [ok.as_bytes(), b"\n{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}\n"].concat(), 1, "UTF-8"),
        ("lone surrogate", format!("{}\n", r#"{"jsonrpc":"2.0","method":"\ud800"}"#).into_bytes(), 1, "hex escape"),
        // The checker reads each line as a serde_json::Value first: a repeated key keeps the last
        // and is not reported (see tests/HOSTILE.md, "Duplicate keys").
        ("duplicate key", format!("{}\n", r#"{"jsonrpc":"2.0","method":"notifications/initialized","method":"notifications/initialized"}"#).into_bytes(), 0, "1 passed"),
        ("-0 as an id", format!("{}\n", r#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#).into_bytes(), 1, "found -0.0"),
        ("2^64 as an id", format!("{}\n", r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#).into_bytes(), 1, "1.8446744073709552e+19"),
        // Underflow reads as 0.0 on both sides of the round trip, so it passes.
        ("1e-400 with --roundtrip", format!("{}\n", r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1e-400}}"#).into_bytes(), 0, "1 passed"),
        ("1e400", format!("{}\n", r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1e400}}"#).into_bytes(), 1, "number out of range"),
        ("100,000 deep", format!("{deep}\n{deep_in}\n").into_bytes(), 1, "recursion limit exceeded"),
        ("100 MB string", format!("{huge}\n").into_bytes(), 0, ""),
        ("a million elements", format!("{million}\n").into_bytes(), 0, "1 passed"),
    ];
    for (case, input, expected, part) in cases {
        let run = timed(&format!("checker: {case}"), || check_stdin(&bin, &["--protocol", "2025-11-25", "--roundtrip"], &input));
        let output = format!("{}{}", run.stdout, run.stderr);
        assert_eq!(run.code, Some(expected), "{case}: exit status {:?}\n{}", run.code, &output[..output.len().min(2000)]);
        assert!(output.contains(part), "{case}: `{part}` not in\n{}", &output[..output.len().min(2000)]);
        assert!(!output.contains("panicked"), "{case}: the checker panicked\n{output}");
    }
}

