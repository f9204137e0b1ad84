//! The compact tree against `serde_json::Value` (issue 44): the same texts accepted, the same errors, the
//! same values; the same findings when a message is validated on the text's tree and on a `Value`'s; the
//! same typed value read from the tree, from a `Value` and from the text.
//!
//! Documented differences, allowed here and nowhere else: an object's keys come in the text's order on the
//! tree and sorted on a `Value`, so findings are compared as sets, and exactly only when every object of the
//! input has its keys sorted; the text reader refuses a repeated field that the trees read as its last value,
//! so the text reader is compared only on inputs without a repeated key.

use mcp_spec_types::tree::{Doc, Kind, Node};
use mcp_spec_types::validate::{Options, Report};
use serde_json::Value;

use crate::MODULES;

pub fn tree(data: &[u8]) {
    let [a, b, rest @ ..] = data else { return };
    let parsed = Doc::parse_slice(rest);
    let value = serde_json::from_slice::<Value>(rest);
    let (doc, value) = match (parsed, value) {
        (Ok(d), Ok(v)) => (d, v),
        (Err(x), Err(y)) => {
            assert_eq!(x.to_string(), y.to_string(), "errors differ on {}", crate::show(rest));
            return;
        }
        (x, y) => panic!("tree {:?} but Value {:?} on {}", x.map(|d| d.root().to_value()), y, crate::show(rest)),
    };
    let root = doc.root();
    assert_eq!(root.to_value(), value, "values differ on {}", crate::show(rest));
    let again: Value = serde_json::from_str(&root.to_string()).expect("the tree writes JSON");
    assert_eq!(again, value, "the tree's text reads back otherwise");
    let (sorted, repeated) = shape(root);
    every_node_alike(root, &value);

    let m = &MODULES[*a as usize % MODULES.len()];
    let (name, _) = m.types[*b as usize % m.types.len()];
    let ty = (m.dynamic)(name).expect("the name came from TYPES");
    let options = Options { apps: b & 1 == 1, ..Options::default() };
    let on_tree = (ty.validate_node)(root, &options);
    let on_value = (ty.validate)(&value, &options);
    if sorted {
        assert_eq!(on_tree, on_value, "{}::{name}: findings differ on {}", m.name, crate::show(rest));
    } else {
        assert_eq!(as_set(&on_tree), as_set(&on_value), "{}::{name}: findings differ (as sets) on {}", m.name, crate::show(rest));
    }

    let from_tree = (ty.read_node)(root).map_err(|e| e.to_string());
    let from_value = (ty.read_value)(&value).map_err(|e| e.to_string());
    assert_eq!(from_tree.is_ok(), from_value.is_ok(), "{}::{name}: tree {from_tree:?}, Value {from_value:?} on {}", m.name, crate::show(rest));
    if sorted {
        assert_eq!(from_tree, from_value, "{}::{name}: typed reads differ on {}", m.name, crate::show(rest));
    }
    if let (Ok(text), false) = (std::str::from_utf8(rest), repeated) {
        let from_text = (ty.read_json)(text).map_err(|e| e.to_string());
        assert_eq!(from_tree.is_ok(), from_text.is_ok(), "{}::{name}: tree {from_tree:?}, text {from_text:?} on {}", m.name, crate::show(rest));
    }
    if let (Ok((written, _)), Ok((again, _))) = ((ty.roundtrip_node)(root), (ty.roundtrip_value)(&value)) {
        let written: Value = serde_json::from_str(&written).expect("the writer writes JSON");
        assert_eq!(written, again, "{}::{name}: written back otherwise on {}", m.name, crate::show(rest));
    }
}

/// Every node against the `Value` at the same place: its own text reads as that value (a key and its
/// scalar value share one entry: the text is rebuilt from it), and an object finds each of its keys.
fn every_node_alike(n: Node<'_>, v: &Value) {
    let text = n.json_text();
    if text.len() <= 4096 {
        let again: Value = serde_json::from_str(text).expect("a node's text is JSON");
        assert_eq!(&again, v, "the text of a node reads otherwise: {text}");
    }
    match n.kind() {
        Kind::Array(a) => a.iter().zip(v.as_array().expect("an array")).for_each(|(x, y)| every_node_alike(x, y)),
        Kind::Object(o) => {
            let map = v.as_object().expect("an object");
            let few = map.len() <= 64;
            for (k, x) in o.iter() {
                let y = &map[k];
                if few {
                    assert!(o.get(k).is_some_and(|g| g == *y), "get({k:?}) differs");
                }
                every_node_alike(x, y);
            }
        }
        _ => {}
    }
}

/// Whether every object's keys come sorted (as a `Value` holds them), and whether any key repeats.
fn shape(n: Node<'_>) -> (bool, bool) {
    let mut sorted = true;
    let mut repeated = false;
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match n.kind() {
            Kind::Array(a) => stack.extend(a.iter()),
            Kind::Object(o) => {
                let keys: Vec<&str> = o.keys().collect();
                sorted &= keys.windows(2).all(|w| w[0] < w[1]);
                repeated |= o.has_repeated_key();
                stack.extend(o.values());
            }
            _ => {}
        }
    }
    (sorted, repeated)
}

fn as_set(r: &Report) -> Vec<String> {
    let mut out: Vec<String> = r.violations.iter().map(|v| format!("{} {} {:?} {}", v.pointer, v.rule, v.severity, v.message)).collect();
    out.sort();
    out.push(format!("omitted {} {}", r.omitted, r.omitted_errors));
    out
}
