//! `schema/verify-allowlist.toml`: the reviewed differences between what
//! `schema.ts` says and what the spec's `schema.json` says, each with its reason.

use serde::Deserialize;

use super::{Difference, Kind};

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

/// One reviewed difference. `*` in `versions`, `definition` or `pointer` matches anything (a rule, not an instance).
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
            && (self.definition == "*" || self.definition == d.definition)
            && (self.pointer == "*" || self.pointer == d.pointer)
    }

    pub fn describe(&self) -> String {
        let pointer = if self.pointer.is_empty() { "\"\"" } else { &self.pointer };
        format!("{} {} {} {}", self.versions.join(","), self.definition, pointer, self.kind.as_str())
    }
}
