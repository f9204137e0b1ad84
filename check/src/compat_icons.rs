//! Icons in the traffic of versions that have none. A proxy in front of a newer
//! server forwards `icons` and `websiteUrl` (SEP-973, 2025-11-25) into sessions that
//! negotiated an older version, and clients there may render them. So for a version
//! without `Icon`, the value is also validated as the oldest later version that has
//! both `Icon` and the type defines it, and what that finds under the icon and link
//! rules is reported as warnings: the version checked does not define those fields.

use mcp_spec_types::tree::{Kind, Node};
use mcp_spec_types::validate::{Options, Severity};

use crate::vocab::{Diag, Outcome};
use crate::versions::{version_index, Module, LATEST, VERSIONS};

/// Rule id prefixes taken from the later version's findings.
const RULE_PREFIXES: &[&str] = &["icon.", "link."];

/// Keys whose presence anywhere in a value makes the second validation worth running.
const FIELDS: &[&str] = &["icons", "websiteUrl"];

/// Adds the later version's icon and link findings for `value`, checked as `ty` of `module`.
pub fn check(module: &Module, ty: &str, value: Node<'_>, options: &Options, prefix: &str, out: &mut Outcome) {
    // Only protocol versions; an extension or overlay module has no later versions.
    let Some(v) = VERSIONS.iter().position(|m| m.module == module.module) else { return };
    if has_icon()[v] || !has_field(value) {
        return;
    }
    let latest = version_index(LATEST).unwrap_or(VERSIONS.len() - 1);
    let Some((later, entry)) = VERSIONS.get(v + 1..=latest).unwrap_or_default().iter().enumerate().find_map(|(i, m)| {
        let entry = (m.dynamic)(ty)?;
        has_icon()[v + 1 + i].then_some((m, entry))
    }) else {
        return;
    };
    let severity = if options.strict { Severity::Error } else { Severity::Warning };
    for found in (entry.validate_node)(value, options).violations {
        if RULE_PREFIXES.iter().any(|p| found.rule.starts_with(p)) {
            out.diags.push(Diag {
                pointer: format!("{prefix}{}", found.pointer),
                rule: found.rule,
                severity,
                message: format!("{} ({} does not define this field; checked as {} defines it)", found.message, module.label, later.label),
            });
        }
    }
}

/// Whether each version defines `Icon`, looked up once (by name, a search per message cost more
/// than the rest of this check).
fn has_icon() -> &'static [bool] {
    static HAS: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    HAS.get_or_init(|| VERSIONS.iter().map(|m| (m.dynamic)("Icon").is_some()).collect())
}

/// Whether some object in `value` has one of [`FIELDS`]. A document whose text has neither name
/// and no escape (a key could spell one with `\u`) has none: most values are never walked. The
/// walk holds one frame per level of nesting, which the parser bounds (a stack of every element of
/// a long array held 16 bytes per element: about 100 MiB more on a line of 24 MiB of small objects).
fn has_field(value: Node<'_>) -> bool {
    // The whole document's text: a value's own would be found by skipping through it.
    let text = value.doc().text().as_bytes();
    if memchr::memchr(b'\\', text).is_none() && FIELDS.iter().all(|f| memchr::memmem::find(text, f.as_bytes()).is_none()) {
        return false;
    }
    walk(value)
}

fn walk(v: Node<'_>) -> bool {
    match v.kind() {
        Kind::Object(o) => o.keys().any(|k| FIELDS.contains(&k)) || o.values().any(walk),
        Kind::Array(a) => a.iter().any(walk),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_spec_types::tree::Doc;

    #[test]
    fn fields_are_found_at_any_depth_and_through_escapes() {
        let cases = [
            (r#"{"a":[1,{"b":{"icons":[]}}]}"#, true),
            (r#"[[[{"websiteUrl":"x"}]]]"#, true),
            (r#"{"a":[1,{"b":{"ic\u006fns":[]}}]}"#, true),
            (r#"{"a":"icons","b":["websiteUrl"]}"#, false),
            (r#"{"a":[{"k":1},{"k":"\u0069"}]}"#, false),
            ("[]", false),
        ];
        let mut failed = 0;
        for (text, want) in cases {
            let doc = Doc::parse(text).unwrap();
            if has_field(doc.root()) != want {
                failed += 1;
                eprintln!("{text}: expected {want}");
            }
        }
        println!("{} passed, {failed} failed", cases.len() - failed);
        assert_eq!(failed, 0);
    }
}
