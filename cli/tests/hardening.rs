//! Stream rules and limits of the checker: task-augmented requests, unknown `_meta` versions,
//! reused ids, unmatched results, version changes, what the text report prints, and the caps
//! on findings and `.json` files.

use crate::common;

use common::{check_json, run, Cases, Found, TempFile};
use serde_json::{json, Value};

fn jsonl(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        out.extend_from_slice(v.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

fn found(line: u64, pointer: &str, rule: &str, severity: &str) -> Found {
    Found { line, pointer: pointer.into(), rule: rule.into(), severity: severity.into() }
}

fn err(line: u64, pointer: &str, rule: &str) -> Found {
    found(line, pointer, rule, "error")
}

fn warn(line: u64, pointer: &str, rule: &str) -> Found {
    found(line, pointer, rule, "warning")
}

/// Runs `check --json ARGS FILE` on `values`; `(exit status, findings)`.
fn check(args: &[&str], values: &[Value]) -> (i32, Vec<Found>) {
    let file = TempFile::new("s.jsonl", &jsonl(values));
    let mut all = args.to_vec();
    all.push(file.path());
    let (code, r) = check_json(&all, None);
    (code, r.found)
}

/// Checks the exit status and the findings (in any order).
fn expect(c: &mut Cases, name: &str, args: &[&str], values: &[Value], want_code: i32, mut want: Vec<Found>) {
    want.sort();
    c.check(name, || {
        let (code, mut got) = check(args, values);
        got.sort();
        (code == want_code && got == want).then_some(()).ok_or(format!("exit {code} {got:?}"))
    });
}

fn wrap(dir: &str, msg: Value) -> Value {
    json!({"dir": dir, "msg": msg})
}

fn task(id: &str, status: &str) -> Value {
    json!({"taskId": id, "status": status, "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:01Z", "ttl": 60000})
}

/// A 2025-11-25 session with a task-augmented `tools/call` and `sampling/createMessage`.
fn task_session() -> Vec<Value> {
    let mut status = task("T1", "completed");
    status["_meta"] = json!({});
    vec![
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}, "tasks": {"requests": {"sampling": {"createMessage": {}}}}}, "clientInfo": {"name": "c", "version": "1"}}})),
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}, "serverInfo": {"name": "s", "version": "1"}}})),
        // 3: the client is ready (the session rules want it before the server's requests).
        wrap("c2s", json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
        // 4, 5: the call is answered with a task.
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "task": {"ttl": 60000}}})),
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 1, "result": {"task": task("T1", "working")}})),
        // 6: the status notification.
        wrap("s2c", json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": status})),
        // 7, 8: tasks/get.
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"taskId": "T1"}})),
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 2, "result": task("T1", "completed")})),
        // 9, 10: tasks/result returns the call's result.
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/result", "params": {"taskId": "T1"}})),
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "done"}]}})),
        // 11, 12: the server's sampling request, made a task by the client.
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 10, "task": {}}})),
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 1, "result": {"task": task("S1", "working")}})),
        // 13, 14: its result.
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/result", "params": {"taskId": "S1"}})),
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 2, "result": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}})),
        // 15, 16: a task-augmented call the server runs without a task: the plain result.
        wrap("c2s", json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "fast", "task": {}}})),
        wrap("s2c", json!({"jsonrpc": "2.0", "id": 4, "result": {"content": []}})),
    ]
}

#[test]
fn task_augmented_requests() {
    let mut c = Cases::default();
    let s = task_session();
    expect(&mut c, "a session with tasks", &["--strict"], &s, 0, vec![]);

    let mut bad = s.clone();
    bad[4]["msg"]["result"]["task"]["status"] = json!("sleeping");
    expect(&mut c, "CreateTaskResult is checked", &[], &bad, 1, vec![err(5, "/msg/result/task/status", "enum")]);

    let mut bad = s.clone();
    bad[9]["msg"]["result"] = json!({"content": "done"});
    expect(&mut c, "tasks/result is typed by the original request", &[], &bad, 1, vec![
        err(10, "/msg/result", "deserialize"),
        err(10, "/msg/result/content", "type"),
    ]);

    let mut bad = s.clone();
    bad[13]["msg"]["result"] = json!({"role": "robot", "content": {"type": "text", "text": "hi"}, "model": "m"});
    expect(&mut c, "tasks/result in the other direction", &[], &bad, 1, vec![err(14, "/msg/result/role", "enum")]);

    let mut bad = s.clone();
    bad[5]["msg"]["params"]["status"] = json!(7);
    expect(&mut c, "the status notification is checked", &[], &bad, 1, vec![
        err(6, "/msg", "deserialize"),
        err(6, "/msg/params/status", "type"),
    ]);

    // Without `task` in the request, a task answer is not the request's result.
    let mut bad = s.clone();
    bad[3]["msg"]["params"] = json!({"name": "slow"});
    let (code, got) = check(&[], &bad);
    c.check("no task asked, none accepted", || {
        (code == 1 && got.iter().any(|f| f.line == 5 && f.rule == "required")).then_some(()).ok_or(format!("{got:?}"))
    });

    // A task id nobody created: tasks/result is checked as the schema's open result.
    let mut unknown = s.clone();
    unknown[8]["msg"]["params"]["taskId"] = json!("T9");
    unknown[9]["msg"]["result"] = json!({"anything": true});
    expect(&mut c, "an unknown task id", &[], &unknown, 0, vec![]);
    c.finish();
}

#[test]
fn unknown_meta_version_is_a_warning() {
    let req = |id: i64, v: &str, method: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": v, "io.modelcontextprotocol/clientCapabilities": {}}}})
    };
    let s = vec![
        req(1, "2026-07-28", "tools/list"),
        req(2, "2030-01-01", "tools/list"),
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"], "requested": "2030-01-01"}}}),
        // The rest of the message is still checked, as the stream's version (2026-07-28 needs `name`).
        req(3, "2030-01-01", "tools/call"),
    ];
    let (code, got) = check(&[], &s);
    let key = "/params/_meta/io.modelcontextprotocol~1protocolVersion";
    assert_eq!(code, 1, "{got:?}");
    assert_eq!(got[0], warn(2, key, "protocol"));
    assert_eq!(got[1], warn(4, key, "protocol"));
    assert!(got[2..].iter().all(|f| f.line == 4 && f.severity == "error"), "{got:?}");
    assert!(got.iter().any(|f| f.line == 4 && f.rule == "required" && f.pointer == "/params"), "{got:?}");
    // --json names the version the line was checked as.
    let file = TempFile::new("s.jsonl", &jsonl(&s[1..2]));
    let r = run(&["check", "--json", file.path()], None);
    let first: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["protocol"], "2026-07-28");
    assert_eq!(r.code, 0);
}

#[test]
fn stream_rules() {
    let mut c = Cases::default();
    let v = ["--protocol", "2025-11-25"];
    let ping = |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
    let ok = |id: i64| json!({"jsonrpc": "2.0", "id": id, "result": {}});

    // Reusing an id after its request was answered, or cancelled.
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}});
    expect(&mut c, "an id reused after its answer", &v, &[ping(1), ok(1), ping(1), ok(1)], 1, vec![err(3, "/id", "stream.id-reused")]);
    expect(&mut c, "an id reused after cancelling", &v, &[ping(2), cancel, ping(2)], 1, vec![err(3, "/id", "stream.id-reused")]);
    let mut strict = v.to_vec();
    strict.push("--strict");
    expect(&mut c, "a reused id under --strict", &strict, &[ping(1), ok(1), ping(1)], 1, vec![err(3, "/id", "stream.id-reused")]);
    // Each side has its own ids.
    let other_side = vec![
        wrap("c2s", ping(1)),
        wrap("s2c", ok(1)),
        wrap("s2c", ping(1)),
        wrap("c2s", ok(1)),
    ];
    expect(&mut c, "ids per direction", &strict, &other_side, 0, vec![]);

    // Unmatched responses: a malformed result is an error, an unknown one only the warning.
    let unmatched = |result: Value| vec![wrap("s2c", json!({"jsonrpc": "2.0", "id": "x", "result": result}))];
    let w = warn(1, "/msg/id", "stream.response-unmatched");
    expect(&mut c, "an unmatched well-formed result", &v, &unmatched(json!({"tools": []})), 0, vec![w.clone()]);
    expect(&mut c, "an unmatched empty result", &v, &unmatched(json!({})), 0, vec![w.clone()]);
    expect(&mut c, "an unmatched result with unknown keys", &v, &unmatched(json!({"x-vendor": 1})), 0, vec![w.clone()]);
    expect(&mut c, "an unmatched malformed result", &v, &unmatched(json!({"content": "oops"})), 1, vec![
        err(1, "/msg/result", "deserialize"),
        err(1, "/msg/result", "stream.response-result"),
        err(1, "/msg/result/content", "type"),
        w.clone(),
    ]);
    expect(&mut c, "an unmatched result with a bad item", &v, &unmatched(json!({"tools": [{"inputSchema": {"type": "object"}}]})), 1, vec![
        err(1, "/msg/result", "deserialize"),
        err(1, "/msg/result", "stream.response-result"),
        err(1, "/msg/result/tools/0", "required"),
        w.clone(),
    ]);
    // A client result the client sends: accepted though another client result types `content` otherwise.
    let elicit = vec![wrap("c2s", json!({"jsonrpc": "2.0", "id": "x", "result": {"action": "accept", "content": {"a": 1}}}))];
    expect(&mut c, "an unmatched client result", &v, &elicit, 0, vec![w]);

    // Version changes in mid-session.
    let init = |id: i64, v: &str| json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    let init_result = |id: i64, v: &str| json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": v, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}});
    let again = [init(0, "2025-06-18"), init_result(0, "2025-06-18"), init(1, "2025-11-25"), init_result(1, "2025-11-25")];
    expect(&mut c, "a second initialize", &[], &again, 0, vec![warn(3, "/method", "stream.protocol-changed")]);
    // The server picking another version than proposed is negotiation, not a change.
    expect(&mut c, "a counter-offer", &[], &[init(0, "2025-11-25"), init_result(0, "2025-06-18")], 0, vec![]);
    let meta = |id: i64, v: &str| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": v, "io.modelcontextprotocol/clientCapabilities": {}}}});
    expect(&mut c, "a _meta version change", &[], &[meta(1, "2026-07-28"), meta(2, "draft")], 0, vec![warn(2, "/params/_meta/io.modelcontextprotocol~1protocolVersion", "stream.protocol-changed")]);
    expect(&mut c, "the same _meta version", &[], &[meta(1, "2026-07-28"), meta(2, "2026-07-28")], 0, vec![]);
    c.finish();
}

#[test]
fn answered_ids_are_bounded() {
    // Far more answered requests than are remembered: the oldest ids are forgotten (reusing
    // them is not reported), the recent ones are not.
    let n = 2 * mcp_spec_types_cli::check::ANSWERED_CAP as i64;
    let mut values = Vec::new();
    for i in 0..n {
        values.push(json!({"jsonrpc": "2.0", "id": i, "method": "ping"}));
        values.push(json!({"jsonrpc": "2.0", "id": i, "result": {}}));
    }
    values.push(json!({"jsonrpc": "2.0", "id": 0, "method": "ping"}));
    values.push(json!({"jsonrpc": "2.0", "id": n - 1, "method": "ping"}));
    let (code, got) = check(&["--protocol", "2025-11-25"], &values);
    assert_eq!(code, 1);
    assert_eq!(got, vec![err(2 * n as u64 + 2, "/id", "stream.id-reused")]);
}

#[test]
fn response_ids_follow_request_id_rules() {
    let big = json!(18446744073709551615u64);
    let s = vec![
        json!({"jsonrpc": "2.0", "id": big, "method": "tools/list", "params": {}}),
        json!({"jsonrpc": "2.0", "id": big, "result": {"tools": []}}),
    ];
    let (code, got) = check(&["--protocol", "2025-11-25"], &s);
    assert_eq!(code, 1);
    let on = |line: u64| got.iter().filter(|f| f.line == line && f.severity == "error").map(|f| f.pointer.as_str()).collect::<Vec<_>>();
    assert!(on(1).contains(&"/id"), "{got:?}");
    assert!(on(2).contains(&"/id"), "the matched response's id is checked too: {got:?}");
}

#[test]
fn wrapper_keys() {
    let mut c = Cases::default();
    // A message with a `msg` key but no `jsonrpc` looks like a wrapper: its other keys are reported.
    let m = json!({"id": 1, "method": "tools/call", "msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}});
    expect(&mut c, "keys a wrapper does not have", &["--protocol", "2025-11-25"], &[m.clone()], 0, vec![warn(1, "/id", "line.key"), warn(1, "/method", "line.key")]);
    expect(&mut c, "the same under --strict", &["--protocol", "2025-11-25", "--strict"], &[m], 1, vec![err(1, "/id", "line.key"), err(1, "/method", "line.key")]);
    let ok = json!({"msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "dir": "c2s", "protocol": "2025-11-25", "type": "JSONRPCNotification"});
    expect(&mut c, "every wrapper key", &["--strict"], &[ok], 0, vec![]);
    c.finish();
}

#[test]
fn reserved_meta_key_names_where_it_is_defined() {
    // A client copies its request's `_meta` into the cancellation.
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}});
    let older = json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": {"io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}}});
    let message = |protocol: &str, v: &Value| {
        let file = TempFile::new("s.jsonl", &jsonl(std::slice::from_ref(v)));
        let r = run(&["check", "--json", "--protocol", protocol, file.path()], None);
        let first: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(first["violations"][0]["rule"], "meta.reserved-key");
        first["violations"][0]["message"].as_str().unwrap().to_string()
    };
    let m = message("2026-07-28", &cancel);
    assert!(m.contains("is defined by 2026-07-28 in RequestMetaObject") && !m.contains("not defined"), "{m}");
    let m = message("2025-11-25", &older);
    assert!(m.contains("not defined by 2025-11-25") && m.contains("2026-07-28 and later define it in RequestMetaObject"), "{m}");
}

#[test]
fn text_report_escapes_what_it_prints() {
    let key = "io.modelcontextprotocol/x\n0 passed, 0 failed\n\u{1b}[2J\u{0}\u{202e}";
    let m = json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": {key: 1}}});
    let file = TempFile::new("s.jsonl", &jsonl(&[m]));
    let r = run(&["check", "--protocol", "2025-11-25", file.path()], None);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"0 passed, 1 failed"), "{}", r.stdout);
    assert!(lines[..lines.len() - 1].iter().all(|l| l.starts_with(file.path())), "every finding is one line: {:?}", r.stdout);
    assert!(!r.stdout.contains(['\u{1b}', '\u{0}', '\u{202e}']), "{:?}", r.stdout);
    assert!(r.stdout.contains("x\\n0 passed, 0 failed\\n\\u{1b}[2J\\u{0}\\u{202e}"), "{:?}", r.stdout);
    // --json stays as it was: the key exactly, in JSON's own escaping.
    let r = run(&["check", "--json", "--protocol", "2025-11-25", file.path()], None);
    let first: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert!(first["violations"][0]["message"].as_str().unwrap().contains(key));
}

/// A tool list with `n` icons that each break a rule.
fn bad_icons(n: usize) -> Value {
    let icons: Vec<Value> = (0..n).map(|_| json!({"src": "javascript:alert(1)"})).collect();
    json!({"jsonrpc": "2.0", "id": "x", "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}, "icons": icons}]}})
}

#[test]
fn findings_are_capped_per_value() {
    let file = TempFile::new("s.jsonl", &jsonl(&[bad_icons(500)]));
    let r = run(&["check", "--json", "--protocol", "2025-11-25", file.path()], None);
    let first: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["violations"].as_array().unwrap().len(), 100);
    assert_eq!(first["omitted"].as_u64().unwrap() + 100, 501 + 1, "500 icons, the unmatched warning, and the result rule");
    assert_eq!(r.code, 1);

    let r = run(&["check", "--max-findings", "3", "--protocol", "2025-11-25", file.path()], None);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", r.stdout);
    assert!(lines[3].ends_with(": /: and 499 more findings (498 of them errors), not printed (--max-findings)"), "{}", lines[3]);

    // Only warnings kept, errors omitted: the value still fails.
    let warnings_first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {"io.modelcontextprotocol/a": 1, "io.modelcontextprotocol/b": 1}, "arguments": 5}});
    let file = TempFile::new("s.jsonl", &jsonl(&[warnings_first]));
    let r = run(&["check", "--json", "--max-findings", "1", "--protocol", "2025-11-25", file.path()], None);
    let first: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["ok"], false, "{}", r.stdout);
    assert_eq!(r.code, 1);
}

#[test]
fn the_validator_counts_what_it_does_not_keep() {
    use mcp_spec_types::v2025_11_25::Tool;
    use mcp_spec_types::validate::{validate_json, Options};
    let tool = bad_icons(50)["result"]["tools"][0].clone();
    let all = validate_json::<Tool>(&tool, &Options::default());
    assert_eq!((all.violations.len(), all.omitted), (50, 0));
    let capped = validate_json::<Tool>(&tool, &Options { max_violations: 7, ..Options::default() });
    assert_eq!((capped.violations.len(), capped.omitted, capped.omitted_errors), (7, 43, 43));
    assert_eq!(capped.violations[..], all.violations[..7]);
    assert!(!capped.is_valid());
}

#[test]
fn json_files_have_the_line_limit() {
    let file = TempFile::new("big.json", b"");
    std::fs::File::options().write(true).open(file.path()).unwrap().set_len(mcp_spec_types_cli::MAX_LINE as u64 + 1).unwrap();
    let (code, r) = check_json(&[file.path()], None);
    assert_eq!(code, 1);
    assert_eq!(r.found, vec![err(1, "", "line.too-long")]);
}

#[test]
fn a_line_of_many_small_objects_is_checked_and_the_next_line_too() {
    // A `tools/call` whose arguments are 3M `{"k":1}` objects (24 MiB): once refused as too costly
    // (a `Value` of it takes ~2.6 GB, 4.25 GB peak before the budget), now read into the compact
    // tree and checked by the validators (the typed reading, which would build that `Value` inside
    // `arguments`, is skipped on such a line: typed.rs).
    let big = common::small_objects_call(1, 24 << 20);
    let len = big.len() as u64;
    let doc = mcp_spec_types::tree::Doc::parse_slice(&big).unwrap();
    println!("the line: {} bytes, its tree: {} bytes besides the text", big.len(), doc.tree_bytes());
    assert!(doc.tree_bytes() <= 3 * big.len(), "{} > 3 x {}", doc.tree_bytes(), big.len());
    drop(doc);
    // The same findings as on the same call with one object (here: a `task` that is not an object).
    let with_task = |line: Vec<u8>| -> Vec<u8> {
        let text = String::from_utf8(line).unwrap().replacen(r#""params":{"name":"x","#, r#""params":{"name":"x","task":5,"#, 1);
        let mut v = text.into_bytes();
        v.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":7}\n");
        v
    };
    let (code, stdout, stderr, peak) = common::run_measured(&["check", "--json", "--protocol=2025-11-25", "-"], with_task(big));
    println!("check, a 24 MiB line of 3M small objects: peak RSS {} MiB, {:.1} times the line", peak >> 20, peak as f64 / len as f64);
    assert_eq!(code, 1, "{stderr}");
    let found = common::parse_json_output(&stdout).found;
    let (_, small) = check_json(&["--protocol=2025-11-25", "-"], Some(&with_task(common::small_objects_call(1, 1))));
    assert_eq!(found, small.found);
    assert!(found.iter().any(|f| f.line == 1 && f.pointer == "/params/task"), "{found:?}");
    assert!(found.iter().any(|f| f.line == 2 && f.pointer == "/params"), "{found:?}");
    assert!(!stdout.contains("line.too-costly"), "{stdout}");
    // The line (read into a buffer grown by doubling) and its tree (grown by doubling as it is
    // parsed), not a `Value`.
    assert!(peak < 8 * len + (64 << 20), "peak RSS {peak}");
    // Without the validators (or with --roundtrip) the skipped typed reading is said.
    let (code, stdout, ..) = common::run_measured(&["check", "--json", "--no-validate", "--protocol=2025-11-25", "-"], common::small_objects_call(1, 24 << 20));
    assert_eq!(code, 1);
    assert_eq!(common::parse_json_output(&stdout).found, vec![err(1, "", "line.too-costly")]);
    assert!(stdout.contains("the typed reading skipped"), "{stdout}");
}

#[test]
fn a_line_of_many_small_objects_takes_its_text_and_tree_only() {
    // What a 24 MiB line of 3M `{"k":1}` holds at the peak: the line (its buffer sized once, not
    // grown by doubling, which left each smaller copy resident: +30 MiB) and its tree, in a version
    // with `Icon` and in one without, where compat_icons looks for icons (it once stacked every
    // element: +100 MiB). The constant is the same command's peak on a 24 KiB line; the figures are printed.
    let big = common::small_objects_call(1, 24 << 20);
    let len = big.len() as u64;
    let tree = mcp_spec_types::tree::Doc::parse_slice(&big).unwrap().tree_bytes() as u64;
    let mut small = common::small_objects_call(1, 24 << 10);
    small.push(b'\n');
    let (_, _, _, floor) = common::run_measured_held(&["check", "--json", "--protocol=2025-11-25", "-"], small, std::time::Duration::from_millis(300));
    assert!(floor > 1 << 20, "the floor run's peak was not measured: {floor} bytes");
    let mut failed = 0;
    for version in ["2025-11-25", "2025-06-18"] {
        let mut input = big.clone();
        input.push(b'\n');
        let (code, stdout, stderr, peak) = common::run_measured(&["check", "--json", &format!("--protocol={version}"), "-"], input);
        assert_eq!((code, common::parse_json_output(&stdout).found.len()), (0, 0), "{stdout} {stderr}");
        let over = peak.saturating_sub(floor + len + tree);
        println!("check --protocol {version}: peak {} MiB = {} MiB (the same on a 24 KiB line) + the line + its tree + {} MiB", peak >> 20, floor >> 20, over >> 20);
        if over > 16 << 20 {
            failed += 1;
        }
    }
    println!("{} passed, {failed} failed", 2 - failed);
    assert_eq!(failed, 0);
}

#[test]
fn max_tree_mib_bounds_the_parts_still_read_as_values() {
    // The `jsonschema` crate takes a `Value`: a call's arguments are read into one only for a
    // listed tool with a schema, and weighed first (`--max-tree-mib`).
    let mut input = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"x","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}}
"#.to_vec();
    input.extend(common::small_objects_call(2, 1 << 20));
    input.push(b'\n');
    let (code, stdout, ..) = common::run_measured(&["check", "--json", "--protocol=2025-11-25", "--max-tree-mib=4", "-"], input.clone());
    let found = common::parse_json_output(&stdout).found;
    assert_eq!(code, 1);
    assert!(found.contains(&err(3, "/params/arguments", "line.too-costly")), "{found:?}");
    assert!(stdout.contains("not checked against the inputSchema of `x`"), "{stdout}");
    let (_, stdout, ..) = common::run_measured(&["check", "--json", "--protocol=2025-11-25", "--max-tree-mib=512", "-"], input);
    let found = common::parse_json_output(&stdout).found;
    assert!(!stdout.contains("line.too-costly"), "{stdout}");
    assert!(found.iter().any(|f| f.line == 3 && f.pointer == "/params/arguments/a" && f.rule == "session.tools.input-schema"), "{found:?}");
}

#[test]
fn a_line_too_costly_to_read_typed_gets_the_readers_refusal_only_where_the_reader_refuses() {
    // The typed read is skipped on this line (its arguments as a `Value` would pass `--max-tree-mib`);
    // the validators say whether the reader would refuse it. `null` in an optional field breaks the
    // schema but reads (kept among the unknown keys); a name of the wrong kind does not read.
    let cases = [(r#""_meta":null,"name":"x""#, "/params/_meta", false), (r#""name":7"#, "/params/name", true)];
    let mut failed = 0;
    for (params, at, refused) in cases {
        let line = String::from_utf8(common::small_objects_call(1, 1 << 20)).unwrap().replacen(r#""name":"x""#, params, 1);
        let (_, stdout, ..) = common::run_measured(&["check", "--json", "--protocol=2025-11-25", "--max-tree-mib=4", "-"], format!("{line}\n").into_bytes());
        let found = common::parse_json_output(&stdout).found;
        let ok = found.contains(&err(1, at, "type")) && found.iter().any(|f| f.rule == "deserialize") == refused;
        println!("{params}: {} ({found:?})", if ok { "ok" } else { "FAILED" });
        failed += usize::from(!ok);
    }
    println!("{} passed, {failed} failed", cases.len() - failed);
    assert_eq!(failed, 0);
}

#[test]
fn the_proxys_checker_checks_a_line_of_many_small_objects_and_passes_it_on() {
    // `proxy -- cat`: the line goes to the server unchanged (and back); its checker child checks it.
    let mut input = common::small_objects_call(1, 8 << 20);
    input.push(b'\n');
    let len = input.len();
    let (code, stdout, stderr, peak) = common::run_measured(&["proxy", "--protocol=2025-11-25", "--", "cat"], input);
    println!("proxy, an 8 MB line of 1M small objects: peak RSS {} MiB", peak >> 20);
    assert_eq!(stdout.len(), len, "passed on unchanged: {stderr}");
    assert!(!stderr.contains("line.too-costly") && !stderr.contains("unchecked"), "{code} {stderr}");
}

/// Numbers past 64 bits and long exponents inside a tool's schema, its arguments and its result: every
/// part of such a message is checked without a panic (finding a part's text passed over such numbers
/// with the typed reader, which refuses them: found by the tree fuzz target).
#[test]
fn numbers_past_64_bits_inside_schemas_and_arguments_are_checked() {
    let big = "123456789012345678901234567890";
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_string(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"t","inputSchema":{{"type":"object","properties":{{"n":{{"type":"number","maximum":{big},"default":1e-4000}}}}}}}}]}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t","arguments":{{"n":[{big},-1.5E-400000]}}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"content":[],"structuredContent":{{"n":{big}}}}}}}"#),
    ];
    let file = TempFile::new("big-numbers.jsonl", (lines.join("\n") + "\n").as_bytes());
    let (code, r) = check_json(&["--protocol", "2025-11-25", file.path()], None);
    println!("exit {code}, {:?}", r.found);
    assert_eq!(r.passed + r.failed, 4, "every line checked");
    assert!(!r.found.iter().any(|f| f.rule == "internal"), "{:?}", r.found);
}
