//! The project's checker behind the seam: [`McpChecks`] makes one `mcp_spec_check` [`Checker`] per
//! stream, within the layer's per-session bytes ([`CheckLimits::within`]), and feeds it each
//! exchange as it happens ([`Checker::http`], [`Checker::message_at`]): every rule `mcp-schema
//! check` applies to a recording with HTTP context applies here, the message rules of each
//! version, the session rules, and the transport rules (2026-07-28's headers mirrored from the body
//! among them).

use http::{HeaderMap, StatusCode};
use mcp_spec_check::check::{Checker, Outcome};
use mcp_spec_check::settings::{Limits as CheckLimits, Protocol, Settings};
use mcp_spec_check::transport::{Headers, HttpLine, MsgAt, Part};
use mcp_spec_check::versions::version_index;
use mcp_spec_types::tree::Node;

use crate::config::Limits;
use crate::inspect::{Checks, Direction, Event, Finding, RequestHead, Stream};

/// The first version whose requests carry their version in `_meta` (the checker reads it there).
const PER_REQUEST_VERSION: &str = "2026-07-28";

/// Checks with `mcp_spec_check`'s checker, as `settings` say (the defaults: the version each
/// session negotiates, no extension, warnings as warnings). Its `limits` are the layer's:
/// [`Limits::session_bytes`] per stream.
#[derive(Debug, Clone, Default)]
pub struct McpChecks {
    pub settings: Settings,
}

impl Checks for McpChecks {
    fn stream(&self, limits: &Limits, version: Option<&str>) -> Box<dyn Stream> {
        let mut settings = Settings { limits: CheckLimits::within(limits.session_bytes), ..self.settings.clone() };
        // A stream that starts without an `initialize` (one exchange's, a session this layer did not
        // see open) is checked as the earlier version its header names (2026-07-28's requests name
        // theirs in `_meta`).
        if let (Protocol::Auto, Some(v)) = (settings.protocol, version.filter(|v| v.starts_with(|c: char| c.is_ascii_digit()) && *v < PER_REQUEST_VERSION)) {
            if let Some(i) = version_index(v) {
                settings.protocol = Protocol::Fixed(i);
            }
        }
        let weight = settings.limits.worst_case();
        Box::new(McpStream { checker: Checker::new(settings), line: 0, weight })
    }
}

/// One checker, the number of the last line it was fed, and the most its state can hold.
pub struct McpStream {
    checker: Checker,
    line: u64,
    weight: usize,
}

impl McpStream {
    fn next_line(&mut self) -> u64 {
        self.line += 1;
        self.line
    }

    fn http(&mut self, l: HttpLine) -> Vec<Finding> {
        let n = self.next_line();
        findings(self.checker.http(&l, n))
    }
}

fn findings(out: Outcome) -> Vec<Finding> {
    out.diags.into_iter().map(|d| Finding { rule: d.rule, severity: d.severity, pointer: d.pointer, message: d.message }).collect()
}

/// The headers as the transport rules keep them (the rest are dropped by [`Headers::add`]).
fn headers(map: &HeaderMap) -> Headers {
    let mut h = Headers::default();
    for (name, value) in map {
        h.add(name.as_str(), &String::from_utf8_lossy(value.as_bytes()));
    }
    h
}

impl Stream for McpStream {
    fn request(&mut self, x: u64, head: RequestHead<'_>) -> Vec<Finding> {
        let (method, path, query) = (head.method.as_str().to_string(), head.uri.path().to_string(), head.uri.query().map(str::to_string));
        self.http(HttpLine::Request { x, method, path, query, headers: headers(head.headers) })
    }

    fn message(&mut self, x: u64, dir: Direction, body: Node<'_>, event: Option<Event<'_>>) -> Vec<Finding> {
        let (dir, part) = match dir {
            Direction::ClientToServer => (mcp_spec_check::check::Direction::ClientToServer, Part::Request),
            Direction::ServerToClient => (mcp_spec_check::check::Direction::ServerToClient, Part::Response),
        };
        let at = MsgAt { x, part, event: event.map(|e| e.index), event_id: event.and_then(|e| e.id.map(str::to_string)) };
        let n = self.next_line();
        findings(self.checker.message_at(dir, body, &at, n))
    }

    fn response(&mut self, x: u64, status: StatusCode, map: &HeaderMap) -> Vec<Finding> {
        self.http(HttpLine::Response { x, status: status.as_u16(), headers: headers(map) })
    }

    fn event(&mut self, x: u64, e: Event<'_>) -> Vec<Finding> {
        let data = Some(e.data.to_string()).filter(|d| !d.is_empty());
        self.http(HttpLine::Event { x, event: e.index, event_id: e.id.map(str::to_string), kind: e.kind.map(str::to_string), data, retry: e.retry })
    }

    fn end(&mut self, x: u64, bytes: u64, complete: bool) -> Vec<Finding> {
        let error = (!complete).then(|| "the body stopped before its end".to_string());
        self.http(HttpLine::End { x, bytes: Some(bytes), complete, error })
    }

    fn finish(&mut self) -> Vec<Finding> {
        let mut out: Vec<Finding> = self.checker.finish_transport().into_iter().flat_map(findings).collect();
        out.extend(self.checker.finish_stream().outcomes.into_iter().flat_map(findings));
        out
    }

    fn weight(&self) -> usize {
        self.weight
    }
}
