//! The names of Streamable HTTP's MCP headers, lowercased (HTTP header names are case-insensitive,
//! and the `http` crate and the recordings keep them lowercased): the one copy the engine's server
//! and client, the checker's transport rules, the proxy and the guard take them from.

/// `Mcp-Session-Id`: the session a server assigned (2025-03-26 to 2025-11-25).
pub const SESSION_ID: &str = "mcp-session-id";
/// `MCP-Protocol-Version`: the version a request is sent under (2025-06-18 on).
pub const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// `Last-Event-ID`: the SSE event a client resumes after (2025-03-26 on).
pub const LAST_EVENT_ID: &str = "last-event-id";
/// `Mcp-Method`: 2026-07-28's copy of a request's method (SEP-2243).
pub const METHOD: &str = "mcp-method";
/// `Mcp-Name`: 2026-07-28's copy of a request's `params.name` or `params.uri` (SEP-2243).
pub const NAME: &str = "mcp-name";
/// `Mcp-Param-{Name}`: 2026-07-28's copies of the params a tool's schema marks (SEP-2243).
pub const PARAM_PREFIX: &str = "mcp-param-";

/// The params key whose string `Mcp-Name` carries for a request of `method` (2026-07-28, SEP-2243:
/// a tool's or prompt's `name`, a resource's `uri`; the Tasks extension adds its task requests'
/// `taskId`, so intermediaries can route them to the server holding the task); `None` for a
/// method whose requests carry no `Mcp-Name`.
pub fn name_param(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    }
}
