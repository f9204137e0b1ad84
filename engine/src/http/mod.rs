//! Streamable HTTP (feature `http`): the engine's server and client over hyper 1 and tokio. The
//! server is a `tower_service::Service` to mount in axum or to serve alone; the client speaks both
//! eras of the transport (an `initialize` and a session, and 2026-07-28's requests on their own).

pub mod client;
pub mod server;

/// The names (lowercased) of the transport's MCP headers that the server and the client use.
pub mod header {
    pub const SESSION_ID: &str = "mcp-session-id";
    pub const PROTOCOL_VERSION: &str = "mcp-protocol-version";
    pub const LAST_EVENT_ID: &str = "last-event-id";
    /// 2026-07-28's mirrored headers (SEP-2243).
    pub const METHOD: &str = "mcp-method";
    pub const NAME: &str = "mcp-name";
}
