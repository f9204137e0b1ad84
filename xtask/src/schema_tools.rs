//! `cargo xtask schema verify` and `cargo xtask schema diff A B [--json]`: the I/O around
//! `generator::verify` and `generator::diff`.

use std::fs;
use std::path::Path;

use generator::ir::TypeSpace;
use generator::verify::{self, Allowlist};
use generator::{Config, Input};

const CONFIG: &str = "schema/codegen.toml";

/// The configuration and the type space of every module, from the synced inputs (and the repository's overlays).
fn load(root: &Path) -> Result<(Config, TypeSpace), String> {
    crate::schema_sync(root)?;
    let config = Config::from_toml(&fs::read_to_string(root.join(CONFIG)).map_err(|e| format!("{CONFIG}: {e}"))?)?;
    let mut inputs: Vec<Input> = Vec::new();
    for m in &config.modules {
        if !inputs.iter().any(|i| i.path == m.input) {
            inputs.push(Input { path: m.input.clone(), source: read_upstream(root, &m.input)? });
        }
        if let Some(overlay) = &m.overlay {
            let source = fs::read_to_string(root.join(overlay)).map_err(|e| format!("{overlay}: {e}"))?;
            inputs.push(Input { path: overlay.clone(), source });
        }
    }
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
