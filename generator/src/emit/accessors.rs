//! What a server or client writes around the types: `From` conversions into unions, `method()` and
//! `id()` on the request and notification unions, error answers, error-code constants, `Eq + Hash`
//! where a union holds only plain values, and the docs of enums whose order means something.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ctx::Ctx;
use crate::ir::*;
use crate::names::value_variant;
use crate::resolve::checks::field_rust_name;

/// How deep nested unions are followed for conversions; the schemas nest three deep at most.
const DEPTH: usize = 8;

/// One type a union can be built from, and the variant of the union it goes into.
struct Leaf {
    /// The type's identity: `module::Name` for a named type, the Rust type otherwise.
    key: String,
    ty: TokenStream,
    variant: usize,
    /// Whether it is the variant's own type (else it is held by a nested union).
    direct: bool,
}

impl Ctx<'_> {
    /// Whether every value of `ty` is a string, an integer, a boolean or a string enum, so the
    /// derived `Eq` and `Hash` are sound (no floats, no JSON objects).
    pub(super) fn hashable(&self, ty: &Ty, depth: usize) -> bool {
        if depth > DEPTH {
            return false;
        }
        match self.space.deref(ty) {
            Ty::String | Ty::Integer | Ty::Boolean => true,
            Ty::Named(r) => match self.space.item(&r).map(|i| &i.kind) {
                Some(ItemKind::StringEnum(_)) => true,
                Some(ItemKind::Union(u)) => !matches!(&u.dispatch, Dispatch::Tag(t) if t.on_other.is_none()) && u.variants.iter().all(|v| self.hashable(&v.ty, depth + 1)),
                _ => false,
            },
            _ => false,
        }
    }

    fn leaf_key(&self, ty: &Ty) -> Option<String> {
        match self.space.deref(ty) {
            Ty::Named(r) => Some(format!("{}::{}", r.module, r.name)),
            // `()` and `Value` convert from anything or nothing useful; they get no conversion.
            Ty::Null | Ty::Value => None,
            other => Some(self.rust_ty(&other).to_string()),
        }
    }

    /// Every type the union holds, directly or through nested unions (which are leaves themselves too).
    fn member_leaves(&self, u: &Union, out: &mut Vec<Leaf>) {
        fn walk(cx: &Ctx<'_>, u: &Union, variant: Option<usize>, depth: usize, seen: &mut BTreeSet<String>, out: &mut Vec<Leaf>) {
            if depth > DEPTH {
                return;
            }
            for (i, v) in u.variants.iter().enumerate() {
                let Some(key) = cx.leaf_key(&v.ty) else { continue };
                let at = variant.unwrap_or(i);
                out.push(Leaf { key: key.clone(), ty: cx.rust_ty(&v.ty), variant: at, direct: variant.is_none() });
                if let Some((_, inner)) = cx.space.union_of(&v.ty) {
                    if seen.insert(key.clone()) {
                        walk(cx, inner, Some(at), depth + 1, seen, out);
                        seen.remove(&key);
                    }
                }
            }
        }
        walk(self, u, None, 0, &mut BTreeSet::new(), out);
    }

    /// `From<Member> for Union` for every member type that occurs once among the union's members,
    /// nested unions included (a nested member goes through its own union's conversion). A type held
    /// by two variants gets none: which variant it means is not known.
    pub(super) fn union_from_impls(&self, item: &Item, u: &Union) -> TokenStream {
        let me = format!("{}::{}", self.module.name, item.name);
        let mut leaves = Vec::new();
        self.member_leaves(u, &mut leaves);
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for l in &leaves {
            *count.entry(&l.key).or_default() += 1;
        }
        let name = self.ident(&item.name);
        let mut out = Vec::new();
        for l in leaves.iter().filter(|l| count[l.key.as_str()] == 1 && l.key != me) {
            let v = &u.variants[l.variant];
            let vname = format_ident!("{}", v.name);
            let held = self.member_ty(&item.name, &v.ty);
            let boxed = held.to_string() != self.rust_ty(&v.ty).to_string();
            let inner = if l.direct {
                quote! { v }
            } else {
                let via = self.rust_ty(&v.ty);
                quote! { <#via as From<_>>::from(v) }
            };
            let inner = if boxed { quote! { Box::new(#inner) } } else { inner };
            let ty = &l.ty;
            out.push(quote! {
                impl From<#ty> for #name {
                    fn from(v: #ty) -> Self {
                        Self::#vname(#inner)
                    }
                }
            });
            if l.ty.to_string() == "String" {
                out.push(quote! {
                    impl From<&str> for #name {
                        fn from(v: &str) -> Self {
                            Self::from(v.to_string())
                        }
                    }
                });
            }
        }
        quote! { #(#out)* }
    }

    /// The union's doc lines on its conversions: which member types convert, and which do not and why.
    pub(super) fn union_from_doc(&self, item: &Item, u: &Union) -> Vec<String> {
        let me = format!("{}::{}", self.module.name, item.name);
        let mut leaves = Vec::new();
        self.member_leaves(u, &mut leaves);
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for l in &leaves {
            *count.entry(&l.key).or_default() += 1;
        }
        if !count.iter().any(|(k, n)| *n == 1 && *k != me) {
            return Vec::new();
        }
        let mut twice: Vec<String> = count.iter().filter(|(_, n)| **n > 1).map(|(k, _)| format!("`{}`", k.rsplit("::").next().unwrap_or(k))).collect();
        twice.dedup();
        let mut line = "Every member type held once, also inside a nested union, converts into it (`From`).".to_string();
        if !twice.is_empty() {
            line.push_str(&format!(" {} {} held by more than one variant, so {} none.", twice.join(", "), if twice.len() == 1 { "is" } else { "are" }, if twice.len() == 1 { "it has" } else { "they have" }));
        }
        vec![String::new(), line]
    }

    /// `method()` on a union read by `method`, and on the envelopes' request unions `id()` and the
    /// error answers that carry it.
    pub(super) fn method_accessors(&self, item: &Item, u: &Union) -> TokenStream {
        let Dispatch::Tag(t) = &u.dispatch else { return quote! {} };
        if t.field != "method" {
            return quote! {};
        }
        let name = self.ident(&item.name);
        let method = quote! {
            /// The method on the wire (`"tools/call"`), also of a request or notification this version does not define.
            pub fn method(&self) -> &str {
                self.tag().unwrap_or_default()
            }
        };
        let Some(envelope) = self.config.envelopes.iter().find(|e| e.request == item.name && self.module.items.iter().any(|i| i.name == e.id)) else {
            return quote! { impl #name { #method } };
        };
        let id_ty = self.ident(&envelope.id);
        let arms = u.variants.iter().map(|v| {
            let vname = format_ident!("{}", v.name);
            if self.space.union_of(&v.ty).is_some() {
                return quote! { Self::#vname(r) => r.id(), };
            }
            let declared = self.space.struct_of(&v.ty).and_then(|(owner, s)| {
                let f = s.fields.iter().find(|f| f.name == "id" && !f.never && f.literal.is_none())?;
                Some((format_ident!("{}", field_rust_name(self.config, &owner.name, &f.name)), f.optional))
            });
            match declared {
                Some((f, false)) => quote! { Self::#vname(r) => Some(r.#f.clone()), },
                Some((f, true)) => quote! { Self::#vname(r) => r.#f.clone(), },
                // Versions before 2025-11-25 do not declare `id` on requests: it is kept in `extra`.
                None => quote! { Self::#vname(r) => crate::rpc::id_in(&r.extra), },
            }
        });
        let unknown = if t.on_other.is_none() { quote! { Self::Unknown(raw) => crate::rpc::id_in(raw), } } else { quote! {} };
        quote! {
            impl #name {
                #method

                /// The request's id; `None` only when it has none or one that is not a string or an integer.
                /// (Owned: a request this version does not define keeps its id as raw JSON.)
                pub fn id(&self) -> Option<#id_ty> {
                    match self {
                        #(#arms)*
                        #unknown
                    }
                }

                /// An error answer to this request, with its id.
                pub fn error_response(&self, code: i64, message: impl Into<String>) -> crate::rpc::ErrorResponse<#id_ty> {
                    crate::rpc::ErrorResponse::new(self.id(), code, message)
                }

                /// The `-32601 Method not found` answer to this request, for a method the receiver does not serve.
                pub fn method_not_found(&self) -> crate::rpc::ErrorResponse<#id_ty> {
                    crate::rpc::ErrorResponse::method_not_found(self.id(), self.method())
                }
            }
        }
    }

    /// On an envelope's error response type: a constructor from the request id, code and message,
    /// `with_data`, and (where `id` may be absent) the conversion from [`crate::rpc::ErrorResponse`].
    pub(super) fn error_response_impls(&self, item: &Item, s: &Struct) -> TokenStream {
        let Some(envelope) = self.config.envelopes.iter().find(|e| e.error.contains(&item.name) && self.module.items.iter().any(|i| i.name == e.id)) else {
            return quote! {};
        };
        let field = |n: &str| s.fields.iter().find(|f| f.name == n && f.literal.is_none() && !f.never);
        let (Some(id), Some(error)) = (field("id"), field("error")) else { return quote! {} };
        let Some((error_item, es)) = self.space.struct_of(&error.ty) else { return quote! {} };
        let has = |n: &str, ty: Ty| es.fields.iter().any(|f| f.name == n && f.ty == ty);
        if !(has("code", Ty::Integer) && has("message", Ty::String) && es.fields.iter().any(|f| f.name == "data" && f.optional)) {
            return quote! {};
        }
        let name = self.ident(&item.name);
        let id_ty = self.ident(&envelope.id);
        let error_ty = self.rust_ty(&error.ty);
        let data = format_ident!("{}", field_rust_name(self.config, &error_item.name, "data"));
        let (set_id, from) = if id.optional {
            let from = quote! {
                /// The typed form of an error answer built without a version's types (e.g. by [`crate::rpc::Invalid`]).
                impl From<crate::rpc::ErrorResponse<#id_ty>> for #name {
                    fn from(e: crate::rpc::ErrorResponse<#id_ty>) -> Self {
                        let mut error = #error_ty::new(e.error.code, e.error.message);
                        error.#data = e.error.data;
                        Self { id: e.id, error, extra: Default::default() }
                    }
                }
            };
            (quote! { id: Some(id) }, from)
        } else {
            (quote! { id }, quote! {})
        };
        quote! {
            impl #name {
                /// The error answer to the request `id`: `{"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}`.
                pub fn for_request(id: #id_ty, code: i64, message: impl Into<String>) -> Self {
                    Self { #set_id, error: #error_ty::new(code, message), extra: Default::default() }
                }

                /// The same answer with the error's `data`.
                pub fn with_data(mut self, data: serde_json::Value) -> Self {
                    self.error.#data = Some(data);
                    self
                }
            }
            #from
        }
    }

    /// `pub const` error codes the spec's prose defines for this module (`[[error_code]]`).
    pub(super) fn error_codes(&self) -> TokenStream {
        let codes = self.config.error_codes.iter().filter(|c| c.modules.is_empty() || c.modules.contains(&self.module.name));
        let codes = codes.filter(|c| !self.module.items.iter().any(|i| i.name == c.name)).map(|c| {
            let name = format_ident!("{}", c.name);
            let doc = format!(" {}", c.doc);
            let code = proc_macro2::Literal::i64_unsuffixed(c.code);
            quote! {
                #[doc = #doc]
                pub const #name: i64 = #code;
            }
        });
        quote! { #(#codes)* }
    }

    /// The doc lines of a string enum whose order is configured as meaningful (`[[ordered_enum]]`), with a doc test.
    pub(super) fn ordered_enum_doc(&self, item: &Item, e: &StringEnum) -> Vec<String> {
        let Some(o) = self.config.ordered_enums.iter().find(|o| o.type_name == item.name) else { return Vec::new() };
        let (Some(first), Some(last)) = (e.values.first(), e.values.last()) else { return Vec::new() };
        let order = e.values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(" < ");
        let ty = self.config.rust_type_name(&item.name);
        let (lo, hi) = (value_variant(first), value_variant(last));
        vec![
            String::new(),
            format!("Ordered by {}: the derived `Ord` follows the schema's order, {order}. A value this version does not name (`Other`) sorts before all of them, so an unknown minimum lets every message through rather than none.", o.by),
            String::new(),
            "```".to_string(),
            format!("use {}::{}::{ty};", self.config.crate_name.clone().unwrap_or_else(|| self.config.package.lib_name()), self.module.name),
            format!("assert!({ty}::{lo} < {ty}::{hi});"),
            format!("let minimum = {ty}::from_wire({first:?});"),
            format!("assert!({ty}::{hi} >= minimum);"),
            format!("assert!({ty}::from_wire(\"no-such-value\") < {ty}::{lo});"),
            "```".to_string(),
        ]
    }
}
