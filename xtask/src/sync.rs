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

// ---------------------------------------------------------------------------
// Pin file model
// ---------------------------------------------------------------------------

/// Parsed `schema/pins.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pins {
    #[serde(default)]
    pub source: Vec<PinnedSource>,
}

/// One `[[source]]` table. Which optional fields are required depends on `kind`
/// and is checked by [`Pins::validate`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedSource {
    /// Short label used in messages.
    pub name: String,
    pub kind: SourceKind,
    /// git: `https://github.com/<owner>/<repo>`.
    pub repository: Option<String>,
    /// git: full 40-hex commit id.
    pub commit: Option<String>,
    /// npm: package name, e.g. `@modelcontextprotocol/ext-apps`.
    pub package: Option<String>,
    /// npm: exact version.
    pub version: Option<String>,
    /// npm (optional): sha256 of the packed tarball, checked when fetching.
    pub tarball_sha256: Option<String>,
    /// npm (optional): registry `dist.integrity` (`sha512-<base64>`), checked when fetching.
    pub integrity: Option<String>,
    #[serde(default)]
    pub file: Vec<PinnedFile>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    Git,
    Npm,
}

/// One `[[source.file]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedFile {
    /// Path inside the source (repository tree or npm tarball).
    pub path: String,
    /// Path relative to `upstream/` (and to the mirror root).
    pub dest: String,
    /// Lowercase hex sha256 of the file contents.
    pub sha256: String,
}

impl Pins {
    pub fn load(root: &Path) -> Result<Pins, SyncError> {
        let path = root.join(PINS_FILE);
        let text = fs::read_to_string(&path).map_err(|e| SyncError::io(&path, e))?;
        Pins::parse(&text)
    }

    pub fn parse(text: &str) -> Result<Pins, SyncError> {
        let pins: Pins =
            toml::from_str(text).map_err(|e| SyncError::Pins(format!("{PINS_FILE}: {e}")))?;
        pins.validate()?;
        Ok(pins)
    }

    /// Checks required fields per kind, hash/commit formats, path safety and
    /// that no destination is pinned twice.
    pub fn validate(&self) -> Result<(), SyncError> {
        let bad = |msg: String| Err(SyncError::Pins(format!("{PINS_FILE}: {msg}")));
        let mut dests = BTreeSet::new();
        let mut names = BTreeSet::new();
        for s in &self.source {
            let n = &s.name;
            if n.is_empty() || !names.insert(n.as_str()) {
                return bad(format!("source name `{n}` is empty or duplicated"));
            }
            let need = |field: &Option<String>, what: &str| match field {
                Some(v) if !v.is_empty() => Ok(()),
                _ => bad(format!("source `{n}` (kind = {:?}) needs `{what}`", s.kind)),
            };
            let forbid = |field: &Option<String>, what: &str| match field {
                None => Ok(()),
                Some(_) => bad(format!(
                    "source `{n}` (kind = {:?}) must not set `{what}`",
                    s.kind
                )),
            };
            match s.kind {
                SourceKind::Git => {
                    need(&s.repository, "repository")?;
                    need(&s.commit, "commit")?;
                    for (v, f) in [(&s.package, "package"), (&s.version, "version")] {
                        forbid(v, f)?;
                    }
                    for (v, f) in [
                        (&s.tarball_sha256, "tarball_sha256"),
                        (&s.integrity, "integrity"),
                    ] {
                        forbid(v, f)?;
                    }
                    let c = s.commit.as_deref().unwrap_or_default();
                    if c.len() != 40 || !is_lower_hex(c) {
                        return bad(format!("source `{n}`: commit must be a full 40-digit lowercase hex id, got `{c}`"));
                    }
                    github_owner_repo(s.repository.as_deref().unwrap_or_default())
                        .map_err(|e| SyncError::Pins(format!("{PINS_FILE}: source `{n}`: {e}")))?;
                }
                SourceKind::Npm => {
                    need(&s.package, "package")?;
                    need(&s.version, "version")?;
                    forbid(&s.repository, "repository")?;
                    forbid(&s.commit, "commit")?;
                    if let Some(h) = &s.tarball_sha256 {
                        if !is_sha256(h) {
                            return bad(format!(
                                "source `{n}`: tarball_sha256 must be 64 lowercase hex digits"
                            ));
                        }
                    }
                    if let Some(i) = &s.integrity {
                        if !i.starts_with("sha512-") {
                            return bad(format!(
                                "source `{n}`: integrity must look like `sha512-<base64>`"
                            ));
                        }
                    }
                    let spec_ok = |v: &str| {
                        !v.is_empty()
                            && v.chars()
                                .all(|c| c.is_ascii_alphanumeric() || "@/._-+".contains(c))
                    };
                    if !spec_ok(s.package.as_deref().unwrap_or_default())
                        || !spec_ok(s.version.as_deref().unwrap_or_default())
                    {
                        return bad(format!(
                            "source `{n}`: package/version contain unexpected characters"
                        ));
                    }
                }
            }
            for f in &s.file {
                for (p, what) in [(&f.path, "path"), (&f.dest, "dest")] {
                    if let Err(e) = check_rel_path(p) {
                        return bad(format!("source `{n}`: {what} `{p}` {e}"));
                    }
                }
                if s.kind == SourceKind::Npm && !f.path.starts_with("package/") {
                    return bad(format!(
                        "source `{n}`: npm path `{}` must start with `package/`",
                        f.path
                    ));
                }
                if !is_sha256(&f.sha256) {
                    return bad(format!(
                        "`{}`: sha256 must be 64 lowercase hex digits",
                        f.dest
                    ));
                }
                if !dests.insert(f.dest.as_str()) {
                    return bad(format!("dest `{}` is pinned more than once", f.dest));
                }
            }
        }
        // A dest must not also be a directory of another dest.
        for d in &dests {
            let mut prefix = String::new();
            for comp in d.split('/') {
                if !prefix.is_empty() && dests.contains(prefix.as_str()) {
                    return bad(format!(
                        "dest `{prefix}` is both a file and a directory of `{d}`"
                    ));
                }
                if !prefix.is_empty() {
                    prefix.push('/');
                }
                prefix.push_str(comp);
            }
        }
        Ok(())
    }

    fn file_count(&self) -> usize {
        self.source.iter().map(|s| s.file.len()).sum()
    }
}

fn is_lower_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64 && is_lower_hex(s)
}

/// Relative, `/`-separated, no `.`/`..`/empty components, conservative charset
/// (so paths are safe in URLs, tar member lists and on every OS).
fn check_rel_path(p: &str) -> Result<(), &'static str> {
    if p.is_empty() || p.starts_with('/') || p.ends_with('/') {
        return Err("must be a non-empty relative path");
    }
    if !p
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-@+".contains(c))
    {
        return Err("may only contain ASCII letters, digits and `/._-@+`");
    }
    if p.split('/')
        .any(|c| c.is_empty() || c == "." || c == ".." || c.starts_with('-'))
    {
        return Err("has an empty, `.`, `..` or dash-led component");
    }
    Ok(())
}

fn github_owner_repo(repository: &str) -> Result<&str, String> {
    let rest = repository
        .strip_prefix("https://github.com/")
        .map(|r| r.trim_end_matches('/').trim_end_matches(".git"))
        .ok_or_else(|| format!("only https://github.com/<owner>/<repo> repositories are supported, got `{repository}`"))?;
    let ok = rest.split('/').count() == 2
        && rest.split('/').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        });
    if ok {
        Ok(rest)
    } else {
        Err(format!("cannot read <owner>/<repo> from `{repository}`"))
    }
}

/// `dest` (always `/`-separated) under `base`.
fn join_rel(base: &Path, rel: &str) -> PathBuf {
    rel.split('/').fold(base.to_path_buf(), |p, c| p.join(c))
}

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

fn is_current(path: &Path, sha256: &str) -> bool {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => fs::read(path)
            .map(|b| sha256_hex(&b) == sha256)
            .unwrap_or(false),
        _ => false,
    }
}

fn read_from_mirror(dir: &Path, file: &PinnedFile) -> Result<(Vec<u8>, String), FileProblem> {
    let path = join_rel(dir, &file.dest);
    match fs::read(&path) {
        Ok(bytes) => Ok((bytes, path.display().to_string())),
        Err(e) => Err(FileProblem::Missing {
            dest: file.dest.clone(),
            looked_at: if e.kind() == io::ErrorKind::NotFound {
                path.display().to_string()
            } else {
                format!("{}: {e}", path.display())
            },
        }),
    }
}

/// Write `bytes` to `<upstream>/<dest>` via a temporary file + rename.
fn install(upstream: &Path, dest: &str, bytes: &[u8]) -> Result<(), SyncError> {
    let target = join_rel(upstream, dest);
    let parent = target.parent().expect("dest has a parent");
    fs::create_dir_all(parent).map_err(|e| SyncError::io(parent, e))?;
    let name = target
        .file_name()
        .expect("dest has a file name")
        .to_string_lossy();
    let tmp = parent.join(format!(".{name}.sync-tmp-{}", std::process::id()));
    fs::write(&tmp, bytes).map_err(|e| SyncError::io(&tmp, e))?;
    if let Ok(m) = fs::symlink_metadata(&target) {
        if m.is_dir() {
            let _ = fs::remove_file(&tmp);
            return Err(SyncError::Io(format!(
                "{}: is a directory, expected a pinned file",
                target.display()
            )));
        }
    }
    fs::rename(&tmp, &target).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        SyncError::io(&target, e)
    })
}

/// Delete every file/symlink under `dir` not in `keep`, then empty directories.
/// Returns the number of entries deleted (directories not counted).
fn remove_unpinned(dir: &Path, keep: &BTreeSet<PathBuf>) -> Result<usize, SyncError> {
    let mut removed = 0;
    let entries = fs::read_dir(dir).map_err(|e| SyncError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| SyncError::io(dir, e))?;
        let path = entry.path();
        let ty = entry.file_type().map_err(|e| SyncError::io(&path, e))?;
        if ty.is_dir() {
            removed += remove_unpinned(&path, keep)?;
            if fs::read_dir(&path)
                .map_err(|e| SyncError::io(&path, e))?
                .next()
                .is_none()
            {
                fs::remove_dir(&path).map_err(|e| SyncError::io(&path, e))?;
            }
        } else if !keep.contains(&path) {
            fs::remove_file(&path).map_err(|e| SyncError::io(&path, e))?;
            removed += 1;
        }
    }
    Ok(removed)
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

// ---------------------------------------------------------------------------
// Network fetching
// ---------------------------------------------------------------------------

/// Scratch directory under the cargo target dir, deleted on drop.
struct Staging {
    dir: PathBuf,
}

impl Staging {
    fn new(root: &Path) -> Result<Staging, SyncError> {
        let target = match std::env::var_os("CARGO_TARGET_DIR") {
            Some(t) if !t.is_empty() => root.join(t),
            _ => root.join("target"),
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = target
            .join("xtask-schema-sync")
            .join(format!("{}-{nanos}", std::process::id()));
        fs::create_dir_all(&dir).map_err(|e| SyncError::io(&dir, e))?;
        Ok(Staging { dir })
    }

    fn subdir(&self, name: &str) -> Result<PathBuf, SyncError> {
        let d = self.dir.join(name);
        fs::create_dir_all(&d).map_err(|e| SyncError::io(&d, e))?;
        Ok(d)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

type Fetched<'a> = Vec<(&'a PinnedFile, Result<(Vec<u8>, String), FileProblem>)>;

const NO_NETWORK_HINT: &str = "or set MCP_SCHEMA_MIRROR=<dir> to copy the pinned files from a local mirror laid out like upstream/ (a copy of upstream/ from a machine where `cargo xtask schema sync` ran)";

/// Run a tool, mapping "not installed" and non-zero exit to helpful errors.
fn run_tool(
    cmd: &mut Command,
    tool: &str,
    install_hint: &str,
) -> Result<std::process::Output, SyncError> {
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            SyncError::Tool(format!(
                "`{tool}` was not found on PATH: {install_hint}, {NO_NETWORK_HINT}"
            ))
        } else {
            SyncError::Tool(format!("could not run `{tool}`: {e}; {NO_NETWORK_HINT}"))
        }
    })?;
    if out.status.success() {
        return Ok(out);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let extra = lines.len().saturating_sub(15);
    lines.truncate(15);
    let mut msg = format!("`{tool}` failed ({}):", out.status);
    for l in lines {
        msg.push_str("\n    ");
        msg.push_str(l);
    }
    if extra > 0 {
        msg.push_str(&format!("\n    ... ({extra} more lines)"));
    }
    msg.push_str(&format!("\nCheck network access, {NO_NETWORK_HINT}."));
    Err(SyncError::Tool(msg))
}

fn curl_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Download raw files from GitHub with a single curl invocation.
fn fetch_git<'a>(
    source: &PinnedSource,
    needed: &[&'a PinnedFile],
    stage: &Staging,
    raw_base: &str,
) -> Result<Fetched<'a>, SyncError> {
    let repo = github_owner_repo(source.repository.as_deref().unwrap_or_default())
        .map_err(SyncError::Pins)?;
    let commit = source.commit.as_deref().unwrap_or_default();
    let dir = stage.subdir(&format!("git-{}", source.name))?;
    let mut config = String::new();
    let mut urls = Vec::new();
    for (i, f) in needed.iter().enumerate() {
        let url = format!("{raw_base}/{repo}/{commit}/{}", f.path);
        config.push_str(&format!(
            "url = {}\noutput = {}\n",
            curl_quote(&url),
            curl_quote(&dir.join(i.to_string()).to_string_lossy())
        ));
        urls.push(url);
    }
    let config_path = dir.join("curl.config");
    fs::write(&config_path, config).map_err(|e| SyncError::io(&config_path, e))?;
    let fetched = run_tool(
        Command::new("curl")
            .args([
                "-fsSL",
                "--fail-early",
                "--proto",
                "=https",
                "--retry",
                "3",
                "--config",
            ])
            .arg(&config_path),
        "curl",
        "install curl (e.g. `apt-get install curl`)",
    );
    if let Err(SyncError::Tool(msg)) = fetched {
        // curl stops at the first file it cannot get (`--fail-early`): name it and its URL.
        let missing: Vec<_> = needed
            .iter()
            .zip(&urls)
            .enumerate()
            .filter(|(i, _)| !dir.join(i.to_string()).is_file())
            .map(|(_, fu)| fu)
            .collect();
        let Some((file, url)) = missing.first() else {
            return Err(SyncError::Tool(msg));
        };
        let more = match missing.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more file(s) of source `{}` not fetched)", source.name),
        };
        return Err(SyncError::Tool(format!(
            "schema sync: could not fetch {UPSTREAM_DIR}/{} from {url}{more}\n{msg}",
            file.dest
        )));
    }
    fetched?;
    Ok(needed
        .iter()
        .zip(urls)
        .enumerate()
        .map(|(i, (f, url))| {
            let got = fs::read(dir.join(i.to_string()))
                .map(|b| (b, url.clone()))
                .map_err(|_| FileProblem::Missing {
                    dest: f.dest.clone(),
                    looked_at: url,
                });
            (*f, got)
        })
        .collect())
}

/// `npm pack` the pinned version, check the tarball, extract the pinned files.
fn fetch_npm<'a>(
    source: &PinnedSource,
    needed: &[&'a PinnedFile],
    stage: &Staging,
) -> Result<Fetched<'a>, SyncError> {
    let spec = format!(
        "{}@{}",
        source.package.as_deref().unwrap_or_default(),
        source.version.as_deref().unwrap_or_default()
    );
    let dir = stage.subdir(&format!("npm-{}", source.name))?;
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    run_tool(
        Command::new(npm)
            .args(["pack", "--ignore-scripts", "--silent", &spec])
            .current_dir(&dir),
        "npm",
        "install Node.js/npm (https://nodejs.org)",
    )
    .map_err(|e| match e {
        SyncError::Tool(msg) => SyncError::Tool(format!(
            "schema sync: could not fetch {UPSTREAM_DIR}/{} from the npm package {spec} (`npm pack {spec}`){}\n{msg}",
            needed[0].dest,
            match needed.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more pinned file(s) from it)"),
            }
        )),
        other => other,
    })?;
    let tarballs: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| SyncError::io(&dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tgz"))
        .collect();
    let [tarball] = tarballs.as_slice() else {
        return Err(SyncError::Tool(format!(
            "`npm pack {spec}` produced {} tarballs in {}, expected 1",
            tarballs.len(),
            dir.display()
        )));
    };
    let bytes = fs::read(tarball).map_err(|e| SyncError::io(tarball, e))?;
    let tarball_dest = format!("{spec} tarball");
    if let Some(expected) = &source.tarball_sha256 {
        let actual = sha256_hex(&bytes);
        if &actual != expected {
            return Err(SyncError::Files(vec![FileProblem::Mismatch {
                dest: tarball_dest,
                expected: expected.clone(),
                actual,
                origin: "npm pack".into(),
            }]));
        }
    }
    if let Some(expected) = &source.integrity {
        let actual = format!("sha512-{}", base64(&Sha512::digest(&bytes)));
        if &actual != expected {
            return Err(SyncError::Files(vec![FileProblem::Mismatch {
                dest: tarball_dest,
                expected: expected.clone(),
                actual,
                origin: "npm pack (integrity)".into(),
            }]));
        }
    }
    let out = stage.subdir(&format!("npm-{}-x", source.name))?;
    let tar_name = tarball.file_name().unwrap().to_os_string();
    let mut cmd = Command::new("tar");
    cmd.arg("-xzf")
        .arg(&tar_name)
        .arg("-C")
        .arg(&out)
        .current_dir(&dir);
    for f in needed {
        cmd.arg(&f.path);
    }
    // A missing member makes tar fail; report per file below instead when possible.
    let tar_result = run_tool(&mut cmd, "tar", "install tar");
    let mut any_missing = false;
    let fetched: Fetched<'a> = needed
        .iter()
        .map(|f| {
            let got = fs::read(join_rel(&out, &f.path))
                .map(|b| (b, format!("npm {spec}: {}", f.path)))
                .map_err(|_| {
                    any_missing = true;
                    FileProblem::Missing {
                        dest: f.dest.clone(),
                        looked_at: format!("{} in npm {spec}", f.path),
                    }
                });
            (*f, got)
        })
        .collect();
    match tar_result {
        Err(e) if !any_missing => Err(e),
        _ => Ok(fetched),
    }
}

/// Standard base64 with padding (for npm `integrity`).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Re-pinning from a mirror
// ---------------------------------------------------------------------------

const PINS_HEADER: &str = "\
# Pinned upstream inputs of the MCP schema generator (reviewed; edit deliberately).
#
# `cargo xtask schema sync` fills the git-ignored `upstream/` folder with every
# file below and fails unless each one matches its sha256. It copies from the
# directory named by $MCP_SCHEMA_MIRROR when that is set (laid out like
# `upstream/`, i.e. `<mirror>/<dest>`), otherwise it downloads: raw files at the
# pinned commit for kind = \"git\", `npm pack` (tarball checked against
# `tarball_sha256`/`integrity`) for kind = \"npm\".
#
# path = path inside the source; dest = path under upstream/ (and the mirror).
# Files are sorted by dest. After changing a commit or version, refresh the
# hashes and the `examples/` listings from a mirror with
# `sync::pin_from` (`cargo xtask schema pin --from <mirror>`) and review the diff.
";

/// Rewrite `<root>/schema/pins.toml` from `mirror`: re-hash every pinned file,
/// re-list every pinned `.../examples/` folder (new example files are added,
/// vanished ones dropped), keep source headers as they are, sort by dest.
/// Returns the number of files pinned. npm `tarball_sha256`/`integrity` are
/// not touched (the mirror holds no tarball).
pub fn pin_from(workspace_root: &Path, mirror: &Path) -> Result<usize, SyncError> {
    let mut pins = Pins::load(workspace_root)?;
    let mut problems = Vec::new();
    for source in &mut pins.source {
        // examples root (dest) -> matching root inside the source (path)
        let mut example_roots: BTreeMap<String, String> = BTreeMap::new();
        for f in &source.file {
            if let Some(i) = f.dest.find("/examples/") {
                let dest_root = &f.dest[..i + "/examples".len()];
                let tail = &f.dest[dest_root.len()..];
                if let Some(path_root) = f.path.strip_suffix(tail) {
                    example_roots.insert(dest_root.to_string(), path_root.to_string());
                }
            }
        }
        let mut files: BTreeMap<String, PinnedFile> = source
            .file
            .drain(..)
            .filter(|f| {
                !example_roots
                    .keys()
                    .any(|r| f.dest.starts_with(&format!("{r}/")))
            })
            .map(|f| (f.dest.clone(), f))
            .collect();
        for (dest_root, path_root) in &example_roots {
            let dir = join_rel(mirror, dest_root);
            let mut rels = Vec::new();
            list_files(&dir, "", &mut rels).map_err(|e| SyncError::io(&dir, e))?;
            for rel in rels {
                let dest = format!("{dest_root}/{rel}");
                let path = format!("{path_root}/{rel}");
                files.insert(
                    dest.clone(),
                    PinnedFile {
                        path,
                        dest,
                        sha256: String::new(),
                    },
                );
            }
        }
        for f in files.values_mut() {
            match read_from_mirror(mirror, f) {
                Ok((bytes, _)) => f.sha256 = sha256_hex(&bytes),
                Err(p) => problems.push(p),
            }
        }
        source.file = files.into_values().collect();
    }
    if !problems.is_empty() {
        return Err(SyncError::Files(problems));
    }
    pins.validate()?;
    let text = render_pins(&pins);
    let path = workspace_root.join(PINS_FILE);
    let tmp = path.with_extension("toml.tmp");
    fs::write(&tmp, text).map_err(|e| SyncError::io(&tmp, e))?;
    fs::rename(&tmp, &path).map_err(|e| SyncError::io(&path, e))?;
    Ok(pins.file_count())
}

/// Recursively list regular files under `dir` as sorted `/`-joined relative paths.
fn list_files(dir: &Path, prefix: &str, out: &mut Vec<String>) -> io::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let ty = e.file_type()?;
        if ty.is_dir() {
            list_files(&e.path(), &rel, out)?;
        } else if ty.is_file() {
            out.push(rel);
        }
    }
    Ok(())
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Deterministic pins.toml text (header comment, `[[source]]`, `[[source.file]]`).
pub fn render_pins(pins: &Pins) -> String {
    let mut out = String::from(PINS_HEADER);
    for s in &pins.source {
        out.push_str("\n[[source]]\n");
        out.push_str(&format!("name = {}\n", toml_str(&s.name)));
        let kind = match s.kind {
            SourceKind::Git => "git",
            SourceKind::Npm => "npm",
        };
        out.push_str(&format!("kind = {}\n", toml_str(kind)));
        for (key, val) in [
            ("repository", &s.repository),
            ("commit", &s.commit),
            ("package", &s.package),
            ("version", &s.version),
            ("tarball_sha256", &s.tarball_sha256),
            ("integrity", &s.integrity),
        ] {
            if let Some(v) = val {
                out.push_str(&format!("{key} = {}\n", toml_str(v)));
            }
        }
        for f in &s.file {
            out.push_str("\n[[source.file]]\n");
            out.push_str(&format!("path = {}\n", toml_str(&f.path)));
            out.push_str(&format!("dest = {}\n", toml_str(&f.dest)));
            out.push_str(&format!("sha256 = {}\n", toml_str(&f.sha256)));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Unique scratch directory under the system temp dir, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(label: &str) -> Scratch {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "xtask-sync-{label}-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn write(base: &Path, rel: &str, contents: &[u8]) {
        let p = join_rel(base, rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, contents).unwrap();
    }

    const FILES: &[(&str, &str, &[u8])] = &[
        (
            "schema/v1/schema.ts",
            "spec/schema/v1/schema.ts",
            b"export interface A {}\n",
        ),
        (
            "schema/v1/examples/A/a.json",
            "spec/schema/v1/examples/A/a.json",
            b"{}\n",
        ),
        (
            "package/dist/x.d.ts",
            "pkg/1.0.0/x.d.ts",
            b"declare const x: 1;\n",
        ),
    ];

    /// A workspace root with a pins.toml for FILES, and a mirror holding them.
    fn fixture() -> (Scratch, Scratch) {
        let root = Scratch::new("root");
        let mirror = Scratch::new("mirror");
        let file = |i: usize| {
            let (path, dest, body) = FILES[i];
            PinnedFile {
                path: path.into(),
                dest: dest.into(),
                sha256: sha256_hex(body),
            }
        };
        let pins = Pins {
            source: vec![
                PinnedSource {
                    name: "spec".into(),
                    kind: SourceKind::Git,
                    repository: Some("https://github.com/example/spec".into()),
                    commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
                    package: None,
                    version: None,
                    tarball_sha256: None,
                    integrity: None,
                    file: vec![file(1), file(0)],
                },
                PinnedSource {
                    name: "pkg".into(),
                    kind: SourceKind::Npm,
                    repository: None,
                    commit: None,
                    package: Some("@example/pkg".into()),
                    version: Some("1.0.0".into()),
                    tarball_sha256: None,
                    integrity: Some("sha512-AAAA".into()),
                    file: vec![file(2)],
                },
            ],
        };
        write(&root.0, PINS_FILE, render_pins(&pins).as_bytes());
        for (_, dest, body) in FILES {
            write(&mirror.0, dest, body);
        }
        (root, mirror)
    }

    fn mirror_of(m: &Scratch) -> FetchFrom {
        FetchFrom::Mirror(m.0.clone())
    }

    #[test]
    fn syncs_from_mirror_and_reruns_fast() {
        let (root, mirror) = fixture();
        let r = sync_from(&root.0, mirror_of(&mirror)).unwrap();
        assert_eq!((r.checked, r.fetched, r.current, r.removed), (3, 3, 0, 0));
        for (_, dest, body) in FILES {
            assert_eq!(
                fs::read(join_rel(&root.0.join(UPSTREAM_DIR), dest)).unwrap(),
                *body
            );
        }
        assert!(r.to_string().contains("3 pinned files verified"), "{r}");

        // Re-run: nothing to copy, so the mirror is not even needed.
        let r = sync_from(&root.0, FetchFrom::Mirror(root.0.join("no-such-mirror"))).unwrap();
        assert_eq!((r.fetched, r.current), (0, 3));

        // A locally modified file is replaced; unpinned files and empty dirs are removed.
        let up = root.0.join(UPSTREAM_DIR);
        write(&up, FILES[0].1, b"tampered");
        write(&up, "spec/schema/v0/old.ts", b"stale");
        let r = sync_from(&root.0, mirror_of(&mirror)).unwrap();
        assert_eq!((r.fetched, r.current, r.removed), (1, 2, 1));
        assert_eq!(fs::read(join_rel(&up, FILES[0].1)).unwrap(), FILES[0].2);
        assert!(!up.join("spec/schema/v0").exists());
    }

    #[test]
    fn missing_file_is_named() {
        let (root, mirror) = fixture();
        fs::remove_file(join_rel(&mirror.0, FILES[2].1)).unwrap();
        let err = sync_from(&root.0, mirror_of(&mirror)).unwrap_err();
        match &err {
            SyncError::Files(p) => {
                assert!(matches!(&p[..], [FileProblem::Missing { dest, .. }] if dest == FILES[2].1))
            }
            other => panic!("unexpected error {other:?}"),
        }
        let msg = err.to_string();
        assert!(msg.contains("pkg/1.0.0/x.d.ts: missing"), "{msg}");
        // The other files were still installed.
        assert!(join_rel(&root.0.join(UPSTREAM_DIR), FILES[0].1).is_file());
    }

    #[test]
    fn checksum_mismatch_is_named_with_both_hashes() {
        let (root, mirror) = fixture();
        write(&mirror.0, FILES[0].1, b"export interface B {}\n");
        let err = sync_from(&root.0, mirror_of(&mirror)).unwrap_err();
        let msg = err.to_string();
        let expected = sha256_hex(FILES[0].2);
        let actual = sha256_hex(b"export interface B {}\n");
        assert!(
            msg.contains("spec/schema/v1/schema.ts: sha256 mismatch"),
            "{msg}"
        );
        assert!(msg.contains(&format!("expected {expected}")), "{msg}");
        assert!(msg.contains(&format!("actual {actual}")), "{msg}");
        // The bad file was not installed.
        assert!(!join_rel(&root.0.join(UPSTREAM_DIR), FILES[0].1).exists());
    }

    #[test]
    fn rejects_bad_pins() {
        let ok = "[[source]]\nname = \"a\"\nkind = \"npm\"\npackage = \"p\"\nversion = \"1\"\n";
        let file = |dest: &str| {
            format!(
                "[[source.file]]\npath = \"package/x\"\ndest = \"{dest}\"\nsha256 = \"{}\"\n",
                "0".repeat(64)
            )
        };
        assert!(Pins::parse(&format!("{ok}{}", file("a/x"))).is_ok());
        for (bad, why) in [
            (format!("{ok}{}", file("../x")), "`..`"),
            (format!("{ok}{}", file("/abs")), "relative"),
            (format!("{ok}{}{}", file("a/x"), file("a/x")), "more than once"),
            (format!("{ok}{}{}", file("a"), file("a/x")), "both a file and a directory"),
            (format!("{ok}bogus = 1\n"), "unknown field"),
            (format!("{ok}commit = \"{}\"\n", "0".repeat(40)), "must not set `commit`"),
            ("[[source]]\nname = \"g\"\nkind = \"git\"\nrepository = \"https://github.com/a/b\"\ncommit = \"main\"\n".into(), "40-digit"),
        ] {
            let err = Pins::parse(&bad).unwrap_err().to_string();
            assert!(err.contains(why), "expected `{why}` in: {err}");
        }
    }

    #[test]
    fn base64_matches_rfc4648() {
        for (input, want) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), want);
        }
    }

    #[test]
    fn pin_from_rehashes_and_relists_examples() {
        let (root, mirror) = fixture();
        write(&mirror.0, FILES[0].1, b"changed\n");
        write(&mirror.0, "spec/schema/v1/examples/B/b.json", b"[]\n");
        write(&mirror.0, "spec/schema/v1/schema.mdx", b"not pinned\n");
        assert_eq!(pin_from(&root.0, &mirror.0).unwrap(), 4);
        let pins = Pins::load(&root.0).unwrap();
        let spec = &pins.source[0].file;
        let dests: Vec<&str> = spec.iter().map(|f| f.dest.as_str()).collect();
        assert_eq!(
            dests,
            [
                "spec/schema/v1/examples/A/a.json",
                "spec/schema/v1/examples/B/b.json",
                "spec/schema/v1/schema.ts"
            ]
        );
        assert_eq!(spec[1].path, "schema/v1/examples/B/b.json");
        assert_eq!(spec[2].sha256, sha256_hex(b"changed\n"));
        assert_eq!(pins.source[1].integrity.as_deref(), Some("sha512-AAAA"));
        // Idempotent, and the result syncs.
        let before = fs::read_to_string(root.0.join(PINS_FILE)).unwrap();
        pin_from(&root.0, &mirror.0).unwrap();
        assert_eq!(fs::read_to_string(root.0.join(PINS_FILE)).unwrap(), before);
        assert_eq!(sync_from(&root.0, mirror_of(&mirror)).unwrap().fetched, 4);
    }

    /// Without network and without a mirror, the error names the first file and the URL it could
    /// not fetch, and a first sync leaves no empty `upstream/` behind.
    #[test]
    fn unreachable_network_names_file_and_url_and_leaves_no_upstream() {
        let (root, _mirror) = fixture();
        let pins = Pins::load(&root.0).unwrap();
        // A loopback port nothing listens on: refused at once, no traffic leaves the machine.
        let base = "https://127.0.0.1:9";
        std::env::set_var(GIT_RAW_BASE_ENV, base);
        let err = sync_pins(&root.0, &pins, FetchFrom::Network);
        std::env::remove_var(GIT_RAW_BASE_ENV);
        let err = err.unwrap_err().to_string();
        let url = format!("{base}/example/spec/0123456789abcdef0123456789abcdef01234567/schema/v1/examples/A/a.json");
        assert!(
            err.contains(&format!("could not fetch upstream/spec/schema/v1/examples/A/a.json from {url} (and 1 more file(s) of source `spec`")),
            "{err}"
        );
        assert!(err.contains("MCP_SCHEMA_MIRROR"), "{err}");
        assert!(!root.0.join(UPSTREAM_DIR).exists());
    }

    fn workspace_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    /// The committed pin file parses, validates and is in canonical form.
    #[test]
    fn committed_pins_are_canonical() {
        let text = fs::read_to_string(workspace_root().join(PINS_FILE)).unwrap();
        let pins = Pins::parse(&text).unwrap();
        assert!(pins.file_count() > 0);
        assert_eq!(
            render_pins(&pins),
            text,
            "{PINS_FILE} is not in canonical (sorted, rendered) form"
        );
    }

    /// Copy the committed pins into a scratch root with only `kinds`.
    fn scratch_with_committed_pins(label: &str, kinds: &[SourceKind]) -> (Scratch, Pins) {
        let root = Scratch::new(label);
        let mut pins = Pins::load(&workspace_root()).unwrap();
        pins.source.retain(|s| kinds.contains(&s.kind));
        write(&root.0, PINS_FILE, render_pins(&pins).as_bytes());
        (root, pins)
    }

    fn mirror_from_env() -> PathBuf {
        PathBuf::from(
            std::env::var_os(MIRROR_ENV)
                .unwrap_or_else(|| panic!("set {MIRROR_ENV} to run this test")),
        )
    }

    /// `MCP_SCHEMA_MIRROR=<dir> cargo test -p xtask -- --ignored real_mirror`
    #[test]
    #[ignore = "needs MCP_SCHEMA_MIRROR"]
    fn real_mirror_matches_pins() {
        let mirror = mirror_from_env();
        let (root, pins) = scratch_with_committed_pins("real", &[SourceKind::Git, SourceKind::Npm]);
        let r =
            sync_from(&root.0, FetchFrom::Mirror(mirror.clone())).unwrap_or_else(|e| panic!("{e}"));
        println!("{r}");
        assert_eq!(
            (r.checked, r.fetched),
            (pins.file_count(), pins.file_count())
        );
        // Re-pinning from the same mirror reproduces the committed file exactly.
        pin_from(&root.0, &mirror).unwrap();
        let regenerated = fs::read_to_string(root.0.join(PINS_FILE)).unwrap();
        let committed = fs::read_to_string(workspace_root().join(PINS_FILE)).unwrap();
        if regenerated != committed {
            let keep = std::env::temp_dir().join("pins.regenerated.toml");
            fs::write(&keep, &regenerated).unwrap();
            panic!(
                "pin_from differs from the committed pins; see {}",
                keep.display()
            );
        }
    }

    /// `cargo test -p xtask -- --ignored network_npm` (needs the npm registry).
    #[test]
    #[ignore = "needs network + npm"]
    fn network_npm_matches_pins() {
        let (root, pins) = scratch_with_committed_pins("npm", &[SourceKind::Npm]);
        let r = sync_from(&root.0, FetchFrom::Network).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.fetched, pins.file_count());
    }

    /// `cargo test -p xtask -- --ignored network_git` (needs raw.githubusercontent.com).
    #[test]
    #[ignore = "needs network + curl"]
    fn network_git_matches_pins() {
        let (root, pins) = scratch_with_committed_pins("git", &[SourceKind::Git]);
        let r = sync_from(&root.0, FetchFrom::Network).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.fetched, pins.file_count());
    }
}
