//! `check FILE.har`: the MCP messages of an HTTP Archive 1.2 (browsers' developer tools,
//! Playwright, intercepting proxies), each with its HTTP context, through the same checker as a
//! JSONL recording. See cli/README.md, "Checking a HAR".
//!
//! Bounds: the file is read as a stream ([`read`]), twice ([`plan`]: which entries are MCP and
//! the order to check them in; then [`check`]: each entry checked as soon as its turn comes), at
//! most [`FILE_MAX`] bytes; a string in it costs its length while it is read (serde's buffer), a
//! body longer than [`BODY_MAX`] is dropped and reported, and the MCP entries read before their
//! turn are held up to [`HELD_MAX`] bytes (`check --har-held`). A message is kept as its JSON text
//! and parsed only when it is checked, one at a time.

mod check;
mod classify;
mod plan;
mod read;
pub mod text;

use serde::de::IgnoredAny;

pub use check::{check_har, looks_like_har};
use crate::transport::{self, HttpLine, MsgAt, Where};
use read::{StrUpTo, RawBody};
use text::{base64, instant, parse_sse};

/// The most of a HAR file read; past it the file is reported as cut and the entries read are checked.
pub const FILE_MAX: u64 = 1 << 30;
/// The longest body kept (as written in the HAR, base64 included).
pub const BODY_MAX: usize = 128 << 20;
/// The MCP entries held at once by default: those read before their turn to be checked (a later
/// session's while an earlier one is checked, entries out of time order). `check --har-held`.
pub const HELD_MAX: usize = 256 << 20;

/// Counts over one HAR.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HarStats {
    pub entries: usize,
    /// Entries skipped as not MCP (see [`classify`]).
    pub not_mcp: usize,
    /// MCP entries not checked because holding them would have passed the budget.
    pub held_out: usize,
    /// MCP messages handed to the checker.
    pub messages: usize,
    /// Whether the entries were out of time order (then they were sorted).
    pub reordered: bool,
}

/// One body as the HAR had it: its media type and its text, or why it cannot be read.
#[derive(Debug, Clone, Default)]
pub(crate) enum Body {
    #[default]
    Empty,
    Text { mime: String, text: String },
    Bad(String),
}

impl Body {
    fn from_raw(raw: Option<RawBody>, content_type: Option<&str>) -> Body {
        let Some(raw) = raw else { return Body::Empty };
        let mime = raw.mime_type.kept().or(content_type).unwrap_or("").to_ascii_lowercase();
        let text = match raw.text {
            StrUpTo::Absent => return Body::Empty,
            StrUpTo::Long(n) => return Body::Bad(format!("the body is {n} bytes, more than the {BODY_MAX} read; skipped")),
            StrUpTo::Kept(t) => t,
        };
        let text = match raw.encoding.kept() {
            Some(e) if e.eq_ignore_ascii_case("base64") => match base64(&text).map(String::from_utf8) {
                Ok(Ok(t)) => t,
                Ok(Err(e)) => return Body::Bad(format!("the base64 body is not UTF-8 (byte {})", e.utf8_error().valid_up_to() + 1)),
                Err(e) => return Body::Bad(format!("the body is marked base64 but is not: {e}")),
            },
            _ => text,
        };
        if text.trim_start_matches([' ', '\t', '\r', '\n']).is_empty() {
            return Body::Empty;
        }
        Body::Text { mime, text }
    }

    fn weight(&self) -> usize {
        match self {
            Body::Text { mime, text } => mime.len() + text.len(),
            Body::Bad(s) => s.len(),
            Body::Empty => 0,
        }
    }
}

/// An entry as kept: its exchange (the same model as a recording's `http` lines), time and bodies.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The entry's index (`x`, and `line` in findings), method, path, status, session and version header.
    pub at: Where,
    pub query: Option<String>,
    pub req: transport::Headers,
    pub resp: transport::Headers,
    pub started: Option<i128>,
    /// When the exchange ended (`startedDateTime` + `time`), in nanoseconds since 1970.
    pub ended: Option<i128>,
    /// A digest of the URL without its query ([`classify`]).
    pub endpoint: u64,
    pub request: Body,
    pub response: Body,
}

impl Entry {
    /// An exchange of a stateless version: no session, and an `MCP-Protocol-Version` of 2026-07-28 on.
    pub(crate) fn stateless(&self) -> bool {
        self.at.session_id.is_none() && self.req.protocol_version.as_deref().is_some_and(crate::transport::rules::stateless)
    }

    fn from_raw(index: usize, raw: read::RawEntry) -> Entry {
        let started = raw.started_date_time.kept();
        let (method, url, req_headers, post) = raw.request.parts();
        let (status, resp_headers, content) = raw.response.parts();
        let (req_headers, resp_headers) = (req_headers.0, resp_headers.0);
        let (path, query) = url.kept().and_then(url_parts).unzip();
        // The scheme, authority and path (no query: 2024-11-05 names the session there).
        let endpoint = plan::digest(url.kept().map_or("", |u| u.split(['?', '#']).next().unwrap_or(u)));
        let at = Where {
            noun: "entry",
            x: index as u64,
            line: index as u64,
            method: method.kept().map(str::to_string),
            path,
            status,
            // The request's, else the response's (the `initialize` answer assigns it).
            session_id: req_headers.session_id.clone().or_else(|| resp_headers.session_id.clone()),
            protocol_version: req_headers.protocol_version.clone(),
        };
        let started = started.and_then(instant);
        Entry {
            endpoint,
            ended: started.zip(raw.time.0).map(|(t, ms)| t + (ms.min(1e15) * 1e6) as i128),
            started,
            request: Body::from_raw(post, req_headers.content_type.as_deref()),
            response: Body::from_raw(content, resp_headers.content_type.as_deref()),
            at,
            query: query.flatten(),
            req: req_headers,
            resp: resp_headers,
        }
    }

    fn weight(&self) -> usize {
        // A fixed share for the context, so many small entries count too, and the headers kept.
        256 + self.req.weight() + self.resp.weight() + self.query.as_ref().map_or(0, String::len) + self.request.weight() + self.response.weight()
    }

    /// Whether the response is a 2024-11-05 HTTP+SSE stream: a GET whose first SSE event is `endpoint`.
    fn is_legacy_stream(&self, pieces: &[Piece]) -> bool {
        self.at.method.as_deref() == Some("GET") && pieces.iter().find(|p| p.part == Part::Response).and_then(|p| p.sse.as_ref()).is_some_and(|m| m.kind.as_deref() == Some("endpoint"))
    }

    /// What the entry carries, in order: the request body's message, then the response's
    /// (each SSE event, those without a message too).
    pub(crate) fn pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        if let Some(p) = body_piece(&self.request, Part::Request) {
            out.push(p);
        }
        match &self.response {
            Body::Text { mime, text } if is_sse(mime, text) => {
                let sse = parse_sse(text);
                let n = sse.events.len();
                for (i, e) in sse.events.into_iter().enumerate() {
                    let sse = Some(SseMeta { own_id: e.id.clone().filter(|_| e.own_id), kind: e.event, retry: e.retry });
                    // An event with no data (2025-11-25's priming event) carries no message.
                    let (content, data) = if e.data.is_empty() {
                        (Content::Bare, None)
                    } else {
                        // Only checked to be JSON here; parsed when its turn comes, so one message is a tree at a time.
                        match serde_json::from_str::<IgnoredAny>(&e.data) {
                            Ok(_) => (Content::Msg(e.data), None),
                            // Another type than `message` (2024-11-05's `endpoint`) carries no message.
                            Err(_) if sse.as_ref().and_then(|m| m.kind.as_deref()).is_some_and(|k| k != "message") => (Content::Bare, Some(e.data)),
                            Err(err) => (Content::Bad(format!("the event's data is not JSON: {err}")), None),
                        }
                    };
                    out.push(Piece { part: Part::Response, event: Some((i, e.id)), content, sse, data });
                }
                if let Some(r) = sse.lone_retry {
                    // Not an event (no data), but in effect: kept for the transport rules only.
                    out.push(Piece { part: Part::Response, event: Some((n, None)), content: Content::Bare, sse: Some(SseMeta { own_id: None, kind: None, retry: Some(r) }), data: None });
                }
                if let Some(n) = sse.unterminated {
                    out.push(Piece { part: Part::Response, event: None, content: Content::Bad(format!("{UNTERMINATED}: the stream ends inside an event ({n} bytes of data) with no blank line after it; the SSE rules discard it, so it is not checked")), sse: None, data: None });
                }
            }
            body => out.extend(body_piece(body, Part::Response)),
        }
        out
    }

    /// The entry as the transport rules read it: its request, its messages, its response and SSE
    /// events, its end; each finding goes to `found` with its piece's index (`None`: the entry's head
    /// or end). `cancelled`: the requests ([`plan::id_digest`]) the client cancelled while the entry was open.
    pub(crate) fn feed(&self, pieces: &[Piece], cancelled: &[u64], t: &mut transport::Transport, found: &mut Vec<(Option<usize>, crate::vocab::Diag)>) {
        let x = self.at.x;
        t.line = self.at.line;
        let line = |t: &mut transport::Transport, l: HttpLine, found: &mut Vec<_>| found.extend(t.line(&l).diags.into_iter().map(|d| (None, d)));
        line(t, HttpLine::Request { x, method: self.at.method.clone().unwrap_or_default(), path: self.at.path.clone().unwrap_or_default(), query: self.query.clone(), headers: self.req.clone() }, found);
        let mut responded = false;
        let mut complete = true;
        for (i, p) in pieces.iter().enumerate() {
            if p.part == Part::Response && !responded {
                responded = true;
                if let Some(status) = self.status() {
                    line(t, HttpLine::Response { x, status, headers: self.resp.clone() }, found);
                }
            }
            let event = p.event.as_ref().map(|(n, _)| *n as u64);
            let event_id = p.sse.as_ref().and_then(|m| m.own_id.clone());
            match &p.content {
                Content::Msg(text) => {
                    let at = MsgAt { x, part: if p.part == Part::Request { transport::Part::Request } else { transport::Part::Response }, event, event_id };
                    if let Ok(doc) = mcp_spec_types::tree::Doc::parse(text) {
                        found.extend(t.message(&at, doc.root()).diags.into_iter().map(|d| (Some(i), d)));
                    }
                }
                Content::Bare | Content::Bad(_) if event.is_some() => {
                    let m = p.sse.as_ref();
                    // Data that is not JSON is the `json` finding of its piece already.
                    let l = HttpLine::Event { x, event: event.unwrap_or(0), event_id, kind: m.and_then(|m| m.kind.clone()), data: p.data.clone(), retry: m.and_then(|m| m.retry) };
                    found.extend(t.line(&l).diags.into_iter().map(|d| (Some(i), d)));
                }
                Content::Bad(why) => complete &= !why.starts_with(UNTERMINATED),
                Content::Bare => {}
            }
        }
        if !responded {
            if let Some(status) = self.status() {
                line(t, HttpLine::Response { x, status, headers: self.resp.clone() }, found);
            }
        }
        let bytes = match &self.response {
            Body::Text { text, .. } => text.len() as u64,
            _ => 0,
        };
        if !cancelled.is_empty() {
            // Entries are fed whole, so the cancel's own entry comes later: its end rules learn of it here.
            t.cancelled_while_open(x, &|id| cancelled.contains(&plan::id_digest(id)));
        }
        line(t, HttpLine::End { x, bytes: Some(bytes), complete, error: None }, found);
    }

    fn status(&self) -> Option<u16> {
        self.at.status.and_then(|s| u16::try_from(s).ok()).filter(|s| (100..1000).contains(s))
    }
}

/// Marks the finding about an SSE body's unfinished last event (a warning, not an error).
pub(crate) const UNTERMINATED: &str = "unterminated";

fn is_sse(mime: &str, text: &str) -> bool {
    mime.starts_with("text/event-stream") || (!mime.contains("json") && !text.trim_start().starts_with(['{', '[']))
}

fn body_piece(body: &Body, part: Part) -> Option<Piece> {
    let content = match body {
        Body::Empty => return None,
        Body::Bad(why) => Content::Bad(why.clone()),
        Body::Text { text, .. } => {
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            match serde_json::from_str::<IgnoredAny>(text) {
                Ok(_) => Content::Msg(text.to_string()),
                Err(e) => Content::Bad(format!("the body is not JSON: {e}")),
            }
        }
    };
    Some(Piece { part, event: None, content, sse: None, data: None })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Request,
    Response,
}

/// What a piece holds.
#[derive(Debug)]
pub(crate) enum Content {
    /// A message (or batch), as its JSON text (known to parse): a tree only while it is checked.
    Msg(String),
    /// Why a body or event could not be read.
    Bad(String),
    /// An SSE event with no message (a priming event, a 2024-11-05 `endpoint`, a lone `retry`).
    Bare,
}

/// An SSE event's fields the transport rules read.
#[derive(Debug)]
pub(crate) struct SseMeta {
    /// The event's own `id` (not one it kept from an earlier event).
    pub own_id: Option<String>,
    pub kind: Option<String>,
    pub retry: Option<u64>,
}

/// One message (or batch) of an entry, an SSE event without one, or why a body could not be read.
#[derive(Debug)]
pub(crate) struct Piece {
    pub part: Part,
    /// The SSE event's index in its stream and its id (the last one set, as the SSE rules keep it).
    pub event: Option<(usize, Option<String>)>,
    pub content: Content,
    pub sse: Option<SseMeta>,
    /// The data of an event without a message (a 2024-11-05 `endpoint`'s URI).
    pub data: Option<String>,
}

/// The path of an absolute URL (`scheme://authority/path?query`), and its query (without the fragment).
fn url_parts(url: &str) -> Option<(String, Option<String>)> {
    let (_, rest) = url.split_once("://")?;
    let rest = rest.split('#').next().unwrap_or("");
    let (path, query) = match rest.find(['/', '?']) {
        Some(i) if rest.as_bytes()[i] == b'/' => rest[i..].split_once('?').map_or((&rest[i..], None), |(p, q)| (p, Some(q))),
        Some(i) => ("/", Some(&rest[i + 1..])),
        None => ("/", None),
    };
    Some((path.to_string(), query.map(str::to_string)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_paths() {
        let p = |u: &str| url_parts(u).map(|(p, q)| (p, q.unwrap_or_default()));
        assert_eq!(p("http://h:1/mcp?x=1#f"), Some(("/mcp".into(), "x=1".into())));
        assert_eq!(p("https://h"), Some(("/".into(), "".into())));
        assert_eq!(p("https://h?q"), Some(("/".into(), "q".into())));
        assert_eq!(p("/mcp"), None);
    }
}
