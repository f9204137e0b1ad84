// Validation of incoming requests against a protocol version's rules, by the version's name: the
// engine learns the version at run time (from `initialize` or from a request's `_meta`), and each
// version module is behind its own feature.

use serde_json::{Map, Value};

use super::Id;
use mcp_spec_types::rpc::Envelope;
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::validate::Validate;

/// The protocol versions whose modules this build has, oldest first.
pub(crate) const BUILT: &[&str] = &[
    #[cfg(feature = "v2024-11-05")]
    "2024-11-05",
    #[cfg(feature = "v2025-03-26")]
    "2025-03-26",
    #[cfg(feature = "v2025-06-18")]
    "2025-06-18",
    #[cfg(feature = "v2025-11-25")]
    "2025-11-25",
    #[cfg(feature = "v2026-07-28")]
    "2026-07-28",
    #[cfg(feature = "draft")]
    "draft",
];

/// The -32602 answer to a request that breaks `version`'s rules (first violation's pointer and rule
/// in the message, all of them, bounded, in `data`), as `rpc::read_message_checked` answers it.
/// `None` when it keeps them, when the version defines no such request (the application answers
/// it), or when this build has no module for the version.
#[cfg_attr(not(any(feature = "v2024-11-05", feature = "v2025-03-26", feature = "v2025-06-18", feature = "v2025-11-25", feature = "v2026-07-28")), allow(unused_variables))]
pub(crate) fn request(version: &str, id: &Id, method: &str, params: Option<&Value>) -> Option<RpcError> {
    match version {
        #[cfg(feature = "v2024-11-05")]
        "2024-11-05" => with::<mcp_spec_types::v2024_11_05::ClientMessage>(id, method, params),
        #[cfg(feature = "v2025-03-26")]
        "2025-03-26" => with::<mcp_spec_types::v2025_03_26::ClientMessage>(id, method, params),
        #[cfg(feature = "v2025-06-18")]
        "2025-06-18" => with::<mcp_spec_types::v2025_06_18::ClientMessage>(id, method, params),
        #[cfg(feature = "v2025-11-25")]
        "2025-11-25" => with::<mcp_spec_types::v2025_11_25::ClientMessage>(id, method, params),
        #[cfg(feature = "v2026-07-28")]
        "2026-07-28" => with::<mcp_spec_types::v2026_07_28::ClientMessage>(id, method, params),
        #[cfg(feature = "draft")]
        "draft" => with::<mcp_spec_types::draft::ClientMessage>(id, method, params),
        _ => None,
    }
}

#[allow(dead_code)] // unused in a build without version modules
fn with<M: Envelope + Validate>(id: &Id, method: &str, params: Option<&Value>) -> Option<RpcError> {
    if !M::is_request_method(method) {
        return None;
    }
    let mut o = Map::new();
    o.insert("jsonrpc".into(), Value::from("2.0"));
    o.insert("id".into(), id.to_value());
    o.insert("method".into(), Value::from(method));
    if let Some(params) = params {
        o.insert("params".into(), params.clone());
    }
    let message = Value::Object(o);
    let reader = mcp_spec_types::rpc::Reader::default();
    let report = mcp_spec_types::validate::validate_json::<M>(&message, &reader.options);
    if report.is_valid() {
        return None;
    }
    Some(mcp_spec_types::rpc::invalid_params::<Value>(&message, &report).error)
}
