//! One message at a time: the source checked as `check` checks it, then converted to the target by
//! the generated conversions (`mcp_spec_types::convert`, [`retype`]). What the source fails, or the
//! target cannot hold, is reported with its JSON pointer and rule, and the message is left out of the
//! output. The versions a message names itself (an `initialize` answer, the `_meta` protocol version
//! key, a wrapper line's `protocol`) follow the conversion, so converting there and back gives the
//! original.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

use mcp_spec_types::convert::convert_json;
use mcp_spec_types::negotiate::{Direction, PROTOCOL_VERSION_META_KEY};
use mcp_spec_types::tree::{Doc, Kind, Node};
use mcp_spec_types::validate::{Options, Severity};
use serde_json::Value;

use super::rules::{BATCH, DIRECTION, METHOD, REFUSED, RESPONSE, SOURCE, TARGET_INVALID, TYPE};
use super::ConvertArgs;
use crate::args::{CheckArgs, Protocol};
use crate::check::Checker;
use crate::rules::stream::LINE_TOO_COSTLY;
use crate::vocab::{Diag, Outcome, PENDING_CAP};
use crate::versions::{version_index, versioned, Extension, Info, Side, LATEST, EXTENSIONS, VERSIONS};

/// What converting one line gave.
#[derive(Debug, Clone)]
pub struct Converted {
    /// The line's value in the target version, in the line's format; `None` when it was refused.
    pub value: Option<Value>,
    /// The source's findings (warnings too), then why the conversion was refused; capped like
    /// `check`'s (`--max-findings`).
    pub outcome: Outcome,
}

/// A refusal: an error finding.
fn refuse(pointer: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Diag {
    Diag { pointer: pointer.into(), rule, severity: Severity::Error, message: message.into() }
}

/// Keeps a finding within `max` per value; past it, only counts it (memory stays bounded).
fn push(out: &mut Outcome, max: usize, d: Diag) {
    if out.diags.len() < max {
        out.diags.push(d);
    } else {
        out.omitted += 1;
        out.omitted_errors += usize::from(d.severity == Severity::Error);
    }
}

/// A request seen in the stream, for typing (or refusing) its answer.
struct Sent {
    /// The method, if the source version defines it.
    method: Option<&'static str>,
    line: u64,
    /// Why the target cannot carry the request (the rule and the reason), and so neither its answer.
    refused: Option<(&'static str, String)>,
    /// An extension's request that went on unchanged (Skills): its answer does too.
    passes: bool,
}

/// Requests waiting for an answer, by (direction of the request, id), bounded like `check`'s: past
/// [`PENDING_CAP`] the oldest is forgotten, and a long id is kept as its length and hash.
#[derive(Default)]
struct Pending {
    map: HashMap<(Option<Direction>, String), Sent>,
    order: VecDeque<(Option<Direction>, String)>,
}

/// An id as a bounded key: its JSON text, or past 64 bytes its length and hash.
fn id_key(id: &Value) -> String {
    let text = id.to_string();
    if text.len() <= 64 {
        return text;
    }
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    format!("#{}:{:016x}", text.len(), h.finish())
}

impl Pending {
    fn insert(&mut self, dir: Option<Direction>, id: &Value, sent: Sent) {
        let key = (dir, id_key(id));
        if self.map.insert(key.clone(), sent).is_none() {
            self.order.push_back(key);
        }
        while self.map.len() > PENDING_CAP {
            match self.order.pop_front() {
                Some(k) => drop(self.map.remove(&k)),
                None => break,
            }
        }
        // Keys of answered requests linger in `order`; drop them once they dominate.
        if self.order.len() > 2 * PENDING_CAP {
            let map = &self.map;
            self.order.retain(|k| map.contains_key(k));
        }
    }

    /// The request a response (travelling `dir`) answers, which is then answered.
    fn answered(&mut self, dir: Option<Direction>, id: Option<&Value>) -> Option<Sent> {
        let id = id_key(id?);
        // A request of unknown direction answers a response of any direction, and a response of
        // unknown direction a request of any.
        let dirs: &[Option<Direction>] = match dir {
            Some(Direction::ClientToServer) => &[Some(Direction::ServerToClient), None],
            Some(Direction::ServerToClient) => &[Some(Direction::ClientToServer), None],
            None => &[None, Some(Direction::ClientToServer), Some(Direction::ServerToClient)],
        };
        dirs.iter().find_map(|&d| self.map.remove(&(d, id.clone())))
    }
}

/// The tables of every version, built once, and the stream's state.
pub struct Converter {
    infos: Vec<Info>,
    to: usize,
    from: Option<usize>,
    latest: usize,
    max_findings: usize,
    /// Checks each source line exactly as `check --protocol FROM` would (and follows the stream's version).
    checker: Checker,
    // Stream state, reset per file.
    pending: Pending,
    line: u64,
    /// The line passed the checker, which read it as its source type already.
    read: bool,
    /// The line failed the checker: only the requests and answers in it are followed.
    follow_only: bool,
}

impl Converter {
    pub fn new(args: &ConvertArgs) -> Converter {
        // The extensions stated on a protocol version (Skills) are checked as `check --ext` would: their
        // messages convert by version alone, with no conversion to refuse them.
        let extensions = EXTENSIONS.iter().enumerate().filter(|(_, e)| e.on.is_some()).map(|(i, _)| i).collect();
        let check = CheckArgs { protocol: args.from, max_findings: args.max_findings, extensions, ..CheckArgs::default() };
        Converter {
            infos: VERSIONS.iter().map(Info::new).collect(),
            to: args.to,
            from: match args.from {
                Protocol::Auto => None,
                Protocol::Fixed(i) => Some(i),
            },
            latest: version_index(LATEST).expect("the latest version is in the table"),
            max_findings: args.max_findings.max(1),
            checker: Checker::new(&check),
            pending: Pending::default(),
            line: 0,
            read: false,
            follow_only: false,
        }
    }

    /// Forgets the previous stream.
    pub fn reset_stream(&mut self) {
        self.checker.reset_stream();
        self.pending = Pending::default();
    }

    /// Converts one line (without its `\n`); `None` for a blank line. The line is checked first
    /// as its source version: a line that fails there is not converted, and its findings say why.
    pub fn convert_line(&mut self, bytes: &[u8], line: u64) -> Option<Converted> {
        self.line = line;
        let mut outcome = self.checker.check_line(bytes, line)?;
        let checked = outcome.protocol.and_then(version_index);
        // Parsed again rather than copied for the checker: its peak and the tree are not added up
        // (a 12 MB batch of 200,000 bad requests: 237 MB against 372 MB with a copy).
        let text = std::str::from_utf8(bytes).ok().map(|t| t.strip_prefix('\u{feff}').unwrap_or(t));
        // A line whose `Value` would pass the cost budget is read as its compact tree, and only its
        // head (what following the stream's requests needs) is made a `Value`: it is not converted.
        let costly = text.and_then(|t| crate::cost::check(t.as_bytes()).err());
        let value = match (text, &costly) {
            (Some(t), Some(_)) => Doc::parse(t).ok().map(|d| head(d.root(), 0)),
            (Some(t), None) => serde_json::from_str::<Value>(t).ok(),
            (None, _) => None,
        };
        let Some(value) = value else {
            return Some(Converted { value: None, outcome });
        };
        if let (Some(e), false) = (&costly, outcome.failed()) {
            push(&mut outcome, self.max_findings, refuse("", LINE_TOO_COSTLY.id, format!("{e}; not converted")));
        }
        if outcome.failed() {
            // Followed for the stream's requests, not converted: the source's findings say why.
            self.follow_only = true;
            let _ = self.convert_from(value, checked, &mut Outcome::default());
            self.follow_only = false;
            return Some(Converted { value: None, outcome });
        }
        self.read = true;
        let value = self.convert_from(value, checked, &mut outcome);
        self.read = false;
        let value = value.filter(|_| !outcome.failed());
        Some(Converted { value, outcome })
    }

    /// Converts one value (a bare message, or a wrapper line) without checking it first; refusals
    /// go to `out`.
    pub fn convert_value(&mut self, value: Value, out: &mut Outcome) -> Option<Value> {
        self.convert_from(value, None, out)
    }

    /// `checked`: the version the checker read the line as.
    fn convert_from(&mut self, value: Value, checked: Option<usize>, out: &mut Outcome) -> Option<Value> {
        let is_wrapper = value.as_object().is_some_and(|o| o.contains_key("msg") && !o.contains_key("jsonrpc"));
        if !is_wrapper {
            return self.convert_message(value, None, checked, None, "", out);
        }
        let Value::Object(mut wrapper) = value else { unreachable!("a wrapper is an object") };
        // Anything the checker would refuse here failed the line already; these are the fallbacks.
        let dir = match wrapper.get("dir").and_then(Value::as_str) {
            Some("c2s") => Some(Direction::ClientToServer),
            Some("s2c") => Some(Direction::ServerToClient),
            _ => None,
        };
        let line_protocol = wrapper.get("protocol").and_then(Value::as_str).and_then(version_index);
        let type_name = wrapper.get("type").and_then(Value::as_str).map(str::to_string);
        let msg = wrapper.remove("msg").unwrap_or(Value::Null);
        let converted = self.convert_message(msg, dir, checked.or(line_protocol), type_name.as_deref(), "/msg", out)?;
        wrapper.insert("msg".into(), converted);
        if wrapper.contains_key("protocol") {
            // The wrapper says which version its message is in, so it follows the conversion.
            wrapper.insert("protocol".into(), Value::String(VERSIONS[self.to].name.into()));
        }
        Some(Value::Object(wrapper))
    }

    fn convert_message(&mut self, msg: Value, dir: Option<Direction>, checked: Option<usize>, type_name: Option<&str>, prefix: &str, out: &mut Outcome) -> Option<Value> {
        let from = checked.or(self.from).unwrap_or(self.latest);
        let max = self.max_findings;
        if let Some(ty) = type_name {
            return retype(&self.infos[from], &self.infos[self.to], ty, ty, msg, prefix, (max, self.read), out);
        }
        let to = &self.infos[self.to];
        if let Value::Array(items) = msg {
            if !to.batches {
                let reason = format!("a batch is not a message in {} (only 2025-03-26 defines batches)", to.module.label);
                push(out, max, refuse(prefix, BATCH.id, reason));
                return None;
            }
            let mut converted = Vec::with_capacity(items.len());
            let mut ok = true;
            for (i, item) in items.into_iter().enumerate() {
                match self.convert_one(item, dir, from, &format!("{prefix}/{i}"), out) {
                    Some(v) => converted.push(v),
                    None => ok = false,
                }
            }
            return ok.then_some(Value::Array(converted));
        }
        self.convert_one(msg, dir, from, prefix, out)
    }

    /// A message of an extension stated on a protocol version (Skills: 2026-07-28 on), which no conversion
    /// covers: unchanged (but for the version its `_meta` names) to a version that has the extension, refused
    /// to one before it, and its answer likewise.
    /// `of`: the extension, and the version the message is in.
    #[allow(clippy::too_many_arguments)]
    fn versioned_message(&mut self, mut msg: Value, method: &str, id: Option<Value>, dir: Option<Direction>, of: (&Extension, &str), prefix: &str, out: &mut Outcome) -> Option<Value> {
        let (ext, from) = of;
        let (max, line) = (self.max_findings, self.line);
        let to = self.infos[self.to].module;
        let refused = ext.refusal(method, self.to, to.label);
        if let Some(id) = &id {
            self.pending.insert(dir, id, Sent { method: None, line, refused: refused.clone().map(|r| (METHOD.id, r)), passes: refused.is_none() });
        }
        if self.follow_only {
            return None;
        }
        if let Some(why) = refused {
            push(out, max, refuse(format!("{prefix}/method"), METHOD.id, why));
            return None;
        }
        follow_version(msg.get_mut("params"), from, to.name, false);
        Some(msg)
    }

    fn convert_one(&mut self, mut msg: Value, dir: Option<Direction>, from: usize, prefix: &str, out: &mut Outcome) -> Option<Value> {
        let (max, line, read) = (self.max_findings, self.line, self.read);
        let (from, to) = (&self.infos[from], &self.infos[self.to]);
        let Some(o) = msg.as_object() else {
            push(out, max, refuse(prefix, TYPE.id, "a JSON-RPC message is an object"));
            return None;
        };
        if let Some(method) = o.get("method").and_then(Value::as_str) {
            if let Some(ext) = versioned(method) {
                let (method, id, from) = (method.to_string(), o.get("id").cloned(), from.module.name);
                return self.versioned_message(msg, &method, id, dir, (ext, from), prefix, out);
            }
            let id = o.get("id");
            let is_request = id.is_some();
            let what = if is_request { "request" } else { "notification" };
            let (source, target, known) = if is_request {
                let known = from.requests.get_key_value(method).map(|(k, _)| *k);
                (from.requests.get(method).map(|r| r.0), to.requests.get(method).map(|r| r.0), known)
            } else {
                (from.notifications.get(method).copied(), to.notifications.get(method).copied(), None)
            };
            let dir = dir.or_else(|| source.and_then(|t| sender(from, t, is_request)));
            let refusal = match source {
                None => Some(refuse(format!("{prefix}/method"), METHOD.id, format!("`{method}` is not a {what} of {}", from.module.label))),
                Some(_) => direction_refusal(from, to, dir, is_request, method, target, &msg, prefix).or_else(|| match target {
                    None => Some(refuse(format!("{prefix}/method"), METHOD.id, format!("{} has no `{method}` {what}", to.module.label))),
                    Some(_) => None,
                }),
            };
            if let Some(id) = id {
                let refused = refusal.as_ref().filter(|d| d.rule == DIRECTION.id).map(|d| (DIRECTION.id, d.message.clone()));
                self.pending.insert(dir, id, Sent { method: known, line, refused, passes: false });
            }
            if self.follow_only {
                return None;
            }
            if let Some(d) = refusal {
                push(out, max, d);
                return None;
            }
            let (source, target) = (source?, target?);
            follow_version(msg.get_mut("params"), from.module.name, to.module.name, false);
            return retype(from, to, source, target, msg, prefix, (max, read), out);
        }
        let is_response = o.contains_key("result") || o.contains_key("error");
        let sent = if is_response { self.pending.answered(dir, o.get("id")) } else { None };
        if self.follow_only {
            return None;
        }
        if let Some(Sent { method, line, refused: Some((rule, why)), .. }) = &sent {
            let method = method.unwrap_or("?");
            push(out, max, refuse(prefix, rule, format!("answers the `{method}` request of line {line}, which was not converted: {why}")));
            return None;
        }
        if sent.as_ref().is_some_and(|s| s.passes) {
            return Some(msg);
        }
        if o.contains_key("error") {
            return match (from.error_response, to.error_response) {
                (Some(s), Some(t)) => retype(from, to, s, t, msg, prefix, (max, read), out),
                _ => {
                    push(out, max, refuse(prefix, TYPE.id, "no JSON-RPC error response type in one of the versions"));
                    None
                }
            };
        }
        if !is_response {
            return retype(from, to, "JSONRPCMessage", "JSONRPCMessage", msg, prefix, (max, read), out);
        }
        let Some(method) = sent.and_then(|s| s.method) else {
            push(out, max, refuse(prefix, RESPONSE.id, "a response to no request seen in this stream: its result type is unknown"));
            return None;
        };
        let source = from.requests.get(method).map(|r| r.1);
        let target = to.requests.get(method).map(|r| r.1);
        let (Some(source), Some(target)) = (source, target) else {
            let lacks = if source.is_none() { from.module.label } else { to.module.label };
            push(out, max, refuse(prefix, RESPONSE.id, format!("answers `{method}`, which {lacks} does not define")));
            return None;
        };
        let mut result = msg.as_object_mut().and_then(|o| o.remove("result")).unwrap_or(Value::Null);
        follow_version(Some(&mut result), from.module.name, to.module.name, method == "initialize");
        let result = retype(from, to, source, target, result, &format!("{prefix}/result"), (max, read), out)?;
        if let Some(o) = msg.as_object_mut() {
            o.insert("result".into(), result);
        }
        Some(msg)
    }
}

/// What following the stream needs of a value (a message, a wrapper or a batch): its keys and
/// scalars two levels deep, each deeper container empty (a big object past 64 keys too).
fn head(n: Node, depth: usize) -> Value {
    match n.kind() {
        Kind::Object(o) if depth < 2 && (depth == 0 || o.len() <= 64) => Value::Object(o.iter().map(|(k, v)| (k.to_owned(), head(v, depth + 1))).collect()),
        Kind::Array(a) if depth == 0 => Value::Array(a.iter().map(|v| head(v, 1)).collect()),
        Kind::Object(_) => Value::Object(serde_json::Map::new()),
        Kind::Array(_) => Value::Array(Vec::new()),
        _ => n.to_value(),
    }
}

/// The side that sends the type `ty` in `info`, if only one does (as `check` decides it without `dir`).
fn sender(info: &Info, ty: &str, is_request: bool) -> Option<Direction> {
    let (client, server) = sides(info, is_request);
    match (client.holds(ty).unwrap_or(false), server.holds(ty).unwrap_or(false)) {
        (true, false) => Some(Direction::ClientToServer),
        (false, true) => Some(Direction::ServerToClient),
        _ => None,
    }
}

fn sides(info: &Info, is_request: bool) -> (&Side, &Side) {
    if is_request {
        (&info.client_requests, &info.server_requests)
    } else {
        (&info.client_notifications, &info.server_notifications)
    }
}

/// Why `to` cannot carry a message its sender (`dir`) sends: the sender's union is absent there (no
/// server requests in 2026-07-28), or lacks the message's type. The reason names the case of
/// CONVERSIONS.md the generated conversion of the sender's union gives, where it gives one.
#[allow(clippy::too_many_arguments)]
fn direction_refusal(from: &Info, to: &Info, dir: Option<Direction>, is_request: bool, method: &str, target: Option<&str>, msg: &Value, prefix: &str) -> Option<Diag> {
    let dir = dir?;
    let (from_side, to_side) = (pick_side(from, is_request, dir), pick_side(to, is_request, dir));
    let carried = match (to_side, target) {
        (Side::Absent(_), _) => false,
        (_, None) => return None,
        (Side::Union(_, members), Some(t)) => members.contains(t),
        (Side::Alias(name), Some(t)) => *name == t || to.module.aliases.iter().any(|(a, target)| a == name && *target == t),
    };
    if carried {
        return None;
    }
    let sender = if dir == Direction::ClientToServer { "a client" } else { "a server" };
    let what = if is_request { "requests" } else { "notifications" };
    let union = from_side.name();
    let reason = match convert_json(union, from.module.name, to.module.name, msg) {
        Some(Err(e)) if !e.case().is_empty() => {
            format!("{} ({} -> {}, case `{}` of CONVERSIONS.md): {sender} sends no `{method}` in {}", e.reason(), e.from_version(), e.to_version(), e.case(), to.module.label)
        }
        _ => match to_side {
            // The conversion of the union to the target's empty stand-in is typed only (no JSON route); its row is this.
            Side::Absent(name) => format!(
                "{} defines no {name}: {sender} sends no {what} in this version ({} -> {}, case `{union}` of CONVERSIONS.md)",
                to.module.label, from.module.name, to.module.name
            ),
            _ => format!("{sender} sends no `{method}` in {} ({} does not hold it)", to.module.label, to_side.name()),
        },
    };
    Some(refuse(format!("{prefix}/method"), DIRECTION.id, reason))
}

fn pick_side(info: &Info, is_request: bool, dir: Direction) -> &Side {
    let (c, s) = sides(info, is_request);
    if dir == Direction::ClientToServer {
        c
    } else {
        s
    }
}

/// The versions a message names itself follow the conversion: the `_meta` protocol version key of
/// `params` or `result`, and an `initialize` answer's `protocolVersion`, when they name `from`.
fn follow_version(holder: Option<&mut Value>, from: &str, to: &str, initialize_answer: bool) {
    let Some(Value::Object(o)) = holder else { return };
    let relabel = |v: &mut Value| {
        if v.as_str() == Some(from) {
            *v = Value::String(to.to_string());
        }
    };
    if initialize_answer {
        if let Some(v) = o.get_mut("protocolVersion") {
            relabel(v);
        }
    }
    if let Some(Value::Object(meta)) = o.get_mut("_meta") {
        if let Some(v) = meta.get_mut(PROTOCOL_VERSION_META_KEY) {
            relabel(v);
        }
    }
}

/// `value`, of the schema type `source` in `from`, converted to `to` by the generated conversions
/// (`mcp_spec_types::convert::convert_json`, field by field). `target` is the type the message has in
/// `to` (a renamed type, or the method's own result type there). What converted is also validated
/// against `target`: a value that is not valid there (a key the target requires that no conversion
/// supplies) is refused rather than written out. Refusals go to `out`, at most `max`; `read`: the
/// checker has read the value as its source type already (else it is read here first, for the reason).
#[allow(clippy::too_many_arguments)]
pub fn retype(from: &Info, to: &Info, source: &str, target: &str, value: Value, prefix: &str, (max, read): (usize, bool), out: &mut Outcome) -> Option<Value> {
    let Some(source_type) = (from.module.dynamic)(source) else {
        push(out, max, refuse(prefix, TYPE.id, format!("{} has no type `{source}`", from.module.label)));
        return None;
    };
    if let Err(e) = if read { Ok(()) } else { (source_type.read_value)(&value).map(drop) } {
        push(out, max, refuse(prefix, SOURCE.id, format!("not a valid {source} of {}: {e}", from.module.label)));
        return None;
    }
    if from.module.name == to.module.name {
        return Some(value);
    }
    match convert_json(source, from.module.name, to.module.name, &value) {
        Some(Ok(converted)) => valid_in(to, target, converted, prefix, max, out),
        Some(Err(e)) => {
            let case = if e.case().is_empty() { String::new() } else { format!(", case `{}`", e.case()) };
            let step = format!("{} -> {}{case}", e.from_version(), e.to_version());
            push(out, max, refuse(format!("{prefix}{}", e.pointer()), REFUSED.id, format!("{} ({step})", e.reason())));
            None
        }
        None => {
            let reason = format!("{source} of {} has no conversion to {target} of {}", from.module.label, to.module.label);
            push(out, max, refuse(prefix, TYPE.id, reason));
            None
        }
    }
}

/// `value` if it passes the validation rules of `target` in `to` (errors only).
fn valid_in(to: &Info, target: &str, value: Value, prefix: &str, max: usize, out: &mut Outcome) -> Option<Value> {
    let Some(target_type) = (to.module.dynamic)(target) else {
        push(out, max, refuse(prefix, TYPE.id, format!("{} has no type `{target}`", to.module.label)));
        return None;
    };
    let report = (target_type.validate)(&value, &Options { max_violations: max, ..Options::default() });
    let mut ok = true;
    for v in report.violations.iter().filter(|v| v.severity == Severity::Error) {
        ok = false;
        let message = format!("{} (in {}, after converting)", v.message, to.module.label);
        push(out, max, refuse(format!("{prefix}{}", v.pointer), TARGET_INVALID.id, message));
    }
    if report.omitted_errors > 0 {
        ok = false;
        out.omitted += report.omitted_errors;
        out.omitted_errors += report.omitted_errors;
    }
    ok.then_some(value)
}
