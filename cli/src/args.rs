//! What a check is asked to do ([`CheckArgs`]), whichever subcommand asked: the checker's
//! [`Settings`] and what the command does with its findings, shared by `check`, `proxy`, `convert`
//! and the bridge. The command line itself is parsed in `crate::cmd`.

use std::fmt;

use crate::versions::{EXTENSIONS, VERSIONS};
pub use mcp_spec_check::settings::{Limits, Protocol, Settings, DEFAULT_MAX_FINDINGS};

/// The checker's settings (the fields [`Settings`] has, by the same names: struct literals with
/// `..CheckArgs::default()` stay short) and the command's own.
#[derive(Debug, Clone)]
pub struct CheckArgs {
    pub protocol: Protocol,
    /// Indices into [`EXTENSIONS`].
    pub extensions: Vec<usize>,
    pub type_name: Option<String>,
    pub roundtrip: bool,
    pub validate: bool,
    pub strict: bool,
    pub json: bool,
    /// `--summary`: print the session summary before the counts.
    pub summary: bool,
    /// Findings kept per value; the rest are only counted, so memory stays bounded.
    pub max_findings: usize,
    /// `check --har-held`: the bytes of a HAR's MCP entries held while they wait for their turn.
    pub har_held: usize,
    pub files: Vec<String>,
}

impl Default for CheckArgs {
    fn default() -> Self {
        let Settings { protocol, extensions, type_name, roundtrip, validate, strict, max_findings, limits: _ } = Settings::default();
        CheckArgs { protocol, extensions, type_name, roundtrip, validate, strict, json: false, summary: false, max_findings, har_held: crate::har::HELD_MAX, files: Vec::new() }
    }
}

impl From<&CheckArgs> for Settings {
    fn from(a: &CheckArgs) -> Settings {
        // The command line keeps the default limits (one checker per process, or per `proxy` stream).
        Settings { protocol: a.protocol, extensions: a.extensions.clone(), type_name: a.type_name.clone(), roundtrip: a.roundtrip, validate: a.validate, strict: a.strict, max_findings: a.max_findings, limits: Limits::default() }
    }
}

/// A usage error: printed with the usage line, exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `--type` must name a type of the chosen version (or of an enabled extension);
/// with `--protocol auto`, of some version.
pub(crate) fn check_type_name(t: &str, args: &CheckArgs) -> Result<(), UsageError> {
    let in_module = |types: &[(&str, &str)]| types.iter().any(|(n, _)| *n == t);
    let in_ext = args.extensions.iter().any(|&i| in_module(EXTENSIONS[i].module.types));
    let found = match args.protocol {
        Protocol::Fixed(i) => in_module(VERSIONS[i].types) || in_ext,
        Protocol::Auto => VERSIONS.iter().any(|m| in_module(m.types)) || in_ext,
    };
    if found {
        return Ok(());
    }
    let where_ = match args.protocol {
        Protocol::Fixed(i) => format!("version {}", VERSIONS[i].name),
        Protocol::Auto => "any version".to_string(),
    };
    let ext_hint = if EXTENSIONS.iter().any(|e| in_module(e.module.types)) {
        " (it is an extension's type: add its --ext)"
    } else {
        ""
    };
    Err(UsageError(format!("unknown type `{t}` in {where_}{ext_hint}")))
}
