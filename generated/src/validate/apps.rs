//! MCP Apps (SEP-1865) rules on core messages: `_meta.ui` on tools and on UI
//! resources, `ui://` URIs, the profile MIME type, CSP origins; and the two
//! helpers a host needs: the tools a model may see, and the CSP to apply.

mod suffix;

use std::collections::HashSet;

use crate::tree::Node;

use super::{describe, Cx, Validate};
use crate::apps::{McpUiResourceCsp, McpUiResourceMeta, McpUiToolMeta};
use crate::runtime::JsonObject;

/// The MIME type of an MCP Apps HTML resource.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The URI scheme of UI resources.
pub const URI_SCHEME: &str = "ui://";
/// The `_meta` key that holds a tool's or resource's UI metadata.
pub const META_KEY: &str = crate::runtime::meta::UI;
/// The flat key that older servers used for a tool's UI resource.
pub const DEPRECATED_RESOURCE_URI_KEY: &str = "ui/resourceUri";
/// The extension's identifier in capabilities.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The Content-Security-Policy a host applies to a UI resource that declares no CSP, or only an
/// empty one.
///
/// SEP-1865 names the directives a host must use when `ui.csp` is absent (nothing but the view
/// itself and inline code, images and media from the view or `data:`, no network connections) and
/// lets a host restrict further but never allow a domain the server did not declare. This is that
/// list plus the directives that do not fall back to `default-src` and so would otherwise stay
/// open: `base-uri` (a `<base href>` would redirect every relative URL) and `form-action` (a form
/// could post anywhere), both `'none'`; `frame-src` and `object-src` are spelled out as the SEP's
/// sandbox rules ask. Every source it allows is also allowed by any policy built from declared
/// domains, so it is never looser than one.
pub const DEFAULT_CSP: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

/// Checks a tool's `_meta.ui` (and the deprecated flat key).
pub fn tool<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(meta) = v.get("_meta").and_then(Node::as_object) else { return };
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
pub fn resource<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    let uri = o.get("uri").or_else(|| o.get("uriTemplate")).and_then(Node::as_str);
    let mime = o.get("mimeType").and_then(Node::as_str);
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
            // `McpUiResourceCsp`'s own check (attached by `schema/codegen.toml`) checks the origins.
            cx.key(META_KEY, |cx| McpUiResourceMeta::validate_json(ui, cx))
        });
    }
}

fn is_app_mime(m: &str) -> bool {
    let mut parts = m.split(';').map(|p| p.trim().to_ascii_lowercase());
    parts.next().as_deref() == Some("text/html") && parts.any(|p| p.replace(' ', "") == "profile=mcp-app")
}

fn ui_uri(v: Node<'_>, cx: &mut Cx<'_>) {
    match v.as_str() {
        Some(s) if s.starts_with(URI_SCHEME) && s.len() > URI_SCHEME.len() => {}
        Some(s) => cx.error("apps.ui-uri", format!("a UI resource URI must start with `{URI_SCHEME}`, found {s:?}")),
        None => cx.error("type", format!("expected a `{URI_SCHEME}` URI, found {}", describe(v))),
    }
}

/// Checks a CSP object's domain lists wherever one travels (a UI resource's `_meta.ui.csp`, the
/// sandbox's `ui/notifications/sandbox-resource-ready`, the host's capabilities): every entry is
/// an origin by [`origin`], the rule [`content_security_policy`] applies too; a list longer than
/// [`CSP_MAX_ORIGINS`], or lists that would make the policy longer than [`CSP_MAX_POLICY_BYTES`],
/// are a warning (`apps.csp-limit`): the builder keeps only what fits.
pub fn csp<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(csp) = v.as_object() else { return };
    let mut cost = 0;
    for (key, list) in csp {
        let Some(items) = list.as_array() else { continue };
        cx.key(key, |cx| {
            let mut count = 0;
            for (i, item) in items.iter().enumerate() {
                if let Some(s) = item.as_str() {
                    match origin(s) {
                        Ok(()) => {
                            count += 1;
                            // What the builder would keep of this list.
                            if count <= CSP_MAX_ORIGINS {
                                cost += (s.len() + 1) * directives_of(key);
                            }
                        }
                        Err(why) => cx.index(i, |cx| cx.error("apps.csp-origin", format!("{s:?} is not an origin: {why}"))),
                    }
                }
            }
            if count > CSP_MAX_ORIGINS {
                cx.warning("apps.csp-limit", format!("{count} origins: a host keeps the first {CSP_MAX_ORIGINS}"));
            }
        });
    }
    if cost + CSP_FIXED_BYTES > CSP_MAX_POLICY_BYTES {
        cx.warning("apps.csp-limit", format!("the declared origins make a policy of about {} bytes: a host keeps what fits in {CSP_MAX_POLICY_BYTES}", cost + CSP_FIXED_BYTES));
    }
}

/// How many directives of the built policy a domain list's entries appear in.
fn directives_of(field: &str) -> usize {
    match field {
        "resourceDomains" => 5,
        "connectDomains" | "frameDomains" | "baseUriDomains" => 1,
        _ => 0,
    }
}

/// Checks the MCP Apps entry of a client's capabilities (`extensions["io.modelcontextprotocol/ui"]`):
/// SEP-1865 requires `mimeTypes`, and a client that lists no `text/html;profile=mcp-app` cannot
/// render any app this extension defines (other types are reserved, hence only a warning).
pub fn client_capabilities<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(ui) = v.get("extensions").and_then(|e| e.get(EXTENSION_ID)) else { return };
    cx.key("extensions", |cx| {
        cx.key(EXTENSION_ID, |cx| {
            // 2026-07-28 types `extensions` values as objects and reports a non-object as `type`;
            // earlier versions keep `extensions` untyped, so this rule says it for every version.
            let Some(o) = ui.as_object() else {
                return cx.error("apps.client-capability", format!("the `{EXTENSION_ID}` capability is an object with `mimeTypes`, found {}", describe(ui)));
            };
            crate::apps::McpUiClientCapabilities::validate_json(ui, cx);
            match o.get("mimeTypes").and_then(Node::as_array) {
                None if !o.contains_key("mimeTypes") => cx.error("apps.client-capability", format!("the `{EXTENSION_ID}` capability requires `mimeTypes`")),
                None => {}
                Some(types) if types.iter().filter_map(Node::as_str).any(is_app_mime) => {}
                // Non-strings are already `type` errors.
                Some(types) if !types.iter().all(Node::is_string) => {}
                Some(_) => cx.key("mimeTypes", |cx| cx.warning("apps.client-capability", format!("`mimeTypes` does not list `{MIME_TYPE}`, so the client renders no MCP Apps view"))),
            }
        })
    });
}

/// Whether `s` is an origin as SEP-1865's CSP domain lists take it: `scheme://host[:port]` with
/// an http, https, ws or wss scheme, an optional trailing `/`, and a DNS name (which may start
/// with the `*.` wildcard the spec allows, over a name that is not a public suffix) or an IPv4
/// address. Nothing else: no path, user, quote, keyword, separator or space, so an entry can never
/// add a source or a directive to the policy built from it. Not an IPv6 address: CSP's host-source
/// grammar has none, and Chromium ignores such a source (`tests/apps_browser.rs` shows it).
pub fn origin(s: &str) -> Result<(), String> {
    // CSP host sources use no other characters: this alone keeps separators, quotes and
    // spaces (a new source or directive) out.
    if let Some(c) = s.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '/' | '[' | ']' | '*'))) {
        return Err(match c {
            c if !c.is_ascii() => format!("{c:?} is not ASCII (write the host in its `xn--` form)"),
            c if c.is_ascii_whitespace() || c.is_ascii_control() => format!("it contains whitespace or a control character ({c:?})"),
            c => format!("`{c}` cannot appear in an origin"),
        });
    }
    let Some((scheme, rest)) = s.split_once("://") else {
        return Err("it has no `scheme://`".into());
    };
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return Err(format!("`{scheme}` is not http, https, ws or wss"));
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains('/') {
        return Err("an origin has no path".into());
    }
    if rest.starts_with('[') {
        return Err("an IPv6 address cannot be a CSP source (browsers ignore it): use a host name".into());
    }
    let (host, port) = match rest.split_once(':') {
        Some((h, p)) => (Some(h), Some(p)),
        None => (Some(rest), None),
    };
    if let Some(p) = port {
        // `parse` alone would take a leading `+`.
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.parse::<u16>().is_err() {
            return Err(format!("`{p}` is not a port"));
        }
    }
    if let Some(host) = host {
        dns_host(host)?;
    }
    Ok(())
}

fn dns_host(host: &str) -> Result<(), String> {
    let (wildcard, name) = match host.strip_prefix("*.") {
        Some(name) => (true, name),
        None => (false, host),
    };
    if name.is_empty() || name.len() > 253 {
        return Err(format!("`{host}` is not a host name"));
    }
    let labels: Vec<&str> = name.split('.').collect();
    for label in &labels {
        let ok = !label.is_empty() && label.len() <= 63 && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') && !label.starts_with('-') && !label.ends_with('-');
        if !ok {
            return Err(format!("`{host}` is not a host name (`{label}` is not a DNS label)"));
        }
    }
    if wildcard && labels.len() < 2 {
        return Err(format!("`{host}` matches every name under a top-level domain"));
    }
    if wildcard && suffix::is_public_suffix(name) {
        return Err(format!("`{host}` matches every site under the public suffix `{name}`"));
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
    meta.get(META_KEY).and_then(|ui| ui.get("resourceUri")).or_else(|| meta.get(DEPRECATED_RESOURCE_URI_KEY)).and_then(serde_json::Value::as_str)
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
    let list = meta.and_then(|m| m.get(META_KEY)).and_then(|ui| ui.get("visibility")).and_then(serde_json::Value::as_array);
    match list {
        None => Visibility { model: true, app: true },
        Some(items) => Visibility {
            model: items.iter().any(|v| v == "model"),
            app: items.iter().any(|v| v == "app"),
        },
    }
}

/// A `Tool` of any protocol version, as the MCP Apps helpers read it: its `_meta` object.
/// Implemented for the `Tool` of every version module that is enabled; 2024-11-05 and
/// 2025-03-26 define no `_meta` on tools, so there it is the unknown key kept in `extra`.
pub trait AppTool {
    /// The tool's `_meta`, if it has an object there.
    fn meta_object(&self) -> Option<&JsonObject>;

    /// Who may see and call the tool ([`visibility`]).
    fn visibility(&self) -> Visibility {
        visibility(self.meta_object())
    }

    /// The UI resource the tool shows ([`tool_resource_uri`]).
    fn ui_resource_uri(&self) -> Option<&str> {
        tool_resource_uri(self.meta_object())
    }

    /// The tool's `_meta.ui`, typed ([`tool_ui`]).
    fn ui(&self) -> Option<Result<McpUiToolMeta, serde_json::Error>> {
        tool_ui(self.meta_object())
    }
}

macro_rules! app_tool {
    ($feature:literal, $m:ident, typed_meta) => {
        #[cfg(feature = $feature)]
        impl AppTool for crate::$m::Tool {
            fn meta_object(&self) -> Option<&JsonObject> {
                self.meta.as_ref()
            }
        }
    };
    ($feature:literal, $m:ident, meta_in_extra) => {
        #[cfg(feature = $feature)]
        impl AppTool for crate::$m::Tool {
            fn meta_object(&self) -> Option<&JsonObject> {
                self.extra.get("_meta").and_then(serde_json::Value::as_object)
            }
        }
    };
}

app_tool!("v2024-11-05", v2024_11_05, meta_in_extra);
app_tool!("v2025-03-26", v2025_03_26, meta_in_extra);
app_tool!("v2025-06-18", v2025_06_18, typed_meta);
app_tool!("v2025-11-25", v2025_11_25, typed_meta);
app_tool!("v2026-07-28", v2026_07_28, typed_meta);

/// The tools a host may put in the model's tool list: app-only tools removed.
pub fn model_visible_tools<T: AppTool>(tools: &[T]) -> Vec<&T> {
    tools.iter().filter(|t| t.visibility().model).collect()
}

/// A policy built from a UI resource's `_meta.ui.csp`, and the entries left out of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Csp {
    /// The `Content-Security-Policy` value (a response header, or a `<meta http-equiv>` tag).
    pub policy: String,
    /// Entries that are not origins by [`origin`], in the order declared; a host should log them.
    pub dropped: Vec<DroppedSource>,
}

/// A CSP domain entry [`content_security_policy`] left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedSource {
    /// The list it was in: `connectDomains`, `resourceDomains`, `frameDomains` or `baseUriDomains`.
    pub field: &'static str,
    /// Its index in that list.
    pub index: usize,
    pub value: String,
    /// `apps.csp-origin` (not an origin) or `apps.csp-limit` (a repeat, or past the caps).
    pub rule: &'static str,
    /// Why it was left out.
    pub reason: String,
}

impl std::fmt::Display for DroppedSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{} {:?} dropped [{}]: {}", self.field, self.index, self.value, self.rule, self.reason)
    }
}

/// Most origins [`content_security_policy`] keeps from one domain list.
pub const CSP_MAX_ORIGINS: usize = 64;
/// Longest policy [`content_security_policy`] builds, in bytes. Servers and proxies commonly cap
/// a response header at 8 KiB; a longer one (3,000 domains make 385 KB) stops the page loading.
pub const CSP_MAX_POLICY_BYTES: usize = 8192;
/// Length of the built policy without declared origins (the SEP's fixed sources), rounded up.
const CSP_FIXED_BYTES: usize = 320;

/// The Content-Security-Policy a host applies to a UI resource, from its `_meta.ui.csp`.
///
/// Directives follow SEP-1865's host rules. Every entry must pass [`origin`] (the rule the
/// `apps.csp-origin` check reports), so a server cannot add sources or directives through a
/// domain string; the others are left out and listed in [`Csp::dropped`], and so are repeats and
/// what passes the caps ([`CSP_MAX_ORIGINS`] per list, [`CSP_MAX_POLICY_BYTES`] in all, filled in
/// the order connect, resource, frame, base domains). With no CSP, or none that holds a usable
/// origin, the policy is [`DEFAULT_CSP`]. Beyond the SEP's sample policy, `form-action` is
/// `'none'`, `connect-src` is `'none'` when no connect domain is declared (the extension's types:
/// no domains, no network connections), and `base-uri` is `'none'` when no base URI domain is
/// (the SEP's sample says `'self'`, but a host "MAY further restrict", and declaring a connect
/// domain must not loosen where a `<base>` may point).
pub fn content_security_policy(csp: Option<&McpUiResourceCsp>) -> Csp {
    let mut dropped = Vec::new();
    let mut budget = CSP_MAX_POLICY_BYTES - CSP_FIXED_BYTES;
    let mut origins = |field: &'static str, list: &Option<Vec<String>>| -> Vec<String> {
        let mut kept = Vec::new();
        let mut seen = HashSet::new();
        for (index, entry) in list.iter().flatten().enumerate() {
            let limit = |reason: String| DroppedSource { field, index, value: entry.clone(), rule: "apps.csp-limit", reason };
            if let Err(reason) = origin(entry) {
                dropped.push(DroppedSource { field, index, value: entry.clone(), rule: "apps.csp-origin", reason });
                continue;
            }
            let source = entry.strip_suffix('/').unwrap_or(entry);
            let cost = (source.len() + 1) * directives_of(field);
            if !seen.insert(source) {
                dropped.push(limit("a repeat of an earlier entry".into()));
            } else if kept.len() == CSP_MAX_ORIGINS {
                dropped.push(limit(format!("more than {CSP_MAX_ORIGINS} origins in `{field}`")));
            } else if cost > budget {
                dropped.push(limit(format!("the policy would pass {CSP_MAX_POLICY_BYTES} bytes")));
            } else {
                budget -= cost;
                kept.push(source.to_string());
            }
        }
        kept
    };
    let (connect, resources, frames, bases) = match csp {
        Some(c) => (
            origins("connectDomains", &c.connect_domains),
            origins("resourceDomains", &c.resource_domains),
            origins("frameDomains", &c.frame_domains),
            origins("baseUriDomains", &c.base_uri_domains),
        ),
        None => Default::default(),
    };
    if connect.is_empty() && resources.is_empty() && frames.is_empty() && bases.is_empty() {
        return Csp { policy: DEFAULT_CSP.to_string(), dropped };
    }
    // The SEP's fixed sources, then the declared origins; `otherwise` when that leaves none.
    let directive = |name: &str, fixed: &str, declared: &[String], otherwise: &str| {
        let sources: Vec<&str> = fixed.split_whitespace().chain(declared.iter().map(String::as_str)).collect();
        format!("{name} {}", if sources.is_empty() { otherwise.to_string() } else { sources.join(" ") })
    };
    let policy = [
        "default-src 'none'".to_string(),
        directive("script-src", "'self' 'unsafe-inline'", &resources, ""),
        directive("style-src", "'self' 'unsafe-inline'", &resources, ""),
        directive("connect-src", if connect.is_empty() { "" } else { "'self'" }, &connect, "'none'"),
        directive("img-src", "'self' data:", &resources, ""),
        directive("font-src", "'self'", &resources, ""),
        directive("media-src", "'self' data:", &resources, ""),
        directive("frame-src", "", &frames, "'none'"),
        "object-src 'none'".to_string(),
        directive("base-uri", "", &bases, "'none'"),
        "form-action 'none'".to_string(),
    ]
    .join("; ");
    Csp { policy, dropped }
}
