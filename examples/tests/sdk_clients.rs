//! Real 2026-07-28 clients against `multi_version_server`: the official Python SDK (`mcp` 2.x) and
//! the TypeScript SDK v2 (`@modelcontextprotocol/client`), pinned in examples/sdk-clients/. Each
//! lists and calls the tools, reads the resources and gets the prompts over stdio; the server
//! records the sessions, and `mcp-schema check --roundtrip --protocol 2026-07-28` finds them clean.
//!
//! The SDKs are installed (from the package registries) into this package's target folder on first
//! run. Without python3 (with venv) or node 20+ and npm the test is skipped with a message, except
//! under `CI=true`, where it fails. The sessions recorded last are kept in
//! examples/sdk-clients/recorded/ and checked without the SDKs by `recorded_sdk_sessions_check_clean`.

#![forbid(unsafe_code)]

mod sdks;

use std::path::{Path, PathBuf};
use std::process::Command;

use sdks::{python_client, run, sdk_dir, typescript_client};

use mcp_spec_types_cli::args::{CheckArgs, Protocol};
use mcp_spec_types_cli::versions::version_index;
use serde_json::Value;

const SERVER: &str = env!("CARGO_BIN_EXE_multi_version_server");
const VERSION: &str = "2026-07-28";

/// `check --roundtrip --protocol 2026-07-28 FILE` in process: `(values, failures)`.
fn check(file: &Path) -> (u64, Vec<String>) {
    let args = CheckArgs {
        protocol: Protocol::Fixed(version_index(VERSION).unwrap()),
        roundtrip: true,
        strict: true,
        files: vec![file.to_str().unwrap().to_string()],
        ..CheckArgs::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = mcp_spec_types_cli::check_files(&args, &mut out, &mut err);
    let text = String::from_utf8(out).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let summary = lines.pop().unwrap_or_default();
    let passed: u64 = summary.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    if code != 0 {
        lines.push(format!("exit {code}: {summary} {}", String::from_utf8_lossy(&err)));
    }
    (passed + lines.len() as u64, lines)
}

/// What every 2026-07-28 session must show: no `initialize`, and each request naming 2026-07-28.
fn speaks_2026(file: &Path) -> Result<(Vec<String>, usize), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let mut methods = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let Some(method) = v["msg"]["method"].as_str() else { continue };
        if v["msg"].get("id").is_some() {
            let version = &v["msg"]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"];
            if method == "initialize" || version != VERSION {
                return Err(format!("{}: `{method}` with version {version}", file.display()));
            }
        }
        methods.push(method.to_string());
    }
    Ok((methods, text.lines().count()))
}

#[test]
fn real_2026_07_28_clients_use_the_server_and_their_sessions_check_clean() {
    let clients = [("python-mcp-2.3.0", python_client("client.py")), ("typescript-client-2.4.0", typescript_client("client.mjs"))];
    let (mut passed, mut failed) = (0, 0);
    for (name, client) in clients {
        let command = match client {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => panic!("{name}: installing the SDK failed: {e}"),
        };
        let sessions = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sessions-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&sessions).unwrap();
        let record = sessions.join("{pid}.jsonl");
        let out = run(Command::new(&command[0]).args(&command[1..]).arg(SERVER).arg("--record").arg(&record));
        let out = out.unwrap_or_else(|e| panic!("{name}: the client failed: {e}"));
        print!("{name}:\n{out}");
        // One file per server process; the longest is the session that did the work.
        let mut files: Vec<PathBuf> = std::fs::read_dir(&sessions).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort_by_key(|f| std::fs::metadata(f).unwrap().len());
        let mut all_methods = Vec::new();
        for file in &files {
            let (methods, lines) = speaks_2026(file).unwrap();
            let (values, failures) = check(file);
            println!("  {} lines, {values} checked, {} failing: {}", lines, failures.len(), methods.join(" "));
            if failures.is_empty() { passed += 1 } else { failed += 1; println!("  {}", failures.join("\n  ")) }
            all_methods.extend(methods);
        }
        for needed in ["tools/list", "tools/call", "resources/list", "resources/read", "prompts/list", "prompts/get"] {
            assert!(all_methods.iter().any(|m| m == needed), "{name} never sent {needed}");
        }
        // Keep the working session for the repository (`recorded_sdk_sessions_check_clean`).
        if std::env::var("UPDATE_SDK_SESSIONS").is_ok() {
            let recorded = sdk_dir().join("recorded");
            std::fs::create_dir_all(&recorded).unwrap();
            std::fs::copy(files.last().unwrap(), recorded.join(format!("{name}.jsonl"))).unwrap();
        }
        std::fs::remove_dir_all(&sessions).unwrap();
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// The sessions recorded with the SDKs (committed), checked without them.
#[test]
fn recorded_sdk_sessions_check_clean() {
    let recorded = sdk_dir().join("recorded");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&recorded).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 2, "one session per SDK in {}", recorded.display());
    let mut failed = 0;
    for file in &files {
        speaks_2026(file).unwrap();
        let (values, failures) = check(file);
        println!("{}: {values} checked, {} failing", file.file_name().unwrap().to_string_lossy(), failures.len());
        failed += usize::from(!failures.is_empty());
    }
    println!("{} passed, {failed} failed", files.len() - failed);
    assert_eq!(failed, 0);
}
