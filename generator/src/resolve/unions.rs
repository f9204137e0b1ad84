//! How each union is read: by JSON kind, by a tag field, or by the keys present.

use std::collections::BTreeSet;

use crate::diagnostics::Diagnostics;
use crate::ir::*;
use crate::parse::Literal;

/// What one variant says about a candidate tag field.
#[derive(Debug, Default)]
struct TagInfo {
    values: Vec<String>,
    /// The variant also stands for an absent tag (optional literal, or an open string field).
    absent: bool,
    /// The variant also stands for values nobody else names (an open string field).
    open: bool,
}

pub fn classify(space: &mut TypeSpace, _diags: &mut Diagnostics) {
    // Nested unions are decided first; a few passes reach the fixed point for any nesting depth.
    for _ in 0..8 {
        let mut changed = false;
        for mi in 0..space.modules.len() {
            for ii in 0..space.modules[mi].items.len() {
                let ItemKind::Union(u) = &space.modules[mi].items[ii].kind else { continue };
                let dispatch = decide(space, u);
                if dispatch != u.dispatch {
                    if let ItemKind::Union(u) = &mut space.modules[mi].items[ii].kind {
                        u.dispatch = dispatch;
                    }
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

fn decide(space: &TypeSpace, u: &Union) -> Dispatch {
    let kinds: Vec<JsonKind> = u.variants.iter().map(|v| space.kind_of(&v.ty)).collect();
    let distinct: BTreeSet<JsonKind> = kinds.iter().copied().collect();
    if distinct.len() == kinds.len() && !distinct.contains(&JsonKind::Any) {
        return Dispatch::Kind;
    }
    if kinds.iter().all(|k| *k == JsonKind::Object) {
        for field in candidate_fields(space, u) {
            if let Some(tag) = try_tag(space, u, &field) {
                return Dispatch::Tag(tag);
            }
        }
    }
    Dispatch::Shape
}

/// Fields with a literal value in some variant, in declaration order.
fn candidate_fields(space: &TypeSpace, u: &Union) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in &u.variants {
        let names = match (space.struct_of(&v.ty), space.union_of(&v.ty)) {
            (Some((_, s)), _) => s.fields.iter().filter(|f| f.literal.is_some()).map(|f| f.name.clone()).collect(),
            (None, Some((_, inner))) => match &inner.dispatch {
                Dispatch::Tag(t) => vec![t.field.clone()],
                _ => vec![],
            },
            _ => vec![],
        };
        for n in names {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

fn try_tag(space: &TypeSpace, u: &Union, field: &str) -> Option<Tag> {
    let mut tag = Tag { field: field.to_string(), cases: Vec::new(), on_absent: None, on_other: None };
    let mut seen = BTreeSet::new();
    for (i, v) in u.variants.iter().enumerate() {
        let info = tag_info(space, &v.ty, field)?;
        for value in info.values {
            if !seen.insert(value.clone()) {
                return None;
            }
            tag.cases.push((value, i));
        }
        if info.absent {
            if tag.on_absent.is_some() {
                return None;
            }
            tag.on_absent = Some(i);
        }
        if info.open {
            if tag.on_other.is_some() {
                return None;
            }
            tag.on_other = Some(i);
        }
    }
    (!tag.cases.is_empty()).then_some(tag)
}

fn tag_info(space: &TypeSpace, ty: &Ty, field: &str) -> Option<TagInfo> {
    if let Some((_, s)) = space.struct_of(ty) {
        let f = s.fields.iter().find(|f| f.name == field)?;
        return match (&f.literal, space.deref(&f.ty)) {
            (Some(Literal::Str(v)), _) => Some(TagInfo { values: vec![v.clone()], absent: f.optional, open: false }),
            (Some(_), _) => None,
            (None, Ty::Named(r)) if matches!(space.item(&r).map(|i| &i.kind), Some(ItemKind::StringEnum(e)) if !e.open) => {
                let Some(ItemKind::StringEnum(e)) = space.item(&r).map(|i| &i.kind) else { return None };
                Some(TagInfo { values: e.values.clone(), absent: f.optional, open: false })
            }
            (None, Ty::String) => Some(TagInfo { values: vec![], absent: f.optional, open: true }),
            (None, t) if space.kind_of(&t) == JsonKind::String => Some(TagInfo { values: vec![], absent: f.optional, open: true }),
            _ => None,
        };
    }
    let (_, inner) = space.union_of(ty)?;
    let Dispatch::Tag(t) = &inner.dispatch else { return None };
    if t.field != field {
        return None;
    }
    Some(TagInfo {
        values: t.cases.iter().map(|(v, _)| v.clone()).collect(),
        absent: t.on_absent.is_some(),
        open: t.on_other.is_some(),
    })
}
