//! A minimal MCP server over stdio (protocol 2025-11-25), on the crate's session engine
//! (`engine::Server`) and its blocking transport (`engine::blocking::Connection`).
//!
//! It reads one JSON-RPC message per line on stdin and writes one per line on stdout (notes for
//! people go to stderr). It offers three tools: `add` (structured output), `echo`, and `count`
//! (arguments `to` and `delayMs`): it counts to `to` on a thread of its own, one step every
//! `delayMs` milliseconds, with one progress notification per step when the request asked for
//! progress, while the server answers other requests; it stops when the client cancels it, and
//! then nothing more is written for it. Every request gets an answer with its own id: a result,
//! "method not found" for what it does not serve; the engine answers `ping`, what comes before
//! `initialize`, lines that are not requests, and (`Config::validate`, on by default) a request
//! that breaks the version's rules, with -32602 naming the JSON pointer and rule.
//!
//! `--record FILE` writes every line read and written to FILE as `{"dir": "c2s"|"s2c", "msg": ...}`
//! JSONL, in the order the engine took and wrote them (for `mcp-schema check`, and for
//! `tests/stdio_cancel.rs`).
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin stdio_server < examples/input/stdio_server.jsonl
//! ```

#![forbid(unsafe_code)]

use std::fs::File;
use std::io;
use std::time::Duration;

use mcp_spec_engine::blocking::Connection;
use mcp_spec_engine::{Config, Context, Event, Request, Server};
use mcp_spec_types::read_message;
use mcp_spec_types::runtime::{JsonConvert, JsonObject, Message, RpcError};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolResult, ClientMessage, ClientRequest, Implementation, InitializeResult,
    ServerCapabilities, ServerCapabilitiesTools, Tool,
};
use serde_json::{json, Value};

/// The largest `to` and `delayMs` of `count`: each call holds a thread until it is done.
const COUNT_MAX: u64 = 1000;
const DELAY_MAX_MS: u64 = 10_000;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut conn = Connection::stdio(Server::new(Config::default()));
    match args.as_slice() {
        [] => {}
        [flag, file] if flag == "--record" => conn.record(File::create(file)?),
        _ => {
            eprintln!("usage: stdio_server [--record FILE]");
            std::process::exit(2);
        }
    }
    while let Some(event) = conn.next_event()? {
        match event {
            Event::Request(request) => answer(&mut conn, request)?,
            Event::Notification { method, .. } => eprintln!("notification: {method}"),
            Event::Cancelled { id, reason } => eprintln!("cancelled: {id:?} ({reason:?})"),
            Event::Dropped(why) => eprintln!("dropped a line: {why:?}"),
            // This server sends no requests, so it gets no answers or progress.
            Event::Answer(_) | Event::Progress { .. } => {}
        }
    }
    Ok(())
}

/// Answers one request, in place or (for `count`) from a thread.
fn answer(conn: &mut Connection<Server>, request: Request) -> io::Result<()> {
    let server = conn.engine();
    let typed = match read_typed(&request) {
        Ok(typed) => typed,
        // Params that do not fit the method or break its rules (-32602).
        Err(error) => return respond_error(server, &request, &error),
    };
    let sent = match typed {
        ClientRequest::InitializeRequest(init) => {
            let client = &init.params.client_info;
            eprintln!("client: {} {}", client.name, client.version);
            server.respond(&request.id, &initialize_result())
        }
        ClientRequest::ListToolsRequest(_) => {
            server.respond(&request.id, &mcp::ListToolsResult::new(tools()))
        }
        ClientRequest::CallToolRequest(call) if call.params.name == "count" => {
            let arguments = call.params.arguments.unwrap_or_default();
            let context = conn.context(&request);
            match count_arguments(&arguments) {
                Ok((to, delay)) => {
                    std::thread::spawn(move || count(context, to, delay));
                }
                Err(message) => context.respond(&CallToolResult::error(message)),
            }
            return Ok(());
        }
        ClientRequest::CallToolRequest(call) => {
            let arguments = call.params.arguments.unwrap_or_default();
            match call_tool(&call.params.name, arguments) {
                Some(result) => server.respond(&request.id, &result),
                // The spec answers a tool the server does not have with "invalid params".
                None => {
                    let message = format!("unknown tool: {}", call.params.name);
                    let error = RpcError { code: mcp::INVALID_PARAMS, message, data: None };
                    server.respond_error(&request.id, &error)
                }
            }
        }
        // Everything else: requests this server does not implement, and methods 2025-11-25 does
        // not define (read as `ClientRequest::Unknown`).
        other => {
            let message = format!("Method not found: `{}`", other.method());
            let error = RpcError { code: mcp::METHOD_NOT_FOUND, message, data: None };
            server.respond_error(&request.id, &error)
        }
    };
    sent.map(drop).map_err(io::Error::other)
}

fn respond_error(server: &mut Server, request: &Request, error: &RpcError) -> io::Result<()> {
    server
        .respond_error(&request.id, error)
        .map(drop)
        .map_err(io::Error::other)
}

/// The request as 2025-11-25's typed request (the engine has validated it already).
fn read_typed(request: &Request) -> Result<ClientRequest, RpcError> {
    let mut line = json!({"jsonrpc": "2.0", "id": request.id.to_value(), "method": request.method});
    if let Some(params) = &request.params {
        line["params"] = params.clone();
    }
    match read_message::<ClientMessage>(line.to_string()) {
        Ok(Message::Request(request)) => Ok(request),
        Ok(_) => Err(RpcError {
            code: mcp_spec_types::rpc::INVALID_REQUEST,
            message: "Invalid Request".into(),
            data: None,
        }),
        Err(invalid) => Err(invalid.error),
    }
}

/// `count`'s `to` and `delayMs`, or the tool error that names the bad one.
fn count_arguments(arguments: &JsonObject) -> Result<(u64, Duration), String> {
    let to = arguments.get("to").and_then(Value::as_u64);
    let delay = arguments.get("delayMs").map_or(Some(0), Value::as_u64);
    match (to, delay) {
        (Some(to), Some(delay)) if to <= COUNT_MAX && delay <= DELAY_MAX_MS => {
            Ok((to, Duration::from_millis(delay)))
        }
        _ => Err(format!(
            "`count` needs an integer `to` (0 to {COUNT_MAX}) and optionally `delayMs` (0 to {DELAY_MAX_MS})"
        )),
    }
}

/// Counts on its own thread: a step every `delay`, progress after each when asked for, and
/// nothing more once the client cancelled (the engine would drop it anyway).
fn count(mut context: Context<Server>, to: u64, delay: Duration) {
    for step in 1..=to {
        std::thread::sleep(delay);
        if context.is_cancelled() {
            eprintln!("count: cancelled before step {step}");
            return;
        }
        if context.wants_progress() {
            let message = format!("step {step} of {to}");
            // Steps increase, so this is refused only for a bug here.
            context
                .progress(step as f64, Some(to as f64), Some(&message))
                .expect("increasing progress");
        }
    }
    let result = CallToolResult::structured(json!({ "count": to })).expect("an object");
    context.respond(&result);
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
        instructions: Some(
            "Call `add` to add two integers, `echo` to get your text back, `count` to count slowly."
                .into(),
        ),
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
    let count = Tool::with_input_schema(
        "count",
        json!({
            "type": "object",
            "properties": {
                "to": {"type": "integer", "minimum": 0, "maximum": COUNT_MAX},
                "delayMs": {"type": "integer", "minimum": 0, "maximum": DELAY_MAX_MS}
            },
            "required": ["to"]
        }),
    )
    .expect("a valid input schema");
    let count = Tool {
        description: Some(
            "Counts to `to`, a step every `delayMs` milliseconds, with progress; stops when cancelled."
                .into(),
        ),
        ..count
    };
    vec![add, echo, count]
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
