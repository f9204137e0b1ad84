//! The Skills extension's validation rules (`skills.*`, generated/src/validate/skills.rs): one accepting and one
//! rejecting case each, on the `skills` module's types.

use super::Case;
use mcp_spec_types::skills;
use mcp_spec_types::validate::{self, Options, Severity};
use serde_json::{json, Value};

type Check = super::Check;

fn digest(c: char) -> String {
    format!("sha256:{}", c.to_string().repeat(64))
}

/// A skill at `skill://tools/<name>/SKILL.md` with one supporting file, then `change` applied.
fn skill(name: &str, change: impl FnOnce(&mut Value)) -> Value {
    let uri = format!("skill://tools/{name}/SKILL.md");
    let mut s = json!({
        "uri": uri,
        "frontmatter": {"name": name, "description": "Sharpens and oils the tools"},
        "resources": [{"uri": uri, "digest": digest('d'), "size": 300}, {"uri": format!("skill://tools/{name}/steps/oil.md"), "digest": digest('e'), "size": 40}],
    });
    change(&mut s);
    s
}

fn file(change: impl FnOnce(&mut Value)) -> Value {
    let mut f = json!({"uri": "skill://tools/whetstone/SKILL.md", "digest": digest('0'), "size": 0});
    change(&mut f);
    f
}

fn directory(child: &str) -> Value {
    json!({"resultType": "complete", "resources": [{"uri": child, "name": "steps", "mimeType": "inode/directory"}]})
}

fn get(uri: &str) -> Value {
    json!({"uri": uri, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}})
}

pub fn cases() -> Vec<Case> {
    let (e, w) = (Severity::Error, Severity::Warning);
    let many = |n: usize| move |s: &mut Value| s["resources"].as_array_mut().unwrap().extend((0..n).map(|i| json!({"uri": format!("skill://tools/whetstone/f{i}.md"), "digest": digest('f'), "size": 1})));
    vec![
        Case { rule: "skills.digest", check: check!(skills::SkillResource), valid: file(|_| {}), invalid: file(|f| f["digest"] = json!(digest('F'))), pointer: "/digest", severity: e },
        Case { rule: "skills.size", check: check!(skills::SkillResource), valid: file(|_| {}), invalid: file(|f| f["size"] = json!(-1)), pointer: "/size", severity: e },
        Case { rule: "skills.uri", check: check!(skills::Skill), valid: skill("whetstone", |_| {}), invalid: skill("whetstone", |s| s["uri"] = json!("skill://tools/whetstone")), pointer: "/uri", severity: e },
        Case { rule: "skills.uri", check: check!(skills::GetSkillRequestParams), valid: get("skill://tools/whetstone/SKILL.md"), invalid: get("skill://tools/whetstone/"), pointer: "/uri", severity: e },
        Case { rule: "skills.name-path", check: check!(skills::Skill), valid: skill("whetstone", |_| {}), invalid: skill("whetstone", |s| s["frontmatter"]["name"] = json!("stone")), pointer: "/uri", severity: e },
        Case { rule: "skills.name", check: check!(skills::Skill), valid: skill("wet-stone", |_| {}), invalid: skill("wet--stone", |_| {}), pointer: "/frontmatter/name", severity: e },
        Case { rule: "skills.description", check: check!(skills::Skill), valid: skill("whetstone", |_| {}), invalid: skill("whetstone", |s| s["frontmatter"]["description"] = json!("d".repeat(1025))), pointer: "/frontmatter/description", severity: e },
        Case {
            rule: "skills.resources-skill-md",
            check: check!(skills::Skill),
            valid: skill("whetstone", |_| {}),
            invalid: skill("whetstone", |s| drop(s["resources"].as_array_mut().unwrap().remove(0))),
            pointer: "/resources",
            severity: e,
        },
        Case {
            rule: "skills.resources-once",
            check: check!(skills::Skill),
            valid: skill("whetstone", |_| {}),
            invalid: skill("whetstone", |s| {
                let again = s["resources"][0].clone();
                s["resources"].as_array_mut().unwrap().push(again);
            }),
            pointer: "/resources/2/uri",
            severity: e,
        },
        Case {
            rule: "skills.resources-inside",
            check: check!(skills::Skill),
            valid: skill("whetstone", |_| {}),
            invalid: skill("whetstone", |s| s["resources"][1]["uri"] = json!("skill://tools/whetstones/oil.md")),
            pointer: "/resources/1/uri",
            severity: e,
        },
        // 512 entries are within the limit, 513 past it.
        Case { rule: "skills.limits", check: check!(skills::Skill), valid: skill("whetstone", many(510)), invalid: skill("whetstone", many(511)), pointer: "/resources", severity: w },
        Case {
            rule: "skills.directory-slash",
            check: check!(skills::ReadResourceDirectoryResult),
            valid: directory("skill://tools/whetstone/steps"),
            invalid: directory("skill://tools/whetstone/steps/"),
            pointer: "/resources/0/uri",
            severity: w,
        },
    ]
}

/// The schema says what it can (a fractional `size`, `resultType` other than `complete`); the extension's rules
/// do not say it again.
#[test]
fn the_schema_keeps_what_it_states() {
    let rules = |r: validate::Report| r.violations.iter().map(|v| v.rule).collect::<Vec<_>>();
    let half = validate::validate_json::<skills::SkillResource>(&file(|f| f["size"] = json!(0.5)), &Options::default());
    assert!(!rules(half).iter().any(|r| r.starts_with("skills.")));
    let partial = json!({"resultType": "partial", "skills": [], "ttlMs": 0, "cacheScope": "public"});
    let got = rules(validate::validate_json::<skills::ListSkillsResult>(&partial, &Options::default()));
    assert!(got.contains(&"literal") && !got.iter().any(|r| r.starts_with("skills.")), "{got:?}");
}
