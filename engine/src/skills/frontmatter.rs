//! A `SKILL.md`'s YAML frontmatter as JSON: what a server puts in the skill's entry, and what a client
//! compares with the entry it holds.
//!
//! YAML is read with `yaml-rust2` (a maintained, pure-Rust YAML 1.2 parser with few dependencies) at the event
//! level: its document loader copies an aliased node at every use, so a few lines of anchors and aliases
//! would grow without bound. Here every node, an alias's copies included, counts against [`MAX_NODES`], and past
//! it the frontmatter is not compared. Plain scalars take YAML's core schema types (integer, float, boolean,
//! null) as the loader gives them; quoted ones and mapping keys stay strings.

use serde_json::{Map, Value};
use yaml_rust2::parser::{Event, EventReceiver, Parser};
use yaml_rust2::scanner::TScalarStyle;
use yaml_rust2::Yaml;

/// The most nodes a frontmatter may expand to (aliases counted at each use) to be compared.
pub const MAX_NODES: usize = 10_000;

/// Why a file's frontmatter cannot be compared, or differs from any entry's.
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    /// The text does not begin with a `---` line, or that block is never closed.
    Missing,
    /// The YAML between the delimiters does not parse.
    Invalid(String),
    /// It is not a mapping.
    NotMapping,
    /// Past [`MAX_NODES`], or a key that is not a scalar: not compared (no finding).
    Uncomparable,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Unreadable::Missing => write!(f, "the text does not begin with a `---` block that is closed"),
            Unreadable::Invalid(e) => write!(f, "the YAML does not parse: {e}"),
            Unreadable::NotMapping => write!(f, "the YAML is not a mapping"),
            Unreadable::Uncomparable => write!(f, "over {MAX_NODES} nodes, or a key that is not a scalar"),
        }
    }
}

impl std::error::Error for Unreadable {}

/// The YAML between a leading `---` line and the next `---` or `...` line.
pub fn block(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let start = first.len();
    let mut at = start;
    for line in lines {
        if matches!(line.trim_end(), "---" | "...") {
            return Some(&text[start..at]);
        }
        at += line.len();
    }
    None
}

/// The frontmatter of a `SKILL.md`'s text, as JSON.
pub fn parse(text: &str) -> Result<Map<String, Value>, Unreadable> {
    let yaml = block(text).ok_or(Unreadable::Missing)?;
    let mut b = Builder::default();
    Parser::new_from_str(yaml).load(&mut b, false).map_err(|e| Unreadable::Invalid(e.to_string()))?;
    if b.over {
        return Err(Unreadable::Uncomparable);
    }
    match b.root {
        Some(Value::Object(m)) => Ok(m),
        // An empty block is no mapping either: `name` and `description` are missing.
        _ => Err(Unreadable::NotMapping),
    }
}

enum Frame {
    Seq(Vec<Value>, usize),
    Map(Map<String, Value>, Option<String>, usize),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    /// Anchored nodes and how many nodes each holds.
    anchors: Vec<(usize, Value, usize)>,
    nodes: usize,
    /// Past the budget or a non-scalar key: the rest is ignored.
    over: bool,
    root: Option<Value>,
    /// Nodes before each open collection, to count what it holds.
    starts: Vec<usize>,
}

impl Builder {
    fn add(&mut self, v: Value, anchor: usize, size: usize) {
        if anchor > 0 {
            self.anchors.push((anchor, v.clone(), size));
        }
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Frame::Seq(items, _)) => items.push(v),
            Some(Frame::Map(_, key @ None, _)) => match v {
                Value::String(s) => *key = Some(s),
                // A scalar key as JSON writes it (`1`, `true`); a collection as a key is not compared.
                Value::Number(_) | Value::Bool(_) | Value::Null => *key = Some(v.to_string()),
                _ => self.over = true,
            },
            Some(Frame::Map(m, key, _)) => {
                if let Some(k) = key.take() {
                    m.insert(k, v);
                }
            }
        }
    }

    /// Opens a collection, counted as one node with what it will hold.
    fn open(&mut self, frame: Frame) {
        let start = self.nodes;
        if self.count(1) {
            self.starts.push(start);
            self.stack.push(frame);
        }
    }

    fn close(&mut self) {
        let (Some(frame), Some(start)) = (self.stack.pop(), self.starts.pop()) else { return };
        let size = self.nodes - start;
        match frame {
            Frame::Seq(items, anchor) => self.add(Value::Array(items), anchor, size),
            Frame::Map(m, _, anchor) => self.add(Value::Object(m), anchor, size),
        }
    }

    fn count(&mut self, n: usize) -> bool {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_NODES {
            self.over = true;
        }
        !self.over
    }
}

impl EventReceiver for Builder {
    fn on_event(&mut self, ev: Event) {
        if self.over {
            return;
        }
        match ev {
            Event::Scalar(text, style, anchor, _tag) => {
                let v = if style == TScalarStyle::Plain { scalar(&text) } else { Value::String(text) };
                if self.count(1) {
                    self.add(v, anchor, 1);
                }
            }
            Event::SequenceStart(anchor, _) => self.open(Frame::Seq(Vec::new(), anchor)),
            Event::MappingStart(anchor, _) => self.open(Frame::Map(Map::new(), None, anchor)),
            Event::SequenceEnd | Event::MappingEnd => self.close(),
            Event::Alias(id) => {
                let Some((_, v, size)) = self.anchors.iter().rev().find(|(a, ..)| *a == id).cloned() else {
                    self.over = true;
                    return;
                };
                if self.count(size) {
                    self.add(v, 0, size);
                }
            }
            _ => {}
        }
    }
}

/// A plain scalar with the core schema's types, as `yaml-rust2` reads them.
fn scalar(text: &str) -> Value {
    match Yaml::from_str(text) {
        Yaml::Integer(i) => Value::from(i),
        Yaml::Real(r) => Yaml::Real(r.clone()).as_f64().and_then(serde_json::Number::from_f64).map_or(Value::String(r), Value::Number),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Null => Value::Null,
        _ => Value::String(text.to_string()),
    }
}

/// Whether two JSON values are the same content: numbers compared by value (`1` and `1.0` are one).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

/// The first field, in key order, whose value differs between a file's frontmatter and an entry's.
pub fn first_difference<'a>(file: &'a Map<String, Value>, entry: &'a Map<String, Value>) -> Option<(&'a str, Option<&'a Value>, Option<&'a Value>)> {
    let mut keys: Vec<&str> = file.keys().chain(entry.keys()).map(String::as_str).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter().map(|k| (k, file.get(k), entry.get(k))).find(|(_, f, e)| match (f, e) {
        (Some(f), Some(e)) => !same(f, e),
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_leading_block() {
        let m = parse("---\nname: a-b\ndescription: \"Does: things\"\nversion: 2\nratio: 1.5\nmetadata:\n  team: x\n---\n# body\n").unwrap();
        assert_eq!(Value::Object(m), json!({"name": "a-b", "description": "Does: things", "version": 2, "ratio": 1.5, "metadata": {"team": "x"}}));
        assert_eq!(parse("\u{feff}---\r\nname: x\r\n...\r\nbody").unwrap()["name"], "x");
        assert_eq!(parse("# no frontmatter\n"), Err(Unreadable::Missing));
        assert_eq!(parse("---\nname: x\n"), Err(Unreadable::Missing));
        assert_eq!(parse("---\n- a\n---\n"), Err(Unreadable::NotMapping));
        assert!(matches!(parse("---\nname: [\n---\n"), Err(Unreadable::Invalid(_))));
    }

    /// Anchors and aliases count at every use: a few lines that would expand to 9^6 nodes are not compared.
    #[test]
    fn aliases_are_bounded() {
        let ok = parse("---\nbase: &b {k: v}\nname: x\ncopy: *b\n---\n").unwrap();
        assert_eq!(ok["copy"], json!({"k": "v"}));
        let mut text = String::from("---\na0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..7 {
            let prev = format!("*a{}", i - 1);
            text.push_str(&format!("a{i}: &a{i} [{}]\n", [prev.as_str(); 9].join(", ")));
        }
        text.push_str("---\n");
        assert_eq!(parse(&text), Err(Unreadable::Uncomparable));
    }

    #[test]
    fn compares_by_content() {
        let file = parse("---\nname: x\nn: 1\n---\n").unwrap();
        let entry = json!({"n": 1.0, "name": "x"});
        assert_eq!(first_difference(&file, entry.as_object().unwrap()), None);
        let entry = json!({"n": 1, "name": "y", "extra": true});
        let d = first_difference(&file, entry.as_object().unwrap()).unwrap();
        assert_eq!((d.0, d.1.is_none()), ("extra", true));
    }
}
