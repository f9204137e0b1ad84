//! The HTTP layer of MCP traffic: exchanges (one HTTP request and its response) as a recording's
//! `http` lines describe them or a HAR's entries hold them, and the transport rules of each
//! version's transports page applied to them ([`rules`], [`Transport`]). See cli/README.md,
//! "Transport rules" and "Recording with HTTP context".
//!
//! Both inputs become the same [`HttpLine`]s and message contexts ([`MsgAt`]) fed to one
//! [`Transport`] in the order they happened; it keeps a bounded state per open exchange and per
//! session and returns each rule's findings on the line that shows them.

mod engine;
mod exchange;
pub mod jsonl;
mod mirror;
pub use crate::rules::transport as rules;

use serde_json::{json, Value};

pub use engine::{Found, Transport};

use crate::vocab::Diag;

/// A finding of `rule` at `pointer`.
fn diag(rule: &'static rules::Rule, pointer: &str, message: String) -> Diag {
    Diag { pointer: pointer.to_string(), rule: rule.id, severity: rule.severity, message }
}

/// The longest header value kept (the recording writer cuts at the same length).
pub const VALUE_MAX: usize = 1024;

/// The names (lowercased) of the MCP headers of Streamable HTTP that the transport rules read.
pub mod header {
    pub const SESSION_ID: &str = "mcp-session-id";
    pub const PROTOCOL_VERSION: &str = "mcp-protocol-version";
    pub const LAST_EVENT_ID: &str = "last-event-id";
    /// 2026-07-28's mirrored headers: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-{Name}`.
    pub const METHOD: &str = "mcp-method";
    pub const NAME: &str = "mcp-name";
    pub const PARAM_PREFIX: &str = "mcp-param-";
}

/// The request headers the transport rules read ([`Headers`]); a recording keeps these and, by
/// [`header::PARAM_PREFIX`], at most [`PARAMS_MAX`] `Mcp-Param-*`; no other (`authorization`, `cookie`: secrets).
pub const REQUEST_HEADERS: [&str; 9] = ["accept", "content-type", "origin", "host", header::SESSION_ID, header::PROTOCOL_VERSION, header::LAST_EVENT_ID, header::METHOD, header::NAME];
/// The response headers the transport rules read.
pub const RESPONSE_HEADERS: [&str; 4] = ["content-type", header::SESSION_ID, "allow", "location"];

/// The headers the transport rules read (names lowercased); a recording keeps only these.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    pub accept: Option<String>,
    pub content_type: Option<String>,
    pub origin: Option<String>,
    pub host: Option<String>,
    pub session_id: Option<String>,
    pub protocol_version: Option<String>,
    pub last_event_id: Option<String>,
    pub allow: Option<String>,
    pub location: Option<String>,
    /// 2026-07-28's mirrored headers: `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-{Name}` (name part, value).
    pub mcp_method: Option<String>,
    pub mcp_name: Option<String>,
    pub mcp_params: Vec<(String, String)>,
}

/// `Mcp-Param-*` headers kept per message; past it the rest are dropped.
pub const PARAMS_MAX: usize = 32;

impl Headers {
    /// The slot of a header by its lowercased name, `None` for one the rules do not read.
    pub fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        Some(match name {
            "accept" => &mut self.accept,
            "content-type" => &mut self.content_type,
            "origin" => &mut self.origin,
            "host" => &mut self.host,
            header::SESSION_ID => &mut self.session_id,
            header::PROTOCOL_VERSION => &mut self.protocol_version,
            header::LAST_EVENT_ID => &mut self.last_event_id,
            "allow" => &mut self.allow,
            "location" => &mut self.location,
            header::METHOD => &mut self.mcp_method,
            header::NAME => &mut self.mcp_name,
            _ => return None,
        })
    }

    /// The bytes the values hold.
    pub fn weight(&self) -> usize {
        [&self.accept, &self.content_type, &self.origin, &self.host, &self.session_id, &self.protocol_version, &self.last_event_id, &self.allow, &self.location, &self.mcp_method, &self.mcp_name].iter().map(|v| v.as_ref().map_or(0, String::len)).sum::<usize>()
            + self.mcp_params.iter().map(|(n, v)| n.len() + v.len()).sum::<usize>()
    }

    /// Sets a header by name (any case), joining a repeated one with ", " as HTTP allows; the
    /// value is cut to [`VALUE_MAX`].
    pub fn add(&mut self, name: &str, value: &str) {
        let lower = name.to_ascii_lowercase();
        if let Some(param) = lower.strip_prefix(header::PARAM_PREFIX) {
            let param = cut(param.to_string());
            match self.mcp_params.iter().position(|(n, _)| *n == param) {
                Some(i) => self.mcp_params[i].1 = cut(format!("{}, {value}", self.mcp_params[i].1)),
                None if self.mcp_params.len() < PARAMS_MAX => self.mcp_params.push((param, cut(value.to_string()))),
                None => {}
            }
            return;
        }
        let Some(slot) = self.slot(&lower) else { return };
        let joined = match slot.take() {
            Some(mut v) => {
                v.push_str(", ");
                v.push_str(value);
                v
            }
            None => value.to_string(),
        };
        *slot = Some(cut(joined));
    }
}

fn cut(mut s: String) -> String {
    if s.len() > VALUE_MAX {
        let mut end = VALUE_MAX;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

/// Which half of an exchange a message came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Request,
    Response,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Request => "request",
            Part::Response => "response",
        }
    }
}

/// One line of HTTP context (a recording's `http` line with `at`, or a piece of a HAR entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HttpLine {
    Request { x: u64, method: String, path: String, query: Option<String>, headers: Headers },
    Response { x: u64, status: u16, headers: Headers },
    /// An SSE event that carried no JSON-RPC message.
    Event { x: u64, event: u64, event_id: Option<String>, kind: Option<String>, data: Option<String>, retry: Option<u64> },
    End { x: u64, bytes: Option<u64>, complete: bool, error: Option<String> },
}

impl HttpLine {
    pub fn x(&self) -> u64 {
        match self {
            HttpLine::Request { x, .. } | HttpLine::Response { x, .. } | HttpLine::Event { x, .. } | HttpLine::End { x, .. } => *x,
        }
    }
}

/// Where a message was: its exchange, the half, and for a response's SSE event its index and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MsgAt {
    pub x: u64,
    pub part: Part,
    pub event: Option<u64>,
    pub event_id: Option<String>,
}

/// What a finding says about where it is: the exchange as a person reads it (`place`) and as a
/// script does (`http`), in the form `check FILE.har` uses with `entry` for a HAR.
#[derive(Debug, Clone, Default)]
pub struct Where {
    /// `exchange` for a recording, `entry` for a HAR.
    pub noun: &'static str,
    pub x: u64,
    /// The line (a HAR: the entry index) of the exchange's request, for findings at its end.
    pub line: u64,
    pub method: Option<String>,
    pub path: Option<String>,
    pub status: Option<i64>,
    pub session_id: Option<String>,
    pub protocol_version: Option<String>,
}

impl Where {
    /// `exchange 3 (POST /mcp 200)`, then the part and the SSE event when there is one.
    pub fn place(&self, part: Option<Part>, event: Option<(u64, Option<&str>)>) -> String {
        let mut s = format!(
            "{} {} ({} {}{})",
            self.noun,
            self.x,
            self.method.as_deref().unwrap_or("?"),
            self.path.as_deref().map(crate::bounded::clip).unwrap_or("?".into()),
            self.status.map(|s| format!(" {s}")).unwrap_or_default()
        );
        if let Some(p) = part {
            s.push_str(", ");
            s.push_str(p.name());
        }
        if let Some((i, id)) = event {
            s.push_str(&format!(", SSE event {i}"));
            if let Some(id) = id {
                s.push_str(&format!(" (id {})", crate::bounded::shown(&Value::String(id.to_string()))));
            }
        }
        s
    }

    /// The `http` object of `--json`.
    pub fn http(&self, part: Option<Part>, event: Option<(u64, Option<&str>)>) -> Value {
        let mut h = json!({self.noun_key(): self.x, "method": self.method, "path": self.path, "status": self.status, "sessionId": self.session_id, "protocolVersion": self.protocol_version});
        if let Some(p) = part {
            h["part"] = json!(p.name());
        }
        if let Some((i, id)) = event {
            h["event"] = json!(i);
            h["eventId"] = json!(id);
        }
        h
    }

    fn noun_key(&self) -> &'static str {
        if self.noun == "entry" {
            "entry"
        } else {
            "x"
        }
    }
}
