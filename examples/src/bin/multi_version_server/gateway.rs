//! The 2026-07-28 gateway: what a type conversion cannot do between a 2025-11-25 application and
//! a 2026-07-28 client (README, "Serving several protocol versions", the lifecycle table).
//!
//! - No `initialize`: each request carries its version and the client's capabilities in
//!   `params._meta`; the version is checked per request (`-32022` with the supported versions),
//!   capabilities are read per request and never remembered.
//! - `server/discover` is answered here, from the application's `initialize` answer.
//! - Results need `resultType`, and the cacheable ones `ttlMs` and `cacheScope`: added here.
//! - `ping`, `logging/setLevel` and the task methods do not exist: "method not found".
//! - Log messages only for a request whose `_meta` sets a log level (this application logs nothing).

use mcp_spec_types::negotiate::{self, SERVER_INFO_META_KEY};
use serde_json::{json, Map, Value};

use crate::{app, bridge, APP_VERSION, SUPPORTED};

pub const VERSION: &str = "2026-07-28";

/// The per-request versions this gateway serves.
const PER_REQUEST: &[&str] = &[VERSION];

/// Results a 2026-07-28 client may cache (`CacheableResult`): how long, and for whom.
const CACHEABLE: &[&str] = &["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];
const TTL_MS: u64 = 60_000;

/// What the gateway does with a request of a client that sent no `initialize`.
pub enum Route {
    /// Answered by the gateway itself.
    Answer(Value),
    /// For the application: the request in 2025-11-25 terms.
    App(Value),
}

/// A request (it has an `id`) of a per-request client.
pub fn route(request: &Value) -> Route {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    if let Err(e) = negotiate::request_version(request, PER_REQUEST) {
        // Unsupported: name every version this server has, handshake ones included, so the client can
        // fall back to `initialize`.
        let e = match e {
            negotiate::VersionError::Unsupported { requested, .. } => {
                negotiate::VersionError::Unsupported { requested, supported: SUPPORTED.iter().map(|v| v.to_string()).collect() }
            }
            missing => missing,
        };
        return Route::Answer(e.error_response(id));
    }
    if request.get("method").and_then(Value::as_str) == Some("server/discover") {
        return Route::Answer(discover(id));
    }
    match bridge::message(VERSION, APP_VERSION, request) {
        Ok(converted) => Route::App(converted),
        Err(f) if f.unknown_method => Route::Answer(error(id, -32601, format!("Method not found: {f}"))),
        Err(f) => Route::Answer(error(id, -32602, format!("Invalid params: {f}"))),
    }
}

/// The application's result of `method` for a 2026-07-28 client.
pub fn result(method: &str, mut result: Value) -> Result<Value, bridge::Failure> {
    if let Some(o) = result.as_object_mut() {
        complete(method, o);
    }
    bridge::result(APP_VERSION, VERSION, method, &result)
}

/// What every 2026-07-28 result carries that a 2025-11-25 result lacks.
fn complete(method: &str, o: &mut Map<String, Value>) {
    o.insert("resultType".into(), json!("complete"));
    if CACHEABLE.contains(&method) {
        o.insert("ttlMs".into(), json!(TTL_MS));
        o.insert("cacheScope".into(), json!("public"));
    }
    let meta = o.entry("_meta").or_insert_with(|| json!({}));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(SERVER_INFO_META_KEY.into(), json!({"name": app::SERVER_NAME, "version": app::SERVER_VERSION}));
    }
}

/// `server/discover`: the versions, and the application's capabilities and instructions.
fn discover(id: Value) -> Value {
    let init = serde_json::to_value(app::initialize_result(APP_VERSION)).expect("a result writes as JSON");
    let capabilities = bridge::value(APP_VERSION, VERSION, "ServerCapabilities", &init["capabilities"]);
    let mut result = Map::new();
    result.insert("supportedVersions".into(), json!(SUPPORTED));
    result.insert("capabilities".into(), capabilities.unwrap_or_else(|_| json!({})));
    if let Some(instructions) = init.get("instructions") {
        result.insert("instructions".into(), instructions.clone());
    }
    complete("server/discover", &mut result);
    match bridge::result(VERSION, VERSION, "server/discover", &Value::Object(result)) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(f) => error(id, -32603, format!("Internal error: {f}")),
    }
}

pub fn error(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
