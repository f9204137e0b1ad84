//! `mcp-schema proxy` against a hostile or careless peer (issue 27): a crash in checking, an
//! unread stderr, signals, a byte-order-marked wrapper line from the server, the server's stderr
//! lines, the recording named twice, lines that never reached the server. Small `sh` servers.

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{TempFile, BIN};
use serde_json::Value;

/// The proxy with piped stdin and stdout, and stderr piped (`Some`, read into the returned
/// handle) or piped and never read (`None`, the handle is kept open in the child record).
fn spawn(args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(BIN)
        .arg("proxy")
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mcp-schema binary runs")
}

fn reader(mut r: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.read_to_end(&mut v);
        v
    })
}

/// Waits at most `secs`; a proxy still running then is killed and the test fails.
fn wait(child: &mut Child, secs: u64) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the proxy did not exit within {secs} s");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

struct Out {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: String,
}

/// Writes `input`, closes stdin, collects stdout and stderr.
fn run(args: &[&str], env: &[(&str, &str)], input: &[u8]) -> Out {
    let mut child = spawn(args, env);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let (stdout, stderr) = (reader(child.stdout.take().unwrap()), reader(child.stderr.take().unwrap()));
    let status = wait(&mut child, 120);
    writer.join().unwrap();
    Out { status, stdout: stdout.join().unwrap(), stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned() }
}

/// The `--json` findings: (line, rule) for each violation.
fn rules(json_lines: &str) -> Vec<(u64, String)> {
    let mut found = Vec::new();
    for line in json_lines.lines().filter(|l| l.starts_with('{')) {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        for d in v["violations"].as_array().into_iter().flatten() {
            found.push((v["line"].as_u64().unwrap(), d["rule"].as_str().unwrap().to_string()));
        }
    }
    found
}

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

#[test]
fn a_crash_in_checking_is_a_finding_and_the_traffic_goes_on() {
    // Debug builds: a line with the marker overflows the checker's stack (a real stack overflow,
    // which no `catch_unwind` catches). The bytes still pass both ways, the server's exit status
    // comes back, and the crash is a finding on that line.
    let marker = "crash-the-checker-here";
    let mut input = Vec::new();
    for i in 0..50 {
        input.extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}\n").as_bytes());
    }
    input.extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/{marker}\"}}\n").as_bytes());
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.extend_from_slice(b"\n");
    input.extend_from_slice(PING.as_bytes());
    input.push(b'\n');
    let out = run(&["--json", "--", "sh", "-c", "cat; exit 5"], &[("MCP_SCHEMA_PROXY_TEST_CRASH", marker)], &input);
    assert_eq!(out.status.code(), Some(5), "stderr: {}", out.stderr);
    assert!(out.stdout == input, "the host got {} bytes instead of {}", out.stdout.len(), input.len());
    let found = rules(&out.stderr);
    let crash: Vec<_> = found.iter().filter(|(_, r)| r == "internal").collect();
    assert_eq!(crash.len(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("stack overflow"), "{}", out.stderr);
    assert!(!out.stderr.contains("has overflowed its stack"), "the child's own message stays out: {}", out.stderr);
}

/// A host that waits for each answer: writes `line`, reads one line back.
fn ask(stdin: &mut impl Write, stdout: &mut BufReader<ChildStdout>, line: &str) -> String {
    stdin.write_all(line.as_bytes()).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    answer
}

#[test]
fn a_deep_ref_chain_in_a_tool_schema_does_not_end_the_proxy() {
    // 20,000 `$ref` links in a listed tool's inputSchema, then a call of the tool: checking the
    // call's arguments once overflowed the proxy's stack and ended the host's connection.
    let links = 20_000;
    let mut defs = serde_json::Map::new();
    for i in 0..links {
        defs.insert(format!("d{i}"), serde_json::json!({"$ref": format!("#/$defs/d{}", i + 1)}));
    }
    defs.insert(format!("d{links}"), serde_json::json!({"type": "object"}));
    let tool = serde_json::json!({"name": "t", "inputSchema": {"type": "object", "$ref": "#/$defs/d0", "$defs": defs}});
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool]}}).to_string() + "\n";
    let list_file = TempFile::new("tools-list.json", list.as_bytes());
    let server = r#"while IFS= read -r line; do
  case "$line" in
    *'"initialize"'*) printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}' ;;
    *'"tools/list"'*) cat "$0" ;;
    *'"tools/call"'*) printf '%s\n' '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}' ;;
    *'"ping"'*) printf '%s\n' '{"jsonrpc":"2.0","id":4,"result":{}}' ;;
  esac
done"#;
    let mut child = spawn(&["--", "sh", "-c", server, list_file.path()], &[]);
    let (mut stdin, mut stdout) = (child.stdin.take().unwrap(), BufReader::new(child.stdout.take().unwrap()));
    let stderr = reader(child.stderr.take().unwrap());
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}"#;
    assert!(ask(&mut stdin, &mut stdout, init).contains("\"id\":1"));
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").unwrap();
    assert_eq!(ask(&mut stdin, &mut stdout, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#), list);
    // Time for the checker to read the tool list before the call.
    thread::sleep(Duration::from_millis(1500));
    let call = ask(&mut stdin, &mut stdout, r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{}}}"#);
    assert!(call.contains("\"id\":3"), "{call}");
    thread::sleep(Duration::from_millis(1500));
    let ping = ask(&mut stdin, &mut stdout, r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#);
    assert!(ping.contains("\"id\":4"), "the connection survived the call: {ping:?}");
    drop(stdin);
    let status = wait(&mut child, 120);
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap()).into_owned();
    assert_eq!(status.code(), Some(0), "{status:?}; stderr: {}", &stderr[..stderr.len().min(4000)]);
}

#[test]
fn the_exit_never_waits_on_an_unread_stderr() {
    // The host pipes stderr and never reads it; findings (hundreds of KB) fill the pipe. The
    // server exits; so must the proxy, with the server's status.
    let mut child = spawn(&["--", "sh", "-c", "cat; exit 4"], &[]);
    let mut stdin = child.stdin.take().unwrap();
    let input: Vec<u8> = (0..4000).flat_map(|i| format!("not JSON, line {i}\n").into_bytes()).collect();
    let len = input.len();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = reader(child.stdout.take().unwrap());
    let _unread = child.stderr.take().unwrap();
    let started = Instant::now();
    let status = wait(&mut child, 60);
    writer.join().unwrap();
    assert_eq!(status.code(), Some(4));
    assert_eq!(stdout.join().unwrap().len(), len);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
}

#[test]
fn signals_go_to_the_server_which_is_reaped() {
    // A server that ignores the end of its input: only a signal ends it.
    for (name, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        let mut child = spawn(&["--", "sh", "-c", "echo $$; exec sleep 60"], &[]);
        let _stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let stderr = reader(child.stderr.take().unwrap());
        let mut pid = String::new();
        stdout.read_line(&mut pid).unwrap();
        let server: u32 = pid.trim().parse().unwrap_or_else(|_| panic!("a pid: {pid:?}"));
        let sent = Command::new("kill").arg(format!("-{name}")).arg(child.id().to_string()).status().unwrap();
        assert!(sent.success());
        let status = wait(&mut child, 30);
        let server_alive = Command::new("kill").args(["-0", &server.to_string()]).stderr(Stdio::null()).status().unwrap().success();
        if server_alive {
            let _ = Command::new("kill").args(["-KILL", &server.to_string()]).status();
        }
        let stderr = String::from_utf8_lossy(&stderr.join().unwrap()).into_owned();
        assert_eq!(status.code(), Some(128 + number), "SIG{name}: {status:?}; stderr: {stderr}");
        assert!(!server_alive, "SIG{name}: the server was left running");
    }
}

#[test]
fn a_server_line_with_a_byte_order_mark_is_the_servers_line() {
    // Shaped like a wrapper line of the other direction; a receiver sees a byte order mark and
    // then an object that is not a JSON-RPC message. It is not a client's ping.
    let record = TempFile::new("bom.jsonl", b"");
    let line = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#;
    let server = format!("printf '\\357\\273\\277%s\\n' '{line}'; cat >/dev/null");
    let out = run(&["--json", "--record", record.path(), "--", "sh", "-c", &server], &[], b"");
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, [&b"\xef\xbb\xbf"[..], line.as_bytes(), b"\n"].concat());
    let found = rules(&out.stderr);
    assert!(found.contains(&(1, "line.bom".to_string())), "{}", out.stderr);
    assert!(out.stderr.contains("\"ok\":false"), "{}", out.stderr);
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    assert_eq!(recorded, format!("{{\"dir\":\"s2c\",\"msg\":{line}}}\n"));
}

#[test]
fn findings_come_between_the_servers_stderr_lines() {
    // The server starts a stderr line, the host's bad lines get findings meanwhile, the server
    // ends its line later; then it writes a last line without `\n`.
    let server = "printf 'start of a log line, ' >&2; cat; sleep 1; printf 'end of it\\n' >&2; printf 'last words' >&2";
    let out = run(&["--", "sh", "-c", server], &[], b"not JSON\nnot JSON either\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.contains("[json]"), "{}", out.stderr);
    assert!(out.stderr.contains("start of a log line, end of it\n"), "{}", out.stderr);
    assert!(out.stderr.contains("last words\n"), "{}", out.stderr);
    // Stderr alone (findings to a file): the last line is passed as it is.
    let findings = TempFile::new("stderr-findings.txt", b"");
    let out = run(&["--findings", findings.path(), "--", "sh", "-c", server], &[], b"not JSON\n");
    assert_eq!(out.stderr, "start of a log line, end of it\nlast words");
}

#[test]
fn the_recording_and_the_findings_are_compared_as_files() {
    let record = TempFile::new("kept.jsonl", b"an earlier session\n");
    let dir = record.0.parent().unwrap();
    let other_name = dir.join(".").join("kept.jsonl");
    let out = run(&["--record", record.path(), "--findings", other_name.to_str().unwrap(), "--", "cat"], &[], PING.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("same file"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(record.path()).unwrap(), "an earlier session\n", "the recording was not touched");
    // Neither exists yet.
    let fresh = dir.join("fresh.jsonl");
    let out = run(&["--record", fresh.to_str().unwrap(), "--findings", dir.join("./fresh.jsonl").to_str().unwrap(), "--", "cat"], &[], b"");
    let _ = std::fs::remove_file(&fresh);
    assert_eq!(out.status.code(), Some(2), "{}", out.stderr);
}

#[test]
fn lines_that_never_reached_the_server_are_marked() {
    // The server closes its stdin at once and lives on; the host's line comes after that.
    let record = TempFile::new("undelivered.jsonl", b"");
    let mut child = spawn(&["--json", "--record", record.path(), "--", "sh", "-c", "exec 0<&-; echo closed; sleep 2"], &[]);
    let mut stdin = child.stdin.take().unwrap();
    let stderr = reader(child.stderr.take().unwrap());
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut closed = String::new();
    stdout.read_line(&mut closed).unwrap();
    assert_eq!(closed, "closed\n");
    let stdout = reader(stdout);
    let _ = stdin.write_all(format!("{PING}\n").as_bytes());
    let _ = stdin.flush();
    let status = wait(&mut child, 60);
    drop(stdin);
    let _ = stdout.join();
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap()).into_owned();
    assert_eq!(status.code(), Some(0), "{stderr}");
    // Line 1 is the server's `closed`; line 2 the host's ping, recorded and marked.
    assert!(rules(&stderr).contains(&(2, "line.undelivered".to_string())), "{stderr}");
    assert!(std::fs::read_to_string(record.path()).unwrap().lines().nth(1).is_some_and(|l| l.contains("ping")));
}

#[test]
fn a_process_the_server_left_holding_its_stderr_does_not_hold_the_proxy() {
    // The server's stderr goes through the proxy now; a background process that keeps the pipe
    // open after the server exited must not keep the proxy waiting for the end of it.
    let started = Instant::now();
    let out = run(&["--", "sh", "-c", "echo 'last server line' >&2; (sleep 8 </dev/null >/dev/null &); exit 6"], &[], b"");
    assert_eq!(out.status.code(), Some(6));
    assert!(started.elapsed() < Duration::from_secs(7), "{:?}", started.elapsed());
    assert!(out.stderr.contains("last server line\n"), "{}", out.stderr);
}

/// What the proxy finds on a line is what `check` finds on that line of the recording. The
/// `proxy_lines` fuzz target found lines where the two differed (a repeated `method` key read
/// as the tree reads it on one side and as the text reader does on the other; a trailing form
/// feed, which the recording trimmed); both sides now read the same tree of the same bytes.
#[test]
fn the_recording_reads_back_to_the_proxys_findings() {
    use mcp_spec_types_cli::args::{CheckArgs, Protocol};
    use mcp_spec_types_cli::check::{Checker, Direction};
    use mcp_spec_types_cli::proxy::{check_one, write_record_line, Line};

    let lines: [&[u8]; 4] = [
        // A trailing form feed: not JSON whitespace, so the line is no JSON for the receiver.
        b"{\"method\":\"notifications/tools/list_changed\",\"jsonrpc\":\"2.0\"}\x0c",
        br#"{"method":"notifications/progress","params":{"progress":1,"total":4,"progressToken":"p"},"jsonrpcnrpc":"2.0","id":31,"method":"ping"}"#,
        br#"{"jsonrpc":"2.0","method":"tools/list","id":2,"method":"ping"}"#,
        br#"{"id":1,"jsonrpc":"2.0","result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x"}},"content":[],"resultType":"complete"}}"#,
    ];
    let versions = mcp_spec_types_cli::versions::VERSIONS;
    for (i, bytes) in lines.iter().enumerate() {
        for (dir, v) in [Direction::ClientToServer, Direction::ServerToClient].into_iter().flat_map(|d| (0..versions.len()).map(move |v| (d, v))) {
            let args = CheckArgs { protocol: Protocol::Fixed(v), ..CheckArgs::default() };
            let line = Line { dir, bytes: bytes.to_vec(), too_long: None, terminated: true, seq: 0 };
            let live = check_one(&mut Checker::new(&args), 1, &line);
            let mut recorded = Vec::new();
            write_record_line(&mut recorded, &line).unwrap();
            let read_back = Checker::new(&args).check_line(recorded.strip_suffix(b"\n").expect("a recorded line ends with its newline"), 1).expect("a recorded line is not blank");
            let key = |o: &mcp_spec_types_cli::check::Outcome| {
                (o.diags.iter().map(|d| (d.rule, d.pointer.clone(), d.message.clone())).collect::<Vec<_>>(), o.omitted)
            };
            assert_eq!(key(&live), key(&read_back), "line {i}, {dir:?}, version {}", versions[v].name);
        }
    }
}
