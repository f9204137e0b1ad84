//! Bounds on a peer's JSON Schema, checked before the `jsonschema` crate compiles it. That crate
//! validates by recursion over the compiled schema (a `$ref` chain of 20,000 links overflows the
//! stack) and compiles long chains in quadratic time, so a schema is first walked here, without
//! recursion and in time linear in its size (times the instance depth).
//!
//! The schema is read as a graph of subschemas: *in-place* edges apply a subschema to the same
//! instance value (`$ref`, `allOf`, `not`, `if`, ...), *child* edges to a member or item of it
//! (`properties`, `items`, ...). An instance nests at most [`INSTANCE_DEPTH`] deep (serde_json's
//! recursion limit), so two numbers bound any validation: how deep its recursion can go, and how
//! many subschemas can apply to one instance value. References are over-approximated (an anchor
//! or `$id` that might be meant is taken): a bound may be too strict, never too loose.

use std::collections::HashMap;

use mcp_spec_types::validate::formats;
use serde_json::Value;

/// Most subschemas a tool schema may hold.
pub(crate) const MAX_NODES: usize = 20_000;

/// Deepest validation recursion, in subschemas. Each costs the validator a few hundred bytes of
/// stack; 1,000 fit in 1 MiB of a debug build's stack, half of what a spawned thread gets (tested below).
pub(crate) const MAX_DEPTH: u64 = 1_000;

/// Most subschema evaluations one instance value may cost (`allOf` of two `$ref`s to the same
/// schema, nested 60 times, is 2^60).
pub(crate) const MAX_WORK: u64 = 10_000;

/// How deep an instance value can nest: serde_json's recursion limit when it is read.
const INSTANCE_DEPTH: usize = 128;

/// Which member of an instance a child edge applies to: an object's or an array's (a value is
/// never both, so the two sides are weighed apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Key<'a> {
    /// Any member of an object (`additionalProperties`, `patternProperties`, `propertyNames`, ...).
    AnyMember,
    /// Any item of an array (`items` as one schema, `contains`, ...).
    AnyItem,
    Index(usize),
    Name(&'a str),
}

struct Node<'a> {
    value: &'a Value,
    /// The node whose `$id` a `#/...` reference inside this one is relative to.
    resource: u32,
    in_place: Vec<u32>,
    /// Sorted by key once the walk is done.
    children: Vec<(Key<'a>, u32)>,
}

/// A reference still to resolve: from which node, the reference, whether it is dynamic.
struct Ref<'a> {
    from: u32,
    target: &'a str,
    dynamic: bool,
}

struct Graph<'a> {
    nodes: Vec<Node<'a>>,
    by_address: HashMap<*const Value, u32>,
    work: Vec<u32>,
    refs: Vec<Ref<'a>>,
    /// The nodes that declare an `$id`, by its last path segment (a reference matches by that).
    ids: HashMap<&'a str, Vec<u32>>,
    /// `$anchor`s (and draft-6/7 `$id: "#name"`), with their nodes.
    anchors: HashMap<&'a str, Vec<u32>>,
    /// `$dynamicAnchor`s, and `""` for `$recursiveAnchor: true`.
    dynamic_anchors: HashMap<&'a str, Vec<u32>>,
}

/// Why a schema is not used to check values: the text of a `schema-unusable` finding.
pub(crate) fn check(schema: &Value) -> Result<(), String> {
    let mut g = Graph { nodes: Vec::new(), by_address: HashMap::new(), work: Vec::new(), refs: Vec::new(), ids: HashMap::new(), anchors: HashMap::new(), dynamic_anchors: HashMap::new() };
    g.node(schema, 0)?;
    loop {
        while let Some(n) = g.work.pop() {
            g.walk(n)?;
        }
        let Some(r) = g.refs.pop() else { break };
        g.resolve(r)?;
    }
    // Repeated in-place edges stay: each is one more evaluation.
    for n in &mut g.nodes {
        n.children.sort_unstable();
    }
    g.bound()
}

impl<'a> Graph<'a> {
    fn node(&mut self, value: &'a Value, resource: u32) -> Result<u32, String> {
        if let Some(&n) = self.by_address.get(&(value as *const Value)) {
            return Ok(n);
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(format!("it holds more than {MAX_NODES} subschemas"));
        }
        let n = self.nodes.len() as u32;
        self.nodes.push(Node { value, resource, in_place: Vec::new(), children: Vec::new() });
        self.by_address.insert(value as *const Value, n);
        self.work.push(n);
        Ok(n)
    }

    /// Finds a node's subschemas and references (once per node).
    fn walk(&mut self, n: u32) -> Result<(), String> {
        let Some(o) = self.nodes[n as usize].value.as_object() else { return Ok(()) };
        for key in ["$id", "id"] {
            let Some(id) = o.get(key).and_then(Value::as_str) else { continue };
            if let Some(anchor) = id.strip_prefix('#') {
                self.anchors.entry(anchor).or_default().push(n);
            } else if let Some(base) = id.split('#').next().filter(|b| !b.is_empty()) {
                self.ids.entry(last_segment(base)).or_default().push(n);
                self.nodes[n as usize].resource = n;
            }
        }
        if let Some(a) = o.get("$anchor").and_then(Value::as_str) {
            self.anchors.entry(a).or_default().push(n);
        }
        if let Some(a) = o.get("$dynamicAnchor").and_then(Value::as_str) {
            self.anchors.entry(a).or_default().push(n);
            self.dynamic_anchors.entry(a).or_default().push(n);
        }
        if o.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
            self.dynamic_anchors.entry("").or_default().push(n);
        }
        for (key, dynamic) in [("$ref", false), ("$dynamicRef", true), ("$recursiveRef", true)] {
            if let Some(target) = o.get(key).and_then(Value::as_str) {
                self.refs.push(Ref { from: n, target, dynamic });
            }
        }
        let resource = self.nodes[n as usize].resource;
        for (key, sub) in o {
            match (key.as_str(), sub) {
                ("not" | "if" | "then" | "else", s) => self.edge(n, None, s, resource)?,
                ("allOf" | "anyOf" | "oneOf", Value::Array(a)) => {
                    for s in a {
                        self.edge(n, None, s, resource)?;
                    }
                }
                ("dependentSchemas" | "dependencies", Value::Object(m)) => {
                    for s in m.values().filter(|s| !s.is_array()) {
                        self.edge(n, None, s, resource)?;
                    }
                }
                ("properties", Value::Object(m)) => {
                    for (name, s) in m {
                        self.edge(n, Some(Key::Name(name)), s, resource)?;
                    }
                }
                ("items" | "prefixItems", Value::Array(a)) => {
                    for (i, s) in a.iter().enumerate() {
                        self.edge(n, Some(Key::Index(i)), s, resource)?;
                    }
                }
                ("patternProperties", Value::Object(m)) => {
                    for s in m.values() {
                        self.edge(n, Some(Key::AnyMember), s, resource)?;
                    }
                }
                ("additionalProperties" | "unevaluatedProperties" | "propertyNames", s) => self.edge(n, Some(Key::AnyMember), s, resource)?,
                ("contains" | "items" | "additionalItems" | "unevaluatedItems", s) => self.edge(n, Some(Key::AnyItem), s, resource)?,
                // Reachable through references only.
                ("$defs" | "definitions", Value::Object(m)) => {
                    for s in m.values() {
                        self.node(s, resource)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn edge(&mut self, from: u32, key: Option<Key<'a>>, sub: &'a Value, resource: u32) -> Result<(), String> {
        if !sub.is_object() && !sub.is_boolean() {
            return Ok(());
        }
        let to = self.node(sub, resource)?;
        let node = &mut self.nodes[from as usize];
        match key {
            None => node.in_place.push(to),
            Some(k) => node.children.push((k, to)),
        }
        Ok(())
    }

    /// Adds an in-place edge to every node the reference may mean. One that names nothing here
    /// is a leaf: a built-in meta-schema, or one the validator cannot resolve offline (reported then).
    fn resolve(&mut self, r: Ref<'a>) -> Result<(), String> {
        let (base, fragment) = match r.target.split_once('#') {
            Some((b, f)) => (b, Some(f)),
            None => (r.target, None),
        };
        // A fragment is looked up in every document the reference may mean: an `$id` of the same
        // name, and for a relative or default-base URI this document (its root too: a keyword
        // that looks like `$id` may not be one in the schema's draft).
        let mut resources: Vec<u32> = if base.is_empty() { Vec::new() } else { self.ids.get(last_segment(base)).cloned().unwrap_or_default() };
        if base.is_empty() || !base.contains(':') || base.starts_with("json-schema:") {
            resources.extend([self.nodes[r.from as usize].resource, 0]);
        }
        resources.sort_unstable();
        resources.dedup();
        let mut targets = Vec::new();
        match fragment {
            None | Some("") => targets.extend(&resources),
            Some(f) if f.starts_with('/') => {
                let pointer = formats::percent_decode_lossy(f);
                for res in resources {
                    let doc = self.nodes[res as usize].value;
                    if let Some(v) = doc.pointer(&pointer) {
                        targets.push(self.node(v, res)?);
                    }
                }
            }
            Some(anchor) => targets.extend(self.anchors.get(anchor).into_iter().flatten()),
        }
        if r.dynamic {
            targets.extend(self.dynamic_anchors.get(fragment.unwrap_or("")).into_iter().flatten());
        }
        self.nodes[r.from as usize].in_place.extend(targets);
        Ok(())
    }

    /// The deepest recursion and the most evaluations on one instance value, layer by layer of
    /// instance depth: layer `d` is what a value `d` levels below the one checked can cost.
    fn bound(&self) -> Result<(), String> {
        let order = self.in_place_order()?;
        let count = self.nodes.len();
        let (mut depth_below, mut work_below) = (vec![0u64; count], vec![0u64; count]);
        let (mut depth, mut work) = (vec![0u64; count], vec![0u64; count]);
        let mut fans: Vec<Fan> = (0..count).map(|_| Fan::default()).collect();
        for d in 0..=INSTANCE_DEPTH {
            for &n in order.iter().rev() {
                let node = &self.nodes[n as usize];
                let deepest_in_place = node.in_place.iter().map(|&t| depth[t as usize]).max().unwrap_or(0);
                let deepest_child = node.children.iter().map(|&(_, t)| depth_below[t as usize]).max().unwrap_or(0);
                depth[n as usize] = 1 + deepest_in_place.max(deepest_child);
                work[n as usize] = if d == 0 {
                    node.in_place.iter().fold(1, |s, &t| s.saturating_add(work[t as usize]))
                } else {
                    // The subschemas applied in place all reach the same member: their edges are
                    // summed per key before the heaviest key is taken.
                    let mut fan = Fan::own(&node.children, &work_below);
                    for &t in &node.in_place {
                        fan.merge(&fans[t as usize]);
                    }
                    let w = fan.heaviest();
                    fans[n as usize] = fan;
                    w
                };
            }
            if depth[0] > MAX_DEPTH {
                return Err(format!("validating with it can nest more than {MAX_DEPTH} subschemas deep (through `$ref` chains or nesting)"));
            }
            if work[0] > MAX_WORK {
                return Err(format!("more than {MAX_WORK} of its subschemas can apply to one value (references fanning out, e.g. `allOf` of the same `$ref` twice, nested)"));
            }
            let settled = depth == depth_below && work.iter().all(|&w| w == 0);
            std::mem::swap(&mut depth, &mut depth_below);
            std::mem::swap(&mut work, &mut work_below);
            if settled {
                break;
            }
        }
        Ok(())
    }

    /// The nodes ordered so that in-place edges go forward (Kahn's algorithm); an in-place cycle
    /// (a subschema applied to the same value again, forever) is an error.
    fn in_place_order(&self) -> Result<Vec<u32>, String> {
        let mut incoming = vec![0u32; self.nodes.len()];
        for n in &self.nodes {
            for &t in &n.in_place {
                incoming[t as usize] += 1;
            }
        }
        let mut ready: Vec<u32> = (0..self.nodes.len() as u32).filter(|&n| incoming[n as usize] == 0).collect();
        let mut order = Vec::with_capacity(self.nodes.len());
        while let Some(n) = ready.pop() {
            order.push(n);
            for &t in &self.nodes[n as usize].in_place {
                incoming[t as usize] -= 1;
                if incoming[t as usize] == 0 {
                    ready.push(t);
                }
            }
        }
        if order.len() < self.nodes.len() {
            return Err("its references form a cycle that applies a subschema to the same value again without moving into it".to_string());
        }
        Ok(order)
    }
}

/// How many keys a [`Fan`] keeps apart; past that they are folded into one bound.
const FAN_KEYS: usize = 16;

/// The evaluations the child edges of a node (and of what it applies in place) put on one member
/// of the value, by key. A value is an object or an array, never both, so the two sides are
/// weighed apart. Keys folded together keep the largest of them: a bound for any one of them.
#[derive(Default, Clone)]
struct Fan<'a> {
    any_member: u64,
    names: Vec<(&'a str, u64)>,
    other_names: u64,
    any_item: u64,
    indexes: Vec<(usize, u64)>,
    other_indexes: u64,
}

impl<'a> Fan<'a> {
    /// A node's own child edges (sorted by key): each key's edges summed. Past [`FAN_KEYS`] keys
    /// the largest sum bounds them all (they are distinct keys: one member takes one of them).
    fn own(children: &[(Key<'a>, u32)], work_below: &[u64]) -> Fan<'a> {
        let mut fan = Fan::default();
        let mut i = 0;
        while i < children.len() {
            let k = children[i].0;
            let mut w = 0u64;
            while i < children.len() && children[i].0 == k {
                w = w.saturating_add(work_below[children[i].1 as usize]);
                i += 1;
            }
            match k {
                Key::AnyMember => fan.any_member = fan.any_member.saturating_add(w),
                Key::AnyItem => fan.any_item = fan.any_item.saturating_add(w),
                Key::Name(name) => fan.names.push((name, w)),
                Key::Index(at) => fan.indexes.push((at, w)),
            }
        }
        if fan.names.len() > FAN_KEYS {
            fan.other_names = fan.names.drain(..).map(|(_, w)| w).max().unwrap_or(0);
        }
        if fan.indexes.len() > FAN_KEYS {
            fan.other_indexes = fan.indexes.drain(..).map(|(_, w)| w).max().unwrap_or(0);
        }
        fan
    }

    fn merge(&mut self, other: &Fan<'a>) {
        self.any_member = self.any_member.saturating_add(other.any_member).saturating_add(other.other_names);
        self.any_item = self.any_item.saturating_add(other.any_item).saturating_add(other.other_indexes);
        for &(name, w) in &other.names {
            add_keyed(&mut self.names, &mut self.other_names, name, w);
        }
        for &(i, w) in &other.indexes {
            add_keyed(&mut self.indexes, &mut self.other_indexes, i, w);
        }
    }

    /// The most evaluations on one member.
    fn heaviest(&self) -> u64 {
        let name = self.names.iter().map(|&(_, w)| w).max().unwrap_or(0);
        let index = self.indexes.iter().map(|&(_, w)| w).max().unwrap_or(0);
        let member = self.any_member.saturating_add(self.other_names).saturating_add(name);
        let item = self.any_item.saturating_add(self.other_indexes).saturating_add(index);
        member.max(item)
    }
}

/// Adds `w` to `key`'s entry; past [`FAN_KEYS`] entries, folds them all into `other` (their
/// largest: it bounds each of them, and `other` sums what folds from different fans).
fn add_keyed<K: PartialEq + Copy>(keyed: &mut Vec<(K, u64)>, other: &mut u64, key: K, w: u64) {
    if let Some(e) = keyed.iter_mut().find(|(k, _)| *k == key) {
        e.1 = e.1.saturating_add(w);
        return;
    }
    keyed.push((key, w));
    if keyed.len() > FAN_KEYS {
        let largest = keyed.iter().map(|&(_, w)| w).max().unwrap_or(0);
        *other = other.saturating_add(largest);
        keyed.clear();
    }
}

/// The last path segment of an `$id` or a reference's URI (`https://x/a/b.json` -> `b.json`).
fn last_segment(uri: &str) -> &str {
    uri.trim_end_matches('/').rsplit('/').next().unwrap_or(uri)
}

/// A URI fragment's `%XX` escapes decoded (a JSON pointer in a `$ref` is URI-encoded).

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `#/$defs/d0` -> `d1` -> ... -> `dN`, then `leaf`.
    fn chain(links: usize, leaf: Value) -> Value {
        let mut defs = serde_json::Map::new();
        for i in 0..links {
            defs.insert(format!("d{i}"), json!({"$ref": format!("#/$defs/d{}", i + 1)}));
        }
        defs.insert(format!("d{links}"), leaf);
        json!({"$ref": "#/$defs/d0", "$defs": defs})
    }

    /// A recursive schema: `links` in-place references per level, then `properties/a` back to the start.
    fn recursive(links: usize) -> Value {
        chain(links, json!({"type": "object", "required": ["b"], "properties": {"a": {"$ref": "#/$defs/d0"}}}))
    }

    /// The largest `n` for which `make(n)` passes the bounds (it does for 0).
    fn largest_accepted(make: impl Fn(usize) -> Value) -> usize {
        let (mut ok, mut refused) = (0, 4096);
        while refused - ok > 1 {
            let mid = (ok + refused) / 2;
            if check(&make(mid)).is_ok() {
                ok = mid;
            } else {
                refused = mid;
            }
        }
        ok
    }

    #[test]
    fn long_chains_are_refused() {
        assert!(check(&chain(900, json!({"type": "string"}))).is_ok());
        let e = check(&chain(5_000, json!({"type": "string"}))).unwrap_err();
        assert!(e.contains("deep"), "{e}");
        let e = check(&chain(50_000, json!({"type": "string"}))).unwrap_err();
        assert!(e.contains("subschemas"), "{e}");
    }

    #[test]
    fn fan_out_is_refused() {
        // Level i applies level i+1 twice to the same value: 2^20 evaluations.
        let mut defs = serde_json::Map::new();
        for i in 0..20 {
            let next = format!("#/$defs/f{}", i + 1);
            defs.insert(format!("f{i}"), json!({"allOf": [{"$ref": next}, {"$ref": next}]}));
        }
        defs.insert("f20".to_string(), json!({"type": "string"}));
        let e = check(&json!({"$ref": "#/$defs/f0", "$defs": defs})).unwrap_err();
        assert!(e.contains("apply to one value"), "{e}");
        // The same doubling through one member per level counts too; through different members does not.
        let same = json!({"$defs": {"t": {"properties": {"a": {"$ref": "#/$defs/t"}}, "allOf": [{"$ref": "#/$defs/u"}, {"$ref": "#/$defs/u"}]}, "u": {"properties": {"a": {"$ref": "#/$defs/t"}}}}, "$ref": "#/$defs/t"});
        assert!(check(&same).is_err());
        let tree = json!({"$defs": {"e": {"properties": {"left": {"$ref": "#/$defs/e"}, "right": {"$ref": "#/$defs/e"}, "op": {"enum": ["+", "-"]}}}}, "$ref": "#/$defs/e"});
        assert!(check(&tree).is_ok());
        // Branches applied in place reach the same member only through the same key or side: a
        // JSON value type (object or array) and a grammar of operators stay linear.
        let json_value = json!({"$defs": {"v": {"anyOf": [{"type": "object", "additionalProperties": {"$ref": "#/$defs/v"}}, {"type": "array", "items": {"$ref": "#/$defs/v"}}, {"type": "string"}]}}, "$ref": "#/$defs/v"});
        assert!(check(&json_value).is_ok());
        let branch = |op: &str| json!({"properties": {op: {"type": "array", "items": {"$ref": "#/$defs/e"}}}});
        let grammar = json!({"$defs": {"e": {"anyOf": [branch("and"), branch("or"), branch("xor"), {"properties": {"not": {"$ref": "#/$defs/e"}}}]}}, "$ref": "#/$defs/e"});
        assert!(check(&grammar).is_ok());
        // Two branches recursing through the same key double per level.
        let twice = json!({"$defs": {"e": {"anyOf": [branch("and"), branch("and")]}}, "$ref": "#/$defs/e"});
        assert!(check(&twice).is_err());
        // Many names folded together still count: 40 branches each recursing through its own name
        // and one through all of them.
        let mut branches: Vec<Value> = (0..40).map(|i| branch(&format!("k{i}"))).collect();
        branches.push(json!({"additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/e"}}}));
        branches.push(json!({"additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/e"}}}));
        assert!(check(&json!({"$defs": {"e": {"anyOf": branches}}, "$ref": "#/$defs/e"})).is_err());
    }

    #[test]
    fn cycles_that_never_move_into_the_value_are_refused() {
        assert!(check(&json!({"$ref": "#"})).is_err());
        assert!(check(&json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"})).is_err());
        // Recursion through a member is bounded by the value's depth.
        assert!(check(&json!({"type": ["string", "array"], "items": {"$ref": "#"}})).is_ok());
        // Anchors, escaped pointers and embedded `$id`s are followed.
        assert!(check(&json!({"$defs": {"a/b": {"$anchor": "x", "$ref": "#/$defs/a~1b"}}, "$ref": "#x"})).is_err());
        assert!(check(&json!({"$defs": {"a b": {"$ref": "#/$defs/a%20b"}}, "$ref": "#/$defs/a%20b"})).is_err());
        assert!(check(&json!({"$defs": {"r": {"$id": "https://example.com/r.json", "$ref": "r.json"}}, "$ref": "https://example.com/r.json"})).is_err());
        // A chain the walk must not lose: through a relative URI, the default base, a keyword
        // that only looks like an `$id` in 2020-12, and `$ref` beside `$dynamicRef` to the same schema.
        for (i, target) in ["./#/$defs/d1", "json-schema:///#/$defs/d1", "#/$defs/d1"].into_iter().enumerate() {
            let mut defs = serde_json::Map::new();
            for d in 0..2_000 {
                let mut link = json!({"$ref": target.replace("d1", &format!("d{}", d + 1))});
                if i == 2 {
                    link["id"] = json!("https://example.com/elsewhere.json");
                }
                defs.insert(format!("d{d}"), link);
            }
            defs.insert("d2000".to_string(), json!({"type": "string"}));
            assert!(check(&json!({"$ref": "#/$defs/d0", "$defs": defs})).is_err(), "{target}");
        }
        let mut defs = serde_json::Map::new();
        for d in 0..40 {
            let next = format!("#/$defs/d{}", d + 1);
            defs.insert(format!("d{d}"), json!({"$ref": next, "$dynamicRef": next}));
        }
        defs.insert("d40".to_string(), json!({"type": "string"}));
        assert!(check(&json!({"$ref": "#/$defs/d0", "$defs": defs})).is_err(), "both references apply: 2^40");
    }

    /// The deepest schemas the bounds let through validate on a 2 MiB thread (the size of a
    /// spawned thread's stack), in the build the tests run (a debug build: the largest frames).
    #[test]
    fn schemas_at_the_bounds_validate_on_a_small_stack() {
        let links = largest_accepted(|n| chain(n, json!({"type": "string"})));
        assert!(links > 500, "{links}");
        let per_level = largest_accepted(recursive);
        eprintln!("accepted: a chain of {links} links, {per_level} links per level");
        // A schema nested as deep as a tool listing's line lets it (serde_json's 128 levels).
        let mut not = json!({"type": "string"});
        for _ in 0..122 {
            not = json!({ "not": not });
        }
        let schemas = [(chain(links, json!({"type": "string"})), json!({})), (recursive(per_level), nested(126)), (not, json!(1))];
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                for (schema, value) in &schemas {
                    assert!(check(schema).is_ok());
                    // The meta-schema check (`tools::compile`) walks the schema as a value.
                    assert!(jsonschema::draft202012::meta::validator().iter_errors(schema).count() == 0);
                    let v = super::super::tools::build(schema, jsonschema::Draft::Draft202012).unwrap();
                    assert!(v.iter_errors(value).count() > 0);
                    assert!(!v.is_valid(value));
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    const STACK: usize = 2 << 20;

    /// `{"a": {"a": ... {}}}`, `depth` objects deep.
    fn nested(depth: usize) -> Value {
        let mut v = json!({});
        for _ in 1..depth {
            v = json!({ "a": v });
        }
        v
    }
}
