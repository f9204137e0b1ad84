//! Tidy checks over the workspace's hand-written Rust (the generator, the generated crate's
//! hand-written part, the checker, the CLI, xtask and the examples), measured from the source text:
//! - no import circles among one crate's modules (an edge is a `crate::` or `super::` path
//!   outside `#[cfg(test)]` code),
//! - files under `src/` of at most 600 lines and functions of at most 150, unless an allowlist
//!   entry below gives the reason (generated files are exempt),
//! - the generator matches JSDoc tag names only in `generator/src/parse/` (everything later reads
//!   the typed tag),
//! - docs/development.md's list of test files is every test target (the block between its markers,
//!   rewritten with `UPDATE_TIDY=1`), and every `tests/*.rs` of the workspace package is a target
//!   or a module of the one that merges them (`tests/all.rs`),
//! - every crate root (each lib, bin, test, bench and example target of the workspace and of
//!   `fuzz/`) says `#![forbid(unsafe_code)]`, or `#![deny(unsafe_code)]` where some statement needs
//!   `unsafe`; each `unsafe` anywhere then has `#[allow(unsafe_code)]` and a `// SAFETY:` comment
//!   in the lines right above its own.
//!
//! `cargo test -p mcp-schema-tests --test tidy -- --nocapture` prints the counts and the largest
//! files and functions per crate. `MCP_TIDY_ROOT=DIR` measures another checkout (the figures only).

#![forbid(unsafe_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use mcp_schema_tests::workspace_root;

const MAX_FILE_LINES: usize = 600;
const MAX_FN_LINES: usize = 150;

/// The crates measured: a name and its source folders, relative to the workspace.
const CRATES: &[(&str, &[&str])] = &[
    ("generator", &["generator/src"]),
    ("generated", &["generated/src"]),
    ("check", &["check/src"]),
    ("cli", &["cli/src"]),
    ("guard", &["guard/src"]),
    ("xtask", &["xtask/src"]),
    ("examples", &["examples/src", "examples/conformance/src"]),
];

/// Files over [`MAX_FILE_LINES`], each with why it stays (a path ending in `/` covers a folder).
/// An entry that no longer matches a long file fails the test, so the list only shrinks.
const LONG_FILES: &[(&str, &str)] = &[];

/// Functions over [`MAX_FN_LINES`] (`path::name`, or a folder as above), each with why it stays.
const LONG_FNS: &[(&str, &str)] = &[];

/// Import circles left in place (`crate/unit: a ↔ b ↔ ...`, as printed), each with why. A new
/// circle fails, and so does an entry whose circle is gone.
const CIRCLES_ALLOWED: &[(&str, &str)] = &[];

const README_BEGIN: &str = "<!-- BEGIN test files: checked by tests/tidy.rs, rewritten with UPDATE_TIDY=1 -->";
const README_END: &str = "<!-- END test files -->";

fn root() -> PathBuf {
    std::env::var_os("MCP_TIDY_ROOT").map_or_else(workspace_root, PathBuf::from)
}

struct Source {
    /// Relative to the workspace, `/`-separated.
    path: String,
    /// The crate unit: `lib`, `main`, or `bin/<name>` for a binary with its own modules.
    unit: String,
    /// `engine::client`; the unit's root is `crate`.
    module: String,
    text: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The unit and module of a file, from its path below a `src/` folder.
fn unit_and_module(rel: &str) -> (String, String) {
    let mut parts: Vec<&str> = rel.split('/').collect();
    let unit = match parts.as_slice() {
        ["bin", name] => {
            let name = name.trim_end_matches(".rs").to_string();
            parts.clear();
            format!("bin/{name}")
        }
        ["bin", name, ..] => {
            let unit = format!("bin/{name}");
            parts.drain(..2);
            unit
        }
        ["main.rs"] => "main".to_string(),
        _ => "lib".to_string(),
    };
    if let Some(last) = parts.pop() {
        if !matches!(last, "lib.rs" | "main.rs" | "mod.rs") {
            parts.push(last.trim_end_matches(".rs"));
        }
    }
    let module = if parts.is_empty() { "crate".to_string() } else { parts.join("::") };
    (unit, module)
}

/// The hand-written sources of one crate (generated files left out).
fn sources(root: &Path, dirs: &[&str]) -> Vec<Source> {
    let mut out = Vec::new();
    for dir in dirs {
        let mut paths = Vec::new();
        rust_files(&root.join(dir), &mut paths);
        for p in paths {
            let rel = p.strip_prefix(root.join(dir)).expect("under its folder").to_string_lossy().replace('\\', "/");
            let text = fs::read_to_string(&p).unwrap_or_default();
            if rel.starts_with("generated/") || text.lines().next().is_some_and(|l| l.contains("@generated")) {
                continue;
            }
            let (unit, module) = unit_and_module(&rel);
            out.push(Source { path: format!("{dir}/{rel}"), unit, module, text });
        }
    }
    out
}

/// The text with comments, string and char literals blanked out (same length, same lines), so
/// braces and paths inside them do not count.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| out[from..to.min(b.len())].iter_mut().filter(|c| **c != b'\n').for_each(|c| *c = b' ');
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |n| i + 4 + n);
                blank(&mut out, i, end);
                i = end;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) => {
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
                blank(&mut out, i + 1, j);
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
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The paths after `at` (just past `crate::` or the last `super::`): `a::b::c`, or each path of a
/// `{..}` group, as lists of segments.
fn paths_at(code: &[u8], mut at: usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut segs = prefix.to_vec();
    loop {
        while code.get(at).is_some_and(|c| c.is_ascii_whitespace()) {
            at += 1;
        }
        if code.get(at) == Some(&b'{') {
            // A group: each comma-separated item at depth one.
            let mut depth = 0;
            let mut start = at + 1;
            for j in at..code.len() {
                match code[j] {
                    b'{' => depth += 1,
                    b'}' | b',' if depth == 1 => {
                        paths_at(code, start, &segs, out);
                        start = j + 1;
                        if code[j] == b'}' {
                            return;
                        }
                    }
                    b'}' => depth -= 1,
                    _ => {}
                }
            }
            return;
        }
        let end = at + code[at.min(code.len())..].iter().take_while(|c| is_ident(**c)).count();
        if end == at {
            break;
        }
        segs.push(String::from_utf8_lossy(&code[at..end]).into_owned());
        if code.get(end..end + 2) == Some(b"::") {
            at = end + 2;
        } else {
            break;
        }
    }
    out.push(segs);
}

/// The modules one file's code (before any `#[cfg(test)]`) names through `crate::` or `super::`.
fn edges(src: &Source, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let text = match src.text.find("#[cfg(test)]") {
        Some(at) => &src.text[..at],
        None => &src.text,
    };
    let code = code_only(text);
    let b = code.as_bytes();
    let here: Vec<String> = if src.module == "crate" { Vec::new() } else { src.module.split("::").map(String::from).collect() };
    let mut found = Vec::new();
    for (i, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
        if i > 0 && (is_ident(b[i - 1]) || b[i - 1] == b':') {
            continue; // part of `$crate::`, `self::super::` or a longer path
        }
        let (mut base, mut at) = (here.clone(), i);
        if code[i..].starts_with("crate::") {
            base.clear();
            at += "crate::".len();
        }
        while code[at..].starts_with("super::") {
            base.pop();
            at += "super::".len();
        }
        paths_at(b, at, &base, &mut found);
    }
    let mut out = BTreeSet::new();
    for segs in found {
        // The longest prefix that is a module of this unit.
        let target = (0..=segs.len()).rev().map(|n| if n == 0 { "crate".to_string() } else { segs[..n].join("::") }).find(|m| modules.contains(m));
        if let Some(t) = target.filter(|t| *t != src.module) {
            out.insert(t);
        }
    }
    out
}

/// The strongly connected components with more than one module (Tarjan), each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, (usize, usize)>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, (n, n));
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.index[w].1.min(s.index[v].1);
                s.index.get_mut(v).expect("visited").1 = low;
            } else if s.on_stack.contains(w) {
                let low = s.index[w].0.min(s.index[v].1);
                s.index.get_mut(v).expect("visited").1 = low;
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                scc.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                s.out.push(scc);
            }
        }
    }
    let mut s = State { graph, index: BTreeMap::new(), stack: Vec::new(), on_stack: BTreeSet::new(), out: Vec::new() };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Every `fn` with a body: its name, first line and length in lines.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let b = code.as_bytes();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (i, _) in code.match_indices("fn ") {
        if i > 0 && is_ident(b[i - 1]) {
            continue;
        }
        let name_at = i + 3 + b[i + 3..].iter().take_while(|c| c.is_ascii_whitespace()).count();
        let name_end = name_at + b[name_at..].iter().take_while(|c| is_ident(**c)).count();
        if name_end == name_at {
            continue; // `fn(..)`, a pointer type
        }
        // The body opens at the first `{` outside parentheses; a `;` first means no body.
        let mut depth = 0i32;
        let mut open = None;
        for (j, c) in b.iter().enumerate().skip(name_end) {
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth == 0 => break,
                b'{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut depth = 0;
        let close = b[open..].iter().position(|c| {
            depth += match c {
                b'{' => 1,
                b'}' => -1,
                _ => 0,
            };
            depth == 0
        });
        let end = close.map_or(b.len(), |n| open + n);
        let first = line_of(i);
        out.push((code[name_at..name_end].to_string(), first, line_of(end) - first + 1));
    }
    out
}

fn allowed<'a>(list: &'a [(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    list.iter().find(|(k, _)| *k == key || (k.ends_with('/') && key.starts_with(k))).map(|(k, _)| *k)
}

/// Import circles, long files and long functions, per crate, with the figures printed.
#[test]
fn crates_have_no_circles_and_no_unlisted_long_files_or_functions() {
    let root = root();
    let mut problems = Vec::new();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let (mut total_files, mut total_fns, mut total_circles) = (0, 0, 0);
    for (name, dirs) in CRATES {
        let files = sources(&root, dirs);
        let mut units: BTreeMap<String, Vec<&Source>> = BTreeMap::new();
        for f in &files {
            // Binaries under different source folders are different crates even with one name.
            let dir = dirs.iter().find(|d| f.path.starts_with(*d)).expect("from a folder");
            units.entry(format!("{}{}", if dirs.len() > 1 { format!("{dir}:") } else { String::new() }, f.unit)).or_default().push(f);
        }
        let mut crate_circles = Vec::new();
        for (unit, members) in &units {
            let modules: BTreeSet<String> = members.iter().map(|s| s.module.clone()).collect();
            let graph: BTreeMap<String, BTreeSet<String>> = members.iter().map(|s| (s.module.clone(), edges(s, &modules))).collect();
            for c in circles(&graph) {
                let key = format!("{name}/{unit}: {}", c.join(" ↔ "));
                crate_circles.push(key.clone());
                match allowed(CIRCLES_ALLOWED, &key) {
                    Some(k) => {
                        used.insert(k);
                    }
                    None => problems.push(format!("import circle {key} (break it, or list it in CIRCLES_ALLOWED with a reason)")),
                }
            }
        }
        let mut sizes: Vec<(usize, &str)> = files.iter().map(|f| (f.text.lines().count(), f.path.as_str())).collect();
        sizes.sort_by(|a, b| b.cmp(a));
        let mut fns: Vec<(usize, String)> = files.iter().flat_map(|f| functions(&f.text).into_iter().map(move |(n, line, len)| (len, format!("{}::{n} (line {line})", f.path)))).collect();
        fns.sort_by(|a, b| b.cmp(a));
        for &(lines, path) in sizes.iter().filter(|(l, _)| *l > MAX_FILE_LINES) {
            match allowed(LONG_FILES, path) {
                Some(k) => {
                    used.insert(k);
                }
                None => problems.push(format!("{path}: {lines} lines, over {MAX_FILE_LINES} (split it, or list it in LONG_FILES with a reason)")),
            }
        }
        for (lines, f) in fns.iter().filter(|(l, _)| *l > MAX_FN_LINES) {
            let key = f.split(" (line").next().unwrap_or(f);
            match allowed(LONG_FNS, key) {
                Some(k) => {
                    used.insert(k);
                }
                None => problems.push(format!("{f}: {lines} lines, over {MAX_FN_LINES} (split it, or list it in LONG_FNS with a reason)")),
            }
        }
        let over_files = sizes.iter().filter(|(l, _)| *l > MAX_FILE_LINES).count();
        let over_fns = fns.iter().filter(|(l, _)| *l > MAX_FN_LINES).count();
        println!("{name}: {} files, {} lines, {over_files} over {MAX_FILE_LINES} lines, {} functions, {over_fns} over {MAX_FN_LINES} lines, {} import circles", files.len(), sizes.iter().map(|s| s.0).sum::<usize>(), fns.len(), crate_circles.len());
        for (lines, path) in sizes.iter().take(3) {
            println!("  file {lines:>5}  {path}");
        }
        for (lines, f) in fns.iter().take(3) {
            println!("  fn   {lines:>5}  {f}");
        }
        for c in &crate_circles {
            println!("  circle {c}");
        }
        total_files += files.len();
        total_fns += fns.len();
        total_circles += crate_circles.len();
    }
    println!("tidy: {total_files} files, {total_fns} functions, {total_circles} import circles, {} problems", problems.len());
    if std::env::var_os("MCP_TIDY_ROOT").is_some() {
        return; // another checkout: the figures only
    }
    for (k, _) in LONG_FILES.iter().chain(LONG_FNS).chain(CIRCLES_ALLOWED) {
        if !used.contains(k) {
            problems.push(format!("allowlist entry `{k}` matches nothing any more: remove it"));
        }
    }
    assert!(problems.is_empty(), "{} tidy problem(s):\n  {}", problems.len(), problems.join("\n  "));
}

/// Every test target: the workspace package's `[[test]]` paths and the files `tests/all.rs` makes
/// modules of it, and each package's `tests/*.rs`.
fn test_targets(root: &Path) -> Vec<String> {
    let manifest = fs::read_to_string(root.join("tests/Cargo.toml")).expect("tests/Cargo.toml");
    let mut out: Vec<String> = manifest.lines().filter_map(|l| l.trim().strip_prefix("path = \"")).filter_map(|p| p.strip_suffix('"')).filter(|p| *p != "support.rs").map(|p| format!("tests/{p}")).collect();
    out.extend(merged_modules(root, "tests").iter().map(|m| format!("tests/{m}.rs")));
    for pkg in ["generator", "check", "cli", "guard", "xtask", "examples", "examples/conformance"] {
        let mut files = Vec::new();
        if let Ok(entries) = fs::read_dir(root.join(pkg).join("tests")) {
            files.extend(entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "rs")));
        }
        out.extend(files.iter().map(|p| format!("{pkg}/tests/{}", p.file_name().unwrap_or_default().to_string_lossy())));
    }
    out.sort();
    out
}

/// The first clause of a file's `//!` doc (up to `. `, `: ` or `; `), at most about 160 characters.
fn summary(text: &str) -> String {
    let para: Vec<&str> = text.lines().map_while(|l| l.strip_prefix("//!")).map(str::trim).take_while(|l| !l.is_empty()).collect();
    let para = para.join(" ");
    let cut = [". ", ": ", "; "].iter().filter_map(|p| para.find(p)).min().unwrap_or(para.len());
    let mut out = para[..cut].trim_end_matches(['.', ':', ';']).to_string();
    if out.chars().count() > 160 {
        let at = out.char_indices().nth(160).map_or(out.len(), |(i, _)| i);
        out.truncate(out[..at].rfind(' ').unwrap_or(at));
        out.push('…');
        return out;
    }
    out.push('.');
    out
}

fn readme_block(root: &Path) -> String {
    let mut block = format!("{README_BEGIN}\n\n");
    for t in test_targets(root) {
        let text = fs::read_to_string(root.join(&t)).unwrap_or_default();
        block.push_str(&format!("- [`{t}`](../{t}): {}\n", summary(&text)));
    }
    block.push('\n');
    block.push_str(README_END);
    block
}

/// The test list's home: docs/development.md, which the README links to.
const TEST_LIST: &str = "docs/development.md";

/// docs/development.md lists every test target, each with the first sentence of its doc comment.
#[test]
fn readme_lists_every_test_target() {
    let root = root();
    let readme = fs::read_to_string(root.join(TEST_LIST)).expect(TEST_LIST);
    let wanted = readme_block(&root);
    let (Some(begin), Some(end)) = (readme.find(README_BEGIN), readme.find(README_END)) else {
        panic!("{TEST_LIST} has no block between `{README_BEGIN}` and `{README_END}`");
    };
    let current = &readme[begin..end + README_END.len()];
    if current != wanted {
        if std::env::var_os("UPDATE_TIDY").is_some() {
            fs::write(root.join(TEST_LIST), readme.replace(current, &wanted)).expect(TEST_LIST);
            return;
        }
        panic!("{TEST_LIST}'s list of test files is not the test targets (UPDATE_TIDY=1 rewrites it):\n{wanted}");
    }
    for pkg in ["tests", "cli"] {
        let orphans = orphan_test_files(&root, pkg);
        let folder = test_dir(Path::new(""), pkg);
        assert!(orphans.is_empty(), "{} files that are no test target in the package's Cargo.toml nor a module of its all.rs (never run): {orphans:?}", folder.display());
    }
    println!("tidy: {TEST_LIST} names {} test targets", test_targets(&root).len());
}

/// The files `all.rs` compiles as its modules (`mod NAME;` lines), in a package's test folder
/// (`tests` is the workspace package, whose folder is its root).
fn merged_modules(root: &Path, pkg: &str) -> Vec<String> {
    let text = fs::read_to_string(test_dir(root, pkg).join("all.rs")).unwrap_or_default();
    text.lines().filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';')).map(str::to_string).collect()
}

fn test_dir(root: &Path, pkg: &str) -> std::path::PathBuf {
    match pkg {
        "tests" => root.join("tests"),
        _ => root.join(pkg).join("tests"),
    }
}

/// A package's test files that are neither a `[[test]]` path in its manifest nor a module of its
/// `all.rs`: with test targets listed by hand, such a file is never compiled or run.
fn orphan_test_files(root: &Path, pkg: &str) -> Vec<String> {
    let manifest = fs::read_to_string(root.join(pkg).join("Cargo.toml")).expect("Cargo.toml");
    let merged = merged_modules(root, pkg);
    let prefix = if pkg == "tests" { "" } else { "tests/" };
    let mut orphans = Vec::new();
    for e in fs::read_dir(test_dir(root, pkg)).expect("a test folder").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if !manifest.contains(&format!("path = \"{prefix}{name}\"")) && !merged.iter().any(|m| m == module) {
            orphans.push(name);
        }
    }
    orphans
}

/// JSDoc tags whose names only the generator's `parse/jsdoc.rs` may match: everything later reads the typed tag.
const TAGS: &[&str] = &["format", "minimum", "maximum", "minItems", "maxItems", "maxLength", "pattern", "TJS-type", "deprecated", "internal", "nullable", "default", "description", "category", "see", "example", "overlay", "overlayRemove"];

/// Places in the generator outside `parse/` that compare a tag name (`tag("x")`, `== "x"`, `"x" =>`, ..),
/// in files that read doc tags at all; code after `#[cfg(test)]` is left out.
fn tag_matches(files: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files.iter().filter(|f| !f.path.starts_with("generator/src/parse/")) {
        let code = f.text.find("#[cfg(test)]").map_or(f.text.as_str(), |at| &f.text[..at]);
        if !code.contains(".tags") && !code.contains("tag(") {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            let hit = TAGS.iter().any(|t| {
                let lit = format!("\"{t}\"");
                [format!("tag({lit})"), format!("== {lit}"), format!("!= {lit}"), format!("{lit} =>"), format!("{lit} |"), format!("({lit}, ")].iter().any(|p| line.contains(p.as_str()))
            });
            if hit {
                out.push(format!("{}:{}: {}", f.path, n + 1, line.trim()));
            }
        }
    }
    out
}

#[test]
fn generator_matches_tag_names_only_in_parse() {
    let places = tag_matches(&sources(&root(), &["generator/src"]));
    println!("tidy: {} places match a JSDoc tag name outside generator/src/parse/", places.len());
    assert!(places.is_empty(), "match `parse::TagKind` / `parse::Constraint` instead of the tag's name:\n{}", places.join("\n"));
    let probe = Source { path: "generator/src/emit/x.rs".into(), unit: "lib".into(), module: "emit::x".into(), text: "fn f(d: &Doc) { d.tag(\"minimum\"); }\n#[cfg(test)]\nfn t() { x.tag(\"format\"); }\n".into() };
    assert_eq!(tag_matches(&[probe]), ["generator/src/emit/x.rs:1: fn f(d: &Doc) { d.tag(\"minimum\"); }"]);
}

/// The measuring itself, on small inputs: paths and groups become edges, circles are found,
/// function lengths count the body's lines, and text in comments and strings is not code.
#[test]
fn measuring_sees_paths_groups_circles_and_bodies() {
    let src = |module: &str, text: &str| Source { path: String::new(), unit: "lib".into(), module: module.into(), text: text.into() };
    let modules: BTreeSet<String> = ["crate", "a", "a::b", "c", "d"].iter().map(|s| s.to_string()).collect();
    let e = edges(&src("a::b", "use crate::{c::X, d};\nfn f() { super::g(); \"crate::a::b\"; } // crate::d\n#[cfg(test)]\nmod t { use crate::c; }"), &modules);
    assert_eq!(e.into_iter().collect::<Vec<_>>(), ["a", "c", "d"]);
    assert!(edges(&src("c", "macro_rules! m { () => { $crate::c::x() } }"), &modules).is_empty());

    let graph: BTreeMap<String, BTreeSet<String>> = [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])].into_iter().map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect())).collect();
    assert_eq!(circles(&graph), [vec!["a", "b", "c"]]);

    let fns = functions("fn one() {\n    let s = \"}\";\n}\n\ntrait T { fn decl(&self); }\nfn two<F: Fn() -> u8>(f: F) -> [u8; 2] {\n    let g: fn(u8) = |_| {};\n    [f(), 0]\n}\n");
    assert_eq!(fns, [("one".to_string(), 1, 3), ("two".to_string(), 6, 4)]);
    assert_eq!(unit_and_module("bin/server/session.rs"), ("bin/server".to_string(), "session".to_string()));
    assert_eq!(unit_and_module("engine/mod.rs"), ("lib".to_string(), "engine".to_string()));
    assert_eq!(summary("//! Reads a line. Then more.\n//! Still more.\n"), "Reads a line.");
    assert_eq!(summary("//! Reads lines: one\n//! by one.\n\n//! Later.\n"), "Reads lines.");
    assert!(summary(&format!("//! {}\n", "word ".repeat(50))).ends_with("word…"));
}

/// The crate roots of the workspace and of `fuzz/` (which it excludes): each target's source file,
/// relative to the workspace, from `cargo metadata`.
fn crate_roots(root: &Path) -> Vec<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut out = BTreeSet::new();
    for manifest in ["Cargo.toml", "fuzz/Cargo.toml"] {
        let output = std::process::Command::new(&cargo)
            .args(["metadata", "--no-deps", "--offline", "--format-version", "1", "--manifest-path"])
            .arg(root.join(manifest))
            .output()
            .expect("cargo metadata runs");
        assert!(output.status.success(), "cargo metadata --manifest-path {manifest}: {}", String::from_utf8_lossy(&output.stderr));
        let meta: serde_json::Value = serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
        let root = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        for target in meta["packages"].as_array().into_iter().flatten().flat_map(|p| p["targets"].as_array().into_iter().flatten()) {
            let path = Path::new(target["src_path"].as_str().expect("a target's src_path"));
            let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            out.insert(path.strip_prefix(&root).unwrap_or(&path).to_string_lossy().replace('\\', "/"));
        }
    }
    out.into_iter().collect()
}

/// A crate root without `#![forbid(unsafe_code)]` or `#![deny(unsafe_code)]` (in code, not in a comment).
fn root_problem(path: &str, text: &str) -> Option<String> {
    let code = code_only(text);
    let says = |attr: &str| code.lines().any(|l| l.trim() == attr);
    (!says("#![forbid(unsafe_code)]") && !says("#![deny(unsafe_code)]")).then(|| format!("{path}: a crate root without `#![forbid(unsafe_code)]` (or `#![deny(unsafe_code)]` when a statement needs `unsafe`)"))
}

/// Each `unsafe` in code whose line does not have, in the comment and attribute lines right above
/// it, `#[allow(unsafe_code)]` and a `// SAFETY:` comment saying why it is sound.
fn unsafe_problems(path: &str, text: &str) -> Vec<String> {
    let code = code_only(text);
    let b = code.as_bytes();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, _) in code.match_indices("unsafe") {
        if (i > 0 && is_ident(b[i - 1])) || b.get(i + 6).is_some_and(|c| is_ident(*c)) {
            continue; // `unsafe_code`, `is_unsafe`
        }
        let line = code[..i].matches('\n').count();
        let above: Vec<&str> = lines[..line].iter().rev().map(|l| l.trim()).take_while(|l| l.starts_with("//") || l.starts_with("#[")).collect();
        let allowed = above.iter().any(|l| l.starts_with("#[allow(") && l.contains("unsafe_code"));
        let explained = above.iter().any(|l| l.starts_with("// SAFETY:"));
        if !(allowed && explained) {
            out.push(format!("{path}:{}: `unsafe` without {} right above its line: {}", line + 1, if allowed { "a `// SAFETY:` comment" } else { "`#[allow(unsafe_code)]` (and a `// SAFETY:` comment)" }, lines.get(line).map_or("", |l| l.trim())));
        }
    }
    out
}

/// Every Rust file of the checkout, but for build output, fetched inputs and installed packages.
fn all_rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for p in entries.flatten().map(|e| e.path()) {
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        if p.is_dir() {
            if !(name.starts_with('.') || ["target", "upstream", "node_modules"].contains(&name.as_ref())) {
                all_rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

#[test]
fn crates_forbid_unsafe_code_and_each_unsafe_says_why() {
    let root = root();
    let roots = crate_roots(&root);
    let mut problems: Vec<String> = roots.iter().filter_map(|r| root_problem(r, &fs::read_to_string(root.join(r)).unwrap_or_default())).collect();
    let mut files = Vec::new();
    all_rust_files(&root, &mut files);
    files.sort();
    let mut unsafe_count = 0;
    for f in &files {
        let text = fs::read_to_string(f).unwrap_or_default();
        let rel = f.strip_prefix(&root).unwrap_or(f).to_string_lossy().replace('\\', "/");
        unsafe_count += code_only(&text).match_indices("unsafe").filter(|(i, _)| !code_only(&text)[*i..].starts_with("unsafe_")).count();
        problems.extend(unsafe_problems(&rel, &text));
    }
    println!("tidy: {} crate roots, {} Rust files, {unsafe_count} `unsafe`, {} unsafe-code problems", roots.len(), files.len(), problems.len());
    if std::env::var_os("MCP_TIDY_ROOT").is_some() {
        return; // another checkout: the figures only
    }
    assert!(roots.len() > 40 && roots.iter().any(|r| r.starts_with("fuzz/")), "the crate roots were not all found: {roots:?}");
    assert!(problems.is_empty(), "{} unsafe-code problem(s):\n  {}", problems.len(), problems.join("\n  "));
}

/// The unsafe-code check itself, on small inputs.
#[test]
fn unsafe_check_sees_roots_allowances_and_reasons() {
    assert_eq!(root_problem("a.rs", "//! Doc.\n\n#![forbid(unsafe_code)]\n\nfn main() {}\n"), None);
    assert_eq!(root_problem("a.rs", "#![deny(unsafe_code)]\n"), None);
    assert!(root_problem("a.rs", "//! Doc.\n// #![forbid(unsafe_code)]\nfn main() {}\n").is_some());
    assert!(root_problem("a.rs", "#![forbid(unsafe_code)] // no: the attribute must stand alone\n").is_none());
    assert!(root_problem("a.rs", "const S: &str = \"#![forbid(unsafe_code)]\";\n").is_some());

    let good = "fn f() {\n    // SAFETY: plain integers.\n    // More words.\n    #[allow(unsafe_code)]\n    let r = unsafe { g(1) };\n}\n";
    assert!(unsafe_problems("a.rs", good).is_empty());
    let no_reason = "fn f() {\n    #[allow(unsafe_code)]\n    unsafe { g(1) }\n}\n";
    assert_eq!(unsafe_problems("a.rs", no_reason), ["a.rs:3: `unsafe` without a `// SAFETY:` comment right above its line: unsafe { g(1) }"]);
    let no_allow = "// SAFETY: plain integers.\nunsafe fn g() {}\n";
    assert_eq!(unsafe_problems("a.rs", no_allow).len(), 1);
    // Allowed on the function, not on the statement: too far away.
    let far = "// SAFETY: plain integers.\n#[allow(unsafe_code)]\nfn f() {\n    unsafe { g(1) }\n}\n";
    assert_eq!(unsafe_problems("a.rs", far).len(), 1);
    // Words, strings and comments are not code.
    assert!(unsafe_problems("a.rs", "#![deny(unsafe_code)]\nfn is_unsafe() -> &'static str { \"unsafe\" } // unsafe\n").is_empty());
}
