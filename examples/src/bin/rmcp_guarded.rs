//! The two tools of `two_tools.rs` (`convert`, `count`) on rmcp 3.11's Streamable HTTP server
//! (`StreamableHttpService` with its session manager) in axum, behind the checking layer
//! (`mcp-spec-guard`): `rmcp_guarded [--listen ADDR] [--mode audit|enforce]` (default
//! 127.0.0.1:8809, audit), endpoint `/mcp`. Feature `rmcp` (Rust 1.88, as rmcp).
//!
//! The layer's findings are JSON lines on stderr. `GET /served` answers how many requests reached
//! rmcp: a request refused in enforce mode never does.

#![forbid(unsafe_code)]

#[path = "../guarded.rs"]
mod guarded;
#[path = "../rmcp_two_tools.rs"]
mod two_tools;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::serve::ListenerExt;
use mcp_spec_guard::Forward;
use rmcp::transport::streamable_http_server::{session::local::LocalSessionManager, StreamableHttpService};
use tower::ServiceExt;
use tower_layer::Layer;
use two_tools::TwoTools;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listen = guarded::arg("--listen").unwrap_or_else(|| "127.0.0.1:8809".into());
    let guard = guarded::layer(&guarded::arg("--mode").unwrap_or_else(|| "audit".into()))?;
    let served = Arc::new(AtomicU64::new(0));
    let count = served.clone();
    let rmcp = StreamableHttpService::new(|| Ok(TwoTools), LocalSessionManager::default().into(), Default::default()).map_request(move |request: axum::http::Request<Forward<axum::body::Body>>| {
        count.fetch_add(1, Ordering::SeqCst);
        request
    });
    let app = axum::Router::new().nest_service("/mcp", guard.layer(rmcp)).route("/served", axum::routing::get(move || async move { served.load(Ordering::SeqCst).to_string() }));
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    // Without TCP_NODELAY an answer sent as several SSE writes waits for the client's delayed ACK.
    axum::serve(listener.tap_io(|tcp| drop(tcp.set_nodelay(true))), app).await?;
    Ok(())
}
