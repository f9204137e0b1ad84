//! The planner's state and the questions every part of the plan asks: a type's home module and
//! nominal item, its name in another version, and how a case is recorded.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::config::Config;
use crate::ir::*;

/// A pair still to plan, with the step (adjacent versions) it belongs to.
pub(super) struct Todo {
    pub(super) step: usize,
    pub(super) src: TypeRef,
    pub(super) dst: TypeRef,
}

/// The plan being built, with what the steps share: pairs already planned, cases, names that convert.
pub(super) struct Planner<'a> {
    pub(super) space: &'a TypeSpace,
    pub(super) config: &'a Config,
    pub(super) versions: Vec<&'a Module>,
    pub(super) plan: ConvertPlan,
    /// Per module: the module it re-exports shared items from, and their names.
    pub(super) shared: BTreeMap<String, (String, &'a BTreeSet<String>)>,
    /// Pairs already planned, by (source, target) home type.
    pub(super) done: BTreeSet<(TypeRef, TypeRef)>,
    pub(super) cases: BTreeSet<ConvertCase>,
    /// Per step: schema name in `from` -> schema name in `to`, for the names that convert.
    pub(super) names: Vec<BTreeMap<String, String>>,
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

pub(super) fn compatible(a: &ItemKind, b: &ItemKind) -> bool {
    matches!(
        (a, b),
        (ItemKind::Struct(_), ItemKind::Struct(_)) | (ItemKind::StringEnum(_), ItemKind::StringEnum(_)) | (ItemKind::Union(_), ItemKind::Union(_)) | (ItemKind::Union(_), ItemKind::Struct(_)) | (ItemKind::Struct(_), ItemKind::Union(_))
    )
}

pub(super) fn kind_word(k: &ItemKind) -> &'static str {
    match k {
        ItemKind::Struct(_) => "struct",
        ItemKind::StringEnum(_) => "string enum",
        ItemKind::Union(_) => "union",
        ItemKind::Alias(_) => "alias",
        ItemKind::Const(_) => "constant",
    }
}

impl<'a> Planner<'a> {
    /// The module that defines a type (a shared type is defined by the module it is re-exported from).
    pub(super) fn home(&self, r: &TypeRef) -> TypeRef {
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
    pub(super) fn nominal(&self, ty: &Ty) -> Option<(TypeRef, &'a Item)> {
        let Ty::Named(r) = self.space.deref(ty) else { return None };
        let item = self.space.item(&r)?;
        match item.kind {
            ItemKind::Struct(_) | ItemKind::StringEnum(_) | ItemKind::Union(_) => Some((self.home(&r), item)),
            _ => None,
        }
    }

    pub(super) fn nominal_in(&self, version: usize, name: &str) -> Option<TypeRef> {
        let m = self.versions[version];
        self.nominal(&Ty::Named(TypeRef { module: m.name.clone(), name: name.to_string() })).map(|(r, _)| r)
    }

    pub(super) fn rust_path(&self, r: &TypeRef) -> RustPath {
        RustPath { module: r.module.clone(), name: self.config.rust_type_name(&r.name).to_string() }
    }

    pub(super) fn protocol(&self, version: usize) -> String {
        self.plan.versions[version].protocol.clone()
    }

    /// The schema name a type has in the step's target version.
    pub(super) fn renamed(&self, step: usize, name: &str) -> String {
        let (from, to) = (self.plan.steps[step].from, self.plan.steps[step].to);
        let (lo, hi) = (from.min(to), from.max(to));
        for r in &self.config.convert.renames {
            let Some(since) = self.versions.iter().position(|v| v.name == r.since) else { continue };
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

    /// Records a case of the step; returns its place, which the failing code names.
    pub(super) fn case(&mut self, step: usize, place: String, what: String, outcome: &str) -> String {
        let (from, to) = (self.protocol(self.plan.steps[step].from), self.protocol(self.plan.steps[step].to));
        self.cases.insert(ConvertCase { from, to, place: place.clone(), what, outcome: outcome.to_string() });
        place
    }

    /// How a value of `src` becomes a `dst`: `true` when by `Convert` (the pairs it needs are queued),
    /// `false` when the shapes differ and it goes through JSON.
    pub(super) fn direct(&self, step: usize, src: &Ty, dst: &Ty, queue: &mut VecDeque<Todo>) -> bool {
        let mut needed = Vec::new();
        let ok = self.direct_into(step, src, dst, &mut needed);
        if ok {
            queue.extend(needed);
        }
        ok
    }

    fn direct_into(&self, step: usize, src: &Ty, dst: &Ty, needed: &mut Vec<Todo>) -> bool {
        let (s, d) = (norm(&self.space.deref(src)), norm(&self.space.deref(dst)));
        match (&s, &d) {
            (Ty::Array(a), Ty::Array(b)) | (Ty::Map(a), Ty::Map(b)) | (Ty::Nullable(a), Ty::Nullable(b)) => self.direct_into(step, a, b, needed),
            (Ty::Named(_), Ty::Named(_)) => match (self.nominal(&s), self.nominal(&d)) {
                (Some((sr, si)), Some((dr, di))) if compatible(&si.kind, &di.kind) => {
                    needed.push(Todo { step, src: sr, dst: dr });
                    true
                }
                _ => false,
            },
            (Ty::Named(_), _) | (_, Ty::Named(_)) => false,
            _ => s == d,
        }
    }

    /// Whether a field or member of `owner` is stored in a `Box`.
    pub(super) fn boxed(&self, owner: &TypeRef, ty: &Ty, field: bool) -> bool {
        let by_value = super::super::boxing::recursive_member(self.space, owner, ty);
        by_value || (field && matches!(ty, Ty::Named(r) if self.config.is_boxed(&r.name)))
    }
}
