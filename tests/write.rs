//! `mcp_spec_types::to_vec` and `serialize_to_vec` must write exactly the bytes `serde_json::to_vec`
//! writes, for every value: spec examples (as `Value` and as their typed schema types), recorded
//! sessions, strings built around the writer's 8-byte scanning, numbers, nesting, enums,
//! non-string map keys and `RawValue`. So must the JSON-only path (`WriteJson::write_json` and
//! the entry points users call, `mcp_spec_types::to_vec`, `to_vec_into`, `to_string` and
//! `to_writer`) for every typed value here, for envelopes and for random `Value` trees inside a
//! typed struct; and `dynamic`'s round trips, which write through it, give what
//! `serde_json::to_value` gives.

// The 2026-07-28 examples include types that version deprecates.
#![allow(deprecated)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use mcp_schema_tests::{example_files, upstream, workspace_root, Tally};
use mcp_spec_types::WriteJson;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// Both writers' output (or both errors) for `v`.
fn diff<T: Serialize + ?Sized + Debug>(label: &str, v: &T) -> Result<(), String> {
    let ours = mcp_spec_types::serialize_to_vec(v);
    let theirs = serde_json::to_vec(v);
    let show = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match (ours, theirs) {
        (Ok(a), Ok(b)) if a == b => {
            // The other entry points agree with `to_vec`.
            let mut buf = b"prefix".to_vec();
            mcp_spec_types::serialize_to_vec_into(&mut buf, v).map_err(|e| format!("{label}: serialize_to_vec_into: {e}"))?;
            let mut w = Vec::new();
            mcp_spec_types::serialize_to_writer(&mut w, v).map_err(|e| format!("{label}: serialize_to_writer: {e}"))?;
            let s = mcp_spec_types::serialize_to_string(v).map_err(|e| format!("{label}: serialize_to_string: {e}"))?;
            if buf[6..] != b[..] || w != b || s.as_bytes() != &b[..] {
                return Err(format!("{label}: serialize_to_vec_into/_writer/_string differ from serialize_to_vec"));
            }
            Ok(())
        }
        (Ok(a), Ok(b)) => Err(format!("{label}: wrote\n  {}\nserde_json wrote\n  {}", show(&a), show(&b))),
        (Err(a), Err(b)) if a.to_string() == b.to_string() && a.classify() == b.classify() => Ok(()),
        (a, b) => Err(format!("{label}: {:?} but serde_json gives {:?}", a.map(|x| show(&x)), b.map(|x| show(&x)))),
    }
}

/// [`diff`], then `WriteJson::write_json` (appending to a buffer, and `to_json_vec`) against
/// serde_json.
fn diff_typed<T: Serialize + WriteJson + ?Sized + Debug>(label: &str, v: &T) -> Result<(), String> {
    diff(label, v)?;
    let theirs = serde_json::to_vec(v).map_err(|e| format!("{label}: serde_json: {e}"))?;
    let mut buf = b"prefix".to_vec();
    v.write_json(&mut buf);
    if buf[6..] != theirs[..] {
        let show = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        return Err(format!("{label}: write_json wrote\n  {}\nserde_json wrote\n  {}", show(&buf[6..]), show(&theirs)));
    }
    if v.to_json_vec() != theirs {
        return Err(format!("{label}: to_json_vec differs from write_json"));
    }
    entry_points(label, v, &theirs)
}

/// The entry points users call, `mcp_spec_types::{to_vec, to_vec_into, to_string, to_writer}`,
/// against serde_json's bytes `want`.
fn entry_points<T: WriteJson + ?Sized>(label: &str, v: &T, want: &[u8]) -> Result<(), String> {
    let mut buf = b"prefix".to_vec();
    mcp_spec_types::to_vec_into(&mut buf, v);
    let mut w = Vec::new();
    mcp_spec_types::to_writer(&mut w, v).map_err(|e| format!("{label}: to_writer: {e}"))?;
    let ours = mcp_spec_types::to_vec(v);
    if ours != want || buf[6..] != *want || w != want || mcp_spec_types::to_string(v).as_bytes() != want {
        let show = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        return Err(format!("{label}: to_vec wrote\n  {}\nserde_json wrote\n  {}\n(or to_vec_into/to_writer/to_string differ)", show(&ours), show(want)));
    }
    Ok(())
}

/// `dynamic`'s round trip (which writes through `WriteJson` and reads the bytes back) gives
/// the `Value` that `serde_json::to_value` gives for the same typed value.
fn dynamic_like_to_value<T: Serialize>(label: &str, dynamic: Option<Result<(Value, &'static str), serde_json::Error>>, v: &T) -> Result<(), String> {
    let expected = serde_json::to_value(v).map_err(|e| format!("{label}: to_value: {e}"))?;
    match dynamic {
        Some(Ok((got, _))) if got == expected => Ok(()),
        Some(Ok((got, _))) => Err(format!("{label}: roundtrip_json gave\n  {got}\nto_value gives\n  {expected}")),
        Some(Err(e)) => Err(format!("{label}: roundtrip_json: {e}")),
        None => Err(format!("{label}: roundtrip_json knows no such type")),
    }
}

// ---------------------------------------------------------------------------------------
// (a) Spec examples and recorded sessions

/// Reads JSON text as the type named `ty` of 2026-07-28 (or of `draft`, whose examples are
/// filed under the same names) and compares the writers on it.
/// `None`: no such type in the list; `Some(Err)` with "read:" when it does not deserialize.
macro_rules! typed_2026 {
    ($($t:ident),* $(,)?) => {
        fn typed_2026(ty: &str, label: &str, text: &str) -> Option<Result<(), String>> {
            use mcp_spec_types::v2026_07_28 as m;
            Some(match ty {
                $(stringify!($t) => match serde_json::from_str::<m::$t>(text) {
                    Ok(v) => diff_typed(label, &v).and_then(|()| dynamic_like_to_value(label, m::roundtrip_json(ty, text), &v)),
                    Err(e) => Err(format!("read: {e}")),
                },)*
                _ => return None,
            })
        }

        fn typed_draft(ty: &str, label: &str, text: &str) -> Option<Result<(), String>> {
            use mcp_spec_types::draft as m;
            Some(match ty {
                $(stringify!($t) => match serde_json::from_str::<m::$t>(text) {
                    Ok(v) => diff_typed(label, &v).and_then(|()| dynamic_like_to_value(label, m::roundtrip_json(ty, text), &v)),
                    Err(e) => Err(format!("read: {e}")),
                },)*
                _ => return None,
            })
        }
    };
}

typed_2026!(
    AudioContent,
    BlobResourceContents,
    BooleanSchema,
    CallToolRequest,
    CallToolRequestParams,
    CallToolResult,
    CallToolResultResponse,
    CancelledNotification,
    CancelledNotificationParams,
    ClientCapabilities,
    CompleteRequest,
    CompleteRequestParams,
    CompleteResult,
    CompleteResultResponse,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    DiscoverRequest,
    DiscoverResult,
    DiscoverResultResponse,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    EmbeddedResource,
    GetPromptRequest,
    GetPromptRequestParams,
    GetPromptResult,
    GetPromptResultResponse,
    HeaderMismatchError,
    ImageContent,
    InputRequests,
    InputRequiredResult,
    InputResponses,
    InternalError,
    InvalidParamsError,
    ListPromptsRequest,
    ListPromptsResult,
    ListPromptsResultResponse,
    ListResourceTemplatesRequest,
    ListResourceTemplatesResult,
    ListResourceTemplatesResultResponse,
    ListResourcesRequest,
    ListResourcesResult,
    ListResourcesResultResponse,
    ListRootsRequest,
    ListRootsResult,
    ListToolsRequest,
    ListToolsResult,
    ListToolsResultResponse,
    LoggingMessageNotification,
    LoggingMessageNotificationParams,
    MethodNotFoundError,
    MissingRequiredClientCapabilityError,
    ModelPreferences,
    NumberSchema,
    PaginatedRequestParams,
    ParseError,
    ProgressNotification,
    ProgressNotificationParams,
    PromptListChangedNotification,
    ReadResourceRequest,
    ReadResourceResult,
    ReadResourceResultResponse,
    Resource,
    ResourceLink,
    ResourceListChangedNotification,
    ResourceUpdatedNotification,
    ResourceUpdatedNotificationParams,
    Root,
    SamplingMessage,
    ServerCapabilities,
    StringSchema,
    SubscriptionsAcknowledgedNotification,
    SubscriptionsListenRequest,
    SubscriptionsListenResult,
    SubscriptionsListenResultResponse,
    TextContent,
    TextResourceContents,
    TitledMultiSelectEnumSchema,
    TitledSingleSelectEnumSchema,
    Tool,
    ToolListChangedNotification,
    ToolResultContent,
    ToolUseContent,
    UnsupportedProtocolVersionError,
    UntitledMultiSelectEnumSchema,
    UntitledSingleSelectEnumSchema,
);

#[test]
fn spec_examples_write_like_serde_json() {
    let mut tally = Tally::default();
    let (mut typed, mut unreadable) = (0, 0);
    let schema = upstream().join("mcp-spec/schema");
    let mut versions: Vec<_> = std::fs::read_dir(&schema).unwrap().flatten().map(|e| e.path()).collect();
    versions.sort();
    let mut files = 0;
    for v in versions {
        let dir = v.join("examples");
        if !dir.is_dir() {
            continue;
        }
        let version = v.file_name().unwrap().to_string_lossy().into_owned();
        for (ty, path) in example_files(&dir) {
            files += 1;
            let label = format!("{version}/{ty}/{}", path.file_name().unwrap().to_string_lossy());
            let text = std::fs::read_to_string(&path).unwrap();
            let value: Value = serde_json::from_str(&text).unwrap();
            tally.check(diff_typed(&format!("{label} as Value"), &value));
            // Every version with examples is read as its own types too.
            let typed_as = match version.as_str() {
                "2026-07-28" => typed_2026,
                "draft" => typed_draft,
                _ => {
                    tally.check(Err(format!("{label}: add a typed reader for {version}")));
                    continue;
                }
            };
            match typed_as(&ty, &format!("{label} as {ty}"), &text) {
                // tests/spec_examples.rs tracks the examples that disagree with the schema.
                Some(Err(e)) if e.starts_with("read:") => unreadable += 1,
                Some(r) => {
                    typed += 1;
                    tally.check(r);
                }
                None => tally.check(Err(format!("{label}: add `{ty}` to typed_2026!"))),
            }
        }
    }
    assert!(files > 100, "only {files} example files found");
    eprintln!("{files} example files; {typed} also as their type of their version ({unreadable} do not read as it)");
    tally.finish("spec examples written like serde_json");
}

/// Every message of the CLI's recorded sessions, as `Value` and as its version's `JSONRPCMessage`.
#[test]
fn recorded_sessions_write_like_serde_json() {
    let mut tally = Tally::default();
    let dir = workspace_root().join("cli/tests/data/sessions");
    // Every protocol version of `schema/codegen.toml` that has a recording.
    macro_rules! readers {
        ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {{
            let mut readers: Vec<(&str, fn(&str, &str) -> Result<(), String>)> = Vec::new();
            $(readers!(@ readers $kind $m $protocol);)*
            readers
        }};
        (@ $readers:ident version $m:ident $protocol:literal) => {
            $readers.push(($protocol, typed_message::<mcp_spec_types::$m::JSONRPCMessage>));
        };
        (@ $readers:ident $kind:ident $m:ident $protocol:tt) => {};
    }
    let readers = mcp_spec_types::for_each_module!(readers);
    for (version, read) in readers {
        let path = dir.join(format!("{version}.jsonl"));
        if !path.exists() {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let label = format!("{version}.jsonl:{}", i + 1);
            let line: Value = serde_json::from_str(line).unwrap();
            let msg = &line["msg"];
            tally.check(diff_typed(&format!("{label} as Value"), msg));
            tally.check(read(&label, &msg.to_string()));
        }
    }
    tally.finish("recorded session messages written like serde_json");
}

fn typed_message<T: Serialize + WriteJson + serde::de::DeserializeOwned + Debug>(label: &str, text: &str) -> Result<(), String> {
    let v: T = serde_json::from_str(text).map_err(|e| format!("{label}: {e}"))?;
    diff_typed(&format!("{label} typed"), &v)
}

/// The envelopes a server or client writes, through the entry points users call, on what a
/// writer most easily gets wrong: keys it does not know (in params, in a result, beside
/// `result`), `_meta`, `null`, integers beyond `i64`/`f64`'s exact range and floats.
#[test]
fn envelopes_write_like_serde_json_through_the_entry_points() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":null,"big":18446744073709551615,"neg":-9223372036854775808,"f":0.1,"e":1e300},"_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"x.io/k":[1.5,-0.0,null]},"unknownParam":{"z":null}}}"#,
        r#"{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"hi\n\u0001","_meta":{"k":null}}],"isError":false,"_meta":{"n":9007199254740993},"extraField":12345678901234567890},"extraTop":[true,null]}"#,
        r#"{"jsonrpc":"2.0","id":9223372036854775807,"error":{"code":-32602,"message":"bad","data":null}}"#,
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"é😀","data":{"at":[1,2.5e-8]}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":0.5,"total":1e21,"message":null}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":null,"_meta":{}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
    ];
    let mut tally = Tally::default();
    for (i, line) in lines.iter().enumerate() {
        macro_rules! each {
            ($($m:ident),*) => {$(
                let label = format!("line {} as {}", i + 1, stringify!($m));
                tally.check(typed_message::<mcp_spec_types::$m::JSONRPCMessage>(&format!("{label}::JSONRPCMessage"), line));
                // Each line is one direction's message: the other direction's type refuses it.
                let mut read = 0;
                if let Ok(v) = serde_json::from_str::<mcp_spec_types::$m::ClientMessage>(line) {
                    read += 1;
                    tally.check(diff_typed(&format!("{label}::ClientMessage"), &v));
                }
                if let Ok(v) = serde_json::from_str::<mcp_spec_types::$m::ServerMessage>(line) {
                    read += 1;
                    tally.check(diff_typed(&format!("{label}::ServerMessage"), &v));
                }
                tally.check(if read > 0 { Ok(()) } else { Err(format!("{label}: neither ClientMessage nor ServerMessage reads it")) });
            )*};
        }
        each!(v2024_11_05, v2025_06_18, v2025_11_25, v2026_07_28);
        let value: Value = serde_json::from_str(line).unwrap();
        tally.check(diff_typed(&format!("line {} as Value", i + 1), &value));
    }
    tally.finish("envelopes written like serde_json through to_vec, to_vec_into, to_string and to_writer");
}

// ---------------------------------------------------------------------------------------
// (b) Strings

#[test]
fn strings_write_like_serde_json() {
    let mut tally = Tally::default();
    // Every ASCII byte alone, as a key, and in the middle of a clean run.
    for b in 0u8..0x80 {
        let c = b as char;
        let s = c.to_string();
        tally.check(diff(&format!("byte {b:#04x}"), &s));
        tally.check(diff(&format!("byte {b:#04x} as a key"), &BTreeMap::from([(s.clone(), 1)])));
        tally.check(diff(&format!("byte {b:#04x} inside"), &format!("abcdefghij{c}klmnopqrstu{c}{c}")));
    }
    // Multi-byte UTF-8, including bytes that look like `"` or `\` with the high bit set.
    for s in [
        "é",
        "€",
        "😀",
        "\u{2028}\u{2029}",
        "\u{80}\u{a2}\u{dc}\u{ff}",
        "日本語のテキスト\n改行",
        "a\u{7f}b",
        "\u{10ffff}",
    ] {
        tally.check(diff(&format!("utf-8 {s:?}"), s));
        tally.check(diff(&format!("utf-8 {s:?} repeated"), &s.repeat(9)));
    }
    // Lengths 0..=40 with one special byte at every position (word and tail boundaries),
    // and with two specials in the same word.
    let specials = ['"', '\\', '\n', '\u{0}', '\u{1f}', '\t', '\u{8}', '\u{c}', '\r', 'é', '😀'];
    for len in 0..=40usize {
        let base: String = (0..len).map(|i| (b'a' + (i % 26) as u8) as char).collect();
        tally.check(diff(&format!("clean len {len}"), &base));
        for pos in 0..len {
            for sp in specials {
                let mut s: String = base.chars().take(pos).collect();
                s.push(sp);
                s.extend(base.chars().skip(pos + 1));
                tally.check(diff(&format!("len {len} {sp:?} at {pos}"), &s));
                if pos + 3 < len {
                    let mut t: Vec<char> = s.chars().collect();
                    t[pos + 3] = '"';
                    let t: String = t.into_iter().collect();
                    tally.check(diff(&format!("len {len} {sp:?} at {pos} and '\"' at {}", pos + 3), &t));
                }
            }
        }
        // All specials.
        tally.check(diff(&format!("len {len} all quotes"), &"\"".repeat(len)));
        tally.check(diff(&format!("len {len} all controls"), &"\u{1}".repeat(len)));
    }
    // Long text with escapes scattered, as tool descriptions have.
    let long = "A tool that reads \"files\".\nUse it\twisely; paths like C:\\tmp work.\r\n".repeat(100);
    tally.check(diff("long text", &long));
    // Long clean runs (base64 blobs) with one special byte or character around the 64-byte
    // blocks and the 16 KiB copies of a long run, and runs ending just past a block.
    let blob: String = (0..40_000).map(|i| b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[i % 64] as char).collect();
    tally.check(diff("blob", &blob));
    for at in [31, 32, 33, 95, 96, 97, 100, 159, 16_383, 16_384, 16_385, 16_415, 16_416, 16_447, 32_800, 39_990, 39_999] {
        for sp in ['"', '\\', '\n', '\u{1f}', 'é'] {
            let mut s: String = blob.chars().take(at).collect();
            s.push(sp);
            s.extend(blob.chars().skip(at + 1));
            tally.check(diff(&format!("blob with {sp:?} at {at}"), &s));
        }
    }
    for len in [95, 96, 97, 159, 160, 161, 16_416, 16_417, 16_420, 16_424] {
        tally.check(diff(&format!("clean run of {len}"), &blob[..len]));
    }
    tally.check(diff("char", &'"'));
    tally.check(diff("char key", &BTreeMap::from([('\n', 1), ('x', 2)])));
    tally.finish("strings written like serde_json");
}

// ---------------------------------------------------------------------------------------
// (c) Numbers, (d) nesting, enums and keys

#[derive(Serialize, Debug)]
enum E {
    Unit,
    Newtype(i32),
    Tuple(u8, String),
    Struct { a: Option<bool>, b: Vec<()> },
    EmptyTuple(),
    EmptyStruct {},
}

#[derive(Serialize, Debug)]
struct Wrapper(Vec<E>);

#[derive(Serialize, Debug)]
struct UnitStruct;

#[derive(Serialize, Debug)]
struct Plain {
    id: i64,
    #[serde(rename = "quoted\"key")]
    odd: &'static str,
    nested: BTreeMap<String, Vec<Value>>,
    unit: (),
    unit_struct: UnitStruct,
    #[serde(with = "serde_bytes_like")]
    bytes: Vec<u8>,
}

/// Serializes as bytes (`serialize_bytes`), which serde_json writes as an array of numbers.
mod serde_bytes_like {
    pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
}

#[test]
fn numbers_nesting_enums_and_keys_write_like_serde_json() {
    let mut t = Tally::default();
    for (i, n) in [i64::MIN, i64::MIN + 1, -1, 0, 1, 9, 10, 99, 100, i64::MAX].into_iter().enumerate() {
        t.check(diff(&format!("i64 #{i}"), &n));
    }
    for n in [0u64, u64::MAX, u32::MAX as u64 + 1] {
        t.check(diff(&format!("u64 {n}"), &n));
    }
    t.check(diff("small ints", &(i8::MIN, i16::MIN, i32::MIN, u8::MAX, u16::MAX, u32::MAX)));
    t.check(diff("128-bit", &(i128::MIN, u128::MAX)));
    let floats = [
        0.0,
        -0.0,
        0.1,
        0.5,
        1.0,
        -1.5,
        1e15,
        1e16,
        1e17,
        1e21,
        1e22,
        1e300,
        -1e300,
        1.7976931348623157e308,
        5e-324,
        2.2250738585072014e-308,
        1e-7,
        123456.789,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.30000000000000004,
    ];
    for f in floats {
        t.check(diff(&format!("f64 {f:?}"), &f));
        t.check(diff(&format!("f64 {f:?} as f32"), &(f as f32)));
        t.check(diff(&format!("f64 {f:?} as a key"), &BTreeMap::from([(FloatKey(f), 1)])));
        t.check(diff(&format!("f64 {f:?} as a Value"), &json!([f])));
    }
    for f in [0.1f32, 1.0e-45, f32::MAX, 16777216.0, 3.4028235e38, f32::NAN] {
        t.check(diff(&format!("f32 {f:?}"), &f));
    }
    // Numbers as read from text (the crate reads floats exactly).
    for text in
        ["1", "-0", "-0.0", "1.0", "1e3", "1E-3", "12345678901234567890", "-9223372036854775808", "0.1", "2.5e-5"]
    {
        let v: Value = serde_json::from_str(text).unwrap();
        t.check(diff(&format!("number {text}"), &v));
    }
    // Nesting, empties.
    let nested = json!({"a": [], "b": {}, "c": [[], [{}], {"d": [[[]]]}], "e": null, "f": [true, false, null, "s", 1, 1.5],
        "": {"": ""}, "deep": [[[[[[[[[[{"x": [1, {"y": {}}]}]]]]]]]]]]});
    t.check(diff("nested Value", &nested));
    t.check(diff("empty array", &Vec::<i32>::new()));
    t.check(diff("empty map", &BTreeMap::<String, i32>::new()));
    t.check(diff("empty Value object", &json!({})));
    t.check(diff("unit", &()));
    t.check(diff("None", &None::<i32>));
    t.check(diff("Some(None)", &Some(None::<i32>)));
    t.check(diff("tuple", &(1, "two", [3.5], ())));
    let enums = Wrapper(vec![
        E::Unit,
        E::Newtype(-3),
        E::Tuple(7, "t\"".into()),
        E::Struct { a: Some(true), b: vec![(), ()] },
        E::Struct { a: None, b: vec![] },
        E::EmptyTuple(),
        E::EmptyStruct {},
    ]);
    t.check(diff("enum variants", &enums));
    let plain = Plain {
        id: 42,
        odd: "v",
        nested: BTreeMap::from([("k".into(), vec![json!(1), json!({"z": [null]})]), ("\u{1}".into(), vec![])]),
        unit: (),
        unit_struct: UnitStruct,
        bytes: vec![0, 1, 255],
    };
    t.check(diff("struct with odd fields", &plain));
    // Keys that are not strings: numbers and bools are quoted, the rest is an error.
    t.check(diff("i32 keys", &BTreeMap::from([(-1i32, "a"), (7, "b")])));
    t.check(diff("u64 keys", &BTreeMap::from([(u64::MAX, 1)])));
    t.check(diff("i128 keys", &BTreeMap::from([(i128::MIN, 1)])));
    t.check(diff("bool keys", &BTreeMap::from([(true, 1), (false, 0)])));
    t.check(diff("unit-variant keys", &BTreeMap::from([(K::A, 1)])));
    t.check(diff("newtype keys", &BTreeMap::from([(Id("x\"y".into()), 1)])));
    t.check(diff("Option keys", &BTreeMap::from([(Some("k"), 1)])));
    t.check(diff("None key (error)", &BTreeMap::from([(None::<&str>, 1)])));
    t.check(diff("unit key (error)", &BTreeMap::from([((), 1)])));
    t.check(diff("seq key (error)", &BTreeMap::from([(vec![1], 1)])));
    t.check(diff("struct-variant key (error)", &BTreeMap::from([(KS::S { a: 1 }, 1)])));
    t.check(diff("error part-way through", &(1, [Fails])));
    t.finish("numbers, nesting, enums and keys written like serde_json");
}

#[derive(Serialize, Debug, PartialEq, PartialOrd)]
struct FloatKey(f64);
impl Eq for FloatKey {}
#[allow(clippy::derive_ord_xor_partial_ord)]
impl Ord for FloatKey {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

#[derive(Serialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum K {
    A,
}

#[derive(Serialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Id(String);

#[derive(Serialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum KS {
    S { a: i32 },
}

/// A value whose `Serialize` fails part-way, after writing something.
#[derive(Debug)]
struct Fails;
impl Serialize for Fails {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut q = s.serialize_seq(None)?;
        q.serialize_element(&1)?;
        let _ = q;
        Err(S::Error::custom("no more"))
    }
}

// ---------------------------------------------------------------------------------------
// (e) RawValue

#[derive(Serialize, Debug)]
struct WithRaw<'a> {
    before: u8,
    raw: &'a RawValue,
    boxed: Box<RawValue>,
    list: Vec<Box<RawValue>>,
    map: BTreeMap<String, Box<RawValue>>,
}

#[test]
fn raw_values_pass_through_like_serde_json() {
    let mut t = Tally::default();
    let texts = [r#"{ "a" : [1, 2 ,3] }"#, "  \"s\\u0041\"  ", "1.000e+10", "null", "[ ]", r#"{"é":"\u00e9\n"}"#];
    for text in texts {
        let raw = RawValue::from_string(text.to_string()).unwrap();
        t.check(diff(&format!("raw {text:?}"), &raw));
        let owned = serde_json::from_str::<Box<RawValue>>(text).unwrap();
        t.check(diff(&format!("raw from text {text:?}"), &owned));
        let w = WithRaw {
            before: 1,
            raw: &owned,
            boxed: raw.clone(),
            list: vec![raw.clone(), owned.clone()],
            map: BTreeMap::from([("k\"".into(), raw.clone())]),
        };
        t.check(diff(&format!("raw inside a struct {text:?}"), &w));
        t.check(diff(&format!("raw as Option {text:?}"), &Some(raw.clone())));
        // Verbatim: the bytes are the raw text itself.
        t.check(match mcp_spec_types::serialize_to_vec(&raw) {
            Ok(b) if b == raw.get().as_bytes() => Ok(()),
            other => Err(format!("raw {text:?} not verbatim: {other:?}")),
        });
        t.check(diff(&format!("raw as a key {text:?} (error)"), &BTreeMap::from([(RawKey(raw.clone()), 1)])));
    }
    t.finish("raw values written like serde_json");
}

#[derive(Serialize, Debug)]
struct RawKey(Box<RawValue>);
impl PartialEq for RawKey {
    fn eq(&self, o: &Self) -> bool {
        self.0.get() == o.0.get()
    }
}
impl Eq for RawKey {}
impl PartialOrd for RawKey {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for RawKey {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.get().cmp(o.0.get())
    }
}

// ---------------------------------------------------------------------------------------
// (f) The benchmark's recorded corpora and random values

/// Every message of the benchmark's recorded sessions and the SDK clients' recordings, as `Value`
/// and as its version's `JSONRPCMessage`.
#[test]
fn benchmark_corpora_write_like_serde_json() {
    let mut tally = Tally::default();
    let root = workspace_root();
    let files: [(&str, fn(&str, &str) -> Result<(), String>); 4] = [
        ("bench/data/sessions/2025-11-25-bidirectional.jsonl", typed_message::<mcp_spec_types::v2025_11_25::JSONRPCMessage>),
        ("bench/data/sessions/2025-11-25-mixed-servers.jsonl", typed_message::<mcp_spec_types::v2025_11_25::JSONRPCMessage>),
        ("examples/sdk-clients/recorded/python-mcp-2.3.0.jsonl", typed_message::<mcp_spec_types::v2026_07_28::JSONRPCMessage>),
        ("examples/sdk-clients/recorded/typescript-client-2.4.0.jsonl", typed_message::<mcp_spec_types::v2026_07_28::JSONRPCMessage>),
    ];
    for (file, read) in files {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let label = format!("{file}:{}", i + 1);
            let line: Value = serde_json::from_str(line).unwrap();
            tally.check(diff_typed(&format!("{label} as Value"), &line["msg"]));
            let text = line["msg"].to_string();
            tally.check(read(&label, &text));
            // As the benchmark's typed message: what its sender's side sends.
            let server = line["dir"] == "s2c";
            tally.check(match (file.contains("2025-11-25"), server) {
                (true, true) => typed_message::<mcp_spec_types::v2025_11_25::ServerMessage>(&label, &text),
                (true, false) => typed_message::<mcp_spec_types::v2025_11_25::ClientMessage>(&label, &text),
                (false, true) => typed_message::<mcp_spec_types::v2026_07_28::ServerMessage>(&label, &text),
                (false, false) => typed_message::<mcp_spec_types::v2026_07_28::ClientMessage>(&label, &text),
            });
        }
    }
    tally.finish("benchmark corpus messages written like serde_json");
}

/// A small deterministic generator (64-bit LCG, high bits), so a failure names a seed that repeats.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Characters that sit on the writer's escaping decisions: every control byte's neighbours,
/// `"` and `\`, DEL, the line and paragraph separators (written raw by serde_json), multi-byte
/// UTF-8 of every length, and plain letters so clean runs of every length occur.
const ODD_CHARS: &[char] = &[
    '\u{0}', '\u{1}', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{1f}', ' ', '"', '\\', '/', '\u{7f}',
    '\u{80}', '\u{a0}', 'é', '\u{2028}', '\u{2029}', '\u{feff}', '\u{ffff}', '😀', '\u{10ffff}', 'a', 'b', 'z', '0', '{',
];

fn odd_string(r: &mut Lcg) -> String {
    let len = [0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 64][r.below(11)];
    (0..len).map(|_| if r.below(3) == 0 { ODD_CHARS[r.below(ODD_CHARS.len())] } else { (b'a' + r.below(26) as u8) as char }).collect()
}

fn odd_number(r: &mut Lcg) -> Value {
    let floats = [0.0, -0.0, 0.1, -1.5, 1e-300, 5e-324, 1.7976931348623157e308, 1e21, 1e20, 123456789.125, f64::EPSILON];
    match r.below(4) {
        0 => [json!(i64::MIN), json!(i64::MAX), json!(-1), json!(0u64), json!(u64::MAX), json!(9007199254740993u64)][r.below(6)].clone(),
        1 => json!(r.next() as i64 - (1 << 30)),
        2 => json!(floats[r.below(floats.len())]),
        _ => json!((r.next() as f64) / 1024.0 * if r.below(2) == 0 { -1.0 } else { 1.0 }),
    }
}

fn random_value(r: &mut Lcg, depth: usize) -> Value {
    let pick = if depth == 0 { r.below(4) } else { r.below(6) };
    match pick {
        0 => Value::Null,
        1 => Value::Bool(r.below(2) == 0),
        2 => odd_number(r),
        3 => Value::String(odd_string(r)),
        4 => Value::Array((0..r.below(5)).map(|_| random_value(r, depth - 1)).collect()),
        _ => Value::Object((0..r.below(5)).map(|_| (odd_string(r), random_value(r, depth - 1))).collect()),
    }
}

#[test]
fn random_values_write_like_serde_json() {
    let mut tally = Tally::default();
    let mut r = Lcg(0x5eed);
    for i in 0..5000 {
        let v = random_value(&mut r, 4);
        tally.check(diff_typed(&format!("random value {i}"), &v));
    }
    tally.finish("random values written like serde_json");
}

/// Random `Value` trees written inside typed values, where the JSON-only path walks them itself:
/// a `Value` field, unknown keys kept in `extra`, a map of objects (tool input schemas) and a
/// whole JSON-RPC response around them.
#[test]
fn random_values_inside_typed_values_write_like_serde_json() {
    let mut tally = Tally::default();
    let mut r = Lcg(0x7e57);
    for i in 0..5000 {
        let (data, extra) = (random_value(&mut r, 4), random_value(&mut r, 3));
        let mut key = odd_string(&mut r);
        key.insert(0, '~'); // never a key the schema defines
        let log = json!({"level": "info", "data": data, key.clone(): extra});
        tally.check(read_as::<mcp_spec_types::v2026_07_28::LoggingMessageNotificationParams>(&format!("random log data {i}"), log));
        let schema = match random_value(&mut r, 4) {
            Value::Object(o) => o,
            other => serde_json::Map::from_iter([("default".to_string(), other)]),
        };
        let tool = json!({"name": key, "inputSchema": {"type": "object", "properties": {key.clone(): schema}}, "_meta": {"trace": data}});
        let response = json!({"jsonrpc": "2.0", "id": i, "result": {"tools": [tool], key: extra}});
        tally.check(read_as::<mcp_spec_types::v2025_11_25::ServerMessage>(&format!("random tools/list {i}"), response));
    }
    tally.finish("random values inside typed values written like serde_json");
}

fn read_as<T: Serialize + WriteJson + serde::de::DeserializeOwned + Debug>(label: &str, v: Value) -> Result<(), String> {
    let t: T = serde_json::from_value(v).map_err(|e| format!("{label}: read: {e}"))?;
    diff_typed(label, &t)
}
