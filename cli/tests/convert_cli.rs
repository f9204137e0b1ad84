//! `mcp-schema convert` on the recorded sessions (tests/data/sessions/): every session converted to
//! every other version and back gives the original messages, and the converted session checks
//! clean against the target version. Also: the version reading helpers of
//! `mcp_spec_types::negotiate` agree with the checker, line by line.

use crate::common;

use std::collections::BTreeSet;

use common::{check_json, data, run, Cases, TempFile};
use mcp_spec_types::negotiate::{Direction, VersionTracker};
use mcp_spec_types_cli::args::CheckArgs;
use mcp_spec_types_cli::check::Checker;
use serde_json::Value;

/// Session files, by the version the session negotiated (`2026-07-28.jsonl` negotiated 2025-11-25).
const SESSIONS: &[(&str, &str)] = &[
    ("2024-11-05", "2024-11-05"),
    ("2025-03-26", "2025-03-26"),
    ("2025-06-18", "2025-06-18"),
    ("2025-11-25", "2025-11-25"),
    ("2026-07-28", "2025-11-25"),
];

/// The versions with the `initialize` handshake, which the sessions can be converted to whole.
const HANDSHAKE: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The versions without `resource_link` content.
fn old(version: &str) -> bool {
    version == "2024-11-05" || version == "2025-03-26"
}

fn session_path(file: &str) -> String {
    data(&format!("sessions/{file}.jsonl")).to_str().unwrap().to_string()
}

fn values(text: &str) -> Vec<Value> {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// `mcp-schema convert --to TO FILE`: output values, the lines that failed, the exit status.
fn convert(to: &str, file: &str) -> (Vec<Value>, BTreeSet<u64>, i32, String) {
    let r = run(&["convert", "--to", to, file], None);
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    let mut failed = BTreeSet::new();
    let mut lines = r.stderr.lines().collect::<Vec<_>>();
    let summary = lines.pop().expect("a summary line");
    for l in &lines {
        // FILE:LINE: /pointer: SEVERITY [RULE]: message; warnings leave the line converted.
        let rest = l.strip_prefix(file).and_then(|r| r.strip_prefix(':')).unwrap_or_else(|| panic!("not FILE:LINE: {l}"));
        if rest.contains(": error [") {
            failed.insert(rest.split(':').next().unwrap().parse::<u64>().unwrap());
        }
    }
    let out = values(&r.stdout);
    assert_eq!(summary, format!("{} converted, {} failed", out.len(), failed.len()));
    assert_eq!(r.code, i32::from(!failed.is_empty()));
    (out, failed, r.code, r.stderr)
}

/// The session's lines that must fail to convert from `from` to `to`: the deliberately invalid
/// `tools/call` (no `name`) and, from or to 2024-11-05 and 2025-03-26, the result with `resource_link`
/// (which the server sends in every session, even where the version lacks it: such a source line
/// fails its own version, so it is not converted).
fn expected_failures(original: &[Value], from: &str, to: &str) -> BTreeSet<u64> {
    let line_of = |pred: &dyn Fn(&Value) -> bool| original.iter().position(|v| pred(&v["msg"])).unwrap() as u64 + 1;
    let mut e = BTreeSet::from([line_of(&|m| m["method"] == "tools/call" && m["params"].get("name").is_none())]);
    if old(from) || old(to) {
        e.insert(line_of(&|m| m["result"]["content"][1]["type"] == "resource_link"));
    }
    e
}

#[test]
fn sessions_convert_to_every_handshake_version_and_back() {
    let mut cases = Cases::default();
    for &(file, version) in SESSIONS {
        let path = session_path(file);
        let original = values(&std::fs::read_to_string(&path).unwrap());
        for &to in HANDSHAKE.iter().filter(|&&t| t != version) {
            cases.check(&format!("{file} -> {to} -> {version}"), || {
                let (there, failed, ..) = convert(to, &path);
                let want = expected_failures(&original, version, to);
                if failed != want {
                    return Err(format!("lines failing to convert: {failed:?}, expected {want:?}"));
                }
                let there_file = TempFile::new("there.jsonl", (there.iter().map(Value::to_string).collect::<Vec<_>>().join("\n") + "\n").as_bytes());
                let (code, checked) = check_json(&["--protocol", to, there_file.path()], None);
                if code != 0 {
                    return Err(format!("the converted session fails `check --protocol {to}` on lines {:?}: {:?}", checked.failed_lines, checked.found));
                }
                let (back, failed_back, ..) = convert(version, there_file.path());
                // What came through both ways, message for message.
                let kept: Vec<&Value> = (1..=original.len() as u64).filter(|l| !failed.contains(l)).map(|l| &original[l as usize - 1]).collect();
                let kept_back: Vec<&Value> = kept.iter().enumerate().filter(|(i, _)| !failed_back.contains(&(*i as u64 + 1))).map(|(_, v)| *v).collect();
                if back.len() != kept_back.len() {
                    return Err(format!("{} messages came back, expected {}", back.len(), kept_back.len()));
                }
                for (i, (b, o)) in back.iter().zip(&kept_back).enumerate() {
                    if b != *o {
                        return Err(format!("message {} differs after the round trip:\n{b}\n{o}", i + 1));
                    }
                }
                // What the source version lacks failed on the way there already (it fails its source).
                if !failed_back.is_empty() {
                    return Err(format!("{} lines failed on the way back: {failed_back:?}", failed_back.len()));
                }
                println!("{file} -> {to} -> {version}: {} of {} messages converted there, {} back unchanged", there.len(), original.len(), back.len());
                Ok(())
            });
        }
    }
    cases.finish();
}

/// 2026-07-28 has no `initialize`, `ping`, `logging/setLevel` or tasks, and its requests need the
/// version and capabilities in `params._meta`: a type conversion cannot add those (a gateway does),
/// so the requests fail with a reason, and what converts checks clean as 2026-07-28.
#[test]
fn handshake_sessions_to_2026_07_28_fail_where_a_gateway_is_needed() {
    let path = session_path("2025-11-25");
    let (out, failed, code, stderr) = convert("2026-07-28", &path);
    assert_eq!(code, 1);
    assert!(stderr.contains(":1: /msg/method: error [convert.method]: 2026-07-28 has no `initialize` request"), "{stderr}");
    assert!(stderr.contains("/msg/params: error [convert.refused]: the target version requires `params`"), "a request without `_meta` names the params:\n{stderr}");
    assert!(stderr.contains("/msg/params/_meta: error [convert.refused]: the target version requires `_meta`"), "{stderr}");
    assert!(stderr.contains("/msg/result/resultType: error [convert.refused]: the target version requires `resultType`"), "{stderr}");
    println!("2025-11-25 -> 2026-07-28: {} converted, {} failed", out.len(), failed.len());
    let file = TempFile::new("there.jsonl", (out.iter().map(Value::to_string).collect::<Vec<_>>().join("\n") + "\n").as_bytes());
    let (code, checked) = check_json(&["--protocol", "2026-07-28", file.path()], None);
    assert_eq!(code, 0, "{:?}", checked.found);
}

#[test]
fn convert_cli_formats_and_exit_status() {
    // A `.json` document converts to a `.json` document; a wrapper's `protocol` follows.
    let doc = TempFile::new("m.json", br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#);
    let r = run(&["convert", "--from", "2025-06-18", "--to", "2025-11-25", doc.path()], None);
    assert_eq!((r.code, r.stderr.as_str()), (0, "1 converted, 0 failed\n"));
    assert_eq!(serde_json::from_str::<Value>(&r.stdout).unwrap(), serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let line = br#"{"dir":"c2s","protocol":"2025-06-18","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
not json
"#;
    let r = run(&["convert", "--to", "2025-11-25", "-"], Some(line));
    assert_eq!(r.code, 1);
    assert_eq!(values(r.stdout.lines().next().unwrap())[0]["protocol"], "2025-11-25");
    assert!(r.stderr.starts_with("<stdin>:2: /: error [json]: not JSON"), "{}", r.stderr);
    assert!(r.stderr.ends_with("1 converted, 1 failed\n"), "{}", r.stderr);
    // Usage and I/O errors: 2.
    assert_eq!(run(&["convert", "x.jsonl"], None).code, 2);
    assert_eq!(run(&["convert", "--to", "1999-01-01", "x.jsonl"], None).code, 2);
    assert_eq!(run(&["convert", "--to", "2025-11-25", "/nonexistent/x.jsonl"], None).code, 2);
    assert!(run(&["convert", "--help"], None).stdout.contains("Usage: mcp-schema convert"));
}

/// `negotiate::VersionTracker` reads every recorded session's versions as the checker does.
#[test]
fn version_tracker_agrees_with_the_checker() {
    let mut cases = Cases::default();
    for &(file, _) in SESSIONS {
        cases.check(file, || {
            let text = std::fs::read_to_string(session_path(file)).unwrap();
            let mut checker = Checker::new(&CheckArgs::default());
            let mut tracker = VersionTracker::new();
            for (i, line) in text.lines().enumerate() {
                let v: Value = serde_json::from_str(line).unwrap();
                let dir = match v["dir"].as_str() {
                    Some("c2s") => Some(Direction::ClientToServer),
                    Some("s2c") => Some(Direction::ServerToClient),
                    _ => None,
                };
                let ours = tracker.observe(&v["msg"], dir).unwrap_or(mcp_spec_types_cli::versions::LATEST);
                let checked = checker.check_line(line.as_bytes(), i as u64 + 1).unwrap().protocol;
                if checked != Some(ours) {
                    return Err(format!("line {}: tracker {ours}, checker {checked:?}", i + 1));
                }
            }
            Ok(())
        });
    }
    cases.finish();
}

/// A recorded session with the server's own requests added after `notifications/initialized`, each
/// answered by the client (which now declares `roots`, `sampling` and, from 2025-06-18, `elicitation`).
/// Returns the lines and the line numbers of the added requests and answers.
fn with_server_requests(file: &str) -> (Vec<Value>, BTreeSet<u64>) {
    let mut lines = values(&std::fs::read_to_string(session_path(file)).unwrap());
    let version = lines[0]["msg"]["params"]["protocolVersion"].as_str().unwrap().to_string();
    let elicitation = !old(&version) && version != "2024-11-05";
    let caps = &mut lines[0]["msg"]["params"]["capabilities"];
    caps["roots"] = serde_json::json!({"listChanged": true});
    caps["sampling"] = serde_json::json!({});
    if elicitation {
        caps["elicitation"] = serde_json::json!({});
    }
    let mut added = vec![
        serde_json::json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 101, "method": "roots/list"}}),
        serde_json::json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 101, "result": {"roots": [{"uri": "file:///tmp", "name": "tmp"}]}}}),
        serde_json::json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 102, "method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}}}),
        serde_json::json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 102, "result": {"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m"}}}),
    ];
    if elicitation {
        added.push(serde_json::json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 103, "method": "elicitation/create", "params": {"message": "name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}}));
        added.push(serde_json::json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 103, "result": {"action": "decline"}}}));
    }
    let at = lines.iter().position(|l| l["msg"]["method"] == "notifications/initialized").unwrap() + 1;
    let numbers = (at as u64 + 1..=(at + added.len()) as u64).collect();
    lines.splice(at..at, added);
    (lines, numbers)
}

fn jsonl(values: &[Value]) -> Vec<u8> {
    (values.iter().map(Value::to_string).collect::<Vec<_>>().join("\n") + "\n").into_bytes()
}

/// Issue 27, item 8: a version whose servers send no requests (2026-07-28, draft) gets none of the
/// server's requests nor their answers, each refused as `convert.direction` naming the
/// `ServerRequest` row of CONVERSIONS.md; every recorded session, so extended, converts to every
/// version and what is written passes `check --protocol TARGET`.
#[test]
fn server_requests_are_refused_where_the_target_has_none() {
    let mut cases = Cases::default();
    for &(file, _) in SESSIONS {
        let (lines, added) = with_server_requests(file);
        let source = TempFile::new("with-server-requests.jsonl", &jsonl(&lines));
        let (code, checked) = check_json(&[source.path()], None);
        assert!(added.iter().all(|n| !checked.failed_lines.contains(n)), "{file}: the added lines check clean in the source: {:?} (exit {code})", checked.found);
        for to in mcp_spec_types_cli::versions::VERSIONS.iter().map(|m| m.name) {
            cases.check(&format!("{file} + server requests -> {to}"), || {
                let r = run(&["convert", "--to", to, source.path()], None);
                let out = values(&r.stdout);
                let there = TempFile::new("there.jsonl", &jsonl(&out));
                let (code, checked) = check_json(&["--protocol", to, there.path()], None);
                if code != 0 {
                    return Err(format!("the converted session fails `check --protocol {to}` on lines {:?}: {:?}", checked.failed_lines, checked.found));
                }
                let no_server_requests = to == "2026-07-28" || to == "draft";
                for n in &added {
                    let refused = r.stderr.lines().any(|l| l.starts_with(&format!("{}:{n}: ", source.path())) && l.contains("error [convert.direction]"));
                    if refused != no_server_requests {
                        return Err(format!("line {n}: refused as convert.direction: {refused}\n{}", r.stderr));
                    }
                }
                if no_server_requests && !r.stderr.contains("case `ServerRequest` of CONVERSIONS.md") {
                    return Err(format!("the refusal names no row of CONVERSIONS.md:\n{}", r.stderr));
                }
                Ok(())
            });
        }
    }
    cases.finish();
}

/// Issue 27, item 7: each converted line is written as soon as it is converted (standard input:
/// the answer to the first line arrives while the input is still open), not held to the end.
#[test]
fn converted_lines_are_written_as_they_are_converted() {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::BIN)
        .args(["convert", "--from", "2025-06-18", "--to", "2025-11-25", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n").unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    drop(stdin);
    let status = child.wait().unwrap();
    let first = first.expect("the first line is written before the input ends");
    assert_eq!(serde_json::from_str::<Value>(&first).unwrap()["method"], "tools/list");
    assert_eq!(status.code(), Some(0));
}

/// Issue 27, item 7: a line longer than the limit is skipped while it is read, never held whole:
/// a 1 GiB line (a sparse file) converts within a 768 MiB address space, and the next line still does.
#[cfg(target_os = "linux")]
#[test]
fn a_line_past_the_limit_is_not_held() {
    let file = TempFile::new("long.jsonl", b"");
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::File::options().write(true).open(file.path()).unwrap();
        f.seek(SeekFrom::Start(1 << 30)).unwrap();
        f.write_all(b"\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n").unwrap();
    }
    let script = format!("ulimit -v {}; exec \"$0\" convert --from 2025-06-18 --to 2025-11-25 \"$1\"", 768 * 1024);
    let out = std::process::Command::new("sh").args(["-c", &script, common::BIN, file.path()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(":1: /: error [line.too-long]: line too long: 1073741824 bytes"), "{stderr}");
    assert!(stderr.ends_with("1 converted, 1 failed\n"), "{stderr}");
    assert_eq!(values(&String::from_utf8_lossy(&out.stdout))[0]["method"], "tools/list");
}

/// Issue 27, item 7: findings are capped per value as `check --max-findings` caps them (default
/// 100), the rest counted in one line.
#[test]
fn findings_per_value_are_capped() {
    let batch: Vec<Value> = (0..3000).map(|i| serde_json::json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {}})).collect();
    let line = serde_json::to_vec(&batch).unwrap();
    for (args, kept) in [(&[][..], 100), (&["--max-findings", "7"][..], 7)] {
        let mut argv = vec!["convert", "--from", "2025-03-26", "--to", "2025-03-26"];
        argv.extend_from_slice(args);
        argv.push("-");
        let r = run(&argv, Some(&line));
        assert_eq!(r.code, 1);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), kept + 2, "{}", &r.stderr[..r.stderr.len().min(2000)]);
        // Two findings per item (no `name`, and the typed read), as `check` gives them.
        let more = 6000 - kept;
        assert_eq!(lines[kept], format!("<stdin>:1: /: and {more} more findings ({more} of them errors), not printed (--max-findings)"));
        assert_eq!(lines[kept + 1], "0 converted, 1 failed");
    }
}

/// Issue 27, low items: what the input says reaches standard error escaped (a forged summary line,
/// ESC and bidi characters), and a wrapper key `check` warns about gets the same warning.
#[test]
fn findings_are_escaped_and_unknown_wrapper_keys_warned() {
    let input = "{\"dir\":\"c2s\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"},\"x\\n0 converted, 0 failed\\u001b[2J\":1}\n\
                 {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"evil\\u202e\\u001b[31m\"}\n";
    let r = run(&["convert", "--from", "2025-06-18", "--to", "2025-11-25", "-"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(!r.stderr.contains(['\u{1b}', '\u{202e}']), "{:?}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.ends_with("converted, 0 failed") || l.ends_with("converted, 1 failed")).count(), 1, "{lines:?}");
    assert!(lines[0].starts_with("<stdin>:1: /x\\n0 converted, 0 failed\\u{1b}[2J: warning [line.key]: "), "{lines:?}");
    assert!(r.stderr.contains("evil\\u{202e}\\u{1b}[31m"), "{}", r.stderr);
    assert_eq!(values(&r.stdout).len(), 1, "the warned line converts");
    assert_eq!(*lines.last().unwrap(), "1 converted, 1 failed");
}

/// Issue 27, low item: a message that fails its source version is not converted, with the findings
/// `check` gives it (here a rule the target version lacks, so converting alone would pass it).
#[test]
fn a_message_that_fails_its_source_version_is_not_converted() {
    let line = br#"{"type":"Tool","protocol":"2025-11-25","msg":{"name":"t","inputSchema":{"type":"object"},"icons":[{"src":"javascript:alert(1)"}]}}"#;
    let r = run(&["convert", "--to", "2025-03-26", "-"], Some(line));
    assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{}", r.stderr);
    assert!(r.stderr.starts_with("<stdin>:1: /msg/icons/0/src: error [icon.scheme]: "), "{}", r.stderr);
    assert!(r.stderr.ends_with("0 converted, 1 failed\n"), "{}", r.stderr);
}
