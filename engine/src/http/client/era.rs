//! [`connect`]: the era a server speaks, found the way the SDKs settled on. A per-request
//! client asks `server/discover` first; only an answer that lists its version (after the
//! engine's one retry on an unsupported-version error that lists another of its versions) keeps
//! it per request. Any other outcome falls back to `initialize` on a fresh engine: an HTTP 400
//! or 404 (a server of sessions refusing a request without one), method not found, an
//! unsupported-version error listing none of its versions, a discover result without them, a
//! timeout. A transport failure (no HTTP answer at all) is no reason to fall back: it is returned.

use std::time::Duration;

use mcp_spec_types::runtime::RequestMethod;
use serde_json::Value;

use super::{Connection, Limits};
use crate::{CallError, Client, Config, PerRequest, RequestError};

/// The era [`connect`] settled on.
#[derive(Debug)]
pub enum Negotiated<T> {
    /// Per request (2026-07-28): the `server/discover` result, as JSON.
    PerRequest { discover: Value },
    /// A session, after `initialize` (its result); `fell_back`: why the per-request form was
    /// left, when it was tried.
    Session { initialized: T, fell_back: Option<String> },
}

/// Connects to `url`: per request when `per_request` is given and the server speaks its
/// version, else with `initialize` (the application then sends `notifications/initialized`).
/// Without `initialize`, a server that is not per request is an error. `timeout` bounds each
/// of the two requests.
pub async fn connect<I: RequestMethod>(url: &str, config: Config, limits: Limits, per_request: Option<PerRequest>, initialize: Option<I>, timeout: Duration) -> Result<(Connection, Negotiated<I::Result>), CallError> {
    let mut fell_back = None;
    if let Some(per_request) = per_request {
        let mut conn = Connection::new(url, Client::per_request(config.clone(), per_request), limits.clone())?;
        match discover(&mut conn, timeout).await? {
            Ok(discover) => return Ok((conn, Negotiated::PerRequest { discover })),
            Err(why) => fell_back = Some(why),
        }
    }
    let Some(initialize) = initialize else {
        return Err(CallError::Request(RequestError::Input(fell_back.unwrap_or_else(|| "neither a per-request version nor an initialize to send".into()))));
    };
    let mut conn = Connection::new(url, Client::new(config), limits)?;
    let initialized = conn.call(initialize, Some(timeout), |_, _| {}).await?;
    Ok((conn, Negotiated::Session { initialized, fell_back }))
}

/// `server/discover`: `Ok(Ok(result))` when it lists the client's version now, `Ok(Err(why))`
/// for a reason to fall back.
async fn discover(conn: &mut Connection, timeout: Duration) -> Result<Result<Value, String>, CallError> {
    let handle = conn.engine().discover(std::time::Instant::now(), Some(timeout))?;
    let outcome = conn.wait_for(handle, |_, _| {}).await;
    let version = conn.engine().protocol_version().unwrap_or_default().to_owned();
    Ok(match outcome {
        Ok(result) if result.supported_versions.contains(&version) => Ok(serde_json::to_value(&result).map_err(|e| CallError::Request(RequestError::Unreadable(e.to_string())))?),
        Ok(result) => Err(format!("server/discover lists {:?}, not {version}", result.supported_versions)),
        Err(CallError::Request(RequestError::Rpc(e))) if e.code == super::HTTP_ERROR && e.data.as_ref().is_some_and(|d| d["status"].is_null()) => return Err(CallError::Request(RequestError::Rpc(e))),
        Err(CallError::Request(why)) => Err(format!("server/discover: {why}")),
        Err(other) => return Err(other),
    })
}
