//! Corpora for the throughput benchmarks in `benches/compare.rs` (issue 7), and the
//! reporter that turns criterion's estimates into the one table of `BENCHMARKS.md`.
//!
//! Everything here is deterministic: the recorded sessions are committed files, the large
//! corpora are generated from a fixed seed, and the spec examples come from the pinned
//! `upstream/` inputs.

#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

/// Who sent a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Client to server.
    C2S,
    /// Server to client.
    S2C,
}

/// One message of a corpus: the exact bytes of one JSON-RPC line (no trailing newline).
#[derive(Clone, Debug)]
pub struct Msg {
    pub bytes: Vec<u8>,
    pub dir: Dir,
    /// For spec examples: the schema type the example is filed under.
    pub ty: Option<String>,
}

/// What a corpus is made of; decides which contenders apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A recorded session, both directions, one protocol version.
    Session,
    /// One `tools/list` response.
    ToolsList,
    /// One `resources/read` response.
    ResourceRead,
    /// The spec's examples that are whole JSON-RPC messages.
    SpecMessages,
    /// Every spec example, each read as the type it is filed under.
    SpecAll,
}

pub struct Corpus {
    /// Short id, also the criterion group name (ASCII, no spaces).
    pub id: String,
    /// What the table says about it.
    pub title: String,
    /// The protocol version of its messages (`2025-11-25`, ...).
    pub version: &'static str,
    pub kind: Kind,
    pub msgs: Vec<Msg>,
}

impl Corpus {
    pub fn bytes(&self) -> usize {
        self.msgs.iter().map(|m| m.bytes.len()).sum()
    }
}

/// The workspace root (this crate lives in `bench/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ has a parent").to_path_buf()
}

/// Reads a recorded session: JSONL with one `{"dir":"c2s"|"s2c","msg":MESSAGE}` per line.
/// The message's bytes are taken verbatim from the file, so key order and number spelling
/// are exactly what the peer wrote.
pub fn load_session(path: &Path) -> Result<Vec<Msg>, String> {
    #[derive(serde::Deserialize)]
    struct Line<'a> {
        dir: &'a str,
        #[serde(borrow)]
        msg: &'a RawValue,
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let l: Line = serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        let dir = match l.dir {
            "c2s" => Dir::C2S,
            "s2c" => Dir::S2C,
            d => return Err(format!("{}:{}: unknown dir {d:?}", path.display(), i + 1)),
        };
        out.push(Msg { bytes: l.msg.get().as_bytes().to_vec(), dir, ty: None });
    }
    Ok(out)
}

/// A small deterministic generator (64-bit LCG, high bits), so corpora are the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "account", "archive", "batch", "branch", "bucket", "cache", "calendar", "channel", "cluster", "commit", "customer",
    "dataset", "deploy", "device", "document", "email", "event", "file", "folder", "forecast", "image", "incident",
    "invoice", "issue", "job", "ledger", "location", "log", "message", "metric", "note", "order", "payment", "pipeline",
    "project", "query", "record", "region", "report", "repository", "schedule", "secret", "sensor", "service",
    "snapshot", "table", "task", "team", "ticket", "user", "volume", "weather", "webhook", "workspace",
];
const VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "search", "summarize", "export", "import", "sync", "validate", "archive",
];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s.push('.');
    s
}

fn property(rng: &mut Rng, depth: u32) -> Value {
    let mut p = Map::new();
    let kind = rng.below(if depth > 0 { 6 } else { 8 });
    match kind {
        0 | 1 => {
            p.insert("type".into(), json!("string"));
            match rng.below(4) {
                0 => {
                    p.insert("format".into(), json!(rng.pick(&["uri", "date-time", "email", "uuid"])));
                }
                1 => {
                    let n = 2 + rng.below(5) as usize;
                    let vals: Vec<String> = (0..n).map(|i| format!("{}_{i}", rng.pick(WORDS))).collect();
                    p.insert("enum".into(), json!(vals));
                }
                2 => {
                    p.insert("minLength".into(), json!(1));
                    p.insert("maxLength".into(), json!(64 + rng.below(1000)));
                    p.insert("pattern".into(), json!("^[a-zA-Z0-9_\\-]+$"));
                }
                _ => {}
            }
        }
        2 => {
            p.insert("type".into(), json!("integer"));
            p.insert("minimum".into(), json!(0));
            p.insert("maximum".into(), json!(1 + rng.below(100_000)));
            p.insert("default".into(), json!(rng.below(100)));
        }
        3 => {
            p.insert("type".into(), json!("number"));
            p.insert("exclusiveMinimum".into(), json!(0.0));
            p.insert("default".into(), json!(rng.below(10_000) as f64 / 100.0 + 0.5));
        }
        4 => {
            p.insert("type".into(), json!("boolean"));
            p.insert("default".into(), json!(rng.below(2) == 1));
        }
        5 => {
            p.insert("type".into(), json!("array"));
            p.insert("items".into(), json!({"type": "string", "description": sentence(rng, 4)}));
            p.insert("maxItems".into(), json!(1 + rng.below(50)));
            p.insert("uniqueItems".into(), json!(true));
        }
        _ => {
            // A nested object (only at the top level, so schemas stay realistic in depth).
            let mut props = Map::new();
            let n = 2 + rng.below(4);
            let mut required = Vec::new();
            for i in 0..n {
                let name = format!("{}{}", rng.pick(WORDS), i);
                if rng.below(2) == 0 {
                    required.push(name.clone());
                }
                props.insert(name, property(rng, depth + 1));
            }
            p.insert("type".into(), json!("object"));
            p.insert("properties".into(), Value::Object(props));
            p.insert("required".into(), json!(required));
            p.insert("additionalProperties".into(), json!(false));
        }
    }
    let words = 6 + rng.below(10) as usize;
    p.insert("description".into(), json!(sentence(rng, words)));
    Value::Object(p)
}

/// Writes `"key":` then `value`, in the order given (serde_json's `Map` would sort the keys).
fn member(out: &mut String, first: &mut bool, key: &str, value: &Value) {
    if !*first {
        out.push(',');
    }
    *first = false;
    out.push_str(&serde_json::to_string(key).unwrap());
    out.push(':');
    out.push_str(&serde_json::to_string(value).unwrap());
}

/// One `tools/list` response with `n` tools, each with a rich `inputSchema` (nested objects,
/// enums, formats, bounds), most with `annotations`, some with `outputSchema`, `icons`, `_meta`.
/// Valid for 2025-06-18 and later (2025-11-25 is the version the peers are compared on).
pub fn tools_list(n: usize) -> Vec<u8> {
    let mut rng = Rng::new(7);
    let mut s = String::from(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":["#);
    for t in 0..n {
        if t > 0 {
            s.push(',');
        }
        let verb = rng.pick(VERBS);
        let noun = rng.pick(WORDS);
        let mut props = Map::new();
        let mut required = Vec::new();
        let nprops = 3 + rng.below(8);
        for i in 0..nprops {
            let name = format!("{}_{}", rng.pick(WORDS), i);
            if rng.below(3) != 0 {
                required.push(name.clone());
            }
            props.insert(name, property(&mut rng, 0));
        }
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": Value::Object(props),
            "required": required,
            "additionalProperties": false,
        });
        let mut first = true;
        s.push('{');
        member(&mut s, &mut first, "name", &json!(format!("{verb}_{noun}_{t}")));
        member(&mut s, &mut first, "title", &json!(format!("{} {} #{t}", verb, noun)));
        let desc = format!(
            "{} Use this tool to {verb} a {noun}. {}\n\nReturns a JSON object; see the output schema.",
            sentence(&mut rng, 12),
            sentence(&mut rng, 20)
        );
        member(&mut s, &mut first, "description", &json!(desc));
        member(&mut s, &mut first, "inputSchema", &schema);
        if rng.below(3) == 0 {
            let out_schema = json!({
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "status": {"type": "string", "enum": ["ok", "partial", "failed"]},
                    "count": {"type": "integer", "minimum": 0},
                    "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "score": {"type": "number"}}}}
                },
                "required": ["id", "status"]
            });
            member(&mut s, &mut first, "outputSchema", &out_schema);
        }
        if rng.below(4) != 0 {
            let read_only = verb == "get" || verb == "list" || verb == "search";
            let ann = json!({
                "title": format!("{verb} {noun}"),
                "readOnlyHint": read_only,
                "destructiveHint": verb == "delete",
                "idempotentHint": read_only || rng.below(2) == 0,
                "openWorldHint": rng.below(2) == 0,
            });
            member(&mut s, &mut first, "annotations", &ann);
        }
        if rng.below(5) == 0 {
            let icons = json!([{"src": format!("https://example.com/icons/{noun}.png"), "mimeType": "image/png", "sizes": ["48x48"]}]);
            member(&mut s, &mut first, "icons", &icons);
        }
        if rng.below(6) == 0 {
            member(&mut s, &mut first, "_meta", &json!({"com.example/category": noun, "com.example/rank": t}));
        }
        s.push('}');
    }
    s.push_str(r#"],"nextCursor":"eyJwYWdlIjoyfQ=="}}"#);
    s.into_bytes()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One `resources/read` response carrying one blob whose base64 text is `blob_chars` long
/// (rounded down to a multiple of 4), built at run time.
pub fn resource_read_blob(blob_chars: usize) -> Vec<u8> {
    let mut rng = Rng::new(11);
    let raw: Vec<u8> = (0..blob_chars / 4 * 3).map(|_| rng.next() as u8).collect();
    let blob = base64(&raw);
    let mut s = String::with_capacity(blob.len() + 200);
    s.push_str(r#"{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"file:///data/archive.tar.gz","mimeType":"application/gzip","blob":""#);
    s.push_str(&blob);
    s.push_str(r#""}]}}"#);
    s.into_bytes()
}

/// Removes insignificant whitespace from a JSON text, keeping key order and number spelling.
pub fn minify(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let (mut in_str, mut esc) = (false, false);
    for &c in input {
        if in_str {
            out.push(c);
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
        } else if c == b'"' {
            in_str = true;
            out.push(c);
        } else if !c.is_ascii_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The spec's examples of one version, minified, each tagged with the type it is filed under.
/// Sorted by path so the order is stable.
pub fn spec_examples(version: &str) -> Result<Vec<Msg>, String> {
    let dir = workspace_root().join("upstream/mcp-spec/schema").join(version).join("examples");
    let mut files = Vec::new();
    let types = std::fs::read_dir(&dir).map_err(|e| {
        format!("{}: {e} (run `MCP_SCHEMA_MIRROR=... cargo xtask schema sync` first)", dir.display())
    })?;
    for t in types {
        let t = t.map_err(|e| e.to_string())?;
        if !t.file_type().map_err(|e| e.to_string())?.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(t.path()).map_err(|e| e.to_string())? {
            let f = f.map_err(|e| e.to_string())?.path();
            if f.extension().is_some_and(|e| e == "json") {
                files.push((t.file_name().to_string_lossy().into_owned(), f));
            }
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let mut out = Vec::new();
    for (ty, f) in files {
        let bytes = minify(&std::fs::read(&f).map_err(|e| format!("{}: {e}", f.display()))?);
        // Requests come from the client; everything else in the examples is the server's.
        let dir = if ty.ends_with("Request") { Dir::C2S } else { Dir::S2C };
        out.push(Msg { bytes, dir, ty: Some(ty) });
    }
    Ok(out)
}

/// Whether a message is a whole JSON-RPC message (has `"jsonrpc"` at the top level).
pub fn is_jsonrpc(m: &Msg) -> bool {
    serde_json::from_slice::<Value>(&m.bytes).ok().and_then(|v| v.get("jsonrpc").cloned()).is_some()
}

/// Every corpus of the run. Sessions come from `cli/tests/data/sessions/` (recorded by the
/// CLI's recorder; the 2026-07-28 file is left out: that server negotiated 2025-11-25) and
/// `bench/data/sessions/` (this crate's own recordings with real peers, `bench/record/`).
pub fn corpora() -> (Vec<Corpus>, Vec<String>) {
    let root = workspace_root();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for v in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let p = root.join("cli/tests/data/sessions").join(format!("{v}.jsonl"));
        match load_session(&p) {
            Ok(msgs) => out.push(Corpus {
                id: format!("session-{v}"),
                title: format!("session {v} (cli/tests/data/sessions/{v}.jsonl)"),
                version: v,
                kind: Kind::Session,
                msgs,
            }),
            Err(e) => notes.push(format!("session {v} missing: {e}")),
        }
    }
    let p = root.join("bench/data/sessions/2025-11-25-bidirectional.jsonl");
    match load_session(&p) {
        Ok(msgs) => out.push(Corpus {
            id: "session-2025-11-25-bidi".into(),
            title: "session 2025-11-25, bidirectional (bench/data/sessions/)".into(),
            version: "2025-11-25",
            kind: Kind::Session,
            msgs,
        }),
        Err(e) => notes.push(format!("bidirectional session missing: {e}")),
    }
    // Servers of other SDKs, one session each, in one file (recorded by bench/record/mixed.sh).
    let p = root.join("bench/data/sessions/2025-11-25-mixed-servers.jsonl");
    match load_session(&p) {
        Ok(msgs) => out.push(Corpus {
            id: "session-2025-11-25-mixed".into(),
            title: "sessions 2025-11-25 with a TypeScript SDK and a Python SDK server, one file (bench/data/sessions/)".into(),
            version: "2025-11-25",
            kind: Kind::Session,
            msgs,
        }),
        Err(e) => notes.push(format!("mixed-servers session missing: {e}")),
    }
    // Issue 21's varied sessions, recorded from real peers by the scripts in bench/record/.
    let varied: [(&str, &str, &'static str, &str); 6] = [
        (
            "session-2024-11-05-varied",
            "2024-11-05-everything-tasks.jsonl",
            "2024-11-05",
            "long varied session 2024-11-05 with the reference server (bench/record/tasks.sh)",
        ),
        (
            "session-2025-03-26-varied",
            "2025-03-26-everything-tasks.jsonl",
            "2025-03-26",
            "long varied session 2025-03-26 with the reference server (bench/record/tasks.sh)",
        ),
        (
            "session-2025-06-18-varied",
            "2025-06-18-everything-tasks.jsonl",
            "2025-06-18",
            "long varied session 2025-06-18 with the reference server (bench/record/tasks.sh)",
        ),
        (
            "session-2025-11-25-tasks",
            "2025-11-25-everything-tasks.jsonl",
            "2025-11-25",
            "session 2025-11-25 with tasks both ways, sampling, elicitation, progress (bench/record/tasks.sh)",
        ),
        (
            "session-2025-11-25-mixed-2",
            "2025-11-25-mixed-servers-2.jsonl",
            "2025-11-25",
            "sessions 2025-11-25 with filesystem, memory, an MCP Apps and a Python SDK server, one file (bench/record/mixed-2.sh)",
        ),
        (
            "session-2026-07-28-official-sdks",
            "2026-07-28-official-sdks.jsonl",
            "2026-07-28",
            "sessions 2026-07-28 between the official Python and TypeScript SDKs, both ways round (bench/record/sdks.sh)",
        ),
    ];
    for (id, file, version, title) in varied {
        match load_session(&root.join("bench/data/sessions").join(file)) {
            Ok(msgs) => out.push(Corpus { id: id.into(), title: title.into(), version, kind: Kind::Session, msgs }),
            Err(e) => notes.push(format!("{id} missing: {e}")),
        }
    }
    // 2026-07-28 between the official SDK clients and the project's multi-version example server.
    let mut sdk = Vec::new();
    for f in ["python-mcp-2.3.0", "typescript-client-2.4.0"] {
        match load_session(&root.join("examples/sdk-clients/recorded").join(format!("{f}.jsonl"))) {
            Ok(msgs) => sdk.extend(msgs),
            Err(e) => notes.push(format!("SDK client session missing: {e}")),
        }
    }
    if !sdk.is_empty() {
        out.push(Corpus {
            id: "session-2026-07-28-sdks".into(),
            title: "sessions 2026-07-28 of the Python and TypeScript SDK clients (examples/sdk-clients/recorded/)".into(),
            version: "2026-07-28",
            kind: Kind::Session,
            msgs: sdk,
        });
    }
    out.push(Corpus {
        id: "tools-list-1000".into(),
        title: "tools/list result, 1,000 tools with rich input schemas".into(),
        version: "2025-11-25",
        kind: Kind::ToolsList,
        msgs: vec![Msg { bytes: tools_list(1000), dir: Dir::S2C, ty: Some("ListToolsResult".into()) }],
    });
    out.push(Corpus {
        id: "resources-read-10mb".into(),
        title: "resources/read result, one 10 MB base64 blob".into(),
        version: "2025-11-25",
        kind: Kind::ResourceRead,
        msgs: vec![Msg { bytes: resource_read_blob(10 << 20), dir: Dir::S2C, ty: Some("ReadResourceResult".into()) }],
    });
    match spec_examples("2026-07-28") {
        Ok(all) => {
            let msgs: Vec<Msg> = all.iter().filter(|m| is_jsonrpc(m)).cloned().collect();
            out.push(Corpus {
                id: "spec-messages-2026-07-28".into(),
                title: format!("spec examples 2026-07-28, the {} whole JSON-RPC messages", msgs.len()),
                version: "2026-07-28",
                kind: Kind::SpecMessages,
                msgs,
            });
            out.push(Corpus {
                id: "spec-all-2026-07-28".into(),
                title: format!("spec examples 2026-07-28, all {} as their named types", all.len()),
                version: "2026-07-28",
                kind: Kind::SpecAll,
                msgs: all,
            });
        }
        Err(e) => notes.push(format!("spec examples missing: {e}")),
    }
    (out, notes)
}

/// One cell of the result table.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// Median nanoseconds per pass over the corpus, from criterion's `estimates.json`.
    pub median_ns: Option<f64>,
    /// Why there is no number (a peer that cannot represent the corpus), or a remark.
    pub note: Option<String>,
}

/// Reads the median point estimate (ns) criterion wrote for one benchmark in this run.
/// `since` guards against picking up a number left by an earlier run.
pub fn read_median(criterion_dir: &Path, group: &str, bench: &str, since: std::time::SystemTime) -> Option<f64> {
    let p = criterion_dir.join(group).join(bench).join("new/estimates.json");
    let modified = std::fs::metadata(&p).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let v: Value = serde_json::from_slice(&std::fs::read(&p).ok()?).ok()?;
    v.get("median")?.get("point_estimate")?.as_f64()
}

/// Formats a throughput: MB/s with 10^6 bytes.
pub fn mb_per_s(bytes: usize, ns: f64) -> f64 {
    bytes as f64 / ns * 1e3
}

pub fn msgs_per_s(msgs: usize, ns: f64) -> f64 {
    msgs as f64 / ns * 1e9
}

/// A number with three significant digits, thousands grouped.
pub fn fmt_num(x: f64) -> String {
    if x >= 1000.0 {
        let n = x.round() as u64;
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// A Markdown table, columns padded.
pub fn markdown_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut w: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    let line = |s: &mut String, cells: &mut dyn Iterator<Item = String>| {
        s.push('|');
        for (i, c) in cells.enumerate() {
            let pad = w[i] - c.chars().count();
            let _ = write!(s, " {c}{} |", " ".repeat(pad));
        }
        s.push('\n');
    };
    line(&mut s, &mut header.iter().map(|h| h.to_string()));
    line(&mut s, &mut w.iter().map(|n| "-".repeat(*n)));
    for r in rows {
        line(&mut s, &mut r.iter().cloned());
    }
    s
}
