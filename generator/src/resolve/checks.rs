//! Checks that need the whole type space: Rust names that would collide.

use std::collections::BTreeMap;

use crate::config::{Config, CONFIG_PATH};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir::*;
use crate::names::field_ident;
use crate::parse::TagKind;

/// The field that keeps unknown keys on every struct.
pub const EXTRA_FIELD: &str = "extra";
/// The variant that keeps unknown tags on tagged unions.
pub const UNKNOWN_VARIANT: &str = "Unknown";

/// JSDoc constraints must be ones validation can apply.
pub fn constraints(space: &TypeSpace, diags: &mut Diagnostics) {
    for m in &space.modules {
        for item in &m.items {
            let ItemKind::Struct(s) = &item.kind else { continue };
            for f in &s.fields {
                for tag in &f.doc.tags {
                    if let Some(Err(p)) = &tag.rule {
                        diags.push(Diagnostic::new(&f.location, format!("field `{}` of `{}`: {p}", f.name, item.name)));
                    }
                    // It may state a rule (as `@maxLength` did before the generator knew it): not silently a doc note.
                    if tag.kind == TagKind::Other {
                        let msg = format!("field `{}` of `{}`: unknown JSDoc tag `@{}` (a tag the generator acts on or shows is matched in generator/src/parse/jsdoc.rs)", f.name, item.name, tag.name);
                        diags.push(Diagnostic::new(&f.location, msg));
                    }
                }
            }
        }
    }
}

/// Every configured rule names types that exist and a function path that parses.
pub fn configured_checks(space: &TypeSpace, config: &Config, diags: &mut Diagnostics) {
    let at = crate::diagnostics::Location { file: CONFIG_PATH.into(), ..Default::default() };
    for c in &config.checks {
        if syn::parse_str::<syn::Path>(&c.run).is_err() {
            diags.push(Diagnostic::new(&at, format!("check `{}` is not a Rust path", c.run)));
        }
        for t in &c.types {
            if !space.modules.iter().any(|m| m.items.iter().any(|i| &i.name == t)) {
                diags.push(Diagnostic::new(&config.locate(t), format!("check `{}` names type `{t}`, which no module has", c.run)));
            }
        }
    }
    for b in &config.boxed {
        for t in &b.types {
            let found = space.modules.iter().any(|m| m.items.iter().any(|i| &i.name == t && matches!(i.kind, ItemKind::Struct(_) | ItemKind::Union(_))));
            if !found {
                diags.push(Diagnostic::new(&config.locate(t), format!("boxed type `{t}`: no module has a struct or union of that name")));
            }
        }
    }
    for l in &config.lenient_fields {
        let found = space.modules.iter().any(|md| md.items.iter().any(|i| i.name == l.type_name && matches!(&i.kind, ItemKind::Struct(s) if s.fields.iter().any(|f| f.name == l.field && f.lenient.is_some()))));
        if !found {
            diags.push(Diagnostic::new(&at, format!("lenient_field `{}.{}`: no module declares that type with that required field", l.type_name, l.field)));
        }
    }
    for m in &config.moved_fields {
        let found = space.modules.iter().filter(|md| m.modules.contains(&md.name)).any(|md| {
            md.items.iter().any(|i| match &i.kind {
                ItemKind::Struct(s) => i.name == m.type_name && s.fields.iter().any(|f| f.name == m.into) && !s.fields.iter().any(|f| f.name == m.field),
                _ => false,
            })
        });
        if !found {
            diags.push(Diagnostic::new(&at, format!("moved_field `{}.{}` -> `{}`: no such type with that target field (and without the moved field) in {:?}", m.type_name, m.field, m.into, m.modules)));
        }
    }
    for n in &config.never_fields {
        let found = space.modules.iter().any(|md| md.items.iter().any(|i| i.name == n.type_name && matches!(&i.kind, ItemKind::Struct(s) if s.fields.iter().any(|f| f.name == n.field && f.never))));
        if !found {
            diags.push(Diagnostic::new(&config.locate(&n.type_name), format!("never_field `{}.{}`: no module has that type", n.type_name, n.field)));
        }
    }
    for n in &config.number_fields {
        let found = space.modules.iter().filter(|md| n.modules.is_empty() || n.modules.contains(&md.name)).any(|md| {
            md.items.iter().any(|i| i.name == n.type_name && matches!(&i.kind, ItemKind::Struct(s) if s.fields.iter().any(|f| f.name == n.field)))
        });
        if !found {
            diags.push(Diagnostic::new(&config.locate(&n.type_name), format!("number_field `{}.{}`: no such type with that field in {:?}", n.type_name, n.field, n.modules)));
        }
    }
    if let Some(run) = &config.validation.meta_check {
        if syn::parse_str::<syn::Path>(run).is_err() {
            diags.push(Diagnostic::new(&at, format!("meta_check `{run}` is not a Rust path")));
        }
    }
}

/// Names of the standard prelude (2021 and 2024 editions) that a type of `use module::*` would shadow.
const PRELUDE: &[&str] = &[
    "Copy", "Send", "Sized", "Sync", "Unpin", "Drop", "Fn", "FnMut", "FnOnce", "Box", "ToOwned", "Clone", "PartialEq", "PartialOrd", "Eq", "Ord", "AsRef", "AsMut", "Into", "From", "Default", "Iterator", "Extend", "IntoIterator", "DoubleEndedIterator", "ExactSizeIterator", "Option", "Some", "None", "Result", "Ok", "Err", "String", "ToString", "Vec", "TryFrom", "TryInto", "FromIterator", "Future", "IntoFuture",
];

/// No type's Rust name is a prelude name (a glob import would shadow it), and every `[[rename]]` names a
/// type that exists and gives a name no other type of its modules has.
pub fn prelude_names(space: &TypeSpace, config: &Config, diags: &mut Diagnostics) {
    for m in &space.modules {
        for item in m.items.iter().filter(|i| !matches!(i.kind, ItemKind::Const(_))) {
            let rust = config.rust_type_name(&item.name);
            if PRELUDE.contains(&rust) {
                diags.push(Diagnostic::new(&item.location, format!("type `{}` would shadow the standard prelude's `{rust}` under `use {}::*`; give it another Rust name with a [[rename]] entry in {CONFIG_PATH}", item.name, m.name)));
            }
            if rust != item.name && m.items.iter().any(|i| i.name == rust) {
                diags.push(Diagnostic::new(&config.locate(rust), format!("rename `{}` -> `{rust}`: module `{}` already has a type `{rust}`", item.name, m.name)));
            }
        }
    }
    for r in &config.renames {
        if !space.modules.iter().any(|m| m.items.iter().any(|i| i.name == r.type_name && matches!(i.kind, ItemKind::Struct(_) | ItemKind::StringEnum(_) | ItemKind::Alias(_)))) {
            diags.push(Diagnostic::new(&config.locate(&r.type_name), format!("rename `{}`: no module has a struct, enum or alias of that name (unions keep their schema names)", r.type_name)));
        }
    }
}

/// A union that holds itself (through aliases or nested unions, not through an object or array) has no value.
pub fn self_containing_unions(space: &TypeSpace, diags: &mut Diagnostics) {
    for m in &space.modules {
        for item in &m.items {
            let ItemKind::Union(u) = &item.kind else { continue };
            let me = TypeRef { module: m.name.clone(), name: item.name.clone() };
            let mut seen = std::collections::BTreeSet::new();
            if u.variants.iter().any(|v| reaches(space, &v.ty, &me, &mut seen)) {
                diags.push(Diagnostic::new(&item.location, format!("union `{}` contains itself (through aliases or nested unions), so no value has it as a type", item.name)));
            }
        }
    }
}

fn reaches(space: &TypeSpace, ty: &Ty, target: &TypeRef, seen: &mut std::collections::BTreeSet<TypeRef>) -> bool {
    let Ty::Named(r) = ty else { return false };
    if r == target {
        return true;
    }
    if !seen.insert(r.clone()) {
        return false;
    }
    match space.item(r).map(|i| &i.kind) {
        Some(ItemKind::Alias(t)) => reaches(space, t, target, seen),
        Some(ItemKind::Union(u)) => u.variants.iter().any(|v| reaches(space, &v.ty, target, seen)),
        _ => false,
    }
}

pub fn names(space: &TypeSpace, config: &Config, diags: &mut Diagnostics) {
    for m in &space.modules {
        for item in &m.items {
            match &item.kind {
                ItemKind::Struct(s) => {
                    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
                    seen.insert(EXTRA_FIELD.to_string(), "(the field for unknown keys)");
                    for f in s.fields.iter().filter(|f| !f.never && !(f.literal.is_some() && !f.optional)) {
                        let ident = field_rust_name(config, &item.name, &f.name);
                        if let Some(other) = seen.insert(ident.clone(), &f.name) {
                            diags.push(
                                Diagnostic::new(&f.location, format!("field `{}` of `{}` would be called `{ident}` in Rust, like {}", f.name, item.name, describe(other)))
                                    .with_hint(format!("name it under [field_names] in {CONFIG_PATH}: \"{}.{}\" = \"...\"", item.name, f.name)),
                            );
                        }
                    }
                }
                ItemKind::StringEnum(e) => {
                    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
                    seen.insert("Other".into(), "(the variant for other values)");
                    for v in &e.values {
                        let variant = crate::names::value_variant(v);
                        if let Some(other) = seen.insert(variant.clone(), v) {
                            diags.push(Diagnostic::new(&item.location, format!("`{}`: the values {v:?} and {other:?} would both be the variant `{variant}`", item.name)));
                        }
                    }
                }
                ItemKind::Union(u) => {
                    let catch_all = matches!(&u.dispatch, Dispatch::Tag(t) if t.on_other.is_none());
                    if catch_all && u.variants.iter().any(|v| v.name == UNKNOWN_VARIANT) {
                        diags.push(Diagnostic::new(
                            &item.location,
                            format!("union `{}` has a member named `{UNKNOWN_VARIANT}`, the name of the variant that keeps unknown `{}` values", item.name, tag_field(u)),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
}

/// The Rust name of a field: configured, or the snake-case form of its wire name.
pub fn field_rust_name(config: &Config, type_name: &str, wire: &str) -> String {
    match config.field_names.get(&format!("{type_name}.{wire}")) {
        Some(n) => n.clone(),
        None => field_ident(wire).to_string(),
    }
}

fn describe(other: &str) -> String {
    if other.starts_with('(') {
        other.to_string()
    } else {
        format!("field `{other}`")
    }
}

fn tag_field(u: &Union) -> &str {
    match &u.dispatch {
        Dispatch::Tag(t) => &t.field,
        _ => "",
    }
}
