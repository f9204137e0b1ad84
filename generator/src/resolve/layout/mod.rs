//! The layout pass, last in resolve: decisions about the generated code that need the
//! whole type space, made on the IR so that the emitters only write them out.
//!
//! - which unions are read by keys, and how ([`Layout::keyed`], from `keyed`);
//! - which types need a key-only score ([`Layout::scored`]);
//! - which types a module re-exports from the module it shares with ([`Layout::shared`], from `share`);
//! - how the types of adjacent protocol versions pair up and convert ([`Layout::convert`], from `convert`);
//! - which members are boxed ([`recursive_member`], [`boxed_by_config`]) and every field's
//!   Rust name ([`field_rust_name`]), answered on demand from the IR and the config.

mod boxing;
mod convert;
mod keyed;
mod share;

use crate::config::Config;
use crate::ir::*;

pub use boxing::{boxed_by_config, contains_by_value, recursive_member};
pub use crate::resolve::checks::field_rust_name;
pub use keyed::DEPTH;

/// Decides the layout of a resolved type space.
pub fn decide(space: &TypeSpace, config: &Config) -> Layout {
    let mut layout = Layout { scored: keyed::scored_members(space), ..Layout::default() };
    for m in &space.modules {
        for item in &m.items {
            if let ItemKind::Union(u) = &item.kind {
                if keyed::eligible(space, u) {
                    layout.keyed.insert(TypeRef { module: m.name.clone(), name: item.name.clone() }, keyed::keyed_union(space, u));
                }
            }
        }
    }
    // Sharing compares what was decided above, so it comes last.
    for m in &space.modules {
        let home = config.modules.iter().find(|c| c.name == m.name).and_then(|c| c.share_with.as_deref()).and_then(|h| space.module(h));
        if let Some(home) = home {
            let shared = share::shared_items(&layout, config, m, home);
            layout.shared.insert(m.name.clone(), shared);
        }
    }
    // Conversions pair types at their home module, so they follow sharing.
    layout.convert = convert::plan(space, config, &layout.shared);
    layout
}
