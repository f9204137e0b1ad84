//! The 2026-07-28 results: what a type conversion cannot do between a 2025-11-25 application and
//! a 2026-07-28 client (docs/using-the-crate.md, "Serving several protocol versions", the lifecycle table).
//!
//! The session engine (`engine::Server`, in `main.rs`) does the rest of the lifecycle: it checks
//! each request's version (`-32022` with the supported versions, `-32602` without one), keeps the
//! client's capabilities with the request alone, answers `server/discover` from the server's
//! `ServerInfo`, answers `ping` and `logging/setLevel` "method not found", and puts the server's
//! identity on every result. What stays here: the fields a 2026-07-28 result needs before the
//! application's 2025-11-25 result converts to it (`resultType`, and on the cacheable ones this
//! application's cache hints: `ttlMs` and `cacheScope`).

use serde_json::{json, Map, Value};

use crate::{bridge, APP_VERSION};

pub const VERSION: &str = "2026-07-28";

/// Results a 2026-07-28 client may cache (`CacheableResult`): how long, and for whom.
const CACHEABLE: &[&str] = &["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];
/// This application's lists never change, and nothing it serves depends on who asks.
pub const TTL_MS: u64 = 60_000;

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
}
