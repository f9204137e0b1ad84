//! Project tasks: `cargo xtask <command>`. The only place that writes files.

#![forbid(unsafe_code)]

mod codegen;
mod lanes;
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
    forget_cargo_run_env();
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

/// Removes what cargo sets for the program it runs (`cargo xtask` is `cargo run`), so the cargo and
/// the tests xtask starts see the environment a plain `cargo build` sees. A build script that asks to
/// run again when one of them changes (ring's asks for `CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME`, ...)
/// would otherwise find xtask's values under `cargo xtask` and none under `cargo build`, and ring
/// and the TLS crates above it would be built again at every switch between the two.
fn forget_cargo_run_env() {
    let set_by_cargo_run = |name: &str| {
        name.starts_with("CARGO_PKG_")
            || matches!(name, "CARGO_MANIFEST_DIR" | "CARGO_MANIFEST_PATH" | "CARGO_MANIFEST_LINKS" | "CARGO_CRATE_NAME" | "CARGO_BIN_NAME" | "CARGO_PRIMARY_PACKAGE" | "OUT_DIR")
    };
    let names: Vec<_> = std::env::vars_os().map(|(k, _)| k).filter(|k| k.to_str().is_some_and(set_by_cargo_run)).collect();
    for name in names {
        // Before any thread starts: nothing else reads the environment yet.
        std::env::remove_var(name);
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
/// packages; then every test and the conformance suite, in lanes. Ends with one `N passed, N failed`
/// line over all of them (each test executable prints its own).
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

/// The steps of `test`. A failure before the tests run (the tests' build among them) stops the run:
/// later steps would test stale or broken code. From there on every job runs and its counts are
/// added up.
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
    let built = lanes::build_tests(root);
    let (side, side_result) = beside.join().map_err(|_| "xtask test: the thread running the side steps panicked".to_string())?;
    tally.timed(BUILD, started);
    std::io::Write::write_all(&mut std::io::stdout(), &side.text).map_err(|e| format!("xtask test: {e}"))?;
    for _ in 0..side.passed {
        tally.step_passed();
    }
    tally.within.extend(side.times.into_iter().map(|(name, took)| ("beside the tests' build", name.to_string(), took)));
    side_result?;
    let (integration, unit) = built?;

    // Every test executable, the doc tests and the conformance suite, as many at once as there are
    // cores (`lanes.rs`), longest first by the last run's times. A first run (CI's) takes them in the
    // order below: integration tests, which wait on real peers longest, before the rest.
    let mut jobs = integration;
    jobs.push(conformance_job(root));
    jobs.extend(unit);
    jobs.push(lanes::doc_tests(root));
    let times_file = lanes::times_file(root);
    lanes::longest_first(&mut jobs, &std::fs::read_to_string(&times_file).unwrap_or_default());
    let lane_count = std::thread::available_parallelism().map_or(2, |n| n.get());
    let started = Instant::now();
    let done = lanes::run(jobs, lane_count, &mut std::io::stdout());
    const LANES: &str = "tests and conformance in lanes";
    tally.timed(LANES, started);
    // Only a note for the next run's order: a run that cannot keep it loses nothing else.
    let _ = std::fs::create_dir_all(times_file.parent().unwrap_or(root)).and_then(|()| std::fs::write(&times_file, lanes::times_text(&done)));
    tally.add_cargo_test(&lanes::group_output(&done, lanes::Group::Tests));
    for suite in [CONFORMANCE, CONFORMANCE_NEXT] {
        tally.add_group(suite, &lanes::group_output(&done, lanes::Group::Suite(suite)));
    }
    let mut longest: Vec<&lanes::Done> = done.iter().collect();
    longest.sort_by_key(|d| std::cmp::Reverse(d.took));
    tally.within.extend(longest.iter().take(5).map(|d| ("the longest in the lanes", d.name.clone(), d.took)));
    Ok(())
}

const CONFORMANCE: &str = "conformance";
const CONFORMANCE_NEXT: &str = "conformance (next release)";

/// The two releases of the conformance suite as one job, side by side: each is mostly Node starting
/// and waiting on its own server and client (free ports, folders of their own), so together they
/// take about as long as the longer one (BENCHMARKS.md, "Issue 32, the test run"). The next
/// release's output follows the latest's.
fn conformance_job(root: &Path) -> lanes::Job {
    let root = root.to_path_buf();
    let run = move || {
        let next = {
            let root = root.clone();
            std::thread::spawn(move || conformance_kept(&root, &["--next"]))
        };
        let latest = conformance_kept(&root, &[]);
        let next = next.join().unwrap_or_else(|_| Err("conformance (next release): the thread running it panicked".to_string()));
        let mut text = Vec::new();
        let mut results = Vec::new();
        for (suite, ran) in [(CONFORMANCE, latest), (CONFORMANCE_NEXT, next)] {
            let out = match ran {
                Ok((out, kept)) => {
                    text.extend_from_slice(&kept);
                    out
                }
                Err(e) => {
                    text.extend_from_slice(format!("{e}\n").as_bytes());
                    summary::Output::default()
                }
            };
            results.push((lanes::Group::Suite(suite), out));
        }
        lanes::Ran { results, text }
    };
    lanes::Job { name: "conformance".into(), title: "conformance suite, latest and next release (examples/conformance/run.sh)".into(), run: Box::new(run) }
}

/// The official conformance suite against the example server and client: the registry's latest
/// (pinned in `examples/conformance/suite`), or with `--next` the next release (`suite-next`), by
/// requirement set. Needs npm, which installs the suite and the Node it runs on. Its output is kept.
fn conformance_kept(root: &Path, args: &[&str]) -> Result<(summary::Output, Vec<u8>), String> {
    summary::run_counted(root, &mut conformance_command(root, args)).map_err(|e| format!("could not run the conformance suite: {e}"))
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
