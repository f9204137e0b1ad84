//! Types a module re-exports from the module it shares with (`share_with` in
//! `schema/codegen.toml`) instead of compiling them a second time.
//!
//! A type is shared when it is the same in both modules as far as its code goes (docs
//! aside) and so is every type of the module it refers to (its fields, members, and for
//! a request its result): otherwise the same code would name different types. "The
//! same" is decided on the IR: the same shape, references to the module's own types by
//! the same name, references elsewhere to the same module, the same `@deprecated` and
//! constraints, and the same configuration applying to it in either module.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Config;
use crate::ir::*;
use crate::parse::TagKind;

/// `layout` must hold the keyed unions and scored types already.
pub(super) fn shared_items(layout: &Layout, config: &Config, here: &Module, home: &Module) -> BTreeSet<String> {
    let same = Same { layout, config, here, home };
    let home_items: BTreeMap<&str, &Item> = home.items.iter().map(|i| (i.name.as_str(), i)).collect();
    let mut shared: BTreeSet<String> = here.items.iter().filter(|i| home_items.get(i.name.as_str()).is_some_and(|h| same.item(i, h))).map(|i| i.name.clone()).collect();
    let refs: BTreeMap<&str, BTreeSet<String>> = here.items.iter().map(|i| (i.name.as_str(), refs_of(here, i))).collect();
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

/// Compares an item of `here` with the same-named item of `home`.
struct Same<'a> {
    layout: &'a Layout,
    config: &'a Config,
    here: &'a Module,
    home: &'a Module,
}

impl Same<'_> {
    fn item(&self, a: &Item, b: &Item) -> bool {
        let shape = match (&a.kind, &b.kind) {
            (ItemKind::Struct(x), ItemKind::Struct(y)) => self.ty(&x.rest, &y.rest) && x.fields.len() == y.fields.len() && x.fields.iter().zip(&y.fields).all(|(f, g)| self.field(f, g)),
            (ItemKind::StringEnum(x), ItemKind::StringEnum(y)) => x.values == y.values && x.open == y.open,
            (ItemKind::Union(x), ItemKind::Union(y)) => x.dispatch == y.dispatch && x.variants.len() == y.variants.len() && x.variants.iter().zip(&y.variants).all(|(v, w)| v.name == w.name && self.ty(&v.ty, &w.ty)),
            (ItemKind::Alias(x), ItemKind::Alias(y)) => self.ty(x, y),
            (ItemKind::Const(x), ItemKind::Const(y)) => x == y,
            _ => false,
        };
        let in_here = TypeRef { module: self.here.name.clone(), name: a.name.clone() };
        let in_home = TypeRef { module: self.home.name.clone(), name: b.name.clone() };
        let layout = self.layout;
        shape
            && deprecation(&a.doc) == deprecation(&b.doc)
            && layout.scored.contains(&in_here) == layout.scored.contains(&in_home)
            && layout.keyed.contains_key(&in_here) == layout.keyed.contains_key(&in_home)
            && self.configured(&a.name, self.here) == self.configured(&b.name, self.home)
    }

    fn field(&self, f: &Field, g: &Field) -> bool {
        f.name == g.name
            && f.optional == g.optional
            && f.lenient == g.lenient
            && f.literal == g.literal
            && f.never == g.never
            && self.ty(&f.ty, &g.ty)
            && deprecation(&f.doc) == deprecation(&g.doc)
            && f.doc.constraints().eq(g.doc.constraints())
    }

    /// The same type as code names it: the module's own type of the same name, or the same
    /// type of a third module.
    fn ty(&self, a: &Ty, b: &Ty) -> bool {
        match (a, b) {
            (Ty::Named(x), Ty::Named(y)) => {
                let (x_own, y_own) = (x.module == self.here.name, y.module == self.home.name);
                x.name == y.name && x_own == y_own && (x_own || x.module == y.module)
            }
            (Ty::Array(x), Ty::Array(y)) | (Ty::Map(x), Ty::Map(y)) | (Ty::Nullable(x), Ty::Nullable(y)) => self.ty(x, y),
            _ => a == b,
        }
    }

    /// Which module-scoped configuration applies to a type in `module`: its hand-written
    /// checks, moved fields, and the envelopes it takes part in.
    fn configured(&self, name: &str, module: &Module) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let in_module = |modules: &[String]| modules.is_empty() || modules.contains(&module.name);
        let checks = self.config.checks.iter().enumerate().filter(|(_, c)| c.types.iter().any(|t| t == name) && in_module(&c.modules)).map(|(i, _)| i).collect();
        let moves = self.config.moved_fields.iter().enumerate().filter(|(_, m)| m.type_name == name && m.modules.contains(&module.name)).map(|(i, _)| i).collect();
        let has = |n: &str| module.items.iter().any(|i| i.name == n);
        let envelopes = self.config.envelopes.iter().enumerate().filter(|(_, e)| (e.request == name || e.error.iter().any(|n| n == name)) && has(&e.id)).map(|(i, _)| i).collect();
        (checks, moves, envelopes)
    }
}

/// The `@deprecated` note as the `#[deprecated]` attribute carries it.
fn deprecation(doc: &crate::parse::Doc) -> Option<Vec<&str>> {
    doc.tag(TagKind::Deprecated).map(|v| v.split_whitespace().collect())
}
