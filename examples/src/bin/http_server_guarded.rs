//! `http_server` (the two tools on the engine's `McpService`) behind the checking layer
//! (`mcp-spec-guard`): `http_server_guarded [--listen ADDR] [--mode audit|enforce]` (default
//! 127.0.0.1:8808, audit), endpoint `/mcp`. The layer's findings are JSON lines on stderr.
//! (`http_server` itself stays without the layer: rmcp-compare builds it alone to measure it.)

#![forbid(unsafe_code)]

#[path = "../guarded.rs"]
mod guarded;
// Its `service`; its own `main` is left unused.
#[allow(dead_code)]
#[path = "http_server.rs"]
mod http_server;

use mcp_spec_engine::http::server::serve;
use tower_layer::Layer;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listen = guarded::arg("--listen").unwrap_or_else(|| "127.0.0.1:8808".into());
    let guard = guarded::layer(&guarded::arg("--mode").unwrap_or_else(|| "audit".into()))?;
    let service = guard.layer(http_server::service()?);
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    Ok(serve(listener, service).await?)
}
