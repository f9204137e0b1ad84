//! What a server says about itself, once: the engine answers `initialize` and `server/discover`
//! from it, and puts its identity on 2026-07-28 results.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::check::BUILT;
use super::Error;
use mcp_spec_types::negotiate::{self, Lifecycle, SERVER_INFO_META_KEY};
use mcp_spec_types::write::WriteJson;

/// A server's identity, the protocol versions it serves, its capabilities and instructions.
/// Given to [`Server::with_info`](super::Server::with_info), the engine negotiates the version
/// (through [`negotiate`](mcp_spec_types::negotiate)) and answers `initialize` and `server/discover` itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// `serverInfo` (an `Implementation`: `name`, `version`, and what else the version allows).
    pub implementation: Value,
    /// The versions served. Handshake versions (2025-11-25 and earlier) are negotiated in
    /// `initialize`; per-request ones (2026-07-28) are checked on every request.
    pub versions: Vec<String>,
    /// `capabilities`, as every version served reads them.
    pub capabilities: Value,
    pub instructions: Option<String>,
    /// `ttlMs` of the `server/discover` result (default 0: fetch it again each time).
    pub discover_ttl_ms: u64,
}

impl ServerInfo {
    /// A server named `name` at `version`, serving every released version this build has, with
    /// no capabilities (add them with [`capabilities`](Self::capabilities)).
    pub fn new(name: &str, version: &str) -> Self {
        ServerInfo {
            implementation: json!({"name": name, "version": version}),
            versions: BUILT.iter().filter(|v| **v != "draft").map(|v| v.to_string()).collect(),
            capabilities: json!({}),
            instructions: None,
            discover_ttl_ms: 0,
        }
    }

    /// Serve only these versions.
    pub fn versions(mut self, versions: &[&str]) -> Self {
        self.versions = versions.iter().map(|v| v.to_string()).collect();
        self
    }

    /// Declares these capabilities (any version's `ServerCapabilities`, or JSON).
    pub fn capabilities<C: Serialize>(mut self, capabilities: &C) -> Result<Self, Error> {
        self.capabilities = serde_json::to_value(capabilities).map_err(|e| Error::Serialize(e.to_string()))?;
        Ok(self)
    }

    pub fn instructions(mut self, instructions: &str) -> Self {
        self.instructions = Some(instructions.to_owned());
        self
    }

    pub(crate) fn has_capability(&self, name: &str) -> bool {
        self.capabilities.get(name).is_some()
    }

    fn of(&self, lifecycle: Lifecycle) -> Vec<&str> {
        self.versions.iter().map(String::as_str).filter(|v| negotiate::lifecycle(v) == Some(lifecycle)).collect()
    }

    pub(crate) fn handshake_versions(&self) -> Vec<&str> {
        self.of(Lifecycle::Handshake)
    }

    pub(crate) fn per_request_versions(&self) -> Vec<&str> {
        self.of(Lifecycle::PerRequest)
    }

    /// The `initialize` result in `version`.
    pub(crate) fn initialize_result(&self, version: &str) -> Value {
        let mut o = Map::new();
        o.insert("protocolVersion".into(), Value::from(version));
        o.insert("capabilities".into(), self.capabilities.clone());
        o.insert("serverInfo".into(), self.implementation.clone());
        if let Some(i) = &self.instructions {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        Value::Object(o)
    }

    /// The `server/discover` result (2026-07-28).
    pub(crate) fn discover_result(&self) -> Value {
        let mut o = Map::new();
        o.insert("supportedVersions".into(), json!(self.versions));
        o.insert("capabilities".into(), self.capabilities.clone());
        if let Some(i) = &self.instructions {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        o.insert("ttlMs".into(), json!(self.discover_ttl_ms));
        o.insert("cacheScope".into(), json!("public"));
        let mut result = Value::Object(o);
        self.complete("server/discover", &mut result);
        result
    }

    /// What every 2026-07-28 result carries: `resultType` (`"complete"` unless the application set
    /// one), the server's identity in `_meta`, and on a cacheable result without them `ttlMs: 0`
    /// and `cacheScope: "private"` (the cautious values: stale at once, not shared).
    pub(crate) fn complete(&self, method: &str, result: &mut Value) {
        let Value::Object(o) = result else { return };
        o.entry("resultType").or_insert_with(|| json!("complete"));
        if CACHEABLE.contains(&method) && o.get("resultType").and_then(Value::as_str) == Some("complete") {
            o.entry("ttlMs").or_insert_with(|| json!(0));
            o.entry("cacheScope").or_insert_with(|| json!("private"));
        }
        if let Value::Object(meta) = o.entry("_meta").or_insert_with(|| json!({})) {
            meta.entry(SERVER_INFO_META_KEY).or_insert_with(|| self.implementation.clone());
        }
    }
}

/// What a `Value` result gets from [`ServerInfo::complete`], put into its JSON text as the
/// crate's writer wrote it: the keys the engine adds go in after the object's `{` (and the
/// server's identity after `_meta`'s), the rest is kept byte for byte. Not an object: as it is.
pub(crate) fn complete_text(info: &ServerInfo, method: &str, text: &mut Vec<u8>) {
    let Some((open, members)) = json_text::members(text, 0) else { return };
    let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, r)| r.clone());
    let mut added: Vec<Vec<u8>> = Vec::new();
    let result_type = match get("resultType") {
        None => {
            added.push(br#""resultType":"complete""#.to_vec());
            Some("complete".to_owned())
        }
        Some(r) => serde_json::from_slice::<Value>(&text[r]).ok().and_then(|v| v.as_str().map(str::to_owned)),
    };
    if CACHEABLE.contains(&method) && result_type.as_deref() == Some("complete") {
        if get("ttlMs").is_none() {
            added.push(br#""ttlMs":0"#.to_vec());
        }
        if get("cacheScope").is_none() {
            added.push(br#""cacheScope":"private""#.to_vec());
        }
    }
    let identity = |out: &mut Vec<u8>| {
        SERVER_INFO_META_KEY.write_json(out);
        out.push(b':');
        info.implementation.write_json(out);
    };
    match get("_meta") {
        None => {
            let mut meta = br#""_meta":{"#.to_vec();
            identity(&mut meta);
            meta.push(b'}');
            added.push(meta);
        }
        // Into `_meta` first: it lies after the object's `{`, where the rest goes.
        Some(r) => {
            if let Some((meta_open, meta)) = json_text::members(text, r.start) {
                if !meta.iter().any(|(k, _)| k == SERVER_INFO_META_KEY) {
                    let mut entry = Vec::new();
                    identity(&mut entry);
                    if !meta.is_empty() {
                        entry.push(b',');
                    }
                    text.splice(meta_open + 1..meta_open + 1, entry);
                }
            }
        }
    }
    if added.is_empty() {
        return;
    }
    let mut insert = added.join(&b',');
    if !members.is_empty() {
        insert.push(b',');
    }
    text.splice(open + 1..open + 1, insert);
}

// Reading the top level of an object in JSON text the writer wrote (valid JSON): where its `{`
// is, and each member's key and the span of its value.
mod json_text {
    use std::ops::Range;

    fn ws(text: &[u8], mut i: usize) -> usize {
        while text.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    }

    /// The index just past the string that starts at `i` (its `"`).
    fn string_end(text: &[u8], mut i: usize) -> Option<usize> {
        i += 1;
        loop {
            match text.get(i)? {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
    }

    /// The index just past the value that starts at `i`.
    fn value_end(text: &[u8], mut i: usize) -> Option<usize> {
        match text.get(i)? {
            b'"' => string_end(text, i),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match text.get(i)? {
                        b'"' => {
                            i = string_end(text, i)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(i + 1);
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {
                while text.get(i).is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace()) {
                    i += 1;
                }
                Some(i)
            }
        }
    }

    /// A member's key and the span of its value.
    pub(super) type Member = (String, Range<usize>);

    /// The object at `at` (after whitespace): its `{` and its members (keys as strings).
    pub(super) fn members(text: &[u8], at: usize) -> Option<(usize, Vec<Member>)> {
        let open = ws(text, at);
        if text.get(open) != Some(&b'{') {
            return None;
        }
        let mut members = Vec::new();
        let mut i = ws(text, open + 1);
        if text.get(i) == Some(&b'}') {
            return Some((open, members));
        }
        loop {
            let key_end = string_end(text, i)?;
            let key: String = serde_json::from_slice(&text[i..key_end]).ok()?;
            i = ws(text, key_end);
            if text.get(i) != Some(&b':') {
                return None;
            }
            let start = ws(text, i + 1);
            let end = value_end(text, start)?;
            members.push((key, start..end));
            i = ws(text, end);
            match text.get(i)? {
                b',' => i = ws(text, i + 1),
                b'}' => return Some((open, members)),
                _ => return None,
            }
        }
    }
}

/// The requests whose results are `CacheableResult`s in 2026-07-28.
const CACHEABLE: &[&str] = &["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{complete_text, ServerInfo};

    /// The text patch gives what `complete` gives the `Value`, for results of every shape.
    #[test]
    fn completing_the_text_is_completing_the_value() {
        let info = ServerInfo::new("s", "1");
        let results = [
            json!({}),
            json!({"tools": []}),
            json!({"resultType": "input_required", "inputRequests": {}}),
            json!({"resultType": "complete", "ttlMs": 5}),
            json!({"_meta": {}}),
            json!({"_meta": {"x": 1}, "content": [{"type": "text", "text": "}\"{,]"}]}),
            json!({"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "other"}}}),
            json!({"_meta": null, "cacheScope": "public"}),
            json!({"a": "\\", "b": [[], {}, [{"c": "]"}]], "n": -1.5e10, "t": true, "z": null}),
            json!([1, 2]),
            json!("text"),
        ];
        let (mut same, mut differ) = (0, 0);
        for method in ["tools/list", "tools/call"] {
            for result in &results {
                let mut expected = result.clone();
                info.complete(method, &mut expected);
                let mut text = serde_json::to_vec(result).unwrap();
                complete_text(&info, method, &mut text);
                let got: Value = serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&text)));
                if got == expected { same += 1 } else { differ += 1; eprintln!("{method} {result}: {got} != {expected}") }
            }
        }
        println!("{same} passed, {differ} failed");
        assert_eq!(differ, 0);
    }
}
