//! One test per kind of case in the table of conversions (`generated/CONVERSIONS.md`): what is
//! kept, what fails and with which pointer, and that each failure names a row of the table.

use mcp_schema_tests::workspace_root;
use mcp_spec_types::convert::{convert_result, Convert, ConvertError, Reason};
use mcp_spec_types::{draft, v2024_11_05 as v1, v2025_03_26 as v2, v2025_06_18 as v3, v2025_11_25 as v4, v2026_07_28 as v5};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

fn read<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

fn json_of<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap()
}

/// Checks where and why a conversion failed, and that the table has the row the error names.
fn expect_error(e: ConvertError, pointer: &str, case: &str, from: &str, to: &str) {
    assert_eq!((e.pointer().as_str(), e.case(), e.from_version(), e.to_version()), (pointer, case, from, to), "{e}");
    let table = std::fs::read_to_string(workspace_root().join("generated/CONVERSIONS.md")).unwrap();
    assert!(table.contains(&format!("| {from} | {to} | `{case}` |")), "no row for {e}");
}

#[test]
fn a_field_the_target_lacks_goes_into_extra_and_comes_back() {
    let tool: v4::Tool = read(json!({"name": "add", "title": "Add", "inputSchema": {"type": "object"}, "icons": [{"src": "https://example.com/a.png"}]}));
    let old: v1::Tool = tool.clone().convert().unwrap();
    assert_eq!(old.extra["title"], "Add");
    assert_eq!(old.extra["icons"][0]["src"], "https://example.com/a.png");
    let back: v4::Tool = old.convert().unwrap();
    assert_eq!(back, tool);
}

#[test]
fn a_field_the_source_lacks_is_read_from_its_extra() {
    let old: v1::Tool = read(json!({"name": "add", "title": "Add", "inputSchema": {"type": "object"}}));
    let new: v3::Tool = old.convert().unwrap();
    assert_eq!(new.title.as_deref(), Some("Add"));
    assert!(new.extra.is_empty());
}

#[test]
fn a_bad_value_in_extra_is_an_error_with_its_pointer() {
    let old: v1::Tool = read(json!({"name": "add", "title": 5, "inputSchema": {"type": "object"}}));
    let e = Convert::<v3::Tool>::convert(old).unwrap_err();
    assert!(matches!(e.reason(), Reason::Unreadable { .. }), "{e}");
    assert_eq!(e.pointer(), "/title");
    assert_eq!((e.from_version(), e.to_version()), ("2025-03-26", "2025-06-18"));
}

#[test]
fn audio_content_to_2024_11_05_is_an_error_naming_its_pointer() {
    let result: v4::CallToolResult = read(json!({"content": [{"type": "text", "text": "hi"}, {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}));
    let e = Convert::<v1::CallToolResult>::convert(result.clone()).unwrap_err();
    assert_eq!(*e.reason(), Reason::NotInTarget);
    expect_error(e, "/content/1", "CallToolResultContentItem.AudioContent", "2025-03-26", "2024-11-05");
    // 2025-03-26 has audio: there it converts, and back.
    let mid: v2::CallToolResult = result.clone().convert().unwrap();
    assert_eq!(Convert::<v4::CallToolResult>::convert(mid).unwrap(), result);
}

#[test]
fn resource_link_content_to_2025_03_26_is_an_error() {
    let result: v3::CallToolResult = read(json!({"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}));
    let e = Convert::<v2::CallToolResult>::convert(result).unwrap_err();
    expect_error(e, "/content/0", "ContentBlock.ResourceLink", "2025-06-18", "2025-03-26");
}

#[test]
fn a_task_augmented_request_to_a_version_without_tasks_is_refused() {
    let request: v4::CallToolRequest = read(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "slow", "task": {"ttl": 60000}}}));
    let e = Convert::<v3::CallToolRequest>::convert(request.clone()).unwrap_err();
    assert_eq!(*e.reason(), Reason::Refused { key: "task".into() });
    expect_error(e, "/params/task", "CallToolRequestParams.task", "2025-11-25", "2025-06-18");
    // Without `task` the same request converts.
    let mut plain = request;
    plain.params.task = None;
    let _: v3::CallToolRequest = plain.convert().unwrap();
}

#[test]
fn methods_2026_07_28_dropped_do_not_convert_to_it() {
    for (method, case) in [("initialize", "ClientRequest.InitializeRequest"), ("ping", "ClientRequest.PingRequest"), ("logging/setLevel", "ClientRequest.SetLevelRequest")] {
        let params = match method {
            "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
            "logging/setLevel" => json!({"level": "info"}),
            _ => json!({}),
        };
        let request: v4::ClientRequest = read(json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
        let e = Convert::<v5::ClientRequest>::convert(request).unwrap_err();
        assert_eq!(*e.reason(), Reason::NotInTarget);
        expect_error(e, "", case, "2025-11-25", "2026-07-28");
    }
}

#[test]
fn a_server_request_does_not_convert_to_a_version_whose_server_sends_none() {
    let message: v4::ServerMessage = read(json!({"jsonrpc": "2.0", "id": 9, "method": "roots/list"}));
    let e = Convert::<v5::ServerMessage>::convert(message).unwrap_err();
    expect_error(e, "", "ServerRequest", "2025-11-25", "2026-07-28");
}

#[test]
fn a_required_field_the_source_lacks_is_missing() {
    // 2026-07-28 requires `_meta` (protocol version and capabilities) on every request.
    let request: v4::CallToolRequest = read(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add"}}));
    let e = Convert::<v5::CallToolRequest>::convert(request).unwrap_err();
    assert_eq!(*e.reason(), Reason::Missing { key: "_meta".into() });
    expect_error(e, "/params/_meta", "CallToolRequestParams._meta", "2025-11-25", "2026-07-28");
    // 2025-06-18 requires `requestId` on a cancellation, 2025-11-25 does not.
    let cancel: v4::CancelledNotification = read(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}));
    let e = Convert::<v3::CancelledNotification>::convert(cancel).unwrap_err();
    expect_error(e, "/params/requestId", "CancelledNotificationParams.requestId", "2025-11-25", "2025-06-18");
}

#[test]
fn a_field_required_but_read_leniently_is_missing_too() {
    // 2026-07-28 results carry `resultType`, required by its schema though read leniently (so
    // older senders' results still read). A 2025-11-25 result has none: converting it must not
    // give a result that reads in 2026-07-28 but fails its validation.
    let result: v4::CallToolResult = read(json!({"content": [{"type": "text", "text": "3"}]}));
    let e = Convert::<v5::CallToolResult>::convert(result).unwrap_err();
    assert_eq!(*e.reason(), Reason::Missing { key: "resultType".into() });
    expect_error(e, "/resultType", "CallToolResult.resultType", "2025-11-25", "2026-07-28");
    // What a gateway does: put the value in the source's `extra`; the conversion takes it, and the
    // result is valid in 2026-07-28 and comes back as it was.
    let with: v4::CallToolResult = read(json!({"content": [{"type": "text", "text": "3"}], "resultType": "complete"}));
    let new: v5::CallToolResult = with.clone().convert().unwrap();
    let report = mcp_spec_types::validate::validate(&new, &Default::default());
    assert!(report.is_valid(), "{report:?}");
    let back: v4::CallToolResult = new.convert().unwrap();
    assert_eq!(back, with);
}

#[test]
fn a_fixed_key_the_source_keeps_in_extra_is_taken_out_of_it() {
    // Before 2025-11-25 the request types do not declare `jsonrpc`; the value keeps it in `extra`.
    let old: v3::PingRequest = read(json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    let new: v4::PingRequest = old.clone().convert().unwrap();
    assert!(new.extra.is_empty());
    assert_eq!(json_of(&new), json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    let back: v3::PingRequest = new.convert().unwrap();
    assert_eq!(back, old);
    // Without it in `extra`, 2025-11-25 cannot write the message.
    let bare: v3::PingRequest = read(json!({"method": "ping"}));
    let e = Convert::<v4::PingRequest>::convert(bare).unwrap_err();
    assert_eq!(*e.reason(), Reason::Missing { key: "jsonrpc".into() });
    expect_error(e, "/jsonrpc", "PingRequest.jsonrpc", "2025-06-18", "2025-11-25");
}

#[test]
fn unknown_members_stay_unknown() {
    let result: v4::CallToolResult = read(json!({"content": [{"type": "video", "url": "https://example.com/v.mp4"}]}));
    let old: v1::CallToolResult = result.clone().convert().unwrap();
    assert!(matches!(old.content[0], v1::CallToolResultContentItem::Unknown(_)));
    let back: v4::CallToolResult = old.convert().unwrap();
    assert_eq!(back, result);
}

#[test]
fn enum_values_carry_over_by_their_wire_text() {
    let level = v4::LoggingLevel::Other("verbose".into());
    let old: v1::LoggingLevel = level.clone().convert().unwrap();
    assert_eq!(old, v1::LoggingLevel::Other("verbose".into()));
    assert_eq!(Convert::<v1::LoggingLevel>::convert(v4::LoggingLevel::Warning).unwrap(), v1::LoggingLevel::Warning);
}

#[test]
fn renamed_types_convert() {
    let error: v3::JSONRPCError = read(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}}));
    let renamed: v4::JSONRPCErrorResponse = error.clone().convert().unwrap();
    assert_eq!(renamed.error.code, -32601);
    assert_eq!(Convert::<v3::JSONRPCError>::convert(renamed).unwrap(), error);
    let reference: v2::ResourceReference = read(json!({"type": "ref/resource", "uri": "file:///{path}"}));
    let template: v3::ResourceTemplateReference = reference.clone().convert().unwrap();
    assert_eq!(template.uri, "file:///{path}");
    // And across several versions.
    let far: v5::ResourceTemplateReference = reference.convert().unwrap();
    assert_eq!(far.uri, "file:///{path}");
}

#[test]
fn a_field_of_another_shape_goes_through_json() {
    // 2026-07-28 allows any JSON value as structured content; 2025-11-25 only an object.
    let object: v5::CallToolResult = read(json!({"content": [], "structuredContent": {"sum": 3}, "resultType": "complete"}));
    let old: v4::CallToolResult = object.clone().convert().unwrap();
    assert_eq!(old.structured_content.as_ref().unwrap()["sum"], 3);
    assert_eq!(Convert::<v5::CallToolResult>::convert(old).unwrap(), object);
    let array: v5::CallToolResult = read(json!({"content": [], "structuredContent": [1, 2], "resultType": "complete"}));
    let e = Convert::<v4::CallToolResult>::convert(array).unwrap_err();
    assert!(matches!(e.reason(), Reason::Unreadable { .. }), "{e}");
    expect_error(e, "/structuredContent", "CallToolResult.structuredContent", "2026-07-28", "2025-11-25");
}

#[test]
fn envelopes_convert_with_their_messages() {
    let message: v1::ClientMessage = read(json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}}));
    let new: v4::ClientMessage = message.clone().convert().unwrap();
    assert!(matches!(new, mcp_spec_types::runtime::Message::Request(v4::ClientRequest::CallToolRequest(_))));
    assert_eq!(Convert::<v1::ClientMessage>::convert(new).unwrap(), message);
    let response: v4::ServerMessage = read(json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}, "title": "Add"}]}}));
    let old: v1::ServerMessage = response.clone().convert().unwrap();
    assert_eq!(Convert::<v4::ServerMessage>::convert(old.clone()).unwrap(), response);
    assert_eq!(json_of(&old), json_of(&response));
}

#[test]
fn the_answer_to_a_converted_request_converts_back() {
    let request: v4::ListToolsRequest = read(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let _sent: v1::ListToolsRequest = request.convert().unwrap();
    let answer: v1::ListToolsResult = read(json!({"tools": [{"name": "add", "inputSchema": {"type": "object"}, "title": "Add"}]}));
    let result: v4::ListToolsResult = convert_result::<v4::ListToolsRequest, v1::ListToolsRequest>(answer).unwrap();
    assert_eq!(result.tools[0].title.as_deref(), Some("Add"));
}

#[test]
fn versions_further_apart_convert_through_the_ones_between() {
    let tool: v1::Tool = read(json!({"name": "add", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}));
    let newest: draft::Tool = tool.clone().convert().unwrap();
    assert_eq!(newest.annotations.as_ref().unwrap().read_only_hint, Some(true));
    assert_eq!(Convert::<v1::Tool>::convert(newest).unwrap(), tool);
}

#[test]
fn errors_say_where_why_and_which_step() {
    let result: v4::CallToolResult = read(json!({"content": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}));
    let e = Convert::<v1::CallToolResult>::convert(result).unwrap_err();
    assert_eq!(e.to_string(), "/content/0: the target version cannot represent this value (2025-03-26 -> 2024-11-05, case `CallToolResultContentItem.AudioContent`)");
}
