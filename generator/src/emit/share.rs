//! Types a module re-exports from the module it shares with (`share_with` in
//! `schema/codegen.toml`) instead of compiling them a second time.
//!
//! A type is shared when its emitted code, docs aside, is the same in both modules,
//! and so is every type of the module it refers to (its fields, members, and for a
//! request its result): otherwise the same text would name different types.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{TokenStream, TokenTree};

use super::items::Ctx;
use crate::ir::*;

pub(super) fn shared_items(home: &Ctx, here: &Ctx) -> BTreeSet<String> {
    let home_items: BTreeMap<&str, &Item> = home.module.items.iter().map(|i| (i.name.as_str(), i)).collect();
    let mut shared: BTreeSet<String> = here
        .module
        .items
        .iter()
        .filter(|i| home_items.get(i.name.as_str()).is_some_and(|h| without_docs(here.item(i)) == without_docs(home.item(h))))
        .map(|i| i.name.clone())
        .collect();
    let refs: BTreeMap<&str, BTreeSet<String>> = here.module.items.iter().map(|i| (i.name.as_str(), refs_of(here.module, i))).collect();
    // Drop a type whose references are not all shared, until nothing changes.
    loop {
        let before = shared.len();
        let keep: BTreeSet<String> = shared.iter().filter(|n| refs[n.as_str()].iter().all(|r| shared.contains(r))).cloned().collect();
        shared = keep;
        if shared.len() == before {
            return shared;
        }
    }
}

/// The names of this module's types that an item's code refers to.
fn refs_of(module: &Module, item: &Item) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |ty: &Ty| collect(module, ty, &mut out);
    match &item.kind {
        ItemKind::Struct(s) => {
            s.fields.iter().for_each(|f| add(&f.ty));
            add(&s.rest);
        }
        ItemKind::Union(u) => u.variants.iter().for_each(|v| add(&v.ty)),
        ItemKind::Alias(t) => add(t),
        ItemKind::StringEnum(_) | ItemKind::Const(_) => {}
    }
    // A request's `RequestMethod::Result` comes with the shared type.
    for r in module.requests.iter().filter(|r| r.type_name == item.name) {
        if let Some(result) = &r.result {
            collect(module, result, &mut out);
        }
    }
    out
}

fn collect(module: &Module, ty: &Ty, out: &mut BTreeSet<String>) {
    match ty {
        Ty::Named(r) if r.module == module.name => {
            out.insert(r.name.clone());
        }
        Ty::Array(t) | Ty::Map(t) | Ty::Nullable(t) => collect(module, t, out),
        _ => {}
    }
}

/// The tokens as text, `#[doc = ...]` attributes left out.
fn without_docs(tokens: TokenStream) -> String {
    strip(tokens).to_string()
}

fn strip(tokens: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                if let Some(TokenTree::Group(g)) = iter.peek() {
                    if matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc") {
                        iter.next();
                        continue;
                    }
                }
                out.push(TokenTree::Punct(p));
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), strip(g.stream()));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// Whether the item comes with a hidden `__{Name}Builder` that other items' code names.
pub(super) fn has_builder(space: &TypeSpace, item: &Item) -> bool {
    match &item.kind {
        ItemKind::Struct(_) => true,
        ItemKind::Union(u) => matches!(u.dispatch, Dispatch::Tag(_)) || super::keyed::eligible(space, u),
        _ => false,
    }
}
