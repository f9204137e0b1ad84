//! The HTTP headers the Streamable HTTP transport of 2026-07-28 asks a client for, read off the
//! message each POST carries (SEP-2243): `Mcp-Method`, `Mcp-Name` (the tool or prompt name, the
//! resource URI) and `Mcp-Param-{Name}` for the tool arguments whose input-schema property says
//! `x-mcp-header`. The engine writes the message; the engine's HTTP client sets `Mcp-Method` and
//! `Mcp-Name` itself; the `Mcp-Param-*` ones, which need the tool's schema, are made here.

use serde_json::Value;

/// A header value as the transport carries it (the engine's HTTP client's rule): as is when it is
/// visible ASCII or space without whitespace at either end, else `=?base64?…?=` of its UTF-8 bytes.
pub use mcp_spec_engine::http::client::header_value as encode;

/// The `(argument, header name)` pairs a tool's input schema asks to mirror, or why the tool is
/// invalid (a client must then not call it): an `x-mcp-header` must be a non-empty token
/// (visible ASCII, no separators), unique without regard to case, and only on a property of type
/// `string`, `integer` or `boolean`.
pub fn tool_headers(input_schema: &Value) -> Result<Vec<(String, String)>, String> {
    let mut found: Vec<(String, String)> = Vec::new();
    let properties = input_schema.get("properties").and_then(Value::as_object);
    for (argument, schema) in properties.into_iter().flatten() {
        let Some(header) = schema.get("x-mcp-header") else {
            continue;
        };
        let Some(header) = header.as_str() else {
            return Err(format!("`{argument}`: x-mcp-header is not a string"));
        };
        if header.is_empty() {
            return Err(format!("`{argument}`: x-mcp-header is empty"));
        }
        if let Some(c) = header.chars().find(|c| !is_token_char(*c)) {
            return Err(format!("`{argument}`: x-mcp-header {header:?} has {c:?}"));
        }
        let kind = schema.get("type").and_then(Value::as_str);
        if !matches!(kind, Some("string" | "integer" | "boolean")) {
            return Err(format!(
                "`{argument}`: x-mcp-header on type {kind:?} (string, integer or boolean only)"
            ));
        }
        if found.iter().any(|(_, h)| h.eq_ignore_ascii_case(header)) {
            return Err(format!("x-mcp-header {header:?} twice"));
        }
        found.push((argument.clone(), header.to_owned()));
    }
    Ok(found)
}

// RFC 9110's `tchar`: a header field name's characters.
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// `Mcp-Param-{Name}` for each mirrored argument the call has (a null or absent one has none).
pub fn params(mirrored: &[(String, String)], arguments: Option<&Value>) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    for (argument, header) in mirrored {
        let value = match arguments.and_then(|a| a.get(argument)) {
            Some(Value::String(s)) => encode(s),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => n.to_string(),
            _ => continue,
        };
        headers.push((format!("mcp-param-{}", header.to_ascii_lowercase()), value));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_outside_plain_ascii_are_base64() {
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("us west 1"), "us west 1");
        assert_eq!(encode(""), "");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(encode("\tindented"), "=?base64?CWluZGVudGVk?=");
        // A plain value that looks encoded is encoded, so reading back is unambiguous.
        assert_eq!(encode("=?base64?x?="), "=?base64?PT9iYXNlNjQ/eD89?=");
    }

    #[test]
    fn invalid_annotations_make_the_tool_invalid() {
        let schema = |props: Value| json!({"type": "object", "properties": props});
        let ok = schema(
            json!({"region": {"type": "string", "x-mcp-header": "Region"}, "q": {"type": "string"}}),
        );
        assert_eq!(
            tool_headers(&ok).unwrap(),
            [("region".into(), "Region".into())]
        );
        for bad in [
            json!({"v": {"type": "string", "x-mcp-header": ""}}),
            json!({"v": {"type": "object", "x-mcp-header": "Data"}}),
            json!({"v": {"type": "array", "x-mcp-header": "Items"}}),
            json!({"v": {"type": "null", "x-mcp-header": "Nil"}}),
            json!({"v": {"type": "number", "x-mcp-header": "Score"}}),
            json!({"a": {"type": "string", "x-mcp-header": "MyField"}, "b": {"type": "string", "x-mcp-header": "myfield"}}),
            json!({"v": {"type": "string", "x-mcp-header": "My Region"}}),
            json!({"v": {"type": "string", "x-mcp-header": "Region:Primary"}}),
            json!({"v": {"type": "string", "x-mcp-header": "Région"}}),
            json!({"v": {"type": "string", "x-mcp-header": "Region\t1"}}),
        ] {
            assert!(tool_headers(&schema(bad.clone())).is_err(), "{bad}");
        }
    }

    #[test]
    fn mirrored_arguments_become_param_headers() {
        let mirrored = [
            ("region".into(), "Region".into()),
            ("n".into(), "Priority".into()),
            ("v".into(), "Verbose".into()),
            ("gone".into(), "Gone".into()),
        ];
        let arguments = json!({"region": "é", "n": 42, "v": false, "gone": null, "other": "x"});
        assert_eq!(
            params(&mirrored, Some(&arguments)),
            [
                ("mcp-param-region".into(), "=?base64?w6k=?=".into()),
                ("mcp-param-priority".into(), "42".into()),
                ("mcp-param-verbose".into(), "false".into())
            ]
        );
    }
}
