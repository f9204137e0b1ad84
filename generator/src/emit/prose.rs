//! Sentences the docs build from the IR: a summary for an undescribed type, what a
//! type is in words, what a variant holds and what a member needs.

use super::ctx::Ctx;
use super::docs;
use crate::ir::*;

impl<'a> Ctx<'a> {
    /// A summary for a type the schema does not describe, from what the IR knows of it.
    pub(super) fn derived_summary(&self, item: &Item) -> String {
        let what = docs::with_article(&docs::words(&item.name));
        let list = |xs: Vec<String>| match xs.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => xs.concat(),
        };
        match &item.kind {
            ItemKind::Union(u) => match &u.dispatch {
                Dispatch::Tag(t) => {
                    let mut values: Vec<String> = t.cases.iter().map(|(v, _)| format!("`{v}`")).collect();
                    if t.on_other.is_some() {
                        values.push("any other".to_string());
                    }
                    let by = if t.on_absent.is_some() { format!("`{}`, or its absence", t.field) } else { format!("`{}`", t.field) };
                    format!("{what}: one of {} (dispatched on {by}).", list(values))
                }
                Dispatch::Kind => format!("{what}: {} (dispatched on the JSON kind).", list(u.variants.iter().map(|v| self.ty_phrase(&v.ty)).collect())),
                Dispatch::Shape => format!("{what}: one of {} (dispatched on the keys present).", list(u.variants.iter().map(|v| self.ty_phrase(&v.ty)).collect())),
            },
            ItemKind::Struct(st) => {
                let keys: Vec<String> = st.fields.iter().filter(|f| !f.never).map(|f| format!("`{}`", f.name)).collect();
                if keys.is_empty() {
                    format!("{what} object.")
                } else if keys.len() == 1 {
                    format!("{what} object with the key {}.", keys[0])
                } else {
                    format!("{what} object with the keys {}.", list(keys).replace(" or ", " and "))
                }
            }
            ItemKind::StringEnum(e) => format!("{what}: {}.", list(e.values.iter().map(|v| format!("`{v:?}`")).collect())),
            ItemKind::Alias(ty) => format!("{what}: {}.", self.ty_phrase(ty)),
            ItemKind::Const(l) => format!("The schema's constant `{}`: `{}`.", item.name, l.describe()),
        }
    }

    /// What a value of `ty` is, for prose: "a string", "an array of [`Icon`]", "[`Role`] or `null`".
    pub(super) fn ty_phrase(&self, ty: &Ty) -> String {
        match ty {
            Ty::Array(inner) => format!("an array of {}", self.ty_plural(inner)),
            Ty::Map(inner) => format!("an object whose values are {}", self.ty_plural(inner)),
            Ty::Nullable(inner) => format!("{} or `null`", self.ty_phrase(inner)),
            Ty::Named(r) => self.ty_link(r),
            Ty::String => "a string".into(),
            Ty::Integer => "an integer".into(),
            Ty::Number => "a number".into(),
            Ty::Boolean => "a boolean".into(),
            Ty::Null => "`null`".into(),
            Ty::Value => "any JSON value".into(),
            Ty::Object => "a JSON object".into(),
            Ty::Binding(b) => format!("`{b}`"),
        }
    }

    pub(super) fn ty_plural(&self, ty: &Ty) -> String {
        match ty {
            Ty::String => "strings".into(),
            Ty::Integer => "integers".into(),
            Ty::Number => "numbers".into(),
            Ty::Boolean => "booleans".into(),
            Ty::Value => "JSON values".into(),
            Ty::Object => "JSON objects".into(),
            Ty::Array(_) | Ty::Map(_) | Ty::Nullable(_) | Ty::Null | Ty::Binding(_) => format!("values of the form: {}", self.ty_phrase(ty)),
            Ty::Named(r) => self.ty_link(r),
        }
    }

    /// An intra-doc link to a named type, by its Rust name.
    pub(super) fn ty_link(&self, r: &TypeRef) -> String {
        let ident = self.ident(&r.name);
        let imported = self.module.uses.iter().any(|(m, names)| *m == r.module && names.contains(&r.name));
        if r.module == self.module.name || imported {
            format!("[`{ident}`]")
        } else {
            format!("[`{ident}`](crate::{}::{ident})", r.module)
        }
    }

    /// A variant's doc line: for a tagged union the wire values that choose it, then the type.
    pub(super) fn variant_doc(&self, u: &Union, i: usize) -> String {
        let v = &u.variants[i];
        let target = match &v.ty {
            Ty::Named(r) => self.ty_link(r),
            other => self.ty_phrase(other),
        };
        match &u.dispatch {
            Dispatch::Tag(t) => {
                let mut when: Vec<String> = t.cases.iter().filter(|(_, j)| *j == i).map(|(value, _)| format!("`{value}`")).collect();
                if t.on_absent == Some(i) {
                    when.push(format!("no `{}`", t.field));
                }
                if t.on_other == Some(i) {
                    when.push(format!("any other `{}`", t.field));
                }
                format!("{}: {target}", when.join(", "))
            }
            Dispatch::Kind => {
                let kind = format!("{:?}", self.space.kind_of(&v.ty)).to_lowercase();
                let kind = docs::with_article(&format!("JSON {kind}"));
                let kind = kind[..1].to_uppercase() + &kind[1..];
                match &v.ty {
                    Ty::Named(_) | Ty::Array(_) | Ty::Map(_) => format!("{kind}: {target}"),
                    _ => format!("{kind}."),
                }
            }
            // What the keys must show: `(with `content`)`, `(an object)`.
            Dispatch::Shape if self.space.struct_of(&v.ty).is_some() => format!("{target}{}", self.shape_hint(&v.ty, "")),
            Dispatch::Shape => target,
        }
    }

    /// What a variant needs, for error messages: `CallToolResult (needs `content`)`.
    pub(super) fn shape_hint(&self, ty: &Ty, name: &str) -> String {
        if let Some((_, s)) = self.space.struct_of(ty) {
            let req: Vec<String> = s.fields.iter().filter(|f| !f.optional && !f.never).map(|f| match &f.literal {
                Some(l) => format!("`{}`: {}", f.name, l.describe()),
                None => format!("`{}`", f.name),
            }).collect();
            if req.is_empty() {
                return format!("{name} (an object)");
            }
            return format!("{name} (with {})", req.join(", "));
        }
        format!("{name} ({})", format!("{:?}", self.space.kind_of(ty)).to_lowercase())
    }
}
