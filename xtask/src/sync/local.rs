//! The local side of a sync: reading a mirror, hashing, installing into `upstream/`
//! and deleting what is not pinned.

use super::*;

pub(super) fn is_current(path: &Path, sha256: &str) -> bool {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => fs::read(path)
            .map(|b| sha256_hex(&b) == sha256)
            .unwrap_or(false),
        _ => false,
    }
}

pub(super) fn read_from_mirror(dir: &Path, file: &PinnedFile) -> Result<(Vec<u8>, String), FileProblem> {
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
pub(super) fn install(upstream: &Path, dest: &str, bytes: &[u8]) -> Result<(), SyncError> {
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
pub(super) fn remove_unpinned(dir: &Path, keep: &BTreeSet<PathBuf>) -> Result<usize, SyncError> {
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
