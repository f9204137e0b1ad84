//! `cargo xtask schema verify` as a test: the IR of every version (and MCP Apps) matches its pinned
//! `schema.json` up to the reviewed allowlist. Also checks that the comparison would notice a difference:
//! planted changes to a copy of one `schema.json` must each be reported at their pointer.

use generator::ir::TypeSpace;
use generator::verify::{self, Allowlist, Kind};
use mcp_schema_tests::{upstream, workspace_root, Tally};
use serde_json::{json, Value};

fn config() -> generator::Config {
    mcp_schema_tests::config()
}

fn read_upstream(path: &str) -> Result<String, String> {
    let full = upstream().join(path);
    std::fs::read_to_string(&full).map_err(|e| format!("{}: {e}", full.display()))
}

/// Every module's IR, from the synced inputs and the repository's overlays.
fn type_space(config: &generator::Config) -> TypeSpace {
    let inputs = mcp_schema_tests::inputs(config);
    verify::type_space(&inputs, config).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn every_version_matches_its_schema_json() {
    let allowlist = Allowlist::from_toml(&std::fs::read_to_string(workspace_root().join(verify::allowlist::PATH)).unwrap()).unwrap();
    let config = config();
    let verdict = verify::run(&type_space(&config), &config, allowlist, &mut read_upstream).unwrap_or_else(|e| panic!("{e}"));
    let mut tally = Tally::default();
    for r in &verdict.reports {
        for d in &r.definitions {
            let unallowed: Vec<String> = verdict
                .judged
                .iter()
                .filter(|j| j.target == r.target.name && j.difference.definition == d.name && j.allowed_by.is_none())
                .map(|j| format!("{} {:?} [{}]: {}", j.target, j.difference.pointer, j.difference.kind.as_str(), j.difference.detail))
                .collect();
            tally.check(if unallowed.is_empty() { Ok(()) } else { Err(format!("{} {}:\n  {}", r.target.name, d.name, unallowed.join("\n  "))) });
        }
    }
    for (i, where_) in &verdict.stale {
        tally.check(Err(format!("stale allowlist entry {} ({}): matches nothing in {where_}", i + 1, verdict.allowlist.entries[*i].describe())));
    }
    let names: Vec<&str> = verdict.reports.iter().map(|r| r.target.name.as_str()).collect();
    assert_eq!(names, ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft", "apps", "tasks"]);
    tally.finish("schema verify");
}

/// Runs the comparison of 2025-11-25 against a changed copy of its schema.json; returns the differences
/// (leaving out the kinds the allowlist takes as rules there).
fn differences_after(space: &TypeSpace, change: impl FnOnce(&mut Value)) -> Vec<verify::Difference> {
    let target = verify::targets(&config()).into_iter().find(|t| t.name == "2025-11-25").unwrap();
    let mut official: Value = serde_json::from_str(&read_upstream(&target.schema_json).unwrap()).unwrap();
    change(&mut official);
    let report = verify::compare_target(space, &target, &official).unwrap();
    // Reviewed divergences the allowlist names one by one (codegen.toml's `number_field` and `never_field`) are no plant.
    let allowlist = Allowlist::from_toml(&std::fs::read_to_string(workspace_root().join(verify::allowlist::PATH)).unwrap()).unwrap();
    let named = |d: &verify::Difference| allowlist.entries.iter().any(|e| !e.definition.contains('*') && !e.pointer.contains('*') && e.matches("2025-11-25", d));
    report
        .definitions
        .into_iter()
        .flat_map(|d| d.differences)
        .filter(|d| d.kind != Kind::EnumSorted && d.kind != Kind::IndexSignature && d.kind != Kind::OpenEnum && !named(d))
        .collect()
}

fn defs(schema: &mut Value) -> &mut serde_json::Map<String, Value> {
    schema["$defs"].as_object_mut().unwrap()
}

#[test]
fn planted_differences_are_reported_at_their_pointer() {
    let space = type_space(&config());
    let baseline = differences_after(&space, |_| {});
    assert_eq!(baseline, vec![], "2025-11-25 has differences besides the allowed kinds");

    type Change = Box<dyn FnOnce(&mut Value)>;
    let cases: Vec<(&str, &str, Kind, Change)> = vec![
        ("CallToolRequestParams", "/properties/name", Kind::Required, Box::new(|v| {
            defs(v)["CallToolRequestParams"]["required"] = json!([]);
        })),
        ("Annotations", "/properties/priority", Kind::IntegerNumber, Box::new(|v| {
            defs(v)["Annotations"]["properties"]["priority"]["type"] = json!("integer");
        })),
        ("Annotations", "/properties/priority/maximum", Kind::Bound, Box::new(|v| {
            defs(v)["Annotations"]["properties"]["priority"]["maximum"] = json!(2);
        })),
        ("LoggingLevel", "/enum", Kind::Enum, Box::new(|v| {
            defs(v)["LoggingLevel"]["enum"][0] = json!("verbose");
        })),
        ("TextContent", "/properties/type/const", Kind::Const, Box::new(|v| {
            defs(v)["TextContent"]["properties"]["type"]["const"] = json!("txt");
        })),
        ("Resource", "/properties/uri/format", Kind::Format, Box::new(|v| {
            defs(v)["Resource"]["properties"]["uri"].as_object_mut().unwrap().remove("format");
        })),
        // No 2025-11-25 field has `@maxLength` or `@pattern`: a bound or pattern only schema.json states is reported.
        ("Resource", "/properties/uri/maxLength", Kind::Bound, Box::new(|v| {
            defs(v)["Resource"]["properties"]["uri"]["maxLength"] = json!(2048);
        })),
        ("Resource", "/properties/uri/pattern", Kind::Pattern, Box::new(|v| {
            defs(v)["Resource"]["properties"]["uri"]["pattern"] = json!("^[a-z]+:");
        })),
        ("Tool", "/properties/extra", Kind::Property, Box::new(|v| {
            defs(v)["Tool"]["properties"]["extra"] = json!({ "type": "string" });
        })),
        ("ContentBlock", "", Kind::UnionMember, Box::new(|v| {
            defs(v)["ContentBlock"]["anyOf"].as_array_mut().unwrap().remove(0);
        })),
        ("ProgressToken", "", Kind::UnionMember, Box::new(|v| {
            defs(v)["ProgressToken"]["type"] = json!("string");
        })),
        // Inline in schema.json, a named inline type in the IR: followed structurally.
        ("ClientCapabilities", "/properties/roots/properties/listChanged", Kind::Type, Box::new(|v| {
            defs(v)["ClientCapabilities"]["properties"]["roots"]["properties"]["listChanged"]["type"] = json!("string");
        })),
        ("Task", "/properties/ttl", Kind::Null, Box::new(|v| {
            defs(v)["Task"]["properties"]["ttl"]["type"] = json!("integer");
        })),
        ("SamplingMessage", "/properties/extra", Kind::Property, Box::new(|v| {
            defs(v)["SamplingMessage"]["properties"]["extra"] = json!({});
        })),
        ("NewType", "", Kind::MissingDefinition, Box::new(|v| {
            defs(v).insert("NewType".into(), json!({ "type": "string" }));
        })),
        ("Role", "", Kind::ExtraDefinition, Box::new(|v| {
            defs(v).remove("Role");
        })),
    ];
    let mut tally = Tally::default();
    for (definition, pointer, kind, change) in cases {
        let found = differences_after(&space, change);
        let hit = found.iter().any(|d| d.definition == definition && d.pointer == pointer && d.kind == kind);
        tally.check(if hit {
            Ok(())
        } else {
            Err(format!("{definition} {pointer:?} [{}] not reported; reported: {found:#?}", kind.as_str()))
        });
    }
    tally.finish("planted differences");
}

#[test]
fn an_allowlist_entry_that_matches_nothing_is_stale() {
    let text = r#"
[[allow]]
version = "2025-11-25"
definition = "Tool"
pointer = "/properties/name"
kind = "required"
reason = "planted: matches nothing"
"#;
    let config = config();
    let verdict = verify::run(&type_space(&config), &config, Allowlist::from_toml(text).unwrap(), &mut read_upstream).unwrap();
    assert!(!verdict.ok());
    assert_eq!(verdict.stale, vec![(0, "2025-11-25".to_string())]);
    assert!(verdict.render(false).contains("STALE schema/verify-allowlist.toml entry 1 (2025-11-25 Tool /properties/name required)"), "{}", verdict.render(false));
}

/// The constraint tags' fixture (tests/goldens/constraint_tags): `@maxLength`, `@pattern` and `@format int` are
/// written as schema.json writes them, and a changed bound or pattern in the fixture's schema.json is reported.
#[test]
fn constraint_tags_compare_with_a_fixture_schema() {
    let dir = workspace_root().join("tests/goldens/constraint_tags");
    let config = generator::Config::from_toml("[[module]]\nname = \"fixture\"\nfeature = \"fixture\"\ninput = \"fixture/schema.ts\"\ntitle = \"t\"\n").unwrap();
    let inputs = [generator::Input { path: "fixture/schema.ts".into(), source: std::fs::read_to_string(dir.join("input.ts")).unwrap() }];
    let space = verify::type_space(&inputs, &config).unwrap_or_else(|d| panic!("{d}"));
    let target = verify::targets(&config).into_iter().next().unwrap();
    let official: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("schema.json")).unwrap()).unwrap();
    let differences = |official: &Value| -> Vec<(String, Kind)> {
        let report = verify::compare_target(&space, &target, official).unwrap();
        report.definitions.into_iter().flat_map(|d| d.differences).map(|d| (d.pointer, d.kind)).collect()
    };
    assert_eq!(differences(&official), vec![]);
    let mut changed = official.clone();
    changed["$defs"]["Account"]["properties"]["handle"]["maxLength"] = json!(31);
    changed["$defs"]["Account"]["properties"]["avatar"]["pattern"] = json!("^https://");
    changed["$defs"]["Account"]["properties"]["cursor"].as_object_mut().unwrap().remove("maxLength");
    let mut found = differences(&changed);
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        found,
        vec![("/properties/avatar/pattern".to_string(), Kind::Pattern), ("/properties/cursor/maxLength".to_string(), Kind::Bound), ("/properties/handle/maxLength".to_string(), Kind::Bound)]
    );
}
