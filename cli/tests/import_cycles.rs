//! The crate root only declares modules and re-exports: a test fails on a module that reaches up
//! into it for an item (every `crate::...` and `super::...` path of a file, comments left out).
//! Import circles among the CLI's modules are the workspace tidy test's (`tests/tidy.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each `.rs` file under `src` with its module path (`proxy/mod.rs` is `proxy`, `lib.rs` is the root).
fn files(dir: &Path, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if p.is_dir() {
            let mut sub = prefix.to_vec();
            sub.push(name);
            files(&p, &sub, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut path = prefix.to_vec();
            if !matches!(stem, "mod" | "lib" | "main") {
                path.push(stem.to_string());
            }
            out.push((path, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The text without `//` comments (doc links name modules without importing them).
fn code(text: &str) -> String {
    text.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first segments of every path after `crate::` (a `{...}` group gives each of its names).
fn crate_paths(code: &str, anchor: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices(anchor) {
        if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[i + anchor.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(group[start..j].trim()).to_string());
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(group[start..j].trim()).to_string());
                        start = j + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest).to_string());
        }
    }
    out.retain(|s| !s.is_empty() && s != "self");
    out
}

/// The modules of the checker crate the root re-exports (`pub use mcp_spec_check::{check, ...}`): a path
/// through one of them reaches into that crate, not up into this one's root.
fn reexported(root: &str) -> BTreeSet<String> {
    let code = code(root);
    code.split("pub use mcp_spec_check::").skip(1).flat_map(|rest| crate_paths(&format!("x::{rest}"), "x::")).collect()
}

/// Edges between top-level modules, and the root items each module uses.
fn graph() -> (BTreeMap<String, BTreeSet<String>>, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &[], &mut all);
    let modules: BTreeSet<String> = all.iter().filter_map(|(p, _)| p.first().cloned()).collect();
    let elsewhere = reexported(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut root_items = Vec::new();
    for (path, text) in &all {
        let Some(from) = path.first() else { continue };
        let code = code(text);
        let mut targets = crate_paths(&code, "crate::");
        // The root by `super::`: one level per module above the file, one more inside its `mod tests`
        // (at the end of a file, by this crate's habit).
        let (main, tests) = code.split_at(code.find("#[cfg(test)]").unwrap_or(code.len()));
        targets.extend(crate_paths(main, &"super::".repeat(path.len())));
        targets.extend(crate_paths(tests, &"super::".repeat(path.len() + 1)));
        for t in targets {
            if modules.contains(&t) {
                if &t != from {
                    edges.entry(from.clone()).or_default().insert(t);
                }
            } else if !elsewhere.contains(&t) {
                root_items.push(format!("{}: crate::{t}", path.join("/")));
            }
        }
    }
    (edges, root_items)
}

#[test]
fn modules_do_not_reach_up_into_the_crate_root() {
    let (_, root_items) = graph();
    assert!(root_items.is_empty(), "items used from the crate root (move them to the module they belong to):\n{}", root_items.join("\n"));
}

#[test]
fn reexported_modules_are_read_from_the_root() {
    let root = "pub mod cmd;\n// pub use mcp_spec_check::gone;\npub use mcp_spec_check::{check, session};\npub use mcp_spec_check::vocab;\npub use cmd::run;";
    assert_eq!(reexported(root), BTreeSet::from(["check".to_string(), "session".to_string(), "vocab".to_string()]));
}

#[test]
fn paths_are_read_from_use_trees_and_expressions() {
    assert_eq!(crate_paths("use crate::{args::{A, B}, check::C};\nlet x = crate::io::f();", "crate::"), ["args", "check", "io"]);
}
