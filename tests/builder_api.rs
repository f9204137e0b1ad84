//! What a server or client author writes around the types (issue 17): a read that always knows whom to
//! answer, answers built in one call, ids as map keys, conversions into unions, glob imports that keep
//! the prelude, ordered log levels and whole-message validation.

// 2026-07-28 deprecates logging; its levels are still checked here.
#![allow(deprecated)]

use std::collections::{HashMap, HashSet};

use mcp_spec_types::rpc::{self, read_message, ErrorResponse, Invalid, Kind};
use mcp_spec_types::runtime::{Message, RequestMethod, ResultResponse, SchemaType};
use mcp_spec_types::validate::{validate_json, Options};
use mcp_spec_types::{v2024_11_05 as v24, v2025_06_18 as v25_06, v2025_11_25 as v25, v2026_07_28 as v26};
use serde_json::{json, Value};

fn written<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap()
}

// Item 1: the lenient envelope read.

#[test]
fn bad_params_are_answered_with_the_requests_own_id() {
    let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{}}}"#;
    let bad: Invalid<v25::RequestId> = read_message::<v25::ClientMessage>(line).unwrap_err();
    assert_eq!((bad.kind, bad.id.clone(), bad.method.as_deref()), (Kind::Request, Some(v25::RequestId::Integer(7)), Some("tools/call")));
    assert_eq!(bad.code(), rpc::INVALID_PARAMS);
    assert!(bad.error.message.contains("name"), "{}", bad.error.message);
    let answer = written(&bad.error_response().unwrap());
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["jsonrpc"], "2.0");
    assert_eq!(answer["error"]["code"], -32602);
    // Typed as the version's error response, inside its ServerMessage.
    let typed: v25::ServerMessage = bad.error_response().unwrap().into();
    let Message::Error(e) = &typed else { panic!() };
    assert_eq!(e.id, Some(v25::RequestId::Integer(7)));
    assert_eq!(written(&typed), answer);
}

#[test]
fn every_kind_of_unreadable_message_gets_the_right_code_and_id() {
    type M = v26::ClientMessage;
    let cases: &[(&str, Kind, Option<v26::RequestId>, i64, bool)] = &[
        ("{not json", Kind::Unreadable, None, rpc::PARSE_ERROR, true),
        ("[1,2]", Kind::Unreadable, None, rpc::INVALID_REQUEST, true),
        (r#"{"jsonrpc":"2.0","id":"a","method":"tools/call"}"#, Kind::Request, Some(v26::RequestId::String("a".into())), rpc::INVALID_PARAMS, true),
        (r#"{"jsonrpc":"1.0","id":3,"method":"tools/list"}"#, Kind::Request, Some(v26::RequestId::Integer(3)), rpc::INVALID_REQUEST, true),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#, Kind::Request, None, rpc::INVALID_REQUEST, true),
        (r#"{"jsonrpc":"2.0","id":4,"method":7}"#, Kind::Request, Some(v26::RequestId::Integer(4)), rpc::INVALID_REQUEST, true),
        (r#"{"jsonrpc":"2.0","id":5,"method":"notifications/cancelled","params":{}}"#, Kind::Request, Some(v26::RequestId::Integer(5)), rpc::INVALID_REQUEST, true),
        // Notifications and responses are never answered.
        (r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[]}}"#, Kind::Notification, None, rpc::INVALID_PARAMS, false),
        (r#"{"jsonrpc":"2.0","id":null,"result":{}}"#, Kind::Response, None, rpc::INVALID_REQUEST, false),
        (r#"{"jsonrpc":"2.0","id":6}"#, Kind::Unreadable, Some(v26::RequestId::Integer(6)), rpc::INVALID_REQUEST, true),
    ];
    for (line, kind, id, code, answered) in cases {
        let bad = read_message::<M>(line.as_bytes()).expect_err(line);
        assert_eq!((bad.kind, &bad.id, bad.code()), (*kind, id, *code), "{line}: {bad}");
        let answer = bad.error_response();
        assert_eq!(answer.is_some(), *answered, "{line}");
        if let Some(a) = answer {
            let json = written(&a);
            assert_eq!(json["id"], id.as_ref().map_or(Value::Null, |i| written(i)), "{line}");
            assert_eq!(json["error"]["code"], *code);
        }
    }
}

#[test]
fn unknown_methods_stay_readable_and_method_not_found_is_one_call() {
    let line = r#"{"jsonrpc":"2.0","id":"q1","method":"vendor/thing","params":{}}"#;
    let Ok(Message::Request(request)) = read_message::<v25::ClientMessage>(line) else { panic!() };
    assert!(matches!(request, v25::ClientRequest::Unknown(_)));
    assert_eq!(request.method(), "vendor/thing");
    let answer = written(&request.method_not_found());
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": "q1", "error": {"code": -32601, "message": "Method not found: `vendor/thing`"}}));
    // An unknown method with an id that is not one: still readable, answered with a null id.
    let Ok(Message::Request(request)) = read_message::<v25::ClientMessage>(r#"{"jsonrpc":"2.0","id":{},"method":"x/y"}"#) else { panic!() };
    assert_eq!(request.id(), None);
    assert_eq!(written(&request.method_not_found())["id"], Value::Null);
}

#[test]
fn the_lenient_read_works_for_every_version() {
    // Before 2025-11-25 request types do not declare `id`: it is still found, and answered.
    let line = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}"#;
    let bad = read_message::<v24::ClientMessage>(line).unwrap_err();
    assert_eq!((bad.code(), bad.id), (rpc::INVALID_PARAMS, Some(v24::RequestId::Integer(9))));
    let bad = read_message::<v25_06::ServerMessage>(r#"{"jsonrpc":"2.0","id":"s","method":"sampling/createMessage","params":{}}"#).unwrap_err();
    assert_eq!((bad.code(), bad.id), (rpc::INVALID_PARAMS, Some(v25_06::RequestId::String("s".into()))));
    let Ok(Message::Request(r)) = read_message::<v24::ClientMessage>(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#) else { panic!() };
    assert_eq!((r.id(), r.method()), (Some(v24::RequestId::Integer(2)), "ping"));
}

// Item 3: answers without plumbing.

#[test]
fn answers_are_built_in_one_call() {
    let id = v25::RequestId::Integer(1);
    let ok: v25::ServerMessage = Message::Result(ResultResponse::new(id.clone(), v25::CallToolResult::text("hi").into()));
    assert_eq!(written(&ok)["result"]["content"][0]["text"], "hi");
    assert_eq!(ok, v25::ServerMessage::result(id.clone(), v25::CallToolResult::text("hi")));
    let err = v25::JSONRPCErrorResponse::for_request(id.clone(), v25::RESOURCE_NOT_FOUND, "no such resource").with_data(json!({"uri": "file:///x"}));
    assert_eq!(written(&err), json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32002, "message": "no such resource", "data": {"uri": "file:///x"}}}));
    let old = v24::JSONRPCError::for_request(v24::RequestId::from("a"), v24::METHOD_NOT_FOUND, "nope");
    assert_eq!(written(&old)["id"], "a");
    let generic: ErrorResponse<v25::RequestId> = ErrorResponse::new(None, rpc::INTERNAL_ERROR, "boom");
    assert_eq!(written(&generic)["id"], Value::Null);
}

#[test]
fn requests_and_notifications_know_their_method_and_id() {
    let get = v25::ClientRequest::GetTaskRequest(v25::GetTaskRequest::new(v25::GetTaskRequestParams::new("t1"), v25::RequestId::from(5)));
    assert_eq!(get.method(), "tasks/get");
    assert_eq!(get.method(), <v25::GetTaskRequest as RequestMethod>::METHOD);
    assert_eq!(get.schema_name(), "GetTaskRequest");
    assert_eq!(get.id(), Some(v25::RequestId::Integer(5)));
    let answer = written(&get.error_response(rpc::INTERNAL_ERROR, "later"));
    assert_eq!((answer["id"].clone(), answer["error"]["code"].clone()), (json!(5), json!(-32603)));
    let Ok(Message::Notification(n)) = read_message::<v25::ClientMessage>(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) else { panic!() };
    assert_eq!(n.method(), "notifications/initialized");
}

#[test]
fn error_codes_are_constants_where_the_spec_defines_them() {
    assert_eq!((v24::RESOURCE_NOT_FOUND, v25::RESOURCE_NOT_FOUND), (-32002, -32002));
    assert_eq!((v26::INVALID_PARAMS, v26::UNSUPPORTED_PROTOCOL_VERSION), (-32602, -32022));
    assert_eq!((rpc::PARSE_ERROR, rpc::INVALID_REQUEST, rpc::METHOD_NOT_FOUND, rpc::INTERNAL_ERROR), (-32700, -32600, -32601, -32603));
}

// Item 4: ids as keys.

#[test]
fn request_ids_and_progress_tokens_key_maps() {
    let mut pending: HashMap<v25::RequestId, &str> = HashMap::new();
    pending.insert(v25::RequestId::Integer(1), "tools/list");
    pending.insert("1".into(), "ping");
    let back: v25::RequestId = serde_json::from_str("1").unwrap();
    assert_eq!(pending.get(&back), Some(&"tools/list"));
    assert_eq!(pending.len(), 2);
    let tokens: HashSet<v26::ProgressToken> = [v26::ProgressToken::from(1), v26::ProgressToken::from("1"), v26::ProgressToken::from(1)].into();
    assert_eq!(tokens.len(), 2);
    let _: HashSet<v24::RequestId> = HashSet::new();
}

// Item 5: a glob import keeps `std::result::Result` (and the other prelude names).

macro_rules! glob_modules {
    ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {
        mod glob {$(
            pub mod $m {
                use mcp_spec_types::$m::*;
                // `Result`, `Option`, `Vec`, `String` and `Box` are still the prelude's.
                pub fn f() -> Result<Option<Vec<String>>, Box<String>> {
                    Ok(Some(vec![SCHEMA_LABEL.to_string()]))
                }
            }
        )*}

        /// Every module's `f`, in the table's order.
        const GLOB_FNS: &[fn() -> Result<Option<Vec<String>>, Box<String>>] = &[$(glob::$m::f),*];
    };
}
mcp_spec_types::for_each_module!(glob_modules);

mod glob_empty {
    use mcp_spec_types::v2025_11_25::*;
    pub fn empty() -> Result<EmptyResult, String> {
        Ok(BaseResult::default())
    }
}

#[test]
fn glob_imports_keep_the_prelude() {
    let labels: Vec<String> = GLOB_FNS.iter().map(|f| f().unwrap().unwrap().remove(0)).collect();
    let expected: Vec<&str> = mcp_spec_types::modules::MODULES.iter().map(|m| m.label).collect();
    assert_eq!(labels, expected);
    // The Rust name changed; the schema's did not.
    let empty = glob_empty::empty().unwrap();
    assert_eq!(empty.schema_name(), "Result");
    assert_eq!(empty, v25::EmptyResult::default());
}

// Item 6: members convert into their unions.

#[test]
fn members_convert_into_unions_through_nested_ones() {
    let field = v25::UntitledSingleSelectEnumSchema::new(vec!["a".into(), "b".into()]);
    let schema: v25::PrimitiveSchemaDefinition = field.clone().into();
    assert_eq!(
        schema,
        v25::PrimitiveSchemaDefinition::EnumSchema(v25::EnumSchema::SingleSelectEnumSchema(v25::SingleSelectEnumSchema::UntitledSingleSelectEnumSchema(field)))
    );
    let block: v26::ContentBlock = v26::TextContent::new("x").into();
    assert_eq!(block.schema_name(), "TextContent");
    let result: v25::ServerResult = v25::ListToolsResult::new(vec![]).into();
    assert_eq!(result.schema_name(), "ListToolsResult");
    let id: v24::RequestId = 3.into();
    assert_eq!(id, v24::RequestId::Integer(3));
}

// Item 7: severity order and whole-message validation.

#[test]
fn logging_levels_are_ordered_by_severity_in_every_version() {
    const SEVERITY: [&str; 8] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
    // Every module but extensions, which have no logging.
    macro_rules! check {
        ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {$(check!(@ $kind $m);)*};
        (@ extension $m:ident) => {};
        (@ $kind:ident $m:ident) => {{
            use mcp_spec_types::$m::LoggingLevel;
            let levels: Vec<LoggingLevel> = SEVERITY.iter().map(|l| LoggingLevel::from_wire(l)).collect();
            assert!(levels.windows(2).all(|w| w[0] < w[1]), "{}", stringify!($m));
            // An unknown value sorts first: taken as a minimum (`logging/setLevel` with "verbose")
            // it lets every message through; it must never silence them all (issue 28, item 4).
            let unknown = LoggingLevel::from_wire("verbose");
            assert!(levels.iter().all(|l| unknown < *l), "{}", stringify!($m));
            assert_eq!(levels.iter().filter(|l| **l >= unknown).count(), SEVERITY.len());
            let minimum = LoggingLevel::Warning;
            let shown: Vec<&str> = levels.iter().filter(|l| **l >= minimum).map(|l| l.as_str()).collect();
            assert_eq!(shown, &SEVERITY[3..]);
        }};
    }
    mcp_spec_types::for_each_module!(check);
}

#[test]
fn whole_messages_validate_as_the_reader_dispatches_them() {
    let o = Options::default();
    let ok = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}});
    assert!(validate_json::<v25::ClientMessage>(&ok, &o).is_valid());
    let no_name = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}});
    let report = validate_json::<v25::ClientMessage>(&no_name, &o);
    assert_eq!(report.violations.iter().map(|v| (v.pointer.as_str(), v.rule)).collect::<Vec<_>>(), [("/params", "required")]);
    // A result is checked as the member the reader takes, under `/result`.
    let tools = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "javascript:x"}]}]}});
    let report = validate_json::<v25::ServerMessage>(&tools, &o);
    assert_eq!(report.violations.iter().map(|v| (v.pointer.as_str(), v.rule)).collect::<Vec<_>>(), [("/result/tools/0/icons/0/src", "icon.scheme")]);
    // Envelope rules once, even where the type declares the field too.
    let bad_id = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -1, "message": "m"}});
    let report = validate_json::<v25::ServerMessage>(&bad_id, &o);
    assert_eq!(report.violations.iter().map(|v| (v.pointer.as_str(), v.rule)).collect::<Vec<_>>(), [("/id", "jsonrpc.id")]);
    let not_a_message = json!({"jsonrpc": "2.0"});
    assert_eq!(validate_json::<v24::ClientMessage>(&not_a_message, &o).violations[0].rule, "jsonrpc.message");
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1}});
    let report = validate_json::<v24::ServerMessage>(&notification, &o);
    assert!(report.violations.iter().any(|v| v.pointer == "/params" && v.rule == "required"), "{:?}", report.violations);
}
