//! Re-pinning from a mirror: rewriting `schema/pins.toml` in its canonical form.

use super::*;

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
