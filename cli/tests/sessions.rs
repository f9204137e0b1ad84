//! The recorded server-everything sessions (tests/data/sessions/) check clean except what is
//! known to be wrong in them; corrupted copies fail exactly at the corrupted line and pointer
//! while every other line still passes.

use crate::common;

use common::{check_json, data, Cases, Found, TempFile};
use serde_json::Value;

const VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

fn session(version: &str) -> Vec<u8> {
    std::fs::read(data(&format!("sessions/{version}.jsonl"))).unwrap()
}

fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if v.last().is_some_and(Vec::is_empty) {
        v.pop();
    }
    v
}

fn join(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = lines.join(&b'\n');
    out.push(b'\n');
    out
}

fn msg(line: &[u8]) -> Value {
    let v: Value = serde_json::from_slice(line).unwrap();
    v["msg"].clone()
}

/// The 1-based line of the first message matching `pred`.
fn find(lines: &[Vec<u8>], pred: impl Fn(&Value) -> bool) -> usize {
    lines.iter().position(|l| pred(&msg(l))).expect("the session has such a message") + 1
}

fn id_of_call(lines: &[Vec<u8>], tool: &str) -> Value {
    let l = find(lines, |m| m["method"] == "tools/call" && m["params"]["name"] == tool);
    msg(&lines[l - 1])["id"].clone()
}

/// The response line to the request with `id`.
fn response_to(lines: &[Vec<u8>], id: &Value) -> usize {
    find(lines, |m| m.get("method").is_none() && &m["id"] == id)
}

/// What each session is expected to report: (line, pointer, rule), all errors.
fn expected(version: &str, lines: &[Vec<u8>]) -> Vec<(usize, String, String)> {
    let invalid = find(lines, |m| m["method"] == "tools/call" && m["params"].get("name").is_none());
    let mut e = vec![(invalid, "/msg/params".to_string(), "required".to_string()), (invalid, "/msg".to_string(), "deserialize".to_string())];
    if version == "2024-11-05" || version == "2025-03-26" {
        // The server sends `resource_link` blocks, which these versions do not define.
        let links = response_to(lines, &id_of_call(lines, "get-resource-links"));
        for i in [1, 2] {
            e.push((links, format!("/msg/result/content/{i}/type"), "unknown-variant".to_string()));
        }
    }
    e.sort();
    e
}

fn errors(found: &[Found]) -> Vec<(usize, String, String)> {
    let mut v: Vec<_> = found.iter().filter(|f| f.severity == "error").map(|f| (f.line as usize, f.pointer.clone(), f.rule.clone())).collect();
    v.sort();
    v
}

#[test]
fn sessions_check_clean_except_known_problems() {
    let mut cases = Cases::default();
    for version in VERSIONS {
        let path = data(&format!("sessions/{version}.jsonl"));
        let path = path.to_str().unwrap();
        let ls = lines(&session(version));
        let want = expected(version, &ls);
        for flags in [&[][..], &["--roundtrip"], &["--strict", "--roundtrip"], &["--protocol", "auto"]] {
            cases.check(&format!("{version} {flags:?}"), || {
                let mut args = flags.to_vec();
                args.push(path);
                let (code, r) = check_json(&args, None);
                if code != 1 {
                    return Err(format!("exit {code}, expected 1"));
                }
                let got = errors(&r.found);
                if got != want {
                    return Err(format!("errors {got:?}, expected {want:?}"));
                }
                if r.found.iter().any(|f| f.severity != "error") {
                    return Err(format!("unexpected warnings: {:?}", r.found));
                }
                let failing: std::collections::BTreeSet<usize> = want.iter().map(|w| w.0).collect();
                if r.failed as usize != failing.len() || (r.passed + r.failed) as usize != ls.len() {
                    return Err(format!("{} passed, {} failed of {} lines", r.passed, r.failed, ls.len()));
                }
                Ok(())
            });
        }
    }
    cases.finish();
}

/// The negotiated version decides: the 2026-07-28 capture is checked as 2025-11-25, the version
/// the server answered with; pinning 2026-07-28 makes its `initialize` an unknown method.
#[test]
fn negotiation_decides_the_version() {
    let path = data("sessions/2026-07-28.jsonl");
    let path = path.to_str().unwrap();
    let r = common::run(&["check", "--json", path], None);
    let protocols: std::collections::BTreeSet<String> = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("protocol").and_then(Value::as_str).map(str::to_string))
        .collect();
    assert_eq!(protocols.into_iter().collect::<Vec<_>>(), vec!["2025-11-25"]);

    let (code, r) = check_json(&["--protocol", "2026-07-28", path], None);
    assert_eq!(code, 1);
    assert!(r.found.contains(&Found { line: 1, pointer: "/msg/method".into(), rule: "unknown-variant".into(), severity: "error".into() }), "{:?}", r.found);

    // 2024-11-05 pinned on a 2025-11-25 session: nothing 2025-only is in it, so it still checks.
    let p = data("sessions/2025-06-18.jsonl");
    let (_, r) = check_json(&["--protocol", "2024-11-05", p.to_str().unwrap()], None);
    assert!(r.found.iter().any(|f| f.rule == "unknown-variant"), "resource_link is unknown in 2024-11-05");
}

/// The corrupted line (1-based) and the expected (pointer, rule) there.
type Expect = (usize, &'static str, &'static str);

struct Corruption {
    name: &'static str,
    version: &'static str,
    /// Changes the session's lines.
    apply: fn(&mut Vec<Vec<u8>>) -> Expect,
}

fn set_msg(lines: &mut [Vec<u8>], line: usize, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&lines[line - 1]).unwrap();
    f(&mut v["msg"]);
    lines[line - 1] = serde_json::to_vec(&v).unwrap();
}

fn replace_bytes(line: &mut Vec<u8>, from: &str, to: &[u8]) {
    let at = line.windows(from.len()).position(|w| w == from.as_bytes()).unwrap_or_else(|| panic!("`{from}` in the line"));
    line.splice(at..at + from.len(), to.iter().copied());
}

const CORRUPTIONS: &[Corruption] = &[
    Corruption {
        name: "a field of the wrong type",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "tools/call" && m["params"]["name"] == "echo");
            set_msg(ls, l, |m| m["params"]["name"] = 42.into());
            (l, "/msg/params/name", "type")
        },
    },
    Corruption {
        name: "a required field dropped",
        version: "2025-11-25",
        apply: |ls| {
            let id = msg(&ls[find(ls, |m| m["method"] == "tools/list") - 1])["id"].clone();
            let l = response_to(ls, &id);
            set_msg(ls, l, |m| {
                m["result"]["tools"][0].as_object_mut().unwrap().remove("inputSchema");
            });
            (l, "/msg/result/tools/0", "required")
        },
    },
    Corruption {
        name: "a required field dropped in 2024-11-05",
        version: "2024-11-05",
        apply: |ls| {
            let l = find(ls, |m| m["result"]["serverInfo"].is_object());
            set_msg(ls, l, |m| {
                m["result"].as_object_mut().unwrap().remove("capabilities");
            });
            (l, "/msg/result", "required")
        },
    },
    Corruption {
        name: "broken JSON (a truncated line)",
        version: "2025-11-25",
        apply: |ls| {
            let id = msg(&ls[find(ls, |m| m["method"] == "prompts/get") - 1])["id"].clone();
            let l = response_to(ls, &id);
            let half = ls[l - 1].len() / 2;
            ls[l - 1].truncate(half);
            (l, "", "json")
        },
    },
    Corruption {
        name: "invalid UTF-8",
        version: "2025-11-25",
        apply: |ls| {
            let l = response_to(ls, &id_of_call(ls, "echo"));
            replace_bytes(&mut ls[l - 1], "Echo:", b"Ech\xff\xfe:");
            (l, "", "utf8")
        },
    },
    Corruption {
        name: "100,000-deep nesting",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "ping");
            let mut line = b"{\"dir\":\"c2s\",\"msg\":".to_vec();
            line.extend(std::iter::repeat_n(b'[', 100_000));
            line.extend(std::iter::repeat_n(b']', 100_000));
            line.push(b'}');
            ls[l - 1] = line;
            (l, "", "json")
        },
    },
    Corruption {
        name: "1e400",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "tools/call" && m["params"]["name"] == "get-sum");
            replace_bytes(&mut ls[l - 1], "3.5", b"1e400");
            (l, "", "json")
        },
    },
    Corruption {
        name: "a method 2024-11-05 does not define",
        version: "2024-11-05",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "ping");
            set_msg(ls, l, |m| m["method"] = "tasks/list".into());
            (l, "/msg/method", "unknown-variant")
        },
    },
    Corruption {
        name: "a client sending a server's request",
        version: "2025-06-18",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "ping");
            set_msg(ls, l, |m| {
                m["method"] = "roots/list".into();
            });
            (l, "/msg/method", "unknown-variant")
        },
    },
    Corruption {
        name: "a wrong jsonrpc version",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "resources/list");
            set_msg(ls, l, |m| m["jsonrpc"] = "1.0".into());
            (l, "/msg/jsonrpc", "jsonrpc.version")
        },
    },
    Corruption {
        name: "an enum value out of range",
        version: "2025-06-18",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "logging/setLevel");
            set_msg(ls, l, |m| m["params"]["level"] = "loud".into());
            (l, "/msg/params/level", "enum")
        },
    },
    Corruption {
        name: "an error without a code",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["error"].is_object());
            set_msg(ls, l, |m| {
                m["error"].as_object_mut().unwrap().remove("code");
            });
            (l, "/msg/error", "jsonrpc.error")
        },
    },
    Corruption {
        name: "a null id",
        version: "2025-03-26",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "prompts/list");
            set_msg(ls, l, |m| m["id"] = Value::Null);
            (l, "/msg/id", "jsonrpc.id")
        },
    },
    Corruption {
        name: "an unknown protocol on a line",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "resources/templates/list");
            let mut v: Value = serde_json::from_slice(&ls[l - 1]).unwrap();
            v["protocol"] = "1999-01-01".into();
            ls[l - 1] = serde_json::to_vec(&v).unwrap();
            (l, "/protocol", "protocol")
        },
    },
    Corruption {
        name: "an unknown direction on a line",
        version: "2025-11-25",
        apply: |ls| {
            let l = find(ls, |m| m["method"] == "completion/complete");
            let mut v: Value = serde_json::from_slice(&ls[l - 1]).unwrap();
            v["dir"] = "sideways".into();
            ls[l - 1] = serde_json::to_vec(&v).unwrap();
            (l, "/dir", "line.dir")
        },
    },
    Corruption {
        name: "a result of the wrong shape for its request",
        version: "2025-11-25",
        apply: |ls| {
            let id = msg(&ls[find(ls, |m| m["method"] == "resources/read") - 1])["id"].clone();
            let l = response_to(ls, &id);
            set_msg(ls, l, |m| m["result"] = serde_json::json!({"contents": [{"text": "no uri"}]}));
            // `text` decides the text member, as when read; it lacks `uri`.
            (l, "/msg/result/contents/0", "required")
        },
    },
];

#[test]
fn corrupted_sessions_fail_at_the_corrupted_line_only() {
    let mut cases = Cases::default();
    for c in CORRUPTIONS {
        cases.check(c.name, || {
            let original = lines(&session(c.version));
            let baseline: Vec<usize> = {
                let mut v: Vec<usize> = expected(c.version, &original).iter().map(|e| e.0).collect();
                v.dedup();
                v
            };
            let mut ls = original.clone();
            let (line, pointer, rule) = (c.apply)(&mut ls);
            let file = TempFile::new("corrupted.jsonl", &join(&ls));
            let (code, r) = check_json(&[file.path()], None);
            if code != 1 {
                return Err(format!("exit {code}"));
            }
            let hit = r.found.iter().any(|f| f.line as usize == line && f.pointer == pointer && f.rule == rule && f.severity == "error");
            if !hit {
                let at: Vec<_> = r.found.iter().filter(|f| f.line as usize == line).collect();
                return Err(format!("no error [{rule}] at {line}:{pointer}; found there: {at:?}"));
            }
            let mut want: Vec<u64> = baseline.iter().map(|&l| l as u64).collect();
            want.push(line as u64);
            want.sort();
            want.dedup();
            if r.failed_lines != want {
                return Err(format!("failing lines {:?}, expected {want:?}", r.failed_lines));
            }
            if (r.passed + r.failed) as usize != ls.len() {
                return Err(format!("{} + {} values, expected {}", r.passed, r.failed, ls.len()));
            }
            Ok(())
        });
    }
    cases.finish();
}
