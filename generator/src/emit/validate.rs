//! `impl Validate` for each generated type: the schema's own rules, then the
//! hand-written rules `schema/codegen.toml` attaches.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ctx::{lit_tokens, Ctx};
use super::keyed::{member_guard, rank_literal};
use crate::ir::*;
use crate::resolve::layout::DEPTH;
use crate::parse::{Constraint, Doc};

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
        let ty = self.field_ty(owner, &f.ty);
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
        let name = self.ident(&item.name);
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
            if f.lenient.is_some() && !f.never {
                // The reader takes the value without it; validation still reports it.
                missing.push(quote! { if #at.is_none() { cx.begin_readable(); cx.missing(#wire, #name_str); cx.end_readable(); } });
            } else if !f.optional && !f.never {
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
            // The reader keeps a `null` in an optional field among the unknown keys (see
            // `__p::optional`): reported here, but no reason for a union to pass the member over.
            let null_kept = f.optional && f.literal.is_none() && !matches!(f.ty, Ty::Nullable(_) | Ty::Value) && matches!(s.rest, Ty::Value);
            let body = if null_kept {
                quote! { let __null = x.is_null(); if __null { cx.begin_readable(); } #body if __null { cx.end_readable(); } }
            } else {
                body
            };
            // push/pop rather than a closure: one closure per field was a third of the crate's LLVM IR.
            per_field.push(quote! { if let Some(x) = #at { cx.push_key(#wire); #body cx.pop(); } });
        }
        // One pass over the object's keys, each matched against the field names (a
        // length switch, then inline compares), rather than a map search per field.
        let lookups = if s.fields.is_empty() {
            quote! { let _ = o; }
        } else {
            let n = s.fields.len();
            let arms = s.fields.iter().enumerate().map(|(i, f)| {
                let wire = &f.name;
                quote! { #wire => __f[#i] = Some(x), }
            });
            quote! {
                let mut __f: [Option<crate::tree::Node<'v>>; #n] = [None; #n];
                for (k, x) in o {
                    match k {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        };
        let rest = if s.rest_declared && !matches!(s.rest, Ty::Value) {
            let known: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
            let ty = self.rust_ty(&s.rest);
            quote! {
                for (k, x) in o {
                    if ![#(#known),*].contains(&k) {
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
                fn validate_json<'v>(v: crate::tree::Node<'v>, cx: &mut __v::Cx<'v>) {
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
        let name = self.ident(&item.name);
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
                fn validate_json<'v>(v: crate::tree::Node<'v>, cx: &mut __v::Cx<'v>) {
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
        let name = self.ident(&item.name);
        let name_str = &item.name;
        let vtys: Vec<TokenStream> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        let mut keyed = quote! {};
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
                    match o.get(#field).map(crate::tree::Node::as_str) {
                        #(#cases)*
                        #other
                        Some(None) => { cx.push_key(#field); cx.error("type", format!("`{}` must be a string", #field)); cx.pop(); }
                        #absent
                    }
                }
            }
            Dispatch::Kind => self.validate_kind(item, u, &vtys),
            Dispatch::Shape if self.keyed(item).is_some() => {
                keyed = self.keyed_check(item, u);
                quote! { __v::keyed::<Self>(v, cx); }
            }
            Dispatch::Shape => {
                let idx: Vec<usize> = (0..u.variants.len()).collect();
                let expected = u.variants.iter().map(|v| self.shape_hint(&v.ty, &v.name)).collect::<Vec<_>>().join("; ");
                let msg = format!("matches no member of {name_str}; expected {expected}");
                quote! {
                    match __p::best(&[#( <#vtys as __p::Shape>::score(v) ),*]) {
                        #( Some(#idx) => <#vtys as __v::Validate>::validate_json(v, cx), )*
                        _ => cx.error("no-variant", #msg),
                    }
                }
            }
        };
        let extra = self.configured_checks(&item.name);
        quote! {
            impl __v::Validate for #name {
                fn validate_json<'v>(v: crate::tree::Node<'v>, cx: &mut __v::Cx<'v>) {
                    #body
                    #extra
                }
            }

            #keyed
        }
    }

    /// A kind union is read by the JSON kind of the value: validated the same way.
    fn validate_kind(&self, item: &Item, u: &Union, vtys: &[TokenStream]) -> TokenStream {
        let find = |k: JsonKind| u.variants.iter().position(|v| self.space.kind_of(&v.ty) == k);
        let call = |i: Option<usize>| match i {
            Some(i) => {
                let ty = &vtys[i];
                quote! { <#ty as __v::Validate>::validate_json(v, cx) }
            }
            None => quote! { fail(cx) },
        };
        let (string, boolean, null, array, object) =
            (call(find(JsonKind::String)), call(find(JsonKind::Boolean)), call(find(JsonKind::Null)), call(find(JsonKind::Array)), call(find(JsonKind::Object)));
        // As the reader: an integer goes to the integer member, else the number member; a fraction to the number member.
        let int = call(find(JsonKind::Integer).or(find(JsonKind::Number)));
        let num = call(find(JsonKind::Number));
        let kinds = u.variants.iter().map(|v| format!("{:?}", self.space.kind_of(&v.ty)).to_lowercase()).collect::<Vec<_>>().join(" or ");
        let msg = format!("expected {kinds} ({})", item.name);
        quote! {
            let fail = |cx: &mut __v::Cx<'v>| cx.error("type", format!("{}, found {}", #msg, __v::describe(v)));
            let _ = &fail;
            match v.kind() {
                crate::tree::Kind::String(_) => #string,
                crate::tree::Kind::Number(n) if n.is_i64() || n.is_u64() => #int,
                crate::tree::Kind::Number(_) => #num,
                crate::tree::Kind::Bool(_) => #boolean,
                crate::tree::Kind::Null => #null,
                crate::tree::Kind::Array(_) => #array,
                crate::tree::Kind::Object(_) => #object,
            }
        }
    }

    /// How validation picks the member of a union decided by keys: as the reader does
    /// (`__p::Keyed`), with the key ranking over bit sets of the keys present.
    fn keyed_check(&self, item: &Item, u: &Union) -> TokenStream {
        let keyed = self.keyed(item).expect("validated as keyed only when read so");
        let name = self.ident(&item.name);
        let name_str = &item.name;
        let n = u.variants.len();
        let deciding = keyed.deciding.iter().map(|(key, i)| quote! { #key => Some(#i), });
        let validates = keyed.members.iter().enumerate().map(|(i, m)| {
            let call = match m.kind {
                MemberKind::Keyed => {
                    let t = self.rust_ty(&u.variants[i].ty);
                    quote! { __v::keyed_member::<#t>(by, v, cx) }
                }
                _ => {
                    let t = self.member_ty(&item.name, &u.variants[i].ty);
                    quote! { <#t as __v::Validate>::validate_json(v, cx) }
                }
            };
            quote! { #i => #call, }
        });
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let idx: Vec<usize> = (0..n).collect();

        // The structs each member ranks by, as `Shape::score_keys` finds them: a union
        // member by its best struct; a boxed member, which has no key score, by none.
        let me = self.here(&item.name);
        let mut leaves: Vec<Vec<&Struct>> = Vec::new();
        for v in &u.variants {
            let mut out = Vec::new();
            if !self.recursive(&me, &v.ty) {
                self.rank_leaves(&v.ty, 0, DEPTH, &mut out);
            }
            leaves.push(out);
        }
        // Members ruled out by a closed enum's value or, for a catch-all, by another member's
        // key: the reader's conditions, checked first.
        let guards: Vec<Option<TokenStream>> = keyed.guards.iter().map(member_guard).collect();
        let scores = rank_members(&leaves, &guards);
        let expected = u.variants.iter().map(|v| self.shape_hint(&v.ty, &v.name)).collect::<Vec<_>>().join("; ");
        let no_match = format!("matches no member of {name_str}; expected {expected}");
        quote! {
            #[doc(hidden)]
            impl __v::KeyedCheck for #name {
                const NAME: &'static str = #name_str;
                const NO_MEMBER: &'static str = #no_match;
                fn decide(key: &str) -> Option<usize> {
                    match key {
                        #(#deciding)*
                        _ => None,
                    }
                }
                fn rank(o: crate::tree::Object<'_>, out: &mut [Option<u32>]) {
                    // By reference, as the member guards take the reader's key sets.
                    let o = &o;
                    #scores
                }
                fn validate_member<'v>(member: usize, by: __v::By<'_>, v: crate::tree::Node<'v>, cx: &mut __v::Cx<'v>) {
                    let _ = &by;
                    match member {
                        #(#validates)*
                        _ => {}
                    }
                }
                fn member_of(&self) -> usize {
                    match self {
                        #( Self::#vnames(_) => #idx, )*
                    }
                }
            }
        }
    }

    /// The structs a union member's key score comes from (`Shape::score_keys`): the
    /// struct itself, or every struct of a union, as deep as keyed unions are scored.
    fn rank_leaves<'s>(&'s self, ty: &Ty, depth: usize, limit: usize, out: &mut Vec<&'s Struct>) {
        if depth >= limit {
            return;
        }
        if let Some((_, s)) = self.space.struct_of(ty) {
            out.push(s);
        } else if let Some((owner, inner)) = self.space.union_of(ty) {
            let me = TypeRef { module: self.module_of(owner), name: owner.name.clone() };
            for v in &inner.variants {
                if !self.recursive(&me, &v.ty) {
                    self.rank_leaves(&v.ty, depth + 1, limit, out);
                }
            }
        }
    }
}

/// The body of `KeyedCheck::rank`: each member's key score over `o`, by the structs it ranks by
/// (`leaves`), under its guard; with bit sets of the keys present when there are at most 128.
fn rank_members(leaves: &[Vec<&Struct>], guards: &[Option<TokenStream>]) -> TokenStream {
    let idx: Vec<usize> = (0..leaves.len()).collect();
    let guard = |i: usize, score: TokenStream| match &guards[i] {
        Some(g) => quote! { if #g { #score } else { None } },
        None => score,
    };
    let live = |s: &'_ Struct| s.fields.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    let keys: BTreeSet<String> = leaves.iter().flatten().flat_map(|s| live(s)).collect();
    let keys: Vec<String> = keys.into_iter().collect();
    let scores = if keys.len() <= 128 {
        let bit = |k: &str| 1u128 << keys.iter().position(|x| x == k).expect("collected above");
        let set = |ks: &mut dyn Iterator<Item = &Field>| {
            let b = ks.fold(0u128, |b, f| b | bit(&f.name));
            bits(b)
        };
        let arms = keys.iter().enumerate().map(|(i, k)| {
            let b = bits(1u128 << i);
            quote! { #k => #b, }
        });
        let per_member = leaves.iter().enumerate().map(|(i, ls)| {
            let each = ls.iter().map(|s| {
                let required = set(&mut s.fields.iter().filter(|f| !f.never && !f.optional));
                let known = set(&mut s.fields.iter().filter(|f| !f.never && rank_literal(f).is_none()));
                let lits = s.fields.iter().filter_map(|f| {
                    let l = rank_literal(f)?;
                    let (wire, must) = (&f.name, !f.optional);
                    let b = bits(bit(wire));
                    Some(quote! { (#wire, #b, #must, #l) })
                });
                quote! { __v::rank_by_bits(*o, present, #required, #known, &[#(#lits),*]) }
            });
            guard(i, one_or_best(each.collect()))
        });
        quote! {
            let mut present: u128 = 0;
            for k in o.keys() {
                present |= match k {
                    #(#arms)*
                    _ => 0,
                };
            }
            #( out[#idx] = #per_member; )*
        }
    } else {
        // Too many keys for one bit set: look each up.
        let per_member = leaves.iter().enumerate().map(|(i, ls)| {
            let each = ls.iter().map(|s| {
                let required = s.fields.iter().filter(|f| !f.never && !f.optional).map(|f| &f.name);
                let known = s.fields.iter().filter(|f| !f.never && rank_literal(f).is_none()).map(|f| &f.name);
                let lits = s.fields.iter().filter_map(|f| {
                    let l = rank_literal(f)?;
                    let (wire, must) = (&f.name, !f.optional);
                    Some(quote! { (#wire, #must, #l) })
                });
                quote! { __v::rank_by_keys(*o, &[#(#required),*], &[#(#known),*], &[#(#lits),*]) }
            });
            guard(i, one_or_best(each.collect()))
        });
        quote! { #( out[#idx] = #per_member; )* }
    };
    scores
}

/// A bit set as a hex literal.
fn bits(b: u128) -> syn::LitInt {
    syn::LitInt::new(&format!("{b:#x}"), proc_macro2::Span::call_site())
}

/// A member's key score: its one struct's, or the best of several.
fn one_or_best(each: Vec<TokenStream>) -> TokenStream {
    match each.len() {
        0 => quote! { None },
        1 => each.into_iter().next().expect("one"),
        _ => quote! { [#(#each),*].into_iter().flatten().max() },
    }
}

/// `@minimum`, `@maximum`, `@maxItems`, `@maxLength`, `@pattern` and `@format` on a field.
fn constraint_checks(doc: &Doc) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for c in doc.constraints() {
        match c {
            Constraint::Minimum(m) => out.push(quote! { cx.minimum(x, #m); }),
            Constraint::Maximum(m) => out.push(quote! { cx.maximum(x, #m); }),
            Constraint::MaxItems(m) => out.push(quote! { cx.max_items(x, #m); }),
            Constraint::MaxLength(m) => out.push(quote! { cx.max_length(x, #m); }),
            // Compiled on first use, once per field: the generator has compiled it already, so it cannot fail.
            Constraint::Pattern(p) => out.push(quote! {
                {
                    static PATTERN: std::sync::OnceLock<__v::Pattern> = std::sync::OnceLock::new();
                    cx.pattern(x, PATTERN.get_or_init(|| __v::Pattern::new(#p)));
                }
            }),
            Constraint::Format(f) => {
                let name = f.name();
                out.push(quote! { cx.format(x, #name); });
            }
            // Validation does not check `@minItems` (no schema field uses it).
            Constraint::MinItems(_) => {}
        }
    }
    out
}
