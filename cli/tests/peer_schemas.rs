//! Tool schemas from a peer (issue 27): a `$ref` chain long enough to overflow the validator's
//! stack and a `pattern` that backtracks for ever neither crash nor stall `check` or `proxy`; the
//! schema is reported as unusable and the undecided match as a warning.

use crate::common;

use common::{check_json, run};
use serde_json::{json, Value};

/// `$ref` to `#/$defs/d0`, which refers to `d1`, ... to `d{links}`, an object.
fn ref_chain(links: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..links {
        defs.insert(format!("d{i}"), json!({"$ref": format!("#/$defs/d{}", i + 1)}));
    }
    defs.insert(format!("d{links}"), json!({"type": "object"}));
    json!({"type": "object", "$ref": "#/$defs/d0", "$defs": defs})
}

/// initialize, its result, initialized, tools/list and its result with `tools`: lines 1 to 5.
fn listing(tools: Value) -> Vec<Value> {
    vec![
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}}),
    ]
}

fn call(id: u64, name: &str, args: Value) -> Value {
    json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args}}})
}

fn jsonl(lines: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        out.extend(serde_json::to_vec(l).unwrap());
        out.push(b'\n');
    }
    out
}

/// 20,000 links overflowed the stack of `check` on the first call (exit 134); 19,000 stay under
/// the subschema bound and are refused by the depth bound instead.
#[test]
fn a_long_ref_chain_is_unusable_not_a_crash() {
    let tools = json!([{"name": "a", "inputSchema": ref_chain(20_000)}, {"name": "b", "inputSchema": ref_chain(19_000)}]);
    let mut lines = listing(tools);
    lines.push(call(3, "a", json!({})));
    lines.push(call(4, "b", json!({})));
    let (code, r) = check_json(&["-"], Some(&jsonl(&lines)));
    assert_eq!(code, 0);
    let found: Vec<_> = r.found.iter().map(|f| (f.line, f.pointer.as_str(), f.rule.as_str(), f.severity.as_str())).collect();
    let unusable = |i| (5, if i == 0 { "/msg/result/tools/0/inputSchema" } else { "/msg/result/tools/1/inputSchema" }, "session.tools.schema-unusable", "warning");
    assert_eq!(found, vec![unusable(0), unusable(1)]);
    let text = run(&["check", "-"], Some(&jsonl(&lines))).stdout;
    assert!(text.contains("more than 20000 subschemas") && text.contains("more than 1000 subschemas deep"), "{text}");
}

/// `^((a*)*)\2b$` on 30 `a`s: the engine's budget runs out. That is a warning (the value may
/// conform), once per call, and the calls do not fail.
#[test]
fn a_pattern_past_the_budget_is_undecided() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^((a*)*)\\2b$"}, "t": {"type": "string", "pattern": "^x+$"}}});
    let mut lines = listing(json!([{"name": "m", "inputSchema": schema}]));
    for id in 0..50 {
        lines.push(call(3 + id, "m", json!({"s": "a".repeat(30)})));
    }
    lines.push(call(100, "m", json!({"s": "aab", "t": "y"})));
    let (code, r) = check_json(&["-"], Some(&jsonl(&lines)));
    assert_eq!(code, 1, "only the last call breaks the schema");
    let undecided = r.found.iter().filter(|f| f.rule == "session.tools.pattern-undecided" && f.severity == "warning" && f.pointer == "/msg/params/arguments/s");
    assert_eq!(undecided.count(), 50, "{:?}", r.found);
    let broken: Vec<_> = r.found.iter().filter(|f| f.severity == "error").map(|f| (f.line, f.pointer.as_str(), f.rule.as_str())).collect();
    assert_eq!(broken, vec![(56, "/msg/params/arguments/t", "session.tools.input-schema")]);
}

/// Behind the proxy, 20,000 links killed the proxy (and the host's connection) on the first call.
#[cfg(unix)]
#[test]
fn the_proxy_survives_a_long_ref_chain() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};

    let listed = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "a", "inputSchema": ref_chain(20_000)}]}});
    let list_file = common::TempFile::new("list.json", format!("{listed}\n").as_bytes());
    let server = r#"while IFS= read -r line; do
  case "$line" in
    *'"initialize"'*) printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}' ;;
    *'"tools/list"'*) cat "$1" ;;
  esac
done"#;
    let mut child = Command::new(common::BIN)
        .args(["proxy", "--", "sh", "-c", server, "sh", list_file.path()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let host = listing(json!([]));
    for i in [0, 2, 3] {
        writeln!(stdin, "{}", host[i]["msg"]).unwrap();
    }
    // The call goes out once the listing has come back through the proxy.
    let mut line = String::new();
    for _ in 0..2 {
        line.clear();
        stdout.read_line(&mut line).unwrap();
    }
    assert!(line.contains("\"tools\""), "{}", &line[..line.len().min(200)]);
    writeln!(stdin, "{}", call(3, "a", json!({}))["msg"]).unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    let errors = errors.join().unwrap();
    assert_eq!(status.code(), Some(0), "the proxy exits with the server, not by a signal: {errors}");
    assert!(errors.contains("session.tools.schema-unusable"), "{errors}");
}
