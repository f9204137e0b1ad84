//! Stage 4: the type space -> Rust source files.

mod accessors;
mod convert;
mod ctx;
mod docs;
mod enums;
mod items;
mod keyed;
mod manifest;
mod prose;
mod structs;
mod tables;
mod unions;
mod validate;


use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use proc_macro2::TokenStream;

use crate::config::Config;
use crate::ir::TypeSpace;

pub use manifest::{FEATURES_BEGIN, FEATURES_END};

/// One output of the generator: a file of the generated crate, relative to its root
/// (`src/v2025_11_25.rs`), or the generated block of a hand-written one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: String,
    pub contents: String,
    pub part: Part,
}

/// How much of a file the generator owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// All of it; it starts with the `@generated` header.
    Whole,
    /// The lines from [`FEATURES_BEGIN`] to [`FEATURES_END`], which `contents` holds with the
    /// markers; the rest of the file is hand-written and left as it is.
    Block,
}

impl GeneratedFile {
    /// What the file should hold, given what it holds now (`None` when it does not exist).
    /// Fails, naming the file and the marker, when a block's markers are missing or repeated.
    pub fn merged(&self, current: Option<&str>) -> Result<String, String> {
        if self.part == Part::Whole {
            return Ok(self.contents.clone());
        }
        let current = current.ok_or_else(|| format!("{}: missing; it is hand-written, with a generated block", self.path))?.replace("\r\n", "\n");
        let marker_line = |marker: &str| {
            let mut at = current.match_indices(marker).filter(|&(i, _)| i == 0 || current.as_bytes()[i - 1] == b'\n').map(|(i, _)| i);
            match (at.next(), at.next()) {
                (Some(i), None) => Ok(i),
                (None, _) => Err(format!("{}: no line `{marker}`; the generated block goes between that line and its partner", self.path)),
                (Some(_), Some(_)) => Err(format!("{}: the line `{marker}` appears more than once", self.path)),
            }
        };
        let begin = marker_line(FEATURES_BEGIN)?;
        let end = marker_line(FEATURES_END)?;
        if end < begin {
            return Err(format!("{}: `{FEATURES_END}` comes before `{FEATURES_BEGIN}`", self.path));
        }
        let after = current[end..].find('\n').map_or(current.len(), |n| end + n + 1);
        Ok(format!("{}{}{}", &current[..begin], self.contents, &current[after..]))
    }
}

/// Formatted items by their token text. Modules built from the same schema (a
/// version and `draft`, `draft` and its overlay) emit mostly identical items; each
/// is parsed and printed once. `OnceLock` makes a second thread wait for the first.
type ItemCache = Mutex<HashMap<String, Arc<OnceLock<String>>>>;

pub fn emit(space: &TypeSpace, config: &Config) -> Vec<GeneratedFile> {
    // Building and formatting tokens is nearly all of codegen's time, and the modules are
    // independent: spread them over threads (tokens are not `Send`, so each job does both).
    // Results land in their slots, so the output does not depend on scheduling.
    let jobs = space.modules.len() + 1;
    let slots: Vec<Mutex<Option<String>>> = (0..jobs).map(|_| Mutex::new(None)).collect();
    let cache = ItemCache::default();
    // Largest modules first, so no thread is left with a big one at the end.
    let mut order: Vec<usize> = (0..jobs).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(space.modules.get(i).map_or(0, |m| m.items.len())));
    let next = AtomicUsize::new(0);
    let work = || loop {
        let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
        let contents = match space.modules.get(i) {
            Some(m) => format_module(&format!("from `{}`", m.source), items::module(space, config, m), &cache),
            None => format!(
                "{}{}{}",
                header(&format!("from {}, included by src/lib.rs", crate::config::CONFIG_PATH)),
                format_tokens(manifest::modules_rs(space, config)),
                manifest::for_each_module(space, config)
            ),
        };
        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(contents);
    };
    // MCP_CODEGEN_THREADS overrides the count (1: serial, for comparing timings).
    let threads = std::env::var("MCP_CODEGEN_THREADS").ok().and_then(|n| n.parse().ok()).unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, jobs);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        work();
        for h in handles {
            // A panic in a worker (an emitter bug) is re-raised here with its message.
            if let Err(p) = h.join() {
                std::panic::resume_unwind(p);
            }
        }
    });
    let mut contents = slots.into_iter().map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()).expect("every job ran"));
    let whole = |path: String, contents: String| GeneratedFile { path, contents, part: Part::Whole };
    let mut files: Vec<GeneratedFile> = space.modules.iter().map(|m| whole(format!("src/{}.rs", m.name), contents.next().expect("one per module"))).collect();
    files.push(whole("src/modules.rs".into(), contents.next().expect("modules.rs")));
    files.push(GeneratedFile { path: "Cargo.toml".into(), contents: manifest::features_block(space, config), part: Part::Block });
    files.extend(convert::files(space, config));
    files
}

fn header(what: &str) -> String {
    format!("// @generated by `cargo xtask codegen` {what}. Do not edit.\n\n")
}

/// prettyplease ends every item with a forced line break, so formatting the items
/// of a file one at a time and joining the text gives the same file.
fn format_module(what: &str, m: items::ModuleTokens, cache: &ItemCache) -> String {
    let mut out = header(what);
    out.push_str(&format_tokens(m.head));
    for (text, tokens) in m.items {
        let cell = cache.lock().unwrap_or_else(|e| e.into_inner()).entry(text.clone()).or_default().clone();
        out.push_str(cell.get_or_init(|| format_shown(tokens, || text)));
    }
    out.push_str(&format_tokens(m.tail));
    out
}

fn format_tokens(tokens: TokenStream) -> String {
    let shown = tokens.clone();
    format_shown(tokens, || shown.to_string())
}

/// `shown` gives the tokens' text for the panic, so callers that have it need not clone the tokens.
fn format_shown(tokens: TokenStream, shown: impl FnOnce() -> String) -> String {
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        // A bug in the emitter, not in the input: show the tokens so it can be found.
        Err(e) => panic!("emitter produced invalid Rust ({e}):\n{}", shown()),
    }
}
