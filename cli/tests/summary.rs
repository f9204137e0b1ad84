//! `--summary`: messages per method and direction, findings per rule, unanswered requests, in
//! text and in `--json`.

use crate::common;

use common::{run, TempFile};
use serde_json::{json, Value};

/// A session with one bad call (line 6), its error answer, and a call left unanswered (line 8).
const CAPTURE: &str = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}]}}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":5}}}}
{"dir":"s2c","msg":{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"message must be a string"}}}
{"dir":"c2s","msg":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}}
"#;

#[test]
fn text_summary() {
    let f = TempFile::new("capture.jsonl", CAPTURE.as_bytes());
    let r = run(&["check", "--summary", f.path()], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let expected = format!(
        "summary: messages (direction, kind, method: count)
  c2s notification notifications/initialized: 1
  c2s request initialize: 1
  c2s request tools/call: 2
  c2s request tools/list: 1
  s2c error tools/call: 1
  s2c result initialize: 1
  s2c result tools/list: 1
summary: findings per rule
  session.tools.input-schema (error): 1
summary: unanswered requests: 1
  {}:8: c2s request 4 `tools/call`
7 passed, 1 failed
",
        f.path()
    );
    let tail = &r.stdout[r.stdout.find("summary:").expect("a summary")..];
    assert_eq!(tail, expected);
}

#[test]
fn json_summary() {
    let f = TempFile::new("capture.jsonl", CAPTURE.as_bytes());
    let r = run(&["check", "--summary", "--json", f.path()], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let lines: Vec<Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "one finding line, the summary, the counts: {}", r.stdout);
    let s = &lines[1]["summary"];
    assert_eq!(s["findings"], json!([{"rule": "session.tools.input-schema", "severity": "error", "count": 1}]));
    assert_eq!(s["unanswered"], json!([{"file": f.path(), "line": 8, "dir": "c2s", "id": "4", "method": "tools/call"}]));
    assert_eq!(s["unanswered_total"], 1);
    assert_eq!(s["evicted"], 0);
    let calls = s["messages"].as_array().unwrap().iter().find(|m| m["dir"] == "c2s" && m["kind"] == "request" && m["method"] == "tools/call");
    assert_eq!(calls.map(|m| m["count"].clone()), Some(json!(2)));
    assert_eq!(s["messages"].as_array().unwrap().iter().map(|m| m["count"].as_u64().unwrap()).sum::<u64>(), 8);
    assert_eq!(lines[2], json!({"passed": 7, "failed": 1, "warned": 0}));
}

/// Findings of every rule are counted, not only the session's; files add up.
#[test]
fn summary_covers_every_file_and_rule() {
    let a = TempFile::new("a.jsonl", CAPTURE.as_bytes());
    let b = TempFile::new("b.jsonl", b"{\"dir\":\"c2s\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}}\n");
    let r = run(&["check", "--summary", a.path(), b.path()], None);
    assert!(r.stdout.contains("  c2s request tools/call: 3\n"), "{}", r.stdout);
    assert!(r.stdout.contains("  deserialize (error): 1\n"), "{}", r.stdout);
    assert!(r.stdout.contains("summary: unanswered requests: 2\n"), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("  {}:1: c2s request 1 `tools/call`\n", b.path())), "{}", r.stdout);
}

/// Without `--summary` the output is what it was.
#[test]
fn no_summary_unless_asked() {
    let f = TempFile::new("capture.jsonl", CAPTURE.as_bytes());
    let r = run(&["check", f.path()], None);
    assert!(!r.stdout.contains("summary:"), "{}", r.stdout);
}
