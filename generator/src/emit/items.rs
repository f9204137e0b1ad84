//! Items of one module: structs, enums, unions, aliases and constants, each with
//! hand-rolled serde impls, then the module's tables. Each kind is written by its own
//! file (`structs`, `enums`, `unions`, `tables`); this one puts a module together.

use proc_macro2::{Literal as Lit, TokenStream};
use quote::{format_ident, quote};

use super::ctx::{doc_attrs, number, Ctx};
use crate::config::Config;
use crate::ir::*;
use crate::names::builder_ident;
use crate::parse::Literal;

/// A module's tokens in three parts, so the emitter can format items one by one
/// (and reuse the text of an item another module already emitted identically).
pub struct ModuleTokens {
    /// Inner attributes, `use`s and `SCHEMA_LABEL`.
    pub head: TokenStream,
    /// One entry per schema item, each with its tokens as text (the cache key).
    pub items: Vec<(String, TokenStream)>,
    /// The method registry and the `dynamic` table.
    pub tail: TokenStream,
}

pub fn module(space: &TypeSpace, config: &Config, module: &Module) -> ModuleTokens {
    let mut cx = Ctx::new(space, config, module);
    let home = config.modules.iter().find(|m| m.name == module.name).and_then(|m| m.share_with.as_deref()).and_then(|h| space.module(h));
    cx.shared = space.layout.shared.get(&module.name).cloned().unwrap_or_default();
    let title = format!(" {}", module.title);
    let label = config.modules.iter().find(|m| m.name == module.name).map(|m| m.label().to_string()).unwrap_or_default();
    let source = format!(" Generated from `{}` (pinned in `schema/pins.toml`).", module.source);
    let uses = module.uses.iter().map(|(m, names)| {
        let m = format_ident!("{}", m);
        let names = names.iter().map(|n| cx.ident(n));
        quote! { pub use crate::#m::{#(#names),*}; }
    });
    let items: Vec<(String, TokenStream)> = module.items.iter().filter(|i| !cx.shared.contains(&i.name)).map(|i| cx.item(i)).map(|t| (t.to_string(), t)).collect();
    let reexports = match home {
        Some(home) if !cx.shared.is_empty() => {
            let h = format_ident!("{}", home.name);
            let names = module.items.iter().filter(|i| cx.shared.contains(&i.name)).flat_map(|i| {
                let builder = cx.has_builder(i).then(|| builder_ident(&i.name));
                std::iter::once(cx.ident(&i.name)).chain(builder)
            });
            let note = format!(" {} of this schema's {} types are the same as [`crate::{}`]'s and are re-exported from there (they are compiled once; their docs link to that version's pages).", cx.shared.len(), module.items.len(), home.name);
            (
                quote! {
                    #![doc = ""]
                    #![doc = #note]
                },
                quote! {
                    // Everything a module's code names may come from the shared module.
                    #![allow(unused_imports)]
                    #[doc(no_inline)]
                    pub use crate::#h::{#(#names),*};
                },
            )
        }
        _ => (quote! {}, quote! {}),
    };
    let (reexport_doc, reexports) = reexports;
    let registry = cx.registry();
    let envelopes = cx.envelopes();
    let dynamic = cx.dynamic();
    let codes = cx.error_codes();
    let uses_map = module.items.iter().filter(|i| !cx.shared.contains(&i.name)).any(names_map);
    let map_use = if uses_map { quote! { use std::collections::BTreeMap; } } else { quote! {} };
    let head = quote! {
        #![doc = #title]
        #![doc = ""]
        #![doc = #source]
        #reexport_doc
        // Once here rather than on each `new`, where it would show in the rendered source.
        #![allow(deprecated, clippy::large_enum_variant, clippy::upper_case_acronyms, clippy::too_many_arguments)]
        #reexports

        #map_use
        use crate::runtime::{self as __rt, __private as __p};
        use crate::read::fast as __f;
        use crate::validate as __v;
        #(#uses)*

        /// How validation messages name this schema.
        pub const SCHEMA_LABEL: &str = #label;
    };
    ModuleTokens { head, items, tail: quote! { #codes #envelopes #registry #dynamic } }
}

impl<'a> Ctx<'a> {
    pub(super) fn item(&self, item: &Item) -> TokenStream {
        let mut lines = self.docs(&item.doc);
        // Without a description of its own (an `@internal` type, say), the first line rustdoc shows
        // as the summary would be a note; say what the type is instead.
        if item.doc.summary().trim().is_empty() {
            let summary = match &item.origin {
                Origin::Inline { parent, path } => format!("The inline type of [`{parent}`]`.{path}`."),
                Origin::Declared { .. } => {
                    let s = self.derived_summary(item);
                    s[..1].to_uppercase() + &s[1..]
                }
            };
            if !lines.is_empty() {
                lines.insert(0, String::new());
            }
            lines.insert(0, summary);
        }
        if let Some(r) = self.config.renames.iter().find(|r| r.type_name == item.name) {
            lines.push(String::new());
            lines.push(format!("The schema's `{}`, named `{}` in Rust: {}.", item.name, r.rust, r.reason));
        }
        match &item.kind {
            ItemKind::Struct(s) => {
                let code = self.structure(item, s, lines);
                let check = self.validate_struct(item, s);
                let answers = self.error_response_impls(item, s);
                quote! { #code #check #answers }
            }
            ItemKind::StringEnum(e) => {
                lines.extend(self.ordered_enum_doc(item, e));
                let code = self.string_enum(item, e, lines);
                let check = self.validate_enum(item, e);
                quote! { #code #check }
            }
            ItemKind::Union(u) => {
                let code = self.union(item, u, lines);
                let check = self.validate_union(item, u);
                let from = self.union_from_impls(item, u);
                let methods = self.method_accessors(item, u);
                quote! { #code #check #from #methods }
            }
            ItemKind::Alias(ty) => {
                let name = self.ident(&item.name);
                let ty = self.rust_ty(ty);
                let docs = doc_attrs(&lines);
                let dep = Self::deprecated(&item.doc);
                quote! { #docs #dep pub type #name = #ty; }
            }
            ItemKind::Const(l) => {
                let name = format_ident!("{}", item.name);
                let docs = doc_attrs(&lines);
                match l {
                    Literal::Str(s) => quote! { #docs pub const #name: &str = #s; },
                    Literal::Num(n) => match number(n) {
                        Ok(i) => {
                            let v = Lit::i64_unsuffixed(i);
                            quote! { #docs pub const #name: i64 = #v; }
                        }
                        Err(f) => {
                            let v = Lit::f64_unsuffixed(f);
                            quote! { #docs pub const #name: f64 = #v; }
                        }
                    },
                    Literal::Bool(b) => quote! { #docs pub const #name: bool = #b; },
                }
            }
        }
    }
}

/// Whether an item's code names `BTreeMap`: a map type anywhere in it, or a struct's typed rest.
fn names_map(item: &Item) -> bool {
    fn in_ty(ty: &Ty) -> bool {
        match ty {
            Ty::Map(_) => true,
            Ty::Array(inner) | Ty::Nullable(inner) => in_ty(inner),
            Ty::Binding(b) => b.contains("BTreeMap"),
            _ => false,
        }
    }
    match &item.kind {
        ItemKind::Struct(s) => s.rest != Ty::Value || s.fields.iter().any(|f| !f.never && f.literal.is_none() && in_ty(&f.ty)),
        ItemKind::Union(u) => u.variants.iter().any(|v| in_ty(&v.ty)),
        ItemKind::Alias(ty) => in_ty(ty),
        ItemKind::StringEnum(_) | ItemKind::Const(_) => false,
    }
}
