//! One module's declarations -> items.

mod items;
mod state;

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, ModuleConfig, UntaggedNumber, CONFIG_PATH};
use crate::diagnostics::{Diagnostics, Location};
use crate::ir::*;
use crate::parse::{ConstValue, Decl, DeclKind, Doc, File, Keyword, Literal, Member, ObjectType, TagKind, TypeExpr, TypeKind};

use state::*;

pub fn lower_module(file: &File, module: &ModuleConfig, config: &Config, prior: &TypeSpace, diags: &mut Diagnostics) -> Module {
    let mut lw = Lowerer {
        file,
        module,
        config,
        prior,
        diags,
        decls: BTreeMap::new(),
        imports: BTreeMap::new(),
        shapes: BTreeMap::new(),
        in_progress: BTreeSet::new(),
        taken: BTreeSet::new(),
        unresolved: BTreeSet::new(),
        inline: Vec::new(),
        inline_of: BTreeMap::new(),
    };
    lw.index();
    let mut items = Vec::new();
    for decl in &file.decls {
        lw.inline.push(Vec::new());
        let kind = lw.lower_decl(decl);
        let mut inline = lw.inline.pop().unwrap_or_default();
        if let Some(mut earlier) = lw.inline_of.remove(&decl.name) {
            earlier.append(&mut inline);
            inline = earlier;
        }
        if let Some(kind) = kind {
            items.push(Item {
                name: decl.name.clone(),
                doc: decl.doc.clone(),
                location: decl.location.clone(),
                origin: Origin::Declared { exported: decl.exported },
                kind,
            });
        }
        items.extend(inline);
    }
    // Inline types found in a declaration's shape after that declaration was lowered (a union alias whose
    // shape a later intersection takes): placed after their parent and its other inline types.
    for (parent, extra) in std::mem::take(&mut lw.inline_of) {
        let owned = |i: &Item| i.name == parent || matches!(&i.origin, Origin::Inline { parent: p, .. } if *p == parent);
        let at = items.iter().rposition(owned).map_or(items.len(), |i| i + 1);
        items.splice(at..at, extra);
    }
    let mut uses: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for imp in lw.imports.values() {
        uses.entry(imp.module.clone()).or_default().push(imp.name.clone());
    }
    Module {
        name: module.name.clone(),
        feature: module.feature.clone(),
        title: module.title.clone(),
        source: module.input.clone(),
        uses: uses.into_iter().collect(),
        items,
        requests: Vec::new(),
        notifications: Vec::new(),
    }
}

impl<'a> Lowerer<'a> {
    fn lower_decl(&mut self, decl: &'a Decl) -> Option<ItemKind> {
        let naming = Naming::root(&decl.name);
        match &decl.kind {
            DeclKind::Interface { .. } => {
                let shape = self.decl_shape(&decl.name, &decl.location)?;
                // Only an index signature: a map, not a struct around one.
                match (&shape.index, shape.fields.is_empty()) {
                    (Some(Ty::Value), true) => Some(ItemKind::Alias(Ty::Object)),
                    (Some(t), true) => Some(ItemKind::Alias(Ty::Map(Box::new(t.clone())))),
                    _ => Some(ItemKind::Struct(self.to_struct(&decl.name, shape))),
                }
            }
            DeclKind::Alias(target) => self.lower_alias(&decl.name, target, &naming),
            DeclKind::Const(ConstValue::Literal(l)) => Some(ItemKind::Const(l.clone())),
            DeclKind::Const(ConstValue::Typed(t)) if is_literal_kind(t) => self.literal_of(t).map(ItemKind::Const),
            DeclKind::Const(ConstValue::Typed(t)) => {
                self.err(&t.location, format!("the type of constant `{}` must name a single literal", decl.name));
                None
            }
        }
    }

    fn lower_alias(&mut self, name: &str, target: &TypeExpr, naming: &Naming) -> Option<ItemKind> {
        if let Some(b) = self.config.bindings.get(name) {
            if let Err(e) = syn::parse_str::<syn::Type>(&b.rust) {
                self.err(&target.location, format!("{CONFIG_PATH}: the binding of `{name}` (`{}`) is not a Rust type: {e}", b.rust));
                return None;
            }
            return Some(ItemKind::Alias(Ty::Binding(b.rust.clone())));
        }
        match &target.kind {
            TypeKind::Union(_) => match self.union_members(target, naming, false)? {
                Members::Strings { values, open } => Some(ItemKind::StringEnum(StringEnum { values, open })),
                Members::One(ty) => Some(ItemKind::Alias(ty)),
                Members::Many(variants) => Some(ItemKind::Union(Union { variants, dispatch: Dispatch::Shape })),
                Members::Nullable(ty) => Some(ItemKind::Alias(Ty::Nullable(Box::new(ty)))),
            },
            _ if is_struct_like(target) => {
                let shape = self.decl_shape(name, &target.location)?;
                Some(ItemKind::Struct(self.to_struct(name, shape)))
            }
            _ => {
                if self.alias_cycle(name, target) {
                    self.err(&target.location, format!("type alias `{name}` refers to itself"));
                    return None;
                }
                Some(ItemKind::Alias(self.to_ty(target, naming, false)?))
            }
        }
    }


    /// The flattened shape of a declared interface or object alias, computed once.
    fn decl_shape(&mut self, name: &str, at: &Location) -> Option<Shape> {
        if let Some(s) = self.shapes.get(name) {
            return s.clone();
        }
        if let Some(r) = self.imports.get(name).cloned() {
            return self.prior_shape(&r, at);
        }
        let Some(decl) = self.decls.get(name).copied() else {
            if !self.unresolved.contains(name) {
                self.err(at, format!("unknown type `{name}`"));
            }
            return None;
        };
        if !self.in_progress.insert(name.to_string()) {
            self.err(at, format!("`{name}` extends itself"));
            return None;
        }
        // Inline types met here belong to `name`, wherever the lowering started.
        self.inline.push(Vec::new());
        let naming = Naming::root(name);
        let shape = match &decl.kind {
            DeclKind::Interface { extends, body } => {
                let mut shape = Shape::default();
                let mut ok = true;
                for base in extends {
                    match self.shape_of(base, &naming) {
                        Some(s) => {
                            for f in s.fields {
                                shape.put(f);
                            }
                            if s.index.is_some() {
                                shape.index = s.index;
                            }
                            shape.alternatives.extend(s.alternatives);
                        }
                        None => ok = false,
                    }
                }
                match self.members_shape(body, &naming) {
                    Some(own) => {
                        for f in own.fields {
                            shape.put(f);
                        }
                        if own.index.is_some() {
                            shape.index = own.index;
                        }
                    }
                    None => ok = false,
                }
                ok.then_some(shape)
            }
            DeclKind::Alias(t) => self.shape_of(t, &naming),
            DeclKind::Const(_) => {
                self.err(at, format!("`{name}` is a constant, not an object type"));
                None
            }
        };
        let found = self.inline.pop().unwrap_or_default();
        self.inline_of.entry(name.to_string()).or_default().extend(found);
        self.in_progress.remove(name);
        self.shapes.insert(name.to_string(), shape.clone());
        shape
    }

    fn prior_shape(&mut self, r: &TypeRef, at: &Location) -> Option<Shape> {
        match self.prior.item(r).map(|i| &i.kind) {
            Some(ItemKind::Struct(s)) => Some(Shape {
                fields: s.fields.clone(),
                index: s.rest_declared.then(|| s.rest.clone()),
                alternatives: s.alternatives.clone(),
            }),
            _ => {
                self.err(at, format!("`{}` in module `{}` is not an object type", r.name, r.module));
                None
            }
        }
    }

    /// The shape of a type used where an object is expected: after `extends`, in an intersection, as `Omit`'s base.
    fn shape_of(&mut self, t: &TypeExpr, naming: &Naming) -> Option<Shape> {
        match &t.kind {
            TypeKind::Object(o) => self.members_shape(o, naming),
            TypeKind::Ref { name, args } => match (name.as_str(), args.as_slice()) {
                ("Omit", [base, keys]) => {
                    let mut shape = self.shape_of(base, naming)?;
                    let keys = self.literal_strings(keys)?;
                    for k in &keys {
                        if !shape.fields.iter().any(|f| &f.name == k) {
                            self.err(&t.location, format!("`Omit` removes `{k}`, which the base type does not have"));
                        }
                    }
                    shape.fields.retain(|f| !keys.contains(&f.name));
                    Some(shape)
                }
                ("Partial", [base]) => {
                    let mut shape = self.shape_of(base, naming)?;
                    for f in &mut shape.fields {
                        f.optional = true;
                    }
                    Some(shape)
                }
                ("Record", [k, v]) if !matches!(k.kind, TypeKind::Keyword(Keyword::String)) => {
                    let keys = self.literal_strings(k)?;
                    let (v, optional) = strip_undefined(v);
                    let mut shape = Shape::default();
                    for key in keys {
                        let ty = self.to_ty(&v, &naming.field(&key), false)?;
                        shape.put(Field { name: key, ty, optional, lenient: None, literal: None, never: false, doc: Doc::default(), location: t.location.clone() });
                    }
                    Some(shape)
                }
                ("Record", [_, v]) => {
                    let ty = self.to_ty(v, &naming.suffix("{}", "Value"), false)?;
                    Some(Shape { index: Some(ty), ..Shape::default() })
                }
                (_, []) => self.decl_shape(name, &t.location),
                _ => {
                    self.err(&t.location, format!("`{name}<...>` is not supported here; supported generics are Omit, Partial, Record and Array"));
                    None
                }
            },
            TypeKind::Intersection(parts) => {
                let mut shape = Shape::default();
                for p in parts {
                    let s = self.shape_of(p, naming)?;
                    shape.merge(s);
                }
                Some(shape)
            }
            TypeKind::Union(members) => {
                // Alternatives inside an intersection, e.g. `({ a } | { b? }) & C`: one struct that can hold
                // every alternative; a field is required only where every alternative requires it.
                let mut merged = Shape::default();
                let mut alternatives = Vec::new();
                let mut required_in_all: Option<BTreeSet<String>> = None;
                // Per field, the string literals the alternatives fix it to (`None` once one does not).
                let mut literals: Vec<(String, Option<Vec<String>>)> = Vec::new();
                for m in members {
                    let s = self.shape_of(m, naming)?;
                    for f in &s.fields {
                        let lit = match &f.literal {
                            Some(Literal::Str(v)) => Some(v.clone()),
                            _ => None,
                        };
                        match literals.iter_mut().find(|(n, _)| *n == f.name) {
                            None => literals.push((f.name.clone(), lit.map(|v| vec![v]))),
                            Some((_, slot)) => match (slot.as_mut(), lit) {
                                (Some(values), Some(v)) if !values.contains(&v) => values.push(v),
                                (Some(_), None) => *slot = None,
                                _ => {}
                            },
                        }
                    }
                    let req: BTreeSet<String> = s.fields.iter().filter(|f| !f.optional).map(|f| f.name.clone()).collect();
                    alternatives.push(req.iter().cloned().collect::<Vec<_>>());
                    required_in_all = Some(match required_in_all {
                        None => req,
                        Some(prev) => prev.intersection(&req).cloned().collect(),
                    });
                    for f in s.fields {
                        if !merged.fields.iter().any(|g| g.name == f.name) {
                            merged.fields.push(f);
                        }
                    }
                }
                let required = required_in_all.unwrap_or_default();
                for f in &mut merged.fields {
                    f.optional = !required.contains(&f.name);
                }
                // A field the alternatives fix to different strings (a status per member) holds any of them:
                // a closed enum of those values, not the first member's literal.
                for (name, values) in literals {
                    let Some(values) = values.filter(|v| v.len() > 1) else { continue };
                    let ty = self.synth(&naming.field(&name), t, ItemKind::StringEnum(StringEnum { values, open: false }))?;
                    if let Some(f) = merged.fields.iter_mut().find(|f| f.name == name) {
                        f.ty = ty;
                        f.literal = None;
                    }
                }
                merged.alternatives = alternatives;
                Some(merged)
            }
            _ => {
                self.err(&t.location, "expected an object type here");
                None
            }
        }
    }

    fn members_shape(&mut self, o: &ObjectType, naming: &Naming) -> Option<Shape> {
        let mut shape = Shape::default();
        let mut ok = true;
        for m in &o.members {
            match self.field(m, naming) {
                Some(f) => shape.put(f),
                None => ok = false,
            }
        }
        if let Some(ix) = &o.index {
            match self.to_ty(ix, &naming.suffix("{}", "Value"), false) {
                Some(t) => shape.index = Some(t),
                None => ok = false,
            }
        }
        ok.then_some(shape)
    }

    fn field(&mut self, m: &Member, naming: &Naming) -> Option<Field> {
        let (ty_expr, undefined) = strip_undefined(&m.ty);
        let optional = m.optional || undefined;
        let entry = self.config.lenient_fields.iter().find(|l| l.type_name == naming.parent && l.field == m.name && naming.path.is_empty());
        let lenient = entry.filter(|_| !optional).map(|l| Lenient { write: l.write.clone() });
        let optional = optional || lenient.is_some();
        let base = Field { name: m.name.clone(), ty: Ty::Value, optional, lenient, literal: None, never: false, doc: m.doc.clone(), location: m.location.clone() };
        if matches!(ty_expr.kind, TypeKind::Keyword(Keyword::Never)) {
            return Some(Field { never: true, optional: true, ..base });
        }
        if is_literal_kind(&ty_expr) {
            // Reported inside `literal_of` when it fails; nothing more to say here.
            let lit = self.literal_of(&ty_expr)?;
            let ty = match &lit {
                Literal::Str(_) => Ty::String,
                Literal::Num(n) if n.contains(['.', 'e', 'E']) => Ty::Number,
                Literal::Num(_) => Ty::Integer,
                Literal::Bool(_) => Ty::Boolean,
            };
            return Some(Field { ty, literal: Some(lit), ..base });
        }
        let module = &self.module.name;
        let configured = self.config.number_fields.iter().any(|n| {
            n.type_name == naming.parent && n.field == m.name && naming.path.is_empty() && (n.modules.is_empty() || n.modules.contains(module))
        });
        let float = configured || m.doc.tag(TagKind::JsonType) == Some("number");
        let ty = self.to_ty(&ty_expr, &naming.field(&m.name), float)?;
        Some(Field { ty, ..base })
    }

    /// A type that stands for exactly one literal: `"x"`, `typeof CONST`, `T["field"]` of a literal field.
    fn literal_of(&mut self, t: &TypeExpr) -> Option<Literal> {
        match &t.kind {
            TypeKind::Literal(l) => Some(l.clone()),
            TypeKind::TypeOf(name) => match self.decls.get(name.as_str()).map(|d| &d.kind) {
                Some(DeclKind::Const(ConstValue::Literal(l))) => Some(l.clone()),
                Some(DeclKind::Const(ConstValue::Typed(t))) if is_literal_kind(t) => {
                    let t = t.clone();
                    self.literal_of(&t)
                }
                _ => {
                    self.err(&t.location, format!("`typeof {name}` must name a literal constant of this file"));
                    None
                }
            },
            TypeKind::Indexed { object, key } => {
                let TypeKind::Ref { name, args } = &object.kind else {
                    self.err(&t.location, "indexed access must start from a named type");
                    return None;
                };
                if !args.is_empty() {
                    self.err(&t.location, "indexed access on a generic type is not supported");
                    return None;
                }
                let shape = self.decl_shape(name, &t.location)?;
                match shape.fields.iter().find(|f| &f.name == key) {
                    Some(Field { literal: Some(l), .. }) => Some(l.clone()),
                    Some(_) => {
                        self.err(&t.location, format!("`{name}[\"{key}\"]` is not a literal type; only literal fields can be indexed"));
                        None
                    }
                    None => {
                        self.err(&t.location, format!("`{name}` has no field `{key}`"));
                        None
                    }
                }
            }
            _ => None,
        }
    }

    fn to_ty(&mut self, t: &TypeExpr, naming: &Naming, float: bool) -> Option<Ty> {
        match &t.kind {
            TypeKind::Keyword(k) => match k {
                Keyword::String => Some(Ty::String),
                Keyword::Number if float || self.module.untagged_number == UntaggedNumber::Number => Some(Ty::Number),
                Keyword::Number => Some(Ty::Integer),
                Keyword::Boolean => Some(Ty::Boolean),
                Keyword::Null => Some(Ty::Null),
                Keyword::Unknown | Keyword::Any => Some(Ty::Value),
                Keyword::Object => Some(Ty::Object),
                Keyword::Undefined => {
                    self.err(&t.location, "`undefined` is only supported as a union member of an optional field");
                    None
                }
                Keyword::Never => {
                    self.err(&t.location, "`never` is only supported as the type of an optional field");
                    None
                }
            },
            TypeKind::Literal(_) | TypeKind::TypeOf(_) | TypeKind::Indexed { .. } => {
                let lit = self.literal_of(t)?;
                match lit {
                    Literal::Str(s) => self.synth(naming, t, ItemKind::StringEnum(StringEnum { values: vec![s], open: false })),
                    other => {
                        self.err(&t.location, format!("the literal type {} is only supported as a field type", other.describe()));
                        None
                    }
                }
            }
            TypeKind::Ref { name, args } => self.ref_ty(t, name, args, naming, float),
            TypeKind::Array(e) => Some(Ty::Array(Box::new(self.to_ty(e, &naming.suffix("[]", "Item"), float)?))),
            TypeKind::Union(_) => match self.union_members(t, naming, float)? {
                Members::One(ty) => Some(ty),
                Members::Nullable(ty) => Some(Ty::Nullable(Box::new(ty))),
                Members::Strings { values, open } => self.synth(naming, t, ItemKind::StringEnum(StringEnum { values, open })),
                Members::Many(variants) => self.synth(naming, t, ItemKind::Union(Union { variants, dispatch: Dispatch::Shape })),
            },
            TypeKind::Intersection(_) => {
                let shape = self.shape_of(t, naming)?;
                let s = self.to_struct(&naming.name, shape);
                self.synth(naming, t, ItemKind::Struct(s))
            }
            TypeKind::Object(o) => {
                if o.members.is_empty() {
                    return match &o.index {
                        None => Some(Ty::Object),
                        Some(ix) => match self.to_ty(ix, &naming.suffix("{}", "Value"), float)? {
                            Ty::Value => Some(Ty::Object),
                            v => Some(Ty::Map(Box::new(v))),
                        },
                    };
                }
                let shape = self.members_shape(o, naming)?;
                let s = self.to_struct(&naming.name, shape);
                self.synth(naming, t, ItemKind::Struct(s))
            }
        }
    }

    fn ref_ty(&mut self, t: &TypeExpr, name: &str, args: &[TypeExpr], naming: &Naming, float: bool) -> Option<Ty> {
        match (name, args) {
            ("Array", [e]) => return Some(Ty::Array(Box::new(self.to_ty(e, &naming.suffix("[]", "Item"), float)?))),
            ("Record", [k, v]) if matches!(k.kind, TypeKind::Keyword(Keyword::String)) => {
                return match self.to_ty(v, &naming.suffix("{}", "Value"), float)? {
                    Ty::Value => Some(Ty::Object),
                    v => Some(Ty::Map(Box::new(v))),
                };
            }
            ("Record" | "Omit" | "Partial", _) => {
                let shape = self.shape_of(t, naming)?;
                let s = self.to_struct(&naming.name, shape);
                return self.synth(naming, t, ItemKind::Struct(s));
            }
            (_, [_, ..]) => {
                self.err(&t.location, format!("`{name}<...>` is not supported; supported generics are Omit, Partial, Record and Array"));
                return None;
            }
            _ => {}
        }
        if let Some(r) = self.imports.get(name) {
            return Some(Ty::Named(r.clone()));
        }
        if self.unresolved.contains(name) {
            return None;
        }
        match self.decls.get(name).map(|d| &d.kind) {
            Some(DeclKind::Const(_)) => {
                self.err(&t.location, format!("`{name}` is a constant; use `typeof {name}`"));
                None
            }
            Some(_) => Some(Ty::Named(TypeRef { module: self.module.name.clone(), name: name.to_string() })),
            None => {
                self.err(&t.location, format!("unknown type `{name}`"));
                None
            }
        }
    }

    fn union_members(&mut self, t: &TypeExpr, naming: &Naming, float: bool) -> Option<Members> {
        let mut flat = Vec::new();
        flatten_union(t, &mut flat);
        let nullable = flat.iter().any(|m| matches!(m.kind, TypeKind::Keyword(Keyword::Null)));
        let rest: Vec<&TypeExpr> = flat.iter().copied().filter(|m| !matches!(m.kind, TypeKind::Keyword(Keyword::Null | Keyword::Undefined))).collect();
        if flat.iter().any(|m| matches!(m.kind, TypeKind::Keyword(Keyword::Undefined))) {
            self.err(&t.location, "`undefined` is only supported as a union member of an optional field");
            return None;
        }
        let string_like = |m: &TypeExpr| matches!(m.kind, TypeKind::Literal(Literal::Str(_)) | TypeKind::Keyword(Keyword::String));
        if rest.len() > 1 && rest.iter().all(|m| string_like(m)) {
            let mut values = Vec::new();
            let mut open = false;
            for m in &rest {
                match &m.kind {
                    TypeKind::Literal(Literal::Str(s)) if !values.contains(s) => values.push(s.clone()),
                    TypeKind::Keyword(Keyword::String) => open = true,
                    _ => {}
                }
            }
            if values.is_empty() {
                return Some(Members::One(Ty::String));
            }
            if nullable {
                let ty = self.synth(naming, t, ItemKind::StringEnum(StringEnum { values, open }))?;
                return Some(Members::Nullable(ty));
            }
            return Some(Members::Strings { values, open });
        }
        if rest.len() == 1 {
            let ty = self.to_ty(rest[0], naming, float)?;
            return Some(if nullable { Members::Nullable(ty) } else { Members::One(ty) });
        }
        let mut variants: Vec<Variant> = Vec::new();
        for (i, m) in rest.iter().enumerate() {
            // A string literal among other JSON kinds is named after its value, which says what it means
            // (`Skill.resources`'s `"dynamic"`: type `SkillResourcesDynamic`, variant `Dynamic`); others by position.
            let (member_naming, literal) = match &m.kind {
                TypeKind::Literal(Literal::Str(s)) => {
                    let word = crate::names::value_variant(s);
                    (naming.suffix(&format!("|{s:?}"), &word), Some(word))
                }
                _ => (naming.suffix(&format!("|{}", i + 1), &format!("{}", i + 1)), None),
            };
            let ty = self.to_ty(m, &member_naming, float)?;
            let vname = literal.unwrap_or_else(|| variant_name(&ty));
            if variants.iter().any(|v| v.name == vname) {
                self.err(&m.location, format!("two members of this union would both be called `{vname}`"));
                return None;
            }
            variants.push(Variant { name: vname, ty });
        }
        if nullable {
            variants.push(Variant { name: "Null".into(), ty: Ty::Null });
        }
        Some(Members::Many(variants))
    }
}
