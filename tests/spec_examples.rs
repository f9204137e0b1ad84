//! Every spec example deserializes into the type its folder names, lands in the
//! variant its content says (also when read through each union that holds that
//! type), and serializes back to the same JSON.

use mcp_schema_tests::{example_files, upstream, Tally};
use serde_json::Value;

type RoundTrip = fn(&str, &str) -> Option<Result<(Value, &'static str), serde_json::Error>>;

struct Version {
    dir: std::path::PathBuf,
    /// The protocol version, for messages.
    label: &'static str,
    roundtrip: RoundTrip,
    unions: &'static [(&'static str, &'static [&'static str])],
    types: &'static [(&'static str, &'static str)],
}

/// Examples that disagree with schema.ts. Each is expected to fail with the
/// given message fragment, so the entry must go when the spec is fixed.
const KNOWN_DISAGREEMENTS: &[(&str, &str, &str)] = &[
    // The example's result lacks `ttlMs` and `cacheScope`, which ReadResourceResult
    // requires through CacheableResult; the types keep the schema's word.
    ("ReadResourceResultResponse", "read-resource-result-response.json", "missing field `ttlMs`"),
];

/// Examples that a union cannot tell apart from another of its members, because
/// the two types accept exactly the same keys here: (type, file, union, reason).
const AMBIGUOUS_IN_UNION: &[(&str, &str, &str, &str)] = &[(
    "SubscriptionsListenResult",
    "listen-closed.json",
    "ServerResult",
    "only `resultType` and `_meta`, which is an EmptyResult too; a client types results by the request they answer",
)];

fn check_version(v: &Version, tally: &mut Tally) {
    let files = example_files(&v.dir);
    assert!(!files.is_empty(), "no examples under {}", v.dir.display());
    eprintln!("{}: {} example files", v.label, files.len());
    for (type_name, path) in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let label = format!("{}/{type_name}/{file}", v.label);
        let text = std::fs::read_to_string(&path).unwrap();
        let input: Value = serde_json::from_str(&text).unwrap();
        let expected_failure = KNOWN_DISAGREEMENTS.iter().find(|(t, f, _)| *t == type_name && *f == file);
        let result = (v.roundtrip)(&type_name, &text).unwrap_or_else(|| panic!("{label}: no type `{type_name}` in {}", v.label));
        match (result, expected_failure) {
            (Err(e), Some((_, _, why))) if e.to_string().contains(why) => {
                println!("known disagreement {label}: {e}");
                tally.check(Ok(()));
                continue;
            }
            (Ok(_), Some(_)) => {
                tally.check(Err(format!("{label}: listed in KNOWN_DISAGREEMENTS but now reads fine; remove the entry")));
                continue;
            }
            (Err(e), _) => {
                tally.check(Err(format!("{label}: {e}")));
                continue;
            }
            (Ok((output, leaf)), None) => {
                tally.check(same(&label, &input, &output));
                let is_struct = v.types.iter().any(|(t, kind)| *t == type_name && *kind == "struct");
                if is_struct {
                    tally.check(if leaf == type_name { Ok(()) } else { Err(format!("{label}: read as `{leaf}`")) });
                }
            }
        }
        // Through every union that can hold this type, the example must land in it.
        for (union, members) in v.unions {
            if !members.contains(&type_name.as_str()) {
                continue;
            }
            let label = format!("{label} as {union}");
            if AMBIGUOUS_IN_UNION.iter().any(|(t, f, u, _)| *t == type_name && *f == file && u == union) {
                // Still read and written back losslessly; only the variant is not this one.
                tally.check(match (v.roundtrip)(union, &text).unwrap() {
                    Ok((output, _)) => same(&label, &input, &output),
                    Err(e) => Err(format!("{label}: {e}")),
                });
                continue;
            }
            tally.check(match (v.roundtrip)(union, &text).unwrap() {
                Ok((output, leaf)) if leaf == type_name => same(&label, &input, &output),
                Ok((_, leaf)) => Err(format!("{label}: landed in `{leaf}`")),
                Err(e) => Err(format!("{label}: {e}")),
            });
        }
    }
}

fn same(label: &str, input: &Value, output: &Value) -> Result<(), String> {
    if input == output {
        return Ok(());
    }
    Err(format!("{label}: round trip differs at {}", first_difference(input, output, String::new())))
}

/// JSON pointer of the first place two values differ.
fn first_difference(a: &Value, b: &Value, at: String) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(w)) if u != w => return first_difference(u, w, p),
                    (Some(_), None) => return format!("{p} (dropped)"),
                    (None, Some(_)) => return format!("{p} (added)"),
                    _ => {}
                }
            }
            at
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, w)) in x.iter().zip(y).enumerate() {
                if u != w {
                    return first_difference(u, w, format!("{at}/{i}"));
                }
            }
            at
        }
        _ => format!("{at} ({a} became {b})"),
    }
}

/// The examples next to a version's input, if it has any (older versions have none).
fn examples_dir(module: &str) -> Option<std::path::PathBuf> {
    let config = mcp_schema_tests::config();
    let input = &config.modules.iter().find(|m| m.name == module).unwrap_or_else(|| panic!("no module `{module}` in the config")).input;
    let dir = upstream().join(input).parent()?.join("examples");
    dir.is_dir().then_some(dir)
}

/// One test per protocol version of `schema/codegen.toml`, so a new version's examples are checked too.
macro_rules! example_tests {
    ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {
        $(example_tests!(@ $kind $m $protocol);)*
    };
    (@ version $m:ident $protocol:literal) => {
        #[test]
        fn $m() {
            let Some(dir) = examples_dir(stringify!($m)) else {
                eprintln!("{}: no examples", $protocol);
                return;
            };
            let mut tally = Tally::default();
            let v = Version { dir, label: $protocol, roundtrip: mcp_spec_types::$m::roundtrip_json, unions: mcp_spec_types::$m::UNION_MEMBERS, types: mcp_spec_types::$m::TYPES };
            check_version(&v, &mut tally);
            tally.finish(&format!("{} examples", $protocol));
        }
    };
    // Extensions and overlays: the spec's examples are for its versions.
    (@ $kind:ident $m:ident $protocol:tt) => {};
}

mod examples_round_trip {
    use super::*;
    mcp_spec_types::for_each_module!(example_tests);
}
