//! `http_client URL` against real servers over Streamable HTTP, in both eras:
//! `@modelcontextprotocol/server-everything` in its `streamableHttp` mode (sessions only, up to
//! 2025-11-25: the client's `server/discover` gets a 400 and it falls back to `initialize`), and
//! a tiny server on the official Python SDK (`tests/http_client/python_server.py`, mcp 2.x),
//! which speaks 2026-07-28 per request and, with `--session`, 2025-11-25 in a session; and the
//! engine's own server (the `http_server` example), in both eras too.
//!
//! Node and server-everything are the ones pinned in cli/tests/proxy_http/package.json; the
//! Python SDK is the venv of examples/sdk-clients/requirements.txt (`sdks::python_venv`).
//! Without npm or python3 with venv these are skipped with a message, except under `CI=true`,
//! where that is a failure.

#![forbid(unsafe_code)]

mod sdks;
mod support;

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::text;

const CLIENT: &str = env!("CARGO_BIN_EXE_http_client");

/// A server process, killed when the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `command` and waits until it accepts connections on `port`.
fn start(command: &mut Command, port: u16) -> Server {
    let server = Server(command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("the server starts"));
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(60), "the server did not listen on {port}");
        std::thread::sleep(Duration::from_millis(100));
    }
    server
}

fn client(args: &[&str]) -> Output {
    let started = Instant::now();
    let o = Command::new(CLIENT).args(args).output().expect("http_client runs");
    println!("http_client {}: {:?}", args.join(" "), started.elapsed());
    assert!(o.status.success(), "http_client failed:\n{}", text(&o));
    o
}

fn lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout).lines().map(str::to_owned).collect()
}

#[test]
fn drives_server_everything_over_streamable_http() {
    let Some((node, dir)) = support::pinned_node("../cli/tests/proxy_http") else { return };
    let port = free_port();
    let index = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let _server = start(Command::new(node).arg(index).arg("streamableHttp").env("PORT", port.to_string()), port);
    let o = client(&[&format!("http://127.0.0.1:{port}/mcp")]);
    let (out, err) = (lines(&o), String::from_utf8_lossy(&o.stderr));
    assert!(out[0].starts_with("server: mcp-servers/everything ") && out[0].ends_with(", protocol 2025-11-25 in a session"), "{}", text(&o));
    assert!(err.contains("fell back to initialize: server/discover: error -32000: HTTP 400"), "{}", text(&o));
    for line in ["tool: echo", "progress: 1 of 2", "progress: 2 of 2", "closed: Ended(None)"] {
        assert!(out.iter().any(|l| l == line), "no line {line:?}:\n{}", text(&o));
    }
    assert!(out.iter().any(|l| l.starts_with("trigger-long-running-operation: text [\"Long running operation completed.")), "{}", text(&o));
}

#[test]
fn drives_a_python_sdk_server_in_both_eras() {
    let Some(python) = sdks::python_venv().unwrap() else { return };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/http_client/python_server.py");
    let mut passed = 0;
    for mode in ["stateful", "stateless"] {
        let port = free_port();
        let _server = start(Command::new(&python).arg(&script).arg(port.to_string()).arg(mode), port);
        let url = format!("http://127.0.0.1:{port}/mcp");
        for (flag, first) in [(None, "server: python-count , protocol 2026-07-28 per request"), (Some("--session"), "server: python-count , protocol 2025-11-25 in a session")] {
            let o = client(&flag.into_iter().chain([url.as_str()]).collect::<Vec<_>>());
            let out = lines(&o);
            assert_eq!(out[0], first, "{mode}:\n{}", text(&o));
            assert_eq!(&out[1..], ["tool: count", "progress: 1 of 2", "progress: 2 of 2", "count: text [\"counted to 2\"]", "closed: Ended(None)"], "{mode}:\n{}", text(&o));
            passed += 1;
        }
    }
    println!("{passed} passed, 0 failed");
}

/// The engine's own Streamable HTTP server (`http_server`, the two tools of `two_tools.rs`), in
/// both eras. Runs once that example is in this package.
#[test]
fn drives_the_engines_own_http_server_in_both_eras() {
    let Some(server) = option_env!("CARGO_BIN_EXE_http_server") else {
        println!("SKIPPED: this package has no http_server example yet");
        return;
    };
    let port = free_port();
    let _server = start(Command::new(server).args(["--listen", &format!("127.0.0.1:{port}")]), port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    for (flag, era) in [(None, "protocol 2026-07-28 per request"), (Some("--session"), "protocol 2025-11-25 in a session")] {
        let o = client(&flag.into_iter().chain([url.as_str()]).collect::<Vec<_>>());
        let out = lines(&o);
        assert!(out[0].ends_with(era), "{}", text(&o));
        assert_eq!(out.iter().filter(|l| l.starts_with("progress: ")).count(), 2, "{}", text(&o));
        for line in ["tool: convert", "tool: count", "closed: Ended(None)"] {
            assert!(out.iter().any(|l| l == line), "no line {line:?}:\n{}", text(&o));
        }
        assert!(out.iter().any(|l| l.starts_with("count: text [")), "{}", text(&o));
    }
}
