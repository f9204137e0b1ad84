//! Small `serde_json::Value`s made from the parts of a line's tree (`mcp_spec_types::tree`) that a
//! reader taking a `Value` looks at: the crate's version tracker. Each keeps only the keys its reader reads, so
//! what it costs is bounded by those parts, never by the message's params or result. (The engine's observer reads
//! the tree itself: `Observer::observe_node`.)

use mcp_spec_types::tree::{Kind, Node, Object};
use serde_json::{Map, Value};

/// A value that a `Value` reader may compare, read as a scalar or describe: scalars as they are
/// (a string costs its bytes once); an object as `{}` and an array as that many `null`s, which
/// `validate::describe` words the same ("an object", "an array of N") without copying their
/// contents. An array costs 32 bytes per element here, far under a tree of its elements.
pub fn stand_in(n: Node<'_>) -> Value {
    match n.kind() {
        Kind::Object(_) => Value::Object(Map::new()),
        Kind::Array(a) => Value::Array(vec![Value::Null; a.len()]),
        _ => n.to_value(),
    }
}

/// `o` with only `keys` (those present), each through [`stand_in`].
pub fn only(o: Object<'_>, keys: &[&str]) -> Map<String, Value> {
    keys.iter().filter_map(|k| Some((k.to_string(), stand_in(o.get(k)?)))).collect()
}

/// What the crate's `negotiate::VersionTracker` reads of a message: `method`, `id`, whether
/// `result` or `error` is there, and `protocolVersion` and the `_meta` version key of `params`
/// and `result`.
pub fn versions(o: Object<'_>, meta_key: &str) -> Value {
    let mut m = only(o, &["method", "id"]);
    for holder in ["params", "result"] {
        let Some(h) = o.get(holder) else { continue };
        let kept = match h.as_object() {
            Some(ho) => {
                let mut kept = only(ho, &["protocolVersion"]);
                if let Some(meta) = ho.get("_meta") {
                    let meta = meta.as_object().map_or_else(|| stand_in(meta), |mo| Value::Object(only(mo, &[meta_key])));
                    kept.insert("_meta".into(), meta);
                }
                // Nothing the tracker reads: only `result`'s presence counts (params are only read into).
                match (kept.is_empty(), holder) {
                    (true, "params") => continue,
                    (true, _) => Value::Null,
                    _ => Value::Object(kept),
                }
            }
            None => stand_in(h),
        };
        m.insert(holder.into(), kept);
    }
    if o.contains_key("error") {
        m.insert("error".into(), Value::Null);
    }
    Value::Object(m)
}

/// A value's compact JSON text with every object's keys sorted: the text its `Value` writes,
/// whatever order the line has the keys in (for digests that must not depend on it).
pub fn sorted_text(n: Node<'_>) -> String {
    fn write(n: Node<'_>, out: &mut String) {
        match n.kind() {
            Kind::Object(o) => {
                let mut members: Vec<(&str, Node)> = o.iter().collect();
                members.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (i, (k, v)) in members.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(k.to_string()).to_string());
                    out.push(':');
                    write(v, out);
                }
                out.push('}');
            }
            Kind::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(v, out);
                }
                out.push(']');
            }
            _ => out.push_str(&n.to_string()),
        }
    }
    let mut out = String::new();
    write(n, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_spec_types::tree::Doc;
    use mcp_spec_types::validate::describe;

    #[test]
    fn stand_ins_are_described_as_the_values() {
        let doc = Doc::parse(r#"[{"a":[1,2]},[1,{"b":2},3],"x",-0,1.5,null,true]"#).unwrap();
        let mut n = 0;
        for item in doc.root().as_array().unwrap() {
            assert_eq!(describe(&stand_in(item)), describe(&item.to_value()), "{item}");
            n += 1;
        }
        println!("{n} passed, 0 failed");
    }

    #[test]
    fn sorted_text_is_what_a_value_writes() {
        let text = r#"{"b":[{"z":1,"a":"\u00e9\n"}],"a":{"y":null,"x":-0,"w":1e2}}"#;
        let doc = Doc::parse(text).unwrap();
        assert_eq!(sorted_text(doc.root()), serde_json::from_str::<Value>(text).unwrap().to_string());
    }

    #[test]
    fn views_keep_only_what_their_reader_reads() {
        let doc = Doc::parse(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"big":[1,2,3]},"_meta":{"progressToken":7,"x":1}}}"#).unwrap();
        let o = doc.root().as_object().unwrap();
        assert_eq!(versions(o, "k"), serde_json::json!({"id": 1, "method": "tools/call", "params": {"_meta": {}}}));
        let doc = Doc::parse(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]},"params":5}"#).unwrap();
        let o = doc.root().as_object().unwrap();
        assert_eq!(versions(o, "k"), serde_json::json!({"id": 2, "result": null, "params": 5}));
    }
}
