//! The two tools of `two_tools.rs` (`convert`, `count`) on rmcp 3.11: included by `rmcp_guarded`
//! (this package, feature `rmcp`) and by rmcp-compare's `two-tools-rmcp-http`. (rmcp-compare's
//! stdio server keeps its own copy: its line count is the one compared with `two_tools.rs`.)

use std::time::Duration;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ProgressNotificationParam, RequestMetaObject};
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

/// The server: its tools are the methods below.
pub struct TwoTools;

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
