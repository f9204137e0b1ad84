//! The steps of `cargo xtask test` that run beside the test build: the library compiling with each
//! module feature alone, its docs without warnings under each feature set, the fuzz crate's kept
//! inputs replayed, and the release packages. None of them needs the test build, and each is mostly one rustc at a time, so they
//! take the core the test build leaves idle (BENCHMARKS.md, "Issue 32, fourth session"). They build
//! in their own target folders (cargo lets one build at a time into a folder), and their output is
//! kept and shown after the build's.

use std::ffi::OsStr;
use std::path::Path;
use std::time::Instant;

use crate::summary::Kept;
use crate::{codegen, release};

/// Runs the side steps in order, stopping at the first that fails: `side` holds what ran (output,
/// steps passed, their times).
pub fn run(root: &Path, lib: &str, side: &mut Kept) -> Result<(), String> {
    let dir = release::target_dir(root).join("side");
    let (features, default) = codegen::module_features(root)?;
    let shown = |f: &str| if f.is_empty() { "no features".to_string() } else { format!("feature {f} alone") };
    let mut sets: Vec<String> = vec![String::new()];
    sets.extend(features);

    let started = Instant::now();
    for f in &sets {
        side.cargo(root, &["check", "--quiet", "-p", lib, "--no-default-features", "--features", f], &[("CARGO_TARGET_DIR", dir.as_os_str())])
            .map_err(|e| format!("{}: {e}", shown(f)))?;
        side.line(&format!("check: {lib} with {} compiles", shown(f)));
        side.passed += 1;
    }
    side.times.push(("feature checks", started.elapsed()));

    // A doc link can resolve under one feature set and not another, so each gets its own doc build.
    let mut doc_sets: Vec<(String, Vec<&str>)> = sets.iter().map(|f| (shown(f), vec!["--no-default-features", "--features", f.as_str()])).collect();
    // The default features are the latest module's feature alone, documented above.
    match &default {
        Some(f) if sets.contains(f) => side.line(&format!("doc: the default features are {}, documented with it", shown(f))),
        _ => doc_sets.push(("default features".to_string(), vec![])),
    }
    doc_sets.push(("all features".to_string(), vec!["--all-features"]));
    let started = Instant::now();
    for (shown, flags) in &doc_sets {
        let mut args = vec!["doc", "--quiet", "-p", lib, "--no-deps"];
        args.extend(flags);
        side.cargo(root, &args, &[("CARGO_TARGET_DIR", dir.as_os_str()), ("RUSTDOCFLAGS", OsStr::new("-D warnings"))])
            .map_err(|e| format!("docs with {shown}: {e}"))?;
        side.line(&format!("doc: {lib} docs with {shown} build without warnings"));
        side.passed += 1;
    }
    // The engine: on its own features (the library's come through it), without and with all of them.
    for (shown, flags) in [("no features", vec!["--no-default-features"]), ("all features", vec!["--all-features"])] {
        let mut args = vec!["doc", "--quiet", "-p", release::ENGINE, "--no-deps"];
        args.extend(flags);
        side.cargo(root, &args, &[("CARGO_TARGET_DIR", dir.as_os_str()), ("RUSTDOCFLAGS", OsStr::new("-D warnings"))])
            .map_err(|e| format!("{} docs with {shown}: {e}", release::ENGINE))?;
        side.line(&format!("doc: {} docs with {shown} build without warnings", release::ENGINE));
        side.passed += 1;
    }
    // The checker has no features of its own.
    let args = ["doc", "--quiet", "-p", release::CHECK, "--no-deps"];
    side.cargo(root, &args, &[("CARGO_TARGET_DIR", dir.as_os_str()), ("RUSTDOCFLAGS", OsStr::new("-D warnings"))]).map_err(|e| format!("{} docs: {e}", release::CHECK))?;
    side.line(&format!("doc: {} docs build without warnings", release::CHECK));
    side.passed += 1;
    // The guard layer, with its one feature (`metrics`).
    let args = ["doc", "--quiet", "-p", release::GUARD, "--no-deps", "--all-features"];
    side.cargo(root, &args, &[("CARGO_TARGET_DIR", dir.as_os_str()), ("RUSTDOCFLAGS", OsStr::new("-D warnings"))]).map_err(|e| format!("{} docs: {e}", release::GUARD))?;
    side.line(&format!("doc: {} docs with all features build without warnings", release::GUARD));
    side.passed += 1;
    side.times.push(("docs", started.elapsed()));

    let started = Instant::now();
    fuzz_replay(root, &dir.join("fuzz"), side)?;
    side.times.push(("fuzz replay", started.elapsed()));

    let started = Instant::now();
    release::dry_run(root, lib, side)?;
    side.passed += 1;
    side.times.push(("release packages", started.elapsed()));
    Ok(())
}

/// The fuzz crate is outside the workspace (libFuzzer's flags must not reach the normal build), so
/// nothing else compiles it: a change to the crates it calls left it broken unseen twice. Its
/// stable runner (no libFuzzer) is built here and replays each target's failing inputs kept in
/// `fuzz/regressions/` and its seeds in `fuzz/seeds/`.
fn fuzz_replay(root: &Path, dir: &Path, side: &mut Kept) -> Result<(), String> {
    let fuzz = root.join("fuzz");
    let targets = std::fs::read_dir(fuzz.join("fuzz_targets")).map_err(|e| format!("fuzz/fuzz_targets: {e}"))?;
    let mut targets: Vec<String> = targets.filter_map(|e| Some(e.ok()?.path().file_stem()?.to_str()?.to_string())).collect();
    targets.sort();
    for t in &targets {
        let kept: Vec<String> = ["regressions", "seeds"].iter().map(|d| format!("fuzz/{d}/{t}")).filter(|d| root.join(d).is_dir()).collect();
        if kept.is_empty() {
            continue;
        }
        let mut args = vec!["run", "--quiet", "--manifest-path", "fuzz/Cargo.toml", "--no-default-features", "--bin", "replay", "--", t.as_str()];
        args.extend(kept.iter().map(String::as_str));
        side.cargo(root, &args, &[("CARGO_TARGET_DIR", dir.as_os_str())]).map_err(|e| format!("fuzz replay of {t}: {e}"))?;
        side.line(&format!("fuzz: {t}'s kept inputs replay without a failure ({})", kept.join(", ")));
        side.passed += 1;
    }
    Ok(())
}
