//! JSON Schema read into one normal form, so that two generators' ways of
//! writing the same thing compare equal: `type: [a, b]` and `anyOf` are both
//! unions, `const` is a one-value enum, `allOf` is kept for the comparison to
//! merge, `not: {}` is `false`, a union of string constants is an enum.
//! Descriptions and other annotations are dropped.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Number, Value};

use super::json_schema::FOREIGN_REF_SUFFIX;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `{}` or `true`: any value.
    Any,
    /// `false` or `not: {}`: no value (a `never` field).
    Never,
    Ref(Ref),
    /// Alternatives, each with the JSON pointer of where it is written, relative to the union.
    Union(Vec<(String, Node)>),
    /// `allOf`, merged by the comparison once references are followed.
    AllOf(Vec<(String, Node)>),
    Scalar(Scalar),
    Array(Array),
    Object(Object),
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ref {
    /// Key in the document's definitions: the name, or `Parent/name` for a definition's own `$defs`.
    pub key: String,
    /// Set for a reference into another module's document (never followed).
    pub foreign_module: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScalarKind {
    Null,
    Boolean,
    Integer,
    Number,
    String,
}

impl ScalarKind {
    pub fn name(self) -> &'static str {
        match self {
            ScalarKind::Null => "null",
            ScalarKind::Boolean => "boolean",
            ScalarKind::Integer => "integer",
            ScalarKind::Number => "number",
            ScalarKind::String => "string",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub kind: ScalarKind,
    /// `enum`, or `const` as one value.
    pub values: Option<Vec<Value>>,
    /// Values named besides "any string" (`"a" | "b" | string`); `values` is then unset.
    pub open_values: Option<Vec<Value>>,
    pub format: Option<String>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub max_length: Option<Number>,
    pub pattern: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    pub items: Box<Node>,
    pub min_items: Option<Number>,
    pub max_items: Option<Number>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    pub properties: Vec<Property>,
    pub required: BTreeSet<String>,
    pub additional: Additional,
    /// `anyOf` of bare `required` lists: one of these key sets must be present.
    pub alternatives: Vec<BTreeSet<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    /// Where the property's schema is written, relative to the object (`/properties/x`, or inside an `allOf`).
    pub pointer: String,
    pub node: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Additional {
    /// No `additionalProperties`: other keys are allowed, but nothing is declared.
    Unspecified,
    /// `additionalProperties: <schema>` (`{}` is `Any`, `false` is `Never`).
    Schema(Box<Node>),
}

/// A schema document's definitions in normal form.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub defs: BTreeMap<String, Node>,
}

impl Document {
    /// Reads `definitions` (draft-07) or `$defs` (2020-12), and each definition's own `$defs`.
    /// `zod`: the document was made from Zod schemas, where `{}` in a union stands for `undefined`.
    pub fn read(schema: &Value, zod: bool) -> Result<Document, String> {
        let defs = schema
            .get("$defs")
            .or_else(|| schema.get("definitions"))
            .and_then(Value::as_object)
            .ok_or("the schema has neither `$defs` nor `definitions`")?;
        let mut doc = Document::default();
        for (name, def) in defs {
            let nested: BTreeSet<String> = def.get("$defs").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
            let reader = Reader { scope: name, nested: &nested, zod };
            doc.defs.insert(name.clone(), reader.node(def));
            if let Some(own) = def.get("$defs").and_then(Value::as_object) {
                for (inner, v) in own {
                    doc.defs.insert(nested_key(name, inner), reader.node(v));
                }
            }
        }
        Ok(doc)
    }

    pub fn def(&self, key: &str) -> Option<&Node> {
        self.defs.get(key)
    }
}

fn nested_key(scope: &str, name: &str) -> String {
    format!("{scope}/{name}")
}

/// Escapes one JSON pointer segment.
pub fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

struct Reader<'a> {
    /// The top-level definition being read.
    scope: &'a str,
    /// Names in that definition's own `$defs`, which its `#/$defs/...` references mean first.
    nested: &'a BTreeSet<String>,
    zod: bool,
}

impl Reader<'_> {
    fn node(&self, v: &Value) -> Node {
        let map = match v {
            Value::Bool(true) => return Node::Any,
            Value::Bool(false) => return Node::Never,
            Value::Object(m) => m,
            _ => return Node::Any,
        };
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            return Node::Ref(self.reference(r));
        }
        if map.get("not").is_some_and(|n| n.as_object().is_some_and(Map::is_empty) || *n == Value::Bool(true)) {
            return Node::Never;
        }
        if let Some(members) = map.get("allOf").and_then(Value::as_array) {
            return Node::AllOf(members.iter().enumerate().map(|(i, m)| (format!("/allOf/{i}"), self.node(m))).collect());
        }
        let alternatives = map.get("anyOf").map(|a| ("anyOf", a)).or_else(|| map.get("oneOf").map(|a| ("oneOf", a)));
        if let Some((keyword, Value::Array(members))) = alternatives {
            if let Some(required) = required_alternatives(members) {
                let mut object = map.clone();
                object.remove(keyword);
                let mut node = self.node(&Value::Object(object));
                if let Node::Object(o) = &mut node {
                    o.alternatives = required;
                }
                return node;
            }
            let undefined = |m: &Value| self.zod && m.as_object().is_some_and(Map::is_empty);
            let alts = members.iter().enumerate().filter(|(_, m)| !undefined(m)).map(|(i, m)| (format!("/{keyword}/{i}"), self.node(m))).collect();
            return simplify_union(alts);
        }
        match map.get("type") {
            Some(Value::Array(types)) => {
                let alts = types
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let mut single = map.clone();
                        single.insert("type".into(), t.clone());
                        (format!("/type/{i}"), self.typed(&single, t.as_str().unwrap_or_default()))
                    })
                    .collect();
                simplify_union(alts)
            }
            Some(Value::String(t)) => self.typed(map, t),
            _ => {
                let implied = if map.contains_key("properties") || map.contains_key("additionalProperties") || map.contains_key("required") {
                    Some("object")
                } else if map.contains_key("items") {
                    Some("array")
                } else {
                    map.get("const").or_else(|| map.get("enum").and_then(|e| e.get(0))).map(value_type)
                };
                match implied {
                    Some(t) => self.typed(map, t),
                    None => Node::Any,
                }
            }
        }
    }

    fn typed(&self, map: &Map<String, Value>, ty: &str) -> Node {
        let number = |k: &str| map.get(k).and_then(Value::as_number).cloned();
        let kind = match ty {
            "object" => return Node::Object(self.object(map)),
            "array" => {
                return Node::Array(Array {
                    items: Box::new(map.get("items").map(|i| self.node(i)).unwrap_or(Node::Any)),
                    min_items: number("minItems"),
                    max_items: number("maxItems"),
                })
            }
            "null" => ScalarKind::Null,
            "boolean" => ScalarKind::Boolean,
            "integer" => ScalarKind::Integer,
            "number" => ScalarKind::Number,
            _ => ScalarKind::String,
        };
        let values = match (map.get("const"), map.get("enum")) {
            (Some(c), _) => Some(vec![c.clone()]),
            (None, Some(Value::Array(e))) => Some(e.clone()),
            _ => None,
        };
        Node::Scalar(Scalar {
            kind,
            values,
            open_values: None,
            format: map.get("format").and_then(Value::as_str).map(str::to_string),
            minimum: number("minimum"),
            maximum: number("maximum"),
            max_length: number("maxLength"),
            pattern: map.get("pattern").and_then(Value::as_str).map(str::to_string),
        })
    }

    fn object(&self, map: &Map<String, Value>) -> Object {
        let mut properties: Vec<Property> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props.iter().map(|(k, v)| Property { name: k.clone(), pointer: format!("/properties/{}", escape(k)), node: self.node(v) }).collect()
            })
            .unwrap_or_default();
        let required = map.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default();
        let mut additional = match map.get("additionalProperties") {
            None => Additional::Unspecified,
            Some(v) => Additional::Schema(Box::new(self.node(v))),
        };
        // `propertyNames` naming a closed set of keys (a `Record<"a" | "b", V>`): those keys, each a `V`.
        if let Some(Node::Scalar(Scalar { values: Some(keys), .. })) = map.get("propertyNames").map(|p| self.node(p)) {
            let value = match &additional {
                Additional::Schema(v) => (**v).clone(),
                Additional::Unspecified => Node::Any,
            };
            for key in keys.iter().filter_map(Value::as_str) {
                if !properties.iter().any(|p| p.name == key) {
                    properties.push(Property { name: key.to_string(), pointer: "/propertyNames".into(), node: value.clone() });
                }
            }
            additional = Additional::Schema(Box::new(Node::Never));
        }
        Object { properties, required, additional, alternatives: Vec::new() }
    }

    fn reference(&self, r: &str) -> Ref {
        if let Some((module, name)) = r.split_once(FOREIGN_REF_SUFFIX) {
            if !module.is_empty() && !module.contains('#') {
                return Ref { key: name.to_string(), foreign_module: Some(module.to_string()) };
            }
        }
        let name = r.strip_prefix("#/$defs/").or_else(|| r.strip_prefix("#/definitions/")).unwrap_or(r);
        let key = if self.nested.contains(name) { nested_key(self.scope, name) } else { name.to_string() };
        Ref { key, foreign_module: None }
    }
}

/// `anyOf: [{required: [..]}, ..]` beside an object's properties: alternative required sets.
fn required_alternatives(members: &[Value]) -> Option<Vec<BTreeSet<String>>> {
    members
        .iter()
        .map(|m| {
            let m = m.as_object()?;
            if m.len() != 1 {
                return None;
            }
            Some(m.get("required")?.as_array()?.iter().filter_map(Value::as_str).map(str::to_string).collect())
        })
        .collect()
}

fn value_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Nested unions flattened; a union with an unrestricted member is `Any`; a union of string constants
/// is an enum; named strings beside "any string" are an open enum.
fn simplify_union(alts: Vec<(String, Node)>) -> Node {
    let mut flat = Vec::new();
    for (pointer, node) in alts {
        match node {
            Node::Union(inner) => flat.extend(inner.into_iter().map(|(p, n)| (format!("{pointer}{p}"), n))),
            Node::Any => return Node::Any,
            other => flat.push((pointer, other)),
        }
    }
    let strings: Option<Vec<&Scalar>> = flat
        .iter()
        .map(|(_, n)| match n {
            Node::Scalar(s) if s.kind == ScalarKind::String && s.format.is_none() && s.open_values.is_none() => Some(s),
            _ => None,
        })
        .collect();
    if let Some(strings) = strings.filter(|s| s.len() > 1) {
        let any_string = strings.iter().any(|s| s.values.is_none());
        let named: Vec<Value> = strings.iter().flat_map(|s| s.values.clone().unwrap_or_default()).collect();
        let (values, open_values) = if any_string { (None, Some(named).filter(|v| !v.is_empty())) } else { (Some(named), None) };
        return Node::Scalar(Scalar { kind: ScalarKind::String, values, open_values, format: None, minimum: None, maximum: None, max_length: None, pattern: None });
    }
    if flat.len() == 1 {
        return flat.pop().map(|(_, n)| n).unwrap_or(Node::Never);
    }
    Node::Union(flat)
}
