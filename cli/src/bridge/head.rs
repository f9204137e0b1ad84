//! What the bridge needs to know of a message without its value tree: its method, id and the
//! parameters the HTTP headers mirror, read by serde with every other key skipped unbuilt (and
//! these kept as text until asked for, so no key can make a tree).

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

#[derive(Debug, Default, Deserialize)]
pub struct Head {
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    id: Option<Box<RawValue>>,
    #[serde(default)]
    params: Option<Params>,
    #[serde(default)]
    pub error: Option<serde::de::IgnoredAny>,
}

#[derive(Debug, Default, Deserialize)]
struct Params {
    #[serde(default)]
    name: Option<Box<RawValue>>,
    #[serde(default)]
    uri: Option<Box<RawValue>>,
    #[serde(default, rename = "_meta")]
    meta: Option<Meta>,
}

#[derive(Debug, Default, Deserialize)]
struct Meta {
    // `negotiate::PROTOCOL_VERSION_META_KEY` (the test below holds them together).
    #[serde(default, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<Box<RawValue>>,
}

/// A string kept as text, as a string.
fn text(raw: Option<&RawValue>) -> Option<String> {
    raw.filter(|r| r.get().starts_with('"')).and_then(|r| serde_json::from_str(r.get()).ok())
}

impl Head {
    /// The head of a JSON-RPC message object; `None` when the text is not one (or has a key twice).
    pub fn of(text: &[u8]) -> Option<Head> {
        if !text.trim_ascii_start().starts_with(b"{") {
            return None;
        }
        serde_json::from_slice(text).ok()
    }

    /// The id when there is one: a string, number or null as it is, anything else as null.
    pub fn id(&self) -> Option<Value> {
        let raw = self.id.as_ref()?.get();
        Some(if raw.starts_with(['{', '[']) { Value::Null } else { serde_json::from_str(raw).unwrap_or(Value::Null) })
    }

    /// A request (a method and an id).
    pub fn is_request(&self) -> bool {
        self.method.is_some() && self.id.is_some()
    }

    /// `params.name` or `params.uri` when it is a string.
    pub fn param(&self, key: &str) -> Option<String> {
        let p = self.params.as_ref()?;
        match key {
            "name" => text(p.name.as_deref()),
            "uri" => text(p.uri.as_deref()),
            _ => None,
        }
    }

    /// The protocol version in `params._meta`, when it is a string.
    pub fn meta_version(&self) -> Option<String> {
        text(self.params.as_ref()?.meta.as_ref()?.protocol_version.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::Head;

    #[test]
    fn reads_the_head_and_skips_the_rest() {
        // The key serde's attribute spells out is the types crate's (an attribute takes no constant).
        let key = mcp_spec_types::negotiate::PROTOCOL_VERSION_META_KEY;
        let line = format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"x","arguments":{{"a":[1,2]}},"_meta":{{"{key}":"2026-07-28"}}}}}}"#);
        let h = Head::of(line.as_bytes()).unwrap();
        assert_eq!((h.method.as_deref(), h.id(), h.param("name"), h.meta_version()), (Some("tools/call"), Some(3.into()), Some("x".into()), Some("2026-07-28".into())));
        assert!(h.is_request());
        let h = Head::of(br#"{"jsonrpc":"2.0","id":{"a":[1]},"result":{"big":[{"k":1}]}}"#).unwrap();
        assert!(h.method.is_none() && !h.is_request() && h.id() == Some(serde_json::Value::Null));
        assert!(Head::of(b"[1]").is_none() && Head::of(b"7").is_none());
    }
}
