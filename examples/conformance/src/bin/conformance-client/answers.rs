//! What the conformance client answers and sends: the answers to the server's requests and
//! input requests, and the arguments of the tools it calls.

use std::collections::HashMap;

use mcp_spec_types::rpc::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::v2025_11_25 as mcp;
use serde_json::{json, Map, Value};

/// The text blocks of a result's `content`, joined.
pub fn texts(content: &Value) -> String {
    let blocks = content.as_array().into_iter().flatten();
    blocks
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The arguments the suite gives for its tools (`MCP_CONFORMANCE_CONTEXT`'s `toolCalls`).
pub fn context_calls() -> HashMap<String, Map<String, Value>> {
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str::<Value>(&c).ok());
    let calls = context
        .as_ref()
        .and_then(|c| c.get("toolCalls"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    calls
        .iter()
        .filter_map(|call| {
            Some((
                call.get("name")?.as_str()?.to_owned(),
                call.get("arguments")?.as_object()?.clone(),
            ))
        })
        .collect()
}

/// The suite's arguments without a `null` the tool's input schema does not allow for that
/// property: left out, it is as the transport treats a null (no `Mcp-Param-*` header), and the
/// call stays valid against the tool's schema.
pub fn without_bad_nulls(
    arguments: &Map<String, Value>,
    input_schema: &Value,
) -> Map<String, Value> {
    let allows_null = |name: &str| match input_schema.pointer(&format!(
        "/properties/{}/type",
        name.replace('~', "~0").replace('/', "~1")
    )) {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => true,
    };
    arguments
        .iter()
        .filter(|(name, value)| !value.is_null() || allows_null(name))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The client's answer to a server's request or input request (the shapes are the same in both
/// versions): roots, a fixed sampling reply, an elicitation form accepted with its defaults.
pub fn serve(method: &str, params: Option<&Value>) -> Result<Value, RpcError> {
    let as_json = |v: Result<Value, serde_json::Error>| {
        v.map_err(|e| RpcError {
            code: INTERNAL_ERROR,
            message: e.to_string(),
            data: None,
        })
    };
    match method {
        "ping" => Ok(json!({})),
        "roots/list" => as_json(serde_json::to_value(mcp::ListRootsResult::new(vec![]))),
        "sampling/createMessage" => {
            let reply = mcp::TextContent::new("A reply from the conformance client.");
            as_json(serde_json::to_value(mcp::CreateMessageResult::new(
                mcp::Role::Assistant,
                reply.into(),
                "no-model",
            )))
        }
        "elicitation/create" => {
            let mut params = params.cloned().unwrap_or(json!({}));
            // A 2026-07-28 `_meta` has keys the 2025-11-25 form does not need.
            if let Some(p) = params.as_object_mut() {
                p.remove("_meta");
            }
            let params: mcp::ElicitRequestParams =
                serde_json::from_value(params).map_err(|e| RpcError {
                    code: INVALID_PARAMS,
                    message: e.to_string(),
                    data: None,
                })?;
            as_json(serde_json::to_value(accept_defaults(&params)))
        }
        _ => Err(RpcError {
            code: METHOD_NOT_FOUND,
            message: format!("Method not found: {method}"),
            data: None,
        }),
    }
}

/// Accepts a form with every field at its default (SEP-1034).
fn accept_defaults(params: &mcp::ElicitRequestParams) -> mcp::ElicitResult {
    use mcp::{ElicitResultContentValue as Value, EnumSchema as E, PrimitiveSchemaDefinition as P};
    use mcp::{MultiSelectEnumSchema as Multi, SingleSelectEnumSchema as Single};
    let default = |field: &P| -> Option<Value> {
        match field {
            P::StringSchema(s) => s.default.clone().map(Value::String),
            P::NumberSchema(n) => n.default.clone().map(Value::Number),
            P::BooleanSchema(b) => b.default.map(Value::Boolean),
            P::EnumSchema(E::SingleSelectEnumSchema(Single::UntitledSingleSelectEnumSchema(s))) => {
                s.default.clone().map(Value::String)
            }
            P::EnumSchema(E::SingleSelectEnumSchema(Single::TitledSingleSelectEnumSchema(s))) => {
                s.default.clone().map(Value::String)
            }
            P::EnumSchema(E::LegacyTitledEnumSchema(s)) => s.default.clone().map(Value::String),
            P::EnumSchema(E::MultiSelectEnumSchema(Multi::UntitledMultiSelectEnumSchema(s))) => {
                s.default.clone().map(Value::StringArray)
            }
            P::EnumSchema(E::MultiSelectEnumSchema(Multi::TitledMultiSelectEnumSchema(s))) => {
                s.default.clone().map(Value::StringArray)
            }
        }
    };
    let content = match params {
        mcp::ElicitRequestParams::ElicitRequestFormParams(form) => {
            let properties = form.requested_schema.properties.iter();
            properties
                .filter_map(|(name, field)| Some((name.clone(), default(field)?)))
                .collect()
        }
        _ => Default::default(),
    };
    mcp::ElicitResult {
        content: Some(content),
        ..mcp::ElicitResult::new(mcp::ElicitResultAction::Accept)
    }
}

/// Arguments for a tool: each property of its input schema with a value of the property's type.
pub fn arguments_for(input_schema: &Value) -> Map<String, Value> {
    let properties = input_schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten();
    properties
        .map(|(name, property)| {
            let value = match property.get("type").and_then(Value::as_str) {
                Some("number" | "integer") => json!(1),
                Some("boolean") => json!(true),
                Some("array") => json!([]),
                Some("object") => json!({}),
                _ => json!("test"),
            };
            (name.clone(), value)
        })
        .collect()
}
