//! What the conformance server and client share: writing a message with the debug-mode check (and
//! recording) of what is written, and the 2026-07-28 headers a client derives from tool schemas.
//! The HTTP itself (SSE framing, bodies, sessions) is the engine's `http` adapters'.

#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use mcp_spec_types::runtime::{JsonConvert, SchemaType};
use mcp_spec_types::validate::{validate_json, Options, Report, Validate};

pub mod headers;

/// Writes a message (a version's `ClientMessage` or `ServerMessage`) as one line of JSON; with a
/// checker, the message is first validated whole, as a receiver would read it.
pub fn write<M: JsonConvert + SchemaType + Validate>(
    message: &M,
    checker: Option<&Checker>,
) -> String {
    let json = message.to_json().expect("generated types serialize");
    if let Some(checker) = checker {
        let report = validate_json::<M>(&json, &Options::default());
        checker.record(message.schema_name(), &[report]);
        checker.log(&json);
    }
    json.to_string()
}

/// Checks a line of JSON the program wrote (one the engine made) as the message type `M` of its
/// version, and records it.
pub fn wrote<M: Validate>(line: &[u8], checker: Option<&Checker>) {
    let Some(checker) = checker else { return };
    match serde_json::from_slice::<serde_json::Value>(line) {
        Ok(json) => {
            let report = validate_json::<M>(&json, &Options::default());
            let what = json.get("method").and_then(|m| m.as_str()).unwrap_or("response").to_owned();
            checker.record(&what, &[report]);
            checker.log(&json);
        }
        Err(e) => checker.record_error(&format!("wrote a line that is not JSON: {e}")),
    }
}

/// Counts what the validators said about the messages a program wrote (debug mode).
#[derive(Default)]
pub struct Checker {
    messages: AtomicUsize,
    findings: AtomicUsize,
    /// `--record FILE`: every message written, so run.sh can check the same messages the suite did.
    log: Option<(Mutex<File>, &'static str)>,
}

impl Checker {
    /// A checker that also appends each message written to `path` as a JSONL wrapper line
    /// (`{"dir":DIR,"msg":...}`, what `mcp-schema check` reads; DIR is `s2c` for a server, `c2s`
    /// for a client), unbuffered so a reader can slice the file between scenarios.
    pub fn recording(path: &str, dir: &'static str) -> io::Result<Self> {
        let file = File::options().create(true).append(true).open(path)?;
        Ok(Checker {
            log: Some((Mutex::new(file), dir)),
            ..Checker::default()
        })
    }

    /// Records a message the program received (not checked: it is the peer's), so the recording
    /// pairs each response with its request as a checker of the session needs. Bodies that are not
    /// JSON are left out.
    pub fn received(&self, body: &[u8]) {
        let Some((_, dir)) = &self.log else { return };
        if let Ok(message) = serde_json::from_slice::<serde_json::Value>(body) {
            self.append(if *dir == "s2c" { "c2s" } else { "s2c" }, &message);
        }
    }

    fn log(&self, message: &serde_json::Value) {
        if let Some((_, dir)) = &self.log {
            self.append(dir, message);
        }
    }

    fn append(&self, dir: &str, message: &serde_json::Value) {
        let Some((file, _)) = &self.log else { return };
        let line = serde_json::json!({ "dir": dir, "msg": message });
        // One write per line (the file is in append mode), so lines never interleave.
        let written = file
            .lock()
            .map(|mut f| f.write_all(format!("{line}\n").as_bytes()));
        if !matches!(written, Ok(Ok(()))) {
            eprintln!("finding: could not record a message");
            self.findings.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Records one message's reports; each violation goes to stderr as a `finding:` line.
    pub fn record(&self, what: &str, reports: &[Report]) {
        self.messages.fetch_add(1, Ordering::Relaxed);
        for violation in reports.iter().flat_map(|r| &r.violations) {
            self.findings.fetch_add(1, Ordering::Relaxed);
            eprintln!("finding: {what}: {violation}");
        }
    }

    fn record_error(&self, finding: &str) {
        self.messages.fetch_add(1, Ordering::Relaxed);
        self.findings.fetch_add(1, Ordering::Relaxed);
        eprintln!("finding: {finding}");
    }

    pub fn findings(&self) -> usize {
        self.findings.load(Ordering::Relaxed)
    }

    /// `validated N messages, M findings`, the line the suite script reads.
    pub fn summary(&self) -> String {
        format!(
            "validated {} messages, {} findings",
            self.messages.load(Ordering::Relaxed),
            self.findings()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{write, Checker};
    use mcp_spec_types::runtime::JsonConvert;
    use mcp_spec_types::v2025_11_25::{ClientMessage, ServerMessage};
    use serde_json::json;

    #[test]
    fn records_each_written_message_as_a_wrapper_line() {
        let path =
            std::env::temp_dir().join(format!("conformance-record-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let checker = Checker::recording(path.to_str().unwrap(), "c2s").unwrap();
        let ping =
            ClientMessage::from_json(json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})).unwrap();
        let answer =
            ServerMessage::from_json(json!({"jsonrpc": "2.0", "id": 7, "result": {}})).unwrap();
        write(&ping, Some(&checker));
        checker.received(br#"{"jsonrpc":"2.0","id":8,"result":{}}"#);
        checker.received(b"not json");
        write(&answer, Some(&checker));
        // A second program (the other side) appends to the same file with its own direction.
        write(
            &answer,
            Some(&Checker::recording(path.to_str().unwrap(), "s2c").unwrap()),
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0]["dir"], "c2s");
        assert_eq!(lines[0]["msg"]["method"], "ping");
        assert_eq!(
            (&lines[1]["dir"], &lines[1]["msg"]["id"]),
            (&json!("s2c"), &json!(8))
        );
        assert_eq!(
            (&lines[2]["dir"], &lines[2]["msg"]["id"]),
            (&json!("c2s"), &json!(7))
        );
        assert_eq!(lines[3]["dir"], "s2c");
        assert_eq!(checker.summary(), "validated 2 messages, 0 findings");
    }
}
