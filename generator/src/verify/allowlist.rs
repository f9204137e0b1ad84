//! `schema/verify-allowlist.toml`: the reviewed differences between what
//! `schema.ts` says and what the spec's `schema.json` says, each with its reason.

use serde::Deserialize;

use super::difference::{Difference, Kind};

pub const PATH: &str = "schema/verify-allowlist.toml";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default, rename = "allow")]
    entries: Vec<RawEntry>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    version: OneOrMany,
    definition: String,
    pointer: String,
    kind: String,
    reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// One reviewed difference. In `definition` and `pointer`, `*` matches any run of characters (`*Result`);
/// `version = "*"` matches every verified schema. An entry with a `*` is a rule rather than an instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub versions: Vec<String>,
    pub definition: String,
    pub pointer: String,
    pub kind: Kind,
    pub reason: String,
}

#[derive(Debug, Clone, Default)]
pub struct Allowlist {
    pub entries: Vec<Entry>,
}

impl Allowlist {
    pub fn from_toml(text: &str) -> Result<Allowlist, String> {
        let file: File = toml::from_str(text).map_err(|e| format!("{PATH}: {e}"))?;
        let mut entries = Vec::new();
        for (i, e) in file.entries.into_iter().enumerate() {
            let kind = Kind::parse(&e.kind).ok_or_else(|| format!("{PATH}: entry {} has unknown kind `{}` (known: {})", i + 1, e.kind, Kind::ALL.map(Kind::as_str).join(", ")))?;
            if e.reason.trim().is_empty() {
                return Err(format!("{PATH}: entry {} ({} {}) has no reason", i + 1, e.definition, e.pointer));
            }
            let versions = match e.version {
                OneOrMany::One(v) => vec![v],
                OneOrMany::Many(v) => v,
            };
            entries.push(Entry { versions, definition: e.definition, pointer: e.pointer, kind, reason: e.reason });
        }
        Ok(Allowlist { entries })
    }
}

impl Entry {
    pub fn applies_to(&self, version: &str) -> bool {
        self.versions.iter().any(|v| v == "*" || v == version)
    }

    pub fn matches(&self, version: &str, d: &Difference) -> bool {
        self.applies_to(version)
            && self.kind == d.kind
            && glob(&self.definition, &d.definition)
            && glob(&self.pointer, &d.pointer)
    }

    pub fn describe(&self) -> String {
        let pointer = if self.pointer.is_empty() { "\"\"" } else { &self.pointer };
        format!("{} {} {} {}", self.versions.join(","), self.definition, pointer, self.kind.as_str())
    }
}

/// `*` matches any run of characters; everything else matches itself.
fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else { return rest.is_empty() };
    for part in middle {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn globs() {
        assert!(glob("*", "anything"));
        assert!(glob("*Result", "CallToolResult"));
        assert!(!glob("*Result", "ResultType"));
        assert!(glob("/properties/*/type", "/properties/a/type"));
        assert!(glob("", ""));
        assert!(!glob("", "/x"));
        assert!(glob("a*b*c", "abc"));
        assert!(!glob("ab*ba", "aba"));
    }
}
