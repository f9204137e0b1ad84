//! A struct: its fields, builder, serde impls, constructor and `Shape` scores.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ctx::{doc_attrs, lit_tokens, lit_value, Ctx};
use super::docs;
use super::keyed::rank_literal;
use crate::ir::*;
use crate::names::builder_ident;
use crate::resolve::layout::field_rust_name;

impl<'a> Ctx<'a> {
    pub(super) fn structure(&self, item: &Item, s: &Struct, mut lines: Vec<String>) -> TokenStream {
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
        struct_notes(s, &mut lines);
        let docs = doc_attrs(&lines);
        let dep = Self::deprecated(&item.doc);

        let FieldCode { fields, slots, arms, knowns, slot_arms, checks, inits, writes, required_keys, known_fits, score_lits, all_default } = self.field_code(item, s, typed_rest);
        let extra_doc = if s.rest_declared {
            " Other keys, which the schema allows (index signature)."
        } else {
            " Keys this schema does not define, kept as received so they are written back."
        };
        let (fast_unknown, fast_extra) = if typed_rest {
            (quote! { __f::rest(&mut self.extra, key, r) }, quote! { None })
        } else {
            (quote! { __f::unknown(&mut self.extra, key, r) }, quote! { Some(&mut self.extra) })
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
        let finish_body = self.finish_body(item, s, &inits);
        let constructor = self.constructor(item, s);
        let derive_default = if all_default { quote! { Default, } } else { quote! {} };
        let schema_doc = format!(" Reads and writes `{name_str}` objects; see [`__p::Builder`].");
        let write_json = self.struct_write_json(item, s);
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

            #[doc(hidden)]
            impl __f::Slots for #builder {
                #[inline]
                fn known(&self) -> &'static [__f::Known] {
                    const KNOWN: &[__f::Known] = &[#(#knowns),*];
                    KNOWN
                }
                #[inline]
                fn slot(&mut self, i: usize) -> __f::Slot<'_> {
                    match i {
                        #(#slot_arms)*
                        _ => __f::Slot::Gone,
                    }
                }
                #[inline]
                fn unknown<'de>(&mut self, key: __p::Key<'de>, r: &mut __f::Reader<'de>) -> __f::Fast<()> {
                    #fast_unknown
                }
                #[inline]
                fn extra(&mut self) -> Option<&mut __rt::JsonObject> {
                    #fast_extra
                }
            }

            #[doc(hidden)]
            impl __f::FastRead for #name {
                #[inline]
                fn read_fast(r: &mut __f::Reader<'_>) -> __f::Fast<Self> {
                    __f::read_struct::<#builder>(r)
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

            #write_json

            #constructor

            impl __rt::SchemaType for #name {
                fn schema_name(&self) -> &'static str { #name_str }
            }

            #[doc(hidden)]
            impl __p::Shape for #name {
                fn score(v: crate::tree::Node<'_>) -> Option<u32> {
                    __p::score_object(v, &[#(#required_keys),*], &[#(#known_fits),*], &[#(#score_lits),*])
                }
                fn fits(v: crate::tree::Node<'_>) -> Option<u32> {
                    __p::fits_object(v, &[#(#required_keys),*], &[#(#score_lits),*])
                }
                #score_keys
            }
        }
    }

    /// A field's doc lines: the schema's (or a fallback naming the key), the Rust name's note,
    /// and for a lenient field why it is an `Option`.
    fn field_docs(&self, item: &Item, f: &Field, ident: &proc_macro2::Ident) -> TokenStream {
        let wire = &f.name;
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
        doc_attrs(&flines)
    }

    /// Per field: its declaration, builder slot and match arm, the checks and initializers
    /// `finish` runs, its writing, and what its `Shape` score counts.
    fn field_code(&self, item: &Item, s: &Struct, typed_rest: bool) -> FieldCode {
        let mut fields = Vec::new();
        let mut slots = Vec::new();
        let mut arms = Vec::new();
        let mut knowns = Vec::new();
        let mut slot_arms = Vec::new();
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
            let fdocs = self.field_docs(item, f, &ident);
            let fdep = Self::deprecated(&f.doc);
            if let Some(l) = &f.literal {
                let flag = format_ident!("__lit_{}", ident.to_string().trim_start_matches("r#"));
                let lt = lit_tokens(l);
                let value = lit_value(l);
                let must = !f.optional;
                score_lits.push(quote! { (#wire, #must, #lt) });
                slots.push(quote! { #flag: bool, });
                arms.push(quote! { #wire => __p::literal(&mut self.#flag, #wire, #lt, src), });
                let i = knowns.len();
                knowns.push(quote! { __f::Known { key: #wire, rule: __f::Rule::Literal(#lt) } });
                slot_arms.push(quote! { #i => __f::Slot::Seen(&mut self.#flag), });
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
                // `optional_value` reads like `required`: `null` is a value of its own there.
                let rule = if is_nullable || is_value || typed_rest { quote! { Required } } else { quote! { Optional } };
                let i = knowns.len();
                knowns.push(quote! { __f::Known { key: #wire, rule: __f::Rule::#rule } });
                slot_arms.push(quote! { #i => __f::Slot::Value(&mut self.#ident), });
                inits.push(quote! { #ident: self.#ident, });
                writes.push(quote! { if let Some(v) = &self.#ident { m.serialize_entry(#wire, v)?; } });
            } else {
                required_keys.push(wire.clone());
                all_default &= self.defaultable(&f.ty, &mut BTreeSet::from([item.name.clone()]));
                fields.push(quote! { #fdocs #fdep pub #ident: #ty, });
                slots.push(quote! { #ident: Option<#ty>, });
                arms.push(quote! { #wire => __p::required(&mut self.#ident, #wire, src), });
                let i = knowns.len();
                knowns.push(quote! { __f::Known { key: #wire, rule: __f::Rule::Required } });
                slot_arms.push(quote! { #i => __f::Slot::Value(&mut self.#ident), });
                inits.push(quote! { #ident: __p::need(self.#ident, #wire)?, });
                writes.push(quote! { m.serialize_entry(#wire, &self.#ident)?; });
            }
        }
        FieldCode { fields, slots, arms, knowns, slot_arms, checks, inits, writes, required_keys, known_fits, score_lits, all_default }
    }

    /// The end of `finish`: the struct from its fields, then the configured moves of a key
    /// from an older form into the field that holds it now (`[[moved_field]]`).
    fn finish_body(&self, item: &Item, s: &Struct, inits: &[TokenStream]) -> TokenStream {
        let name = self.ident(&item.name);
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
        finish_body
    }

    /// `new` with the required fields as arguments; optional fields absent (or, for a lenient field with a
    /// configured value, that value). Not generated when nothing is required: `Default` does that job.
    pub(super) fn constructor(&self, item: &Item, s: &Struct) -> TokenStream {
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

    pub(super) fn defaultable(&self, ty: &Ty, seen: &mut BTreeSet<String>) -> bool {
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

    /// `score_keys` for a struct that is a member of a keyed union.
    pub(super) fn struct_score_keys(&self, item: &Item, s: &Struct) -> TokenStream {
        if !self.space.layout.scored.contains(&self.here(&item.name)) {
            return quote! {};
        }
        let live = || s.fields.iter().filter(|f| !f.never);
        let required: Vec<&str> = live().filter(|f| !f.optional).map(|f| f.name.as_str()).collect();
        let known: Vec<&str> = live().filter(|f| rank_literal(f).is_none()).map(|f| f.name.as_str()).collect();
        let lits: Vec<TokenStream> = s
            .fields
            .iter()
            .filter_map(|f| {
                let l = rank_literal(f)?;
                let (wire, must) = (&f.name, !f.optional);
                Some(quote! { (#wire, #must, #l) })
            })
            .collect();
        quote! {
            fn score_keys<K: __p::KeySet + ?Sized>(o: &K) -> Option<u32> {
                __p::score_keys(o, &[#(#required),*], &[#(#known),*], &[#(#lits),*])
            }
        }
    }
}

/// What the code of a struct's fields is made of (see `Ctx::field_code`).
struct FieldCode {
    fields: Vec<TokenStream>,
    slots: Vec<TokenStream>,
    arms: Vec<TokenStream>,
    /// The reader's table (`__f::Known`) and slot per key, in one order.
    knowns: Vec<TokenStream>,
    slot_arms: Vec<TokenStream>,
    checks: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    writes: Vec<TokenStream>,
    required_keys: Vec<String>,
    known_fits: Vec<TokenStream>,
    score_lits: Vec<TokenStream>,
    all_default: bool,
}

/// Notes on what the struct's type says beyond its fields: fixed literals, `never` keys, alternatives.
fn struct_notes(s: &Struct, lines: &mut Vec<String>) {
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
}
