//! What a server says about itself, once: the engine answers `initialize` and `server/discover`
//! from it, and puts its identity on 2026-07-28 results.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::check::BUILT;
use super::Error;
use mcp_spec_types::negotiate::{self, Lifecycle, SERVER_INFO_META_KEY};

/// A server's identity, the protocol versions it serves, its capabilities and instructions.
/// Given to [`Server::with_info`](super::Server::with_info), the engine negotiates the version
/// (through [`negotiate`](mcp_spec_types::negotiate)) and answers `initialize` and `server/discover` itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// `serverInfo` (an `Implementation`: `name`, `version`, and what else the version allows).
    pub implementation: Value,
    /// The versions served. Handshake versions (2025-11-25 and earlier) are negotiated in
    /// `initialize`; per-request ones (2026-07-28) are checked on every request.
    pub versions: Vec<String>,
    /// `capabilities`, as every version served reads them.
    pub capabilities: Value,
    pub instructions: Option<String>,
    /// `ttlMs` of the `server/discover` result (default 0: fetch it again each time).
    pub discover_ttl_ms: u64,
}

impl ServerInfo {
    /// A server named `name` at `version`, serving every released version this build has, with
    /// no capabilities (add them with [`capabilities`](Self::capabilities)).
    pub fn new(name: &str, version: &str) -> Self {
        ServerInfo {
            implementation: json!({"name": name, "version": version}),
            versions: BUILT.iter().filter(|v| **v != "draft").map(|v| v.to_string()).collect(),
            capabilities: json!({}),
            instructions: None,
            discover_ttl_ms: 0,
        }
    }

    /// Serve only these versions.
    pub fn versions(mut self, versions: &[&str]) -> Self {
        self.versions = versions.iter().map(|v| v.to_string()).collect();
        self
    }

    /// Declares these capabilities (any version's `ServerCapabilities`, or JSON).
    pub fn capabilities<C: Serialize>(mut self, capabilities: &C) -> Result<Self, Error> {
        self.capabilities = serde_json::to_value(capabilities).map_err(|e| Error::Serialize(e.to_string()))?;
        Ok(self)
    }

    pub fn instructions(mut self, instructions: &str) -> Self {
        self.instructions = Some(instructions.to_owned());
        self
    }

    pub(crate) fn has_capability(&self, name: &str) -> bool {
        self.capabilities.get(name).is_some()
    }

    fn of(&self, lifecycle: Lifecycle) -> Vec<&str> {
        self.versions.iter().map(String::as_str).filter(|v| negotiate::lifecycle(v) == Some(lifecycle)).collect()
    }

    pub(crate) fn handshake_versions(&self) -> Vec<&str> {
        self.of(Lifecycle::Handshake)
    }

    pub(crate) fn per_request_versions(&self) -> Vec<&str> {
        self.of(Lifecycle::PerRequest)
    }

    /// The `initialize` result in `version`.
    pub(crate) fn initialize_result(&self, version: &str) -> Value {
        let mut o = Map::new();
        o.insert("protocolVersion".into(), Value::from(version));
        o.insert("capabilities".into(), self.capabilities.clone());
        o.insert("serverInfo".into(), self.implementation.clone());
        if let Some(i) = &self.instructions {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        Value::Object(o)
    }

    /// The `server/discover` result (2026-07-28).
    pub(crate) fn discover_result(&self) -> Value {
        let mut o = Map::new();
        o.insert("supportedVersions".into(), json!(self.versions));
        o.insert("capabilities".into(), self.capabilities.clone());
        if let Some(i) = &self.instructions {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        o.insert("ttlMs".into(), json!(self.discover_ttl_ms));
        o.insert("cacheScope".into(), json!("public"));
        let mut result = Value::Object(o);
        self.complete("server/discover", &mut result);
        result
    }

    /// What every 2026-07-28 result carries: `resultType` (`"complete"` unless the application set
    /// one), the server's identity in `_meta`, and on a cacheable result without them `ttlMs: 0`
    /// and `cacheScope: "private"` (the cautious values: stale at once, not shared).
    pub(crate) fn complete(&self, method: &str, result: &mut Value) {
        let Value::Object(o) = result else { return };
        o.entry("resultType").or_insert_with(|| json!("complete"));
        if CACHEABLE.contains(&method) && o.get("resultType").and_then(Value::as_str) == Some("complete") {
            o.entry("ttlMs").or_insert_with(|| json!(0));
            o.entry("cacheScope").or_insert_with(|| json!("private"));
        }
        if let Value::Object(meta) = o.entry("_meta").or_insert_with(|| json!({})) {
            meta.entry(SERVER_INFO_META_KEY).or_insert_with(|| self.implementation.clone());
        }
    }
}

/// The requests whose results are `CacheableResult`s in 2026-07-28.
const CACHEABLE: &[&str] = &["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];
