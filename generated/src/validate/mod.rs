//! Validation: every rule the schema and the spec's prose state, reported all at
//! once with a JSON pointer, a stable rule id and a message a person can act on.
//!
//! Reading is lenient and lossless; validation is where a value is judged.
//! Every generated type implements [`Validate`]; the rules the schema cannot
//! express are written once here ([`jsonrpc`], [`meta`], [`icons`], [`links`], [`resources`],
//! [`v2026`], and, with the `apps`, `tasks` and `skills` features, `apps`, `tasks` and `skills`) and attached to types by `schema/codegen.toml`.
//!
//! ```
//! # #[cfg(feature = "v2026-07-28")] {
//! use mcp_spec_types::v2026_07_28::Tool;
//! use mcp_spec_types::validate::{validate_json, Options};
//!
//! let tool = serde_json::json!({"name": "t", "inputSchema": {"type": "object"},
//!     "icons": [{"src": "javascript:alert(1)"}]});
//! let report = validate_json::<Tool>(&tool, &Options::default());
//! assert_eq!(report.violations[0].pointer, "/icons/0/src");
//! assert_eq!(report.violations[0].rule, "icon.scheme");
//! # }
//! ```

pub mod formats;
pub mod icons;
pub mod jsonrpc;
pub mod links;
pub mod message;
pub mod meta;
pub mod resources;
pub mod rules;
pub mod v2026;
#[cfg(feature = "apps")]
pub mod apps;
#[cfg(feature = "tasks")]
pub mod tasks;
#[cfg(feature = "skills")]
pub mod skills;

use std::fmt;

use serde_json::Value;

use crate::runtime::{JsonObject, Nullable};
use crate::tree::{Doc, Kind, Node, Object};

pub use rules::{Rule, RULES};


/// How bad a violation is. Warnings become errors in strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer (RFC 6901) of the offending value; `""` is the whole value.
    pub pointer: String,
    /// Stable rule id, e.g. `required`, `enum`, `meta.key-name`, `icon.scheme`.
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{at}: {} [{}]: {}", self.severity, self.rule, self.message)
    }
}

/// What validation checks beyond the schema's own rules.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Report warnings as errors.
    pub strict: bool,
    /// Largest decoded `data:` icon accepted, in bytes.
    pub icon_max_bytes: usize,
    /// Check MCP Apps metadata (`_meta.ui` on tools and resources, `ui://` resources).
    pub apps: bool,
    /// Most violations kept in a report; the rest are only counted ([`Report::omitted`]),
    /// so a value with millions of bad items does not need memory for each.
    pub max_violations: usize,
}

impl Options {
    /// The defaults with the MCP Apps rules on (what `mcp-schema check --ext apps` uses).
    pub fn apps() -> Self {
        Options { apps: true, ..Options::default() }
    }

    /// The defaults with warnings reported as errors.
    pub fn strict() -> Self {
        Options { strict: true, ..Options::default() }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options { strict: false, icon_max_bytes: 512 * 1024, apps: false, max_violations: usize::MAX }
    }
}

/// Every violation found, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub violations: Vec<Violation>,
    /// Violations past [`Options::max_violations`], counted but not kept.
    pub omitted: usize,
    /// How many of the omitted ones are errors.
    pub omitted_errors: usize,
    /// How many errors, kept or omitted, the typed reader refuses the value for too (see
    /// [`Report::refuses_typed_read`]).
    pub unreadable: usize,
}

impl Report {
    /// No errors (warnings allowed).
    pub fn is_valid(&self) -> bool {
        self.omitted_errors == 0 && !self.violations.iter().any(|v| v.severity == Severity::Error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Violation> {
        self.violations.iter().filter(|v| v.severity == Severity::Error)
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Violation> {
        self.violations.iter().filter(|v| v.severity == Severity::Warning)
    }

    /// Whether the typed reader refuses the value too: an error of the rules `type`, `required`,
    /// `literal` or `no-variant` (a wrong kind, a missing key, a wrong literal, a union none of whose
    /// members fits) outside what the reader takes anyway (`null` in an optional field, which it keeps
    /// among the unknown keys; a missing field it reads leniently, like a 2026-07-28 `resultType`).
    pub fn refuses_typed_read(&self) -> bool {
        self.unreadable > 0
    }
}

/// A type whose JSON can be checked against every rule that applies to it.
pub trait Validate {
    /// Checks `v` as this type, reporting into `cx`.
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>);
}

/// Validates a JSON value as `T`: through the value's compact tree ([`validate_node`] on a `Value`).
pub fn validate_json<T: Validate>(v: &Value, options: &Options) -> Report {
    validate_node::<T>(Doc::from_value(v).root(), options)
}

/// Validates a value of a compact tree ([`crate::tree`]) as `T`.
pub fn validate_node<T: Validate>(v: Node<'_>, options: &Options) -> Report {
    let mut cx = Cx::new(*options);
    T::validate_json(v, &mut cx);
    cx.finish()
}

/// Validates a typed value as `T` (through its JSON form, so unknown keys kept in `extra` are checked too).
pub fn validate<T: Validate + serde::Serialize>(value: &T, options: &Options) -> Report {
    match serde_json::to_value(value) {
        Ok(v) => validate_json::<T>(&v, options),
        Err(e) => Report {
            violations: vec![Violation { pointer: String::new(), rule: "serialize", severity: Severity::Error, message: e.to_string() }],
            ..Report::default()
        },
    }
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Where validation is and what it found so far. `'v` is the lifetime of the value being checked.
pub struct Cx<'v> {
    options: Options,
    path: Vec<Seg<'v>>,
    out: Vec<Violation>,
    /// Past `max_violations`: how many more were found, and how many of those are errors.
    omitted: usize,
    omitted_errors: usize,
    /// Violations so far that the typed reader would also refuse (see [`UNREADABLE`]).
    unreadable: usize,
    /// Above zero inside a value the reader takes whatever its violations.
    readable: u32,
}

impl<'v> Cx<'v> {
    pub fn new(options: Options) -> Self {
        // Deep enough for every spec message, so the path never grows on the common path.
        Cx { options, path: Vec::with_capacity(16), out: Vec::new(), omitted: 0, omitted_errors: 0, unreadable: 0, readable: 0 }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn finish(self) -> Report {
        Report { violations: self.out, omitted: self.omitted, omitted_errors: self.omitted_errors, unreadable: self.unreadable }
    }

    /// Goes one key deeper; undo with [`Cx::pop`]. Generated code uses this
    /// pair rather than [`Cx::key`], which is generic and copied per call site.
    pub fn push_key(&mut self, key: &'v str) {
        self.path.push(Seg::Key(key));
    }

    /// Goes one array index deeper; undo with [`Cx::pop`].
    pub fn push_index(&mut self, i: usize) {
        self.path.push(Seg::Index(i));
    }

    /// Undoes the last [`Cx::push_key`] or [`Cx::push_index`].
    pub fn pop(&mut self) {
        self.path.pop();
    }

    /// Runs `f` one key deeper.
    pub fn key(&mut self, key: &'v str, f: impl FnOnce(&mut Self)) {
        self.push_key(key);
        f(self);
        self.pop();
    }

    /// Runs `f` one array index deeper.
    pub fn index(&mut self, i: usize, f: impl FnOnce(&mut Self)) {
        self.push_index(i);
        f(self);
        self.pop();
    }

    pub fn pointer(&self) -> String {
        let mut p = String::new();
        for seg in &self.path {
            p.push('/');
            match seg {
                Seg::Key(k) => p.push_str(&k.replace('~', "~0").replace('/', "~1")),
                Seg::Index(i) => p.push_str(&i.to_string()),
            }
        }
        p
    }

    pub fn report(&mut self, rule: &'static str, severity: Severity, message: impl Into<String>) {
        if self.readable == 0 && UNREADABLE.contains(&rule) {
            self.unreadable += 1;
        }
        let severity = if self.options.strict { Severity::Error } else { severity };
        if self.out.len() >= self.options.max_violations {
            self.omitted += 1;
            self.omitted_errors += usize::from(severity == Severity::Error);
            return;
        }
        let pointer = self.pointer();
        self.out.push(Violation { pointer, rule, severity, message: message.into() });
    }

    pub fn error(&mut self, rule: &'static str, message: impl Into<String>) {
        self.report(rule, Severity::Error, message);
    }

    pub fn warning(&mut self, rule: &'static str, message: impl Into<String>) {
        self.report(rule, Severity::Warning, message);
    }

    /// The value as an object, or a `type` violation.
    pub fn object(&mut self, v: Node<'v>, what: &str) -> Option<Object<'v>> {
        match v.as_object() {
            Some(o) => Some(o),
            None => {
                self.error("type", format!("expected {what} (an object), found {}", describe(v)));
                None
            }
        }
    }

    /// Reports every required key that is missing.
    pub fn required(&mut self, o: Object<'_>, keys: &[&str], what: &str) {
        for k in keys {
            if !o.contains_key(*k) {
                self.missing(k, what);
            }
        }
    }

    /// Starts a value the typed reader takes whatever is wrong with it (a `null` in an
    /// optional field, which it keeps among the unknown keys; a missing lenient field);
    /// undo with [`Cx::end_readable`].
    pub fn begin_readable(&mut self) {
        self.readable += 1;
    }

    pub fn end_readable(&mut self) {
        self.readable -= 1;
    }

    /// Reports one missing required key (generated code has already looked it up).
    pub fn missing(&mut self, key: &str, what: &str) {
        self.error("required", format!("{what} requires `{key}`"));
    }

    /// Checks a field the schema fixes to one value.
    pub fn literal(&mut self, v: Node<'_>, expected: crate::runtime::__private::Lit) {
        if !expected.matches(v) {
            self.error("literal", format!("must be {expected}, found {}", describe(v)));
        }
    }

    /// A key the schema types as `never`.
    pub fn never(&mut self, what: &str) {
        self.error("never", format!("must be absent: {what}"));
    }

    pub fn minimum(&mut self, v: Node<'_>, min: f64) {
        if let Some(x) = v.as_f64() {
            if x < min {
                self.error("minimum", format!("must be at least {min}, found {v}"));
            }
        }
    }

    pub fn maximum(&mut self, v: Node<'_>, max: f64) {
        if let Some(x) = v.as_f64() {
            if x > max {
                self.error("maximum", format!("must be at most {max}, found {v}"));
            }
        }
    }

    pub fn max_items(&mut self, v: Node<'_>, max: usize) {
        if let Some(a) = v.as_array() {
            if a.len() > max {
                self.error("max-items", format!("must hold at most {max} items, found {}", a.len()));
            }
        }
    }

    pub fn max_length(&mut self, v: Node<'_>, max: usize) {
        if let Some(s) = v.as_str() {
            // Counting stops past the limit: a long string costs no more than the limit to judge.
            if s.len() > max && s.chars().take(max + 1).count() > max {
                self.error("max-length", format!("must be at most {max} characters, found {}", s.chars().count()));
            }
        }
    }

    /// `@pattern`: the string matches `pattern` somewhere.
    pub fn pattern(&mut self, v: Node<'_>, pattern: &Pattern) {
        let Some(s) = v.as_str() else { return };
        match &pattern.regex {
            Some(re) if re.is_match(s) => {}
            Some(_) => self.error("pattern", format!("`{}` does not match the pattern `{}`", shorten(s), pattern.source)),
            // The generator compiles every pattern with the same engine; this is only reachable by hand-built values.
            None => self.error("pattern", format!("the pattern `{}` does not compile", pattern.source)),
        }
    }

    /// Checks a `@format` the schema names.
    pub fn format(&mut self, v: Node<'_>, format: &str) {
        if format == "int" {
            return self.safe_integer(v);
        }
        let Some(s) = v.as_str() else { return };
        let problem = match format {
            "uri" => formats::uri(s).err().map(|e| ("format.uri", e)),
            "uri-template" => formats::uri_template(s).err().map(|e| ("format.uri-template", e)),
            "byte" => formats::base64(s).err().map(|e| ("format.byte", e)),
            _ => None,
        };
        if let Some((rule, why)) = problem {
            self.error(rule, why);
        }
    }

    /// `@format int`: the integer type is checked already; what is left is the range JavaScript peers hold exactly.
    fn safe_integer(&mut self, v: Node<'_>) {
        const SAFE: u64 = (1 << 53) - 1;
        let out = v.as_i64().map(|x| x.unsigned_abs() > SAFE).or_else(|| v.as_u64().map(|x| x > SAFE));
        if out == Some(true) {
            self.error("format.int", format!("must be an integer of at most 2^53 - 1 either side of zero, found {v}"));
        }
    }

    /// A union member this schema does not define, kept for forward compatibility.
    pub fn unknown_variant(&mut self, field: &str, value: &str, union: &str, schema: &str) {
        self.error("unknown-variant", format!("`{}` is not a `{field}` of {union} in {schema}", shorten(value)));
    }
}

/// A `@pattern`, compiled once per field by the generated code (kept in a `static`).
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    regex: Option<regex_lite::Regex>,
}

impl Pattern {
    pub fn new(source: &'static str) -> Pattern {
        Pattern { source, regex: regex_lite::Regex::new(source).ok() }
    }
}

/// A peer's string as a message echoes it: whole if short, else its first 80 bytes and its length.
pub fn shorten(s: &str) -> std::borrow::Cow<'_, str> {
    if s.len() <= 80 {
        return s.into();
    }
    let end = (0..=80).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
    format!("{}… ({} bytes)", &s[..end], s.len()).into()
}

/// A short description of a JSON value for messages, of a `&Value` or a tree's [`Node`].
pub fn describe<'a>(v: impl Into<Described<'a>>) -> String {
    match v.into() {
        Described::Null => "null".into(),
        Described::Bool(b) => b.to_string(),
        Described::Number(n) => n,
        Described::String(s) if s.chars().count() > 40 => format!("a string ({} chars)", s.chars().count()),
        Described::String(s) => format!("{s:?}"),
        Described::Array(len) => format!("an array of {len}"),
        Described::Object => "an object".into(),
    }
}

/// What [`describe`] says of a value: its kind and what the description shows of it.
pub enum Described<'a> {
    Null,
    Bool(bool),
    Number(String),
    String(&'a str),
    Array(usize),
    Object,
}

impl<'a> From<&'a Value> for Described<'a> {
    fn from(v: &'a Value) -> Self {
        match v {
            Value::Null => Described::Null,
            Value::Bool(b) => Described::Bool(*b),
            Value::Number(n) => Described::Number(n.to_string()),
            Value::String(s) => Described::String(s),
            Value::Array(a) => Described::Array(a.len()),
            Value::Object(_) => Described::Object,
        }
    }
}

impl<'a> From<Node<'a>> for Described<'a> {
    fn from(v: Node<'a>) -> Self {
        match v.kind() {
            Kind::Null => Described::Null,
            Kind::Bool(b) => Described::Bool(b),
            Kind::Number(n) => Described::Number(n.to_string()),
            Kind::String(s) => Described::String(s),
            Kind::Array(a) => Described::Array(a.len()),
            Kind::Object(_) => Described::Object,
        }
    }
}

impl Validate for String {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        if !v.is_string() {
            cx.error("type", format!("expected a string, found {}", describe(v)));
        }
    }
}

impl Validate for i64 {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        match v.kind() {
            Kind::Number(n) if n.is_i64() => {}
            Kind::Number(n) if n.is_u64() => cx.error("type", format!("integer {n} is out of range")),
            Kind::Number(n) => cx.error("type", format!("expected an integer, found {n}")),
            _ => cx.error("type", format!("expected an integer, found {}", describe(v))),
        }
    }
}

impl Validate for serde_json::Number {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        if !v.is_number() {
            cx.error("type", format!("expected a number, found {}", describe(v)));
        }
    }
}

impl Validate for bool {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        if !v.is_boolean() {
            cx.error("type", format!("expected a boolean, found {}", describe(v)));
        }
    }
}

impl Validate for () {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        if !v.is_null() {
            cx.error("type", format!("expected null, found {}", describe(v)));
        }
    }
}

impl Validate for Value {
    fn validate_json<'v>(_: Node<'v>, _: &mut Cx<'v>) {}
}

impl Validate for JsonObject {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        cx.object(v, "a JSON object");
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        match v.as_array() {
            Some(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    cx.push_index(i);
                    T::validate_json(item, cx);
                    cx.pop();
                }
            }
            None => cx.error("type", format!("expected an array, found {}", describe(v))),
        }
    }
}

impl<T: Validate> Validate for std::collections::BTreeMap<String, T> {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        if let Some(o) = cx.object(v, "a map") {
            for (k, item) in o {
                cx.push_key(k);
                T::validate_json(item, cx);
                cx.pop();
            }
        }
    }
}

impl<T: Validate> Validate for Nullable<T> {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        if !v.is_null() {
            T::validate_json(v, cx);
        }
    }
}

impl<T: Validate> Validate for Box<T> {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        T::validate_json(v, cx);
    }
}

/// The rules whose violation means the typed reader cannot read the value: a wrong JSON
/// kind, a missing key, a wrong literal, a union none of whose members fits. Every other
/// rule (formats, bounds, unknown enum values or methods, the prose rules) is about a value
/// the reader takes.
const UNREADABLE: [&str; 4] = ["type", "required", "literal", "no-variant"];

// What the generated validators of keys-decided unions call (and `tests/keyed_unions.rs`
// compares with the reader): reachable at `validate::` for them, hidden from the docs.
mod ranking;
#[doc(hidden)]
pub use ranking::{keyed, keyed_member, picked, rank_by_bits, rank_by_keys, By, KeyedCheck};
