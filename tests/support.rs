//! Helpers shared by the workspace tests.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// `schema/codegen.toml`, parsed.
pub fn config() -> generator::Config {
    generator::Config::from_toml(&std::fs::read_to_string(workspace_root().join(generator::config::CONFIG_PATH)).unwrap()).unwrap()
}

/// Every input `config` names: upstream files from the synced folder, overlays from the repository.
pub fn inputs(config: &generator::Config) -> Vec<generator::Input> {
    let (up, root) = (upstream(), workspace_root());
    let read = |f: &generator::InputFile| {
        let dir = match f.origin {
            generator::InputOrigin::Upstream => &up,
            generator::InputOrigin::Project => &root,
        };
        std::fs::read_to_string(dir.join(&f.path)).map_err(|e| format!("{}: {e}", f.path))
    };
    config.read_inputs(read).unwrap_or_else(|e| panic!("{e}"))
}

/// The synced upstream folder; panics with the command to run when it is missing.
pub fn upstream() -> PathBuf {
    let dir = workspace_root().join("upstream");
    assert!(
        dir.join("mcp-spec").is_dir(),
        "upstream inputs are not synced: run `cargo xtask schema sync` (with MCP_SCHEMA_MIRROR set, or network access)"
    );
    dir
}

/// Every `*.json` under `dir/<TypeName>/`, sorted, as (type name, path).
pub fn example_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut types: Vec<_> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    types.sort();
    for t in types {
        let name = t.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&t).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
        files.sort();
        for f in files {
            out.push((name.clone(), f));
        }
    }
    out
}

/// Counts for a test that checks many cases and prints `N passed, N failed`.
#[derive(Default)]
pub struct Tally {
    pub passed: usize,
    pub failures: Vec<String>,
}

impl Tally {
    pub fn check(&mut self, ok: Result<(), String>) {
        match ok {
            Ok(()) => self.passed += 1,
            Err(e) => self.failures.push(e),
        }
    }

    /// Prints every failure and the closing counts, then fails the test if anything failed.
    pub fn finish(self, what: &str) {
        // Written past the test harness's capture, so the counts show in every run.
        use std::io::Write;
        let mut err = std::io::stderr().lock();
        for f in &self.failures {
            let _ = writeln!(err, "FAIL {f}");
        }
        let _ = writeln!(err, "{what}: {} passed, {} failed", self.passed, self.failures.len());
        assert!(self.failures.is_empty(), "{what}: {} failed (see above)", self.failures.len());
    }
}

/// Headless Chromium for the browser tests (Debian's `chromium`; `.ci/run` installs it).
#[cfg(unix)]
pub mod chromium {
    use std::os::unix::process::CommandExt;
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Stdio};

    pub const PATH: &str = "/usr/bin/chromium";

    /// Whether Chromium is installed; without it a test is skipped with a note naming `test`, but
    /// fails under `CI=true`.
    pub fn available(test: &str) -> bool {
        if Path::new(PATH).exists() {
            return true;
        }
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{PATH} is missing: CI must install Debian's `chromium` package (see .ci/run)");
        eprintln!("{test}: SKIPPED: {PATH} is not installed (`apt-get install chromium` to run this test)");
        false
    }

    /// A headless Chromium opened on `url` with a fresh profile named after `name`; its whole
    /// process group (it is started as the leader) is killed and the profile removed when dropped.
    pub struct Browser {
        child: Child,
        profile: PathBuf,
    }

    impl Browser {
        pub fn open(name: &str, url: &str) -> Browser {
            let profile = std::env::temp_dir().join(format!("mcp-schema-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&profile);
            let child = Command::new(PATH)
                .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"])
                .args(["--no-proxy-server", "--disable-dev-shm-usage", "--window-size=1600,1200", "--mute-audio"])
                .arg(format!("--user-data-dir={}", profile.display()))
                .arg(url)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("start chromium");
            Browser { child, profile }
        }
    }

    impl Drop for Browser {
        fn drop(&mut self) {
            // `--` is needed: procps-ng 4.0's kill reads `-KILL -PID` as signalling process group 9.
            let _ = Command::new("kill").args(["-s", "KILL", "--", &format!("-{}", self.child.id())]).status();
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_dir_all(&self.profile);
        }
    }
}
