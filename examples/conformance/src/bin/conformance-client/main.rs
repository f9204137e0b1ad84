//! An MCP client over Streamable HTTP on the crate's session engine, in the shape the conformance
//! suite runs clients: `conformance-client [--validate] [--record FILE] <server-url>`.
//!
//! It speaks the version the suite names in `MCP_CONFORMANCE_PROTOCOL_VERSION` (2025-11-25 when
//! unset). 2025-11-25: it initializes, opens the session's stream, lists the tools and calls each
//! one with arguments filled in from its input schema, answering the server's requests
//! (elicitation with the form's defaults, sampling with a fixed reply, roots) and resuming a
//! stream the server closed, after the `retry` delay, with `Last-Event-ID`. 2026-07-28: no
//! session; the engine's per-request client puts the version and capabilities in each request's
//! `_meta`, offers the input requests of an `InputRequiredResult` as requests (the client gives
//! the same answers) and sends the call again, and retries a refused version; this transport adds the headers the version asks for (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), skips tools whose `x-mcp-header` annotations are
//! invalid, and also lists and reads resources and prompts the server declares. Arguments the
//! suite passes in `MCP_CONFORMANCE_CONTEXT` (`toolCalls`) are used for those tools.
//!
//! The engine does the JSON-RPC (ids, matching answers, ping, what the client did not declare)
//! and its HTTP client adapter (`mcp_spec_engine::http::client`) the transport: the session's
//! headers, JSON and SSE answers, the GET stream, resumption, the 2026-07-28 headers; this client
//! adds only the `Mcp-Param-*` headers of the tools it calls.
//! With `--validate` every message it writes is checked with the crate's validators; findings go
//! to stderr, then `validated N messages, M findings`. `--record FILE` (implies `--validate`)
//! also appends every message it writes, and every JSON message it reads, to FILE as JSONL.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_conformance::{headers, Checker};
use mcp_spec_engine::http::client::{Connection, Direction, Limits};
use mcp_spec_engine::{self as engine, CallError, Config, Event, PerRequest};
use mcp_spec_types::runtime::RequestMethod;
use mcp_spec_types::{v2025_11_25 as mcp, v2026_07_28 as next};
use serde_json::json;

mod answers;
use answers::{arguments_for, context_calls, serve, texts, without_bad_nulls};

const NEXT: &str = "2026-07-28";
const TIMEOUT: Duration = Duration::from_secs(15);

/// Each callable tool's `x-mcp-header` arguments (2026-07-28), by tool name.
type Mirrored = Arc<Mutex<HashMap<String, Vec<(String, String)>>>>;

fn usage() -> ! {
    eprintln!("usage: conformance-client [--validate] [--record FILE] <server-url>");
    std::process::exit(2);
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut validate = false;
    let mut record = None;
    let mut url = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--validate" => validate = true,
            "--record" => record = args.next().or_else(|| usage()),
            _ => url = Some(arg),
        }
    }
    let Some(url) = url else { usage() };
    let checker: Option<Arc<Checker>> = match record {
        Some(path) => Some(Arc::new(Checker::recording(&path, "c2s").unwrap_or_else(
            |e| {
                eprintln!("cannot record to {path}: {e}");
                std::process::exit(2)
            },
        ))),
        None => validate.then(Arc::default),
    };
    let next = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").is_ok_and(|v| v == NEXT);
    let engine = if next {
        let capabilities = json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}});
        let info =
            json!({"name": "mcp-schema-conformance-client", "version": env!("CARGO_PKG_VERSION")});
        let per = PerRequest::new(NEXT, &capabilities)
            .and_then(|p| p.client_info(&info))
            .expect("JSON values");
        engine::Client::per_request(Config::default(), per)
    } else {
        engine::Client::new(Config::default())
    };
    let mut conn = Connection::new(&url, engine, Limits::default()).unwrap_or_else(|e| {
        eprintln!("{url}: {e}");
        std::process::exit(2)
    });
    if let Some(checker) = checker.clone() {
        conn.observe(move |direction, line| match direction {
            Direction::Written if next => {
                mcp_conformance::wrote::<next::ClientMessage>(line, Some(&checker))
            }
            Direction::Written => mcp_conformance::wrote::<mcp::ClientMessage>(line, Some(&checker)),
            Direction::Read => checker.received(line),
        });
    }
    let mirrored = Mirrored::default();
    let tools = mirrored.clone();
    conn.extra_headers(Arc::new(move |message| {
        let name = message.pointer("/params/name").and_then(|n| n.as_str());
        match (message.get("method").and_then(|m| m.as_str()), name) {
            (Some("tools/call"), Some(name)) => lock(&tools).get(name).map_or_else(Vec::new, |m| {
                headers::params(m, message.pointer("/params/arguments"))
            }),
            _ => Vec::new(),
        }
    }));
    // The suite waits for the client to exit; never make it wait forever.
    let run = async {
        if next {
            run_next(&mut conn, &mirrored).await
        } else {
            run(&mut conn).await
        }
    };
    let outcome = match tokio::time::timeout(Duration::from_secs(20), run).await {
        Ok(outcome) => outcome,
        Err(_) => Err("gave up after 20 s".into()),
    };
    // DELETEs the session, if there is one.
    if let Err(e) = conn.close(Duration::from_secs(2)).await {
        eprintln!("close: {e}");
    }
    if let Some(checker) = &checker {
        eprintln!("{}", checker.summary());
    }
    if let Err(e) = outcome {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// 2025-11-25: `initialize`, the tools, each one called.
async fn run(conn: &mut Connection) -> Result<(), String> {
    let capabilities = mcp::ClientCapabilities {
        sampling: Some(Default::default()),
        elicitation: Some(mcp::ClientCapabilitiesElicitation {
            form: Some(Default::default()),
            ..Default::default()
        }),
        roots: Some(Default::default()),
        ..Default::default()
    };
    let info = mcp::Implementation::new("mcp-schema-conformance-client", env!("CARGO_PKG_VERSION"));
    let params = mcp::InitializeRequestParams::new(mcp::LATEST_PROTOCOL_VERSION, capabilities, info);
    let init = call(conn, mcp::InitializeRequest::new(params, id())).await?;
    eprintln!(
        "server: {} {}, protocol {}",
        init.server_info.name, init.server_info.version, init.protocol_version
    );
    // The adapter opens the session's GET stream once this is written.
    conn.engine()
        .notify(&mcp::InitializedNotification::default())
        .map_err(|e| e.to_string())?;
    let tools = if init.capabilities.tools.is_some() {
        call(conn, mcp::ListToolsRequest::new(id())).await?.tools
    } else {
        Vec::new()
    };
    for tool in tools {
        let arguments = arguments_for(&serde_json::to_value(&tool.input_schema).unwrap_or_default());
        let params = mcp::CallToolRequestParams {
            arguments: Some(arguments),
            ..mcp::CallToolRequestParams::new(&tool.name)
        };
        let result = call(conn, mcp::CallToolRequest::new(params, id())).await?;
        eprintln!(
            "{}: {}",
            tool.name,
            texts(&serde_json::to_value(&result.content).unwrap_or_default())
        );
    }
    Ok(())
}

/// 2026-07-28: `server/discover`, then tools, resources and prompts as the server declares them.
async fn run_next(conn: &mut Connection, mirrored: &Mirrored) -> Result<(), String> {
    let discover = conn
        .engine()
        .discover(std::time::Instant::now(), Some(TIMEOUT))
        .map_err(|e| e.to_string())?;
    let found = conn
        .wait_for(discover, on_other)
        .await
        .map_err(|e| format!("server/discover: {e}"))?;
    eprintln!("server versions: {}", found.supported_versions.join(", "));
    let capabilities = found.capabilities;
    let meta = next::RequestMetaObject::default;
    let page = || next::PaginatedRequestParams::new(meta());
    if capabilities.tools.is_some() {
        let list = call(conn, next::ListToolsRequest::new(page(), next_id())).await?;
        let given = context_calls();
        for tool in list.tools {
            let schema = serde_json::to_value(&tool.input_schema).unwrap_or_default();
            match headers::tool_headers(&schema) {
                Ok(found) => lock(mirrored).insert(tool.name.clone(), found),
                Err(why) => {
                    eprintln!("{}: not called: {why}", tool.name);
                    continue;
                }
            };
            let arguments = match given.get(&tool.name) {
                Some(arguments) => without_bad_nulls(arguments, &schema),
                None => arguments_for(&schema),
            };
            let params = next::CallToolRequestParams {
                arguments: Some(arguments),
                ..next::CallToolRequestParams::new(meta(), &tool.name)
            };
            match call(conn, next::CallToolRequest::new(params, next_id())).await {
                Ok(result) => eprintln!(
                    "{}: {}",
                    tool.name,
                    texts(&serde_json::to_value(&result).unwrap_or_default()["content"])
                ),
                Err(e) => eprintln!("{}: {e}", tool.name),
            }
        }
    }
    if capabilities.resources.is_some() {
        let list = call(conn, next::ListResourcesRequest::new(page(), next_id())).await?;
        for resource in list.resources {
            let params = next::ReadResourceRequestParams::new(meta(), &resource.uri);
            call(conn, next::ReadResourceRequest::new(params, next_id())).await?;
        }
    }
    if capabilities.prompts.is_some() {
        let list = call(conn, next::ListPromptsRequest::new(page(), next_id())).await?;
        for prompt in list.prompts {
            let params = next::GetPromptRequestParams::new(meta(), &prompt.name);
            call(conn, next::GetPromptRequest::new(params, next_id())).await?;
        }
    }
    Ok(())
}

async fn call<R: RequestMethod>(conn: &mut Connection, request: R) -> Result<R::Result, String> {
    conn.call(request, Some(TIMEOUT), on_other)
        .await
        .map_err(|e: CallError| format!("{}: {e}", R::METHOD))
}

/// The server's requests (and input requests) answered; the rest logged.
fn on_other(engine: &mut engine::Client, event: Event) {
    match event {
        Event::Request(request) => {
            let outcome = match serve(&request.method, request.params.as_ref()) {
                Ok(result) => engine.respond(&request.id, &result),
                Err(error) => engine.respond_error(&request.id, &error),
            };
            if let Err(e) = outcome {
                eprintln!("cannot answer {}: {e}", request.method);
            }
        }
        Event::Answer(answer) => eprintln!("answer to an earlier request {}", answer.id),
        Event::Notification { method, .. } => eprintln!("notification: {method}"),
        Event::Progress { request, params } => eprintln!("progress of {request}: {params}"),
        Event::Cancelled { id, .. } => eprintln!("cancelled by the server: {id:?}"),
        Event::Dropped(why) => eprintln!("dropped: {why:?}"),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn id() -> mcp::RequestId {
    mcp::RequestId::Integer(0)
}

fn next_id() -> next::RequestId {
    next::RequestId::Integer(0)
}
