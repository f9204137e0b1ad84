//! `proxy --to` without real peers: its arguments, the stdio wiring with a tiny fake server (`cat`,
//! which answers each line with itself), and `check` reading a bridge recording's two legs as two
//! streams. The bridge's cases are unit tests (cli/src/bridge/tests.rs); real peers are
//! cli/tests/bridge_real.rs.

#![cfg(unix)]

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{run, TempFile, BIN};
use serde_json::{json, Value};

#[test]
fn an_unknown_version_is_a_usage_error() {
    let r = run(&["proxy", "--to", "2023-01-01", "--", "cat"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--to: unknown protocol version `2023-01-01`"), "{}", r.stderr);
    let r = run(&["proxy", "--to", "--", "cat"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

fn proxy(args: &[&str], input: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(BIN).arg("proxy").args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap(), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_same_version_passes_bytes_unchanged_and_both_legs_are_recorded() {
    // `cat` echoes the client's lines as the server's: a 2025-11-25 client with `--to 2025-11-25`.
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}\n{ \"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\" }\n";
    let record = TempFile::new("same.jsonl", b"");
    let (code, stdout, stderr) = proxy(&["--to", "2025-11-25", "--record", record.path(), "--summary", "--", "cat"], input);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, input.to_vec());
    let recording = std::fs::read_to_string(record.path()).unwrap();
    let lines: Vec<Value> = recording.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // Each line received (with its verdict) and the same line on the other leg.
    assert_eq!(lines.len(), 8, "{recording}");
    assert_eq!((lines[0]["leg"].as_str(), lines[0]["bridge"]["verdict"].as_str()), (Some("client"), Some("forwarded")));
    assert_eq!((lines[1]["leg"].as_str(), lines[1].get("bridge")), (Some("server"), None));
    assert!(stderr.contains("forwarded") && stderr.contains("initialize 2"), "{stderr}");
}

#[test]
fn a_client_that_closes_early_still_gets_its_answer_through_the_bridges_initialize() {
    // A 2026-07-28 client writes one request and closes stdin at once; the server (2025-11-25, a
    // script) needs the bridge's `initialize` and `notifications/initialized` before it: the
    // server's stdin stays open until the bridge has sent them and the request.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":"mcp-schema-bridge/1","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}'
read l; case "$l" in *notifications/initialized*) ;; *) exit 3;; esac
read l; case "$l" in *tools/list*) echo '{"jsonrpc":"2.0","id":"mcp-schema-bridge/2","result":{"tools":[]}}';; *) exit 4;; esac"#;
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let (code, stdout, stderr) = proxy(&["--to", "2025-11-25", "--", "sh", "-c", script], format!("{request}\n").as_bytes());
    assert_eq!(code, 0, "{stderr}");
    let answer: Value = serde_json::from_slice(&stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&stdout)));
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}}));
}

#[test]
fn a_bridge_recording_is_checked_as_two_streams() {
    // The same ids on both legs are no reuse: each leg is its own stream, with its own version.
    let lines = [
        json!({"leg": "client", "dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}, "bridge": {"verdict": "answered", "method": "initialize"}}),
        json!({"leg": "server", "dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}),
        json!({"leg": "server", "dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": ["2026-07-28"], "capabilities": {}}}, "bridge": {"verdict": "converted", "method": "initialize result"}}),
        json!({"leg": "client", "dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let file = TempFile::new("legs.jsonl", text.as_bytes());
    let r = run(&["check", file.path()], None);
    assert_eq!((r.code, r.stdout.as_str()), (0, "4 passed, 0 failed\n"), "{}", r.stderr);

    // Without `leg` the four lines are one stream: the second request reuses id 1.
    let plain: String = lines.iter().map(|l| {
        let mut l = l.clone();
        l.as_object_mut().unwrap().remove("leg");
        format!("{l}\n")
    }).collect();
    let file = TempFile::new("one.jsonl", plain.as_bytes());
    let r = run(&["check", file.path()], None);
    assert!(r.stdout.contains("stream.id-reused"), "{}", r.stdout);

    // A `leg` that is neither is an error on the line.
    let bad = TempFile::new("bad.jsonl", format!("{}\n", json!({"leg": "middle", "dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "ping"}})).as_bytes());
    let r = run(&["check", bad.path()], None);
    assert!(r.code == 1 && r.stdout.contains("[line.leg]"), "{}", r.stdout);
}

#[test]
fn a_24_mib_line_through_the_stdio_bridge_costs_a_small_multiple_of_it() {
    // A 2025-11-25 client, a 2025-06-18 server (a script): every message is converted. The first
    // call is 24 MiB of small objects (a `Value` of ~2.6 GB; the compact tree and the skeleton the
    // bridge converts take a few times its bytes): converted and sent on; the second a 24 MiB
    // base64 string: converted and sent on.
    let script = r#"awk '
NR == 1 { print "{\"jsonrpc\":\"2.0\",\"id\":\"mcp-schema-bridge/1\",\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}"; fflush() }
NR == 3 { print length($0) > "/dev/stderr"; print "{\"jsonrpc\":\"2.0\",\"id\":\"mcp-schema-bridge/2\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"got them\"}]}}"; fflush() }
NR == 4 { print length($0) > "/dev/stderr"; print "{\"jsonrpc\":\"2.0\",\"id\":\"mcp-schema-bridge/3\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"got it\"}]}}"; fflush() }
'"#;
    let mut input = format!("{}\n{}\n", json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}), json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).into_bytes();
    let call = common::small_objects_call(1, 24 << 20);
    input.extend(&call);
    input.push(b'\n');
    let blob = "QUJD".repeat(6 << 20);
    input.extend(serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "see", "arguments": {"image": blob}}})).unwrap());
    input.push(b'\n');
    let (code, stdout, stderr, peak) = common::run_measured(&["proxy", "--to", "2025-06-18", "--", "sh", "-c", script], input);
    println!("proxy --to 2025-06-18 (stdio), a 24 MiB line of small objects and a 24 MiB base64 line: peak RSS {} MiB", peak >> 20);
    assert_eq!(code, 0, "{stderr}");
    let answers: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), 3, "{stdout}");
    // Issue 44: the line of small objects is passed on (issue 42 refused it, -32600, to bound its tree).
    assert_eq!((&answers[1]["id"], &answers[1]["result"]["content"][0]["text"]), (&json!(1), &json!("got them")), "{}", answers[1]);
    assert_eq!((&answers[2]["id"], &answers[2]["result"]["content"][0]["text"]), (&json!(2), &json!("got it")));
    // What the server got: the call as its `Value` is written (keys sorted), with the bridge's id.
    let sizes: Vec<usize> = stderr.lines().filter_map(|l| l.trim().parse().ok()).collect();
    let expected = serde_json::to_vec(&serde_json::from_slice::<Value>(&call).unwrap()).unwrap().len() - r#""id":1"#.len() + r#""id":"mcp-schema-bridge/2""#.len();
    assert_eq!(sizes.first(), Some(&expected), "{stderr}");
    // Before issue 44 the first line alone took 6.4 GB as a `Value`; now both take a few times their bytes.
    assert!(peak < 600_000_000, "peak RSS {peak}");
}

#[test]
fn the_summary_of_a_bridge_recording_says_the_leg_and_counts_a_passed_on_finding_once() {
    // The client's own mistake (arguments that break the tool's inputSchema) travels on both legs:
    // the bridge passed it on.
    let lines = [
        r#"{"leg":"client","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}},"bridge":{"verdict":"converted","method":"initialize"}}"#,
        r#"{"leg":"server","dir":"c2s","msg":{"jsonrpc":"2.0","id":"mcp-schema-bridge/1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#,
        r#"{"leg":"server","dir":"s2c","msg":{"jsonrpc":"2.0","id":"mcp-schema-bridge/1","result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}},"bridge":{"verdict":"converted","method":"initialize result"}}"#,
        r#"{"leg":"client","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}"#,
        r#"{"leg":"client","dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/initialized"},"bridge":{"verdict":"converted","method":"notifications/initialized"}}"#,
        r#"{"leg":"server","dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#,
        r#"{"leg":"client","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"},"bridge":{"verdict":"converted","method":"tools/list"}}"#,
        r#"{"leg":"server","dir":"c2s","msg":{"jsonrpc":"2.0","id":"mcp-schema-bridge/2","method":"tools/list"}}"#,
        r#"{"leg":"server","dir":"s2c","msg":{"jsonrpc":"2.0","id":"mcp-schema-bridge/2","result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}},"bridge":{"verdict":"converted","method":"tools/list result"}}"#,
        r#"{"leg":"client","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}}}"#,
        r#"{"leg":"client","dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"n":"x"}}},"bridge":{"verdict":"converted","method":"tools/call"}}"#,
        r#"{"leg":"server","dir":"c2s","msg":{"jsonrpc":"2.0","id":"mcp-schema-bridge/3","method":"tools/call","params":{"name":"add","arguments":{"n":"x"}}}}"#,
    ];
    let file = TempFile::new("legs-summary.jsonl", format!("{}\n", lines.join("\n")).as_bytes());
    let r = run(&["check", "--summary", file.path()], None);
    let findings: Vec<&str> = r.stdout.lines().filter(|l| l.contains(": error [")).collect();
    assert!(findings.len() == 1 && findings[0].contains("legs-summary.jsonl:11:") && findings[0].contains("session.tools.input-schema"), "{}", r.stdout);
    for row in ["summary: messages per leg", "  client: c2s request tools/call: 1", "  server: c2s request tools/call: 1", "summary: findings per rule (both legs", "  session.tools.input-schema (error): 1"] {
        assert!(r.stdout.contains(row), "{row}: {}", r.stdout);
    }
    let r = run(&["check", "--summary", "--json", file.path()], None);
    let summary: Value = r.stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).find_map(|v| v.get("summary").cloned()).unwrap();
    assert!(summary["messages"].as_array().unwrap().iter().all(|m| m["leg"] == "client" || m["leg"] == "server"), "{summary}");
}

/// A 2026-07-28 server using the Tasks extension (a script): `server/discover` declares it,
/// `tools/call` answers with a task handle, `tasks/get` with the task completed and its `result`
/// (`RESULT`, replaced by the caller). Each answer echoes its request's id.
const TASKS_SERVER: &str = r#"while read -r l; do
  id=${l#*\"id\":}; id=${id%%,*}
  case "$l" in
    *'"server/discover"'*) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"resultType":"complete","ttlMs":0,"cacheScope":"public","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}}';;
    *'"tools/call"'*) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"resultType":"task","taskId":"job-7","status":"working","createdAt":"2026-03-01T09:00:00Z","lastUpdatedAt":"2026-03-01T09:00:00Z","ttlMs":60000}}';;
    *'"tasks/get"'*) echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"resultType":"complete","taskId":"job-7","status":"completed","createdAt":"2026-03-01T09:00:00Z","lastUpdatedAt":"2026-03-01T09:00:05Z","ttlMs":60000,"result":RESULT}}';;
  esac
done"#;

/// A 2026-07-28 client declaring the Tasks extension: discovery, a tool call run as a task, its result.
fn tasks_client() -> String {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}});
    [
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "render", "arguments": {"page": 3}, "_meta": meta}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": "job-7", "_meta": meta}}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect()
}

/// The recorded session through `proxy --to 2026-07-28 --ext tasks` with the server's task
/// result `result`: the recording, and the proxy's own findings.
fn bridged_tasks_session(name: &str, result: &str) -> (String, String) {
    let record = TempFile::new(&format!("{name}.jsonl"), b"");
    let findings = TempFile::new(&format!("{name}.findings"), b"");
    let server = TASKS_SERVER.replace("RESULT", result);
    let (code, stdout, stderr) = proxy(&["--to", "2026-07-28", "--ext", "tasks", "--record", record.path(), "--findings", findings.path(), "--", "sh", "-c", &server], tasks_client().as_bytes());
    assert_eq!((code, String::from_utf8_lossy(&stdout).lines().count()), (0, 3), "{stderr}");
    (std::fs::read_to_string(record.path()).unwrap(), std::fs::read_to_string(findings.path()).unwrap())
}

#[test]
fn a_bridged_tasks_session_is_recorded_on_both_legs_and_checks_clean_with_ext_tasks() {
    let (recording, findings) = bridged_tasks_session("tasks-clean", r#"{"resultType":"complete","content":[{"type":"text","text":"page 3"}]}"#);
    let lines: Vec<Value> = recording.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // Three requests and three answers, each on both legs; the task handle and its result among them.
    assert_eq!(lines.len(), 12, "{recording}");
    for leg in ["client", "server"] {
        assert_eq!(lines.iter().filter(|l| l["leg"] == leg).count(), 6, "{recording}");
        assert!(lines.iter().any(|l| l["leg"] == leg && l["msg"]["result"]["resultType"] == "task"), "{recording}");
    }
    assert!(!findings.contains("error ["), "{findings}");
    let file = TempFile::new("tasks-clean-check.jsonl", recording.as_bytes());
    let r = run(&["check", "--ext", "tasks", "--strict", file.path()], None);
    assert_eq!((r.code, r.stdout.as_str()), (0, "12 passed, 0 failed\n"), "{}", r.stderr);
    // Without the extension the handle is no CallToolResult and `tasks/get` no method: the recording fails.
    let r = run(&["check", file.path()], None);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let failed: Vec<&str> = r.stdout.lines().filter(|l| l.contains(": error [")).collect();
    println!("without --ext tasks: {} findings", failed.len());
    assert!(failed.iter().any(|l| l.contains("[unknown-variant]")), "{}", r.stdout);
}

#[test]
fn a_bridged_tasks_sessions_broken_result_is_reported_by_the_tasks_rules() {
    // The completed task's `result` lacks 2026-07-28's `resultType`: the extension's session rule
    // names it, live in the proxy and in `check`, once (the bridge passed it on unchanged).
    let (recording, findings) = bridged_tasks_session("tasks-broken", r#"{"content":[{"type":"text","text":"page 3"}]}"#);
    let rule = "[session.tasks.completed-result]";
    assert_eq!(findings.lines().filter(|l| l.contains(rule)).count(), 1, "{findings}");
    let file = TempFile::new("tasks-broken-check.jsonl", recording.as_bytes());
    let r = run(&["check", "--ext", "tasks", file.path()], None);
    let found: Vec<&str> = r.stdout.lines().filter(|l| l.contains(": error [")).collect();
    assert!(r.code == 1 && found.len() == 1 && found[0].contains(rule), "{}", r.stdout);
}
