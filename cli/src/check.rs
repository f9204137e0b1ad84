//! The checker: one value at a time, with the little state a stream needs
//! (the negotiated version, and which requests are waiting for a response).

use std::collections::HashSet;

use mcp_spec_types::validate::{describe, jsonrpc, Cx, Options, Severity};
use serde_json::{Map, Value};

use crate::args::{CheckArgs, Protocol};
pub use crate::vocab::{AppsSide, Diag, Dir, Outcome, Req, ANSWERED_CAP, PENDING_CAP, PROTOCOL_META_KEY};
pub(crate) use crate::vocab::{IdKey, ModRef};
use crate::bounded::{clip, shown, Capped, Weigh, MESSAGE_MAX};
use crate::session::rules::{Rule, ID_REUSED};
use crate::session::{Session, StreamEnd};
use crate::transport::jsonl::Http;
use crate::transport::{self, HttpLine, Transport};
use mcp_spec_types::engine::observe::{Observation, Observer, ObserverConfig};
use crate::versions::{version_index, Extension, Info, Module, Side, EXTENSIONS, LATEST, VERSIONS};

/// The result type of the resource-metadata proposal's `resources/metadata`; a module that has it
/// applies the proposal's same-URI rule against the requested URI.
const METADATA_RESULT: &str = "ReadResourceMetadataResult";

/// How many tasks (from `CreateTaskResult`) each direction remembers for `tasks/result`.
pub const TASKS_CAP: usize = 4096;

/// The request whose result is the result of the task it names (2025-11-25).
const TASK_RESULT_METHOD: &str = "tasks/result";
/// The Tasks extension's task handle (`resultType: "task"`), typed by the extension's module.
const EXT_TASK_RESULT: &str = "CreateTaskResult";

/// What the checker needs for the view<->host channel (with `--ext apps`): the unions of what
/// each side sends (the generated `ViewRequest`, `HostNotification`, ...), and the protocol
/// version whose standard messages travel on it.
struct AppsChannel {
    ext: usize,
    base: usize,
    /// Per side ([`AppsSide::index`]): the member types of its request, notification and result unions.
    requests: [HashSet<&'static str>; 2],
    notifications: [HashSet<&'static str>; 2],
    /// Requests each side sent that wait for an answer (the view as the client), as on the
    /// client/server channel: one model of what is in flight.
    pending: Observer<Req>,
}

impl AppsChannel {
    /// Per side ([`AppsSide::index`]): its request, notification and result unions.
    const UNIONS: [(&'static str, &'static str, &'static str); 2] =
        [("ViewRequest", "ViewNotification", "ViewResult"), ("HostRequest", "HostNotification", "HostResult")];

    fn new(ext: usize, module: &'static Module, base: usize) -> AppsChannel {
        let members = |name: &str| -> HashSet<&'static str> {
            module.union_members.iter().find(|(n, _)| *n == name).map(|(_, m)| m.iter().copied().collect()).unwrap_or_default()
        };
        let [view, host] = Self::UNIONS;
        AppsChannel {
            ext,
            base,
            requests: [members(view.0), members(host.0)],
            notifications: [members(view.1), members(host.1)],
            pending: apps_observer(),
        }
    }
}

/// The observer of the view<->host channel's requests, bounded as the client/server one.
fn apps_observer() -> Observer<Req> {
    Observer::new(ObserverConfig { max_in_flight: PENDING_CAP, max_ended: ANSWERED_CAP, max_bytes: crate::bounded::TABLE_BYTES })
}

/// Why an answer matched no request in flight, when the observer knows: the one notion of in
/// flight, which a request answered or cancelled has left.
fn unmatched_why(seen: &[Observation]) -> String {
    seen.iter()
        .find_map(|o| match *o {
            Observation::AnsweredAfterCancel { request_at, cancelled_at } => Some(format!(" (the request of line {request_at} was cancelled on line {cancelled_at})")),
            Observation::AnsweredAgain { request_at } => Some(format!(" (the request of line {request_at} was answered already)")),
            _ => None,
        })
        .unwrap_or_default()
}

/// Where a task came from: the request that `CreateTaskResult` answered.
#[derive(Debug, Clone)]
struct TaskOrigin {
    module: ModRef,
    result: Option<&'static str>,
}

/// A map from ids of one direction, bounded by count and bytes: the oldest entry is forgotten first.
type Bounded<V> = Capped<IdKey, V>;

impl mcp_spec_types::engine::observe::Weigh for Req {
    fn weight(&self) -> usize {
        Weigh::weight(self)
    }
}

impl Weigh for TaskOrigin {
    fn weight(&self) -> usize {
        0
    }
}

/// Settings and derived tables shared by every file.
pub struct Checker {
    fixed: Option<usize>,
    latest: usize,
    type_name: Option<String>,
    roundtrip: bool,
    validate: bool,
    strict: bool,
    options: Options,
    /// The module of each version (an overlay given with `--ext` stands in for its base).
    modules: Vec<&'static Module>,
    infos: Vec<Info>,
    exts: Vec<(usize, &'static Extension, Info)>,
    max_findings: usize,
    // Stream state, reset per file.
    negotiated: Option<usize>,
    /// The request being checked, for the session's observer to keep until its answer.
    typed: Option<Req>,
    /// Tasks per direction of the request that created them.
    tasks: [Bounded<TaskOrigin>; 2],
    /// The line of the stream's first `initialize` request.
    initialize_line: Option<u64>,
    /// The rules that span messages, and the counts for `--summary`.
    session: Session,
    /// The view<->host channel, with `--ext apps`.
    apps: Option<AppsChannel>,
    /// A bridge recording's legs (`leg`): the one being checked, and the other's stream, parked.
    /// The transport rules over a recording's `http` lines.
    transport: Transport,
    leg: Option<Leg>,
    parked: Option<Box<Parked>>,
}

/// A bridge recording's leg: its lines are one stream, the other leg's another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leg {
    Client,
    Server,
}

/// The stream state of the leg not being checked.
struct Parked {
    negotiated: Option<usize>,
    typed: Option<Req>,
    tasks: [Bounded<TaskOrigin>; 2],
    initialize_line: Option<u64>,
    session: crate::session::ParkedStream,
    /// Each leg's HTTP exchanges are its own (`proxy --http --to`).
    transport: Transport,
}

impl Parked {
    fn new() -> Parked {
        Parked { negotiated: None, typed: None, tasks: per_dir(TASKS_CAP), initialize_line: None, session: crate::session::ParkedStream::new(), transport: Transport::new("exchange") }
    }
}

fn per_dir<V: Weigh>(cap: usize) -> [Bounded<V>; 2] {
    [Bounded::new(cap), Bounded::new(cap)]
}

impl Checker {
    pub fn new(args: &CheckArgs) -> Checker {
        let mut options = Options { strict: args.strict, ..Options::default() };
        let mut modules: Vec<&'static Module> = VERSIONS.iter().collect();
        let mut exts = Vec::new();
        for &i in &args.extensions {
            let e = &EXTENSIONS[i];
            (e.options)(&mut options);
            match e.replaces.and_then(version_index) {
                Some(v) => modules[v] = &e.module,
                None => exts.push((i, e, Info::new(&e.module))),
            }
        }
        Checker {
            fixed: match args.protocol {
                Protocol::Auto => None,
                Protocol::Fixed(i) => Some(i),
            },
            latest: version_index(LATEST).expect("the latest version is in the table"),
            type_name: args.type_name.clone(),
            roundtrip: args.roundtrip,
            validate: args.validate,
            strict: args.strict,
            options,
            infos: modules.iter().map(|m| Info::new(m)).collect(),
            modules,
            exts,
            max_findings: args.max_findings.max(1),
            negotiated: None,
            typed: None,
            tasks: per_dir(TASKS_CAP),
            initialize_line: None,
            session: Session::new(args),
            leg: None,
            parked: None,
            apps: args.extensions.iter().find_map(|&i| {
                let e = &EXTENSIONS[i];
                let base = version_index(e.channel_base?)?;
                Some(AppsChannel::new(i, &e.module, base))
            }),
            transport: match args.protocol {
                Protocol::Fixed(i) => Transport::new("exchange").with_fallback(VERSIONS[i].name),
                Protocol::Auto => Transport::new("exchange"),
            },
        }
    }

    /// Forgets what the previous stream negotiated, its requests and its tasks.
    pub fn reset_stream(&mut self) {
        self.negotiated = None;
        self.typed = None;
        self.tasks = per_dir(TASKS_CAP);
        self.initialize_line = None;
        if let Some(apps) = &mut self.apps {
            apps.pending = apps_observer();
        }
        self.session.reset();
        self.leg = None;
        self.parked = None;
        self.transport.reset();
    }

    /// Checks the lines of `leg` from here on: the other leg's stream is parked, this one's taken back.
    fn switch_leg(&mut self, leg: Leg) {
        if self.leg == Some(leg) {
            return;
        }
        if self.leg.is_some() {
            let p = self.parked.get_or_insert_with(|| Box::new(Parked::new()));
            std::mem::swap(&mut self.negotiated, &mut p.negotiated);
            std::mem::swap(&mut self.typed, &mut p.typed);
            std::mem::swap(&mut self.tasks, &mut p.tasks);
            std::mem::swap(&mut self.initialize_line, &mut p.initialize_line);
            self.session.swap_stream(&mut p.session);
            std::mem::swap(&mut self.transport, &mut p.transport);
        }
        self.leg = Some(leg);
    }

    /// Ends the exchanges of the current stream that never ended: what their end rules find, on
    /// the line of each one's request. Call before [`Checker::finish_stream`].
    pub fn finish_transport(&mut self) -> Vec<Outcome> {
        let found = self.transport.finish();
        let outcome = |f: transport::Found| {
            let mut o = Outcome { line: f.at.line, place: Some(f.at.place(None, None)), http: Some(f.at.http(None, None)), diags: f.diags.into_iter().map(|d| self.strictly(d)).collect(), ..Outcome::default() };
            self.bound(&mut o);
            o
        };
        found.into_iter().map(outcome).collect()
    }

    /// Ends the current stream: the findings only its end can show (attached to the line they
    /// concern) and the requests left unanswered. Call before [`Checker::reset_stream`].
    pub fn finish_stream(&mut self) -> StreamEnd {
        let mut end = self.session.finish();
        // A bridge recording: the other leg ends too.
        if let (Some(leg), Some(_)) = (self.leg, &self.parked) {
            self.switch_leg(if leg == Leg::Client { Leg::Server } else { Leg::Client });
            let other = self.session.finish();
            end.outcomes.extend(other.outcomes);
            end.outcomes.sort_by_key(|o| o.line);
            end.unanswered.extend(other.unanswered);
            end.unanswered_total += other.unanswered_total;
        }
        end
    }

    /// The session state (message counts for `--summary`, evictions).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// How many requests are remembered as unanswered (bounded by twice [`PENDING_CAP`]).
    pub fn pending_requests(&self) -> usize {
        self.session.waiting()
    }

    /// Checks one JSONL line (without its `\n`). `None` for a blank line.
    pub fn check_line(&mut self, bytes: &[u8], line: u64) -> Option<Outcome> {
        let mut out = Outcome { line, ..Outcome::default() };
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let at = e.valid_up_to();
                out.diags.push(error("", "utf8", format!("not UTF-8: invalid byte sequence at byte {} of the line", at + 1)));
                return Some(out);
            }
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim_start_matches([' ', '\t', '\r', '\n']).is_empty() {
            return None;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(value) if is_http_line(&value) => {
                // A bridge's HTTP lines belong to their leg's exchanges (`proxy --http --to`).
                match value.get("leg").and_then(Value::as_str) {
                    Some("client") => self.switch_leg(Leg::Client),
                    Some("server") => self.switch_leg(Leg::Server),
                    _ => {}
                }
                return self.http_line(&value["http"], out);
            }
            Ok(value) => self.check_value_guarded(value, &mut out),
            Err(e) => out.diags.push(error("", "json", format!("not JSON: {e}"))),
        }
        Some(out)
    }

    /// A recording's line of HTTP context: `None` (not counted) unless a transport rule reports on it.
    fn http_line(&mut self, http: &Value, mut out: Outcome) -> Option<Outcome> {
        self.transport.line = out.line;
        match transport::jsonl::read(http, false) {
            Ok(Http::Line(l)) => {
                let f = self.transport.line(&l);
                let l = *l;
                if f.diags.is_empty() {
                    return None;
                }
                let event = match &l {
                    HttpLine::Event { event, event_id, .. } => Some((*event, event_id.as_deref())),
                    _ => None,
                };
                let part = match &l {
                    HttpLine::Event { .. } => Some(transport::Part::Response),
                    _ => None,
                };
                out.place = Some(f.at.place(part, event));
                out.http = Some(f.at.http(part, event));
                out.diags = f.diags.into_iter().map(|d| self.strictly(d)).collect();
                self.bound(&mut out);
            }
            Ok(Http::Message(_)) => unreachable!("read without a message gives a line"),
            Err(e) => out.diags.push(error("/http", "line.http", e)),
        }
        Some(out)
    }

    /// Checks an already parsed value (a line's value, or a `.json` file's).
    pub fn check_value(&mut self, value: Value, line: u64) -> Outcome {
        let mut out = Outcome { line, ..Outcome::default() };
        self.check_value_guarded(value, &mut out);
        out
    }

    fn check_value_guarded(&mut self, value: Value, out: &mut Outcome) {
        // A panic is a bug in the checker or the generated crate, never a verdict on the input:
        // report it on its line and go on with the next.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.check_value_inner(value, out)));
        if let Err(p) = r {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            out.diags.push(error("", "internal", format!("the checker panicked on this value (a bug): {what}")));
        }
        self.bound(out);
    }

    /// Findings kept within `--max-findings` (the rest counted), each message and pointer within
    /// [`MESSAGE_MAX`], duplicates dropped.
    pub(crate) fn bound(&self, out: &mut Outcome) {
        dedupe(&mut out.diags);
        // A message or pointer echoing a huge value (a validator's, a schema library's) is cut:
        // output stays proportional to the findings, not to the line.
        for d in &mut out.diags {
            for s in [&mut d.message, &mut d.pointer] {
                if s.len() > MESSAGE_MAX {
                    *s = crate::bounded::cut(s);
                }
            }
        }
        if out.diags.len() > self.max_findings {
            let rest = out.diags.split_off(self.max_findings);
            out.omitted += rest.len();
            out.omitted_errors += rest.iter().filter(|d| d.severity == Severity::Error).count();
        }
    }

    fn check_value_inner(&mut self, mut value: Value, out: &mut Outcome) {
        let mut prefix = "";
        let mut dir = None;
        let mut line_protocol = None;
        let mut line_type: Option<String> = None;
        let mut apps_side = None;
        if let Value::Object(o) = &mut value {
            if o.contains_key("msg") && !o.contains_key("jsonrpc") {
                // A key no wrapper has may mean a message with a `msg` key that lacks `jsonrpc`.
                for k in o.keys().filter(|k| !WRAPPER_KEYS.contains(&k.as_str())) {
                    let msg = format!("`{}` is not a wrapper key ({}); a message with a `msg` key needs `jsonrpc` to be read as one", clip(k), WRAPPER_KEYS.join(", "));
                    out.diags.push(self.warning(&format!("/{}", escape_pointer(k)), "line.key", msg));
                }
                let mut bad = false;
                match o.get("dir") {
                    None => {}
                    Some(Value::String(s)) if s == "c2s" => dir = Some(Dir::C2S),
                    Some(Value::String(s)) if s == "s2c" => dir = Some(Dir::S2C),
                    Some(Value::String(s)) if s == "view2host" || s == "host2view" => {
                        if self.apps.is_some() {
                            apps_side = Some(if s == "view2host" { AppsSide::View } else { AppsSide::Host });
                        } else {
                            bad = true;
                            out.diags.push(error("/dir", "line.dir", format!("`dir` \"{}\" is a line of the MCP Apps view<->host channel: check with `--ext apps`", clip(s))));
                        }
                    }
                    Some(other) => {
                        bad = true;
                        let apps = if self.apps.is_some() { ", \"view2host\" or \"host2view\"" } else { "" };
                        out.diags.push(error("/dir", "line.dir", format!("`dir` must be \"c2s\" or \"s2c\"{apps}, found {}", describe(other))));
                    }
                }
                match o.get("protocol") {
                    None => {}
                    Some(Value::String(s)) => match version_index(s) {
                        Some(i) => line_protocol = Some(i),
                        None => {
                            bad = true;
                            out.diags.push(error("/protocol", "protocol", unknown_version(s)));
                        }
                    },
                    Some(other) => {
                        bad = true;
                        out.diags.push(error("/protocol", "protocol", format!("`protocol` must be a version string, found {}", describe(other))));
                    }
                }
                match o.get("leg") {
                    None => {}
                    Some(Value::String(s)) if s == "client" => self.switch_leg(Leg::Client),
                    Some(Value::String(s)) if s == "server" => self.switch_leg(Leg::Server),
                    Some(other) => {
                        bad = true;
                        out.diags.push(error("/leg", "line.leg", format!("`leg` must be \"client\" or \"server\" (a bridge recording's two streams), found {}", describe(other))));
                    }
                }
                match o.get("type") {
                    None => {}
                    Some(Value::String(s)) => line_type = Some(s.clone()),
                    Some(other) => {
                        bad = true;
                        out.diags.push(error("/type", "line.type", format!("`type` must be a type name, found {}", describe(other))));
                    }
                }
                if bad {
                    return;
                }
                if let Some(h) = o.get("http") {
                    match transport::jsonl::read(h, true) {
                        Ok(Http::Message(at)) => {
                            self.transport.line = out.line;
                            let f = self.transport.message(&at, o.get("msg").unwrap_or(&Value::Null));
                            let event = at.event.map(|i| (i, at.event_id.as_deref()));
                            out.place = Some(f.at.place(Some(at.part), event));
                            out.http = Some(f.at.http(Some(at.part), event));
                            out.diags.extend(f.diags.into_iter().map(|d| self.strictly(d)));
                        }
                        Ok(Http::Line(_)) => unreachable!("read with a message gives a message"),
                        Err(e) => out.diags.push(error("/http", "line.http", e)),
                    }
                }
                value = o.remove("msg").unwrap_or(Value::Null);
                prefix = "/msg";
            }
        }
        if let (Some(side), None) = (apps_side, &line_type) {
            return self.check_apps_message(side, &value, prefix, out);
        }
        match line_type.as_deref().or(self.type_name.as_deref()) {
            Some(ty) => {
                let ty = ty.to_string();
                let v = line_protocol.or(self.fixed).or(self.negotiated).unwrap_or(self.latest);
                self.check_document(v, &ty, &value, prefix, out);
            }
            None => self.check_message(line_protocol, dir, &value, prefix, out),
        }
    }

    /// `--type` (or a line's `type`): the value as that type of the version, or of an enabled extension.
    fn check_document(&self, v: usize, ty: &str, value: &Value, prefix: &str, out: &mut Outcome) {
        let info = &self.infos[v];
        out.protocol = Some(info.module.name);
        if let Some(t) = info.types.get(ty) {
            return self.check_as(info.module, t, value, prefix, out);
        }
        for (_, e, info) in &self.exts {
            if let Some(t) = info.types.get(ty) {
                out.protocol = Some(e.name);
                return self.check_as(info.module, t, value, prefix, out);
            }
        }
        out.diags.push(error(prefix, "type-name", format!("{} has no type `{ty}`", info.module.label)));
    }

    fn pick(&self, line: Option<usize>, carried: Option<usize>) -> usize {
        line.or(self.fixed).or(carried).or(self.negotiated).unwrap_or(self.latest)
    }

    fn check_message(&mut self, line_protocol: Option<usize>, dir: Option<Dir>, value: &Value, prefix: &str, out: &mut Outcome) {
        if let Value::Array(items) = value {
            let v = self.pick(line_protocol, None);
            let info = &self.infos[v];
            out.protocol = Some(info.module.name);
            if !info.batches {
                let msg = format!("a JSON array is not a message in {} (only 2025-03-26 defines batches)", info.module.label);
                out.diags.push(error(prefix, "jsonrpc.batch", msg));
            } else if items.is_empty() {
                out.diags.push(error(prefix, "jsonrpc.batch", "an empty batch"));
            } else {
                for (i, item) in items.iter().enumerate() {
                    self.check_one(line_protocol, dir, item, &format!("{prefix}/{i}"), out);
                }
            }
            return;
        }
        self.check_one(line_protocol, dir, value, prefix, out);
    }

    /// The message as an object, once the JSON-RPC envelope rules have run on it; `None`, with the
    /// error, when it is not an object. Both channels (client/server and MCP Apps view/host) start here.
    fn envelope<'v>(&self, value: &'v Value, prefix: &str, out: &mut Outcome) -> Option<&'v serde_json::Map<String, Value>> {
        let Some(o) = value.as_object() else {
            out.diags.push(error(prefix, "type", format!("a JSON-RPC message is an object, found {}", describe(value))));
            return None;
        };
        if self.validate {
            let mut cx = Cx::new(self.options);
            jsonrpc::envelope(value, &mut cx);
            // The envelope rules include `jsonrpc.version`; the message's own type checks the literal again
            // only where the version's types declare it, so the envelope is the one place for it.
            push_report(prefix, cx.finish(), out);
        }
        Some(o)
    }

    fn check_one(&mut self, line_protocol: Option<usize>, dir: Option<Dir>, value: &Value, prefix: &str, out: &mut Outcome) {
        let Some(o) = self.envelope(value, prefix, out) else {
            out.protocol = Some(VERSIONS[self.pick(line_protocol, None)].name);
            return;
        };
        if o.contains_key("method") {
            let dir = self.request_or_notification(line_protocol, dir, o, value, prefix, out);
            let typed = self.typed.take();
            let seen = self.session.see(dir, o, out.line, typed);
            self.id_findings(dir.unwrap_or(Dir::C2S).name(), o.get("id"), &seen.observations, prefix, out);
            self.session.observe(dir, seen, o, prefix, out);
        } else if o.contains_key("result") || o.contains_key("error") {
            let mut seen = self.session.see(dir, o, out.line, None);
            let matched = seen.answered.as_mut().and_then(|a| Some((Dir::of(a.request), a.attachment.req.take()?)));
            self.response(line_protocol, dir, o, value, prefix, matched, &seen.observations, out);
            self.session.observe(dir, seen, o, prefix, out);
        } else {
            let v = self.pick(line_protocol, None);
            self.check_as(self.modules[v], "JSONRPCMessage", value, prefix, out);
        }
    }

    /// The version a message carries itself: `_meta["io.modelcontextprotocol/protocolVersion"]`
    /// in `params` or `result`. An unknown string is reported with `severity`.
    fn meta_version(&self, holder: Option<&Value>, prefix: &str, field: &str, severity: Severity, out: &mut Outcome) -> Option<usize> {
        let meta = holder?.get("_meta")?.get(PROTOCOL_META_KEY)?;
        let s = meta.as_str()?;
        match version_index(s) {
            Some(i) => Some(i),
            None => {
                let p = format!("{prefix}/{field}/_meta/{}", escape_pointer(PROTOCOL_META_KEY));
                let diag = match severity {
                    Severity::Error => error(&p, "protocol", unknown_version(s)),
                    Severity::Warning => {
                        // The schema types the key as any string, and the receiver answers an unknown
                        // one with an error: the message is fine, checked as the stream's version.
                        let msg = format!("{}; checked as the stream's version (the receiver may answer UNSUPPORTED_PROTOCOL_VERSION)", unknown_version(s));
                        self.warning(&p, "protocol", msg)
                    }
                };
                out.diags.push(diag);
                None
            }
        }
    }

    /// Reports a version carried by a message that differs from the one the stream uses.
    fn note_version_change(&self, carried: usize, pointer: &str, out: &mut Outcome) {
        if let (Some(n), None) = (self.negotiated, self.fixed) {
            if n != carried {
                let msg = format!("the message carries protocol version {} but the session uses {}", VERSIONS[carried].name, VERSIONS[n].name);
                out.diags.push(self.warning(pointer, "stream.protocol-changed", msg));
            }
        }
    }

    fn request_or_notification(
        &mut self,
        line_protocol: Option<usize>,
        dir: Option<Dir>,
        o: &Map<String, Value>,
        value: &Value,
        prefix: &str,
        out: &mut Outcome,
    ) -> Option<Dir> {
        let id = o.get("id");
        let is_request = id.is_some();
        let Some(method) = o.get("method").and_then(Value::as_str) else {
            // A non-string method: the generic message type reports it.
            let v = self.pick(line_protocol, None);
            let ty = if is_request { "JSONRPCRequest" } else { "JSONRPCNotification" };
            self.check_as(self.modules[v], ty, value, prefix, out);
            return dir;
        };
        let params = o.get("params");
        let uri = params.and_then(|p| p.get("uri")).and_then(Value::as_str).map(Box::from);

        // An extension's method (`ui/...` with --ext apps, `tasks/...` and `notifications/tasks` with --ext tasks):
        // typed by the extension's tables, either direction, unless the version's core defines the method itself
        // (2025-11-25's own `tasks/get`).
        let core = &self.infos[self.pick(line_protocol, None)];
        let in_core = if is_request { core.requests.contains_key(method) } else { core.notifications.contains_key(method) };
        let ext_of = |info: &Info, prefix: &str| method.starts_with(prefix) || info.requests.contains_key(method) || info.notifications.contains_key(method);
        if let Some((ei, e, info)) = self.exts.iter().filter(|_| !in_core).find(|(_, e, info)| ext_of(info, e.method_prefix)) {
            let (ei, module) = (*ei, info.module);
            out.protocol = Some(e.name);
            let found = if is_request {
                info.requests.get(method).map(|&(req, res)| (req, Some(res)))
            } else {
                info.notifications.get(method).map(|&t| (t, None))
            };
            let (req_method, result) = match found {
                Some((ty, result)) => {
                    self.check_as(module, ty, value, prefix, out);
                    (info.requests.get_key_value(method).map(|(k, _)| *k), result)
                }
                None => {
                    let what = if is_request { "request" } else { "notification" };
                    let msg = format!("`{}` is not a {what} method of {}", clip(method), module.label);
                    out.diags.push(error(&format!("{prefix}/method"), "unknown-variant", msg));
                    (None, None)
                }
            };
            if id.is_some() {
                self.remember(Req { module: ModRef::Ext(ei), method: req_method, result, task: false, uri });
            }
            return dir;
        }

        // The version: a proposal in `initialize`, or a `_meta` key, is carried by the message itself.
        let mut carried = self.meta_version(params, prefix, "params", Severity::Warning, out);
        if let Some(c) = carried {
            self.note_version_change(c, &format!("{prefix}/params/_meta/{}", escape_pointer(PROTOCOL_META_KEY)), out);
        }
        if is_request && method == "initialize" {
            match self.initialize_line {
                Some(first) => {
                    let msg = format!("a second `initialize` in this session (the first is on line {first})");
                    out.diags.push(self.warning(&format!("{prefix}/method"), "stream.protocol-changed", msg));
                }
                None => self.initialize_line = Some(out.line),
            }
            if line_protocol.or(self.fixed).is_none() {
                carried = self.initialize_version(o, prefix, out);
            }
        }
        if let (Some(c), None) = (carried, self.fixed) {
            self.negotiated = Some(c);
        }
        let v = self.pick(line_protocol, carried);
        let info = &self.infos[v];
        out.protocol = Some(info.module.name);

        let (specific, result, client, server) = if is_request {
            let found = info.requests.get_key_value(method);
            (found.map(|(_, (t, _))| *t), found.map(|(_, (_, r))| *r), &info.client_requests, &info.server_requests)
        } else {
            (info.notifications.get(method).copied(), None, &info.client_notifications, &info.server_notifications)
        };
        // Without `dir`, the side that sends this method decides it, if only one does.
        let dir = dir.or_else(|| {
            let t = specific?;
            match (client.holds(t).unwrap_or(false), server.holds(t).unwrap_or(false)) {
                (true, false) => Some(Dir::C2S),
                (false, true) => Some(Dir::S2C),
                _ => None,
            }
        });
        let side = dir.map(|d| if d == Dir::C2S { client } else { server });
        let what = if is_request { "requests" } else { "notifications" };
        let generic = if is_request { "JSONRPCRequest" } else { "JSONRPCNotification" };
        let ty: &'static str = match (side, specific) {
            (Some(Side::Union(_, members)), Some(t)) if members.contains(t) => t,
            (Some(Side::Union(name, _)), _) => name,
            (Some(Side::Alias(name)), _) => name,
            (Some(Side::Absent(name)), t) => {
                let sender = if dir == Some(Dir::C2S) { "a client" } else { "a server" };
                let msg = format!("{} defines no {name}: {sender} sends no {what} in this version", info.module.label);
                out.diags.push(error(&format!("{prefix}/method"), "direction", msg));
                t.unwrap_or(generic)
            }
            (None, Some(t)) => t,
            // An unknown method and no side: the first side that is a union reports it.
            (None, None) => match [client, server].into_iter().find(|s| matches!(s, Side::Union(..))) {
                Some(s) => s.name(),
                None => {
                    let msg = format!("`{}` is not a method of {}", clip(method), info.module.label);
                    out.diags.push(error(&format!("{prefix}/method"), "unknown-variant", msg));
                    generic
                }
            },
        };
        let module = info.module;
        self.check_as(module, ty, value, prefix, out);
        // A request the side does not send (checked as the union) gets no typed result.
        let result = if specific == Some(ty) { result } else { None };

        if id.is_some() {
            let info = &self.infos[v];
            let req_method = info.requests.get_key_value(method).map(|(k, _)| *k);
            let task = params.and_then(|p| p.get("task")).is_some() && info.task_methods.contains(method);
            let mut req = Req { module: ModRef::Version(v), method: req_method, result, task, uri };
            let dir = dir.unwrap_or(Dir::C2S);
            if req_method == Some(TASK_RESULT_METHOD) && result.is_some() {
                // The task's result is the result of the request that created it.
                if let Some(origin) = params.and_then(|p| p.get("taskId")).and_then(IdKey::of).and_then(|k| self.task(dir, &k)) {
                    req.module = origin.module;
                    req.result = origin.result;
                }
            }
            self.remember(req);
        }
        // A cancellation is the session observer's: the request leaves flight there.
        dir
    }

    /// A line of the MCP Apps view<->host channel: typed by what its sender sends (`ViewMessage`
    /// or `HostMessage` of the apps module, whose standard MCP members are the base version's
    /// types); responses by the request of the other side they answer. Ids are each side's own.
    fn check_apps_message(&mut self, side: AppsSide, value: &Value, prefix: &str, out: &mut Outcome) {
        let Some(apps) = &self.apps else { return };
        let (ext, base) = (apps.ext, apps.base);
        let (ext_info, base_info) = (self.ext_info(ext), &self.infos[base]);
        out.protocol = Some(EXTENSIONS[ext].name);
        let Some(o) = self.envelope(value, prefix, out) else { return };
        // The module that defines a type: the extension's own, else the base version's.
        let module_of = |ty: &str| if ext_info.types.contains(ty) { ext_info.module } else { base_info.module };
        let (requests, notifications, results) = AppsChannel::UNIONS[side.index()];
        let id = o.get("id");
        let mut wrong_side = false;
        let mut answered = None;
        if let Some(method) = o.get("method") {
            let is_request = id.is_some();
            let method = method.as_str().unwrap_or_default();
            let specific = if is_request {
                ext_info.requests.get(method).or_else(|| base_info.requests.get(method)).map(|&(t, r)| (t, Some(r)))
            } else {
                ext_info.notifications.get(method).or_else(|| base_info.notifications.get(method)).map(|&t| (t, None))
            };
            let (own, other) = if is_request {
                (&apps.requests[side.index()], &apps.requests[side.opposite().index()])
            } else {
                (&apps.notifications[side.index()], &apps.notifications[side.opposite().index()])
            };
            let sent_here = specific.filter(|(t, _)| own.contains(t));
            wrong_side = specific.is_some_and(|(t, _)| !own.contains(t) && other.contains(t));
            let (module, ty) = match sent_here {
                Some((t, _)) => (module_of(t), t),
                None => (ext_info.module, if is_request { requests } else { notifications }),
            };
            self.check_as(module, ty, value, prefix, out);
            if let Some(id) = id {
                let result = sent_here.and_then(|(_, r)| r);
                let req_method = sent_here.and(ext_info.requests.get_key_value(method).or_else(|| base_info.requests.get_key_value(method))).map(|(k, _)| *k);
                let req = Req { module: ModRef::Ext(ext), method: req_method, result, task: false, uri: None };
                let apps = self.apps.as_mut().expect("checked above");
                let seen = apps.pending.observe(out.line, Some(side.direction()), o, || req);
                self.id_findings(side.dir_name(), Some(id), &seen.observations, prefix, out);
            }
        } else if o.contains_key("result") || o.contains_key("error") {
            let apps = self.apps.as_mut().expect("checked above");
            let seen = apps.pending.observe(out.line, Some(side.direction()), o, || unreachable!("an answer keeps nothing"));
            let why = unmatched_why(&seen.observations);
            let matched = seen.answered.map(|a| a.attachment);
            let (ext_info, base_info) = (self.ext_info(ext), &self.infos[base]);
            let module_of = |ty: &str| if ext_info.types.contains(ty) { ext_info.module } else { base_info.module };
            match (o.get("result"), &matched) {
                (None, _) => {
                    if let Some(t) = base_info.error_response {
                        self.check_as(base_info.module, t, value, prefix, out);
                    }
                }
                (Some(result), Some(Req { result: Some("object"), .. })) => {
                    out.type_name = Some("object");
                    if !result.is_object() {
                        out.diags.push(error(&format!("{prefix}/result"), "type", format!("expected an object, found {}", describe(result))));
                    }
                }
                (Some(result), Some(Req { result: Some(rt), .. })) => self.check_as(module_of(rt), rt, result, &format!("{prefix}/result"), out),
                (Some(result), _) => {
                    self.check_as(ext_info.module, results, result, &format!("{prefix}/result"), out);
                    if matched.is_none() {
                        let msg = format!("no {} request with id {} is waiting for this response{why}; checked as any result the {} sends", side.opposite().dir_name(), id.map_or("(none)".to_string(), shown), side.name());
                        out.diags.push(self.warning(&format!("{prefix}/id"), "stream.response-unmatched", msg));
                    }
                }
            }
            answered = matched.and_then(|r| r.method);
        } else {
            self.check_as(base_info.module, "JSONRPCMessage", value, prefix, out);
            return;
        }
        self.session.observe_apps(side, o, prefix, wrong_side, answered, out);
    }

    /// The tables of an enabled extension.
    fn ext_info(&self, ext: usize) -> &Info {
        &self.exts.iter().find(|(i, ..)| *i == ext).expect("the extension is enabled").2
    }

    /// The task `key` created by a request that travelled `dir`.
    fn task(&self, dir: Dir, key: &IdKey) -> Option<TaskOrigin> {
        self.tasks[dir.index()].get(key).cloned()
    }

    /// The version to check an `initialize` request as: the one it proposes when that version
    /// has `initialize`, else the newest version that has it (a client may propose a version
    /// the server does not know; the server answers with its own).
    fn initialize_version(&self, o: &Map<String, Value>, prefix: &str, out: &mut Outcome) -> Option<usize> {
        let has_initialize = |i: usize| self.infos[i].requests.contains_key("initialize");
        let newest = (0..VERSIONS.len()).rev().find(|&i| VERSIONS[i].name != "draft" && has_initialize(i));
        // No string to go by (missing, a number): the newest `initialize` type names the field.
        let Some(proposed) = o.get("params").and_then(|p| p.get("protocolVersion")).and_then(Value::as_str) else { return newest };
        match version_index(proposed) {
            Some(i) if has_initialize(i) => Some(i),
            Some(_) => newest,
            None => {
                let newest_name = newest.map(|i| VERSIONS[i].name).unwrap_or("?");
                let msg = format!("{}; checking `initialize` as {newest_name} (the server may answer with another version)", unknown_version(proposed));
                out.diags.push(self.warning(&format!("{prefix}/params/protocolVersion"), "protocol", msg));
                newest
            }
        }
    }

    /// Keeps the typed request for the session's observer, which pairs it with its answer.
    fn remember(&mut self, req: Req) {
        self.typed = Some(req);
    }

    /// `stream.id-reused`, from what the session's observer saw of the request's id.
    fn id_findings(&self, dir: &str, id: Option<&Value>, seen: &[Observation], prefix: &str, out: &mut Outcome) {
        let Some(id) = id else { return };
        for o in seen {
            let msg = match *o {
                Observation::ReusedId { request_at } => format!("id {} was already used by a {dir} request that was answered or cancelled (line {request_at}); ids must not be reused in a session", shown(id)),
                Observation::DuplicateId { open_at } => format!("id {} is already used by an unanswered {dir} request (line {open_at})", shown(id)),
                _ => continue,
            };
            out.diags.push(self.rule(&ID_REUSED, &format!("{prefix}/id"), msg));
        }
    }

    /// A response; `matched` is the request the session's observer paired it with (and the way
    /// that request travelled), `seen` what the observer made of it.
    #[allow(clippy::too_many_arguments)]
    fn response(&mut self, line_protocol: Option<usize>, dir: Option<Dir>, o: &Map<String, Value>, value: &Value, prefix: &str, matched: Option<(Dir, Req)>, seen: &[Observation], out: &mut Outcome) {
        let result = o.get("result");
        let is_error = o.contains_key("error");

        let mut carried = self.meta_version(result, prefix, "result", Severity::Error, out);
        if let Some(c) = carried {
            self.note_version_change(c, &format!("{prefix}/result/_meta/{}", escape_pointer(PROTOCOL_META_KEY)), out);
        }
        if let (Some((_, req)), Some(r)) = (&matched, result) {
            if req.method == Some("initialize") {
                if let Some(Value::String(s)) = r.get("protocolVersion") {
                    match version_index(s) {
                        Some(i) => carried = Some(i),
                        None => out.diags.push(error(&format!("{prefix}/result/protocolVersion"), "protocol", unknown_version(s))),
                    }
                }
            }
        }
        if let (Some(c), None) = (carried, self.fixed) {
            self.negotiated = Some(c);
        }
        let request_version = match matched.as_ref().map(|(_, r)| r.module) {
            Some(ModRef::Version(v)) => Some(v),
            _ => None,
        };
        let v = line_protocol.or(self.fixed).or(carried).or(request_version).or(self.negotiated).unwrap_or(self.latest);
        let info = &self.infos[v];
        out.protocol = Some(info.module.name);

        if is_error {
            if result.is_none() {
                match info.error_response {
                    Some(t) => self.check_as(info.module, t, value, prefix, out),
                    None => self.check_as(info.module, "JSONRPCMessage", value, prefix, out),
                }
            }
            return;
        }
        let Some(result) = result else { return };
        let result_prefix = format!("{prefix}/result");
        if let Some((req_dir, req)) = &matched {
            // The id of an answer obeys the rules of the request's id (the envelope alone lets
            // through what the version's `RequestId` refuses, e.g. an integer above 2^63-1).
            if let (Some(id), true) = (o.get("id"), info.types.contains("RequestId")) {
                self.check_quietly(info.module, "RequestId", id, &format!("{prefix}/id"), out);
            }
            // A task-augmented request is answered with the task, if the receiver made one.
            let task_result = match (req.task, info.task_result) {
                (true, Some(t)) if result.get("task").is_some() => Some(t),
                _ => None,
            };
            // Remember the task, so `tasks/result` naming it is typed by this request's result.
            let task_id = task_result.and(result.get("task")).and_then(|t| t.get("taskId")).and_then(IdKey::of);
            if let Some(task_id) = task_id {
                self.tasks[req_dir.index()].insert(task_id, TaskOrigin { module: req.module, result: req.result });
            }
            let info = &self.infos[v];
            // With --ext tasks, `resultType: "task"` is the extension's task handle, whatever the request (answering
            // an unsupported one is the session rule `session.tasks.unsupported-method`), in versions without core tasks.
            let ext_task = match (result.get("resultType").and_then(Value::as_str), info.task_result) {
                (Some("task"), None) => self.exts.iter().find(|(_, _, i)| i.types.contains(EXT_TASK_RESULT)),
                _ => None,
            };
            if let Some((ei, _, ext_info)) = ext_task {
                out.protocol = Some(EXTENSIONS[*ei].name);
                self.check_as(ext_info.module, EXT_TASK_RESULT, result, &result_prefix, out);
                return;
            }
            if let Some(rt) = task_result.or(req.result) {
                let typed_by = match req.module {
                    ModRef::Ext(i) => {
                        out.protocol = Some(EXTENSIONS[i].name);
                        self.exts.iter().find(|(e, ..)| *e == i).map(|(.., info)| info)
                    }
                    ModRef::Version(_) => Some(info),
                };
                if rt == "object" {
                    // A result the schema types as a plain object (`{}`).
                    out.type_name = Some("object");
                    if !result.is_object() {
                        out.diags.push(error(&result_prefix, "type", format!("expected an object, found {}", describe(result))));
                    }
                    return;
                }
                if let Some(typed_by) = typed_by.filter(|i| i.types.contains(rt)) {
                    self.check_as(typed_by.module, rt, result, &result_prefix, out);
                    // The resource-metadata proposal (whose module has `resources/metadata`): every
                    // element has the URI that was asked for, now that the request is known.
                    if let (true, Some(uri)) = (self.validate && typed_by.types.contains(METADATA_RESULT), req.uri.as_deref()) {
                        let field = if rt == METADATA_RESULT { "metadata" } else { "contents" };
                        let mut cx = Cx::new(self.options);
                        mcp_spec_types::validate::resources::check_requested_uri(result, field, uri, &mut cx);
                        push_report(&result_prefix, cx.finish(), out);
                    }
                    return;
                }
            }
        }
        // Unmatched (or a method the version does not define): the generic response, and the
        // result as every result the responding side sends.
        let info = &self.infos[v];
        let module = info.module;
        if let Some(t) = info.result_response {
            self.check_as(module, t, value, prefix, out);
        }
        self.check_any_result(v, dir, result, &result_prefix, out);
        if matched.is_none() {
            let id = o.get("id").map(shown).unwrap_or_else(|| "(none)".into());
            let way = match dir {
                Some(d) => format!(" travelling {}", d.opposite().name()),
                None => String::new(),
            };
            let msg = format!("no request{way} with id {id} is waiting for this response{}; checked as any result the responder sends", unmatched_why(seen));
            out.diags.push(self.warning(&format!("{prefix}/id"), "stream.response-unmatched", msg));
        }
    }

    /// A result whose request is unknown: it must be one of the results the responding side
    /// sends. `EmptyResult` (and any result without required keys) takes every object, so it
    /// only counts when no specific result claims one of the result's keys: a result that a
    /// specific type rejects below its top level (a wrong `content`, a bad `tools` item) is
    /// reported against the closest such type.
    fn check_any_result(&self, v: usize, dir: Option<Dir>, result: &Value, prefix: &str, out: &mut Outcome) {
        let info = &self.infos[v];
        let module = info.module;
        let union = if dir == Some(Dir::C2S) { "ClientResult" } else { "ServerResult" };
        if !self.validate {
            if info.types.contains(union) {
                self.check_as(module, union, result, prefix, out);
            }
            return;
        }
        if !result.is_object() {
            out.diags.push(error(prefix, "type", format!("expected a result (an object), found {}", describe(result))));
            return;
        }
        // The responder answers the other side's requests.
        let requester = match dir {
            Some(Dir::C2S) => Some(&info.server_requests),
            Some(Dir::S2C) => Some(&info.client_requests),
            None => None,
        };
        let mut candidates: Vec<&'static str> = Vec::new();
        for (req, res) in info.requests.values() {
            if requester.is_none_or(|s| s.holds(req).unwrap_or(true)) && !candidates.contains(res) {
                candidates.push(res);
            }
        }
        if let Some(t) = info.task_result {
            candidates.push(t);
        }
        candidates.sort_unstable();
        let options = Options { max_violations: self.max_findings, ..self.options };
        let empty = Value::Object(Map::new());
        let mut catch_all = None;
        // The type with the fewest errors among those that claim a key, and among all.
        let mut closest: Option<(&'static str, usize)> = None;
        let mut fewest: Option<(&'static str, usize)> = None;
        for ty in candidates {
            let Some(entry) = (module.dynamic)(ty) else { continue };
            let report = (entry.validate)(result, &options);
            let errors = report.errors().count() + report.omitted_errors;
            if errors == 0 {
                if (entry.validate)(&empty, &options).is_valid() {
                    catch_all.get_or_insert(ty);
                    continue;
                }
                out.type_name.get_or_insert(ty);
                return;
            }
            // Only missing keys at the top: the result has none of this type's keys.
            let claims = report.errors().any(|e| !(e.pointer.is_empty() && e.rule == "required"));
            if claims && closest.is_none_or(|(_, n)| errors < n) {
                closest = Some((ty, errors));
            }
            if fewest.is_none_or(|(_, n)| errors < n) {
                fewest = Some((ty, errors));
            }
        }
        match (closest, catch_all) {
            (None, Some(ty)) => self.check_as(module, ty, result, prefix, out),
            _ => {
                let closest = closest.or(fewest).map(|(ty, _)| ty);
                let mut msg = format!("the result is no result the responder sends in {}", module.label);
                if let Some(ty) = closest {
                    msg.push_str(&format!("; closest: {ty}"));
                }
                out.diags.push(error(prefix, "stream.response-result", msg));
                if let Some(ty) = closest {
                    self.check_as(module, ty, result, prefix, out);
                }
            }
        }
    }

    /// [`Checker::check_as`] without naming the value's type in the outcome.
    fn check_quietly(&self, module: &'static Module, ty: &'static str, value: &Value, prefix: &str, out: &mut Outcome) {
        let named = out.type_name.take();
        self.check_as(module, ty, value, prefix, out);
        out.type_name = named;
    }

    /// The three checks on one value as one type: typed reading, the validators, the round trip.
    fn check_as(&self, module: &'static Module, ty: &'static str, value: &Value, prefix: &str, out: &mut Outcome) {
        if out.type_name.is_none() {
            out.type_name = Some(ty);
        }
        let Some(entry) = (module.dynamic)(ty) else {
            out.diags.push(error(prefix, "internal", format!("{} has no type `{ty}`", module.label)));
            return;
        };
        if self.validate {
            // Only what can still be kept is collected; the rest is counted.
            let budget = self.max_findings.saturating_sub(out.diags.len());
            let options = Options { max_violations: budget, ..self.options };
            push_report(prefix, (entry.validate)(value, &options), out);
            crate::compat_icons::check(module, ty, value, &options, prefix, out);
        }
        // Writing back costs as much as reading; only --roundtrip needs it.
        let read = if self.roundtrip {
            Some((entry.roundtrip_value)(value))
        } else {
            Some((entry.read_value)(value).map(|name| (Value::Null, name)))
        };
        match read {
            None => {}
            Some(Err(e)) => out.diags.push(error(prefix, "deserialize", format!("not a valid {ty} of {}: {e}", module.label))),
            Some(Ok((again, _))) => {
                if self.roundtrip {
                    if let Some((at, msg)) = first_difference(value, &again) {
                        let p = format!("{prefix}{at}");
                        out.diags.push(error(&p, "roundtrip", format!("re-serialized {ty} differs: {msg}")));
                    }
                }
            }
        }
    }

    /// A finding of a rule in the session rule table, with the severity it gives (`--strict`: error).
    /// A transport rule's finding, under `--strict` an error.
    pub(crate) fn strictly(&self, mut d: Diag) -> Diag {
        if self.strict {
            d.severity = Severity::Error;
        }
        d
    }

    fn rule(&self, rule: &'static Rule, pointer: &str, message: String) -> Diag {
        let severity = if self.strict { Severity::Error } else { rule.severity };
        Diag { pointer: pointer.to_string(), rule: rule.id, severity, message }
    }

    fn warning(&self, pointer: &str, rule: &'static str, message: String) -> Diag {
        let severity = if self.strict { Severity::Error } else { Severity::Warning };
        Diag { pointer: pointer.to_string(), rule, severity, message }
    }
}

fn error(pointer: &str, rule: &'static str, message: impl Into<String>) -> Diag {
    Diag { pointer: pointer.to_string(), rule, severity: Severity::Error, message: message.into() }
}

fn unknown_version(s: &str) -> String {
    format!("unknown protocol version `{}` (known: {})", clip(s), crate::versions::version_names())
}

/// The wrapper keys a JSONL line may have around its message.
/// `leg` and `bridge`: a bridge recording's (`proxy --to`); `bridge` is the verdict, not checked.
/// `http`: what the HTTP layer said (`proxy --http`).
const WRAPPER_KEYS: [&str; 7] = ["msg", "dir", "protocol", "type", "leg", "bridge", "http"];

/// A line of HTTP context only: an `http` object with `at`, and no message (a document or message
/// that merely has an `http` key is checked as before).
fn is_http_line(v: &Value) -> bool {
    v.get("http").is_some_and(|h| h.get("at").is_some()) && v.get("msg").is_none() && v.get("jsonrpc").is_none()
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn push_report(prefix: &str, report: mcp_spec_types::validate::Report, out: &mut Outcome) {
    out.omitted += report.omitted;
    out.omitted_errors += report.omitted_errors;
    for v in report.violations {
        let pointer = if prefix.is_empty() { v.pointer } else { format!("{prefix}{}", v.pointer) };
        out.diags.push(Diag { pointer, rule: v.rule, severity: v.severity, message: v.message });
    }
}

/// Drops exact repeats (the envelope rules run both on their own and inside some types).
fn dedupe(diags: &mut Vec<Diag>) {
    if diags.len() < 2 {
        return;
    }
    let mut seen = HashSet::new();
    diags.retain(|d| seen.insert((d.pointer.clone(), d.rule, d.message.clone())));
}

/// The first place where two values differ, as a JSON pointer and a description.
/// Values come from serde_json, whose parser stops at 128 levels, so the recursion is bounded.
pub fn first_difference(a: &Value, b: &Value) -> Option<(String, String)> {
    fn escape(k: &str) -> String {
        k.replace('~', "~0").replace('/', "~1")
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some((at, msg)) = first_difference(p, q) {
                            return Some((format!("/{}{at}", escape(k)), msg));
                        }
                    }
                    (Some(p), None) => return Some((format!("/{}", escape(k)), format!("{} was dropped", describe(p)))),
                    (None, Some(q)) => return Some((format!("/{}", escape(k)), format!("{} was added", describe(q)))),
                    (None, None) => {}
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if let Some((at, msg)) = first_difference(p, q) {
                    return Some((format!("/{i}{at}"), msg));
                }
            }
            match x.len().cmp(&y.len()) {
                std::cmp::Ordering::Equal => None,
                std::cmp::Ordering::Greater => Some((format!("/{}", y.len()), format!("{} was dropped", describe(&x[y.len()])))),
                std::cmp::Ordering::Less => Some((format!("/{}", x.len()), format!("{} was added", describe(&y[x.len()])))),
            }
        }
        _ if a == b => None,
        _ => Some((String::new(), format!("{} was written back as {}", describe(a), describe(b)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences() {
        assert_eq!(first_difference(&json!({"a": [1, 2]}), &json!({"a": [1, 2]})), None);
        assert_eq!(first_difference(&json!({"a": [1, 2]}), &json!({"a": [1, 2.0]})).unwrap().0, "/a/1");
        assert_eq!(first_difference(&json!({"a/b": 1, "c": 2}), &json!({"a/b": 1})).unwrap().0, "/c");
        assert_eq!(first_difference(&json!({"a/b": 1}), &json!({})).unwrap().0, "/a~1b");
        assert_eq!(first_difference(&json!([1]), &json!([1, 3])).unwrap().0, "/1");
        assert_eq!(first_difference(&json!(1), &json!("1")).unwrap().0, "");
    }

    #[test]
    fn pending_is_bounded() {
        let req = Req { module: ModRef::Version(0), method: None, result: None, task: false, uri: None };
        let mut p = Bounded::<Req>::new(PENDING_CAP);
        for i in 0..(PENDING_CAP as i64 * 5) {
            p.insert(IdKey::Int(i), req.clone());
            if i % 3 == 0 {
                p.remove(&IdKey::Int(i));
            }
        }
        assert!(p.len() <= PENDING_CAP);
        assert!(p.contains(&IdKey::Int(PENDING_CAP as i64 * 5 - 1)));
    }
}
