//! The pin file `schema/pins.toml`: its model, its validation and the path rules.

use super::*;

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

    pub(super) fn file_count(&self) -> usize {
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

pub(super) fn github_owner_repo(repository: &str) -> Result<&str, String> {
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
pub(super) fn join_rel(base: &Path, rel: &str) -> PathBuf {
    rel.split('/').fold(base.to_path_buf(), |p, c| p.join(c))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
