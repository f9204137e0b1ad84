//! What the layer does with what it finds: the mode, each rule's level, and the bounds on what it
//! keeps.

use std::collections::BTreeMap;

use mcp_spec_types::validate::Severity;

/// Whether findings only report, or a request that breaks a MUST is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Everything passes; findings become `tracing` events and counts.
    #[default]
    Audit,
    /// A request with a finding at [`Level::Refuse`] is answered by the layer with the JSON-RPC
    /// error its version defines; the service never sees it. Responses are only reported.
    Enforce,
}

/// What one rule's findings do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Not reported, not counted.
    Off,
    /// Reported and counted, never refused.
    Report,
    /// Refused in [`Mode::Enforce`] (reported in [`Mode::Audit`]).
    Refuse,
}

/// The bounds on what the layer reads and keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes of a request body read. A longer body is not checked: counted in audit mode,
    /// answered 413 in enforce mode.
    pub max_body: usize,
    /// Most bytes of one response message (a JSON body, an SSE event's data) copied to be checked;
    /// a longer one passes unchecked and counted.
    pub max_message: usize,
    /// Sessions (`Mcp-Session-Id`) checked apart; past this the least recently used one is dropped.
    pub sessions: usize,
    /// Most bytes one session's checker may hold (the checker's tables are sized to stay within
    /// it; a stream that weighs more anyway is reset, counted). A stream of one exchange without a
    /// session gets the same.
    pub session_bytes: usize,
    /// Most bytes all sessions' checkers may hold together, as they weigh themselves (the
    /// project's checker: the most it can hold); past this the least recently used sessions are
    /// dropped.
    pub total_bytes: usize,
}

impl Default for Limits {
    /// 4 MiB bodies and messages; 256 sessions of at most 4 MiB each, 1 GiB in all.
    fn default() -> Self {
        Limits { max_body: 4 << 20, max_message: 4 << 20, sessions: 256, session_bytes: 4 << 20, total_bytes: 1 << 30 }
    }
}

/// The layer's settings.
#[derive(Debug, Clone)]
pub struct Config {
    pub mode: Mode,
    /// On the layer's own failure (a panic while checking), pass the request on (`true`) or answer
    /// 503 (`false`). Counted either way.
    pub fail_open: bool,
    /// Per rule id, a level other than the default ([`Config::level`]).
    pub rules: BTreeMap<String, Level>,
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Self {
        Config { mode: Mode::Audit, fail_open: true, rules: BTreeMap::new(), limits: Limits::default() }
    }
}

impl Config {
    /// The defaults in enforce mode.
    pub fn enforce() -> Self {
        Config { mode: Mode::Enforce, ..Config::default() }
    }

    /// Sets `rule`'s level.
    pub fn rule(mut self, rule: &str, level: Level) -> Self {
        self.rules.insert(rule.to_string(), level);
        self
    }

    /// A finding's level: the rule's own setting, else [`Level::Refuse`] for an error (a MUST
    /// broken) and [`Level::Report`] for a warning.
    pub fn level(&self, rule: &str, severity: Severity) -> Level {
        match self.rules.get(rule) {
            Some(l) => *l,
            None if severity == Severity::Error => Level::Refuse,
            None => Level::Report,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_set_down_is_reported_not_refused() {
        let c = Config::enforce().rule("format.uri", Level::Report).rule("enum", Level::Off);
        assert_eq!(c.level("format.uri", Severity::Error), Level::Report);
        assert_eq!(c.level("enum", Severity::Error), Level::Off);
        assert_eq!(c.level("type", Severity::Error), Level::Refuse);
        assert_eq!(c.level("meta.key-name", Severity::Warning), Level::Report);
        let c = c.rule("meta.key-name", Level::Refuse);
        assert_eq!(c.level("meta.key-name", Severity::Warning), Level::Refuse);
    }
}
