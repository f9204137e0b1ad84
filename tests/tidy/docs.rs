//! What tidy asks of the words around the code: a `//!` doc at the top of every hand-written Rust
//! file, every file or folder path a design document names existing in the tree, and a code map row
//! in ARCHITECTURE.md for every hand-written source file of each crate.

use std::path::Path;

use super::measure::walk;

/// The first line of a file that is neither blank, an inner attribute nor a plain `//` comment
/// must be its `//!` doc: a file says what it is for before anything else.
pub(crate) fn lacks_module_doc(text: &str) -> bool {
    let first = text.lines().map(str::trim_start).find(|l| !l.is_empty() && !l.starts_with("#![") && !(l.starts_with("//") && !l.starts_with("//!")));
    !first.is_some_and(|l| l.starts_with("//!"))
}

/// Paths a document may name that are not in a fresh checkout, each with why.
pub(crate) const PATHS_OUTSIDE_THE_TREE: &[(&str, &str)] = &[
    ("upstream/", "the git-ignored folder `cargo xtask schema sync` fills from the pins"),
    ("./spec.types.js", "the import path the Tasks extension's schema.ts names, not a file of this project"),
    ("schema.ts", "the spec's schema file of each version, synced into upstream/"),
    ("specification/stable/skills.mdx", "a file of the ext-skills repository, the Skills overlay's source"),
];

/// Backticked tokens of a Markdown text that name a file or folder: they end in a file extension
/// this project uses or in `/`, and hold no placeholder (`<x>`, `*`, `...`) or Rust path (`::`).
pub(crate) fn named_paths(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, chunk) in markdown.split('`').enumerate() {
        let token = chunk.trim();
        if i % 2 == 0 || token.is_empty() || token.contains(char::is_whitespace) {
            continue;
        }
        let placeholder = ['<', '*', '{', '$', '='].iter().any(|c| token.contains(*c)) || token.contains("...") || token.contains("::");
        let pathlike = token.ends_with('/') || [".rs", ".toml", ".md", ".sh", ".ts", ".json", ".jsonl", ".mjs", ".py", ".yml", ".yaml"].iter().any(|e| token.ends_with(e));
        if pathlike && !placeholder && !token.contains("://") {
            out.push(token.to_string());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Every file and folder of the checkout, `/`-separated and relative to it, without build output,
/// installed packages or git's own folder.
pub(crate) fn tree(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = walk(root)
        .into_iter()
        .map(|(p, is_dir)| {
            let rel = p.strip_prefix(root).expect("below the root").to_string_lossy().replace('\\', "/");
            if is_dir { format!("{rel}/") } else { rel }
        })
        .collect();
    out.sort();
    out
}

/// Whether a named path is in the tree: as given from the root, or as the end of a longer path
/// (documents name a crate's files from the crate, `session/mod.rs`, or by file name, `tidy.rs`).
pub(crate) fn resolves(name: &str, tree: &[String]) -> bool {
    let name = name.trim_start_matches("./");
    tree.iter().any(|t| t == name || t.ends_with(&format!("/{name}")))
}

/// Each crate of tidy's `CRATES` and the heading of its section in ARCHITECTURE.md's code map, whose
/// tables give every hand-written source file of the crate a row (or a row for its folder).
pub(crate) const CODE_MAP: &[(&str, &str)] = &[
    ("generator", "### `generator/src/`"),
    ("generated", "### `generated/`"),
    ("engine", "### `engine/`"),
    ("guard", "### `guard/`"),
    ("xtask", "### `xtask/`"),
    ("check", "### `check/`"),
    ("cli", "### `cli/`"),
    ("examples", "### `examples/`"),
    ("bench", "### `bench/`"),
];

/// The text under a heading, up to the next heading of its level or above.
pub(crate) fn section<'a>(markdown: &'a str, heading: &str) -> Option<&'a str> {
    let at = markdown.match_indices(heading).map(|(i, _)| i).find(|i| (*i == 0 || markdown[..*i].ends_with('\n')) && markdown[i + heading.len()..].starts_with(['\n', '\r']))?;
    let body = &markdown[at + heading.len()..];
    let end = [body.find("\n## "), body.find("\n### ")].into_iter().flatten().min().unwrap_or(body.len());
    Some(&body[..end])
}

/// The paths a section's table rows name in their first cell (`| \`a.rs\`, \`b/\` | ... |`).
pub(crate) fn row_paths(section: &str) -> Vec<String> {
    section.lines().filter(|l| l.starts_with('|')).filter_map(|l| l.split('|').nth(1)).flat_map(named_paths).collect()
}

/// A unit test module inside `src/` (`tests.rs`, `<what>_tests.rs`, or a file under a `tests/`
/// folder) needs no row: its parent's row covers it.
pub(crate) fn is_unit_test(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.ends_with("_tests.rs") || path.contains("/tests/")
}

/// What a crate's code map section lacks or names wrongly: a hand-written file (`files`, from the
/// workspace root) without a row, and a row naming nothing. A row's path is relative to one of
/// `bases` (the crate's source folders and the folder its heading names); a row ending in `/` covers
/// every file below it.
pub(crate) fn code_map_problems(section: &str, bases: &[String], files: &[String], tree: &[String]) -> Vec<String> {
    let rows = row_paths(section);
    let mut out = Vec::new();
    for row in &rows {
        if !bases.iter().any(|b| tree.iter().any(|t| *t == format!("{b}/{row}"))) {
            out.push(format!("row `{row}` names nothing under {}", bases.join(" or ")));
        }
    }
    for file in files.iter().filter(|f| !is_unit_test(f)) {
        let covered = bases.iter().filter_map(|b| file.strip_prefix(&format!("{b}/"))).any(|rel| rows.iter().any(|r| r == rel || (r.ends_with('/') && rel.starts_with(r.as_str()))));
        if !covered {
            out.push(format!("`{file}` has no row (add one: its path and what it does)"));
        }
    }
    out
}
