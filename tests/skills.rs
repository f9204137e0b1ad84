//! The Skills extension (`skills` module, 2026-07-28 with `schema/overlays/skills.ts`): each new type reads,
//! validates and writes back examples written here (the spec page's own are not copied), `"dynamic"` and
//! unknown frontmatter keys included; what the types require is refused when absent; the three methods are
//! registered and answered by their results; what the overlay leaves alone is 2026-07-28's own type.

use mcp_spec_types::runtime::{RequestMethod, SchemaType};
use mcp_spec_types::skills as sk;
use mcp_spec_types::v2026_07_28 as base;
use mcp_spec_types::validate::{validate_json, Options, Validate};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// The `_meta` every 2026-07-28 request carries.
fn request_meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
}

fn manifest_entry(path: &str, hex_digit: char, size: u64) -> Value {
    json!({"uri": format!("skill://ops/release-notes/{path}"), "digest": format!("sha256:{}", hex_digit.to_string().repeat(64)), "size": size})
}

/// A skill with a manifest and frontmatter keys beyond `name` and `description` (nested, hyphenated, `null`).
fn listed_skill() -> Value {
    json!({
        "uri": "skill://ops/release-notes/SKILL.md",
        "frontmatter": {
            "name": "release-notes",
            "description": "Drafts release notes from merged pull requests",
            "license": "MIT",
            "allowed-tools": "git-log",
            "metadata": {"owner": "platform", "io.modelcontextprotocol/reserved-later": 1},
            "compatibility": null
        },
        "resources": [manifest_entry("SKILL.md", 'a', 1804), manifest_entry("templates/minor.md", '0', 0)]
    })
}

fn dynamic_skill() -> Value {
    json!({"uri": "weather://skills/forecast/SKILL.md", "frontmatter": {"name": "forecast", "description": "Reads today's forecast"}, "resources": "dynamic"})
}

/// Reads `value` as `T`, writes it back, and requires the same JSON and no validation error.
fn round_trips<T: DeserializeOwned + Serialize + Validate>(value: &Value) -> T {
    let typed: T = serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{} does not read: {e}\n{value:#}", std::any::type_name::<T>()));
    assert_eq!(&serde_json::to_value(&typed).unwrap(), value, "{} wrote back something else", std::any::type_name::<T>());
    let again: T = serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap();
    assert_eq!(&serde_json::to_value(&again).unwrap(), value, "read from text, written back differently");
    let report = validate_json::<T>(value, &Options::strict());
    assert!(report.violations.is_empty(), "{}: {:?}", std::any::type_name::<T>(), report.violations);
    typed
}

/// The (rule, pointer) pairs validation reports for `value` as `T`.
fn violations<T: Validate>(value: &Value) -> Vec<(&'static str, String)> {
    validate_json::<T>(value, &Options::default()).violations.into_iter().map(|v| (v.rule, v.pointer)).collect()
}

#[test]
fn a_skill_resource_round_trips() {
    let entry = manifest_entry("scripts/collect.sh", 'f', 5210);
    let r: sk::SkillResource = round_trips(&entry);
    assert_eq!((r.size, r.uri.as_str()), (5210, "skill://ops/release-notes/scripts/collect.sh"));
}

#[test]
fn a_skill_with_a_manifest_keeps_every_frontmatter_key() {
    let skill: sk::Skill = round_trips(&listed_skill());
    assert_eq!((skill.frontmatter.name.as_str(), skill.frontmatter.description.as_str()), ("release-notes", "Drafts release notes from merged pull requests"));
    let extra: Vec<&str> = skill.frontmatter.extra.keys().map(String::as_str).collect();
    assert_eq!(extra, ["allowed-tools", "compatibility", "license", "metadata"]);
    // A key the author set to `null` stays `null`, not absent.
    assert_eq!(skill.frontmatter.extra.get("compatibility"), Some(&Value::Null));
    match &skill.resources {
        sk::SkillResources::SkillResourceArray(files) => assert_eq!(files.iter().map(|f| f.size).collect::<Vec<_>>(), [1804, 0]),
        other => panic!("read as {other:?}"),
    }
}

#[test]
fn a_dynamic_skill_round_trips() {
    let skill: sk::Skill = round_trips(&dynamic_skill());
    assert_eq!(skill.resources, sk::SkillResources::Dynamic(sk::SkillResourcesDynamic::Dynamic));
    assert_eq!(skill.resources.schema_name(), "SkillResourcesDynamic");
}

#[test]
fn skills_list_round_trips_as_a_client_request_and_its_result() {
    let request = json!({"jsonrpc": "2.0", "id": "list-1", "method": "skills/list", "params": {"_meta": request_meta(), "cursor": "page-2"}});
    let typed: sk::ListSkillsRequest = round_trips(&request);
    assert_eq!(typed.params.cursor.as_deref(), Some("page-2"));
    let union: sk::ClientRequest = round_trips(&request);
    assert!(matches!(union, sk::ClientRequest::ListSkillsRequest(_)), "read as {}", union.schema_name());

    let result = json!({
        "resultType": "complete",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "skill-shelf", "version": "0.3.0"}},
        "skills": [listed_skill(), dynamic_skill()],
        "nextCursor": "page-3",
        "ttlMs": 60000,
        "cacheScope": "private"
    });
    let typed: sk::ListSkillsResult = round_trips(&result);
    assert_eq!((typed.skills.len(), typed.next_cursor.as_deref(), typed.ttl_ms), (2, Some("page-3"), 60000));
    let union: sk::ServerResult = round_trips(&result);
    assert!(matches!(union, sk::ServerResult::ListSkillsResult(_)), "read as {}", union.schema_name());
    // An empty listing is a listing.
    let empty = json!({"resultType": "complete", "skills": [], "ttlMs": 0, "cacheScope": "public"});
    round_trips::<sk::ListSkillsResult>(&empty);
    let response = json!({"jsonrpc": "2.0", "id": "list-1", "result": result});
    round_trips::<sk::ListSkillsResultResponse>(&response);
}

#[test]
fn skills_get_round_trips_as_a_client_request_and_its_result() {
    let request = json!({"jsonrpc": "2.0", "id": 12, "method": "skills/get", "params": {"_meta": request_meta(), "uri": "skill://ops/release-notes/SKILL.md"}});
    let typed: sk::GetSkillRequest = round_trips(&request);
    assert_eq!(typed.params.uri, "skill://ops/release-notes/SKILL.md");
    assert!(matches!(round_trips::<sk::ClientRequest>(&request), sk::ClientRequest::GetSkillRequest(_)));

    let result = json!({"resultType": "complete", "skill": dynamic_skill(), "ttlMs": 5000, "cacheScope": "public"});
    let typed: sk::GetSkillResult = round_trips(&result);
    assert_eq!(typed.skill.frontmatter.name, "forecast");
    let union: sk::ServerResult = round_trips(&result);
    assert!(matches!(union, sk::ServerResult::GetSkillResult(_)), "read as {}", union.schema_name());
    round_trips::<sk::GetSkillResultResponse>(&json!({"jsonrpc": "2.0", "id": 12, "result": result}));
}

#[test]
fn resources_directory_read_round_trips_as_a_client_request_and_its_result() {
    let request = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/directory/read", "params": {"_meta": request_meta(), "uri": "skill://ops/release-notes/templates"}});
    let typed: sk::ReadResourceDirectoryRequest = round_trips(&request);
    assert_eq!((typed.params.uri.as_str(), typed.params.cursor.as_deref()), ("skill://ops/release-notes/templates", None));
    assert!(matches!(round_trips::<sk::ClientRequest>(&request), sk::ClientRequest::ReadResourceDirectoryRequest(_)));

    let result = json!({
        "resultType": "complete",
        "resources": [
            {"uri": "skill://ops/release-notes/templates/minor.md", "name": "minor.md", "mimeType": "text/markdown", "size": 0},
            {"uri": "skill://ops/release-notes/templates/archive", "name": "archive", "mimeType": "inode/directory"}
        ],
        "nextCursor": "after-archive"
    });
    let typed: sk::ReadResourceDirectoryResult = round_trips(&result);
    assert_eq!(typed.resources[1].mime_type.as_deref(), Some("inode/directory"));
    // Without `ttlMs` and `cacheScope` it is not a `resources/list` answer, which also has `resources`.
    let union: sk::ServerResult = round_trips(&result);
    assert!(matches!(union, sk::ServerResult::ReadResourceDirectoryResult(_)), "read as {}", union.schema_name());
    let empty = json!({"resultType": "complete", "resources": []});
    round_trips::<sk::ReadResourceDirectoryResult>(&empty);
    round_trips::<sk::ReadResourceDirectoryResultResponse>(&json!({"jsonrpc": "2.0", "id": 3, "result": result}));
}

#[test]
fn the_capability_keeps_settings_it_does_not_know() {
    let declared: sk::SkillsExtensionCapability = round_trips(&json!({"directoryRead": true, "bundles": {"zip": false}}));
    assert_eq!(declared.directory_read, Some(true));
    assert!(declared.extra.contains_key("bundles"));
    let bare: sk::SkillsExtensionCapability = round_trips(&json!({}));
    assert_eq!(bare.directory_read, None);
    // Absent and `null` stay apart: `null` is kept as it came, and it is not a boolean.
    let null = json!({"directoryRead": null});
    let read: sk::SkillsExtensionCapability = serde_json::from_value(null.clone()).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), null);
    assert_eq!(violations::<sk::SkillsExtensionCapability>(&null), [("type", "/directoryRead".to_string())]);
    // As 2026-07-28 carries it: under `extensions` of the server's capabilities.
    let caps = json!({"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": false}}});
    round_trips::<sk::ServerCapabilities>(&caps);
}

#[test]
fn a_cacheable_result_without_ttl_ms_is_refused() {
    let list = json!({"resultType": "complete", "skills": [], "cacheScope": "public"});
    assert_eq!(violations::<sk::ListSkillsResult>(&list), [("required", String::new())]);
    assert!(serde_json::from_value::<sk::ListSkillsResult>(list).is_err());
    let get = json!({"resultType": "complete", "skill": dynamic_skill(), "ttlMs": 1000});
    assert_eq!(violations::<sk::GetSkillResult>(&get), [("required", String::new())]);
    assert!(serde_json::from_value::<sk::GetSkillResult>(get).is_err());
    // The directory listing is not cacheable: neither field is required there.
    assert!(violations::<sk::ReadResourceDirectoryResult>(&json!({"resultType": "complete", "resources": []})).is_empty());
}

#[test]
fn each_result_is_complete() {
    let results = [
        ("ListSkillsResult", json!({"resultType": "complete", "skills": [], "ttlMs": 0, "cacheScope": "public"})),
        ("GetSkillResult", json!({"resultType": "complete", "skill": dynamic_skill(), "ttlMs": 0, "cacheScope": "public"})),
        ("ReadResourceDirectoryResult", json!({"resultType": "complete", "resources": []})),
    ];
    let mut refused = 0;
    for (ty, good) in results {
        assert!(sk::validate_json_as(ty, &good, &Options::strict()).unwrap().violations.is_empty(), "{ty}");
        for (other, rule) in [(json!("input_required"), "literal"), (json!("task"), "literal"), (Value::Null, "literal")] {
            let mut bad = good.clone();
            bad["resultType"] = other.clone();
            let found: Vec<_> = sk::validate_json_as(ty, &bad, &Options::default()).unwrap().violations.into_iter().map(|v| (v.rule, v.pointer)).collect();
            assert_eq!(found, [(rule, "/resultType".to_string())], "{ty} with resultType {other}");
            assert!(sk::roundtrip_json(ty, &bad.to_string()).unwrap().is_err(), "{ty} read with resultType {other}");
            refused += 1;
        }
        let mut absent = good.clone();
        absent.as_object_mut().unwrap().remove("resultType");
        let found: Vec<_> = sk::validate_json_as(ty, &absent, &Options::default()).unwrap().violations.into_iter().map(|v| v.rule).collect();
        assert_eq!(found, ["required"], "{ty} without resultType");
        refused += 1;
    }
    println!("results refused: {refused}");
    // A request for input is still an answer the union reads (as InputRequiredResult), just not one of these.
    let input = json!({"resultType": "input_required", "requestState": "s1"});
    assert!(matches!(round_trips::<sk::ServerResult>(&input), sk::ServerResult::InputRequiredResult(_)));
}

#[test]
fn frontmatter_without_a_description_is_refused() {
    let mut skill = listed_skill();
    skill["frontmatter"].as_object_mut().unwrap().remove("description");
    assert_eq!(violations::<sk::Skill>(&skill), [("required", "/frontmatter".to_string())]);
    assert!(serde_json::from_value::<sk::Skill>(skill.clone()).is_err());
    let mut nameless = listed_skill();
    nameless["frontmatter"].as_object_mut().unwrap().remove("name");
    assert_eq!(violations::<sk::Skill>(&nameless), [("required", "/frontmatter".to_string())]);
}

#[test]
fn a_skill_without_resources_is_refused() {
    let mut skill = dynamic_skill();
    skill.as_object_mut().unwrap().remove("resources");
    assert_eq!(violations::<sk::Skill>(&skill), [("required", String::new())]);
    assert!(serde_json::from_value::<sk::Skill>(skill).is_err());
    // The directory listing requires its `resources` too.
    assert_eq!(violations::<sk::ReadResourceDirectoryResult>(&json!({"resultType": "complete"})), [("required", String::new())]);
}

#[test]
fn resources_neither_an_array_nor_dynamic_is_refused() {
    let mut found = Vec::new();
    for wrong in [json!("static"), json!("Dynamic"), json!(null), json!(7), json!({"uri": "skill://x/SKILL.md"}), json!(true)] {
        let mut skill = dynamic_skill();
        skill["resources"] = wrong.clone();
        let v = violations::<sk::Skill>(&skill);
        assert!(!v.is_empty() && v.iter().all(|(_, p)| p == "/resources"), "{wrong} as resources: {v:?}");
        found.push((wrong.to_string(), v[0].0));
    }
    println!("refused `resources` values: {found:?}");
    // Another string is kept as it came (and reported), so a checker can show it.
    let mut other = dynamic_skill();
    other["resources"] = json!("static");
    let read: sk::Skill = serde_json::from_value(other.clone()).unwrap();
    assert_eq!(read.resources, sk::SkillResources::Dynamic(sk::SkillResourcesDynamic::Other("static".into())));
    assert_eq!(serde_json::to_value(&read).unwrap(), other);
    // An array of anything but entries is refused element by element.
    let mut bad_entry = listed_skill();
    bad_entry["resources"][1]["size"] = json!("0");
    assert_eq!(violations::<sk::Skill>(&bad_entry), [("type", "/resources/1/size".to_string())]);
}

#[test]
fn the_three_methods_are_registered_with_their_results() {
    assert_eq!(<sk::ListSkillsRequest as RequestMethod>::METHOD, "skills/list");
    assert_eq!(<sk::GetSkillRequest as RequestMethod>::METHOD, "skills/get");
    assert_eq!(<sk::ReadResourceDirectoryRequest as RequestMethod>::METHOD, "resources/directory/read");
    for row in [
        ("skills/list", "ListSkillsRequest", "ListSkillsResult"),
        ("skills/get", "GetSkillRequest", "GetSkillResult"),
        ("resources/directory/read", "ReadResourceDirectoryRequest", "ReadResourceDirectoryResult"),
    ] {
        assert!(sk::REQUESTS.contains(&row), "{row:?} is not in skills::REQUESTS");
        assert!(!base::REQUESTS.iter().any(|r| r.0 == row.0), "{} leaked into 2026-07-28", row.0);
    }
    // Every 2026-07-28 method is there too, with the same types: the extension adds, it changes nothing.
    let missing: Vec<_> = base::REQUESTS.iter().filter(|r| !sk::REQUESTS.contains(r)).collect();
    assert!(missing.is_empty(), "{missing:?}");
    assert_eq!(sk::REQUESTS.len(), base::REQUESTS.len() + 3);
}

/// The overlay leaves the core alone: those types are 2026-07-28's own, not copies.
#[test]
fn the_core_types_are_2026_07_28s() {
    fn same<T>(_: T) -> T {
        unreachable!()
    }
    let _: fn(sk::Resource) -> base::Resource = same;
    let _: fn(sk::ReadResourceRequest) -> base::ReadResourceRequest = same;
    let _: fn(sk::CallToolResult) -> base::CallToolResult = same;
    let resource = json!({"uri": "skill://ops/release-notes/SKILL.md", "name": "release-notes", "mimeType": "text/markdown"});
    let r: sk::Resource = round_trips(&resource);
    let as_base: base::Resource = r;
    assert_eq!(as_base.name, "release-notes");
}
