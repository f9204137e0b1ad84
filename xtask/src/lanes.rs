//! The tests of `cargo xtask test` in lanes: every test executable of the tests' build, the doc
//! tests and the conformance suite, as many at once as the machine has cores. `cargo test` runs its
//! executables one after another, and the long ones wait on real peers (Node, Python, Chromium) as
//! much as they compute, so the cores were not all busy (BENCHMARKS.md, "Issue 32, fifth session").
//! Each job's output is kept and shown whole when it ends.
//!
//! The longest jobs start first: their times from the last run in this target folder
//! (`target/xtask/test-times.tsv`), jobs without one before those with one. A first run (CI's)
//! takes them in the order `main.rs` gives: integration tests, the conformance suite, unit tests,
//! doc tests.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use crate::summary::{self, Counts, Output};

/// What a result's counts add to in the closing line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Group {
    /// One of the test executables or the doc tests: together they are `cargo test`'s counts.
    Tests,
    /// A run that ends with its own `N passed, N failed` line.
    Suite(&'static str),
}

/// What a job's run gives back: the counts of each group it ran, and its output.
pub struct Ran {
    pub results: Vec<(Group, Output)>,
    pub text: Vec<u8>,
}

pub struct Job {
    /// Stable across runs: the key of its time in the times file.
    pub name: String,
    /// The line shown above its output.
    pub title: String,
    pub run: Box<dyn FnOnce() -> Ran + Send>,
}

impl Job {
    /// A job that runs one command in `dir`, its counts in `group`.
    pub fn command(name: String, title: String, group: Group, mut cmd: Command, dir: PathBuf) -> Job {
        let run = move || match summary::run_counted(&dir, &mut cmd) {
            Ok((out, text)) => Ran { results: vec![(group, out)], text },
            Err(e) => Ran { results: vec![(group, Output::default())], text: format!("{e}\n").into_bytes() },
        };
        Job { name, title, run: Box::new(run) }
    }
}

pub struct Done {
    pub name: String,
    pub results: Vec<(Group, Output)>,
    pub took: Duration,
}

/// Builds every test of the workspace (what `cargo test` would build) and returns a job per test
/// executable, in a first run's order: integration tests, then unit tests, each by package folder
/// and target name. An error when the build fails.
pub fn build_tests(root: &Path) -> Result<(Vec<Job>, Vec<Job>), String> {
    let args = ["test", "--workspace", "--all-features", "--no-run", "--message-format=json-render-diagnostics"];
    let out = crate::cargo_command(root)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("`cargo {}` failed", args.join(" ")));
    }
    let mut found = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(exe) = test_executable(root, line) {
            found.entry((exe.kind != "test", exe.name.clone(), exe.path.clone())).or_insert(exe);
        }
    }
    let (integration, unit): (Vec<TestExe>, Vec<TestExe>) = found.into_values().partition(|e| e.kind == "test");
    Ok((integration.into_iter().map(TestExe::job).collect(), unit.into_iter().map(TestExe::job).collect()))
}

/// One test executable named in cargo's JSON messages.
struct TestExe {
    /// The package's folder relative to the workspace, the target's kind and name: `cli test all`.
    name: String,
    kind: String,
    /// The package's folder (cargo runs its tests there).
    dir: PathBuf,
    /// The executable.
    path: PathBuf,
    /// The line shown above its output: the target's source and the executable, relative to the
    /// workspace, as cargo shows them.
    title: String,
}

impl TestExe {
    fn job(self) -> Job {
        let mut cmd = Command::new(&self.path);
        // As cargo runs a test (the tests here read `CARGO`, inherited from `cargo xtask`).
        cmd.env("CARGO_MANIFEST_DIR", &self.dir);
        Job::command(self.name, self.title, Group::Tests, cmd, self.dir)
    }
}

/// A `compiler-artifact` message of an executable built to run tests.
fn test_executable(root: &Path, line: &str) -> Option<TestExe> {
    let m: serde_json::Value = serde_json::from_str(line).ok()?;
    if m["reason"] != "compiler-artifact" || m["profile"]["test"] != true {
        return None;
    }
    let relative = |p: &Path| p.strip_prefix(root).map(Path::to_path_buf).unwrap_or_else(|_| p.to_path_buf());
    let path = Path::new(m["executable"].as_str()?);
    let dir = Path::new(m["manifest_path"].as_str()?).parent()?.to_path_buf();
    let kind = m["target"]["kind"][0].as_str()?.to_string();
    let name = format!("{} {kind} {}", relative(&dir).display(), m["target"]["name"].as_str()?);
    let title = format!("     Running {} ({})", relative(Path::new(m["target"]["src_path"].as_str()?)).display(), relative(path).display());
    Some(TestExe { name, kind, dir, path: path.to_path_buf(), title })
}

/// `cargo test --doc` over the workspace: the doc tests, which rustdoc compiles as they run.
pub fn doc_tests(root: &Path) -> Job {
    let mut cmd = crate::cargo_command(root);
    cmd.args(["test", "--workspace", "--all-features", "--doc", "--no-fail-fast"]);
    let title = "   Doc-tests (cargo test --workspace --all-features --doc)".to_string();
    Job::command("doc tests".into(), title, Group::Tests, cmd, root.to_path_buf())
}

/// Where the last run's job times are kept.
pub fn times_file(root: &Path) -> PathBuf {
    crate::release::target_dir(root).join("xtask").join("test-times.tsv")
}

/// Orders `jobs` longest first by the times of the last run (`name<TAB>seconds` lines); jobs without
/// a time come first, in the order given.
pub fn longest_first(jobs: &mut [Job], times: &str) {
    let known: BTreeMap<&str, f64> = times.lines().filter_map(|l| l.split_once('\t')).filter_map(|(n, s)| Some((n, s.parse().ok()?))).collect();
    // Milliseconds, so the key is an integer; a job without a time sorts as the longest.
    jobs.sort_by_key(|j| std::cmp::Reverse(known.get(j.name.as_str()).map_or(u64::MAX, |s| (s * 1000.0) as u64)));
}

/// The times file's text for these finished jobs.
pub fn times_text(done: &[Done]) -> String {
    let mut sorted: Vec<&Done> = done.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    sorted.iter().map(|d| format!("{}\t{:.3}\n", d.name, d.took.as_secs_f64())).collect()
}

/// Runs the jobs in `lanes` lanes, each taking the next job when its last ends, and writes each job's
/// output (under its title and time) to `show` as it ends. Returns every job's result, in the order
/// they ended.
pub fn run(jobs: Vec<Job>, lanes: usize, show: &mut dyn std::io::Write) -> Vec<Done> {
    let lanes = lanes.clamp(1, jobs.len().max(1));
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let (send, receive) = mpsc::channel();
    let mut done = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..lanes {
            let (queue, send) = (&queue, send.clone());
            scope.spawn(move || {
                // The guard goes into the closure and is dropped when it returns: the lock is free while the job runs.
                while let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) {
                    let started = Instant::now();
                    let ran = (job.run)();
                    let took = started.elapsed();
                    let mut text = format!("{}, {:.1} s\n", job.title, took.as_secs_f64()).into_bytes();
                    text.extend_from_slice(&ran.text);
                    let _ = send.send((Done { name: job.name, results: ran.results, took }, text));
                }
            });
        }
        drop(send);
        for (finished, text) in receive {
            let _ = show.write_all(&text).and_then(|()| show.flush());
            done.push(finished);
        }
    });
    done
}

/// The counts of one group over every job, as one output: a job that failed without a failing test
/// (it crashed, or could not start) counts as one failing test.
pub fn group_output(done: &[Done], group: Group) -> Output {
    let mut all = Output { success: true, ..Output::default() };
    for (_, out) in done.iter().flat_map(|d| &d.results).filter(|(g, _)| *g == group) {
        all.test_results.extend(&out.test_results);
        all.plain.extend(&out.plain);
        if !out.success {
            all.success = false;
            if out.test_results.iter().all(|c| c.failed == 0) {
                all.test_results.push(Counts { failed: 1, ..Counts::default() });
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(name: &str, group: Group, script: &str) -> Job {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        Job::command(name.into(), name.into(), group, cmd, PathBuf::from("."))
    }

    fn names(jobs: &[Job]) -> Vec<&str> {
        jobs.iter().map(|j| j.name.as_str()).collect()
    }

    #[test]
    fn the_longest_known_job_starts_first_and_a_new_one_before_it() {
        let mut jobs = vec![job("short", Group::Tests, ""), job("long", Group::Tests, ""), job("new", Group::Tests, ""), job("middle", Group::Tests, "")];
        longest_first(&mut jobs, "long\t125.2\nmiddle\t35.0\nshort\t0.4\nnot a time line\ngone\t1000\n");
        assert_eq!(names(&jobs), ["new", "long", "middle", "short"]);
        let mut first_run = vec![job("b", Group::Tests, ""), job("a", Group::Tests, "")];
        longest_first(&mut first_run, "");
        assert_eq!(names(&first_run), ["b", "a"], "without times the given order stays");
    }

    #[test]
    fn a_test_executable_comes_from_a_test_profile_artifact_only() {
        let root = Path::new("/w");
        let line = r#"{"reason":"compiler-artifact","manifest_path":"/w/cli/Cargo.toml","target":{"kind":["test"],"name":"all","src_path":"/w/cli/tests/all.rs"},"profile":{"test":true},"executable":"/w/target/debug/deps/all-1"}"#;
        let exe = test_executable(root, line).expect("a test executable");
        assert_eq!((exe.name.as_str(), exe.kind.as_str(), exe.dir.as_path()), ("cli test all", "test", Path::new("/w/cli")));
        assert_eq!(exe.path, Path::new("/w/target/debug/deps/all-1"), "run from anywhere");
        assert_eq!(exe.title, "     Running cli/tests/all.rs (target/debug/deps/all-1)");
        let binary = line.replace(r#""test":true"#, r#""test":false"#);
        assert!(test_executable(root, &binary).is_none(), "a binary built to run, not to test");
        let library = line.replace(r#""executable":"/w/target/debug/deps/all-1""#, r#""executable":null"#);
        assert!(test_executable(root, &library).is_none());
        assert!(test_executable(root, r#"{"reason":"build-finished","success":true}"#).is_none());
    }

    #[test]
    fn every_job_runs_and_a_crash_counts_as_a_failure() {
        let jobs = vec![
            job("ok", Group::Tests, "echo 'test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s'"),
            job("failing", Group::Tests, "echo 'test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'; exit 101"),
            job("crashed", Group::Tests, "echo 'running 4 tests'; exit 134"),
            job("suite", Group::Suite("suite"), "echo '7 passed, 0 failed'"),
        ];
        let mut shown = Vec::new();
        let done = run(jobs, 2, &mut shown);
        let shown = String::from_utf8_lossy(&shown);
        assert!(shown.contains("failing, ") && shown.contains("2 failed"), "each job's output under its title: {shown}");
        let mut ran: Vec<&str> = done.iter().map(|d| d.name.as_str()).collect();
        ran.sort();
        assert_eq!(ran, ["crashed", "failing", "ok", "suite"]);
        let tests = group_output(&done, Group::Tests);
        assert!(!tests.success);
        let failed: u64 = tests.test_results.iter().map(|c| c.failed).sum();
        let passed: u64 = tests.test_results.iter().map(|c| c.passed).sum();
        assert_eq!((passed, failed), (4, 3), "two failing tests and one crashed executable");
        let suite = group_output(&done, Group::Suite("suite"));
        assert!(suite.success && suite.plain == [Counts { passed: 7, failed: 0, ignored: 0 }]);
        let times = times_text(&done);
        assert_eq!(times.lines().map(|l| l.split('\t').next().unwrap_or("")).collect::<Vec<_>>(), ["crashed", "failing", "ok", "suite"]);
    }
}
