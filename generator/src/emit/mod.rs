//! Stage 4: the type space -> Rust source files.

mod accessors;
mod convert;
mod ctx;
mod docs;
mod enums;
mod items;
mod keyed;
mod manifest;
mod output;
mod prose;
mod structs;
mod tables;
mod unions;
mod validate;
mod write_json;


use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};


use crate::config::Config;
use crate::ir::TypeSpace;

pub use manifest::{FEATURES_BEGIN, FEATURES_END, GENERATED_DIR};
pub use output::{GeneratedFile, Part};
use output::{format_shown, format_tokens, header};

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
    let conversions = std::thread::scope(|scope| {
        // The conversions between versions read only the type space: they run beside the modules.
        let conversions = (threads > 1).then(|| scope.spawn(|| convert::files(space, config)));
        let handles: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        work();
        for h in handles {
            // A panic in a worker (an emitter bug) is re-raised here with its message.
            if let Err(p) = h.join() {
                std::panic::resume_unwind(p);
            }
        }
        match conversions {
            Some(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            None => convert::files(space, config),
        }
    });
    let mut contents = slots.into_iter().map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()).expect("every job ran"));
    let whole = |path: String, contents: String| GeneratedFile { path, contents, part: Part::Whole };
    let mut files: Vec<GeneratedFile> = space.modules.iter().map(|m| whole(format!("{GENERATED_DIR}/{}.rs", m.name), contents.next().expect("one per module"))).collect();
    files.push(whole(format!("{GENERATED_DIR}/modules.rs"), contents.next().expect("modules.rs")));
    files.push(GeneratedFile { path: "Cargo.toml".into(), contents: manifest::features_block(space, config), part: Part::Block });
    files.extend(conversions);
    files
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
