//! The `@format`s the schema uses: `uri`, `uri-template` and `byte` (base64).

use base64::Engine;

/// An absolute URI (RFC 3986): a scheme, `:`, and no whitespace or control characters.
pub fn uri(s: &str) -> Result<(), String> {
    let Some((scheme, _)) = s.split_once(':') else {
        return Err(format!("{s:?} is not a URI: it has no scheme"));
    };
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(format!("{s:?} is not a URI: `{scheme}` is not a valid scheme"));
    }
    if let Some(c) = s.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{s:?} is not a URI: it contains {c:?}"));
    }
    Ok(())
}

/// A URI template (RFC 6570): balanced `{...}` expressions with valid variable names.
pub fn uri_template(s: &str) -> Result<(), String> {
    let mut rest = s;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(format!("{s:?} is not a URI template: `}}` without `{{`"));
        }
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(format!("{s:?} is not a URI template: `{{` is not closed"));
        };
        let expr = &after[..close];
        let body = expr.strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|']).unwrap_or(expr);
        for var in body.split(',') {
            let name = var.strip_suffix('*').unwrap_or(var);
            let name = name.split(':').next().unwrap_or("");
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%') {
                return Err(format!("{s:?} is not a URI template: `{{{expr}}}` is not a valid expression"));
            }
        }
        rest = &after[close + 1..];
    }
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{s:?} is not a URI template: it contains whitespace or control characters"));
    }
    Ok(())
}

/// Standard base64 with padding, as JSON Schema's `byte` format means.
pub fn base64(s: &str) -> Result<(), String> {
    decode_base64(s).map(|_| ())
}

pub fn decode_base64(s: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD.decode(s).map_err(|e| format!("not valid base64: {e}"))
}
