//! Issue 28, "one session model": the checker's rules on requests in flight (`stream.id-reused`,
//! `stream.response-unmatched`, progress, cancellation, lifecycle) read one model, the engine's
//! observer, so a request leaves flight once and every rule agrees on it.

use crate::common;

use common::lines::{c2s, note, ok, req, s2c};
use common::run;
use serde_json::{json, Value};

fn start() -> Vec<Value> {
    vec![
        c2s(req(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))),
        s2c(ok(1, json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}))),
        c2s(note("notifications/initialized", json!({}))),
    ]
}

fn count(id: i64, token: Value) -> Value {
    c2s(req(id, "tools/call", json!({"name": "count", "arguments": {"to": 5}, "_meta": {"progressToken": token}})))
}

fn progress(token: Value, p: i64) -> Value {
    s2c(note("notifications/progress", json!({"progressToken": token, "progress": p})))
}

fn result() -> Value {
    json!({"content": [{"type": "text", "text": "5"}]})
}

/// Every finding as `LINE POINTER SEVERITY [RULE]: MESSAGE`.
fn findings(lines: &[Value]) -> Vec<String> {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let r = run(&["check", "--protocol", "2025-11-25", "-"], Some(input.as_bytes()));
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let mut found: Vec<String> = r.stdout.lines().filter_map(|l| l.strip_prefix("<stdin>:")).map(str::to_string).collect();
    found.sort();
    found
}

/// The result and the progress the server sends after the client cancelled: both are reported,
/// off the one entry that left flight at the cancellation (line 6).
#[test]
fn late_progress_and_late_result_of_a_cancelled_request() {
    let mut lines = start();
    lines.extend([count(2, json!("p")), progress(json!("p"), 1), c2s(note("notifications/cancelled", json!({"requestId": 2}))), progress(json!("p"), 2), s2c(ok(2, result()))]);
    let found = findings(&lines);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("7: /msg/params/progressToken: warning [session.progress.cancelled]: progress for the token \"p\" of a request cancelled on line 6"), "{found:#?}");
    assert!(found[1].starts_with("8: /msg/id: warning [stream.response-unmatched]: ") && found[1].contains("(the request of line 4 was cancelled on line 6)"), "{found:#?}");
}

/// A capture that starts mid-session (no `initialize`): a request seen answered is in flight
/// for neither progress nor a second answer, whatever came before the capture.
#[test]
fn an_answered_request_is_not_in_flight_for_either_rule() {
    let lines = [count(5, json!("t")), s2c(ok(5, result())), progress(json!("t"), 1), s2c(ok(5, result()))];
    let found = findings(&lines);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("3: /msg/params/progressToken: error [session.progress.token]: progress for the token \"t\" of the request of line 1, answered on line 2"), "{found:#?}");
    assert!(found[1].starts_with("4: /msg/id: warning [stream.response-unmatched]: ") && found[1].contains("(the request of line 1 was answered already)"), "{found:#?}");
}

/// The spec forbids cancelling `initialize`, and a server ignores it: the request stays in
/// flight, so its answer is matched and the lifecycle goes on.
#[test]
fn a_cancelled_initialize_stays_in_flight() {
    let mut lines = start();
    lines.insert(1, c2s(note("notifications/cancelled", json!({"requestId": 1}))));
    let found = findings(&lines);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with("2: /msg/params/requestId: error [session.cancel.initialize]: "), "{found:#?}");
}

/// A long (1 MB) token and id are kept as digests in the observer: the late progress and the
/// late answer of the cancelled request still find their entry.
#[test]
fn long_ids_and_tokens_are_followed() {
    let long = "x".repeat(1 << 20);
    let mut lines = start();
    let call = json!({"jsonrpc": "2.0", "id": long, "method": "tools/call", "params": {"name": "count", "_meta": {"progressToken": long}}});
    lines.extend([c2s(call), c2s(note("notifications/cancelled", json!({"requestId": long}))), progress(json!(long), 1)]);
    lines.push(s2c(json!({"jsonrpc": "2.0", "id": long, "result": result()})));
    let found = findings(&lines);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("6: /msg/params/progressToken: warning [session.progress.cancelled]: "), "{found:#?}");
    assert!(found[1].starts_with("7: /msg/id: warning [stream.response-unmatched]: ") && found[1].contains("cancelled on line 5"), "{found:#?}");
}

/// The MCP Apps view<->host channel pairs its requests on the same model (the view as the
/// client): an id reused after its answer is `stream.id-reused`, and a second answer names the first.
#[test]
fn the_apps_channel_has_the_same_model() {
    let v2h = |msg: Value| json!({"dir": "view2host", "msg": msg});
    let h2v = |msg: Value| json!({"dir": "host2view", "msg": msg});
    let lines = [
        v2h(req(1, "ui/initialize", json!({"appInfo": {"name": "v", "version": "1"}, "appCapabilities": {}, "protocolVersion": "2026-01-26"}))),
        h2v(ok(1, json!({"protocolVersion": "2026-01-26", "hostInfo": {"name": "h", "version": "1"}, "hostCapabilities": {}, "hostContext": {}}))),
        v2h(note("ui/notifications/initialized", json!({}))),
        v2h(req(2, "ping", json!({}))),
        h2v(ok(2, json!({}))),
        h2v(ok(2, json!({}))),
        v2h(req(2, "ping", json!({}))),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let r = run(&["check", "--ext", "apps", "-"], Some(input.as_bytes()));
    let mut found: Vec<&str> = r.stdout.lines().filter_map(|l| l.strip_prefix("<stdin>:")).collect();
    found.sort();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("6: /msg/id: warning [stream.response-unmatched]: ") && found[0].contains("(the request of line 4 was answered already)"), "{found:#?}");
    assert!(found[1].starts_with("7: /msg/id: error [stream.id-reused]: id 2 was already used by a view2host request that was answered or cancelled (line 4)"), "{found:#?}");
}
