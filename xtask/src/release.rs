//! The release packages, checked by `cargo xtask test`: what `cargo publish` would upload for the
//! published packages (the library, the engine, the checker, the guard layer and the CLI), built
//! from the packaged sources alone (RELEASING.md).

use std::path::Path;

use crate::summary::Kept;

/// The CLI's package; its binary is `mcp-schema`.
pub const CLI: &str = "mcp-spec-types-cli";
/// The session engine's package, on the library; the checker builds on it.
pub const ENGINE: &str = "mcp-spec-engine";
/// The checker's package, on the library and the engine; the guard layer and the CLI build on it.
pub const CHECK: &str = "mcp-spec-check";
/// The checking `tower` layer's package, on the library and the checker; the CLI's proxy builds on it.
pub const GUARD: &str = "mcp-spec-guard";

/// The published packages in their publish order (RELEASING.md), the library's first.
fn packages(lib: &str) -> [&str; 5] {
    [lib, ENGINE, CHECK, GUARD, CLI]
}

/// `-p NAME` for each published package.
fn package_args(lib: &str) -> Vec<&str> {
    packages(lib).into_iter().flat_map(|p| ["-p", p]).collect()
}

/// Registry limit on the size of one package (compressed).
const MAX_CRATE_BYTES: u64 = 10 * 1024 * 1024;

/// `cargo publish --dry-run` of the published packages together: cargo packages them all, then
/// builds the engine, the checker, the guard layer and the CLI against the packages it just made (not against the registry, where a new version of
/// the library is not yet published). Then checks what went into the packages.
pub fn dry_run(root: &Path, lib: &str, side: &mut Kept) -> Result<(), String> {
    let check_dir = target_dir(root).join("publish-check");
    forget_earlier_dry_runs(lib, &package_version(&root.join("generated/Cargo.toml"))?, &check_dir)?;
    let check_dir_arg = check_dir.to_string_lossy().into_owned();
    // The build from the packages proves they compile and link; nobody debugs it. It does not take the
    // workspace's `[profile.dev]` (the packages are built outside the workspace), so without the
    // `--config` it would carry full debug info (BENCHMARKS.md, "Issue 32, fifth session").
    let mut args = vec!["publish", "--dry-run", "--quiet", "--allow-dirty", "--target-dir", &check_dir_arg];
    args.extend(package_args(lib));
    args.extend(["--config", "profile.dev.debug=false"]);
    side.cargo(root, &args, &[])?;
    // The dry run keeps its archives in a scratch folder; this writes them where cargo documents.
    let mut args = vec!["package", "--no-verify", "--quiet", "--allow-dirty"];
    args.extend(package_args(lib));
    side.cargo(root, &args, &[])?;
    let dir = target_dir(root).join("package");
    for (package, manifest) in packages(lib).into_iter().zip(["generated/Cargo.toml", "engine/Cargo.toml", "check/Cargo.toml", "guard/Cargo.toml", "cli/Cargo.toml"]) {
        check_contents(package, &list(root, package)?)?;
        let version = package_version(&root.join(manifest))?;
        let file = dir.join(format!("{package}-{version}.crate"));
        let bytes = std::fs::metadata(&file).map_err(|e| format!("{}: {e}", file.display()))?.len();
        if bytes > MAX_CRATE_BYTES {
            return Err(format!("{}: {bytes} bytes, over the registry's limit of {MAX_CRATE_BYTES}", file.display()));
        }
        side.line(&format!("release: {package} {version} packages and builds from its package ({} KiB compressed)", bytes / 1024));
    }
    Ok(())
}

/// Cargo unpacks the library of a dry run from a scratch registry into `$CARGO_HOME/registry/src/-HASH/`
/// and never unpacks the same name and version again, so a second dry run of an unchanged version
/// would build the CLI against the first run's library sources. Removes those copies (only under
/// the scratch registries' folders, whose names start with `-`; the real registries' are left alone).
/// Cargo also takes a registry package's build as current whatever its sources say, so the CLI
/// would link the first run's library even from fresh sources: the dry run builds in its own
/// folder, where this forgets the builds of both packages (the dependencies' stay).
fn forget_earlier_dry_runs(lib: &str, version: &str, check_dir: &Path) -> Result<(), String> {
    let fingerprints = check_dir.join("debug").join(".fingerprint");
    if let Ok(entries) = std::fs::read_dir(&fingerprints) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let ours = packages(lib).iter().any(|p| name.strip_prefix(p).and_then(|rest| rest.strip_prefix('-')).is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_hexdigit())));
            if ours {
                std::fs::remove_dir_all(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
            }
        }
    }
    let home = std::env::var_os("CARGO_HOME").map(std::path::PathBuf::from).or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else { return Ok(()) };
    let Ok(entries) = std::fs::read_dir(&src) else { return Ok(()) };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for package in packages(lib) {
            let stale = entry.path().join(format!("{package}-{version}"));
            if stale.exists() {
                std::fs::remove_dir_all(&stale).map_err(|e| format!("{}: {e}", stale.display()))?;
            }
        }
    }
    Ok(())
}

/// The files `cargo package` puts in `package`.
fn list(root: &Path, package: &str) -> Result<Vec<String>, String> {
    let out = crate::cargo_command(root)
        .args(["package", "--list", "--quiet", "--allow-dirty", "-p", package])
        .output()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("`cargo package --list -p {package}` failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
}

/// The `[package]` version (the manifest's first `version = "..."` line).
fn package_version(manifest: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    text.lines()
        .find_map(|l| l.strip_prefix("version = \"").and_then(|v| v.strip_suffix('"')))
        .map(str::to_string)
        .ok_or_else(|| format!("{}: no `version`", manifest.display()))
}

/// Only the crate's own sources: no upstream schema files (never redistributed), nothing outside
/// the crate's folder.
fn check_contents(package: &str, files: &[String]) -> Result<(), String> {
    let bad: Vec<&String> =
        files.iter().filter(|f| f.starts_with("upstream/") || f.ends_with("schema.ts") || f.ends_with("schema.json") || f.contains("..")).collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!("the {package} package would include upstream files: {bad:?}"))
    }
}

pub fn target_dir(root: &Path) -> std::path::PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => root.join(t),
        _ => root.join("target"),
    }
}
