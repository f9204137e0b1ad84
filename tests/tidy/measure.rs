//! How tidy measures Rust source text: the one folder walk, the files of a crate with their unit
//! and module, code with comments and literals blanked, the module paths a file names (its import
//! edges), the circles among them, and each function's length.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

pub(crate) struct Source {
    /// Relative to the workspace, `/`-separated.
    pub(crate) path: String,
    /// The crate unit: `lib`, `main`, or `bin/<name>` for a binary with its own modules.
    pub(crate) unit: String,
    /// `engine::client`; the unit's root is `crate`.
    pub(crate) module: String,
    pub(crate) text: String,
}

/// What no walk enters or lists: build output, installed packages, fetched inputs, git's and Python's
/// own folders (a worktree's `.git` is a file).
const NOT_WALKED: &[&str] = &["target", "node_modules", "upstream", ".git", ".venv"];

/// The one folder walk of tidy: every file and folder below `dir` (folders with `true`), depth
/// first in path order, without the entries of [`NOT_WALKED`].
pub(crate) fn walk(dir: &Path) -> Vec<(PathBuf, bool)> {
    fn go(dir: &Path, out: &mut Vec<(PathBuf, bool)>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries.into_iter().filter(|p| !NOT_WALKED.iter().any(|n| p.file_name().is_some_and(|f| f == *n))) {
            if p.is_dir() {
                out.push((p.clone(), true));
                go(&p, out);
            } else {
                out.push((p, false));
            }
        }
    }
    let mut out = Vec::new();
    go(dir, &mut out);
    out
}

/// The Rust files below `dir`, in path order.
pub(crate) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    walk(dir).into_iter().filter(|(p, is_dir)| !is_dir && p.extension().is_some_and(|e| e == "rs")).map(|(p, _)| p).collect()
}

/// The unit and module of a file, from its path below a `src/` folder.
pub(crate) fn unit_and_module(rel: &str) -> (String, String) {
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
pub(crate) fn sources(root: &Path, dirs: &[&str]) -> Vec<Source> {
    let mut out = Vec::new();
    for dir in dirs {
        for p in rust_files(&root.join(dir)) {
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
pub(crate) fn code_only(text: &str) -> String {
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

pub(crate) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The paths after `at` (just past `crate::` or the last `super::`): `a::b::c`, or each path of a
/// `{..}` group, as lists of segments.
pub(crate) fn paths_at(code: &[u8], mut at: usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
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
pub(crate) fn edges(src: &Source, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let text = match src.text.find("#[cfg(test)]") {
        Some(at) => &src.text[..at],
        None => &src.text,
    };
    let code = code_only(text);
    let b = code.as_bytes();
    let here: Vec<String> = if src.module == "crate" { Vec::new() } else { src.module.split("::").map(String::from).collect() };
    let mut found = Vec::new();
    // A child module named without `self::` (`use child::Item`, `child::f()`): the parent uses it.
    let children: Vec<&str> = modules.iter().filter_map(|m| child_name(&src.module, m)).collect();
    for child in children {
        let pat = format!("{child}::");
        for (i, _) in code.match_indices(pat.as_str()) {
            if i > 0 && (is_ident(b[i - 1]) || b[i - 1] == b':' || b[i - 1] == b'.') {
                continue; // a longer path, `::child::` (an external crate), `self::child::` (below) or `.method::<T>`
            }
            if !reexport(b, i) {
                paths_at(b, i, &here, &mut found);
            }
        }
    }
    for (i, _) in code.match_indices("self::") {
        if i > 0 && (is_ident(b[i - 1]) || b[i - 1] == b':') {
            continue;
        }
        paths_at(b, i + "self::".len(), &here, &mut found);
    }
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

/// Whether the path at `at` is in a `pub use` (or `pub(crate) use`) item: a re-export is the
/// parent's face, not a use of the child's code.
pub(crate) fn reexport(code: &[u8], at: usize) -> bool {
    let start = code[..at].iter().rposition(|c| matches!(c, b';' | b'{' | b'}')).map_or(0, |n| n + 1);
    let item = String::from_utf8_lossy(&code[start..at]);
    let item = item.trim_start();
    item.starts_with("pub use ") || (item.starts_with("pub(") && item.contains(") use "))
}

/// `child` when `module` is a direct child of `parent` (`crate` is the unit's root).
pub(crate) fn child_name<'a>(parent: &str, module: &'a str) -> Option<&'a str> {
    let rest = if parent == "crate" { Some(module).filter(|m| *m != "crate") } else { module.strip_prefix(parent).and_then(|r| r.strip_prefix("::")) };
    rest.filter(|r| !r.contains("::"))
}

/// The strongly connected components with more than one module (Tarjan), each sorted.
pub(crate) fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
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
pub(crate) fn functions(text: &str) -> Vec<(String, usize, usize)> {
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

pub(crate) fn allowed<'a>(list: &'a [(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    list.iter().find(|(k, _)| *k == key || (k.ends_with('/') && key.starts_with(k))).map(|(k, _)| *k)
}
