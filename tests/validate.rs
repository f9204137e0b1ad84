//! Validation: every rule has a case it accepts and a case it rejects (at the
//! expected pointer), every rule id is covered, and every spec example validates clean.

#![allow(deprecated)] // Some types used as examples are deprecated in 2026-07-28.

use mcp_spec_types::validate::{self, jsonrpc, Options, Report, Severity, RULES};
use mcp_spec_types::{apps as ext, draft, resource_metadata as rm, v2024_11_05 as v1, v2025_06_18 as v3, v2025_11_25 as v4, v2026_07_28 as v6};
use mcp_schema_tests::{example_files, upstream, Tally};
use serde_json::{json, Value};

type Check = fn(&Value, &Options) -> Report;

struct Case {
    rule: &'static str,
    check: Check,
    valid: Value,
    invalid: Value,
    pointer: &'static str,
    severity: Severity,
}

macro_rules! check {
    ($m:ident :: $t:ident) => {
        (|v: &Value, o: &Options| validate::validate_json::<$m::$t>(v, o)) as Check
    };
}

// After `check!`, which it uses.
#[path = "validate/tasks.rs"]
mod tasks_rules;
#[path = "validate/skills.rs"]
mod skills_rules;
#[path = "validate/constraints.rs"]
mod constraint_rules;

fn envelope(v: &Value, o: &Options) -> Report {
    let doc = mcp_spec_types::tree::Doc::from_value(v);
    let mut cx = validate::Cx::new(*o);
    jsonrpc::envelope(doc.root(), &mut cx);
    cx.finish()
}

fn read_result(contents: Value) -> Value {
    json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": contents})
}

fn sampling(messages: Value) -> Value {
    json!({"messages": messages, "maxTokens": 100})
}

fn apps_on() -> Options {
    Options { apps: true, ..Options::default() }
}

fn meta26() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
}

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 16];

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

fn tool_with_icon(src: &str, mime: Option<&str>) -> Value {
    let mut icon = json!({"src": src});
    if let Some(m) = mime {
        icon["mimeType"] = json!(m);
    }
    json!({"name": "t", "inputSchema": {"type": "object"}, "icons": [icon]})
}

/// A typed value whose `Serialize` fails on one string: `validate` on a typed value reports it.
struct Picky(Value);

impl serde::Serialize for Picky {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 == "unserializable" {
            return Err(serde::ser::Error::custom("this value does not serialize"));
        }
        self.0.serialize(s)
    }
}

impl validate::Validate for Picky {
    fn validate_json<'v>(_: mcp_spec_types::tree::Node<'v>, _: &mut validate::Cx<'v>) {}
}

fn picky(v: &Value, options: &Options) -> Report {
    validate::validate(&Picky(v.clone()), options)
}

fn cases() -> Vec<Case> {
    let e = Severity::Error;
    let w = Severity::Warning;
    vec![
        Case { rule: "type", check: check!(v6::TextContent), valid: json!({"type": "text", "text": "a"}), invalid: json!({"type": "text", "text": 5}), pointer: "/text", severity: e },
        Case { rule: "type", check: check!(v6::CancelledNotificationParams), valid: json!({"requestId": 3}), invalid: json!({"requestId": 3.5}), pointer: "/requestId", severity: e },
        Case { rule: "type", check: check!(v6::ListToolsResult), valid: json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": []}), invalid: json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": {}}), pointer: "/tools", severity: e },
        Case { rule: "required", check: check!(v6::Tool), valid: json!({"name": "t", "inputSchema": {"type": "object"}}), invalid: json!({"name": "t"}), pointer: "", severity: e },
        // 2026-07-28 requires protocol version and client capabilities in every request's `_meta`.
        Case {
            rule: "required",
            check: check!(v6::CallToolRequest),
            valid: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "_meta": meta26()}}),
            invalid: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}),
            pointer: "/params/_meta",
            severity: e,
        },
        Case { rule: "literal", check: check!(v6::JSONRPCNotification), valid: json!({"jsonrpc": "2.0", "method": "x"}), invalid: json!({"jsonrpc": "1.0", "method": "x"}), pointer: "/jsonrpc", severity: e },
        Case { rule: "enum", check: check!(v6::LoggingMessageNotificationParams), valid: json!({"level": "debug", "data": 1}), invalid: json!({"level": "verbose", "data": 1}), pointer: "/level", severity: e },
        Case { rule: "minimum", check: check!(v6::ModelPreferences), valid: json!({"costPriority": 0}), invalid: json!({"costPriority": -0.5}), pointer: "/costPriority", severity: e },
        Case { rule: "maximum", check: check!(v6::ModelPreferences), valid: json!({"speedPriority": 1}), invalid: json!({"speedPriority": 1.5}), pointer: "/speedPriority", severity: e },
        Case {
            rule: "max-items",
            check: check!(v6::CompleteResult),
            valid: json!({"resultType": "complete", "completion": {"values": ["a"]}}),
            invalid: json!({"resultType": "complete", "completion": {"values": vec!["a"; 101]}}),
            pointer: "/completion/values",
            severity: e,
        },
        Case { rule: "format.uri", check: check!(v6::ResourceLink), valid: json!({"type": "resource_link", "uri": "file:///a", "name": "a"}), invalid: json!({"type": "resource_link", "uri": "not a uri", "name": "a"}), pointer: "/uri", severity: e },
        Case {
            rule: "format.uri-template",
            check: check!(v6::ResourceTemplate),
            valid: json!({"uriTemplate": "file:///{path}", "name": "a"}),
            invalid: json!({"uriTemplate": "file:///{path", "name": "a"}),
            pointer: "/uriTemplate",
            severity: e,
        },
        Case { rule: "format.byte", check: check!(v6::BlobResourceContents), valid: json!({"uri": "a:b", "blob": "AAEC"}), invalid: json!({"uri": "a:b", "blob": "not base64!"}), pointer: "/blob", severity: e },
        Case {
            rule: "unknown-variant",
            check: check!(v1::CallToolResult),
            valid: json!({"content": [{"type": "text", "text": "a"}]}),
            invalid: json!({"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}),
            pointer: "/content/0/type",
            severity: e,
        },
        Case {
            rule: "unknown-variant",
            check: check!(v6::ClientRequest),
            valid: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta26()}}),
            invalid: json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
            pointer: "/method",
            severity: e,
        },
        Case { rule: "no-variant", check: check!(v6::JSONRPCMessage), valid: json!({"jsonrpc": "2.0", "method": "x"}), invalid: json!({"jsonrpc": "2.0", "id": 1}), pointer: "", severity: e },
        Case { rule: "never", check: as_never(), valid: json!({"resourceUri": "ui://a/b"}), invalid: json!({"resourceUri": "ui://a/b", "csp": {}}), pointer: "/csp", severity: e },
        Case {
            rule: "meta.key-name",
            check: check!(v6::TextContent),
            valid: json!({"type": "text", "text": "a", "_meta": {"com.example/trace-id": 1}}),
            invalid: json!({"type": "text", "text": "a", "_meta": {"com.example/-bad": 1}}),
            pointer: "/_meta/com.example~1-bad",
            severity: e,
        },
        Case {
            rule: "meta.reserved-key",
            check: check!(v6::CallToolRequest),
            valid: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "_meta": meta26()}}),
            invalid: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/madeUp": 1}}}),
            pointer: "/params/_meta/io.modelcontextprotocol~1madeUp",
            severity: w,
        },
        // 2025-11-25 defines `related-task` in prose (RelatedTaskMetadata), for any `_meta`.
        Case {
            rule: "meta.reserved-key",
            check: check!(v4::ElicitRequest),
            valid: json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {"mode": "form", "message": "Which?",
                "requestedSchema": {"type": "object", "properties": {}}, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}}}),
            invalid: json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {"mode": "form", "message": "Which?",
                "requestedSchema": {"type": "object", "properties": {}}, "_meta": {"io.modelcontextprotocol/related-tasks": {"taskId": "t1"}}}}),
            pointer: "/params/_meta/io.modelcontextprotocol~1related-tasks",
            severity: w,
        },
        // The draft overview's reading (a reserved label before the last one), and labels in any case.
        Case {
            rule: "meta.reserved-key",
            check: check!(v6::TextContent),
            valid: json!({"type": "text", "text": "a", "_meta": {"com.example.mcp/x": 1}}),
            invalid: json!({"type": "text", "text": "a", "_meta": {"mcp.dev/x": 1}}),
            pointer: "/_meta/mcp.dev~1x",
            severity: w,
        },
        Case {
            rule: "meta.reserved-key",
            check: check!(v6::TextContent),
            valid: json!({"type": "text", "text": "a", "_meta": {"io.example/x": 1}}),
            invalid: json!({"type": "text", "text": "a", "_meta": {"IO.ModelContextProtocol/x": 1}}),
            pointer: "/_meta/IO.ModelContextProtocol~1x",
            severity: w,
        },
        Case { rule: "jsonrpc.version", check: envelope, valid: json!({"jsonrpc": "2.0", "method": "x"}), invalid: json!({"jsonrpc": 2, "method": "x"}), pointer: "/jsonrpc", severity: e },
        Case { rule: "jsonrpc.id", check: envelope, valid: json!({"jsonrpc": "2.0", "id": "a", "method": "x"}), invalid: json!({"jsonrpc": "2.0", "id": null, "method": "x"}), pointer: "/id", severity: e },
        // Responses follow the rule their requests do: RequestId holds an i64.
        Case {
            rule: "jsonrpc.id",
            check: envelope,
            valid: json!({"jsonrpc": "2.0", "id": 9_223_372_036_854_775_807_i64, "result": {}}),
            invalid: json!({"jsonrpc": "2.0", "id": 9_223_372_036_854_775_808_u64, "result": {}}),
            pointer: "/id",
            severity: e,
        },
        Case {
            rule: "jsonrpc.id",
            check: envelope,
            valid: json!({"jsonrpc": "2.0", "id": -9_223_372_036_854_775_808_i64, "method": "x"}),
            invalid: json!({"jsonrpc": "2.0", "id": u64::MAX, "method": "x"}),
            pointer: "/id",
            severity: e,
        },
        Case { rule: "jsonrpc.response", check: envelope, valid: json!({"jsonrpc": "2.0", "id": 1, "result": {}}), invalid: json!({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "m"}}), pointer: "", severity: e },
        Case {
            rule: "jsonrpc.response",
            check: check!(v6::JSONRPCResultResponse),
            valid: json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}}),
            invalid: json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}, "error": {"code": 1, "message": "m"}}),
            pointer: "",
            severity: e,
        },
        Case { rule: "serialize", check: picky, valid: json!("fine"), invalid: json!("unserializable"), pointer: "", severity: e },
        Case { rule: "jsonrpc.message", check: envelope, valid: json!({"jsonrpc": "2.0", "method": "x"}), invalid: json!({"jsonrpc": "2.0"}), pointer: "", severity: e },
        Case { rule: "jsonrpc.error", check: envelope, valid: json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "m"}}), invalid: json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 1.5, "message": "m"}}), pointer: "/error/code", severity: e },
        Case { rule: "icon.scheme", check: check!(v6::Tool), valid: tool_with_icon("https://example.com/i.png", None), invalid: tool_with_icon("http://example.com/i.png", None), pointer: "/icons/0/src", severity: e },
        Case { rule: "icon.scheme", check: check!(v6::Tool), valid: tool_with_icon("https://example.com/i.png", None), invalid: tool_with_icon("javascript:alert(1)", None), pointer: "/icons/0/src", severity: e },
        Case { rule: "icon.mime-type", check: check!(v6::Tool), valid: tool_with_icon("https://example.com/i", Some("image/jpg")), invalid: tool_with_icon("https://example.com/i", Some("image/gif")), pointer: "/icons/0/mimeType", severity: e },
        Case { rule: "icon.mime-type", check: check!(v6::Tool), valid: tool_with_icon("https://example.com/i.svg", None), invalid: tool_with_icon("https://example.com/icon", None), pointer: "/icons/0/src", severity: w },
        Case { rule: "icon.data", check: check!(v6::Tool), valid: tool_with_icon(&data_uri("image/png", PNG), None), invalid: tool_with_icon("data:image/png;base64,@@@", None), pointer: "/icons/0/src", severity: e },
        Case {
            rule: "icon.size",
            check: check!(v6::Tool),
            valid: tool_with_icon(&data_uri("image/png", PNG), None),
            invalid: tool_with_icon(&data_uri("image/png", &[PNG, &vec![0u8; 600 * 1024]].concat()), None),
            pointer: "/icons/0/src",
            severity: e,
        },
        Case { rule: "icon.content", check: check!(v6::Tool), valid: tool_with_icon(&data_uri("image/jpeg", JPEG), None), invalid: tool_with_icon(&data_uri("image/png", JPEG), None), pointer: "/icons/0/src", severity: e },
        Case {
            rule: "icon.content",
            check: check!(v6::Tool),
            valid: tool_with_icon("data:image/svg+xml,%3Csvg%20xmlns%3D%22http://www.w3.org/2000/svg%22/%3E", None),
            invalid: tool_with_icon(&data_uri("image/svg+xml", b"plain text"), None),
            pointer: "/icons/0/src",
            severity: e,
        },
        // The `data:` URI's own type, `mimeType` and the bytes must all agree (issue 16, item 7).
        Case { rule: "icon.content", check: check!(v6::Tool), valid: tool_with_icon(&data_uri("image/png", PNG), Some("image/png")), invalid: tool_with_icon(&data_uri("image/jpeg", PNG), Some("image/png")), pointer: "/icons/0/src", severity: e },
        Case { rule: "icon.content", check: check!(v6::Tool), valid: tool_with_icon(&data_uri("image/jpeg", JPEG), Some("image/jpg")), invalid: tool_with_icon(&data_uri("image/png", JPEG), Some("image/jpeg")), pointer: "/icons/0/src", severity: e },
        Case {
            rule: "icon.sizes",
            check: check!(v6::Tool),
            valid: json!({"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "https://e/i.png", "sizes": ["48x48", "any"]}]}),
            invalid: json!({"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "https://e/i.png", "sizes": ["48x48", "48"]}]}),
            pointer: "/icons/0/sizes/1",
            severity: w,
        },
        Case {
            rule: "icon.svg-active",
            check: check!(v6::Tool),
            valid: tool_with_icon(&data_uri("image/svg+xml", br#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>"#), None),
            invalid: tool_with_icon(&data_uri("image/svg+xml", br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#), None),
            pointer: "/icons/0/src",
            severity: e,
        },
        Case {
            rule: "icon.svg-markup",
            check: check!(v6::Tool),
            valid: tool_with_icon(&data_uri("image/svg+xml", br#"<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:#fff" width="1" height="1"/></svg>"#), None),
            invalid: tool_with_icon(&data_uri("image/svg+xml", br#"<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"#), None),
            pointer: "/icons/0/src",
            severity: e,
        },
        Case {
            rule: "link.scheme",
            check: check!(v6::Implementation),
            valid: json!({"name": "s", "version": "1", "websiteUrl": "https://example.com/docs"}),
            invalid: json!({"name": "s", "version": "1", "websiteUrl": "javascript:alert(1)"}),
            pointer: "/websiteUrl",
            severity: e,
        },
        Case {
            rule: "resources.same-uri",
            check: check!(rm::ReadResourceResult),
            valid: read_result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "text/html", "text": "2"}])),
            invalid: read_result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///b", "name": "a", "mimeType": "text/html", "text": "2"}])),
            pointer: "/contents/1/uri",
            severity: e,
        },
        Case {
            rule: "resources.distinct-mime-types",
            check: check!(rm::ReadResourceResult),
            valid: read_result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "text/html", "text": "2"}])),
            invalid: read_result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "2"}])),
            pointer: "/contents/1/mimeType",
            severity: w,
        },
        Case {
            rule: "resources.consistent-metadata",
            check: check!(rm::ReadResourceResult),
            valid: read_result(json!([{"uri": "file:///a", "name": "a", "title": "A", "text": "1"}, {"uri": "file:///a", "name": "a", "title": "A", "mimeType": "text/html", "text": "2"}])),
            invalid: read_result(json!([{"uri": "file:///a", "name": "a", "title": "A", "text": "1"}, {"uri": "file:///a", "name": "a", "title": "B", "mimeType": "text/html", "text": "2"}])),
            pointer: "/contents/1/title",
            severity: w,
        },
        // MIME types are case-insensitive: `Text/Plain` repeats `text/plain`.
        Case {
            rule: "resources.distinct-mime-types",
            check: check!(rm::ReadResourceResult),
            valid: read_result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "text/plain; charset=utf-16", "text": "2"}])),
            invalid: read_result(json!([{"uri": "file:///a", "name": "a", "mimeType": "text/plain", "text": "1"}, {"uri": "file:///a", "name": "a", "mimeType": "Text/Plain", "text": "2"}])),
            pointer: "/contents/1/mimeType",
            severity: w,
        },
        // `resources/metadata` lists the formats of one resource, as a read's contents do.
        Case {
            rule: "resources.same-uri",
            check: check!(rm::ReadResourceMetadataResult),
            valid: json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "application/pdf"}, {"uri": "file:///a", "name": "a", "mimeType": "text/plain"}]}),
            invalid: json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "application/pdf"}, {"uri": "file:///b", "name": "a", "mimeType": "text/plain"}]}),
            pointer: "/metadata/1/uri",
            severity: e,
        },
        Case {
            rule: "resources.distinct-mime-types",
            check: check!(rm::ReadResourceMetadataResult),
            valid: json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "application/pdf"}, {"uri": "file:///a", "name": "a", "mimeType": "text/plain"}]}),
            invalid: json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "text/plain"}, {"uri": "file:///a", "name": "a", "mimeType": "TEXT/PLAIN"}]}),
            pointer: "/metadata/1/mimeType",
            severity: w,
        },
        Case {
            rule: "resources.consistent-metadata",
            check: check!(rm::ReadResourceMetadataResult),
            valid: json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "application/pdf"}, {"uri": "file:///a", "name": "a", "mimeType": "text/plain"}]}),
            invalid: json!({"resultType": "complete", "metadata": [{"uri": "file:///a", "name": "a", "mimeType": "application/pdf"}, {"uri": "file:///a", "name": "b", "mimeType": "text/plain"}]}),
            pointer: "/metadata/1/name",
            severity: w,
        },
        Case {
            rule: "resources.contents-name",
            check: check!(rm::TextResourceContents),
            valid: json!({"uri": "file:///a", "name": "a", "text": "1"}),
            invalid: json!({"uri": "file:///a", "text": "1"}),
            pointer: "",
            severity: w,
        },
        Case {
            rule: "resources.contents-name",
            check: check!(rm::ReadResourceResult),
            valid: read_result(json!([{"uri": "file:///a", "name": "a", "blob": "AAAA"}])),
            invalid: read_result(json!([{"uri": "file:///a", "blob": "AAAA"}])),
            pointer: "/contents/0",
            severity: w,
        },
        // `size` counts the text's UTF-8 bytes (`é` is two) and the blob's decoded bytes.
        Case {
            rule: "resources.size",
            check: check!(rm::TextResourceContents),
            valid: json!({"uri": "file:///a", "name": "a", "size": 6, "text": "h\u{e9}llo"}),
            invalid: json!({"uri": "file:///a", "name": "a", "size": 5, "text": "h\u{e9}llo"}),
            pointer: "/size",
            severity: w,
        },
        Case {
            rule: "resources.size",
            check: check!(rm::ReadResourceResult),
            valid: read_result(json!([{"uri": "file:///a", "name": "a", "size": 4, "blob": "AAECAw=="}])),
            invalid: read_result(json!([{"uri": "file:///a", "name": "a", "size": 102400, "blob": "AAECAw=="}])),
            pointer: "/contents/0/size",
            severity: w,
        },
        Case {
            rule: "resources.embedded-annotations",
            check: check!(rm::EmbeddedResource),
            valid: json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t", "annotations": {"priority": 0.5}}}),
            invalid: json!({"type": "resource", "resource": {"uri": "file:///a", "name": "a", "text": "t"}, "annotations": {"priority": 0.5}}),
            pointer: "/annotations",
            severity: w,
        },
        Case {
            rule: "input-required.request-or-state",
            check: check!(v6::InputRequiredResult),
            valid: json!({"resultType": "input_required", "requestState": "opaque"}),
            invalid: json!({"resultType": "input_required"}),
            pointer: "",
            severity: e,
        },
        // Through the result union, as a client reads it; the draft has the same rule.
        Case {
            rule: "input-required.request-or-state",
            check: check!(draft::ServerResult),
            valid: json!({"resultType": "input_required", "requestState": "opaque"}),
            invalid: json!({"resultType": "input_required"}),
            pointer: "",
            severity: e,
        },
        Case {
            rule: "capabilities.extension-key",
            check: check!(v6::ClientCapabilities),
            valid: json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}),
            invalid: json!({"extensions": {"ui": {}}}),
            pointer: "/extensions/ui",
            severity: e,
        },
        Case {
            rule: "capabilities.extension-key",
            check: check!(draft::ServerCapabilities),
            valid: json!({"extensions": {"com.example/tasks": {}}}),
            invalid: json!({"extensions": {"com.example-/tasks": {}}}),
            pointer: "/extensions/com.example-~1tasks",
            severity: e,
        },
        Case {
            rule: "sampling.tool-use-id",
            check: check!(v6::CreateMessageRequestParams),
            valid: sampling(json!([
                {"role": "assistant", "content": {"type": "tool_use", "id": "c1", "name": "w", "input": {}}},
                {"role": "user", "content": [{"type": "text", "text": "here"}, {"type": "tool_result", "toolUseId": "c1", "content": []}]}
            ])),
            invalid: sampling(json!([
                {"role": "assistant", "content": {"type": "tool_use", "id": "c1", "name": "w", "input": {}}},
                {"role": "user", "content": [{"type": "text", "text": "here"}, {"type": "tool_result", "toolUseId": "c2", "content": []}]}
            ])),
            pointer: "/messages/1/content/1/toolUseId",
            severity: e,
        },
        // A result in the same message as its tool use does not answer it; `content` may be a single block.
        Case {
            rule: "sampling.tool-use-id",
            check: check!(draft::CreateMessageRequestParams),
            valid: sampling(json!([
                {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "w", "input": {}}]},
                {"role": "user", "content": {"type": "tool_result", "toolUseId": "c1", "content": []}}
            ])),
            invalid: sampling(json!([
                {"role": "user", "content": {"type": "tool_result", "toolUseId": "c1", "content": []}},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "w", "input": {}}]}
            ])),
            pointer: "/messages/0/content/toolUseId",
            severity: e,
        },
        Case {
            rule: "apps.ui-uri",
            check: check!(v4::Tool),
            valid: json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/view.html"}}}),
            invalid: json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "https://w/view.html"}}}),
            pointer: "/_meta/ui/resourceUri",
            severity: e,
        },
        Case {
            rule: "apps.ui-uri",
            check: check!(v4::TextResourceContents),
            valid: json!({"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "text": "<html></html>"}),
            invalid: json!({"uri": "https://w/view", "mimeType": "text/html;profile=mcp-app", "text": "<html></html>"}),
            pointer: "/uri",
            severity: e,
        },
        Case {
            rule: "apps.mime-type",
            check: check!(v4::Resource),
            valid: json!({"uri": "ui://w/view", "name": "v", "mimeType": "text/html;profile=mcp-app"}),
            invalid: json!({"uri": "ui://w/view", "name": "v", "mimeType": "text/html"}),
            pointer: "/mimeType",
            severity: e,
        },
        Case {
            rule: "apps.content",
            check: check!(v4::ReadResourceResult),
            valid: json!({"contents": [{"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "blob": "PGh0bWw+"}]}),
            invalid: json!({"contents": [{"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "text": "<html>", "blob": "PGh0bWw+"}]}),
            pointer: "/contents/0",
            severity: e,
        },
        Case {
            rule: "apps.csp-origin",
            check: check!(v4::TextResourceContents),
            valid: json!({"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "text": "x", "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com", "wss://rt.example.com:8443"], "resourceDomains": ["https://*.cdn.example"]}}}}),
            invalid: json!({"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "text": "x", "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com/v1"]}}}}),
            pointer: "/_meta/ui/csp/connectDomains/0",
            severity: e,
        },
        Case {
            rule: "apps.csp-limit",
            check: check!(v4::TextResourceContents),
            valid: json!({"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "text": "x", "_meta": {"ui": {"csp": {"resourceDomains": (0..64).map(|i| format!("https://c{i}.example")).collect::<Vec<_>>()}}}}),
            invalid: json!({"uri": "ui://w/view", "mimeType": "text/html;profile=mcp-app", "text": "x", "_meta": {"ui": {"csp": {"resourceDomains": (0..65).map(|i| format!("https://c{i}.example")).collect::<Vec<_>>()}}}}),
            pointer: "/_meta/ui/csp/resourceDomains",
            severity: w,
        },
        Case {
            rule: "enum",
            check: check!(v4::Tool),
            valid: json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["model", "app"]}}}),
            invalid: json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["user"]}}}),
            pointer: "/_meta/ui/visibility/0",
            severity: e,
        },
        Case {
            rule: "apps.csp-origin",
            check: check!(ext::McpUiSandboxResourceReadyNotification),
            valid: json!({"method": "ui/notifications/sandbox-resource-ready", "params": {"html": "<html></html>", "csp": {"resourceDomains": ["https://cdn.example"]}}}),
            invalid: json!({"method": "ui/notifications/sandbox-resource-ready", "params": {"html": "<html></html>", "csp": {"resourceDomains": ["https://cdn.example; connect-src *"]}}}),
            pointer: "/params/csp/resourceDomains/0",
            severity: e,
        },
        Case {
            rule: "apps.client-capability",
            check: check!(v4::ClientCapabilities),
            valid: json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}),
            invalid: json!({"extensions": {"io.modelcontextprotocol/ui": {}}}),
            pointer: "/extensions/io.modelcontextprotocol~1ui",
            severity: e,
        },
        Case {
            rule: "apps.client-capability",
            check: check!(v6::ClientCapabilities),
            valid: json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}),
            invalid: json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}}),
            pointer: "/extensions/io.modelcontextprotocol~1ui/mimeTypes",
            severity: w,
        },
        Case {
            rule: "apps.deprecated-key",
            check: check!(v4::Tool),
            valid: json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/v"}}}),
            invalid: json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui/resourceUri": "ui://w/v"}}),
            pointer: "/_meta/ui~1resourceUri",
            severity: w,
        },
    ]
}

fn as_never() -> Check {
    |v, o| validate::validate_json::<mcp_spec_types::apps::McpUiToolMeta>(v, o)
}

fn run_case(c: &Case) -> Result<(), String> {
    // MCP Apps rules run with the option on, like `mcp-schema check --ext apps`.
    let options = if c.rule.starts_with("apps.") || c.pointer.starts_with("/_meta/ui") { apps_on() } else { Options::default() };
    let ok = (c.check)(&c.valid, &options);
    if let Some(v) = ok.violations.iter().find(|v| v.rule == c.rule) {
        return Err(format!("{}: valid input was rejected: {v}", c.rule));
    }
    let bad = (c.check)(&c.invalid, &options);
    match bad.violations.iter().find(|v| v.rule == c.rule) {
        Some(v) if v.pointer == c.pointer && v.severity == c.severity => Ok(()),
        Some(v) => Err(format!("{}: reported at {:?} as {}, expected {:?} as {}", c.rule, v.pointer, v.severity, c.pointer, c.severity)),
        None => Err(format!("{}: invalid input was accepted; got {:?}", c.rule, bad.violations)),
    }
}

#[test]
fn every_rule_accepts_and_rejects() {
    let mut tally = Tally::default();
    let mut cases = cases();
    cases.extend(tasks_rules::cases());
    cases.extend(skills_rules::cases());
    cases.extend(constraint_rules::cases());
    for c in &cases {
        tally.check(run_case(c));
    }
    for rule in RULES.iter().map(|r| r.id) {
        tally.check(if cases.iter().any(|c| c.rule == rule) { Ok(()) } else { Err(format!("rule `{rule}` has no test case")) });
    }
    tally.finish("validation rules");
}

#[test]
fn apps_rules_only_with_the_option() {
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "https://x"}}});
    assert!(validate::validate_json::<v4::Tool>(&tool, &Options::default()).violations.is_empty());
    assert!(!validate::validate_json::<v4::Tool>(&tool, &apps_on()).is_valid());
}

#[test]
fn all_violations_not_only_the_first() {
    let r = validate::validate_json::<v6::Tool>(&json!({"title": 1, "icons": [{"src": "ftp://x"}, {"src": "file:///y"}]}), &Options::default());
    let rules: Vec<_> = r.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect();
    assert_eq!(rules, vec![("required", ""), ("required", ""), ("type", "/title"), ("icon.scheme", "/icons/0/src"), ("icon.scheme", "/icons/1/src")]);
}

/// `Report::refuses_typed_read` follows the reader: a missing key or a wrong kind it refuses, a
/// prose rule (an icon's scheme) it does not, and each answer agrees with the typed read itself.
#[test]
fn a_report_says_whether_the_typed_reader_refuses_the_value() {
    let cases = [
        (json!({"inputSchema": {"type": "object"}}), true),
        (json!({"name": 1, "inputSchema": {"type": "object"}}), true),
        (json!({"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "ftp://x"}]}), false),
        (json!({"name": "t", "inputSchema": {"type": "object"}}), false),
    ];
    for (v, refused) in cases {
        let r = validate::validate_json::<v6::Tool>(&v, &Options::default());
        assert_eq!(r.refuses_typed_read(), refused, "{v}");
        assert_eq!(serde_json::from_value::<v6::Tool>(v.clone()).is_err(), refused, "{v}");
    }
}

#[test]
fn strict_mode_makes_warnings_errors() {
    let v = json!({"type": "text", "text": "a", "_meta": {"dev.mcp/unknown": true}});
    let lax = validate::validate_json::<v6::TextContent>(&v, &Options::default());
    assert!(lax.is_valid() && lax.warnings().count() == 1);
    let strict = validate::validate_json::<v6::TextContent>(&v, &Options { strict: true, ..Options::default() });
    assert!(!strict.is_valid());
}

#[test]
fn typed_values_validate_too() {
    let t: v1::CallToolResult = serde_json::from_str(r#"{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}"#).unwrap();
    let r = validate::validate(&t, &Options::default());
    assert_eq!(r.violations[0].message, "`resource_link` is not a `type` of CallToolResultContentItem in 2024-11-05");
}

#[test]
fn large_lists_report_every_element() {
    // One pass over the value: every bad element of a long list is reported once.
    let tools: Vec<Value> = (0..20_000).map(|i| json!({"name": i, "inputSchema": {"type": "object"}})).collect();
    let v = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": tools});
    let r = validate::validate_json::<v6::ListToolsResult>(&v, &Options::default());
    assert_eq!(r.violations.len(), 20_000);
}

#[test]
fn icon_picking() {
    let icons: Vec<v6::Icon> = serde_json::from_value(json!([
        {"src": "https://e/16.png", "sizes": ["16x16"]},
        {"src": "https://e/dark64.png", "sizes": ["64x64"], "theme": "dark"},
        {"src": "https://e/light64.png", "sizes": ["64x64"], "theme": "light"},
        {"src": "http://e/any.svg", "sizes": ["any"]},
        {"src": "https://e/256.png", "sizes": ["256x256"]},
    ]))
    .unwrap();
    assert_eq!(validate::icons::pick(&icons, 48, Some("dark")).unwrap().src, "https://e/dark64.png");
    assert_eq!(validate::icons::pick(&icons, 48, Some("light")).unwrap().src, "https://e/light64.png");
    assert_eq!(validate::icons::pick(&icons, 300, None).unwrap().src, "https://e/256.png");
    assert_eq!(validate::icons::pick(&icons[..1], 48, None).unwrap().src, "https://e/16.png");
    assert!(validate::icons::pick(&icons[3..4], 48, None).is_none(), "http: icons are never picked");
}

#[test]
fn apps_helpers() {
    use mcp_spec_types::validate::apps;
    let tools: Vec<v4::Tool> = serde_json::from_value(json!([
        {"name": "both", "inputSchema": {"type": "object"}},
        {"name": "app-only", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}},
        {"name": "model", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["model"]}}},
    ]))
    .unwrap();
    let names: Vec<_> = apps::model_visible_tools(&tools).iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["both", "model"]);
    assert_eq!(apps::content_security_policy(None).policy, apps::DEFAULT_CSP);
    let csp: mcp_spec_types::apps::McpUiResourceCsp = serde_json::from_value(json!({"connectDomains": ["https://api.x"], "frameDomains": ["https://v.x"]})).unwrap();
    let policy = apps::content_security_policy(Some(&csp)).policy;
    assert!(policy.contains("connect-src 'self' https://api.x"), "{policy}");
    assert!(policy.contains("frame-src https://v.x") && policy.contains("base-uri 'none'") && policy.contains("object-src 'none'"), "{policy}");
}

#[test]
fn every_spec_example_validates_clean() {
    let mut tally = Tally::default();
    for (dir, f) in [("2026-07-28", v6::validate_json_as as fn(&str, &Value, &Options) -> Option<Report>), ("draft", mcp_spec_types::draft::validate_json_as)] {
        for (type_name, path) in example_files(&upstream().join("mcp-spec/schema").join(dir).join("examples")) {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let label = format!("{dir}/{type_name}/{}", path.file_name().unwrap().to_string_lossy());
            let report = f(&type_name, &v, &Options { apps: true, ..Options::default() }).unwrap();
            let known = KNOWN_EXAMPLE_VIOLATIONS.iter().any(|(t, rule)| *t == type_name && report.violations.iter().all(|v| v.rule == *rule));
            tally.check(if report.violations.is_empty() || known {
                Ok(())
            } else {
                Err(format!("{label}: {}", report.violations.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("; ")))
            });
        }
    }
    tally.finish("spec examples validate");
}

/// Spec examples that break a rule on purpose or by a known mistake: (type, the only rule they break).
const KNOWN_EXAMPLE_VIOLATIONS: &[(&str, &str)] = &[
    // Lacks `ttlMs` and `cacheScope` (see tests/spec_examples.rs).
    ("ReadResourceResultResponse", "required"),
];

/// A form field of `type: "number"` takes decimals: the elicitation answer reads, writes back
/// as it came and validates, in every version with elicitation (a `number_field` in codegen.toml).
#[test]
fn decimal_form_answers_read_write_and_validate() {
    fn check<T: serde::de::DeserializeOwned + serde::Serialize + validate::Validate>(v: &Value) -> Result<(), String> {
        let name = std::any::type_name::<T>();
        let read: T = serde_json::from_value(v.clone()).map_err(|e| format!("{name}: {e}: {v}"))?;
        let back = serde_json::to_value(&read).unwrap();
        if back != *v {
            return Err(format!("{name}: wrote {back} for {v}"));
        }
        let report = validate::validate_json::<T>(v, &Options::default());
        if !report.is_valid() {
            return Err(format!("{name}: {:?}", report.violations));
        }
        Ok(())
    }
    let mut tally = Tally::default();
    for content in [json!({"score": 95.5}), json!({"score": -0.25, "name": "Ada", "ok": true}), json!({"n": 1e300}), json!({"n": 36})] {
        let v = json!({"action": "accept", "content": content});
        tally.check(check::<mcp_spec_types::v2025_06_18::ElicitResult>(&v));
        tally.check(check::<v4::ElicitResult>(&v));
        tally.check(check::<v4::ClientResult>(&v));
        let mut v6 = v.clone();
        v6["resultType"] = json!("complete");
        tally.check(check::<v6::ElicitResult>(&v6));
        tally.check(check::<mcp_spec_types::draft::ElicitResult>(&v6));
    }
    // Integers stay integers: 36 is not rewritten as 36.0.
    let read: v4::ElicitResult = serde_json::from_str(r#"{"action":"accept","content":{"n":36,"x":2.5}}"#).unwrap();
    assert_eq!(serde_json::to_string(&read).unwrap(), r#"{"action":"accept","content":{"n":36,"x":2.5}}"#);
    tally.finish("decimal form answers");
}

/// Blobs long enough for the SIMD alphabet check: every ending the padding rules care about, and a bad
/// byte at every position, give the decoder's verdict, and the error names the first bad byte.
#[test]
fn long_base64_keeps_the_padding_rules_and_names_the_bad_byte() {
    use base64::Engine;
    use mcp_spec_types::validate::formats::base64 as check;
    let decodes = |s: &str| base64::engine::general_purpose::STANDARD.decode(s).is_ok();
    let body = "QUJD".repeat(300);
    let (mut passed, mut failed) = (0, 0);
    let mut tally = |ok: bool, what: String| {
        if ok {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("disagrees: {what}");
        }
    };
    for end in ["", "AA==", "AB==", "AAE=", "AAF=", "A===", "AA=A", "AAA", "A", "AA-_", "AA\nA", "AAA\r", "=AA=", "AA\u{e9}"] {
        let s = format!("{body}{end}");
        tally(check(&s).is_ok() == decodes(&s), format!("ending {end:?}"));
    }
    for i in (0..body.len()).step_by(7) {
        for bad in [b'-', b'_', b' ', b'\n', b'.', 0x7f] {
            let mut b = body.clone().into_bytes();
            b[i] = bad;
            let s = String::from_utf8(b).unwrap();
            let named = check(&s).err().is_some_and(|e| e.contains(&format!("byte {i} is")));
            tally(named && !decodes(&s), format!("byte {i} = {bad:#x}"));
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// `related-task` is 2025-11-25's: the same key in a 2025-06-18 message is still reported, and says who defines it.
#[test]
fn related_task_is_defined_only_where_its_version_defines_it() {
    let content = json!({"type": "text", "text": "a", "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}});
    let newer = validate::validate_json::<v4::TextContent>(&content, &Options::default());
    assert!(newer.violations.iter().all(|f| f.rule != "meta.reserved-key"), "{:?}", newer.violations);
    let older = validate::validate_json::<v3::TextContent>(&content, &Options::default());
    let found: Vec<_> = older.violations.iter().filter(|f| f.rule == "meta.reserved-key").collect();
    assert_eq!(found.len(), 1, "{:?}", older.violations);
    assert!(found[0].message.contains("2025-11-25 define it (RelatedTaskMetadata)"), "{}", found[0].message);
}
