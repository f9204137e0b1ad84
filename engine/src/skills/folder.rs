//! A folder of skills, read once: every directory holding a `SKILL.md` is a skill (at any depth, so
//! `acme/billing/refunds` has the prefix `acme/billing`, and a skill may hold others), its frontmatter
//! parsed, and every file under it listed with its size and SHA-256 digest.
//!
//! Nothing outside the folder is served: paths are the folder's own (a URI is only ever looked up,
//! never joined to a path), and a symbolic link whose target is outside the folder refuses the skill
//! that holds it. A link inside the folder is followed once (a loop of links is not walked twice).

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::frontmatter;
use super::rules::{name_problem, skill_directory, DESCRIPTION_MAX_CHARS, MAX_ENTRIES, MAX_TOTAL_BYTES, SKILL_FILE};

/// The URI scheme the folder's skills are served under.
pub const SCHEME: &str = "skill://";

/// One file of a skill: its URI, where it is, and its size and digest when loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    pub uri: String,
    /// The file's canonical path (inside the folder).
    pub path: PathBuf,
    pub size: u64,
    /// `sha256:` and 64 lowercase hexadecimal digits.
    pub digest: String,
}

/// One skill: the URI of its `SKILL.md`, its frontmatter as JSON, and every file under its directory.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSkill {
    pub uri: String,
    pub frontmatter: Map<String, Value>,
    /// Every file, `SKILL.md` and nested skills' files included, by URI.
    pub files: Vec<File>,
}

impl LoadedSkill {
    /// The skill's directory URI (its `SKILL.md` URI without `/SKILL.md`).
    pub fn directory(&self) -> &str {
        skill_directory(&self.uri).unwrap_or(&self.uri)
    }

    pub fn name(&self) -> &str {
        self.frontmatter.get("name").and_then(Value::as_str).unwrap_or_default()
    }

    pub fn description(&self) -> Option<&str> {
        self.frontmatter.get("description").and_then(Value::as_str)
    }

    pub fn total_size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }
}

/// A skill the folder holds and the server does not serve, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The skill's directory, relative to the folder.
    pub path: PathBuf,
    pub why: String,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

/// What loading a folder found: the skills served (by URI), those refused, and warnings about
/// the ones served anyway.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub skills: Vec<LoadedSkill>,
    pub refused: Vec<Refused>,
    pub warnings: Vec<String>,
}

/// Whether a skill over the spec's per-skill limits (512 files, 16 MiB in all) is served: servers
/// SHOULD NOT serve one, so by default it is refused; [`OverLimits::Warn`] serves it with a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OverLimits {
    #[default]
    Refuse,
    Warn,
}

/// Reads `root` (see the module documentation). An error only when the folder itself cannot be
/// read; a skill that cannot be served is in [`Loaded::refused`].
pub fn load(root: &Path, over_limits: OverLimits) -> io::Result<Loaded> {
    let root = root.canonicalize()?;
    let mut dirs = Vec::new();
    let mut seen = BTreeSet::new();
    skill_dirs(&root, &root, &mut dirs, &mut seen)?;
    let mut loaded = Loaded::default();
    for dir in dirs {
        let relative = dir.strip_prefix(&root).unwrap_or(&dir).to_path_buf();
        match load_skill(&root, &dir, over_limits, &mut loaded.warnings) {
            Ok(skill) => loaded.skills.push(skill),
            Err(why) => loaded.refused.push(Refused { path: relative, why }),
        }
    }
    loaded.skills.sort_by(|a, b| a.uri.cmp(&b.uri));
    Ok(loaded)
}

/// The directories under `dir` (itself included) that hold a `SKILL.md`. Links are followed only
/// to directories inside `root`, each walked once.
fn skill_dirs(root: &Path, dir: &Path, found: &mut Vec<PathBuf>, seen: &mut BTreeSet<PathBuf>) -> io::Result<()> {
    if !seen.insert(dir.to_path_buf()) {
        return Ok(());
    }
    if dir != root && dir.join(SKILL_FILE).is_file() {
        found.push(dir.to_path_buf());
    }
    for entry in sorted_entries(dir)? {
        if let Ok(target) = entry.canonicalize() {
            if target.starts_with(root) && target.is_dir() {
                skill_dirs(root, &target, found, seen)?;
            }
        }
    }
    Ok(())
}

fn sorted_entries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut entries = fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<io::Result<Vec<_>>>()?;
    entries.sort();
    Ok(entries)
}

fn load_skill(root: &Path, dir: &Path, over_limits: OverLimits, warnings: &mut Vec<String>) -> Result<LoadedSkill, String> {
    let segments: Vec<String> = dir.strip_prefix(root).map_err(|_| "not inside the folder".to_string())?.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let name_segment = segments.last().cloned().unwrap_or_default();
    let uri = format!("{SCHEME}{}/{SKILL_FILE}", segments.iter().map(|s| encode_segment(s)).collect::<Vec<_>>().join("/"));
    let text = fs::read_to_string(dir.join(SKILL_FILE)).map_err(|e| format!("{SKILL_FILE} is not readable text: {e}"))?;
    let frontmatter = frontmatter::parse(&text).map_err(|e| format!("{SKILL_FILE}'s frontmatter: {e}"))?;
    let name = frontmatter.get("name").and_then(Value::as_str).ok_or("the frontmatter has no string `name`")?;
    if let Some(problem) = name_problem(name) {
        return Err(format!("the name `{name}` breaks the Agent Skills naming rules: {problem}"));
    }
    if name != name_segment {
        return Err(format!("the name `{name}` is not the directory's name `{name_segment}`"));
    }
    match frontmatter.get("description").and_then(Value::as_str) {
        None => return Err("the frontmatter has no string `description`".into()),
        Some("") => return Err("the description is empty".into()),
        Some(d) if d.chars().count() > DESCRIPTION_MAX_CHARS => return Err(format!("the description is longer than {DESCRIPTION_MAX_CHARS} characters")),
        Some(_) => {}
    }
    let mut files = Vec::new();
    let mut seen = BTreeSet::new();
    let base = uri.strip_suffix(SKILL_FILE).unwrap_or(&uri).to_owned();
    skill_files(root, dir, &base, &mut files, &mut seen)?;
    files.sort_by(|a, b| a.uri.cmp(&b.uri));
    let skill = LoadedSkill { uri, frontmatter, files };
    let (count, total) = (skill.files.len(), skill.total_size());
    if count > MAX_ENTRIES || total > MAX_TOTAL_BYTES {
        let over = format!("{count} files and {total} bytes, over the limits of {MAX_ENTRIES} files and {MAX_TOTAL_BYTES} bytes per skill");
        if over_limits == OverLimits::Refuse {
            return Err(over);
        }
        warnings.push(format!("{}: served with {over}: hosts need not load it", skill.uri));
    }
    Ok(skill)
}

/// Every file under `dir`, as `base` + its relative path; a link out of `root` is an error.
fn skill_files(root: &Path, dir: &Path, base: &str, files: &mut Vec<File>, seen: &mut BTreeSet<PathBuf>) -> Result<(), String> {
    if !seen.insert(dir.to_path_buf()) {
        return Ok(());
    }
    for entry in sorted_entries(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let leaf = entry.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let target = entry.canonicalize().map_err(|e| format!("{}: {e}", entry.display()))?;
        if !target.starts_with(root) {
            return Err(format!("{} leads outside the folder", entry.display()));
        }
        let uri = format!("{base}{}", encode_segment(&leaf));
        if target.is_dir() {
            skill_files(root, &target, &format!("{uri}/"), files, seen)?;
        } else if target.is_file() {
            let (size, digest) = digest_of(&target).map_err(|e| format!("{}: {e}", entry.display()))?;
            files.push(File { uri, path: target, size, digest });
        }
    }
    Ok(())
}

/// The size and `sha256:` digest of a file's bytes.
pub fn digest_of(path: &Path) -> io::Result<(u64, String)> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = [0u8; 64 * 1024];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        hasher.update(&buf[..n]);
    }
    Ok((size, format!("sha256:{}", hex(&hasher.finalize()))))
}

/// The `sha256:` digest of bytes in memory.
pub fn digest_bytes(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A path segment as a URI writes it: RFC 3986's unreserved characters as they are, every other
/// byte of its UTF-8 percent-encoded (`café` is `caf%C3%A9`).
pub fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
