//! `blocking::Connection::close(grace)` against the reference server
//! `@modelcontextprotocol/server-everything` over stdio: a session that only lists tools ends
//! when its input does; one that turned on the server's simulated logging never does (its
//! timers keep Node alive: "drop, then `child.wait()`" waits forever), so `close` kills it at
//! the end of the grace period. Prints how long each close took.
//!
//! Node and the server are the ones pinned in cli/tests/proxy/package.json. Without npm this is
//! skipped with a message, except under `CI=true`, where that is a failure.

#![forbid(unsafe_code)]

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_spec_engine::blocking::Connection;
use mcp_spec_engine::{Client, Closed, Config};
use mcp_spec_types::v2025_11_25 as mcp;

const TIMEOUT: Option<Duration> = Some(Duration::from_secs(30));

#[test]
fn close_ends_server_everything_or_kills_it_past_the_grace_period() {
    let Some((node, dir)) = support::pinned_node("../cli/tests/proxy") else { return };
    let server = dir.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let mut outcomes = Vec::new();
    for toggle in [None, Some("toggle-simulated-logging")] {
        let mut command = Command::new(&node);
        command.arg(&server).arg("stdio").stderr(Stdio::null());
        let mut conn = Connection::spawn(Client::new(Config::default()), &mut command).unwrap();
        let params = mcp::InitializeRequestParams::new("2025-11-25", mcp::ClientCapabilities::default(), mcp::Implementation::new("t", "1"));
        conn.call(mcp::InitializeRequest::new(params, mcp::RequestId::Integer(0)), TIMEOUT, |_, _| {}).unwrap();
        conn.engine().notify(&mcp::InitializedNotification::default()).unwrap();
        conn.call(mcp::ListToolsRequest::new(mcp::RequestId::Integer(0)), TIMEOUT, |_, _| {}).unwrap();
        if let Some(tool) = toggle {
            let params = mcp::CallToolRequestParams::new(tool);
            conn.call(mcp::CallToolRequest::new(params, mcp::RequestId::Integer(0)), TIMEOUT, |_, _| {}).unwrap();
        }
        let started = Instant::now();
        let closed = conn.close(Duration::from_secs(3)).unwrap();
        println!("after {}: {closed:?} in {:?}", toggle.unwrap_or("tools/list"), started.elapsed());
        outcomes.push(closed);
    }
    assert!(matches!(outcomes[0], Closed::Ended(Some(status)) if status.success()), "{outcomes:?}");
    assert!(matches!(outcomes[1], Closed::Killed(_)), "{outcomes:?}");
}
