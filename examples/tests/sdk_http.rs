//! Real clients over Streamable HTTP against `http_server` (the two tools on `McpService`): the
//! official TypeScript SDK v1 client (`@modelcontextprotocol/sdk` 1.32.2, pinned in
//! tests/stdio_cancel/) in a session, the TypeScript SDK v2 client (`StreamableHTTPClientTransport`) in the session era
//! (`initialize`, `Mcp-Session-Id`, its GET stream, DELETE) and in 2026-07-28 (no session), and
//! the Python SDK (`mcp` 2.x) in both eras: list, call, progress, and (TypeScript) a call cancelled
//! after its first progress with nothing about it after. A foreign `Origin` gets 403. The SDKs
//! are pinned in examples/sdk-clients/ and installed on first run (`CI=true`: a missing one fails).

#![forbid(unsafe_code)]

mod sdks;
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use sdks::{http_clients_in_both_eras, run};

/// `http_server` on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_http_server")).args(["--listen", "127.0.0.1:0"]).stderr(Stdio::piped()).spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.trim().strip_prefix("listening on http://").and_then(|a| a.strip_suffix("/mcp")).unwrap_or_else(|| panic!("no address in {line:?}")).to_owned();
        Server { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn real_sdk_clients_speak_both_eras_over_http() {
    let server = Server::start();
    let (mut passed, failures) = http_clients_in_both_eras(&server.url(), "");
    for f in &failures {
        println!("{f}");
    }
    let mut failed = failures.len();
    // The SDK v1 client: a session only (it has no 2026-07-28).
    if let Some((node, dir)) = support::pinned_node("tests/stdio_cancel") {
        match run(Command::new(node).arg(dir.join("http_session.mjs")).arg(server.url())) {
            Ok(out) => {
                passed += 1;
                print!("typescript-sdk-1.32.2 session:\n{out}");
            }
            Err(e) => {
                failed += 1;
                println!("typescript-sdk-1.32.2 session FAILED: {e}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// One raw HTTP/1.1 request; the status line and headers of the answer.
fn raw(addr: &str, request: &str) -> String {
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn a_foreign_origin_is_forbidden() {
    let server = Server::start();
    let body = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let post = |origin: &str| format!("POST /mcp HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", server.addr, body.len());
    let foreign = raw(&server.addr, &post("http://attacker.example"));
    assert!(foreign.starts_with("HTTP/1.1 403"), "{foreign}");
    let local = raw(&server.addr, &post(&format!("http://{}", server.addr)));
    assert!(local.starts_with("HTTP/1.1 200") && local.to_ascii_lowercase().contains("mcp-session-id:"), "{local}");
    println!("2 passed, 0 failed");
}
