//! Tidy checks over the workspace's hand-written Rust (the generator, the generated crate's
//! hand-written part, the engine, the checker, the guard, the CLI, xtask, the bench, the examples and the tests), measured from the source text:
//! - no import circles among one crate's modules (an edge is a `crate::`, `super::`, `self::` or
//!   child-module path outside `#[cfg(test)]` code; a `pub use` re-export is not one),
//! - files of at most 600 lines and functions of at most 150, in `src/` and in the test folders
//!   and fuzz crate alike, unless an allowlist entry below gives the reason (generated files are
//!   exempt),
//! - every hand-written Rust file opens with a `//!` doc, every file or folder path
//!   ARCHITECTURE.md names is in the tree, and each crate's section of its code map has a table
//!   row for every hand-written source file (or its folder) and none for what is not there,
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
    ("engine", &["engine/src"]),
    ("bench", &["bench/src"]),
    ("xtask", &["xtask/src"]),
    ("examples", &["examples/src", "examples/conformance/src"]),
];

/// Files over [`MAX_FILE_LINES`], each with why it stays (a path ending in `/` covers a folder).
/// An entry that no longer matches a long file fails the test, so the list only shrinks.
const LONG_FILES: &[(&str, &str)] = &[
    ("bench/src/lib.rs", "the bench's corpora and their readers side by side (604 lines); split with the next corpus"),
];

/// Functions over [`MAX_FN_LINES`] (`path::name`, or a folder as above), each with why it stays.
const LONG_FNS: &[(&str, &str)] = &[];

/// Import circles left in place (`crate/unit: a ↔ b ↔ ...`, as printed), each with why. A new
/// circle fails, and so does an entry whose circle is gone.
// Found when tidy began counting a parent's uses of its children (`child::x`, `self::child`; a
// `pub use` re-export is the parent's face and does not count): the list only shrinks.
const CIRCLES_ALLOWED: &[(&str, &str)] = &[
    ("generator/lib: config ↔ crate ↔ emit ↔ emit::convert ↔ emit::ctx ↔ emit::items ↔ emit::manifest ↔ emit::output ↔ overlay ↔ resolve ↔ resolve::checks ↔ resolve::layout ↔ resolve::layout::boxing ↔ resolve::layout::convert ↔ resolve::layout::convert::planner ↔ resolve::layout::share ↔ resolve::lower ↔ resolve::lower::state ↔ resolve::methods", "the crate root drives the stages and defines `Input`, which the stages name through `crate::`; each stage's parent calls its children, which name the parent's types through `super::`"),
    ("generated/lib: crate ↔ read ↔ runtime ↔ runtime::__private", "the root's entry points (`from_slice`, `from_str`) call `read`, which names the runtime's types through the root's re-exports"),
    ("generated/lib: validate ↔ validate::ranking", "`validate/mod.rs` calls the ranking of findings, which sorts `validate`'s own `Finding`"),
    ("generated/lib: write ↔ write::key ↔ write::raw ↔ write::serializer ↔ write::strings", "`write/mod.rs` holds `WriteJson` and calls its parts, which write through the parent's buffer type"),
    ("check/lib: rules ↔ rules::convert ↔ rules::session ↔ rules::stream ↔ rules::transport", "`rules/mod.rs` builds one catalogue from its families' tables, which use the parent's `Rule` type"),
    ("check/lib: session ↔ session::apps ↔ session::capabilities ↔ session::families ↔ session::resources ↔ session::skills ↔ session::tools", "the rule families are the session's children: each reads the parent's message and stream types (`super::{Msg, Sink, Stream}`), and the parent declares them, their state in its stream and their table from one `families!` list"),
    ("check/lib: check ↔ check::apps ↔ check::message ↔ check::response ↔ check::scope ↔ check::typed", "the checker's parts are its children: typing (`typed::Types`, `message::Typing`) reads the parent's stream and findings types, and the parent's `Checker` holds the parts and runs them"),
    ("cli/lib: har ↔ har::classify ↔ har::plan ↔ har::read", "the HAR reader's parent holds the entry type its children classify, plan and read"),
    ("cli/lib: bridge::http ↔ bridge::http::client ↔ bridge::http::session ↔ bridge::http::upstream", "the HTTP bridge's parts share the parent's session state"),
    ("engine/lib: endpoint ↔ endpoint::batch", "a batch is read by the endpoint and answers through its tables"),
    ("engine/lib: client ↔ per_request", "the client's per-request mode (2026-07-28) reads and writes the client's state"),
    ("engine/lib: http::server ↔ http::server::context ↔ http::server::respond ↔ http::server::session", "the HTTP server's parts share the parent's session table and config"),
    ("examples/examples/conformance/src:bin/conformance-server: catalog ↔ crate ↔ ctx ↔ stateless", "the conformance server binary's modules share its context; an example kept in one binary"),
    ("examples/examples/src:bin/multi_version_server: crate ↔ gateway", "an example binary whose gateway module and main share the server setup"),
];

const README_BEGIN: &str = "<!-- BEGIN test files: checked by tests/tidy.rs, rewritten with UPDATE_TIDY=1 -->";
const README_END: &str = "<!-- END test files -->";

fn root() -> PathBuf {
    std::env::var_os("MCP_TIDY_ROOT").map_or_else(workspace_root, PathBuf::from)
}

#[path = "tidy/docs.rs"]
mod docs;
#[path = "tidy/measure.rs"]
mod measure;
use measure::*;

/// Test code and the fuzz crate, measured for length like the crates (no circles: a test file is
/// a leaf), under the same limits.
const TEST_FOLDERS: &[&str] = &["tests", "generator/tests", "check/tests", "engine/tests", "guard/tests", "cli/tests", "examples/tests", "fuzz/src", "fuzz/fuzz_targets"];

/// Test files over [`MAX_FILE_LINES`], each with why it stays; an entry that matches nothing fails.
const LONG_TEST_FILES: &[(&str, &str)] = &[
    ("cli/tests/session_rules.rs", "one kept and one broken session per session rule, in the order of the catalogue; split by rule family when issue 47 gives the families a table"),
    ("cli/tests/transport_rules.rs", "an accepted and a reported recording per transport rule (44 tests), each built inline so the case reads in one place"),
    ("tests/generator_hostile.rs", "the hostile-input table and the child-process harness that survives a crash per input belong together"),
    ("tests/keyed_unions.rs", "each keyed union's reading rules, each pinned against serde_json's answer on hand-made inputs"),
    ("tests/validate.rs", "the table of every validation rule's accepted and rejected case, which the coverage test reads whole"),
    ("tests/write.rs", "byte-for-byte agreement with serde_json's writer, per kind of value, with the generators of random values they share"),
];

/// Test functions over [`MAX_FN_LINES`], each with why it stays; an entry that matches nothing fails.
const LONG_TEST_FNS: &[(&str, &str)] = &[
    ("tests/icons.rs::active_svg_content_is_reported", "a list of hostile SVG documents, one per line, and the loop that checks each"),
    ("tests/validate.rs::cases", "the table of cases, one line per rule case"),
];

/// The design documents whose named paths must exist.
const DESIGN_DOCS: &[&str] = &["ARCHITECTURE.md"];

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
        let (sizes, fns) = lengths(files.iter().map(|f| (f.path.as_str(), f.text.as_str())), [(LONG_FILES, "LONG_FILES"), (LONG_FNS, "LONG_FNS")], &mut used, &mut problems);
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

/// Each file's and function's length, longest first (functions as `path::name (line N)`); those over
/// [`MAX_FILE_LINES`] and [`MAX_FN_LINES`] are allowed by the two lists (files, functions) or are problems.
fn lengths<'a, 'f>(files: impl Iterator<Item = (&'f str, &'f str)>, lists: [(&'a [(&'a str, &'a str)], &str); 2], used: &mut BTreeSet<&'a str>, problems: &mut Vec<String>) -> (Vec<(usize, String)>, Vec<(usize, String)>) {
    let (mut sizes, mut fns) = (Vec::new(), Vec::new());
    for (path, text) in files {
        sizes.push((text.lines().count(), path.to_string()));
        fns.extend(functions(text).into_iter().map(|(n, line, len)| (len, format!("{path}::{n} (line {line})"))));
    }
    sizes.sort_by(|a, b| b.cmp(a));
    fns.sort_by(|a, b| b.cmp(a));
    let [(long_files, files_list), (long_fns, fns_list)] = lists;
    let over = sizes.iter().filter(|(l, _)| *l > MAX_FILE_LINES).map(|(l, p)| (p.as_str(), p.as_str(), *l, MAX_FILE_LINES, long_files, files_list));
    let over_fns = fns.iter().filter(|(l, _)| *l > MAX_FN_LINES).map(|(l, f)| (f.split(" (line").next().unwrap_or(f), f.as_str(), *l, MAX_FN_LINES, long_fns, fns_list));
    for (key, shown, lines, max, list, list_name) in over.chain(over_fns) {
        match allowed(list, key) {
            Some(k) => {
                used.insert(k);
            }
            None => problems.push(format!("{shown}: {lines} lines, over {max} (split it, or list it in {list_name} with a reason)")),
        }
    }
    (sizes, fns)
}

/// Every test target: the workspace package's `[[test]]` paths and the files `tests/all.rs` makes
/// modules of it, and each package's `tests/*.rs`.
fn test_targets(root: &Path) -> Vec<String> {
    let manifest = fs::read_to_string(root.join("tests/Cargo.toml")).expect("tests/Cargo.toml");
    let mut out: Vec<String> = manifest.lines().filter_map(|l| l.trim().strip_prefix("path = \"")).filter_map(|p| p.strip_suffix('"')).filter(|p| *p != "support.rs").map(|p| format!("tests/{p}")).collect();
    out.extend(merged_modules(root, "tests").iter().map(|m| format!("tests/{m}.rs")));
    for pkg in ["generator", "check", "engine", "cli", "guard", "xtask", "examples", "examples/conformance"] {
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
    // A parent names its child without `self::` (a use and a call); a re-export and `::b` (an external crate) do not count.
    assert_eq!(edges(&src("a", "use b::Y;\nfn f() { self::b::z(); }"), &modules).into_iter().collect::<Vec<_>>(), ["a::b"]);
    assert!(edges(&src("a", "pub use b::Y;\npub(crate) use b::{Z};\nfn f() { ::b::z(); x.b::<u8>(); }"), &modules).is_empty());
    assert_eq!(edges(&src("crate", "mod c;\nfn main() { c::run(); }"), &modules).into_iter().collect::<Vec<_>>(), ["c"]);

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

#[test]
fn crates_forbid_unsafe_code_and_each_unsafe_says_why() {
    let root = root();
    let roots = crate_roots(&root);
    let mut problems: Vec<String> = roots.iter().filter_map(|r| root_problem(r, &fs::read_to_string(root.join(r)).unwrap_or_default())).collect();
    let files = rust_files(&root);
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

/// The hand-written Rust of [`TEST_FOLDERS`] (generated goldens and installed packages left out).
fn test_sources(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in TEST_FOLDERS {
        for p in rust_files(&root.join(dir)) {
            let rel = p.strip_prefix(root).expect("under the root").to_string_lossy().replace('\\', "/");
            let text = fs::read_to_string(&p).unwrap_or_default();
            if text.lines().next().is_some_and(|l| l.contains("@generated")) {
                continue;
            }
            out.push((rel, text));
        }
    }
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// Test files and functions within the limits, or listed with a reason.
#[test]
fn test_files_and_functions_are_measured_like_the_crates() {
    let root = root();
    let files = test_sources(&root);
    let mut problems = Vec::new();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let (_, fns) = lengths(files.iter().map(|(p, t)| (p.as_str(), t.as_str())), [(LONG_TEST_FILES, "LONG_TEST_FILES"), (LONG_TEST_FNS, "LONG_TEST_FNS")], &mut used, &mut problems);
    let fns = fns.len();
    println!("tidy: {} test files, {} lines, {fns} functions, {} problems", files.len(), files.iter().map(|f| f.1.lines().count()).sum::<usize>(), problems.len());
    if std::env::var_os("MCP_TIDY_ROOT").is_some() {
        return;
    }
    for (k, _) in LONG_TEST_FILES.iter().chain(LONG_TEST_FNS) {
        if !used.contains(k) {
            problems.push(format!("allowlist entry `{k}` matches nothing any more: remove it"));
        }
    }
    assert!(problems.is_empty(), "{} tidy problem(s):\n  {}", problems.len(), problems.join("\n  "));
}

/// Every hand-written Rust file, crates and tests alike, opens with its `//!` doc.
#[test]
fn every_rust_file_opens_with_what_it_is_for() {
    let root = root();
    let mut files: Vec<(String, String)> = CRATES.iter().flat_map(|(_, dirs)| sources(&root, dirs)).map(|s| (s.path, s.text)).collect();
    files.extend(test_sources(&root));
    let missing: Vec<&str> = files.iter().filter(|(_, text)| docs::lacks_module_doc(text)).map(|(p, _)| p.as_str()).collect();
    println!("tidy: {} Rust files, {} without a `//!` doc", files.len(), missing.len());
    assert!(missing.is_empty(), "{} file(s) without a `//!` doc before their first item (say what the file is for):\n  {}", missing.len(), missing.join("\n  "));
}

/// Each path a design document names is a file or folder of the tree (or listed as outside it).
#[test]
fn design_documents_name_only_paths_that_exist() {
    let root = root();
    let tree = docs::tree(&root);
    let mut missing = Vec::new();
    let mut named = 0;
    for doc in DESIGN_DOCS {
        let text = fs::read_to_string(root.join(doc)).expect(doc);
        for p in docs::named_paths(&text) {
            named += 1;
            if !docs::resolves(&p, &tree) && !docs::PATHS_OUTSIDE_THE_TREE.iter().any(|(k, _)| *k == p) {
                missing.push(format!("{doc}: `{p}`"));
            }
        }
    }
    println!("tidy: {named} paths named in {DESIGN_DOCS:?}, {} not in the tree of {} files and folders", missing.len(), tree.len());
    assert!(missing.is_empty(), "{} path(s) named in a design document that are not in the tree (fix the document, or list them in PATHS_OUTSIDE_THE_TREE with why):\n  {}", missing.len(), missing.join("\n  "));
}

/// The document checks see a missing doc, a placeholder and a path given from its crate.
#[test]
fn document_checks_see_docs_placeholders_and_crate_relative_paths() {
    assert!(docs::lacks_module_doc("use std::fs;\n//! late\n"));
    assert!(!docs::lacks_module_doc("// SPDX\n#![forbid(unsafe_code)]\n//! Says what.\nuse std::fs;\n"));
    assert_eq!(docs::named_paths("see `a/b.rs`, `src/<x>.rs`, `tools/list`, `x::y.rs`, `dir/` and `a/b.rs`"), ["a/b.rs", "dir/"]);
    let tree = vec!["check/".to_string(), "check/src/".to_string(), "check/src/session/mod.rs".to_string()];
    assert!(docs::resolves("session/mod.rs", &tree) && docs::resolves("src/", &tree) && !docs::resolves("fast.rs", &tree));
}

/// Each crate's section of ARCHITECTURE.md's code map has a table row for every hand-written
/// source file (or its folder), and no row naming what is not there.
#[test]
fn code_map_tables_name_every_hand_written_file() {
    let root = root();
    let doc = fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let tree = docs::tree(&root);
    let mut problems = Vec::new();
    let (mut files_seen, mut rows_seen) = (0, 0);
    for (name, dirs) in CRATES {
        let Some((_, heading)) = docs::CODE_MAP.iter().find(|(n, _)| n == name) else {
            problems.push(format!("crate `{name}` has no code map section in docs::CODE_MAP"));
            continue;
        };
        let Some(section) = docs::section(&doc, heading) else {
            problems.push(format!("ARCHITECTURE.md has no section `{heading}`"));
            continue;
        };
        let mut bases: Vec<String> = dirs.iter().map(|d| d.to_string()).collect();
        bases.extend(docs::named_paths(heading).into_iter().take(1).map(|p| p.trim_end_matches('/').to_string()));
        let files: Vec<String> = sources(&root, dirs).into_iter().map(|s| s.path).collect();
        let rows = docs::row_paths(section).len();
        println!("{heading}: {rows} paths in table rows, {} hand-written files ({} of them unit tests)", files.len(), files.iter().filter(|f| docs::is_unit_test(f)).count());
        files_seen += files.len();
        rows_seen += rows;
        problems.extend(docs::code_map_problems(section, &bases, &files, &tree).into_iter().map(|p| format!("ARCHITECTURE.md, {}: {p}", heading.trim_start_matches("### "))));
    }
    println!("tidy: {rows_seen} code map rows' paths, {files_seen} hand-written files, {} problems", problems.len());
    assert!(problems.is_empty(), "{} code map problem(s):\n  {}", problems.len(), problems.join("\n  "));
}

/// The code map check on a small document: a file without a row, a row naming nothing, a folder row.
#[test]
fn code_map_check_sees_missing_rows_and_rows_naming_nothing() {
    let doc = "### `x/`\n\nWhat x is.\n\n| File | What it does |\n|---|---|\n| `lib.rs` | The root. |\n| `a/`, `gone.rs` | Parts. |\n\n### `y/`\n| `b.rs` | Not x's. |\n";
    let section = docs::section(doc, "### `x/`").expect("a section");
    assert_eq!(docs::row_paths(section), ["lib.rs", "a/", "gone.rs"]);
    let tree: Vec<String> = ["x/", "x/src/", "x/src/lib.rs", "x/src/a/", "x/src/a/one.rs", "x/src/b.rs", "x/src/b/tests.rs"].iter().map(|s| s.to_string()).collect();
    let files: Vec<String> = ["x/src/lib.rs", "x/src/a/one.rs", "x/src/b.rs", "x/src/b/tests.rs"].iter().map(|s| s.to_string()).collect();
    let bases = ["x/src".to_string(), "x".to_string()];
    assert_eq!(docs::code_map_problems(section, &bases, &files, &tree), ["row `gone.rs` names nothing under x/src or x", "`x/src/b.rs` has no row (add one: its path and what it does)"]);
    assert!(docs::code_map_problems("| `src/lib.rs`, `src/a/`, `src/b.rs` | All. |\n", &bases, &files, &tree).is_empty());
}
