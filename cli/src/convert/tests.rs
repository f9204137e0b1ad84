//! Unit tests of `convert`'s converter: versions named by messages follow the conversion, and what
//! cannot be converted is reported.

use super::*;
use crate::vocab::{Diag, Outcome};
use crate::args::DEFAULT_MAX_FINDINGS;
use crate::versions::version_index;
use serde_json::json;

fn converter(to: &str) -> Converter {
    Converter::new(&ConvertArgs { to: version_index(to).unwrap(), from: Protocol::Auto, max_findings: DEFAULT_MAX_FINDINGS, files: vec![] })
}

fn convert(c: &mut Converter, v: Value) -> Result<Value, Vec<Diag>> {
    let mut out = Outcome::default();
    c.convert_value(v, &mut out).ok_or(out.diags)
}

#[test]
fn versions_named_by_messages_follow_the_conversion() {
    let mut c = converter("2025-06-18");
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    // The proposal is what the client sent; it stays.
    assert_eq!(convert(&mut c, json!({"dir": "c2s", "protocol": "2025-03-26", "msg": init.clone()})).unwrap()["msg"], init);
    let answer = json!({"dir": "s2c", "protocol": "2025-03-26", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-03-26", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}});
    let converted = convert(&mut c, answer).unwrap();
    assert_eq!(converted["protocol"], "2025-06-18");
    assert_eq!(converted["msg"]["result"]["protocolVersion"], "2025-06-18");
}

#[test]
fn what_the_target_lacks_fails_with_its_pointer() {
    let mut c = converter("2024-11-05");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t"}});
    convert(&mut c, json!({"dir": "c2s", "protocol": "2025-06-18", "msg": call})).unwrap();
    let link = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}});
    let err = convert(&mut c, json!({"dir": "s2c", "protocol": "2025-06-18", "msg": link})).unwrap_err();
    assert_eq!((err[0].pointer.as_str(), err[0].rule), ("/msg/result/content/0", "convert.refused"), "{err:?}");
    assert!(err[0].message.contains("case `ContentBlock.ResourceLink`"), "{err:?}");
    let mut c = converter("2026-07-28");
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    let err = convert(&mut c, json!({"dir": "c2s", "protocol": "2025-11-25", "msg": ping})).unwrap_err();
    assert_eq!((err[0].pointer.as_str(), err[0].rule, err[0].message.as_str()), ("/msg/method", "convert.method", "2026-07-28 has no `ping` request"));
}

/// A server's request cannot go to a version whose servers send none (CONVERSIONS.md's `ServerRequest`
/// row), whether `dir` says who sent it or the method does; its answer is refused with it.
#[test]
fn server_requests_to_a_version_without_them_are_refused_with_their_answers() {
    let mut c = converter("2026-07-28");
    let roots = json!({"jsonrpc": "2.0", "id": 7, "method": "roots/list"});
    let err = convert(&mut c, json!({"dir": "s2c", "protocol": "2025-11-25", "msg": roots})).unwrap_err();
    assert_eq!((err[0].pointer.as_str(), err[0].rule), ("/msg/method", "convert.direction"), "{err:?}");
    assert!(err[0].message.contains("case `ServerRequest` of CONVERSIONS.md"), "{err:?}");
    let answer = json!({"dir": "c2s", "protocol": "2025-11-25", "msg": {"jsonrpc": "2.0", "id": 7, "result": {"roots": []}}});
    let err = convert(&mut c, answer).unwrap_err();
    assert_eq!(err[0].rule, "convert.direction", "{err:?}");
    assert!(err[0].message.starts_with("answers the `roots/list` request of line"), "{err:?}");
    // A bare message: the side that sends the method in the source version decides.
    let from = Protocol::Fixed(version_index("2025-11-25").unwrap());
    let mut c = Converter::new(&ConvertArgs { to: version_index("2026-07-28").unwrap(), from, max_findings: 100, files: vec![] });
    let bare = json!({"jsonrpc": "2.0", "id": 8, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}});
    let err = convert(&mut c, bare).unwrap_err();
    assert_eq!(err[0].rule, "convert.direction", "{err:?}");
    // And a bare answer finds the request whatever its direction.
    let answer = json!({"jsonrpc": "2.0", "id": 8, "result": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}});
    assert_eq!(convert(&mut c, answer).unwrap_err()[0].rule, "convert.direction");
}

#[test]
fn findings_of_one_value_are_capped() {
    let mut c = Converter::new(&ConvertArgs { to: version_index("2025-03-26").unwrap(), from: Protocol::Fixed(version_index("2025-03-26").unwrap()), max_findings: 5, files: vec![] });
    let batch: Vec<Value> = (0..1000).map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {}})).collect();
    let line = serde_json::to_vec(&batch).unwrap();
    let got = c.convert_line(&line, 1).unwrap();
    assert!(got.value.is_none());
    assert_eq!(got.outcome.diags.len(), 5);
    // Two findings per item (the missing `name`, the typed read), as `check` reports them.
    assert_eq!(got.outcome.omitted, 1995, "{:?}", got.outcome.diags);
}

#[test]
fn every_refusal_rule_is_documented() {
    let readme = include_str!("../../README.md");
    for rule in rules::RULES {
        assert!(readme.contains(&format!("`{}`", rule.id)), "{} is not in cli/README.md", rule.id);
    }
}

#[test]
fn a_client_cancellation_converts_to_2026_where_client_notification_is_an_alias() {
    // 2026-07-28 has `ClientNotification = CancelledNotification`: the alias carries cancellations.
    let mut c = converter("2026-07-28");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}});
    let converted = convert(&mut c, json!({"dir": "c2s", "protocol": "2025-11-25", "msg": cancel.clone()})).unwrap();
    assert_eq!(converted["msg"], cancel);
    // A client notification the alias does not carry is still refused.
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"});
    let diags = convert(&mut c, json!({"dir": "c2s", "protocol": "2025-11-25", "msg": progress})).unwrap_err();
    assert!(diags.iter().any(|d| d.pointer == "/msg/method"), "{diags:?}");
}

/// Each refusal rule, by a value that draws it (without the checker before, as `convert_value` runs).
#[test]
fn each_refusal_rule_has_a_case() {
    let rules = |to: &str, v: Value| -> Vec<&'static str> { convert(&mut converter(to), v).unwrap_err().iter().map(|d| d.rule).collect() };
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert_eq!(rules("2025-06-18", json!([ping])), ["convert.batch"]);
    assert_eq!(rules("2025-06-18", json!(5)), ["convert.type"]);
    assert_eq!(rules("2025-06-18", json!({"jsonrpc": "2.0", "id": 9, "result": {}})), ["convert.response"]);
    assert_eq!(rules("2025-06-18", json!({"type": "Tool", "protocol": "2025-03-26", "msg": 5})), ["convert.source"]);
    // Read leniently and converted, then judged by the target's rules: a `javascript:` icon.
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "javascript:x"}]});
    assert_eq!(rules("2026-07-28", json!({"type": "Tool", "protocol": "2025-11-25", "msg": tool})), ["convert.target-invalid"]);
}

/// A line whose `Value` would pass the cost budget is not converted, and not made a `Value`: its
/// head is read from the compact tree, enough to follow its request to the answer.
#[test]
fn a_line_too_costly_as_a_value_is_followed_from_its_head() {
    let mut c = converter("2025-06-18");
    let mut line = br#"{"dir":"c2s","protocol":"2025-11-25","msg":{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{"a":["#.to_vec();
    while line.len() < 4 << 20 {
        line.extend_from_slice(br#"{"k":1},"#);
    }
    line.extend_from_slice(br#"{"k":1}]}}}}"#);
    let r = c.convert_line(&line, 1).unwrap();
    assert!(r.value.is_none() && r.outcome.diags.iter().any(|d| d.rule == "line.too-costly"), "{:?}", r.outcome.diags);
    let answer = json!({"dir": "s2c", "protocol": "2025-11-25", "msg": {"jsonrpc": "2.0", "id": 5, "result": {"content": []}}});
    let r = c.convert_line(&serde_json::to_vec(&answer).unwrap(), 2).unwrap();
    assert!(r.value.is_some(), "{:?}", r.outcome.diags);
    assert_eq!(r.value.unwrap()["msg"]["result"]["content"], json!([]));
}

/// Skills exists only from 2026-07-28: down, its request and answer are refused with a reason that says so;
/// up (the TypeScript SDK's Skills on 2025-11-25, reported there, not failed), both go on unchanged.
#[test]
fn skills_pass_up_and_are_refused_down() {
    let lines = |c: &mut Converter, ls: &[Value]| -> Vec<Converted> { ls.iter().enumerate().filter_map(|(i, l)| c.convert_line(&serde_json::to_vec(l).unwrap(), i as u64 + 1)).collect() };
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}});
    let list = json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {"_meta": meta}}});
    let listed = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "skills": [{"uri": "skill://a/SKILL.md", "frontmatter": {"name": "a", "description": "d"}, "resources": "dynamic"}]});
    let answer = json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": listed}});
    let down = lines(&mut converter("2025-11-25"), &[list, answer]);
    let refusals: Vec<(&str, &str)> = down.iter().flat_map(|c| c.outcome.diags.iter().map(|d| (d.rule, d.message.as_str()))).collect();
    assert!(down.iter().all(|c| c.value.is_none()), "{refusals:?}");
    assert_eq!(refusals.iter().map(|r| r.0).collect::<Vec<_>>(), ["convert.method", "convert.method"]);
    assert!(refusals[0].1.contains("the skills extension's, which exists only from 2026-07-28: 2025-11-25 cannot carry it"), "{refusals:?}");

    let old = [
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"resources": {}}, "serverInfo": {"name": "s", "version": "1"}}}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 2, "method": "skills/list"}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"skills": []}}}),
    ];
    let up = lines(&mut converter("2026-07-28"), &old);
    assert_eq!(up[2].value.as_ref(), Some(&old[2]));
    assert_eq!(up[3].value.as_ref(), Some(&old[3]));
    let found: Vec<&str> = up[2..].iter().flat_map(|c| c.outcome.diags.iter().map(|d| d.rule)).collect();
    assert_eq!(found, ["session.skills.version"]);
}
