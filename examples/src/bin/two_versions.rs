//! One message, two protocol versions: what a typed read gives under each, and what validation says.
//!
//! Reading is lenient and lossless: what a version does not know is kept (an `Unknown` variant, or
//! the `extra` map) and written back as it came. Validation is where the version's rules are applied.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin two_versions
//! ```

#![forbid(unsafe_code)]

use mcp_spec_types::runtime::{JsonConvert, SchemaType};
use mcp_spec_types::validate::{validate_json, Options, Validate};
use mcp_spec_types::{v2024_11_05, v2025_11_25, v2026_07_28};
use serde_json::{json, Value};

/// Reads `message` as `T` (from the module of `version`), prints the schema name it lands on and the
/// details `describe` picks out, whether it writes back unchanged, then validates it as `T`.
fn read_as<T: JsonConvert + SchemaType + Validate>(
    version: &str,
    message: &Value,
    describe: impl Fn(&T) -> Vec<String>,
) {
    match T::from_json_ref(message) {
        Ok(typed) => {
            println!("  {version}: read as {}", typed.schema_name());
            for line in describe(&typed) {
                println!("    {line}");
            }
            let unchanged = typed.to_json().is_ok_and(|back| back == *message);
            println!(
                "    written back unchanged: {}",
                if unchanged { "yes" } else { "no" }
            );
        }
        Err(e) => println!("  {version}: not readable: {e}"),
    }
    let report = validate_json::<T>(message, &Options::default());
    if report.violations.is_empty() {
        println!("    validation: valid");
    }
    for violation in &report.violations {
        println!("    validation: {violation}");
    }
}

/// The `type` of a content block kept as received.
fn kept_type(raw: &serde_json::Map<String, Value>) -> String {
    format!(
        "Unknown, `type` {} kept as received",
        raw.get("type").unwrap_or(&Value::Null)
    )
}

fn main() {
    // 1. A tool result linking to a resource. `resource_link` came in 2025-06-18.
    let result = json!({
        "content": [
            {"type": "text", "text": "The report is ready."},
            {"type": "resource_link", "uri": "https://reports.example.com/q3.pdf", "name": "q3.pdf", "mimeType": "application/pdf"}
        ]
    });
    println!("== a tools/call result with a resource_link block, as CallToolResult");
    read_as::<v2024_11_05::CallToolResult>("2024-11-05", &result, |r| {
        use v2024_11_05::CallToolResultContentItem as Item;
        (r.content.iter().enumerate())
            .map(|(i, block)| match block {
                Item::Unknown(raw) => format!("content[{i}]: {}", kept_type(raw)),
                known => format!("content[{i}]: {}", known.schema_name()),
            })
            .collect()
    });
    read_as::<v2025_11_25::CallToolResult>("2025-11-25", &result, |r| {
        use v2025_11_25::ContentBlock;
        (r.content.iter().enumerate())
            .map(|(i, block)| match block {
                ContentBlock::ResourceLink(link) => {
                    format!("content[{i}]: ResourceLink to {} ({})", link.uri, link.name)
                }
                ContentBlock::Unknown(raw) => format!("content[{i}]: {}", kept_type(raw)),
                known => format!("content[{i}]: {}", known.schema_name()),
            })
            .collect()
    });

    // 2. A 2026-07-28 request: every request carries the protocol version and the client's
    //    capabilities in `_meta`, where 2025-11-25 had `initialize`.
    let call = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {
            "name": "forecast", "arguments": {"city": "Paris"},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
        }
    });
    println!("\n== a 2026-07-28 tools/call request, as ClientRequest");
    read_as::<v2025_11_25::ClientRequest>("2025-11-25", &call, |r| match r {
        v2025_11_25::ClientRequest::CallToolRequest(c) => {
            let meta = c
                .params
                .meta
                .as_ref()
                .map(|m| m.extra.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            vec![format!(
                "tool {}, _meta keys this version does not define: {meta}",
                c.params.name
            )]
        }
        _ => vec![],
    });
    read_as::<v2026_07_28::ClientRequest>("2026-07-28", &call, |r| match r {
        v2026_07_28::ClientRequest::CallToolRequest(c) => {
            vec![format!(
                "tool {}, protocol version {}",
                c.params.name, c.params.meta.io_modelcontextprotocol_protocol_version
            )]
        }
        _ => vec![],
    });

    // 3. The same request as a 2025-11-25 client sends it: no `_meta`, which 2026-07-28 requires.
    let old_call = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "forecast", "arguments": {"city": "Paris"}}});
    println!("\n== a 2025-11-25 tools/call request, as ClientRequest");
    read_as::<v2025_11_25::ClientRequest>("2025-11-25", &old_call, |_| vec![]);
    read_as::<v2026_07_28::ClientRequest>("2026-07-28", &old_call, |_| vec![]);

    // 4. A method only 2026-07-28 has.
    let discover = json!({
        "jsonrpc": "2.0", "id": 9, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}
    });
    println!("\n== a 2026-07-28 server/discover request, as ClientRequest");
    read_as::<v2025_11_25::ClientRequest>("2025-11-25", &discover, |r| match r {
        v2025_11_25::ClientRequest::Unknown(raw) => {
            vec![format!("method {} kept as received", raw["method"])]
        }
        _ => vec![],
    });
    read_as::<v2026_07_28::ClientRequest>("2026-07-28", &discover, |_| vec![]);
}
