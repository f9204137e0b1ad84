//! 2026-07-28's mirrored request headers: `Mcp-Method` and `Mcp-Name` from the body, and
//! `Mcp-Param-{Name}` from the tool arguments a tool's `inputSchema` marks with `x-mcp-header`.
//! The tools' marks are learnt from `tools/list` answers (bounded); a `tools/call` of a tool not
//! listed in the recording has its `Mcp-Param-*` headers left unchecked.

use mcp_spec_types::tree::{Kind, Node, Object};

use super::{diag, header, rules};
use super::Headers;
use crate::bounded::{clip, Capped, Weigh};
use crate::vocab::Diag;
use crate::input::base64;

/// Tools whose marks are remembered; past it the oldest listed is forgotten.
pub const TOOLS_MAX: usize = 1024;
/// Marks kept per tool.
pub const MARKS_MAX: usize = 32;
/// How deep a chain of `properties` is followed when looking for marks.
const DEPTH_MAX: usize = 16;

/// One `x-mcp-header` mark: the header's name part and the property path it mirrors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub name: String,
    pub path: Vec<String>,
}

impl Weigh for Mark {
    fn weight(&self) -> usize {
        self.name.len() + self.path.weight()
    }
}

/// The marks of the tools listed so far.
pub struct Tools {
    marks: Capped<String, Vec<Mark>>,
}

impl Default for Tools {
    fn default() -> Tools {
        Tools::new(crate::bounded::TABLE_BYTES)
    }
}

impl Tools {
    /// The marks of at most [`TOOLS_MAX`] tools in at most `bytes`.
    pub fn new(bytes: usize) -> Tools {
        Tools { marks: Capped::new(TOOLS_MAX, bytes) }
    }

    /// Learns the marks of a `tools/list` result's tools; returns what is wrong with them.
    pub fn learn(&mut self, result: Node<'_>, diags: &mut Vec<Diag>) {
        let Some(tools) = result.get("tools").and_then(Node::as_array) else { return };
        for (i, tool) in tools.iter().enumerate() {
            let Some(name) = tool.get("name").and_then(Node::as_str) else { continue };
            let Some(schema) = tool.get("inputSchema") else { continue };
            let pointer = format!("/result/tools/{i}/inputSchema");
            let marks = marks_of(schema, &pointer, diags);
            self.marks.insert(name.to_string(), marks);
        }
    }

    fn of(&self, tool: &str) -> Option<&[Mark]> {
        self.marks.get(tool).map(Vec::as_slice)
    }
}

/// The valid marks of a schema; an invalid one is reported (and dropped: clients exclude the tool).
fn marks_of(schema: Node<'_>, pointer: &str, diags: &mut Vec<Diag>) -> Vec<Mark> {
    let mut found = Vec::new();
    let mut bad = Vec::new();
    walk(schema, &mut Vec::new(), true, pointer.to_string(), &mut found, &mut bad, 0);
    for (at, why) in bad {
        diags.push(diag(&rules::X_MCP_HEADER, &at, why));
    }
    // A name used twice (without case) makes every use of it invalid, whatever the order of properties.
    let repeated = |name: &str| found.iter().filter(|(_, m, _)| m.name.eq_ignore_ascii_case(name)).count() > 1;
    let repeated: Vec<bool> = found.iter().map(|(_, m, _)| repeated(&m.name)).collect();
    let mut out = Vec::new();
    for ((at, mark, ty), repeated) in found.into_iter().zip(repeated) {
        let why = if mark.name.is_empty() {
            Some("an empty `x-mcp-header`".to_string())
        } else if !mark.name.bytes().all(is_tchar) {
            Some(format!("`x-mcp-header` `{}` is not an HTTP field-name token", clip(&mark.name)))
        } else if repeated {
            Some(format!("`x-mcp-header` `{}` is not unique (names compare without case)", clip(&mark.name)))
        } else if !matches!(ty.as_deref(), Some("string" | "integer" | "boolean")) {
            Some(format!("`x-mcp-header` on a property of type {}, not integer, string or boolean", ty.map_or("(none)".into(), |t| format!("`{}`", clip(&t)))))
        } else {
            None
        };
        match why {
            Some(why) => diags.push(diag(&rules::X_MCP_HEADER, &at, why)),
            None => {
                if out.len() < MARKS_MAX {
                    out.push(mark);
                }
            }
        }
    }
    out
}

/// Walks a schema: marks reached through `properties` alone are `found` (with their type), marks
/// anywhere else are `bad`. Members are walked in key order (as a `Value` holds them), so the
/// findings come in the same order whatever order the text has.
fn walk(v: Node<'_>, path: &mut Vec<String>, reachable: bool, at: String, found: &mut Vec<(String, Mark, Option<String>)>, bad: &mut Vec<(String, String)>, depth: usize) {
    if depth > DEPTH_MAX {
        return;
    }
    match v.kind() {
        Kind::Object(o) => {
            if let Some(m) = o.get("x-mcp-header") {
                let ptr = format!("{at}/x-mcp-header");
                match (m.kind(), reachable && !path.is_empty()) {
                    (Kind::String(name), true) => found.push((ptr, Mark { name: name.to_string(), path: path.clone() }, o.get("type").and_then(Node::as_str).map(str::to_string))),
                    (Kind::String(_), false) => bad.push((ptr, "`x-mcp-header` on a property not reachable from the schema root through `properties` alone".into())),
                    (_, _) => bad.push((ptr, "`x-mcp-header` must be a string".into())),
                }
            }
            for (k, child) in sorted(o) {
                let child_at = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                if k == "properties" {
                    if let Some(props) = child.as_object() {
                        for (p, schema) in sorted(props) {
                            path.push(p.to_string());
                            walk(schema, path, reachable, format!("{child_at}/{}", p.replace('~', "~0").replace('/', "~1")), found, bad, depth + 1);
                            path.pop();
                        }
                    }
                } else if k != "x-mcp-header" && (child.is_object() || child.is_array()) {
                    walk(child, path, false, child_at, found, bad, depth + 1);
                }
            }
        }
        Kind::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                walk(child, path, false, format!("{at}/{i}"), found, bad, depth + 1);
            }
        }
        _ => {}
    }
}

/// An object's members in key order.
fn sorted(o: Object<'_>) -> Vec<(&str, Node<'_>)> {
    let mut members: Vec<(&str, Node)> = o.iter().collect();
    members.sort_by(|a, b| a.0.cmp(b.0));
    members
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// A header value as sent: its text after the base64 sentinel is undone, or why it cannot be read.
fn decoded(value: &str) -> Result<String, String> {
    match value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) {
        Some(b64) => base64(b64).and_then(|bytes| String::from_utf8(bytes).map_err(|_| "its base64 is not UTF-8".into())),
        None => Ok(value.to_string()),
    }
}

/// Whether a value may travel as it is (else the client must use the base64 sentinel).
fn plain_safe(value: &str) -> bool {
    let visible = value.bytes().all(|b| (0x20..=0x7e).contains(&b) || b == b'\t');
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    visible && !padded && !sentinel
}

/// Compares one mirrored header with its body value; says what is wrong.
fn compare(header: &str, shown_name: &str, body: &str) -> Option<String> {
    match decoded(header) {
        Err(e) => Some(format!("`{shown_name}` is not a valid base64 sentinel value: {e}")),
        Ok(v) if v != body => Some(format!("`{shown_name}` is `{}`, the body has `{}`", clip(&v), clip(body))),
        Ok(_) if !header.starts_with("=?base64?") && !plain_safe(body) => Some(format!("`{shown_name}` carries `{}` as it is; a value that is not plain header-safe ASCII must use the base64 sentinel", clip(body))),
        Ok(_) => None,
    }
}

/// The body value a mark mirrors, as the header text it becomes (`None`: absent, the header is omitted).
fn mirrored(arguments: Option<Object<'_>>, path: &[String]) -> Option<Result<String, ()>> {
    let (last, parents) = path.split_last()?;
    let mut obj = arguments?;
    for key in parents {
        obj = obj.get(key)?.as_object()?;
    }
    Some(match obj.get(last)?.kind() {
        Kind::String(s) => Ok(s.to_string()),
        Kind::Bool(b) => Ok(b.to_string()),
        Kind::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        Kind::Null => return None,
        _ => Err(()),
    })
}

/// The rules on one request of a POST: each finding with its pointer into the message.
pub fn check_request(m: Node<'_>, headers: &Headers, tools: &Tools) -> Vec<Diag> {
    let mut out = Vec::new();
    let Some(method) = m.get("method").and_then(Node::as_str) else { return out };
    match headers.mcp_method.as_deref() {
        None => out.push(diag(&rules::MCP_METHOD_HEADER, "/method", format!("the POST of `{}` has no `Mcp-Method` header", clip(method)))),
        Some(h) if h != method => out.push(diag(&rules::MCP_METHOD_HEADER, "/method", format!("`Mcp-Method` is `{}`, the body's method is `{}`", clip(h), clip(method)))),
        Some(_) => {}
    }
    let params = m.get("params");
    let Some(key) = header::name_param(method) else { return out };
    let pointer = &format!("/params/{key}");
    if let Some(body) = params.and_then(|p| p.get(key)).and_then(Node::as_str) {
        match headers.mcp_name.as_deref() {
            None => out.push(diag(&rules::MCP_NAME_HEADER, pointer, format!("the POST of `{method}` has no `Mcp-Name` header"))),
            Some(h) => {
                if let Some(why) = compare(h, "Mcp-Name", body) {
                    out.push(diag(&rules::MCP_NAME_HEADER, pointer, why));
                }
            }
        }
    }
    if method != "tools/call" {
        return out;
    }
    let Some(marks) = params.and_then(|p| p.get("name")).and_then(Node::as_str).and_then(|n| tools.of(n)) else { return out };
    let arguments = params.and_then(|p| p.get("arguments")).and_then(Node::as_object);
    for mark in marks {
        let header = headers.mcp_params.iter().find(|(n, _)| n.eq_ignore_ascii_case(&mark.name)).map(|(_, v)| v.as_str());
        let shown = format!("Mcp-Param-{}", mark.name);
        let pointer = format!("/params/arguments/{}", mark.path.join("/"));
        match (mirrored(arguments, &mark.path), header) {
            (None, None) | (Some(Err(())), _) => {}
            (None, Some(_)) => out.push(diag(&rules::MCP_PARAM_HEADER, &pointer, format!("`{shown}` is sent, but the arguments have no value at its property"))),
            (Some(Ok(_)), None) => out.push(diag(&rules::MCP_PARAM_HEADER, &pointer, format!("the call has no `{shown}` header for the argument its tool marks with `x-mcp-header`"))),
            (Some(Ok(body)), Some(h)) => {
                if let Some(why) = compare(h, &shown, &body) {
                    out.push(diag(&rules::MCP_PARAM_HEADER, &pointer, why));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_spec_types::tree::Doc;
    use serde_json::{json, Value};

    // The tests write their JSON as `Value`s; each is read through its tree.
    fn learn(t: &mut Tools, v: &Value, diags: &mut Vec<Diag>) {
        t.learn(Doc::from_value(v).root(), diags)
    }

    fn check_request(m: &Value, headers: &Headers, tools: &Tools) -> Vec<Diag> {
        super::check_request(Doc::from_value(m).root(), headers, tools)
    }

    fn marks_of(schema: &Value, pointer: &str, diags: &mut Vec<Diag>) -> Vec<Mark> {
        super::marks_of(Doc::from_value(schema).root(), pointer, diags)
    }

    fn headers(method: Option<&str>, name: Option<&str>, params: &[(&str, &str)]) -> Headers {
        let mut h = Headers::default();
        if let Some(m) = method {
            h.add("Mcp-Method", m);
        }
        if let Some(n) = name {
            h.add("Mcp-Name", n);
        }
        for (n, v) in params {
            h.add(&format!("Mcp-Param-{n}"), v);
        }
        h
    }

    fn rules_of(d: &[Diag]) -> Vec<&'static str> {
        d.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn the_tools_remembered_are_bounded_by_count_and_bytes() {
        let tool = |name: String| json!({"name": name, "inputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "R"}}}});
        let mut t = Tools::default();
        let many: Vec<Value> = (0..TOOLS_MAX + 10).map(|i| tool(format!("t{i}"))).collect();
        learn(&mut t, &json!({ "tools": many }), &mut Vec::new());
        assert!(t.of("t0").is_none() && t.of(&format!("t{}", TOOLS_MAX + 9)).is_some());
        // Long names count against the table's bytes: the oldest go before the count is reached.
        let long = |i: usize| format!("{i}{}", "x".repeat(1 << 20));
        learn(&mut t, &json!({ "tools": (0..20).map(|i| tool(long(i))).collect::<Vec<_>>() }), &mut Vec::new());
        assert!(t.marks.bytes() <= crate::bounded::TABLE_BYTES, "{}", t.marks.bytes());
        assert!(t.of(&long(0)).is_none() && t.of(&long(19)).is_some());
    }

    #[test]
    fn marks_reachable_only_through_properties() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "deep": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
            "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}},
            "ratio": {"type": "number", "x-mcp-header": "Ratio"},
            "again": {"type": "string", "x-mcp-header": "region"},
            "bad name": {"type": "string", "x-mcp-header": "a b"}
        }, "anyOf": [{"properties": {"x": {"type": "string", "x-mcp-header": "X"}}}]});
        let mut d = Vec::new();
        let marks = marks_of(&schema, "", &mut d);
        assert_eq!(marks, vec![Mark { name: "N".into(), path: vec!["deep".into(), "n".into()] }]);
        // `items`, `anyOf`, `number`, the two uses of `region`, and `a b`.
        assert_eq!(d.len(), 6, "{d:?}");
        assert!(d.iter().all(|d| d.rule == rules::X_MCP_HEADER.id));
    }

    #[test]
    fn method_and_name_headers() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {}}});
        let tools = Tools::default();
        assert!(check_request(&call, &headers(Some("tools/call"), Some("get_weather"), &[]), &tools).is_empty());
        assert_eq!(rules_of(&check_request(&call, &headers(None, Some("get_weather"), &[]), &tools)), [rules::MCP_METHOD_HEADER.id]);
        assert_eq!(rules_of(&check_request(&call, &headers(Some("tools/list"), Some("get_weather"), &[]), &tools)), [rules::MCP_METHOD_HEADER.id]);
        assert_eq!(rules_of(&check_request(&call, &headers(Some("tools/call"), None, &[]), &tools)), [rules::MCP_NAME_HEADER.id]);
        assert_eq!(rules_of(&check_request(&call, &headers(Some("tools/call"), Some("other"), &[]), &tools)), [rules::MCP_NAME_HEADER.id]);
        // The sentinel is undone before comparing; a name that is not header-safe must use it.
        let odd = json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"name": "Grüße"}});
        assert!(check_request(&odd, &headers(Some("prompts/get"), Some("=?base64?R3LDvMOfZQ==?="), &[]), &tools).is_empty());
        assert_eq!(rules_of(&check_request(&odd, &headers(Some("prompts/get"), Some("=?base64?!!?="), &[]), &tools)), [rules::MCP_NAME_HEADER.id]);
        let get = json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/get", "params": {"taskId": "t-1"}});
        assert!(check_request(&get, &headers(Some("tasks/get"), Some("t-1"), &[]), &tools).is_empty());
        assert_eq!(rules_of(&check_request(&get, &headers(Some("tasks/get"), None, &[]), &tools)), [rules::MCP_NAME_HEADER.id]);
        let read = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "file:///a b"}});
        assert!(check_request(&read, &headers(Some("resources/read"), Some("file:///a b"), &[]), &tools).is_empty());
        let ping = json!({"jsonrpc": "2.0", "id": 4, "method": "ping"});
        assert!(check_request(&ping, &headers(Some("ping"), None, &[]), &tools).is_empty());
    }

    #[test]
    fn param_headers_follow_the_listed_marks() {
        let mut tools = Tools::default();
        let mut d = Vec::new();
        learn(&mut tools, &json!({"tools": [{"name": "sql", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}, "n": {"type": "integer", "x-mcp-header": "N"}, "query": {"type": "string"}}}}]}), &mut d);
        assert!(d.is_empty());
        let call = |args: Value| json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "sql", "arguments": args}});
        let h = |p: &[(&str, &str)]| headers(Some("tools/call"), Some("sql"), p);
        assert!(check_request(&call(json!({"region": "us-west1", "n": 42, "query": "q"})), &h(&[("Region", "us-west1"), ("n", "42")]), &tools).is_empty());
        // An absent argument: no header.
        assert!(check_request(&call(json!({"query": "q"})), &h(&[]), &tools).is_empty());
        assert_eq!(rules_of(&check_request(&call(json!({"region": "us-west1"})), &h(&[]), &tools)), [rules::MCP_PARAM_HEADER.id]);
        assert_eq!(rules_of(&check_request(&call(json!({"region": "us-west1"})), &h(&[("Region", "eu")]), &tools)), [rules::MCP_PARAM_HEADER.id]);
        assert_eq!(rules_of(&check_request(&call(json!({})), &h(&[("Region", "eu")]), &tools)), [rules::MCP_PARAM_HEADER.id]);
        assert_eq!(rules_of(&check_request(&call(json!({"region": " padded "})), &h(&[("Region", " padded ")]), &tools)), [rules::MCP_PARAM_HEADER.id]);
        assert!(check_request(&call(json!({"region": " padded "})), &h(&[("Region", "=?base64?IHBhZGRlZCA=?=")]), &tools).is_empty());
    }
}
