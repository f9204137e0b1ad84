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
    /// What the checker's state may hold.
    pub limits: Limits,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { protocol: Protocol::Auto, extensions: Vec::new(), type_name: None, roundtrip: false, validate: true, strict: false, max_findings: DEFAULT_MAX_FINDINGS, limits: Limits::default() }
    }
}

impl From<&Settings> for Settings {
    fn from(s: &Settings) -> Settings {
        s.clone()
    }
}

/// The memory a checker's state may hold, set when it is built. Past a bound the oldest entries
/// are forgotten and counted ([`Checker::dropped`](crate::check::Checker::dropped)); the rules that
/// need them then say less rather than report what they cannot know.
///
/// The defaults suit one checker on a developer's machine: [`Limits::worst_case`] puts them near
/// 1.9 GiB, and a hostile session measured 84 MiB (check/tests/limits.rs). A process that checks many
/// sessions at once gives each a share of its memory with [`Limits::within`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes each of the checker's bounded tables may hold, as the tables weigh their entries:
    /// requests in flight and ended, progress tokens, tasks, listed tools and compiled schemas,
    /// subscriptions, cursors, header marks ([`Limits::TABLES`] of them at most).
    pub table_bytes: usize,
    /// HTTP exchanges open at once; past it the oldest is forgotten (its end rules do not run).
    pub open_exchanges: usize,
    /// HTTP sessions the transport rules remember; past it the oldest is forgotten.
    pub sessions: usize,
    /// SSE event ids remembered per HTTP session (as 64-bit digests).
    pub event_ids: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { table_bytes: crate::bounded::TABLE_BYTES, open_exchanges: 1024, sessions: 256, event_ids: 4096 }
    }
}

impl Limits {
    /// The most bounded tables one checker builds: a stream's (the session observer's 8, its 2
    /// task tables, tools, compiled schemas, 3 of resources, 3 of the Tasks extension, the MCP
    /// Apps channel's, the header marks), the MCP Apps view channel's observer (8, with `apps`),
    /// and the parked leg of a bridge recording (a stream's tables again, but the compiled schemas).
    pub const TABLES: usize = 20 + 8 + 19;

    /// The most an open exchange holds: two sets of kept headers (11 values and 32 `Mcp-Param-*`
    /// pairs of at most 1 KiB each), three lists of 256 request ids of at most 128 bytes inline,
    /// the request's method, path, session id and version (each at most 1 KiB), and for an
    /// exchange of a stateless version its own model of requests in flight (8 tables, counted
    /// twice like the others).
    pub const EXCHANGE_BYTES: usize = 2 * (11 + 64) * 1024 + 3 * 256 * (128 + 32) + 4 * 1024 + 1024 + 2 * 8 * Self::EXCHANGE_TABLE_BYTES;

    /// The bytes each table of an exchange's own model of requests in flight may hold (an exchange
    /// of a stateless version, check/scope.rs): its POST carries one request, whose waiting entry
    /// keeps a few params.
    pub const EXCHANGE_TABLE_BYTES: usize = 8 * 1024;

    /// The most a session of the transport rules holds beyond its event ids: its id (1 KiB at most)
    /// and its entry.
    pub const SESSION_BYTES: usize = 2 * 1024 + 256;

    /// What one remembered SSE event id costs (its digest in a map and a queue, with the map's slack).
    pub const EVENT_ID_BYTES: usize = 64;

    /// Limits that keep a checker's state within `bytes` by [`Limits::worst_case`]'s estimate: the
    /// transport's least (one exchange, one session with 16 event ids) first, then two thirds of
    /// the rest for the tables, split evenly among [`Limits::TABLES`] (each counted twice, for what
    /// a table allocates beyond what it weighs: hash map slack, queue growth), one third for more
    /// exchanges, sessions and event ids. Below that least, the least.
    pub fn within(bytes: usize) -> Limits {
        const LEAST_EVENT_IDS: usize = 16;
        let least = Self::EXCHANGE_BYTES + Self::SESSION_BYTES + LEAST_EVENT_IDS * Self::EVENT_ID_BYTES;
        let rest = bytes.saturating_sub(least);
        let (tables, transport) = (rest / 3 * 2, rest / 3);
        let event_ids = (LEAST_EVENT_IDS + transport / 4 / Self::EVENT_ID_BYTES).min(4096);
        let per_session = Self::SESSION_BYTES + event_ids * Self::EVENT_ID_BYTES;
        Limits {
            table_bytes: tables / Self::TABLES / 2,
            open_exchanges: (1 + transport / 2 / Self::EXCHANGE_BYTES).min(1024),
            sessions: (1 + transport / 4 / per_session).min(256),
            event_ids,
        }
    }

    /// The most these limits let a checker's state hold, by the estimates above.
    pub fn worst_case(&self) -> usize {
        2 * Self::TABLES * self.table_bytes + self.open_exchanges * Self::EXCHANGE_BYTES + self.sessions * (Self::SESSION_BYTES + self.event_ids * Self::EVENT_ID_BYTES)
    }
}
