//! The Skills extension (`--ext skills`, SEP-2640, on 2026-07-28 or later): `skills/*` only to a server that
//! declared the extension, `resources/directory/read` only to one that declared `directoryRead: true`, the
//! extension declared with `resources`; `-32602` (or `-32603`) for the errors the page names; a directory
//! read lists direct children only; and what a checker can see of the host's verification: a read file whose
//! size or digest is not its held entry's, a `SKILL.md` whose frontmatter is not the entry's, a read of a file
//! of a held skill that its entry does not list. A Skills message in a session of an earlier version is
//! reported (`session.skills.version`), and no other rule judges it.
//!
//! The host rules are warnings: the host MUST NOT use such content, but whether it did is not in the traffic,
//! and a mismatch is either a server whose entry is wrong (its MUST) or a skill that changed after its entry
//! was fetched (which the page allows), and the traffic does not tell the two apart.
//!
//! Held entries (the last `skills/list` or `skills/get` answer naming each skill) are bounded like every
//! session table: by [`SESSION_CAP`] and the table bytes; a forgotten entry only turns its checks off.


use std::borrow::Cow;

use mcp_spec_types::tree::{Array, Node};
use mcp_spec_engine::skills::frontmatter;
use serde_json::{Map, Value};

use super::rules::{
    SKILLS_CONTENT_DIGEST, SKILLS_DIRECTORY_CHILD, SKILLS_DIRECTORY_UNDECLARED, SKILLS_ERROR_CODE, SKILLS_FRONTMATTER, SKILLS_RESOURCES_CAPABILITY, SKILLS_UNDECLARED,
    SKILLS_UNLISTED_READ, SKILLS_VERSION,
};
use super::capabilities::{self, declared};
use super::{Capped, Msg, Sink, SESSION_CAP};
use crate::bounded::{clip, Text, Weigh};
use crate::versions::{Extension, EXTENSIONS, VERSIONS};
use mcp_spec_types::rpc::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::RequestMethod;
use mcp_spec_types::skills::ReadResourceDirectoryRequest;
use mcp_spec_types::v2026_07_28::{HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION};

/// The extension's id, as a key of `extensions` in capabilities.
pub use mcp_spec_types::validate::skills::EXTENSION_ID;
use mcp_spec_types::validate::skills::{within, DYNAMIC, SKILL_FILE};
/// The method the extension defines beside its `skills/` ones.
const DIRECTORY_READ: &str = <ReadResourceDirectoryRequest as RequestMethod>::METHOD;
/// How many enclosing directories of a read file are looked up for a held skill (nested skills).
const ANCESTORS_LOOKED_UP: usize = 64;
/// The longest read URI looked up (each lookup writes an enclosing directory's `SKILL.md` URI); a longer one is
/// no skill file a checker follows.
const URI_LOOKED_UP: usize = 4096;

/// The extension's row of the checker's table: its methods and its first version.
fn extension() -> Option<&'static Extension> {
    EXTENSIONS.iter().find(|e| e.name == "skills")
}

/// Whether a method is one the extension defines.
pub fn is_skills_method(method: &str) -> bool {
    extension().is_some_and(|e| e.owns(method))
}

/// A listed file: its uri, digest and size.
type File = (Box<str>, Box<str>, Option<u64>);

/// A skill's entry as last answered: its frontmatter and its files (`None`: `"dynamic"`).
struct Entry {
    frontmatter: Option<Map<String, Value>>,
    /// Sorted by uri.
    files: Option<Vec<File>>,
    line: u64,
}

impl Weigh for Entry {
    fn weight(&self) -> usize {
        let fm = self.frontmatter.as_ref().map_or(0, |m| m.iter().map(|(k, v)| k.len() + v.weight()).sum());
        fm + self.files.as_ref().map_or(0, |f| f.iter().map(|(u, d, _)| u.len() + d.len() + 48).sum())
    }
}

/// What the server declared of the extension (in the capabilities the capabilities family holds), on which line.
#[derive(Clone, Copy)]
struct Declared {
    extension: bool,
    directory_read: bool,
    line: u64,
}

impl Declared {
    /// The server's declaration, from the capabilities its `initialize` or `server/discover` answer declared.
    fn of(caps: &capabilities::State) -> Option<Declared> {
        let (caps, line) = caps.server()?;
        let extension = declared(caps, &["extensions", EXTENSION_ID]);
        let directory_read = extension && caps.get("extensions").and_then(|e| e.get(EXTENSION_ID)).and_then(|e| e.get("directoryRead")).and_then(Node::as_bool) == Some(true);
        Some(Declared { extension, directory_read, line })
    }
}

pub(crate) struct State {
    bytes: usize,
    entries: Option<Capped<Text, Entry>>,
    /// The version of the last core message: Skills messages are the extension's and carry none.
    last_version: Option<usize>,
}

/// The skills rules in the session's table ([`crate::session::FAMILIES`]).
pub(crate) struct Rules;

impl crate::session::families::Family for Rules {
    const RUNS: crate::session::families::Runs = crate::session::families::Runs::Extension("skills");
    type State = State;
    fn observe(stream: &mut crate::session::Stream, cx: &mut crate::session::families::Cx<'_>, msg: &Msg, sink: &mut Sink) {
        let _ = cx;
        stream.skills.observe(msg, &stream.capabilities, sink)
    }
}

impl crate::session::families::Tables for State {
    fn new(bytes: usize) -> State {
        State { bytes, entries: None, last_version: None }
    }

    fn evicted(&self) -> u64 {
        self.entries.as_ref().map_or(0, |t| t.evicted)
    }
}

impl State {
    /// Whether the stream's version predates the extension (unknown: no).
    fn predates(&self) -> bool {
        self.last_version.zip(extension()).is_some_and(|(v, e)| !e.exists_in(v))
    }

    /// `caps`: what each side declared (the capabilities family's), read for the server's declaration.
    pub(crate) fn observe(&mut self, msg: &Msg, caps: &capabilities::State, sink: &mut Sink) {
        if msg.version.is_some() {
            self.last_version = msg.version;
        }
        match (msg.method, msg.id, &msg.answers) {
            (Some(method), Some(_), _) if is_skills_method(method) => self.request(msg, method, caps, sink),
            (None, _, Some(req)) if !self.predates() => {
                let method = req.method.clone();
                self.response(msg, &method, caps, sink);
            }
            _ => {}
        }
    }

    fn request(&mut self, msg: &Msg, method: &str, caps: &capabilities::State, sink: &mut Sink) {
        if self.predates() {
            let v = self.last_version.map_or("?", |v| VERSIONS[v].name);
            let first = extension().and_then(|e| e.on).unwrap_or("?");
            let text = format!("`{}` in a {v} session: the Skills extension is specified on {first} or later, so this message is outside the spec and not checked", clip(method));
            sink.report(&SKILLS_VERSION, msg.pointer("/method"), text);
            return;
        }
        let Some(server) = Declared::of(caps) else { return };
        if method.starts_with("skills/") && !server.extension {
            let text = format!("`{}` to a server whose capabilities (line {}) do not declare `{EXTENSION_ID}`", clip(method), server.line);
            sink.report(&SKILLS_UNDECLARED, msg.pointer("/method"), text);
        } else if method == DIRECTORY_READ && !server.directory_read {
            let text = format!("`{DIRECTORY_READ}` to a server whose capabilities (line {}) do not declare `directoryRead: true` for `{EXTENSION_ID}`", server.line);
            sink.report(&SKILLS_DIRECTORY_UNDECLARED, msg.pointer("/method"), text);
        }
    }

    fn response(&mut self, msg: &Msg, method: &str, caps: &capabilities::State, sink: &mut Sink) {
        let Some(req) = &msg.answers else { return };
        if let Some(code) = msg.error.and_then(|e| e.get("code")).and_then(Node::as_i64) {
            if matches!(method, "skills/get" | DIRECTORY_READ) {
                self.error_code(msg, method, code, caps, sink);
            }
            return;
        }
        let Some(result) = msg.result else { return };
        match method {
            "initialize" | "server/discover" => resources_beside(msg, result, sink),
            "skills/list" => {
                for skill in result.get("skills").and_then(Node::as_array).into_iter().flatten() {
                    self.hold(skill, msg.line);
                }
            }
            "skills/get" => {
                if let Some(skill) = result.get("skill") {
                    self.hold(skill, msg.line);
                }
            }
            DIRECTORY_READ => {
                let (Some(dir), Some(children)) = (req.param_str("uri"), result.get("resources").and_then(Node::as_array)) else { return };
                direct_children(msg, dir, children, sink);
            }
            "resources/read" => {
                for (i, content) in result.get("contents").and_then(Node::as_array).into_iter().flatten().enumerate() {
                    self.read(msg, i, content, sink);
                }
            }
            _ => {}
        }
    }

    fn error_code(&self, msg: &Msg, method: &str, code: i64, caps: &capabilities::State, sink: &mut Sink) {
        // The base protocol's answers to any request (a header or version the server does not take).
        let allowed = [INVALID_PARAMS, INTERNAL_ERROR, HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION];
        // A server that did not declare the method (or whose declaration is not in view) may not know it.
        let implements = Declared::of(caps).map(|s| if method == DIRECTORY_READ { s.directory_read } else { s.extension });
        if allowed.contains(&code) || (code == METHOD_NOT_FOUND && implements != Some(true)) {
            return;
        }
        let case = if method == DIRECTORY_READ { "a `uri` that does not exist or is not a directory" } else { "a `uri` that is no skill the server serves" };
        let text = format!("`{method}` answered with error {code}: the page names -32602 (Invalid params) for {case}, and -32603 for internal errors");
        sink.report(&SKILLS_ERROR_CODE, msg.pointer("/error/code"), text);
    }

    /// Holds a skill entry (replacing the one before for its `uri`).
    fn hold(&mut self, skill: Node, line: u64) {
        let Some(uri) = skill.get("uri").and_then(Node::as_str) else { return };
        let frontmatter = skill.get("frontmatter").filter(|f| f.is_object() && crate::cost::check(f.json_text().as_bytes()).is_ok());
        let frontmatter = frontmatter.and_then(|f| match f.to_value() {
            Value::Object(m) => Some(m),
            _ => None,
        });
        let files = skill.get("resources").and_then(Node::as_array).map(|files| {
            let mut v: Vec<File> = files
                .iter()
                .filter_map(|f| Some((f.get("uri")?.as_str()?.into(), f.get("digest").and_then(Node::as_str).unwrap_or_default().into(), f.get("size").and_then(Node::as_u64))))
                .collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        });
        // `resources` neither an array nor "dynamic" is the schema's finding; such an entry holds nothing.
        if files.is_none() && skill.get("resources").and_then(Node::as_str) != Some(DYNAMIC) {
            return;
        }
        let bytes = self.bytes;
        self.entries.get_or_insert_with(|| Capped::new(SESSION_CAP, bytes)).insert(Text::of(uri), Entry { frontmatter, files, line });
    }

    /// One content of a `resources/read` answer, against the held entries of the skills it is in.
    fn read(&self, msg: &Msg, i: usize, content: Node, sink: &mut Sink) {
        let (Some(entries), Some(uri)) = (&self.entries, content.get("uri").and_then(Node::as_str).filter(|u| u.len() <= URI_LOOKED_UP)) else { return };
        let at = |rest: &str| msg.pointer(&format!("/result/contents/{i}{rest}"));
        let dirs = uri.char_indices().rev().filter(|(_, c)| *c == '/').take(ANCESTORS_LOOKED_UP).map(|(at, _)| &uri[..at]);
        let mut bytes: Option<Option<Cow<[u8]>>> = None;
        let (mut digest_reported, mut unlisted_reported) = (false, false);
        for dir in dirs {
            let skill_uri = format!("{dir}/{SKILL_FILE}");
            let Some(entry) = entries.get(&Text::of(&skill_uri)) else { continue };
            if uri == skill_uri {
                frontmatter_check(&skill_uri, entry, content, &at, sink);
            }
            let Some(files) = &entry.files else { continue };
            match files.binary_search_by(|f| (*f.0).cmp(uri)) {
                Ok(k) if !digest_reported => {
                    let (_, digest, size) = &files[k];
                    let Some(bytes) = bytes.get_or_insert_with(|| content_bytes(content)) else { continue };
                    let got = mcp_spec_engine::skills::folder::digest_bytes(&bytes[..]);
                    let problem = match size {
                        Some(size) if *size != bytes.len() as u64 => Some(format!("{} bytes, not the entry's `size` {size}", bytes.len())),
                        _ if got != **digest => Some(format!("digest {got}, not the entry's {}", clip(digest))),
                        _ => None,
                    };
                    if let Some(problem) = problem {
                        let text = format!("`{}` reads as {problem} (entry of `{}`, line {}): a verification failure, the host must not use it", clip(uri), clip(&skill_uri), entry.line);
                        sink.report(&SKILLS_CONTENT_DIGEST, at(""), text);
                        digest_reported = true;
                    }
                }
                Err(_) if !unlisted_reported && within(dir, uri) => {
                    let text = format!("`{}` is within the skill `{}` but its entry (line {}) does not list it: a verification failure, the host must not use it", clip(uri), clip(&skill_uri), entry.line);
                    sink.report(&SKILLS_UNLISTED_READ, at("/uri"), text);
                    unlisted_reported = true;
                }
                _ => {}
            }
        }
    }
}

/// A read content's raw bytes: a text's UTF-8, a blob's base64 decoded (`None` if it does not decode).
fn content_bytes<'t>(content: Node<'t>) -> Option<Cow<'t, [u8]>> {
    if let Some(text) = content.get("text").and_then(Node::as_str) {
        return Some(Cow::Borrowed(text.as_bytes()));
    }
    mcp_spec_types::validate::formats::decode_base64(content.get("blob")?.as_str()?).ok().map(Cow::Owned)
}

/// A read `SKILL.md` against the frontmatter of the entry it belongs to.
fn frontmatter_check(skill_uri: &str, entry: &Entry, content: Node, at: &dyn Fn(&str) -> String, sink: &mut Sink) {
    let Some(held) = &entry.frontmatter else { return };
    let Some(bytes) = content_bytes(content) else { return };
    let Ok(text) = std::str::from_utf8(&bytes) else { return };
    let problem = match frontmatter::parse(text) {
        Ok(file) => frontmatter::first_difference(&file, held).map(|(key, f, e)| {
            let shown = |v: Option<&Value>| v.map_or_else(|| "absent".to_string(), |v| clip(&v.to_string()).into_owned());
            format!("`{}` is {} in the file and {} in the entry", clip(key), shown(f), shown(e))
        }),
        Err(frontmatter::Unreadable::Missing) => Some("the file begins with no YAML frontmatter block".into()),
        Err(frontmatter::Unreadable::Invalid(e)) => Some(format!("its frontmatter is not YAML: {}", clip(&e))),
        Err(frontmatter::Unreadable::NotMapping) => Some("its frontmatter is not a mapping".into()),
        Err(frontmatter::Unreadable::Uncomparable) => None,
    };
    if let Some(problem) = problem {
        let text = format!("the frontmatter of `{}` differs from its entry's (line {}): {problem}; the host must not load the skill", clip(skill_uri), entry.line);
        sink.report(&SKILLS_FRONTMATTER, at(""), text);
    }
}

/// A server that declares the extension declares `resources` beside it (its capabilities, `result`).
fn resources_beside(msg: &Msg, result: Node, sink: &mut Sink) {
    let Some(caps) = result.get("capabilities") else { return };
    if declared(caps, &["extensions", EXTENSION_ID]) && !declared(caps, &["resources"]) {
        let text = format!("the server declares `{EXTENSION_ID}` but not the `resources` capability, through which skill files are read");
        sink.report(&SKILLS_RESOURCES_CAPABILITY, msg.pointer("/result/capabilities"), text);
    }
}

/// A directory read lists the directory's direct children: `<dir>/<one segment>`.
fn direct_children(msg: &Msg, dir: &str, children: Array, sink: &mut Sink) {
    for (i, child) in children.iter().enumerate() {
        let Some(uri) = child.get("uri").and_then(Node::as_str) else { continue };
        let segment = uri.strip_prefix(dir).and_then(|r| r.strip_prefix('/'));
        // A trailing slash on a child directory is `skills.directory-slash`'s, not this rule's.
        let direct = segment.is_some_and(|s| !s.trim_end_matches('/').is_empty() && !s.trim_end_matches('/').contains('/'));
        if !direct {
            let text = format!("`{}` is not a direct child of the directory `{}` that was read", clip(uri), clip(dir));
            sink.report(&SKILLS_DIRECTORY_CHILD, msg.pointer(&format!("/result/resources/{i}/uri")), text);
        }
    }
}
