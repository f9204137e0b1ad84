//! What tidy asks of the words around the code: a `//!` doc at the top of every hand-written Rust
//! file, and every file or folder path a design document names existing in the tree.

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
