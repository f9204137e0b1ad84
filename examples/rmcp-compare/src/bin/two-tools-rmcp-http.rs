//! The two tools of `two_tools` (`convert` and `count`) on rmcp, over Streamable HTTP with its
//! session manager, mounted in axum at `/mcp` (`--listen ADDR`, default `127.0.0.1:8808`).
use axum::serve::ListenerExt;
use rmcp::transport::streamable_http_server::{session::local::LocalSessionManager, StreamableHttpService};

// The tools, shared with the examples package's `rmcp_guarded`.
#[path = "../../../src/rmcp_two_tools.rs"]
mod two_tools;
use two_tools::TwoTools;

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
