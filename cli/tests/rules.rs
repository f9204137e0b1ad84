//! The rule catalogue: `mcp-schema rules` prints it (text, JSON, filters); `docs/rules.md` and
//! cli/README.md's rule tables are generated from it (`UPDATE_RULES=1` rewrites them); every id a
//! reporting site in the source names is in it, and every rule in it is reported by some code and
//! named by some test.

#![forbid(unsafe_code)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::run;
use mcp_spec_types_cli::cmd::rules::{document, markdown};
use mcp_spec_types_cli::rules::{catalogue, find, Rule};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn text_lists_every_rule() {
    let r = run(&["rules"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[0].starts_with("RULE") && lines[0].contains("SEVERITY") && lines[0].contains("VERSIONS"), "{}", lines[0]);
    assert_eq!(lines.len(), catalogue().len() + 1);
    let row = lines.iter().find(|l| l.starts_with("transport.sse-priming ")).expect("a row per rule");
    let cells: Vec<&str> = row.split_whitespace().take(4).collect();
    assert_eq!(cells, ["transport.sse-priming", "warning", "transport", "2025-11-25"]);
    assert!(row.ends_with("(was: transport/sse-priming)"), "{row}");
    assert!(lines.iter().any(|l| l.starts_with("icon.scheme ") && l.contains(" error ")), "the validator's rules are listed");
}

#[test]
fn json_has_every_column() {
    let r = run(&["rules", "--json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all: Vec<Value> = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(all.len(), catalogue().len());
    for o in &all {
        let keys: BTreeSet<&str> = o.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, BTreeSet::from(["id", "area", "severity", "since", "until", "source", "was"]), "{o}");
    }
    let first = all.iter().find(|o| o["id"] == "session.lifecycle.initialize-first").unwrap();
    assert_eq!(first["severity"], "error");
    assert_eq!(first["since"], "2024-11-05");
    assert_eq!(first["until"], Value::Null);
    assert_eq!(first["was"], serde_json::json!(["session/lifecycle/initialize-first"]));
    let get = all.iter().find(|o| o["id"] == "transport.get-accept").unwrap();
    assert_eq!((&get["since"], &get["until"]), (&Value::from("2025-03-26"), &Value::from("2025-11-25")));
    let ids: BTreeSet<&str> = all.iter().map(|o| o["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), all.len(), "ids are unique");
}

#[test]
fn area_and_id_filters() {
    let r = run(&["rules", "--json", "--area", "transport"], None);
    let transport: Vec<Value> = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(transport.len(), mcp_spec_types_cli::transport::rules::RULES.len());
    assert!(transport.iter().all(|o| o["area"] == "transport"));
    // An old id names the rule it became.
    let r = run(&["rules", "session/tasks/gone", "id.reused"], None);
    assert_eq!(r.code, 0);
    let ids: Vec<&str> = r.stdout.lines().skip(1).map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(ids, ["stream.id-reused", "session.tasks.gone"]);
    // A prefix of ids at a dot selects them all.
    let r = run(&["rules", "session.tasks"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ids: Vec<&str> = r.stdout.lines().skip(1).map(|l| l.split(' ').next().unwrap()).collect();
    assert!(!ids.is_empty() && ids.iter().all(|i| i.starts_with("session.tasks.")), "{ids:?}");
    assert_eq!(run(&["rules", "session.tasks."], None).stdout, r.stdout);
    // What selects nothing is a usage error, said on stderr: an unknown id, a prefix not at a dot, an
    // unknown area, or an area none of the ids is in.
    for (args, says) in [
        (&["rules", "UNKNOWN"][..], "no rule is named `UNKNOWN`"),
        (&["rules", "stream.id-reused", "session.nothing"], "no rule is named `session.nothing`"),
        (&["rules", "session.tas"], "no rule is named `session.tas`"),
        (&["rules", "--area", "nothing"], "no rule has the area `nothing`"),
        (&["rules", "--area", "transport", "stream.id-reused"], "none of the rules named is of the area `transport`"),
    ] {
        let r = run(args, None);
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says) && r.stderr.contains("usage: mcp-schema rules"), "{args:?}: {}", r.stderr);
    }
    assert_eq!(find("protocol.changed").map(|r| r.id), Some("stream.protocol-changed"));
    let r = run(&["rules", "--area"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("usage: mcp-schema rules [--json] [--area AREA] [ID...]"), "{}", r.stderr);
}

/// The one id style: dot-separated kebab-case segments, the first the area's (single-segment ids
/// are the basic checks); ids and old ids are unique over the catalogue.
#[test]
fn one_id_style() {
    let all = catalogue();
    let mut seen = BTreeSet::new();
    for r in &all {
        let kebab = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        assert!(r.id.split('.').all(kebab), "`{}` is dotted kebab-case", r.id);
        if let Some((first, _)) = r.id.split_once('.') {
            assert!(first == r.area, "`{}` is in area `{}`", r.id, r.area);
        }
        assert!(!r.source.is_empty() && !r.since.is_empty());
        for id in std::iter::once(r.id).chain(r.was.iter().copied()) {
            assert!(seen.insert(id), "`{id}` names two rules");
        }
    }
}

const BEGIN: &str = "<!-- BEGIN rules";
const END: &str = "<!-- END rules -->";

/// `path`'s generated blocks, `<!-- BEGIN rules AREA ... -->` to `<!-- END rules -->`, made
/// current; a block's AREA (or comma-separated areas) selects the catalogue's rules of those
/// areas (`*`: the whole document).
fn regenerate(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(b) = rest.find(BEGIN) {
        let head_end = b + rest[b..].find("-->").expect("a BEGIN marker ends with -->") + 3;
        let area = rest[b + BEGIN.len()..head_end - 3].split_whitespace().next().expect("a BEGIN marker names an area");
        let end = head_end + rest[head_end..].find(END).expect("an END marker after BEGIN");
        out.push_str(&rest[..head_end]);
        out.push('\n');
        if area == "*" {
            out.push_str(&document());
        } else {
            let areas: Vec<&str> = area.split(',').collect();
            let rules: Vec<Rule> = catalogue().into_iter().filter(|r| areas.contains(&r.area)).collect();
            assert!(!rules.is_empty(), "no rules in area `{area}`");
            out.push_str(&markdown(&rules));
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn docs_are_generated_from_the_catalogue() {
    for rel in ["docs/rules.md", "cli/README.md"] {
        let path = root().join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(BEGIN), "{rel} has a generated block");
        let wanted = regenerate(&text);
        if wanted != text {
            if std::env::var_os("UPDATE_RULES").is_some() {
                std::fs::write(&path, wanted).unwrap();
            } else {
                panic!("{rel}'s rule tables are not the catalogue's (UPDATE_RULES=1 rewrites them)");
            }
        }
    }
}

/// The `.rs` files under `dir`, recursively, with their text.
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if !p.ends_with("node_modules") {
                sources(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push((p.clone(), std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The string literals of a line.
fn literals(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

/// The string literals of a line but the keys it reads (`get("id")`, `cx.key("size", ...)`) and
/// a match arm's pattern (`"uri" => ...`).
fn reported_literals(line: &str) -> Vec<&str> {
    let line = line.split_once("=>").map_or(line, |(_, arm)| arm);
    let parts: Vec<&str> = line.split('"').collect();
    parts.iter().enumerate().skip(1).step_by(2).filter(|(i, _)| !["key(", "get("].iter().any(|k| parts[i - 1].ends_with(k))).map(|(_, s)| *s).collect()
}

fn id_shaped(s: &str) -> bool {
    let kebab = |p: &str| !p.is_empty() && p.starts_with(|c: char| c.is_ascii_lowercase()) && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    s.split('.').all(kebab)
}

/// Whether a line of non-test code reports a finding with a literal id: a call of a reporting
/// helper or a `rule:` field (`Some(false)`: any id-shaped literal counts), or a match arm or
/// closure that yields an id (`Some(true)`: dotted literals only, as single words there are values).
fn reports(line: &str) -> Option<bool> {
    const CALLS: [&str; 7] = ["error(", "warning(", "diag(", "line_error(", "refuse(", "rule: \"", "let rule = "];
    if CALLS.iter().any(|c| line.contains(c)) {
        Some(false)
    } else {
        (line.contains("=> \"") || line.contains("|e| (\"")).then_some(true)
    }
}

/// Every id-shaped literal at a reporting site of the CLI, its checker and the hand-written crate code, and
/// the code of the files that use the rule tables (where their statics are named).
fn reported() -> (BTreeSet<String>, String) {
    let mut files = Vec::new();
    for dir in ["cli/src", "check/src", "generated/src/validate", "generated/src/runtime"] {
        sources(&root().join(dir), &mut files);
    }
    let mut ids = BTreeSet::new();
    let mut code = String::new();
    for (path, text) in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        if name == "tests.rs" || path.starts_with(root().join("check/src/rules")) || path.ends_with("validate/rules.rs") {
            continue;
        }
        let text = text.split("#[cfg(test)]").next().unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let Some(dotted) = reports(line) else { continue };
            ids.extend(reported_literals(line).into_iter().filter(|s| id_shaped(s) && (!dotted || s.contains('.'))).map(String::from));
        }
        // Rule statics are named by the files that import from the rule tables.
        if text.contains("rules::") {
            code.push_str(text);
        }
    }
    (ids, code)
}

#[test]
fn every_reported_id_is_in_the_catalogue() {
    let all = catalogue();
    let (ids, _) = reported();
    let unknown: Vec<&String> = ids.iter().filter(|id| !all.iter().any(|r| r.id == id.as_str())).collect();
    assert!(unknown.is_empty(), "reported ids not in the catalogue: {unknown:?}");
    assert!(ids.len() > 40, "the scan finds the reporting sites ({} ids)", ids.len());
}

/// A static of a rule table, by the id it holds: `NAME: Rule = error("id", ...` or the id on a
/// line of its own below.
fn statics() -> Vec<(String, String)> {
    let mut files = Vec::new();
    sources(&root().join("check/src/rules"), &mut files);
    let mut out = Vec::new();
    for (_, text) in files {
        let mut name = None;
        for line in text.lines() {
            let mut first = None;
            if let Some(rest) = line.strip_prefix("pub static ").filter(|r| r.contains(": Rule =")) {
                name = Some(rest.split(':').next().unwrap().to_string());
                first = rest.split_once("(\"").map(|(_, id)| id.split('"').next().unwrap());
            } else if line.trim_start().starts_with('"') {
                first = literals(line).into_iter().next();
            }
            if let (Some(n), Some(id)) = (&name, first) {
                out.push((n.clone(), id.to_string()));
                name = None;
            }
        }
    }
    out
}

/// Rules no test can draw, and why.
const UNTESTED: [(&str, &str); 0] = [];

#[test]
fn every_rule_is_reported_and_tested() {
    let (ids, code) = reported();
    let statics = statics();
    let mut tests = String::new();
    let mut files = Vec::new();
    for dir in ["cli/tests", "tests", "cli/src", "check/src"] {
        sources(&root().join(dir), &mut files);
    }
    for (path, text) in &files {
        let in_src = path.starts_with(root().join("cli/src")) || path.starts_with(root().join("check/src"));
        if path.ends_with("cli/tests/rules.rs") || (in_src && path.file_name().is_some_and(|n| n != "tests.rs") && !text.contains("#[cfg(test)]")) {
            continue;
        }
        tests.push_str(if in_src && !path.ends_with("tests.rs") { text.split("#[cfg(test)]").nth(1).unwrap_or("") } else { text });
    }
    let mut missing = Vec::new();
    for r in catalogue() {
        let by_static = statics.iter().any(|(name, id)| id == r.id && names(&code, name));
        if !ids.contains(r.id) && !by_static && !generated_reports(r.id) {
            missing.push(format!("`{}`: no code reports it", r.id));
        }
        let named = tests.contains(&format!("\"{}\"", r.id)) || tests.contains(&format!("[{}]", r.id));
        let exempt = UNTESTED.iter().any(|(id, _)| *id == r.id);
        if named == exempt {
            missing.push(format!("`{}`: {}", r.id, if named { "a test names it: remove it from UNTESTED" } else { "no test names it" }));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

/// Whether `code` names the identifier `name` (not as a part of a longer one).
fn names(code: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(name).any(|(i, _)| !code[..i].ends_with(ident) && !code[i + name.len()..].starts_with(ident))
}

/// Whether the generator's output reports `id` (the crate's schema rules are emitted into every
/// generated module).
fn generated_reports(id: &str) -> bool {
    let mut files = Vec::new();
    sources(&root().join("generated/src/generated"), &mut files);
    files.iter().any(|(_, t)| t.contains(&format!("\"{id}\",")) || t.contains(&format!("(\"{id}\"")))
}
