//! The two tools of issue 28 on the session engine and the `tools` feature, over stdio: `convert`
//! (a length between units) and `count` (a step every `delayMs`, with progress, stops when
//! cancelled). `examples/rmcp-compare/` has the same server on rmcp.

#![forbid(unsafe_code)]
use std::sync::Arc;
use std::time::Duration;

use mcp_spec_engine::blocking::{Connection, Context};
use mcp_spec_engine::{Config, Event, Server, ServerInfo};
use mcp_spec_types::runtime::RpcError;
use mcp_spec_engine::tools::Router;
use mcp_spec_types::v2025_11_25 as mcp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Meters,
    Feet,
    Inches,
    Miles,
}

impl Unit {
    fn metres(self) -> f64 {
        match self {
            Unit::Meters => 1.0,
            Unit::Feet => 0.3048,
            Unit::Inches => 0.0254,
            Unit::Miles => 1609.344,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
struct Convert {
    value: f64,
    from: Unit,
    to: Unit,
}

#[derive(Serialize, JsonSchema)]
struct Converted {
    value: f64,
    unit: Unit,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Count {
    to: u32,
    #[serde(default)]
    delay_ms: u64,
}

#[derive(Serialize, JsonSchema)]
struct Counted {
    counted: u32,
}

fn convert(c: Convert, _: &mut Context<Server>) -> Result<Converted, String> {
    Ok(Converted { value: c.value * c.from.metres() / c.to.metres(), unit: c.to })
}

fn count(c: Count, cx: &mut Context<Server>) -> Result<Counted, String> {
    for step in 1..=c.to {
        std::thread::sleep(Duration::from_millis(c.delay_ms));
        if cx.is_cancelled() {
            return Err("cancelled".into());
        }
        if cx.wants_progress() {
            let _ = cx.progress(step.into(), Some(c.to.into()), None);
        }
    }
    Ok(Counted { counted: c.to })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let router = Arc::new(Router::new().tool("convert", "Converts a length from one unit to another", convert)?.waiting_tool("count", "Counts to `to`, one step every `delayMs`, with progress", count)?);
    // The engine negotiates the version and answers `initialize` (and 2026-07-28's `server/discover`) itself.
    let info = ServerInfo::new("two_tools", "0.1.0").capabilities(&serde_json::json!({"tools": {}}))?;
    let mut conn = Connection::stdio(Server::with_info(Config::default(), info));
    while let Some(event) = conn.next_event()? {
        let Event::Request(request) = event else { continue };
        let version = conn.engine().version_of(&request.id).unwrap_or(mcp::LATEST_PROTOCOL_VERSION).to_owned();
        let (router, mut cx, waits) = (router.clone(), conn.context(&request), router.waits(&request));
        let answer = move || match router.handle(&version, &request, &mut cx) {
            Some(Ok(result)) => cx.respond(&result),
            Some(Err(error)) => cx.respond_error(error),
            None => cx.respond_error(RpcError { code: mcp::METHOD_NOT_FOUND, message: format!("Method not found: {}", request.method), data: None }),
        };
        // Quick tools are answered in place; one that waits (`count` sleeps) gets a thread, so others are answered meanwhile.
        if waits { drop(std::thread::spawn(answer)) } else { answer() }
    }
    Ok(())
}
