//! `check FILE.har`: the MCP messages of an HTTP Archive 1.2 (browsers' developer tools,
//! Playwright, intercepting proxies), each with its HTTP context, through the same checker as a
//! JSONL recording. See cli/README.md, "Checking a HAR".
//!
//! Bounds: the file is read as a stream ([`read`]), at most [`FILE_MAX`] bytes; a string in it
//! costs its length while it is read (serde's buffer), a body longer than [`BODY_MAX`] is dropped
//! and reported, and the MCP bodies kept to put entries in time order total at most [`HELD_MAX`].

mod check;
mod read;
pub mod text;

use serde_json::Value;

pub use check::{check_har, looks_like_har};
use read::{Capped, Headers, RawBody};
use text::{base64, instant, parse_sse};

/// The most of a HAR file read; past it the file is reported as cut and the entries read are checked.
pub const FILE_MAX: u64 = 1 << 30;
/// The longest body kept (as written in the HAR, base64 included).
pub const BODY_MAX: usize = 128 << 20;
/// The MCP bodies held together while the file is read (they are put in time order before checking).
pub const HELD_MAX: usize = 256 << 20;

/// What the HTTP layer said about an entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpContext {
    /// The entry's index in `log.entries` (0-based, as in the pointer `/log/entries/N`); also the stream.
    pub entry: usize,
    pub method: Option<String>,
    /// The URL's path (no query), `None` if the URL is not absolute or too long.
    pub path: Option<String>,
    pub status: Option<i64>,
    /// `Mcp-Session-Id` of the request, else of the response (the `initialize` answer assigns it).
    pub session_id: Option<String>,
    /// `MCP-Protocol-Version` of the request.
    pub protocol_version: Option<String>,
}

/// Why an entry's bodies were not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Not MCP: counted in [`HarStats::not_mcp`].
    NotMcp,
    /// The bodies held already reached [`HELD_MAX`].
    HeldFull,
}

/// Counts over one HAR.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HarStats {
    pub entries: usize,
    /// Entries skipped as not MCP (no JSON-RPC in either body, no MCP header).
    pub not_mcp: usize,
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
            Capped::Absent => return Body::Empty,
            Capped::Long(n) => return Body::Bad(format!("the body is {n} bytes, more than the {BODY_MAX} read; skipped")),
            Capped::Kept(t) => t,
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

    fn has_jsonrpc(&self) -> bool {
        matches!(self, Body::Text { text, .. } if memchr::memmem::find(text.as_bytes(), b"\"jsonrpc\"").is_some())
    }
}

/// An entry as kept: its context, time and bodies.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub ctx: HttpContext,
    pub started: Option<i128>,
    pub request: Body,
    pub response: Body,
    pub skip: Option<Skip>,
}

impl Entry {
    fn from_raw(index: usize, started: Option<&str>, req: read::Request, resp: read::Response) -> Entry {
        let (method, url, req_headers, post) = req.parts();
        let (status, resp_headers, content) = resp.parts();
        let path = url.kept().and_then(url_path);
        let ctx = HttpContext {
            entry: index,
            method: method.kept().map(str::to_string),
            path,
            status,
            session_id: req_headers.session_id.clone().or_else(|| resp_headers.session_id.clone()),
            protocol_version: req_headers.protocol_version.clone(),
        };
        Entry {
            started: started.and_then(instant),
            request: Body::from_raw(post, req_headers.content_type.as_deref()),
            response: Body::from_raw(content, resp_headers.content_type.as_deref()),
            skip: None,
            ctx,
        }
        .with_headers(&req_headers)
    }

    fn with_headers(mut self, req: &Headers) -> Entry {
        // A request that names a session or a version is MCP even with no JSON-RPC body (a GET stream, a DELETE).
        if req.session_id.is_none() && req.protocol_version.is_none() && !self.request.has_jsonrpc() && !self.response.has_jsonrpc() {
            self.skip = Some(Skip::NotMcp);
        }
        self
    }

    fn is_mcp(&self) -> bool {
        self.skip != Some(Skip::NotMcp)
    }

    fn weight(&self) -> usize {
        // A fixed share for the context, so many small entries count too.
        256 + self.request.weight() + self.response.weight()
    }

    fn drop_bodies(&mut self, why: Skip) {
        self.request = Body::Empty;
        self.response = Body::Empty;
        self.skip = Some(why);
    }

    /// What the entry carries, in order: the request body's message, then the response's.
    pub(crate) fn pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        if let Some(p) = body_piece(&self.request, Part::Request) {
            out.push(p);
        }
        match &self.response {
            Body::Text { mime, text } if is_sse(mime, text) => {
                let sse = parse_sse(text);
                for (i, e) in sse.events.into_iter().enumerate() {
                    // An event with no data (2025-11-25's priming event) carries no message.
                    if e.data.is_empty() {
                        continue;
                    }
                    let value = serde_json::from_str::<Value>(&e.data).map_err(|err| format!("the event's data is not JSON: {err}"));
                    out.push(Piece { part: Part::Response, event: Some((i, e.id)), value });
                }
                if let Some(n) = sse.unterminated {
                    out.push(Piece { part: Part::Response, event: None, value: Err(format!("{UNTERMINATED}: the stream ends inside an event ({n} bytes of data) with no blank line after it; the SSE rules discard it, so it is not checked")) });
                }
            }
            body => out.extend(body_piece(body, Part::Response)),
        }
        out
    }
}

/// Marks the finding about an SSE body's unfinished last event (a warning, not an error).
pub(crate) const UNTERMINATED: &str = "unterminated";

fn is_sse(mime: &str, text: &str) -> bool {
    mime.starts_with("text/event-stream") || (!mime.contains("json") && !text.trim_start().starts_with(['{', '[']))
}

fn body_piece(body: &Body, part: Part) -> Option<Piece> {
    match body {
        Body::Empty => None,
        Body::Bad(why) => Some(Piece { part, event: None, value: Err(why.clone()) }),
        Body::Text { text, .. } => {
            let value = serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text)).map_err(|e| format!("the body is not JSON: {e}"));
            Some(Piece { part, event: None, value })
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Request,
    Response,
}

/// One message (or batch) of an entry, or why a body could not be read.
#[derive(Debug)]
pub(crate) struct Piece {
    pub part: Part,
    /// The SSE event's index in its stream and its id.
    pub event: Option<(usize, Option<String>)>,
    pub value: Result<Value, String>,
}

/// The path of an absolute URL (`scheme://authority/path?query`), without the query or fragment.
fn url_path(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let path = match rest.find(['/', '?', '#']) {
        Some(i) if rest.as_bytes()[i] == b'/' => &rest[i..],
        _ => "/",
    };
    let end = path.find(['?', '#']).unwrap_or(path.len());
    Some(path[..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_paths() {
        assert_eq!(url_path("http://h:1/mcp?x=1#f").as_deref(), Some("/mcp"));
        assert_eq!(url_path("https://h").as_deref(), Some("/"));
        assert_eq!(url_path("https://h?q").as_deref(), Some("/"));
        assert_eq!(url_path("/mcp"), None);
    }
}
