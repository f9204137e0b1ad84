//! The generator's own layout, measured from its source: module dependencies (no
//! import circles allowed), the largest files, the longest functions, and the places
//! that match a JSDoc tag by its name.
//!
//! `cargo test -p mcp-schema-generator --test layout -- --nocapture` prints the figures.
//!
//! A module depends on another when it names it in a path (`use crate::ir::..`,
//! `super::keyed::eligible(..)`, `items::module(..)` from a parent) or calls a method
//! only that other module defines: `self.keyed_impl(..)` anywhere, `cx.registry()` from a
//! sibling module (one type's `impl` spread over several files). Code after `#[cfg(test)]`
//! is left out: test modules may reach anywhere; so is code inside `quote!`, which
//! belongs to the generated crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Above these sizes a file or function gets split (see ARCHITECTURE.md).
const MAX_FILE_LINES: usize = 600;
const MAX_FN_LINES: usize = 120;

/// Tags whose names only `parse/jsdoc.rs` may match: everything later reads the typed tag.
const TAGS: &[&str] = &["format", "minimum", "maximum", "minItems", "maxItems", "TJS-type", "deprecated", "internal", "nullable", "default", "description", "category", "see", "example", "overlay", "overlayRemove"];

struct SourceFile {
    /// `emit::items`; the crate root is `crate`.
    module: String,
    /// Path relative to the package root, `src/emit/items.rs`.
    path: String,
    /// The text before any `#[cfg(test)]`.
    code: String,
    lines: usize,
}

/// This package, or the one `MCP_LAYOUT_ROOT` names: to measure an older revision, unpack
/// it (`git archive REV generator | tar -x -C DIR`) and point this at `DIR/generator`.
fn package_root() -> PathBuf {
    match std::env::var_os("MCP_LAYOUT_ROOT") {
        Some(root) => PathBuf::from(root),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn module_name(rel: &Path) -> String {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "lib.rs" | "mod.rs" => {}
        file => parts.push(file.trim_end_matches(".rs").to_string()),
    }
    if parts.is_empty() {
        "crate".to_string()
    } else {
        parts.join("::")
    }
}

fn sources() -> Vec<SourceFile> {
    let src = package_root().join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let code = match text.find("#[cfg(test)]") {
                Some(at) => text[..at].to_string(),
                None => text.clone(),
            };
            let rel = p.strip_prefix(&src).expect("under src");
            SourceFile { module: module_name(rel), path: format!("src/{}", rel.display()), code, lines: text.lines().count() }
        })
        .collect()
}

/// The text with comments, string and char literals blanked out (same length, same lines),
/// so braces and names inside them do not count.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                blank(&mut out, i, end);
                i = end;
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) => {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                let end = text[start..].find(&close).map_or(b.len(), |n| start + n + close.len());
                blank(&mut out, i + 1, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j.min(b.len()));
                i = j + 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '{'); otherwise a lifetime.
                let len = if b.get(i + 1) == Some(&b'\\') { text[i + 2..].find('\'').map(|n| n + 3) } else { text[i + 1..].chars().next().map(|c| c.len_utf8() + 1) };
                match len {
                    Some(n) if b.get(i + n) == Some(&b'\'') => {
                        blank(&mut out, i + 1, i + n);
                        i += n + 1;
                    }
                    _ => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("only ASCII blanks were written")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `a::b::c` path in the code (use-trees expanded), as segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // `use` declarations, with their `{..}` groups expanded.
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        expand_use(&after[..end].split_whitespace().collect::<String>(), &mut Vec::new(), &mut out);
        rest = &after[end..];
    }
    // Every other path written out in the code.
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if is_ident(chars[i]) && (i == 0 || !is_ident(chars[i - 1])) {
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let start = j;
                while j < chars.len() && is_ident(chars[j]) {
                    j += 1;
                }
                segs.push(chars[start..j].iter().collect::<String>());
                if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') && chars.get(j + 2).is_some_and(|c| is_ident(*c)) {
                    j += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 {
                out.push(segs);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(n) = text[from..].find(word) {
        let at = from + n;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

fn expand_use(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree.find('{') {
        None => {
            let mut segs = prefix.clone();
            segs.extend(tree.split("::").filter(|s| !s.is_empty()).map(|s| s.split(" as ").next().unwrap_or(s).to_string()));
            out.push(segs);
        }
        Some(open) => {
            let head: Vec<String> = tree[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let len = prefix.len();
            prefix.extend(head);
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_use(&inner[start..k], prefix, out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            if start < inner.len() {
                expand_use(&inner[start..], prefix, out);
            }
            prefix.truncate(len);
        }
    }
}

/// The module a path leads into, from module `here`: the longest prefix that is a module.
fn target(here: &str, segs: &[String], modules: &BTreeSet<String>) -> Option<String> {
    let mut base: Vec<String> = if here == "crate" { Vec::new() } else { here.split("::").map(str::to_string).collect() };
    let mut rest = segs;
    match segs.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &segs[1..];
        }
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        Some("self") => rest = &segs[1..],
        // A child module named from its parent (`items::module`).
        _ => {}
    }
    let mut found = None;
    let mut path = base.clone();
    if !path.is_empty() && segs.first().is_some_and(|s| s == "crate" || s == "super") {
        found = Some(path.join("::"));
    }
    for s in rest {
        path.push(s.clone());
        if modules.contains(&path.join("::")) {
            found = Some(path.join("::"));
        } else {
            break;
        }
    }
    found
}

/// Where a brace-delimited block opening at `open` closes.
fn block_end(clean: &str, open: usize) -> usize {
    let mut depth = 0;
    for (k, c) in clean[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + k;
                }
            }
            _ => {}
        }
    }
    clean.len()
}

/// The bodies of `quote! { .. }`: code the generator writes, not its own.
fn quoted(clean: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = clean[from..].find("quote!").map(|n| from + n) {
        from = at + 6;
        if let Some(open) = clean[from..].find(|c: char| !c.is_whitespace()).map(|n| from + n).filter(|&o| clean.as_bytes()[o] == b'{') {
            out.push((open, block_end(clean, open)));
        }
    }
    out
}

/// The functions a file defines (not those in the code it quotes): `(name, line, length in lines)`.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let clean = code_only(code);
    let bytes = clean.as_bytes();
    let generated = quoted(&clean);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = find_word(&clean[from..], "fn").map(|n| from + n) {
        from = at + 2;
        if generated.iter().any(|&(a, b)| a < at && at < b) {
            continue;
        }
        let name: String = clean[at + 2..].trim_start().chars().take_while(|c| is_ident(*c)).collect();
        if name.is_empty() {
            continue;
        }
        // The body starts at the first `{` before any `;` (a declaration without a body has none).
        let Some(open) = clean[at..].find(['{', ';']).map(|n| at + n).filter(|&o| bytes[o] == b'{') else { continue };
        let close = block_end(&clean, open);
        let first = clean[..at].matches('\n').count() + 1;
        let last = clean[..close].matches('\n').count() + 1;
        out.push((name, first, last - first + 1));
    }
    out
}

/// Module -> modules it depends on.
fn dependencies(files: &[SourceFile]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = files.iter().map(|f| f.module.clone()).collect();
    // Functions defined in exactly one file: `self.name(` elsewhere depends on that file, and
    // so does `x.name(` in a sibling when the function is a method.
    let mut defined_in: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut methods: BTreeSet<String> = BTreeSet::new();
    for f in files {
        let clean = code_only(&f.code);
        for (name, line, _) in functions(&f.code) {
            let sig = clean.lines().nth(line - 1).unwrap_or_default();
            if sig.contains("(&self") || sig.contains("(&'a self") || sig.contains("(&mut self") || sig.contains("(self") {
                methods.insert(name.clone());
            }
            defined_in.entry(name).or_default().insert(f.module.clone());
        }
    }
    let parent = |m: &str| m.rsplit_once("::").map_or("", |(p, _)| p).to_string();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        // Paths and calls in quoted code belong to the generated crate.
        let mut code = code_only(&f.code).into_bytes();
        for (a, b) in quoted(&String::from_utf8_lossy(&code)) {
            code[a..b].iter_mut().filter(|c| **c != b'\n').for_each(|c| *c = b' ');
        }
        let code = String::from_utf8(code).expect("only ASCII blanks were written");
        let mut to: BTreeSet<String> = paths(&code).iter().filter_map(|p| target(&f.module, p, &modules)).collect();
        for (name, owners) in &defined_in {
            let Some(owner) = owners.first().filter(|o| owners.len() == 1 && **o != f.module) else { continue };
            let on_self = code.contains(&format!("self.{name}(")) || code.contains(&format!("Self::{name}("));
            let on_sibling = methods.contains(name) && parent(owner) == parent(&f.module) && !parent(owner).is_empty() && code.contains(&format!(".{name}("));
            if on_self || on_sibling {
                to.insert(owner.clone());
            }
        }
        to.remove(&f.module);
        to.remove("crate");
        deps.insert(f.module.clone(), to);
    }
    deps
}

/// Every circle as a list of modules (each reported once, from its smallest member).
fn cycles(deps: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for start in deps.keys() {
        // Shortest way back to `start`, breadth first.
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        while let Some(m) = queue.pop_front() {
            for n in deps.get(&m).into_iter().flatten() {
                if n == start {
                    let mut circle = vec![m.clone()];
                    let mut at = m.clone();
                    while let Some(p) = prev.get(&at) {
                        circle.push(p.clone());
                        at = p.clone();
                    }
                    circle.reverse();
                    let min = circle.iter().enumerate().min_by_key(|(_, s)| s.as_str()).map_or(0, |(k, _)| k);
                    circle.rotate_left(min);
                    found.insert(circle);
                    queue.clear();
                    break;
                }
                if n != start && !prev.contains_key(n) {
                    prev.insert(n.clone(), m.clone());
                    queue.push_back(n.clone());
                }
            }
        }
    }
    found.into_iter().collect()
}

/// Places outside `parse/` that compare a tag name string (`tag("x")`, `has_tag("x")`, `== "x"`,
/// `"x" =>`), in files that read doc tags at all.
fn tag_matches(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files.iter().filter(|f| !f.path.starts_with("src/parse/") && (f.code.contains(".tags") || f.code.contains("tag("))) {
        for (n, line) in f.code.lines().enumerate() {
            let hit = TAGS.iter().any(|t| {
                let lit = format!("\"{t}\"");
                line.contains(&format!("tag({lit})")) || line.contains(&format!("== {lit}")) || line.contains(&format!("!= {lit}")) || line.contains(&format!("{lit} =>")) || line.contains(&format!("{lit} |")) || line.contains(&format!("({lit}, "))
            });
            if hit {
                out.push(format!("{}:{}: {}", f.path, n + 1, line.trim()));
            }
        }
    }
    out
}

#[test]
fn figures() {
    let files = sources();
    let mut sizes: Vec<(usize, String)> = files.iter().map(|f| (f.lines, f.path.clone())).collect();
    sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    println!("largest files (lines):");
    for (n, p) in sizes.iter().take(10) {
        println!("  {n:5}  {p}");
    }
    let mut fns: Vec<(usize, String)> = files.iter().flat_map(|f| functions(&f.code).into_iter().map(move |(name, line, len)| (len, format!("{}:{line} {name}", f.path)))).collect();
    fns.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    println!("longest functions (lines):");
    for (n, at) in fns.iter().take(10) {
        println!("  {n:5}  {at}");
    }
    let deps = dependencies(&files);
    println!("module dependencies:");
    for (m, to) in &deps {
        println!("  {m} -> {}", to.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    let circles = cycles(&deps);
    println!("import circles: {}", circles.len());
    for c in &circles {
        println!("  {} -> {}", c.join(" -> "), c[0]);
    }
    let tags = tag_matches(&files);
    let tag_files: BTreeSet<&str> = tags.iter().filter_map(|t| t.split(':').next()).collect();
    println!("JSDoc tag names matched outside parse/: {} places in {} files", tags.len(), tag_files.len());
    for t in &tags {
        println!("  {t}");
    }
    let big_files = files.iter().filter(|f| f.lines > MAX_FILE_LINES).count();
    let long_fns = fns.iter().filter(|(n, _)| *n > MAX_FN_LINES).count();
    println!("files over {MAX_FILE_LINES} lines: {big_files}; functions over {MAX_FN_LINES} lines: {long_fns}");
}

#[test]
fn no_import_circles() {
    let circles = cycles(&dependencies(&sources()));
    let shown: Vec<String> = circles.iter().map(|c| format!("{} -> {}", c.join(" -> "), c[0])).collect();
    println!("{} import circles", shown.len());
    assert!(shown.is_empty(), "generator modules must not depend on each other in a circle:\n{}", shown.join("\n"));
}

#[test]
fn tag_names_are_matched_only_in_parse() {
    let places = tag_matches(&sources());
    println!("{} places match a JSDoc tag name outside parse/", places.len());
    assert!(places.is_empty(), "match `parse::TagKind` / `parse::Constraint` instead of the tag's name:\n{}", places.join("\n"));
}

#[test]
fn measuring_sees_paths_methods_and_circles() {
    let modules: BTreeSet<String> = ["emit", "emit::items", "emit::keyed", "ir"].map(String::from).into();
    let seg = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(target("emit::items", &seg("super::keyed::eligible"), &modules).as_deref(), Some("emit::keyed"));
    assert_eq!(target("emit::items", &seg("crate::ir::Ty"), &modules).as_deref(), Some("ir"));
    assert_eq!(target("emit", &seg("items::module"), &modules).as_deref(), Some("emit::items"));
    assert_eq!(target("emit::items", &seg("std::fmt"), &modules), None);
    let mut used = Vec::new();
    expand_use("crate::{ir::*,emit::{keyed,items::Ctx}}", &mut Vec::new(), &mut used);
    assert_eq!(used, vec![seg("crate::ir::*"), seg("crate::emit::keyed"), seg("crate::emit::items::Ctx")]);
    let fns = functions("fn a() {\n let s = \"}\";\n let c = '{';\n quote! { fn q() {} }\n}\nfn b(x: u8);\n");
    assert_eq!(fns, vec![("a".to_string(), 1, 5)]);
    let deps: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")].map(|(x, y)| (x.to_string(), BTreeSet::from([y.to_string()]))).into();
    assert_eq!(cycles(&deps), vec![vec!["a".to_string(), "b".to_string(), "c".to_string()]]);
    println!("5 checks passed, 0 failed");
}
