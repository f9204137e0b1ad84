//! Conversions between protocol versions (`mcp_spec_types::convert`), from the IR.
//!
//! Types pair up by schema name (or a `[[convert.rename]]`) between adjacent versions; the pairs their
//! fields and members need are found on the way (an inline union that became `ContentBlock`, say).
//! Each pair gets a field-by-field `Convert` impl; versions further apart get impls that go through
//! the versions in between. Every case that can fail or that takes a fallback becomes a row of
//! `CONVERSIONS.md`, and the code that fails names its row, so the table cannot drift from the code.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::manifest::GENERATED_DIR;
use super::output::{format_tokens, header, GeneratedFile, Part};
use crate::config::{Config, CONFIG_PATH};
use crate::ir::*;
use crate::parse::Literal;
use crate::resolve::checks::field_rust_name;

/// A protocol version: its module and the version string messages carry.
struct Version<'a> {
    module: &'a Module,
    protocol: String,
}

/// One row of the table of cases.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Case {
    from: String,
    to: String,
    /// `Type.member`, also what the error's `case` says.
    place: String,
    what: String,
    outcome: String,
}

/// A pair of nominal types to convert, with the step (adjacent versions) it belongs to.
#[derive(Debug, Clone)]
struct Pair {
    step: usize,
    src: TypeRef,
    dst: TypeRef,
}

/// An adjacent step: versions `from` -> `to` (indices into `versions`), either direction.
struct Step {
    from: usize,
    to: usize,
}

struct Plan<'a> {
    space: &'a TypeSpace,
    config: &'a Config,
    versions: Vec<Version<'a>>,
    steps: Vec<Step>,
    /// Per module: the item names it re-exports from `share_with`, and that module.
    shared: BTreeMap<String, (String, BTreeSet<String>)>,
    /// Impls already emitted, by (source, target) home type.
    done: BTreeSet<(TypeRef, TypeRef)>,
    /// Types that are one Rust type in two versions (a shared module): `Convert<Self>`.
    identity: BTreeSet<TypeRef>,
    cases: BTreeSet<Case>,
    /// Per step: schema name in `from` -> schema name in `to`, for the names that convert.
    names: Vec<BTreeMap<String, String>>,
    /// Per step: the tokens of its impls.
    code: Vec<Vec<TokenStream>>,
}

pub fn files(space: &TypeSpace, config: &Config) -> Vec<GeneratedFile> {
    let versions: Vec<Version> = config
        .modules
        .iter()
        .filter(|m| m.overlay.is_none())
        .filter_map(|m| Some(Version { module: space.module(&m.name)?, protocol: m.protocol.clone()? }))
        .collect();
    if versions.len() < 2 {
        return Vec::new();
    }
    let mut steps = Vec::new();
    for i in 0..versions.len() - 1 {
        steps.push(Step { from: i, to: i + 1 });
        steps.push(Step { from: i + 1, to: i });
    }
    let mut shared = BTreeMap::new();
    for v in &versions {
        let Some(home) = config.modules.iter().find(|c| c.name == v.module.name).and_then(|c| c.share_with.clone()) else { continue };
        let names = space.layout.shared.get(&v.module.name).cloned().unwrap_or_default();
        shared.insert(v.module.name.clone(), (home, names));
    }
    let n = steps.len();
    let mut plan = Plan {
        space,
        config,
        versions,
        steps,
        shared,
        done: BTreeSet::new(),
        identity: BTreeSet::new(),
        cases: BTreeSet::new(),
        names: vec![BTreeMap::new(); n],
        code: vec![Vec::new(); n],
    };
    for s in 0..n {
        plan.step(s);
    }
    let chains = plan.chains();
    plan.render()
        .into_iter()
        .chain(std::iter::once(chains))
        .collect()
}

/// A type with the JSON forms of its kind compared: `Object` and a `JSONObject` binding are one Rust type.
fn norm(ty: &Ty) -> Ty {
    match ty {
        Ty::Binding(b) if b == "serde_json::Value" => Ty::Value,
        Ty::Binding(b) if b == "serde_json::Map<String, serde_json::Value>" => Ty::Object,
        Ty::Binding(b) if b == "Vec<serde_json::Value>" => Ty::Array(Box::new(Ty::Value)),
        other => other.clone(),
    }
}

impl<'a> Plan<'a> {
    /// The module that defines a type (a shared type is defined by the module it is re-exported from).
    fn home(&self, r: &TypeRef) -> TypeRef {
        let mut r = r.clone();
        for _ in 0..8 {
            match self.shared.get(&r.module) {
                Some((home, names)) if names.contains(&r.name) => r = TypeRef { module: home.clone(), name: r.name.clone() },
                _ => break,
            }
        }
        r
    }

    /// The struct, enum or union a type names, through aliases, at its home.
    fn nominal(&self, ty: &Ty) -> Option<(TypeRef, &'a Item)> {
        let Ty::Named(r) = self.space.deref(ty) else { return None };
        let item = self.space.item(&r)?;
        match item.kind {
            ItemKind::Struct(_) | ItemKind::StringEnum(_) | ItemKind::Union(_) => Some((self.home(&r), item)),
            _ => None,
        }
    }

    fn path_text(&self, r: &TypeRef) -> String {
        format!("crate::{}::{}", r.module, self.config.rust_type_name(&r.name))
    }

    fn path(&self, r: &TypeRef) -> TokenStream {
        let m = format_ident!("{}", r.module);
        let t = format_ident!("{}", self.config.rust_type_name(&r.name));
        quote! { crate::#m::#t }
    }

    /// The schema name a type has in the step's target version.
    fn renamed(&self, step: usize, name: &str) -> String {
        let (from, to) = (self.steps[step].from, self.steps[step].to);
        let (lo, hi) = (from.min(to), from.max(to));
        for r in &self.config.convert.renames {
            let Some(since) = self.versions.iter().position(|v| v.module.name == r.since) else { continue };
            if since > lo && since <= hi {
                if from < to && name == r.from {
                    return r.to.clone();
                }
                if from > to && name == r.to {
                    return r.from.clone();
                }
            }
        }
        name.to_string()
    }

    fn protocols(&self, step: usize) -> (&str, &str) {
        (&self.versions[self.steps[step].from].protocol, &self.versions[self.steps[step].to].protocol)
    }

    fn case(&mut self, step: usize, place: String, what: String, outcome: &str) -> String {
        let (from, to) = self.protocols(step);
        self.cases.insert(Case { from: from.to_string(), to: to.to_string(), place: place.clone(), what, outcome: outcome.to_string() });
        place
    }

    /// Pairs every named type of the step's source with its namesake in the target, then converts
    /// the pairs those need, until none is left.
    fn step(&mut self, step: usize) {
        let src_mod = self.versions[self.steps[step].from].module;
        let dst_mod = self.versions[self.steps[step].to].module;
        let mut queue = VecDeque::new();
        for item in &src_mod.items {
            let target = self.renamed(step, &item.name);
            if dst_mod.items.iter().all(|i| i.name != target) {
                continue;
            }
            let named = |m: &Module, n: &str| Ty::Named(TypeRef { module: m.name.clone(), name: n.to_string() });
            let (Some((src, si)), Some((dst, di))) = (self.nominal(&named(src_mod, &item.name)), self.nominal(&named(dst_mod, &target))) else { continue };
            if !compatible(&si.kind, &di.kind) {
                let place = item.name.clone();
                let what = format!("a {} in one version and a {} in the other", kind_word(&si.kind), kind_word(&di.kind));
                self.case(step, place, what, "not converted (no `Convert` impl)");
                continue;
            }
            self.names[step].insert(item.name.clone(), target);
            queue.push_back(Pair { step, src, dst });
        }
        while let Some(pair) = queue.pop_front() {
            if pair.src == pair.dst {
                self.identity.insert(pair.src.clone());
                continue;
            }
            if !self.done.insert((pair.src.clone(), pair.dst.clone())) {
                continue;
            }
            let tokens = self.pair(&pair, &mut queue);
            self.code[step].push(tokens);
        }
    }

    /// How a value of `src` becomes a `dst`: `true` when by `Convert` (the pairs it needs are queued),
    /// `false` when the shapes differ and it goes through JSON.
    fn direct(&self, step: usize, src: &Ty, dst: &Ty, queue: &mut VecDeque<Pair>) -> bool {
        let mut needed = Vec::new();
        let ok = self.direct_into(step, src, dst, &mut needed);
        if ok {
            queue.extend(needed);
        }
        ok
    }

    fn direct_into(&self, step: usize, src: &Ty, dst: &Ty, needed: &mut Vec<Pair>) -> bool {
        let (s, d) = (norm(&self.space.deref(src)), norm(&self.space.deref(dst)));
        match (&s, &d) {
            (Ty::Array(a), Ty::Array(b)) | (Ty::Map(a), Ty::Map(b)) | (Ty::Nullable(a), Ty::Nullable(b)) => self.direct_into(step, a, b, needed),
            (Ty::Named(_), Ty::Named(_)) => match (self.nominal(&s), self.nominal(&d)) {
                (Some((sr, si)), Some((dr, di))) if compatible(&si.kind, &di.kind) => {
                    needed.push(Pair { step, src: sr, dst: dr });
                    true
                }
                _ => false,
            },
            (Ty::Named(_), _) | (_, Ty::Named(_)) => false,
            _ => s == d,
        }
    }

    fn pair(&mut self, pair: &Pair, queue: &mut VecDeque<Pair>) -> TokenStream {
        let src_item = self.space.item(&pair.src).expect("nominal type");
        let dst_item = self.space.item(&pair.dst).expect("nominal type");
        let (sp, dp) = (self.path(&pair.src), self.path(&pair.dst));
        let body = match (&src_item.kind, &dst_item.kind) {
            (ItemKind::Struct(s), ItemKind::Struct(d)) => self.structs(pair, src_item, s, dst_item, d, queue),
            (ItemKind::StringEnum(s), ItemKind::StringEnum(d)) => self.enums(pair, src_item, s, d),
            (ItemKind::Union(s), ItemKind::Union(d)) => self.unions(pair, src_item, s, d, queue),
            (ItemKind::Union(s), ItemKind::Struct(_)) => self.union_to_struct(pair, src_item, s, dst_item, queue),
            (ItemKind::Struct(_), ItemKind::Union(d)) => self.struct_to_union(pair, src_item, dst_item, d, queue),
            _ => unreachable!("only compatible pairs are queued"),
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

    /// Whether a field or member of `owner` is stored in a `Box`.
    fn boxed(&self, owner: &TypeRef, ty: &Ty, field: bool) -> bool {
        let by_value = crate::resolve::layout::recursive_member(self.space, owner, ty);
        by_value || (field && matches!(ty, Ty::Named(r) if self.config.is_boxed(&r.name)))
    }

    fn structs(&mut self, pair: &Pair, si: &Item, s: &Struct, di: &Item, d: &Struct, queue: &mut VecDeque<Pair>) -> TokenStream {
        let dp = self.path(&pair.dst);
        let step = pair.step;
        if !matches!(s.rest, Ty::Value) || !matches!(d.rest, Ty::Value) {
            // Typed index signatures: no `extra` to keep the other version's keys in.
            let place = self.case(step, si.name.clone(), "an index signature (typed `extra`)".into(), "converted through JSON (error `Unreadable` if it does not read)");
            return quote! { __c::via_json(self, "", STEP, #place) };
        }
        let stored = |f: &&Field| !f.never;
        let src_fields: Vec<&Field> = s.fields.iter().filter(stored).collect();
        let dst_fields: Vec<&Field> = d.fields.iter().filter(stored).collect();
        let refused: BTreeSet<&str> = self.config.convert.refusals.iter().map(|r| r.field.as_str()).collect();
        let mut lets = Vec::new();
        let mut inits = Vec::new();
        let ident = |item: &Item, wire: &str| format_ident!("{}", field_rust_name(self.config, &item.name, wire));
        // Fields the target does not define: into its `extra`, or refused.
        for f in &src_fields {
            if dst_fields.iter().any(|g| g.name == f.name) {
                continue;
            }
            let key = &f.name;
            let id = ident(si, key);
            if refused.contains(key.as_str()) {
                let place = self.case(step, format!("{}.{}", si.name, key), format!("`{key}` set"), "error `Refused`");
                let test = if f.literal.is_some() && f.optional {
                    quote! { self.#id }
                } else if f.optional {
                    quote! { self.#id.is_some() }
                } else {
                    quote! { true }
                };
                lets.push(quote! { if #test { return Err(__c::refused(STEP, #place, #key)); } });
                continue;
            }
            self.case(step, format!("{}.{}", si.name, key), format!("`{key}` set"), "kept in the target's `extra`");
            lets.push(match (&f.literal, f.optional) {
                (Some(l), false) => {
                    let v = lit_json(l);
                    quote! { extra.insert(#key.to_string(), #v); }
                }
                (Some(l), true) => {
                    let v = lit_json(l);
                    quote! { if self.#id { extra.insert(#key.to_string(), #v); } }
                }
                (None, false) => quote! { __c::put(&mut extra, #key, &self.#id, STEP)?; },
                (None, true) => quote! { if let Some(v) = &self.#id { __c::put(&mut extra, #key, v, STEP)?; } },
            });
        }
        for g in &dst_fields {
            let key = &g.name;
            let did = ident(di, key);
            let src = src_fields.iter().find(|f| f.name == *key);
            let dst_boxed = g.literal.is_none() && self.boxed(&pair.dst, &g.ty, true);
            let rebox = |v: TokenStream, optional: bool| match (dst_boxed, optional) {
                (false, _) => v,
                (true, false) => quote! { Box::new(#v) },
                (true, true) => quote! { __c::rebox(#v) },
            };
            let Some(f) = src else {
                // The target defines it, the source does not: the source's `extra` may carry it.
                let place = format!("{}.{}", di.name, key);
                let value = match (&g.literal, g.optional) {
                    (Some(l), false) => {
                        let v = lit_json(l);
                        let place = self.case(step, place, format!("`{key}` absent"), "error `Missing` unless the source's `extra` has it");
                        quote! { { __c::take_literal(&mut extra, #key, #v, STEP, #place)?; } }
                    }
                    (Some(l), true) => {
                        let v = lit_json(l);
                        quote! { __c::take_flag(&mut extra, #key, #v) }
                    }
                    (None, false) => {
                        let place = self.case(step, place, format!("`{key}` absent"), "error `Missing` unless the source's `extra` has it");
                        rebox(quote! { __c::take_required(&mut extra, #key, STEP, #place)? }, false)
                    }
                    // Required by the target's schema but read leniently (`resultType`): absent, the
                    // converted value would be invalid there, so it is missing like any required field.
                    (None, true) if g.lenient.is_some() => {
                        let place = self.case(step, place, format!("`{key}` absent"), "error `Missing` unless the source's `extra` has it");
                        rebox(quote! { Some(__c::take_required(&mut extra, #key, STEP, #place)?) }, true)
                    }
                    (None, true) => {
                        let keep_null = !matches!(g.ty, Ty::Nullable(_) | Ty::Value);
                        rebox(quote! { __c::take(&mut extra, #key, #keep_null, STEP)? }, true)
                    }
                };
                if g.literal.is_some() && !g.optional {
                    lets.push(value);
                } else {
                    let tmp = format_ident!("__{}", did.to_string().trim_start_matches("r#"));
                    lets.push(quote! { let #tmp = #value; });
                    inits.push(quote! { #did: #tmp, });
                }
                continue;
            };
            let sid = ident(si, key);
            match (&f.literal, &g.literal) {
                (Some(a), Some(b)) if a == b => {
                    if g.optional {
                        let v = if f.optional { quote! { self.#sid } } else { quote! { true } };
                        inits.push(quote! { #did: #v, });
                    } else if f.optional {
                        let place = self.case(step, format!("{}.{}", di.name, key), format!("`{key}` absent"), "error `Missing`");
                        lets.push(quote! { if !self.#sid { return Err(__c::missing(STEP, #place, #key)); } });
                    }
                    continue;
                }
                (None, None) => {}
                _ => {
                    // A literal on one side only, or two different literals: the value cannot be carried.
                    let place = self.case(step, format!("{}.{}", si.name, key), format!("`{key}` has another fixed value"), "error `NotInTarget`");
                    lets.push(quote! { return Err(__c::not_in_target(STEP, #place)); });
                    continue;
                }
            }
            let src_boxed = self.boxed(&pair.src, &f.ty, true);
            let mut v = quote! { self.#sid };
            if src_boxed {
                v = if f.optional { quote! { #v.map(|b| *b) } } else { quote! { *#v } };
            }
            if f.optional && !g.optional {
                let place = self.case(step, format!("{}.{}", di.name, key), format!("`{key}` absent"), "error `Missing`");
                v = quote! { __c::need(#v, STEP, #place, #key)? };
            }
            let conv = if self.direct(step, &f.ty, &g.ty, queue) {
                quote! { __c::field(#v, #key)? }
            } else {
                let place = self.case(step, format!("{}.{}", si.name, key), "a different shape in the target".into(), "converted through JSON (error `Unreadable` if it does not read)");
                quote! { __c::via_json(#v, #key, STEP, #place)? }
            };
            let conv = if g.optional && !f.optional { quote! { Some(#conv) } } else { conv };
            let value = rebox(conv, g.optional);
            inits.push(quote! { #did: #value, });
        }
        let mutable = if lets.is_empty() { quote! {} } else { quote! { mut } };
        quote! {
            let #mutable extra = self.extra;
            #(#lets)*
            Ok(#dp { #(#inits)* extra })
        }
    }

    fn enums(&mut self, pair: &Pair, si: &Item, s: &StringEnum, d: &StringEnum) -> TokenStream {
        let dp = self.path(&pair.dst);
        let mut arms = Vec::new();
        if !d.open {
            for v in s.values.iter().filter(|v| !d.values.contains(v)) {
                let place = self.case(pair.step, format!("{}.{v}", si.name), format!("the value `{v:?}`"), "error `NotInTarget`");
                let variant = format_ident!("{}", crate::names::value_variant(v));
                arms.push(quote! { Self::#variant => Err(__c::not_in_target(STEP, #place)), });
            }
        }
        quote! {
            match self {
                #(#arms)*
                other => Ok(#dp::from_wire(other.as_str())),
            }
        }
    }

    /// A union member's type at its home, for matching members across versions.
    fn member_name(&self, v: &Variant) -> String {
        self.nominal(&v.ty).map_or_else(|| v.name.clone(), |(r, _)| r.name)
    }

    fn unions(&mut self, pair: &Pair, si: &Item, s: &Union, d: &Union, queue: &mut VecDeque<Pair>) -> TokenStream {
        let dp = self.path(&pair.dst);
        let step = pair.step;
        let mut arms = Vec::new();
        for v in &s.variants {
            let vn = format_ident!("{}", v.name);
            let renamed = self.renamed(step, &self.member_name(v));
            let target = d.variants.iter().find(|w| w.name == v.name).or_else(|| d.variants.iter().find(|w| self.member_name(w) == renamed));
            match target {
                Some(w) if self.direct(step, &v.ty, &w.ty, queue) => {
                    let wn = format_ident!("{}", w.name);
                    let value = if self.boxed(&pair.src, &v.ty, false) { quote! { *v } } else { quote! { v } };
                    let conv = quote! { Convert::convert(#value)? };
                    let conv = if self.boxed(&pair.dst, &w.ty, false) { quote! { Box::new(#conv) } } else { conv };
                    arms.push(quote! { Self::#vn(v) => Ok(#dp::#wn(#conv)), });
                }
                Some(w) => {
                    let wn = format_ident!("{}", w.name);
                    let place = self.case(step, format!("{}.{}", si.name, v.name), "a different shape in the target".into(), "converted through JSON (error `Unreadable` if it does not read)");
                    let conv = quote! { __c::via_json(v, "", STEP, #place)? };
                    let conv = if self.boxed(&pair.dst, &w.ty, false) { quote! { Box::new(#conv) } } else { conv };
                    arms.push(quote! { Self::#vn(v) => Ok(#dp::#wn(#conv)), });
                }
                None => {
                    let place = self.case(step, format!("{}.{}", si.name, v.name), format!("a member `{}`", v.name), "error `NotInTarget`");
                    arms.push(quote! { Self::#vn(_) => Err(__c::not_in_target(STEP, #place)), });
                }
            }
        }
        let (src_unknown, dst_unknown) = (has_unknown(s), has_unknown(d));
        if src_unknown {
            if dst_unknown {
                self.case(step, format!("{}.Unknown", si.name), "a member the source version does not define".into(), "kept as the target's `Unknown`, as received");
                arms.push(quote! { Self::Unknown(o) => Ok(#dp::Unknown(o)), });
            } else {
                let place = self.case(step, format!("{}.Unknown", si.name), "a member the source version does not define".into(), "error `NotInTarget`");
                arms.push(quote! { Self::Unknown(_) => Err(__c::not_in_target(STEP, #place)), });
            }
        }
        quote! { match self { #(#arms)* } }
    }

    fn union_to_struct(&mut self, pair: &Pair, si: &Item, s: &Union, di: &Item, queue: &mut VecDeque<Pair>) -> TokenStream {
        let step = pair.step;
        let target = self.renamed(step, &di.name);
        let dst_ty = Ty::Named(pair.dst.clone());
        let mut arms = Vec::new();
        for v in &s.variants {
            let vn = format_ident!("{}", v.name);
            let member = self.renamed(step, &self.member_name(v));
            if member == di.name || member == target || self.renamed(step, &v.name) == di.name {
                if self.direct(step, &v.ty, &dst_ty, queue) {
                    let value = if self.boxed(&pair.src, &v.ty, false) { quote! { *v } } else { quote! { v } };
                    arms.push(quote! { Self::#vn(v) => Convert::convert(#value), });
                    continue;
                }
            }
            let place = self.case(step, format!("{}.{}", si.name, v.name), format!("a member `{}`", v.name), "error `NotInTarget`");
            arms.push(quote! { Self::#vn(_) => Err(__c::not_in_target(STEP, #place)), });
        }
        if has_unknown(s) {
            let place = self.case(step, format!("{}.Unknown", si.name), "a member the source version does not define".into(), "error `NotInTarget`");
            arms.push(quote! { Self::Unknown(_) => Err(__c::not_in_target(STEP, #place)), });
        }
        quote! { match self { #(#arms)* } }
    }

    fn struct_to_union(&mut self, pair: &Pair, si: &Item, di: &Item, d: &Union, queue: &mut VecDeque<Pair>) -> TokenStream {
        let step = pair.step;
        let dp = self.path(&pair.dst);
        let src_ty = Ty::Named(pair.src.clone());
        let renamed = self.renamed(step, &si.name);
        let target = d.variants.iter().find(|w| self.member_name(w) == renamed || w.name == renamed);
        match target {
            Some(w) if self.direct(step, &src_ty, &w.ty, queue) => {
                let wn = format_ident!("{}", w.name);
                let conv = quote! { Convert::convert(self)? };
                let conv = if self.boxed(&pair.dst, &w.ty, false) { quote! { Box::new(#conv) } } else { conv };
                quote! { Ok(#dp::#wn(#conv)) }
            }
            _ => {
                let place = self.case(step, si.name.clone(), format!("no member of `{}` holds it", di.name), "error `NotInTarget`");
                quote! { Err(__c::not_in_target(STEP, #place)) }
            }
        }
    }

    /// Impls for versions further apart, through each version in between, and the identity impls.
    fn chains(&mut self) -> GeneratedFile {
        let count = self.versions.len();
        let mut impls = Vec::new();
        let mut table: Vec<(String, String, String, String, String, String)> = Vec::new();
        // name maps for every ordered pair (i, j): schema name in i -> (schema name in j, next name).
        let step_index = |from: usize, to: usize| -> usize { if to > from { 2 * from } else { 2 * to + 1 } };
        let mut reach: BTreeMap<(usize, usize), BTreeMap<String, String>> = BTreeMap::new();
        for i in 0..count {
            for j in 0..count {
                if i.abs_diff(j) == 1 {
                    reach.insert((i, j), self.names[step_index(i, j)].clone());
                }
            }
        }
        for dist in 2..count {
            for i in 0..count {
                for j in [i.checked_sub(dist), Some(i + dist)].into_iter().flatten().filter(|&j| j < count) {
                    let next = if j > i { i + 1 } else { i - 1 };
                    let first = reach[&(i, next)].clone();
                    let rest = reach[&(next, j)].clone();
                    let mut map = BTreeMap::new();
                    for (name, mid) in &first {
                        let Some(last) = rest.get(mid) else { continue };
                        let src = self.nominal_in(i, name);
                        let midt = self.nominal_in(next, mid);
                        let dst = self.nominal_in(j, last);
                        let (Some(src), Some(midt), Some(dst)) = (src, midt, dst) else { continue };
                        map.insert(name.clone(), last.clone());
                        if src == dst {
                            self.identity.insert(src);
                            continue;
                        }
                        if !self.done.insert((src.clone(), dst.clone())) {
                            continue;
                        }
                        impls.push(format!("through!({} => {} => {});\n", self.path_text(&src), self.path_text(&midt), self.path_text(&dst)));
                    }
                    // A type of both versions that some version in between lacks (or cannot convert) is left out.
                    let gaps: Vec<String> = self.versions[i]
                        .module
                        .items
                        .iter()
                        .filter(|it| !map.contains_key(&it.name) && self.nominal_in(i, &it.name).is_some() && self.nominal_in(j, &it.name).is_some())
                        .map(|it| it.name.clone())
                        .collect();
                    for name in gaps {
                        self.skip_chain(i, j, &name);
                    }
                    reach.insert((i, j), map);
                }
            }
        }
        // Rows of the run-time table: every named pair, by schema name and protocol versions.
        for ((i, j), map) in &reach {
            for (name, target) in map {
                let (Some(src), Some(dst)) = (self.nominal_in(*i, name), self.nominal_in(*j, target)) else { continue };
                table.push((name.clone(), self.versions[*i].protocol.clone(), self.versions[*j].protocol.clone(), target.clone(), self.path_text(&src), self.path_text(&dst)));
            }
        }
        for e in &self.config.envelopes {
            let has = |m: &Module, n: &str| m.items.iter().any(|it| it.name == n);
            let emitted = |m: &Module| has(m, &e.id) && has(m, &e.result) && has(m, &e.notification) && e.error.iter().any(|n| has(m, n));
            for (i, vi) in self.versions.iter().enumerate() {
                for (j, vj) in self.versions.iter().enumerate() {
                    if i == j || !emitted(vi.module) || !emitted(vj.module) {
                        continue;
                    }
                    let (sp, dp) = (format!("crate::{}::{}", vi.module.name, e.name), format!("crate::{}::{}", vj.module.name, e.name));
                    table.push((e.name.clone(), vi.protocol.clone(), vj.protocol.clone(), e.name.clone(), sp, dp));
                }
            }
        }
        table.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
        let envelopes = self.envelope_impls();
        // Chains, identities and the table are one line each, written as text: a formatter would spread them out.
        let identity: String = self.identity.iter().map(|r| format!("same_in_both!({});\n", self.path_text(r))).collect();
        let rows: String = table.iter().map(|(name, from, to, target, sp, dp)| format!("    route!({name:?}, {from:?}, {to:?}, {target:?}, {sp} => {dp}),\n")).collect();
        let tokens = quote! {
            use super::super::{Convert, ConvertError};
            use super::super::__c;

            #envelopes
        };
        let contents = format!(
            "{}{}\n{}\n{identity}\n/// Every named conversion, sorted by (type, from, to): what `convert_json` looks up.\n#[cfg(feature = \"dynamic\")]\npub(crate) static ROUTES: &[__c::Route] = &[\n{rows}];\n",
            header(&format!("from {CONFIG_PATH} and the schemas' IR")),
            format_tokens(tokens),
            impls.concat(),
        );
        GeneratedFile { path: format!("{GENERATED_DIR}/convert/chains.rs"), contents, part: Part::Whole }
    }

    fn skip_chain(&mut self, i: usize, j: usize, name: &str) {
        let (from, to) = (self.versions[i].protocol.clone(), self.versions[j].protocol.clone());
        let what = "a version in between lacks the type, or it does not convert there".to_string();
        self.cases.insert(Case { from, to, place: name.to_string(), what, outcome: "not converted (no `Convert` impl): a conversion goes through every version in between".into() });
    }

    fn nominal_in(&self, version: usize, name: &str) -> Option<TypeRef> {
        let m = self.versions[version].module;
        self.nominal(&Ty::Named(TypeRef { module: m.name.clone(), name: name.to_string() })).map(|(r, _)| r)
    }

    /// A side that sends requests in one version and none in another: its requests cannot convert.
    fn envelope_impls(&mut self) -> TokenStream {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for e in &self.config.envelopes {
            for (i, vi) in self.versions.iter().enumerate() {
                for (j, vj) in self.versions.iter().enumerate() {
                    let has = |m: &Module| m.items.iter().any(|it| it.name == e.request);
                    if i == j || !has(vi.module) || has(vj.module) {
                        continue;
                    }
                    let Some(src) = self.nominal_in(i, &e.request) else { continue };
                    let place = e.request.clone();
                    self.cases.insert(Case { from: vi.protocol.clone(), to: vj.protocol.clone(), place: place.clone(), what: format!("any {} (the target's {} sends no requests)", e.request, e.sender), outcome: "error `NotInTarget`".into() });
                    if !seen.insert(src.clone()) {
                        continue;
                    }
                    let sp = self.path(&src);
                    let (from, to) = (&vi.protocol, &vj.protocol);
                    out.push(quote! {
                        impl Convert<crate::runtime::NoRequests> for #sp {
                            #[inline]
                            fn convert(self) -> Result<crate::runtime::NoRequests, ConvertError> {
                                Err(__c::not_in_target(__c::Step { from: #from, to: #to }, #place))
                            }
                        }
                    });
                }
            }
        }
        quote! { #(#out)* }
    }

    fn render(&mut self) -> Vec<GeneratedFile> {
        let mut files = Vec::new();
        let mut mods = Vec::new();
        for pair in 0..self.versions.len() - 1 {
            let (a, b) = (&self.versions[pair], &self.versions[pair + 1]);
            let name = format!("{}_{}", a.module.name, b.module.name);
            let mut parts = Vec::new();
            for (s, (from, to)) in [(2 * pair, (a, b)), (2 * pair + 1, (b, a))] {
                let code = std::mem::take(&mut self.code[s]);
                let m = format_ident!("{}_to_{}", from.module.name, to.module.name);
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
        files.push(GeneratedFile { path: "CONVERSIONS.md".into(), contents: self.table(), part: Part::Whole });
        files
    }

    fn table(&self) -> String {
        let mut out = String::from("<!-- @generated by `cargo xtask codegen` from schema/codegen.toml and the schemas' IR. Do not edit. -->\n\n");
        out.push_str("# Conversions between protocol versions: every case that is not a plain field-by-field copy\n\n");
        out.push_str("`mcp_spec_types::convert` (feature `convert`) converts every type that exists in two protocol versions. ");
        out.push_str("A field the target does not define goes into the target's `extra`, and comes back out of it on the way back, ");
        out.push_str("so converting to another version and back gives the original. The rows below are every place where that is not a plain copy, per direction. ");
        out.push_str("`Where` is what a `ConvertError`'s `case` says. Versions further apart convert through each version in between, so their cases are those of each step.\n\n");
        out.push_str("| From | To | Where | When | What happens |\n|---|---|---|---|---|\n");
        let order = |p: &str| self.versions.iter().position(|v| v.protocol == p).unwrap_or(usize::MAX);
        let mut rows: Vec<&Case> = self.cases.iter().collect();
        rows.sort_by(|a, b| (order(&a.from), order(&a.to), &a.place, &a.what).cmp(&(order(&b.from), order(&b.to), &b.place, &b.what)));
        for c in rows {
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

fn compatible(a: &ItemKind, b: &ItemKind) -> bool {
    matches!(
        (a, b),
        (ItemKind::Struct(_), ItemKind::Struct(_)) | (ItemKind::StringEnum(_), ItemKind::StringEnum(_)) | (ItemKind::Union(_), ItemKind::Union(_)) | (ItemKind::Union(_), ItemKind::Struct(_)) | (ItemKind::Struct(_), ItemKind::Union(_))
    )
}

fn kind_word(k: &ItemKind) -> &'static str {
    match k {
        ItemKind::Struct(_) => "struct",
        ItemKind::StringEnum(_) => "string enum",
        ItemKind::Union(_) => "union",
        ItemKind::Alias(_) => "alias",
        ItemKind::Const(_) => "constant",
    }
}

fn has_unknown(u: &Union) -> bool {
    matches!(&u.dispatch, Dispatch::Tag(t) if t.on_other.is_none())
}

fn lit_json(l: &Literal) -> TokenStream {
    match l {
        Literal::Str(s) => quote! { serde_json::Value::String(#s.to_string()) },
        Literal::Num(n) => quote! { __c::number(#n) },
        Literal::Bool(b) => quote! { serde_json::Value::Bool(#b) },
    }
}
