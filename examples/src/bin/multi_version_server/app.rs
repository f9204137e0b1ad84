//! The application: written against ONE version module, 2025-11-25, and nothing else. It knows
//! nothing of the peer's version; `main.rs` converts every message on the way in and out.

use mcp_spec_types::runtime::{JsonConvert, JsonObject};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolResult, ClientRequest, JSONRPCErrorResponse, ServerCapabilities,
    ServerMessage, Tool,
};
use serde_json::{json, Value};

pub const SERVER_NAME: &str = "example-multi-version-server";
pub const SERVER_VERSION: &str = "0.1.0";
pub const INSTRUCTIONS: &str = "Tools: echo, get-sum, get-structured-content (structured output), get-resource-links, get-tiny-image. Resources: two documents and a template. Prompts: simple-prompt, args-prompt.";

/// A 1x1 PNG.
const TINY_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const ARCHITECTURE_URI: &str = "demo://resource/static/document/architecture.md";
const NOTES_URI: &str = "demo://resource/static/document/notes.txt";

/// What this server offers, in 2025-11-25 terms; no `tasks`, no `listChanged` (it never changes).
pub fn capabilities() -> ServerCapabilities {
    typed(json!({"tools": {}, "resources": {}, "prompts": {}, "completions": {}, "logging": {}}))
}

/// The answer to one request (`initialize`, `ping` and `logging/setLevel` are the engine's, in `main.rs`).
pub fn answer(request: ClientRequest) -> ServerMessage {
    match request {
        ClientRequest::PingRequest(r) => ServerMessage::result(r.id, mcp::EmptyResult::default()),
        // Nothing is logged per session here, so any level is fine.
        ClientRequest::SetLevelRequest(r) => ServerMessage::result(r.id, mcp::EmptyResult::default()),
        ClientRequest::ListToolsRequest(r) => ServerMessage::result(r.id, mcp::ListToolsResult::new(tools())),
        ClientRequest::CallToolRequest(call) => {
            let arguments = call.params.arguments.unwrap_or_default();
            match call_tool(&call.params.name, &arguments) {
                Some(result) => ServerMessage::result(call.id, result),
                None => ServerMessage::error(JSONRPCErrorResponse::for_request(
                    call.id,
                    mcp::INVALID_PARAMS,
                    format!("unknown tool: {}", call.params.name),
                )),
            }
        }
        ClientRequest::ListResourcesRequest(r) => ServerMessage::result(r.id, typed::<mcp::ListResourcesResult>(json!({"resources": [
            {"uri": ARCHITECTURE_URI, "name": "architecture.md", "title": "Architecture", "mimeType": "text/markdown"},
            {"uri": NOTES_URI, "name": "notes.txt", "mimeType": "text/plain"}
        ]}))),
        ClientRequest::ListResourceTemplatesRequest(r) => ServerMessage::result(r.id, typed::<mcp::ListResourceTemplatesResult>(json!({"resourceTemplates": [
            {"uriTemplate": "demo://resource/dynamic/text/{id}", "name": "Dynamic text", "mimeType": "text/plain"}
        ]}))),
        ClientRequest::ReadResourceRequest(r) => {
            let uri = r.params.uri.clone();
            let text = match uri.as_str() {
                ARCHITECTURE_URI => "# Architecture\n\nOne application, one version module, every peer.\n".to_string(),
                NOTES_URI => "Plain notes.".to_string(),
                other => match other.strip_prefix("demo://resource/dynamic/text/") {
                    Some(id) => format!("Dynamic text resource {id}"),
                    None => {
                        return ServerMessage::error(JSONRPCErrorResponse::for_request(r.id, mcp::INVALID_PARAMS, format!("unknown resource: {uri}")))
                    }
                },
            };
            ServerMessage::result(r.id, typed::<mcp::ReadResourceResult>(json!({"contents": [{"uri": uri, "text": text}]})))
        }
        ClientRequest::ListPromptsRequest(r) => ServerMessage::result(r.id, typed::<mcp::ListPromptsResult>(json!({"prompts": [
            {"name": "simple-prompt", "title": "Simple Prompt", "description": "A prompt with no arguments"},
            {"name": "args-prompt", "description": "A prompt with a required argument", "arguments": [{"name": "city", "required": true}]}
        ]}))),
        ClientRequest::GetPromptRequest(r) => {
            let text = match r.params.name.as_str() {
                "simple-prompt" => "This is a simple prompt without arguments.".to_string(),
                "args-prompt" => match r.params.arguments.as_ref().and_then(|a| a.get("city")) {
                    Some(city) => format!("What is the weather in {city}?"),
                    None => return ServerMessage::error(JSONRPCErrorResponse::for_request(r.id, mcp::INVALID_PARAMS, "`args-prompt` needs `city`")),
                },
                other => {
                    return ServerMessage::error(JSONRPCErrorResponse::for_request(r.id, mcp::INVALID_PARAMS, format!("unknown prompt: {other}")))
                }
            };
            ServerMessage::result(r.id, typed::<mcp::GetPromptResult>(json!({"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})))
        }
        ClientRequest::CompleteRequest(r) => {
            let prefix = r.params.argument.value.clone();
            let values: Vec<&str> = ["Engineering", "Marketing", "Sales"].into_iter().filter(|d| d.starts_with(&prefix)).collect();
            ServerMessage::result(r.id, typed::<mcp::CompleteResult>(json!({"completion": {"values": values, "total": values.len(), "hasMore": false}})))
        }
        other => other.method_not_found().into(),
    }
}

fn tools() -> Vec<Tool> {
    let object = |properties: Value, required: &[&str]| json!({"type": "object", "properties": properties, "required": required});
    vec![
        typed(json!({"name": "echo", "description": "Echoes back the input string", "inputSchema": object(json!({"message": {"type": "string"}}), &["message"])})),
        typed(json!({"name": "get-sum", "description": "Adds two numbers", "inputSchema": object(json!({"a": {"type": "number"}, "b": {"type": "number"}}), &["a", "b"])})),
        typed(json!({
            "name": "get-structured-content",
            "title": "Weather",
            "description": "The weather of a city, as structured content",
            "inputSchema": object(json!({"location": {"type": "string"}}), &["location"]),
            "outputSchema": object(json!({"temperature": {"type": "number"}, "conditions": {"type": "string"}}), &["temperature", "conditions"])
        })),
        typed(json!({"name": "get-resource-links", "description": "Links to this server's resources", "inputSchema": object(json!({"count": {"type": "integer"}}), &[])})),
        typed(json!({"name": "get-tiny-image", "description": "A tiny image", "inputSchema": object(json!({}), &[])})),
    ]
}

/// Runs a tool; `None` when there is no such tool.
fn call_tool(name: &str, arguments: &JsonObject) -> Option<CallToolResult> {
    Some(match name {
        "echo" => match arguments.get("message").and_then(Value::as_str) {
            Some(m) => CallToolResult::text(format!("Echo: {m}")),
            None => CallToolResult::error("`echo` needs a string `message`"),
        },
        "get-sum" => match (arguments.get("a").and_then(Value::as_f64), arguments.get("b").and_then(Value::as_f64)) {
            (Some(a), Some(b)) => CallToolResult::text(format!("The sum of {a} and {b} is {}.", a + b)),
            _ => CallToolResult::error("`get-sum` needs two numbers, `a` and `b`"),
        },
        "get-structured-content" => {
            let weather = json!({"temperature": 21.5, "conditions": "Sunny"});
            let mut result = CallToolResult::structured(weather.clone()).expect("an object");
            result.content = vec![typed(json!({"type": "text", "text": weather.to_string()}))];
            result
        }
        // `resource_link` content: a peer of 2024-11-05 or 2025-03-26 cannot receive it (main.rs).
        "get-resource-links" => {
            let count = arguments.get("count").and_then(Value::as_u64).unwrap_or(2).min(2) as usize;
            let links = [(ARCHITECTURE_URI, "architecture.md"), (NOTES_URI, "notes.txt")];
            let mut content = vec![json!({"type": "text", "text": format!("{count} resource links:")})];
            content.extend(links.iter().take(count).map(|(uri, name)| json!({"type": "resource_link", "uri": uri, "name": name})));
            typed(json!({ "content": content }))
        }
        "get-tiny-image" => typed(json!({"content": [{"type": "image", "data": TINY_PNG, "mimeType": "image/png"}]})),
        _ => return None,
    })
}

/// A 2025-11-25 value from JSON written in this file (a bug if it does not read).
fn typed<T: JsonConvert>(v: Value) -> T {
    T::from_json(v).expect("the example's own JSON reads as its 2025-11-25 type")
}
