//! Project tasks: `cargo xtask <command>`. The only place that writes files.

mod codegen;
mod schema_tools;
mod outdated;
mod release;
mod side;
mod summary;
mod sync;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  codegen [--check]        sync the pinned inputs, then regenerate generated/ (--check: fail if it is stale)
  schema sync              fill upstream/ from $MCP_SCHEMA_MIRROR or the network, verifying sha256 pins
  schema pin --from DIR    rewrite schema/pins.toml from a mirror folder (review the diff)
  schema outdated          compare the pins with upstream (network); exit 1 when newer versions exist
  schema verify [--verbose]
                           compare the IR of each version with its pinned schema.json (allowlist:
                           schema/verify-allowlist.toml; --verbose also lists the allowed differences)
  schema diff A B [--json] what changed from A to B (versions like 2025-11-25, or module names): types,
                           fields, methods, error codes, constants, deprecations
  test                     schema sync, codegen --check, then every test of the workspace and the
                           official conformance suite (latest and next release) against the
                           example server and client";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen"] => codegen::run(&root, false),
        ["codegen", "--check"] => codegen::run(&root, true),
        ["schema", "sync"] => schema_sync(&root),
        ["schema", "outdated"] => outdated::run(&root),
        ["schema", "verify"] => schema_tools::verify(&root, false),
        ["schema", "verify", "--verbose"] => schema_tools::verify(&root, true),
        ["schema", "diff", a, b] => schema_tools::diff(&root, a, b, false),
        ["schema", "diff", a, b, "--json"] | ["schema", "diff", "--json", a, b] => schema_tools::diff(&root, a, b, true),
        ["schema", "pin", "--from", dir] => sync::pin_from(&root, Path::new(dir)).map(|n| println!("schema pin: {n} files pinned in {}", sync::PINS_FILE)).map_err(|e| e.to_string()),
        ["test"] => test(&root),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

pub fn schema_sync(root: &Path) -> Result<(), String> {
    let report = sync::sync(root).map_err(|e| e.to_string())?;
    println!("{report}");
    Ok(())
}

/// The one command CI and the README use: inputs, drift, then the tests' build with, beside it, each
/// feature alone, warning-free docs for each of those and for all features, and the release
/// packages; then every test and the conformance suite. Ends with one `N passed, N failed` line
/// over all of them (each cargo test binary prints its own, the last of which may be a doc test
/// binary's `0 passed`).
fn test(root: &Path) -> Result<(), String> {
    // A run that builds everything gains nothing from incremental caches (the workspace's crates are
    // built from scratch, or once after an edit) and pays for them: 13% more CPU for the workspace's
    // crates in the CLI's test build and 0.7 GB of cache for that build alone (BENCHMARKS.md, "Issue
    // 32, the test run"). Every cargo this run starts (steps, tests that build, the conformance script) inherits
    // it; a value the caller set wins.
    if let Some(value) = incremental_for_test(std::env::var_os("CARGO_INCREMENTAL").as_deref()) {
        std::env::set_var("CARGO_INCREMENTAL", value);
    }
    let mut tally = summary::Tally::default();
    let result = test_steps(root, &mut tally);
    if let Err(e) = &result {
        eprintln!("{e}");
        tally.failed += 1;
    }
    println!("{}", tally.closing_line());
    if tally.failed == 0 {
        Ok(())
    } else {
        Err(format!("xtask test: {} failed", tally.failed))
    }
}

/// What `test` sets `CARGO_INCREMENTAL` to: off, unless the caller chose.
fn incremental_for_test(set: Option<&std::ffi::OsStr>) -> Option<&'static str> {
    set.is_none().then_some("0")
}

/// The steps of `test`. A failure before `cargo test` runs stops the run (later steps would test
/// stale or broken code); from there on every group runs and its counts are added up.
fn test_steps(root: &Path, tally: &mut summary::Tally) -> Result<(), String> {
    let started = Instant::now();
    codegen::run(root, true)?;
    tally.step_passed();
    tally.timed("codegen --check", started);
    let lib = codegen::package_name(root)?;

    const BUILD: &str = "the tests' build";
    // The feature checks, docs and release packages build beside the tests' build, in target folders
    // of their own (`side.rs`); their output follows the build's.
    let started = Instant::now();
    let beside = {
        let (root, lib) = (root.to_path_buf(), lib.clone());
        std::thread::spawn(move || {
            let mut side = summary::Kept::default();
            let result = side::run(&root, &lib, &mut side);
            (side, result)
        })
    };
    let built = cargo(root, &["test", "--workspace", "--all-features", "--no-run"], &[]);
    let (side, side_result) = beside.join().map_err(|_| "xtask test: the thread running the side steps panicked".to_string())?;
    tally.timed(BUILD, started);
    std::io::Write::write_all(&mut std::io::stdout(), &side.text).map_err(|e| format!("xtask test: {e}"))?;
    for _ in 0..side.passed {
        tally.step_passed();
    }
    tally.beside.extend(side.times.into_iter().map(|(name, took)| (BUILD, name, took)));
    side_result?;
    // A build that failed is reported again by `cargo test`, and counted there.
    if let Err(e) = built {
        eprintln!("{e}");
    }

    let started = Instant::now();
    let tests = summary::run_counted(root, cargo_command(root).args(["test", "--workspace", "--all-features", "--no-fail-fast"]))?;
    tally.add_cargo_test(&tests);
    tally.timed("cargo test", started);
    // The two releases of the suite run side by side: each is mostly Node starting and waiting on
    // its own server and client (free ports, folders of their own), so together they take about as
    // long as the longer one (BENCHMARKS.md, "Issue 32, the test run"). The next release's output
    // is shown after the latest's.
    let started = Instant::now();
    let next = {
        let root = root.to_path_buf();
        std::thread::spawn(move || conformance_kept(&root, &["--next"]))
    };
    let latest = conformance(root, &[]);
    let next = next.join().map_err(|_| "conformance (next release): the thread running it panicked".to_string())?;
    let latest = latest?;
    tally.add_group("conformance", &latest);
    let (next, text) = next?;
    std::io::Write::write_all(&mut std::io::stdout(), &text).map_err(|e| format!("conformance (next release): {e}"))?;
    tally.add_group("conformance (next release)", &next);
    tally.timed("conformance, both releases side by side", started);
    Ok(())
}

/// The official conformance suite against the example server and client: the registry's latest
/// (pinned in `examples/conformance/suite`), or with `--next` the next release (`suite-next`), by
/// requirement set. Needs npm, which installs the suite and the Node it runs on.
fn conformance(root: &Path, args: &[&str]) -> Result<summary::Output, String> {
    summary::run_counted(root, &mut conformance_command(root, args)).map_err(|e| format!("could not run the conformance suite: {e}"))
}

/// [`conformance`], its output kept to be shown afterwards.
fn conformance_kept(root: &Path, args: &[&str]) -> Result<(summary::Output, Vec<u8>), String> {
    summary::run_counted_kept(root, &mut conformance_command(root, args)).map_err(|e| format!("could not run the conformance suite: {e}"))
}

fn conformance_command(root: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("examples/conformance/run.sh")).args(args).current_dir(root);
    cmd
}

fn cargo_command(root: &Path) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root);
    cmd
}

fn cargo(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let status = cargo_command(root)
        .args(args)
        .envs(env.iter().copied())
        .status()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed", args.join(" ")))
    }
}

#[cfg(test)]
mod tests {
    use super::incremental_for_test;

    #[test]
    fn the_test_run_builds_without_incremental_caches_unless_told() {
        assert_eq!(incremental_for_test(None), Some("0"));
        assert_eq!(incremental_for_test(Some("1".as_ref())), None);
        assert_eq!(incremental_for_test(Some("0".as_ref())), None);
    }
}
