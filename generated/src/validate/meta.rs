//! `_meta` key names: an optional prefix of dot-separated labels ending in `/`, then a name.

use crate::tree::Node;

use super::Cx;

/// Labels that make a prefix MCP's own (matched ignoring ASCII case, as DNS labels are).
pub const RESERVED_LABELS: &[&str] = &["modelcontextprotocol", "mcp"];

/// Keys the spec defines, all well-formed: most `_meta` objects hold only these,
/// so they skip the label parser.
const KNOWN_KEYS: &[&str] = &[
    crate::runtime::meta::PROGRESS_TOKEN,
    crate::runtime::meta::PROTOCOL_VERSION,
    crate::runtime::meta::CLIENT_INFO,
    crate::runtime::meta::CLIENT_CAPABILITIES,
    crate::runtime::meta::SERVER_INFO,
    crate::runtime::meta::LOG_LEVEL,
    crate::runtime::meta::SUBSCRIPTION_ID,
    crate::runtime::meta::UI,
    crate::runtime::meta::RELATED_TASK,
];

/// Reserved keys a version defines in its prose rather than as a field, for any `_meta` of
/// that version: the key, the type its value is, and the schema labels that define it.
/// 2025-11-25's `RelatedTaskMetadata` says to put it under its key in `_meta`, on no
/// particular message, so a declared-fields check alone would call it undefined.
const DEFINED_IN_PROSE: &[(&str, &str, &[&str])] = &[(crate::runtime::meta::RELATED_TASK, "RelatedTaskMetadata", &["2025-11-25"])];

fn defined_in_prose(key: &str, schema: &str) -> bool {
    DEFINED_IN_PROSE.iter().any(|(k, _, labels)| *k == key && labels.contains(&schema))
}

/// Checks every key of a `_meta` object. `defined` lists the keys the schema
/// declares there; an undeclared key under a reserved prefix is a warning.
pub fn check_keys<'v>(v: Node<'v>, cx: &mut Cx<'v>, schema: &str, defined: &[&str]) {
    let Some(o) = v.as_object() else { return };
    for key in o.keys() {
        if !KNOWN_KEYS.contains(&key) {
            if let Err(why) = key_name(key) {
                cx.push_key(key);
                cx.error("meta.key-name", format!("`{key}` is not a valid `_meta` key: {why}"));
                cx.pop();
                continue;
            }
        }
        if !defined.contains(&key) && !defined_in_prose(key, schema) && is_reserved(key) {
            cx.push_key(key);
            cx.warning("meta.reserved-key", reserved_key_message(key, schema));
            cx.pop();
        }
    }
}

/// Reserved keys MCP defines on some `_meta` objects: the key, the type that defines it, and
/// the first version that does. A key found elsewhere (e.g. a request's keys copied into
/// `notifications/cancelled`) is named with where it belongs rather than called undefined.
const DEFINED_IN: &[(&str, &str, &str)] = &[
    (crate::runtime::meta::PROTOCOL_VERSION, "RequestMetaObject", "2026-07-28"),
    (crate::runtime::meta::CLIENT_INFO, "RequestMetaObject", "2026-07-28"),
    (crate::runtime::meta::CLIENT_CAPABILITIES, "RequestMetaObject", "2026-07-28"),
    (crate::runtime::meta::LOG_LEVEL, "RequestMetaObject", "2026-07-28"),
    (crate::runtime::meta::SUBSCRIPTION_ID, "NotificationMetaObject", "2026-07-28"),
    (crate::runtime::meta::SERVER_INFO, "ResultMetaObject", "2026-07-28"),
];

fn reserved_key_message(key: &str, schema: &str) -> String {
    // Version labels sort by date, and `draft` after every date.
    if let Some((_, ty, labels)) = DEFINED_IN_PROSE.iter().find(|(k, ..)| *k == key) {
        return format!("`{key}` is not defined by {schema}; {} define it ({ty})", labels.join(", "));
    }
    match DEFINED_IN.iter().find(|(k, ..)| *k == key) {
        Some((_, ty, since)) if schema >= *since => {
            format!("`{key}` is defined by {schema} in {ty}, not on this object")
        }
        Some((_, ty, since)) => {
            format!("`{key}` is not defined by {schema}; {since} and later define it in {ty}")
        }
        None => format!("`{key}` uses a prefix reserved for MCP but is not defined by {schema}"),
    }
}

/// Splits a key into its prefix (without the `/`) and its name.
pub fn split(key: &str) -> (Option<&str>, &str) {
    match key.as_bytes().iter().rposition(|&b| b == b'/') {
        Some(i) => (Some(&key[..i]), &key[i + 1..]),
        None => (None, key),
    }
}

/// Whether a key's prefix is reserved for MCP. Two texts say which prefixes are:
/// schema.ts reserves a prefix whose second label is `modelcontextprotocol` or `mcp`
/// (`io.modelcontextprotocol/`, `com.mcp.tools/`); the draft basic overview reserves
/// one where such a label comes anywhere before the last label (`modelcontextprotocol.io/`,
/// `api.modelcontextprotocol.org/`, `tools.mcp.com/`). A key reserved by either is reported.
pub fn is_reserved(key: &str) -> bool {
    let Some(prefix) = split(key).0 else { return false };
    let reserved = |label: &[u8]| RESERVED_LABELS.iter().any(|r| r.as_bytes().eq_ignore_ascii_case(label));
    let mut labels = prefix.as_bytes().split(|&b| b == b'.').enumerate().peekable();
    while let Some((i, label)) = labels.next() {
        let last = labels.peek().is_none();
        if (!last || i == 1) && reserved(label) {
            return true;
        }
    }
    false
}

/// The spec's syntax for a key; the error says which part is wrong.
pub fn key_name(key: &str) -> Result<(), String> {
    let (prefix, name) = split(key);
    if let Some(prefix) = prefix {
        // Labels by byte position (`.` is ASCII, so every slice is on a char boundary).
        let p = prefix.as_bytes();
        let mut start = 0;
        while start <= p.len() {
            let end = p[start..].iter().position(|&b| b == b'.').map_or(p.len(), |i| start + i);
            let label = &prefix[start..end];
            label_ok(label).map_err(|why| format!("prefix label `{label}` {why}"))?;
            start = end + 1;
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
    // Every allowed character is ASCII, so a bad byte exists exactly when a bad char does.
    if !bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) {
        if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
            return Err(format!("the name `{name}` may only contain letters, digits, `-`, `_` and `.`, not {c:?}"));
        }
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
    fn known_keys_are_well_formed() {
        for k in KNOWN_KEYS {
            assert!(key_name(k).is_ok(), "{k}");
        }
    }

    // The byte scanners against the `str::split` definitions they replaced, on every
    // string of up to 5 characters over an alphabet that reaches every rule.
    #[test]
    fn byte_scanners_match_split() {
        fn old_key_name(key: &str) -> Result<(), String> {
            let (prefix, name) = match key.rfind('/') {
                Some(i) => (Some(&key[..i]), &key[i + 1..]),
                None => (None, key),
            };
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
        fn old_is_reserved(key: &str) -> bool {
            let Some(i) = key.rfind('/') else { return false };
            let labels: Vec<String> = key[..i].split('.').map(str::to_ascii_lowercase).collect();
            let mcp = |l: &String| RESERVED_LABELS.contains(&l.as_str());
            labels.get(1).is_some_and(mcp) || labels[..labels.len() - 1].iter().any(mcp)
        }
        let alphabet = ["a", "1", "-", "_", ".", "/", " ", "é", "mcp", "MCp"];
        let mut keys = vec![String::new()];
        let mut frontier = keys.clone();
        for _ in 0..5 {
            frontier = frontier.iter().flat_map(|k| alphabet.iter().map(move |c| format!("{k}{c}"))).collect();
            keys.extend(frontier.iter().cloned());
        }
        for k in &keys {
            assert_eq!(key_name(k), old_key_name(k), "{k:?}");
            assert_eq!(is_reserved(k), old_is_reserved(k), "{k:?}");
        }
    }

    #[test]
    fn reserved() {
        // schema.ts's second-label examples, then the draft overview's.
        for r in ["io.modelcontextprotocol/x", "dev.mcp/x", "org.modelcontextprotocol.api/x", "com.mcp.tools/x"] {
            assert!(is_reserved(r), "{r}");
        }
        for r in ["modelcontextprotocol.io/x", "mcp.dev/x", "api.modelcontextprotocol.org/x", "tools.mcp.com/x", "a.b.mcp.c/x", "IO.ModelContextProtocol/x", "MCP.dev/"] {
            assert!(is_reserved(r), "{r}");
        }
        for n in ["com.example.mcp/x", "mcp/x", "progressToken", "com.example/mcp", "mcpx.dev/x", "com.example/x"] {
            assert!(!is_reserved(n), "{n}");
        }
    }
}
