//! JSDoc prose -> rustdoc markdown.

use crate::parse::{Constraint, Doc, TagKind};

/// Site that relative spec links (`/specification/...`) point into.
const SPEC_SITE: &str = "https://modelcontextprotocol.io";

/// Rewrites one doc comment; `resolves` says whether a name is a type rustdoc can link to.
pub fn render(doc: &Doc, resolves: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let text = doc.summary();
    if !text.is_empty() {
        out.extend(convert(&text, resolves).lines().map(str::to_string));
    }
    let mut notes: Vec<String> = Vec::new();
    for tag in &doc.tags {
        let value = convert(&tag.value, resolves);
        let shown_as_written = || format!("`@{}` {value}", tag.name).trim_end().to_string();
        match tag.kind {
            TagKind::Description | TagKind::Category | TagKind::Internal | TagKind::Deprecated | TagKind::Overlay | TagKind::OverlayRemove => {}
            TagKind::See => notes.push(format!("See also: {value}")),
            TagKind::Example => {
                let (title, body) = match value.split_once('\n') {
                    _ if value.trim_start().starts_with("```") => ("", value.as_str()),
                    Some((t, b)) => (t, b),
                    None => (value.as_str(), ""),
                };
                let title = title.trim();
                let body = body.trim();
                match (title.is_empty(), body.is_empty()) {
                    (false, false) => notes.push(format!("Example ({title}):\n{body}")),
                    (true, false) => notes.push(format!("Example:\n{body}")),
                    (false, true) => notes.push(format!("Example: {title}")),
                    (true, true) => {}
                }
            }
            TagKind::Constraint => notes.push(match tag.constraint() {
                Some(Constraint::Format(_)) => format!("Format: `{value}`."),
                Some(Constraint::Minimum(_)) => format!("Minimum: `{value}`."),
                Some(Constraint::Maximum(_)) => format!("Maximum: `{value}`."),
                Some(Constraint::MaxItems(_)) => format!("At most {value} items."),
                Some(Constraint::MaxLength(_)) => format!("At most {value} characters."),
                // As written: a pattern's `{n}` and URLs are not doc markup.
                Some(Constraint::Pattern(p)) => format!("Matches the pattern {}.", code_span(p)),
                Some(Constraint::MinItems(_)) | None => shown_as_written(),
            }),
            TagKind::JsonType => notes.push(format!("JSON Schema type: `{value}`.")),
            TagKind::Nullable => notes.push("May be `null`.".to_string()),
            TagKind::Default => notes.push(format!("Default: `{value}`.")),
            TagKind::Other => notes.push(shown_as_written()),
        }
    }
    if doc.has_tag(TagKind::Internal) {
        notes.push("Marked `@internal` in the schema.".to_string());
    }
    for n in notes {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.extend(n.lines().map(str::to_string));
    }
    out
}

/// The `@deprecated` note, if any, for a `#[deprecated]` attribute.
pub fn deprecation(doc: &Doc) -> Option<String> {
    doc.tag(TagKind::Deprecated).map(|v| {
        let v = v.split_whitespace().collect::<Vec<_>>().join(" ");
        if v.is_empty() {
            "deprecated in the schema".to_string()
        } else {
            v
        }
    })
}

/// A type name as words for prose: `ClientRequest` -> "client request", `JSONRPCMessage` ->
/// "JSON-RPC message", `McpUiTheme` -> "MCP UI theme".
pub fn words(name: &str) -> String {
    const ACRONYMS: &[&str] = &["Mcp", "Ui", "Json", "Uri", "Url", "Csp", "Id", "Http", "Sse"];
    let chars: Vec<char> = name.chars().collect();
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && match prev {
                Some(p) => p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(char::is_lowercase)),
                None => false,
            };
        if (boundary || c == '_') && !current.is_empty() {
            parts.push(std::mem::take(&mut current));
        }
        if c != '_' {
            current.push(c);
        }
    }
    parts.push(current);
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p == "JSONRPC" {
                "JSON-RPC".to_string()
            } else if ACRONYMS.contains(&p.as_str()) {
                p.to_uppercase()
            } else if p.len() > 1 && p.chars().all(|c| c.is_uppercase() || c.is_ascii_digit()) {
                p.clone()
            } else {
                p.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `phrase` with "a" or "an" in front, by how its first word is spoken.
pub fn with_article(phrase: &str) -> String {
    let first = phrase.split(' ').next().unwrap_or("");
    let spelled = first.len() > 1 && first.chars().all(|c| c.is_uppercase() || c.is_ascii_digit());
    let an = match first.chars().next() {
        Some(c) if spelled => "AEFHILMNORSX".contains(c),
        Some(c) => "aeiouAEIOU".contains(c),
        None => false,
    };
    format!("{} {phrase}", if an { "an" } else { "a" })
}

/// What an object of type `name` is in the protocol, for field fallbacks: "request", "result",
/// ... by the end of its name (a `...Params` object by what it belongs to), else its name as words.
pub fn role(name: &str) -> String {
    let base = name.strip_suffix("Params").unwrap_or(name);
    for kind in ["Request", "Notification", "Result", "Response", "Error"] {
        if base.ends_with(kind) {
            return kind.to_lowercase();
        }
    }
    words(base)
}

/// The doc line of a field the schema leaves undescribed: its JSON key, then what it holds.
/// The keys every message has get their meaning; any other key its type (`what`).
pub fn field_fallback(key: &str, owner: &str, what: &str) -> String {
    let role = role(owner);
    match key {
        "_meta" => format!("`_meta`: metadata MCP reserves for protocol-level information about this {role} (keys follow the spec's `_meta` naming rules)."),
        "id" if role == "request" => "`id`: the request ID; the response carries the same one.".to_string(),
        "id" if matches!(role.as_str(), "response" | "result" | "error") => format!("`id`: the ID of the request this {role} answers."),
        "params" => format!("`params`: the parameters of this {role}."),
        "method" => "`method`: the name of the method.".to_string(),
        "result" => "`result`: what the request returned.".to_string(),
        "error" => "`error`: what went wrong.".to_string(),
        "jsonrpc" => "`jsonrpc`: the JSON-RPC version, `\"2.0\"`.".to_string(),
        _ => format!("`{key}`: {what}."),
    }
}

/// The JSON key of a documented field, where its Rust name does not make it obvious (`_meta` for
/// `meta`; a `camelCase` key for its `snake_case` field is obvious).
pub fn key_note(key: &str, rust_name: &str) -> Option<String> {
    let mut camel = String::new();
    for (i, part) in rust_name.trim_start_matches("r#").split('_').enumerate() {
        let mut cs = part.chars();
        match cs.next() {
            Some(c) if i > 0 => camel.extend(c.to_uppercase().chain(cs)),
            Some(c) => camel.extend(std::iter::once(c).chain(cs)),
            None => {}
        }
    }
    (camel != key).then(|| format!("JSON key: `{key}`."))
}

fn convert(text: &str, resolves: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(end) = after.find('}') else {
            out.push_str(after);
            rest = "";
            break;
        };
        let inner = &after[1..end];
        if let Some(body) = inner.strip_prefix("@link ").or_else(|| inner.strip_prefix("@linkcode ")) {
            out.push_str(&link(body.trim(), resolves));
        } else if let Some(path) = inner.strip_prefix("@includeCode ") {
            out.push_str(&format!("(spec example `{}`)", path.trim().trim_start_matches("./")));
        } else {
            out.push_str(&after[..=end]);
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    angle_bare_urls(&absolutize_links(&out))
}

/// `text` as a markdown code span, fenced with more backticks than it holds in a row.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Rustdoc wants bare URLs in angle brackets; code spans, fences and markdown links are left alone.
fn angle_bare_urls(text: &str) -> String {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.split('\n') {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.contains("://") {
            out.push(line.to_string());
            continue;
        }
        let mut result = String::new();
        let mut in_code = false;
        let mut word = String::new();
        let flush = |word: &mut String, result: &mut String, in_code: bool| {
            let linked = result.ends_with("](") || result.ends_with('<');
            let bare = !in_code && !linked && (word.starts_with("http://") || word.starts_with("https://"));
            if bare {
                let trimmed = word.trim_end_matches(['.', ',', ';', ':', ')']);
                let tail = &word[trimmed.len()..];
                result.push_str(&format!("<{trimmed}>{tail}"));
            } else {
                result.push_str(word);
            }
            word.clear();
        };
        for c in line.chars() {
            if c == '`' {
                flush(&mut word, &mut result, in_code);
                in_code = !in_code;
                result.push(c);
            } else if c.is_whitespace() || c == '(' || c == '[' || c == '<' || c == '"' {
                flush(&mut word, &mut result, in_code);
                result.push(c);
            } else {
                word.push(c);
            }
        }
        flush(&mut word, &mut result, in_code);
        out.push(result);
    }
    out.join("\n")
}

fn link(body: &str, resolves: &dyn Fn(&str) -> bool) -> String {
    let (target, label) = match body.split_once('|') {
        Some((t, l)) => (t.trim(), Some(l.trim())),
        None => match body.split_once(' ') {
            Some((t, l)) => (t.trim(), Some(l.trim())),
            None => (body, None),
        },
    };
    let label = label.map(|l| l.trim_matches('`'));
    if target.starts_with("http://") || target.starts_with("https://") {
        return format!("[{}]({target})", label.unwrap_or(target));
    }
    if resolves(target) {
        return match label {
            Some(l) if l != target => format!("[`{l}`]({target})"),
            _ => format!("[`{target}`]"),
        };
    }
    format!("`{}`", label.unwrap_or(target))
}

fn absolutize_links(text: &str) -> String {
    text.replace("](/specification/", &format!("]({SPEC_SITE}/specification/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links() {
        let known = |n: &str| n == "Tool";
        let d = Doc { text: "See {@link Tool} and {@link Tool | tools} and {@link Foo} and {@link https://x.y | X}, [m](/specification/a).".into(), tags: vec![] };
        assert_eq!(render(&d, &known), vec!["See [`Tool`] and [`tools`](Tool) and `Foo` and [X](https://x.y), [m](https://modelcontextprotocol.io/specification/a).".to_string()]);
    }

    #[test]
    fn names_as_words() {
        assert_eq!(words("ClientRequest"), "client request");
        assert_eq!(words("JSONRPCMessage"), "JSON-RPC message");
        assert_eq!(words("McpUiHostContext"), "MCP UI host context");
        assert_eq!(with_article("MCP UI theme"), "an MCP UI theme");
        assert_eq!(with_article("unknown thing"), "an unknown thing");
        assert_eq!(with_article("JSON-RPC error"), "a JSON-RPC error");
        assert_eq!(role("CallToolRequestParams"), "request");
        assert_eq!(role("Tool"), "tool");
    }

    #[test]
    fn field_fallbacks_name_the_key() {
        assert_eq!(field_fallback("_meta", "CallToolResult", "x"), "`_meta`: metadata MCP reserves for protocol-level information about this result (keys follow the spec's `_meta` naming rules).");
        assert_eq!(field_fallback("id", "JSONRPCResponse", "x"), "`id`: the ID of the request this response answers.");
        assert_eq!(field_fallback("size", "Resource", "an integer"), "`size`: an integer.");
        assert_eq!(key_note("_meta", "meta"), Some("JSON key: `_meta`.".to_string()));
        assert_eq!(key_note("inputSchema", "input_schema"), None);
        assert_eq!(key_note("type", "r#type"), None);
    }

    #[test]
    fn bare_urls_get_angle_brackets() {
        let d = Doc { text: "As in https://a.b/c#d. Not `https://x` nor <https://y>.".into(), tags: vec![] };
        assert_eq!(render(&d, &|_| false), vec!["As in <https://a.b/c#d>. Not `https://x` nor <https://y>.".to_string()]);
    }
}
