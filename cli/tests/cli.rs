//! The command's surface: flags, exit codes, output formats, standard input, `--type`,
//! `--ext apps`, and lines that must not be split.

use crate::common;

use common::{check_json, data, run, Cases, Found, TempFile};
use serde_json::{json, Value};

fn path(rel: &str) -> String {
    data(rel).to_str().unwrap().to_string()
}

fn err(line: u64, pointer: &str, rule: &str) -> Found {
    Found { line, pointer: pointer.into(), rule: rule.into(), severity: "error".into() }
}

fn warn(line: u64, pointer: &str, rule: &str) -> Found {
    Found { line, pointer: pointer.into(), rule: rule.into(), severity: "warning".into() }
}

fn jsonl(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        out.extend(serde_json::to_vec(v).unwrap());
        out.push(b'\n');
    }
    out
}

#[test]
fn exit_codes() {
    let clean = TempFile::new(
        "clean.jsonl",
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    );
    let session = path("sessions/2025-11-25.jsonl");
    let tool = path("documents/tool.json");
    let cases: &[(&str, &[&str], i32)] = &[
        ("clean file", &["check", clean.path()], 0),
        ("failing file", &["check", &session], 1),
        ("clean and failing", &["check", clean.path(), &session], 1),
        ("--type document", &["check", "--type", "Tool", &tool], 0),
        ("missing file", &["check", "/nonexistent/mcp-schema-test.jsonl"], 2),
        ("missing and failing", &["check", &session, "/nonexistent/x.json"], 2),
        ("bad flag", &["check", "--frobnicate", clean.path()], 2),
        ("no file", &["check"], 2),
        ("no command", &[], 2),
        ("unknown command", &["lint", clean.path()], 2),
        ("unknown --protocol", &["check", "--protocol", "2023-01-01", clean.path()], 2),
        ("--protocol without value", &["check", clean.path(), "--protocol"], 2),
        ("unknown --ext", &["check", "--ext", "widgets", clean.path()], 2),
        ("unknown --type", &["check", "--type", "NoSuchType", clean.path()], 2),
        ("--type of another version", &["check", "--protocol", "2024-11-05", "--type", "ResourceLink", clean.path()], 2),
        ("--type of an extension without --ext", &["check", "--type", "McpUiResourceMeta", clean.path()], 2),
        ("--help", &["--help"], 0),
        ("check --help", &["check", "--help"], 0),
    ];
    let mut c = Cases::default();
    for (name, args, want) in cases {
        c.check(name, || {
            let r = run(args, None);
            if r.code != *want {
                return Err(format!("exit {}, expected {want}; stderr: {}", r.code, r.stderr));
            }
            if *want == 2 && !args.contains(&"--help") && r.stderr.is_empty() {
                return Err("a usage or I/O error says why on stderr".into());
            }
            Ok(())
        });
    }
    c.finish();
}

#[test]
fn text_output_format() {
    let file = TempFile::new(
        "t.jsonl",
        &jsonl(&[
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
            json!([1]),
            json!({"jsonrpc": "2.0", "id": 99, "result": {}}),
        ]),
    );
    let r = run(&["check", "--protocol", "2025-11-25", file.path()], None);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let f = file.path();
    assert!(lines.contains(&format!("{f}:1: /params: error [required]: CallToolRequestParams requires `name`").as_str()), "{}", r.stdout);
    // The root pointer is printed as `/`.
    assert!(lines.iter().any(|l| l.starts_with(&format!("{f}:3: /: error [jsonrpc.batch]: "))), "{}", r.stdout);
    assert!(lines.iter().any(|l| l.starts_with(&format!("{f}:4: /id: warning [stream.response-unmatched]: "))), "{}", r.stdout);
    assert!(!lines.iter().any(|l| l.starts_with(&format!("{f}:2:"))), "a passing line prints nothing");
    assert_eq!(lines.last(), Some(&"2 passed, 2 failed"));
    for l in &lines[..lines.len() - 1] {
        let rest = l.strip_prefix(&format!("{f}:")).unwrap();
        let (n, rest) = rest.split_once(": ").unwrap();
        assert!(n.parse::<u64>().is_ok(), "{l}");
        let (pointer, rest) = rest.split_once(": ").unwrap();
        assert!(pointer.starts_with('/'), "{l}");
        assert!(rest.starts_with("error [") || rest.starts_with("warning ["), "{l}");
    }
}

#[test]
fn json_output_parses() {
    let session = path("sessions/2024-11-05.jsonl");
    let r = run(&["check", "--json", "--roundtrip", &session], None);
    assert_eq!(r.code, 1);
    let docs: Vec<Value> = r.stdout.lines().map(|l| serde_json::from_str(l).expect("every line is JSON")).collect();
    let last = docs.last().unwrap();
    assert_eq!(last["passed"], 34);
    assert_eq!(last["failed"], 2);
    for d in &docs[..docs.len() - 1] {
        assert_eq!(d["file"], session.as_str());
        assert!(d["line"].is_u64());
        assert_eq!(d["ok"], false);
        assert_eq!(d["protocol"], "2024-11-05");
        assert!(d["type"].is_string());
        for v in d["violations"].as_array().unwrap() {
            for k in ["pointer", "rule", "severity", "message"] {
                assert!(v[k].is_string(), "{v}");
            }
        }
    }
    assert_eq!(docs[0]["type"], "CallToolResult");
}

#[test]
fn standard_input() {
    let input = std::fs::read(data("sessions/2025-06-18.jsonl")).unwrap();
    let r = run(&["check", "-"], Some(&input));
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("<stdin>:35: /msg/params: error [required]"), "{}", r.stdout);
    assert_eq!(r.stdout.lines().last(), Some("35 passed, 1 failed"));

    let r = run(&["check", "--type", "Tool", "-"], Some(b"{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}\n\n  \n"));
    assert_eq!((r.code, r.stdout.as_str()), (0, "1 passed, 0 failed\n"), "blank lines are not values");

    let r = run(&["check", "-"], Some(b""));
    assert_eq!((r.code, r.stdout.as_str()), (0, "0 passed, 0 failed\n"));
}

#[test]
fn u2028_does_not_split_lines() {
    // U+2028 and U+2029 inside strings, raw (as JSON.stringify writes them), and a CRLF ending.
    let line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"m\":\"a\u{2028}b\u{2029}c\u{85}d\"}}}\r\n";
    let file = TempFile::new("u2028.jsonl", line.as_bytes());
    let (code, r) = check_json(&["--protocol", "2025-11-25", file.path()], None);
    assert_eq!((code, r.passed, r.failed), (0, 1, 0), "{:?}", r.found);
    // The recorded echo call carries one too.
    let session = std::fs::read_to_string(data("sessions/2025-11-25.jsonl")).unwrap();
    assert!(session.contains('\u{2028}'));
}

#[test]
fn type_documents() {
    let mut c = Cases::default();
    c.check("a multi-line .json document", || {
        let (code, r) = check_json(&["--type", "Tool", "--roundtrip", &path("documents/tool.json")], None);
        (code == 0 && r.passed == 1).then_some(()).ok_or(format!("exit {code} {:?}", r.found))
    });
    c.check("a bad .json document", || {
        let (code, r) = check_json(&["--type", "Tool", &path("documents/tool-bad.json")], None);
        let want = [err(1, "/icons/0/src", "icon.scheme"), err(1, "/annotations/readOnlyHint", "type")];
        (code == 1 && want.iter().all(|w| r.found.contains(w))).then_some(()).ok_or(format!("exit {code} {:?}", r.found))
    });
    c.check("JSONL documents with per-line protocol and type", || {
        let (code, r) = check_json(&["--type", "Tool", &path("documents/tools.jsonl")], None);
        let ok = code == 1 && r.failed_lines == vec![2] && r.passed == 3 && r.found.contains(&err(2, "", "required"));
        ok.then_some(()).ok_or(format!("exit {code} {:?} {:?}", r.failed_lines, r.found))
    });
    c.check("a line's type of no version", || {
        let file = TempFile::new("t.jsonl", &jsonl(&[json!({"msg": {}, "type": "Nope"})]));
        let (code, r) = check_json(&[file.path()], None);
        (code == 1 && r.found.contains(&err(1, "/msg", "type-name"))).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("an empty .json file", || {
        let file = TempFile::new("empty.json", b"  \n");
        let (code, r) = check_json(&["--type", "Tool", file.path()], None);
        (code == 1 && r.found.contains(&err(1, "", "json"))).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("a .json message", || {
        let file = TempFile::new("m.json", b"\n\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 7,\n  \"method\": \"tools/call\",\n  \"params\": {}\n}\n");
        let (code, r) = check_json(&[file.path()], None);
        (code == 1 && r.found.contains(&err(3, "/params", "required"))).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.finish();
}

#[test]
fn apps_extension() {
    let session = std::fs::read(data("apps/session.jsonl")).unwrap();
    let mut c = Cases::default();
    c.check("the apps session is clean with --ext apps", || {
        let (code, r) = check_json(&["--ext", "apps", "--roundtrip", "--strict", &path("apps/session.jsonl")], None);
        (code == 0 && r.found.is_empty()).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("ui/ methods are unknown without --ext apps", || {
        let (code, r) = check_json(&[&path("apps/session.jsonl")], None);
        let ok = code == 1 && r.found.iter().all(|f| f.rule == "unknown-variant") && r.failed == 5;
        ok.then_some(()).ok_or(format!("{:?}", r.found))
    });
    let text = String::from_utf8(session).unwrap();
    let bad_uri = text.replace("\"resourceUri\":\"ui://weather/forecast.html\"", "\"resourceUri\":\"https://weather.example/forecast.html\"");
    assert_ne!(bad_uri, text);
    c.check("--ext apps catches a non-ui:// resourceUri", || {
        let file = TempFile::new("apps.jsonl", bad_uri.as_bytes());
        let (code, r) = check_json(&["--ext", "apps", file.path()], None);
        let want = err(5, "/msg/result/tools/0/_meta/ui/resourceUri", "apps.ui-uri");
        // The session never reads that URI (it reads the ui:// one): the session rule says so too.
        let unread = warn(5, "/msg/result/tools/0/_meta/ui/resourceUri", "session.apps.ui-resource");
        (code == 1 && r.found == vec![want, unread]).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("without --ext apps the resourceUri is not judged", || {
        let file = TempFile::new("apps.jsonl", bad_uri.as_bytes());
        let (_, r) = check_json(&[file.path()], None);
        (!r.found.iter().any(|f| f.rule.starts_with("apps."))).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("a ui resource with the wrong MIME type", || {
        let t = text.replace("\"mimeType\":\"text/html;profile=mcp-app\"", "\"mimeType\":\"text/html\"");
        let file = TempFile::new("apps.jsonl", t.as_bytes());
        let (code, r) = check_json(&["--ext", "apps", file.path()], None);
        let want = err(7, "/msg/result/contents/0/mimeType", "apps.mime-type");
        (code == 1 && r.found == vec![want]).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("an unknown ui/ method", || {
        let t = text.replace("\"ui/open-link\"", "\"ui/open-window\"");
        let file = TempFile::new("apps.jsonl", t.as_bytes());
        let (code, r) = check_json(&["--ext", "apps", file.path()], None);
        (code == 1 && r.found == vec![err(12, "/msg/method", "unknown-variant")]).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.check("a bad ui/initialize result", || {
        let t = text.replace("\"hostContext\":{\"theme\":\"dark\"", "\"hostContext\":{\"theme\":\"sepia\"");
        let file = TempFile::new("apps.jsonl", t.as_bytes());
        let (code, r) = check_json(&["--ext", "apps", file.path()], None);
        (code == 1 && r.found == vec![err(9, "/msg/result/hostContext/theme", "enum")]).then_some(()).ok_or(format!("{:?}", r.found))
    });
    c.finish();
}

/// Messages without `dir`, `--strict`, `--no-validate`, batches, versions carried in the stream.
#[test]
fn stream_rules() {
    let mut c = Cases::default();
    // Each side declares what the other uses (the session rules check it).
    let init = |v: &str| json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": v, "capabilities": {"elicitation": {}}, "clientInfo": {"name": "c", "version": "1"}}});
    let init_result = |v: &str| json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": v, "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}});
    let case = |c: &mut Cases, name: &str, args: &[&str], values: Vec<Value>, want_code: i32, want: Vec<Found>| {
        let file = TempFile::new("s.jsonl", &jsonl(&values));
        let mut all: Vec<&str> = args.to_vec();
        all.push(file.path());
        c.check(name, || {
            let (code, r) = check_json(&all, None);
            (code == want_code && r.found == want).then_some(()).ok_or(format!("exit {code} {:?}", r.found))
        });
    };
    // Bare messages: the side is inferred from the method, responses matched by id.
    let bare = vec![
        init("2025-06-18"),
        init_result("2025-06-18"),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}),
    ];
    case(&mut c, "bare messages, sides inferred", &[], bare.clone(), 0, vec![]);
    let mut wrong = bare.clone();
    wrong[4] = json!({"jsonrpc": "2.0", "id": 1, "result": {"action": "maybe"}});
    case(&mut c, "a result typed by its request", &[], wrong, 1, vec![err(5, "/result/action", "enum")]);
    // The same id in both directions at once.
    let both = vec![
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 5, "method": "tools/list"}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 5, "method": "roots/list"}}),
        json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 5, "result": {"roots": []}}}),
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 5, "result": {"tools": []}}}),
    ];
    case(&mut c, "one id used by both sides", &["--protocol", "2025-11-25", "--strict"], both.clone(), 0, vec![]);
    let mut swapped = both.clone();
    swapped[2]["msg"]["result"] = json!({"tools": []});
    swapped[3]["msg"]["result"] = json!({"roots": []});
    case(&mut c, "responses matched within their direction", &["--protocol", "2025-11-25"], swapped, 1, vec![
        err(3, "/msg/result", "required"),
        err(3, "/msg/result", "deserialize"),
        err(4, "/msg/result", "required"),
        err(4, "/msg/result", "deserialize"),
    ]);
    // Unmatched responses: a warning, an error only with --strict.
    let unmatched = vec![json!({"jsonrpc": "2.0", "id": "x", "result": {}})];
    case(&mut c, "an unmatched response warns", &["--protocol", "2025-11-25"], unmatched.clone(), 0, vec![warn(1, "/id", "stream.response-unmatched")]);
    case(&mut c, "--strict makes the warning fail", &["--protocol", "2025-11-25", "--strict"], unmatched, 1, vec![err(1, "/id", "stream.response-unmatched")]);
    // A reserved _meta key is a validator warning.
    let meta = vec![json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": {"io.modelcontextprotocol/nonsense": 1}}})];
    case(&mut c, "a validator warning", &["--protocol", "2025-11-25"], meta.clone(), 0, vec![warn(1, "/params/_meta/io.modelcontextprotocol~1nonsense", "meta.reserved-key")]);
    case(&mut c, "a validator warning under --strict", &["--protocol", "2025-11-25", "--strict"], meta, 1, vec![err(1, "/params/_meta/io.modelcontextprotocol~1nonsense", "meta.reserved-key")]);
    // --no-validate: only typed reading.
    let typed = vec![json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {"io.modelcontextprotocol/nonsense": 1}}})];
    case(&mut c, "--no-validate skips the rules", &["--no-validate", "--protocol", "2025-11-25"], typed, 0, vec![]);
    let missing = vec![json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}})];
    case(&mut c, "--no-validate still reads typed", &["--no-validate"], missing, 1, vec![err(1, "", "deserialize")]);
    // Batches exist in 2025-03-26 only.
    let batch = vec![
        init("2025-03-26"),
        init_result("2025-03-26"),
        json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}}]),
        json!([{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "no name"}}]),
    ];
    case(&mut c, "a batch in 2025-03-26", &[], batch.clone(), 1, vec![err(3, "/1/params", "required"), err(3, "/1", "deserialize")]);
    let mut later = batch;
    later[0] = init("2025-06-18");
    later[1] = init_result("2025-06-18");
    case(&mut c, "no batches after 2025-03-26", &[], later, 1, vec![err(3, "", "jsonrpc.batch"), err(4, "", "jsonrpc.batch")]);
    // 2026-07-28 carries the version in _meta; an unknown one there is a warning (the receiver answers it).
    let meta_version = |v: &str| json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": v, "io.modelcontextprotocol/clientCapabilities": {}}}});
    case(&mut c, "a _meta protocol version", &[], vec![meta_version("2026-07-28")], 0, vec![]);
    case(&mut c, "an unknown _meta protocol version", &[], vec![meta_version("2030-01-01")], 0, vec![warn(1, "/params/_meta/io.modelcontextprotocol~1protocolVersion", "protocol")]);
    // A server answering with a version this checker does not know.
    case(&mut c, "an unknown negotiated version", &[], vec![init("2025-06-18"), init_result("2031-01-01")], 1, vec![err(2, "/result/protocolVersion", "protocol")]);
    // An unknown proposal is only a warning: the server picks the version.
    case(&mut c, "an unknown proposed version", &[], vec![init("2031-01-01"), init_result("2025-11-25")], 0, vec![warn(1, "/params/protocolVersion", "protocol")]);
    // Servers send no requests in 2026-07-28.
    let s2c = vec![json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "method": "roots/list"}})];
    case(&mut c, "a server request in 2026-07-28", &[], s2c, 1, vec![err(1, "/msg/method", "direction")]);
    // A reused id is an error (MUST NOT); a cancelled request is forgotten.
    let reuse = vec![
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/list"}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
        json!({"jsonrpc": "2.0", "id": 3, "result": {"prompts": []}}),
    ];
    case(&mut c, "a reused id, then cancelled", &["--protocol", "2025-11-25"], reuse, 1, vec![err(2, "/id", "stream.id-reused"), warn(4, "/id", "stream.response-unmatched")]);
    // Not a message at all.
    case(&mut c, "not a message", &[], vec![json!("hello"), json!({"jsonrpc": "2.0"})], 1, vec![err(1, "", "type"), err(2, "", "jsonrpc.message"), err(2, "", "no-variant"), err(2, "", "deserialize")]);
    case(&mut c, "a wrapper with a bad type field", &[], vec![json!({"msg": {}, "type": 3})], 1, vec![err(1, "/type", "line.type")]);
    c.finish();
}

#[test]
fn several_files_and_long_streams() {
    // Each file is its own stream: the negotiated version does not leak into the next file.
    let a = TempFile::new("a.jsonl", &jsonl(&[json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})]));
    let b = TempFile::new("b.jsonl", &jsonl(&[json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}})]));
    let r = run(&["check", "--json", a.path(), b.path()], None);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.stdout.lines().last().unwrap(), r#"{"failed":0,"passed":2,"warned":0}"#);

    // Many unanswered requests: memory stays bounded, later responses still match.
    let mut values = Vec::new();
    for i in 0..20_000 {
        values.push(json!({"jsonrpc": "2.0", "id": i, "method": "ping"}));
    }
    values.push(json!({"jsonrpc": "2.0", "id": 19_999, "result": {}}));
    values.push(json!({"jsonrpc": "2.0", "id": 0, "result": {}}));
    let file = TempFile::new("many.jsonl", &jsonl(&values));
    let (code, r) = check_json(&["--protocol", "2025-11-25", file.path()], None);
    assert_eq!(code, 0);
    assert_eq!(r.found, vec![warn(20_002, "/id", "stream.response-unmatched")], "the oldest request was forgotten, the newest matched");
}

/// An error whose code the version types on its own is checked as that type: 2026-07-28's
/// `-32021` (`MissingRequiredClientCapabilityError`) and `-32022` require `data`, 2025-11-25's
/// `-32042` (`URLElicitationRequiredError`) too; other codes, and versions without the type, are any error.
#[test]
fn coded_errors_are_checked_as_their_type() {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}});
    let call = json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask", "arguments": {}, "_meta": meta}}});
    let answer = |error: Value| vec![call.clone(), json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "error": error}})];
    let found = |lines: Vec<Value>, args: &[&str]| {
        let file = TempFile::new("e.jsonl", &jsonl(&lines));
        let mut all = args.to_vec();
        all.push(file.path());
        let (code, r) = check_json(&all, None);
        // The typed reading fails with the validator (`deserialize` on the message): the validator's finding says what.
        (code, r.found.into_iter().filter(|f| f.rule != "deserialize").map(|f| (f.line, f.pointer, f.rule)).collect::<Vec<_>>())
    };
    let caps = json!({"requiredCapabilities": {"elicitation": {}}});
    assert_eq!(found(answer(json!({"code": -32021, "message": "needs elicitation", "data": caps})), &[]), (0, vec![]));
    let (code, got) = found(answer(json!({"code": -32021, "message": "needs elicitation"})), &[]);
    assert_eq!((code, got), (1, vec![(2, "/msg/error".to_string(), "required".to_string())]));
    let (code, got) = found(answer(json!({"code": -32021, "message": "needs elicitation", "data": {}})), &[]);
    assert_eq!((code, got), (1, vec![(2, "/msg/error/data".to_string(), "required".to_string())]));
    let (code, got) = found(answer(json!({"code": -32022, "message": "unsupported", "data": {"requested": "1999-01-01"}})), &[]);
    assert_eq!((code, got), (1, vec![(2, "/msg/error/data".to_string(), "required".to_string())]));
    // Any other code needs no `data`.
    assert_eq!(found(answer(json!({"code": -32603, "message": "oops"})), &[]), (0, vec![]));
    // 2025-11-25: `-32042` carries the elicitations; -32021 is no code of its own there.
    let old = |error: Value| vec![json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}), json!({"jsonrpc": "2.0", "id": 1, "error": error})];
    let (code, got) = found(old(json!({"code": -32042, "message": "open a page"})), &["--protocol", "2025-11-25"]);
    assert_eq!((code, got), (1, vec![(2, "/error".to_string(), "required".to_string())]));
    assert_eq!(found(old(json!({"code": -32021, "message": "x"})), &["--protocol", "2025-11-25"]), (0, vec![]));
}
