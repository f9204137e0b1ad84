//! What the guarded servers share (`rmcp_guarded`, `http_server_guarded`; each includes this
//! file): the mode named on the command line, the checking layer (`mcp-spec-guard`) in it, and
//! its `tracing` events written as JSON lines on stderr, each with its request span's fields (the
//! MCP attributes: `mcp.method.name`, `mcp.session.id`, `jsonrpc.request.id`, ...).

use mcp_spec_guard::{Config, GuardLayer, McpChecks, Mode};

/// The value after `flag` on the command line.
pub fn arg(flag: &str) -> Option<String> {
    std::env::args().skip_while(|a| a != flag).nth(1)
}

/// The layer in the mode `name` (`audit` or `enforce`), its events logged to stderr.
pub fn layer(name: &str) -> Result<GuardLayer, String> {
    let mode = match name {
        "audit" => Mode::Audit,
        "enforce" => Mode::Enforce,
        other => return Err(format!("unknown mode {other:?}: audit or enforce")),
    };
    tracing_subscriber::fmt().json().with_writer(std::io::stderr).with_current_span(true).with_span_list(false).init();
    Ok(GuardLayer::new(Config { mode, ..Config::default() }, McpChecks::default()))
}
