//! Every spec example of every protocol version, and every message of every recorded session,
//! converted to every other version where its type exists and back, is the JSON it was.
//! A conversion that fails must fail with a case the table (`generated/CONVERSIONS.md`) lists;
//! those are counted apart. Counts are printed per pair of versions.

use std::collections::BTreeMap;

use mcp_schema_tests::{example_files, upstream, workspace_root};
use mcp_spec_types::convert::{convert_json, target_type_name, ConvertError, Reason};
use mcp_spec_types::modules::{ModuleKind, MODULES};
use mcp_spec_types::negotiate::{Direction, VersionTracker};
use serde_json::Value;

/// The protocol versions `convert` converts between, oldest first.
fn versions() -> Vec<&'static str> {
    MODULES.iter().filter(|m| m.kind == ModuleKind::Version).filter_map(|m| m.protocol).collect()
}

#[derive(Default)]
struct Counts {
    passed: usize,
    /// Failed with a case the table lists (the value cannot be represented in the target).
    documented: usize,
    failures: Vec<String>,
}

/// The table, as `| from | to | `case` |` row prefixes.
fn table() -> String {
    std::fs::read_to_string(workspace_root().join("generated/CONVERSIONS.md")).unwrap()
}

fn documented(table: &str, e: &ConvertError) -> bool {
    !e.case().is_empty() && table.contains(&format!("| {} | {} | `{}` |", e.from_version(), e.to_version(), e.case()))
}

/// Converts `value` (of `type_name` in `from`) to `to` and back; `None` when the type does not convert.
fn check(table: &str, counts: &mut Counts, label: &str, type_name: &str, from: &str, to: &str, value: &Value) -> Option<()> {
    let forward = convert_json(type_name, from, to, value)?;
    let converted = match forward {
        Ok(v) => v,
        Err(e) if documented(table, &e) => {
            counts.documented += 1;
            println!("documented {label} -> {to}: {e}");
            return Some(());
        }
        Err(e) => {
            counts.failures.push(format!("{label} -> {to}: {e}"));
            return Some(());
        }
    };
    let back_type = target_type_name(type_name, from, to).expect("a route has a target type");
    match convert_json(back_type, to, from, &converted) {
        Some(Ok(back)) if back == *value => counts.passed += 1,
        Some(Ok(back)) => counts.failures.push(format!("{label} -> {to} -> back differs:\n  was  {value}\n  via  {converted}\n  back {back}")),
        // The way back reads the converted JSON again: a member that was `Unknown` in the source (a
        // method the source version lacks) is typed in the target, and may not go back.
        Some(Err(e)) if documented(table, &e) => {
            counts.documented += 1;
            println!("documented {label} -> {to} -> back: {e}");
        }
        Some(Err(e)) => counts.failures.push(format!("{label} -> {to} -> back: {e}\n  via {converted}")),
        None => counts.failures.push(format!("{label}: no way back from {to} as {back_type}")),
    }
    Some(())
}

/// Whether the value reads as its own version's type at all (a few spec examples disagree with
/// schema.ts; `tests/spec_examples.rs` lists them).
fn reads(type_name: &str, version: &str, value: &Value, other: &str) -> bool {
    !matches!(convert_json(type_name, version, other, value), Some(Err(e)) if matches!(e.reason(), Reason::Unreadable { .. }) && e.pointer().is_empty() && e.from_version() == version)
}

fn finish(what: &str, per_pair: BTreeMap<(usize, usize), Counts>, versions: &[&str]) {
    let mut failed = 0;
    for ((i, j), c) in &per_pair {
        for f in &c.failures {
            eprintln!("FAIL {f}");
        }
        eprintln!("{what} {} -> {}: {} passed, {} failed ({} documented as not convertible)", versions[*i], versions[*j], c.passed, c.failures.len(), c.documented);
        failed += c.failures.len();
    }
    let passed: usize = per_pair.values().map(|c| c.passed).sum();
    let documented: usize = per_pair.values().map(|c| c.documented).sum();
    eprintln!("{what}, all pairs: {passed} passed, {failed} failed ({documented} documented as not convertible)");
    assert!(passed > 0, "{what}: nothing converted");
    assert_eq!(failed, 0, "{what}: {failed} failed (see above)");
}

#[test]
fn spec_examples_convert_to_every_version_and_back() {
    let (versions, table) = (versions(), table());
    let mut per_pair: BTreeMap<(usize, usize), Counts> = BTreeMap::new();
    let mut unread = 0;
    for (i, from) in versions.iter().enumerate() {
        let dir = upstream().join("mcp-spec/schema").join(from).join("examples");
        // The spec has examples from 2025-11-25 on.
        if !dir.is_dir() {
            continue;
        }
        for (type_name, path) in example_files(&dir) {
            let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let label = format!("{from}/{type_name}/{}", path.file_name().unwrap().to_string_lossy());
            for (j, to) in versions.iter().enumerate() {
                if i == j {
                    continue;
                }
                if !reads(&type_name, from, &value, to) {
                    unread += 1;
                    continue;
                }
                check(&table, per_pair.entry((i, j)).or_default(), &label, &type_name, from, to, &value);
            }
        }
    }
    eprintln!("spec examples: {unread} conversions skipped because the example does not read as its own version's type (see tests/spec_examples.rs)");
    finish("spec examples", per_pair, &versions);
}

/// Every recorded session in the repository (JSONL in the checker's wrapper format): the
/// reference-server sessions of each version, the MCP Apps session, the official SDKs' 2026-07-28
/// sessions and the benchmark corpora.
fn recorded_sessions() -> Vec<std::path::PathBuf> {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["cli/tests/data/sessions", "cli/tests/data/apps", "examples/sdk-clients/recorded", "bench/data/sessions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        let mut found: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "jsonl")).collect();
        found.sort();
        files.extend(found);
    }
    files
}

#[test]
fn recorded_sessions_convert_to_every_version_and_back() {
    let (versions, table) = (versions(), table());
    let mut per_pair: BTreeMap<(usize, usize), Counts> = BTreeMap::new();
    let (mut unread, mut other_channel, mut messages) = (0, 0, 0);
    let files = recorded_sessions();
    assert!(files.len() >= 5, "the recorded sessions are missing: {files:?}");
    for path in &files {
        let name = path.strip_prefix(workspace_root()).unwrap_or(path).display().to_string();
        // Each message is in the version the session negotiated (or, in 2026-07-28, names).
        let mut tracker = VersionTracker::new();
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let record: Value = serde_json::from_str(line).unwrap();
            let (type_name, direction) = match record["dir"].as_str() {
                Some("c2s") => ("ClientMessage", Direction::ClientToServer),
                Some("s2c") => ("ServerMessage", Direction::ServerToClient),
                // MCP Apps view<->host lines are not client/server messages.
                _ => {
                    other_channel += 1;
                    continue;
                }
            };
            let Some(from) = tracker.observe(&record["msg"], Some(direction)) else { continue };
            let Some(i) = versions.iter().position(|v| *v == from) else { continue };
            messages += 1;
            let label = format!("{name}:{}", n + 1);
            for (j, to) in versions.iter().enumerate() {
                if i == j {
                    continue;
                }
                if !reads(type_name, from, &record["msg"], to) {
                    unread += 1;
                    continue;
                }
                check(&table, per_pair.entry((i, j)).or_default(), &label, type_name, from, to, &record["msg"]);
            }
        }
    }
    eprintln!("recorded sessions: {} files, {messages} messages; {other_channel} lines of another channel skipped", files.len());
    eprintln!("recorded sessions: {unread} conversions skipped because the message does not read as its session's version");
    finish("recorded sessions", per_pair, &versions);
}
