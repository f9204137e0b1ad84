//! The two tools of `two_tools` (`convert` and `count`) on rmcp, over Streamable HTTP with its
//! session manager, mounted in axum at `/mcp` (`--listen ADDR`, default `127.0.0.1:8808`).
use std::time::Duration;

use axum::serve::ListenerExt;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ProgressNotificationParam, RequestMetaObject};
use rmcp::transport::streamable_http_server::{session::local::LocalSessionManager, StreamableHttpService};
use rmcp::{tool, tool_router, Peer, RoleServer};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

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

struct TwoTools;

#[tool_router(server_handler)]
impl TwoTools {
    #[tool(description = "Converts a length from one unit to another")]
    fn convert(&self, Parameters(c): Parameters<Convert>) -> Json<Converted> {
        Json(Converted { value: c.value * c.from.metres() / c.to.metres(), unit: c.to })
    }

    #[tool(description = "Counts to `to`, one step every `delayMs`, with progress")]
    async fn count(&self, Parameters(c): Parameters<Count>, meta: RequestMetaObject, peer: Peer<RoleServer>, ct: CancellationToken) -> Result<Json<Counted>, String> {
        for step in 1..=c.to {
            tokio::select! {
                _ = ct.cancelled() => return Err("cancelled".into()),
                _ = tokio::time::sleep(Duration::from_millis(c.delay_ms)) => {}
            }
            if let Some(token) = meta.get_progress_token() {
                let _ = peer.notify_progress(ProgressNotificationParam::new(token, step.into()).with_total(c.to.into())).await;
            }
        }
        Ok(Json(Counted { counted: c.to }))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listen = std::env::args().skip_while(|a| a != "--listen").nth(1).unwrap_or_else(|| "127.0.0.1:8808".into());
    let service = StreamableHttpService::new(|| Ok(TwoTools), LocalSessionManager::default().into(), Default::default());
    let router = axum::Router::new().nest_service("/mcp", service);
    // Without TCP_NODELAY an answer sent as several SSE writes waits for the client's delayed ACK (40 ms).
    let listener = tokio::net::TcpListener::bind(listen).await?.tap_io(|tcp| drop(tcp.set_nodelay(true)));
    axum::serve(listener, router).await?;
    Ok(())
}
