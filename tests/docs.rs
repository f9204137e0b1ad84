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
    let crate_readme = std::fs::read_to_string(root.join("generated/README.md")).expect("generated/README.md");
    let tested = rust_blocks(&crate_readme);
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
    assert!(untested.is_empty(), "these blocks are not blocks of generated/README.md (doc-tested):\n{}", untested.join("\n"));
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
