//! The pieces of lowering that only build: a struct from a flattened shape (with the config's
//! `[[field_literal]]` and `[[never_field]]` applied), an inline item under its name, and the
//! strings of a string literal union. They read the lowerer's state and call nothing back.

use crate::config::CONFIG_PATH;
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use crate::parse::{DeclKind, Doc, Literal, TypeExpr, TypeKind};

use super::state::*;

impl Lowerer<'_> {
    /// A struct from a flattened shape, with the configured literal and never-present fields applied.
    pub(super) fn to_struct(&mut self, name: &str, shape: Shape) -> Struct {
        let mut fields = shape.fields;
        for fl in &self.config.field_literals {
            if fl.type_name == name && (fl.modules.is_empty() || fl.modules.contains(&self.module.name)) {
                match fields.iter_mut().find(|f| f.name == fl.field) {
                    Some(f) => {
                        // The value identifies the type, so it is always there.
                        f.literal = Some(Literal::Str(fl.value.clone()));
                        f.ty = Ty::String;
                        f.optional = false;
                        f.lenient = None;
                    }
                    None => {
                        let at = self.decls.get(name).map(|d| d.location.clone()).unwrap_or_default();
                        self.err(&at, format!("{CONFIG_PATH}: field_literal names `{name}.{}`, which has no such field", fl.field));
                    }
                }
            }
        }
        for nf in self.config.never_fields.iter().filter(|nf| nf.type_name == name) {
            match fields.iter().find(|f| f.name == nf.field) {
                None => {
                    let location = self.decls.get(name).map(|d| d.location.clone()).unwrap_or_default();
                    let doc = Doc::default();
                    fields.push(Field { name: nf.field.clone(), ty: Ty::Value, optional: true, lenient: None, literal: None, never: true, doc, location });
                }
                Some(_) => {
                    let at = self.decls.get(name).map(|d| d.location.clone()).unwrap_or_default();
                    self.err(&at, format!("{CONFIG_PATH}: never_field names `{name}.{}`, which the schema declares", nf.field));
                }
            }
        }
        let rest_declared = shape.index.is_some();
        Struct { fields, rest: shape.index.unwrap_or(Ty::Value), rest_declared, alternatives: shape.alternatives }
    }

    /// The strings of a string literal, a union of them, or an alias of either.
    pub(super) fn literal_strings(&mut self, t: &TypeExpr) -> Option<Vec<String>> {
        match &t.kind {
            TypeKind::Literal(Literal::Str(s)) => Some(vec![s.clone()]),
            TypeKind::Union(ms) => {
                let mut out = Vec::new();
                for m in ms {
                    out.extend(self.literal_strings(m)?);
                }
                Some(out)
            }
            TypeKind::Ref { name, args } if args.is_empty() => match self.decls.get(name.as_str()).map(|d| &d.kind) {
                Some(DeclKind::Alias(inner)) => {
                    let inner = inner.clone();
                    self.literal_strings(&inner)
                }
                _ => {
                    self.err(&t.location, format!("`{name}` is not a union of string literals"));
                    None
                }
            },
            _ => {
                self.err(&t.location, "expected a string literal or a union of string literals");
                None
            }
        }
    }

    /// Adds an inline type under its `{Parent}{Field}` name (or the configured one) and refers to it.
    pub(super) fn synth(&mut self, naming: &Naming, t: &TypeExpr, kind: ItemKind) -> Option<Ty> {
        let key = format!("{}.{}", naming.parent, naming.path);
        let name = self.config.inline_names.get(&key).cloned().unwrap_or_else(|| naming.name.clone());
        if !self.taken.insert(name.clone()) {
            self.diags.push(
                Diagnostic::new(&t.location, format!("the inline type at `{key}` would be named `{name}`, which is already taken"))
                    .with_hint(format!("name it under [inline_names] in {CONFIG_PATH}: \"{key}\" = \"...\"")),
            );
            return None;
        }
        let doc = Doc::default();
        let item = Item {
            name: name.clone(),
            doc,
            location: t.location.clone(),
            origin: Origin::Inline { parent: naming.parent.clone(), path: naming.path.clone() },
            kind,
        };
        match self.inline.last_mut() {
            Some(buf) => buf.push(item),
            None => self.inline_of.entry(naming.parent.clone()).or_default().push(item),
        }
        Some(Ty::Named(TypeRef { module: self.module.name.clone(), name }))
    }
}
