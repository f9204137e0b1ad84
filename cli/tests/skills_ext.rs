//! `check --ext skills`: the Skills extension's three methods are typed by the `skills` module in a
//! 2026-07-28 session (requests and the results that answer them), and are the version's unknown methods
//! without the extension; in a session of an earlier version they are reported, not typed. Its one-value
//! rules (`skills.*`, generated/src/validate/skills.rs): a valid listing checks clean, and each case breaks it
//! in one place and gets exactly that rule's finding.

use crate::common;

use common::{check_json, Cases};
use common::lines::{c2s, note, ok, req, s2c};
use serde_json::{json, Value};

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
}

fn jsonl(lines: &[Value]) -> Vec<u8> {
    lines.iter().flat_map(|l| serde_json::to_vec(l).unwrap().into_iter().chain([b'\n'])).collect()
}

fn skill() -> Value {
    json!({
        "uri": "skill://kitchen/sourdough/SKILL.md",
        "frontmatter": {"name": "sourdough", "description": "Feeds the starter and plans a bake", "license": "CC0-1.0"},
        "resources": [
            {"uri": "skill://kitchen/sourdough/SKILL.md", "digest": format!("sha256:{}", "7".repeat(64)), "size": 912},
            {"uri": "skill://kitchen/sourdough/schedules/weekend.md", "digest": format!("sha256:{}", "c".repeat(64)), "size": 260}
        ]
    })
}

/// `skills/list`, `skills/get` and `resources/directory/read`, each answered; `list`, `got` and `dir` are the results.
fn session(list: Value, got: Value, dir: Value) -> Vec<Value> {
    vec![
        c2s(req(1, "skills/list", json!({"_meta": meta()}))),
        s2c(ok(1, list)),
        c2s(req(2, "skills/get", json!({"uri": "skill://kitchen/sourdough/SKILL.md", "_meta": meta()}))),
        s2c(ok(2, got)),
        c2s(req(3, "resources/directory/read", json!({"uri": "skill://kitchen/sourdough/schedules", "_meta": meta()}))),
        s2c(ok(3, dir)),
    ]
}

fn good() -> (Value, Value, Value) {
    (
        json!({"resultType": "complete", "skills": [skill()], "ttlMs": 60000, "cacheScope": "public"}),
        json!({"resultType": "complete", "skill": skill(), "ttlMs": 0, "cacheScope": "private"}),
        json!({"resultType": "complete", "resources": [{"uri": "skill://kitchen/sourdough/schedules/weekend.md", "name": "weekend.md", "mimeType": "text/markdown"}]}),
    )
}

fn found(r: &common::JsonResult) -> Vec<(u64, &str, &str)> {
    r.found.iter().map(|f| (f.line, f.pointer.as_str(), f.rule.as_str())).collect()
}

#[test]
fn the_extensions_messages_are_typed_by_its_module() {
    let (list, got, dir) = good();
    let (code, r) = check_json(&["--ext", "skills", "--strict", "-"], Some(&jsonl(&session(list, got, dir))));
    assert_eq!((code, r.found.len()), (0, 0), "{:?}", r.found);
}

#[test]
fn each_answer_is_checked_as_its_requests_result() {
    let (mut list, mut got, mut dir) = good();
    list.as_object_mut().unwrap().remove("ttlMs");
    got["skill"]["resources"] = json!("static");
    dir.as_object_mut().unwrap().remove("resources");
    let (code, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&session(list, got, dir))));
    assert_ne!(code, 0);
    let found = found(&r);
    for want in [(2, "/msg/result", "required"), (4, "/msg/result/skill/resources", "enum"), (6, "/msg/result", "required")] {
        assert!(found.contains(&want), "{want:?} not in {found:?}");
    }
    assert!(found.iter().all(|(line, ..)| [2, 4, 6].contains(line)), "{found:?}");
}

#[test]
fn without_the_extension_the_methods_are_unknown() {
    let (list, got, dir) = good();
    let (_, r) = check_json(&["-"], Some(&jsonl(&session(list, got, dir))));
    let found = found(&r);
    for line in [1, 3, 5] {
        assert!(found.iter().any(|f| f.0 == line && f.2 == "unknown-variant"), "line {line}: {found:?}");
    }
}

/// The TypeScript SDK serves Skills on 2025-11-25: outside the spec (the page is stated on 2026-07-28), so
/// reported (`session.skills.version`, a warning) and not typed: neither the request nor its answer fails.
#[test]
fn a_session_before_2026_07_28_reports_them_and_does_not_type_them() {
    let lines = vec![
        c2s(req(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))),
        s2c(ok(1, json!({"protocolVersion": "2025-11-25", "capabilities": {"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {}}}, "serverInfo": {"name": "s", "version": "1"}}))),
        c2s(note("notifications/initialized", json!({}))),
        c2s(req(2, "skills/list", json!({}))),
        s2c(ok(2, json!({"skills": [{"uri": "skill://x/SKILL.md", "frontmatter": {"name": "x", "description": "d"}, "resources": "dynamic"}]}))),
    ];
    let (code, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&lines)));
    let got: Vec<(u64, &str, &str)> = r.found.iter().map(|f| (f.line, f.rule.as_str(), f.severity.as_str())).collect();
    assert_eq!((code, got), (0, vec![(4, "session.skills.version", "warning")]));
}

fn digest(c: char) -> String {
    format!("sha256:{}", c.to_string().repeat(64))
}

/// A skill at `skill://acme/<name>/SKILL.md` with `files` (relative paths) besides its `SKILL.md`.
fn skill_named(name: &str, files: &[&str]) -> Value {
    let uri = format!("skill://acme/{name}/SKILL.md");
    let mut resources = vec![json!({"uri": uri, "digest": digest('a'), "size": 120})];
    resources.extend(files.iter().map(|f| json!({"uri": format!("skill://acme/{name}/{f}"), "digest": digest('b'), "size": 7})));
    json!({"uri": uri, "frontmatter": {"name": name, "description": "Does one thing.", "license": "MIT"}, "resources": resources})
}

fn listing(skills: Vec<Value>) -> Value {
    json!({"resultType": "complete", "skills": skills, "ttlMs": 1000, "cacheScope": "public"})
}

/// The findings (line, pointer, rule) of `skills/list` (line 1) answered with `result` (line 2).
/// Findings as (line, pointer, rule).
type Found = Vec<(u64, String, String)>;

fn findings(result: Value) -> Found {
    let lines = [c2s(req(1, "skills/list", json!({"_meta": meta()}))), s2c(ok(1, result))];
    let (_, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&lines)));
    r.found.into_iter().map(|f| (f.line, f.pointer, f.rule)).collect()
}

fn one(pointer: &str, rule: &str) -> Found {
    vec![(2, pointer.to_string(), rule.to_string())]
}

#[test]
fn a_valid_listing_checks_clean() {
    let skills = vec![skill_named("refunds", &["examples/a.md", "scripts/x.py"]), json!({"uri": "github://o/r/daily/SKILL.md", "frontmatter": {"name": "daily", "description": "Today."}, "resources": "dynamic"}),
        // A name outside ASCII (the Agent Skills rules allow lowercase Unicode letters) is percent-encoded in its URI.
        json!({"uri": "skill://kitchen/caf%C3%A9/SKILL.md", "frontmatter": {"name": "café", "description": "Coffee."}, "resources": "dynamic"}),
    ];
    let lines = [c2s(req(1, "skills/list", json!({"_meta": meta()}))), s2c(ok(1, listing(skills)))];
    let (code, r) = check_json(&["--ext", "skills", "--strict", "-"], Some(&jsonl(&lines)));
    assert_eq!((code, r.found.len()), (0, 0), "{:?}", r.found);
}

#[test]
fn each_rule_rejects_one_break() {
    let mut cases = Cases::default();
    let at = |s: &str| format!("/msg/result/skills/0{s}");
    let broken = |f: fn(&mut Value)| {
        let mut s = skill_named("refunds", &["examples/a.md"]);
        f(&mut s);
        listing(vec![s])
    };
    let table: Vec<(&str, Value, Found)> = vec![
        ("an uppercase digest", broken(|s| s["resources"][1]["digest"] = json!(digest('B'))), one(&at("/resources/1/digest"), "skills.digest")),
        ("a short digest", broken(|s| s["resources"][1]["digest"] = json!("sha256:abc")), one(&at("/resources/1/digest"), "skills.digest")),
        ("a negative size", broken(|s| s["resources"][1]["size"] = json!(-1)), one(&at("/resources/1/size"), "skills.size")),
        // The schema's integer type reports it, and no rule of the extension again.
        ("a fractional size", broken(|s| s["resources"][1]["size"] = json!(1.5)), vec![(2, at("/resources/1/size"), "type".into()), (2, "/msg/result".into(), "deserialize".into())]),
        // `resultType` is the schema's literal: no rule of the extension says it again.
        ("a result that is not complete", {
            let mut r = listing(vec![skill_named("refunds", &[])]);
            r["resultType"] = json!("partial");
            r
        }, vec![(2, "/msg/result/resultType".into(), "literal".into()), (2, "/msg/result".into(), "deserialize".into())]),
        ("a uri without SKILL.md", broken(|s| s["uri"] = json!("skill://acme/refunds/README.md")), {
            let mut v = one(&at("/uri"), "skills.uri");
            v.push((2, at("/resources"), "skills.resources-skill-md".into()));
            v
        }),
        ("a name the path does not end in", broken(|s| s["frontmatter"]["name"] = json!("refund")), one(&at("/uri"), "skills.name-path")),
        // The segment is compared percent-decoded: `caf%C3%A9` is `café` (clean in a_valid_listing_checks_clean), not `cafe`.
        ("a name the decoded path does not end in", broken(|s| {
            s["uri"] = json!("skill://acme/caf%C3%A9/SKILL.md");
            s["resources"] = json!([{"uri": "skill://acme/caf%C3%A9/SKILL.md", "digest": digest('a'), "size": 1}]);
            s["frontmatter"]["name"] = json!("cafe");
        }), one(&at("/uri"), "skills.name-path")),
        ("a Unicode name with an uppercase letter", broken(|s| {
            s["uri"] = json!("skill://acme/Caf%C3%A9/SKILL.md");
            s["resources"] = json!([{"uri": "skill://acme/Caf%C3%A9/SKILL.md", "digest": digest('a'), "size": 1}]);
            s["frontmatter"]["name"] = json!("Café");
        }), one(&at("/frontmatter/name"), "skills.name")),
        ("a name with uppercase", broken(|s| {
            s["uri"] = json!("skill://acme/Refunds/SKILL.md");
            s["resources"] = json!([{"uri": "skill://acme/Refunds/SKILL.md", "digest": digest('a'), "size": 1}]);
            s["frontmatter"]["name"] = json!("Refunds");
        }), one(&at("/frontmatter/name"), "skills.name")),
        ("an empty description", broken(|s| s["frontmatter"]["description"] = json!(" ")), one(&at("/frontmatter/description"), "skills.description")),
        ("no SKILL.md entry", broken(|s| {
            s["resources"].as_array_mut().unwrap().remove(0);
        }), one(&at("/resources"), "skills.resources-skill-md")),
        ("a file listed twice", broken(|s| {
            let again = s["resources"][1].clone();
            s["resources"].as_array_mut().unwrap().push(again);
        }), one(&at("/resources/2/uri"), "skills.resources-once")),
        ("a file of another skill", broken(|s| s["resources"][1]["uri"] = json!("skill://acme/other/a.md")), one(&at("/resources/1/uri"), "skills.resources-inside")),
        ("a file that climbs out", broken(|s| s["resources"][1]["uri"] = json!("skill://acme/refunds/../x.md")), one(&at("/resources/1/uri"), "skills.resources-inside")),
        ("more than 16 MiB", broken(|s| s["resources"][1]["size"] = json!(16 * 1024 * 1024)), one(&at("/resources"), "skills.limits")),
    ];
    for (name, result, want) in table {
        cases.check(name, || {
            let got = findings(result.clone());
            if got == want {
                Ok(())
            } else {
                Err(format!("expected {want:?}, found {got:?}"))
            }
        });
    }
    // 513 entries: over the count limit (a warning).
    let many: Vec<String> = (0..512).map(|i| format!("f{i}.md")).collect();
    let many = skill_named("refunds", &many.iter().map(String::as_str).collect::<Vec<_>>());
    cases.check("more than 512 entries", || {
        let got = findings(listing(vec![many.clone()]));
        if got == one(&at("/resources"), "skills.limits") {
            Ok(())
        } else {
            Err(format!("found {got:?}"))
        }
    });
    cases.finish();
}

#[test]
fn a_child_directory_has_no_trailing_slash() {
    let read = |child: &str| {
        let children = json!([{"uri": child, "name": "templates", "mimeType": "inode/directory"}]);
        let lines = [
            c2s(req(1, "resources/directory/read", json!({"uri": "skill://acme/refunds", "_meta": meta()}))),
            s2c(ok(1, json!({"resultType": "complete", "resources": children}))),
        ];
        let (_, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&lines)));
        r.found.into_iter().map(|f| (f.line, f.pointer, f.rule)).collect::<Vec<_>>()
    };
    assert_eq!(read("skill://acme/refunds/templates"), vec![]);
    assert_eq!(read("skill://acme/refunds/templates/"), vec![(2, "/msg/result/resources/0/uri".to_string(), "skills.directory-slash".to_string())]);
}

/// `skills/get` names a skill by its `SKILL.md`.
#[test]
fn skills_get_names_a_skill_md() {
    let get = |uri: &str| {
        let lines = [c2s(req(1, "skills/get", json!({"uri": uri, "_meta": meta()})))];
        let (_, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&lines)));
        r.found.into_iter().map(|f| (f.line, f.pointer, f.rule)).collect::<Vec<_>>()
    };
    assert_eq!(get("skill://acme/refunds/SKILL.md"), vec![]);
    assert_eq!(get("skill://acme/refunds"), vec![(1, "/msg/params/uri".to_string(), "skills.uri".to_string())]);
}

/// Held entries are bounded like every session table: past `SESSION_CAP` skills the oldest entry is forgotten and
/// a read of its file is no longer checked, while the newest one's still is.
#[test]
fn held_entries_are_bounded() {
    let n = mcp_spec_types_cli::session::SESSION_CAP + 1;
    let skills: Vec<Value> = (0..n).map(|i| skill_named(&format!("s{i}"), &["a.md"])).collect();
    let read = |id: i64, uri: String| vec![c2s(req(id, "resources/read", json!({"uri": uri, "_meta": meta()}))), s2c(ok(id, json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": [{"uri": uri, "text": "x"}]})))];
    let mut lines = vec![c2s(req(1, "skills/list", json!({"_meta": meta()}))), s2c(ok(1, listing(skills)))];
    lines.extend(read(2, "skill://acme/s0/a.md".into()));
    lines.extend(read(3, format!("skill://acme/s{}/a.md", n - 1)));
    let (_, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&lines)));
    let got: Vec<(u64, &str)> = r.found.iter().map(|f| (f.line, f.rule.as_str())).collect();
    assert_eq!(got, [(6, "session.skills.content-digest")]);
    println!("{n} skills held, the oldest forgotten");
}
