//! MCP Apps (SEP-1865) rules on core messages: `_meta.ui` on tools and on UI
//! resources, `ui://` URIs, the profile MIME type, CSP origins; and the two
//! helpers a host needs: the tools a model may see, and the CSP to apply.

use serde_json::Value;

use super::{describe, Cx, Validate};
use crate::apps::{McpUiResourceCsp, McpUiResourceMeta, McpUiToolMeta};
use crate::runtime::JsonObject;

/// The MIME type of an MCP Apps HTML resource.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The URI scheme of UI resources.
pub const URI_SCHEME: &str = "ui://";
/// The `_meta` key that holds a tool's or resource's UI metadata.
pub const META_KEY: &str = "ui";
/// The flat key that older servers used for a tool's UI resource.
pub const DEPRECATED_RESOURCE_URI_KEY: &str = "ui/resourceUri";
/// The extension's identifier in capabilities.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// CSP a host applies when a UI resource declares none.
pub const DEFAULT_CSP: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

/// Checks a tool's `_meta.ui` (and the deprecated flat key).
pub fn tool<'v>(v: &'v Value, cx: &mut Cx<'v>) {
    let Some(meta) = v.get("_meta").and_then(Value::as_object) else { return };
    cx.key("_meta", |cx| {
        if let Some(ui) = meta.get(META_KEY) {
            cx.key(META_KEY, |cx| {
                McpUiToolMeta::validate_json(ui, cx);
                if let Some(uri) = ui.get("resourceUri") {
                    cx.key("resourceUri", |cx| ui_uri(uri, cx));
                }
            });
        }
        if let Some(uri) = meta.get(DEPRECATED_RESOURCE_URI_KEY) {
            cx.key(DEPRECATED_RESOURCE_URI_KEY, |cx| {
                cx.warning("apps.deprecated-key", "the flat `ui/resourceUri` key is deprecated: use `_meta.ui.resourceUri`");
                ui_uri(uri, cx);
            });
        }
    });
}

/// Checks a resource, resource template or resource contents that is (or claims to be) a UI resource.
pub fn resource<'v>(v: &'v Value, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    let uri = o.get("uri").or_else(|| o.get("uriTemplate")).and_then(Value::as_str);
    let mime = o.get("mimeType").and_then(Value::as_str);
    let ui_meta = o.get("_meta").and_then(|m| m.get(META_KEY));
    let is_ui = uri.is_some_and(|u| u.starts_with(URI_SCHEME)) || mime.is_some_and(is_app_mime);
    if !is_ui {
        return;
    }
    if let Some(u) = o.get("uri") {
        cx.key("uri", |cx| ui_uri(u, cx));
    }
    match mime {
        Some(m) if is_app_mime(m) => {}
        Some(m) => cx.key("mimeType", |cx| cx.error("apps.mime-type", format!("a UI resource's MIME type must be `{MIME_TYPE}`, found `{m}`"))),
        None => cx.error("apps.mime-type", format!("a UI resource must declare the MIME type `{MIME_TYPE}`")),
    }
    // Contents (from resources/read) carry `text` or `blob`; listings carry neither.
    let is_contents = o.contains_key("text") || o.contains_key("blob");
    if is_contents && o.contains_key("text") == o.contains_key("blob") {
        cx.error("apps.content", "a UI resource's content is given by `text` or by `blob`, not both");
    }
    if let Some(ui) = ui_meta {
        cx.key("_meta", |cx| {
            cx.key(META_KEY, |cx| {
                McpUiResourceMeta::validate_json(ui, cx);
                if let Some(csp) = ui.get("csp").and_then(Value::as_object) {
                    cx.key("csp", |cx| csp_origins(csp, cx));
                }
            })
        });
    }
}

fn is_app_mime(m: &str) -> bool {
    let mut parts = m.split(';').map(|p| p.trim().to_ascii_lowercase());
    parts.next().as_deref() == Some("text/html") && parts.any(|p| p.replace(' ', "") == "profile=mcp-app")
}

fn ui_uri(v: &Value, cx: &mut Cx<'_>) {
    match v.as_str() {
        Some(s) if s.starts_with(URI_SCHEME) && s.len() > URI_SCHEME.len() => {}
        Some(s) => cx.error("apps.ui-uri", format!("a UI resource URI must start with `{URI_SCHEME}`, found {s:?}")),
        None => cx.error("type", format!("expected a `{URI_SCHEME}` URI, found {}", describe(v))),
    }
}

fn csp_origins<'v>(csp: &'v JsonObject, cx: &mut Cx<'v>) {
    for (key, list) in csp {
        let Some(items) = list.as_array() else { continue };
        cx.key(key, |cx| {
            for (i, item) in items.iter().enumerate() {
                if let Some(s) = item.as_str() {
                    if let Err(why) = origin(s) {
                        cx.index(i, |cx| cx.error("apps.csp-origin", format!("{s:?} is not an origin: {why}")));
                    }
                }
            }
        });
    }
}

/// An origin as CSP source lists take it: `scheme://host[:port]`, the host may start with `*.`.
pub fn origin(s: &str) -> Result<(), String> {
    let Some((scheme, rest)) = s.split_once("://") else {
        return Err("it has no `scheme://`".into());
    };
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return Err(format!("`{scheme}` is not http, https, ws or wss"));
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '#']) {
        return Err("an origin has no path, query or fragment".into());
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || rest.starts_with('[') => (h, Some(p)),
        _ => (rest, None),
    };
    if let Some(p) = port {
        if p.parse::<u16>().is_err() {
            return Err(format!("`{p}` is not a port"));
        }
    }
    let host = host.strip_prefix("*.").unwrap_or(host);
    if host.is_empty() || !host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '[' | ']' | ':')) {
        return Err(format!("`{host}` is not a host name"));
    }
    Ok(())
}

/// A tool's or resource's `_meta.ui`, typed; `None` when absent.
pub fn tool_ui(meta: Option<&JsonObject>) -> Option<Result<McpUiToolMeta, serde_json::Error>> {
    meta?.get(META_KEY).map(|v| serde_json::from_value(v.clone()))
}

/// A resource's `_meta.ui`, typed; `None` when absent.
pub fn resource_ui(meta: Option<&JsonObject>) -> Option<Result<McpUiResourceMeta, serde_json::Error>> {
    meta?.get(META_KEY).map(|v| serde_json::from_value(v.clone()))
}

/// The MCP Apps entry of a client's capabilities (`extensions["io.modelcontextprotocol/ui"]`), for any
/// version's `ClientCapabilities` (2025-11-25 keeps `extensions` among the unknown keys).
pub fn client_ui_capability<C: serde::Serialize>(capabilities: &C) -> Option<Result<crate::apps::McpUiClientCapabilities, serde_json::Error>> {
    let v = serde_json::to_value(capabilities).ok()?;
    v.get("extensions")?.get(EXTENSION_ID).map(|e| serde_json::from_value(e.clone()))
}

/// Whether a client can render MCP Apps HTML resources.
pub fn client_supports_apps<C: serde::Serialize>(capabilities: &C) -> bool {
    matches!(client_ui_capability(capabilities), Some(Ok(c)) if c.mime_types.iter().flatten().any(|m| is_app_mime(m)))
}

/// The UI resource a tool shows: `_meta.ui.resourceUri`, else the deprecated flat `_meta["ui/resourceUri"]`.
pub fn tool_resource_uri(meta: Option<&JsonObject>) -> Option<&str> {
    let meta = meta?;
    meta.get(META_KEY).and_then(|ui| ui.get("resourceUri")).or_else(|| meta.get(DEPRECATED_RESOURCE_URI_KEY)).and_then(Value::as_str)
}

/// The iframe `allow` attribute (Permissions Policy) for the permissions a UI resource asks for.
pub fn permissions_policy(permissions: Option<&crate::apps::McpUiResourcePermissions>) -> String {
    let Some(p) = permissions else { return String::new() };
    let features = [
        (p.camera.is_some(), "camera"),
        (p.microphone.is_some(), "microphone"),
        (p.geolocation.is_some(), "geolocation"),
        (p.clipboard_write.is_some(), "clipboard-write"),
    ];
    features.iter().filter(|(on, _)| *on).map(|(_, f)| *f).collect::<Vec<_>>().join("; ")
}

/// Who may see and call a tool, from its `_meta.ui.visibility` (default: both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    pub model: bool,
    pub app: bool,
}

pub fn visibility(meta: Option<&JsonObject>) -> Visibility {
    let list = meta.and_then(|m| m.get(META_KEY)).and_then(|ui| ui.get("visibility")).and_then(Value::as_array);
    match list {
        None => Visibility { model: true, app: true },
        Some(items) => Visibility {
            model: items.iter().any(|v| v == "model"),
            app: items.iter().any(|v| v == "app"),
        },
    }
}

/// The tools a host may put in the model's tool list: app-only tools removed.
#[cfg(feature = "v2025-11-25")]
pub fn model_visible_tools(tools: &[crate::v2025_11_25::Tool]) -> Vec<&crate::v2025_11_25::Tool> {
    tools.iter().filter(|t| visibility(t.meta.as_ref()).model).collect()
}

/// The Content-Security-Policy a host applies to a UI resource, from its `_meta.ui.csp`;
/// the spec's restrictive default when it declares none.
pub fn content_security_policy(csp: Option<&McpUiResourceCsp>) -> String {
    let Some(csp) = csp else { return DEFAULT_CSP.to_string() };
    let list = |v: &Option<Vec<String>>| v.as_deref().unwrap_or_default().join(" ");
    let with = |base: &str, extra: String| if extra.is_empty() { base.to_string() } else { format!("{base} {extra}") };
    let resources = list(&csp.resource_domains);
    let frames = list(&csp.frame_domains);
    let bases = list(&csp.base_uri_domains);
    [
        "default-src 'none'".to_string(),
        with("script-src 'self' 'unsafe-inline'", resources.clone()),
        with("style-src 'self' 'unsafe-inline'", resources.clone()),
        with("connect-src 'self'", list(&csp.connect_domains)),
        with("img-src 'self' data:", resources.clone()),
        with("font-src 'self'", resources.clone()),
        with("media-src 'self' data:", resources),
        if frames.is_empty() { "frame-src 'none'".to_string() } else { format!("frame-src {frames}") },
        "object-src 'none'".to_string(),
        if bases.is_empty() { "base-uri 'self'".to_string() } else { format!("base-uri {bases}") },
    ]
    .join("; ")
}
