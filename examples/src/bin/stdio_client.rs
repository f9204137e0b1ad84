//! A minimal MCP client over stdio (protocol 2025-11-25) on the crate's session engine
//! (`mcp_spec_engine`), driving any stdio server.
//!
//! `stdio_client -- COMMAND ARGS...` starts the server (default: the `stdio_server` example,
//! built next to this binary) and sends `initialize`, `notifications/initialized`, `tools/list`,
//! one `tools/call` (`echo` if the server has it, else its first tool, with the required
//! arguments filled in from the tool's input schema), one of a tool it does not have, and when
//! the server lists resources, `resources/read` of the first. The engine matches answers to
//! requests whatever the server sends in between: notifications, `ping` (answered by the
//! engine), or requests for capabilities this client did not declare (refused by the engine).
//! What the answers say goes to stdout; what else the server sent, to stderr.
//!
//! The loop is the crate's blocking transport (`engine::blocking::Connection`, std only): it
//! starts the server (`Connection::spawn`), a thread reads the server's stdout, each
//! `Connection::call` runs the connection until its answer comes or the engine's deadline for it
//! passes (what else arrives goes to a callback), and `Connection::close` ends the server's
//! input and waits for it to exit, killing it past a grace period.
//!
//! ```sh
//! cargo build -q -p mcp-schema-examples && cargo run -q -p mcp-schema-examples --bin stdio_client
//! cargo run -q -p mcp-schema-examples --bin stdio_client -- npx @modelcontextprotocol/server-everything stdio
//! ```

#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::io;
use std::process::Command;
use std::time::Duration;

use mcp_spec_engine::blocking::Connection;
use mcp_spec_engine::{CallError, Client, Closed, Config, Event, RequestError};
use mcp_spec_types::rpc::METHOD_NOT_FOUND;
use mcp_spec_types::runtime::{RequestMethod, RpcError};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolRequest, CallToolRequestParams, InitializeRequest, ListResourcesRequest,
    ListToolsRequest, ReadResourceRequest, ReadResourceRequestParams, RequestId,
};
use serde_json::{json, Map, Value};

/// How long any one request may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// How long the server has to exit once its input ends.
const GRACE: Duration = Duration::from_secs(5);

fn main() -> io::Result<()> {
    let mut args = std::env::args_os().skip(1).skip_while(|a| a == "--");
    let mut command = match args.next() {
        Some(program) => Command::new(program),
        None => Command::new(
            std::env::current_exe()?
                .with_file_name(format!("stdio_server{}", std::env::consts::EXE_SUFFIX)),
        ),
    };
    command.args(args);
    // The connection starts the server, and `close` ends it.
    let mut server = Session {
        conn: Connection::spawn(Client::new(Config::default()), &mut command)?,
    };

    let info = mcp::Implementation::new("example-stdio-client", "0.1.0");
    let params = mcp::InitializeRequestParams::new(
        mcp::LATEST_PROTOCOL_VERSION,
        mcp::ClientCapabilities::default(),
        info,
    );
    // The id a request is built with is replaced by the engine's own.
    let init = server.call(InitializeRequest::new(params, RequestId::Integer(0)))?;
    let init = init.map_err(io::Error::other)?;
    println!(
        "server: {} {}, protocol {}",
        init.server_info.name, init.server_info.version, init.protocol_version
    );
    server
        .conn
        .engine()
        .notify(&mcp::InitializedNotification::default())
        .map_err(io::Error::other)?;

    let tools = server.call(ListToolsRequest::new(RequestId::Integer(0)))?;
    let tools = tools.map_err(io::Error::other)?.tools;
    for tool in &tools {
        let description = tool.description.as_deref().unwrap_or_default();
        println!("tool: {} - {description}", tool.name);
    }

    let chosen = tools.iter().find(|t| t.name == "echo").or(tools.first());
    let calls = chosen
        .map(|t| {
            (
                t.name.clone(),
                arguments_for(&t.input_schema.properties, &t.input_schema.required),
            )
        })
        .into_iter()
        .chain([("no-such-tool".to_string(), Map::new())]);
    for (name, arguments) in calls {
        let params = CallToolRequestParams {
            arguments: Some(arguments),
            ..CallToolRequestParams::new(name.as_str())
        };
        match server.call(CallToolRequest::new(params, RequestId::Integer(0)))? {
            Ok(result) => {
                let texts: Vec<&str> = result
                    .content
                    .iter()
                    .filter_map(|c| match c {
                        mcp::ContentBlock::TextContent(t) => Some(t.text.as_str()),
                        _ => None,
                    })
                    .collect();
                let error = if result.is_error == Some(true) {
                    " (isError)"
                } else {
                    ""
                };
                println!("{name}: text {texts:?}{error}");
            }
            Err(RequestError::Rpc(error)) => {
                println!("{name}: error {} {}", error.code, error.message)
            }
            Err(other) => return Err(io::Error::other(other)),
        }
    }

    if init.capabilities.resources.is_some() {
        let listed = server.call(ListResourcesRequest::new(RequestId::Integer(0)))?;
        let listed = listed.map_err(io::Error::other)?.resources;
        println!("resources: {}", listed.len());
        if let Some(first) = listed.first() {
            let params = ReadResourceRequestParams::new(first.uri.as_str());
            let read = server.call(ReadResourceRequest::new(params, RequestId::Integer(0)))?;
            let read = read.map_err(io::Error::other)?;
            println!("read {}: {} content(s)", first.uri, read.contents.len());
        }
    } else {
        println!("resources: not offered");
    }

    // The end of its input ends the server; one that outlives the grace period is killed.
    let closed = server.conn.close(GRACE)?;
    let exited = matches!(closed, Closed::Ended(Some(status)) if status.success());
    println!("server exited: {exited}");
    Ok(())
}

/// Arguments for a tool: each required property, with a value of its declared type.
fn arguments_for(
    properties: &Option<BTreeMap<String, Map<String, Value>>>,
    required: &Option<Vec<String>>,
) -> Map<String, Value> {
    let mut arguments = Map::new();
    for name in required.iter().flatten() {
        let kind = properties
            .as_ref()
            .and_then(|p| p.get(name))
            .and_then(|s| s.get("type"));
        let value = match kind.and_then(Value::as_str) {
            Some("integer" | "number") => json!(2),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("hello"),
        };
        arguments.insert(name.clone(), value);
    }
    arguments
}

/// A server at the other end of two pipes, and the engine that keeps the session.
struct Session {
    conn: Connection<Client>,
}

impl Session {
    /// Sends a request and runs the session until its answer (or its deadline) comes.
    fn call<R: RequestMethod>(
        &mut self,
        request: R,
    ) -> io::Result<Result<R::Result, RequestError>> {
        match self.conn.call(request, Some(TIMEOUT), on_other) {
            Ok(result) => Ok(Ok(result)),
            Err(CallError::Request(e)) => Ok(Err(e)),
            Err(other) => Err(other.into()),
        }
    }
}

/// Every event but the answer a call waits for.
fn on_other(engine: &mut Client, event: Event) {
    match event {
        Event::Answer(answer) => eprintln!("answer to an earlier request {}", answer.id),
        // The engine answered ping and refused sampling, elicitation and roots (this client
        // declares none); any other request is one this client does not serve.
        Event::Request(request) => {
            eprintln!("server request: {}", request.method);
            let error = RpcError {
                code: METHOD_NOT_FOUND,
                message: format!("Method not found: {}", request.method),
                data: None,
            };
            // The connection is alive while it calls this; a refusal cannot fail otherwise.
            let _ = engine.respond_error(&request.id, &error);
        }
        Event::Notification { method, .. } => eprintln!("notification: {method}"),
        Event::Progress { request, .. } => eprintln!("progress for request {request}"),
        Event::Cancelled { id, .. } => eprintln!("the server cancelled its request {id:?}"),
        Event::Dropped(why) => eprintln!("dropped a line: {why:?}"),
    }
}
