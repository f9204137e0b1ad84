//! `mcp-schema proxy` stopping its stdio server (issue 42). SIGTERM, SIGINT or SIGHUP to the proxy
//! closes the server's stdin and passes the signal on; a server still running `--term-after` later
//! gets SIGTERM and `--kill-after` after that SIGKILL (MCP lifecycle, "Shutdown", stdio). Before,
//! the proxy only passed the signal on and waited for a server that ignored it for ever.
//!
//! The servers are small `sh` scripts that say their pid on stderr (findings go to a file). No
//! timing is asserted: a proxy that never ends fails on the test's own long limit, and the times
//! are printed.

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{TempFile, BIN};

/// Ignores every stop signal and the end of its input: only SIGKILL ends it. `exec` keeps the pid
/// and the ignored signals (ignored dispositions survive exec).
const IGNORES_EVERYTHING: &str = r#"trap "" TERM INT HUP; echo $$ >&2; exec sleep 600"#;

/// How long a test waits for the proxy: far past the waits it documents (1 s + 1 s by default).
const LIMIT: Duration = Duration::from_secs(60);

struct Running {
    proxy: Child,
    server: u32,
    /// The host's end of the proxy's stdin, kept open unless the test closes it.
    stdin: Option<ChildStdin>,
    stderr: thread::JoinHandle<String>,
    findings: TempFile,
    started: Instant,
}

/// Starts the proxy on `script` and reads the server's pid from its first stderr line.
fn start(name: &str, options: &[&str], script: &str) -> Running {
    let findings = TempFile::new(&format!("stop-{name}.findings"), b"");
    let mut proxy = Command::new(BIN)
        .arg("proxy")
        .args(["--findings", findings.path()])
        .args(options)
        .args(["--", "sh", "-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mcp-schema binary runs");
    let mut stderr = BufReader::new(proxy.stderr.take().unwrap());
    let mut pid = String::new();
    stderr.read_line(&mut pid).unwrap();
    let server = pid.trim().parse().unwrap_or_else(|_| panic!("a pid on the server's first stderr line: {pid:?}"));
    let stderr = thread::spawn(move || {
        let mut rest = String::new();
        let _ = stderr.read_to_string(&mut rest);
        rest
    });
    Running { stdin: proxy.stdin.take(), proxy, server, stderr, findings, started: Instant::now() }
}

fn signal(pid: u32, name: &str) {
    let sent = Command::new("kill").arg(format!("-{name}")).arg(pid.to_string()).status().unwrap();
    assert!(sent.success(), "kill -{name} {pid}");
}

fn alive(pid: u32) -> bool {
    Command::new("kill").args(["-0", &pid.to_string()]).stderr(Stdio::null()).status().unwrap().success()
}

struct Ended {
    status: ExitStatus,
    after: Duration,
    server_alive: bool,
    findings: String,
    stderr: String,
}

/// Waits for the proxy (at most [`LIMIT`]: then it and the server are killed and the test fails).
fn finish(mut r: Running, what: &str) -> Ended {
    let deadline = r.started + LIMIT;
    let status = loop {
        if let Some(status) = r.proxy.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = r.proxy.kill();
            let _ = r.proxy.wait();
            let _ = Command::new("kill").args(["-KILL", &r.server.to_string()]).status();
            panic!("{what}: the proxy was still running {LIMIT:?} later");
        }
        thread::sleep(Duration::from_millis(20));
    };
    let after = r.started.elapsed();
    drop(r.stdin.take());
    let server_alive = alive(r.server);
    if server_alive {
        let _ = Command::new("kill").args(["-KILL", &r.server.to_string()]).status();
    }
    let findings = std::fs::read_to_string(r.findings.path()).unwrap();
    let stderr = r.stderr.join().unwrap();
    eprintln!("{what}: the proxy ended {:.2} s after the test's signal, {status:?}; findings: {}", after.as_secs_f64(), findings.trim_end());
    Ended { status, after, server_alive, findings, stderr }
}

/// Sends SIG`name` to the proxy in front of a server that ignores everything: SIGTERM (unless
/// that was the signal), then SIGKILL end it, and the findings say so.
fn ignored_signal_ends_in_sigkill(name: &str, options: &[&str]) {
    let what = format!("SIG{name}");
    let r = start(&format!("ignores-{name}"), options, IGNORES_EVERYTHING);
    signal(r.proxy.id(), name);
    let server = r.server;
    let e = finish(r, &what);
    assert_eq!(e.status.code(), Some(128 + 9), "{what}: the server was killed; {}", e.findings);
    assert!(!e.server_alive, "{what}: the server {server} is still running");
    // The findings say what was done, in order.
    let note = e.findings.lines().find(|l| l.contains("stopping the server")).unwrap_or_else(|| panic!("{what}: no stop note: {}", e.findings));
    assert!(note.contains(&format!("on {what}")), "{note}");
    let (term, kill) = (note.find("SIGTERM"), note.find("SIGKILL"));
    assert!(term.is_some() && kill.is_some() && term < kill, "{what}: SIGTERM, then SIGKILL: {note}");
    assert!(note.contains("exit status 137"), "{note}");
    assert!(e.after < LIMIT);
}

#[test]
fn sigterm_to_a_server_that_ignores_it_ends_in_sigkill() {
    ignored_signal_ends_in_sigkill("TERM", &[]);
}

#[test]
fn sigint_to_a_server_that_ignores_it_ends_in_sigterm_then_sigkill() {
    ignored_signal_ends_in_sigkill("INT", &[]);
}

#[test]
fn sighup_to_a_server_that_ignores_it_ends_in_sigterm_then_sigkill_after_the_waits_given() {
    ignored_signal_ends_in_sigkill("HUP", &["--term-after", "0.2", "--kill-after", "0.5"]);
}

#[test]
fn a_server_that_ignores_signals_but_not_the_end_of_its_input_ends_by_itself() {
    // The host keeps the proxy's stdin open and sends SIGTERM: closing the server's stdin ends it,
    // with its own status; no SIGKILL.
    // The same through the bridge, whose writer closes the server's stdin.
    let script = r#"trap "" TERM INT HUP; echo $$ >&2; cat >/dev/null; echo "input closed" >&2; exit 3"#;
    for options in [&[][..], &["--to", "2025-11-25"][..]] {
        let what = format!("SIGTERM, a server that reads its input, {options:?}");
        let r = start(&format!("reads-eof{}", options.len()), options, script);
        signal(r.proxy.id(), "TERM");
        let e = finish(r, &what);
        assert_eq!(e.status.code(), Some(3), "{what}: {}", e.findings);
        assert!(e.stderr.contains("input closed"), "{what}: {}", e.stderr);
        assert!(!e.findings.contains("SIGKILL"), "{what}: {}", e.findings);
        assert!(e.findings.contains("stopping the server on SIGTERM"), "{what}: {}", e.findings);
    }
}

#[test]
fn a_server_that_ends_with_its_input_is_not_signalled() {
    // The host closes the proxy's stdin and sends nothing: the server's stdin closes and it exits
    // with its status, unsignalled; the proxy says nothing about a stop.
    let script = r#"trap 'echo signalled >&2' TERM INT HUP; echo $$ >&2; cat >/dev/null; exit 5"#;
    let mut r = start("ends-with-input", &["--json"], script);
    drop(r.stdin.take());
    let e = finish(r, "the host's stdin closed");
    assert_eq!(e.status.code(), Some(5), "{}", e.findings);
    assert!(!e.stderr.contains("signalled"), "{}", e.stderr);
    assert!(!e.findings.contains("\"stop\""), "{}", e.findings);
}

#[test]
fn the_bridge_stops_its_server_the_same_way() {
    let r = start("bridge", &["--json", "--to", "2025-11-25"], IGNORES_EVERYTHING);
    signal(r.proxy.id(), "TERM");
    let server = r.server;
    let e = finish(r, "SIGTERM to the bridge");
    assert_eq!(e.status.code(), Some(137), "{}", e.findings);
    assert!(!e.server_alive, "the server {server} is still running");
    let stop = e.findings.lines().find(|l| l.starts_with("{\"stop\"")).unwrap_or_else(|| panic!("no stop line: {}", e.findings));
    let v: serde_json::Value = serde_json::from_str(stop).unwrap();
    let sent: Vec<&str> = v["stop"]["sent"].as_array().unwrap().iter().map(|s| s["signal"].as_str().unwrap()).collect();
    assert_eq!(sent, ["SIGTERM", "SIGKILL"], "{stop}");
    assert_eq!(v["stop"]["exit"], 137, "{stop}");
}

#[test]
fn the_waits_are_seconds_and_only_for_a_stdio_server() {
    for (args, says) in [
        (&["--kill-after", "soon", "--", "true"][..], "--kill-after"),
        (&["--term-after=-1", "--", "true"][..], "--term-after"),
        (&["--kill-after", "7200", "--", "true"][..], "--kill-after"),
        (&["--http", "--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:9/", "--kill-after", "2"][..], "--kill-after"),
    ] {
        let out = Command::new(BIN).arg("proxy").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let out = Command::new(BIN).args(["proxy", "--term-after", "0.25", "--kill-after", "0", "--", "true"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}
