//! `stdio_server`'s `count` tool: long work on a thread of its own, with progress, answered while
//! other requests are, and stopped by a cancellation after which nothing more is written for it.
//!
//! The main test runs the official TypeScript SDK v1 client (pinned in `stdio_cancel/package.json`,
//! with Node 22, installed by `npm ci`; skipped without npm except under `CI=true`) through
//! `stdio_cancel/cancel.mjs`: it calls `count` with progress, calls `echo` at the third step, and
//! aborts `count` once `echo` is answered. The server's own recording (`--record`, in the order the
//! engine took and wrote each line) is then checked: nothing for `count` (no progress, no result)
//! after the `notifications/cancelled` line, and `echo` answered while `count` was still running.

#![forbid(unsafe_code)]

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use support::text;

const SERVER: &str = env!("CARGO_BIN_EXE_stdio_server");

/// The recording's messages, as (direction, message).
fn recording(path: &Path) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(path).expect("the server wrote its recording");
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            (v["dir"].as_str().unwrap().to_owned(), v["msg"].clone())
        })
        .collect()
}

fn is_progress_for(m: &Value, token: &Value) -> bool {
    m["method"] == "notifications/progress" && m["params"]["progressToken"] == *token
}

#[test]
fn the_typescript_sdk_cancels_count_and_nothing_follows_the_cancellation() {
    let Some((node, dir)) = support::pinned_node("tests/stdio_cancel") else {
        return;
    };
    let record = std::env::temp_dir().join(format!("stdio_cancel-{}.jsonl", std::process::id()));
    let o = Command::new(&node)
        .arg(dir.join("cancel.mjs"))
        .arg(SERVER)
        .arg("--record")
        .arg(&record)
        .output()
        .expect("node runs");
    assert!(o.status.success(), "the client failed:\n{}", text(&o));
    let seen: Value = serde_json::from_slice(&o.stdout).expect("the client's JSON line");
    assert_eq!(seen["outcome"], "aborted", "{}", text(&o));
    assert_eq!(seen["echo"], "meanwhile", "{}", text(&o));

    let messages = recording(&record);
    let _ = std::fs::remove_file(&record);
    let shown = || {
        messages
            .iter()
            .map(|(d, m)| format!("{d} {m}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let at = |f: &dyn Fn(&str, &Value) -> bool| messages.iter().position(|(d, m)| f(d, m));
    let count_at = at(&|d, m| d == "c2s" && m["params"]["name"] == "count").expect("count was called");
    let count = &messages[count_at].1;
    let (count_id, token) = (count["id"].clone(), count["params"]["_meta"]["progressToken"].clone());
    assert!(!token.is_null(), "count asked for progress: {count}");
    let cancel_at = at(&|d, m| {
        d == "c2s" && m["method"] == "notifications/cancelled" && m["params"]["requestId"] == count_id
    })
    .unwrap_or_else(|| panic!("no cancellation of count:\n{}", shown()));
    let echo_id = at(&|d, m| d == "c2s" && m["params"]["name"] == "echo")
        .map(|i| messages[i].1["id"].clone())
        .expect("echo was called");
    let echo_answer_at = at(&|d, m| d == "s2c" && m["id"] == echo_id && m.get("method").is_none())
        .unwrap_or_else(|| panic!("echo was not answered:\n{}", shown()));

    // Nothing for count after the cancellation: no progress, no result or error.
    let after: Vec<&Value> = messages[cancel_at + 1..]
        .iter()
        .filter(|(d, m)| d == "s2c" && (m["id"] == count_id || is_progress_for(m, &token)))
        .map(|(_, m)| m)
        .collect();
    eprintln!("lines for count after the cancellation: {}", after.len());
    assert!(after.is_empty(), "written after the cancellation: {after:?}\n{}", shown());
    assert!(
        !messages.iter().any(|(d, m)| d == "s2c" && m["id"] == count_id),
        "count was answered although cancelled:\n{}",
        shown()
    );

    // Echo was answered while count ran: after count's progress began, before its cancellation,
    // and count was still progressing (unanswered) then.
    let steps_before_echo = messages[count_at..echo_answer_at]
        .iter()
        .filter(|(d, m)| d == "s2c" && is_progress_for(m, &token))
        .count();
    eprintln!("echo answered at step {steps_before_echo} of count");
    assert!(steps_before_echo >= 3, "{}", shown());
    assert!(echo_answer_at < cancel_at, "{}", shown());
}

/// Runs the server on `lines` (after `initialize`), returning what it wrote after the
/// `initialize` answer. Stdin ends after the last line; the server still finishes `count`.
fn session(lines: &[Value]) -> Vec<Value> {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let mut input = String::new();
    for line in [init, json!({"jsonrpc": "2.0", "method": "notifications/initialized"})]
        .iter()
        .chain(lines)
    {
        input.push_str(&format!("{line}\n"));
    }
    let mut child = Command::new(SERVER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stdio_server runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let stdout = String::from_utf8(o.stdout).unwrap();
    stdout
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn count_sends_one_progress_per_step_when_asked_and_answers_with_its_count() {
    let call = |id: i64, meta: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "count", "arguments": {"to": 3, "delayMs": 1}, "_meta": meta}})
    };
    let out = session(&[call(1, json!({"progressToken": "p"}))]);
    let progress: Vec<&Value> = out
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| &m["params"]["progress"])
        .collect();
    assert_eq!(progress, [&json!(1.0), &json!(2.0), &json!(3.0)], "{out:?}");
    assert_eq!(out.last().unwrap()["result"]["structuredContent"], json!({"count": 3}));

    // No token, no progress.
    let out = session(&[call(2, json!({}))]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0]["id"], json!(2));
    assert_eq!(out[0]["result"]["structuredContent"], json!({"count": 3}));
}

#[test]
fn count_with_bad_arguments_is_a_tool_error() {
    for arguments in [json!({}), json!({"to": -1}), json!({"to": 2, "delayMs": 100000})] {
        let out = session(&[json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "count", "arguments": arguments}})]);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0]["result"]["isError"], json!(true), "{arguments}: {out:?}");
    }
}
