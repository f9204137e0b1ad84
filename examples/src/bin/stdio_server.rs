//! A minimal MCP server over stdio (protocol 2025-11-25), written with the generated types alone.
//!
//! It reads one JSON-RPC message per line on stdin and writes one answer per line on stdout
//! (notes for people go to stderr). It offers two tools: `add` (structured output) and `echo`.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin stdio_server < examples/input/stdio_server.jsonl
//! ```

use std::io::{self, BufRead, Write};

use mcp_schema::runtime::{JsonConvert, JsonObject, SchemaType};
use mcp_schema::v2025_11_25::{
    self as mcp, CallToolResult, ClientNotification, ClientRequest, Implementation,
    InitializeResult, ListToolsResult, RequestId, ServerCapabilities, ServerCapabilitiesTools,
    Tool,
};
use serde_json::{json, Value};

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(answer) = handle(&line) {
            writeln!(out, "{answer}")?;
            out.flush()?; // the client waits for each answer
        }
    }
    Ok(())
}

/// Answers one line: a JSON-RPC response, or `None` for a notification.
fn handle(line: &str) -> Option<String> {
    let message: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return Some(error(None, mcp::PARSE_ERROR, format!("parse error: {e}"))),
    };

    // No `id`: a notification, which is never answered.
    let Some(id) = message.get("id") else {
        match ClientNotification::from_json_ref(&message) {
            Ok(n) => eprintln!("notification: {}", n.schema_name()), // InitializedNotification, ...
            Err(e) => eprintln!("unreadable notification: {e}"),
        }
        return None;
    };
    let Ok(id) = RequestId::from_json_ref(id) else {
        return Some(error(
            None,
            mcp::INVALID_REQUEST,
            "`id` must be a string or an integer",
        ));
    };
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();

    // `ClientRequest` looks at `method` and reads the rest straight into that request's type.
    let request = match ClientRequest::from_json_ref(&message) {
        Ok(request) => request,
        // A method this version defines, with params that do not fit its type.
        Err(e) if mcp::REQUESTS.iter().any(|(m, ..)| *m == method) => {
            return Some(error(Some(id), mcp::INVALID_PARAMS, e.to_string()))
        }
        Err(e) => return Some(error(Some(id), mcp::INVALID_REQUEST, e.to_string())),
    };

    Some(match request {
        ClientRequest::InitializeRequest(init) => {
            eprintln!(
                "client: {} {}",
                init.params.client_info.name, init.params.client_info.version
            );
            respond(id, &initialize_result())
        }
        ClientRequest::PingRequest(_) => respond(id, &mcp::EmptyResult::default()),
        ClientRequest::ListToolsRequest(_) => respond(id, &ListToolsResult::new(tools())),
        ClientRequest::CallToolRequest(call) => {
            match call_tool(&call.params.name, call.params.arguments.unwrap_or_default()) {
                Some(result) => respond(id, &result),
                // The spec answers a tool the server does not have with "invalid params".
                None => error(
                    Some(id),
                    mcp::INVALID_PARAMS,
                    format!("unknown tool: {}", call.params.name),
                ),
            }
        }
        // Everything else: requests this server does not implement, and methods 2025-11-25 does not
        // define (read as `ClientRequest::Unknown`, holding the raw object).
        _ => error(
            Some(id),
            mcp::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
        ),
    })
}

fn initialize_result() -> InitializeResult {
    let capabilities = ServerCapabilities {
        tools: Some(ServerCapabilitiesTools {
            list_changed: Some(false),
            ..Default::default()
        }),
        ..Default::default()
    };
    let server = Implementation::new("example-stdio-server", "0.1.0");
    // This server speaks one version; a client that asked for another one decides whether to go on.
    InitializeResult {
        instructions: Some("Call `add` to add two integers, `echo` to get your text back.".into()),
        ..InitializeResult::new(mcp::LATEST_PROTOCOL_VERSION, capabilities, server)
    }
}

fn tools() -> Vec<Tool> {
    let add = Tool::with_input_schema(
        "add",
        json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"]
        }),
    )
    .expect("a valid input schema");
    let add = Tool {
        description: Some("Adds two integers.".into()),
        output_schema: Some(
            mcp::ToolOutputSchema::from_json(json!({
                "type": "object",
                "properties": {"sum": {"type": "integer"}},
                "required": ["sum"]
            }))
            .expect("a valid output schema"),
        ),
        ..add
    };
    let echo = Tool::with_input_schema(
        "echo",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    )
    .expect("a valid input schema");
    let echo = Tool {
        description: Some("Returns its text.".into()),
        ..echo
    };
    vec![add, echo]
}

/// Runs a tool; `None` when there is no such tool. Bad arguments are a tool error the model can read
/// and correct (`isError: true`), not a protocol error.
fn call_tool(name: &str, arguments: JsonObject) -> Option<CallToolResult> {
    Some(match name {
        "add" => match (
            arguments.get("a").and_then(Value::as_i64),
            arguments.get("b").and_then(Value::as_i64),
        ) {
            (Some(a), Some(b)) => match a.checked_add(b) {
                Some(sum) => CallToolResult::structured(json!({ "sum": sum })).expect("an object"),
                None => CallToolResult::error("the sum does not fit in 64 bits"),
            },
            _ => CallToolResult::error("`add` needs two integers, `a` and `b`"),
        },
        "echo" => match arguments.get("text").and_then(Value::as_str) {
            Some(text) => CallToolResult::text(text),
            None => CallToolResult::error("`echo` needs a string `text`"),
        },
        _ => return None,
    })
}

/// A result response. `JSONRPCResultResponse::result` is the schema's base `Result` (`_meta` plus any
/// other keys), so the typed result is converted through JSON.
fn respond<T: JsonConvert>(id: RequestId, result: &T) -> String {
    let json = result.to_json().expect("generated types serialize");
    let result = mcp::BaseResult::from_json(json).expect("any object is a Result");
    serde_json::to_string(&mcp::JSONRPCResultResponse::new(id, result))
        .expect("generated types serialize")
}

/// An error response; without an id when the request's id could not be read.
fn error(id: Option<RequestId>, code: i64, message: impl Into<String>) -> String {
    let response = mcp::JSONRPCErrorResponse {
        id,
        ..mcp::JSONRPCErrorResponse::new(mcp::Error::new(code, message))
    };
    serde_json::to_string(&response).expect("generated types serialize")
}
