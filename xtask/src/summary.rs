//! Counting what `cargo xtask test` ran: the output of each step is kept, shown when it ends and read
//! for its counts, so the run can end with one line over all of them.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Counts read from one command's output.
#[derive(Debug, Default, PartialEq)]
pub struct Output {
    pub success: bool,
    /// `test result: ... N passed; N failed; N ignored` lines (one per test binary).
    pub test_results: Vec<Counts>,
    /// `N passed, N failed` lines (tests that count their own cases; the conformance suite).
    pub plain: Vec<Counts>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
    pub ignored: u64,
}

impl Output {
    /// Reads the counts out of a command's output, line by line.
    pub fn scan(&mut self, line: &str) {
        if let Some(c) = parse_test_result(line) {
            self.test_results.push(c);
        } else if let Some(c) = parse_plain(line) {
            self.plain.push(c);
        }
    }
}

/// `test result: ok. 12 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.01s`
fn parse_test_result(line: &str) -> Option<Counts> {
    let rest = line.trim().strip_prefix("test result: ")?;
    let (_, counts) = rest.split_once(". ")?;
    let mut c = Counts::default();
    for part in counts.split(';') {
        let (n, what) = part.trim().split_once(' ')?;
        let n: u64 = match n.parse() {
            Ok(n) => n,
            Err(_) => continue,
        };
        match what {
            "passed" => c.passed = n,
            "failed" => c.failed = n,
            "ignored" => c.ignored = n,
            _ => {}
        }
    }
    Some(c)
}

/// `[label: ]N passed, N failed[, N skipped]` at the end of a line.
fn parse_plain(line: &str) -> Option<Counts> {
    let line = line.trim();
    let (head, tail) = line.split_once(" passed, ")?;
    let passed = head.rsplit(|c: char| c.is_whitespace()).next()?.parse().ok()?;
    let mut parts = tail.split(", ");
    let failed = parts.next()?.strip_suffix(" failed")?.parse().ok()?;
    let ignored = match parts.next() {
        None => 0,
        Some(p) => p.strip_suffix(" skipped")?.parse().ok()?,
    };
    parts.next().is_none().then_some(Counts { passed, failed, ignored })
}

/// Runs `cmd` in `root` and reads the counts from its output, which is kept (standard output, then
/// standard error) to be shown when it ends, since it runs beside others. An error only when the
/// command cannot be started; a failing command is `success: false`.
pub fn run_counted(root: &Path, cmd: &mut Command) -> Result<(Output, Vec<u8>), String> {
    let ran = cmd.current_dir(root).stdin(Stdio::null()).output().map_err(|e| format!("could not run {cmd:?}: {e}"))?;
    let mut out = Output { success: ran.status.success(), ..Output::default() };
    for text in [&ran.stdout, &ran.stderr] {
        for line in String::from_utf8_lossy(text).lines() {
            out.scan(line);
        }
    }
    let mut text = ran.stdout;
    text.extend_from_slice(&ran.stderr);
    Ok((out, text))
}

/// What steps that run beside others did: their output, kept to be shown afterwards (as
/// [`run_counted`] keeps a command's), the steps that passed, and each step's wall time.
#[derive(Default)]
pub struct Kept {
    pub text: Vec<u8>,
    pub passed: u64,
    pub times: Vec<(&'static str, Duration)>,
}

impl Kept {
    /// A line of the steps' own, kept with the commands' output.
    pub fn line(&mut self, line: &str) {
        self.text.extend_from_slice(line.as_bytes());
        self.text.push(b'\n');
    }

    /// Runs cargo with its output kept; an error when it fails.
    pub fn cargo(&mut self, root: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Result<(), String> {
        let out = crate::cargo_command(root)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("could not run cargo: {e}"))?;
        self.text.extend_from_slice(&out.stdout);
        self.text.extend_from_slice(&out.stderr);
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("`cargo {}` failed", args.join(" ")))
        }
    }
}

/// The running total of `cargo xtask test`.
#[derive(Debug, Default)]
pub struct Tally {
    /// Steps before the tests (drift check, feature checks, docs, packaging), each one count.
    pub steps: u64,
    pub tests: Counts,
    /// Cases that tests counted themselves (already inside `tests`, shown for information).
    pub cases: Counts,
    pub groups: Vec<(&'static str, Counts)>,
    /// Wall time of each step that finished, in order, so a slow run shows where it went.
    pub times: Vec<(&'static str, Duration)>,
    /// Wall times inside a step, under a heading of their own (the steps beside the tests' build,
    /// the longest jobs of the lanes).
    pub within: Vec<(&'static str, String, Duration)>,
    pub passed: u64,
    pub failed: u64,
    pub ignored: u64,
}

impl Tally {
    pub fn step_passed(&mut self) {
        self.steps += 1;
        self.passed += 1;
    }

    /// Records the wall time of a step that began at `started`.
    pub fn timed(&mut self, name: &'static str, started: Instant) {
        self.times.push((name, started.elapsed()));
    }

    /// `cargo test`: every test binary's result line. A run that failed without a failing test
    /// (it did not compile) counts as one failure.
    pub fn add_cargo_test(&mut self, out: &Output) {
        for c in &out.test_results {
            self.tests.passed += c.passed;
            self.tests.failed += c.failed;
            self.tests.ignored += c.ignored;
        }
        for c in &out.plain {
            self.cases.passed += c.passed;
            self.cases.failed += c.failed;
        }
        self.add(self.tests, out.success);
    }

    /// A suite that ends with its own `N passed, N failed` line (the last one counts).
    pub fn add_group(&mut self, name: &'static str, out: &Output) {
        let c = out.plain.last().copied().unwrap_or_default();
        self.groups.push((name, c));
        self.add(c, out.success);
    }

    fn add(&mut self, c: Counts, success: bool) {
        self.passed += c.passed;
        self.failed += c.failed;
        self.ignored += c.ignored;
        if !success && c.failed == 0 {
            self.failed += 1;
        }
    }

    /// What was counted, then the closing `total: N passed, N failed` line.
    pub fn closing_line(&self) -> String {
        let mut detail = format!(
            "xtask test: {} steps before the tests; cargo test: {} tests ok, {} failing, {} ignored \
             (inside them {} counted cases ok, {} failing)",
            self.steps,
            self.tests.passed,
            self.tests.failed,
            self.tests.ignored,
            self.cases.passed,
            self.cases.failed
        );
        for (name, c) in &self.groups {
            detail.push_str(&format!("; {name}: {} ok, {} failing", c.passed, c.failed));
            // The conformance suite's expected failures, so they show beside their group.
            if c.ignored > 0 {
                detail.push_str(&format!(", {} skipped", c.ignored));
            }
        }
        if !self.times.is_empty() {
            let steps: Vec<String> = self.times.iter().map(|(name, d)| format!("{name} {:.1} s", d.as_secs_f64())).collect();
            let all: Duration = self.times.iter().map(|(_, d)| *d).sum();
            detail.push_str(&format!("\nwall time: {} (together {:.1} s)", steps.join(", "), all.as_secs_f64()));
        }
        let mut headings = self.within.iter().map(|(heading, _, _)| *heading).collect::<Vec<_>>();
        headings.dedup();
        for heading in headings {
            let steps: Vec<String> =
                self.within.iter().filter(|(h, _, _)| *h == heading).map(|(_, name, d)| format!("{name} {:.1} s", d.as_secs_f64())).collect();
            detail.push_str(&format!("\n{heading}: {}", steps.join(", ")));
        }
        let mut line = format!("{detail}\ntotal: {} passed, {} failed", self.passed, self.failed);
        if self.ignored > 0 {
            line.push_str(&format!(", {} skipped", self.ignored));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(text: &str) -> Output {
        let mut out = Output { success: true, ..Output::default() };
        for line in text.lines() {
            out.scan(line);
        }
        out
    }

    #[test]
    fn reads_test_result_and_plain_lines() {
        let out = scanned(
            "test result: ok. 12 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\
             spec examples: 140 passed, 0 failed\n\
             test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.2s\n\
             not a count: 3 passed; nothing\n\
             32 passed, 1 failed, 2 skipped\n",
        );
        assert_eq!(
            out.test_results,
            [Counts { passed: 12, failed: 0, ignored: 3 }, Counts { passed: 4, failed: 1, ignored: 0 }]
        );
        assert_eq!(
            out.plain,
            [Counts { passed: 140, failed: 0, ignored: 0 }, Counts { passed: 32, failed: 1, ignored: 2 }]
        );
    }

    /// The run ends with one line over every group, not with the last doc test binary's `0 passed`.
    #[test]
    fn one_closing_line_over_every_group() {
        let mut tally = Tally::default();
        tally.step_passed();
        tally.add_cargo_test(&scanned(
            "test result: ok. 10 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\
             golden: 30 passed, 0 failed\n\
             test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
        ));
        tally.add_group("conformance", &scanned("server ok\n40 passed, 0 failed\n"));
        let text = tally.closing_line();
        assert_eq!(text.lines().last(), Some("total: 51 passed, 0 failed, 1 skipped"), "{text}");
        assert_eq!(tally.failed, 0);
    }

    /// Each step's wall time shows on its own line, above the total; the steps beside one on the next.
    #[test]
    fn step_times_show_above_the_total() {
        let mut tally = Tally::default();
        tally.step_passed();
        tally.times.push(("codegen --check", Duration::from_millis(2_340)));
        tally.times.push(("cargo test", Duration::from_secs(400)));
        let text = tally.closing_line();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[lines.len() - 2], "wall time: codegen --check 2.3 s, cargo test 400.0 s (together 402.3 s)", "{text}");
        tally.within.push(("beside cargo test", "docs".into(), Duration::from_secs(30)));
        tally.within.push(("beside cargo test", "release packages".into(), Duration::from_millis(60_060)));
        let text = tally.closing_line();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[lines.len() - 3], "wall time: codegen --check 2.3 s, cargo test 400.0 s (together 402.3 s)", "{text}");
        assert_eq!(lines[lines.len() - 2], "beside cargo test: docs 30.0 s, release packages 60.1 s", "{text}");
        assert_eq!(lines.last(), Some(&"total: 1 passed, 0 failed"), "{text}");
        let started = Instant::now();
        tally.timed("docs", started);
        assert_eq!(tally.times.last().map(|t| t.0), Some("docs"));
    }

    #[test]
    fn a_group_with_expected_failures_shows_them_as_skipped() {
        let mut tally = Tally::default();
        let next = scanned("XFAIL server 2026-07-28 ping\n3 passed, 0 failed, 2 skipped\n");
        tally.add_group("conformance (next release)", &next);
        let text = tally.closing_line();
        assert!(text.contains("; conformance (next release): 3 ok, 0 failing, 2 skipped"), "{text}");
        assert_eq!(text.lines().last(), Some("total: 3 passed, 0 failed, 2 skipped"), "{text}");
    }

    #[test]
    fn a_failing_run_without_counts_is_a_failure() {
        let mut tally = Tally::default();
        let mut broken = scanned("error[E0425]: cannot find value `x` in this scope\n");
        broken.success = false;
        tally.add_cargo_test(&broken);
        let mut conformance = scanned("FAIL server tools-call\n39 passed, 1 failed\n");
        conformance.success = false;
        tally.add_group("conformance", &conformance);
        assert_eq!((tally.passed, tally.failed), (39, 2));
        assert!(tally.closing_line().ends_with("total: 39 passed, 2 failed"));
    }
}
