//! SVG icons are judged by an allowlist, not by looking for known attacks.
//!
//! Pattern-matching SVG text for scripts loses to every way XML and HTML can spell the same
//! thing (entities, comments an HTML parser ends early, CSS escapes, lists of values). So the
//! bytes are read with a real XML tokenizer (`xmlparser`) and an icon passes only when every
//! construct in it is on a small list (see [`allow`]): UTF-8, an optional XML declaration and
//! DOCTYPE without an internal subset, comments, text with only the five predefined or numeric
//! character references, and the shape, paint, gradient, clip, mask, filter, text and animation
//! elements with their geometry and presentation attributes. References are same-document
//! `#fragment`s only (a raster `data:` image on `<image>`); values may call only colour,
//! transform and `url(#id)` functions. The list is also safe when a host inlines the SVG into
//! HTML, where comments, CDATA, processing instructions and DOCTYPEs parse differently: so
//! DTD subsets, entity references, CDATA, processing instructions, `<style>`, `<set>`, event
//! handlers and unprefixed foreign elements are refused outright. Anything outside the list is
//! a finding; known active content gets its own kind ([`Active`]) for a clearer message.

pub mod allow;

use std::borrow::Cow;

use xmlparser::{ElementEnd, ExternalId, Token, Tokenizer};

use allow::{EDITOR_NS, SVG_NS, XLINK_NS};

/// A kind of finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Active {
    /// A `<script>` element (or SVG Tiny's `<handler>`).
    Script,
    /// An `on*` event-handler attribute.
    Handler,
    /// A `javascript:` (or `vbscript:`) URL in an attribute, an animation value or a CSS `url()`.
    ScriptUrl,
    /// A `<foreignObject>`, which embeds HTML.
    ForeignObject,
    /// A reference to another document: `href` to a URL, CSS `url()`, an external entity, an
    /// `xml-stylesheet`.
    External,
    /// Anything else outside the allowlist, or not well-formed XML.
    Markup,
}

/// One finding: its kind, what showed it, and its byte offset in the SVG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: Active,
    pub detail: String,
    pub offset: usize,
}

impl Finding {
    /// The validation rule: `icon.svg-active` for active content, `icon.svg-markup` for the rest.
    pub fn rule(&self) -> &'static str {
        match self.kind {
            Active::Markup => "icon.svg-markup",
            _ => "icon.svg-active",
        }
    }

    pub fn message(&self) -> String {
        let d = &self.detail;
        let at = self.offset;
        match self.kind {
            Active::Script => format!("the SVG icon contains a script (`<{d}>`, byte {at})"),
            Active::Handler => format!("the SVG icon contains an event handler (`{d}`, byte {at})"),
            Active::ScriptUrl => format!("the SVG icon contains a script URL ({d}, byte {at})"),
            Active::ForeignObject => format!("the SVG icon embeds foreign content (`<{d}>`, byte {at})"),
            Active::External => format!("the SVG icon references an external resource ({d}, byte {at})"),
            Active::Markup => format!("the SVG icon uses {d} (byte {at}), which is outside the allowlist of SVG icon markup"),
        }
    }
}

/// Deepest element nesting accepted (icons nest a handful of groups).
const MAX_DEPTH: usize = 128;
/// Most attributes an element may carry: one element's are held until its tag ends.
const MAX_ATTRIBUTES: usize = 256;
/// Most namespace declarations in scope: each name is looked up among them, so this keeps a
/// long icon linear (an editor's file declares under ten).
const MAX_BINDINGS: usize = 64;

/// Every kind of finding in `b`, each reported once at its first occurrence; reading stops at
/// the first construct the tokenizer rejects. Linear in the length of `b`; memory is the element
/// stack (at most `MAX_DEPTH`, 128) and one element's attributes.
pub fn scan(b: &[u8]) -> Vec<Finding> {
    let mut s = Scan::default();
    let bom = if b.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    match std::str::from_utf8(&b[bom..]) {
        Ok(text) => {
            s.base = bom;
            s.run(text);
        }
        Err(e) => s.report(Active::Markup, e.valid_up_to() + bom, "bytes that are not UTF-8".into()),
    }
    s.found
}

#[derive(Default)]
struct Scan {
    found: Vec<Finding>,
    /// Byte offset of the text in the input (a byte-order mark).
    base: usize,
    /// Namespace bindings in scope, innermost last: (prefix, URI); `""` is the default namespace.
    bindings: Vec<(String, String)>,
    /// Open elements: qualified name and how many bindings were in scope before it.
    open: Vec<(String, usize)>,
    roots: usize,
}

/// An element whose attributes are still being read.
struct Pending<'a> {
    prefix: &'a str,
    local: &'a str,
    at: usize,
    attrs: Vec<(&'a str, &'a str, &'a str, usize)>,
}

impl Scan {
    fn report(&mut self, kind: Active, at: usize, detail: String) {
        if !self.found.iter().any(|f| f.kind == kind) {
            self.found.push(Finding { kind, detail, offset: at + self.base });
        }
    }

    fn markup(&mut self, at: usize, detail: impl Into<String>) {
        self.report(Active::Markup, at, detail.into());
    }

    fn run(&mut self, text: &str) {
        let mut pending: Option<Pending<'_>> = None;
        for token in Tokenizer::from(text) {
            let token = match token {
                Ok(t) => t,
                Err(e) => {
                    // The tokenizer's own position is line:column; the message keeps it.
                    self.markup(0, format!("malformed XML ({e})"));
                    return;
                }
            };
            match token {
                Token::Declaration { encoding, span, .. } => {
                    if let Some(enc) = encoding.filter(|e| !e.as_str().eq_ignore_ascii_case("utf-8")) {
                        self.markup(span.start(), format!("the encoding `{}`", allow::short(enc.as_str())));
                    }
                }
                Token::ProcessingInstruction { target, span, .. } => {
                    if target.as_str().eq_ignore_ascii_case("xml-stylesheet") {
                        self.report(Active::External, span.start(), "`<?xml-stylesheet?>`".into());
                    } else {
                        self.markup(span.start(), "a processing instruction");
                    }
                }
                Token::Comment { text, span } => {
                    // An HTML parser ends `<!-->` and `<!--->` at once: what follows would be markup there.
                    if text.as_str().starts_with('>') || text.as_str().starts_with("->") {
                        self.markup(span.start(), "a comment an HTML parser reads differently (`<!-->`)");
                    }
                }
                Token::EmptyDtd { name, external_id, span } => {
                    let ids = match external_id {
                        Some(ExternalId::System(s)) => vec![s.as_str()],
                        Some(ExternalId::Public(p, s)) => vec![p.as_str(), s.as_str()],
                        None => vec![],
                    };
                    // Editors write the SVG 1.1 DOCTYPE; quotes or `>` in its ids would end it early in HTML.
                    let plain = ids.iter().all(|id| id.bytes().all(|c| c.is_ascii_alphanumeric() || b" -/.:#_".contains(&c)));
                    if name.as_str() != "svg" || !plain {
                        self.markup(span.start(), "a DOCTYPE other than `<!DOCTYPE svg ...>`");
                    }
                }
                Token::DtdStart { span, .. } => self.markup(span.start(), "a DOCTYPE with an internal subset (entity declarations)"),
                Token::EntityDeclaration { definition, span, .. } => {
                    if matches!(definition, xmlparser::EntityDefinition::ExternalId(_)) {
                        self.report(Active::External, span.start(), "an external entity".into());
                    }
                }
                Token::DtdEnd { .. } => {}
                Token::ElementStart { prefix, local, span } => {
                    if self.open.len() >= MAX_DEPTH {
                        self.markup(span.start(), format!("elements nested deeper than {MAX_DEPTH}"));
                        return;
                    }
                    pending = Some(Pending { prefix: prefix.as_str(), local: local.as_str(), at: span.start(), attrs: Vec::new() });
                }
                Token::Attribute { prefix, local, value, span } => {
                    if let Some(p) = pending.as_mut() {
                        if p.attrs.len() == MAX_ATTRIBUTES {
                            self.markup(span.start(), format!("an element with more than {MAX_ATTRIBUTES} attributes"));
                            return;
                        }
                        p.attrs.push((prefix.as_str(), local.as_str(), value.as_str(), span.start()));
                    }
                }
                Token::ElementEnd { end, span } => match end {
                    ElementEnd::Open | ElementEnd::Empty => {
                        let Some(p) = pending.take() else { continue };
                        let before = self.bindings.len();
                        self.element(&p);
                        if matches!(end, ElementEnd::Open) {
                            let name = if p.prefix.is_empty() { p.local.to_string() } else { format!("{}:{}", p.prefix, p.local) };
                            self.open.push((name, before));
                        } else {
                            self.bindings.truncate(before);
                        }
                    }
                    ElementEnd::Close(prefix, local) => {
                        let name = if prefix.as_str().is_empty() { local.as_str().to_string() } else { format!("{}:{}", prefix.as_str(), local.as_str()) };
                        match self.open.pop() {
                            Some((open, before)) if open == name => self.bindings.truncate(before),
                            _ => {
                                self.markup(span.start(), format!("`</{}>` that closes no open element", allow::short(&name)));
                                return;
                            }
                        }
                    }
                },
                Token::Text { text } => {
                    if let Err(why) = decode(text.as_str()) {
                        self.markup(text.start(), why);
                    }
                }
                Token::Cdata { span, .. } => self.markup(span.start(), "a CDATA section"),
            }
        }
        if !self.open.is_empty() {
            self.markup(text.len(), format!("`<{}>` left open", allow::short(&self.open[self.open.len() - 1].0)));
        } else if self.roots == 0 {
            self.markup(0, "no `<svg>` element");
        }
    }

    /// The namespace a prefix is bound to (`None`: unbound, or no default namespace).
    fn namespace(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(allow::XML_NS);
        }
        self.bindings.iter().rev().find(|(p, _)| p == prefix).map(|(_, uri)| uri.as_str())
    }

    fn element(&mut self, p: &Pending<'_>) {
        for &(prefix, local, value, at) in &p.attrs {
            let declared = match (prefix, local) {
                ("xmlns", _) => Some(local),
                ("", "xmlns") => Some(""),
                _ => None,
            };
            if let Some(bound) = declared {
                match decode(value) {
                    // Only SVG may be the default namespace: an HTML parser ignores `xmlns`, so an
                    // unprefixed element must be SVG under both readings.
                    Ok(uri) if bound.is_empty() && uri != SVG_NS => self.markup(at, format!("the default namespace `{}`", allow::short(&uri))),
                    Ok(_) if self.bindings.len() >= MAX_BINDINGS => self.markup(at, format!("more than {MAX_BINDINGS} namespace declarations")),
                    Ok(uri) => self.bindings.push((bound.to_string(), uri.into_owned())),
                    Err(why) => self.markup(at, why),
                }
            }
        }
        if self.open.is_empty() {
            self.roots += 1;
            if p.local != "svg" || !p.prefix.is_empty() {
                self.markup(p.at, format!("the root element `<{}>` (an icon's root is `<svg>`)", allow::short(p.local)));
            }
        }
        let ns = self.namespace(p.prefix).map(str::to_string);
        let svg = match ns.as_deref() {
            // Unprefixed with no default namespace: what an HTML parser would read as SVG.
            None if p.prefix.is_empty() => true,
            Some(SVG_NS) => true,
            Some(uri) if !p.prefix.is_empty() && EDITOR_NS.contains(&uri) => {
                // Inert to a browser, but a `style` would still style it where HTML renders it.
                for &(prefix, local, raw, at) in &p.attrs {
                    if self.handler(prefix, local, at) {
                        continue;
                    }
                    let checked = decode(raw).map_err(|why| (false, why));
                    let checked = match (prefix, local) {
                        ("", "style") => checked.and_then(|v| allow::style(&v)),
                        _ => checked.map(drop),
                    };
                    self.value(checked, at);
                }
                return;
            }
            None => {
                self.markup(p.at, format!("the unbound prefix `{}:`", allow::short(p.prefix)));
                false
            }
            Some(uri) => {
                self.markup(p.at, format!("an element in the namespace `{}`", allow::short(uri)));
                false
            }
        };
        let lists = if svg { allow::element(p.local) } else { None };
        // An element off the list is reported, and its attributes still read for the kinds they show.
        let off_list = lists.is_none();
        let lists = lists.unwrap_or_else(|| {
            match p.local {
                _ if !svg => {}
                "script" | "handler" => self.report(Active::Script, p.at, p.local.into()),
                "foreignObject" => self.report(Active::ForeignObject, p.at, p.local.into()),
                other => self.markup(p.at, format!("the element `<{}>`", allow::short(other))),
            }
            &[]
        });
        let animation = p.local.starts_with("animate");
        for &(prefix, local, raw, at) in &p.attrs {
            if prefix == "xmlns" || (prefix.is_empty() && local == "xmlns") || self.handler(prefix, local, at) {
                continue;
            }
            let value = match decode(raw) {
                Ok(v) => v,
                Err(why) => {
                    self.markup(at, why);
                    continue;
                }
            };
            // An HTML parser puts `xlink:` attributes in the XLink namespace, declared or not.
            let ns = match prefix {
                "" => None,
                "xlink" => Some(self.namespace(prefix).unwrap_or(XLINK_NS).to_string()),
                _ => self.namespace(prefix).map(str::to_string),
            };
            match (prefix, ns.as_deref()) {
                ("", _) if local == "href" => self.href(p.local, lists, &value, at),
                (_, Some(XLINK_NS)) if local == "href" => self.href(p.local, lists, &value, at),
                ("", _) if local == "style" => self.value(allow::style(&value), at),
                ("", _) if animation && local == "attributeName" => {
                    if !allow::animatable(value.trim()) {
                        // Changing a reference or a handler is how `<animate>` delivers `javascript:`.
                        let script = p.attrs.iter().any(|&(_, l, v, _)| matches!(l, "values" | "from" | "to" | "by") && decode(v).is_ok_and(|v| v.split(';').any(script_url)));
                        let what = format!("an animation of `{}`", allow::short(value.trim()));
                        match script {
                            true => self.report(Active::ScriptUrl, at, format!("`javascript:` in {what}")),
                            false => self.markup(at, what),
                        }
                    }
                }
                ("", _) if allow::attribute(lists, local) => {
                    if animation && matches!(local, "values" | "from" | "to" | "by") && value.split(';').any(script_url) {
                        self.report(Active::ScriptUrl, at, format!("`{}`", allow::short(value.trim())));
                    }
                    self.value(allow::value(&value), at)
                }
                (_, Some(allow::XML_NS)) if matches!(local, "space" | "lang") => {}
                (_, Some(uri)) if EDITOR_NS.contains(&uri) => {}
                _ if script_url(&value) => self.report(Active::ScriptUrl, at, format!("`{}`", allow::short(value.trim()))),
                _ if off_list => {}
                _ => {
                    let name = if prefix.is_empty() { local.to_string() } else { format!("{prefix}:{local}") };
                    self.markup(at, format!("the attribute `{}` on `<{}>`", allow::short(&name), p.local));
                }
            }
        }
    }

    /// Reports an `on*` attribute; whether it was one.
    fn handler(&mut self, prefix: &str, local: &str, at: usize) -> bool {
        let handler = local.len() > 2 && local[..2].eq_ignore_ascii_case("on");
        if handler {
            let name = if prefix.is_empty() { local.to_string() } else { format!("{prefix}:{local}") };
            self.report(Active::Handler, at, allow::short(&name));
        }
        handler
    }

    fn href(&mut self, element: &str, lists: &[&[&str]], value: &str, at: usize) {
        let allowed = lists.iter().any(|l| l.contains(&"href"));
        if allowed && (allow::fragment(value) || (element == "image" && allow::raster_data(value))) {
            return;
        }
        if script_url(value) {
            self.report(Active::ScriptUrl, at, format!("`{}`", allow::short(value.trim())));
        } else if allowed {
            self.report(Active::External, at, format!("`{}`", allow::short(value.trim())));
        } else {
            self.markup(at, format!("`href` on `<{element}>`"));
        }
    }

    fn value(&mut self, checked: Result<(), (bool, String)>, at: usize) {
        match checked {
            Ok(()) => {}
            Err((true, why)) if script_url(why.trim_start_matches("`url(")) => self.report(Active::ScriptUrl, at, why),
            Err((true, why)) => self.report(Active::External, at, why),
            Err((false, why)) => self.markup(at, why),
        }
    }
}

/// Whether a URL is `javascript:` or `vbscript:` as a browser reads its scheme (whitespace and
/// controls dropped, any case).
fn script_url(v: &str) -> bool {
    let start: String = v.chars().filter(|c| !(c.is_whitespace() || c.is_control())).take(11).collect::<String>().to_ascii_lowercase();
    start.starts_with("javascript:") || start.starts_with("vbscript:")
}

/// Text or an attribute value with its character references decoded. Only numeric references
/// and the five predefined entities are allowed: any other entity needs a DTD.
fn decode(raw: &str) -> Result<Cow<'_, str>, String> {
    if !raw.contains('&') {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';').filter(|s| *s <= 10) else { return Err("an `&` that starts no character reference".into()) };
        let name = &after[..semi];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok().and_then(char::from_u32),
                None => name.strip_prefix('#').and_then(|d| d.parse::<u32>().ok()).and_then(char::from_u32),
            },
        };
        match c {
            Some(c) if c != '\0' => out.push(c),
            _ => return Err(format!("the entity reference `&{};` (only numeric references and the five XML ones are allowed)", allow::short(name))),
        }
        rest = &after[semi + 1..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(svg: &str) -> Vec<Active> {
        scan(svg.as_bytes()).into_iter().map(|f| f.kind).collect()
    }

    #[test]
    fn clean_icons() {
        for ok in [
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="1" height="1"/><use xlink:href="#g"/></svg>"##,
            r#"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg><!-- <script> --><text>onload=1 url(</text></svg>"#,
            r#"<svg><image href="data:image/png;base64,AAAA"/></svg>"#,
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 24 24"><sodipodi:namedview pagecolor="#fff"/><g inkscape:label="Layer 1" style="fill:#000;stroke:rgb(0, 0, 0);stroke-width:2"><path d="M0 0h24" transform="rotate(45 12 12)"/></g></svg>"##,
            r#"<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"><animateTransform attributeName="transform" type="rotate" values="0 12 12;360 12 12" dur="1s" repeatCount="indefinite"/><animate attributeName="opacity" values="1;0;1" dur="2s"/></circle><text>&lt;script&gt; &#65;</text></svg>"#,
        ] {
            assert_eq!(kinds(ok), vec![], "{ok}");
        }
    }

    #[test]
    fn active_content() {
        use Active::*;
        let cases: &[(&str, &[Active])] = &[
            (r#"<svg><script>alert(1)</script></svg>"#, &[Script]),
            (r#"<svg xmlns:s="http://www.w3.org/2000/svg"><s:script type="text/ecmascript"/></svg>"#, &[Script]),
            (r#"<svg onload="alert(1)"/>"#, &[Handler]),
            (r#"<svg><rect ONCLICK="alert(1)" /></svg>"#, &[Handler]),
            (r#"<svg><a xlink:href="javascript:alert(1)">x</a></svg>"#, &[Markup, ScriptUrl]),
            (r#"<svg><a href=" java&#x09;script&#58;alert(1)">x</a></svg>"#, &[Markup, ScriptUrl]),
            (r#"<svg><set attributeName="href" to="JavaScript:alert(1)"/></svg>"#, &[Markup, ScriptUrl]),
            (r#"<svg><foreignObject><div/></foreignObject></svg>"#, &[ForeignObject, Markup]),
            (r#"<svg><image href="https://tracker.example/p.png"/></svg>"#, &[External]),
            (r#"<svg><use xlink:href="other.svg#icon"/></svg>"#, &[External]),
            (r#"<svg><rect style="fill: url('https://e/x')"/></svg>"#, &[External]),
            (r#"<svg><style><![CDATA[ @import "https://e/x.css"; ]]></style></svg>"#, &[Markup]),
            (r#"<svg><style>rect { fill: red }</style></svg>"#, &[Markup]),
            (r#"<!DOCTYPE svg [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]><svg>&x;</svg>"#, &[Markup, External]),
            (r#"<?xml-stylesheet href="https://e/s.css"?><svg/>"#, &[External]),
            // Issue 27's four bypasses of the old text scan.
            (r#"<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg>&x;</svg>"#, &[Markup]),
            (r#"<svg><!--><script>alert(1)</script>--></svg>"#, &[Markup]),
            (r##"<svg><a><animate attributeName="href" values="#a;javascript:alert(1)"/><text>x</text></a></svg>"##, &[Markup, ScriptUrl]),
            (r#"<svg><rect style="fill:u\72l(https://e/x)"/></svg>"#, &[Markup]),
            // Close variants.
            (r##"<svg><a><animate attributeName="xlink:href" values="#a; javascript:alert(1)"/></a></svg>"##, &[Markup, ScriptUrl]),
            (r#"<svg><animate attributeName="fill" values="red;url(https://e/x)"/></svg>"#, &[External]),
            (r#"<svg><rect fill="URL(https://e/x)"/></svg>"#, &[External]),
            (r#"<svg><rect style="fill:image-set('x.png' 1x)"/></svg>"#, &[Markup]),
            (r#"<svg><rect fill="url(#a" style="cursor:url(#a)"/></svg>"#, &[Markup]),
            (r#"<svg><text>&nbsp;</text></svg>"#, &[Markup]),
            (r#"<svg><rect xml:base="https://e/"/></svg>"#, &[Markup]),
            (r#"<svg xmlns:h="http://www.w3.org/1999/xhtml"><h:img src="x" onerror="alert(1)"/></svg>"#, &[Markup, Handler]),
            (r#"<svg xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:img onerror="alert(1)"/></metadata></svg>"#, &[Handler]),
            (r#"<svg><metadata xmlns="http://purl.org/dc/elements/1.1/"><img src="x"/></metadata></svg>"#, &[Markup]),
            (r#"<svg xmlns:s="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"><s:namedview style="background:url(https://e/x)"/></svg>"#, &[External]),
            (r#"<svg xmlns:s="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"><s:namedview s:docname="&e;"/></svg>"#, &[Markup]),
            (r#"<!DOCTYPE svg PUBLIC "x><img src=x onerror=alert(1)>" "y"><svg/>"#, &[Markup]),
            (r#"<svg><title><![CDATA[</svg><img src=x onerror=alert(1)>]]></title></svg>"#, &[Markup]),
            (r#"<?foo <img src=x onerror=alert(1)>?><svg/>"#, &[Markup]),
            (r#"<?xml version="1.0" encoding="UTF-16"?><svg/>"#, &[Markup]),
            (r#"<html/>"#, &[Markup]),
            ("<svg><rect/>", &[Markup]),
        ];
        for (svg, want) in cases {
            assert_eq!(kinds(svg), *want, "{svg}");
        }
    }

    #[test]
    fn each_kind_once() {
        let svg = r#"<svg onload="a()" onclick="b()"><script/><script/></svg>"#;
        assert_eq!(kinds(svg), vec![Active::Handler, Active::Script]);
    }

    #[test]
    fn malformed_input_ends() {
        for bad in ["", "<", "<svg", "<svg a", "<svg a=", "<svg a=\"", "<!--", "<![CDATA[", "<!DOCTYPE", "<!ENTITY", "<?", "</", "<svg ==== >", "<style>url(", "&#", "<a href=\"&#xFFFFFFFFFFFF;\">", "\u{feff}<svg/>\u{0}", "<svg>\u{ff}"] {
            scan(bad.as_bytes());
        }
        assert_eq!(kinds("\u{feff}<svg/>"), vec![]);
        assert_eq!(scan(b"<svg>\xff</svg>")[0].offset, 5);
        // Many unclosed tags and references: one pass, no blow-up.
        let big = "<a href='&#".repeat(100_000);
        assert!(scan(big.as_bytes()).len() <= 6);
        // Namespace declarations are capped, so each element's name lookup is short.
        let decls = |n: usize| (0..n).map(|i| format!(" xmlns:p{i}=\"u\"")).collect::<String>();
        assert_eq!(kinds(&format!("<svg{}/>", decls(200))), vec![Active::Markup]);
        let svg = format!("<svg xmlns=\"http://www.w3.org/2000/svg\"{}>{}</svg>", decls(63), "<g/>".repeat(200_000));
        let started = std::time::Instant::now();
        assert_eq!(kinds(&svg), vec![]);
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
        let attrs: String = (0..300).map(|i| format!(" data-a{i}=\"1\"")).collect();
        assert_eq!(kinds(&format!("<svg{attrs}/>")), vec![Active::Markup]);
        // Deep nesting stops at the limit.
        let deep = "<g>".repeat(100_000);
        assert_eq!(kinds(&format!("<svg>{deep}")), vec![Active::Markup]);
    }
}
