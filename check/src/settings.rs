//! What a [`Checker`](crate::check::Checker) is asked to check ([`Settings`]): the version, the
//! extensions and the strictness, whoever builds it (the `mcp-schema` command line, a proxy, a
//! middleware). Reading them from a command line is the caller's business.

/// The protocol version: a fixed one (index into [`VERSIONS`](crate::versions::VERSIONS)) or the one the session negotiates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Auto,
    Fixed(usize),
}

/// Findings kept per value unless the settings say otherwise.
pub const DEFAULT_MAX_FINDINGS: usize = 100;

#[derive(Debug, Clone)]
pub struct Settings {
    pub protocol: Protocol,
    /// Indices into [`EXTENSIONS`](crate::versions::EXTENSIONS).
    pub extensions: Vec<usize>,
    /// Check every value as this type (of the version, or of an enabled extension) instead of as a message.
    pub type_name: Option<String>,
    /// Also read each value into its generated type and write it back, reporting what changes.
    pub roundtrip: bool,
    /// Run the validators (off: the typed reading alone).
    pub validate: bool,
    /// Warnings count as errors.
    pub strict: bool,
    /// Findings kept per value; the rest are only counted, so memory stays bounded.
    pub max_findings: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { protocol: Protocol::Auto, extensions: Vec::new(), type_name: None, roundtrip: false, validate: true, strict: false, max_findings: DEFAULT_MAX_FINDINGS }
    }
}

impl From<&Settings> for Settings {
    fn from(s: &Settings) -> Settings {
        s.clone()
    }
}
