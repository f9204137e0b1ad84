//! `cargo xtask schema verify` and `cargo xtask schema diff A B [--json]`: the I/O around
//! `generator::verify` and `generator::diff`.

use std::fs;
use std::path::Path;

use generator::ir::TypeSpace;
use generator::verify::{self, Allowlist};
use generator::Config;

use generator::config::CONFIG_PATH as CONFIG;

/// The configuration and the type space of every module, from the synced inputs (and the repository's overlays).
fn load(root: &Path) -> Result<(Config, TypeSpace), String> {
    // The sync report goes to stderr: stdout is the command's output (`--json` is for machines).
    eprintln!("{}", crate::sync::sync(root).map_err(|e| e.to_string())?);
    let config = Config::from_toml(&fs::read_to_string(root.join(CONFIG)).map_err(|e| format!("{CONFIG}: {e}"))?)?;
    let inputs = crate::codegen::read_inputs(root, &config)?;
    let space = verify::type_space(&inputs, &config).map_err(|d| d.to_string())?;
    Ok((config, space))
}

fn read_upstream(root: &Path, path: &str) -> Result<String, String> {
    let full = root.join(crate::sync::UPSTREAM_DIR).join(path);
    fs::read_to_string(&full).map_err(|e| format!("{}: {e} (is it pinned in {}?)", full.display(), crate::sync::PINS_FILE))
}

pub fn verify(root: &Path, verbose: bool) -> Result<(), String> {
    let (config, space) = load(root)?;
    let allowlist_text = fs::read_to_string(root.join(verify::allowlist::PATH)).map_err(|e| format!("{}: {e}", verify::allowlist::PATH))?;
    let allowlist = Allowlist::from_toml(&allowlist_text)?;
    let verdict = verify::run(&space, &config, allowlist, &mut |path| read_upstream(root, path))?;
    print!("{}", verdict.render(verbose));
    if verdict.ok() {
        Ok(())
    } else {
        Err("schema verify: differences not on the allowlist, or stale entries (see above)".into())
    }
}

/// `a` and `b` are versions (`2025-11-25`, `draft`) or module names (`v2025_11_25`, `resource_metadata`).
pub fn diff(root: &Path, a: &str, b: &str, json: bool) -> Result<(), String> {
    let (config, space) = load(root)?;
    let find = |name: &str| {
        generator::diff::find_module(&space, &config, name).ok_or_else(|| {
            let known: Vec<&str> = config.modules.iter().map(|m| m.name.as_str()).collect();
            format!("schema diff: no module or version `{name}` (modules: {})", known.join(", "))
        })
    };
    let (from, to) = (find(a)?, find(b)?);
    let diff = generator::diff::diff(from, to);
    if json {
        print!("{}", generator::diff::render::json(&diff));
    } else {
        print!("{}", generator::diff::render::text(&diff, a, b));
    }
    Ok(())
}
