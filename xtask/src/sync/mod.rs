//! `cargo xtask schema sync`: fill the git-ignored `upstream/` folder with the
//! upstream inputs pinned in `schema/pins.toml`, verifying every sha256.
//!
//! Inputs come either from a local mirror (env var [`MIRROR_ENV`], laid out like
//! `upstream/` itself: `<mirror>/<dest>`) or from the network: raw GitHub files
//! via `curl` for `kind = "git"` sources, `npm pack` + `tar` for `kind = "npm"`
//! sources (the tarball's own `tarball_sha256` / `integrity` are checked too).
//!
//! Behaviour:
//! - a file already in `upstream/` with the pinned hash is left alone, so a
//!   re-run is fast and does no network access;
//! - every file is verified before it is installed, written to a temporary
//!   name next to its destination and renamed into place;
//! - anything in `upstream/` that is not pinned (files from an older pin set,
//!   leftover temporaries) is deleted, together with directories left empty,
//!   so globbing `upstream/` never picks up unpinned inputs;
//! - all per-file problems (missing, hash mismatch) are collected and reported
//!   together; files that did verify are still installed.
//!
//! [`pin_from`] is the maintenance side: it rewrites `schema/pins.toml` from a
//! mirror (re-hashing every entry and re-listing pinned `examples/` folders).

use serde::Deserialize;
use sha2::{Digest, Sha256, Sha512};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Environment variable naming a local mirror directory to copy from instead
/// of fetching from the network.
pub const MIRROR_ENV: &str = "MCP_SCHEMA_MIRROR";
/// Pin file, relative to the workspace root.
pub const PINS_FILE: &str = "schema/pins.toml";
/// Synced folder, relative to the workspace root (git-ignored).
pub const UPSTREAM_DIR: &str = "upstream";

mod fetch;
mod local;
mod pins;
mod repin;
#[cfg(test)]
mod tests;

pub use local::sha256_hex;
pub use pins::{PinnedFile, PinnedSource, Pins, SourceKind};
pub use repin::pin_from;
use fetch::{fetch_git, fetch_npm, Fetched, Staging};
use local::{install, is_current, read_from_mirror, remove_unpinned};
use pins::{github_owner_repo, join_rel};

// ---------------------------------------------------------------------------
// Errors and report
// ---------------------------------------------------------------------------

/// A problem with one pinned file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileProblem {
    /// The file was not found where it should have been (`looked_at`).
    Missing { dest: String, looked_at: String },
    /// The file's contents do not match the pin.
    Mismatch {
        dest: String,
        expected: String,
        actual: String,
        origin: String,
    },
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::Missing { dest, looked_at } => {
                write!(f, "{dest}: missing (looked for {looked_at})")
            }
            FileProblem::Mismatch {
                dest,
                expected,
                actual,
                origin,
            } => {
                write!(
                    f,
                    "{dest}: sha256 mismatch from {origin}: expected {expected}, actual {actual}"
                )
            }
        }
    }
}

#[derive(Debug)]
pub enum SyncError {
    /// `schema/pins.toml` could not be parsed or is inconsistent.
    Pins(String),
    /// Filesystem error (message includes the path).
    Io(String),
    /// An external tool (curl, npm, tar) is missing or failed; message says what to do.
    Tool(String),
    /// One or more pinned files are missing or do not match their hash.
    Files(Vec<FileProblem>),
}

impl SyncError {
    fn io(path: &Path, e: io::Error) -> SyncError {
        SyncError::Io(format!("{}: {e}", path.display()))
    }
}

impl fmt::Display for SyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncError::Pins(m) | SyncError::Io(m) | SyncError::Tool(m) => f.write_str(m),
            SyncError::Files(problems) => {
                write!(
                    f,
                    "{} pinned file(s) failed verification against {PINS_FILE}:",
                    problems.len()
                )?;
                for p in problems {
                    write!(f, "\n  - {p}")?;
                }
                if problems
                    .iter()
                    .any(|p| matches!(p, FileProblem::Mismatch { .. }))
                {
                    write!(
                        f,
                        "\nIf upstream really changed, review the change and update {PINS_FILE} deliberately."
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SyncError {}

/// Where to get files that are not already current in `upstream/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchFrom {
    /// Copy `<dir>/<dest>` for each pinned file.
    Mirror(PathBuf),
    /// curl (git sources) and npm + tar (npm sources).
    Network,
}

impl fmt::Display for FetchFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchFrom::Mirror(p) => write!(f, "mirror {}", p.display()),
            FetchFrom::Network => f.write_str("network"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncReport {
    /// Number of pinned files checked.
    pub checked: usize,
    /// Files copied from the mirror or fetched from the network.
    pub fetched: usize,
    /// Files already present with the right hash (left untouched).
    pub current: usize,
    /// Unpinned files deleted from `upstream/`.
    pub removed: usize,
    pub from: FetchFrom,
}

impl fmt::Display for SyncReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "schema sync: {} pinned files verified in {UPSTREAM_DIR}/ ({} fetched from {}, {} already current, {} unpinned removed)",
            self.checked, self.fetched, self.from, self.current, self.removed
        )
    }
}

// ---------------------------------------------------------------------------
// Sync
// ---------------------------------------------------------------------------

/// Entry point for `cargo xtask schema sync`: mirror from `$MCP_SCHEMA_MIRROR`
/// when set (and non-empty), the network otherwise.
pub fn sync(workspace_root: &Path) -> Result<SyncReport, SyncError> {
    let from = match std::env::var_os(MIRROR_ENV) {
        Some(dir) if !dir.is_empty() => FetchFrom::Mirror(PathBuf::from(dir)),
        _ => FetchFrom::Network,
    };
    sync_from(workspace_root, from)
}

/// Sync `<root>/upstream/` from the pins in `<root>/schema/pins.toml`.
pub fn sync_from(workspace_root: &Path, from: FetchFrom) -> Result<SyncReport, SyncError> {
    let pins = Pins::load(workspace_root)?;
    sync_pins(workspace_root, &pins, from)
}

/// Where raw files of `kind = "git"` sources are downloaded from: `<base>/<owner>/<repo>/<commit>/<path>`.
const GIT_RAW_BASE: &str = "https://raw.githubusercontent.com";
/// Overrides [`GIT_RAW_BASE`] (a proxy of GitHub's raw files, or an unreachable address to try the
/// error a machine without network gets).
pub const GIT_RAW_BASE_ENV: &str = "MCP_SCHEMA_GIT_RAW_BASE";

/// Like [`sync_from`] with already-loaded pins.
pub fn sync_pins(
    workspace_root: &Path,
    pins: &Pins,
    from: FetchFrom,
) -> Result<SyncReport, SyncError> {
    let base = match std::env::var(GIT_RAW_BASE_ENV) {
        Ok(b) if !b.is_empty() => b,
        _ => GIT_RAW_BASE.to_string(),
    };
    let upstream = workspace_root.join(UPSTREAM_DIR);
    let existed = upstream.exists();
    let result = sync_pins_at(workspace_root, pins, from, base.trim_end_matches('/'));
    // A first sync that fetched nothing leaves no empty `upstream/` behind.
    if result.is_err() && !existed {
        remove_empty_dirs(&upstream);
    }
    result
}

/// Removes `dir` and the directories under it when they hold no file.
fn remove_empty_dirs(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                remove_empty_dirs(&e.path());
            }
        }
    }
    let _ = fs::remove_dir(dir);
}

fn sync_pins_at(
    workspace_root: &Path,
    pins: &Pins,
    from: FetchFrom,
    git_raw_base: &str,
) -> Result<SyncReport, SyncError> {
    pins.validate()?;
    let upstream = workspace_root.join(UPSTREAM_DIR);
    fs::create_dir_all(&upstream).map_err(|e| SyncError::io(&upstream, e))?;

    let mut report = SyncReport {
        checked: pins.file_count(),
        fetched: 0,
        current: 0,
        removed: 0,
        from: from.clone(),
    };
    let mut problems = Vec::new();
    let mut staging: Option<Staging> = None;

    for source in &pins.source {
        let mut needed = Vec::new();
        for file in &source.file {
            if is_current(&join_rel(&upstream, &file.dest), &file.sha256) {
                report.current += 1;
            } else {
                needed.push(file);
            }
        }
        if needed.is_empty() {
            continue;
        }
        let fetched: Fetched<'_> = match &from {
            FetchFrom::Mirror(dir) => {
                if !dir.is_dir() {
                    return Err(SyncError::Io(format!(
                        "mirror {} (from {MIRROR_ENV}) is not a directory",
                        dir.display()
                    )));
                }
                needed
                    .iter()
                    .map(|f| (*f, read_from_mirror(dir, f)))
                    .collect()
            }
            FetchFrom::Network => {
                if staging.is_none() {
                    staging = Some(Staging::new(workspace_root)?);
                }
                let stage = staging.as_ref().unwrap();
                match source.kind {
                    SourceKind::Git => fetch_git(source, &needed, stage, git_raw_base)?,
                    SourceKind::Npm => fetch_npm(source, &needed, stage)?,
                }
            }
        };
        for (file, got) in fetched {
            match got {
                Err(p) => problems.push(p),
                Ok((bytes, origin)) => {
                    let actual = sha256_hex(&bytes);
                    if actual != file.sha256 {
                        problems.push(FileProblem::Mismatch {
                            dest: file.dest.clone(),
                            expected: file.sha256.clone(),
                            actual,
                            origin,
                        });
                    } else {
                        install(&upstream, &file.dest, &bytes)?;
                        report.fetched += 1;
                    }
                }
            }
        }
    }
    drop(staging);

    let pinned: BTreeSet<PathBuf> = pins
        .source
        .iter()
        .flat_map(|s| &s.file)
        .map(|f| join_rel(&upstream, &f.dest))
        .collect();
    report.removed = remove_unpinned(&upstream, &pinned)?;

    if problems.is_empty() {
        Ok(report)
    } else {
        Err(SyncError::Files(problems))
    }
}
