//! `mcp-schema convert` on the recorded sessions (tests/data/sessions/): every session converted to
//! every other version and back gives the original messages, and the converted session checks
//! clean against the target version. Also: the version reading helpers of
//! `mcp_spec_types::negotiate` agree with the checker, line by line.

mod common;

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
        // FILE:LINE: /pointer: reason
        let rest = l.strip_prefix(file).and_then(|r| r.strip_prefix(':')).unwrap_or_else(|| panic!("not FILE:LINE: {l}"));
        failed.insert(rest.split(':').next().unwrap().parse::<u64>().unwrap());
    }
    let out = values(&r.stdout);
    assert_eq!(summary, format!("{} converted, {} failed", out.len(), failed.len()));
    assert_eq!(r.code, i32::from(!failed.is_empty()));
    (out, failed, r.code, r.stderr)
}

/// The session's lines that must fail to convert from `from` to `to`: the deliberately invalid
/// `tools/call` (no `name`) and, to 2024-11-05 and 2025-03-26, the result with `resource_link`
/// (which the server sends in every session, even where the version lacks it).
fn expected_failures(original: &[Value], to: &str) -> BTreeSet<u64> {
    let line_of = |pred: &dyn Fn(&Value) -> bool| original.iter().position(|v| pred(&v["msg"])).unwrap() as u64 + 1;
    let mut e = BTreeSet::from([line_of(&|m| m["method"] == "tools/call" && m["params"].get("name").is_none())]);
    if old(to) {
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
                let want = expected_failures(&original, to);
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
                // Only what the source version lacks may fail on the way back (`resource_link` to 2024-11-05).
                let back_want = usize::from(old(version) && !old(to));
                if failed_back.len() != back_want {
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
    assert!(stderr.contains(":1: /msg/method: 2026-07-28 has no `initialize` request"), "{stderr}");
    assert!(stderr.contains("/msg/params: the target version requires `params`"), "a request without `_meta` names the params:\n{stderr}");
    assert!(stderr.contains("/msg/params/_meta: the target version requires `_meta`"), "{stderr}");
    assert!(stderr.contains("/msg/result/resultType: the target version requires `resultType`"), "{stderr}");
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
    assert!(r.stderr.starts_with("<stdin>:2: /: not JSON"), "{}", r.stderr);
    assert!(r.stderr.ends_with("1 converted, 1 failed\n"), "{}", r.stderr);
    // Usage and I/O errors: 2.
    assert_eq!(run(&["convert", "x.jsonl"], None).code, 2);
    assert_eq!(run(&["convert", "--to", "1999-01-01", "x.jsonl"], None).code, 2);
    assert_eq!(run(&["convert", "--to", "2025-11-25", "/nonexistent/x.jsonl"], None).code, 2);
    assert!(run(&["convert", "--help"], None).stdout.starts_with("usage: mcp-schema convert"));
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
