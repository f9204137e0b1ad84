//! `check --ext skills`: the Skills extension's three methods are typed by the `skills` module in a
//! 2026-07-28 session (requests and the results that answer them), and are the version's unknown methods
//! without the extension or in a session of an earlier version.

use crate::common;

use common::check_json;
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

#[test]
fn a_session_before_2026_07_28_does_not_type_them() {
    let lines = vec![
        c2s(req(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))),
        s2c(ok(1, json!({"protocolVersion": "2025-11-25", "capabilities": {"resources": {}}, "serverInfo": {"name": "s", "version": "1"}}))),
        c2s(note("notifications/initialized", json!({}))),
        c2s(req(2, "skills/list", json!({}))),
    ];
    let (_, r) = check_json(&["--ext", "skills", "-"], Some(&jsonl(&lines)));
    let found = found(&r);
    assert!(found.iter().any(|f| f.0 == 4 && f.2 == "unknown-variant"), "{found:?}");
    assert!(r.found.iter().all(|f| f.line == 4), "{:?}", r.found);
}
