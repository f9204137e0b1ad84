//! The resource-metadata proposal overlay (`resource_metadata` module, on top of draft).

use mcp_spec_types::draft;
use mcp_spec_types::resource_metadata as rm;
use mcp_spec_types::runtime::{RequestMethod, SchemaType};
use mcp_spec_types::tree::{Doc, Node};
use mcp_spec_types::validate::{resources, validate_json, Cx, Options, Severity};
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
            assert_eq!((b.name.as_deref(), b.size), (Some("Quarterly Report"), Some(102400)));
            assert!(b.extra.is_empty(), "metadata is typed, not unknown: {:?}", b.extra);
        }
        other => panic!("first element read as {}", other.schema_name()),
    }
    assert_eq!(result.contents[1].schema_name(), "TextResourceContents");
    // The example elides its content ("..."), so its sizes (of the full PDF and text) do not match what it carries.
    let found: Vec<_> = validate_json::<rm::ReadResourceResultResponse>(&input, &Options::default()).violations.into_iter().map(|v| (v.rule, v.pointer, v.severity)).collect();
    assert_eq!(found, [("resources.size", "/result/contents/0/size".to_string(), Severity::Warning), ("resources.size", "/result/contents/1/size".to_string(), Severity::Warning)]);
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
fn old_form_embedded_resources_round_trip_with_a_warning() {
    let old = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t"}, "annotations": {"priority": 0.5}});
    let e: rm::EmbeddedResource = serde_json::from_value(old.clone()).unwrap();
    // Written back as it came (`check --roundtrip` compares exactly this), and readable through the accessor.
    assert_eq!(serde_json::to_value(&e).unwrap(), old);
    assert_eq!(e.annotations().unwrap().priority.as_ref().and_then(|p| p.as_f64()), Some(0.5));
    let report = validate_json::<rm::EmbeddedResource>(&old, &Options::default());
    let found: Vec<_> = report.violations.iter().map(|v| (v.rule, v.pointer.as_str(), v.severity)).collect();
    assert_eq!(found, vec![("resources.embedded-annotations", "/annotations", Severity::Warning)]);
    // The old-form value is still checked as `Annotations`.
    let bad = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t"}, "annotations": {"priority": "high"}});
    assert!(validate_json::<rm::EmbeddedResource>(&bad, &Options::default()).violations.iter().any(|v| v.rule == "type" && v.pointer == "/annotations/priority"));
    // The new form reads and writes unchanged, with no warning.
    let new_form = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t", "annotations": {"priority": 0.5}}});
    let again: rm::EmbeddedResource = serde_json::from_value(new_form.clone()).unwrap();
    assert_eq!(serde_json::to_value(&again).unwrap(), new_form);
    assert_eq!(again.annotations().unwrap().priority.as_ref().and_then(|p| p.as_f64()), Some(0.5));
    assert!(validate_json::<rm::EmbeddedResource>(&new_form, &Options::default()).violations.is_empty());
    // Both forms: `resource.annotations` wins, and both are kept.
    let both = json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t", "annotations": {"priority": 1}}, "annotations": {"priority": 0}});
    let e: rm::EmbeddedResource = serde_json::from_value(both.clone()).unwrap();
    assert_eq!(serde_json::to_value(&e).unwrap(), both);
    assert_eq!(e.annotations().unwrap().priority.as_ref().and_then(|p| p.as_f64()), Some(1.0));
    // Inside a tool result, through the content union.
    let call = json!({"resultType": "complete", "content": [old]});
    let r: rm::CallToolResult = serde_json::from_value(call.clone()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), call);
}

#[test]
fn contents_without_name_are_read_with_a_warning() {
    // A server that predates the proposal: its read contents have no `name`.
    let old = result(json!([{"uri": "file:///a", "mimeType": "text/plain", "text": "x"}]));
    let r: rm::ReadResourceResult = serde_json::from_value(old.clone()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), old);
    assert_eq!(rules(&old), vec![("resources.contents-name", "/contents/0".to_string(), Severity::Warning)]);
    let blob: rm::BlobResourceContents = serde_json::from_value(json!({"uri": "file:///a", "blob": "AA=="})).unwrap();
    assert_eq!(blob.name, None);
    // The content union still tells text from blob without `name`.
    let item: rm::EmbeddedResourceResource = serde_json::from_value(json!({"uri": "file:///a", "blob": "AA=="})).unwrap();
    assert_eq!(item.schema_name(), "BlobResourceContents");
}

fn with_uri(f: for<'v> fn(Node<'v>, Option<&str>, &mut Cx<'v>), v: &Value, requested: Option<&str>) -> Vec<(&'static str, String)> {
    let doc = Doc::from_value(v);
    let mut cx = Cx::new(Options::default());
    f(doc.root(), requested, &mut cx);
    cx.finish().violations.into_iter().map(|v| (v.rule, v.pointer)).collect()
}

#[test]
fn same_uri_compares_with_the_requested_uri_when_known() {
    // Both elements agree with each other, but not with what was asked for.
    let v = result(json!([{"uri": "file:///b", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///b", "name": "a", "mimeType": "text/html", "text": "2"}]));
    assert!(rules(&v).is_empty(), "without the request, the first element's URI stands in");
    let same = |p: &str| ("resources.same-uri", p.to_string());
    assert_eq!(with_uri(resources::check_read_result, &v, Some("file:///a")), vec![same("/contents/0/uri"), same("/contents/1/uri")]);
    assert!(with_uri(resources::check_read_result, &v, Some("file:///b")).is_empty());
    let meta = json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a"}, {"uri": "file:///b", "name": "a", "mimeType": "text/html"}]});
    assert_eq!(with_uri(resources::check_metadata_result, &meta, Some("file:///b")), vec![same("/metadata/0/uri")]);
    assert_eq!(with_uri(resources::check_metadata_result, &meta, None), vec![same("/metadata/1/uri")]);

    // A checker that has run the type's validation adds only what that missed: together, every
    // element without the requested URI, each once.
    let mixed = result(json!([{"uri": "file:///b", "name": "a", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "text/html", "text": "2"}, {"uri": "file:///b", "name": "a", "mimeType": "text/csv", "text": "3"}]));
    let doc = Doc::from_value(&mixed);
    let mut cx = Cx::new(Options::default());
    <rm::ReadResourceResult as mcp_spec_types::validate::Validate>::validate_json(doc.root(), &mut cx);
    resources::check_requested_uri(doc.root(), "contents", "file:///c", &mut cx);
    let mut pointers: Vec<String> = cx.finish().violations.into_iter().filter(|v| v.rule == "resources.same-uri").map(|v| v.pointer).collect();
    pointers.sort();
    assert_eq!(pointers, ["/contents/0/uri", "/contents/1/uri", "/contents/2/uri"]);
    let mut cx = Cx::new(Options::default());
    resources::check_requested_uri(doc.root(), "contents", "file:///b", &mut cx);
    assert!(cx.finish().violations.is_empty(), "the first element has the requested URI: the type's validation said it all");
}

fn rules(v: &Value) -> Vec<(&'static str, String, Severity)> {
    validate_json::<rm::ReadResourceResult>(v, &Options::default()).violations.into_iter().map(|v| (v.rule, v.pointer, v.severity)).collect()
}

fn result(contents: Value) -> Value {
    json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": contents})
}

#[test]
fn multi_format_rules() {
    let mut good = proposal_example()["result"].clone();
    for item in good["contents"].as_array_mut().unwrap() {
        item.as_object_mut().unwrap().remove("size");
    }
    assert!(rules(&good).is_empty());
    let other_uri = result(json!([{"uri": "file:///a", "name": "a", "text": "1"}, {"uri": "file:///b", "name": "a", "mimeType": "text/x", "text": "2"}]));
    assert_eq!(rules(&other_uri), vec![("resources.same-uri", "/contents/1/uri".to_string(), Severity::Error)]);
    // Two elements without a MIME type are not two formats either.
    let no_mime = result(json!([{"uri": "file:///a", "name": "a", "text": "1"}, {"uri": "file:///a", "name": "a", "blob": "AA=="}]));
    assert_eq!(rules(&no_mime), vec![("resources.distinct-mime-types", "/contents/1".to_string(), Severity::Warning)]);
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
