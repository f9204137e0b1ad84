//! Conversions between protocol versions (`mcp_spec_types::convert`): writes out the plan that
//! `resolve::layout::convert` made ([`ConvertPlan`]) as one file of `Convert` impls per pair of
//! adjacent versions, `chains.rs` (versions further apart, identities, the run-time table) and
//! `CONVERSIONS.md`. The code that fails names its row of the table.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::manifest::GENERATED_DIR;
use super::output::{format_tokens, header, GeneratedFile, Part};
use crate::config::{Config, CONFIG_PATH};
use crate::ir::*;
use crate::parse::Literal;

pub fn files(space: &TypeSpace, config: &Config) -> Vec<GeneratedFile> {
    let plan = &space.layout.convert;
    if plan.versions.len() < 2 {
        return Vec::new();
    }
    let w = Writer { config, plan };
    let mut files = w.steps();
    files.push(GeneratedFile { path: "CONVERSIONS.md".into(), contents: w.table(), part: Part::Whole });
    files.push(w.chains());
    files
}

struct Writer<'a> {
    config: &'a Config,
    plan: &'a ConvertPlan,
}

impl Writer<'_> {
    fn path_text(&self, r: &TypeRef) -> String {
        format!("crate::{}::{}", r.module, self.config.rust_type_name(&r.name))
    }

    fn path(&self, r: &TypeRef) -> TokenStream {
        let m = format_ident!("{}", r.module);
        let t = format_ident!("{}", self.config.rust_type_name(&r.name));
        quote! { crate::#m::#t }
    }

    /// One file per pair of adjacent versions, both directions, and the `mod.rs` that lists them.
    fn steps(&self) -> Vec<GeneratedFile> {
        let mut files = Vec::new();
        let mut mods = Vec::new();
        for pair in 0..self.plan.versions.len() - 1 {
            let (a, b) = (&self.plan.versions[pair], &self.plan.versions[pair + 1]);
            let name = format!("{}_{}", a.module, b.module);
            let mut parts = Vec::new();
            for step in &self.plan.steps[2 * pair..2 * pair + 2] {
                let (from, to) = (&self.plan.versions[step.from], &self.plan.versions[step.to]);
                let code: Vec<TokenStream> = step.pairs.iter().map(|p| self.pair(p)).collect();
                let m = format_ident!("{}_to_{}", from.module, to.module);
                let (fp, tp) = (&from.protocol, &to.protocol);
                let doc = format!(" {fp} -> {tp}.");
                parts.push(quote! {
                    #[doc = #doc]
                    mod #m {
                        use super::super::super::{Convert, ConvertError};
                        use super::super::super::__c;
                        const STEP: __c::Step = __c::Step { from: #fp, to: #tp };
                        #(#code)*
                    }
                });
            }
            let tokens = quote! { #(#parts)* };
            let doc = format!("from {CONFIG_PATH} and the schemas' IR ({} <-> {})", a.protocol, b.protocol);
            files.push(GeneratedFile { path: format!("{GENERATED_DIR}/convert/{name}.rs"), contents: format!("{}{}", header(&doc), format_tokens(tokens)), part: Part::Whole });
            mods.push(name);
        }
        let mod_lines: String = mods.iter().map(|m| format!("mod {m};\n")).collect();
        files.push(GeneratedFile {
            path: format!("{GENERATED_DIR}/convert/mod.rs"),
            contents: format!("{}//! The generated conversions: one file per pair of adjacent versions (both directions), and `chains`.\n\n#![allow(clippy::all, dead_code, deprecated, unused_imports, unused_mut)]\n\n{mod_lines}pub(crate) mod chains;\n", header(&format!("from {CONFIG_PATH}"))),
            part: Part::Whole,
        });
        files
    }

    fn pair(&self, pair: &ConvertPair) -> TokenStream {
        let (sp, dp) = (self.path(&pair.src), self.path(&pair.dst));
        let body = match &pair.how {
            PairConversion::ViaJson { place } => quote! { __c::via_json(self, "", STEP, #place) },
            PairConversion::Struct { source_only, fields } => structs(&dp, source_only, fields),
            PairConversion::Enum { not_in_target } => {
                let arms = not_in_target.iter().map(|(variant, place)| {
                    let variant = format_ident!("{}", variant);
                    quote! { Self::#variant => Err(__c::not_in_target(STEP, #place)), }
                });
                quote! {
                    match self {
                        #(#arms)*
                        other => Ok(#dp::from_wire(other.as_str())),
                    }
                }
            }
            PairConversion::Union { arms, unknown } | PairConversion::UnionToStruct { arms, unknown } => {
                let mut out: Vec<TokenStream> = arms.iter().map(|a| arm(&dp, a)).collect();
                out.extend(unknown.iter().map(|u| match u {
                    UnknownArm::Keep => quote! { Self::Unknown(o) => Ok(#dp::Unknown(o)), },
                    UnknownArm::Refuse { place } => quote! { Self::Unknown(_) => Err(__c::not_in_target(STEP, #place)), },
                }));
                quote! { match self { #(#out)* } }
            }
            PairConversion::StructToUnion(MemberTarget::Convert { variant: Some(w), boxed }) => {
                let wn = format_ident!("{}", w);
                let conv = quote! { Convert::convert(self)? };
                let conv = if *boxed { quote! { Box::new(#conv) } } else { conv };
                quote! { Ok(#dp::#wn(#conv)) }
            }
            PairConversion::StructToUnion(MemberTarget::NotInTarget { place }) => quote! { Err(__c::not_in_target(STEP, #place)) },
            PairConversion::StructToUnion(other) => unreachable!("a struct goes into a union's member or fails: {other:?}"),
        };
        // `#[inline]`: compiled in the crate that uses it, so the library's build does not pay for
        // the conversions an application never calls.
        quote! {
            impl Convert<#dp> for #sp {
                #[inline]
                fn convert(self) -> Result<#dp, ConvertError> {
                    #body
                }
            }
        }
    }

    /// Impls for versions further apart, identities, the request types with no target and the run-time table.
    fn chains(&self) -> GeneratedFile {
        let mut envelopes = Vec::new();
        for n in &self.plan.no_requests {
            let (sp, from, to, place) = (self.path(&n.src), &n.from, &n.to, &n.place);
            envelopes.push(quote! {
                impl Convert<crate::runtime::NoRequests> for #sp {
                    #[inline]
                    fn convert(self) -> Result<crate::runtime::NoRequests, ConvertError> {
                        Err(__c::not_in_target(__c::Step { from: #from, to: #to }, #place))
                    }
                }
            });
        }
        let tokens = quote! {
            use super::super::{Convert, ConvertError};
            use super::super::__c;

            #(#envelopes)*
        };
        // Chains, identities and the table are one line each, written as text: a formatter would spread them out.
        let impls: String = self.plan.chains.iter().map(|c| format!("through!({} => {} => {});\n", self.path_text(&c.src), self.path_text(&c.mid), self.path_text(&c.dst))).collect();
        let identity: String = self.plan.identity.iter().map(|r| format!("same_in_both!({});\n", self.path_text(r))).collect();
        let path = |p: &RustPath| format!("crate::{}::{}", p.module, p.name);
        let rows: String = self.plan.routes.iter().map(|r| format!("    route!({:?}, {:?}, {:?}, {:?}, {} => {}),\n", r.name, r.from, r.to, r.target, path(&r.src), path(&r.dst))).collect();
        let contents = format!(
            "{}{}\n{impls}\n{identity}\n/// Every named conversion, sorted by (type, from, to): what `convert_json` looks up.\n#[cfg(feature = \"dynamic\")]\npub(crate) static ROUTES: &[__c::Route] = &[\n{rows}];\n",
            header(&format!("from {CONFIG_PATH} and the schemas' IR")),
            format_tokens(tokens),
        );
        GeneratedFile { path: format!("{GENERATED_DIR}/convert/chains.rs"), contents, part: Part::Whole }
    }

    fn table(&self) -> String {
        let mut out = String::from("<!-- @generated by `cargo xtask codegen` from schema/codegen.toml and the schemas' IR. Do not edit. -->\n\n");
        out.push_str("# Conversions between protocol versions: every case that is not a plain field-by-field copy\n\n");
        out.push_str("`mcp_spec_types::convert` (feature `convert`) converts every type that exists in two protocol versions. ");
        out.push_str("A field the target does not define goes into the target's `extra`, and comes back out of it on the way back, ");
        out.push_str("so converting to another version and back gives the original. The rows below are every place where that is not a plain copy, per direction. ");
        out.push_str("`Where` is what a `ConvertError`'s `case` says. Versions further apart convert through each version in between, so their cases are those of each step.\n\n");
        out.push_str("| From | To | Where | When | What happens |\n|---|---|---|---|---|\n");
        for c in &self.plan.cases {
            out.push_str(&format!("| {} | {} | `{}` | {} | {} |\n", c.from, c.to, c.place, c.what, c.outcome));
        }
        let extension = &self.config.convert.extension_cases;
        if !extension.is_empty() {
            out.push_str("\n## A version's core and an extension on another version\n\n");
            out.push_str("Hand-written conversions (`generated/src/convert/<extension>.rs`) between types of a protocol version and of an extension ");
            out.push_str("that takes their place in a later version; the rows are `[[convert.extension]]` in `schema/codegen.toml`. Not listed: a plain copy.\n\n");
            out.push_str("| From | To | Where | When | What happens |\n|---|---|---|---|---|\n");
            for c in extension {
                out.push_str(&format!("| {} | {} | `{}` | {} | {} |\n", c.from, c.to, c.place, c.when, c.outcome));
            }
        }
        out
    }
}

/// A member of a source union: into the target's variant (or the target struct), through JSON, or refused.
fn arm(dp: &TokenStream, a: &Arm) -> TokenStream {
    let vn = format_ident!("{}", a.variant);
    let value = if a.boxed { quote! { *v } } else { quote! { v } };
    let wrap = |conv: TokenStream, boxed: bool| if boxed { quote! { Box::new(#conv) } } else { conv };
    match &a.to {
        MemberTarget::Convert { variant: Some(w), boxed } => {
            let (wn, conv) = (format_ident!("{}", w), wrap(quote! { Convert::convert(#value)? }, *boxed));
            quote! { Self::#vn(v) => Ok(#dp::#wn(#conv)), }
        }
        MemberTarget::Convert { variant: None, .. } => quote! { Self::#vn(v) => Convert::convert(#value), },
        MemberTarget::ViaJson { variant, boxed, place } => {
            let (wn, conv) = (format_ident!("{}", variant), wrap(quote! { __c::via_json(v, "", STEP, #place)? }, *boxed));
            quote! { Self::#vn(v) => Ok(#dp::#wn(#conv)), }
        }
        MemberTarget::NotInTarget { place } => quote! { Self::#vn(_) => Err(__c::not_in_target(STEP, #place)), },
    }
}

/// A struct field by field: the source's fields the target lacks, then each target field.
fn structs(dp: &TokenStream, source_only: &[SourceOnly], fields: &[TargetField]) -> TokenStream {
    let mut lets = Vec::new();
    let mut inits = Vec::new();
    for f in source_only {
        let (key, id) = (&f.key, format_ident!("{}", f.ident));
        lets.push(match (&f.refused, &f.literal, f.optional) {
            (Some(place), literal, optional) => {
                let test = match (literal, optional) {
                    (Some(_), true) => quote! { self.#id },
                    (None, true) => quote! { self.#id.is_some() },
                    (_, false) => quote! { true },
                };
                quote! { if #test { return Err(__c::refused(STEP, #place, #key)); } }
            }
            (None, Some(l), false) => {
                let v = lit_json(l);
                quote! { extra.insert(#key.to_string(), #v); }
            }
            (None, Some(l), true) => {
                let v = lit_json(l);
                quote! { if self.#id { extra.insert(#key.to_string(), #v); } }
            }
            (None, None, false) => quote! { __c::put(&mut extra, #key, &self.#id, STEP)?; },
            (None, None, true) => quote! { if let Some(v) = &self.#id { __c::put(&mut extra, #key, v, STEP)?; } },
        });
    }
    for g in fields {
        let (key, did) = (&g.key, format_ident!("{}", g.ident));
        match &g.fill {
            Fill::FromExtra { take, boxed } => {
                let rebox = |v: TokenStream, optional: bool| match (boxed, optional) {
                    (false, _) => v,
                    (true, false) => quote! { Box::new(#v) },
                    (true, true) => quote! { __c::rebox(#v) },
                };
                let value = match take {
                    Take::Literal { value, place } => {
                        let v = lit_json(value);
                        lets.push(quote! { { __c::take_literal(&mut extra, #key, #v, STEP, #place)?; } });
                        continue;
                    }
                    Take::Flag { value } => {
                        let v = lit_json(value);
                        quote! { __c::take_flag(&mut extra, #key, #v) }
                    }
                    Take::Required { place, optional: false } => rebox(quote! { __c::take_required(&mut extra, #key, STEP, #place)? }, false),
                    Take::Required { place, optional: true } => rebox(quote! { Some(__c::take_required(&mut extra, #key, STEP, #place)?) }, true),
                    Take::Optional { keep_null } => rebox(quote! { __c::take(&mut extra, #key, #keep_null, STEP)? }, true),
                };
                let tmp = format_ident!("__{}", did.to_string().trim_start_matches("r#"));
                lets.push(quote! { let #tmp = #value; });
                inits.push(quote! { #did: #tmp, });
            }
            Fill::SameLiteral(SameLiteral::Flag { source }) => {
                let v = match source {
                    Some(s) => {
                        let sid = format_ident!("{}", s);
                        quote! { self.#sid }
                    }
                    None => quote! { true },
                };
                inits.push(quote! { #did: #v, });
            }
            Fill::SameLiteral(SameLiteral::Check { source, place }) => {
                let sid = format_ident!("{}", source);
                lets.push(quote! { if !self.#sid { return Err(__c::missing(STEP, #place, #key)); } });
            }
            Fill::SameLiteral(SameLiteral::Nothing) => {}
            Fill::OtherLiteral { place } => lets.push(quote! { return Err(__c::not_in_target(STEP, #place)); }),
            Fill::Copy(c) => inits.push(copy(key, &did, c)),
        }
    }
    let mutable = if lets.is_empty() { quote! {} } else { quote! { mut } };
    quote! {
        let #mutable extra = self.extra;
        #(#lets)*
        Ok(#dp { #(#inits)* extra })
    }
}

/// A field both versions define: unboxed, required where the target requires it, converted, boxed again.
fn copy(key: &str, did: &proc_macro2::Ident, c: &FieldCopy) -> TokenStream {
    let sid = format_ident!("{}", c.source);
    let mut v = quote! { self.#sid };
    if c.source_boxed {
        v = if c.source_optional { quote! { #v.map(|b| *b) } } else { quote! { *#v } };
    }
    if let Some(place) = &c.need {
        v = quote! { __c::need(#v, STEP, #place, #key)? };
    }
    let conv = match &c.via_json {
        None => quote! { __c::field(#v, #key)? },
        Some(place) => quote! { __c::via_json(#v, #key, STEP, #place)? },
    };
    let conv = if c.target_optional && !c.source_optional { quote! { Some(#conv) } } else { conv };
    let value = match (c.target_boxed, c.target_optional) {
        (false, _) => conv,
        (true, false) => quote! { Box::new(#conv) },
        (true, true) => quote! { __c::rebox(#conv) },
    };
    quote! { #did: #value, }
}

fn lit_json(l: &Literal) -> TokenStream {
    match l {
        Literal::Str(s) => quote! { serde_json::Value::String(#s.to_string()) },
        Literal::Num(n) => quote! { __c::number(#n) },
        Literal::Bool(b) => quote! { serde_json::Value::Bool(#b) },
    }
}
