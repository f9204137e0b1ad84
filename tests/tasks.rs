//! The Tasks extension (`tasks` module): its imported core is 2026-07-28's, every JSON example of
//! the synced `tasks.md` and of the SEP reads, validates and writes back unchanged, a `tools/call`
//! answer is read by its `resultType`, and the conversions name the rows of `CONVERSIONS.md`.

use mcp_schema_tests::{upstream, Tally};
use mcp_spec_types::validate::Options;
use serde_json::Value;

const TASKS_MD: &str = "ext-tasks/specification/draft/tasks.md";
const SEP_MD: &str = "ext-tasks/seps/2663-tasks-extension.md";

/// The SEP's examples that disagree with schema.ts, as for tasks.md: the same two `tools/call` examples.
const KNOWN_SEP_DISAGREEMENTS: &[(usize, &str)] = &[(271, "missing field `_meta`"), (527, "missing field `io.modelcontextprotocol/protocolVersion`")];

/// The extension's `spec.types.ts` is the spec's draft schema.ts as it was when it became 2026-07-28:
/// besides a vendoring header, only its doc links say `draft`. That is why `schema/codegen.toml` binds
/// the import to `v2026_07_28`; a new commit of the extension that changes its core fails here.
#[test]
fn the_imported_core_is_2026_07_28() {
    let up = upstream();
    let ext = std::fs::read_to_string(up.join("ext-tasks/schema/draft/spec.types.ts")).unwrap();
    let core = std::fs::read_to_string(up.join("mcp-spec/schema/2026-07-28/schema.ts")).unwrap();
    let body = match ext.strip_prefix("/**") {
        Some(rest) if rest[..rest.find("*/").unwrap()].contains("vendored") => rest[rest.find("*/").unwrap() + 2..].trim_start(),
        _ => ext.as_str(),
    };
    let relinked = body.replace("/specification/draft/", "/specification/2026-07-28/");
    let first_difference = relinked.lines().zip(core.lines()).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "the extension's core differs from 2026-07-28 at line {:?} (after its header)", first_difference.map(|i| i + 1));
    assert_eq!(relinked.lines().count(), core.lines().count());
}

/// The fenced JSON blocks of a Markdown file: `json`, and `jsonc`/`jsonl` with their comments and
/// trailing commas removed (tasks.md writes some examples that way).
fn json_blocks(md: &str) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    let mut lines = md.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(lang) = line.trim().strip_prefix("```") else { continue };
        if !matches!(lang, "json" | "jsonc" | "jsonl") {
            continue;
        }
        let mut text = String::new();
        for (_, l) in lines.by_ref() {
            if l.trim() == "```" {
                break;
            }
            // `//` only starts a comment outside strings; the examples' strings hold none.
            let code = match l.find("//") {
                Some(i) if !l[..i].contains('"') || l[..i].matches('"').count() % 2 == 0 => &l[..i],
                _ => l,
            };
            text.push_str(code);
            text.push('\n');
        }
        let text = strip_trailing_commas(&text);
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("line {}: a {lang} block that is not JSON: {e}", n + 1));
        out.push((n + 1, value));
    }
    out
}

fn strip_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ',' && chars[i + 1..].iter().find(|c| !c.is_whitespace()).is_some_and(|&n| n == '}' || n == ']') {
            continue;
        }
        out.push(c);
    }
    out
}

/// The module and type that read a whole message of the extension's examples. Results are typed
/// as a client reads them: `resultType: "task"` through `CallToolOutcome`, a task's state by `taskId`,
/// an acknowledgement by being only `resultType`.
fn type_of(message: &Value) -> (&'static str, &'static str) {
    let o = message.as_object().unwrap();
    let method = o.get("method").and_then(Value::as_str);
    if let Some(m) = method {
        let tasks = if o.contains_key("id") { mcp_spec_types::tasks::REQUESTS.iter().find(|r| r.0 == m).map(|r| r.1) } else { mcp_spec_types::tasks::NOTIFICATIONS.iter().find(|r| r.0 == m).map(|r| r.1) };
        if let Some(t) = tasks {
            return ("tasks", t);
        }
        return ("v2026_07_28", mcp_spec_types::v2026_07_28::REQUESTS.iter().find(|r| r.0 == m).map(|r| r.1).unwrap_or("JSONRPCNotification"));
    }
    if o.contains_key("error") {
        return ("v2026_07_28", "JSONRPCErrorResponse");
    }
    let result = &o["result"];
    match (result.get("resultType").and_then(Value::as_str), result.get("taskId")) {
        (Some("task"), _) => ("tasks", "CallToolOutcome"),
        (_, Some(_)) => ("tasks", "GetTaskResult"),
        _ => ("tasks", "UpdateTaskResult"),
    }
}

fn roundtrip(module: &str, ty: &str, text: &str) -> Option<Result<(Value, &'static str), serde_json::Error>> {
    match module {
        "tasks" => mcp_spec_types::tasks::roundtrip_json(ty, text),
        _ => mcp_spec_types::v2026_07_28::roundtrip_json(ty, text),
    }
}

fn validate(module: &str, ty: &str, value: &Value) -> Option<mcp_spec_types::validate::Report> {
    let options = Options::strict();
    match module {
        "tasks" => mcp_spec_types::tasks::validate_json_as(ty, value, &options),
        _ => mcp_spec_types::v2026_07_28::validate_json_as(ty, value, &options),
    }
}

/// Examples of tasks.md that disagree with schema.ts: (line of the block's fence, what is reported). Each must
/// still fail so, or the entry goes.
const KNOWN_DISAGREEMENTS: &[(usize, &str)] = &[
    // 2026-07-28 requires `_meta` with `protocolVersion` and `clientCapabilities` on every request; these two
    // `tools/call` examples (one leaves `_meta` out, one has only the capabilities) predate that.
    (265, "missing field `_meta`"),
    (519, "missing field `io.modelcontextprotocol/protocolVersion`"),
];

#[test]
fn every_json_example_of_tasks_md_reads_validates_and_writes_back() {
    examples_of(TASKS_MD, 20, KNOWN_DISAGREEMENTS);
}

#[test]
fn every_json_example_of_the_sep_reads_validates_and_writes_back() {
    examples_of(SEP_MD, 20, KNOWN_SEP_DISAGREEMENTS);
}

fn examples_of(file: &str, at_least: usize, known: &[(usize, &str)]) {
    let md = std::fs::read_to_string(upstream().join(file)).unwrap();
    let blocks = json_blocks(&md);
    assert!(blocks.len() >= at_least, "{file} has {} JSON blocks; the extraction broke", blocks.len());
    let mut tally = Tally::default();
    let mut messages = 0;
    for (line, value) in blocks {
        // Two blocks are fragments showing where the capability goes, not messages.
        if value.get("jsonrpc").is_none() {
            continue;
        }
        messages += 1;
        let (module, ty) = type_of(&value);
        // A response's `result` is the typed part; the envelope is JSON-RPC's.
        let (part, at) = match value.get("result") {
            Some(r) if value.get("method").is_none() => (r.clone(), "/result"),
            _ => (value.clone(), ""),
        };
        let text = serde_json::to_string(&part).unwrap();
        match roundtrip(module, ty, &text) {
            Some(Ok((back, variant))) if back == part => {
                if ty == "CallToolOutcome" && variant != "CreateTaskResult" {
                    tally.failures.push(format!("{file}:{line}: read as {variant}, not CreateTaskResult"));
                    continue;
                }
                let report = validate(module, ty, &part).unwrap();
                if report.violations.is_empty() {
                    tally.passed += 1;
                } else {
                    tally.failures.push(format!("{file}:{line} ({ty} at {at:?}): {:?}", report.violations));
                }
            }
            Some(Ok((back, _))) => tally.failures.push(format!("{file}:{line}: {ty} wrote back {back}, read {part}")),
            Some(Err(e)) if known.iter().any(|(l, what)| *l == line && e.to_string().contains(what)) => tally.passed += 1,
            Some(Err(e)) => tally.failures.push(format!("{file}:{line}: {ty}: {e}")),
            None => tally.failures.push(format!("{file}:{line}: no type {ty} in {module}")),
        }
    }
    eprintln!("{file}: {messages} messages, {} passed", tally.passed);
    assert!(tally.failures.is_empty(), "{:#?}", tally.failures);
}

#[test]
fn a_tools_call_answer_is_read_by_its_result_type() {
    use mcp_spec_types::tasks::CallToolOutcome;
    let task = r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttlMs":null}"#;
    let done = r#"{"resultType":"complete","content":[{"type":"text","text":"hi"}]}"#;
    let old = r#"{"content":[]}"#;
    let input = r#"{"resultType":"input_required","requestState":"s"}"#;
    let read = |t: &str| serde_json::from_str::<CallToolOutcome>(t).unwrap();
    assert!(matches!(read(task), CallToolOutcome::CreateTaskResult(t) if t.task_id == "t1" && t.ttl_ms == mcp_spec_types::runtime::Nullable::Null));
    assert!(matches!(read(done), CallToolOutcome::CallToolResult(_)));
    // A server on an earlier version sends no `resultType`: a plain result.
    assert!(matches!(read(old), CallToolOutcome::CallToolResult(_)));
    assert!(matches!(read(input), CallToolOutcome::InputRequiredResult(_)));
}

/// Every case the hand-written conversions name (`generated/src/convert/tasks.rs`) is a row of `CONVERSIONS.md`
/// (`[[convert.extension]]`), and every row is named by the code.
#[test]
fn the_conversions_name_their_rows() {
    let root = mcp_schema_tests::workspace_root();
    let code = std::fs::read_to_string(root.join("generated/src/convert/tasks.rs")).unwrap();
    let code = &code[..code.find("#[cfg(test)]").unwrap()];
    let mut named = std::collections::BTreeSet::new();
    for step in ["TO, \"", "BACK, \""] {
        for (i, _) in code.match_indices(step) {
            let rest = &code[i + step.len()..];
            let case = &rest[..rest.find('"').unwrap()];
            if !case.is_empty() {
                named.insert(case.to_string());
            }
        }
    }
    let rows: std::collections::BTreeSet<String> = mcp_schema_tests::config().convert.extension_cases.iter().map(|c| c.place.clone()).collect();
    assert_eq!(named, rows);
    let table = std::fs::read_to_string(root.join("generated/CONVERSIONS.md")).unwrap();
    for row in &rows {
        assert!(table.contains(&format!("| `{row}` |")), "CONVERSIONS.md lacks `{row}`");
    }
}
