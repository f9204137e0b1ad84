//! What the generated types promise beyond the spec examples: lossless round
//! trips, forward compatibility, literal checks, dispatch order, and errors
//! instead of panics.

#![allow(deprecated)] // Some 2026-07-28 types used here are deprecated.

use mcp_spec_types::runtime::{NotificationMethod, RequestMethod, SchemaType};
use mcp_spec_types::{apps, v2024_11_05 as v1, v2025_11_25 as v4, v2026_07_28 as v6};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

fn round_trip<T: Serialize + DeserializeOwned>(input: &str) -> (T, Value) {
    let t: T = serde_json::from_str(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let out = serde_json::to_value(&t).unwrap();
    let expected: Value = serde_json::from_str(input).unwrap();
    assert_eq!(out, expected, "round trip of {input}");
    (t, out)
}

#[test]
fn unknown_fields_survive_at_every_level() {
    let (r, _) = round_trip::<v6::CallToolResult>(
        r#"{"resultType":"complete","x-top":1,"content":[{"type":"text","text":"a","x-block":{"deep":[1,2]}}],"_meta":{"com.example/trace":"t"}}"#,
    );
    assert_eq!(r.extra["x-top"], json!(1));
}

#[test]
fn absent_and_null_stay_apart() {
    // `data` is `unknown`: null is a value.
    let (e, _) = round_trip::<v6::Error>(r#"{"code":1,"message":"m","data":null}"#);
    assert_eq!(e.data, Some(Value::Null));
    let (e, _) = round_trip::<v6::Error>(r#"{"code":1,"message":"m"}"#);
    assert_eq!(e.data, None);
    // `title` is an optional string: null is not allowed, but it is kept and written back.
    let (t, _) = round_trip::<v6::Tool>(r#"{"name":"t","title":null,"inputSchema":{"type":"object"}}"#);
    assert_eq!(t.title, None);
    assert_eq!(t.extra["title"], Value::Null);
}

#[test]
fn empty_containers_are_kept() {
    round_trip::<v6::ListToolsResult>(r#"{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[],"_meta":{}}"#);
    round_trip::<v6::ClientCapabilities>(r#"{"roots":{},"experimental":{}}"#);
}

#[test]
fn integers_stay_integers_and_exact() {
    let big = 9_007_199_254_740_993_i64; // 2^53 + 1, not representable as f64
    let (n, out) = round_trip::<v6::ProgressNotification>(&format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{big},"progress":50,"total":100}}}}"#
    ));
    assert_eq!(out["params"]["progress"].to_string(), "50");
    assert!(matches!(n.params.progress_token, v6::ProgressToken::Integer(i) if i == big));
    // Floats where the schema says `number`.
    round_trip::<v6::ModelPreferences>(r#"{"costPriority":0.25,"speedPriority":1,"intelligencePriority":0.5}"#);
}

#[test]
fn literal_fields_are_checked_and_written() {
    let err = serde_json::from_str::<v6::TextContent>(r#"{"type":"image","text":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("`type` must be \"text\""), "{err}");
    let err = serde_json::from_str::<v6::JSONRPCRequest>(r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("`jsonrpc` must be \"2.0\""), "{err}");
    let err = serde_json::from_str::<v6::TextContent>(r#"{"text":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("missing field `type`"), "{err}");
    let block = v6::TextContent { text: "hi".into(), ..Default::default() };
    assert_eq!(serde_json::to_value(&block).unwrap(), json!({"type": "text", "text": "hi"}));
}

#[test]
fn tag_dispatch_does_not_depend_on_key_order() {
    for input in [
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        r#"{"params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"x"},"id":7,"jsonrpc":"2.0","method":"tools/call"}"#,
    ] {
        let (r, _) = round_trip::<v6::ClientRequest>(input);
        assert!(matches!(r, v6::ClientRequest::CallToolRequest(ref c) if c.params.name == "x"));
    }
}

#[test]
fn unknown_methods_and_content_types_are_kept() {
    let (r, _) = round_trip::<v6::ClientRequest>(r#"{"jsonrpc":"2.0","id":1,"method":"vendor/thing","params":{"a":[1]}}"#);
    assert!(matches!(r, v6::ClientRequest::Unknown(ref m) if m["method"] == "vendor/thing"));
    // A 2024-11-05 client reads a newer server's `resource_link` block without losing it.
    let (r, _) = round_trip::<v1::CallToolResult>(
        r#"{"content":[{"type":"text","text":"see"},{"type":"resource_link","uri":"file:///a","name":"a"}]}"#,
    );
    assert!(matches!(&r.content[1], v1::CallToolResultContentItem::Unknown(m) if m["uri"] == "file:///a"));
    assert_eq!(r.content[1].schema_name(), "Unknown");
}

#[test]
fn tag_with_a_default() {
    let (p, _) = round_trip::<v6::ElicitRequestParams>(r#"{"message":"m","requestedSchema":{"type":"object","properties":{}}}"#);
    assert!(matches!(p, v6::ElicitRequestParams::ElicitRequestFormParams(ref f) if !f.mode));
    let (p, _) = round_trip::<v6::ElicitRequestParams>(r#"{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{}}}"#);
    assert!(matches!(p, v6::ElicitRequestParams::ElicitRequestFormParams(ref f) if f.mode));
    let (p, _) = round_trip::<v6::ElicitRequestParams>(r#"{"mode":"url","message":"m","url":"https://x","elicitationId":"e"}"#);
    assert_eq!(p.schema_name(), "ElicitRequestURLParams");
}

#[test]
fn result_type_dispatch() {
    let (r, _) = round_trip::<v6::CallToolResultResponse>(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#);
    assert_eq!(r.result.schema_name(), "InputRequiredResult");
    let (r, _) = round_trip::<v6::CallToolResultResponse>(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#);
    assert_eq!(r.result.schema_name(), "CallToolResult");
}

#[test]
fn structural_unions() {
    let (m, _) = round_trip::<v6::JSONRPCMessage>(r#"{"jsonrpc":"2.0","id":"a","result":{"resultType":"complete"}}"#);
    assert_eq!(m.schema_name(), "JSONRPCResultResponse");
    let (m, _) = round_trip::<v6::JSONRPCMessage>(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    assert_eq!(m.schema_name(), "JSONRPCNotification");
    let (m, _) = round_trip::<v6::JSONRPCMessage>(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}}"#);
    assert_eq!(m.schema_name(), "JSONRPCErrorResponse");
    let (c, _) = round_trip::<v6::ReadResourceResultContentsItem>(r#"{"uri":"u","blob":"AA=="}"#);
    assert_eq!(c.schema_name(), "BlobResourceContents");
    let (c, _) = round_trip::<v6::SamplingMessageContent>(r#"[{"type":"text","text":"a"}]"#);
    assert_eq!(c.schema_name(), "array");
    let (c, _) = round_trip::<v6::SamplingMessageContent>(r#"{"type":"text","text":"a"}"#);
    assert_eq!(c.schema_name(), "TextContent");
    let err = serde_json::from_str::<v6::JSONRPCMessage>(r#"{"jsonrpc":"2.0"}"#).unwrap_err();
    assert!(err.to_string().contains("no variant of JSONRPCMessage matches"), "{err}");
}

#[test]
fn request_ids() {
    round_trip::<v6::RequestId>(r#""abc""#);
    round_trip::<v6::RequestId>("-5");
    assert!(serde_json::from_str::<v6::RequestId>("null").is_err());
    assert!(serde_json::from_str::<v6::RequestId>("1.5").is_err());
    assert!(serde_json::from_str::<v6::RequestId>("18446744073709551615").is_err());
}

#[test]
fn method_registry() {
    assert_eq!(<v6::CallToolRequest as RequestMethod>::METHOD, "tools/call");
    let _: Option<<v6::CallToolRequest as RequestMethod>::Result> = None::<v6::CallToolResultResponseResult>;
    let _: Option<<v1::PingRequest as RequestMethod>::Result> = None::<v1::EmptyResult>;
    assert_eq!(<v4::ProgressNotification as NotificationMethod>::METHOD, "notifications/progress");
    assert!(v6::REQUESTS.contains(&("server/discover", "DiscoverRequest", "DiscoverResult")));
    assert!(!v6::REQUESTS.iter().any(|r| r.0 == "initialize"));
    assert!(v4::REQUESTS.iter().any(|r| r.0 == "initialize"));
    assert!(apps::REQUESTS.contains(&("ui/open-link", "McpUiOpenLinkRequest", "McpUiOpenLinkResult")));
    assert_eq!(apps::OPEN_LINK_METHOD, "ui/open-link");
}

#[test]
fn error_code_constants() {
    assert_eq!(v6::PARSE_ERROR, -32700);
    assert_eq!(v6::UNSUPPORTED_PROTOCOL_VERSION, -32022);
    let err = serde_json::from_str::<v6::ParseError>(r#"{"code":-32600,"message":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("`code` must be -32700"), "{err}");
}

#[test]
fn apps_uses_core_types() {
    let (n, _) = round_trip::<apps::McpUiToolResultNotification>(
        r#"{"method":"ui/notifications/tool-result","params":{"content":[{"type":"text","text":"ok"}],"x":1}}"#,
    );
    let _: &v4::CallToolResult = &n.params;
    let (r, _) = round_trip::<apps::McpUiDownloadFileRequest>(
        r#"{"method":"ui/download-file","params":{"contents":[{"type":"resource_link","uri":"https://e/x","name":"x"},{"type":"resource","resource":{"uri":"ui://a","text":"t"}}]}}"#,
    );
    assert_eq!(r.params.contents[0].schema_name(), "ResourceLink");
    round_trip::<apps::McpUiHostContext>(r##"{"theme":"dark","containerDimensions":{"height":300,"maxWidth":800},"styles":{"variables":{"--color-background-primary":"#fff"}},"x-host":true}"##);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let deep = "[".repeat(100_000);
    assert!(serde_json::from_str::<v6::JSONRPCMessage>(&deep).is_err());
    let deep_obj = format!("{}{}", r#"{"jsonrpc":"2.0","method":"x","params":"#.repeat(2_000), "1");
    assert!(serde_json::from_str::<v6::JSONRPCMessage>(&deep_obj).is_err());
    assert!(serde_json::from_str::<v6::ProgressNotification>(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1e400}}"#).is_err());
    assert!(serde_json::from_slice::<v6::ClientRequest>(b"{\"method\":\"\xff\"}").is_err());
    assert!(serde_json::from_str::<v6::ClientRequest>(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"na"#).is_err());
    let err = serde_json::from_str::<v6::ClientRequest>(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/list"}"#).unwrap_err();
    assert!(err.to_string().contains("duplicate"), "{err}");
}

#[test]
fn stray_id_on_list_roots_example_is_kept_as_unknown() {
    // The spec's ListRootsRequest example carries an `id`, which 2026-07-28's ListRootsRequest does not define.
    let (r, _) = round_trip::<v6::ListRootsRequest>(r#"{"id":"list-roots-example","method":"roots/list"}"#);
    assert_eq!(r.extra["id"], "list-roots-example");
}

#[test]
fn absent_result_type_reads_as_complete_but_validates_as_required() {
    // 2026-07-28: a client MUST treat a result without `resultType` (an older server) as "complete".
    let (r, out) = round_trip::<v6::CallToolResultResponseResult>(r#"{"content":[{"type":"text","text":"a"}]}"#);
    assert_eq!(r.schema_name(), "CallToolResult");
    assert!(out.get("resultType").is_none(), "absent stays absent");
    let report = mcp_spec_types::validate::validate_json::<v6::CallToolResult>(&out, &Default::default());
    assert!(report.violations.iter().any(|v| v.rule == "required" && v.message.contains("resultType")), "{report:?}");
    // InputRequiredResult is still told apart by its value.
    let (r, _) = round_trip::<v6::CallToolResultResponseResult>(r#"{"resultType":"input_required"}"#);
    assert_eq!(r.schema_name(), "InputRequiredResult");
}

#[test]
fn ergonomic_helpers() {
    use mcp_spec_types::runtime::meta::{self, MetaExt};
    use mcp_spec_types::runtime::{read_response, JsonConvert, Response};
    use mcp_spec_types::validate::apps;
    // `latest` is the newest released version.
    let _: mcp_spec_types::latest::Tool = mcp_spec_types::v2026_07_28::Tool::default();
    // Value conversions.
    let tool = v6::Tool::from_json(json!({"name": "t", "inputSchema": {"type": "object"}})).unwrap();
    assert_eq!(tool.to_json().unwrap()["name"], "t");
    // Reading a response given its request.
    let ok = r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[]}}"#;
    let Response::Result { id, result } = read_response::<v6::CallToolRequest>(ok).unwrap() else { panic!() };
    assert_eq!((id, result.schema_name()), (json!(7), "CallToolResult"));
    let err = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}}"#;
    assert!(matches!(read_response::<v6::CallToolRequest>(err).unwrap(), Response::Error { error, .. } if error.code == -32602));
    // Typed `_meta` access on an open map.
    let mut m = mcp_spec_types::runtime::JsonObject::new();
    m.set_as(meta::PROTOCOL_VERSION, &"2025-11-25").unwrap();
    m.insert("com.example/x".into(), json!(1));
    assert_eq!(m.protocol_version(), Some("2025-11-25"));
    // MCP Apps: a tool's UI metadata and a client's capability.
    let t: v4::Tool = serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://a/b", "visibility": ["app"]}}})).unwrap();
    let ui = apps::tool_ui(t.meta.as_ref()).unwrap().unwrap();
    assert_eq!(ui.resource_uri.as_deref(), Some("ui://a/b"));
    let caps: v4::ClientCapabilities = serde_json::from_value(json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}})).unwrap();
    assert!(apps::client_supports_apps(&caps));
    assert!(!apps::client_supports_apps(&v4::ClientCapabilities::default()));
}

#[test]
fn constructors_and_shortcuts() {
    // `new` takes the required fields; literals are implied; 2026-07-28 results say `resultType: complete`.
    let block = v6::TextContent::new("hi");
    assert_eq!(serde_json::to_value(&block).unwrap(), json!({"type": "text", "text": "hi"}));
    let r = v6::CallToolResult::text("done");
    assert_eq!(serde_json::to_value(&r).unwrap(), json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]}));
    let e = v4::CallToolResult::error("no such city");
    assert_eq!(serde_json::to_value(&e).unwrap(), json!({"content": [{"type": "text", "text": "no such city"}], "isError": true}));
    let s = v4::CallToolResult::structured(json!({"temp": 21})).unwrap();
    assert_eq!(s.structured_content.unwrap()["temp"], 21);
    assert!(v4::CallToolResult::structured(json!([1])).is_err(), "2025-11-25 structured content is an object");
    let tool = v6::Tool::with_input_schema("weather", json!({"type": "object"})).unwrap();
    assert!(mcp_spec_types::validate::validate(&tool, &Default::default()).violations.is_empty());
    let server = v6::Implementation::new("s", "1.0").with_icon(v6::Icon::with_type("https://e/i.png", "image/png")).with_website("https://e");
    assert_eq!(serde_json::to_value(&server).unwrap()["icons"][0]["mimeType"], "image/png");
    let meta = v6::RequestMetaObject::new("2026-07-28", v6::ClientCapabilities::default());
    let req = v6::CallToolRequest::new(v6::CallToolRequestParams::new(meta, "weather"), v6::RequestId::Integer(1));
    let out = serde_json::to_value(&req).unwrap();
    assert_eq!((out["jsonrpc"].as_str(), out["method"].as_str()), (Some("2.0"), Some("tools/call")));
}

#[test]
fn more_helpers() {
    use mcp_spec_types::runtime::{write_error, write_response, RpcError};
    use mcp_spec_types::validate::{apps, icons, Options};
    // The tag a union holds, from the variant or the raw object.
    let r: v6::ClientRequest = serde_json::from_value(json!({"jsonrpc": "2.0", "id": 1, "method": "vendor/x"})).unwrap();
    assert_eq!(r.tag(), Some("vendor/x"));
    let p: v6::ElicitRequestParams = serde_json::from_value(json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}})).unwrap();
    assert_eq!(p.tag(), None);
    let c = v6::ContentBlock::text("a");
    assert_eq!(c.tag(), Some("text"));
    let res: v6::CallToolResultResponseResult = serde_json::from_value(json!({"resultType": "complete", "content": []})).unwrap();
    assert_eq!(res.tag(), Some("complete"));
    // Writing responses.
    let ok = write_response(&v6::RequestId::Integer(3), &v6::CallToolResult::text("x")).unwrap();
    assert_eq!(ok, json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete", "content": [{"type": "text", "text": "x"}]}}));
    let err = write_error::<v6::RequestId>(None, &RpcError { code: -32700, message: "parse error".into(), data: None }).unwrap();
    assert_eq!(err["id"], Value::Null);
    // Icons built inline, checked and picked.
    let icon = v6::Icon::data("image/png", &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]).with_sizes(["48x48"]).with_theme("dark");
    assert!(mcp_spec_types::validate::validate(&icon, &Options::default()).violations.is_empty());
    assert!(icons::pick(std::slice::from_ref(&icon), 48, Some("dark")).is_some());
    // MCP Apps: the deprecated flat key still names the resource; the allow attribute from permissions.
    let meta: mcp_spec_types::runtime::JsonObject = serde_json::from_value(json!({"ui/resourceUri": "ui://a/b"})).unwrap();
    assert_eq!(apps::tool_resource_uri(Some(&meta)), Some("ui://a/b"));
    let perms: mcp_spec_types::apps::McpUiResourcePermissions = serde_json::from_value(json!({"camera": {}, "clipboardWrite": {}})).unwrap();
    assert_eq!(apps::permissions_policy(Some(&perms)), "camera; clipboard-write");
    assert!(Options::apps().apps && Options::strict().strict);
}

/// `draft` re-exports the types it has in common with 2026-07-28, and `resource_metadata` those
/// the overlay leaves alone (`share_with` in schema/codegen.toml). The hand-written shortcuts
/// and icon helpers are implemented once, on the home module's types; if a new pin made one
/// of these types differ, this test says which shortcuts the other module must get again.
#[test]
fn shared_types_are_one_type_with_the_hand_written_helpers() {
    use std::any::TypeId;
    use mcp_spec_types::{draft, resource_metadata as rm};
    fn same<A: 'static, B: 'static>() -> bool {
        TypeId::of::<A>() == TypeId::of::<B>()
    }
    assert!(same::<draft::CallToolResult, v6::CallToolResult>(), "content shortcuts: add draft to content_shortcuts!");
    assert!(same::<draft::ContentBlock, v6::ContentBlock>(), "content shortcuts: add draft to content_shortcuts!");
    assert!(same::<draft::Tool, v6::Tool>(), "tool shortcuts: add draft to tool_shortcuts!");
    assert!(same::<draft::Implementation, v6::Implementation>(), "implementation shortcuts: add draft to implementation_shortcuts!");
    assert!(same::<draft::Icon, v6::Icon>(), "icon helpers: add draft to icon_info!");
    assert!(same::<rm::Tool, draft::Tool>(), "tool shortcuts: add resource_metadata to tool_shortcuts!");
    assert!(same::<rm::Implementation, draft::Implementation>(), "implementation shortcuts: add resource_metadata to implementation_shortcuts!");
    // What the overlay changes is its own type, with its own shortcuts.
    assert!(!same::<rm::CallToolResult, draft::CallToolResult>());
    let r = rm::CallToolResult::text("hi");
    assert_eq!(serde_json::to_value(&r).unwrap()["content"][0]["text"], "hi");
    // Shared types read and validate in either module.
    let line = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    let a: draft::ServerNotification = serde_json::from_str(line).unwrap();
    let b: v6::ServerNotification = serde_json::from_str(line).unwrap();
    assert_eq!(a, b);
}

/// The validating reader (`rpc::Reader::default()`, issue 28 item 4) refuses no request of the
/// recorded real sessions, in either direction, at any version: the rules it applies are ones real
/// peers keep, so turning it on by default answers -32602 only to what breaks them.
#[test]
fn the_checked_reader_refuses_no_recorded_request() {
    use mcp_spec_types::rpc::Reader;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/data/sessions");
    macro_rules! read_all {
        ($m:ident, $file:literal) => {{
            let text = std::fs::read_to_string(dir.join($file)).unwrap();
            let mut requests = 0;
            for (i, line) in text.lines().enumerate() {
                let Ok(line) = serde_json::from_str::<Value>(line) else { continue };
                let msg = line["msg"].to_string();
                requests += usize::from(line["msg"].get("method").is_some() && line["msg"].get("id").is_some());
                let refused = if line["dir"] == "c2s" {
                    Reader::default().read::<mcp_spec_types::$m::ClientMessage>(&msg).err()
                } else {
                    Reader::default().read::<mcp_spec_types::$m::ServerMessage>(&msg).err()
                };
                assert!(refused.is_none(), "{}:{}: {refused:?}", $file, i + 1);
            }
            assert!(requests > 20, "{}: {requests} requests", $file);
        }};
    }
    read_all!(v2024_11_05, "2024-11-05-everything-tasks.jsonl");
    read_all!(v2025_03_26, "2025-03-26-everything-tasks.jsonl");
    read_all!(v2025_06_18, "2025-06-18-everything-tasks.jsonl");
    read_all!(v2025_11_25, "2025-11-25-everything-tasks.jsonl");
    read_all!(v2025_11_25, "2025-11-25-mixed-servers-2.jsonl");
    read_all!(v2025_11_25, "2025-11-25-bidirectional.jsonl");
    read_all!(v2026_07_28, "2026-07-28-official-sdks.jsonl");
}
