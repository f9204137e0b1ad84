//! The CLI's modules import each other in one direction: a test fails on an import circle among
//! the top-level modules of `cli/src` (edges: every `crate::...` and `super::...` path of a file,
//! comments left out), and on a module that reaches up into the crate root for an item (the root
//! only declares modules and re-exports).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Circles left in place, each with why (the circles the issue named, `args` with `convert`/`proxy` and
/// `check` with `compat_icons`/`session`/`report`, are broken: `vocab` and `input` are the leaves).
const ALLOWED: &[(&[&str], &str)] = &[(
    &["bridge", "proxy"],
    "the bridge is a mode of the proxy (`proxy --to`): it runs on the proxy's queues, checker child, outputs and HTTP recording lines, and the stdio proxy starts the bridge's traffic in place of its forwarders; moving those shared pieces into a leaf is left for later",
)];

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

/// Edges between top-level modules, and the root items each module uses.
fn graph() -> (BTreeMap<String, BTreeSet<String>>, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &[], &mut all);
    let modules: BTreeSet<String> = all.iter().filter_map(|(p, _)| p.first().cloned()).collect();
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
            } else {
                root_items.push(format!("{}: crate::{t}", path.join("/")));
            }
        }
    }
    (edges, root_items)
}

/// Every elementary circle, each listed once from its smallest module.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn walk(start: &str, at: &str, edges: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for next in edges.get(at).into_iter().flatten() {
            if next == start {
                out.push(path.clone());
            } else if next.as_str() > start && !path.contains(next) {
                path.push(next.clone());
                walk(start, next, edges, path, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    for start in edges.keys() {
        walk(start, start, edges, &mut vec![start.clone()], &mut out);
    }
    out
}

#[test]
fn no_import_circles_among_cli_modules() {
    let (edges, _) = graph();
    let all = circles(&edges);
    for (allowed, why) in ALLOWED {
        assert!(all.iter().any(|c| allowed.iter().copied().eq(c.iter().map(String::as_str))), "the allowed circle {allowed:?} is gone: drop it from ALLOWED ({why})");
    }
    let found: Vec<_> = all.into_iter().filter(|c| !ALLOWED.iter().any(|(a, _)| a.iter().copied().eq(c.iter().map(String::as_str)))).collect();
    let shown: Vec<_> = found.iter().map(|c| format!("{} -> {}", c.join(" -> "), c[0])).collect();
    assert!(found.is_empty(), "import circles among cli/src modules (break them with a leaf module both sides use):\n{}", shown.join("\n"));
}

#[test]
fn modules_do_not_reach_up_into_the_crate_root() {
    let (_, root_items) = graph();
    assert!(root_items.is_empty(), "items used from the crate root (move them to the module they belong to):\n{}", root_items.join("\n"));
}

#[test]
fn circles_are_found() {
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")].iter().fold(BTreeMap::new(), |mut m, (f, t)| {
            m.entry(f.to_string()).or_insert_with(BTreeSet::new).insert(t.to_string());
            m
        });
    assert_eq!(circles(&edges), vec![vec!["a".to_string(), "b".into(), "c".into()]]);
    assert_eq!(crate_paths("use crate::{args::{A, B}, check::C};\nlet x = crate::io::f();", "crate::"), ["args", "check", "io"]);
}
