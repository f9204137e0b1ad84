//! Fetching pinned files from the network: `curl` for git sources, `npm pack` for npm ones.

use super::*;

/// Scratch directory under the cargo target dir, deleted on drop.
pub(super) struct Staging {
    dir: PathBuf,
}

impl Staging {
    pub(super) fn new(root: &Path) -> Result<Staging, SyncError> {
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

pub(super) type Fetched<'a> = Vec<(&'a PinnedFile, Result<(Vec<u8>, String), FileProblem>)>;

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
pub(super) fn fetch_git<'a>(
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
pub(super) fn fetch_npm<'a>(
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
