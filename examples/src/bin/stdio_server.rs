//! A minimal MCP server over stdio (protocol 2025-11-25), written with the generated types alone.
//!
//! It reads one JSON-RPC message per line on stdin and writes one answer per line on stdout
//! (notes for people go to stderr). It offers two tools: `add` (structured output) and `echo`.
//! Every request gets an answer with its own id: a result, "method not found" for what it does
//! not serve, or the error `read_message_checked` names for a line that does not read or a request
//! that breaks the version's rules.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin stdio_server < examples/input/stdio_server.jsonl
//! ```

use std::io::{self, BufRead, Write};

use mcp_spec_types::read_message_checked;
use mcp_spec_types::runtime::{JsonConvert, JsonObject, Message};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolResult, ClientMessage, ClientRequest, Implementation, InitializeResult,
    ServerCapabilities, ServerCapabilitiesTools, ServerMessage, Tool,
};
use serde_json::{json, Value};

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(answer) = answer(&line) {
            writeln!(out, "{}", mcp_spec_types::to_string(&answer)?)?;
            out.flush()?; // the client waits for each answer
        }
    }
    Ok(())
}

/// The answer to one line; `None` for a notification or a response, which get none.
fn answer(line: &str) -> Option<ServerMessage> {
    let request = match read_message_checked::<ClientMessage>(line) {
        Ok(Message::Request(request)) => request,
        Ok(Message::Notification(notification)) => {
            eprintln!("notification: {}", notification.method());
            return None;
        }
        Ok(_) => return None, // a response: this server sends no requests
        // Not JSON (-32700), not a JSON-RPC message (-32600), or params that do not fit the
        // method or break its rules (-32602, with the request's id).
        Err(invalid) => return invalid.error_response().map(Into::into),
    };
    Some(match request {
        ClientRequest::InitializeRequest(init) => {
            let client = &init.params.client_info;
            eprintln!("client: {} {}", client.name, client.version);
            ServerMessage::result(init.id, initialize_result())
        }
        ClientRequest::PingRequest(ping) => {
            ServerMessage::result(ping.id, mcp::EmptyResult::default())
        }
        ClientRequest::ListToolsRequest(list) => {
            ServerMessage::result(list.id, mcp::ListToolsResult::new(tools()))
        }
        ClientRequest::CallToolRequest(call) => {
            let arguments = call.params.arguments.unwrap_or_default();
            match call_tool(&call.params.name, arguments) {
                Some(result) => ServerMessage::result(call.id, result),
                // The spec answers a tool the server does not have with "invalid params".
                None => ServerMessage::error(mcp::JSONRPCErrorResponse::for_request(
                    call.id,
                    mcp::INVALID_PARAMS,
                    format!("unknown tool: {}", call.params.name),
                )),
            }
        }
        // Everything else: requests this server does not implement, and methods 2025-11-25 does
        // not define (read as `ClientRequest::Unknown`).
        other => other.method_not_found().into(),
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
