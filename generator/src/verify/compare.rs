//! Structural comparison of two schema documents in normal form: the one
//! emitted from the IR ("schema.ts") and the spec's ("schema.json").
//!
//! References are followed where the two sides name things differently (an
//! inline type the generator named, an alias); where both refer to the same
//! definition the comparison stops, since that definition is compared on its
//! own. Pointers are paths in the schema.json definition, continued through
//! any reference the comparison followed.

use std::collections::BTreeSet;

use serde_json::{Number, Value};

use super::node::{escape, Additional, Array, Document, Node, Object, Ref, Scalar, ScalarKind};
use super::difference::{Difference, Kind};

/// What one comparison of a definition found.
#[derive(Debug, Default)]
pub struct Outcome {
    pub differences: Vec<Difference>,
    /// Pointers where the IR refers to another module's type (skipped), with that type's name.
    pub skipped: Vec<(String, String)>,
}

pub struct Comparer<'a> {
    ours: &'a Document,
    theirs: &'a Document,
    definition: String,
    /// Pairs of definitions (ours, theirs) already being compared, so recursive types end.
    following: BTreeSet<(String, String)>,
    outcome: Outcome,
}

/// The coarse kind a union member is matched by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Null,
    Boolean,
    Numeric,
    String,
    Array,
    Object,
    /// Unknown without following a reference into another module.
    Foreign,
    Other,
}

impl<'a> Comparer<'a> {
    pub fn new(ours: &'a Document, theirs: &'a Document, definition: &str) -> Self {
        Comparer { ours, theirs, definition: definition.to_string(), following: BTreeSet::new(), outcome: Outcome::default() }
    }

    pub fn run(mut self, ours: &Node, theirs: &Node) -> Outcome {
        self.compare(ours, theirs, "");
        self.outcome
    }

    fn report(&mut self, pointer: &str, kind: Kind, detail: String) {
        self.outcome.differences.push(Difference { definition: self.definition.clone(), pointer: pointer.to_string(), kind, detail });
    }

    /// Whether two nodes compare without differences (used to pair things up, reports nothing).
    fn equivalent(&self, ours: &Node, theirs: &Node) -> bool {
        equivalent_in(self.ours, self.theirs, ours, theirs, &self.following)
    }

    fn compare(&mut self, ours: &Node, theirs: &Node, pointer: &str) {
        if let Node::Ref(Ref { key, foreign_module: Some(module) }) = ours {
            self.outcome.skipped.push((pointer.to_string(), format!("{module}::{key}")));
            return;
        }
        let ours_name = final_name(self.ours, ours);
        let theirs_name = final_name(self.theirs, theirs);
        if ours_name.is_some() && ours_name == theirs_name && self.ours.def(ours_name.as_deref().unwrap_or_default()).is_some() {
            return;
        }
        // An inline node on one side that is what the other side's definition of that name says (`{}` where
        // schema.json refers to JSONValue; schema.json's `string` where the IR refers to ResultType).
        // Either way, the pair of definitions is compared on its own.
        if let Some(name) = &theirs_name {
            if ours_name.is_none() {
                if let Some(def) = self.ours.def(name) {
                    if equivalent_in(self.ours, self.ours, ours, def, &self.following) {
                        return;
                    }
                }
            }
        }
        if let Some(name) = &ours_name {
            if theirs_name.is_none() {
                if let Some(def) = self.theirs.def(name) {
                    if equivalent_in(self.theirs, self.theirs, def, theirs, &self.following) {
                        return;
                    }
                }
            }
        }
        let (ours_node, ours_key) = resolve(self.ours, ours);
        let (theirs_node, theirs_key) = resolve(self.theirs, theirs);
        // Recursive types: every cycle passes through a reference on both sides.
        if let (Some(o), Some(t)) = (&ours_key, &theirs_key) {
            if !self.following.insert((o.clone(), t.clone())) {
                return;
            }
        }
        let ours_node = merge_all_of(self.ours, ours_node);
        let theirs_node = merge_all_of(self.theirs, theirs_node);
        self.compare_resolved(&ours_node, &theirs_node, pointer);
    }

    fn compare_resolved(&mut self, ours: &Node, theirs: &Node, pointer: &str) {
        match (ours, theirs) {
            (Node::Any, Node::Any) | (Node::Never, Node::Never) => {}
            (Node::Union(_), _) | (_, Node::Union(_)) => self.compare_union(ours, theirs, pointer),
            (Node::Never, other) => self.report(pointer, Kind::Never, format!("schema.ts: never (key must be absent); schema.json: {}", describe(other))),
            (other, Node::Never) => self.report(pointer, Kind::Never, format!("schema.ts: {}; schema.json: never", describe(other))),
            (Node::Scalar(a), Node::Scalar(b)) if class_of_scalar(a.kind) == class_of_scalar(b.kind) => self.compare_scalar(a, b, pointer),
            (Node::Array(a), Node::Array(b)) => self.compare_array(a, b, pointer),
            (Node::Object(a), Node::Object(b)) => self.compare_object(a, b, pointer),
            (a, b) => self.report(pointer, Kind::Type, format!("schema.ts: {}; schema.json: {}", describe(a), describe(b))),
        }
    }

    fn compare_scalar(&mut self, a: &Scalar, b: &Scalar, pointer: &str) {
        if a.kind != b.kind {
            self.report(pointer, Kind::IntegerNumber, format!("schema.ts: {}; schema.json: {}", a.kind.name(), b.kind.name()));
        }
        match (&a.values, &b.values) {
            (Some(x), Some(y)) if x.len() == 1 && y.len() == 1 => {
                if x != y {
                    self.report(&format!("{pointer}/const"), Kind::Const, format!("schema.ts: {}; schema.json: {}", x[0], y[0]));
                }
            }
            (Some(x), Some(y)) => self.compare_enum(x, y, &format!("{pointer}/enum")),
            (Some(x), None) => {
                let what = if x.len() == 1 { Kind::Const } else { Kind::Enum };
                self.report(&format!("{pointer}/type"), what, format!("schema.ts: only {}; schema.json: any {}", list(x), b.kind.name()));
            }
            (None, Some(y)) => {
                let what = if y.len() == 1 { Kind::Const } else { Kind::Enum };
                self.report(&format!("{pointer}/enum"), what, format!("schema.ts: any {}; schema.json: only {}", a.kind.name(), list(y)));
            }
            (None, None) => match (&a.open_values, &b.open_values) {
                (Some(x), None) => self.report(pointer, Kind::OpenEnum, format!("schema.ts: {} or any other string; schema.json: any string", list(x))),
                (None, Some(y)) => self.report(pointer, Kind::OpenEnum, format!("schema.ts: any string; schema.json: {} or any other string", list(y))),
                (Some(x), Some(y)) => self.compare_enum(x, y, pointer),
                (None, None) => {}
            },
        }
        if a.format != b.format {
            self.report(&format!("{pointer}/format"), Kind::Format, format!("schema.ts: {}; schema.json: {}", or_none(&a.format), or_none(&b.format)));
        }
        self.compare_bound(&a.minimum, &b.minimum, &format!("{pointer}/minimum"));
        self.compare_bound(&a.maximum, &b.maximum, &format!("{pointer}/maximum"));
        self.compare_bound(&a.max_length, &b.max_length, &format!("{pointer}/maxLength"));
        if a.pattern != b.pattern {
            self.report(&format!("{pointer}/pattern"), Kind::Pattern, format!("schema.ts: {}; schema.json: {}", or_none(&a.pattern), or_none(&b.pattern)));
        }
    }

    fn compare_enum(&mut self, x: &[Value], y: &[Value], pointer: &str) {
        let xs: BTreeSet<String> = x.iter().map(Value::to_string).collect();
        let ys: BTreeSet<String> = y.iter().map(Value::to_string).collect();
        if xs != ys {
            let only_ours: Vec<&String> = xs.difference(&ys).collect();
            let only_theirs: Vec<&String> = ys.difference(&xs).collect();
            self.report(pointer, Kind::Enum, format!("only in schema.ts: [{}]; only in schema.json: [{}]", join(&only_ours), join(&only_theirs)));
        } else if x != y {
            let mut sorted = x.to_vec();
            sorted.sort_by_key(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()));
            let kind = if sorted == y { Kind::EnumSorted } else { Kind::EnumOrder };
            self.report(pointer, kind, format!("schema.ts: {}; schema.json: {}", list(x), list(y)));
        }
    }

    fn compare_bound(&mut self, a: &Option<Number>, b: &Option<Number>, pointer: &str) {
        let same = match (a, b) {
            (Some(x), Some(y)) => x.as_f64() == y.as_f64(),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.report(pointer, Kind::Bound, format!("schema.ts: {}; schema.json: {}", or_none(a), or_none(b)));
        }
    }

    fn compare_array(&mut self, a: &Array, b: &Array, pointer: &str) {
        self.compare(&a.items, &b.items, &format!("{pointer}/items"));
        self.compare_bound(&a.min_items, &b.min_items, &format!("{pointer}/minItems"));
        self.compare_bound(&a.max_items, &b.max_items, &format!("{pointer}/maxItems"));
    }

    fn compare_object(&mut self, a: &Object, b: &Object, pointer: &str) {
        for p in &a.properties {
            match b.properties.iter().find(|q| q.name == p.name) {
                None => self.report(&format!("{pointer}/properties/{}", escape(&p.name)), Kind::Property, format!("`{}` is defined in schema.ts, not in schema.json", p.name)),
                Some(q) => {
                    let at = format!("{pointer}{}", q.pointer);
                    match (a.required.contains(&p.name), b.required.contains(&p.name)) {
                        (true, false) => self.report(&at, Kind::Required, format!("`{}` is required in schema.ts, optional in schema.json", p.name)),
                        (false, true) => self.report(&at, Kind::Required, format!("`{}` is optional in schema.ts, required in schema.json", p.name)),
                        _ => {}
                    }
                    self.compare(&p.node, &q.node, &at);
                }
            }
        }
        for q in b.properties.iter().filter(|q| !a.properties.iter().any(|p| p.name == q.name)) {
            self.report(&format!("{pointer}{}", q.pointer), Kind::Property, format!("`{}` is defined in schema.json, not in schema.ts", q.name));
        }
        let at = format!("{pointer}/additionalProperties");
        // A bare "any object" (`object`, `{}`, `Record<string, unknown>`) may be written either way.
        let bare = a.properties.is_empty() && b.properties.is_empty();
        let any = |x: &Additional| matches!(x, Additional::Unspecified) || matches!(x, Additional::Schema(n) if **n == Node::Any);
        match (&a.additional, &b.additional) {
            (x, y) if bare && any(x) && any(y) => {}
            (Additional::Unspecified, Additional::Unspecified) => {}
            (Additional::Schema(x), Additional::Schema(y)) => self.compare(x, y, &at),
            (Additional::Unspecified, Additional::Schema(y)) if **y == Node::Never => {
                self.report(&at, Kind::ClosedObject, "schema.ts: other keys allowed; schema.json: additionalProperties false".into())
            }
            (Additional::Unspecified, Additional::Schema(y)) => {
                self.report(&at, Kind::IndexSignature, format!("schema.ts: no index signature; schema.json: additionalProperties {}", describe(y)))
            }
            (Additional::Schema(x), Additional::Unspecified) => {
                self.report(&at, Kind::IndexSignature, format!("schema.ts: index signature of {}; schema.json: no additionalProperties", describe(x)))
            }
        }
        let alts = |o: &Object| o.alternatives.iter().map(|s| s.iter().cloned().collect::<Vec<_>>().join(",")).collect::<BTreeSet<_>>();
        if alts(a) != alts(b) {
            self.report(&format!("{pointer}/anyOf"), Kind::Required, "the alternative required key sets differ".into());
        }
    }

    fn compare_union(&mut self, ours: &Node, theirs: &Node, pointer: &str) {
        let ours_leaves = leaves(self.ours, ours, "");
        let theirs_leaves = leaves(self.theirs, theirs, pointer);
        let is_any = |doc: &Document, l: &Leaf| resolve(doc, &l.node).0 == Node::Any;
        if ours_leaves.iter().any(|l| is_any(self.ours, l)) || theirs_leaves.iter().any(|l| is_any(self.theirs, l)) {
            return self.compare_coverage(&ours_leaves, &theirs_leaves, pointer);
        }
        let mut ours_left: Vec<Option<&Leaf>> = ours_leaves.iter().map(Some).collect();
        let mut theirs_left: Vec<Option<&Leaf>> = theirs_leaves.iter().map(Some).collect();

        // Same definition by name (after aliases): compared on its own.
        for o in ours_left.iter_mut() {
            let Some(name) = o.and_then(|l| final_name(self.ours, &l.node)) else { continue };
            if let Some(t) = theirs_left.iter_mut().find(|t| t.is_some_and(|l| final_name(self.theirs, &l.node).as_deref() == Some(name.as_str()))) {
                *o = None;
                *t = None;
            }
        }
        // A member the IR names from another module: its kind is not known here, so the rest is not compared.
        if ours_left.iter().flatten().any(|l| class_of(self.ours, &l.node) == Class::Foreign) {
            for l in ours_left.iter().flatten() {
                if let Node::Ref(Ref { key, foreign_module: Some(m) }) = &l.node {
                    self.outcome.skipped.push((pointer.to_string(), format!("{m}::{key}")));
                }
            }
            return;
        }
        // Then pair within each kind: equal members first, then by a shared constant (`type`, `method`), then one to one.
        let mut classes: BTreeSet<Class> = ours_left.iter().flatten().map(|l| class_of(self.ours, &l.node)).collect();
        classes.extend(theirs_left.iter().flatten().map(|l| class_of(self.theirs, &l.node)));
        for class in classes {
            let pick = |v: &[Option<&Leaf>], side: &Document| -> Vec<usize> {
                (0..v.len()).filter(|&i| v[i].is_some_and(|l| class_of(side, &l.node) == class)).collect()
            };
            let (os, ts) = (pick(&ours_left, self.ours), pick(&theirs_left, self.theirs));
            for &i in &os {
                let Some(o) = ours_left[i] else { continue };
                if let Some(&j) = ts.iter().find(|&&j| theirs_left[j].is_some_and(|t| self.equivalent(&o.node, &t.node))) {
                    ours_left[i] = None;
                    theirs_left[j] = None;
                }
            }
            for &i in &os {
                let Some(o) = ours_left[i] else { continue };
                let tag = discriminators(self.ours, &o.node);
                if tag.is_empty() {
                    continue;
                }
                if let Some(&j) = ts.iter().find(|&&j| theirs_left[j].is_some_and(|t| !discriminators(self.theirs, &t.node).is_disjoint(&tag))) {
                    let t = theirs_left[j].take().expect("checked above");
                    ours_left[i] = None;
                    self.compare(&o.node, &t.node, &t.pointer);
                }
            }
            let os: Vec<usize> = os.into_iter().filter(|&i| ours_left[i].is_some()).collect();
            let ts: Vec<usize> = ts.into_iter().filter(|&j| theirs_left[j].is_some()).collect();
            if os.len() == 1 && ts.len() == 1 {
                let (o, t) = (ours_left[os[0]].take().expect("present"), theirs_left[ts[0]].take().expect("present"));
                self.compare(&o.node, &t.node, &t.pointer);
            }
        }
        for o in ours_left.into_iter().flatten() {
            let what = self.describe_leaf(self.ours, o);
            let kind = if matches!(o.node, Node::Scalar(Scalar { kind: ScalarKind::Null, .. })) { Kind::Null } else { Kind::UnionMember };
            self.report(pointer, kind, format!("schema.ts allows {what}; schema.json does not"));
        }
        for t in theirs_left.into_iter().flatten() {
            let what = self.describe_leaf(self.theirs, t);
            let kind = if matches!(t.node, Node::Scalar(Scalar { kind: ScalarKind::Null, .. })) { Kind::Null } else { Kind::UnionMember };
            self.report(&t.pointer, kind, format!("schema.json allows {what}; schema.ts does not"));
        }
    }

    /// One side accepts any value: report the JSON kinds the other side leaves out.
    fn compare_coverage(&mut self, ours: &[Leaf], theirs: &[Leaf], pointer: &str) {
        let ours_kinds = kinds(self.ours, ours);
        let theirs_kinds = kinds(self.theirs, theirs);
        for (missing, side, other) in [(ours_kinds.difference(&theirs_kinds), "schema.ts", "schema.json"), (theirs_kinds.difference(&ours_kinds), "schema.json", "schema.ts")] {
            let missing: Vec<&&str> = missing.collect();
            for kind_name in missing {
                let (kind, detail) = match *kind_name {
                    "null" => (Kind::Null, format!("{side} allows null; {other} does not")),
                    "number" if theirs_kinds.contains("integer") || ours_kinds.contains("integer") => {
                        (Kind::IntegerNumber, format!("{side} allows any number; {other} only integers"))
                    }
                    k => (Kind::Type, format!("{side} allows {k}; {other} does not")),
                };
                self.report(pointer, kind, detail);
            }
        }
    }

    fn describe_leaf(&self, doc: &Document, leaf: &Leaf) -> String {
        match &leaf.node {
            Node::Ref(r) => format!("`{}`", r.key),
            other => {
                let tags = discriminators(doc, other);
                match tags.iter().next() {
                    Some(t) => format!("{} with {t}", describe(other)),
                    None => describe(other),
                }
            }
        }
    }
}

fn equivalent_in(a_doc: &Document, b_doc: &Document, a: &Node, b: &Node, following: &BTreeSet<(String, String)>) -> bool {
    let mut probe = Comparer { ours: a_doc, theirs: b_doc, definition: String::new(), following: following.clone(), outcome: Outcome::default() };
    probe.compare(a, b, "");
    probe.outcome.differences.is_empty()
}

#[derive(Debug, Clone)]
struct Leaf {
    pointer: String,
    node: Node,
}

/// A union's members, with references to unions and nested unions flattened.
fn leaves(doc: &Document, node: &Node, pointer: &str) -> Vec<Leaf> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    collect_leaves(doc, node, pointer, &mut out, &mut seen);
    out
}

fn collect_leaves(doc: &Document, node: &Node, pointer: &str, out: &mut Vec<Leaf>, seen: &mut BTreeSet<String>) {
    let (resolved, key) = resolve(doc, node);
    match resolved {
        Node::Union(alts) if key.as_ref().is_none_or(|k| seen.insert(k.clone())) => {
            for (p, n) in &alts {
                collect_leaves(doc, n, &format!("{pointer}{p}"), out, seen);
            }
        }
        _ => out.push(Leaf { pointer: pointer.to_string(), node: node.clone() }),
    }
}

/// The JSON kinds a set of union members accepts.
fn kinds(doc: &Document, leaves: &[Leaf]) -> BTreeSet<&'static str> {
    let all = ["null", "boolean", "integer", "number", "string", "array", "object"];
    let mut out = BTreeSet::new();
    for l in leaves {
        match resolve(doc, &l.node).0 {
            Node::Any => out.extend(all),
            Node::Scalar(s) if s.kind == ScalarKind::Number => out.extend(["number", "integer"]),
            Node::Scalar(s) => {
                out.insert(s.kind.name());
            }
            Node::Array(_) => {
                out.insert("array");
            }
            Node::Object(_) => {
                out.insert("object");
            }
            _ => {}
        }
    }
    out
}

/// Follows references (and aliases that are only a reference) to the node they stand for;
/// returns the last definition key followed.
fn resolve(doc: &Document, node: &Node) -> (Node, Option<String>) {
    let mut current = node.clone();
    let mut key = None;
    for _ in 0..32 {
        match &current {
            Node::Ref(Ref { key: k, foreign_module: None }) => match doc.def(k) {
                Some(def) => {
                    key = Some(k.clone());
                    current = def.clone();
                }
                None => break,
            },
            _ => break,
        }
    }
    (current, key)
}

/// The definition a node names, following definitions that are only a reference to another.
fn final_name(doc: &Document, node: &Node) -> Option<String> {
    let Node::Ref(Ref { key, foreign_module: None }) = node else { return None };
    let mut name = key.clone();
    for _ in 0..32 {
        match doc.def(&name) {
            Some(Node::Ref(Ref { key: next, foreign_module: None })) if doc.def(next).is_some() => name = next.clone(),
            _ => break,
        }
    }
    Some(name)
}

/// `allOf` of objects as one object: properties of later members refine earlier ones, required keys add up.
/// A member that is a union of objects (`(A | B) & C`) contributes every alternative's properties, the keys all
/// alternatives require, and each alternative's required set, as the IR merges it.
fn merge_all_of(doc: &Document, node: Node) -> Node {
    let Node::AllOf(members) = node else { return node };
    let mut merged = Object { properties: Vec::new(), required: BTreeSet::new(), additional: Additional::Unspecified, alternatives: Vec::new() };
    for (pointer, member) in &members {
        let Some(o) = object_of(doc, member) else { return Node::AllOf(members) };
        // Through a referenced member, the pointer continues into that definition.
        for mut p in o.properties {
            p.pointer = format!("{pointer}{}", p.pointer);
            match merged.properties.iter_mut().find(|q| q.name == p.name) {
                Some(q) => *q = p,
                None => merged.properties.push(p),
            }
        }
        merged.required.extend(o.required);
        if o.additional != Additional::Unspecified {
            merged.additional = o.additional;
        }
        merged.alternatives.extend(o.alternatives);
    }
    Node::Object(merged)
}

/// An allOf member as an object, if it is one (or a union of them).
fn object_of(doc: &Document, node: &Node) -> Option<Object> {
    match merge_all_of(doc, resolve(doc, node).0) {
        Node::Object(o) => Some(o),
        Node::Union(alts) => {
            let mut merged = Object { properties: Vec::new(), required: BTreeSet::new(), additional: Additional::Unspecified, alternatives: Vec::new() };
            let mut required_in_all: Option<BTreeSet<String>> = None;
            for (pointer, alt) in &alts {
                let o = object_of(doc, alt)?;
                for mut p in o.properties {
                    if !merged.properties.iter().any(|q| q.name == p.name) {
                        p.pointer = format!("{pointer}{}", p.pointer);
                        merged.properties.push(p);
                    }
                }
                required_in_all = Some(match required_in_all {
                    None => o.required.clone(),
                    Some(prev) => prev.intersection(&o.required).cloned().collect(),
                });
                merged.alternatives.push(o.required);
                if o.additional != Additional::Unspecified {
                    merged.additional = o.additional;
                }
            }
            merged.required = required_in_all.unwrap_or_default();
            Some(merged)
        }
        _ => None,
    }
}

fn class_of_scalar(kind: ScalarKind) -> Class {
    match kind {
        ScalarKind::Null => Class::Null,
        ScalarKind::Boolean => Class::Boolean,
        ScalarKind::Integer | ScalarKind::Number => Class::Numeric,
        ScalarKind::String => Class::String,
    }
}

fn class_of(doc: &Document, node: &Node) -> Class {
    if let Node::Ref(Ref { foreign_module: Some(_), .. }) = node {
        return Class::Foreign;
    }
    match merge_all_of(doc, resolve(doc, node).0) {
        Node::Scalar(s) => class_of_scalar(s.kind),
        Node::Array(_) => Class::Array,
        Node::Object(_) => Class::Object,
        Node::Ref(Ref { foreign_module: Some(_), .. }) => Class::Foreign,
        _ => Class::Other,
    }
}

/// The constant-valued properties of an object member (`type = "text"`), which tell union members apart.
fn discriminators(doc: &Document, node: &Node) -> BTreeSet<String> {
    let Node::Object(o) = merge_all_of(doc, resolve(doc, node).0) else { return BTreeSet::new() };
    o.properties
        .iter()
        .filter_map(|p| match resolve(doc, &p.node).0 {
            Node::Scalar(Scalar { values: Some(v), .. }) if v.len() == 1 => Some(format!("{} = {}", p.name, v[0])),
            _ => None,
        })
        .collect()
}

fn describe(node: &Node) -> String {
    match node {
        Node::Any => "any value".into(),
        Node::Never => "never".into(),
        Node::Ref(r) => format!("`{}`", r.key),
        Node::Union(alts) => format!("one of {} alternatives", alts.len()),
        Node::AllOf(_) => "allOf".into(),
        Node::Scalar(s) => match &s.values {
            Some(v) if v.len() == 1 => format!("{} {}", s.kind.name(), v[0]),
            Some(v) => format!("{} {}", s.kind.name(), list(v)),
            None => s.kind.name().into(),
        },
        Node::Array(_) => "array".into(),
        Node::Object(_) => "object".into(),
    }
}

fn list(values: &[Value]) -> String {
    format!("[{}]", values.iter().map(Value::to_string).collect::<Vec<_>>().join(", "))
}

fn join(values: &[&String]) -> String {
    values.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

fn or_none<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(T::to_string).unwrap_or_else(|| "none".into())
}
