//! `impl Validate` for each generated type: the schema's own rules, then the
//! hand-written rules `schema/codegen.toml` attaches.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::items::{lit_tokens, Ctx};
use crate::ir::*;
use crate::names::type_ident;
use crate::parse::Doc;

impl<'a> Ctx<'a> {
    /// Calls to the configured hand-written rules for a type.
    fn configured_checks(&self, name: &str) -> TokenStream {
        let module = &self.module.name;
        let calls = self.config.checks.iter().filter(|c| c.types.iter().any(|t| t == name) && (c.modules.is_empty() || c.modules.contains(module))).map(|c| {
            let path: syn::Path = syn::parse_str(&format!("crate::validate::{}", c.run)).expect("check paths are validated in resolve");
            let call = match &c.option {
                Some(flag) => {
                    let flag = format_ident!("{}", flag);
                    quote! { if cx.options().#flag { #path(v, cx); } }
                }
                None => quote! { #path(v, cx); },
            };
            match &c.feature {
                Some(f) => quote! { #[cfg(feature = #f)] { #call } },
                None => call,
            }
        });
        quote! { #(#calls)* }
    }

    /// The checks one field's value gets: its type, then its JSDoc constraints.
    fn field_checks(&self, owner: &str, f: &Field) -> TokenStream {
        let ty = self.member_ty(owner, &f.ty);
        let mut checks = vec![quote! { <#ty as __v::Validate>::validate_json(x, cx); }];
        checks.extend(constraint_checks(&f.doc));
        let meta_field = self.config.validation.meta_field.as_deref();
        if meta_field == Some(f.name.as_str()) {
            if let Some(run) = &self.config.validation.meta_check {
                let path: syn::Path = syn::parse_str(&format!("crate::validate::{run}")).expect("validated in resolve");
                let defined: Vec<String> = match self.space.struct_of(&f.ty) {
                    Some((_, s)) => s.fields.iter().map(|g| g.name.clone()).collect(),
                    None => Vec::new(),
                };
                checks.push(quote! { #path(x, cx, SCHEMA_LABEL, &[#(#defined),*]); });
            }
        }
        quote! { #(#checks)* }
    }

    pub(super) fn validate_struct(&self, item: &Item, s: &Struct) -> TokenStream {
        let name = type_ident(&item.name);
        let name_str = &item.name;
        // Each field is looked up once (`__f[i]`), for both the `required` report and its checks.
        let slot = |i: usize| {
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            quote! { __f[#i] }
        };
        let mut missing = Vec::new();
        let mut per_field = Vec::new();
        for (i, f) in s.fields.iter().enumerate() {
            let wire = &f.name;
            let at = slot(i);
            if (!f.optional || f.lenient) && !f.never {
                missing.push(quote! { if #at.is_none() { cx.missing(#wire, #name_str); } });
            }
            if f.never {
                let why = format!("`{wire}` is typed `never` in {name_str}");
                per_field.push(quote! { if #at.is_some() { cx.push_key(#wire); cx.never(#why); cx.pop(); } });
                continue;
            }
            let body = match &f.literal {
                Some(l) => {
                    let lit = lit_tokens(l);
                    quote! { cx.literal(x, #lit); }
                }
                None => self.field_checks(&item.name, f),
            };
            // push/pop rather than a closure: one closure per field was a third of the crate's LLVM IR.
            per_field.push(quote! { if let Some(x) = #at { cx.push_key(#wire); #body cx.pop(); } });
        }
        let lookups = if s.fields.is_empty() {
            quote! { let _ = o; }
        } else {
            let wires = s.fields.iter().map(|f| &f.name);
            quote! { let __f = [#(o.get(#wires)),*]; }
        };
        let rest = if s.rest_declared && !matches!(s.rest, Ty::Value) {
            let known: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
            let ty = self.rust_ty(&s.rest);
            quote! {
                for (k, x) in o {
                    if ![#(#known),*].contains(&k.as_str()) {
                        cx.push_key(k);
                        <#ty as __v::Validate>::validate_json(x, cx);
                        cx.pop();
                    }
                }
            }
        } else {
            quote! {}
        };
        let extra = self.configured_checks(&item.name);
        quote! {
            impl __v::Validate for #name {
                fn validate_json<'v>(v: &'v serde_json::Value, cx: &mut __v::Cx<'v>) {
                    let Some(o) = cx.object(v, #name_str) else { return };
                    #lookups
                    #(#missing)*
                    #(#per_field)*
                    #rest
                    #extra
                }
            }
        }
    }

    pub(super) fn validate_enum(&self, item: &Item, e: &StringEnum) -> TokenStream {
        let name = type_ident(&item.name);
        let name_str = &item.name;
        let check = if e.open {
            quote! {}
        } else {
            let allowed = e.values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ");
            quote! {
                if let Self::Other(other) = Self::from_wire(s) {
                    cx.error("enum", format!("{other:?} is not a {} in {}: expected one of {}", #name_str, SCHEMA_LABEL, #allowed));
                }
            }
        };
        quote! {
            impl __v::Validate for #name {
                fn validate_json<'v>(v: &'v serde_json::Value, cx: &mut __v::Cx<'v>) {
                    match v.as_str() {
                        Some(s) => { let _ = s; #check }
                        None => cx.error("type", format!("expected a {} string, found {}", #name_str, __v::describe(v))),
                    }
                    let _ = &cx;
                }
            }
        }
    }

    pub(super) fn validate_union(&self, item: &Item, u: &Union) -> TokenStream {
        let name = type_ident(&item.name);
        let name_str = &item.name;
        let vtys: Vec<TokenStream> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        let body = match &u.dispatch {
            Dispatch::Tag(t) => {
                let field = &t.field;
                let cases = t.cases.iter().map(|(value, i)| {
                    let ty = &vtys[*i];
                    quote! { Some(Some(#value)) => <#ty as __v::Validate>::validate_json(v, cx), }
                });
                let other = match t.on_other {
                    Some(i) => {
                        let ty = &vtys[i];
                        quote! { Some(Some(_)) => <#ty as __v::Validate>::validate_json(v, cx), }
                    }
                    None => quote! { Some(Some(other)) => { cx.push_key(#field); cx.unknown_variant(#field, other, #name_str, SCHEMA_LABEL); cx.pop(); } },
                };
                let absent = match t.on_absent {
                    Some(i) => {
                        let ty = &vtys[i];
                        quote! { None => <#ty as __v::Validate>::validate_json(v, cx), }
                    }
                    None => quote! { None => cx.required(o, &[#field], #name_str), },
                };
                quote! {
                    let Some(o) = cx.object(v, #name_str) else { return };
                    match o.get(#field).map(serde_json::Value::as_str) {
                        #(#cases)*
                        #other
                        Some(None) => { cx.push_key(#field); cx.error("type", format!("`{}` must be a string", #field)); cx.pop(); }
                        #absent
                    }
                }
            }
            Dispatch::Kind | Dispatch::Shape => {
                let idx: Vec<usize> = (0..u.variants.len()).collect();
                let expected = u.variants.iter().map(|v| self.shape_hint(&v.ty, &v.name)).collect::<Vec<_>>().join("; ");
                let failure = if u.dispatch == Dispatch::Kind {
                    let kinds = u.variants.iter().map(|v| format!("{:?}", self.space.kind_of(&v.ty)).to_lowercase()).collect::<Vec<_>>().join(" or ");
                    let msg = format!("expected {kinds} ({name_str})");
                    quote! { cx.error("type", format!("{}, found {}", #msg, __v::describe(v))) }
                } else {
                    let msg = format!("matches no member of {name_str}; expected {expected}");
                    quote! { cx.error("no-variant", #msg) }
                };
                quote! {
                    match __p::best(&[#( <#vtys as __p::Shape>::score(v) ),*]) {
                        #( Some(#idx) => <#vtys as __v::Validate>::validate_json(v, cx), )*
                        _ => #failure,
                    }
                }
            }
        };
        let extra = self.configured_checks(&item.name);
        quote! {
            impl __v::Validate for #name {
                fn validate_json<'v>(v: &'v serde_json::Value, cx: &mut __v::Cx<'v>) {
                    #body
                    #extra
                }
            }
        }
    }
}

/// `@minimum`, `@maximum`, `@maxItems` and `@format` on a field.
fn constraint_checks(doc: &Doc) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for (tag, value) in &doc.tags {
        let value = value.trim();
        match tag.as_str() {
            "minimum" => {
                if let Ok(m) = value.parse::<f64>() {
                    out.push(quote! { cx.minimum(x, #m); });
                }
            }
            "maximum" => {
                if let Ok(m) = value.parse::<f64>() {
                    out.push(quote! { cx.maximum(x, #m); });
                }
            }
            "maxItems" => {
                if let Ok(m) = value.parse::<usize>() {
                    out.push(quote! { cx.max_items(x, #m); });
                }
            }
            "format" => out.push(quote! { cx.format(x, #value); }),
            _ => {}
        }
    }
    out
}
