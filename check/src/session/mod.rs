//! Rules that span messages: what one message means for the ones after it (the lifecycle, the
//! declared capabilities, the listed tools and their schemas, subscriptions, cursors, progress
//! tokens, cancellations), and the counts behind `--summary`.
//!
//! Each message enters the session once, after the checker typed it (`Session::enter_request`;
//! a response through `Session::enter_response`, which hands the checker the request it answers
//! to type it by): the engine's [`Observer`], the one model of requests in flight, their answers,
//! cancellations, progress tokens and the lifecycle, sees it first; then `stream.id-reused`, and
//! the rule families of `FAMILIES` (declared by the `families!` list below), each with the
//! stream's tables (`Stream`, one per stream), see it with the direction it travelled and the
//! version it was checked as. The rules on requests in flight (and the checker's
//! `stream.response-unmatched`) read the observer's observations, so "in flight" means the same
//! for a late answer and for late progress. Every table here is bounded (see [`Capped`], and the
//! observer's own bounds); what a full table forgets is counted in [`Session::evictions`].
//!
//! Rules that need "never seen before" (an unlisted tool, an unknown cursor or progress token, a
//! cancelled id never issued) only fire on a *whole* session: one whose first message is the
//! client's `initialize`, or a stateless version's request (2026-07-28 has no `initialize`). A
//! capture that starts mid-session cannot tell "never sent" from "sent before the capture". Nor
//! do they fire once the table they look in has forgotten entries.

mod counts;
mod families;
pub use crate::rules::session as rules;
mod schema_bounds;

use std::collections::BTreeMap;

use mcp_spec_engine::observe::{self, Direction, Observation, Observer, ObserverConfig, Seen};
use mcp_spec_types::runtime::meta;
use mcp_spec_types::tree::{Node, Object};
use serde_json::{Map, Value};

use crate::settings::Settings;
pub(crate) use crate::bounded::Capped;
use crate::bounded::{clip, shown_node, Weigh};
use crate::vocab::{dir_name, AppsSide, Diag, Outcome, Req, ANSWERED_CAP, PENDING_CAP};
use crate::versions::{version_index, VERSIONS};
pub use rules::{Rule, RULES};
use counts::MessageCounts;
pub use counts::{MessageKey, SUMMARY_METHODS_CAP};

/// How many entries each session table keeps (requests, tools, subscriptions, cursors, tokens).
pub const SESSION_CAP: usize = 4096;

/// How many unanswered requests a stream's end lists one by one (the rest are counted).
pub const UNANSWERED_LISTED: usize = 100;

/// A request the session waits an answer for: what the rules on its answer need.
#[derive(Debug, Clone)]
pub(crate) struct SentRequest {
    /// The method, [`clip`]ped: a long one is no method a rule looks for.
    pub method: Box<str>,
    pub line: u64,
    /// The id as written ([`crate::bounded::shown`]), for the summary.
    pub id: Box<str>,
    /// The few params the rules on the answer need ([`kept_params`]), not the whole request.
    pub params: Option<Value>,
}

/// The params keys a waiting request keeps: a request may be large (a sampling conversation),
/// and up to [`PENDING_CAP`] of them wait per direction.
const KEPT_PARAMS: [&str; 5] = ["name", "uri", "cursor", "task", "taskId"];

/// The `_meta` keys a waiting request keeps (progress, and 2026-07-28's per-request capabilities).
const KEPT_META: [&str; 3] = [meta::PROGRESS_TOKEN, meta::PROTOCOL_VERSION, meta::CLIENT_CAPABILITIES];

/// What a waiting request keeps of its params, as a `Value` (it outlives the line): each kept key's
/// value whole, so as much as the request's `name`, `uri`, `taskId` and those `_meta` keys weigh
/// (the table's byte budget counts it).
fn kept_params(params: Node<'_>) -> Value {
    let mut kept = Map::new();
    for k in KEPT_PARAMS {
        if let Some(v) = params.get(k) {
            // Only the presence of `task` and `cursor` matters: a long cursor is not kept.
            kept.insert(k.to_string(), if k == "task" || k == "cursor" { Value::Bool(true) } else { kept_value(v) });
        }
    }
    if let Some(meta) = params.get("_meta").and_then(Node::as_object) {
        let meta: Map<String, Value> = KEPT_META.iter().filter_map(|k| Some((k.to_string(), kept_value(meta.get(k)?)))).collect();
        if !meta.is_empty() {
            kept.insert("_meta".to_string(), Value::Object(meta));
        }
    }
    Value::Object(kept)
}

/// A kept value as a `Value`: a container is weighed first ([`crate::cost`]), and one past its
/// budget is kept as `null` (no rule reads a container there but the per-request capabilities).
fn kept_value(v: Node<'_>) -> Value {
    if (v.is_object() || v.is_array()) && crate::cost::check(v.json_text().as_bytes()).is_err() {
        return Value::Null;
    }
    v.to_value()
}

impl Weigh for SentRequest {
    fn weight(&self) -> usize {
        self.method.len() + self.id.len() + self.params.weight()
    }
}

/// What the observer keeps with each request in flight: what the checker types its answer with,
/// and what the session rules on the answer need.
pub(crate) struct Waiting {
    pub req: Option<Req>,
    pub sent: SentRequest,
}

impl Weigh for Waiting {
    fn weight(&self) -> usize {
        self.req.as_ref().map_or(0, Weigh::weight) + self.sent.weight()
    }
}

impl SentRequest {
    pub fn param(&self, key: &str) -> Option<&Value> {
        self.params.as_ref()?.get(key)
    }
    pub fn param_str(&self, key: &str) -> Option<&str> {
        self.param(key)?.as_str()
    }
}

/// One message as the session rules see it.
pub(crate) struct Msg<'a, 't> {
    /// The way it travelled; for a response, found from its request when the line has no `dir`.
    pub dir: Option<Direction>,
    pub line: u64,
    /// The version index it was checked as; `None` for an extension's message (`ui/...`).
    pub version: Option<usize>,
    pub prefix: &'a str,
    pub method: Option<&'a str>,
    pub id: Option<Node<'t>>,
    pub params: Option<Node<'t>>,
    pub result: Option<Node<'t>>,
    pub error: Option<Node<'t>>,
    /// The request a response answers (already out of flight).
    pub answers: Option<SentRequest>,
    /// What the message meant for the requests in flight and the lifecycle.
    pub observations: &'a [observe::Observation],
}

impl<'t> Msg<'_, 't> {
    /// Whether the version defines a request method (e.g. `initialize`).
    pub fn version_has(&self, method: &str) -> bool {
        self.version.is_some_and(|v| VERSIONS[v].requests.iter().any(|(m, ..)| *m == method))
    }
    pub fn param(&self, key: &str) -> Option<Node<'t>> {
        self.params?.get(key)
    }
    pub fn pointer(&self, rest: &str) -> String {
        format!("{}{rest}", self.prefix)
    }
}

/// Where findings go: the value's outcome, with the severity `--strict` gives.
pub(crate) struct Sink<'o> {
    strict: bool,
    enabled: bool,
    out: &'o mut Outcome,
}

impl Sink<'_> {
    /// A finding of a rule outside the session table (`line.too-costly`), as it is.
    pub fn push(&mut self, d: Diag) {
        if self.enabled {
            self.out.diags.push(d);
        }
    }

    pub fn report(&mut self, rule: &'static Rule, pointer: String, message: String) {
        if !self.enabled {
            return;
        }
        self.out.diags.push(Diag::checked(rule, self.strict, pointer, message));
    }
}

/// A request left unanswered at the end of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unanswered {
    pub dir: &'static str,
    pub id: String,
    pub method: String,
    pub line: u64,
}

/// What only the end of a stream can tell.
#[derive(Debug, Clone, Default)]
pub struct StreamEnd {
    /// Findings about earlier lines (each on the line it concerns).
    pub outcomes: Vec<Outcome>,
    /// The first [`UNANSWERED_LISTED`] requests still waiting, oldest first per direction.
    pub unanswered: Vec<Unanswered>,
    /// How many were waiting in all.
    pub unanswered_total: usize,
}

// The rule families, in the order they report (the extensions' first: they see every message); a new family is
// its module and a line here (see `families`).
families::families! {
    /// The Tasks extension's tasks, their creators and listens.
    tasks,
    /// The Skills extension's held skill entries.
    skills,
    lifecycle,
    /// What each side declared.
    capabilities,
    /// The listed tools, their compiled schemas.
    tools,
    /// Subscriptions, cursors, the URIs seen.
    resources,
    progress,
    /// The MCP Apps view<->host channel's lifecycle.
    apps,
}

/// The session state of one stream, and the message counts of all of them.
pub struct Session {
    strict: bool,
    enabled: bool,
    /// The names of the enabled extensions (`--ext`), for the families that run with one.
    extensions: Vec<&'static str>,
    /// The method prefixes of the enabled extensions (`ui/`): their messages are not the session's.
    ext_prefixes: Vec<&'static str>,
    /// The stream being checked.
    stream: Stream,
    /// Compiled tool schemas, kept across streams (a pure memo of [`tools::State`]'s compiling).
    schemas: tools::SchemaCache,
    messages: MessageCounts,
    /// The bridge recording's leg being checked, for the counts (empty: none).
    pub(crate) leg: &'static str,
    /// Entries forgotten by earlier streams' full tables.
    evicted_before: u64,
    /// The bytes each table may hold (`Limits::table_bytes`).
    table_bytes: usize,
}

/// The requests of `observer` still waiting, into `end` (the first [`UNANSWERED_LISTED`] listed).
fn unanswered(observer: &Observer<Waiting>, end: &mut StreamEnd) {
    for d in [Direction::ClientToServer, Direction::ServerToClient] {
        end.unanswered_total += observer.in_flight_len(d);
        for r in observer.in_flight(d).map(|f| &f.attachment.sent) {
            if end.unanswered.len() < UNANSWERED_LISTED {
                end.unanswered.push(Unanswered { dir: dir_name(d), id: r.id.to_string(), method: r.method.to_string(), line: r.line });
            }
        }
    }
}

fn observer(bytes: usize) -> Observer<Waiting> {
    Observer::new(ObserverConfig { max_in_flight: PENDING_CAP, max_ended: ANSWERED_CAP, max_bytes: bytes })
}

impl Session {
    pub fn new(args: &Settings) -> Session {
        let exts = || args.extensions.iter().map(|&i| &crate::versions::EXTENSIONS[i]);
        let bytes = args.limits.table_bytes;
        Session {
            strict: args.strict,
            enabled: args.validate,
            extensions: exts().map(|e| e.name).collect(),
            ext_prefixes: exts().flat_map(|e| e.method_prefixes.iter().copied()).collect(),
            stream: Stream::new(bytes),
            schemas: tools::SchemaCache::new(bytes),
            messages: MessageCounts::default(),
            leg: "",
            evicted_before: 0,
            table_bytes: bytes,
        }
    }

    /// Forgets the stream (the message counts stay: the summary covers every file).
    pub fn reset(&mut self) {
        let ended = std::mem::replace(&mut self.stream, Stream::new(self.table_bytes));
        self.evicted_before += ended.evicted();
    }

    /// Swaps the stream being checked with `other` (the legs of a bridge recording are two streams
    /// in one file); the message counts stay.
    pub(crate) fn swap_stream(&mut self, other: &mut Stream) {
        std::mem::swap(&mut self.stream, other);
    }

    /// Counts what a parked stream forgot, as it goes (the other leg of a bridge recording, at its end).
    pub(crate) fn drop_stream(&mut self, parked: Stream) {
        self.evicted_before += parked.evicted();
    }

    /// Entries the bounded tables forgot, over every stream so far.
    pub fn evictions(&self) -> u64 {
        self.evicted_before + self.stream.evicted()
    }

    /// Messages per (direction, kind, method), over every stream so far.
    pub fn message_counts(&self) -> BTreeMap<MessageKey, u64> {
        self.messages.to_map()
    }

    /// Requests waiting for an answer in the current stream.
    pub fn waiting(&self) -> usize {
        [Direction::ClientToServer, Direction::ServerToClient].iter().map(|&d| self.stream.observer.in_flight_len(d)).sum()
    }

    /// A request or notification enters the session, once the checker typed it: the observer sees it (keeping
    /// `req`, what the checker types the request's answer with), `stream.id-reused` reads what it saw of the id,
    /// then the families. `dir` as the line gave it (or as the method decided it); findings go to `out`.
    pub(crate) fn enter_request(&mut self, dir: Option<Direction>, o: Object<'_>, req: Option<Req>, prefix: &str, out: &mut Outcome) {
        let seen = self.see(dir, o, out.line, req);
        self.reused_ids(dir_name(dir.unwrap_or(Direction::ClientToServer)), o.get("id"), &seen.observations, prefix, out);
        self.observe(dir, seen, o, prefix, out);
    }

    /// A response enters the session: the observer pairs it with its request, `type_it` (the checker's step)
    /// types it by that request (and the way it travelled; `None`: unmatched) with what the observer made of
    /// it, then the families see it as typed. `dir` as the line gave it.
    pub(crate) fn enter_response(&mut self, dir: Option<Direction>, o: Object<'_>, prefix: &str, out: &mut Outcome, type_it: impl FnOnce(Option<(Direction, Req)>, &[Observation], &mut Outcome)) {
        let mut seen = self.see(dir, o, out.line, None);
        let matched = seen.answered.as_mut().and_then(|a| Some((a.request, a.attachment.req.take()?)));
        type_it(matched, &seen.observations, out);
        self.observe(dir, seen, o, prefix, out);
    }

    /// Feeds one message to the observer: `line` its position, `req` what the checker types the
    /// answer to a request with.
    fn see(&mut self, dir: Option<Direction>, o: Object<'_>, line: u64, req: Option<Req>) -> Seen<Waiting> {
        self.stream.observer.observe_node(line, dir, o, || {
            let method = o.get("method").and_then(Node::as_str).unwrap_or_default();
            let id = o.get("id").map_or_else(|| "null".to_string(), crate::bounded::shown_node);
            let sent = SentRequest { method: clip(method).into(), line, id: id.into(), params: o.get("params").map(kept_params) };
            Waiting { req, sent }
        })
    }

    /// `stream.id-reused`, from what an observer saw of a request's `id` travelling `dir` (this
    /// session's, or the MCP Apps channel's). Reported with `--no-validate` too, as the checker's
    /// own rules on the stream are.
    pub(crate) fn reused_ids(&self, dir: &str, id: Option<Node<'_>>, seen: &[Observation], prefix: &str, out: &mut Outcome) {
        let Some(id) = id else { return };
        for o in seen {
            let message = match *o {
                Observation::ReusedId { request_at } => format!("id {} was already used by a {dir} request that was answered or cancelled (line {request_at}); ids must not be reused in a session", shown_node(id)),
                Observation::DuplicateId { open_at } => format!("id {} is already used by an unanswered {dir} request (line {open_at})", shown_node(id)),
                _ => continue,
            };
            out.diags.push(Diag::checked(&rules::ID_REUSED, self.strict, format!("{prefix}/id"), message));
        }
    }

    /// The families see one message after the checker typed it and the observer saw it: `o` the
    /// message object; findings go to `out`.
    fn observe(&mut self, dir: Option<Direction>, seen: Seen<Waiting>, o: Object<'_>, prefix: &str, out: &mut Outcome) {
        let version = out.protocol.and_then(version_index);
        let method = o.get("method").and_then(Node::as_str);
        let id = o.get("id");
        let answers = seen.answered.map(|a| a.attachment.sent);
        // A response travels the other way from its request: the observer says which way.
        let dir = if answers.is_some() { seen.direction } else { dir };
        let msg = Msg { dir, line: out.line, version, prefix, method, id, params: o.get("params"), result: o.get("result"), error: o.get("error"), answers, observations: &seen.observations };
        self.count(&msg, o.contains_key("error"));

        let whole = *self.stream.whole.get_or_insert_with(|| match (method, dir) {
            (Some("initialize"), Some(Direction::ClientToServer) | None) => id.is_some(),
            // A Tasks or Skills extension request is one of 2026-07-28, which has no `initialize` (checked as the extension).
            (Some(m), Some(Direction::ClientToServer) | None) => {
                let on = |name| self.extensions.contains(&name);
                let ext = (on("tasks") && m.starts_with("tasks/")) || (on("skills") && skills::is_skills_method(m));
                id.is_some() && !msg.version_has("initialize") && (version.is_some() || ext)
            }
            _ => false,
        });
        let answers_ext = msg.answers.as_ref().is_some_and(|r| self.ext_prefixes.iter().any(|p| r.method.starts_with(p)));
        let mut sink = Sink { strict: self.strict, enabled: self.enabled, out };
        // An extension's message (`ui/...`, or its answer) is only counted and paired, but by its extension's rules.
        let core = version.is_some() && !answers_ext;
        let mut cx = families::Cx { whole, schemas: &mut self.schemas };
        // A plain loop over the constant table: the compiler unrolls it, each row's `runs` known.
        for family in FAMILIES {
            if family.runs.sees(core, &self.extensions) {
                (family.observe)(&mut self.stream, &mut cx, &msg, &mut sink);
            }
        }
    }

    /// Sees one message of the MCP Apps view<->host channel (`--ext apps`, `dir` `view2host` or
    /// `host2view`); `answers` is the method of the request a response answers, if known.
    pub fn observe_apps(&mut self, side: AppsSide, o: Object<'_>, prefix: &str, wrong_side: bool, answers: Option<&str>, out: &mut Outcome) {
        let dir = side.dir_name();
        let method = o.get("method").and_then(Node::as_str);
        let is_error = o.contains_key("error");
        let (kind, counted) = match (method, o.get("id")) {
            (Some(m), Some(_)) => ("request", m),
            (Some(m), None) => ("notification", m),
            (None, _) => (if is_error { "error" } else { "result" }, answers.unwrap_or("(unmatched)")),
        };
        self.count_row(dir, kind, counted);
        let line = out.line;
        let mut sink = Sink { strict: self.strict, enabled: self.enabled, out };
        let msg = apps::ChannelMsg { side, line, prefix, o, wrong_side, answers };
        self.stream.apps.observe(&msg, &self.stream.tools, &mut sink);
    }

    fn count(&mut self, msg: &Msg, is_error: bool) {
        let dir = msg.dir.map_or("?", dir_name);
        let (kind, method) = match (msg.method, msg.id, &msg.answers) {
            (Some(m), Some(_), _) => ("request", m),
            (Some(m), None, _) => ("notification", m),
            (None, _, Some(r)) => (if is_error { "error" } else { "result" }, &*r.method),
            (None, ..) => (if is_error { "error" } else { "result" }, "(unmatched)"),
        };
        self.count_row(dir, kind, method);
    }

    fn count_row(&mut self, dir: &'static str, kind: &'static str, method: &str) {
        // A long method is no method of the schema: its row shows a prefix, so the table stays small.
        self.messages.add((self.leg, dir, kind), &clip(method));
    }

    /// A model of requests in flight for one exchange of a stateless version (check/scope.rs):
    /// it holds that exchange's few requests, so its tables are small.
    pub(crate) fn exchange_observer(&self) -> Observer<Waiting> {
        observer(self.table_bytes.min(crate::settings::Limits::EXCHANGE_TABLE_BYTES))
    }

    /// Whether the client's request `id` is in flight.
    pub(crate) fn in_flight(&self, id: &Value) -> bool {
        self.stream.observer.is_in_flight(Direction::ClientToServer, id)
    }

    /// Swaps the model of requests in flight with `other` (an exchange's own, check/scope.rs).
    pub(crate) fn swap_observer(&mut self, other: &mut Observer<Waiting>) {
        std::mem::swap(&mut self.stream.observer, other);
    }

    /// Ends an exchange's own model: its requests still waiting go to `end`, what it forgot is counted.
    pub(crate) fn end_observer(&mut self, ended: Observer<Waiting>, end: &mut StreamEnd) {
        self.evicted_before += ended.forgotten();
        unanswered(&ended, end);
    }

    /// Whether the stream is a whole session (the module docs), until [`Session::restore_whole`]
    /// says otherwise: set to `false` while a message whose context the checker cannot see is checked.
    pub(crate) fn set_whole(&mut self, whole: Option<bool>) -> Option<bool> {
        std::mem::replace(&mut self.stream.whole, whole)
    }

    /// The end of the stream: late findings, and the requests still waiting.
    pub fn finish(&mut self) -> StreamEnd {
        let mut end = StreamEnd::default();
        unanswered(&self.stream.observer, &mut end);
        if self.enabled && self.stream.whole == Some(true) {
            for family in FAMILIES.iter().filter(|f| f.runs.enabled(&self.extensions)) {
                end.outcomes.extend((family.finish)(&self.stream, self.strict));
            }
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_spec_types::validate::Severity;
    use serde_json::json;

    #[test]
    fn waiting_requests_keep_only_what_the_rules_need() {
        let params = json!({"name": "t", "arguments": {"big": "x".repeat(1000)}, "task": {"ttl": 5}, "_meta": {"progressToken": 1, "other": [1, 2, 3]}});
        let kept = |v: &Value| kept_params(mcp_spec_types::tree::Doc::from_value(v).root());
        assert_eq!(kept(&params), json!({"name": "t", "task": true, "_meta": {"progressToken": 1}}));
        assert_eq!(kept(&json!({"cursor": "c".repeat(1000)})), json!({"cursor": true}));
    }

    /// A response enters once: the checker's step gets the request it answers, and the families see
    /// it as that step typed it, their findings after the step's. Without the step's version, no family runs.
    #[test]
    fn a_response_is_typed_between_the_observer_and_the_families() {
        use mcp_spec_types::tree::Doc;
        let mut s = Session::new(&Settings::default());
        let request = Doc::from_value(&json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "file:///a"}}));
        let typed = Req { module: crate::vocab::ModRef::Version(0), method: Some("resources/read"), result: Some("ReadResourceResult"), task: false, uri: None };
        let mut out = Outcome { line: 1, protocol: Some("2025-11-25"), ..Outcome::default() };
        s.enter_request(Some(Direction::ClientToServer), request.root().as_object().unwrap(), Some(typed), "", &mut out);
        let mut rules = Vec::new();
        for (line, typed_as) in [(2, Some("2025-11-25")), (4, None)] {
            let answer = Doc::from_value(&json!({"jsonrpc": "2.0", "id": line - 1, "result": {"contents": [{"uri": "file:///b", "text": ""}]}}));
            let mut out = Outcome { line, ..Outcome::default() };
            let mut paired = None;
            s.enter_response(Some(Direction::ServerToClient), answer.root().as_object().unwrap(), "", &mut out, |matched, _, out| {
                paired = matched.map(|(d, r)| (d, r.result));
                out.protocol = typed_as;
                out.diags.push(Diag { pointer: String::new(), rule: "typed", severity: Severity::Error, message: String::new() });
            });
            assert_eq!(paired, Some((Direction::ClientToServer, Some("ReadResourceResult"))), "line {line}");
            rules.push(out.diags.iter().map(|d| d.rule).collect::<Vec<_>>());
            let again = Doc::from_value(&json!({"jsonrpc": "2.0", "id": line + 1, "method": "resources/read", "params": {"uri": "file:///a"}}));
            let typed = Req { module: crate::vocab::ModRef::Version(0), method: Some("resources/read"), result: Some("ReadResourceResult"), task: false, uri: None };
            s.enter_request(Some(Direction::ClientToServer), again.root().as_object().unwrap(), Some(typed), "", &mut Outcome { line: line + 1, protocol: Some("2025-11-25"), ..Outcome::default() });
        }
        println!("{} responses", rules.len());
        assert_eq!(rules, [vec!["typed", rules::READ_URI.id], vec!["typed"]]);
    }

    /// A stream of requests nobody answers: the session keeps at most its cap and counts the rest.
    #[test]
    fn session_state_is_bounded() {
        let mut s = Session::new(&Settings::default());
        let n = PENDING_CAP as u64 + 100;
        for i in 0..n {
            let msg = mcp_spec_types::tree::Doc::from_value(&json!({"jsonrpc": "2.0", "id": i, "method": "ping"}));
            let o = msg.root().as_object().unwrap();
            let mut out = Outcome { line: i + 1, protocol: Some("2025-11-25"), ..Outcome::default() };
            s.enter_request(Some(Direction::ClientToServer), o, None, "", &mut out);
        }
        assert_eq!(s.waiting(), PENDING_CAP);
        // One table of requests in flight (before, a waiting table and a table of issued ids each forgot 100).
        assert_eq!(s.evictions(), 100);
        let end = s.finish();
        assert_eq!(end.unanswered_total, PENDING_CAP);
        assert_eq!(end.unanswered.len(), UNANSWERED_LISTED);
        assert_eq!(end.unanswered[0].line, 101, "the oldest still remembered comes first");
    }
}
