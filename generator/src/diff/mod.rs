//! `cargo xtask schema diff A B`: what changed between two modules of the IR.
//!
//! [`diff`] compares two modules; [`render::text`] and [`render::json`] write
//! the result. Every list is sorted, so the output is stable.

pub mod render;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::config::Config;
use crate::ir::{Item, ItemKind, Module, Origin, Struct, Ty, TypeSpace};
use crate::parse::{Literal, TagKind};

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Diff {
    pub from: String,
    pub to: String,
    pub types: TypeChanges,
    pub requests: MethodChanges,
    pub notifications: MethodChanges,
    pub error_codes: ErrorCodeChanges,
    pub constants: ConstantChanges,
    pub deprecations: DeprecationChanges,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TypeChanges {
    /// Declared types only; inline types show as the fields that hold them.
    pub added: Vec<TypeSummary>,
    pub removed: Vec<TypeSummary>,
    /// A removed and an added type of the same shape.
    pub renamed: Vec<Rename>,
    /// Types in both (declared or inline) whose fields, variants, values or kind changed.
    pub changed: Vec<ChangedType>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypeSummary {
    pub name: String,
    /// `struct`, `enum`, `union` or `alias`.
    pub kind: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rename {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ChangedType {
    pub name: String,
    /// The type's name in `from`, when it was renamed.
    pub renamed_from: Option<String>,
    /// For an inline type: where it is written (`CallToolRequest.params`).
    pub inline_in: Option<String>,
    pub kind: Option<Change<String>>,
    pub fields_added: Vec<FieldSummary>,
    pub fields_removed: Vec<FieldSummary>,
    pub fields_changed: Vec<FieldChange>,
    /// Union variants and enum values.
    pub members_added: Vec<String>,
    pub members_removed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldSummary {
    pub name: String,
    /// The field's type as TypeScript would write it, or its literal value.
    pub ty: String,
    pub required: bool,
    pub nullable: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    pub name: String,
    pub ty: Option<Change<String>>,
    pub required: Option<Change<bool>>,
    pub nullable: Option<Change<bool>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change<T> {
    pub from: T,
    pub to: T,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MethodChanges {
    pub added: Vec<Method>,
    pub removed: Vec<Method>,
    /// Same method, another type or result.
    pub changed: Vec<MethodChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Method {
    pub method: String,
    pub type_name: String,
    /// For requests: what a successful response carries.
    pub result: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodChange {
    pub method: String,
    pub type_name: Option<Change<String>>,
    pub result: Option<Change<Option<String>>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ErrorCodeChanges {
    pub added: Vec<ErrorCode>,
    pub removed: Vec<ErrorCode>,
    /// Same code, other constants or error types naming it.
    pub changed: Vec<Change<ErrorCode>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorCode {
    pub code: i64,
    /// Constants with this value (`PARSE_ERROR`).
    pub constants: Vec<String>,
    /// Error types whose `code` is this literal (an inline error object is named by the type holding it).
    pub types: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ConstantChanges {
    pub added: Vec<Constant>,
    pub removed: Vec<Constant>,
    pub changed: Vec<ConstantChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constant {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConstantChange {
    pub name: String,
    pub value: Change<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DeprecationChanges {
    pub added: Vec<Deprecation>,
    pub removed: Vec<Deprecation>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Deprecation {
    /// `Type` or `Type.field`.
    pub path: String,
    /// Added: the type or field is new in `to`. Removed: it is gone from `to` (rather than no longer deprecated).
    pub with_item: bool,
}

/// Finds a module by its name (`v2025_11_25`), its label, or the spec version its input comes from
/// (`2025-11-25`, `draft`); a module made with an overlay is only found by name or label.
pub fn find_module<'a>(space: &'a TypeSpace, config: &Config, wanted: &str) -> Option<&'a Module> {
    let by = |pred: &dyn Fn(&crate::config::ModuleConfig) -> bool| config.modules.iter().find(|m| pred(m)).and_then(|m| space.module(&m.name));
    by(&|m| m.name == wanted)
        .or_else(|| by(&|m| m.label.as_deref() == Some(wanted)))
        .or_else(|| by(&|m| m.overlay.is_none() && m.input.strip_prefix("mcp-spec/schema/").and_then(|p| p.split('/').next()) == Some(wanted)))
}

/// What changed from module `a` to module `b`.
pub fn diff(a: &Module, b: &Module) -> Diff {
    let renames = renames(a, b);
    let types = type_changes(a, b, &renames);
    Diff {
        from: a.name.clone(),
        to: b.name.clone(),
        requests: method_changes(a, b, &renames, true),
        notifications: method_changes(a, b, &renames, false),
        error_codes: error_code_changes(a, b),
        constants: constant_changes(a, b),
        deprecations: deprecation_changes(a, b),
        types,
    }
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        let d = Diff { from: self.from.clone(), to: self.to.clone(), ..Diff::default() };
        *self == d
    }
}

/// Old name -> new name for removed types that reappear under exactly one new name: first by the same shape,
/// then (for what is left) by the same field names and literal values, whatever the fields' types.
fn renames(a: &Module, b: &Module) -> BTreeMap<String, String> {
    let mut removed: Vec<&Item> = declared_types(a).filter(|i| b.items.iter().all(|j| j.name != i.name)).collect();
    let mut added: Vec<&Item> = declared_types(b).filter(|i| a.items.iter().all(|j| j.name != i.name)).collect();
    let mut out = BTreeMap::new();
    for loose in [false, true] {
        let key = |i: &Item| shape_key(&i.kind, loose);
        let mut found = Vec::new();
        for old in &removed {
            let Some(shape) = key(old) else { continue };
            let same = |items: &[&Item]| items.iter().filter(|i| key(i).as_ref() == Some(&shape)).map(|i| i.name.clone()).collect::<Vec<_>>();
            let candidates = same(&added);
            // Only an unambiguous pair counts as a rename.
            if candidates.len() == 1 && same(&removed).len() == 1 {
                found.push((old.name.clone(), candidates[0].clone()));
            }
        }
        for (from, to) in found {
            removed.retain(|i| i.name != from);
            added.retain(|i| i.name != to);
            out.insert(from, to);
        }
    }
    out
}

/// A type's shape for spotting renames; `None` for shapes too plain to tell apart (an empty struct, an alias).
/// `loose` keeps only field names and literals, so a renamed type whose fields also changed type or
/// optionality is still found.
fn shape_key(kind: &ItemKind, loose: bool) -> Option<String> {
    match kind {
        ItemKind::Struct(s) if !s.fields.is_empty() => {
            let mut fields: Vec<String> = s
                .fields
                .iter()
                .map(|f| match (&f.literal, loose) {
                    (Some(lit), _) => format!("{}={}", f.name, lit.describe()),
                    (None, true) => f.name.clone(),
                    (None, false) => format!("{}{}:{}", f.name, if required(f) { "" } else { "?" }, field_type(f)),
                })
                .collect();
            fields.sort();
            Some(format!("struct {{{}}}", fields.join(", ")))
        }
        ItemKind::StringEnum(e) if !loose => {
            let mut values = e.values.clone();
            values.sort();
            Some(format!("enum {values:?} open={}", e.open))
        }
        ItemKind::Union(u) if !loose => {
            let mut variants: Vec<String> = u.variants.iter().map(|v| ty_name(&v.ty)).collect();
            variants.sort();
            Some(format!("union {variants:?}"))
        }
        _ => None,
    }
}

fn declared_types(m: &Module) -> impl Iterator<Item = &Item> {
    m.items.iter().filter(|i| matches!(i.origin, Origin::Declared { .. }) && !matches!(i.kind, ItemKind::Const(_)))
}

fn kind_name(kind: &ItemKind) -> &'static str {
    match kind {
        ItemKind::Struct(_) => "struct",
        ItemKind::StringEnum(_) => "enum",
        ItemKind::Union(_) => "union",
        ItemKind::Alias(_) => "alias",
        ItemKind::Const(_) => "const",
    }
}

fn type_changes(a: &Module, b: &Module, renames: &BTreeMap<String, String>) -> TypeChanges {
    let renamed_to: BTreeSet<&String> = renames.values().collect();
    let summary = |i: &Item| TypeSummary { name: i.name.clone(), kind: kind_name(&i.kind) };
    let mut out = TypeChanges {
        added: declared_types(b).filter(|i| a.items.iter().all(|j| j.name != i.name) && !renamed_to.contains(&i.name)).map(summary).collect(),
        removed: declared_types(a).filter(|i| b.items.iter().all(|j| j.name != i.name) && !renames.contains_key(&i.name)).map(summary).collect(),
        renamed: renames.iter().map(|(from, to)| Rename { from: from.clone(), to: to.clone() }).collect(),
        changed: Vec::new(),
    };
    for old in a.items.iter().filter(|i| !matches!(i.kind, ItemKind::Const(_))) {
        let new_name = renames.get(&old.name).unwrap_or(&old.name);
        let Some(new) = b.items.iter().find(|j| &j.name == new_name) else { continue };
        let mut c = ChangedType { name: new.name.clone(), renamed_from: renames.get(&old.name).map(|_| old.name.clone()), ..ChangedType::default() };
        if let Origin::Inline { parent, path } = &new.origin {
            c.inline_in = Some(format!("{parent}.{path}"));
        }
        match (&old.kind, &new.kind) {
            (ItemKind::Struct(x), ItemKind::Struct(y)) => field_changes(x, y, renames, &mut c),
            (ItemKind::StringEnum(x), ItemKind::StringEnum(y)) => {
                let quoted = |v: &Vec<String>| v.iter().map(|s| format!("{s:?}")).collect::<BTreeSet<_>>();
                (c.members_added, c.members_removed) = set_changes(&quoted(&x.values), &quoted(&y.values));
                if x.open != y.open {
                    c.kind = Some(Change { from: open_name(x.open), to: open_name(y.open) });
                }
            }
            (ItemKind::Union(x), ItemKind::Union(y)) => {
                let names = |u: &crate::ir::Union, map: Option<&BTreeMap<String, String>>| {
                    u.variants.iter().map(|v| renamed(&ty_name(&v.ty), map)).collect::<BTreeSet<_>>()
                };
                (c.members_added, c.members_removed) = set_changes(&names(x, Some(renames)), &names(y, None));
            }
            (ItemKind::Alias(x), ItemKind::Alias(y)) => {
                if renamed(&ty_name(x), Some(renames)) != ty_name(y) {
                    c.kind = Some(Change { from: format!("alias of {}", ty_name(x)), to: format!("alias of {}", ty_name(y)) });
                }
            }
            (x, y) => c.kind = Some(Change { from: describe_kind(x), to: describe_kind(y) }),
        }
        let unchanged = ChangedType { name: c.name.clone(), renamed_from: c.renamed_from.clone(), inline_in: c.inline_in.clone(), ..ChangedType::default() };
        if c != unchanged {
            out.changed.push(c);
        }
    }
    out.added.sort_by(|x, y| x.name.cmp(&y.name));
    out.removed.sort_by(|x, y| x.name.cmp(&y.name));
    out.changed.sort_by(|x, y| x.name.cmp(&y.name));
    out
}

fn open_name(open: bool) -> String {
    if open { "open enum" } else { "closed enum" }.to_string()
}

fn describe_kind(kind: &ItemKind) -> String {
    match kind {
        ItemKind::Alias(t) => format!("alias of {}", ty_name(t)),
        other => kind_name(other).to_string(),
    }
}

fn field_changes(x: &Struct, y: &Struct, renames: &BTreeMap<String, String>, c: &mut ChangedType) {
    for f in &y.fields {
        match x.fields.iter().find(|g| g.name == f.name) {
            None => c.fields_added.push(field_summary(f)),
            Some(old) => {
                let (old_ty, new_ty) = (renamed(&field_type(old), Some(renames)), field_type(f));
                let change = FieldChange {
                    name: f.name.clone(),
                    ty: (old_ty != new_ty).then(|| Change { from: field_type(old), to: new_ty }),
                    required: (required(old) != required(f)).then(|| Change { from: required(old), to: required(f) }),
                    nullable: (nullable(old) != nullable(f)).then(|| Change { from: nullable(old), to: nullable(f) }),
                };
                if change.ty.is_some() || change.required.is_some() || change.nullable.is_some() {
                    c.fields_changed.push(change);
                }
            }
        }
    }
    for f in x.fields.iter().filter(|f| y.fields.iter().all(|g| g.name != f.name)) {
        c.fields_removed.push(field_summary(f));
    }
    c.fields_added.sort_by(|p, q| p.name.cmp(&q.name));
    c.fields_removed.sort_by(|p, q| p.name.cmp(&q.name));
    c.fields_changed.sort_by(|p, q| p.name.cmp(&q.name));
}

fn field_summary(f: &crate::ir::Field) -> FieldSummary {
    FieldSummary { name: f.name.clone(), ty: field_type(f), required: required(f), nullable: nullable(f) }
}

/// Required by the schema (a lenient field is read as optional but still required).
fn required(f: &crate::ir::Field) -> bool {
    (!f.optional || f.lenient.is_some()) && !f.never
}

fn nullable(f: &crate::ir::Field) -> bool {
    matches!(f.ty, Ty::Nullable(_))
}

/// The field's type without `| null` (nullability is reported on its own), or its literal.
fn field_type(f: &crate::ir::Field) -> String {
    if f.never {
        return "never".into();
    }
    if let Some(lit) = &f.literal {
        return lit.describe();
    }
    match &f.ty {
        Ty::Nullable(inner) => ty_name(inner),
        other => ty_name(other),
    }
}

/// A type as TypeScript would write it; types of another module are qualified.
pub fn ty_name(ty: &Ty) -> String {
    match ty {
        Ty::String => "string".into(),
        Ty::Integer => "integer".into(),
        Ty::Number => "number".into(),
        Ty::Boolean => "boolean".into(),
        Ty::Null => "null".into(),
        Ty::Value => "unknown".into(),
        Ty::Object => "object".into(),
        Ty::Named(r) => r.name.clone(),
        Ty::Binding(rust) => rust.clone(),
        Ty::Array(inner) => format!("{}[]", ty_name(inner)),
        Ty::Map(inner) => format!("{{ [key: string]: {} }}", ty_name(inner)),
        Ty::Nullable(inner) => format!("{} | null", ty_name(inner)),
    }
}

/// A type name with the renames applied (so a renamed type is not also a changed field type).
fn renamed(name: &str, renames: Option<&BTreeMap<String, String>>) -> String {
    let Some(map) = renames else { return name.to_string() };
    let mut out = name.to_string();
    for (from, to) in map {
        out = replace_word(&out, from, to);
    }
    out
}

/// Replaces `from` where it stands as a whole identifier.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

fn set_changes(old: &BTreeSet<String>, new: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    (new.difference(old).cloned().collect(), old.difference(new).cloned().collect())
}

fn method_changes(a: &Module, b: &Module, renames: &BTreeMap<String, String>, requests: bool) -> MethodChanges {
    let entries = |m: &Module| -> BTreeMap<String, Method> {
        let list = if requests { &m.requests } else { &m.notifications };
        list.iter().map(|e| (e.method.clone(), Method { method: e.method.clone(), type_name: e.type_name.clone(), result: e.result.as_ref().map(|t| result_name(m, t)) })).collect()
    };
    let (old, new) = (entries(a), entries(b));
    let mut out = MethodChanges::default();
    for (method, n) in &new {
        match old.get(method) {
            None => out.added.push(n.clone()),
            Some(o) => {
                let ty_changed = renamed(&o.type_name, Some(renames)) != n.type_name;
                let old_result = o.result.as_ref().map(|r| renamed(r, Some(renames)));
                let change = MethodChange {
                    method: method.clone(),
                    type_name: ty_changed.then(|| Change { from: o.type_name.clone(), to: n.type_name.clone() }),
                    result: (old_result != n.result).then(|| Change { from: o.result.clone(), to: n.result.clone() }),
                };
                if change.type_name.is_some() || change.result.is_some() {
                    out.changed.push(change);
                }
            }
        }
    }
    out.removed = old.iter().filter(|(k, _)| !new.contains_key(*k)).map(|(_, v)| v.clone()).collect();
    out
}

/// A result type by name; an inline union (`CallToolResultResponseResult`) by its members.
fn result_name(m: &Module, ty: &Ty) -> String {
    if let Ty::Named(r) = ty {
        if let Some(item) = m.items.iter().find(|i| i.name == r.name && r.module == m.name) {
            if let (Origin::Inline { .. }, ItemKind::Union(u)) = (&item.origin, &item.kind) {
                return u.variants.iter().map(|v| ty_name(&v.ty)).collect::<Vec<_>>().join(" | ");
            }
        }
    }
    if *ty == Ty::Object {
        return "{}".into();
    }
    ty_name(ty)
}

fn error_codes(m: &Module) -> BTreeMap<i64, ErrorCode> {
    let mut out: BTreeMap<i64, ErrorCode> = BTreeMap::new();
    let negative = |lit: &Literal| match lit {
        Literal::Num(n) => n.replace('_', "").parse::<i64>().ok().filter(|v| *v < 0),
        _ => None,
    };
    let entry = |out: &mut BTreeMap<i64, ErrorCode>, code: i64| out.entry(code).or_insert_with(|| ErrorCode { code, constants: Vec::new(), types: Vec::new() }).clone();
    for item in &m.items {
        match &item.kind {
            ItemKind::Const(lit) => {
                if let Some(code) = negative(lit) {
                    entry(&mut out, code);
                    out.get_mut(&code).expect("inserted").constants.push(item.name.clone());
                }
            }
            ItemKind::Struct(s) => {
                let code = s.fields.iter().find(|f| f.name == "code").and_then(|f| f.literal.as_ref()).and_then(negative);
                if let Some(code) = code {
                    let name = match &item.origin {
                        Origin::Inline { parent, .. } => parent.clone(),
                        Origin::Declared { .. } => item.name.clone(),
                    };
                    entry(&mut out, code);
                    out.get_mut(&code).expect("inserted").types.push(name);
                }
            }
            _ => {}
        }
    }
    for e in out.values_mut() {
        e.constants.sort();
        e.constants.dedup();
        e.types.sort();
        e.types.dedup();
    }
    out
}

fn error_code_changes(a: &Module, b: &Module) -> ErrorCodeChanges {
    let (old, new) = (error_codes(a), error_codes(b));
    let mut out = ErrorCodeChanges::default();
    for (code, n) in &new {
        match old.get(code) {
            None => out.added.push(n.clone()),
            Some(o) if o != n => out.changed.push(Change { from: o.clone(), to: n.clone() }),
            Some(_) => {}
        }
    }
    out.removed = old.iter().filter(|(k, _)| !new.contains_key(*k)).map(|(_, v)| v.clone()).collect();
    out
}

fn constant_changes(a: &Module, b: &Module) -> ConstantChanges {
    let consts = |m: &Module| -> BTreeMap<String, String> {
        m.items.iter().filter_map(|i| match &i.kind {
            ItemKind::Const(lit) => Some((i.name.clone(), lit.describe())),
            _ => None,
        }).collect()
    };
    let (old, new) = (consts(a), consts(b));
    let mut out = ConstantChanges::default();
    for (name, value) in &new {
        match old.get(name) {
            None => out.added.push(Constant { name: name.clone(), value: value.clone() }),
            Some(v) if v != value => out.changed.push(ConstantChange { name: name.clone(), value: Change { from: v.clone(), to: value.clone() } }),
            Some(_) => {}
        }
    }
    out.removed = old.iter().filter(|(k, _)| !new.contains_key(*k)).map(|(k, v)| Constant { name: k.clone(), value: v.clone() }).collect();
    out
}

/// `Type` and `Type.field` paths of every type and field, and whether each is `@deprecated`.
fn deprecation_paths(m: &Module) -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    for item in m.items.iter().filter(|i| !matches!(i.kind, ItemKind::Const(_))) {
        out.insert(item.name.clone(), item.doc.has_tag(TagKind::Deprecated));
        if let ItemKind::Struct(s) = &item.kind {
            for f in &s.fields {
                out.insert(format!("{}.{}", item.name, f.name), f.doc.has_tag(TagKind::Deprecated));
            }
        }
    }
    out
}

fn deprecation_changes(a: &Module, b: &Module) -> DeprecationChanges {
    let (old, new) = (deprecation_paths(a), deprecation_paths(b));
    let newly = |x: &BTreeMap<String, bool>, y: &BTreeMap<String, bool>| -> Vec<Deprecation> {
        y.iter()
            .filter(|(path, deprecated)| **deprecated && x.get(*path) != Some(&true))
            .map(|(path, _)| Deprecation { path: path.clone(), with_item: !x.contains_key(path) })
            .collect()
    };
    DeprecationChanges { added: newly(&old, &new), removed: newly(&new, &old) }
}
