//! A [`Diff`] as text for people (sections in a fixed order, empty ones left out) or as JSON for machines
//! (every key always present, in declaration order).

use std::fmt::Write as _;

use super::{Change, Diff, ErrorCode, FieldSummary, Method, MethodChanges};

pub fn json(diff: &Diff) -> String {
    let mut out = serde_json::to_string_pretty(diff).expect("a diff serializes");
    out.push('\n');
    out
}

pub fn text(diff: &Diff, from_label: &str, to_label: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "schema diff {from_label} ({}) -> {to_label} ({})", diff.from, diff.to);
    if diff.is_empty() {
        out.push_str("\nno changes\n");
        return out;
    }
    let t = &diff.types;
    section(&mut out, "Types added", t.added.iter().map(|s| format!("+ {} ({})", s.name, s.kind)));
    section(&mut out, "Types removed", t.removed.iter().map(|s| format!("- {} ({})", s.name, s.kind)));
    section(&mut out, "Types renamed", t.renamed.iter().map(|r| format!("~ {} -> {}", r.from, r.to)));
    section(
        &mut out,
        "Types changed",
        t.changed.iter().map(|c| {
            let mut title = c.name.clone();
            if let Some(was) = &c.renamed_from {
                title.push_str(&format!(" (was {was})"));
            }
            if let Some(at) = &c.inline_in {
                title.push_str(&format!(" (inline, {at})"));
            }
            let mut lines = vec![title];
            if let Some(k) = &c.kind {
                lines.push(format!("  ~ {} -> {}", k.from, k.to));
            }
            lines.extend(c.fields_added.iter().map(|f| format!("  + {}", field(f))));
            lines.extend(c.fields_removed.iter().map(|f| format!("  - {}", field(f))));
            for f in &c.fields_changed {
                let mut parts = Vec::new();
                if let Some(ty) = &f.ty {
                    parts.push(format!("type {} -> {}", ty.from, ty.to));
                }
                if let Some(r) = &f.required {
                    parts.push(format!("{} -> {}", required(r.from), required(r.to)));
                }
                if let Some(n) = &f.nullable {
                    parts.push(format!("{} -> {}", nullable(n.from), nullable(n.to)));
                }
                lines.push(format!("  ~ {}: {}", f.name, parts.join(", ")));
            }
            lines.extend(c.members_added.iter().map(|m| format!("  + member {m}")));
            lines.extend(c.members_removed.iter().map(|m| format!("  - member {m}")));
            lines.join("\n")
        }),
    );
    methods(&mut out, "Requests", &diff.requests);
    methods(&mut out, "Notifications", &diff.notifications);
    let e = &diff.error_codes;
    section(&mut out, "Error codes added", e.added.iter().map(|c| format!("+ {}", error_code(c))));
    section(&mut out, "Error codes removed", e.removed.iter().map(|c| format!("- {}", error_code(c))));
    section(&mut out, "Error codes changed", e.changed.iter().map(|c| format!("~ {}: {} -> {}", c.to.code, error_names(&c.from), error_names(&c.to))));
    let k = &diff.constants;
    section(&mut out, "Constants added", k.added.iter().map(|c| format!("+ {} = {}", c.name, c.value)));
    section(&mut out, "Constants removed", k.removed.iter().map(|c| format!("- {} = {}", c.name, c.value)));
    section(&mut out, "Constants changed", k.changed.iter().map(|c| format!("~ {}: {} -> {}", c.name, c.value.from, c.value.to)));
    let d = &diff.deprecations;
    section(&mut out, "Deprecations added", d.added.iter().map(|x| format!("+ {}{}", x.path, if x.with_item { " (new)" } else { "" })));
    section(&mut out, "Deprecations removed", d.removed.iter().map(|x| format!("- {}{}", x.path, if x.with_item { " (removed with it)" } else { "" })));
    out
}

fn section(out: &mut String, title: &str, lines: impl Iterator<Item = String>) {
    let lines: Vec<String> = lines.collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title} ({})", lines.len());
    for line in lines.iter().flat_map(|l| l.lines()) {
        let _ = writeln!(out, "  {line}");
    }
}

fn methods(out: &mut String, what: &str, m: &MethodChanges) {
    let method = |x: &Method| match &x.result {
        Some(r) => format!("{} ({} -> {r})", x.method, x.type_name),
        None => format!("{} ({})", x.method, x.type_name),
    };
    section(out, &format!("{what} added"), m.added.iter().map(|x| format!("+ {}", method(x))));
    section(out, &format!("{what} removed"), m.removed.iter().map(|x| format!("- {}", method(x))));
    section(
        out,
        &format!("{what} changed"),
        m.changed.iter().map(|c| {
            let mut parts = Vec::new();
            if let Some(t) = &c.type_name {
                parts.push(format!("type {} -> {}", t.from, t.to));
            }
            if let Some(Change { from, to }) = &c.result {
                let show = |r: &Option<String>| r.clone().unwrap_or_else(|| "(none)".into());
                parts.push(format!("result {} -> {}", show(from), show(to)));
            }
            format!("~ {}: {}", c.method, parts.join(", "))
        }),
    );
}

fn field(f: &FieldSummary) -> String {
    format!("{}: {}{} ({})", f.name, f.ty, if f.nullable { " | null" } else { "" }, required(f.required))
}

fn required(r: bool) -> &'static str {
    if r {
        "required"
    } else {
        "optional"
    }
}

fn nullable(n: bool) -> &'static str {
    if n {
        "nullable"
    } else {
        "not nullable"
    }
}

fn error_code(c: &ErrorCode) -> String {
    format!("{}: {}", c.code, error_names(c))
}

fn error_names(c: &ErrorCode) -> String {
    c.constants.iter().chain(&c.types).map(String::as_str).collect::<Vec<_>>().join(", ")
}
