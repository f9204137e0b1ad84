//! The resource-metadata proposal overlay (`resource_metadata` module, on top of draft).

use mcp_schema::draft;
use mcp_schema::resource_metadata as rm;
use mcp_schema::runtime::{RequestMethod, SchemaType};
use mcp_schema::validate::{validate_json, Options, Severity};
use serde_json::{json, Value};

/// The proposal's multi-format example. The proposal predates draft's required
/// `resultType`, `ttlMs` and `cacheScope` on this result, so they are added here.
fn proposal_example() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 2,
        "result": {
            "resultType": "complete",
            "ttlMs": 0,
            "cacheScope": "private",
            "contents": [
                {"uri": "file:///docs/report.pdf", "name": "Quarterly Report", "mimeType": "application/pdf", "size": 102400, "blob": "JVBERi0xLjQK"},
                {"uri": "file:///docs/report.pdf", "name": "Quarterly Report", "mimeType": "text/plain", "size": 8192, "text": "Extracted text content of the PDF..."}
            ]
        }
    })
}

#[test]
fn proposal_example_round_trips_with_metadata() {
    let input = proposal_example();
    let r: rm::ReadResourceResultResponse = serde_json::from_value(input.clone()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), input);
    let rm::ReadResourceResultResponseResult::ReadResourceResult(result) = &r.result else { panic!("read as {}", r.result.schema_name()) };
    match &result.contents[0] {
        rm::ReadResourceResultContentsItem::BlobResourceContents(b) => {
            assert_eq!((b.name.as_str(), b.size), ("Quarterly Report", Some(102400)));
            assert!(b.extra.is_empty(), "metadata is typed, not unknown: {:?}", b.extra);
        }
        other => panic!("first element read as {}", other.schema_name()),
    }
    assert_eq!(result.contents[1].schema_name(), "TextResourceContents");
    assert!(validate_json::<rm::ReadResourceResultResponse>(&input, &Options::default()).violations.is_empty());
}

#[test]
fn base_module_is_unchanged() {
    // In draft itself the metadata stays unknown, and EmbeddedResource keeps its annotations.
    let b: draft::BlobResourceContents = serde_json::from_value(json!({"uri": "u:x", "name": "n", "blob": "AA=="})).unwrap();
    assert!(b.extra.contains_key("name"));
    let e: draft::EmbeddedResource = serde_json::from_value(json!({"type": "resource", "resource": {"uri": "u:x", "text": "t"}, "annotations": {"priority": 1}})).unwrap();
    assert!(e.annotations.is_some());
}

#[test]
fn resources_metadata_request_is_registered() {
    assert_eq!(<rm::ReadResourceMetadataRequest as RequestMethod>::METHOD, "resources/metadata");
    assert!(rm::REQUESTS.contains(&("resources/metadata", "ReadResourceMetadataRequest", "ReadResourceMetadataResult")));
    assert!(!draft::REQUESTS.iter().any(|r| r.0 == "resources/metadata"));
    let req = json!({"jsonrpc": "2.0", "id": 5, "method": "resources/metadata", "params": {"uri": "file:///a",
        "_meta": {"io.modelcontextprotocol/protocolVersion": "DRAFT", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let parsed: rm::ClientRequest = serde_json::from_value(req.clone()).unwrap();
    assert_eq!(parsed.schema_name(), "ReadResourceMetadataRequest");
    assert_eq!(serde_json::to_value(&parsed).unwrap(), req);
    let resp = json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "size": 3}]});
    let result: <rm::ReadResourceMetadataRequest as RequestMethod>::Result = serde_json::from_value(resp.clone()).unwrap();
    assert_eq!(result.metadata[0].size, Some(3));
    let as_server_result: rm::ServerResult = serde_json::from_value(resp).unwrap();
    assert_eq!(as_server_result.schema_name(), "ReadResourceMetadataResult");
}

#[test]
fn old_form_embedded_resources_are_upgraded() {
    let old = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t"}, "annotations": {"priority": 0.5}});
    let e: rm::EmbeddedResource = serde_json::from_value(old).unwrap();
    let new_form = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t", "annotations": {"priority": 0.5}}});
    assert_eq!(serde_json::to_value(&e).unwrap(), new_form);
    // The new form reads and writes unchanged.
    let again: rm::EmbeddedResource = serde_json::from_value(new_form.clone()).unwrap();
    assert_eq!(serde_json::to_value(&again).unwrap(), new_form);
    // When the resource already has annotations, the old top-level ones are kept as they came (nothing is lost).
    let both = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t", "annotations": {"priority": 1}}, "annotations": {"priority": 0}});
    let e: rm::EmbeddedResource = serde_json::from_value(both.clone()).unwrap();
    assert_eq!(serde_json::to_value(&e).unwrap(), both);
}

fn rules(v: &Value) -> Vec<(&'static str, String, Severity)> {
    validate_json::<rm::ReadResourceResult>(v, &Options::default()).violations.into_iter().map(|v| (v.rule, v.pointer, v.severity)).collect()
}

fn result(contents: Value) -> Value {
    json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": contents})
}

#[test]
fn multi_format_rules() {
    let good = proposal_example()["result"].clone();
    assert!(rules(&good).is_empty());
    let other_uri = result(json!([{"uri": "file:///a", "name": "a", "text": "1"}, {"uri": "file:///b", "name": "a", "mimeType": "text/x", "text": "2"}]));
    assert_eq!(rules(&other_uri), vec![("resources.same-uri", "/contents/1/uri".to_string(), Severity::Error)]);
    let same_mime = result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "2"}]));
    assert_eq!(rules(&same_mime), vec![("resources.distinct-mime-types", "/contents/1/mimeType".to_string(), Severity::Warning)]);
    let other_name = result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "b", "mimeType": "text/html", "text": "2"}]));
    assert_eq!(rules(&other_name), vec![("resources.consistent-metadata", "/contents/1/name".to_string(), Severity::Warning)]);
    // The rules belong to the overlay, not to draft.
    assert!(validate_json::<draft::ReadResourceResult>(&other_uri, &Options::default()).violations.is_empty());
}

#[test]
fn overlay_errors_name_the_place() {
    let config = generator::Config::from_toml(
        r#"
[[module]]
name = "base"
feature = "base"
input = "base.ts"
title = "t"
[[module]]
name = "ov"
feature = "ov"
input = "base.ts"
overlay = "ov.ts"
title = "t"
"#,
    )
    .unwrap();
    let base = "export interface A { x: string; }\nexport type U = A;\n";
    let cases = [
        ("/** @overlay merge */\nexport interface Missing { y: string; }\n", "ov.ts:2:1: error: the overlay changes `Missing`, which the base schema does not have"),
        ("export interface A { y: string; }\n", "ov.ts:1:1: error: `A` is already in the base schema: say `@overlay replace` or `@overlay merge`"),
        ("/** @overlay merge\n * @overlayRemove z */\nexport interface A {}\n", "ov.ts:3:1: error: `@overlayRemove z`: `A` has no own field `z` in the base"),
        ("/** @overlay rename */\nexport interface A {}\n", "ov.ts:2:1: error: unknown overlay directive `@overlay rename` (expected replace, merge or extend)"),
    ];
    for (overlay, expected) in cases {
        let inputs = [generator::Input { path: "base.ts".into(), source: base.into() }, generator::Input { path: "ov.ts".into(), source: overlay.into() }];
        let err = generator::generate(&inputs, &config).unwrap_err().to_string();
        assert!(err.starts_with(expected), "{overlay}\n=> {err}");
    }
}
