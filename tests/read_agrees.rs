//! The validators and the typed read agree on what reads: a value the validators find no error in
//! reads typed, and a value they say the reader refuses (`Report::refuses_typed_read`) does not.
//! `check` relies on the first to skip the typed read of a message the validators passed, and on
//! the second to name the reader's refusal on lines too costly to read typed.
//!
//! Inputs: every spec example of every version, as its own type and as each union that holds it,
//! and one-change variants of each (a key removed, a value replaced by one of 20 values); the
//! recorded sessions (bench/data/sessions) as `JSONRPCMessage` of their version, and one-change
//! variants of every fourth message.

use mcp_schema_tests::{example_files, upstream, workspace_root, Tally};
use mcp_spec_types::runtime::dynamic::DynType;
use mcp_spec_types::tree::Doc;
use mcp_spec_types::validate::Options;
use serde_json::{json, Value};

type Lookup = fn(&str) -> Option<&'static DynType>;

/// The values put in place of each part of an example.
/// Numbers at the edges of the integer fields (`-0.0`, an integral float, past `i64`, past `u64`) among them.
fn replacements() -> [Value; 15] {
    [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(-0.0),
        json!(1.0),
        json!(9_223_372_036_854_775_808u64),
        json!(1e300),
        json!(""),
        json!("x"),
        json!("2025-01-01T00:00:00Z"),
        json!([]),
        json!({}),
        json!([{}]),
    ]
}

/// Number texts a `Value` cannot hold as written, put in by [`raw`] and written out by [`text_of`].
const RAW_NUMBERS: [&str; 5] = ["-0", "1e2", "18446744073709551616", "-9223372036854775809", "1e-400"];

/// A string standing for number text that [`text_of`] writes bare.
fn raw(t: &str) -> Value {
    Value::String(format!("\u{0}raw:{t}"))
}

fn text_of(v: &Value) -> String {
    let mut text = v.to_string();
    for t in RAW_NUMBERS {
        text = text.replace(&format!("\"\\u0000raw:{t}\""), t);
    }
    text
}

/// Every one-change variant of `v`: each object key removed, each value replaced.
fn variants(v: &Value) -> Vec<Value> {
    let mut pointers = Vec::new();
    collect(v, String::new(), &mut pointers);
    let mut out = Vec::new();
    for p in pointers {
        if let Some((parent, key)) = p.rsplit_once('/') {
            let mut removed = v.clone();
            if let Some(Value::Object(o)) = removed.pointer_mut(parent) {
                o.remove(&key.replace("~1", "/").replace("~0", "~"));
                out.push(removed);
            }
        }
        for r in replacements().into_iter().chain(RAW_NUMBERS.map(raw)) {
            let mut changed = v.clone();
            *changed.pointer_mut(&p).expect("collected from v") = r;
            out.push(changed);
        }
    }
    out
}

fn collect(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                collect(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                collect(x, p, out);
            }
        }
        _ => {}
    }
}

/// The two directions of the agreement, for one value as one type.
fn agree(ty: &DynType, v: &Value, label: &str) -> Result<(), String> {
    let text = text_of(v);
    let doc = Doc::parse(&text).map_err(|e| format!("{label}: the tree refuses serde_json's output: {e}"))?;
    let report = (ty.validate_node)(doc.root(), &Options::default());
    let read = (ty.read_node)(doc.root());
    let errors = report.errors().count() + report.omitted_errors;
    match read {
        Err(e) if errors == 0 => Err(format!("{label} as {}: no validator error, but the typed read refuses it: {e}\n  {text}", ty.name)),
        Ok(_) if report.refuses_typed_read() => {
            let rules: Vec<_> = report.errors().map(|v| format!("{} at {}", v.rule, v.pointer)).collect();
            Err(format!("{label} as {}: the report says the reader refuses it ({rules:?}), but it reads\n  {text}", ty.name))
        }
        _ => Ok(()),
    }
}

fn check_module(module: &str, protocol: &str, lookup: Lookup, unions: &[(&str, &[&str])]) {
    let config = mcp_schema_tests::config();
    let input = &config.modules.iter().find(|m| m.name == module).expect("module in the config").input;
    let examples = upstream().join(input).parent().map(|p| p.join("examples")).filter(|d| d.is_dir());
    let mut tally = Tally::default();
    let message = lookup("JSONRPCMessage").expect("every version has JSONRPCMessage");
    let mut sessions: Vec<_> = std::fs::read_dir(workspace_root().join("bench/data/sessions")).unwrap().flatten().map(|e| e.path()).collect();
    sessions.sort();
    for path in sessions.iter().filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&format!("{protocol}-"))) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (i, line) in std::fs::read_to_string(path).unwrap().lines().enumerate() {
            let recorded: Value = serde_json::from_str(line).unwrap();
            let msg = &recorded["msg"];
            tally.check(agree(message, msg, &format!("{name}:{}", i + 1)));
            if i % 4 == 0 {
                for (j, v) in variants(msg).iter().enumerate() {
                    tally.check(agree(message, v, &format!("{name}:{} variant {j}", i + 1)));
                }
            }
        }
    }
    for (type_name, path) in examples.iter().flat_map(|d| example_files(d)) {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let example: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut types: Vec<&'static DynType> = lookup(&type_name).into_iter().collect();
        types.extend(unions.iter().filter(|(_, members)| members.contains(&type_name.as_str())).filter_map(|(u, _)| lookup(u)));
        let mut inputs = vec![example.clone()];
        inputs.extend(variants(&example));
        for ty in types {
            for (i, v) in inputs.iter().enumerate() {
                tally.check(agree(ty, v, &format!("{protocol}/{type_name}/{file} variant {i}")));
            }
        }
    }
    assert!(tally.passed > 1000, "{protocol}: only {} inputs", tally.passed);
    tally.finish(&format!("{protocol}: validators and typed read agree"));
}

macro_rules! agreement_tests {
    ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {
        $(agreement_tests!(@ $kind $m $protocol);)*
    };
    (@ version $m:ident $protocol:literal) => {
        #[test]
        fn $m() {
            check_module(stringify!($m), $protocol, mcp_spec_types::$m::dynamic, mcp_spec_types::$m::UNION_MEMBERS);
        }
    };
    (@ $kind:ident $m:ident $protocol:tt) => {};
}

mod validators_and_typed_read_agree {
    use super::*;
    mcp_spec_types::for_each_module!(agreement_tests);
}

#[test]
fn raw_numbers_are_written_bare() {
    assert_eq!(text_of(&json!({"a": [raw("-0"), raw("1e-400")]})), r#"{"a":[-0,1e-400]}"#);
}
