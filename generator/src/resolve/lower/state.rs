//! What lowering one module keeps track of: the `Lowerer` and its index of the
//! declarations and imports, and the small types and checks the lowering passes around.
//! Nothing here lowers a type; that is the parent module, which builds on this.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToUpperCamelCase;

use crate::config::{Config, ModuleConfig, CONFIG_PATH};
use crate::diagnostics::{Diagnostic, Diagnostics, Location};
use crate::ir::*;
use crate::parse::{Decl, DeclKind, File, Keyword, TypeExpr, TypeKind};

/// An object type with its members flattened: what an interface, an
/// intersection or an `Omit<...>` amounts to.
#[derive(Debug, Clone, Default)]
pub(super) struct Shape {
    pub(super) fields: Vec<Field>,
    pub(super) index: Option<Ty>,
    pub(super) alternatives: Vec<Vec<String>>,
}

impl Shape {
    /// Adds or replaces a field; a replaced field keeps its position.
    pub(super) fn put(&mut self, f: Field) {
        match self.fields.iter_mut().find(|g| g.name == f.name) {
            Some(g) => *g = f,
            None => self.fields.push(f),
        }
    }

    pub(super) fn merge(&mut self, other: Shape) {
        for f in other.fields {
            // An intersection refines: a literal or a concrete type wins over the general one.
            match self.fields.iter_mut().find(|g| g.name == f.name) {
                Some(g) => {
                    let optional = g.optional && f.optional;
                    *g = Field { optional, ..f };
                }
                None => self.fields.push(f),
            }
        }
        if other.index.is_some() {
            self.index = other.index;
        }
        self.alternatives.extend(other.alternatives);
    }
}

/// How to name an inline type found at this spot.
#[derive(Clone)]
pub(super) struct Naming {
    pub(super) parent: String,
    pub(super) path: String,
    pub(super) name: String,
}

impl Naming {
    pub(super) fn root(name: &str) -> Naming {
        Naming { parent: name.to_string(), path: String::new(), name: name.to_string() }
    }

    pub(super) fn field(&self, field: &str) -> Naming {
        let path = if self.path.is_empty() { field.to_string() } else { format!("{}.{field}", self.path) };
        Naming { parent: self.parent.clone(), path, name: format!("{}{}", self.name, field.to_upper_camel_case()) }
    }

    pub(super) fn suffix(&self, path_suffix: &str, name_suffix: &str) -> Naming {
        Naming { parent: self.parent.clone(), path: format!("{}{path_suffix}", self.path), name: format!("{}{name_suffix}", self.name) }
    }
}

pub(super) struct Lowerer<'a> {
    pub(super) file: &'a File,
    pub(super) module: &'a ModuleConfig,
    pub(super) config: &'a Config,
    pub(super) prior: &'a TypeSpace,
    pub(super) diags: &'a mut Diagnostics,
    pub(super) decls: BTreeMap<&'a str, &'a Decl>,
    pub(super) imports: BTreeMap<String, TypeRef>,
    pub(super) shapes: BTreeMap<String, Option<Shape>>,
    pub(super) in_progress: BTreeSet<String>,
    pub(super) taken: BTreeSet<String>,
    /// Names already reported as unusable (unbound imports); later uses stay quiet.
    pub(super) unresolved: BTreeSet<String>,
    /// Inline items found while lowering each declaration, emitted right after it.
    pub(super) inline: Vec<Vec<Item>>,
    pub(super) inline_of: BTreeMap<String, Vec<Item>>,
}

impl<'a> Lowerer<'a> {
    pub(super) fn err(&mut self, at: &Location, msg: impl Into<String>) {
        self.diags.push(Diagnostic::new(at, msg));
    }

    pub(super) fn index(&mut self) {
        let file: &'a File = self.file;
        for d in &file.decls {
            if self.decls.insert(d.name.as_str(), d).is_some() {
                self.diags.push(Diagnostic::new(&d.location, format!("`{}` is declared twice (declaration merging is not supported)", d.name)));
            }
            if RESERVED.contains(&d.name.as_str()) {
                self.diags.push(Diagnostic::new(&d.location, format!("a type named `{}` would shadow the Rust type the generated code uses under that name", d.name)));
            } else if d.name.starts_with("__") {
                self.diags.push(Diagnostic::new(&d.location, format!("`{}`: names starting with `__` are reserved for the generated code's helpers", d.name)));
            } else if syn::parse_str::<syn::Ident>(&d.name).is_err() {
                self.diags.push(Diagnostic::new(&d.location, format!("`{}` is not a name Rust can use for a type (a keyword, or not an identifier)", d.name)));
            }
            self.taken.insert(d.name.clone());
        }
        for imp in &file.imports {
            self.taken.insert(imp.local.clone());
            let Some(target) = self.module.imports.get(&imp.module) else {
                self.unresolved.insert(imp.local.clone());
                self.diags.push(
                    Diagnostic::new(&imp.location, format!("import from `{}` is not bound to a generated module", imp.module))
                        .with_hint(format!("add `\"{}\" = \"<module>\"` under [module.imports] for `{}` in {CONFIG_PATH}", imp.module, self.module.name)),
                );
                continue;
            };
            let r = TypeRef { module: target.clone(), name: imp.imported.clone() };
            if self.prior.item(&r).is_none() {
                self.diags.push(Diagnostic::new(&imp.location, format!("`{}` is not a type of module `{target}` (modules must be generated before the modules that import them)", imp.imported)));
                self.unresolved.insert(imp.local.clone());
                continue;
            }
            self.imports.insert(imp.local.clone(), r);
        }
    }

    /// Whether following plain alias-to-name steps from `target` comes back to `name`.
    pub(super) fn alias_cycle(&self, name: &str, target: &TypeExpr) -> bool {
        let mut seen = BTreeSet::new();
        let mut t = target;
        loop {
            // Arrays and records do not break a cycle of aliases: `type A = A[]` has no Rust spelling.
            t = match &t.kind {
                TypeKind::Array(inner) => inner,
                TypeKind::Ref { name: n, args } if (n == "Array" && args.len() == 1) || (n == "Record" && args.len() == 2) => &args[args.len() - 1],
                _ => t,
            };
            let TypeKind::Ref { name: next, args } = &t.kind else { return false };
            if !args.is_empty() {
                return false;
            }
            if next == name {
                return true;
            }
            if !seen.insert(next.clone()) {
                return false;
            }
            match self.decls.get(next.as_str()).map(|d| &d.kind) {
                Some(DeclKind::Alias(inner)) => t = inner,
                _ => return false,
            }
        }
    }
}

/// Names the emitted code uses unqualified; a schema type may not take them.
pub(super) const RESERVED: &[&str] = &["Option", "Some", "None", "Ok", "Err", "String", "Vec", "Box", "BTreeMap", "Default", "serde", "serde_json"];

pub(super) enum Members {
    One(Ty),
    Nullable(Ty),
    Strings { values: Vec<String>, open: bool },
    Many(Vec<Variant>),
}

pub(super) fn is_string_key(args: &[TypeExpr]) -> bool {
    matches!(args.first().map(|a| &a.kind), Some(TypeKind::Keyword(Keyword::String)))
}

pub(super) fn is_literal_kind(t: &TypeExpr) -> bool {
    matches!(t.kind, TypeKind::Literal(_) | TypeKind::TypeOf(_) | TypeKind::Indexed { .. })
}

/// Alias targets that define an object of their own (and so become a struct named after the alias).
pub(super) fn is_struct_like(t: &TypeExpr) -> bool {
    match &t.kind {
        TypeKind::Intersection(_) => true,
        TypeKind::Object(o) => !o.members.is_empty(),
        TypeKind::Ref { name, args } => matches!(name.as_str(), "Omit" | "Partial") || (name == "Record" && !is_string_key(args)),
        _ => false,
    }
}

pub(super) fn flatten_union<'t>(t: &'t TypeExpr, out: &mut Vec<&'t TypeExpr>) {
    match &t.kind {
        TypeKind::Union(ms) => ms.iter().for_each(|m| flatten_union(m, out)),
        _ => out.push(t),
    }
}

/// Removes `undefined` from a union; says whether it was there.
pub(super) fn strip_undefined(t: &TypeExpr) -> (TypeExpr, bool) {
    let TypeKind::Union(ms) = &t.kind else { return (t.clone(), false) };
    let kept: Vec<TypeExpr> = ms.iter().filter(|m| !matches!(m.kind, TypeKind::Keyword(Keyword::Undefined))).cloned().collect();
    if kept.len() == ms.len() {
        return (t.clone(), false);
    }
    let t = if kept.len() == 1 { kept.into_iter().next().unwrap() } else { TypeExpr { location: t.location.clone(), kind: TypeKind::Union(kept) } };
    (t, true)
}

pub(super) fn variant_name(ty: &Ty) -> String {
    match ty {
        Ty::String => "String".into(),
        Ty::Integer => "Integer".into(),
        Ty::Number => "Number".into(),
        Ty::Boolean => "Boolean".into(),
        Ty::Null => "Null".into(),
        Ty::Value => "Value".into(),
        Ty::Object => "Object".into(),
        Ty::Named(r) => r.name.clone(),
        Ty::Binding(b) => b.rsplit("::").next().unwrap_or(b).to_upper_camel_case(),
        Ty::Array(inner) => format!("{}Array", variant_name(inner)),
        Ty::Map(inner) => format!("{}Map", variant_name(inner)),
        Ty::Nullable(inner) => format!("Nullable{}", variant_name(inner)),
    }
}
