//! The project's checker behind the seam: [`McpChecks`] makes one `mcp_spec_check` checker per
//! stream and feeds it the exchanges as a recording's lines describe them (cli/README.md,
//! "Recording with HTTP context"), so every rule `mcp-schema check` applies to a recording with
//! HTTP context applies here: the message rules of each version, the session rules, and the
//! transport rules (2026-07-28's headers mirrored from the body among them).

use http::{HeaderMap, StatusCode};
use mcp_spec_check::check::{Checker, Outcome};
use mcp_spec_check::settings::Settings;
use mcp_spec_check::transport::Headers;
use mcp_spec_types::tree::Node;
use serde_json::{json, Map, Value};

use crate::inspect::{Checks, Direction, Event, Finding, RequestHead, Stream};

/// Checks with `mcp_spec_check`'s checker, as `settings` say (the defaults: the version each
/// session negotiates, no extension, warnings as warnings).
#[derive(Debug, Clone, Default)]
pub struct McpChecks {
    pub settings: Settings,
}

impl Checks for McpChecks {
    fn stream(&self) -> Box<dyn Stream> {
        Box::new(McpStream { checker: Checker::new(&self.settings), line: 0 })
    }
}

/// One checker and the number of the last line it was fed.
pub struct McpStream {
    checker: Checker,
    line: u64,
}

impl McpStream {
    fn feed(&mut self, line: &[u8], strip: &str) -> Vec<Finding> {
        self.line += 1;
        self.checker.check_line(line, self.line).map_or_else(Vec::new, |out| findings(out, strip))
    }

    fn http(&mut self, o: Value) -> Vec<Finding> {
        self.feed(json!({ "http": o }).to_string().as_bytes(), "")
    }
}

/// The outcome's findings, their pointers made relative to the message (`strip`: the wrapper's `/msg`).
fn findings(out: Outcome, strip: &str) -> Vec<Finding> {
    out.diags
        .into_iter()
        .map(|d| {
            let pointer = match d.pointer.strip_prefix(strip) {
                Some(p) if !strip.is_empty() => p.to_string(),
                _ => d.pointer,
            };
            Finding { rule: d.rule, severity: d.severity, pointer, message: d.message }
        })
        .collect()
}

/// The headers the transport rules read (no other: `authorization`, `cookie` stay out).
fn kept(headers: &HeaderMap) -> Map<String, Value> {
    let mut out = Map::new();
    for (name, value) in headers {
        let name = name.as_str();
        if Headers::default().slot(name).is_none() && !name.starts_with("mcp-param-") {
            continue;
        }
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        match out.get_mut(name) {
            Some(Value::String(s)) => {
                s.push_str(", ");
                s.push_str(&value);
            }
            _ => {
                out.insert(name.to_string(), Value::String(value));
            }
        }
    }
    out
}

impl Stream for McpStream {
    fn request(&mut self, x: u64, head: RequestHead<'_>) -> Vec<Finding> {
        let mut o = json!({"x": x, "at": "request", "method": head.method.as_str(), "path": head.uri.path(), "headers": kept(head.headers)});
        if let Some(q) = head.uri.query() {
            o["query"] = json!(q);
        }
        self.http(o)
    }

    fn message(&mut self, x: u64, dir: Direction, body: Node<'_>, event: Option<Event<'_>>) -> Vec<Finding> {
        let (name, part) = match dir {
            Direction::ClientToServer => ("c2s", "request"),
            Direction::ServerToClient => ("s2c", "response"),
        };
        let mut http = json!({"x": x, "part": part});
        if let Some(e) = event {
            http["event"] = json!(e.index);
            if let Some(id) = e.id {
                http["eventId"] = json!(id);
            }
        }
        let text = body.json_text();
        let mut line = String::with_capacity(text.len() + 96);
        line.push_str("{\"dir\":\"");
        line.push_str(name);
        line.push_str("\",\"msg\":");
        line.push_str(text);
        line.push_str(",\"http\":");
        line.push_str(&http.to_string());
        line.push('}');
        self.feed(line.as_bytes(), "/msg")
    }

    fn response(&mut self, x: u64, status: StatusCode, headers: &HeaderMap) -> Vec<Finding> {
        self.http(json!({"x": x, "at": "response", "status": status.as_u16(), "headers": kept(headers)}))
    }

    fn event(&mut self, x: u64, e: Event<'_>) -> Vec<Finding> {
        let mut o = json!({"x": x, "at": "event", "event": e.index});
        if let Some(id) = e.id {
            o["eventId"] = json!(id);
        }
        if let Some(k) = e.kind {
            o["type"] = json!(k);
        }
        if !e.data.is_empty() {
            o["data"] = json!(e.data);
        }
        if let Some(r) = e.retry {
            o["retry"] = json!(r);
        }
        self.http(o)
    }

    fn end(&mut self, x: u64, bytes: u64, complete: bool) -> Vec<Finding> {
        self.http(json!({"x": x, "at": "end", "bytes": bytes, "complete": complete}))
    }
}
