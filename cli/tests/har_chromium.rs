//! A HAR that headless Chromium records (through the DevTools protocol's Network domain) of a page
//! talking MCP with `fetch` to server-everything over Streamable HTTP (`har_chromium/record.mjs`,
//! the server pinned by `har_real/`): `check` passes it with its transport rules, and reports an
//! altered copy. Needs `/usr/bin/chromium` and npm; skips without them, fails under `CI=true`.

use crate::common;

use std::path::Path;

use common::{npm_found, npm_install, output_text, run, TempFile};
use serde_json::Value;

const CHROMIUM: &str = "/usr/bin/chromium";

fn skip(why: &str) -> bool {
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}: CI must have it for this test");
    eprintln!("skipped: {why}");
    true
}

/// The findings of `check --json FILE`: (rule, severity, place), and the exit code.
fn check(path: &str) -> (i32, Vec<(String, String, String)>, String) {
    let r = run(&["check", "--json", path], None);
    let mut found = Vec::new();
    for line in r.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        for d in v["violations"].as_array().into_iter().flatten() {
            found.push((d["rule"].as_str().unwrap().to_string(), d["severity"].as_str().unwrap().to_string(), v["place"].as_str().unwrap_or_default().to_string()));
        }
    }
    (r.code, found, r.stderr)
}

#[test]
fn a_har_recorded_by_headless_chromium_passes_and_an_altered_copy_is_reported() {
    if !Path::new(CHROMIUM).exists() && skip("chromium is not installed (/usr/bin/chromium)") {
        return;
    }
    if !npm_found() && skip("npm is not installed (the server is the one tests/har_real pins)") {
        return;
    }
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let packages = tests.join("har_real");
    let node = npm_install(&packages);
    let out = TempFile::new("chromium.har", b"");
    let rec = std::process::Command::new(&node).arg("record.mjs").arg(&packages).arg(out.path()).arg(CHROMIUM).current_dir(tests.join("har_chromium")).output().unwrap();
    assert!(rec.status.success(), "recording failed: {}", output_text(&rec));
    let har: Value = serde_json::from_slice(&std::fs::read(out.path()).unwrap()).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    // The page, its CORS preflights, the MCP POSTs (SSE answers), the DELETE.
    let methods: Vec<&str> = entries.iter().map(|e| e["request"]["method"].as_str().unwrap()).collect();
    for m in ["OPTIONS", "POST", "DELETE"] {
        assert!(methods.contains(&m), "{methods:?}");
    }

    let (code, found, stderr) = check(out.path());
    assert_eq!(code, 0, "{found:?}");
    // initialize, initialized, tools/list, two tools/call with their results, and the progress notifications.
    let line = stderr.lines().find(|l| l.contains("HAR:")).unwrap_or_default();
    let checked: usize = line.split(" messages checked").next().and_then(|s| s.rsplit(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(checked >= 10, "{stderr}");
    assert!(!found.iter().any(|f| f.1 == "error"), "{found:?}");
    // server-everything allows any origin (CORS `*`): the page's requests from another port were
    // all answered, which the origin rule reports as warnings, and nothing else is reported.
    assert!(found.iter().any(|f| f.0 == "transport.origin"), "{found:?}");
    assert!(found.iter().all(|f| f.0 == "transport.origin" && f.1 == "warning"), "{found:?}");

    // An altered copy: the tools/list POST no longer accepts SSE.
    let mut altered = har.clone();
    let list = altered["log"]["entries"].as_array_mut().unwrap().iter_mut().find(|e| e["request"]["postData"]["text"].as_str().is_some_and(|t| t.contains("tools/list"))).expect("a tools/list entry");
    for h in list["request"]["headers"].as_array_mut().unwrap() {
        if h["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case("accept")) {
            h["value"] = "application/json".into();
        }
    }
    let copy = TempFile::new("altered.har", &serde_json::to_vec(&altered).unwrap());
    let (code, found, _) = check(copy.path());
    assert_eq!(code, 1, "{found:?}");
    assert!(found.iter().any(|f| f.0 == "transport.post-accept" && f.1 == "error" && f.2.contains("(POST /mcp 200)")), "{found:?}");
}
