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
    if (module.dynamic)("Icon").is_some() {
        return;
    }
    // Only protocol versions; an extension or overlay module has no later versions.
    let Some(v) = VERSIONS.iter().position(|m| m.module == module.module) else { return };
    let latest = version_index(LATEST).unwrap_or(VERSIONS.len() - 1);
    let Some((later, entry)) = VERSIONS.get(v + 1..=latest).unwrap_or_default().iter().find_map(|m| {
        let entry = (m.dynamic)(ty)?;
        (m.dynamic)("Icon").map(|_| (m, entry))
    }) else {
        return;
    };
    if !has_field(value) {
        return;
    }
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

/// Whether some object in `value` has one of [`FIELDS`]; one walk, no recursion.
fn has_field(value: Node<'_>) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v.kind() {
            Kind::Object(o) => {
                if o.keys().any(|k| FIELDS.contains(&k)) {
                    return true;
                }
                stack.extend(o.values());
            }
            Kind::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    false
}
