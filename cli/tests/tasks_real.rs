//! The Tasks extension between real peers: `fastmcp-tasks` 4.1.4 (the one server implementation,
//! in-memory backend) and the FastMCP client (fastmcp-slim 4.1.4 on `mcp` 2.3.0), pinned in
//! cli/tests/tasks_real/requirements.txt, recorded through `mcp-schema proxy --record` over stdio by
//! cli/tests/tasks_real/client.py: a task that completes, one that needs input (`tasks/update`), one
//! cancelled, one failed by a JSON-RPC error, one whose tool reports `isError`; a scripted 2026-07-28
//! client without the extension, and task ids the server never issued. And the extension's TypeScript client,
//! `@modelcontextprotocol/ext-tasks` 0.2.2 on the TypeScript SDK v2 client (2.4.0), pinned in
//! cli/tests/tasks_real/package.json, with the same server (cli/tests/tasks_real/ts-client.mjs: a task that
//! completes, one that needs input).
//!
//! The recordings kept in cli/tests/data/tasks/ check clean with `--ext tasks --roundtrip --strict`,
//! and a copy with one change each is reported by the rule the change breaks. The peers are recorded
//! again when python3 (with venv) and npm are there: skipped with a message without them, a failure under `CI=true`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{check_json, BIN};
use serde_json::{json, Value};

const SESSIONS: [&str; 8] = ["completed", "input", "cancelled", "failed", "is-error", "undeclared", "unknown-ids", "ts-client"];

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/tasks/{name}.jsonl"))
}

fn lines(name: &str) -> Vec<Value> {
    std::fs::read_to_string(data(name)).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn jsonl(lines: &[Value]) -> Vec<u8> {
    lines.iter().flat_map(|l| serde_json::to_vec(l).unwrap().into_iter().chain([b'\n'])).collect()
}

const CLEAN: &[&str] = &["--ext", "tasks", "--roundtrip", "--strict"];

#[test]
fn the_recorded_sessions_check_clean() {
    for name in SESSIONS {
        let path = data(name);
        let mut args = CLEAN.to_vec();
        args.push(path.to_str().unwrap());
        let (code, r) = check_json(&args, None);
        println!("{name}: {} messages, {} findings", r.passed + r.failed, r.found.len());
        assert_eq!((code, r.found.len()), (0, 0), "{name}: {:?}", r.found);
    }
}

/// One change to a recorded session, and the finding it must give: (rule, line).
struct Alteration {
    session: &'static str,
    what: &'static str,
    change: fn(&mut Vec<Value>),
    expect: (&'static str, u64),
}

fn msg(lines: &mut [Value], line: usize) -> &mut Value {
    &mut lines[line - 1]["msg"]
}

const ALTERATIONS: &[Alteration] = &[
    Alteration {
        session: "completed",
        what: "the tools/call no longer declares the extension",
        change: |l| {
            msg(l, 3)["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = json!({});
        },
        expect: ("session.tasks.undeclared", 4),
    },
    Alteration {
        session: "completed",
        what: "the task handle loses `createdAt`",
        change: |l| {
            msg(l, 4)["result"].as_object_mut().unwrap().remove("createdAt");
        },
        expect: ("required", 4),
    },
    Alteration {
        session: "completed",
        what: "a poll after completion says `working`",
        change: |l| {
            let done = l[13].clone();
            let (mut get, mut answer) = (l[12].clone(), done);
            get["msg"]["id"] = json!(70);
            answer["msg"]["id"] = json!(70);
            answer["msg"]["result"]["status"] = json!("working");
            answer["msg"]["result"].as_object_mut().unwrap().remove("result");
            l.insert(14, answer);
            l.insert(14, get);
        },
        expect: ("session.tasks.status-transition", 16),
    },
    Alteration {
        session: "input",
        what: "tasks/update answers a key the task never asked for",
        change: |l| {
            let responses = msg(l, 7)["params"]["inputResponses"].as_object_mut().unwrap();
            let (_, v) = responses.iter().next().map(|(k, v)| (k.clone(), v.clone())).unwrap();
            responses.clear();
            responses.insert("made-up".into(), v);
        },
        expect: ("session.tasks.update-key", 7),
    },
    Alteration {
        session: "input",
        what: "the completed task's result is not a CallToolResult",
        change: |l| {
            msg(l, 10)["result"]["result"]["content"] = json!("Hello");
        },
        expect: ("session.tasks.completed-result", 10),
    },
    Alteration {
        session: "cancelled",
        what: "the client cancels the task with notifications/cancelled",
        change: |l| {
            l[4] = json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}});
            l.remove(5);
        },
        expect: ("session.tasks.cancel-notification", 5),
    },
    Alteration {
        session: "cancelled",
        what: "the cancelled task comes back to life",
        change: |l| {
            let mut again = l[7].clone();
            again["msg"]["result"]["status"] = json!("working");
            let mut get = l[6].clone();
            get["msg"]["id"] = json!(9);
            again["msg"]["id"] = json!(9);
            l.push(get);
            l.push(again);
        },
        expect: ("session.tasks.status-transition", 10),
    },
    Alteration {
        session: "failed",
        what: "the failed task has no `error`",
        change: |l| {
            msg(l, 6)["result"].as_object_mut().unwrap().remove("error");
        },
        expect: ("required", 6),
    },
    Alteration {
        session: "is-error",
        what: "a negative `ttlMs`",
        change: |l| {
            msg(l, 6)["result"]["ttlMs"] = json!(-1);
        },
        expect: ("tasks.duration", 6),
    },
    Alteration {
        session: "undeclared",
        what: "tasks/get without the extension answered as not found",
        change: |l| {
            msg(l, 4)["error"]["code"] = json!(-32602);
        },
        expect: ("session.tasks.undeclared-request", 4),
    },
    Alteration {
        session: "ts-client",
        what: "the task handle says it is a complete result",
        change: |l| {
            msg(l, 6)["result"]["resultType"] = json!("complete");
        },
        expect: ("required", 6),
    },
    Alteration {
        session: "unknown-ids",
        what: "tasks/get of an unknown task answered with an internal error",
        change: |l| {
            msg(l, 2)["error"]["code"] = json!(-32603);
        },
        expect: ("session.tasks.unknown-id", 2),
    },
];

#[test]
fn altered_copies_are_reported() {
    for a in ALTERATIONS {
        let mut l = lines(a.session);
        (a.change)(&mut l);
        let (code, r) = check_json(&["--ext", "tasks", "--roundtrip", "-"], Some(&jsonl(&l)));
        let found: Vec<(&str, u64)> = r.found.iter().map(|f| (f.rule.as_str(), f.line)).collect();
        println!("{} / {}: {found:?}", a.session, a.what);
        assert_eq!(code, 1, "{} / {}: not reported", a.session, a.what);
        assert!(found.contains(&a.expect), "{} / {}: expected {:?}, found {found:?}", a.session, a.what, a.expect);
    }
}

/// Runs a command; its output, or why it failed.
fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({}):\n{}", out.status, common::output_text(&out)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_pinned_peers_record_clean_sessions_again() {
    if run(Command::new("python3").args(["-c", "import venv, ensurepip"])).is_err() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "python3 with venv is missing: CI must have it for this test");
        eprintln!("skipped: python3 with venv is not installed, so fastmcp-tasks and the FastMCP client cannot be installed");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tasks_real");
    let requirements = dir.join("requirements.txt");
    let pin = std::fs::read(&requirements).unwrap();
    let hash = pin.iter().fold(0xcbf29ce484222325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100000001b3));
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tasks-peers-{hash:016x}"));
    let python = venv.join("bin/python");
    if !venv.join(".installed").exists() {
        let _ = std::fs::remove_dir_all(&venv);
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv)).unwrap();
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-r"]).arg(&requirements)).unwrap();
        std::fs::write(venv.join(".installed"), "").unwrap();
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tasks-sessions");
    let _ = std::fs::remove_dir_all(&out);
    run(Command::new(&python).arg(dir.join("client.py")).arg(BIN).arg(&out)).unwrap();
    let mut sessions = SESSIONS.to_vec();
    if common::npm_found() {
        let node = common::npm_install(&dir);
        let record = out.join("ts-client.jsonl");
        let server = [python.clone(), dir.join("server.py")];
        let steps = run(Command::new(node).arg(dir.join("ts-client.mjs")).args([BIN, "proxy", "--record", record.to_str().unwrap(), "--"]).args(server)).unwrap();
        assert_eq!(steps, "add: {\"result\":5}\ngreet: Hello, Ada!\n");
    } else {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "npm is missing: CI must have it for this test");
        eprintln!("skipped: npm is not installed, so the extension's TypeScript client is not run");
        sessions.retain(|s| *s != "ts-client");
    }
    for name in sessions {
        let path = out.join(format!("{name}.jsonl"));
        let mut args = CLEAN.to_vec();
        args.push(path.to_str().unwrap());
        let (code, r) = check_json(&args, None);
        println!("{name} (recorded now): {} messages, {} findings", r.passed + r.failed, r.found.len());
        assert_eq!((code, r.found.len()), (0, 0), "{name}: {:?}", r.found);
    }
}
