//! `mcp-schema convert`: rewrites MCP traffic from one protocol version to another.
//!
//! Each message is read as its type in the source version and converted to the target version by
//! the generated conversions (`mcp_spec_types::convert`, [`retype`]); what the target cannot hold is
//! reported with its JSON pointer and the message is left out of the output. The versions a message names itself (an `initialize`
//! answer, the `_meta` protocol version key, a wrapper line's `protocol`) follow the conversion, so
//! converting there and back gives the original.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};

use mcp_spec_types::negotiate::{Direction, VersionTracker, PROTOCOL_VERSION_META_KEY};
use mcp_spec_types::convert::convert_json;
use mcp_spec_types::validate::{Options, Severity};
use serde_json::{Map, Value};

use crate::args::{Protocol, UsageError};
use crate::versions::{self, version_index, Info, LATEST, VERSIONS};

pub const USAGE: &str = "\
usage: mcp-schema convert --to VERSION [--from VERSION|auto] FILE...

Converts MCP messages to another protocol version. FILE is read like `check`
reads it (a .json file holding one value, JSONL otherwise, `-` for standard
input; a JSONL line is a bare message or a wrapper {\"msg\": ..., \"dir\": ...,
\"protocol\": ..., \"type\": ...}); each converted value is written to standard
output in the same format. A message that cannot be converted is reported on
standard error as FILE:LINE: POINTER: REASON and left out.

options:
  --to VERSION             the version to convert to
  --from VERSION|auto      the version of the input (default auto: the line's
                           `protocol`, else what the stream negotiated, else
                           the latest)
  -h, --help               print this help

exit status: 0 everything converted, 1 something failed, 2 usage or I/O error.
versions: VERSIONS
";

pub fn usage() -> String {
    USAGE.replace("VERSIONS", &versions::version_names())
}

#[derive(Debug, Clone)]
pub struct ConvertArgs {
    /// Index into [`VERSIONS`].
    pub to: usize,
    pub from: Protocol,
    pub files: Vec<String>,
}

/// Parses the arguments after `convert`. `Ok(None)` asks for the help text.
pub fn parse(args: &[String]) -> Result<Option<ConvertArgs>, UsageError> {
    let mut to = None;
    let mut from = Protocol::Auto;
    let mut files = Vec::new();
    let mut only_files = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if only_files || arg == "-" || !arg.starts_with('-') {
            files.push(arg.clone());
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| UsageError(format!("{flag} needs a value")));
        match flag {
            "--" => only_files = true,
            "-h" | "--help" => return Ok(None),
            "--to" => to = Some(version(&value()?)?),
            "--from" => {
                let v = value()?;
                from = if v == "auto" { Protocol::Auto } else { Protocol::Fixed(version(&v)?) };
            }
            _ => return Err(UsageError(format!("unknown option `{arg}`"))),
        }
    }
    let Some(to) = to else { return Err(UsageError("--to VERSION is required".into())) };
    if files.is_empty() {
        return Err(UsageError("no FILE given (use `-` for standard input)".into()));
    }
    Ok(Some(ConvertArgs { to, from, files }))
}

fn version(v: &str) -> Result<usize, UsageError> {
    version_index(v).ok_or_else(|| UsageError(format!("unknown protocol version `{v}` (known: {})", versions::version_names())))
}

/// Why a value did not convert: where (a JSON pointer into the line as written) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub pointer: String,
    pub reason: String,
}

fn failure(pointer: impl Into<String>, reason: impl Into<String>) -> Failure {
    Failure { pointer: pointer.into(), reason: reason.into() }
}

/// What converting one line gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// 1-based line in its file.
    pub line: u64,
    /// The line's value in the target version, in the line's format; `Err` lists why not.
    pub value: Result<Value, Vec<Failure>>,
}

/// The tables of every version, built once.
pub struct Converter {
    infos: Vec<Info>,
    to: usize,
    from: Option<usize>,
    latest: usize,
    // Stream state, reset per file.
    tracker: VersionTracker,
    pending: Pending,
}

/// Requests waiting for an answer: (direction of the request, id as JSON text) -> method.
#[derive(Default)]
struct Pending(HashMap<(Option<Dir>, String), String>);

impl Pending {
    fn insert(&mut self, dir: Option<Dir>, id: String, method: String) {
        self.0.insert((dir, id), method);
    }

    /// The method of the request a response (travelling `dir`) answers, which is then answered.
    fn answered(&mut self, dir: Option<Dir>, id: Option<&str>) -> Option<String> {
        let id = id?.to_string();
        let request_dir = dir.map(|d| match d {
            Dir::ClientToServer => Dir::ServerToClient,
            Dir::ServerToClient => Dir::ClientToServer,
        });
        // A request of unknown direction answers a response of any direction.
        [(request_dir, id.clone()), (None, id)].into_iter().find_map(|key| self.0.remove(&key))
    }
}

type Dir = Direction;

impl Converter {
    pub fn new(args: &ConvertArgs) -> Converter {
        Converter {
            infos: VERSIONS.iter().map(Info::new).collect(),
            to: args.to,
            from: match args.from {
                Protocol::Auto => None,
                Protocol::Fixed(i) => Some(i),
            },
            latest: version_index(LATEST).expect("the latest version is in the table"),
            tracker: VersionTracker::new(),
            pending: Pending::default(),
        }
    }

    /// Forgets the previous stream.
    pub fn reset_stream(&mut self) {
        self.tracker = VersionTracker::new();
        self.pending = Pending::default();
    }

    /// Converts one line (without its `\n`); `None` for a blank line.
    pub fn convert_line(&mut self, bytes: &[u8], line: u64) -> Option<Converted> {
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t.strip_prefix('\u{feff}').unwrap_or(t),
            Err(e) => return Some(Converted { line, value: Err(vec![failure("", format!("not UTF-8 at byte {}", e.valid_up_to() + 1))]) }),
        };
        if text.trim_start_matches([' ', '\t', '\r', '\n']).is_empty() {
            return None;
        }
        let value = match serde_json::from_str::<Value>(text) {
            Ok(v) => self.convert_value(v),
            Err(e) => Err(vec![failure("", format!("not JSON: {e}"))]),
        };
        Some(Converted { line, value })
    }

    /// Converts one value: a bare message, or a wrapper line.
    pub fn convert_value(&mut self, value: Value) -> Result<Value, Vec<Failure>> {
        let is_wrapper = value.as_object().is_some_and(|o| o.contains_key("msg") && !o.contains_key("jsonrpc"));
        if !is_wrapper {
            return self.convert_message(value, None, None, None, "");
        }
        let Value::Object(mut wrapper) = value else { unreachable!("a wrapper is an object") };
        let dir = match wrapper.get("dir").map(|d| d.as_str()) {
            None => None,
            Some(Some("c2s")) => Some(Dir::ClientToServer),
            Some(Some("s2c")) => Some(Dir::ServerToClient),
            Some(_) => return Err(vec![failure("/dir", "`dir` must be \"c2s\" or \"s2c\"")]),
        };
        let line_protocol = match wrapper.get("protocol") {
            None => None,
            Some(p) => match p.as_str().and_then(version_index) {
                Some(i) => Some(i),
                None => return Err(vec![failure("/protocol", format!("unknown protocol version {p}"))]),
            },
        };
        let type_name = match wrapper.get("type") {
            None => None,
            Some(Value::String(t)) => Some(t.clone()),
            Some(_) => return Err(vec![failure("/type", "`type` must be a type name")]),
        };
        let msg = wrapper.remove("msg").unwrap_or(Value::Null);
        let converted = self.convert_message(msg, dir, line_protocol, type_name.as_deref(), "/msg")?;
        wrapper.insert("msg".into(), converted);
        if wrapper.contains_key("protocol") {
            // The wrapper says which version its message is in, so it follows the conversion.
            wrapper.insert("protocol".into(), Value::String(VERSIONS[self.to].name.into()));
        }
        Ok(Value::Object(wrapper))
    }

    fn convert_message(&mut self, msg: Value, dir: Option<Dir>, line_protocol: Option<usize>, type_name: Option<&str>, prefix: &str) -> Result<Value, Vec<Failure>> {
        // The tracker sees every message, so a stream's version is followed even across lines that fail.
        let tracked = if type_name.is_none() { self.tracker.observe(&msg, dir).and_then(version_index) } else { None };
        let from = line_protocol.or(self.from).or(tracked).unwrap_or(self.latest);
        let (from_info, to) = (&self.infos[from], &self.infos[self.to]);
        if let Some(ty) = type_name {
            return retype(from_info, to, ty, ty, msg, prefix);
        }
        let batches = to.batches;
        let to_label = to.module.label;
        let from = from_info.module.name;
        if let Value::Array(items) = msg {
            if !batches {
                return Err(vec![failure(prefix, format!("a batch is not a message in {to_label} (only 2025-03-26 defines batches)"))]);
            }
            let mut out = Vec::with_capacity(items.len());
            let mut failures = Vec::new();
            for (i, item) in items.into_iter().enumerate() {
                match self.convert_one(item, dir, from, &format!("{prefix}/{i}")) {
                    Ok(v) => out.push(v),
                    Err(f) => failures.extend(f),
                }
            }
            return if failures.is_empty() { Ok(Value::Array(out)) } else { Err(failures) };
        }
        self.convert_one(msg, dir, from, prefix)
    }

    fn convert_one(&mut self, mut msg: Value, dir: Option<Dir>, from_name: &str, prefix: &str) -> Result<Value, Vec<Failure>> {
        let from = &self.infos[version_index(from_name).expect("a known version")];
        let to = &self.infos[self.to];
        let Some(o) = msg.as_object() else {
            return Err(vec![failure(prefix, "a JSON-RPC message is an object")]);
        };
        let id = o.get("id").map(Value::to_string);
        if let Some(method) = o.get("method").and_then(Value::as_str).map(str::to_string) {
            let (source, target) = match &id {
                Some(id) => {
                    self.pending.insert(dir, id.clone(), method.clone());
                    (from.requests.get(method.as_str()).map(|r| r.0), to.requests.get(method.as_str()).map(|r| r.0))
                }
                None => (from.notifications.get(method.as_str()).copied(), to.notifications.get(method.as_str()).copied()),
            };
            let what = if id.is_some() { "request" } else { "notification" };
            let Some(source) = source else {
                return Err(vec![failure(format!("{prefix}/method"), format!("`{method}` is not a {what} of {}", from.module.label))]);
            };
            let Some(target) = target else {
                return Err(vec![failure(format!("{prefix}/method"), format!("{} has no `{method}` {what}", to.module.label))]);
            };
            follow_version(msg.get_mut("params"), from.module.name, to.module.name, false);
            return retype(from, to, source, target, msg, prefix);
        }
        if o.contains_key("error") {
            self.pending.answered(dir, id.as_deref());
            let (source, target) = (from.error_response, to.error_response);
            return match (source, target) {
                (Some(s), Some(t)) => retype(from, to, s, t, msg, prefix),
                _ => Err(vec![failure(prefix, "no JSON-RPC error response type in one of the versions")]),
            };
        }
        if !o.contains_key("result") {
            return retype(from, to, "JSONRPCMessage", "JSONRPCMessage", msg, prefix);
        }
        let method = self.pending.answered(dir, id.as_deref());
        let Some(method) = method else {
            return Err(vec![failure(prefix, "a response to no request seen in this stream: its result type is unknown")]);
        };
        let source = from.requests.get(method.as_str()).map(|r| r.1);
        let target = to.requests.get(method.as_str()).map(|r| r.1);
        let (Some(source), Some(target)) = (source, target) else {
            return Err(vec![failure(prefix, format!("answers `{method}`, which {} does not define", if source.is_none() { from.module.label } else { to.module.label }))]);
        };
        let mut result = msg.as_object_mut().and_then(|o| o.remove("result")).unwrap_or(Value::Null);
        follow_version(Some(&mut result), from.module.name, to.module.name, method == "initialize");
        let result = retype(from, to, source, target, result, &format!("{prefix}/result"))?;
        if let Some(o) = msg.as_object_mut() {
            o.insert("result".into(), result);
        }
        Ok(msg)
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
/// against `target`: a value that is not valid there (a source message that was already invalid, or a
/// key the target requires that no conversion supplies) fails rather than being written out.
pub fn retype(from: &Info, to: &Info, source: &str, target: &str, value: Value, prefix: &str) -> Result<Value, Vec<Failure>> {
    let Some(source_type) = (from.module.dynamic)(source) else {
        return Err(vec![failure(prefix, format!("{} has no type `{source}`", from.module.label))]);
    };
    if let Err(e) = (source_type.read_value)(&value) {
        return Err(vec![failure(prefix, format!("not a valid {source} of {}: {e}", from.module.label))]);
    }
    if from.module.name == to.module.name {
        return Ok(value);
    }
    match convert_json(source, from.module.name, to.module.name, &value) {
        Some(Ok(converted)) => valid_in(to, target, converted, prefix),
        Some(Err(e)) => {
            let case = if e.case().is_empty() { String::new() } else { format!(", case `{}`", e.case()) };
            let step = format!("{} -> {}{case}", e.from_version(), e.to_version());
            Err(vec![failure(format!("{prefix}{}", e.pointer()), format!("{} ({step})", e.reason()))])
        }
        None => Err(vec![failure(prefix, format!("{source} of {} has no conversion to {target} of {}", from.module.label, to.module.label))]),
    }
}

/// `value` if it passes the validation rules of `target` in `to` (errors only).
fn valid_in(to: &Info, target: &str, value: Value, prefix: &str) -> Result<Value, Vec<Failure>> {
    let Some(target_type) = (to.module.dynamic)(target) else {
        return Err(vec![failure(prefix, format!("{} has no type `{target}`", to.module.label))]);
    };
    let report = (target_type.validate)(&value, &Options::default());
    let failures: Vec<Failure> = report
        .violations
        .iter()
        .filter(|v| v.severity == Severity::Error)
        .map(|v| failure(format!("{prefix}{}", v.pointer), format!("{} (in {}, after converting)", v.message, to.module.label)))
        .collect();
    if failures.is_empty() {
        Ok(value)
    } else {
        Err(failures)
    }
}

/// Converts every file of `a`: converted values to `out`, failures and the counts to `err`.
/// Returns the exit status.
pub fn convert_files(a: &ConvertArgs, out: impl Write, err: &mut impl Write) -> i32 {
    let mut converter = Converter::new(a);
    let mut out = io::BufWriter::new(out);
    let (mut converted, mut failed, mut io_error) = (0u64, 0u64, false);
    for f in &a.files {
        converter.reset_stream();
        let results = if f == "-" {
            convert_jsonl(&mut converter, io::stdin().lock())
        } else if f.to_ascii_lowercase().ends_with(".json") {
            convert_json_file(&mut converter, f)
        } else {
            File::open(f).and_then(|file| convert_jsonl(&mut converter, BufReader::new(file)))
        };
        let results = match results {
            Ok(r) => r,
            Err(e) => {
                let _ = writeln!(err, "mcp-schema: {f}: {e}");
                io_error = true;
                continue;
            }
        };
        let name = if f == "-" { "<stdin>" } else { f.as_str() };
        let pretty = f != "-" && f.to_ascii_lowercase().ends_with(".json");
        for c in results {
            match c.value {
                Ok(v) => {
                    converted += 1;
                    let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) };
                    if let Err(e) = text.map_err(io::Error::from).and_then(|t| writeln!(out, "{t}")) {
                        let _ = writeln!(err, "mcp-schema: writing the output: {e}");
                        return 2;
                    }
                }
                Err(failures) => {
                    failed += 1;
                    for fl in failures {
                        let pointer = if fl.pointer.is_empty() { "/" } else { fl.pointer.as_str() };
                        let _ = writeln!(err, "{name}:{}: {pointer}: {}", c.line, one_line(&fl.reason));
                    }
                }
            }
        }
    }
    if let Err(e) = out.flush() {
        let _ = writeln!(err, "mcp-schema: writing the output: {e}");
        return 2;
    }
    let _ = writeln!(err, "{converted} converted, {failed} failed");
    if io_error {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }
}

/// Reasons quote the input; line breaks and control characters in them are escaped so that one
/// failure stays one line of the report.
fn one_line(s: &str) -> String {
    s.chars().flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] }).collect()
}

/// JSONL: every line converted in order.
pub fn convert_jsonl(converter: &mut Converter, reader: impl BufRead) -> io::Result<Vec<Converted>> {
    let mut results = Vec::new();
    for (i, line) in reader.split(b'\n').enumerate() {
        let line = line?;
        if line.len() > crate::MAX_LINE {
            let reason = format!("line too long: {} bytes (at most {} are read); skipped", line.len(), crate::MAX_LINE);
            results.push(Converted { line: i as u64 + 1, value: Err(vec![failure("", reason)]) });
            continue;
        }
        results.extend(converter.convert_line(&line, i as u64 + 1));
    }
    Ok(results)
}

fn convert_json_file(converter: &mut Converter, name: &str) -> io::Result<Vec<Converted>> {
    let mut bytes = Vec::new();
    File::open(name)?.take(crate::MAX_LINE as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > crate::MAX_LINE {
        return Ok(vec![Converted { line: 1, value: Err(vec![failure("", "file too large; skipped")]) }]);
    }
    let start = bytes.iter().position(|b| !b" \t\r\n".contains(b)).unwrap_or(0);
    let line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count() as u64;
    Ok(converter.convert_line(&bytes, line).into_iter().collect())
}

/// A wrapper line's keys as `Map`, for tests and callers that build lines.
pub fn wrapper(msg: Value, dir: &str) -> Value {
    let mut o = Map::new();
    o.insert("dir".into(), Value::String(dir.into()));
    o.insert("msg".into(), msg);
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(a: &[&str]) -> Result<Option<ConvertArgs>, UsageError> {
        parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_and_rejects_arguments() {
        let a = args(&["--to", "2025-06-18", "--from=2024-11-05", "x.jsonl", "-"]).unwrap().unwrap();
        assert_eq!((VERSIONS[a.to].name, a.from, a.files.len()), ("2025-06-18", Protocol::Fixed(0), 2));
        assert!(args(&["--help"]).unwrap().is_none());
        for bad in [&["x"][..], &["--to", "1999-01-01", "x"], &["--to", "2025-06-18"], &["--to", "2025-06-18", "--bogus", "x"], &["--to"]] {
            assert!(args(bad).is_err(), "{bad:?}");
        }
    }

    fn converter(to: &str) -> Converter {
        Converter::new(&ConvertArgs { to: version_index(to).unwrap(), from: Protocol::Auto, files: vec![] })
    }

    #[test]
    fn versions_named_by_messages_follow_the_conversion() {
        let mut c = converter("2025-06-18");
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
        // The proposal is what the client sent; it stays.
        assert_eq!(c.convert_value(wrapper(init.clone(), "c2s")).unwrap()["msg"], init);
        let answer = json!({"dir": "s2c", "protocol": "2025-03-26", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-03-26", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}});
        let converted = c.convert_value(answer).unwrap();
        assert_eq!(converted["protocol"], "2025-06-18");
        assert_eq!(converted["msg"]["result"]["protocolVersion"], "2025-06-18");
    }

    #[test]
    fn what_the_target_lacks_fails_with_its_pointer() {
        let mut c = converter("2024-11-05");
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t"}});
        c.convert_value(json!({"dir": "c2s", "protocol": "2025-06-18", "msg": call})).unwrap();
        let link = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}});
        let err = c.convert_value(json!({"dir": "s2c", "protocol": "2025-06-18", "msg": link})).unwrap_err();
        assert_eq!(err[0].pointer, "/msg/result/content/0", "{err:?}");
        assert!(err[0].reason.contains("case `ContentBlock.ResourceLink`"), "{err:?}");
        let mut c = converter("2026-07-28");
        let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
        let err = c.convert_value(json!({"dir": "c2s", "protocol": "2025-11-25", "msg": ping})).unwrap_err();
        assert_eq!(err, vec![failure("/msg/method", "2026-07-28 has no `ping` request")]);
    }
}
