//! Icons forwarded into older sessions (issue 16, item 7): a proxy passes a newer
//! server's `icons` and `websiteUrl` to a client that negotiated a version without
//! them. The checker applies the icon and link rules where 2025-11-25 defines those
//! fields, as warnings; in versions that define them they stay errors.

use mcp_spec_types::validate::Severity;
use mcp_spec_types_cli::args::CheckArgs;
use mcp_spec_types_cli::check::Checker;
use serde_json::{json, Value};

/// (pointer, rule, severity) of every finding on every line of a session.
fn session(version: &str, strict: bool, server_info: Value, tools: Value) -> Vec<(String, &'static str, Severity)> {
    let lines = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": server_info}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}),
    ];
    let mut checker = Checker::new(&CheckArgs { strict, ..CheckArgs::default() });
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let out = checker.check_line(line.to_string().as_bytes(), i as u64 + 1).unwrap();
        found.extend(out.diags.into_iter().map(|d| (d.pointer, d.rule, d.severity)));
    }
    found
}

fn tool(icons: Value) -> Value {
    json!([{"name": "t", "inputSchema": {"type": "object"}, "icons": icons}])
}

fn server(icons: Value, website: &str) -> Value {
    json!({"name": "s", "version": "1", "icons": icons, "websiteUrl": website})
}

#[test]
fn icons_in_older_sessions_are_checked_as_warnings() {
    let bad_icons = json!([{"src": "javascript:alert(1)"}, {"src": "https://e/i.png", "sizes": ["48"]}]);
    let w = Severity::Warning;
    let want = |sev: Severity| {
        vec![
            ("/result/serverInfo/icons/0/src".to_string(), "icon.scheme", sev),
            ("/result/serverInfo/icons/1/sizes/0".to_string(), "icon.sizes", sev),
            ("/result/serverInfo/websiteUrl".to_string(), "link.scheme", sev),
            ("/result/tools/0/icons/0/src".to_string(), "icon.scheme", sev),
            ("/result/tools/0/icons/1/sizes/0".to_string(), "icon.sizes", sev),
        ]
    };
    for version in ["2024-11-05", "2025-03-26", "2025-06-18"] {
        assert_eq!(session(version, false, server(bad_icons.clone(), "javascript:x"), tool(bad_icons.clone())), want(w), "{version}");
        assert_eq!(session(version, true, server(bad_icons.clone(), "javascript:x"), tool(bad_icons.clone())), want(Severity::Error), "{version} --strict");
    }
}

#[test]
fn good_icons_in_older_sessions_are_clean() {
    let icons = json!([{"src": "https://e/i.png", "mimeType": "image/png", "sizes": ["48x48"]}]);
    for version in ["2024-11-05", "2025-06-18"] {
        assert_eq!(session(version, true, server(icons.clone(), "https://e"), tool(icons.clone())), vec![], "{version}");
    }
}

#[test]
fn versions_that_define_icons_report_errors_once() {
    let bad_icons = json!([{"src": "javascript:alert(1)"}]);
    let found = session("2025-11-25", false, server(bad_icons.clone(), "javascript:x"), tool(bad_icons));
    let e = Severity::Error;
    assert_eq!(
        found,
        vec![
            ("/result/serverInfo/icons/0/src".to_string(), "icon.scheme", e),
            ("/result/serverInfo/websiteUrl".to_string(), "link.scheme", e),
            ("/result/tools/0/icons/0/src".to_string(), "icon.scheme", e),
        ]
    );
}
