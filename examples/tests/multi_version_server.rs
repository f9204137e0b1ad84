//! `multi_version_server` (written against 2025-11-25 alone) answers the client side of the recorded
//! sessions of every handshake version, and a scripted 2026-07-28 client; `mcp-schema check
//! --roundtrip --protocol VERSION` finds every answer valid for the client's version.

#![forbid(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mcp_spec_types_cli::args::{CheckArgs, Protocol};
use mcp_spec_types_cli::versions::version_index;
use serde_json::{json, Value};

const SERVER: &str = env!("CARGO_BIN_EXE_multi_version_server");

fn sessions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/data/sessions")
}

/// Feeds `messages` to the server; gives the session it recorded (`--record`).
fn serve(name: &str, messages: &[Value]) -> PathBuf {
    let record = std::env::temp_dir().join(format!("multi-version-{}-{name}.jsonl", std::process::id()));
    let mut child = Command::new(SERVER)
        .args(["--record", record.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let input: String = messages.iter().map(|m| format!("{m}\n")).collect();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "the server exits cleanly");
    record
}

/// `mcp-schema check --roundtrip --json --protocol VERSION FILE`, in process: the failing lines
/// with what was found, and the number of values checked.
fn check(version: &str, file: &Path) -> (Vec<(u64, Value)>, u64) {
    let args = CheckArgs {
        protocol: Protocol::Fixed(version_index(version).unwrap()),
        roundtrip: true,
        json: true,
        files: vec![file.to_str().unwrap().to_string()],
        ..CheckArgs::default()
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = mcp_spec_types_cli::check_files(&args, &mut out, &mut err);
    assert!(code == 0 || code == 1, "{}", String::from_utf8_lossy(&err));
    let mut failed = Vec::new();
    let mut total = 0;
    for line in String::from_utf8(out).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if let Some(passed) = v.get("passed") {
            total = passed.as_u64().unwrap() + v["failed"].as_u64().unwrap();
        } else if v["ok"] == false {
            failed.push((v["line"].as_u64().unwrap(), v["violations"].clone()));
        }
    }
    (failed, total)
}

fn lines(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn answers_recorded_clients_of_every_handshake_version() {
    let mut failures = Vec::new();
    let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
    for version in versions {
        let recorded = lines(&sessions_dir().join(format!("{version}.jsonl")));
        let client: Vec<Value> = recorded.iter().filter(|l| l["dir"] == "c2s").map(|l| l["msg"].clone()).collect();
        let session = serve(version, &client);
        let got = lines(&session);
        let (failed, total) = check(version, &session);
        let answers = got.iter().filter(|l| l["dir"] == "s2c").count();
        let requests = client.iter().filter(|m| m.get("id").is_some()).count();
        // The only failing line may be the recorded client's own invalid request (no tool `name`).
        let bad: Vec<_> = failed.iter().filter(|(n, _)| got[*n as usize - 1]["dir"] != "c2s").collect();
        let invalid_requests = failed.len() - bad.len();
        println!("{version}: {answers} answers to {requests} requests, {total} lines checked, {} answers failing", bad.len());
        if answers != requests || !bad.is_empty() || invalid_requests != 1 {
            failures.push(format!("{version}: {answers} answers to {requests} requests; failing: {failed:?}"));
        }
        // The negotiated version is the client's.
        let init = got.iter().find(|l| l["dir"] == "s2c").unwrap();
        assert_eq!(init["msg"]["result"]["protocolVersion"], version);
        std::fs::remove_file(session).unwrap();
    }
    println!("{} passed, {} failed", versions.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "{failures:#?}");
}

fn request(id: u64, method: &str, mut params: Value, version: &str) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "scripted", "version": "1"}
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A 2026-07-28 client: no `initialize`; the gateway answers `server/discover`, checks each request's
/// version, and completes the results; everything it sends checks clean as 2026-07-28.
#[test]
fn answers_a_2026_07_28_client_through_the_gateway() {
    let v = "2026-07-28";
    let client = vec![
        request(1, "server/discover", json!({}), v),
        request(2, "tools/list", json!({}), v),
        request(3, "tools/call", json!({"name": "get-structured-content", "arguments": {"location": "Oslo"}}), v),
        request(4, "tools/call", json!({"name": "get-resource-links", "arguments": {"count": 2}}), v),
        request(5, "resources/list", json!({}), v),
        request(6, "resources/read", json!({"uri": "demo://resource/static/document/architecture.md"}), v),
        request(7, "prompts/list", json!({}), v),
        request(8, "prompts/get", json!({"name": "args-prompt", "arguments": {"city": "Oslo"}}), v),
        request(9, "completion/complete", json!({"ref": {"type": "ref/prompt", "name": "args-prompt"}, "argument": {"name": "city", "value": "E"}}), v),
        request(10, "resources/templates/list", json!({}), v),
        // 2026-07-28 has no `ping`; an unknown version; no version at all.
        request(11, "ping", json!({}), v),
        request(12, "tools/list", json!({}), "1900-01-01"),
        json!({"jsonrpc": "2.0", "id": 13, "method": "tools/list", "params": {}}),
    ];
    let session = serve("2026", &client);
    let got = lines(&session);
    let (failed, total) = check(v, &session);
    println!("2026-07-28: {total} lines checked, {} failing", failed.len());
    // Only the client's two deliberately invalid requests fail (`ping`, and no `_meta`); every answer passes.
    let failing_ids: Vec<(String, Value)> = failed.iter().map(|(n, _)| (got[*n as usize - 1]["dir"].to_string(), got[*n as usize - 1]["msg"]["id"].clone())).collect();
    assert_eq!(failing_ids, [("\"c2s\"".to_string(), json!(11)), ("\"c2s\"".to_string(), json!(13))], "{failed:#?}");
    let answer = |id: u64| got.iter().find(|l| l["dir"] == "s2c" && l["msg"]["id"] == id).unwrap()["msg"].clone();
    assert_eq!(answer(1)["result"]["supportedVersions"], json!(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]));
    assert_eq!(answer(3)["result"]["structuredContent"]["conditions"], "Sunny");
    assert_eq!(answer(3)["result"]["resultType"], "complete");
    assert_eq!(answer(4)["result"]["content"][1]["type"], "resource_link");
    assert_eq!(answer(2)["result"]["ttlMs"], 60_000);
    assert_eq!(answer(11)["error"]["code"], -32601);
    assert_eq!(answer(12)["error"]["code"], -32022);
    assert_eq!(answer(12)["error"]["data"]["requested"], "1900-01-01");
    assert_eq!(answer(13)["error"]["code"], -32602);
    std::fs::remove_file(session).unwrap();
}
