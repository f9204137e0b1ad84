//! Tools: calls checked against the schemas of the last `tools/list`, each schema compiled once
//! per listing (with the `jsonschema` crate), and the schemas themselves checked against their
//! draft's meta-schema. A peer's schema is bounded first ([`schema_bounds`]): the validator
//! recurses over it.

use std::sync::Arc;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, PatternOptions, ValidationError, Validator};
use mcp_spec_types::tree::Node;
use serde_json::{Map, Value};

use super::rules::{Rule, TOOL_INPUT, TOOL_OUTPUT, TOOL_PATTERN_UNDECIDED, TOOL_SCHEMA, TOOL_SCHEMA_UNUSABLE, TOOL_UNLISTED};
use super::{schema_bounds, Capped, Msg, Sink, SESSION_CAP};
use crate::bounded::{clip, Text, Weigh};
use crate::vocab::Direction;

/// Findings kept per schema check (a schema or a value may break many keywords at once).
const SCHEMA_FINDINGS: usize = 10;

/// Backtracking steps one `pattern` match may take (the engine's default is a million: 76 ms for
/// `^((a*)*)\2b$` on 30 characters). Only patterns with backreferences or look-around backtrack.
const REGEX_BACKTRACK_LIMIT: usize = 10_000;

/// How many compiled schemas [`SchemaCache`] keeps.
const SCHEMA_CACHE_CAP: usize = 1024;

/// Compiled valid schemas by their JSON text: a server lists the same tools again and again
/// (after every `list_changed`, in every session), and compiling costs far more than the text.
/// Only valid, usable schemas are kept, so findings on a bad one are reported at every listing.
/// Keyed by the text's digest, weighed by its length (a stand-in for the compiled size).
pub(crate) struct SchemaCache(Capped<Text, Compiled>);

/// A compiled schema and the length of its JSON text.
#[derive(Clone)]
pub(crate) struct Compiled(Arc<Validator>, usize);

impl Weigh for Compiled {
    fn weight(&self) -> usize {
        self.1
    }
}

impl SchemaCache {
    pub fn new(bytes: usize) -> SchemaCache {
        SchemaCache(Capped::new(SCHEMA_CACHE_CAP, bytes))
    }
}

/// A listed tool: its compiled schemas, and what the MCP Apps rules need.
pub(crate) struct Tool {
    input: Option<Arc<Validator>>,
    output: Option<Arc<Validator>>,
    /// `_meta.ui.resourceUri` (or the deprecated `_meta["ui/resourceUri"]`).
    pub ui_uri: Option<String>,
    /// `_meta.ui.visibility` as listed, when it is an array of strings (absent means model and app).
    pub visibility: Option<Vec<String>>,
    /// Where it was listed: the line and the pointer to the tool.
    pub line: u64,
    pub pointer: String,
    /// What its schemas weigh (their text's length).
    schema_bytes: usize,
}

impl Weigh for Tool {
    fn weight(&self) -> usize {
        self.ui_uri.weight() + self.visibility.weight() + self.pointer.len() + self.schema_bytes
    }
}

pub(crate) struct State {
    pub tools: Capped<String, Tool>,
    /// A `tools/list` result has been seen in the stream.
    listed: bool,
}

/// The tools rules in the session's table ([`super::FAMILIES`]).
pub(crate) struct Rules;

impl super::families::Family for Rules {
    const RUNS: super::families::Runs = super::families::Runs::Core;
    type State = State;
    fn observe(stream: &mut super::Stream, cx: &mut super::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        stream.tools.observe(msg, cx.schemas, sink)
    }
}

impl super::families::Tables for State {
    fn new(bytes: usize) -> State {
        State { tools: Capped::new(SESSION_CAP, bytes), listed: false }
    }

    fn evicted(&self) -> u64 {
        self.tools.evicted
    }
}

impl State {
    pub fn observe(&mut self, msg: &Msg, schemas: &mut SchemaCache, sink: &mut Sink) {
        if let (Some(req), Some(result)) = (&msg.answers, msg.result) {
            match &*req.method {
                "tools/list" => self.listing(msg, req.param("cursor").is_some(), result, schemas, sink),
                "tools/call" => self.call_result(msg, req.param_str("name"), result, sink),
                _ => {}
            }
            return;
        }
        if msg.method == Some("tools/call") && msg.id.is_some() && msg.dir != Some(Direction::ServerToClient) {
            let Some(name) = msg.param("name").and_then(Node::as_str) else { return };
            match self.tools.get(&name.to_string()) {
                Some(tool) => {
                    if let Some(v) = &tool.input {
                        let at = if msg.param("arguments").is_some() { "/params/arguments" } else { "/params" };
                        let schema = format!("the inputSchema of `{}` (line {})", clip(name), tool.line);
                        let Some(args) = msg.param("arguments").map_or(Some(Value::Object(Map::new())), |a| as_value(a, &msg.pointer(at), &schema, sink)) else { return };
                        for e in v.iter_errors(&args).take(SCHEMA_FINDINGS) {
                            let (rule, text) = finding(&e, &TOOL_INPUT, ("the arguments", "break"), &format!("the inputSchema of `{}` (line {})", clip(name), tool.line));
                            sink.report(rule, msg.pointer(&format!("{at}{}", e.instance_path().as_str())), text);
                        }
                    }
                }
                None if self.listed && self.tools.evicted == 0 => {
                    let text = format!("`{}` was called but no `tools/list` result in this session listed it", clip(name));
                    sink.report(&TOOL_UNLISTED, msg.pointer("/params/name"), text);
                }
                None => {}
            }
        }
    }

    /// A `tools/list` result: a first page replaces the table, a later page adds to it.
    fn listing(&mut self, msg: &Msg, later_page: bool, result: Node<'_>, schemas: &mut SchemaCache, sink: &mut Sink) {
        let Some(tools) = result.get("tools").and_then(Node::as_array) else { return };
        if !later_page {
            self.tools.clear();
        }
        self.listed = true;
        for (i, t) in tools.iter().enumerate() {
            let Some(name) = t.get("name").and_then(Node::as_str) else { continue };
            let at = msg.pointer(&format!("/result/tools/{i}"));
            let input = t.get("inputSchema").and_then(|s| cached_compile(s, &format!("{at}/inputSchema"), schemas, sink));
            let output = t.get("outputSchema").and_then(|s| cached_compile(s, &format!("{at}/outputSchema"), schemas, sink));
            let schema_bytes = input.as_ref().map_or(0, |c| c.1) + output.as_ref().map_or(0, |c| c.1);
            let (input, output) = (input.map(|c| c.0), output.map(|c| c.0));
            let meta = t.get("_meta");
            let ui_uri = meta
                .and_then(|m| m.get("ui")?.get("resourceUri"))
                .or_else(|| meta?.get("ui/resourceUri"))
                .and_then(Node::as_str)
                .map(str::to_string);
            let visibility = meta.and_then(|m| m.get("ui")?.get("visibility")?.as_array()).map(|a| a.iter().filter_map(Node::as_str).map(str::to_string).collect());
            self.tools.insert(name.to_string(), Tool { input, output, ui_uri, visibility, line: msg.line, pointer: at, schema_bytes });
        }
    }

    fn call_result(&self, msg: &Msg, name: Option<&str>, result: Node<'_>, sink: &mut Sink) {
        let Some(tool) = name.and_then(|n| self.tools.get(&n.to_string())) else { return };
        let Some(v) = &tool.output else { return };
        // Only a complete result carries the tool's output: not a task (`CreateTaskResult`), a tool
        // error, or a 2026-07-28 result of another `resultType` (`input_required` asks for input first).
        let complete = result.get("resultType").is_none_or(|t| t.as_str() == Some("complete"));
        if !complete || result.get("task").is_some() || result.get("isError").and_then(Node::as_bool) == Some(true) {
            return;
        }
        let name = clip(name.unwrap_or_default());
        match result.get("structuredContent") {
            None => {
                let text = format!("`{}` declares an outputSchema (line {}) but the result has no structuredContent", name, tool.line);
                sink.report(&TOOL_OUTPUT, msg.pointer("/result"), text);
            }
            Some(sc) => {
                let schema = format!("the outputSchema of `{}` (line {})", name, tool.line);
                let Some(sc) = as_value(sc, &msg.pointer("/result/structuredContent"), &schema, sink) else { return };
                for e in v.iter_errors(&sc).take(SCHEMA_FINDINGS) {
                    let (rule, text) = finding(&e, &TOOL_OUTPUT, ("structuredContent", "breaks"), &format!("the outputSchema of `{}` (line {})", name, tool.line));
                    sink.report(rule, msg.pointer(&format!("/result/structuredContent{}", e.instance_path().as_str())), text);
                }
            }
        }
    }
}

/// A part of the line as the `Value` the `jsonschema` crate validates: built only for a call or
/// result of a listed tool with a usable schema, and weighed first (as a `Value` it may cost ~90
/// times its text); one past its budget is reported as `line.too-costly` and not checked.
fn as_value(part: Node<'_>, pointer: &str, schema: &str, sink: &mut Sink) -> Option<Value> {
    match crate::cost::check(part.json_text().as_bytes()) {
        Ok(()) => Some(part.to_value()),
        Err(e) => {
            let d = crate::vocab::Diag { pointer: pointer.to_string(), rule: crate::rules::stream::LINE_TOO_COSTLY.id, severity: mcp_spec_types::validate::Severity::Error, message: format!("{e}; not checked against {schema}") };
            sink.push(d);
            None
        }
    }
}

/// The rule and text of a validation error: a `pattern` the engine gave up on is undecided, not broken.
fn finding(e: &ValidationError, broken: &'static Rule, (subject, verb): (&str, &str), schema: &str) -> (&'static Rule, String) {
    match e.kind() {
        ValidationErrorKind::BacktrackLimitExceeded { .. } | ValidationErrorKind::RegexEngineFailure { .. } => {
            (&TOOL_PATTERN_UNDECIDED, format!("a `pattern` of {schema} is undecided on {subject} (past the checker's regex budget): {e}"))
        }
        _ => (broken, format!("{subject} {verb} {schema}: {e}")),
    }
}

/// [`compile`], through the cache.
fn cached_compile(schema: Node<'_>, pointer: &str, schemas: &mut SchemaCache, sink: &mut Sink) -> Option<Compiled> {
    // A schema that is not an object is the schema types' finding (`type`), not this rule's.
    if !schema.is_object() {
        return None;
    }
    // Keyed by its text as the line has it (a slice of the line: nothing is written to key it).
    let text = schema.json_text();
    let key = Text::of(text);
    if let Some(v) = schemas.0.get(&key) {
        return Some(v.clone());
    }
    // The `jsonschema` crate compiles a `Value`: the schema is read into one, weighed first.
    if let Err(e) = crate::cost::check(text.as_bytes()) {
        let text = format!("the schema is past the checker's bounds ({e}), so calls are not checked against it");
        sink.report(&TOOL_SCHEMA_UNUSABLE, pointer.to_string(), text);
        return None;
    }
    let schema = schema.to_value();
    let v = Compiled(Arc::new(compile(&schema, pointer, sink)?), text.len());
    schemas.0.insert(key, v.clone());
    Some(v)
}

/// Checks a tool schema against its draft's meta-schema and compiles it; `None` if it cannot be used.
fn compile(schema: &Value, pointer: &str, sink: &mut Sink) -> Option<Validator> {
    // A schema that is not an object is the schema types' finding (`type`), not this rule's.
    if !schema.is_object() {
        return None;
    }
    let draft = match schema.get("$schema").and_then(Value::as_str) {
        None => Draft::Draft202012,
        Some(uri) => match Draft::from_schema_uri(uri) {
            Draft::Unknown => {
                let text = format!("`$schema` is `{uri}`, not a JSON Schema draft the checker knows (4, 6, 7, 2019-09, 2020-12); calls are not checked against it");
                sink.report(&TOOL_SCHEMA_UNUSABLE, format!("{pointer}/$schema"), text);
                return None;
            }
            known => known,
        },
    };
    let meta = match draft {
        Draft::Draft4 => jsonschema::draft4::meta::validator(),
        Draft::Draft6 => jsonschema::draft6::meta::validator(),
        Draft::Draft7 => jsonschema::draft7::meta::validator(),
        Draft::Draft201909 => jsonschema::draft201909::meta::validator(),
        _ => jsonschema::draft202012::meta::validator(),
    };
    if let Err(why) = schema_bounds::check(schema) {
        let text = format!("the schema is past the checker's bounds ({why}), so calls are not checked against it");
        sink.report(&TOOL_SCHEMA_UNUSABLE, pointer.to_string(), text);
        return None;
    }
    let mut valid = true;
    for e in meta.iter_errors(schema).take(SCHEMA_FINDINGS) {
        valid = false;
        let text = format!("not a valid JSON Schema ({}): {e}", draft_name(draft));
        sink.report(&TOOL_SCHEMA, format!("{pointer}{}", e.instance_path().as_str()), text);
    }
    if !valid {
        return None;
    }
    match build(schema, draft) {
        Ok(v) => Some(v),
        Err(e) => {
            let text = format!("the schema cannot be compiled offline, so calls are not checked against it: {e}");
            sink.report(&TOOL_SCHEMA_UNUSABLE, pointer.to_string(), text);
            None
        }
    }
}

/// Compiles a schema that passed [`schema_bounds::check`], with the regex budget.
pub(super) fn build(schema: &Value, draft: Draft) -> Result<Validator, ValidationError<'static>> {
    let patterns = PatternOptions::fancy_regex().backtrack_limit(REGEX_BACKTRACK_LIMIT);
    jsonschema::options().with_draft(draft).with_pattern_options(patterns).build(schema)
}

fn draft_name(d: Draft) -> &'static str {
    match d {
        Draft::Draft4 => "draft-04",
        Draft::Draft6 => "draft-06",
        Draft::Draft7 => "draft-07",
        Draft::Draft201909 => "2019-09",
        _ => "2020-12",
    }
}
