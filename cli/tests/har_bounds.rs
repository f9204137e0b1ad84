//! `check FILE.har` on large HARs made on the fly (in a temporary directory): memory follows the
//! largest entry, not the file, and an SSE answer costs a small multiple of its size. The child's
//! peak resident set size is measured and printed.
//!
//! The peak is the child's own `VmHWM`, read from `/proc` while it runs: `wait4`'s `ru_maxrss`
//! starts from this test process's own peak (a spawned child keeps it across `exec`), which other
//! tests of the process raise at will.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::bounds::TempFile;

/// What one run of `mcp-schema` gave.
struct Run {
    code: i32,
    stdout: String,
    /// The child's peak resident set size in MiB (0 where `/proc` does not tell).
    peak_mib: u64,
}

/// Runs `mcp-schema ARGS`, its output to a file, watching its peak memory until it exits.
fn run(args: &[&str]) -> Run {
    let out = TempFile::new("out.txt", |_| {});
    let file = std::fs::File::create(out.path()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-schema")).args(args).stdin(Stdio::null()).stdout(file).stderr(Stdio::null()).spawn().expect("the binary runs");
    let mut peak_kib = 0u64;
    let code = loop {
        // The high-water mark only grows, so the last reading before the exit is the peak.
        peak_kib = peak_kib.max(crate::common::peak_rss(child.id()).unwrap_or(0) >> 10);
        if let Some(s) = child.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let stdout = std::fs::read_to_string(out.path()).unwrap_or_default();
    eprintln!("mcp-schema {}: exit {code}, peak RSS {} MiB", args.join(" "), peak_kib / 1024);
    Run { code, stdout, peak_mib: peak_kib / 1024 }
}

const MIB: usize = 1 << 20;

/// Writes a HAR of one session in time order: `initialize`, then `calls` tool calls, each answered
/// over SSE with a progress notification and a result of `text_len` bytes.
fn write_session(w: &mut dyn Write, calls: usize, text_len: usize) {
    let entry = |w: &mut dyn Write, n: usize, body: &str, mime: &str, answer: &str| {
        let status = if answer.is_empty() { 202 } else { 200 };
        let time = format!("2026-11-26T{:02}:{:02}:{:02}.{:03}Z", n / 3_600_000 % 24, n / 60_000 % 60, n / 1000 % 60, n % 1000);
        let e = serde_json::json!({
            "startedDateTime": time,
            "request": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "headers": [{"name": "Accept", "value": "application/json, text/event-stream"}, {"name": "Content-Type", "value": "application/json"}, {"name": "Mcp-Session-Id", "value": "s1"}, {"name": "MCP-Protocol-Version", "value": "2025-11-25"}], "postData": {"mimeType": "application/json", "text": body}},
            "response": {"status": status, "headers": [{"name": "Content-Type", "value": mime}, {"name": "Mcp-Session-Id", "value": "s1"}], "content": {"mimeType": mime, "text": answer}}
        });
        if n > 0 {
            w.write_all(b",\n").unwrap();
        }
        serde_json::to_writer(&mut *w, &e).unwrap();
    };
    w.write_all(br#"{"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": ["#).unwrap();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#;
    entry(w, 0, init, "application/json", answer);
    entry(w, 1, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, "", "");
    let text = "x".repeat(text_len);
    for i in 2..calls + 2 {
        let call = format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"echo","arguments":{{}},"_meta":{{"progressToken":{i}}}}}}}"#);
        let progress = format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{i},"progress":1}}}}"#);
        let result = format!(r#"{{"jsonrpc":"2.0","id":{i},"result":{{"content":[{{"type":"text","text":"{text}"}}]}}}}"#);
        entry(w, i, &call, "text/event-stream", &format!("id: {i}-0\ndata:\n\nid: {i}-1\ndata: {progress}\n\nid: {i}-2\ndata: {result}\n\n"));
    }
    w.write_all(b"]}}\n").unwrap();
}

/// A 128 MiB HAR of one session in time order: each entry is checked when it is read, so memory
/// holds about one entry; before, every MCP body was held up to 256 MiB to sort the entries,
/// with each entry's context besides.
#[test]
fn a_large_har_in_time_order_is_checked_in_the_memory_of_one_entry() {
    let input = TempFile::new("big.har", |w| write_session(w, 4000, 32 << 10));
    let size = std::fs::metadata(input.path()).unwrap().len() as usize;
    let r = run(&["check", input.path()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("12003 passed"), "{}", r.stdout);
    println!("check of a {} MiB HAR in time order: peak RSS {} MiB", size / MIB, r.peak_mib);
    // The binary's own footprint (about 40 MiB in a debug build) and a few entries; before: 215 MiB,
    // growing with the file.
    assert!(r.peak_mib < 96, "peak RSS {} MiB for a {} MiB HAR", r.peak_mib, size / MIB);
}

/// One POST answered by a 14 MiB SSE stream of 1,000 small-object events (log notifications whose
/// `data` is an array of small objects): each event's message is parsed when it is checked, so at
/// most one is a tree at a time; before, every event of the answer was a tree at once (about 16
/// times the stream).
#[test]
fn an_sse_answer_costs_a_small_multiple_of_its_size() {
    let events = 1000;
    // Written as it is made: this process stays small (its peak would be the child's, see `bounds.rs`).
    let input = TempFile::new("sse.har", |w| {
        let call = r#"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{}}}"#;
        write!(w, r#"{{"log": {{"version": "1.2", "creator": {{"name": "test", "version": "1"}}, "entries": [{{"startedDateTime": "2026-11-26T00:00:00.000Z", "request": {{"method": "POST", "url": "http://127.0.0.1:3001/mcp", "headers": [{{"name": "Content-Type", "value": "application/json"}}], "postData": {{"mimeType": "application/json", "text": "{call}"}}}}, "response": {{"status": 200, "headers": [{{"name": "Content-Type", "value": "text/event-stream"}}], "content": {{"mimeType": "text/event-stream", "text": ""#).unwrap();
        let items = r#"{\"k\":1},"#.repeat(1500);
        for i in 0..events {
            write!(w, r#"id: {i}\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":[{items}{{}}]}}}}\n\n"#).unwrap();
        }
        write!(w, r#"id: end\ndata: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"content\":[]}}}}\n\n"}}}}}}]}}}}"#).unwrap();
    });
    let size = std::fs::metadata(input.path()).unwrap().len() as usize;
    let r = run(&["check", "--protocol", "2025-11-25", input.path()]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stdout);
    println!("check of a HAR with a {} MiB SSE answer of {events} events: peak RSS {} MiB", size / MIB, r.peak_mib);
    // The binary's footprint, then the JSON reader's buffer, the answer's text and its events' data:
    // a few times the stream, and one event's tree.
    // Before: about 70 times the stream (2 GiB for 28 MiB).
    assert!(r.peak_mib < 64 + 4 * (size / MIB) as u64, "peak RSS {} MiB for a {} MiB SSE answer", r.peak_mib, size / MIB);
}
