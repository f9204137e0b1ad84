//! Links a host opens for the user: an implementation's `websiteUrl` (SEP-973)
//! and the URL of MCP Apps' `ui/open-link` request.
//!
//! Both are web pages shown in a browser, so `https:` and `http:` are allowed.
//! Every other scheme is refused: `javascript:` and `data:` run code in whatever
//! opens them, `file:` reaches local files, and application schemes hand the user
//! to another program, which the basic protocol's icon rules also name as unsafe.
//! `http:` stays allowed because a page link, unlike an icon, is not fetched
//! without the user: following it is a navigation the browser guards.

use crate::tree::Node;

use super::Cx;

/// Schemes a link may use.
pub const SAFE_SCHEMES: &[&str] = &["https", "http"];

/// `Implementation.websiteUrl`.
pub fn website_url<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    if let Some(url) = v.get("websiteUrl") {
        cx.key("websiteUrl", |cx| link(url, cx));
    }
}

/// The `url` of a `ui/open-link` request (MCP Apps).
pub fn open_link<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    if let Some(url) = v.get("params").and_then(|p| p.get("url")) {
        cx.key("params", |cx| cx.key("url", |cx| link(url, cx)));
    }
}

fn link(v: Node<'_>, cx: &mut Cx<'_>) {
    let Some(url) = v.as_str() else { return };
    match scheme(url) {
        Some(s) if SAFE_SCHEMES.iter().any(|safe| s.eq_ignore_ascii_case(safe)) => {}
        Some(s) => cx.error("link.scheme", format!("a link must be an `https:` or `http:` URL, not `{s}:`")),
        None => cx.error("link.scheme", "a link must be an absolute `https:` or `http:` URL"),
    }
}

/// The scheme as a browser reads it: leading spaces and control characters are
/// skipped and tabs and newlines inside it dropped, so `" java\tscript:"` is `javascript`.
/// `None` when the URL has no valid scheme.
pub fn scheme(url: &str) -> Option<String> {
    let mut out = String::new();
    for c in url.trim_start_matches(|c: char| c <= ' ').chars() {
        match c {
            ':' => return (!out.is_empty()).then_some(out),
            '\t' | '\n' | '\r' => {}
            c if c.is_ascii_alphabetic() || (!out.is_empty() && (c.is_ascii_digit() || matches!(c, '+' | '-' | '.'))) => out.push(c),
            _ => return None,
        }
    }
    None
}
