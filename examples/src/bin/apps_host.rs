//! An MCP Apps host step (SEP-1865, on protocol 2025-11-25): from a server's tools to a sandboxed
//! iframe for the tool's UI.
//!
//! 1. Read the server's `tools/list` result, validate it with the MCP Apps rules, and decide which
//!    tools the model sees (app-only tools are for the UI, not the model).
//! 2. Read the `ui://` resource a tool points to (its `resources/read` result), validate it, and
//!    turn its `_meta.ui` into the iframe's Content-Security-Policy, `sandbox` and `allow`.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin apps_host
//! ```

#![forbid(unsafe_code)]

use mcp_spec_types::apps::{McpUiResourceMeta, McpUiResourcePermissions};
use mcp_spec_types::v2025_11_25::{
    ListToolsResult, ReadResourceResult, ReadResourceResultContentsItem, Tool,
};
use mcp_spec_types::validate::{self, apps, Options, Report};

/// The server's `tools/list` result: a tool with a UI, an app-only tool its UI calls, a plain tool,
/// and one that still uses the deprecated flat `ui/resourceUri` key.
const TOOLS_LIST_RESULT: &str = r#"{"tools":[
  {"name":"show_forecast","description":"Shows an interactive forecast.",
   "inputSchema":{"type":"object","properties":{"city":{"type":"string"}}},
   "_meta":{"ui":{"resourceUri":"ui://forecast/view.html"}}},
  {"name":"refresh_forecast","description":"Reloads the forecast shown in the view.",
   "inputSchema":{"type":"object"},
   "_meta":{"ui":{"resourceUri":"ui://forecast/view.html","visibility":["app"]}}},
  {"name":"get_alerts","description":"Active weather alerts.","inputSchema":{"type":"object"}},
  {"name":"radar","description":"Radar map.","inputSchema":{"type":"object"},
   "_meta":{"ui/resourceUri":"ui://forecast/radar.html"}}]}"#;

/// The server's answer to `resources/read` for `ui://forecast/view.html`.
const READ_RESOURCE_RESULT: &str = r#"{"contents":[{
  "uri":"ui://forecast/view.html",
  "mimeType":"text/html;profile=mcp-app",
  "text":"<!doctype html><html><body><div id=\"forecast\"></div><script src=\"https://cdn.forecast.example.com/view.js\"></script></body></html>",
  "_meta":{"ui":{
    "csp":{"connectDomains":["https://api.forecast.example.com"],"resourceDomains":["https://cdn.forecast.example.com"]},
    "permissions":{"geolocation":{},"clipboardWrite":{}},
    "prefersBorder":true}}}]}"#;

/// A resource a host must not render: plain `text/html`, and a CSP entry that is a URL, not an origin.
const BAD_READ_RESOURCE_RESULT: &str = r#"{"contents":[{
  "uri":"ui://forecast/old.html","mimeType":"text/html","text":"<!doctype html>",
  "_meta":{"ui":{"csp":{"resourceDomains":["https://cdn.forecast.example.com/js/"]}}}}]}"#;

fn print_report(what: &str, report: &Report) {
    let verdict = if report.is_valid() {
        "valid"
    } else {
        "invalid"
    };
    println!(
        "{what}: {verdict}, {} error(s), {} warning(s)",
        report.errors().count(),
        report.warnings().count()
    );
    for violation in &report.violations {
        println!("  {violation}");
    }
}

/// The `ui://` resource a tool renders in, from `_meta.ui.resourceUri`, or from the deprecated flat
/// key that older servers still send.
fn ui_resource(tool: &Tool) -> Option<String> {
    match apps::tool_ui(tool.meta.as_ref()) {
        Some(Ok(ui)) => ui.resource_uri,
        Some(Err(_)) => None, // validation reports a malformed `_meta.ui`
        None => tool
            .meta
            .as_ref()?
            .get(apps::DEPRECATED_RESOURCE_URI_KEY)?
            .as_str()
            .map(String::from),
    }
}

/// The iframe's `allow` attribute (Permissions Policy): one feature per permission the resource
/// asks for. Each feature is then allowed for the iframe's own content only (the default).
fn allow_attribute(permissions: Option<&McpUiResourcePermissions>) -> String {
    let Some(p) = permissions else {
        return String::new();
    };
    let features = [
        (p.camera.is_some(), "camera"),
        (p.microphone.is_some(), "microphone"),
        (p.geolocation.is_some(), "geolocation"),
        (p.clipboard_write.is_some(), "clipboard-write"),
    ];
    features
        .iter()
        .filter(|(asked, _)| *asked)
        .map(|(_, feature)| *feature)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The iframe's `sandbox` attribute. Only `allow-scripts`: an app is script-driven. Without
/// `allow-same-origin` the view runs in an opaque origin and cannot reach the host page, its
/// cookies or storage; without `allow-popups`, `allow-top-navigation` and `allow-forms` it cannot
/// leave the frame on its own (it asks the host instead, e.g. with `ui/open-link`).
const SANDBOX: &str = "allow-scripts";

fn main() {
    // Validation with the MCP Apps rules switched on.
    let apps_rules = Options {
        apps: true,
        ..Options::default()
    };

    // 1. Tools.
    let tools: ListToolsResult =
        serde_json::from_str(TOOLS_LIST_RESULT).expect("a tools/list result");
    print_report("tools/list", &validate::validate(&tools, &apps_rules));

    println!("\n== who may call each tool");
    for tool in &tools.tools {
        let who = apps::visibility(tool.meta.as_ref());
        let ui = ui_resource(tool).unwrap_or_else(|| "no UI".into());
        println!(
            "{:<17} model: {:<5} app: {:<5} {ui}",
            tool.name, who.model, who.app
        );
    }

    println!("\n== tools the model sees");
    for tool in apps::model_visible_tools(&tools.tools) {
        println!("{}", tool.name);
    }

    // 2. The UI resource of `show_forecast`.
    println!("\n== ui://forecast/view.html");
    let read: ReadResourceResult =
        serde_json::from_str(READ_RESOURCE_RESULT).expect("a resources/read result");
    print_report("resources/read", &validate::validate(&read, &apps_rules));

    let Some(ReadResourceResultContentsItem::TextResourceContents(view)) = read.contents.first()
    else {
        panic!("expected the view's HTML as text");
    };
    let ui: Option<McpUiResourceMeta> = apps::resource_ui(view.meta.as_ref())
        .transpose()
        .expect("a readable _meta.ui");
    let ui = ui.unwrap_or_default();

    // The CSP goes on the document that loads the view (a response header, or a <meta> tag).
    let csp = apps::content_security_policy(ui.csp.as_ref());
    for dropped in &csp.dropped {
        println!("{dropped}");
    }
    println!("Content-Security-Policy:");
    for directive in csp.policy.split("; ") {
        println!("  {directive};");
    }
    println!(
        "<iframe sandbox=\"{SANDBOX}\" allow=\"{}\" srcdoc=\"({} bytes of HTML)\"></iframe>",
        allow_attribute(ui.permissions.as_ref()),
        view.text.len()
    );
    println!(
        "border: {}",
        if ui.prefers_border == Some(true) {
            "yes"
        } else {
            "host default"
        }
    );

    // A resource that fails validation is not rendered at all.
    println!("\n== ui://forecast/old.html");
    let bad: ReadResourceResult =
        serde_json::from_str(BAD_READ_RESOURCE_RESULT).expect("a resources/read result");
    print_report("resources/read", &validate::validate(&bad, &apps_rules));

    // Without `_meta.ui.csp`, the spec's restrictive default applies.
    println!("\n== a view that declares no CSP");
    println!(
        "Content-Security-Policy: {}",
        apps::content_security_policy(None).policy
    );
}
