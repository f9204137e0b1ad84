//! The checker's vocabulary, shared by every module that reports or routes messages: findings
//! ([`Diag`], [`Outcome`]), directions ([`Direction`], the crate's, and [`AppsSide`]), request ids as keys ([`IdKey`]) and
//! the checker's typed request ([`Req`]). A leaf: it imports no other module of the CLI but `bounded`.

use mcp_spec_types::validate::Severity;
use serde_json::Value;

use crate::bounded::{Text, Weigh};
use crate::rules::Rule;

/// The way a message travelled: the crate's one direction type, used throughout the CLI.
pub use mcp_spec_types::negotiate::Direction;

/// The `_meta` key that carries the protocol version in 2026-07-28 and later.
pub const PROTOCOL_META_KEY: &str = mcp_spec_types::runtime::meta::PROTOCOL_VERSION;

/// How many unanswered requests each direction remembers; the oldest are forgotten first.
pub const PENDING_CAP: usize = 4096;

/// How many answered (or cancelled) request ids each direction remembers to catch a reused
/// id; the oldest are forgotten first, so memory stays bounded on an endless stream.
pub const ANSWERED_CAP: usize = 4096;

/// One finding about a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// JSON pointer into the line as written (`/msg/...` for a wrapper line); `""` is the whole line.
    pub pointer: String,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
}

impl Diag {
    /// A finding of `rule`, with the severity its catalogue entry gives (`--strict` makes a warning
    /// an error where the checker reports it).
    pub fn of(rule: &'static Rule, pointer: impl Into<String>, message: impl Into<String>) -> Diag {
        Diag { pointer: pointer.into(), rule: rule.id, severity: rule.severity, message: message.into() }
    }

    /// [`Diag::of`] as checked: with `strict` (`--strict`) an error whatever the entry says.
    pub fn checked(rule: &'static Rule, strict: bool, pointer: impl Into<String>, message: impl Into<String>) -> Diag {
        let d = Diag::of(rule, pointer, message);
        if strict { Diag { severity: Severity::Error, ..d } } else { d }
    }
}

/// What checking one value found.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// 1-based line of the value in its file.
    pub line: u64,
    /// The version it was checked against (`2025-11-25`, `draft`), or the extension (`apps`).
    pub protocol: Option<&'static str>,
    /// The schema type it was checked as.
    pub type_name: Option<&'static str>,
    pub diags: Vec<Diag>,
    /// Findings past `--max-findings`: counted, not kept.
    pub omitted: usize,
    /// How many of the omitted findings are errors.
    pub omitted_errors: usize,
    /// Where the value was, when a line number does not say it (a HAR: the entry and the message's place in it).
    pub place: Option<String>,
    /// A HAR message's HTTP context (method, path, status, session, version header, SSE event), for `--json`.
    pub http: Option<Value>,
}

impl Outcome {
    pub fn failed(&self) -> bool {
        self.omitted_errors > 0 || self.diags.iter().any(|d| d.severity == Severity::Error)
    }
}

/// A direction's name as the `dir` of a JSONL line (and in findings).
pub fn dir_name(dir: Direction) -> &'static str {
    match dir {
        Direction::ClientToServer => "c2s",
        Direction::ServerToClient => "s2c",
    }
}

/// A side of the MCP Apps channel between a view (the `App` in its iframe) and its host (the
/// `AppBridge`): `dir` is `view2host` or `host2view` on a line of that channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppsSide {
    View,
    Host,
}

impl AppsSide {
    pub(crate) fn index(self) -> usize {
        self as usize
    }
    pub(crate) const fn opposite(self) -> AppsSide {
        match self {
            AppsSide::View => AppsSide::Host,
            AppsSide::Host => AppsSide::View,
        }
    }
    /// The `dir` of what this side sends.
    pub(crate) fn dir_name(self) -> &'static str {
        match self {
            AppsSide::View => "view2host",
            AppsSide::Host => "host2view",
        }
    }
    pub(crate) fn name(self) -> &'static str {
        match self {
            AppsSide::View => "view",
            AppsSide::Host => "host",
        }
    }
    /// The view opens the channel with `ui/initialize`, as a client does: its side of the observer.
    pub(crate) fn direction(self) -> Direction {
        match self {
            AppsSide::View => Direction::ClientToServer,
            AppsSide::Host => Direction::ServerToClient,
        }
    }
}

/// Which module a request was typed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModRef {
    Version(usize),
    Ext(usize),
}

/// A request id as a map key; a long string id is kept as its digest ([`Text`]), so a table of
/// them is small whatever the peer sends.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IdKey {
    Int(i64),
    Str(Text),
    /// Any other number, by its text (ids must be integers, but a response can still match it).
    Other(Box<str>),
}

impl IdKey {
    /// The key of an id in a line's tree: a string or a number.
    pub fn of(v: mcp_spec_types::tree::Node<'_>) -> Option<IdKey> {
        match v.kind() {
            mcp_spec_types::tree::Kind::String(s) => Some(IdKey::Str(Text::of(s))),
            mcp_spec_types::tree::Kind::Number(n) => Some(match n.as_i64() {
                Some(i) => IdKey::Int(i),
                None => IdKey::Other(n.to_string().into()),
            }),
            _ => None,
        }
    }
}

impl Weigh for IdKey {
    fn weight(&self) -> usize {
        match self {
            IdKey::Int(_) => 0,
            IdKey::Str(t) => t.weight(),
            IdKey::Other(s) => s.len(),
        }
    }
}

/// An unanswered request: what its response is checked against.
#[derive(Debug, Clone)]
pub struct Req {
    pub(crate) module: ModRef,
    /// The method as the schema names it; `None` for a method the module does not define.
    pub(crate) method: Option<&'static str>,
    pub(crate) result: Option<&'static str>,
    /// The params carry `task` and the request type takes it: the answer may be `CreateTaskResult`.
    pub(crate) task: bool,
    /// The request's `params.uri` (`resources/read`, ...), for rules on the result that need
    /// the requested URI.
    pub uri: Option<Box<str>>,
}

impl Weigh for Req {
    fn weight(&self) -> usize {
        self.uri.weight()
    }
}
