//! A one-pass scan of SVG bytes for content that runs code or fetches from
//! elsewhere when the icon is rendered. It is not an XML parser: it reads tags,
//! attributes, comments, CDATA and declarations well enough to find what a
//! sanitizer would strip, and on malformed input it stops at the end of the bytes.

/// A kind of active content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Active {
    /// A `<script>` element (or SVG Tiny's `<handler>`).
    Script,
    /// An `on*` event-handler attribute.
    Handler,
    /// A `javascript:` (or `vbscript:`) URL in an attribute or a CSS `url()`.
    ScriptUrl,
    /// A `<foreignObject>`, which embeds HTML.
    ForeignObject,
    /// A reference to another document: `href`/`src` to a URL, CSS `url()` or
    /// `@import`, an external entity, an `xml-stylesheet`.
    External,
}

/// One finding: its kind and what showed it (an element or attribute name, a URL's start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: Active,
    pub detail: String,
}

impl Finding {
    pub fn message(&self) -> String {
        let d = &self.detail;
        match self.kind {
            Active::Script => format!("the SVG icon contains a script (`<{d}>`)"),
            Active::Handler => format!("the SVG icon contains an event handler (`{d}`)"),
            Active::ScriptUrl => format!("the SVG icon contains a script URL (`{d}`)"),
            Active::ForeignObject => format!("the SVG icon embeds foreign content (`<{d}>`)"),
            Active::External => format!("the SVG icon references an external resource (`{d}`)"),
        }
    }
}

/// Longest detail kept in a finding, in bytes of input.
const DETAIL_MAX: usize = 48;

/// Every kind of active content in `b`, each reported once at its first occurrence.
/// Linear in the length of `b`; allocates only the (at most five) findings.
pub fn scan(b: &[u8]) -> Vec<Finding> {
    let mut s = Scan { b, found: Vec::new() };
    s.run();
    s.found
}

struct Scan<'a> {
    b: &'a [u8],
    found: Vec<Finding>,
}

impl Scan<'_> {
    fn report(&mut self, kind: Active, detail: &[u8]) {
        if !self.found.iter().any(|f| f.kind == kind) {
            let detail = String::from_utf8_lossy(&detail[..detail.len().min(DETAIL_MAX)]).into_owned();
            self.found.push(Finding { kind, detail });
        }
    }

    fn run(&mut self) {
        let b = self.b;
        let mut i = 0;
        // Inside `<style>`, text is CSS.
        let mut in_style = false;
        while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
            let lt = i + off;
            if in_style {
                self.css(&b[i..lt]);
            }
            let rest = &b[lt..];
            i = if rest.starts_with(b"<!--") {
                skip_past(b, lt + 4, b"-->")
            } else if rest.starts_with(b"<![CDATA[") {
                let end = find(b, lt + 9, b"]]>").unwrap_or(b.len());
                if in_style {
                    self.css(&b[lt + 9..end]);
                }
                (end + 3).min(b.len())
            } else if rest.starts_with(b"<!") {
                self.declaration(lt)
            } else if rest.starts_with(b"<?") {
                let end = skip_past(b, lt + 2, b"?>");
                if starts_with_ci(&rest[2..], b"xml-stylesheet") {
                    self.report(Active::External, b"xml-stylesheet");
                }
                end
            } else {
                self.tag(lt + 1, &mut in_style)
            };
        }
        if in_style {
            self.css(&b[i..]);
        }
    }

    /// `<!DOCTYPE ...>` or a declaration of its internal subset, starting at `<`.
    /// An external entity is reported; the DOCTYPE's own external id is not, as
    /// renderers do not fetch DTDs and editors write one into ordinary files.
    fn declaration(&mut self, lt: usize) -> usize {
        let b = self.b;
        let body = lt + 2;
        if starts_with_ci(&b[body..], b"DOCTYPE") {
            // The internal subset's declarations are read as they come.
            return match b[body..].iter().position(|&c| c == b'[' || c == b'>') {
                Some(p) => body + p + 1,
                None => b.len(),
            };
        }
        let end = skip_past(b, body, b">");
        if starts_with_ci(&b[body..], b"ENTITY") {
            let decl = &b[body..end];
            if find(decl, 0, b"SYSTEM").is_some() || find(decl, 0, b"PUBLIC").is_some() {
                self.report(Active::External, b"<!ENTITY ... SYSTEM>");
            }
        }
        end
    }

    /// A start or end tag; `start` is just after its `<`. Returns where the tag ends.
    fn tag(&mut self, start: usize, in_style: &mut bool) -> usize {
        let b = self.b;
        let mut j = start;
        let closing = b.get(j) == Some(&b'/');
        if closing {
            j += 1;
        }
        let name_start = j;
        while j < b.len() && !is_space(b[j]) && b[j] != b'>' && b[j] != b'/' {
            j += 1;
        }
        let name = &b[name_start..j];
        let local = local_name(name);
        if closing {
            if local.eq_ignore_ascii_case(b"style") {
                *in_style = false;
            }
            return skip_past(b, j, b">");
        }
        if local.eq_ignore_ascii_case(b"script") || local.eq_ignore_ascii_case(b"handler") {
            self.report(Active::Script, name);
        } else if local.eq_ignore_ascii_case(b"foreignObject") {
            self.report(Active::ForeignObject, name);
        }
        let mut self_closing = false;
        loop {
            while j < b.len() && is_space(b[j]) {
                j += 1;
            }
            match b.get(j) {
                None => break,
                Some(b'>') => {
                    j += 1;
                    break;
                }
                Some(b'/') => {
                    self_closing = true;
                    j += 1;
                    continue;
                }
                Some(_) => {}
            }
            let attr_start = j;
            while j < b.len() && !is_space(b[j]) && !matches!(b[j], b'=' | b'>' | b'/') {
                j += 1;
            }
            let attr = &b[attr_start..j];
            while j < b.len() && is_space(b[j]) {
                j += 1;
            }
            let mut value: &[u8] = &[];
            if b.get(j) == Some(&b'=') {
                j += 1;
                while j < b.len() && is_space(b[j]) {
                    j += 1;
                }
                match b.get(j) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let end = b[j + 1..].iter().position(|&c| c == q).map_or(b.len(), |p| j + 1 + p);
                        value = &b[j + 1..end];
                        j = (end + 1).min(b.len());
                    }
                    _ => {
                        let v_start = j;
                        while j < b.len() && !is_space(b[j]) && b[j] != b'>' {
                            j += 1;
                        }
                        value = &b[v_start..j];
                    }
                }
            } else if attr.is_empty() {
                // A stray `=`: step over it so the loop always advances.
                j += 1;
                continue;
            }
            self.attribute(attr, value);
        }
        if local.eq_ignore_ascii_case(b"style") && !self_closing {
            *in_style = true;
        }
        j
    }

    fn attribute(&mut self, name: &[u8], value: &[u8]) {
        let local = local_name(name);
        if local.len() > 2 && local[..2].eq_ignore_ascii_case(b"on") {
            self.report(Active::Handler, name);
        }
        let start = url_start(value);
        if is_script_url(&start) {
            self.report(Active::ScriptUrl, &start);
        } else if (local.eq_ignore_ascii_case(b"href") || local.eq_ignore_ascii_case(b"src")) && is_external(&start) {
            self.report(Active::External, &start);
        }
        self.css(value);
    }

    /// CSS (a `<style>` element or any attribute value): `url(...)` and `@import`.
    fn css(&mut self, text: &[u8]) {
        let mut k = 0;
        while let Some(p) = find_ci(text, k, b"url(") {
            let mut arg = &text[p + 4..];
            while let [c, rest @ ..] = arg {
                if is_space(*c) || *c == b'"' || *c == b'\'' {
                    arg = rest;
                } else {
                    break;
                }
            }
            let start = url_start(arg);
            if is_script_url(&start) {
                self.report(Active::ScriptUrl, &start);
            } else if is_external(&start) {
                self.report(Active::External, &start);
            }
            k = p + 4;
        }
        if find_ci(text, 0, b"@import").is_some() {
            self.report(Active::External, b"@import");
        }
    }
}

/// The first characters of a URL as a browser reads its scheme: character references
/// decoded, whitespace and control characters dropped, lowercased. At most 16 bytes.
fn url_start(v: &[u8]) -> Vec<u8> {
    const MAX: usize = 16;
    let mut out = Vec::with_capacity(MAX);
    let mut i = 0;
    while i < v.len() && out.len() < MAX {
        let mut c = v[i];
        i += 1;
        if c == b'&' && v.get(i) == Some(&b'#') {
            if let Some((decoded, len)) = char_ref(&v[i + 1..]) {
                i += 1 + len;
                match u8::try_from(decoded) {
                    Ok(byte) => c = byte,
                    // Not ASCII: cannot be part of a scheme this looks for.
                    Err(_) => c = 0x7f,
                }
            }
        }
        if c <= b' ' {
            continue;
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A numeric character reference after `&#`: its code point and how many bytes it took.
fn char_ref(v: &[u8]) -> Option<(u32, usize)> {
    let (hex, digits_at) = match v.first() {
        Some(b'x' | b'X') => (true, 1),
        _ => (false, 0),
    };
    let mut n: u32 = 0;
    let mut j = digits_at;
    // Eight digits are past every code point; more are refused rather than overflowed.
    while j < v.len() && j - digits_at < 8 {
        let d = if hex { (v[j] as char).to_digit(16) } else { (v[j] as char).to_digit(10) };
        match d {
            Some(d) => n = n * if hex { 16 } else { 10 } + d,
            None => break,
        }
        j += 1;
    }
    if j == digits_at {
        return None;
    }
    // The `;` is optional to HTML parsers, so it is optional here.
    let len = if v.get(j) == Some(&b';') { j + 1 } else { j };
    Some((n, len))
}

fn is_script_url(start: &[u8]) -> bool {
    start.starts_with(b"javascript:") || start.starts_with(b"vbscript:")
}

/// A reference that leaves the document: not empty, not a fragment, not inline `data:`.
fn is_external(start: &[u8]) -> bool {
    !(start.is_empty() || start.starts_with(b"#") || start.starts_with(b"data:") || start.starts_with(b")"))
}

fn local_name(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&c| c == b':') {
        Some(p) => &name[p + 1..],
        None => name,
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

fn starts_with_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.len() >= needle.len() && hay[..needle.len()].eq_ignore_ascii_case(needle)
}

/// Where `needle` (exact bytes) starts in `hay` at or after `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

/// [`find`], ignoring ASCII case.
fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|p| from + p)
}

/// Just past the next `needle` at or after `from`, or the end of `b`.
fn skip_past(b: &[u8], from: usize, needle: &[u8]) -> usize {
    find(b, from, needle).map_or(b.len(), |p| p + needle.len())
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
            r#"<svg><image href="data:image/png;base64,AAAA"/><style>rect { fill: red }</style><a href="">x</a></svg>"#,
        ] {
            assert_eq!(kinds(ok), vec![], "{ok}");
        }
    }

    #[test]
    fn active_content() {
        let cases: &[(&str, Active)] = &[
            (r#"<svg><script>alert(1)</script></svg>"#, Active::Script),
            (r#"<svg><svg:SCRIPT type="text/ecmascript"/></svg>"#, Active::Script),
            (r#"<svg onload="alert(1)"/>"#, Active::Handler),
            (r#"<svg><rect ONCLICK=alert(1) /></svg>"#, Active::Handler),
            (r#"<svg><a xlink:href="javascript:alert(1)">x</a></svg>"#, Active::ScriptUrl),
            (r#"<svg><a href=" java&#x09;script&#58;alert(1)">x</a></svg>"#, Active::ScriptUrl),
            (r#"<svg><set attributeName="href" to="JavaScript:alert(1)"/></svg>"#, Active::ScriptUrl),
            (r#"<svg><foreignObject><div/></foreignObject></svg>"#, Active::ForeignObject),
            (r#"<svg><image href="https://tracker.example/p.png"/></svg>"#, Active::External),
            (r#"<svg><use xlink:href="other.svg#icon"/></svg>"#, Active::External),
            (r#"<svg><rect style="fill: url('https://e/x')"/></svg>"#, Active::External),
            (r#"<svg><style><![CDATA[ @import "https://e/x.css"; ]]></style></svg>"#, Active::External),
            (r#"<svg><style>rect { fill: url(//e/x) }</style></svg>"#, Active::External),
            (r#"<!DOCTYPE svg [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]><svg>&x;</svg>"#, Active::External),
            (r#"<?xml-stylesheet href="https://e/s.css"?><svg/>"#, Active::External),
        ];
        for (svg, kind) in cases {
            assert_eq!(kinds(svg), vec![*kind], "{svg}");
        }
    }

    #[test]
    fn each_kind_once() {
        let svg = r#"<svg onload="a()" onclick="b()"><script/><script/></svg>"#;
        assert_eq!(kinds(svg), vec![Active::Handler, Active::Script]);
    }

    #[test]
    fn malformed_input_ends() {
        for bad in ["<", "<svg", "<svg a", "<svg a=", "<svg a=\"", "<!--", "<![CDATA[", "<!DOCTYPE", "<!ENTITY", "<?", "</", "<svg ==== >", "<style>url(", "&#", "<a href=\"&#xFFFFFFFFFFFF;\">"] {
            scan(bad.as_bytes());
        }
        // Many unclosed tags and references: one pass, no blow-up.
        let big = "<a href='&#".repeat(100_000);
        assert!(scan(big.as_bytes()).len() <= 5);
    }
}
