//! Which members are stored in a `Box`: for recursion, or because configuration says so (`[[boxed]]`).
//! Answered on demand from the IR and the config, by the emitters and the conversion plan.

use std::collections::BTreeSet;

use crate::config::Config;
use crate::ir::*;

/// Whether a value of `ty` contains a `target` without a `Vec` or map in between: a member
/// of `target` of that type must be boxed.
pub fn contains_by_value(space: &TypeSpace, ty: &Ty, target: &TypeRef, seen: &mut BTreeSet<TypeRef>) -> bool {
    match ty {
        Ty::Named(r) => {
            if r == target {
                return true;
            }
            if !seen.insert(r.clone()) {
                return false;
            }
            match space.item(r).map(|i| &i.kind) {
                Some(ItemKind::Struct(s)) => s.fields.iter().any(|f| !f.never && f.literal.is_none() && contains_by_value(space, &f.ty, target, seen)),
                Some(ItemKind::Union(u)) => u.variants.iter().any(|v| contains_by_value(space, &v.ty, target, seen)),
                Some(ItemKind::Alias(t)) => contains_by_value(space, t, target, seen),
                _ => false,
            }
        }
        Ty::Nullable(inner) => contains_by_value(space, inner, target, seen),
        _ => false,
    }
}

/// Whether a field or variant of `owner` of type `ty` is boxed because it would otherwise contain `owner`.
pub fn recursive_member(space: &TypeSpace, owner: &TypeRef, ty: &Ty) -> bool {
    contains_by_value(space, ty, owner, &mut BTreeSet::new())
}

/// Whether a field of `owner` is boxed only because configuration stores its type boxed
/// (`[[boxed]]`), not already for recursion.
pub fn boxed_by_config(space: &TypeSpace, config: &Config, owner: &TypeRef, ty: &Ty) -> bool {
    matches!(ty, Ty::Named(r) if config.is_boxed(&r.name)) && !recursive_member(space, owner, ty)
}
