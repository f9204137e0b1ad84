//! Unions decided by the keys present, read without a `serde_json::Value` buffer: which
//! of them can be read through their members' builders, which keys decide a member on
//! their own, which values and keys rule a member out, and which types need a key-only
//! score. Pure questions about the IR; `emit::keyed` writes the answers as code.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::*;
use crate::parse::Literal;

/// Nesting of unions inside unions is shallow in every schema; this bounds the recursion.
pub const DEPTH: usize = 8;

/// What one member of a keyed union is, as far as reading goes.
enum Member<'a> {
    Struct(&'a Struct),
    Tagged,
    Keyed(&'a Union),
}

fn member<'a>(space: &'a TypeSpace, ty: &Ty, depth: usize) -> Option<Member<'a>> {
    if let Some((_, s)) = space.struct_of(ty) {
        return Some(Member::Struct(s));
    }
    let (_, u) = space.union_of(ty)?;
    match &u.dispatch {
        Dispatch::Tag(_) => Some(Member::Tagged),
        Dispatch::Shape if eligible_at(space, u, depth + 1) => Some(Member::Keyed(u)),
        _ => None,
    }
}

/// Whether a keys-decided union can be read through builders: every member is an
/// object type with one (a struct, a tagged union, or such a union again).
pub(super) fn eligible(space: &TypeSpace, u: &Union) -> bool {
    eligible_at(space, u, 0)
}

fn eligible_at(space: &TypeSpace, u: &Union, depth: usize) -> bool {
    depth < DEPTH && u.dispatch == Dispatch::Shape && u.variants.iter().all(|v| member(space, &v.ty, depth).is_some())
}

/// Every struct and union that is a member, at any depth, of a keyed union: these
/// get a key-only score.
pub(super) fn scored_members(space: &TypeSpace) -> BTreeSet<TypeRef> {
    let mut out = BTreeSet::new();
    for m in &space.modules {
        for item in &m.items {
            if let ItemKind::Union(u) = &item.kind {
                if eligible(space, u) {
                    collect(space, u, &mut out, 0);
                }
            }
        }
    }
    out
}

fn collect(space: &TypeSpace, u: &Union, out: &mut BTreeSet<TypeRef>, depth: usize) {
    if depth >= DEPTH {
        return;
    }
    for v in &u.variants {
        let Ty::Named(r) = space.deref(&v.ty) else { continue };
        if !out.insert(r.clone()) {
            continue;
        }
        if let Some((_, inner)) = space.union_of(&v.ty) {
            collect(space, inner, out, depth + 1);
        }
    }
}

/// The keys a type names; `None` when it takes any key with a typed value (an index
/// signature), so that no key can rule it out.
fn known_keys(space: &TypeSpace, ty: &Ty, depth: usize) -> Option<BTreeSet<String>> {
    if depth >= DEPTH {
        return None;
    }
    if let Some((_, s)) = space.struct_of(ty) {
        if s.rest != Ty::Value {
            return None;
        }
        return Some(s.fields.iter().filter(|f| !f.never).map(|f| f.name.clone()).collect());
    }
    let (_, u) = space.union_of(ty)?;
    let mut all = BTreeSet::new();
    for v in &u.variants {
        all.extend(known_keys(space, &v.ty, depth + 1)?);
    }
    Some(all)
}

/// Whether a type reads every JSON object (nothing required, unknown keys kept as values).
fn takes_any_object(space: &TypeSpace, ty: &Ty, depth: usize) -> bool {
    if depth >= DEPTH {
        return false;
    }
    if let Some((_, s)) = space.struct_of(ty) {
        return s.rest == Ty::Value && s.fields.iter().all(|f| f.optional || f.never);
    }
    match space.union_of(ty) {
        Some((_, u)) => match &u.dispatch {
            Dispatch::Tag(t) => t.on_absent.is_some_and(|i| takes_any_object(space, &u.variants[i].ty, depth + 1)),
            _ => u.variants.iter().any(|v| takes_any_object(space, &v.ty, depth + 1)),
        },
        None => false,
    }
}

/// Keys that decide a member on their own: required by it (or deciding inside it, for
/// a nested keyed union) and named by no other member. None at all when some member
/// takes any object: there the whole object is ranked (a key another member names only
/// rules the catch-all out, see [`catch_all_keys`]), and `from_slice` guesses instead.
fn deciding_keys(space: &TypeSpace, u: &Union, depth: usize) -> Vec<(String, usize)> {
    if depth >= DEPTH || has_catch_all(space, u, depth) {
        return Vec::new();
    }
    unique_keys(space, u, depth, true)
}

fn has_catch_all(space: &TypeSpace, u: &Union, depth: usize) -> bool {
    u.variants.iter().any(|v| takes_any_object(space, &v.ty, depth))
}

/// In a union with a catch-all member, the keys that name one struct member alone: a
/// reader that can read the input again guesses that member at such a key (see
/// `__p::Keyed::guess_for_key`).
fn guessing_keys(space: &TypeSpace, u: &Union) -> Vec<(String, usize)> {
    if !has_catch_all(space, u, 0) {
        return Vec::new();
    }
    unique_keys(space, u, 0, false)
}

/// Required keys of a member that no other member names; `nested` also looks inside
/// members that are keyed unions themselves.
fn unique_keys(space: &TypeSpace, u: &Union, depth: usize, nested: bool) -> Vec<(String, usize)> {
    let known: Vec<Option<BTreeSet<String>>> = u.variants.iter().map(|v| known_keys(space, &v.ty, depth)).collect();
    let mut out = Vec::new();
    for (i, v) in u.variants.iter().enumerate() {
        let candidates: Vec<String> = match member(space, &v.ty, depth) {
            // A member with a forbidden (`never`) key is only decided once every key is in.
            Some(Member::Struct(s)) if s.fields.iter().any(|f| f.never) => Vec::new(),
            Some(Member::Struct(s)) => s.fields.iter().filter(|f| !f.optional && !f.never).map(|f| f.name.clone()).collect(),
            Some(Member::Keyed(inner)) if nested => deciding_keys(space, inner, depth + 1).into_iter().map(|(k, _)| k).collect(),
            // A tagged member needs its tag before it has a builder.
            Some(Member::Keyed(_)) | Some(Member::Tagged) | None => Vec::new(),
        };
        for key in candidates {
            let named_elsewhere = known.iter().enumerate().any(|(j, k)| j != i && k.as_ref().is_none_or(|k| k.contains(&key)));
            if !named_elsewhere && !out.iter().any(|(k, _)| *k == key) {
                out.push((key, i));
            }
        }
    }
    out
}

/// The values of a closed string enum field (its type, not a single literal).
fn closed_values<'s>(space: &'s TypeSpace, f: &Field) -> Option<&'s [String]> {
    if f.never || f.literal.is_some() {
        return None;
    }
    let Ty::Named(r) = space.deref(&f.ty) else { return None };
    match space.item(&r).map(|i| &i.kind) {
        Some(ItemKind::StringEnum(e)) if !e.open && !e.values.is_empty() => Some(&e.values),
        _ => None,
    }
}

/// The strings a field admits: `None` for any string, else its closed enum's values, its
/// string literal, or nothing (a `never` field, or a literal that is no string).
fn admitted(space: &TypeSpace, f: &Field) -> Option<BTreeSet<String>> {
    if f.never {
        return Some(BTreeSet::new());
    }
    match &f.literal {
        Some(Literal::Str(s)) => Some(BTreeSet::from([s.clone()])),
        Some(_) => Some(BTreeSet::new()),
        None => closed_values(space, f).map(|v| v.iter().cloned().collect()),
    }
}

/// The structs a member stands for, through nested unions.
fn leaf_structs<'s>(space: &'s TypeSpace, ty: &Ty, depth: usize, out: &mut Vec<&'s Struct>) {
    if depth >= DEPTH {
        return;
    }
    if let Some((_, s)) = space.struct_of(ty) {
        out.push(s);
    } else if let Some((_, u)) = space.union_of(ty) {
        for v in &u.variants {
            leaf_structs(space, &v.ty, depth + 1, out);
        }
    }
}

/// Per member of a keyed union, the values of its closed enum keys that other members claim
/// (fix as a literal or name in a closed enum) and it does not: an object holding one is
/// another member's, so this member is no candidate (`__p::unclaimed`). `{"type": "boolean"}`
/// is thus never ranked as a schema whose `type` is "number" | "integer", while a value no
/// member names (`"date"`) rules nobody out. A member that is a union claims what its structs
/// claim, and is listed only for keys that every one of its structs restricts: otherwise one
/// of them takes any value there.
fn claimed_elsewhere(space: &TypeSpace, u: &Union) -> Vec<Vec<(String, Vec<String>)>> {
    struct Claims {
        /// Per key, the strings some struct of the member fixes there.
        claims: BTreeMap<String, BTreeSet<String>>,
        /// Keys where some struct has a closed enum and every struct restricts the value,
        /// with the strings they admit together.
        enums: BTreeMap<String, BTreeSet<String>>,
    }
    let members: Vec<Claims> = u
        .variants
        .iter()
        .map(|v| {
            let mut leaves = Vec::new();
            leaf_structs(space, &v.ty, 0, &mut leaves);
            let mut claims: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for f in leaves.iter().flat_map(|s| &s.fields) {
                if let Some(values) = admitted(space, f) {
                    claims.entry(f.name.clone()).or_default().extend(values);
                }
            }
            let enum_keys: BTreeSet<&String> = leaves.iter().flat_map(|s| &s.fields).filter(|f| closed_values(space, f).is_some()).map(|f| &f.name).collect();
            let restricted = |key: &str| leaves.iter().all(|s| s.fields.iter().find(|f| f.name == key).is_some_and(|f| admitted(space, f).is_some()));
            let enums = enum_keys.into_iter().filter(|k| restricted(k)).map(|k| (k.clone(), claims[k].clone())).collect();
            Claims { claims, enums }
        })
        .collect();
    members
        .iter()
        .enumerate()
        .map(|(i, me)| {
            me.enums
                .iter()
                .filter_map(|(key, own)| {
                    let others: BTreeSet<&String> = members.iter().enumerate().filter(|(j, _)| *j != i).filter_map(|(_, m)| m.claims.get(key)).flatten().collect();
                    let values: Vec<String> = others.into_iter().filter(|v| !own.contains(*v)).cloned().collect();
                    (!values.is_empty()).then(|| (key.clone(), values))
                })
                .collect()
        })
        .collect()
}

/// Per member of a keyed union: for a member that takes any object (a catch-all such as
/// `EmptyResult`), the keys that rule it out, `None` for every other member. These are the
/// keys that identify one other member: exactly one member requires the key, and the
/// catch-all does not name it. An object holding one is meant as that member and must read
/// as it or fail with its error, never be kept as an empty result with extra keys. Keys that
/// several members require (2026-07-28's `ttlMs`), optional ones (`nextCursor`) and `_meta`
/// do not count, so `{}`, `_meta` alone, and a newer version's result that reuses shared keys
/// beside keys this version does not know stay the catch-all's (forward compatibility).
fn catch_all_keys(space: &TypeSpace, u: &Union) -> Vec<Option<Vec<String>>> {
    let catch_all: Vec<bool> = u.variants.iter().map(|v| takes_any_object(space, &v.ty, 0)).collect();
    let names = |ty: &Ty| {
        let mut leaves = Vec::new();
        leaf_structs(space, ty, 0, &mut leaves);
        leaves.iter().flat_map(|s| &s.fields).filter(|f| !f.never).map(|f| f.name.clone()).collect::<BTreeSet<String>>()
    };
    // Keys a member requires in every one of its structs, counted over the specific members.
    let required = |ty: &Ty| {
        let mut leaves = Vec::new();
        leaf_structs(space, ty, 0, &mut leaves);
        let mut sets = leaves.iter().map(|s| s.fields.iter().filter(|f| !f.optional && !f.never).map(|f| f.name.clone()).collect::<BTreeSet<String>>());
        let first = sets.next().unwrap_or_default();
        sets.fold(first, |acc, set| acc.intersection(&set).cloned().collect())
    };
    let mut requiring: BTreeMap<String, usize> = BTreeMap::new();
    for (v, _) in u.variants.iter().zip(&catch_all).filter(|(_, any)| !**any) {
        for key in required(&v.ty) {
            *requiring.entry(key).or_default() += 1;
        }
    }
    let specific: BTreeSet<String> = requiring.into_iter().filter(|(_, n)| *n == 1).map(|(k, _)| k).collect();
    u.variants
        .iter()
        .zip(&catch_all)
        .map(|(v, any)| {
            let own = names(&v.ty);
            any.then(|| specific.difference(&own).cloned().collect())
        })
        .collect()
}

/// For a union with a catch-all: per other member, the keys it names that rule the catch-all
/// out. When no member ranks for an object, the one naming most of its keys gives the error
/// (`__p::Keyed::closest`): `{"tools": []}` in 2026-07-28 is "missing field `ttlMs`".
fn named_by_members(space: &TypeSpace, u: &Union) -> Vec<(usize, Vec<String>)> {
    let rules_out: BTreeSet<String> = catch_all_keys(space, u).into_iter().flatten().flatten().collect();
    if rules_out.is_empty() {
        return Vec::new();
    }
    u.variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !takes_any_object(space, &v.ty, 0))
        .map(|(i, v)| {
            let mut leaves = Vec::new();
            leaf_structs(space, &v.ty, 0, &mut leaves);
            let names: BTreeSet<String> = leaves.iter().flat_map(|s| &s.fields).filter(|f| !f.never && rules_out.contains(&f.name)).map(|f| f.name.clone()).collect();
            (i, names.into_iter().collect())
        })
        .filter(|(_, names): &(usize, Vec<String>)| !names.is_empty())
        .collect()
}

/// How one keyed union is read, decided for [`Layout::keyed`].
pub(super) fn keyed_union(space: &TypeSpace, u: &Union) -> KeyedUnion {
    let members = u
        .variants
        .iter()
        .map(|v| {
            let kind = match member(space, &v.ty, 0).expect("eligible union") {
                Member::Struct(..) => MemberKind::Struct,
                Member::Tagged => MemberKind::Tagged,
                Member::Keyed(..) => MemberKind::Keyed,
            };
            let Ty::Named(item) = space.deref(&v.ty) else { unreachable!("a member is a named type") };
            KeyedMember { kind, item }
        })
        .collect();
    let claimed = claimed_elsewhere(space, u);
    let catch_all = catch_all_keys(space, u);
    let guards = catch_all.iter().zip(&claimed).map(|(any, table)| MemberGuard { claimed: table.clone(), rules_out: any.clone().filter(|k| !k.is_empty()).unwrap_or_default() }).collect();
    KeyedUnion { members, deciding: deciding_keys(space, u, 0), guessing: guessing_keys(space, u), claimed, guards, named: named_by_members(space, u) }
}
