//! The official SDKs pinned in examples/sdk-clients/, installed from the package registries into
//! the test target folder on first use. Without python3 (with venv) or node 20+ and npm a test is
//! skipped with a message, except under `CI=true`, where it fails.

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

/// Held while an SDK is installed or looked up, so the tests of one binary running in parallel
/// never install into the same folder at once.
static INSTALLING: Mutex<()> = Mutex::new(());

pub fn sdk_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sdk-clients")
}

/// Runs a command; its stdout, or why it failed.
pub fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({}):\n{}\n{}", out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A missing tool: skipped locally, a failure in CI.
fn missing(what: &str) {
    let message = format!("SKIPPED: {what}; the real-SDK test needs python3 with venv, and node 20+ with npm");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message} (CI=true)");
    }
    println!("{message}");
}

/// A folder under the target directory, made once per pinned file's contents.
fn install_dir(name: &str, pin: &Path) -> (PathBuf, bool) {
    let pin = std::fs::read(pin).unwrap();
    let hash = pin.iter().fold(0xcbf29ce484222325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100000001b3));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{hash:016x}"));
    let ready = dir.join(".installed").exists();
    (dir, ready)
}

/// The pinned Python SDK's venv (made on first use): its `python`.
pub fn python_venv() -> Result<Option<PathBuf>, String> {
    if run(Command::new("python3").args(["-c", "import venv, ensurepip"])).is_err() {
        missing("python3 with venv and ensurepip not found");
        return Ok(None);
    }
    let _installing = INSTALLING.lock().unwrap_or_else(PoisonError::into_inner);
    let requirements = sdk_dir().join("requirements.txt");
    let (dir, ready) = install_dir("sdk-python", &requirements);
    let python = dir.join("bin/python");
    if !ready {
        let _ = std::fs::remove_dir_all(&dir);
        run(Command::new("python3").args(["-m", "venv"]).arg(&dir))?;
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-r"]).arg(&requirements))?;
        std::fs::write(dir.join(".installed"), "").map_err(|e| e.to_string())?;
    }
    Ok(Some(python))
}

/// The pinned Python SDK's venv and `script` of examples/sdk-clients to run with it.
pub fn python_client(script: &str) -> Result<Option<Vec<String>>, String> {
    let Some(python) = python_venv()? else { return Ok(None) };
    Ok(Some(vec![python.to_str().unwrap().into(), sdk_dir().join(script).to_str().unwrap().into()]))
}

/// The pinned TypeScript SDK (installed on first use) and `script` of examples/sdk-clients, copied
/// beside it so that `import` finds the SDK.
pub fn typescript_client(script: &str) -> Result<Option<Vec<String>>, String> {
    let major = run(Command::new("node").args(["-p", "process.versions.node.split('.')[0]"])).ok().and_then(|v| v.trim().parse::<u32>().ok());
    if major.is_none_or(|m| m < 20) || run(Command::new("npm").arg("--version")).is_err() {
        missing(&format!("node 20+ and npm not found (node major version: {major:?})"));
        return Ok(None);
    }
    let _installing = INSTALLING.lock().unwrap_or_else(PoisonError::into_inner);
    let lock = sdk_dir().join("package-lock.json");
    let (dir, ready) = install_dir("sdk-typescript", &lock);
    if !ready {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        for f in ["package.json", "package-lock.json"] {
            std::fs::copy(sdk_dir().join(f), dir.join(f)).map_err(|e| e.to_string())?;
        }
        run(Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(&dir))?;
        std::fs::write(dir.join(".installed"), "").map_err(|e| e.to_string())?;
    }
    // The script runs from the install folder, so `import` finds the SDK there.
    std::fs::copy(sdk_dir().join(script), dir.join(script)).map_err(|e| e.to_string())?;
    Ok(Some(vec!["node".into(), dir.join(script).to_str().unwrap().into()]))
}

/// The pinned TypeScript and Python SDK clients (examples/sdk-clients' `http-client.mjs` and
/// `http_client.py`) against the Streamable HTTP server at `url`, each in both eras (`legacy`,
/// `2026-07-28`), their output printed under `label`: the runs that passed, and one line per run
/// that failed. A client whose SDK is missing is skipped as [`typescript_client`] and
/// [`python_client`] say.
pub fn http_clients_in_both_eras(url: &str, label: &str) -> (usize, Vec<String>) {
    let clients = [("typescript-client-2.4.0", typescript_client("http-client.mjs")), ("python-mcp-2.3.0", python_client("http_client.py"))];
    let (mut passed, mut failed) = (0, Vec::new());
    for (name, client) in clients {
        let command = match client {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => panic!("{name}: installing the SDK failed: {e}"),
        };
        for era in ["legacy", "2026-07-28"] {
            match run(Command::new(&command[0]).args(&command[1..]).arg(url).arg(era)) {
                Ok(out) => {
                    passed += 1;
                    print!("{label}{name} {era}:\n{out}");
                }
                Err(e) => failed.push(format!("{label}{name} {era} FAILED: {e}")),
            }
        }
    }
    (passed, failed)
}
