//! What a check is asked to do ([`CheckArgs`]), whichever subcommand asked: a leaf the checker,
//! `proxy`, `convert` and the bridge share. The command line itself is parsed in `crate::cmd`.

use std::fmt;

use crate::versions::{EXTENSIONS, VERSIONS};

/// `--protocol`: a fixed version (index into [`VERSIONS`]) or auto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Auto,
    Fixed(usize),
}

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

/// Findings kept per value unless `--max-findings` says otherwise.
pub const DEFAULT_MAX_FINDINGS: usize = 100;

impl Default for CheckArgs {
    fn default() -> Self {
        CheckArgs {
            protocol: Protocol::Auto,
            extensions: Vec::new(),
            type_name: None,
            roundtrip: false,
            validate: true,
            strict: false,
            json: false,
            summary: false,
            max_findings: DEFAULT_MAX_FINDINGS,
            har_held: crate::har::HELD_MAX,
            files: Vec::new(),
        }
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
