//! The properties the fuzz targets check, as plain functions.
//!
//! Each `fuzz_targets/*.rs` is a one-line libFuzzer wrapper around one of these;
//! `src/bin/replay.rs` runs the same functions on files (seed corpora, crash
//! reproducers) with a stable toolchain and no libFuzzer. A property that does
//! not hold panics with a message naming the module, the type and the input.

#![forbid(unsafe_code)]

use std::fmt::Debug;

use mcp_spec_types::runtime::SchemaType;
use mcp_spec_types::validate::{Options, Report, Severity};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

pub mod bridge;
pub mod cli;
pub use bridge::bridge;
pub mod http;
pub mod tree;
pub use tree::tree;
pub use cli::{proxy_lines, session};
pub use http::proxy_http;

/// Reads `data` as `T`; when that works, writes it, reads it back and compares.
/// With `lossless`, the written JSON must also equal the input read as a plain value.
/// Returns whether `data` was a `T`.
pub fn typed<T>(data: &[u8], lossless: bool) -> bool
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + SchemaType,
{
    let ty = std::any::type_name::<T>();
    // The crate's own reader guesses members of catch-all unions and reads again when the
    // guess is wrong: it must give serde_json's answer, value or error.
    let guessed = mcp_spec_types::from_slice::<T>(data).map_err(|e| e.to_string());
    let plain = serde_json::from_slice::<T>(data);
    let same_answer = match (&plain, &guessed) {
        (Ok(a), Ok(b)) => !exact_floats() || a == b,
        (Err(a), Err(b)) => a.to_string() == *b,
        _ => false,
    };
    assert!(same_answer, "{ty}: mcp_spec_types::from_slice and serde_json::from_slice disagree\ninput: {}", show(data));
    let Ok(first) = plain else { return false };
    // Every serde_json source reads the same value (unions decided by keys keep JSON text
    // from a slice, but values from a reader or a tree).
    let from_reader: T = serde_json::from_reader(data).unwrap_or_else(|e| panic!("{ty}: read from a slice but not from a reader: {e}\ninput: {}", show(data)));
    let tree: Value = serde_json::from_slice(data).expect("a T is JSON");
    let from_tree = T::deserialize(&tree).unwrap_or_else(|e| panic!("{ty}: read from a slice but not from a Value: {e}\ninput: {}", show(data)));
    if exact_floats() {
        assert!(from_reader == first && from_tree == first, "{ty}: the sources disagree\ninput: {}", show(data));
    }
    let text = serde_json::to_string(&first).unwrap_or_else(|e| panic!("{ty}: a value that was read does not serialize: {e}\nvalue: {first:?}"));
    let again: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{ty}: its own output does not read back: {e}\ninput: {}\noutput: {text}", show(data)));
    let text2 = serde_json::to_string(&again).expect("serializes once, serializes twice");
    if exact_floats() {
        assert!(first == again, "{ty}: read -> write -> read changed the value\ninput: {}\noutput: {text}\nfirst: {first:?}\nagain: {again:?}", show(data));
        assert_eq!(text, text2, "{ty}: write -> read -> write is not stable\ninput: {}", show(data));
    } else {
        let (a, b): (Value, Value) = (serde_json::from_str(&text).unwrap(), serde_json::from_str(&text2).unwrap());
        assert!(same(&a, &b), "{ty}: read -> write -> read changed the value\ninput: {}\nfirst:  {text}\nsecond: {text2}", show(data));
    }
    assert_eq!(first.schema_name(), again.schema_name(), "{ty}: the second read chose another variant\ninput: {}\noutput: {text}", show(data));
    if lossless {
        if let Ok(input) = serde_json::from_slice::<Value>(data) {
            let written: Value = serde_json::from_str(&text).expect("own output is JSON");
            assert!(same(&input, &written), "{ty}: not lossless\ninput:  {input}\nwritten: {written}");
        }
    }
    true
}

/// Whether floats must come back bit for bit: yes, unless `MCP_FUZZ_LOOSE_FLOATS=1`, which
/// compares floats within 2 ULP (for a build of serde_json without `float_roundtrip`, which
/// may read a float with 17 significant digits 1 ULP off; the generated crate turns it on).
/// Everything else is always compared exactly.
pub fn exact_floats() -> bool {
    static EXACT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EXACT.get_or_init(|| !std::env::var("MCP_FUZZ_LOOSE_FLOATS").is_ok_and(|v| v == "1"))
}

/// JSON equality; unless [`exact_floats`], two floats within 2 ULP are the same.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if !exact_floats() && x.is_f64() && y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x.is_sign_negative() == y.is_sign_negative() && x.to_bits().abs_diff(y.to_bits()) <= 2)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

type Typed = fn(&[u8], bool) -> bool;
type RoundtripJson = fn(&str, &str) -> Option<Result<(Value, &'static str), serde_json::Error>>;
type ValidateAs = fn(&str, &Value, &Options) -> Option<Report>;

/// One generated module: its message roots (typed checks) and its by-name tables.
pub struct Module {
    pub name: &'static str,
    pub roots: &'static [(&'static str, Typed)],
    /// Reads the input as every root, checking nothing but "no panic".
    pub read: fn(&[u8]),
    pub types: &'static [(&'static str, &'static str)],
    pub roundtrip_json: RoundtripJson,
    pub validate_json_as: ValidateAs,
    /// The module's run-time entry points by type name (the tree's among them).
    pub dynamic: fn(&str) -> Option<&'static mcp_spec_types::runtime::dynamic::DynType>,
    /// Whether reading and writing must give back the input exactly. Every module does now
    /// (`resource_metadata` keeps old-form `EmbeddedResource`s as they came).
    pub lossless: bool,
}

macro_rules! module {
    ($m:ident, $lossless:expr, [$($t:ident),* $(,)?]) => {
        Module {
            name: stringify!($m),
            roots: &[$((stringify!($t), typed::<mcp_spec_types::$m::$t> as Typed)),*],
            read: |data| {
                $(let _ = serde_json::from_slice::<mcp_spec_types::$m::$t>(data);)*
            },
            types: mcp_spec_types::$m::TYPES,
            roundtrip_json: mcp_spec_types::$m::roundtrip_json,
            validate_json_as: mcp_spec_types::$m::validate_json_as,
            dynamic: mcp_spec_types::$m::dynamic,
            lossless: $lossless,
        }
    };
}

/// Each module's message roots. A module of `schema/codegen.toml` missing here is a
/// compile error ("no rules expected"), so a new version cannot go unfuzzed.
macro_rules! fuzzed {
    (v2024_11_05) => { module!(v2024_11_05, true, [JSONRPCMessage, ClientRequest, ServerRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ClientMessage, ServerMessage]) };
    (v2025_03_26) => { module!(v2025_03_26, true, [JSONRPCMessage, ClientRequest, ServerRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ClientMessage, ServerMessage]) };
    (v2025_06_18) => { module!(v2025_06_18, true, [JSONRPCMessage, ClientRequest, ServerRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ContentBlock, ClientMessage, ServerMessage]) };
    (v2025_11_25) => { module!(v2025_11_25, true, [JSONRPCMessage, ClientRequest, ServerRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ContentBlock, ClientMessage, ServerMessage]) };
    (v2026_07_28) => { module!(v2026_07_28, true, [JSONRPCMessage, ClientRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ContentBlock, ClientMessage, ServerMessage]) };
    (draft) => { module!(draft, true, [JSONRPCMessage, ClientRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ContentBlock, ClientMessage, ServerMessage]) };
    (resource_metadata) => { module!(resource_metadata, true, [JSONRPCMessage, ClientRequest, ClientNotification, ServerNotification, ClientResult, ServerResult, ContentBlock, ClientMessage, ServerMessage]) };
    (apps) => { module!(apps, true, [McpUiHostContext, McpUiResourceMeta, McpUiToolMeta, McpUiInitializeRequest, McpUiInitializeResult]) };
    (tasks) => { module!(tasks, true, [CallToolOutcome, GetTaskRequest, GetTaskResult, UpdateTaskRequest, CancelTaskRequest, TaskStatusNotification, DetailedTask]) };
    (skills) => { module!(skills, true, [ClientRequest, ServerResult, ClientMessage, ServerMessage, ListSkillsResult, GetSkillResult, ReadResourceDirectoryResult, Skill]) };
}

macro_rules! every_module {
    ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => { &[$(fuzzed!($m)),*] };
}

/// Every module, in `schema/codegen.toml` order (`roundtrip` picks one by index).
pub static MODULES: &[Module] = mcp_spec_types::for_each_module!(every_module);

fn show(data: &[u8]) -> String {
    let s = String::from_utf8_lossy(data);
    if s.len() > 2000 {
        format!("{}... ({} bytes)", &s[..s.floor_char_boundary_compat(2000)], data.len())
    } else {
        s.into_owned()
    }
}

trait FloorCharBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}
impl FloorCharBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

/// `parse`: the whole input, as every message root of every version, and as a
/// stream of messages (JSONL). Only "no panic, no hang" is checked here.
pub fn parse(data: &[u8]) {
    parse_only(data);
}

fn parse_only(data: &[u8]) {
    for m in MODULES {
        (m.read)(data);
    }
    // A capture: messages one after another, as a peer streams them.
    let stream = serde_json::Deserializer::from_slice(data).into_iter::<mcp_spec_types::v2026_07_28::JSONRPCMessage>();
    for item in stream.take(64) {
        if item.is_err() {
            break;
        }
    }
    let stream = serde_json::Deserializer::from_slice(data).into_iter::<mcp_spec_types::v2024_11_05::JSONRPCMessage>();
    for item in stream.take(64) {
        if item.is_err() {
            break;
        }
    }
}

/// `roundtrip`: `data[0]` picks the module, `data[1]` a type, the rest is the JSON.
/// An even `data[1]` picks a message root and checks the typed property ([`typed`]);
/// an odd one picks any type of the module by name and checks the same at the JSON level
/// (`roundtrip_json`: read, write, read again gives the same JSON and the same variant).
pub fn roundtrip(data: &[u8]) {
    any_json(data);
    let [a, b, rest @ ..] = data else { return };
    let m = &MODULES[*a as usize % MODULES.len()];
    if b % 2 == 0 {
        let (_, check) = m.roots[(*b as usize / 2) % m.roots.len()];
        check(rest, m.lossless);
        return;
    }
    let (name, _) = m.types[(*b as usize / 2) % m.types.len()];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    roundtrip_by_name(m, name, text);
}

/// The crate's reader gives serde_json's answer for any input read as a plain `Value`: the
/// same value (floats bit for bit, `-0` and integer kinds included) or the same error.
pub fn any_json(data: &[u8]) {
    let ours = mcp_spec_types::from_slice::<Value>(data).map_err(|e| e.to_string());
    let theirs = serde_json::from_slice::<Value>(data).map_err(|e| e.to_string());
    let same_answer = match (&ours, &theirs) {
        (Ok(a), Ok(b)) => a == b && a.to_string() == b.to_string(),
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    assert!(same_answer, "Value: mcp_spec_types::from_slice and serde_json::from_slice disagree ({ours:?} against {theirs:?})\ninput: {}", show(data));
}

/// The JSON-level round trip of `text` as the type `name` of module `m`.
pub fn roundtrip_by_name(m: &Module, name: &str, text: &str) {
    let Some(Ok((first, variant))) = (m.roundtrip_json)(name, text) else { return };
    let written = first.to_string();
    let (again, variant2) = match (m.roundtrip_json)(name, &written) {
        Some(Ok(x)) => x,
        Some(Err(e)) => panic!("{}::{name}: its own output does not read back: {e}\ninput: {text}\noutput: {written}", m.name),
        None => unreachable!("the name came from TYPES"),
    };
    assert!(same(&first, &again), "{}::{name}: read -> write -> read changed the JSON\ninput: {text}\nfirst: {first}\nagain: {again}", m.name);
    assert_eq!(variant, variant2, "{}::{name}: the second read chose another variant\ninput: {text}", m.name);
    if m.lossless {
        if let Ok(input) = serde_json::from_str::<Value>(text) {
            assert!(same(&input, &first), "{}::{name}: not lossless\ninput:   {input}\nwritten: {first}", m.name);
        }
    }
}

/// `validate`: `data[0]` module, `data[1]` type, `data[2]` options, the rest the JSON.
/// Checks: no panic; the same report twice; every pointer resolves in the value;
/// strict mode reports the same violations, all as errors.
pub fn validate(data: &[u8]) {
    let [a, b, o, rest @ ..] = data else { return };
    let Ok(value) = serde_json::from_slice::<Value>(rest) else { return };
    let m = &MODULES[*a as usize % MODULES.len()];
    let (name, _) = m.types[*b as usize % m.types.len()];
    let options = Options { strict: false, apps: o & 1 == 1, icon_max_bytes: if o & 2 == 2 { 16 } else { Options::default().icon_max_bytes }, ..Options::default() };
    let report = (m.validate_json_as)(name, &value, &options).expect("the name came from TYPES");
    let twice = (m.validate_json_as)(name, &value, &options).expect("the name came from TYPES");
    assert_eq!(report, twice, "{}::{name}: validation is not deterministic", m.name);
    for v in &report.violations {
        assert!(
            v.pointer.is_empty() || v.pointer.starts_with('/'),
            "{}::{name}: `{}` is not a JSON pointer ({v})\nvalue: {value}",
            m.name,
            v.pointer
        );
        assert!(value.pointer(&v.pointer).is_some(), "{}::{name}: the pointer of `{v}` names no value\nvalue: {value}", m.name);
        assert!(!v.message.is_empty(), "{}::{name}: a violation without a message at {}", m.name, v.pointer);
    }
    let strict = (m.validate_json_as)(name, &value, &Options { strict: true, ..options }).expect("the name came from TYPES");
    assert_eq!(strict.violations.len(), report.violations.len(), "{}::{name}: strict mode found other violations\nvalue: {value}", m.name);
    for (s, r) in strict.violations.iter().zip(&report.violations) {
        assert!(s.severity == Severity::Error && s.pointer == r.pointer && s.rule == r.rule, "{}::{name}: strict `{s}` vs `{r}`", m.name);
    }
    // What the validators pass, the typed reader takes (`check` skips the typed read then); what
    // they say it refuses, it refuses (`check` says so of lines too costly to read typed).
    let text = std::str::from_utf8(rest).expect("serde_json read it");
    if let (Some(ty), Ok(doc)) = ((m.dynamic)(name), mcp_spec_types::tree::Doc::parse(text)) {
        let report = (ty.validate_node)(doc.root(), &options);
        match (ty.read_node)(doc.root()) {
            Err(e) if report.omitted_errors == 0 && report.errors().next().is_none() => {
                panic!("{}::{name}: the validators found no error but the typed read refuses: {e}\nvalue: {value}", m.name)
            }
            Ok(_) if report.refuses_typed_read() => panic!("{}::{name}: the report says the reader refuses it, but it reads\nvalue: {value}", m.name),
            _ => {}
        }
    }
    // The generic entry point agrees with the by-name one for the envelope.
    if let Some(root) = m.types.iter().find(|(n, _)| *n == "JSONRPCMessage") {
        let _ = (m.validate_json_as)(root.0, &value, &options);
    }
}

/// The configuration the generator target uses: one module, the project's own bindings,
/// optionally an overlay and an import bound to another configured module.
pub const GENERATOR_CONFIG: &str = r#"
[[module]]
name = "base"
feature = "base"
input = "base.ts"
title = "Fuzzed base."

[[module]]
name = "fuzzed"
feature = "fuzzed"
input = "input.ts"
title = "Fuzzed module."
[module.imports]
"@fuzz/base" = "base"

[[module]]
name = "fuzzed_overlay"
feature = "fuzzed-overlay"
input = "input.ts"
overlay = "overlay.ts"
title = "Fuzzed module with an overlay."

[bindings]
JSONValue = { rust = "serde_json::Value", reason = "any JSON value" }
JSONObject = { rust = "serde_json::Map<String, serde_json::Value>", reason = "any JSON object" }

[request_results]
PingRequest = "EmptyResult"
"#;

/// A small, valid base module the fuzzed input can import from.
pub const GENERATOR_BASE: &str = "export type RequestId = string | number;\nexport interface Shared { id: RequestId; note?: string; }\n";

/// `generator`: the input is TypeScript; a NUL byte splits it into a module and an overlay.
/// `generate` must return `Ok` or `Err` with located diagnostics, never panic or hang.
pub fn generator(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (input, overlay) = match text.split_once('\0') {
        Some((i, o)) => (i.to_string(), o.to_string()),
        None => (text.to_string(), String::new()),
    };
    let config = generator::Config::from_toml(GENERATOR_CONFIG).expect("the fuzz config is valid");
    let inputs = [
        generator::Input { path: "base.ts".into(), source: GENERATOR_BASE.into() },
        generator::Input { path: "input.ts".into(), source: input },
        generator::Input { path: "overlay.ts".into(), source: overlay },
    ];
    if let Err(d) = generator::generate(&inputs, &config) {
        for x in &d.0 {
            assert!(
                !x.location.file.is_empty() && x.location.line > 0 && x.location.col > 0,
                "a diagnostic without a file:line:col: `{x}`"
            );
        }
    }
}

/// Runs the target called `name` on `data`; `false` for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "parse" => parse(data),
        "roundtrip" => roundtrip(data),
        "validate" => validate(data),
        "generator" => generator(data),
        "session" => session(data),
        "proxy_lines" => proxy_lines(data),
        "bridge" => bridge(data),
        "proxy_http" => proxy_http(data),
        "tree" => tree(data),
        _ => return false,
    }
    true
}

pub const TARGETS: &[&str] = &["parse", "roundtrip", "validate", "generator", "session", "proxy_lines", "bridge", "proxy_http", "tree"];
