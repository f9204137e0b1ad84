//! The generated modules as a reader of their rendered docs sees them (issue 18): every public
//! type has a real summary, every public field and variant has a doc line, a tagged union's
//! variants name their wire value, the serde machinery is hidden and no lint attribute sits on
//! a public function. Reads the committed files with `syn`, so it needs no doc build.

use std::fmt::Write as _;

use mcp_schema_tests::workspace_root;
use syn::{Attribute, Fields, ImplItem, Item, Visibility};

/// The generated module files (the hand-written ones are checked by `cargo doc -D warnings`).
fn generated_modules() -> Vec<(String, syn::File)> {
    let dir = workspace_root().join("generated/src/generated");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("generated/src/generated") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        // `modules.rs` is the table of modules, included by the root: no schema types.
        if !text.starts_with("// @generated") || path.file_name().is_some_and(|n| n == "modules.rs") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.push((name, syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "expected every generated module, found {}", out.len());
    out
}

/// The doc text of an item, its lines joined.
fn doc(attrs: &[Attribute]) -> String {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &a.meta {
            if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value {
                out.push(s.value().trim().to_string());
            }
        }
    }
    out.join("\n")
}

fn hidden(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("doc") && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "hidden"))
}

fn public(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

/// A summary that says what the type is, not only that it is internal.
fn real_summary(doc: &str) -> bool {
    let first = doc.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    !first.is_empty() && !first.starts_with("Marked `@internal`")
}

fn path_text(p: &syn::Path) -> String {
    p.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::")
}

fn self_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => path_text(&p.path),
        _ => String::new(),
    }
}

/// What a reader would miss, one line each, and how many of each kind.
#[derive(Default)]
struct Findings {
    lines: Vec<String>,
    types_without_summary: usize,
    fields_without_docs: usize,
    variants_without_docs: usize,
    fields: usize,
    types: usize,
    /// Per file: public types without a summary, public fields without docs, public fields.
    per_file: Vec<(String, usize, usize, usize)>,
}

fn check(files: &[(String, syn::File)]) -> Findings {
    let mut f = Findings::default();
    for (file, ast) in files {
        let before = (f.types_without_summary, f.fields_without_docs, f.fields);
        // Tagged unions: the enums with an `impl __p::Tagged`; their variants must name a wire value.
        let tagged: Vec<String> = ast
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Impl(imp) if imp.trait_.as_ref().is_some_and(|(_, p, _)| path_text(p) == "__p::Tagged") => Some(self_name(&imp.self_ty)),
                _ => None,
            })
            .collect();
        for item in &ast.items {
            match item {
                Item::Struct(s) if public(&s.vis) && !hidden(&s.attrs) => {
                    f.types += 1;
                    if !real_summary(&doc(&s.attrs)) {
                        f.types_without_summary += 1;
                        f.lines.push(format!("{file}: struct {} has no summary", s.ident));
                    }
                    if let Fields::Named(named) = &s.fields {
                        for field in named.named.iter().filter(|x| public(&x.vis)) {
                            f.fields += 1;
                            if doc(&field.attrs).is_empty() {
                                f.fields_without_docs += 1;
                                f.lines.push(format!("{file}: field {}.{} has no docs", s.ident, field.ident.as_ref().unwrap()));
                            }
                        }
                    }
                }
                Item::Enum(e) if public(&e.vis) && !hidden(&e.attrs) => {
                    f.types += 1;
                    if !real_summary(&doc(&e.attrs)) {
                        f.types_without_summary += 1;
                        f.lines.push(format!("{file}: enum {} has no summary", e.ident));
                    }
                    let is_tagged = tagged.contains(&e.ident.to_string());
                    for v in &e.variants {
                        let d = doc(&v.attrs);
                        if d.is_empty() {
                            f.variants_without_docs += 1;
                            f.lines.push(format!("{file}: variant {}::{} has no docs", e.ident, v.ident));
                        } else if is_tagged && v.ident != "Unknown" && !(d.starts_with('`') || d.starts_with("no `") || d.starts_with("any other `")) {
                            f.lines.push(format!("{file}: variant {}::{} does not start with its wire value: {d:?}", e.ident, v.ident));
                        }
                    }
                }
                Item::Type(t) if public(&t.vis) && !hidden(&t.attrs) => {
                    f.types += 1;
                    if !real_summary(&doc(&t.attrs)) {
                        f.types_without_summary += 1;
                        f.lines.push(format!("{file}: type {} has no summary", t.ident));
                    }
                }
                Item::Const(c) if public(&c.vis) && doc(&c.attrs).is_empty() => f.lines.push(format!("{file}: const {} has no docs", c.ident)),
                Item::Fn(func) if public(&func.vis) && doc(&func.attrs).is_empty() => f.lines.push(format!("{file}: fn {} has no docs", func.sig.ident)),
                Item::Impl(imp) => {
                    let name = self_name(&imp.self_ty);
                    if let Some((_, p, _)) = &imp.trait_ {
                        // Impls of the runtime's private traits (and of `KeyedCheck`, which extends one)
                        // would list the machinery on every type's page.
                        let t = path_text(p);
                        if (t.starts_with("__p::") || t == "__v::KeyedCheck") && !hidden(&imp.attrs) && !name.starts_with("__") {
                            f.lines.push(format!("{file}: impl {t} for {name} is not #[doc(hidden)]"));
                        }
                    }
                    for ii in &imp.items {
                        if let ImplItem::Fn(func) = ii {
                            if func.attrs.iter().any(|a| a.path().is_ident("allow")) {
                                f.lines.push(format!("{file}: {name}::{} carries an #[allow] (lint noise in the rendered source)", func.sig.ident));
                            }
                            if public(&func.vis) && imp.trait_.is_none() && doc(&func.attrs).is_empty() {
                                f.lines.push(format!("{file}: fn {name}::{} has no docs", func.sig.ident));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        f.per_file.push((file.clone(), f.types_without_summary - before.0, f.fields_without_docs - before.1, f.fields - before.2));
    }
    f
}

#[test]
fn every_public_item_of_a_generated_module_is_documented() {
    let files = generated_modules();
    let f = check(&files);
    let mut summary = String::new();
    let _ = write!(
        summary,
        "{} public types, {} without a real summary; {} public fields, {} without docs; {} variants without docs",
        f.types, f.types_without_summary, f.fields, f.fields_without_docs, f.variants_without_docs
    );
    eprintln!("{summary}");
    for (file, types, fields, all) in &f.per_file {
        eprintln!("  {file}: {types} types without a summary, {fields} of {all} fields without docs");
    }
    let shown: Vec<&String> = f.lines.iter().take(60).collect();
    assert!(f.lines.is_empty(), "{summary}; {} findings, the first:\n{}", f.lines.len(), shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
}

#[test]
fn the_checker_notices_what_is_missing() {
    let src = r#"
        /// Marked `@internal` in the schema.
        pub struct A { pub x: i64, /// Documented.
        pub y: i64 }
        /// A tagged union.
        pub enum U { /// [`A`]
        A(A) }
        impl __p::Tagged for U {}
        impl __p::Shape for A {}
        impl A {
            /// Makes one.
            #[allow(clippy::too_many_arguments)]
            pub fn new() -> Self { todo!() }
        }
    "#;
    let f = check(&[("x.rs".into(), syn::parse_file(src).unwrap())]);
    let text = f.lines.join("\n");
    for expected in ["struct A has no summary", "field A.x has no docs", "variant U::A does not start with its wire value", "impl __p::Shape for A is not #[doc(hidden)]", "impl __p::Tagged for U is not #[doc(hidden)]", "A::new carries an #[allow]"] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert_eq!(f.lines.len(), 6, "{text}");
}

/// The Rust blocks of a Markdown text, without rustdoc's hidden (`# `) lines.
fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match &mut current {
            None if line.starts_with("```rust") => current = Some(String::new()),
            Some(block) if line == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) if line != "#" && !line.starts_with("# ") => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

/// Every Rust block of README.md and of the guides in docs/ is a block of the crate's README,
/// whose doc tests compile and run them: the documentation cannot show code that does not build.
#[test]
fn the_readmes_and_guides_rust_blocks_are_doc_tested_in_the_crates_readme() {
    let root = workspace_root();
    // The crates' READMEs are their front pages, doc-tested: the types' and the engine's.
    let mut tested = Vec::new();
    for readme in ["generated/README.md", "engine/README.md"] {
        tested.extend(rust_blocks(&std::fs::read_to_string(root.join(readme)).expect(readme)));
    }
    let mut documents = vec![root.join("README.md")];
    let mut guides: Vec<_> = std::fs::read_dir(root.join("docs")).expect("docs/").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    guides.sort();
    documents.extend(guides);
    let (mut checked, mut untested) = (0, Vec::new());
    for path in &documents {
        let text = std::fs::read_to_string(path).expect("a document");
        for block in rust_blocks(&text) {
            checked += 1;
            if !tested.contains(&block) {
                untested.push(format!("{}:\n{block}", path.display()));
            }
        }
    }
    println!("{} passed, {} failed ({} documents)", checked - untested.len(), untested.len(), documents.len());
    assert!(checked >= 5, "README.md and docs/ show {checked} Rust blocks; the reading, answering, validating, server and client examples are expected");
    assert!(untested.is_empty(), "these blocks are not blocks of generated/README.md or engine/README.md (doc-tested):\n{}", untested.join("\n"));
}

/// The crate README is the docs.rs front page and the registry's: its title and first line name this
/// package (`mcp-spec-types`, library `mcp_spec_types`), not another crate's name.
#[test]
fn the_crate_readme_is_titled_by_its_package() {
    let root = workspace_root();
    let manifest = std::fs::read_to_string(root.join("generated/Cargo.toml")).expect("generated/Cargo.toml");
    let name = manifest.lines().find_map(|l| l.strip_prefix("name = \"")).and_then(|l| l.strip_suffix('"')).expect("[package] name");
    let readme = std::fs::read_to_string(root.join("generated/README.md")).expect("generated/README.md");
    let mut lines = readme.lines().filter(|l| !l.is_empty());
    assert_eq!(lines.next(), Some(format!("# {name}").as_str()), "generated/README.md's title");
    let first = lines.next().unwrap_or_default();
    let lib = name.replace('-', "_");
    assert!(first.starts_with(&format!("`{name}` (library `{lib}`)")), "generated/README.md's first line names the package and library: {first}");
}

/// The paths a Rust block names in the crate: `mcp_spec_types::a::B`, each leaf of a `use` group
/// (`{self as mcp, B}`), and `alias::C` for an alias such a group makes. A turbofish or a call ends
/// a path.
fn crate_paths(code: &str, krate: &str) -> Vec<Vec<String>> {
    fn ident_at(b: &[u8], at: usize) -> usize {
        at + b[at.min(b.len())..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count()
    }
    fn skip_ws(b: &[u8], mut at: usize) -> usize {
        while b.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        at
    }
    /// Reads a path (or use tree) at `at` below `prefix`; records leaves and aliases.
    fn tree(b: &[u8], mut at: usize, prefix: &[String], out: &mut Vec<Vec<String>>, aliases: &mut Vec<(String, Vec<String>)>) -> usize {
        let mut segs = prefix.to_vec();
        loop {
            at = skip_ws(b, at);
            if b.get(at) == Some(&b'{') {
                at += 1;
                loop {
                    at = skip_ws(b, tree(b, at, &segs, out, aliases));
                    match b.get(at) {
                        Some(b',') => at += 1,
                        Some(b'}') => return at + 1,
                        _ => return at,
                    }
                    if skip_ws(b, at) < b.len() && b[skip_ws(b, at)] == b'}' {
                        return skip_ws(b, at) + 1;
                    }
                }
            }
            let end = ident_at(b, at);
            if end == at {
                break; // `*`, `<` or the end
            }
            let name = String::from_utf8_lossy(&b[at..end]).into_owned();
            at = end;
            if name == "self" {
                out.push(segs.clone()); // `{self, ..}`: the module itself
            } else {
                segs.push(name);
            }
            if b.get(at..at + 2) == Some(b"::") {
                at += 2;
                continue;
            }
            let after = skip_ws(b, at);
            if b.get(after..after + 3) == Some(b"as ") {
                let alias_start = skip_ws(b, after + 3);
                let alias_end = ident_at(b, alias_start);
                aliases.push((String::from_utf8_lossy(&b[alias_start..alias_end]).into_owned(), segs.clone()));
                at = alias_end;
            }
            break;
        }
        if segs.len() > prefix.len() {
            out.push(segs);
        }
        at
    }
    let b = code.as_bytes();
    let boundary = |i: usize| i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
    let (mut out, mut aliases) = (Vec::new(), Vec::new());
    for (i, m) in code.match_indices(&format!("{krate}::")) {
        if boundary(i) {
            tree(b, i + m.len(), &[], &mut out, &mut aliases);
        }
    }
    for (alias, target) in aliases.clone() {
        let head = format!("{alias}::");
        for (i, _) in code.match_indices(&head) {
            if boundary(i) {
                tree(b, i + head.len(), &target, &mut out, &mut Vec::new());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The crate's module tree read from its sources with `syn`: each item with the folder its file
/// sits in (where `#[path]` is relative to) and the folder its `mod x;` children live in.
struct Tree {
    src: std::path::PathBuf,
    /// Each file's items, parsed once (the generated modules are large).
    parsed: std::cell::RefCell<std::collections::HashMap<std::path::PathBuf, std::rc::Rc<Items>>>,
}

type Items = Vec<(Item, std::path::PathBuf, std::path::PathBuf)>;

impl Tree {
    fn new(src: std::path::PathBuf) -> Tree {
        Tree { src, parsed: Default::default() }
    }

    fn file(&self, path: &std::path::Path) -> std::rc::Rc<Items> {
        if let Some(items) = self.parsed.borrow().get(path) {
            return items.clone();
        }
        let items = std::rc::Rc::new(self.parse(path));
        self.parsed.borrow_mut().insert(path.to_path_buf(), items.clone());
        items
    }

    /// A module file's items; `include!`d files' items join them, their children in their own folder.
    fn parse(&self, path: &std::path::Path) -> Items {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let dir = path.parent().expect("a folder").to_path_buf();
        let child_dir = if path.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs") { dir.clone() } else { dir.join(path.file_stem().expect("a name")) };
        let mut out = Vec::new();
        for item in file.items {
            if let Item::Macro(m) = &item {
                if m.mac.path.is_ident("include") {
                    let lit: syn::LitStr = m.mac.parse_body().expect("include!(\"file\")");
                    let included = dir.join(lit.value());
                    let here = included.parent().expect("a folder").to_path_buf();
                    let text = std::fs::read_to_string(&included).expect("the included file");
                    out.extend(syn::parse_file(&text).expect("parses").items.into_iter().map(|i| (i, here.clone(), here.clone())));
                    continue;
                }
            }
            out.push((item, dir.clone(), child_dir.clone()));
        }
        out
    }

    fn module(&self, m: &syn::ItemMod, file_dir: &std::path::Path, child_dir: &std::path::Path) -> std::rc::Rc<Items> {
        if let Some((_, items)) = &m.content {
            let dir = child_dir.join(m.ident.to_string());
            return std::rc::Rc::new(items.iter().cloned().map(|i| (i, file_dir.to_path_buf(), dir.clone())).collect());
        }
        let path_attr = m.attrs.iter().find(|a| a.path().is_ident("path")).and_then(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        });
        let name = m.ident.to_string();
        let path = match path_attr {
            Some(p) => file_dir.join(p),
            None if child_dir.join(format!("{name}.rs")).exists() => child_dir.join(format!("{name}.rs")),
            None => child_dir.join(&name).join("mod.rs"),
        };
        self.file(&path)
    }

    /// Where `segs` leads from the module `items` (its path `here`): `Ok` when every module on the
    /// way (when `visible` is asked) and the item are public and not `#[doc(hidden)]`. Items below a
    /// type (variants, associated functions) are on the type's page.
    fn find(&self, items: &[(Item, std::path::PathBuf, std::path::PathBuf)], here: &[String], segs: &[String], visible: bool, depth: usize) -> Result<(), String> {
        let Some((first, rest)) = segs.split_first() else { return Ok(()) };
        if depth > 16 {
            return Err(format!("`{first}`: re-exports go round"));
        }
        let mut globs = Vec::new();
        let mut unseen_module = None;
        for (item, file_dir, child_dir) in items {
            let (ident, vis, attrs) = match item {
                Item::Struct(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Enum(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Trait(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Type(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Fn(i) => (&i.sig.ident, &i.vis, &i.attrs),
                Item::Const(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Static(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Union(i) => (&i.ident, &i.vis, &i.attrs),
                Item::Mod(m) if m.ident == first => {
                    if visible && (!public(&m.vis) || hidden(&m.attrs)) {
                        // A function of the same name may be re-exported from it (`pub use connect::connect`).
                        unseen_module = Some(format!("module `{first}` is {}", if hidden(&m.attrs) { "#[doc(hidden)]" } else { "private" }));
                        continue;
                    }
                    let mut path = here.to_vec();
                    path.push(first.clone());
                    return self.find(&self.module(m, file_dir, child_dir), &path, rest, visible, depth + 1);
                }
                Item::Use(u) if public(&u.vis) || !visible => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
                    for (name, target) in leaves {
                        if name == "*" {
                            globs.push((target, hidden(&u.attrs)));
                        } else if name == *first {
                            if hidden(&u.attrs) {
                                return Err(format!("the re-export of `{first}` is #[doc(hidden)]"));
                            }
                            return self.follow(here, &target, rest, depth);
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            if ident == first {
                return match () {
                    _ if !public(vis) => Err(format!("`{first}` is not public")),
                    _ if hidden(attrs) => Err(format!("`{first}` is #[doc(hidden)]")),
                    _ => Ok(()),
                };
            }
        }
        for (target, glob_hidden) in globs {
            if !glob_hidden {
                let mut path = target.clone();
                path.push(first.clone());
                if self.follow(here, &path, rest, depth).is_ok() {
                    return Ok(());
                }
            }
        }
        if let Some(e) = unseen_module {
            return Err(e);
        }
        Err(format!("no item `{first}` in `{}`", if here.is_empty() { "crate".to_string() } else { here.join("::") }))
    }

    /// A re-export's target, from the module `here`: its own modules need not be public (the
    /// docs show the item where it is re-exported), the item must be.
    fn follow(&self, here: &[String], target: &[String], rest: &[String], depth: usize) -> Result<(), String> {
        let mut abs: Vec<String> = match target.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self") => here.to_vec(),
            Some("super") => here[..here.len().saturating_sub(1)].to_vec(),
            _ => here.to_vec(),
        };
        abs.extend(target.iter().skip_while(|s| matches!(s.as_str(), "crate" | "self" | "super")).cloned());
        abs.extend(rest.iter().cloned());
        let root = self.file(&self.src.join("lib.rs"));
        self.find(&root, &[], &abs, false, depth + 1)
    }
}

/// Each name a `use` tree brings in (`*` for a glob) with the path it names.
fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push((n.ident.to_string(), [prefix.clone(), vec![n.ident.to_string()]].concat())),
        syn::UseTree::Rename(r) => out.push((r.rename.to_string(), [prefix.clone(), vec![r.ident.to_string()]].concat())),
        syn::UseTree::Glob(_) => out.push(("*".to_string(), prefix.clone())),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_leaves(t, prefix, out)),
    }
}

/// Every item the READMEs' examples name (`README.md`'s and `generated/README.md`'s Rust blocks:
/// `mcp_spec_types::...` paths, `use` lines and their aliases) has a page in the crate's docs:
/// it and the modules on its path are public and not `#[doc(hidden)]`, or it is re-exported
/// where it is named. Read from the sources with `syn` (rustdoc's JSON output needs a nightly
/// toolchain); a name the sources do not have fails too.
#[test]
fn every_item_the_readmes_name_has_a_docs_page() {
    let root = workspace_root();
    let mut named = 0;
    let mut problems = Vec::new();
    // Each crate with the READMEs whose examples use it: the types and the engine built on them.
    for (krate, src, readmes) in [
        ("mcp_spec_types", "generated/src", ["README.md", "generated/README.md", "engine/README.md"]),
        ("mcp_spec_engine", "engine/src", ["README.md", "generated/README.md", "engine/README.md"]),
    ] {
        let tree = Tree::new(root.join(src));
        let crate_root = tree.file(&tree.src.join("lib.rs"));
        for readme in readmes {
            let text = std::fs::read_to_string(root.join(readme)).expect("a README");
            for block in rust_blocks(&text) {
                for path in crate_paths(&block, krate) {
                    named += 1;
                    if let Err(e) = tree.find(&crate_root, &[], &path, true, 0) {
                        problems.push(format!("{readme}: {krate}::{}: {e}", path.join("::")));
                    }
                }
            }
        }
    }
    println!("the READMEs' examples name {named} items of the crates");
    assert!(named >= 20, "the READMEs' examples name {named} items; expected more");
    assert!(problems.is_empty(), "{} item(s) the READMEs name have no docs page:\n{}", problems.len(), problems.join("\n"));
}

/// The path reading and the resolver see what they must: groups, aliases, turbofish, a hidden
/// item, a private module and a name the crate does not have.
#[test]
fn the_readme_name_check_notices_hidden_private_and_missing_items() {
    let paths = crate_paths("use mcp_spec_types::v2025_11_25::{self as mcp, CallToolResult, Tool};\nlet x = mcp::ServerResult::EmptyResult(Default::default());\nmcp_spec_types::from_slice::<T>(b);\nuse mcp_spec_types::runtime::{Message, RpcError};", "mcp_spec_types");
    let text: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    for want in ["v2025_11_25", "v2025_11_25::CallToolResult", "v2025_11_25::Tool", "v2025_11_25::ServerResult::EmptyResult", "from_slice", "runtime::Message", "runtime::RpcError"] {
        assert!(text.contains(&want.to_string()), "{want} not in {text:?}");
    }
    let tree = Tree::new(workspace_root().join("generated/src"));
    let root = tree.file(&tree.src.join("lib.rs"));
    let find = |p: &str| tree.find(&root, &[], &p.split("::").map(String::from).collect::<Vec<_>>(), true, 0);
    for ok in ["runtime::Message::Request", "from_slice", "WriteJson", "validate::validate_json", "v2025_11_25::ClientMessage"] {
        assert_eq!(find(ok), Ok(()), "{ok}");
    }
    assert!(find("runtime::__private::Raw").unwrap_err().contains("#[doc(hidden)]"));
    assert!(find("validate::KeyedCheck").unwrap_err().contains("#[doc(hidden)]"));
    assert!(find("read::from_slice").unwrap_err().contains("#[doc(hidden)]"));
    let engine = Tree::new(workspace_root().join("engine/src"));
    let engine_root = engine.file(&engine.src.join("lib.rs"));
    let find_engine = |p: &str| engine.find(&engine_root, &[], &p.split("::").map(String::from).collect::<Vec<_>>(), true, 0);
    assert_eq!(find_engine("Server"), Ok(()));
    assert!(find_engine("wire::line").unwrap_err().contains("private"));
    assert!(find("runtime::NoSuchThing").unwrap_err().contains("no item"));
}
