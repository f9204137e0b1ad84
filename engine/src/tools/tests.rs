//! Tests of tools from Rust types: schemas per version, arguments read with their JSON pointers, and
//! the router's answers.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::*;
use crate::{Id, Request};
use mcp_spec_types::validate::{validate_json, Options, Validate};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Meters,
    Feet,
    Inches,
}

/// A length to convert.
#[derive(Debug, Deserialize, JsonSchema)]
struct Convert {
    value: f64,
    from: Unit,
    to: Unit,
    #[serde(default)]
    #[allow(dead_code)]
    precision: Option<u8>,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Converted {
    value: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Batch {
    #[allow(dead_code)]
    items: Vec<Convert>,
    #[serde(rename = "a/b~c")]
    #[allow(dead_code)]
    odd: Option<u32>,
}

const VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"];

fn convert_def() -> ToolDef {
    ToolDef::new::<Convert>("convert").unwrap().output::<Converted>().title("Convert").description("Converts lengths")
}

fn violations<T: Validate>(value: &Value) -> Vec<String> {
    validate_json::<T>(value, &Options::default()).violations.iter().map(|v| format!("{} {} {}", v.pointer, v.rule, v.message)).collect()
}

// Each enabled version's validator, by version string.
fn tool_violations(version: &str, tool: &Value) -> Option<Vec<String>> {
    match version {
        #[cfg(feature = "v2024-11-05")]
        "2024-11-05" => Some(violations::<mcp_spec_types::v2024_11_05::Tool>(tool)),
        #[cfg(feature = "v2025-03-26")]
        "2025-03-26" => Some(violations::<mcp_spec_types::v2025_03_26::Tool>(tool)),
        #[cfg(feature = "v2025-06-18")]
        "2025-06-18" => Some(violations::<mcp_spec_types::v2025_06_18::Tool>(tool)),
        #[cfg(feature = "v2025-11-25")]
        "2025-11-25" => Some(violations::<mcp_spec_types::v2025_11_25::Tool>(tool)),
        #[cfg(feature = "v2026-07-28")]
        "2026-07-28" => Some(violations::<mcp_spec_types::v2026_07_28::Tool>(tool)),
        #[cfg(feature = "draft")]
        "draft" => Some(violations::<mcp_spec_types::draft::Tool>(tool)),
        _ => None,
    }
}

fn result_violations(version: &str, result: &Value) -> Option<Vec<String>> {
    match version {
        #[cfg(feature = "v2024-11-05")]
        "2024-11-05" => Some(violations::<mcp_spec_types::v2024_11_05::CallToolResult>(result)),
        #[cfg(feature = "v2025-03-26")]
        "2025-03-26" => Some(violations::<mcp_spec_types::v2025_03_26::CallToolResult>(result)),
        #[cfg(feature = "v2025-06-18")]
        "2025-06-18" => Some(violations::<mcp_spec_types::v2025_06_18::CallToolResult>(result)),
        #[cfg(feature = "v2025-11-25")]
        "2025-11-25" => Some(violations::<mcp_spec_types::v2025_11_25::CallToolResult>(result)),
        #[cfg(feature = "v2026-07-28")]
        "2026-07-28" => Some(violations::<mcp_spec_types::v2026_07_28::CallToolResult>(result)),
        #[cfg(feature = "draft")]
        "draft" => Some(violations::<mcp_spec_types::draft::CallToolResult>(result)),
        _ => None,
    }
}

#[test]
fn tool_definitions_pass_each_versions_validator() {
    let mut checked = 0;
    for version in VERSIONS {
        let tool = convert_def().to_json(version);
        if let Some(found) = tool_violations(version, &tool) {
            assert!(found.is_empty(), "{version}: {found:?}\n{tool:#}");
            checked += 1;
        }
        assert_eq!(tool["inputSchema"]["type"], "object", "{version}");
    }
    assert!(checked >= 1, "no version feature enabled");
}

#[cfg(feature = "v2025-11-25")]
#[test]
fn typed_tool_of_a_version() {
    let tool: mcp_spec_types::v2025_11_25::Tool = convert_def().to_tool().unwrap();
    assert_eq!(tool.name, "convert");
    assert_eq!(tool.title.as_deref(), Some("Convert"));
    assert_eq!(tool.input_schema.schema, None);
    let mut required = tool.input_schema.required.clone().unwrap();
    required.sort();
    assert_eq!(required, ["from", "to", "value"]);
    assert!(tool.output_schema.unwrap().properties.unwrap().contains_key("value"));
}

#[test]
fn an_enum_field_lists_its_values_inline() {
    let input = convert_def().to_json("2025-11-25")["inputSchema"].clone();
    assert_eq!(input["properties"]["from"]["enum"], json!(["meters", "feet", "inches"]), "{input:#}");
    assert!(!input.to_string().contains("$ref"), "{input:#}");
    assert!(input.get("$defs").is_none());
    // The type's Rust name is not the tool's title; its doc comment stays as the description.
    assert!(input.get("title").is_none());
    assert_eq!(input["description"], "A length to convert.");
}

#[test]
fn dialect_is_named_only_where_the_version_has_no_default() {
    for version in VERSIONS {
        let tool = convert_def().to_json(version);
        let named = tool["inputSchema"].get("$schema").cloned();
        if *version < "2025-11-25" {
            assert_eq!(named, Some(Value::from(DIALECT_2020_12)), "{version}");
        } else {
            assert_eq!(named, None, "{version}");
        }
    }
}

#[test]
fn output_schema_where_the_version_has_one() {
    let def = convert_def();
    assert!(def.to_json("2025-03-26").get("outputSchema").is_none());
    assert!(def.to_json("2025-03-26").get("title").is_none());
    assert_eq!(def.to_json("2025-06-18")["outputSchema"]["type"], "object");
    // An array output is allowed only from 2026-07-28 on.
    let list = ToolDef::new::<Convert>("l").unwrap().output::<Vec<u32>>();
    assert!(list.to_json("2025-11-25").get("outputSchema").is_none());
    assert_eq!(list.to_json("2026-07-28")["outputSchema"]["type"], "array");
}

#[test]
fn arguments_that_are_not_an_object_are_refused() {
    match ToolDef::new::<u32>("n") {
        Err(SchemaError::NotObject { tool, .. }) => assert_eq!(tool, "n"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(ToolDef::new::<Unit>("u"), Err(SchemaError::NotObject { .. })));
    assert!(ToolDef::new::<Map<String, Value>>("any").is_ok());
}

#[test]
fn a_bad_argument_names_its_pointer() {
    let args = json!({"value": 1.5, "from": "parsecs", "to": "feet"});
    let e = arguments::<Convert>(args.as_object()).unwrap_err();
    assert_eq!(e.pointer, "/from");
    assert!(e.message.contains("unknown variant `parsecs`") && e.message.contains("`meters`"), "{e}");
    assert_eq!(e.to_string(), format!("invalid arguments at `/from`: {}", e.message));

    let args = json!({"items": [{"value": 1, "from": "feet", "to": "feet"}, {"value": "x", "from": "feet", "to": "feet"}]});
    assert_eq!(arguments::<Batch>(args.as_object()).unwrap_err().pointer, "/items/1/value");
    // RFC 6901 escapes.
    let args = json!({"items": [], "a/b~c": -1});
    assert_eq!(arguments::<Batch>(args.as_object()).unwrap_err().pointer, "/a~1b~0c");

    let e = arguments::<Convert>(json!({"value": 1, "from": "feet"}).as_object()).unwrap_err();
    assert_eq!((e.pointer.as_str(), e.message.as_str()), ("", "missing field `to`"));
    // Absent arguments read as `{}`.
    assert_eq!(arguments::<Map<String, Value>>(None).unwrap(), Map::new());
    let result = ToolResult::from(e).to_json("2025-11-25");
    assert_eq!(result["isError"], true);
    assert!(result["content"][0]["text"].as_str().unwrap().contains("missing field `to`"));
}

#[test]
fn structured_results_carry_the_text_block_and_validate() {
    let result = ToolResult::structured(&Converted { value: 0.5 }).unwrap();
    for version in VERSIONS {
        let json = result.to_json(version);
        assert_eq!(json["content"], json!([{"type": "text", "text": "{\"value\":0.5}"}]), "{version}");
        assert_eq!(json.get("structuredContent").is_some(), *version >= "2025-06-18", "{version}");
        assert_eq!(json.get("resultType").is_some(), *version >= "2026-07-28", "{version}");
        if let Some(found) = result_violations(version, &json) {
            assert!(found.is_empty(), "{version}: {found:?}");
        }
        let error = ToolResult::error("no").to_json(version);
        assert_eq!(error["isError"], true);
        if let Some(found) = result_violations(version, &error) {
            assert!(found.is_empty(), "{version}: {found:?}");
        }
    }
    // Structured content that is not an object: 2026-07-28 only.
    let list = ToolResult::structured(&[1, 2]).unwrap();
    assert!(list.to_json("2025-11-25").get("structuredContent").is_none());
    assert_eq!(list.to_json("2026-07-28")["structuredContent"], json!([1, 2]));
}

#[cfg(feature = "v2026-07-28")]
#[test]
fn typed_result_of_a_version() {
    let result: mcp_spec_types::v2026_07_28::CallToolResult = ToolResult::structured(&Converted { value: 2.0 }).unwrap().to_result().unwrap();
    assert_eq!(result.structured_content, Some(json!({"value": 2.0})));
    assert_eq!(result.is_error, None);
}

// A context as a transport's loop would hand it: progress goes out through it, cancellation comes in.
struct Context {
    progress: Vec<u64>,
    cancel_after: u64,
}

impl Context {
    fn cancelled(&self) -> bool {
        self.progress.len() as u64 >= self.cancel_after
    }
}

#[derive(Deserialize, JsonSchema)]
struct Count {
    to: u64,
}

#[derive(Serialize, JsonSchema)]
struct Counted {
    counted: u64,
}

fn router() -> Router<Context> {
    Router::new()
        .tool("convert", "Converts lengths", |c: Convert, _: &mut Context| {
            let metres = |u: &Unit| match u {
                Unit::Meters => 1.0,
                Unit::Feet => 0.3048,
                Unit::Inches => 0.0254,
            };
            Ok(Converted { value: c.value * metres(&c.from) / metres(&c.to) })
        })
        .unwrap()
        .tool("count", "Counts", |c: Count, cx: &mut Context| {
            for step in 1..=c.to {
                if cx.cancelled() {
                    return Err(format!("cancelled at {step}"));
                }
                cx.progress.push(step);
            }
            Ok(Counted { counted: cx.progress.len() as u64 })
        })
        .unwrap()
}

fn request(method: &str, params: Value) -> Request {
    Request { id: Id::Number(1), method: method.into(), params: Some(params) }
}

#[test]
fn router_lists_and_calls() {
    let router = router();
    let mut cx = Context { progress: Vec::new(), cancel_after: u64::MAX };
    let list = router.handle("2026-07-28", &request("tools/list", json!({})), &mut cx).unwrap().unwrap();
    assert_eq!(list["tools"].as_array().unwrap().len(), 2);
    assert_eq!((&list["resultType"], &list["ttlMs"], &list["cacheScope"]), (&json!("complete"), &json!(0), &json!("private")));
    assert_eq!(router.list("2025-11-25").as_object().unwrap().keys().collect::<Vec<_>>(), ["tools"]);
    assert_eq!(Router::<()>::new().cache(60_000, true).list("2026-07-28")["cacheScope"], "public");
    #[cfg(feature = "v2026-07-28")]
    assert_eq!(violations::<mcp_spec_types::v2026_07_28::ListToolsResult>(&list), Vec::<String>::new());

    let call = json!({"name": "convert", "arguments": {"value": 12, "from": "inches", "to": "feet"}});
    let result = router.handle("2025-11-25", &request("tools/call", call), &mut cx).unwrap().unwrap();
    assert_eq!(result["structuredContent"]["value"].as_f64().map(|v| (v * 1e9).round() / 1e9), Some(1.0));

    let bad = json!({"name": "convert", "arguments": {"value": 12, "from": "inches", "to": "miles"}});
    let result = router.call("2025-11-25", Some(&bad), &mut cx).unwrap();
    assert_eq!(result["isError"], true);
    assert!(result["content"][0]["text"].as_str().unwrap().starts_with("invalid arguments at `/to`: unknown variant `miles`"), "{result}");
    assert!(router.handle("2025-11-25", &request("prompts/list", json!({})), &mut cx).is_none());
}

#[test]
fn router_refuses_unknown_tools_and_bad_params_with_invalid_params() {
    let router = router();
    let mut cx = Context { progress: Vec::new(), cancel_after: u64::MAX };
    let e = router.call("2025-11-25", Some(&json!({"name": "nope"})), &mut cx).unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (-32602, "Unknown tool: nope"));
    for params in [None, Some(json!({})), Some(json!({"name": 3})), Some(json!({"name": "count", "arguments": [1]}))] {
        assert_eq!(router.call("2025-11-25", params.as_ref(), &mut cx).unwrap_err().code, -32602, "{params:?}");
    }
    assert!(matches!(router.tool("count", "again", |_: Count, _: &mut Context| Ok(Counted { counted: 0 })), Err(SchemaError::DuplicateName(n)) if n == "count"));
}

#[test]
fn the_context_reaches_the_handler() {
    let router = router();
    let mut cx = Context { progress: Vec::new(), cancel_after: u64::MAX };
    let result = router.call("2025-11-25", Some(&json!({"name": "count", "arguments": {"to": 4}})), &mut cx).unwrap();
    assert_eq!((cx.progress.as_slice(), &result["structuredContent"]), (&[1, 2, 3, 4][..], &json!({"counted": 4})));

    // Cancelled after two steps: the handler stops there.
    let mut cx = Context { progress: Vec::new(), cancel_after: 2 };
    let result = router.call("2025-11-25", Some(&json!({"name": "count", "arguments": {"to": 1000}})), &mut cx).unwrap();
    assert_eq!(cx.progress, [1, 2]);
    assert_eq!(result["isError"], true);
}

#[test]
fn a_router_is_shared_across_threads() {
    fn shared<T: Send + Sync>(_: &T) {}
    shared(&router());
}

#[test]
fn only_calls_of_a_waiting_tool_wait() {
    let router = router().waiting_tool("sleep", "Sleeps", |_: Convert, _: &mut Context| Ok(json!({}))).unwrap();
    let cases = [
        (request("tools/call", json!({"name": "sleep", "arguments": {}})), true),
        (request("tools/call", json!({"name": "convert", "arguments": {}})), false),
        (request("tools/call", json!({"name": "nothing"})), false),
        (request("tools/call", json!({})), false),
        (request("tools/list", json!({"name": "sleep"})), false),
    ];
    let wrong: Vec<_> = cases.iter().filter(|(r, waits)| router.waits(r) != *waits).map(|(r, _)| &r.params).collect();
    println!("{} passed, {} failed", cases.len() - wrong.len(), wrong.len());
    assert!(wrong.is_empty(), "{wrong:?}");
}
