//! `mcp-schema proxy --http` (with `--to` or not) started for a test on a free port, stopped as
//! Ctrl-C stops it, with its recording and findings in temporary files.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{TempFile, BIN};

pub struct HttpProxy {
    child: Child,
    pub port: u16,
    pub record: TempFile,
    pub findings: TempFile,
    /// The line that announced the address (and, with `--metrics`, the counters' address).
    pub announced: String,
}

impl HttpProxy {
    /// In front of `upstream_url`, with `extra` arguments after the common ones.
    pub fn start(upstream_url: &str, extra: &[&str]) -> HttpProxy {
        let record = TempFile::new("http.jsonl", b"");
        let findings = TempFile::new("findings.txt", b"");
        let mut child = Command::new(BIN)
            .args(["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", upstream_url, "--record", record.path(), "--findings", findings.path()])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the mcp-schema binary runs");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let port =
            line.split("http://127.0.0.1:").nth(1).and_then(|r| r.split(',').next()).and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("no address announced: {line:?}"));
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::stderr()));
        HttpProxy { child, port, record, findings, announced: line }
    }

    /// Ends the proxy as Ctrl-C does; returns its exit status.
    pub fn stop(&mut self) -> i32 {
        let sent = std::process::Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -INT the proxy");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code().expect("the proxy exits by itself");
            }
            assert!(Instant::now() < deadline, "the proxy did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The recording's lines.
    pub fn lines(&self) -> Vec<Value> {
        std::fs::read_to_string(self.record.path()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
    }
}

impl Drop for HttpProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
