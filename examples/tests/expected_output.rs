//! Runs every example and compares its stdout with `expected/<name>.txt`, byte for byte.
//! `UPDATE_EXPECTED=1 cargo test -p mcp-schema-examples` rewrites the expected files instead.

#![forbid(unsafe_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Each example: its name, its binary, and the file fed to its stdin (relative to this package).
const EXAMPLES: &[(&str, &str, Option<&str>)] = &[
    (
        "stdio_server",
        env!("CARGO_BIN_EXE_stdio_server"),
        Some("input/stdio_server.jsonl"),
    ),
    // Starts `stdio_server` itself and prints what the answers say.
    ("stdio_client", env!("CARGO_BIN_EXE_stdio_client"), None),
    ("icon_proxy", env!("CARGO_BIN_EXE_icon_proxy"), None),
    ("apps_host", env!("CARGO_BIN_EXE_apps_host"), None),
    ("two_versions", env!("CARGO_BIN_EXE_two_versions"), None),
];

fn run(exe: &str, input: Option<&Path>) -> Result<String, String> {
    let stdin = match input {
        Some(path) => {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
        }
        None => Vec::new(),
    };
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    // Written from another thread, so a large input cannot block on a full stdout pipe.
    let mut pipe = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || pipe.write_all(&stdin));
    let output = child
        .wait_with_output()
        .map_err(|e| format!("cannot wait: {e}"))?;
    writer
        .join()
        .expect("stdin writer")
        .map_err(|e| format!("cannot write stdin: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8(output.stdout).map_err(|e| format!("stdout is not UTF-8: {e}"))
}

/// Where the two first differ, for the failure message.
fn first_difference(expected: &str, actual: &str) -> String {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    for line in 1.. {
        match (e.next(), a.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return "they differ only in line endings".into(),
            (x, y) => {
                return format!(
                    "line {line}:\n  expected: {}\n  actual:   {}",
                    x.unwrap_or("(end)"),
                    y.unwrap_or("(end)")
                )
            }
        }
    }
    unreachable!()
}

#[test]
fn every_example_prints_its_expected_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_EXPECTED").is_some_and(|v| v == "1");
    // Written to stderr directly, past the test harness's capture, so the counts show in every run.
    let mut err = std::io::stderr().lock();
    let (mut passed, mut failed) = (0, 0);
    for &(name, exe, input) in EXAMPLES {
        let expected_path = root.join("expected").join(format!("{name}.txt"));
        let outcome = run(exe, input.map(|i| root.join(i)).as_deref()).and_then(|actual| {
            if update {
                return std::fs::write(&expected_path, &actual)
                    .map_err(|e| format!("cannot write the expected file: {e}"));
            }
            match std::fs::read_to_string(&expected_path) {
                Ok(expected) if expected == actual => Ok(()),
                Ok(expected) => Err(format!(
                    "stdout differs from expected/{name}.txt at {}",
                    first_difference(&expected, &actual)
                )),
                Err(e) => Err(format!(
                    "cannot read expected/{name}.txt ({e}); run with UPDATE_EXPECTED=1 to write it"
                )),
            }
        });
        match outcome {
            Ok(()) => passed += 1,
            Err(why) => {
                failed += 1;
                let _ = writeln!(err, "FAIL {name}: {why}");
            }
        }
    }
    let _ = writeln!(err, "examples: {passed} passed, {failed} failed");
    assert!(
        failed == 0,
        "{failed} example(s) did not print their expected output (see above)"
    );
}
