//! The checker: each line or value of a stream checked as the message it is, with the state the
//! stream has built so far as one value (`Stream`: the negotiated version, the tasks, the HTTP
//! exchanges; the session rules' tables are the session's), one per leg of a bridge recording.

//!
//! One file per part: `line.rs` reads a line's wrapper, `message.rs` types requests and
//! notifications (`Typing`: the tables and the stream's state), `response.rs` responses, `apps.rs`
//! the MCP Apps channel (`AppsChannel`: its unions and requests in flight), `typed.rs` one value as
//! one type (`Types`: the versions' and extensions' tables and the options), `scope.rs` the
//! exchanges of a stateless version (each checked on its own). The `Checker` holds the parts.

mod apps;
mod line;
mod message;
mod response;
mod scope;
mod typed;

use std::collections::HashSet;

use mcp_spec_types::negotiate::VersionTracker;
use mcp_spec_types::validate::{Options, Severity};

pub use crate::vocab::{AppsSide, Diag, Direction, Outcome, Req, ANSWERED_CAP, PENDING_CAP, PROTOCOL_META_KEY};
pub use crate::vocab::IdKey;
pub(crate) use crate::vocab::ModRef;
use crate::bounded::{clip, Capped, Weigh, MESSAGE_MAX};
use crate::session::{Session, StreamEnd};
use crate::settings::{Limits, Protocol, Settings};
use crate::transport::{self, Transport};
use crate::versions::{version_index, Info, Module, EXTENSIONS, LATEST, VERSIONS};
use apps::{apps_observer, AppsChannel};
use message::Typing;
pub use typed::first_difference;
use typed::Types;

/// The result type of the resource-metadata proposal's `resources/metadata`; a module that has it
/// applies the proposal's same-URI rule against the requested URI.
const METADATA_RESULT: &str = "ReadResourceMetadataResult";

/// How many tasks (from `CreateTaskResult`) each direction remembers for `tasks/result`.
pub const TASKS_CAP: usize = 4096;

/// The request whose result is the result of the task it names (2025-11-25).
const TASK_RESULT_METHOD: &str = "tasks/result";
/// The Tasks extension's task handle (`resultType: "task"`), typed by the extension's module.
const EXT_TASK_RESULT: &str = "CreateTaskResult";

/// Where a task came from: the request that `CreateTaskResult` answered.
#[derive(Debug, Clone)]
struct TaskOrigin {
    module: ModRef,
    result: Option<&'static str>,
}

impl Weigh for TaskOrigin {
    fn weight(&self) -> usize {
        0
    }
}

/// Checks the lines or values of one stream at a time: each typed as the message it is (`Types`,
/// with the stream's state, `Typing`), then seen by the session rules ([`Session`]).
pub struct Checker {
    /// The versions' and extensions' types, and how a value is checked as one (typed.rs).
    types: Types,
    /// `--type`: every value as that type.
    type_name: Option<String>,
    /// The stream being checked (a bridge recording's leg): what it negotiated, its tasks, its
    /// HTTP exchanges. The session rules' tables are the session's ([`Session::swap_stream`]).
    stream: Stream,
    /// The rules that span messages, and the counts for `--summary`.
    session: Session,
    /// The view<->host channel, with `--ext apps`.
    apps: Option<AppsChannel>,
    /// A bridge recording's legs (`leg`): the one being checked, and the other's stream, parked.
    leg: Option<Leg>,
    parked: Option<Box<Parked>>,
    /// The findings (rule, pointer) on the last line the bridge received, with its direction:
    /// the same findings on what it passed on are not reported again (line.rs).
    relayed: Option<(String, Vec<(&'static str, String)>)>,
    limits: Limits,
    /// The open exchanges of a stateless version, each with its own requests in flight (scope.rs).
    scopes: scope::Scopes,
    /// Entries the checker's own tables (tasks, the MCP Apps channel's requests) forgot in earlier streams.
    dropped_before: u64,
    /// HTTP exchanges and sessions the transport rules forgot in earlier streams.
    exchanges_before: u64,
}

/// What a checker forgot to stay within its [`Limits`] ([`Checker::dropped`]). Each forgotten
/// entry makes a rule say less (an answer to a forgotten request is not reported as unmatched),
/// never report more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Entries of the bounded tables: requests in flight or ended, progress tokens, tasks, tools,
    /// compiled schemas, subscriptions, cursors, header marks.
    pub entries: u64,
    /// HTTP exchanges forgotten while open (their end rules did not run) and HTTP sessions forgotten.
    pub exchanges: u64,
}

/// A bridge recording's leg: its lines are one stream, the other leg's another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leg {
    Client,
    Server,
}

/// One stream's state in the checker (a bridge recording has one per leg). A new stream replaces
/// it whole and a leg switch swaps two of them, so neither can forget a field.
struct Stream {
    /// The session's version as the messages name it (the crate's tracker, with its notes).
    versions: VersionTracker,
    /// Tasks per direction of the request that created them.
    tasks: [Capped<IdKey, TaskOrigin>; 2],
    /// The line of the stream's first `initialize` request.
    initialize_line: Option<u64>,
    /// The transport rules over a recording's `http` lines (each leg's HTTP exchanges are its own:
    /// `proxy --http --to`).
    transport: Transport,
}

impl Stream {
    /// A new stream; `fixed`, the version given with `--protocol`, is the transport rules' fallback.
    fn new(limits: Limits, fixed: Option<usize>) -> Stream {
        let transport = Transport::with_limits("exchange", limits);
        Stream {
            versions: VersionTracker::new(),
            tasks: per_dir(TASKS_CAP, limits.table_bytes),
            initialize_line: None,
            transport: match fixed {
                Some(i) => transport.with_fallback(VERSIONS[i].name),
                None => transport,
            },
        }
    }

    /// Entries its own tables forgot (the session's count their own).
    fn evicted(&self) -> u64 {
        self.tasks.iter().map(|t| t.evicted).sum()
    }
}

/// The leg not being checked: its stream, and its session tables.
struct Parked {
    stream: Stream,
    session: crate::session::Stream,
}

fn per_dir<V: Weigh>(cap: usize, bytes: usize) -> [Capped<IdKey, V>; 2] {
    [Capped::new(cap, bytes), Capped::new(cap, bytes)]
}

impl Checker {
    /// A checker for one stream at a time, with `settings` (a [`Settings`] or what converts into one).
    pub fn new(settings: impl Into<Settings>) -> Checker {
        let args = &settings.into();
        let limits = args.limits;
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
        let fixed = match args.protocol {
            Protocol::Auto => None,
            Protocol::Fixed(i) => Some(i),
        };
        Checker {
            types: Types {
                fixed,
                latest: version_index(LATEST).expect("the latest version is in the table"),
                roundtrip: args.roundtrip,
                validate: args.validate,
                strict: args.strict,
                options,
                infos: modules.iter().map(|m| Info::new(m)).collect(),
                modules,
                exts,
                max_findings: args.max_findings.max(1),
                too_costly: None,
            },
            type_name: args.type_name.clone(),
            stream: Stream::new(limits, fixed),
            session: Session::new(args),
            leg: None,
            parked: None,
            relayed: None,
            apps: args.extensions.iter().find_map(|&i| {
                let e = &EXTENSIONS[i];
                let base = version_index(e.channel_base?)?;
                Some(AppsChannel::new(i, &e.module, base, limits.table_bytes))
            }),
            limits,
            scopes: scope::Scopes::default(),
            dropped_before: 0,
            exchanges_before: 0,
        }
    }

    /// Forgets what the previous stream negotiated, its requests and its tasks.
    pub fn reset_stream(&mut self) {
        self.dropped_before += self.dropped_now();
        self.exchanges_before += self.stream.transport.forgotten;
        self.stream = Stream::new(self.limits, self.types.fixed);
        if let Some(apps) = &mut self.apps {
            apps.pending = apps_observer(self.limits.table_bytes);
        }
        self.session.reset();
        self.leg = None;
        if let Some(p) = self.parked.take() {
            self.dropped_before += p.stream.evicted();
            self.exchanges_before += p.stream.transport.forgotten;
            self.session.drop_stream(p.session);
        }
        self.scopes = scope::Scopes::default();
    }

    /// Checks the lines of `leg` from here on: the other leg's stream is parked, this one's taken back.
    fn switch_leg(&mut self, leg: Leg) {
        if self.leg == Some(leg) {
            return;
        }
        self.leave_exchange();
        if self.leg.is_some() {
            let (limits, fixed, bytes) = (self.limits, self.types.fixed, self.limits.table_bytes);
            let p = self.parked.get_or_insert_with(|| Box::new(Parked { stream: Stream::new(limits, fixed), session: crate::session::Stream::new(bytes) }));
            std::mem::swap(&mut self.stream, &mut p.stream);
            self.session.swap_stream(&mut p.session);
        }
        self.leg = Some(leg);
        self.session.leg = match leg {
            Leg::Client => "client",
            Leg::Server => "server",
        };
    }

    /// Ends the exchanges of the current stream that never ended: what their end rules find, on
    /// the line of each one's request. Call before [`Checker::finish_stream`].
    pub fn finish_transport(&mut self) -> Vec<Outcome> {
        self.leave_exchange();
        let found = self.stream.transport.finish();
        let outcome = |f: transport::Found| {
            let mut o = Outcome { line: f.at.line, place: Some(f.at.place(None, None)), http: Some(f.at.http(None, None)), diags: f.diags.into_iter().map(|d| self.types.strictly(d)).collect(), ..Outcome::default() };
            self.bound(&mut o);
            o
        };
        found.into_iter().map(outcome).collect()
    }

    /// Ends the current stream: the findings only its end can show (attached to the line they
    /// concern) and the requests left unanswered. Call before [`Checker::reset_stream`].
    pub fn finish_stream(&mut self) -> StreamEnd {
        let exchanges = self.end_exchanges();
        let mut end = self.session.finish();
        scope::merge(&mut end, exchanges);
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

    /// A transport rule's finding, under `--strict` an error.
    pub fn strictly(&self, d: Diag) -> Diag {
        self.types.strictly(d)
    }

    /// Typing a message of the stream being checked (message.rs, response.rs).
    fn typing(&mut self) -> Typing<'_> {
        Typing { types: &self.types, stream: &mut self.stream }
    }

    /// The session state (message counts for `--summary`, evictions).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// How many requests are remembered as unanswered (bounded by twice [`PENDING_CAP`]).
    pub fn pending_requests(&self) -> usize {
        self.session.waiting()
    }

    /// What the checker forgot to stay within its [`Limits`], over every stream so far: entries of
    /// its session tables, and the HTTP exchanges and sessions of the transport rules.
    pub fn dropped(&self) -> Dropped {
        let parked = self.parked.as_ref().map_or(0, |p| p.stream.transport.forgotten);
        Dropped { entries: self.session.evictions() + self.dropped_before + self.dropped_now(), exchanges: self.exchanges_before + self.stream.transport.forgotten + parked }
    }

    /// Entries the current stream's own tables forgot (the session's count their own).
    fn dropped_now(&self) -> u64 {
        let apps = self.apps.as_ref().map_or(0, |a| a.pending.forgotten());
        let parked = self.parked.as_ref().map_or(0, |p| p.stream.evicted());
        self.stream.evicted() + parked + apps
    }


    /// [`MESSAGE_MAX`], duplicates dropped.
    pub fn bound(&self, out: &mut Outcome) {
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
        if out.diags.len() > self.types.max_findings {
            let rest = out.diags.split_off(self.types.max_findings);
            out.omitted += rest.len();
            out.omitted_errors += rest.iter().filter(|d| d.severity == Severity::Error).count();
        }
    }
}

/// A finding of one of the validator's rules (`type`, `unknown-variant`), which the checker reports
/// outside the validator too; the checker's own rules are reported with [`Diag::of`].
fn error(pointer: &str, rule: &'static str, message: impl Into<String>) -> Diag {
    Diag { pointer: pointer.to_string(), rule, severity: Severity::Error, message: message.into() }
}

fn unknown_version(s: &str) -> String {
    format!("unknown protocol version `{}` (known: {})", clip(s), crate::versions::version_names())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences() {
        use mcp_spec_types::tree::Doc;
        let first_difference = |a: &str, b: &str| first_difference(Doc::parse(a).unwrap().root(), Doc::parse(b).unwrap().root());
        assert_eq!(first_difference(r#"{"a": [1, 2]}"#, r#"{"a": [1, 2]}"#), None);
        assert_eq!(first_difference(r#"{"a": [1, 2]}"#, r#"{"a": [1, 2.0]}"#).unwrap().0, "/a/1");
        assert_eq!(first_difference(r#"{"a/b": 1, "c": 2}"#, r#"{"a/b": 1}"#).unwrap().0, "/c");
        assert_eq!(first_difference(r#"{"a/b": 1}"#, "{}").unwrap().0, "/a~1b");
        assert_eq!(first_difference("[1]", "[1, 3]").unwrap().0, "/1");
        assert_eq!(first_difference("1", r#""1""#).unwrap().0, "");
        // Keys are compared in sorted order, whatever order each text has them in.
        assert_eq!(first_difference(r#"{"b": 1, "a": 1}"#, r#"{"a": 2, "b": 2}"#).unwrap().0, "/a");
        assert_eq!(first_difference(r#"{"b": 1, "a": 1}"#, r#"{"b": 2, "a": 2}"#).unwrap().0, "/a");
        assert_eq!(first_difference(r#"{"a": 1e2}"#, r#"{"a": 100.0}"#), None);
    }

    /// A bridge recording's legs each start from the stream a new file starts from: with
    /// `--protocol`, the parked leg's transport rules fall back to that version too (before, the
    /// leg parked first fell back to the latest version).
    #[test]
    fn each_leg_starts_as_a_new_stream() {
        let fixed = version_index("2025-06-18").unwrap();
        let mut c = Checker::new(Settings { protocol: Protocol::Fixed(fixed), ..Settings::default() });
        let mut seen = vec![c.stream.transport.fallback()];
        for leg in [Leg::Client, Leg::Server, Leg::Client] {
            c.switch_leg(leg);
            seen.push(c.stream.transport.fallback());
        }
        c.reset_stream();
        seen.push(c.stream.transport.fallback());
        println!("{} streams seen", seen.len());
        assert_eq!(seen, ["2025-06-18"; 5]);
    }

    #[test]
    fn pending_is_bounded() {
        let req = Req { module: ModRef::Version(0), method: None, result: None, task: false, uri: None };
        let mut p = Capped::<IdKey, Req>::new(PENDING_CAP, crate::bounded::TABLE_BYTES);
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
