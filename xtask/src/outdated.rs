//! `cargo xtask schema outdated`: compares the pins with upstream (needs the network).
//! Meant for a scheduled job: it exits 1 when something newer exists.

use std::path::Path;
use std::process::Command;

use crate::sync::{Pins, SourceKind};

pub fn run(root: &Path) -> Result<(), String> {
    let pins = Pins::load(root).map_err(|e| e.to_string())?;
    let mut newer = 0;
    for source in &pins.source {
        let (pinned, latest) = match source.kind {
            SourceKind::Git => {
                let repo = source.repository.as_deref().ok_or("git source without repository")?;
                let head = output("git", &["ls-remote", repo, "HEAD"])?;
                let latest = head.split_whitespace().next().unwrap_or("").to_string();
                (source.commit.clone().unwrap_or_default(), latest)
            }
            SourceKind::Npm => {
                let package = source.package.as_deref().ok_or("npm source without package")?;
                let latest = output("npm", &["view", package, "version"])?.trim().to_string();
                (source.version.clone().unwrap_or_default(), latest)
            }
        };
        if latest.is_empty() {
            return Err(format!("{}: upstream gave no version", source.name));
        }
        if pinned == latest {
            println!("{}: up to date ({pinned})", source.name);
        } else {
            newer += 1;
            println!("{}: pinned {pinned}, upstream has {latest}", source.name);
        }
    }
    if newer > 0 {
        println!("to move: change schema/pins.toml, run `cargo xtask schema pin --from <mirror>` or sync from upstream, `cargo xtask codegen`, `cargo xtask schema diff`, and review");
        return Err(format!("schema outdated: {newer} source(s) have newer upstream versions"));
    }
    Ok(())
}

fn output(cmd: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(cmd).args(args).output().map_err(|e| format!("could not run {cmd}: {e}"))?;
    if !out.status.success() {
        return Err(format!("`{cmd} {}` failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
