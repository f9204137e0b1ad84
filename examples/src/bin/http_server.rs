//! The two tools of `two_tools.rs` (`convert`, `count`) over Streamable HTTP, on the engine's
//! `http` feature: `http_server [--listen ADDR]` (default 127.0.0.1:8808), endpoint `/mcp`. Clients
//! of 2025-11-25 and earlier get a session; 2026-07-28 ones send each request on its own.

#![forbid(unsafe_code)]
use std::sync::Arc;
use std::time::Duration;

use mcp_spec_engine::http::server::{serve, Handler, McpService, RequestContext};
use mcp_spec_engine::tools::Router;
use mcp_spec_engine::{Request, ServerInfo};
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

fn convert(c: Convert, _: &mut RequestContext) -> Result<Converted, String> {
    Ok(Converted { value: c.value * c.from.metres() / c.to.metres(), unit: c.to })
}

fn count(c: Count, cx: &mut RequestContext) -> Result<Counted, String> {
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

/// The two tools on the engine's server (`http_server_guarded` serves it behind the checking layer).
pub fn service() -> Result<McpService<impl Handler>, Box<dyn std::error::Error>> {
    let router = Arc::new(Router::new().tool("convert", "Converts a length from one unit to another", convert)?.waiting_tool("count", "Counts to `to`, one step every `delayMs`, with progress", count)?);
    // The engine negotiates the version and answers `initialize` (and 2026-07-28's `server/discover`) itself.
    let info = ServerInfo::new("two_tools", "0.1.0").capabilities(&serde_json::json!({"tools": {}}))?;
    Ok(McpService::new(info, move |request: Request, mut cx: RequestContext| {
        let router = router.clone();
        async move {
            // Quick tools are answered in place; one that waits (`count` sleeps) runs on a blocking thread.
            if !router.waits(&request) {
                return router.handle(&cx.version(), &request, &mut cx);
            }
            tokio::task::spawn_blocking(move || router.handle(&cx.version(), &request, &mut cx)).await.ok().flatten()
        }
    }))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listen = std::env::args().skip_while(|a| a != "--listen").nth(1).unwrap_or_else(|| "127.0.0.1:8808".into());
    let service = service()?;
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    Ok(serve(listener, service).await?)
}
