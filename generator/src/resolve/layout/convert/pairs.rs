//! How one pair of types converts: field by field, value by value or member by member, with the
//! pairs that needs queued and every case that is not a plain copy recorded.

use std::collections::{BTreeSet, VecDeque};

use super::planner::{Planner, Todo};
use crate::ir::*;
use crate::resolve::checks::field_rust_name;

fn has_unknown(u: &Union) -> bool {
    matches!(&u.dispatch, Dispatch::Tag(t) if t.on_other.is_none())
}

const VIA_JSON: &str = "converted through JSON (error `Unreadable` if it does not read)";
const MISSING_UNLESS_EXTRA: &str = "error `Missing` unless the source's `extra` has it";
const NOT_IN_TARGET: &str = "error `NotInTarget`";

impl<'a> Planner<'a> {
    pub(super) fn pair(&mut self, todo: &Todo, queue: &mut VecDeque<Todo>) -> PairConversion {
        let src_item = self.space.item(&todo.src).expect("nominal type");
        let dst_item = self.space.item(&todo.dst).expect("nominal type");
        match (&src_item.kind, &dst_item.kind) {
            (ItemKind::Struct(s), ItemKind::Struct(d)) => self.structs(todo, src_item, s, dst_item, d, queue),
            (ItemKind::StringEnum(s), ItemKind::StringEnum(d)) => self.enums(todo, src_item, s, d),
            (ItemKind::Union(s), ItemKind::Union(d)) => self.unions(todo, src_item, s, d, queue),
            (ItemKind::Union(s), ItemKind::Struct(_)) => self.union_to_struct(todo, src_item, s, dst_item, queue),
            (ItemKind::Struct(_), ItemKind::Union(d)) => self.struct_to_union(todo, src_item, dst_item, d, queue),
            _ => unreachable!("only compatible pairs are queued"),
        }
    }

    fn structs(&mut self, todo: &Todo, si: &Item, s: &Struct, di: &Item, d: &Struct, queue: &mut VecDeque<Todo>) -> PairConversion {
        let step = todo.step;
        if !matches!(s.rest, Ty::Value) || !matches!(d.rest, Ty::Value) {
            // Typed index signatures: no `extra` to keep the other version's keys in.
            let place = self.case(step, si.name.clone(), "an index signature (typed `extra`)".into(), VIA_JSON);
            return PairConversion::ViaJson { place };
        }
        let stored = |f: &&Field| !f.never;
        let src_fields: Vec<&Field> = s.fields.iter().filter(stored).collect();
        let dst_fields: Vec<&Field> = d.fields.iter().filter(stored).collect();
        let refused: BTreeSet<&str> = self.config.convert.refusals.iter().map(|r| r.field.as_str()).collect();
        let mut source_only = Vec::new();
        // Fields the target does not define: into its `extra`, or refused.
        for f in src_fields.iter().filter(|f| dst_fields.iter().all(|g| g.name != f.name)) {
            let key = &f.name;
            let place = format!("{}.{}", si.name, key);
            let refused = if refused.contains(key.as_str()) {
                Some(self.case(step, place, format!("`{key}` set"), "error `Refused`"))
            } else {
                self.case(step, place, format!("`{key}` set"), "kept in the target's `extra`");
                None
            };
            let ident = field_rust_name(self.config, &si.name, key);
            source_only.push(SourceOnly { key: key.clone(), ident, optional: f.optional, literal: f.literal.clone(), refused });
        }
        let mut fields = Vec::new();
        for g in &dst_fields {
            let fill = match src_fields.iter().find(|f| f.name == g.name) {
                Some(f) => self.field(todo, si, di, f, g, queue),
                None => self.fill_from_extra(todo, di, g),
            };
            fields.push(TargetField { key: g.name.clone(), ident: field_rust_name(self.config, &di.name, &g.name), fill });
        }
        PairConversion::Struct { source_only, fields }
    }

    /// A target field the source does not define: the source's `extra` may carry it.
    fn fill_from_extra(&mut self, todo: &Todo, di: &Item, g: &Field) -> Fill {
        let (step, key) = (todo.step, &g.name);
        let place = format!("{}.{}", di.name, key);
        let take = match (&g.literal, g.optional) {
            (Some(l), false) => Take::Literal { value: l.clone(), place: self.case(step, place, format!("`{key}` absent"), MISSING_UNLESS_EXTRA) },
            (Some(l), true) => Take::Flag { value: l.clone() },
            (None, false) => Take::Required { place: self.case(step, place, format!("`{key}` absent"), MISSING_UNLESS_EXTRA), optional: false },
            // Required by the target's schema but read leniently (`resultType`): absent, the
            // converted value would be invalid there, so it is missing like any required field.
            (None, true) if g.lenient.is_some() => Take::Required { place: self.case(step, place, format!("`{key}` absent"), MISSING_UNLESS_EXTRA), optional: true },
            (None, true) => Take::Optional { keep_null: !matches!(g.ty, Ty::Nullable(_) | Ty::Value) },
        };
        let boxed = g.literal.is_none() && self.boxed(&todo.dst, &g.ty, true);
        Fill::FromExtra { take, boxed }
    }

    /// A field both sides define.
    fn field(&mut self, todo: &Todo, si: &Item, di: &Item, f: &Field, g: &Field, queue: &mut VecDeque<Todo>) -> Fill {
        let (step, key) = (todo.step, &g.name);
        let source = field_rust_name(self.config, &si.name, key);
        match (&f.literal, &g.literal) {
            (Some(a), Some(b)) if a == b => {
                let same = if g.optional {
                    SameLiteral::Flag { source: f.optional.then_some(source) }
                } else if f.optional {
                    SameLiteral::Check { source, place: self.case(step, format!("{}.{}", di.name, key), format!("`{key}` absent"), "error `Missing`") }
                } else {
                    SameLiteral::Nothing
                };
                return Fill::SameLiteral(same);
            }
            (None, None) => {}
            _ => {
                // A literal on one side only, or two different literals: the value cannot be carried.
                let place = self.case(step, format!("{}.{}", si.name, key), format!("`{key}` has another fixed value"), NOT_IN_TARGET);
                return Fill::OtherLiteral { place };
            }
        }
        let source_boxed = self.boxed(&todo.src, &f.ty, true);
        let need = (f.optional && !g.optional).then(|| self.case(step, format!("{}.{}", di.name, key), format!("`{key}` absent"), "error `Missing`"));
        let via_json = if self.direct(step, &f.ty, &g.ty, queue) {
            None
        } else {
            Some(self.case(step, format!("{}.{}", si.name, key), "a different shape in the target".into(), VIA_JSON))
        };
        let target_boxed = g.literal.is_none() && self.boxed(&todo.dst, &g.ty, true);
        Fill::Copy(FieldCopy { source, source_optional: f.optional, source_boxed, need, via_json, target_optional: g.optional, target_boxed })
    }

    fn enums(&mut self, todo: &Todo, si: &Item, s: &StringEnum, d: &StringEnum) -> PairConversion {
        let mut not_in_target = Vec::new();
        if !d.open {
            for v in s.values.iter().filter(|v| !d.values.contains(v)) {
                let place = self.case(todo.step, format!("{}.{v}", si.name), format!("the value `{v:?}`"), NOT_IN_TARGET);
                not_in_target.push((crate::names::value_variant(v), place));
            }
        }
        PairConversion::Enum { not_in_target }
    }

    /// A union member's type at its home, for matching members across versions.
    fn member_name(&self, v: &Variant) -> String {
        self.nominal(&v.ty).map_or_else(|| v.name.clone(), |(r, _)| r.name)
    }

    fn unions(&mut self, todo: &Todo, si: &Item, s: &Union, d: &Union, queue: &mut VecDeque<Todo>) -> PairConversion {
        let step = todo.step;
        let mut arms = Vec::new();
        for v in &s.variants {
            let renamed = self.renamed(step, &self.member_name(v));
            let target = d.variants.iter().find(|w| w.name == v.name).or_else(|| d.variants.iter().find(|w| self.member_name(w) == renamed));
            let to = match target {
                Some(w) if self.direct(step, &v.ty, &w.ty, queue) => MemberTarget::Convert { variant: Some(w.name.clone()), boxed: self.boxed(&todo.dst, &w.ty, false) },
                Some(w) => {
                    let place = self.case(step, format!("{}.{}", si.name, v.name), "a different shape in the target".into(), VIA_JSON);
                    MemberTarget::ViaJson { variant: w.name.clone(), boxed: self.boxed(&todo.dst, &w.ty, false), place }
                }
                None => MemberTarget::NotInTarget { place: self.case(step, format!("{}.{}", si.name, v.name), format!("a member `{}`", v.name), NOT_IN_TARGET) },
            };
            arms.push(Arm { variant: v.name.clone(), boxed: self.boxed(&todo.src, &v.ty, false), to });
        }
        let unknown = has_unknown(s).then(|| {
            let what = "a member the source version does not define".to_string();
            if has_unknown(d) {
                self.case(step, format!("{}.Unknown", si.name), what, "kept as the target's `Unknown`, as received");
                UnknownArm::Keep
            } else {
                UnknownArm::Refuse { place: self.case(step, format!("{}.Unknown", si.name), what, NOT_IN_TARGET) }
            }
        });
        PairConversion::Union { arms, unknown }
    }

    fn union_to_struct(&mut self, todo: &Todo, si: &Item, s: &Union, di: &Item, queue: &mut VecDeque<Todo>) -> PairConversion {
        let step = todo.step;
        let target = self.renamed(step, &di.name);
        let dst_ty = Ty::Named(todo.dst.clone());
        let mut arms = Vec::new();
        for v in &s.variants {
            let boxed = self.boxed(&todo.src, &v.ty, false);
            let member = self.renamed(step, &self.member_name(v));
            let holds = member == di.name || member == target || self.renamed(step, &v.name) == di.name;
            let to = if holds && self.direct(step, &v.ty, &dst_ty, queue) {
                MemberTarget::Convert { variant: None, boxed: false }
            } else {
                MemberTarget::NotInTarget { place: self.case(step, format!("{}.{}", si.name, v.name), format!("a member `{}`", v.name), NOT_IN_TARGET) }
            };
            arms.push(Arm { variant: v.name.clone(), boxed, to });
        }
        let unknown = has_unknown(s).then(|| UnknownArm::Refuse { place: self.case(step, format!("{}.Unknown", si.name), "a member the source version does not define".into(), NOT_IN_TARGET) });
        PairConversion::UnionToStruct { arms, unknown }
    }

    fn struct_to_union(&mut self, todo: &Todo, si: &Item, di: &Item, d: &Union, queue: &mut VecDeque<Todo>) -> PairConversion {
        let step = todo.step;
        let src_ty = Ty::Named(todo.src.clone());
        let renamed = self.renamed(step, &si.name);
        let target = d.variants.iter().find(|w| self.member_name(w) == renamed || w.name == renamed);
        PairConversion::StructToUnion(match target {
            Some(w) if self.direct(step, &src_ty, &w.ty, queue) => MemberTarget::Convert { variant: Some(w.name.clone()), boxed: self.boxed(&todo.dst, &w.ty, false) },
            _ => MemberTarget::NotInTarget { place: self.case(step, si.name.clone(), format!("no member of `{}` holds it", di.name), NOT_IN_TARGET) },
        })
    }
}
