//! Long messages without their bulk as a `Value`: a line of at least [`ELIDE_LINE`] bytes is parsed
//! once into a compact tree ([`mcp_spec_types::tree::Doc`]), and the bridge works on a small
//! `Value` of it, its skeleton, in which each long string and each big container deep inside (two
//! levels under the message or more) is a marker string. The tree is gone once the skeleton is
//! made: the parts a marker stands for are spans of the line, put back in place where the bridge
//! writes a message ([`to_vec`]), so each goes out as the peer wrote it (its keys in its order, its
//! escapes), the same JSON value; the rest of the message is written as its `Value` would be.
//!
//! A marker may only stand where the conversion carries a value as it is: `shape::convert` checks
//! it ([`probe`]) and otherwise converts the whole message ([`materialize`], within the cost
//! budget of [`crate::cost`]). The parts live for the line being handled: set with [`Scope`].

use std::cell::RefCell;
use std::rc::Rc;

use bytes::Bytes;
use mcp_spec_types::tree::{Doc, Kind, Node};
use serde_json::{Map, Value};

/// Lines at least this long are read as a skeleton.
pub const ELIDE_LINE: usize = 256 << 10;
/// Strings at least this long become markers.
const LONG_STRING: usize = 16 << 10;
/// A container whose skeleton would hold this many values becomes a marker.
const BIG_CONTAINER: usize = 1024;
/// A skeleton of more values than this is a `Value` as costly as its text says: weighed by the
/// cost budget like any whole message.
pub const SKELETON_MAX: usize = 64 << 10;

/// What a marker's text starts with (a NUL no peer's string can start a marker with unnoticed: a
/// message holding such a string is read whole).
const MARK: &str = "\u{0}mcp-schema-elided:";
/// The same, as `serde_json` writes it inside a string.
const MARK_JSON: &[u8] = b"\"\\u0000mcp-schema-elided:";

/// Room left after a message the bridge writes, and after a long line it reads, so that its
/// recording line (the message inside its wrapper) is made in the same buffer ([`super::record::into_line`]).
pub const WRAP_ROOM: usize = 1024;

/// One part a marker stands for: its text in the line (a string with its quotes).
#[derive(Debug)]
pub struct Part {
    span: std::ops::Range<usize>,
    pub container: bool,
}

/// The line being handled, shared with its recording, and the parts of it the markers stand for.
#[derive(Default)]
struct Current {
    line: Bytes,
    /// Where the caller's slice of the line starts (to know it again: see [`shared`]).
    at: usize,
    parts: Vec<Part>,
}

thread_local! {
    static CURRENT: RefCell<Rc<Current>> = RefCell::new(Rc::new(Current::default()));
}

/// The parts of `line` (the caller's slice of `owner`, else copied once when there are parts),
/// for as long as this lives (the previous ones after).
pub struct Scope(Rc<Current>);

impl Scope {
    pub fn set(parts: Vec<Part>, line: &[u8], owner: Option<&Bytes>) -> Scope {
        let current = if parts.is_empty() { Current::default() } else { Current { line: share(owner, line), at: line.as_ptr() as usize, parts } };
        Scope(CURRENT.with(|c| c.replace(Rc::new(current))))
    }
}

/// `line` as shared bytes: a slice of `owner` (the caller's buffer, handed over) when it is one,
/// else a copy.
pub fn share(owner: Option<&Bytes>, line: &[u8]) -> Bytes {
    let (start, end) = (line.as_ptr() as usize, line.as_ptr() as usize + line.len());
    match owner {
        Some(o) if o.as_ptr() as usize <= start && end <= o.as_ptr() as usize + o.len() => o.slice_ref(line),
        _ => Bytes::copy_from_slice(line),
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = std::mem::take(&mut self.0);
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

fn current() -> Rc<Current> {
    CURRENT.with(|c| c.borrow().clone())
}

/// `bytes` as shared bytes: the line being handled is not copied again (its recording holds the
/// copy its parts are read from).
pub fn shared(bytes: &[u8]) -> Bytes {
    let c = current();
    if !c.parts.is_empty() && bytes.as_ptr() as usize == c.at && bytes.len() == c.line.len() {
        return c.line.clone();
    }
    Bytes::copy_from_slice(bytes)
}

impl Current {
    fn text<'a>(&'a self, p: &'a Part) -> &'a [u8] {
        &self.line[p.span.clone()]
    }
}

/// Whether the line being handled has parts.
pub fn active() -> bool {
    CURRENT.with(|c| !c.borrow().parts.is_empty())
}

/// Why a long line is not a message the bridge reads.
pub enum NotRead {
    /// As `core::parse` says it.
    Invalid(String),
    /// The skeleton itself is too big a `Value`, and the whole line over its budget.
    Costly(crate::cost::TooCostly),
}

/// A line as a message: parsed whole when short, as a skeleton with its bulk elided when long
/// (`elide.rs`: one compact tree, no `Value` of the whole).
pub(super) fn read(line: &[u8]) -> Result<(Map<String, Value>, Vec<Part>), NotRead> {
    if line.len() < ELIDE_LINE {
        return parse_short(line).map(|m| (m, Vec::new())).map_err(NotRead::Invalid);
    }
    parse(line)
}

/// A short line as a JSON-RPC message object, or why not (a batch is refused: no version after 2025-03-26 has one).
/// `jsonrpc` must be `"2.0"`: the conversions keep it as it came, so the other side would get it too.
fn parse_short(line: &[u8]) -> Result<Map<String, Value>, String> {
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(o)) if o.get("jsonrpc").and_then(Value::as_str) == Some("2.0") => Ok(o),
        Ok(Value::Object(_)) => Err("not a JSON-RPC 2.0 message: `jsonrpc` is not \"2.0\"".into()),
        Ok(Value::Array(_)) => Err("a JSON-RPC batch: the bridge passes single messages only".into()),
        Ok(_) => Err("a JSON-RPC message is an object".into()),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}

/// A long line as a message's skeleton and the parts its markers stand for.
pub fn parse(line: &[u8]) -> Result<(Map<String, Value>, Vec<Part>), NotRead> {
    let doc = Doc::parse_slice(line).map_err(|e| NotRead::Invalid(format!("not JSON: {e}")))?;
    let root = doc.root();
    let o = match root.kind() {
        Kind::Object(o) => o,
        Kind::Array(_) => return Err(NotRead::Invalid("a JSON-RPC batch: the bridge passes single messages only".into())),
        _ => return Err(NotRead::Invalid("a JSON-RPC message is an object".into())),
    };
    if o.get("jsonrpc").and_then(Node::as_str) != Some("2.0") {
        return Err(NotRead::Invalid("not a JSON-RPC 2.0 message: `jsonrpc` is not \"2.0\"".into()));
    }
    // A string starts with NUL only where the text has `\u0000` (JSON has no raw control characters).
    let nul = memchr::memmem::find(line, b"\\u0000").is_some();
    let mut sk = Skeleton { line: line.as_ptr() as usize..line.as_ptr() as usize + line.len(), parts: Vec::new(), values: 0, marked: false, nul };
    let mut msg = Map::new();
    for (k, v) in o.iter() {
        // `params`, `result` and `error` stay objects, and so does their `_meta` (the bridge adds and
        // takes off keys there); deeper than that a part may be elided.
        let value = match v.kind() {
            Kind::Object(inner) => {
                let mut m = Map::new();
                for (k2, v2) in inner.iter() {
                    sk.key(k2);
                    let value = match (k2, v2.kind()) {
                        ("_meta", Kind::Object(meta)) => Value::Object(meta.iter().map(|(k3, v3)| (sk.key(k3), sk.value(v3, 3).0)).collect()),
                        _ => sk.value(v2, 2).0,
                    };
                    m.insert(k2.to_owned(), value);
                }
                Value::Object(m)
            }
            _ => sk.value(v, 1).0,
        };
        sk.key(k);
        msg.insert(k.to_owned(), value);
    }
    if sk.marked {
        // A peer's string that looks like a marker: the line is read whole.
        return whole(line, &doc);
    }
    if sk.values > SKELETON_MAX {
        crate::cost::check(line).map_err(NotRead::Costly)?;
    }
    Ok((msg, sk.parts))
}

/// The whole message as a `Value`, within its budget.
fn whole(line: &[u8], doc: &Doc) -> Result<(Map<String, Value>, Vec<Part>), NotRead> {
    crate::cost::check(line).map_err(NotRead::Costly)?;
    match doc.root().to_value() {
        Value::Object(o) => Ok((o, Vec::new())),
        _ => Err(NotRead::Invalid("a JSON-RPC message is an object".into())),
    }
}

struct Skeleton {
    /// The line's addresses: a string borrowed from it is a span of it.
    line: std::ops::Range<usize>,
    parts: Vec<Part>,
    /// Values in the skeleton so far.
    values: usize,
    /// A string of the message starts like a marker.
    marked: bool,
    /// The line has a `\u0000` escape: the parts are looked into for strings that start like a marker.
    nul: bool,
}

impl Skeleton {
    fn key(&mut self, k: &str) -> String {
        self.marked |= k.starts_with('\u{0}');
        self.values += 1;
        k.to_owned()
    }

    fn mark(&mut self, n: Node, container: bool) -> Value {
        let text = n.json_text();
        let start = text.as_ptr() as usize - self.line.start;
        debug_assert!(text.as_ptr() as usize + text.len() <= self.line.end, "the tree borrows the line");
        self.marked |= self.nul && starts_like_a_marker(n);
        self.parts.push(Part { span: start..start + text.len(), container });
        self.values += 1;
        Value::String(format!("{MARK}{}", self.parts.len() - 1))
    }

    /// `n` at `depth` as a skeleton, and how many values that holds (a marker counts one).
    fn value(&mut self, n: Node, depth: usize) -> (Value, usize) {
        match n.kind() {
            Kind::String(s) if depth >= 2 && s.len() >= LONG_STRING => (self.mark(n, false), 1),
            Kind::String(s) => {
                self.marked |= s.starts_with('\u{0}');
                self.values += 1;
                (Value::String(s.to_owned()), 1)
            }
            Kind::Array(a) => {
                let (start_parts, start_values) = (self.parts.len(), self.values);
                let mut items = Vec::new();
                let mut held = 1;
                for item in a.iter() {
                    let (v, n) = self.value(item, depth + 1);
                    held += n;
                    items.push(v);
                    if depth >= 2 && held >= BIG_CONTAINER {
                        return (self.undo(start_parts, start_values, a.node()), 1);
                    }
                }
                self.values += 1;
                (Value::Array(items), held)
            }
            Kind::Object(o) => {
                let (start_parts, start_values) = (self.parts.len(), self.values);
                let mut m = Map::new();
                let mut held = 1;
                for (k, item) in o.iter() {
                    let key = self.key(k);
                    let (v, n) = self.value(item, depth + 1);
                    held += n + 1;
                    m.insert(key, v);
                    if depth >= 2 && held >= BIG_CONTAINER {
                        return (self.undo(start_parts, start_values, o.node()), 1);
                    }
                }
                self.values += 1;
                (Value::Object(m), held)
            }
            _ => {
                self.values += 1;
                (n.to_value(), 1)
            }
        }
    }

    /// Forgets what a container's skeleton had made so far; the container becomes one marker.
    fn undo(&mut self, parts: usize, values: usize, n: Node) -> Value {
        self.parts.truncate(parts);
        self.values = values;
        self.mark(n, true)
    }
}

/// Whether a string or key in `n` starts with NUL (as a marker does).
fn starts_like_a_marker(n: Node) -> bool {
    match n.kind() {
        Kind::String(s) => s.starts_with('\u{0}'),
        Kind::Array(a) => a.iter().any(starts_like_a_marker),
        Kind::Object(o) => o.iter().any(|(k, v)| k.starts_with('\u{0}') || starts_like_a_marker(v)),
        _ => false,
    }
}

/// The part a string value marks, if it is a marker of the line being handled.
fn marker(s: &str) -> Option<usize> {
    s.strip_prefix(MARK)?.parse().ok()
}

/// `msg` as JSON text, each marker replaced by its part (containers only if `containers`).
fn write_with(msg: &Value, c: &Current, containers: bool) -> Vec<u8> {
    let parts = &c.parts;
    let text = serde_json::to_vec(msg).unwrap_or_default();
    if parts.is_empty() || memchr::memmem::find(&text, MARK_JSON).is_none() {
        return text;
    }
    let mut out = Vec::with_capacity(text.len() + parts.iter().map(|p| p.span.len()).sum::<usize>() + WRAP_ROOM);
    let mut at = 0;
    for i in memchr::memmem::find_iter(&text, MARK_JSON) {
        if i < at {
            continue;
        }
        let digits = &text[i + MARK_JSON.len()..];
        let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
        let part = std::str::from_utf8(&digits[..len]).ok().and_then(|d| d.parse::<usize>().ok()).and_then(|n| parts.get(n));
        match part {
            Some(p) if digits.get(len) == Some(&b'"') && (containers || !p.container) => {
                out.extend_from_slice(&text[at..i]);
                out.extend_from_slice(c.text(p));
                at = i + MARK_JSON.len() + len + 1;
            }
            _ => {}
        }
    }
    out.extend_from_slice(&text[at..]);
    out
}

/// `msg` as the bytes the bridge sends: its markers replaced by their parts.
pub fn to_vec(msg: &Value) -> Vec<u8> {
    write_with(msg, &current(), true)
}

/// Whether `v` holds markers (containers only if `containers`).
fn holds(v: &Value, containers: bool, parts: &[Part]) -> bool {
    match v {
        Value::String(s) => marker(s).and_then(|n| parts.get(n)).is_some_and(|p| containers || !p.container),
        Value::Array(a) => a.iter().any(|x| holds(x, containers, parts)),
        Value::Object(o) => o.values().any(|x| holds(x, containers, parts)),
        _ => false,
    }
}

/// Whether `v` holds markers of the line being handled.
pub fn has_markers(v: &Value) -> bool {
    active() && holds(v, true, &current().parts)
}

/// `a == b`, where `a` may hold markers (compared on the tree of its text: a part is the peer's text).
pub fn same(a: &Value, b: &Value) -> bool {
    if has_markers(a) {
        Doc::parse_slice(&to_vec(a)).is_ok_and(|doc| doc.root() == *b)
    } else {
        a == b
    }
}

/// Numbers that stand for string markers in the second probe ([`probe`]): far past what ids and
/// counts use, so a message's own number is not taken for one (and if it were, the probe fails).
const NUMBER_MARK: u64 = 1 << 60;

/// `v` with each container marker as an object (`{MARK: n}`), and with `strings` each string
/// marker as a number: what a typed field would take differently from the string marker.
fn as_others(v: &Value, parts: &[Part], strings: bool) -> Value {
    match v {
        Value::String(s) => match marker(s).and_then(|n| Some((n, parts.get(n)?.container))) {
            Some((n, true)) => Value::Object(Map::from_iter([(MARK.to_string(), Value::from(n))])),
            Some((n, false)) if strings => Value::from(NUMBER_MARK + n as u64),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|x| as_others(x, parts, strings)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), as_others(x, parts, strings))).collect()),
        _ => v.clone(),
    }
}

/// `v` with each object or number marker back as the string marker.
fn as_strings(v: Value) -> Value {
    match v {
        Value::Object(o) if o.len() == 1 && o.get(MARK).is_some_and(Value::is_u64) => Value::String(format!("{MARK}{}", o[MARK])),
        Value::Number(n) if n.as_u64().is_some_and(|n| n >= NUMBER_MARK) => Value::String(format!("{MARK}{}", n.as_u64().unwrap_or(0) - NUMBER_MARK)),
        Value::Array(a) => Value::Array(a.into_iter().map(as_strings).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, x)| (k, as_strings(x))).collect()),
        other => other,
    }
}

/// What [`probe`] found.
pub struct Probed {
    /// The conversion, with the markers in it.
    pub value: Value,
    /// Every marker stands where any value is taken, in the source and the target alike (a string
    /// marker too, taken as a number): no rule of the target looks into them.
    pub untyped: bool,
}

/// Whether the conversion `convert` carries the markers of `value` as they are: it gives the same
/// with container markers as strings and as objects (a field of a type other than `unknown` takes
/// one of them differently, or refuses it). A string marker may stand in a typed string field.
pub fn probe<E>(value: &Value, convert: impl Fn(&Value) -> Result<Value, E>) -> Option<Probed> {
    let c = current();
    let parts = &c.parts;
    let a = convert(value).ok()?;
    if !holds(value, true, parts) {
        return Some(Probed { value: a, untyped: true });
    }
    if parts.iter().any(|p| p.container) {
        let b = convert(&as_others(value, parts, false)).ok()?;
        if as_strings(b) != a {
            return None;
        }
    }
    let untyped = !holds(value, false, parts) || convert(&as_others(value, parts, true)).ok().map(as_strings).is_some_and(|b| b == a);
    Some(Probed { value: a, untyped })
}

/// The text to validate a converted value on: its string markers replaced (a string's rules need
/// the string); container markers, which stand only where any value is taken, stay.
pub fn validation_text(v: &Value) -> Option<Vec<u8>> {
    let c = current();
    holds(v, false, &c.parts).then(|| write_with(v, &c, false))
}

/// `v` with every marker replaced by the `Value` of its part, if the parts fit the cost budget of
/// the line (`Err`: why not, as the cost guard says it).
pub fn materialize(v: &mut Value) -> Result<(), crate::cost::TooCostly> {
    let c = current();
    if !holds(v, true, &c.parts) {
        return Ok(());
    }
    let bytes = c.line.len();
    let tree: u64 = c.parts.iter().filter(|p| p.container).map(|p| crate::cost::Scan::of(c.text(p)).tree_bytes()).sum();
    let budget = crate::cost::budget(bytes);
    if tree > budget {
        return Err(crate::cost::TooCostly { bytes, tree, budget, id: None, has_method: false });
    }
    fill(v, &c);
    Ok(())
}

fn fill(v: &mut Value, c: &Current) {
    match v {
        Value::String(s) => {
            if let Some(p) = marker(s).and_then(|n| c.parts.get(n)) {
                *v = serde_json::from_slice(c.text(p)).expect("a part is JSON");
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| fill(x, c)),
        Value::Object(o) => o.values_mut().for_each(|x| fill(x, c)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: &Value) -> Vec<u8> {
        serde_json::to_vec(v).unwrap()
    }

    #[test]
    fn a_skeleton_written_back_is_the_same_value_with_its_parts_as_the_peer_wrote_them() {
        let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"z":1},"arguments":{"b":"#.to_vec();
        line.extend_from_slice(format!("\"{}\"", "Q".repeat(LONG_STRING)).as_bytes());
        line.extend_from_slice(br#","a":["#);
        for i in 0..3000 {
            line.extend_from_slice(format!(r#"{{"k":{i},"j":"x\u00e9","k":-0}},"#).as_bytes());
        }
        line.extend_from_slice(br#"1e2]}}}"#);
        let whole: Value = serde_json::from_slice(&line).unwrap();
        let (msg, parts) = parse(&line).ok().unwrap();
        assert_eq!(parts.len(), 2, "the long string and the big array");
        assert!(!parts[0].container && parts[1].container);
        let msg = Value::Object(msg);
        assert!(text(&msg).len() < 200, "{msg}");
        let _scope = Scope::set(parts, &line, None);
        assert!(shared(&line).as_ptr() != line.as_ptr() && shared(&line).as_ptr() == shared(&line).as_ptr(), "the line is copied once");
        let written = to_vec(&msg);
        assert_eq!(serde_json::from_slice::<Value>(&written).unwrap(), whole);
        // The skeleton is written as a `Value` (keys sorted); each part as it stands in the line:
        // the array with its repeated keys, escapes and `-0`, the string.
        let array = &line[memchr::memmem::find(&line, b"[").unwrap()..line.len() - 3];
        let string = format!("\"{}\"", "Q".repeat(LONG_STRING));
        let mut expected = br#"{"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"_meta":{"z":1},"arguments":{"a":"#.to_vec();
        expected.extend_from_slice(array);
        expected.extend_from_slice(format!(r#","b":{string}}},"name":"x"}}}}"#).as_bytes());
        assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(&expected));
        assert!(written.capacity() >= written.len() + WRAP_ROOM, "room for its recording line");
        let mut full = msg.clone();
        materialize(&mut full).unwrap();
        assert_eq!(full, whole);
    }

    #[test]
    fn a_string_like_a_marker_makes_the_line_read_whole() {
        let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":"\u0000mcp-schema-elided:0","y":""#.to_vec();
        line.extend_from_slice("Q".repeat(LONG_STRING).as_bytes());
        line.extend_from_slice(br#""}}"#);
        let (msg, parts) = parse(&line).ok().unwrap();
        assert!(parts.is_empty());
        assert_eq!(Value::Object(msg), serde_json::from_slice::<Value>(&line).unwrap());
        // Inside a part too (a key of an object deep in a big array).
        let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":{"y":["#.to_vec();
        for _ in 0..2000 {
            line.extend_from_slice(br#"{"k":1},"#);
        }
        line.extend_from_slice(br#"{"\u0000mcp-schema-elided:0":1}]}}}"#);
        line.resize(line.len().max(ELIDE_LINE), b' ');
        let (msg, parts) = read(&line).ok().unwrap();
        assert!(parts.is_empty());
        assert_eq!(Value::Object(msg), serde_json::from_slice::<Value>(&line).unwrap());
        // Elsewhere in the line, a `\u0000` that starts no string changes nothing.
        let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":{"y":["#.to_vec();
        for _ in 0..2000 {
            line.extend_from_slice(br#"{"k":"a\u0000"},"#);
        }
        line.extend_from_slice(br#"1]}}}"#);
        line.resize(line.len().max(ELIDE_LINE), b' ');
        assert_eq!(read(&line).ok().unwrap().1.len(), 1);
    }
}
