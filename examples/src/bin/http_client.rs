//! A minimal MCP client over Streamable HTTP on the engine's HTTP adapter
//! (`mcp_spec_engine::http::client`, feature `http`).
//!
//! `http_client [--session] URL` connects the way the SDKs settled on: `server/discover` in the per-request
//! form of 2026-07-28 first, and on a server of sessions, `initialize` (the reason is printed to
//! stderr). Then it lists the tools, calls one with progress asked for (a tool named `count` or
//! one whose name says long-running, else `echo`, else the first; required arguments filled in
//! from its input schema), prints what came back and closes the connection (a DELETE of the
//! session, if it has one). `--session` skips the per-request form and sends `initialize` at once.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin http_client -- http://127.0.0.1:3001/mcp
//! ```

#![forbid(unsafe_code)]

use std::error::Error;
use std::time::Duration;

use mcp_spec_engine::http::client::{connect, Connection, Limits, Negotiated};
use mcp_spec_engine::{Client, Config, Event, PerRequest};
use mcp_spec_types::{v2025_11_25 as session, v2026_07_28 as next};
use serde_json::{json, Map, Value};

/// How long any one request may take.
const TIMEOUT: Duration = Duration::from_secs(30);

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let session_only = args.iter().any(|a| a == "--session");
    let url = args.iter().find(|a| !a.starts_with("--")).ok_or("usage: http_client [--session] URL")?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(run(url, session_only))
}

async fn run(url: &str, session_only: bool) -> Result<(), Box<dyn Error>> {
    let info = json!({"name": "example-http-client", "version": "0.1.0"});
    let per_request = PerRequest::new(next::LATEST_PROTOCOL_VERSION, &json!({}))?.client_info(&info)?;
    let per_request = (!session_only).then_some(per_request);
    let params = session::InitializeRequestParams::new(
        session::LATEST_PROTOCOL_VERSION,
        session::ClientCapabilities::default(),
        session::Implementation::new("example-http-client", "0.1.0"),
    );
    let initialize = session::InitializeRequest::new(params, session::RequestId::Integer(0));
    let (mut conn, negotiated) = connect(url, Config::default(), Limits::default(), per_request, Some(initialize), TIMEOUT).await?;
    match negotiated {
        Negotiated::PerRequest { discover } => {
            // 2026-07-28 results name the server in their `_meta`.
            let server = &discover["_meta"][mcp_spec_types::runtime::meta::SERVER_INFO];
            println!("server: {} {}, protocol {} per request", server["name"].as_str().unwrap_or("?"), server["version"].as_str().unwrap_or("?"), next::LATEST_PROTOCOL_VERSION);
            per_request_tour(&mut conn).await?;
        }
        Negotiated::Session { initialized, fell_back } => {
            if let Some(why) = fell_back {
                eprintln!("fell back to initialize: {why}");
            }
            let server = &initialized.server_info;
            println!("server: {} {}, protocol {} in a session", server.name, server.version, initialized.protocol_version);
            conn.engine().notify(&session::InitializedNotification::default())?;
            session_tour(&mut conn).await?;
        }
    }
    let closed = conn.close(Duration::from_secs(5)).await?;
    println!("closed: {closed:?}");
    Ok(())
}

/// `tools/list` and one `tools/call` with progress, in a session (up to 2025-11-25).
async fn session_tour(conn: &mut Connection) -> Result<(), Box<dyn Error>> {
    let tools = conn.call(session::ListToolsRequest::new(session::RequestId::Integer(0)), Some(TIMEOUT), on_other).await?;
    let Some((name, arguments)) = choose(&serde_json::to_value(&tools)?) else { return Ok(()) };
    let params = session::CallToolRequestParams { arguments: Some(arguments), ..session::CallToolRequestParams::new(name.as_str()) };
    let result = conn.call_with_progress(session::CallToolRequest::new(params, session::RequestId::Integer(0)), Some(TIMEOUT), on_other).await?;
    print_result(&name, &serde_json::to_value(&result)?);
    Ok(())
}

/// The same per request (2026-07-28): the engine fills each request's `_meta`.
async fn per_request_tour(conn: &mut Connection) -> Result<(), Box<dyn Error>> {
    let list = next::ListToolsRequest::new(next::PaginatedRequestParams::new(next::RequestMetaObject::default()), next::RequestId::Integer(0));
    let tools = conn.call(list, Some(TIMEOUT), on_other).await?;
    let Some((name, arguments)) = choose(&serde_json::to_value(&tools)?) else { return Ok(()) };
    let params = next::CallToolRequestParams { arguments: Some(arguments), ..next::CallToolRequestParams::new(next::RequestMetaObject::default(), name.as_str()) };
    let result = conn.call_with_progress(next::CallToolRequest::new(params, next::RequestId::Integer(0)), Some(TIMEOUT), on_other).await?;
    print_result(&name, &serde_json::to_value(&result)?);
    Ok(())
}

/// What the server sent besides the answers: progress to stdout, the rest to stderr.
fn on_other(_: &mut Client, event: Event) {
    match event {
        Event::Progress { params, .. } => println!("progress: {} of {}", params["progress"], params["total"]),
        Event::Notification { method, .. } => eprintln!("notification: {method}"),
        other => eprintln!("other: {other:?}"),
    }
}

/// Prints the tools of a `tools/list` result; the one to call and its arguments.
fn choose(listed: &Value) -> Option<(String, Map<String, Value>)> {
    let tools = listed["tools"].as_array().cloned().unwrap_or_default();
    for tool in &tools {
        println!("tool: {}", tool["name"].as_str().unwrap_or("?"));
    }
    let named = |test: &dyn Fn(&str) -> bool| tools.iter().find(|t| t["name"].as_str().is_some_and(test));
    let tool = named(&|n| n == "count").or_else(|| named(&|n| n.contains("long-running"))).or_else(|| named(&|n| n == "echo")).or(tools.first())?;
    let schema = &tool["inputSchema"];
    let mut arguments = Map::new();
    // The required arguments, and every number (a short run of a long-running tool).
    let properties = schema["properties"].as_object().cloned().unwrap_or_default();
    let numbers = properties.iter().filter(|(_, p)| matches!(p["type"].as_str(), Some("integer" | "number"))).map(|(n, _)| n.as_str());
    for name in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).chain(numbers) {
        let value = match schema["properties"][name]["type"].as_str() {
            Some("integer" | "number") => json!(2),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("hello"),
        };
        arguments.insert(name.to_owned(), value);
    }
    Some((tool["name"].as_str()?.to_owned(), arguments))
}

fn print_result(name: &str, result: &Value) {
    let texts: Vec<&str> = result["content"].as_array().into_iter().flatten().filter_map(|c| c["text"].as_str()).collect();
    let error = if result["isError"] == true { " (isError)" } else { "" };
    println!("{name}: text {texts:?}{error}");
}
