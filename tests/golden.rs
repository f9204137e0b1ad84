//! Generator goldens: every folder under `tests/goldens/` is one case.
//!
//! A case holds `input.ts` (or the inputs its own `codegen.toml` names) and either
//! the expected module source (`expected.rs`, or `expected.<module>.rs` when the
//! case has several modules) or, for malformed input, `expected.err` with the
//! exact diagnostics. Without a `codegen.toml` the case is one module named after
//! the folder, read from `input.ts`.
//!
//! `UPDATE_GOLDENS=1 cargo test -p mcp-schema-tests --test golden` rewrites the
//! expected files from what the generator produces now.
//!
//! Every valid case must also be mounted in `tests/golden-compile/src/lib.rs`, so
//! that `cargo test --workspace` compiles (and runs) the expected sources.
//!
//! A case with a `KNOWN_BUG` file documents a generator bug: its expected files
//! hold what the generator *should* produce (or are missing when that is for the
//! fixer to decide), the case always fails with the file's text, and
//! `UPDATE_GOLDENS` does not touch it. Once the bug is fixed, delete `KNOWN_BUG`,
//! run with `UPDATE_GOLDENS=1`, review the result, and mount it if valid.
//!
//! Also checked: two runs give identical output, every diagnostic has a
//! `file:line:col`, and a panic is reported as that case's failure.

#![forbid(unsafe_code)]

use std::collections::BTreeSet;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use generator::{Config, Diagnostics, GeneratedFile, Input};
use mcp_schema_tests::{workspace_root, Tally};

fn goldens_dir() -> PathBuf {
    workspace_root().join("tests/goldens")
}

fn compile_crate_lib() -> PathBuf {
    workspace_root().join("tests/golden-compile/src/lib.rs")
}

fn updating() -> bool {
    std::env::var("UPDATE_GOLDENS").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn cases() -> Vec<(String, PathBuf)> {
    let dir = goldens_dir();
    let mut out: Vec<(String, PathBuf)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

fn default_config(case: &str) -> String {
    format!("[[module]]\nname = \"{case}\"\nfeature = \"{case}\"\ninput = \"input.ts\"\ntitle = \"Golden case `{case}`.\"\n")
}

fn load(case: &str, dir: &Path) -> Result<(Config, Vec<Input>), String> {
    let toml = match fs::read_to_string(dir.join("codegen.toml")) {
        Ok(t) => t,
        Err(_) => default_config(case),
    };
    let config = Config::from_toml(&toml)?;
    let mut inputs = Vec::new();
    for m in &config.modules {
        let source = fs::read_to_string(dir.join(&m.input)).map_err(|e| format!("input `{}` of module `{}`: {e}", m.input, m.name))?;
        inputs.push(Input { path: m.input.clone(), source });
    }
    Ok((config, inputs))
}

/// What one generator run produced, reduced to what the goldens compare.
#[derive(PartialEq)]
enum Outcome {
    /// `(expected file name, module source)` for every module, and every file generated
    /// (only compared between two runs).
    Modules(Vec<(String, String)>, Vec<GeneratedFile>),
    Diagnostics(String),
    Panic(String),
}

fn expected_name(config: &Config, module: &str) -> String {
    if config.modules.len() == 1 {
        "expected.rs".to_string()
    } else {
        format!("expected.{module}.rs")
    }
}

fn run(config: &Config, inputs: &[Input]) -> Outcome {
    // A panic is a generator bug: reported as this case's failure, not printed as the test's.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(|| generator::generate(inputs, config)));
    std::panic::set_hook(hook);
    match result {
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(non-string panic payload)".into());
            Outcome::Panic(msg)
        }
        Ok(Err(diags)) => match located(&diags) {
            Ok(()) => Outcome::Diagnostics(format!("{diags}\n")),
            Err(e) => Outcome::Panic(format!("{e}\nfull diagnostics:\n{diags}")),
        },
        Ok(Ok(files)) => {
            let mut out = Vec::new();
            for m in &config.modules {
                let path = format!("{}/{}.rs", generator::GENERATED_DIR, m.name);
                let contents = files.iter().find(|f: &&GeneratedFile| f.path == path).map(|f| f.contents.clone()).unwrap_or_else(|| format!("// generator produced no {path}\n"));
                out.push((expected_name(config, &m.name), contents));
            }
            Outcome::Modules(out, files)
        }
    }
}

/// Every diagnostic must point into an input: a file, a line and a column.
fn located(d: &Diagnostics) -> Result<(), String> {
    for x in &d.0 {
        if x.location.file.is_empty() || x.location.line == 0 || x.location.col == 0 {
            return Err(format!("diagnostic without a file:line:col: `{x}`"));
        }
    }
    Ok(())
}

/// A short unified diff: the first hunks, two lines of context, at most `MAX` lines.
fn diff(expected: &str, actual: &str) -> String {
    const CONTEXT: usize = 2;
    const MAX: usize = 40;
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    // Longest common subsequence table, from the end (the files are small).
    let mut lcs = vec![vec![0u32; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    // Edit script: (' ' | '-' | '+', expected line number, text).
    let mut ops: Vec<(char, usize, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            ops.push((' ', i + 1, e[i]));
            i += 1;
            j += 1;
        } else if i < e.len() && (j == a.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', i + 1, e[i]));
            i += 1;
        } else {
            ops.push(('+', i + 1, a[j]));
            j += 1;
        }
    }
    let near_change = |k: usize| ops[k.saturating_sub(CONTEXT)..(k + CONTEXT + 1).min(ops.len())].iter().any(|o| o.0 != ' ');
    let mut out = format!("--- expected ({} lines)\n+++ generated ({} lines)\n", e.len(), a.len());
    let mut shown = 0;
    let mut last: Option<usize> = None;
    for k in 0..ops.len() {
        if !near_change(k) {
            continue;
        }
        if last.is_none_or(|l| l + 1 != k) {
            out.push_str(&format!("@@ expected line {} @@\n", ops[k].1));
        }
        last = Some(k);
        out.push_str(&format!("{}{}\n", ops[k].0, ops[k].2));
        shown += 1;
        if shown == MAX {
            let rest = ops[k + 1..].iter().filter(|o| o.0 != ' ').count();
            if rest > 0 {
                out.push_str(&format!("... and {rest} more changed lines\n"));
            }
            break;
        }
    }
    out
}

fn read(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok()
}

fn expected_files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n == "expected.err" || (n.starts_with("expected") && n.ends_with(".rs")))
        .collect();
    out.sort();
    out
}

fn check_case(case: &str, dir: &Path, mounted: &BTreeSet<String>, valid: &mut Vec<String>) -> Result<(), String> {
    let (config, inputs) = load(case, dir).map_err(|e| format!("{case}: {e}"))?;
    let outcome = run(&config, &inputs);
    if run(&config, &inputs) != outcome {
        return Err(format!("{case}: not deterministic: two runs on the same input differ"));
    }
    // A case marked KNOWN_BUG always fails, and UPDATE_GOLDENS leaves its expected
    // files alone: they hold what the generator should produce, not what it does.
    let bug = read(&dir.join("KNOWN_BUG")).map(|b| b.trim().to_string());
    let result = compare(case, dir, &outcome, mounted, valid, bug.is_none() && updating());
    match (bug, result) {
        (Some(b), Ok(())) => Err(format!("{case}: output is now as expected: remove {case}/KNOWN_BUG ({b})")),
        (Some(b), Err(e)) => Err(format!("{case}: KNOWN GENERATOR BUG: {b}\n{e}")),
        (None, r) => r,
    }
}

fn compare(case: &str, dir: &Path, outcome: &Outcome, mounted: &BTreeSet<String>, valid: &mut Vec<String>, update: bool) -> Result<(), String> {
    let present = expected_files(dir);
    match outcome {
        Outcome::Panic(msg) => Err(format!("{case}: generator bug: {msg}")),
        Outcome::Diagnostics(text) => {
            if update {
                for f in &present {
                    fs::remove_file(dir.join(f)).unwrap();
                }
                fs::write(dir.join("expected.err"), text).unwrap();
                return Ok(());
            }
            let modules: Vec<&String> = present.iter().filter(|f| f.ends_with(".rs")).collect();
            if !modules.is_empty() {
                return Err(format!("{case}: expected generated modules ({modules:?}), but generation failed:\n{text}"));
            }
            match read(&dir.join("expected.err")) {
                Some(want) if &want == text => Ok(()),
                Some(want) => Err(format!("{case}: diagnostics differ\n{}", diff(&want, text))),
                None => Err(format!("{case}: generation failed, but the case has no expected.err:\n{text}")),
            }
        }
        Outcome::Modules(modules, _) => {
            let wanted: BTreeSet<String> = modules.iter().map(|(f, _)| f.clone()).collect();
            if update {
                for f in &present {
                    if !wanted.contains(f) {
                        fs::remove_file(dir.join(f)).unwrap();
                    }
                }
                for (f, text) in modules {
                    fs::write(dir.join(f), text).unwrap();
                }
            }
            let mut problems = Vec::new();
            if dir.join("expected.err").exists() {
                problems.push(format!("{case}: expected diagnostics (expected.err), but generation succeeded"));
            }
            for (f, text) in modules {
                valid.push(format!("{case}/{f}"));
                match read(&dir.join(f)) {
                    Some(want) if &want == text => {}
                    Some(want) => problems.push(format!("{case}/{f}: output differs\n{}", diff(&want, text))),
                    None => problems.push(format!("{case}: missing {f} (run with UPDATE_GOLDENS=1)")),
                }
                if !mounted.contains(&format!("{case}/{f}")) {
                    problems.push(format!("{case}/{f} is not mounted in tests/golden-compile/src/lib.rs: add `#[path = \"../../goldens/{case}/{f}\"] pub mod <module>;`"));
                }
            }
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join("\n"))
            }
        }
    }
}

/// `case/file` for every `#[path = "../../goldens/case/file"]` in the compile crate.
fn mounted() -> BTreeSet<String> {
    let text = read(&compile_crate_lib()).unwrap_or_default();
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("//") {
            continue;
        }
        if let Some(rest) = line.split("\"../../goldens/").nth(1) {
            if let Some(p) = rest.split('"').next() {
                out.insert(p.to_string());
            }
        }
    }
    out
}

#[test]
fn goldens() {
    let mounted = mounted();
    let mut tally = Tally::default();
    let mut valid = Vec::new();
    let all = cases();
    assert!(!all.is_empty(), "no cases under {}", goldens_dir().display());
    for (case, dir) in &all {
        let r = check_case(case, dir, &mounted, &mut valid);
        if r.is_ok() {
            println!("ok   {case}");
        }
        tally.check(r);
    }
    // Nothing mounted that is not an expected module source.
    for m in &mounted {
        if !valid.contains(m) && !goldens_dir().join(m).is_file() {
            tally.check(Err(format!("tests/golden-compile/src/lib.rs mounts `{m}`, which is not the output of a valid case")));
        }
    }
    tally.finish("goldens");
}
