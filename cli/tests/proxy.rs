//! `mcp-schema proxy` with tiny fake servers (`sh`, `cat`): bytes pass unchanged both ways, the
//! server's exit status comes back, either side's end closes the other, the recording re-checks
//! like the live session, and findings name the recording's lines.
//! cli/tests/proxy_real.rs runs a real server and client through it.

#![cfg(unix)]

use crate::common;

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{TempFile, BIN};
use serde_json::Value;

struct Proxied {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `mcp-schema proxy ARGS`, writes `input` to it and closes its stdin (unless `keep_open`),
/// and collects what it writes. A proxy that does not exit within a minute is killed and the
/// test fails, so a hang shows up as a failure.
fn proxy(args: &[&str], input: &[u8], keep_open: bool) -> Proxied {
    let mut child = Command::new(BIN)
        .arg("proxy")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mcp-schema binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
        if keep_open {
            // Hand the open pipe back: it is closed only after the proxy exits.
            Some(stdin)
        } else {
            None
        }
    });
    let stdout = reader(child.stdout.take().unwrap());
    let stderr = reader(child.stderr.take().unwrap());
    let code = wait(&mut child);
    let _open_until_now = writer.join().unwrap();
    Proxied { code, stdout: stdout.join().unwrap(), stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned() }
}

fn reader(mut r: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.read_to_end(&mut v);
        v
    })
}

fn wait(child: &mut Child) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().expect("the proxy exits, it is not killed");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the proxy did not exit");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Bytes a proxy must not touch: JSON with U+2028 and `\r\n`, invalid UTF-8, a NUL, a line that
/// is not JSON, blank lines, a 3 MiB line, and a last line without `\n`.
fn odd_bytes() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"s\":\"a\xe2\x80\xa8b\"}}}\r\n");
    v.extend_from_slice(b"\xff\xfe not UTF-8 \x00 at all\n");
    v.extend_from_slice(b"\n   \n");
    v.extend_from_slice(b"hello, not JSON\n");
    v.extend_from_slice(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1,\"message\":\"",
    );
    v.extend(std::iter::repeat_n(b'x', 3 << 20));
    v.extend_from_slice(b"\"}}\n");
    v.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    v
}

#[test]
fn bytes_pass_unchanged_through_an_echo_server() {
    let input = odd_bytes();
    let out = proxy(&["--protocol", "2025-11-25", "--", "cat"], &input, false);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(out.stdout == input, "the host got {} bytes back instead of the {} sent, or other bytes", out.stdout.len(), input.len());
    // Each line is reported once per direction: `cat` sends back what it got.
    for rule in ["[utf8]", "[json]", "[line.unterminated]"] {
        assert_eq!(out.stderr.matches(rule).count(), 2, "{rule} in:\n{}", out.stderr);
    }
    assert!(out.stderr.ends_with("6 passed, 4 failed\n"), "{}", out.stderr);
}

#[test]
fn bytes_pass_unchanged_from_the_server_while_the_host_stays_open() {
    // The server writes odd bytes without reading and exits; the host never closes its side,
    // and still gets everything and the end of the stream.
    let out = proxy(&["--", "sh", "-c", r#"printf '\377partial {"a":1}\r\n\000'; printf 'no newline'"#], b"", true);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout, b"\xffpartial {\"a\":1}\r\n\x00no newline");
}

#[test]
#[cfg(target_os = "linux")]
fn a_checker_that_cannot_report_leaves_the_traffic_alone() {
    // Every write of a finding fails (the device is full): the bytes pass, and the loss is said
    // on stderr and in the exit status (2 for a server that exited with 0; else the server's).
    let input = odd_bytes();
    let out = proxy(&["--findings", "/dev/full", "--", "cat"], &input, false);
    assert_eq!(out.code, 2, "stderr: {}", out.stderr);
    assert!(out.stdout == input, "the host got other bytes back");
    assert!(out.stderr.contains("writing to /dev/full: ") && out.stderr.contains("findings are missing"), "{}", out.stderr);
    let out = proxy(&["--findings", "/dev/full", "--", "sh", "-c", "cat; exit 3"], &input, false);
    assert_eq!(out.code, 3, "stderr: {}", out.stderr);
    assert!(out.stderr.contains("findings are missing"), "{}", out.stderr);
    // The recording likewise.
    let findings = TempFile::new("full-recording-findings.txt", b"");
    let out = proxy(&["--record", "/dev/full", "--findings", findings.path(), "--", "cat"], &input, false);
    assert_eq!(out.code, 2, "stderr: {}", out.stderr);
    assert!(out.stdout == input, "the host got other bytes back");
    assert!(out.stderr.contains("writing the recording: ") && out.stderr.contains("the recording is incomplete"), "{}", out.stderr);
}

#[test]
fn the_servers_exit_status_comes_back() {
    assert_eq!(proxy(&["--", "sh", "-c", "cat >/dev/null; exit 7"], b"{}\n", false).code, 7);
    assert_eq!(proxy(&["--", "sh", "-c", "exit 0"], b"", true).code, 0);
    // A signal: 128 + its number, as shells report it.
    assert_eq!(proxy(&["--", "sh", "-c", "kill -TERM $$"], b"", true).code, 143);
    let missing = proxy(&["--", "/nonexistent/mcp-server"], b"", false);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("could not start `/nonexistent/mcp-server`"), "{}", missing.stderr);
}

#[test]
fn server_stderr_passes_through() {
    let out = proxy(&["--", "sh", "-c", "echo 'server log line' >&2; cat >/dev/null"], b"", false);
    assert_eq!(out.code, 0);
    assert!(out.stderr.contains("server log line\n"), "{}", out.stderr);
    assert!(out.stderr.ends_with("0 passed, 0 failed\n"), "{}", out.stderr);
}

/// A fake server: answers `initialize` and `ping` by their ids in the session below.
const FAKE_SERVER: &str = r#"while IFS= read -r line; do
  case "$line" in
    *'"initialize"'*) printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}' ;;
    *'"ping"'*) printf '%s\n' '{"jsonrpc":"2.0","id":3,"result":{}}' ;;
  esac
done"#;

const HOST_SESSION: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    "\n",
);

fn violations(json_lines: &str) -> Vec<(u64, String, String)> {
    let mut found = Vec::new();
    for line in json_lines.lines().filter(|l| l.starts_with('{')) {
        let v: Value = serde_json::from_str(line).unwrap();
        for d in v["violations"].as_array().into_iter().flatten() {
            found.push((v["line"].as_u64().unwrap(), d["pointer"].as_str().unwrap().to_string(), d["rule"].as_str().unwrap().to_string()));
        }
    }
    found
}

#[test]
fn the_recording_rechecks_like_the_live_session() {
    let record = TempFile::new("session.jsonl", b"");
    let findings = TempFile::new("findings.jsonl", b"");
    let out = proxy(
        &["--record", record.path(), "--findings", findings.path(), "--json", "--", "sh", "-c", FAKE_SERVER],
        HOST_SESSION.as_bytes(),
        false,
    );
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stderr, "", "findings go to the file");

    // Each message's bytes as sent, in order within each direction. Between the directions the
    // order is causal: an answer comes after its request (else it would be `stream.response-unmatched`).
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    let in_dir = |dir: &str| -> Vec<String> {
        let prefix = format!("{{\"dir\":\"{dir}\",\"msg\":");
        recorded.lines().filter_map(|l| l.strip_prefix(&prefix)?.strip_suffix('}').map(str::to_string)).collect()
    };
    assert_eq!(in_dir("c2s"), HOST_SESSION.lines().collect::<Vec<_>>());
    assert_eq!(in_dir("s2c"), std::str::from_utf8(&out.stdout).unwrap().lines().collect::<Vec<_>>());
    assert_eq!(recorded.lines().count(), 6);

    // The live findings: the call without a tool name, on its line of the recording.
    let call_line = 1 + recorded.lines().position(|l| l.contains("tools/call")).unwrap() as u64;
    let live = std::fs::read_to_string(findings.path()).unwrap();
    let live_found = violations(&live);
    assert!(live_found.contains(&(call_line, "/msg/params".into(), "required".into())), "{live}");
    // No answer was recorded ahead of its request. (This host writes its whole script at once,
    // so the session rules may also see `initialized` before the server answered: a true finding
    // that depends on timing, hence no exact counts here.)
    assert!(!live_found.iter().any(|(_, _, rule)| rule == "stream.response-unmatched"), "{live}");

    // `check` reads the recording and finds the same.
    let again = common::run(&["check", "--json", record.path()], None);
    assert_eq!(again.code, 1);
    assert_eq!(violations(&again.stdout), live_found);
}

#[test]
fn a_repeated_key_gives_the_same_findings_live_and_in_check() {
    // Both read each line into the same tree, where a repeated key is seen once with its last
    // value (as `Value` reads it). Before, the live checker and `check` could disagree on such lines.
    let input = concat!(
        // The last `params` lacks `name`: `required` at /msg/params (the first one would pass).
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"},"params":{"arguments":{}}}"#,
        "\n",
        // The last `method` is `ping`: no unknown method.
        r#"{"jsonrpc":"2.0","id":2,"method":"no/such","method":"ping"}"#,
        "\n",
        // A repeated key inside `_meta`, the last one a bad progress token.
        r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"progressToken":1,"progressToken":{}}}}"#,
        "\n",
    );
    let record = TempFile::new("repeated.jsonl", b"");
    let findings = TempFile::new("repeated-findings.jsonl", b"");
    let out = proxy(&["--record", record.path(), "--findings", findings.path(), "--json", "--protocol=2025-11-25", "--", "cat"], input.as_bytes(), false);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let live = violations(&std::fs::read_to_string(findings.path()).unwrap());
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    let line_of = |needle: &str, dir: &str| 1 + recorded.lines().position(|l| l.contains(needle) && l.contains(dir)).unwrap() as u64;
    let (call, ping) = (line_of(r#""id":1"#, "c2s"), line_of(r#""id":2"#, "c2s"));
    assert!(live.contains(&(call, "/msg/params".into(), "required".into())), "{live:?}");
    assert!(!live.iter().any(|(l, ..)| *l == ping), "{live:?}");
    let again = common::run(&["check", "--json", "--protocol=2025-11-25", record.path()], None);
    assert_eq!(violations(&again.stdout), live);
    println!("{} findings, the same live and in check", live.len());
}

#[test]
fn the_summary_and_end_of_session_findings_match_check() {
    // `--summary` and what only the end of a session shows (unanswered requests) come out of the
    // live proxy exactly as `check --summary` prints them for the recording.
    let record = TempFile::new("summary-session.jsonl", b"");
    let findings = TempFile::new("summary-findings.txt", b"");
    let out = proxy(&["--record", record.path(), "--findings", findings.path(), "--summary", "--", "sh", "-c", FAKE_SERVER], HOST_SESSION.as_bytes(), false);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let live = std::fs::read_to_string(findings.path()).unwrap();
    let again = common::run(&["check", "--summary", record.path()], None);
    let tail = |s: &str| s[s.find("summary:").unwrap_or_else(|| panic!("a summary in {s}"))..].to_string();
    assert!(live.contains("summary: messages"), "{live}");
    assert_eq!(tail(&live), tail(&again.stdout));
}

#[test]
fn usage_errors() {
    for args in [&["cat"][..], &["--"][..], &["--type", "Tool", "--", "cat"][..], &["--record", "--", "cat"][..]] {
        let out = proxy(args, b"", false);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stderr.contains("usage: mcp-schema proxy"), "{}", out.stderr);
    }
}

/// A 2026-07-28 server of one skill whose supporting file reads as other bytes than its entry says.
const SKILLS_SERVER: &str = r#"while IFS= read -r line; do
  case "$line" in
    *'"server/discover"'*) printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{}}},"serverInfo":{"name":"fake","version":"1"},"ttlMs":0,"cacheScope":"private"}}' ;;
    *'"skills/list"'*) printf '%s\n' '{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","size":20},{"uri":"skill://a/b.md","digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","size":2}]}],"ttlMs":0,"cacheScope":"private"}}' ;;
    *'"resources/read"'*) printf '%s\n' '{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","contents":[{"uri":"skill://a/b.md","text":"three"}],"ttlMs":0,"cacheScope":"private"}}' ;;
  esac
done"#;

/// `--ext skills` runs the Skills rules live: the read whose size is not its entry's is reported on its
/// line of the recording, and `check --ext skills` of the recording finds the same.
#[test]
fn the_skills_rules_run_live() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}}"#;
    let host = [
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{{{meta}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{{"uri":"skill://a/b.md",{meta}}}}}"#),
    ]
    .map(|l| l + "\n")
    .concat();
    let record = TempFile::new("skills.jsonl", b"");
    let findings = TempFile::new("findings.jsonl", b"");
    let out = proxy(&["--ext", "skills", "--record", record.path(), "--findings", findings.path(), "--json", "--", "sh", "-c", SKILLS_SERVER], host.as_bytes(), false);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    let read_answer = 1 + recorded.lines().position(|l| l.contains("\"three\"")).unwrap() as u64;
    let live = violations(&std::fs::read_to_string(findings.path()).unwrap());
    assert_eq!(live, vec![(read_answer, "/msg/result/contents/0".to_string(), "session.skills.content-digest".to_string())]);
    let again = common::run(&["check", "--ext", "skills", "--json", record.path()], None);
    assert_eq!(violations(&again.stdout), live);
}
