//! Printing outcomes: text lines or JSON lines, and the counts.

use std::io::{self, Write};

use mcp_schema::validate::Severity;
use serde_json::json;

use crate::check::Outcome;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
    /// Values that passed with warnings (included in `passed`).
    pub warned: u64,
}

/// Where outcomes go.
pub struct Reporter<W: Write> {
    out: W,
    json: bool,
    pub counts: Counts,
}

impl<W: Write> Reporter<W> {
    pub fn new(out: W, json: bool) -> Self {
        Reporter { out, json, counts: Counts::default() }
    }

    /// Counts an outcome and prints it if it has anything to say.
    pub fn outcome(&mut self, file: &str, o: &Outcome) -> io::Result<()> {
        let failed = o.failed();
        if failed {
            self.counts.failed += 1;
        } else {
            self.counts.passed += 1;
            if !o.diags.is_empty() {
                self.counts.warned += 1;
            }
        }
        if o.diags.is_empty() {
            return Ok(());
        }
        if self.json {
            let violations: Vec<_> = o
                .diags
                .iter()
                .map(|d| json!({"pointer": d.pointer, "rule": d.rule, "severity": d.severity.to_string(), "message": d.message}))
                .collect();
            let line = json!({
                "file": file,
                "line": o.line,
                "ok": !failed,
                "protocol": o.protocol,
                "type": o.type_name,
                "violations": violations,
            });
            serde_json::to_writer(&mut self.out, &line)?;
            self.out.write_all(b"\n")
        } else {
            for d in &o.diags {
                let pointer = if d.pointer.is_empty() { "/" } else { &d.pointer };
                let severity = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                let message = one_line(&d.message);
                writeln!(self.out, "{file}:{}: {pointer}: {severity} [{}]: {message}", o.line, d.rule)?;
            }
            Ok(())
        }
    }

    /// The last line: `N passed, N failed` (or its JSON form).
    pub fn finish(mut self) -> io::Result<Counts> {
        let c = self.counts;
        if self.json {
            let line = json!({"passed": c.passed, "failed": c.failed, "warned": c.warned});
            serde_json::to_writer(&mut self.out, &line)?;
            self.out.write_all(b"\n")?;
        } else {
            writeln!(self.out, "{} passed, {} failed", c.passed, c.failed)?;
        }
        self.out.flush()?;
        Ok(c)
    }
}

/// Messages stay on one line.
fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains(['\n', '\r']) {
        s.replace('\r', "\\r").replace('\n', "\\n").into()
    } else {
        s.into()
    }
}
