//! Streamable HTTP (feature `http`): the engine's server and client over hyper 1 and tokio. The
//! server is a `tower_service::Service` to mount in axum or to serve alone; the client speaks both
//! eras of the transport (an `initialize` and a session, and 2026-07-28's requests on their own).

pub mod client;
pub mod server;

/// The names (lowercased) of the transport's MCP headers: the crate's, which the checker uses too.
pub use mcp_spec_types::runtime::header;
