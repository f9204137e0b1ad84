//! The context every emitter works in: one module of the type space, and how its code
//! names types, literals and docs.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs;
use crate::config::{Config, CONFIG_PATH};
use crate::ir::*;
use crate::names::{builder_ident, type_ident};
use crate::parse::Literal;
use crate::resolve::layout;

/// One module being written, with the type space and config it reads from.
pub(super) struct Ctx<'a> {
    pub(super) space: &'a TypeSpace,
    pub(super) config: &'a Config,
    pub(super) module: &'a Module,
    /// Names the module's docs can link to.
    pub(super) linkable: BTreeSet<String>,
    /// Types re-exported from the module this one shares with; their impls come with them.
    pub(super) shared: BTreeSet<String>,
}

impl<'a> Ctx<'a> {
    /// The Rust identifier of a schema type (see `[[rename]]`).
    pub(super) fn ident(&self, schema_name: &str) -> proc_macro2::Ident {
        type_ident(self.config.rust_type_name(schema_name))
    }

    pub(super) fn new(space: &'a TypeSpace, config: &'a Config, module: &'a Module) -> Self {
        let mut linkable: BTreeSet<String> = module.items.iter().map(|i| i.name.clone()).collect();
        for (_, names) in &module.uses {
            linkable.extend(names.iter().cloned());
        }
        // A renamed type's schema name resolves to something else in Rust (`Result`: the prelude's).
        linkable.retain(|n| config.rust_type_name(n) == n);
        Ctx { space, config, module, linkable, shared: BTreeSet::new() }
    }

    /// This module's type of that name.
    pub(super) fn here(&self, name: &str) -> TypeRef {
        TypeRef { module: self.module.name.clone(), name: name.to_string() }
    }

    /// How the union `item` of this module is read by keys, if it is.
    pub(super) fn keyed(&self, item: &Item) -> Option<&'a KeyedUnion> {
        self.space.layout.keyed.get(&self.here(&item.name))
    }

    /// Whether the item comes with a hidden `__{Name}Builder` that other items' code names.
    pub(super) fn has_builder(&self, item: &Item) -> bool {
        match &item.kind {
            ItemKind::Struct(_) => true,
            ItemKind::Union(u) => matches!(u.dispatch, Dispatch::Tag(_)) || self.keyed(item).is_some(),
            _ => false,
        }
    }

    pub(super) fn docs(&self, doc: &crate::parse::Doc) -> Vec<String> {
        let linkable = &self.linkable;
        docs::render(doc, &|n: &str| linkable.contains(n))
    }

    pub(super) fn deprecated(doc: &crate::parse::Doc) -> TokenStream {
        match docs::deprecation(doc) {
            Some(note) => quote! { #[deprecated = #note] },
            None => quote! {},
        }
    }

    /// A path to a named type from inside this module.
    pub(super) fn type_path(&self, r: &TypeRef, builder: bool) -> TokenStream {
        let ident = if builder { builder_ident(&r.name) } else { self.ident(&r.name) };
        if r.module == self.module.name {
            quote! { #ident }
        } else {
            let m = format_ident!("{}", r.module);
            quote! { crate::#m::#ident }
        }
    }

    pub(super) fn rust_ty(&self, ty: &Ty) -> TokenStream {
        match ty {
            Ty::String => quote! { String },
            Ty::Integer => quote! { i64 },
            Ty::Number => quote! { serde_json::Number },
            Ty::Boolean => quote! { bool },
            Ty::Null => quote! { () },
            Ty::Value => quote! { serde_json::Value },
            Ty::Object => quote! { __rt::JsonObject },
            Ty::Named(r) => self.type_path(r, false),
            Ty::Binding(b) => {
                let t: syn::Type = syn::parse_str(b).unwrap_or_else(|e| panic!("{CONFIG_PATH}: binding `{b}` is not a Rust type: {e}"));
                quote! { #t }
            }
            Ty::Array(inner) => {
                let inner = self.rust_ty(inner);
                quote! { Vec<#inner> }
            }
            Ty::Map(inner) => {
                let inner = self.rust_ty(inner);
                quote! { BTreeMap<String, #inner> }
            }
            Ty::Nullable(inner) => {
                let inner = self.rust_ty(inner);
                quote! { __rt::Nullable<#inner> }
            }
        }
    }

    /// Whether a member of `owner` of type `ty` is boxed because it would contain `owner` itself.
    pub(super) fn recursive(&self, owner: &TypeRef, ty: &Ty) -> bool {
        layout::recursive_member(self.space, owner, ty)
    }

    /// The Rust type of a field or variant of `owner`, boxed where it would otherwise contain `owner` itself.
    pub(super) fn member_ty(&self, owner: &str, ty: &Ty) -> TokenStream {
        let t = self.rust_ty(ty);
        if self.recursive(&self.here(owner), ty) {
            quote! { Box<#t> }
        } else {
            t
        }
    }

    /// Whether a field of `owner` is boxed only because configuration stores its type boxed ([[boxed]]),
    /// not already for recursion.
    pub(super) fn boxed_by_config(&self, owner: &str, ty: &Ty) -> bool {
        layout::boxed_by_config(self.space, self.config, &self.here(owner), ty)
    }

    /// The Rust type of a struct field: [`Self::member_ty`], also boxed where configuration says so.
    pub(super) fn field_ty(&self, owner: &str, ty: &Ty) -> TokenStream {
        if self.boxed_by_config(owner, ty) {
            let t = self.rust_ty(ty);
            quote! { Box<#t> }
        } else {
            self.member_ty(owner, ty)
        }
    }

    /// How each member's builder `b` finishes into the union's variant: boxed where the member holds the union.
    pub(super) fn member_finishes(&self, item: &Item, u: &Union) -> Vec<TokenStream> {
        let me = self.here(&item.name);
        u.variants
            .iter()
            .map(|v| {
                if self.recursive(&me, &v.ty) {
                    quote! { Box::new(__p::Builder::finish(b)?) }
                } else {
                    quote! { __p::Builder::finish(b)? }
                }
            })
            .collect()
    }

    pub(super) fn module_of(&self, item: &Item) -> String {
        self.space
            .modules
            .iter()
            .find(|m| m.items.iter().any(|i| std::ptr::eq(i, item)))
            .map(|m| m.name.clone())
            .unwrap_or_else(|| self.module.name.clone())
    }
}

pub(super) fn doc_attrs(lines: &[String]) -> TokenStream {
    let lines = lines.iter().map(|l| format!(" {l}").trim_end().to_string());
    quote! { #(#[doc = #lines])* }
}

/// A number literal as an integer when it is one, else as a float.
pub(super) fn number(n: &str) -> Result<i64, f64> {
    n.parse::<i64>().map_err(|_| n.parse::<f64>().unwrap_or(f64::NAN))
}

pub(super) fn lit_tokens(l: &Literal) -> TokenStream {
    match l {
        Literal::Str(s) => quote! { __p::Lit::Str(#s) },
        Literal::Num(n) => match number(n) {
            Ok(i) => quote! { __p::Lit::Int(#i) },
            Err(f) => quote! { __p::Lit::Float(#f) },
        },
        Literal::Bool(b) => quote! { __p::Lit::Bool(#b) },
    }
}

/// The value a literal field writes.
pub(super) fn lit_value(l: &Literal) -> TokenStream {
    match l {
        Literal::Str(s) => quote! { #s },
        Literal::Num(n) => match number(n) {
            Ok(i) => quote! { &#i },
            Err(f) => quote! { &#f },
        },
        Literal::Bool(b) => quote! { &#b },
    }
}
