//! Helpers shared by the CLI tests: run the built binary, make temporary files,
//! read `--json` output.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-schema");

pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `mcp-schema ARGS` with `stdin` (or none).
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mcp-schema binary runs");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        let input = input.to_vec();
        // Write from a thread so a large input cannot dead-lock against a full stdout pipe.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// A temporary file removed on drop.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: &[u8]) -> TempFile {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("mcp-spec-types-cli-test-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// One violation from `--json` output.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    pub line: u64,
    pub pointer: String,
    pub rule: String,
    pub severity: String,
}

/// `--json` output: the violations, the failing lines and the counts (passed, failed).
pub struct JsonResult {
    pub found: Vec<Found>,
    pub failed_lines: Vec<u64>,
    pub passed: u64,
    pub failed: u64,
}

pub fn parse_json_output(stdout: &str) -> JsonResult {
    let mut found = Vec::new();
    let mut failed_lines = Vec::new();
    let mut counts = None;
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("--json line is JSON ({e}): {line}"));
        if v.get("passed").is_some() {
            assert!(counts.is_none(), "one summary line");
            counts = Some((v["passed"].as_u64().unwrap(), v["failed"].as_u64().unwrap()));
            continue;
        }
        assert!(counts.is_none(), "the summary is the last line");
        let n = v["line"].as_u64().unwrap();
        if v["ok"] == Value::Bool(false) {
            failed_lines.push(n);
        }
        for d in v["violations"].as_array().unwrap() {
            found.push(Found {
                line: n,
                pointer: d["pointer"].as_str().unwrap().to_string(),
                rule: d["rule"].as_str().unwrap().to_string(),
                severity: d["severity"].as_str().unwrap().to_string(),
            });
        }
    }
    let (passed, failed) = counts.expect("a summary line");
    assert_eq!(failed as usize, failed_lines.len(), "failed count matches the failing values");
    JsonResult { found, failed_lines, passed, failed }
}

/// Runs `check --json ARGS` and parses the result.
pub fn check_json(args: &[&str], stdin: Option<&[u8]>) -> (i32, JsonResult) {
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    let r = run(&all, stdin);
    assert!(r.code == 0 || r.code == 1, "exit {} stderr: {}", r.code, r.stderr);
    (r.code, parse_json_output(&r.stdout))
}

/// Counts cases of a multi-case test and prints `N passed, N failed` at the end.
#[derive(Default)]
pub struct Cases {
    passed: usize,
    failures: Vec<String>,
}

impl Cases {
    pub fn check(&mut self, name: &str, f: impl FnOnce() -> Result<(), String>) {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
            Ok(Ok(())) => self.passed += 1,
            Ok(Err(e)) => self.failures.push(format!("{name}: {e}")),
            Err(p) => {
                let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                self.failures.push(format!("{name}: panicked: {}", msg.unwrap_or_default()));
            }
        }
    }

    pub fn finish(self) {
        for f in &self.failures {
            println!("FAILED {f}");
        }
        println!("{} passed, {} failed", self.passed, self.failures.len());
        assert!(self.failures.is_empty(), "{} case(s) failed:\n{}", self.failures.len(), self.failures.join("\n"));
    }
}

/// Whether npm is on PATH (the real-peer tests install their pinned packages with it).
pub fn npm_found() -> bool {
    Command::new("npm").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// A finished process's output, for a failure message.
pub fn output_text(o: &std::process::Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The pinned npm packages of `tests/FOLDER`, installed: the folder and the Node to run them with.
/// `None`, with the reason on stderr, where npm is missing; under `CI=true` that is a failure.
pub fn pinned_npm(folder: &str, what: &str) -> Option<(PathBuf, PathBuf)> {
    if !npm_found() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "npm is missing: CI must have npm (and node) for this test");
        eprintln!("skipped: npm is not installed, so {what} cannot be installed");
        return None;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(folder);
    let node = npm_install(&dir);
    Some((dir, node))
}

/// Installs the packages pinned in `dir` (`npm ci`); returns the Node to run them with: the pinned
/// Node 22 where its package installs (Linux x64), else the `node` on PATH.
///
/// Each directory is installed once per test process, under a lock: tests of one binary run in
/// parallel, and two `npm ci` in one directory delete each other's `node_modules`.
pub fn npm_install(dir: &Path) -> PathBuf {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static INSTALLED: Mutex<BTreeMap<PathBuf, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut installed = INSTALLED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(node) = installed.get(dir) {
        return node.clone();
    }
    let node = npm_ci(dir);
    installed.insert(dir.to_path_buf(), node.clone());
    node
}

/// `npm ci` through tests/npm-ci-once.sh: once per lock file, and one at a time per folder across
/// processes (the examples' tests and the conformance suite install some of the same folders).
fn npm_ci(dir: &Path) -> PathBuf {
    let once = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/npm-ci-once.sh");
    let out = Command::new("bash").arg(once).arg(dir).output().expect("bash runs");
    assert!(out.status.success(), "npm ci failed in {}:\n{}", dir.display(), output_text(&out));
    let pinned = dir.join("node_modules/.bin/node");
    if pinned.exists() {
        pinned
    } else {
        PathBuf::from("node")
    }
}

/// Recording lines (`{"dir", "msg"}`) and the JSON-RPC messages in them, for tests that write sessions.
#[cfg(unix)]
pub mod http_proxy;

pub mod lines {
    use serde_json::{json, Value};

    pub fn c2s(msg: Value) -> Value {
        json!({"dir": "c2s", "msg": msg})
    }

    pub fn s2c(msg: Value) -> Value {
        json!({"dir": "s2c", "msg": msg})
    }

    pub fn req(id: i64, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    pub fn note(method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "method": method, "params": params})
    }

    pub fn ok(id: i64, result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    }
}

/// The peak resident memory (`VmHWM`) of a running process, in bytes; `None` once it has ended.
pub fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches("kB").trim().parse::<u64>().ok()?;
    Some(kb << 10)
}

/// A line of `n` bytes or a little more: a `tools/call` whose arguments are small objects
/// (`{"k":1}`, the costliest text per byte as a value tree), with id `id`.
pub fn small_objects_call(id: u64, n: usize) -> Vec<u8> {
    let mut text = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"x","arguments":{{"a":["#).into_bytes();
    text.reserve(n + 16);
    while text.len() < n {
        text.extend_from_slice(br#"{"k":1},"#);
    }
    text.extend_from_slice(br#"{"k":1}]}}}"#);
    text
}

/// Runs `mcp-schema ARGS` with `stdin`, following its peak memory while it runs: (status,
/// stdout, stderr, the last peak read before it ended).
pub fn run_measured(args: &[&str], stdin: Vec<u8>) -> (i32, String, String, u64) {
    run_measured_held(args, stdin, std::time::Duration::ZERO)
}

/// [`run_measured`] with stdin kept open `hold` after the input is written: a run on a small input
/// ends before the first poll of its peak (which then reads about nothing), while one waiting for
/// more input after its lines is polled at the peak they took.
pub fn run_measured_held(args: &[&str], stdin: Vec<u8>, hold: std::time::Duration) -> (i32, String, String, u64) {
    let mut child = Command::new(BIN).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the mcp-schema binary runs");
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
        let _ = pipe.flush();
        std::thread::sleep(hold);
    });
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let mut peak = 0;
    let code = loop {
        // VmHWM only grows: the last read before the end is the peak, give or take the last 5 ms.
        if let Some(p) = peak_rss(child.id()) {
            peak = peak.max(p);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    (code, reader.join().unwrap(), err_reader.join().unwrap(), peak)
}
