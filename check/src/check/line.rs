//! Reading a line: its wrapper keys (`dir`, `protocol`, `leg`, `type`, `http`), HTTP context lines, and
//! the value inside, handed to the message or document checks.

use mcp_spec_types::tree::{Doc, Node, Object};
use mcp_spec_types::validate::describe;
use serde_json::Value;

use super::{escape_pointer, unknown_version, AppsSide, Checker, Diag, Direction, Leg, Outcome};
use crate::input::MAX_LINE;
use crate::rules::stream::{CHECKER_INTERNAL, LINE_BOM, LINE_DIR, LINE_HTTP, LINE_JSON, LINE_KEY, LINE_LEG, LINE_TOO_LONG, LINE_TYPE, LINE_UNTERMINATED, LINE_UTF8, STREAM_PROTOCOL};
use crate::bounded::clip;
use crate::transport::jsonl::Http;
use crate::transport::{self, HttpLine, MsgAt};
use crate::versions::version_index;

impl Checker {
    /// Checks one JSONL line (without its `\n`). `None` for a blank line.
    pub fn check_line(&mut self, bytes: &[u8], line: u64) -> Option<Outcome> {
        let mut out = Outcome { line, ..Outcome::default() };
        let (_, Some(text)) = line_text(bytes, &mut out) else { return Some(out) };
        if text.trim_start_matches([' ', '\t', '\r', '\n']).is_empty() {
            return None;
        }
        // Parsed once into the compact tree (its text plus 8 bytes per value and key), which every
        // check below walks: no `Value` of the whole line is built.
        match Doc::parse(text) {
            Ok(doc) if is_http_line(doc.root()) => {
                let value = doc.root();
                // A bridge's HTTP lines belong to their leg's exchanges (`proxy --http --to`).
                match value.get("leg").and_then(Node::as_str) {
                    Some("client") => self.switch_leg(Leg::Client),
                    Some("server") => self.switch_leg(Leg::Server),
                    _ => {}
                }
                return self.http_line(value.get("http").expect("an HTTP line has `http`"), out);
            }
            Ok(doc) => {
                let value = doc.root();
                let bridged = bridged(value);
                self.check_node_guarded(value, &mut out);
                if let Some((received, dir)) = bridged {
                    self.once_per_bridge(received, dir, &mut out);
                }
            }
            Err(e) => out.diags.push(not_json(e)),
        }
        Some(out)
    }

    /// Checks a line a proxy saw travel `dir` (its bytes, without the `\n`), through the same
    /// first steps as [`Checker::check_line`], then as the recording's line `{"dir": DIR, "msg":
    /// LINE}`: `too_long`, the length of a line past [`MAX_LINE`] (not kept, so not checked);
    /// `terminated`, whether a `\n` ended it.
    pub fn check_received(&mut self, dir: Direction, bytes: &[u8], too_long: Option<usize>, terminated: bool, line: u64) -> Outcome {
        let mut out = Outcome { line, ..Outcome::default() };
        if let Some(len) = too_long {
            out.diags.push(Diag::of(&LINE_TOO_LONG, "", format!("line too long: {len} bytes (at most {MAX_LINE} are kept); passed on unchecked")));
        } else {
            let (bom, text) = line_text(bytes, &mut out);
            // The same tree and the same code as `check` reading the recording's line.
            match text.map(Doc::parse) {
                Some(Ok(msg)) => out = self.check_wrapped(dir, msg.root(), line),
                Some(Err(e)) => out.diags.push(not_json(e)),
                None => {}
            }
            if bom {
                let message = "the line starts with a byte order mark (U+FEFF): JSON text sent over a network must not (RFC 8259, 8.1), and a receiver may reject the line; checked as the message after the mark";
                out.diags.insert(0, Diag::of(&LINE_BOM, "", message));
            }
        }
        if !terminated {
            let message = "the stream ended inside this line: no `\\n` after it, so the receiver may never read it";
            out.diags.push(self.types.rule(&LINE_UNTERMINATED, "", message.to_string()));
        }
        out
    }

    /// A bridge recording holds each message the bridge passed on twice: as it came in (with
    /// `bridge`, its verdict) and as it went out on the other leg, converted. A finding on the
    /// message itself (the client's arguments, say) is reported once, where it came in.
    fn once_per_bridge(&mut self, received: bool, dir: String, out: &mut Outcome) {
        if received {
            self.relayed = Some((dir, out.diags.iter().map(|d| (d.rule, d.pointer.clone())).collect()));
        } else if let Some((came, found)) = &self.relayed {
            if *came == dir {
                out.diags.retain(|d| !found.iter().any(|(rule, pointer)| *rule == d.rule && *pointer == d.pointer));
            }
        }
    }

    /// A recording's line of HTTP context: `None` (not counted) unless a transport rule reports on it.
    pub(super) fn http_line(&mut self, http: Node<'_>, mut out: Outcome) -> Option<Outcome> {
        match transport::jsonl::read(http, false) {
            Ok(Http::Line(l)) => {
                let line = out.line;
                out = self.http(&l, line);
                if out.diags.is_empty() {
                    return None;
                }
            }
            Ok(Http::Message(_)) => unreachable!("read without a message gives a line"),
            Err(e) => out.diags.push(Diag::of(&LINE_HTTP, "/http", e)),
        }
        Some(out)
    }

    /// Feeds one piece of HTTP context (a request's head, a response's head, an SSE event that
    /// carried no message, the end of an exchange) as line `line` of the stream: what the transport
    /// rules find on it (often nothing). What a proxy or a middleware calls, in the order the
    /// pieces happen, with the messages between them through [`Checker::message_at`].
    pub fn http(&mut self, l: &HttpLine, line: u64) -> Outcome {
        let mut out = Outcome { line, ..Outcome::default() };
        self.stream.transport.line = line;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.stream.transport.line(l)));
        if let HttpLine::End { x, .. } = l {
            self.end_exchange(*x);
        }
        let f = match r {
            Ok(f) => f,
            Err(p) => {
                out.diags.push(panicked(p));
                return out;
            }
        };
        if f.diags.is_empty() {
            return out;
        }
        let event = match l {
            HttpLine::Event { event, event_id, .. } => Some((*event, event_id.as_deref())),
            _ => None,
        };
        let part = match l {
            HttpLine::Event { .. } => Some(transport::Part::Response),
            _ => None,
        };
        out.place = Some(f.at.place(part, event));
        out.http = Some(f.at.http(part, event));
        out.diags = f.diags.into_iter().map(|d| self.types.strictly(d)).collect();
        self.bound(&mut out);
        out
    }

    /// Checks `msg`, which travelled `dir` in the HTTP exchange and part `at` names, as line `line`
    /// of the stream: the transport rules on it (the 2026-07-28 mirrored headers, the SSE rules),
    /// then every rule on the message. The same findings as for the recording line `{"dir": DIR,
    /// "msg": MSG, "http": AT}`, but with pointers into the message itself (no `/msg` before them)
    /// and without writing or reading that line.
    pub fn message_at(&mut self, dir: Direction, msg: Node<'_>, at: &MsgAt, line: u64) -> Outcome {
        let mut out = Outcome { line, ..Outcome::default() };
        self.guarded(msg.doc().text(), &mut out, |c, out| {
            c.stream.transport.line = line;
            let f = c.stream.transport.message(at, msg);
            let event = at.event.map(|i| (i, at.event_id.as_deref()));
            out.place = Some(f.at.place(Some(at.part), event));
            out.http = Some(f.at.http(Some(at.part), event));
            out.diags.extend(f.diags.into_iter().map(|d| c.types.strictly(d)));
            let restore = c.scope_for(Some(at.x), at.part, msg);
            c.check_parts(Wrapper { dir: Some(dir), ..Wrapper::default() }, msg, "", out);
            c.restore(restore);
        });
        out
    }

    /// Checks an already parsed value (a `.json` file's, a HAR entry's wrapper): through its tree.
    pub fn check_value(&mut self, value: Value, line: u64) -> Outcome {
        let doc = Doc::from_value(&value);
        drop(value);
        self.check_node(doc.root(), line)
    }

    /// Checks one value of a tree as a line holding it.
    pub fn check_node(&mut self, value: Node<'_>, line: u64) -> Outcome {
        let mut out = Outcome { line, ..Outcome::default() };
        self.check_node_guarded(value, &mut out);
        out
    }

    /// Checks `msg` as the line `{"dir": DIR, "msg": MSG}` (the proxy's recording of a line that
    /// travelled `dir`), without building that line.
    pub fn check_wrapped(&mut self, dir: Direction, msg: Node<'_>, line: u64) -> Outcome {
        let mut out = Outcome { line, ..Outcome::default() };
        self.guarded(msg.doc().text(), &mut out, |c, out| c.check_parts(Wrapper { dir: Some(dir), ..Wrapper::default() }, msg, "/msg", out));
        out
    }

    pub(super) fn check_node_guarded(&mut self, value: Node<'_>, out: &mut Outcome) {
        self.guarded(value.doc().text(), out, |c, out| c.check_node_inner(value, out));
    }

    /// Runs `f` on a line whose text is `text`, which is weighed first: one whose `Value` tree would
    /// pass its budget is not read typed (typed.rs).
    fn guarded(&mut self, text: &str, out: &mut Outcome, f: impl FnOnce(&mut Checker, &mut Outcome)) {
        self.types.too_costly = crate::cost::check(text.as_bytes()).err();
        // A panic is reported on its line (`panicked`); the next line is checked as usual.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self, out)));
        if let Err(p) = r {
            out.diags.push(panicked(p));
        }
        self.bound(out);
    }

    fn check_node_inner(&mut self, value: Node<'_>, out: &mut Outcome) {
        let Some(o) = value.as_object().filter(|o| o.contains_key("msg") && !o.contains_key("jsonrpc")) else {
            self.leave_exchange();
            return self.check_parts(Wrapper::default(), value, "", out);
        };
        // A key no wrapper has may mean a message with a `msg` key that lacks `jsonrpc` (in the
        // order a `Value` has them: sorted).
        let mut unknown: Vec<&str> = o.keys().filter(|k| !WRAPPER_KEYS.contains(k)).collect();
        unknown.sort_unstable();
        for k in unknown {
            let msg = format!("`{}` is not a wrapper key ({}); a message with a `msg` key needs `jsonrpc` to be read as one", clip(k), WRAPPER_KEYS.join(", "));
            out.diags.push(self.types.rule(&LINE_KEY, &format!("/{}", escape_pointer(k)), msg));
        }
        let Some(wrapper) = self.wrapper(o, out) else { return };
        let msg = o.get("msg").expect("a wrapper has `msg`");
        let mut restore = None;
        let mut x = None;
        if let Some(h) = o.get("http") {
            match transport::jsonl::read(h, true) {
                Ok(Http::Message(at)) => {
                    self.stream.transport.line = out.line;
                    let f = self.stream.transport.message(&at, msg);
                    let event = at.event.map(|i| (i, at.event_id.as_deref()));
                    out.place = Some(f.at.place(Some(at.part), event));
                    out.http = Some(f.at.http(Some(at.part), event));
                    out.diags.extend(f.diags.into_iter().map(|d| self.types.strictly(d)));
                    x = Some(at.x);
                    restore = self.scope_for(x, at.part, msg);
                }
                Ok(Http::Line(_)) => unreachable!("read with a message gives a message"),
                Err(e) => out.diags.push(Diag::of(&LINE_HTTP, "/http", e)),
            }
        }
        if x.is_none() {
            self.leave_exchange();
        }
        self.check_parts(wrapper, msg, "/msg", out);
        self.restore(restore);
    }

    /// A wrapper's keys (`dir`, `protocol`, `leg`, `type`); `None` when one is wrong (reported).
    fn wrapper(&mut self, o: Object<'_>, out: &mut Outcome) -> Option<Wrapper> {
        let mut w = Wrapper::default();
        let mut bad = false;
        if let Some(d) = o.get("dir") {
            match d.as_str() {
                Some("c2s") => w.dir = Some(Direction::ClientToServer),
                Some("s2c") => w.dir = Some(Direction::ServerToClient),
                Some(s @ ("view2host" | "host2view")) => {
                    if self.apps.is_some() {
                        w.apps_side = Some(if s == "view2host" { AppsSide::View } else { AppsSide::Host });
                    } else {
                        bad = true;
                        out.diags.push(Diag::of(&LINE_DIR, "/dir", format!("`dir` \"{}\" is a line of the MCP Apps view<->host channel: check with `--ext apps`", clip(s))));
                    }
                }
                _ => {
                    bad = true;
                    let apps = if self.apps.is_some() { ", \"view2host\" or \"host2view\"" } else { "" };
                    out.diags.push(Diag::of(&LINE_DIR, "/dir", format!("`dir` must be \"c2s\" or \"s2c\"{apps}, found {}", describe(d))));
                }
            }
        }
        if let Some(p) = o.get("protocol") {
            match p.as_str() {
                Some(s) => match version_index(s) {
                    Some(i) => w.line_protocol = Some(i),
                    None => {
                        bad = true;
                        out.diags.push(Diag::of(&STREAM_PROTOCOL, "/protocol", unknown_version(s)));
                    }
                },
                None => {
                    bad = true;
                    out.diags.push(Diag::of(&STREAM_PROTOCOL, "/protocol", format!("`protocol` must be a version string, found {}", describe(p))));
                }
            }
        }
        if let Some(l) = o.get("leg") {
            match l.as_str() {
                Some("client") => self.switch_leg(Leg::Client),
                Some("server") => self.switch_leg(Leg::Server),
                _ => {
                    bad = true;
                    out.diags.push(Diag::of(&LINE_LEG, "/leg", format!("`leg` must be \"client\" or \"server\" (a bridge recording's two streams), found {}", describe(l))));
                }
            }
        }
        if let Some(t) = o.get("type") {
            match t.as_str() {
                Some(s) => w.line_type = Some(s.to_string()),
                None => {
                    bad = true;
                    out.diags.push(Diag::of(&LINE_TYPE, "/type", format!("`type` must be a type name, found {}", describe(t))));
                }
            }
        }
        (!bad).then_some(w)
    }

    /// The message (or document) of a line, with what its wrapper said.
    fn check_parts(&mut self, w: Wrapper, value: Node<'_>, prefix: &str, out: &mut Outcome) {
        if let (Some(side), None) = (w.apps_side, &w.line_type) {
            // The MCP Apps view<->host channel: typed by the channel (apps.rs), then its session rules.
            let Some(apps) = &mut self.apps else { return };
            if let Some((o, wrong_side, answered)) = apps.check(&self.types, &self.session, side, value, prefix, out) {
                self.session.observe_apps(side, o, prefix, wrong_side, answered, out);
            }
            return;
        }
        match w.line_type.as_deref().or(self.type_name.as_deref()) {
            Some(ty) => {
                let ty = ty.to_string();
                let v = self.typing().pick(w.line_protocol, None);
                self.types.check_document(v, &ty, value, prefix, out);
            }
            None => self.check_message(w.line_protocol, w.dir, value, prefix, out),
        }
    }
}

/// A panic is a bug in the checker or the generated crate, never a verdict on the input: the
/// finding `internal` on its line.
/// Whether a line starts with a byte order mark, and its text after the mark; `None`, with the
/// finding, when it is not UTF-8.
fn line_text<'b>(bytes: &'b [u8], out: &mut Outcome) -> (bool, Option<&'b str>) {
    const BOM: &[u8] = "\u{feff}".as_bytes();
    let (bom, rest) = bytes.strip_prefix(BOM).map_or((false, bytes), |rest| (true, rest));
    match std::str::from_utf8(rest) {
        Ok(t) => (bom, Some(t)),
        Err(e) => {
            let at = e.valid_up_to() + if bom { BOM.len() } else { 0 };
            out.diags.push(Diag::of(&LINE_UTF8, "", format!("not UTF-8: invalid byte sequence at byte {} of the line", at + 1)));
            (bom, None)
        }
    }
}

fn not_json(e: impl std::fmt::Display) -> Diag {
    Diag::of(&LINE_JSON, "", format!("not JSON: {e}"))
}

fn panicked(p: Box<dyn std::any::Any + Send>) -> Diag {
    let what = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default();
    Diag::of(&CHECKER_INTERNAL, "", format!("the checker panicked on this value (a bug): {what}"))
}

/// The wrapper keys a JSONL line may have around its message.
/// `leg` and `bridge`: a bridge recording's (`proxy --to`); `bridge` is the verdict, not checked.
/// `http`: what the HTTP layer said (`proxy --http`).
pub(super) const WRAPPER_KEYS: [&str; 7] = ["msg", "dir", "protocol", "type", "leg", "bridge", "http"];

/// What a line's wrapper says of its message.
#[derive(Default)]
struct Wrapper {
    dir: Option<Direction>,
    line_protocol: Option<usize>,
    line_type: Option<String>,
    apps_side: Option<AppsSide>,
}

/// A bridge recording's message line (`leg`): whether the bridge received it (`bridge`), and its `dir`.
fn bridged(value: Node<'_>) -> Option<(bool, String)> {
    let o = value.as_object()?;
    o.get("leg")?;
    Some((o.contains_key("bridge"), o.get("dir").and_then(Node::as_str).unwrap_or("").to_string()))
}

/// A line of HTTP context only: an `http` object with `at`, and no message (a document or message
/// that merely has an `http` key is checked as before).
pub(super) fn is_http_line(v: Node<'_>) -> bool {
    v.get("http").is_some_and(|h| h.get("at").is_some()) && v.get("msg").is_none() && v.get("jsonrpc").is_none()
}
