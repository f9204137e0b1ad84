//! An MCP gateway step (protocol 2025-11-25): give an upstream server's `serverInfo` and tools the
//! gateway's icons (SEP-973).
//!
//! The gateway is configured with a list of icons. Each one is validated (only `https:` and `data:`
//! sources, an image type a client may render, `data:` bytes that are what they claim to be), and
//! `validate::icons::pick` then chooses one per size and theme, so clients get a short, safe list.
//! Two recorded upstream responses are rewritten: an `initialize` result and a `tools/list` result.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin icon_proxy
//! ```

#![forbid(unsafe_code)]

use base64::Engine as _;
use mcp_spec_types::runtime::{read_response, JsonConvert, RequestMethod, Response};
use mcp_spec_types::v2025_11_25::{
    self as mcp, Icon, IconTheme, InitializeRequest, ListToolsRequest, RequestId,
};
use mcp_spec_types::validate::{self, icons, Options};

/// What the upstream server answered to `initialize`, as recorded by the gateway.
const INITIALIZE_RESPONSE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{
  "protocolVersion":"2025-11-25",
  "capabilities":{"tools":{}},
  "serverInfo":{"name":"forecast-server","title":"Forecasts","version":"2.3.0"}}}"#;

/// What it answered to `tools/list`. `alerts` brings its own icons, one of them over plain `http:`.
const TOOLS_LIST_RESPONSE: &str = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[
  {"name":"forecast","description":"Three-day forecast for a city.",
   "inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},
  {"name":"alerts","description":"Active weather alerts.",
   "inputSchema":{"type":"object"},
   "icons":[{"src":"https://forecast.example.com/alerts.svg","mimeType":"image/svg+xml","sizes":["any"]},
            {"src":"http://forecast.example.com/alerts.png","mimeType":"image/png","sizes":["32x32"]}]}]}}"#;

/// A 16×16 PNG, one flat colour: small enough to send inline as a `data:` URI.
const PNG_16: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0xf3, 0xff,
    0x61, 0x00, 0x00, 0x00, 0x19, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0x90, 0xcf, 0x7f, 0xfd,
    0x9f, 0x12, 0xcc, 0x30, 0x6a, 0xc0, 0xa8, 0x01, 0xa3, 0x06, 0x0c, 0x17, 0x03, 0x00, 0x81, 0x2e,
    0x78, 0x1f, 0x57, 0xf6, 0xde, 0x28, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
    0x60, 0x82,
];

/// The sizes (in pixels) and themes the gateway's clients draw icons at.
const SLOTS: &[(u32, &str)] = &[(16, "light"), (16, "dark"), (48, "light"), (48, "dark")];

fn data_uri(mime_type: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime_type};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// An icon with its sizes and theme.
fn icon(src: String, mime_type: &str, sizes: &[&str], theme: Option<IconTheme>) -> Icon {
    Icon {
        sizes: Some(sizes.iter().map(|s| s.to_string()).collect()),
        theme,
        ..Icon::with_type(src, mime_type)
    }
}

/// The gateway's configuration: three good icons (two light, one scalable dark) and two it must refuse.
fn configured_icons() -> Vec<Icon> {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="white"/></svg>"#;
    vec![
        icon(
            data_uri("image/png", PNG_16),
            "image/png",
            &["16x16"],
            Some(IconTheme::Light),
        ),
        icon(
            "https://gateway.example.com/icons/logo-48.png".into(),
            "image/png",
            &["48x48"],
            Some(IconTheme::Light),
        ),
        icon(
            "https://gateway.example.com/icons/logo-dark.svg".into(),
            "image/svg+xml",
            &["any"],
            Some(IconTheme::Dark),
        ),
        // Refused: plain `http:` can be tampered with on the way.
        icon(
            "http://gateway.example.com/icons/logo-32.png".into(),
            "image/png",
            &["32x32"],
            None,
        ),
        // Refused: it says PNG, but its bytes are SVG.
        icon(
            data_uri("image/png", svg.as_bytes()),
            "image/png",
            &["32x32"],
            Some(IconTheme::Dark),
        ),
    ]
}

/// An icon in one line; `data:` sources are shortened.
fn label(icon: &Icon) -> String {
    let src = match icons::parse_data_uri(&icon.src) {
        Some(data) => format!(
            "data:{} ({} base64 chars)",
            data.mime.unwrap_or("?"),
            data.data.len()
        ),
        None => icon.src.clone(),
    };
    let sizes = icon.sizes.as_deref().unwrap_or_default().join(",");
    let theme = icon.theme.as_ref().map_or("any theme", |t| t.as_str());
    format!("{src} [{sizes}, {theme}]")
}

/// Keeps the icons that pass validation, saying why each other one is dropped.
fn valid_icons(candidates: Vec<Icon>) -> Vec<Icon> {
    let mut kept = Vec::new();
    for icon in candidates {
        let report = validate::validate(&icon, &Options::default());
        if report.is_valid() {
            println!("  ok      {}", label(&icon));
            kept.push(icon);
        } else {
            println!("  refused {}", label(&icon));
            for violation in report.errors() {
                println!("          {violation}");
            }
        }
    }
    kept
}

/// One icon per size and theme, without repeats, in the order of `SLOTS`.
fn pick_per_slot(icons: &[Icon]) -> Vec<Icon> {
    let mut chosen: Vec<Icon> = Vec::new();
    for &(size, theme) in SLOTS {
        match icons::pick(icons, size, Some(theme)) {
            Some(icon) => {
                println!("  {size}px {theme}: {}", label(icon));
                if !chosen.contains(icon) {
                    chosen.push(icon.clone());
                }
            }
            None => println!("  {size}px {theme}: none"),
        }
    }
    chosen
}

/// Reads a recorded response to a request of type `R`.
fn read<R: RequestMethod>(json: &str) -> (RequestId, R::Result) {
    match read_response::<R>(json).expect("a recorded response") {
        Response::Result { id, result } => {
            (RequestId::from_json(id).expect("a request id"), result)
        }
        Response::Error { error, .. } => panic!("upstream error: {}", error.message),
    }
}

/// The response the gateway sends on. `JSONRPCResultResponse::result` is the base `Result`, so the
/// typed result goes through JSON.
fn response<T: JsonConvert>(id: RequestId, result: &T) -> String {
    let result = mcp::BaseResult::from_json(result.to_json().expect("serializes")).expect("an object");
    serde_json::to_string_pretty(&mcp::JSONRPCResultResponse::new(id, result)).expect("serializes")
}

fn main() {
    println!("== configured icons");
    let valid = valid_icons(configured_icons());
    println!("== chosen per size and theme");
    let gateway_icons = pick_per_slot(&valid);

    println!("\n== initialize: serverInfo gets the gateway's icons");
    let (id, mut init) = read::<InitializeRequest>(INITIALIZE_RESPONSE);
    init.server_info.icons = Some(gateway_icons.clone());
    println!("{}", response(id, &init));

    println!("\n== tools/list: each tool keeps its own valid icons, or gets the gateway's");
    let (id, mut list) = read::<ListToolsRequest>(TOOLS_LIST_RESPONSE);
    for tool in &mut list.tools {
        println!("{}:", tool.name);
        let own = valid_icons(tool.icons.take().unwrap_or_default());
        tool.icons = Some(if own.is_empty() {
            gateway_icons.clone()
        } else {
            own
        });
    }
    // What the client gets is valid as a whole, too.
    let report = validate::validate(&list, &Options::default());
    println!(
        "validation of the rewritten result: {} violation(s)",
        report.violations.len()
    );
    println!("{}", response(id, &list));
}
