//! `_meta` key names: an optional prefix of dot-separated labels ending in `/`, then a name.

use serde_json::Value;

use super::Cx;

/// Labels (second one) that make a prefix MCP's own.
pub const RESERVED_LABELS: &[&str] = &["modelcontextprotocol", "mcp"];

/// Checks every key of a `_meta` object. `defined` lists the keys the schema
/// declares there; an undeclared key under a reserved prefix is a warning.
pub fn check_keys<'v>(v: &'v Value, cx: &mut Cx<'v>, schema: &str, defined: &[&str]) {
    let Some(o) = v.as_object() else { return };
    for key in o.keys() {
        cx.push_key(key);
        if let Err(why) = key_name(key) {
            cx.error("meta.key-name", format!("`{key}` is not a valid `_meta` key: {why}"));
        } else if is_reserved(key) && !defined.contains(&key.as_str()) {
            cx.warning("meta.reserved-key", format!("`{key}` uses a prefix reserved for MCP but is not defined by {schema}"));
        }
        cx.pop();
    }
}

/// Splits a key into its prefix (without the `/`) and its name.
pub fn split(key: &str) -> (Option<&str>, &str) {
    match key.rfind('/') {
        Some(i) => (Some(&key[..i]), &key[i + 1..]),
        None => (None, key),
    }
}

/// Whether a key's prefix is reserved for MCP: its second label is `modelcontextprotocol` or `mcp`.
pub fn is_reserved(key: &str) -> bool {
    match split(key).0 {
        Some(prefix) => prefix.split('.').nth(1).is_some_and(|l| RESERVED_LABELS.contains(&l)),
        None => false,
    }
}

/// The spec's syntax for a key; the error says which part is wrong.
pub fn key_name(key: &str) -> Result<(), String> {
    let (prefix, name) = split(key);
    if let Some(prefix) = prefix {
        for label in prefix.split('.') {
            label_ok(label).map_err(|why| format!("prefix label `{label}` {why}"))?;
        }
    }
    if name.is_empty() {
        return Ok(());
    }
    let bytes = name.as_bytes();
    let alnum = |b: &u8| b.is_ascii_alphanumeric();
    if !alnum(&bytes[0]) || !alnum(&bytes[bytes.len() - 1]) {
        return Err(format!("the name `{name}` must start and end with a letter or digit"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
        return Err(format!("the name `{name}` may only contain letters, digits, `-`, `_` and `.`, not {c:?}"));
    }
    Ok(())
}

fn label_ok(label: &str) -> Result<(), &'static str> {
    let bytes = label.as_bytes();
    if bytes.is_empty() {
        return Err("is empty");
    }
    if !bytes[0].is_ascii_alphabetic() {
        return Err("must start with a letter");
    }
    if !bytes[bytes.len() - 1].is_ascii_alphanumeric() {
        return Err("must end with a letter or digit");
    }
    if !bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-') {
        return Err("may only contain letters, digits and `-`");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["progressToken", "", "com.example/trace-id", "io.modelcontextprotocol/protocolVersion", "a/", "x1.y-2/n_a.m-e"] {
            assert!(key_name(ok).is_ok(), "{ok}");
        }
        for bad in ["-x", "x-", "com..example/x", "1com.example/x", "com.example-/x", "com.ex_ample/x", "a b", "com.example/x y"] {
            assert!(key_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reserved() {
        for r in ["io.modelcontextprotocol/x", "dev.mcp/x", "org.modelcontextprotocol.api/x", "com.mcp.tools/x"] {
            assert!(is_reserved(r), "{r}");
        }
        for n in ["com.example.mcp/x", "mcp/x", "progressToken", "modelcontextprotocol.io/x"] {
            assert!(!is_reserved(n), "{n}");
        }
    }
}
