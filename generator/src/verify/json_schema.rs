//! The IR of one module written as a JSON Schema document (`$defs`, draft 2020-12).
//!
//! The document says what `schema.ts` says, as the generator understood it: it
//! is the "ours" side of the comparison with the spec's `schema.json`. Inline
//! types keep the names the generator gave them, so they are `$defs` entries
//! here where `schema.json` writes them in place; the comparison follows
//! references, so that difference does not matter.

use serde_json::{json, Map, Value};

use crate::ir::{Field, ItemKind, Module, Struct, Ty, TypeRef};
use crate::parse::{Constraint, Format, Literal};

/// 2^53 - 1: the largest integer a JavaScript number holds exactly.
const SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// Where a reference to a type of another module points: `<module>.schema.json#/$defs/<name>`.
pub const FOREIGN_REF_SUFFIX: &str = ".schema.json#/$defs/";

/// JSON Schema for every type of `module` (constants have none and are left out).
pub fn module_schema(module: &Module) -> Value {
    let mut defs = Map::new();
    for item in &module.items {
        let schema = match &item.kind {
            ItemKind::Struct(s) => struct_schema(&module.name, s),
            ItemKind::StringEnum(e) => {
                let named = json!({ "type": "string", "enum": e.values });
                if e.open {
                    // `"a" | "b" | string`: the named values are documentation, any string is valid.
                    json!({ "anyOf": [named, { "type": "string" }] })
                } else {
                    named
                }
            }
            ItemKind::Union(u) => json!({ "anyOf": u.variants.iter().map(|v| ty_schema(&module.name, &v.ty)).collect::<Vec<_>>() }),
            ItemKind::Alias(ty) => ty_schema(&module.name, ty),
            ItemKind::Const(_) => continue,
        };
        defs.insert(item.name.clone(), schema);
    }
    json!({ "$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs })
}

fn struct_schema(module: &str, s: &Struct) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for f in &s.fields {
        properties.insert(f.name.clone(), field_schema(module, f));
        // A lenient field is required by the schema, only read as optional.
        if (!f.optional || f.lenient.is_some()) && !f.never {
            required.push(f.name.clone());
        }
    }
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    if s.rest_declared {
        out.insert("additionalProperties".into(), ty_schema(module, &s.rest));
    }
    if !s.alternatives.is_empty() {
        // `(A | B) & C`: one of the alternatives' required sets must hold.
        let alts: Vec<Value> = s.alternatives.iter().map(|req| json!({ "required": req })).collect();
        out.insert("anyOf".into(), Value::Array(alts));
    }
    Value::Object(out)
}

fn field_schema(module: &str, f: &Field) -> Value {
    if f.never {
        return Value::Bool(false);
    }
    let mut schema = ty_schema(module, &f.ty);
    let Value::Object(map) = &mut schema else { return schema };
    if let Some(lit) = &f.literal {
        let (ty, value) = literal_schema(lit);
        map.insert("type".into(), json!(ty));
        map.insert("const".into(), value);
    }
    for tag in &f.doc.tags {
        let keyword = match tag.constraint() {
            Some(Constraint::Minimum(_)) => "minimum",
            Some(Constraint::Maximum(_)) => "maximum",
            Some(Constraint::MinItems(_)) => "minItems",
            Some(Constraint::MaxItems(_)) => "maxItems",
            Some(Constraint::MaxLength(_)) => "maxLength",
            Some(Constraint::Pattern(p)) => {
                map.insert("pattern".into(), json!(p));
                continue;
            }
            // Written as the bounds of a safe integer, as Zod's `.int()` is in the extension's schema.json.
            Some(Constraint::Format(Format::Int)) => {
                // On the integer itself: the non-null member of `number | null`.
                let target = match map.get_mut("anyOf").and_then(Value::as_array_mut).and_then(|ms| ms.first_mut()) {
                    Some(Value::Object(first)) => first,
                    _ => &mut *map,
                };
                target.insert("minimum".into(), json!(-SAFE_INTEGER));
                target.insert("maximum".into(), json!(SAFE_INTEGER));
                continue;
            }
            Some(Constraint::Format(format)) => {
                map.insert("format".into(), json!(format.name()));
                continue;
            }
            None => continue,
        };
        // As written: `0` stays an integer, as in the published JSON Schema.
        if let Ok(n) = tag.value.trim().parse::<serde_json::Number>() {
            map.insert(keyword.into(), Value::Number(n));
        }
    }
    schema
}

/// The JSON type and value of a literal; numbers keep the integer/number distinction of how they are written.
pub fn literal_schema(lit: &Literal) -> (&'static str, Value) {
    match lit {
        Literal::Str(s) => ("string", json!(s)),
        Literal::Bool(b) => ("boolean", json!(b)),
        Literal::Num(n) => match parse_number(n) {
            Some(v) if v.is_i64() || v.is_u64() => ("integer", Value::Number(v)),
            Some(v) => ("number", Value::Number(v)),
            None => ("number", json!(n)),
        },
    }
}

/// TypeScript numeric literals as JSON numbers (`0x1F`, `1_000`, `-32600`, `1.5`).
fn parse_number(text: &str) -> Option<serde_json::Number> {
    let t = text.replace('_', "");
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, t.clone()),
    };
    let radix = [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)].into_iter().find(|(p, _)| digits.starts_with(p));
    if let Some((prefix, radix)) = radix {
        let v = i64::from_str_radix(&digits[prefix.len()..], radix).ok()?;
        return Some((if negative { -v } else { v }).into());
    }
    serde_json::from_str::<serde_json::Number>(&t).ok()
}

pub fn ty_schema(module: &str, ty: &Ty) -> Value {
    match ty {
        Ty::String => json!({ "type": "string" }),
        Ty::Integer => json!({ "type": "integer" }),
        Ty::Number => json!({ "type": "number" }),
        Ty::Boolean => json!({ "type": "boolean" }),
        Ty::Null => json!({ "type": "null" }),
        Ty::Value => json!({}),
        Ty::Object => json!({ "type": "object" }),
        Ty::Named(r) => json!({ "$ref": reference(module, r) }),
        Ty::Binding(rust) => binding_schema(rust),
        Ty::Array(inner) => json!({ "type": "array", "items": ty_schema(module, inner) }),
        Ty::Map(inner) => json!({ "type": "object", "additionalProperties": ty_schema(module, inner) }),
        Ty::Nullable(inner) => json!({ "anyOf": [ty_schema(module, inner), { "type": "null" }] }),
    }
}

pub fn reference(module: &str, r: &TypeRef) -> String {
    if r.module == module {
        format!("#/$defs/{}", r.name)
    } else {
        format!("{}{FOREIGN_REF_SUFFIX}{}", r.module, r.name)
    }
}

/// What a configured Rust type accepts. The bindings are JSON itself (`[bindings]` in codegen.toml): any
/// value, any object, any array. An unknown Rust type is taken to accept anything.
fn binding_schema(rust: &str) -> Value {
    let path = rust.replace(' ', "");
    if path.starts_with("serde_json::Map<") || path.starts_with("std::collections::BTreeMap<") {
        json!({ "type": "object", "additionalProperties": {} })
    } else if path.starts_with("Vec<") {
        json!({ "type": "array", "items": {} })
    } else {
        json!({})
    }
}
