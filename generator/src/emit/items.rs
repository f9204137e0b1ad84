//! Items of one module: structs, enums, unions, aliases, constants, and the
//! method registry, each with hand-rolled serde impls.

use proc_macro2::{Literal as Lit, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeSet;

use super::docs;
use crate::names::{builder_ident, type_ident, value_variant};
use crate::config::{Config, CONFIG_PATH};
use crate::ir::*;
use crate::resolve::layout::{self, field_rust_name};
use crate::parse::Literal;

pub(super) struct Ctx<'a> {
    pub(super) space: &'a TypeSpace,
    pub(super) config: &'a Config,
    pub(super) module: &'a Module,
    /// Names the module's docs can link to.
    pub(super) linkable: BTreeSet<String>,
    /// Types re-exported from the module this one shares with; their impls come with them.
    pub(super) shared: BTreeSet<String>,
}

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

impl<'a> Ctx<'a> {
    /// The Rust identifier of a schema type (see `[[rename]]`).
    pub(super) fn ident(&self, schema_name: &str) -> proc_macro2::Ident {
        type_ident(self.config.rust_type_name(schema_name))
    }

    fn new(space: &'a TypeSpace, config: &'a Config, module: &'a Module) -> Self {
        let mut linkable: BTreeSet<String> = module.items.iter().map(|i| i.name.clone()).collect();
        for (_, names) in &module.uses {
            linkable.extend(names.iter().cloned());
        }
        // A renamed type's schema name resolves to something else in Rust (`Result`: the prelude's).
        linkable.retain(|n| config.rust_type_name(n) == n);
        Ctx { space, config, module, linkable, shared: BTreeSet::new() }
    }
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
    let uses_map = items.iter().any(|(text, _)| text.contains("BTreeMap"));
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
        use crate::validate as __v;
        #(#uses)*

        /// How validation messages name this schema.
        pub const SCHEMA_LABEL: &str = #label;
    };
    ModuleTokens { head, items, tail: quote! { #codes #envelopes #registry #dynamic } }
}

fn doc_attrs(lines: &[String]) -> TokenStream {
    let lines = lines.iter().map(|l| format!(" {l}").trim_end().to_string());
    quote! { #(#[doc = #lines])* }
}

/// A number literal as an integer when it is one, else as a float.
fn number(n: &str) -> Result<i64, f64> {
    n.parse::<i64>().map_err(|_| n.parse::<f64>().unwrap_or(f64::NAN))
}

/// How the registry tables name a type: its schema name, or the JSON kind of an unnamed one.
fn registry_name(ty: &Ty) -> String {
    match ty {
        Ty::Named(r) => r.name.clone(),
        Ty::String => "string".into(),
        Ty::Integer => "integer".into(),
        Ty::Number => "number".into(),
        Ty::Boolean => "boolean".into(),
        Ty::Null => "null".into(),
        Ty::Object | Ty::Map(_) => "object".into(),
        Ty::Array(_) => "array".into(),
        Ty::Value | Ty::Binding(_) | Ty::Nullable(_) => "value".into(),
    }
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
fn lit_value(l: &Literal) -> TokenStream {
    match l {
        Literal::Str(s) => quote! { #s },
        Literal::Num(n) => match number(n) {
            Ok(i) => quote! { &#i },
            Err(f) => quote! { &#f },
        },
        Literal::Bool(b) => quote! { &#b },
    }
}

impl<'a> Ctx<'a> {
    fn docs(&self, doc: &crate::parse::Doc) -> Vec<String> {
        let linkable = &self.linkable;
        docs::render(doc, &|n: &str| linkable.contains(n))
    }

    fn deprecated(doc: &crate::parse::Doc) -> TokenStream {
        match docs::deprecation(doc) {
            Some(note) => quote! { #[deprecated = #note] },
            None => quote! {},
        }
    }

    /// A summary for a type the schema does not describe, from what the IR knows of it.
    fn derived_summary(&self, item: &Item) -> String {
        let what = docs::with_article(&docs::words(&item.name));
        let list = |xs: Vec<String>| match xs.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => xs.concat(),
        };
        match &item.kind {
            ItemKind::Union(u) => match &u.dispatch {
                Dispatch::Tag(t) => {
                    let mut values: Vec<String> = t.cases.iter().map(|(v, _)| format!("`{v}`")).collect();
                    if t.on_other.is_some() {
                        values.push("any other".to_string());
                    }
                    let by = if t.on_absent.is_some() { format!("`{}`, or its absence", t.field) } else { format!("`{}`", t.field) };
                    format!("{what}: one of {} (dispatched on {by}).", list(values))
                }
                Dispatch::Kind => format!("{what}: {} (dispatched on the JSON kind).", list(u.variants.iter().map(|v| self.ty_phrase(&v.ty)).collect())),
                Dispatch::Shape => format!("{what}: one of {} (dispatched on the keys present).", list(u.variants.iter().map(|v| self.ty_phrase(&v.ty)).collect())),
            },
            ItemKind::Struct(st) => {
                let keys: Vec<String> = st.fields.iter().filter(|f| !f.never).map(|f| format!("`{}`", f.name)).collect();
                if keys.is_empty() {
                    format!("{what} object.")
                } else if keys.len() == 1 {
                    format!("{what} object with the key {}.", keys[0])
                } else {
                    format!("{what} object with the keys {}.", list(keys).replace(" or ", " and "))
                }
            }
            ItemKind::StringEnum(e) => format!("{what}: {}.", list(e.values.iter().map(|v| format!("`{v:?}`")).collect())),
            ItemKind::Alias(ty) => format!("{what}: {}.", self.ty_phrase(ty)),
            ItemKind::Const(l) => format!("The schema's constant `{}`: `{}`.", item.name, l.describe()),
        }
    }

    /// What a value of `ty` is, for prose: "a string", "an array of [`Icon`]", "[`Role`] or `null`".
    pub(super) fn ty_phrase(&self, ty: &Ty) -> String {
        match ty {
            Ty::Array(inner) => format!("an array of {}", self.ty_plural(inner)),
            Ty::Map(inner) => format!("an object whose values are {}", self.ty_plural(inner)),
            Ty::Nullable(inner) => format!("{} or `null`", self.ty_phrase(inner)),
            Ty::Named(r) => self.ty_link(r),
            Ty::String => "a string".into(),
            Ty::Integer => "an integer".into(),
            Ty::Number => "a number".into(),
            Ty::Boolean => "a boolean".into(),
            Ty::Null => "`null`".into(),
            Ty::Value => "any JSON value".into(),
            Ty::Object => "a JSON object".into(),
            Ty::Binding(b) => format!("`{b}`"),
        }
    }

    fn ty_plural(&self, ty: &Ty) -> String {
        match ty {
            Ty::String => "strings".into(),
            Ty::Integer => "integers".into(),
            Ty::Number => "numbers".into(),
            Ty::Boolean => "booleans".into(),
            Ty::Value => "JSON values".into(),
            Ty::Object => "JSON objects".into(),
            Ty::Array(_) | Ty::Map(_) | Ty::Nullable(_) | Ty::Null | Ty::Binding(_) => format!("values of the form: {}", self.ty_phrase(ty)),
            Ty::Named(r) => self.ty_link(r),
        }
    }

    /// An intra-doc link to a named type, by its Rust name.
    fn ty_link(&self, r: &TypeRef) -> String {
        let ident = self.ident(&r.name);
        let imported = self.module.uses.iter().any(|(m, names)| *m == r.module && names.contains(&r.name));
        if r.module == self.module.name || imported {
            format!("[`{ident}`]")
        } else {
            format!("[`{ident}`](crate::{}::{ident})", r.module)
        }
    }

    /// A variant's doc line: for a tagged union the wire values that choose it, then the type.
    fn variant_doc(&self, u: &Union, i: usize) -> String {
        let v = &u.variants[i];
        let target = match &v.ty {
            Ty::Named(r) => self.ty_link(r),
            other => self.ty_phrase(other),
        };
        match &u.dispatch {
            Dispatch::Tag(t) => {
                let mut when: Vec<String> = t.cases.iter().filter(|(_, j)| *j == i).map(|(value, _)| format!("`{value}`")).collect();
                if t.on_absent == Some(i) {
                    when.push(format!("no `{}`", t.field));
                }
                if t.on_other == Some(i) {
                    when.push(format!("any other `{}`", t.field));
                }
                format!("{}: {target}", when.join(", "))
            }
            Dispatch::Kind => {
                let kind = format!("{:?}", self.space.kind_of(&v.ty)).to_lowercase();
                let kind = docs::with_article(&format!("JSON {kind}"));
                let kind = kind[..1].to_uppercase() + &kind[1..];
                match &v.ty {
                    Ty::Named(_) | Ty::Array(_) | Ty::Map(_) => format!("{kind}: {target}"),
                    _ => format!("{kind}."),
                }
            }
            // What the keys must show: `(with `content`)`, `(an object)`.
            Dispatch::Shape if self.space.struct_of(&v.ty).is_some() => format!("{target}{}", self.shape_hint(&v.ty, "")),
            Dispatch::Shape => target,
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
    fn boxed_by_config(&self, owner: &str, ty: &Ty) -> bool {
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

    fn defaultable(&self, ty: &Ty, seen: &mut BTreeSet<String>) -> bool {
        match self.space.deref(ty) {
            Ty::Named(r) => {
                if !seen.insert(r.name.clone()) {
                    return false;
                }
                match self.space.item(&r).map(|i| &i.kind) {
                    Some(ItemKind::Struct(s)) => s.fields.iter().all(|f| f.optional || f.literal.is_some() || f.never || self.defaultable(&f.ty, seen)),
                    _ => false,
                }
            }
            Ty::Nullable(_) | Ty::Null | Ty::Number | Ty::Binding(_) => false,
            _ => true,
        }
    }

    fn structure(&self, item: &Item, s: &Struct, mut lines: Vec<String>) -> TokenStream {
        let name = self.ident(&item.name);
        let name_str = &item.name;
        let builder = builder_ident(&item.name);
        let typed_rest = !matches!(s.rest, Ty::Value);
        let score_keys = self.struct_score_keys(item, s);
        let rest_ty = if typed_rest {
            let t = self.rust_ty(&s.rest);
            quote! { BTreeMap<String, #t> }
        } else {
            quote! { __rt::JsonObject }
        };
        let fixed: Vec<&Field> = s.fields.iter().filter(|f| f.literal.is_some() && !f.optional).collect();
        if !fixed.is_empty() {
            lines.push(String::new());
            let list: Vec<String> = fixed.iter().map(|f| format!("`\"{}\": {}`", f.name, f.literal.as_ref().unwrap().describe())).collect();
            lines.push(format!("Always carries {}: checked when read, written by `Serialize`.", list.join(", ")));
        }
        let never: Vec<String> = s.fields.iter().filter(|f| f.never).map(|f| format!("`{}`", f.name)).collect();
        if !never.is_empty() {
            lines.push(String::new());
            lines.push(format!("The schema types {} as `never`: the key must be absent. If present it is kept in `extra`.", never.join(", ")));
        }
        if !s.alternatives.is_empty() {
            lines.push(String::new());
            let alts: Vec<String> = s.alternatives.iter().map(|a| if a.is_empty() { "(none)".to_string() } else { a.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" + ") }).collect();
            lines.push(format!("The schema gives alternatives here; their required keys are: {}. One struct holds them all.", alts.join("; ")));
        }
        let docs = doc_attrs(&lines);
        let dep = Self::deprecated(&item.doc);

        let mut fields = Vec::new();
        let mut slots = Vec::new();
        let mut arms = Vec::new();
        let mut checks = Vec::new();
        let mut inits = Vec::new();
        let mut writes = Vec::new();
        let mut required_keys = Vec::new();
        let mut known_fits = Vec::new();
        let mut score_lits = Vec::new();
        let mut all_default = true;
        for f in &s.fields {
            let wire = &f.name;
            if f.never {
                // A forbidden key rules the struct out of a union wherever it is present.
                score_lits.push(quote! { (#wire, false, __p::Lit::OneOf(&[])) });
                continue;
            }
            let ident = format_ident!("{}", field_rust_name(self.config, &item.name, wire));
            let mut flines = self.docs(&f.doc);
            if flines.is_empty() {
                // An optional literal's flag gets its own line below.
                if f.literal.is_none() {
                    flines.push(docs::field_fallback(wire, &item.name, &self.ty_phrase(&f.ty)));
                }
            } else if let Some(note) = docs::key_note(wire, &ident.to_string()) {
                flines.push(String::new());
                flines.push(note);
            }
            if f.lenient.is_some() {
                if !flines.is_empty() {
                    flines.push(String::new());
                }
                flines.push("Required by the schema; `None` when a peer on an earlier version left it out (validation reports it).".to_string());
            }
            let fdocs = doc_attrs(&flines);
            let fdep = Self::deprecated(&f.doc);
            if let Some(l) = &f.literal {
                let flag = format_ident!("__lit_{}", ident.to_string().trim_start_matches("r#"));
                let lt = lit_tokens(l);
                let value = lit_value(l);
                let must = !f.optional;
                score_lits.push(quote! { (#wire, #must, #lt) });
                slots.push(quote! { #flag: bool, });
                arms.push(quote! { #wire => __p::literal(&mut self.#flag, #wire, #lt, src), });
                if f.optional {
                    let note = format!(" Whether `\"{wire}\": {}` is present (the schema makes it optional).", l.describe());
                    fields.push(quote! { #fdocs #[doc = #note] #fdep pub #ident: bool, });
                    inits.push(quote! { #ident: self.#flag, });
                    writes.push(quote! { if self.#ident { m.serialize_entry(#wire, #value)?; } });
                } else {
                    required_keys.push(wire.clone());
                    checks.push(quote! { __p::need_literal::<E>(self.#flag, #wire)?; });
                    writes.push(quote! { m.serialize_entry(#wire, #value)?; });
                }
                continue;
            }
            let ty = self.field_ty(&item.name, &f.ty);
            known_fits.push(quote! { (#wire, <#ty as __p::Shape>::fits as __p::Fit) });
            let is_value = matches!(f.ty, Ty::Value);
            if f.optional {
                fields.push(quote! { #fdocs #fdep pub #ident: Option<#ty>, });
                slots.push(quote! { #ident: Option<#ty>, });
                let is_nullable = matches!(f.ty, Ty::Nullable(_));
                let arm = if is_nullable {
                    quote! { #wire => __p::required(&mut self.#ident, #wire, src), }
                } else if is_value {
                    quote! { #wire => __p::optional_value(&mut self.#ident, #wire, src), }
                } else if typed_rest {
                    quote! { #wire => __p::required(&mut self.#ident, #wire, src), }
                } else {
                    quote! { #wire => __p::optional(&mut self.#ident, key, src, &mut self.extra), }
                };
                arms.push(arm);
                inits.push(quote! { #ident: self.#ident, });
                writes.push(quote! { if let Some(v) = &self.#ident { m.serialize_entry(#wire, v)?; } });
            } else {
                required_keys.push(wire.clone());
                all_default &= self.defaultable(&f.ty, &mut BTreeSet::from([item.name.clone()]));
                fields.push(quote! { #fdocs #fdep pub #ident: #ty, });
                slots.push(quote! { #ident: Option<#ty>, });
                arms.push(quote! { #wire => __p::required(&mut self.#ident, #wire, src), });
                inits.push(quote! { #ident: __p::need(self.#ident, #wire)?, });
                writes.push(quote! { m.serialize_entry(#wire, &self.#ident)?; });
            }
        }
        let extra_doc = if s.rest_declared {
            " Other keys, which the schema allows (index signature)."
        } else {
            " Keys this schema does not define, kept as received so they are written back."
        };
        let unknown_arm = if typed_rest {
            quote! { _ => __p::rest(&mut self.extra, key, src), }
        } else {
            quote! { _ => __p::unknown(&mut self.extra, key, src), }
        };
        let dispatch = if arms.is_empty() {
            if typed_rest { quote! { __p::rest(&mut self.extra, key, src) } } else { quote! { __p::unknown(&mut self.extra, key, src) } }
        } else {
            quote! {
                match key.as_str() {
                    #(#arms)*
                    #unknown_arm
                }
            }
        };
        let moves: Vec<TokenStream> = self
            .config
            .moved_fields
            .iter()
            .filter(|m| m.type_name == item.name && m.modules.contains(&self.module.name))
            .filter_map(|m| {
                let target = s.fields.iter().find(|f| f.name == m.into)?;
                let into = format_ident!("{}", field_rust_name(self.config, &item.name, &target.name));
                let key = &m.field;
                let slot = if target.optional { quote! { out.#into.as_mut() } } else { quote! { Some(&mut out.#into) } };
                Some(quote! {
                    if let (Some(target), Some(value)) = (#slot, out.extra.remove(#key)) {
                        if let Some(kept) = __p::move_into::<_, E>(target, #key, value)? {
                            out.extra.insert(#key.to_string(), kept);
                        }
                    }
                })
            })
            .collect();
        let finish_body = if moves.is_empty() {
            quote! { Ok(#name { #(#inits)* extra: self.extra }) }
        } else {
            quote! {
                let mut out = #name { #(#inits)* extra: self.extra };
                // Compatibility with the older form (see the type's docs).
                #(#moves)*
                Ok(out)
            }
        };
        let constructor = self.constructor(item, s);
        let derive_default = if all_default { quote! { Default, } } else { quote! {} };
        let schema_doc = format!(" Reads and writes `{name_str}` objects; see [`__p::Builder`].");
        quote! {
            #docs
            #dep
            #[derive(Debug, Clone, PartialEq, #derive_default)]
            pub struct #name {
                #(#fields)*
                #[doc = #extra_doc]
                pub extra: #rest_ty,
            }

            #[doc(hidden)]
            #[doc = #schema_doc]
            #[derive(Default)]
            pub struct #builder {
                #(#slots)*
                extra: #rest_ty,
            }

            #[doc(hidden)]
            impl __p::Builder for #builder {
                type Output = #name;
                fn field<'de, S: __p::FieldSource<'de>>(&mut self, key: __p::Key<'de>, src: S) -> ::core::result::Result<(), S::Error> {
                    #dispatch
                }
                fn finish<E: serde::de::Error>(self) -> ::core::result::Result<#name, E> {
                    #(#checks)*
                    #finish_body
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    __p::deserialize_struct::<D, #builder>(d, #name_str)
                }
            }

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                    use serde::ser::SerializeMap;
                    let mut m = s.serialize_map(None)?;
                    #(#writes)*
                    for (k, v) in &self.extra {
                        m.serialize_entry(k, v)?;
                    }
                    m.end()
                }
            }

            #constructor

            impl __rt::SchemaType for #name {
                fn schema_name(&self) -> &'static str { #name_str }
            }

            #[doc(hidden)]
            impl __p::Shape for #name {
                fn score(v: &serde_json::Value) -> Option<u32> {
                    __p::score_object(v, &[#(#required_keys),*], &[#(#known_fits),*], &[#(#score_lits),*])
                }
                fn fits(v: &serde_json::Value) -> Option<u32> {
                    __p::fits_object(v, &[#(#required_keys),*], &[#(#score_lits),*])
                }
                #score_keys
            }
        }
    }

    /// `new` with the required fields as arguments; optional fields absent (or, for a lenient field with a
    /// configured value, that value). Not generated when nothing is required: `Default` does that job.
    fn constructor(&self, item: &Item, s: &Struct) -> TokenStream {
        let name = self.ident(&item.name);
        let mut params = Vec::new();
        let mut inits = Vec::new();
        for f in s.fields.iter().filter(|f| !f.never) {
            let ident = format_ident!("{}", field_rust_name(self.config, &item.name, &f.name));
            if f.literal.is_some() {
                if f.optional {
                    inits.push(quote! { #ident: false });
                }
                continue;
            }
            if !f.optional {
                let ty = self.field_ty(&item.name, &f.ty);
                if matches!(f.ty, Ty::String) {
                    params.push(quote! { #ident: impl Into<String> });
                    inits.push(quote! { #ident: #ident.into() });
                } else if self.boxed_by_config(&item.name, &f.ty) {
                    // Stored boxed by configuration; the caller need not know.
                    let inner = self.rust_ty(&f.ty);
                    params.push(quote! { #ident: #inner });
                    inits.push(quote! { #ident: Box::new(#ident) });
                } else {
                    params.push(quote! { #ident: #ty });
                    inits.push(quote! { #ident });
                }
                continue;
            }
            let written = f.lenient.as_ref().and_then(|l| l.write.clone());
            match (written, &f.ty) {
                (Some(v), Ty::Named(r)) if matches!(self.space.item(r).map(|i| &i.kind), Some(ItemKind::StringEnum(_))) => {
                    let ty = self.rust_ty(&f.ty);
                    inits.push(quote! { #ident: Some(#ty::from_wire(#v)) });
                }
                _ => inits.push(quote! { #ident: None }),
            }
        }
        if params.is_empty() {
            return quote! {};
        }
        let doc = format!(" A `{}` with its required fields; the optional ones are absent.", item.name);
        quote! {
            impl #name {
                #[doc = #doc]
                pub fn new(#(#params),*) -> Self {
                    Self { #(#inits,)* extra: Default::default() }
                }
            }
        }
    }

    fn string_enum(&self, item: &Item, e: &StringEnum, lines: Vec<String>) -> TokenStream {
        let name = self.ident(&item.name);
        let name_str = &item.name;
        let docs = doc_attrs(&lines);
        let dep = Self::deprecated(&item.doc);
        let variants: Vec<_> = e.values.iter().map(|v| format_ident!("{}", value_variant(v))).collect();
        let values = &e.values;
        let value_docs = values.iter().map(|v| format!(" `{v:?}`"));
        let other_doc = if e.open {
            " Any other string, which the schema allows."
        } else {
            " A value this schema does not define, kept so that it is written back; validation reports it."
        };
        let expecting = format!("a {name_str} string");
        let open = e.open;
        quote! {
            #docs
            #dep
            #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #( #[doc = #value_docs] #variants, )*
                #[doc = #other_doc]
                Other(String),
            }

            impl #name {
                /// The value as written on the wire.
                pub fn as_str(&self) -> &str {
                    match self {
                        #( Self::#variants => #values, )*
                        Self::Other(s) => s,
                    }
                }

                /// The variant for a wire value (`Other` for one the schema does not name).
                pub fn from_wire(s: &str) -> Self {
                    match s {
                        #( #values => Self::#variants, )*
                        other => Self::Other(other.to_string()),
                    }
                }
            }

            impl std::fmt::Display for #name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                    s.serialize_str(self.as_str())
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let k = <__p::Key<'de> as serde::Deserialize>::deserialize(d).map_err(|e: D::Error| <D::Error as serde::de::Error>::custom(format_args!("expected {}: {e}", #expecting)))?;
                    Ok(Self::from_wire(k.as_str()))
                }
            }

            impl __rt::SchemaType for #name {
                fn schema_name(&self) -> &'static str { #name_str }
            }

            #[doc(hidden)]
            impl __p::Shape for #name {
                fn score(v: &serde_json::Value) -> Option<u32> {
                    v.as_str().map(|s| if !matches!(Self::from_wire(s), Self::Other(_)) { 2 } else if #open { 1 } else { 0 })
                }
            }
        }
    }

    fn union(&self, item: &Item, u: &Union, mut lines: Vec<String>) -> TokenStream {
        let name = self.ident(&item.name);
        let dep = Self::deprecated(&item.doc);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let vtys: Vec<_> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        let has_unknown = matches!(&u.dispatch, Dispatch::Tag(t) if t.on_other.is_none());
        let how = match &u.dispatch {
            Dispatch::Kind => "Read by the JSON kind of the value.".to_string(),
            Dispatch::Tag(t) => {
                let mut s = format!("Read by `{}`, before any other field.", t.field);
                if let Some(i) = t.on_absent {
                    s.push_str(&format!(" Without `{}` it is [`{}`](Self::{}).", t.field, u.variants[i].name, u.variants[i].name));
                }
                if has_unknown {
                    s.push_str(&format!(" A `{}` this schema does not define is kept in [`Unknown`](Self::Unknown).", t.field));
                }
                s
            }
            Dispatch::Shape if self.keyed(item).is_some() => "Read by the keys present, without buffering a tree: a key only one variant names decides at once (unless a variant takes any object); otherwise the variants whose required keys are all there are tried, those that name most of the keys first, and the first that reads the object wins.".to_string(),
            Dispatch::Shape => "Read by the keys present: the variant whose required keys are all there and that knows most of the keys wins.".to_string(),
        };
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(how);
        lines.extend(self.union_from_doc(item, u));
        let docs = doc_attrs(&lines);
        let variant_docs: Vec<String> = (0..u.variants.len()).map(|i| format!(" {}", self.variant_doc(u, i))).collect();
        let unknown_variant = if has_unknown {
            let Dispatch::Tag(t) = &u.dispatch else { unreachable!() };
            let d = format!(" An object whose `{}` this schema does not define, kept as received.", t.field);
            quote! { #[doc = #d] Unknown(__rt::JsonObject), }
        } else {
            quote! {}
        };
        let unknown_ser = if has_unknown { quote! { Self::Unknown(v) => serde::Serialize::serialize(v, s), } } else { quote! {} };
        let unknown_name = if has_unknown { quote! { Self::Unknown(_) => "Unknown", } } else { quote! {} };
        let score_keys = self.union_score_keys(item, u);
        let de = match &u.dispatch {
            Dispatch::Tag(t) => self.tagged_impl(item, u, t, has_unknown),
            Dispatch::Kind => self.kind_impl(item, u),
            Dispatch::Shape => self.shape_impl(item, u),
        };
        let me = Ty::Named(TypeRef { module: self.module.name.clone(), name: item.name.clone() });
        let eq_hash = if self.hashable(&me, 0) { quote! { Eq, Hash, } } else { quote! {} };
        quote! {
            #docs
            #dep
            #[derive(Debug, Clone, PartialEq, #eq_hash)]
            pub enum #name {
                #( #[doc = #variant_docs] #vnames(#vtys), )*
                #unknown_variant
            }

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                    match self {
                        #( Self::#vnames(v) => serde::Serialize::serialize(v, s), )*
                        #unknown_ser
                    }
                }
            }

            impl __rt::SchemaType for #name {
                fn schema_name(&self) -> &'static str {
                    match self {
                        #( Self::#vnames(v) => __rt::SchemaType::schema_name(v), )*
                        #unknown_name
                    }
                }
            }

            #[doc(hidden)]
            impl __p::Shape for #name {
                fn score(v: &serde_json::Value) -> Option<u32> {
                    [#( <#vtys as __p::Shape>::score(v) ),*].into_iter().flatten().max()
                }
                fn fits(v: &serde_json::Value) -> Option<u32> {
                    [#( <#vtys as __p::Shape>::fits(v) ),*].into_iter().flatten().max()
                }
                #score_keys
            }

            #de
        }
    }

    fn tagged_impl(&self, item: &Item, u: &Union, t: &Tag, has_unknown: bool) -> TokenStream {
        let name = self.ident(&item.name);
        let builder = builder_ident(&item.name);
        let field = &t.field;
        let expecting = format!("a {} object, chosen by `{}`", item.name, t.field);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let vbuilders: Vec<_> = u.variants.iter().map(|v| self.builder_path(&v.ty)).collect();
        let is_union: Vec<bool> = u.variants.iter().map(|v| self.space.union_of(&v.ty).is_some()).collect();
        let finishes = self.member_finishes(item, u);
        let make = |i: usize, tag: TokenStream| -> TokenStream {
            let v = &vnames[i];
            let b = &vbuilders[i];
            if is_union[i] {
                let inner = self.rust_ty(&u.variants[i].ty);
                quote! { #builder::#v(<#inner as __p::Tagged>::builder_for(#tag)?) }
            } else {
                quote! { #builder::#v(#b::default()) }
            }
        };
        let cases = t.cases.iter().map(|(value, i)| {
            let mk = make(*i, quote! { tag });
            quote! { Some(#value) => #mk, }
        });
        let other = match t.on_other {
            Some(i) => {
                let mk = make(i, quote! { tag });
                quote! { Some(_) => #mk, }
            }
            None => quote! { Some(_) => #builder::Unknown(__rt::JsonObject::new()), },
        };
        let absent = match t.on_absent {
            Some(i) => {
                let mk = make(i, quote! { None });
                quote! { None => #mk, }
            }
            None => quote! { None => return None, },
        };
        let knows = if t.on_other.is_some() {
            quote! { let _ = tag; true }
        } else {
            let values = t.cases.iter().map(|(v, _)| v);
            quote! { matches!(tag, #(#values)|*) }
        };
        let tag_arms = u.variants.iter().enumerate().map(|(i, v)| {
            let vn = &vnames[i];
            let values: Vec<&str> = t.cases.iter().filter(|(_, j)| *j == i).map(|(v, _)| v.as_str()).collect();
            let _ = v;
            if is_union[i] {
                quote! { Self::#vn(inner) => inner.tag(), }
            } else if values.len() == 1 && t.on_other != Some(i) && t.on_absent != Some(i) {
                let value = values[0];
                quote! { Self::#vn(_) => Some(#value), }
            } else {
                // An open or default member: the value is the one it holds.
                let access = self.tag_access(&item.name, &u.variants[i].ty, field);
                quote! { Self::#vn(v) => #access, }
            }
        });
        let unknown_tag = if has_unknown { quote! { Self::Unknown(m) => m.get(#field).and_then(|t| t.as_str()), } } else { quote! {} };
        let tag_doc = format!(" The `{}` of the value held, when it is fixed by the variant or was read into `Unknown`.", t.field);
        let unknown_builder = if has_unknown { quote! { Unknown(__rt::JsonObject), } } else { quote! {} };
        let unknown_field = if has_unknown { quote! { Self::Unknown(m) => __p::unknown(m, key, src), } } else { quote! {} };
        let unknown_finish = if has_unknown { quote! { Self::Unknown(m) => #name::Unknown(m), } } else { quote! {} };
        quote! {
            #[doc(hidden)]
            pub enum #builder {
                #( #vnames(#vbuilders), )*
                #unknown_builder
            }

            #[doc(hidden)]
            impl __p::Builder for #builder {
                type Output = #name;
                fn field<'de, S: __p::FieldSource<'de>>(&mut self, key: __p::Key<'de>, src: S) -> ::core::result::Result<(), S::Error> {
                    match self {
                        #( Self::#vnames(b) => __p::Builder::field(b, key, src), )*
                        #unknown_field
                    }
                }
                fn finish<E: serde::de::Error>(self) -> ::core::result::Result<#name, E> {
                    Ok(match self {
                        #( Self::#vnames(b) => #name::#vnames(#finishes), )*
                        #unknown_finish
                    })
                }
            }

            impl #name {
                #[doc = #tag_doc]
                pub fn tag(&self) -> Option<&str> {
                    match self {
                        #(#tag_arms)*
                        #unknown_tag
                    }
                }
            }

            #[doc(hidden)]
            impl __p::Tagged for #name {
                const TAG: &'static str = #field;
                const EXPECTING: &'static str = #expecting;
                type Builder = #builder;
                fn builder_for(tag: Option<&str>) -> Option<#builder> {
                    Some(match tag {
                        #(#cases)*
                        #other
                        #absent
                    })
                }
                fn knows(tag: &str) -> bool {
                    #knows
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    __p::deserialize_tagged::<D, #name>(d)
                }
            }
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

    /// How to read a tag field's value out of a struct variant `v`, as `Option<&str>`.
    fn tag_access(&self, owner: &str, ty: &Ty, field: &str) -> TokenStream {
        let Some((item, st)) = self.space.struct_of(ty) else { return quote! { None } };
        let Some(f) = st.fields.iter().find(|f| f.name == field) else { return quote! { None } };
        let ident = format_ident!("{}", field_rust_name(self.config, &item.name, &f.name));
        let _ = owner;
        match (&f.literal, self.space.deref(&f.ty), f.optional) {
            (Some(Literal::Str(value)), _, true) => quote! { v.#ident.then_some(#value) },
            (Some(Literal::Str(value)), _, false) => quote! { Some(#value) },
            (None, Ty::String, true) => quote! { v.#ident.as_deref() },
            (None, Ty::String, false) => quote! { Some(v.#ident.as_str()) },
            (None, Ty::Named(_), true) => quote! { v.#ident.as_ref().map(|e| e.as_str()) },
            (None, Ty::Named(_), false) => quote! { Some(v.#ident.as_str()) },
            _ => quote! { None },
        }
    }

    /// The builder type that reads a variant: the struct's, or the nested tagged union's.
    fn builder_path(&self, ty: &Ty) -> TokenStream {
        match self.space.deref(ty) {
            Ty::Named(r) => self.type_path(&r, true),
            other => panic!("tagged union variant is not a named type: {other:?}"),
        }
    }

    fn kind_impl(&self, item: &Item, u: &Union) -> TokenStream {
        let name = self.ident(&item.name);
        let mut methods = Vec::new();
        let expecting = format!("{} ({})", item.name, u.variants.iter().map(|v| format!("{:?}", self.space.kind_of(&v.ty)).to_lowercase()).collect::<Vec<_>>().join(" or "));
        let find = |k: JsonKind| u.variants.iter().position(|v| self.space.kind_of(&v.ty) == k);
        let ok = |i: usize, value: TokenStream| -> TokenStream {
            let v = format_ident!("{}", u.variants[i].name);
            let ty = self.member_ty(&item.name, &u.variants[i].ty);
            quote! { Ok(#name::#v(<#ty as serde::Deserialize<'de>>::deserialize(#value)?)) }
        };
        if let Some(i) = find(JsonKind::String) {
            let a = ok(i, quote! { serde::de::value::StrDeserializer::<E>::new(v) });
            let b = ok(i, quote! { serde::de::value::StringDeserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_str<E: serde::de::Error>(self, v: &str) -> ::core::result::Result<#name, E> { #a }
                fn visit_string<E: serde::de::Error>(self, v: String) -> ::core::result::Result<#name, E> { #b }
            });
        }
        let int = find(JsonKind::Integer);
        let num = find(JsonKind::Number);
        if let Some(i) = int.or(num) {
            let a = ok(i, quote! { serde::de::value::I64Deserializer::<E>::new(v) });
            let b = ok(i, quote! { serde::de::value::U64Deserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_i64<E: serde::de::Error>(self, v: i64) -> ::core::result::Result<#name, E> { #a }
                fn visit_u64<E: serde::de::Error>(self, v: u64) -> ::core::result::Result<#name, E> { #b }
            });
        }
        if let Some(i) = num {
            let a = ok(i, quote! { serde::de::value::F64Deserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_f64<E: serde::de::Error>(self, v: f64) -> ::core::result::Result<#name, E> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Boolean) {
            let a = ok(i, quote! { serde::de::value::BoolDeserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_bool<E: serde::de::Error>(self, v: bool) -> ::core::result::Result<#name, E> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Null) {
            let a = ok(i, quote! { serde::de::value::UnitDeserializer::<E>::new() });
            methods.push(quote! {
                fn visit_unit<E: serde::de::Error>(self) -> ::core::result::Result<#name, E> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Array) {
            let a = ok(i, quote! { serde::de::value::SeqAccessDeserializer::new(v) });
            methods.push(quote! {
                fn visit_seq<A: serde::de::SeqAccess<'de>>(self, v: A) -> ::core::result::Result<#name, A::Error> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Object) {
            let a = ok(i, quote! { serde::de::value::MapAccessDeserializer::new(v) });
            methods.push(quote! {
                fn visit_map<A: serde::de::MapAccess<'de>>(self, v: A) -> ::core::result::Result<#name, A::Error> { #a }
            });
        }
        quote! {
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    struct V;
                    impl<'de> serde::de::Visitor<'de> for V {
                        type Value = #name;
                        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                            f.write_str(#expecting)
                        }
                        #(#methods)*
                    }
                    d.deserialize_any(V)
                }
            }
        }
    }

    fn shape_impl(&self, item: &Item, u: &Union) -> TokenStream {
        let name = self.ident(&item.name);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let vtys: Vec<_> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        let idx: Vec<usize> = (0..u.variants.len()).collect();
        let expected = u.variants.iter().map(|v| self.shape_hint(&v.ty, &v.name)).collect::<Vec<_>>().join("; ");
        let msg = format!("no variant of {} matches this value; expected {expected}", item.name);
        if let Some(keyed) = self.keyed(item) {
            return self.keyed_impl(item, u, keyed, &msg);
        }
        quote! {
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let v = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                    let scores = [#( <#vtys as __p::Shape>::score(&v) ),*];
                    match __p::best(&scores) {
                        #( Some(#idx) => __p::from_value(v).map(#name::#vnames), )*
                        _ => Err(<D::Error as serde::de::Error>::custom(#msg)),
                    }
                }
            }
        }
    }

    /// What a variant needs, for error messages: `CallToolResult (needs `content`)`.
    pub(super) fn shape_hint(&self, ty: &Ty, name: &str) -> String {
        if let Some((_, s)) = self.space.struct_of(ty) {
            let req: Vec<String> = s.fields.iter().filter(|f| !f.optional && !f.never).map(|f| match &f.literal {
                Some(l) => format!("`{}`: {}", f.name, l.describe()),
                None => format!("`{}`", f.name),
            }).collect();
            if req.is_empty() {
                return format!("{name} (an object)");
            }
            return format!("{name} (with {})", req.join(", "));
        }
        format!("{name} ({})", format!("{:?}", self.space.kind_of(ty)).to_lowercase())
    }

    /// `ClientMessage` / `ServerMessage` as configured, where the module has the types they name.
    /// A side without requests (2026-07-28's server) gets `NoRequests`; a single request or
    /// notification type (an alias of one struct) is made a one-method tagged type here.
    fn envelopes(&self) -> TokenStream {
        let has = |name: &str| self.module.items.iter().any(|i| i.name == name);
        let mut out = Vec::new();
        let mut tagged_structs = BTreeSet::new();
        for e in &self.config.envelopes {
            let Some(error) = e.error.iter().find(|n| has(n)) else { continue };
            if !(has(&e.id) && has(&e.result) && has(&e.notification)) {
                continue;
            }
            let mut by_method = |name: &str| -> Option<TokenStream> {
                if !has(name) {
                    return Some(quote! { __rt::NoRequests });
                }
                let ty = Ty::Named(TypeRef { module: self.module.name.clone(), name: name.to_string() });
                if matches!(self.space.union_of(&ty), Some((_, u)) if matches!(u.dispatch, Dispatch::Tag(_))) {
                    return Some(self.rust_ty(&ty));
                }
                let (item, s) = self.space.struct_of(&ty)?;
                let method = s.fields.iter().find_map(|f| match (&f.name[..], &f.literal) {
                    ("method", Some(Literal::Str(m))) => Some(m.clone()),
                    _ => None,
                })?;
                if !self.shared.contains(&item.name) && tagged_structs.insert(item.name.clone()) {
                    let t = self.ident(&item.name);
                    let b = builder_ident(&item.name);
                    let expecting = format!("a {} object", item.name);
                    out.push(quote! {
                        #[doc(hidden)]
                        impl __p::Tagged for #t {
                            const TAG: &'static str = "method";
                            const EXPECTING: &'static str = #expecting;
                            type Builder = #b;
                            fn builder_for(tag: Option<&str>) -> Option<#b> {
                                (tag == Some(#method)).then(#b::default)
                            }
                            fn knows(tag: &str) -> bool {
                                tag == #method
                            }
                        }
                    });
                }
                Some(self.rust_ty(&ty))
            };
            let (Some(req), Some(notif)) = (by_method(&e.request), by_method(&e.notification)) else { continue };
            let [name, id, res, err] = [&e.name, &e.id, &e.result, error].map(|n| self.ident(n));
            let req_doc = if has(&e.request) { format!("[`{}`]", e.request) } else { "no requests (this version has none)".to_string() };
            let doc = format!(
                " A message the {} sends, as the other side reads it: {req_doc}, [`{}`], a response carrying [`{}`], or [`{}`]. See [`__rt::Message`].",
                e.sender, e.notification, e.result, error
            );
            out.push(quote! {
                #[doc = #doc]
                pub type #name = __rt::Message<#id, #req, #notif, #res, #err>;
            });
        }
        quote! { #(#out)* }
    }

    fn registry(&self) -> TokenStream {
        let mut out = Vec::new();
        let mut req_rows = Vec::new();
        for r in &self.module.requests {
            let t = self.ident(&r.type_name);
            let m = &r.method;
            let Some(result) = &r.result else { continue };
            let rt = self.rust_ty(result);
            let result_name = registry_name(result);
            let tn = &r.type_name;
            req_rows.push(quote! { (#m, #tn, #result_name) });
            if self.shared.contains(&r.type_name) {
                continue;
            }
            out.push(quote! {
                impl __rt::RequestMethod for #t {
                    const METHOD: &'static str = #m;
                    type Result = #rt;
                }
            });
        }
        let mut note_rows = Vec::new();
        for n in &self.module.notifications {
            let t = self.ident(&n.type_name);
            let m = &n.method;
            let tn = &n.type_name;
            note_rows.push(quote! { (#m, #tn) });
            if self.shared.contains(&n.type_name) {
                continue;
            }
            out.push(quote! {
                impl __rt::NotificationMethod for #t {
                    const METHOD: &'static str = #m;
                }
            });
        }
        quote! {
            #(#out)*

            /// Every request of this schema as `(method, request type, result type)`.
            pub const REQUESTS: &[(&str, &str, &str)] = &[#(#req_rows),*];

            /// Every notification of this schema as `(method, notification type)`.
            pub const NOTIFICATIONS: &[(&str, &str)] = &[#(#note_rows),*];
        }
    }

    /// Typed reading by schema name, for tools that choose the type at run time.
    fn dynamic(&self) -> TokenStream {
        let mut names = Vec::new();
        let mut unions = Vec::new();
        let mut aliases = Vec::new();
        let mut table: Vec<(String, TokenStream)> = Vec::new();
        for item in &self.module.items {
            if matches!(item.kind, ItemKind::Const(_)) {
                continue;
            }
            let n = &item.name;
            let t = self.ident(n);
            let kind = match &item.kind {
                ItemKind::Struct(_) => "struct",
                ItemKind::Union(_) => "union",
                ItemKind::StringEnum(_) => "enum",
                _ => "alias",
            };
            names.push(quote! { (#n, #kind) });
            table.push((n.clone(), quote! { __rt::dynamic::DynType::of::<#t>(#n) }));
            match &item.kind {
                ItemKind::Union(_) => {
                    let mut leaves = BTreeSet::new();
                    self.leaves(&Ty::Named(TypeRef { module: self.module.name.clone(), name: n.clone() }), &mut leaves, 0);
                    let leaves = leaves.into_iter();
                    unions.push(quote! { (#n, &[#(#leaves),*]) });
                }
                ItemKind::Alias(target) => {
                    let target = registry_name(target);
                    aliases.push(quote! { (#n, #target) });
                }
                _ => {}
            }
        }
        if self.module.requests.iter().any(|r| r.result == Some(Ty::Object)) {
            table.push(("object".to_string(), quote! { __rt::dynamic::DynType::of::<__rt::JsonObject>("object") }));
        }
        table.sort_by(|a, b| a.0.cmp(&b.0));
        let entries = table.iter().map(|(_, t)| t);
        quote! {
            /// Every type in this module: its schema name and whether it is a `struct`, `union`, `enum` or `alias`.
            pub const TYPES: &[(&str, &str)] = &[#(#names),*];

            /// Every union with the schema names of the types it can hold, nested unions flattened.
            pub const UNION_MEMBERS: &[(&str, &[&str])] = &[#(#unions),*];

            /// Every alias with what it names: a schema type, or `string`, `integer`, `number`, `boolean`,
            /// `object`, `array`, `value` (any JSON).
            pub const ALIASES: &[(&str, &str)] = &[#(#aliases),*];

            /// Every type, by schema name (sorted), with its typed reading, writing and validation,
            /// for tools that choose the type at run time. Plain JSON objects are `"object"`.
            #[cfg(feature = "dynamic")]
            pub static DYNAMIC: &[__rt::dynamic::DynType] = &[#(#entries),*];

            /// The run-time entry of the type named `type_name`.
            #[cfg(feature = "dynamic")]
            pub fn dynamic(type_name: &str) -> Option<&'static __rt::dynamic::DynType> {
                __rt::dynamic::find(DYNAMIC, type_name)
            }

            /// Reads `json` as the type named `type_name` and writes it back: the re-serialized value and
            /// the schema name of what was read (for a union, the variant it chose). `None` for an unknown name.
            #[cfg(feature = "dynamic")]
            pub fn roundtrip_json(type_name: &str, json: &str) -> Option<::core::result::Result<(serde_json::Value, &'static str), serde_json::Error>> {
                dynamic(type_name).map(|d| (d.roundtrip_json)(json))
            }

            /// Like [`roundtrip_json`], from an already parsed value.
            #[cfg(feature = "dynamic")]
            pub fn roundtrip_value(type_name: &str, value: &serde_json::Value) -> Option<::core::result::Result<(serde_json::Value, &'static str), serde_json::Error>> {
                dynamic(type_name).map(|d| (d.roundtrip_value)(value))
            }

            /// Reads `value` as the type named `type_name` without writing it back: the schema name of what was read.
            #[cfg(feature = "dynamic")]
            pub fn read_value(type_name: &str, value: &serde_json::Value) -> Option<::core::result::Result<&'static str, serde_json::Error>> {
                dynamic(type_name).map(|d| (d.read_value)(value))
            }

            /// Validates `value` as the type named `type_name`; `None` for a name this module does not have.
            #[cfg(feature = "dynamic")]
            pub fn validate_json_as(type_name: &str, value: &serde_json::Value, options: &__v::Options) -> Option<__v::Report> {
                dynamic(type_name).map(|d| (d.validate)(value, options))
            }
        }
    }

    fn leaves(&self, ty: &Ty, out: &mut BTreeSet<String>, depth: usize) {
        if depth > 16 {
            return;
        }
        if let Some((_, u)) = self.space.union_of(ty) {
            for v in &u.variants {
                self.leaves(&v.ty, out, depth + 1);
            }
        } else if let Some((item, _)) = self.space.struct_of(ty) {
            out.insert(item.name.clone());
        }
    }
}
