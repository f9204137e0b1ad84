//! An MCP server over Streamable HTTP on the engine's HTTP adapter
//! (`mcp_spec_engine::http::server::McpService`: sessions, a stream per request, resumption,
//! Origin checks, 2026-07-28 requests without a session), that offers what the conformance
//! suite's server scenarios call (`test_*` tools, `test://` resources, prompts, completion,
//! logging, progress, sampling, elicitation, SSE resumption, InputRequiredResult).
//!
//! ```sh
//! conformance-server [--port 3001] [--validate]     # --port 0: any free port
//! ```
//!
//! It listens on 127.0.0.1 only, at `/mcp`. With `--validate` every message it writes is checked
//! with the crate's validators; findings go to stderr, and on Ctrl-C (SIGINT) it prints
//! `validated N messages, M findings` and exits with status 1 if there were any. `--record FILE`
//! (implies `--validate`) also appends every message it writes, and every JSON message it reads,
//! to FILE as JSONL.

#![forbid(unsafe_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_conformance::Checker;
use mcp_spec_engine::http::server::{serve, McpService, Options, Recorder, RequestContext};
use mcp_spec_engine::{self as engine, LogLevel, ServerInfo};
use mcp_spec_types::read_message;
use mcp_spec_types::rpc::{self, ErrorResponse};
use mcp_spec_types::runtime::{Message, RequestMethod, RpcError, SchemaType};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolRequestParams, CallToolResult, ClientMessage, ClientRequest, ContentBlock,
    RequestId, ServerMessage, ServerResult,
};
use serde_json::{json, Number, Value};

/// A failed request: the error answer, whose `id` the engine fills in.
type Failure = ErrorResponse<RequestId>;

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file holding one silent 8-bit sample at 8 kHz.
const WAV: &str = "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";
/// How long a client waits before reconnecting to a stream the server closed.
const RETRY_MS: u64 = 500;
/// Sessions kept at once; a new one past this ends the least recently used.
const MAX_SESSIONS: usize = 1024;

mod catalog;
mod ctx;
mod stateless;

use catalog::*;
use ctx::*;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut port = 3001u16;
    let mut validate = false;
    let mut record = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => match args.next().and_then(|p| p.parse().ok()) {
                Some(number) => port = number,
                None => usage(),
            },
            "--validate" => validate = true,
            "--record" => record = Some(args.next().unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    let checker = match record {
        Some(path) => Some(Checker::recording(&path, "s2c").unwrap_or_else(|e| {
            eprintln!("cannot record to {path}: {e}");
            std::process::exit(2)
        })),
        None => validate.then(Checker::default),
    };
    let app = Arc::new(App { checker, subscriptions: Mutex::default() });
    // On 127.0.0.1 only: a request for another host is a DNS-rebinding page's.
    let mut options = Options { allowed_hosts: Some(Vec::new()), retry_ms: RETRY_MS, max_sessions: MAX_SESSIONS, request_timeout: Duration::from_secs(30), ..Options::default() };
    if app.checker.is_some() {
        let recording = app.clone();
        // Each message read is recorded; each one written is checked as its version's (a
        // request without a session is 2026-07-28's) and recorded.
        options.record = Some(Recorder(Arc::new(move |direction, version, line| match direction {
            "c2s" => recording.checker.as_ref().map_or((), |c| c.received(line)),
            _ => drop(recording.wrote(line, version.is_none())),
        })));
    }
    let handler_app = app.clone();
    let service = McpService::with_options(info(), options, move |request: engine::Request, cx: RequestContext| {
        let ctx = Ctx { app: handler_app.clone(), cx };
        async move {
            match ctx.cx.session_id() {
                Some(_) => ctx.run(&request).await,
                None => stateless::run(&ctx, &request).await,
            }
        }
    });
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.expect("bind");
    // With `--port 0` the system picks the port; run.sh reads it from this line.
    let port = listener.local_addr().expect("a bound address").port();
    eprintln!("listening on http://127.0.0.1:{port}/mcp");
    tokio::select! {
        served = serve(listener, service) => served.expect("accept"),
        _ = tokio::signal::ctrl_c() => {}
    }
    if let Some(checker) = &app.checker {
        eprintln!("{}", checker.summary());
        std::process::exit(i32::from(checker.findings() > 0));
    }
}

fn usage() -> ! {
    eprintln!("usage: conformance-server [--port N] [--validate] [--record FILE]");
    std::process::exit(2);
}

struct App {
    checker: Option<Checker>,
    /// `resources/subscribe` of each session (2025-11-25), by session id.
    subscriptions: Mutex<HashMap<String, BTreeSet<String>>>,
}

/// What the engines answer `initialize` and `server/discover` with: sessions of 2025-06-18 and
/// 2025-11-25, requests of 2026-07-28 without one.
fn info() -> ServerInfo {
    let capabilities = json!({"logging": {}, "completions": {}, "prompts": {"listChanged": false}, "resources": {"subscribe": true, "listChanged": false}, "tools": {"listChanged": false}});
    let info = ServerInfo::new("mcp-schema-conformance-server", env!("CARGO_PKG_VERSION"))
        .versions(&["2025-06-18", "2025-11-25", "2026-07-28"]);
    info.capabilities(&capabilities).expect("JSON")
}

impl App {
    /// Checks a line the engine wrote, as a 2026-07-28 message (`next`) or a 2025-11-25 one.
    fn wrote(&self, line: &[u8], next: bool) -> String {
        if next {
            return self.write_next(line);
        }
        mcp_conformance::wrote::<ServerMessage>(line, self.checker.as_ref());
        String::from_utf8_lossy(line).into_owned()
    }
}
