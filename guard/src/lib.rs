//! A `tower` layer that checks Streamable HTTP MCP traffic as it flows: every message both ways
//! (SSE answers included) against the MCP schema of its version, the transport's header rules and,
//! where a session is seen (`Mcp-Session-Id`), the session rules.
//!
//! - [`Mode::Audit`]: everything passes; each finding is a `tracing` event on the request's span
//!   (named and attributed as OpenTelemetry's MCP conventions say: [`telemetry`]) and a count
//!   ([`Stats`]).
//! - [`Mode::Enforce`]: a request that breaks a MUST is answered by the layer with the JSON-RPC
//!   error its version defines, naming each rule and JSON pointer ([`answer`]); the service never
//!   sees it. What the service answers is never altered, only reported.
//!
//! Each rule can be turned off or down ([`Config::rule`]); memory is bounded per session and in
//! total ([`Limits`]); the layer's own failures pass the request on with `fail_open`.
//!
//! The checks come through [`Checks`] ([`inspect`]), one [`Stream`] of them per session;
//! [`McpChecks`] is the project's checker (`mcp-spec-check`, what `mcp-schema check` runs).
//!
//! In front of the engine's server (any `tower_service::Service<http::Request<_>>` answering
//! `http::Response<_>` works the same: rmcp's `StreamableHttpService`, an axum router):
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! use mcp_spec_engine::http::server::McpService;
//! use mcp_spec_engine::ServerInfo;
//! use mcp_spec_guard::{Config, GuardLayer, Level, McpChecks};
//! use tower_layer::Layer;
//!
//! let info = ServerInfo::new("demo", "0.1.0").capabilities(&serde_json::json!({"tools": {}})).unwrap();
//! let service = McpService::new(info, |_request: mcp_spec_engine::Request, _cx| async move { None::<Result<serde_json::Value, _>> });
//! let guard = GuardLayer::new(Config::enforce().rule("format.uri", Level::Report), McpChecks::default());
//! let guarded = guard.layer(service); // serve it with hyper, or mount it in axum
//! # let _ = guarded; Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]

pub mod answer;
mod body;
mod checker;
mod config;
pub mod inspect;
mod layer;
#[cfg(feature = "metrics")]
mod metrics;
mod sessions;
mod shared;
mod tap;
pub mod telemetry;

pub use body::{Forward, GuardBody};
pub use checker::McpChecks;
pub use config::{Config, Level, Limits, Mode};
pub use inspect::{Checks, Direction, Event, Finding, RequestHead, Stream};
pub use layer::{Answered, Guard, GuardLayer};
#[cfg(feature = "metrics")]
pub use metrics::GuardMetrics;
pub use telemetry::Stats;
