//! The rule catalogue: every rule id the checker can report, in one table. The validator's rules
//! stay in the crate (`mcp_spec_types::validate::RULES`); the CLI's own are here, one file per
//! area ([`stream`]: lines, messages in a stream and how they pair up; [`session`]: the session
//! rules, `--ext apps` and `--ext tasks` included; [`transport`]: HTTP; [`convert`]: `convert`'s
//! refusals). [`catalogue`] is their union, what `mcp-schema rules` prints and `docs/rules.md`
//! is generated from. A leaf: it imports no other module of the CLI but `versions`.
//!
//! One id style: dot-separated kebab-case segments, the first naming the area
//! (`session.lifecycle.initialize-first`, `transport.post-accept`, `stream.id-reused`). Ids of a
//! single segment (`type`, `required`, `json`) are the basic checks of a value or a line; the
//! crate's come from the generator and are its public ids, so they keep their names.

pub mod convert;
pub mod session;
pub mod stream;
pub mod transport;

use mcp_spec_types::validate::Severity;

use crate::versions::version_index;

/// One rule of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub id: &'static str,
    /// What checks it: `schema`, `meta`, `icon`, ... for the validator's rules; `line`, `stream`,
    /// `session`, `transport`, `convert`, `har` for the CLI's.
    pub area: &'static str,
    /// What the spec's wording gives (MUST: error, SHOULD: warning); `--strict` makes warnings errors.
    pub severity: Severity,
    /// The first protocol version the rule applies to.
    pub since: &'static str,
    /// The last one, for a rule of some versions only.
    pub until: Option<&'static str>,
    /// Where the spec (or the checker) says it, and what it says, in short.
    pub source: &'static str,
    /// Ids the rule had before (still accepted where a user names a rule).
    pub was: &'static [&'static str],
}

/// The first version: a rule of every version is `since` it.
pub const FIRST: &str = "2024-11-05";

impl Rule {
    /// Whether the rule applies to a protocol version (an unknown version: no).
    pub fn applies(&self, version: &str) -> bool {
        let (Some(v), Some(since)) = (version_index(version), version_index(self.since)) else { return false };
        v >= since && self.until.and_then(version_index).is_none_or(|until| v <= until)
    }

    pub(crate) const fn was(self, was: &'static [&'static str]) -> Rule {
        Rule { was, ..self }
    }

    pub(crate) const fn since(self, since: &'static str) -> Rule {
        Rule { since, ..self }
    }

    pub(crate) const fn until(self, until: &'static str) -> Rule {
        Rule { until: Some(until), ..self }
    }

    /// The severity's name, as findings print it.
    pub fn severity_name(&self) -> &'static str {
        match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A rule of every version.
pub(crate) const fn rule(id: &'static str, area: &'static str, severity: Severity, source: &'static str) -> Rule {
    Rule { id, area, severity, since: FIRST, until: None, source, was: &[] }
}

/// The CLI's rule tables, in the order the catalogue lists them.
pub static CLI: &[&[&Rule]] = &[stream::RULES, session::RULES, transport::RULES, convert::RULES];

/// Every rule: the validator's, then the CLI's.
pub fn catalogue() -> Vec<Rule> {
    let validator = mcp_spec_types::validate::RULES.iter().map(|r| Rule { id: r.id, area: r.area, severity: r.severity, since: r.since, until: None, source: r.source, was: &[] });
    validator.chain(CLI.iter().flat_map(|t| t.iter().map(|r| **r))).collect()
}

/// The rule with this id, or the one that had it before.
pub fn find(id: &str) -> Option<Rule> {
    let all = catalogue();
    let now = all.iter().find(|r| r.id == id);
    now.or_else(|| all.iter().find(|r| r.was.contains(&id))).copied()
}
