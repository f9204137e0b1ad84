//! Printing outcomes: text lines or JSON lines, and the counts.

use std::io::{self, Write};

use mcp_spec_types::validate::Severity;
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
        if o.diags.is_empty() && o.omitted == 0 {
            return Ok(());
        }
        if self.json {
            let violations: Vec<_> = o
                .diags
                .iter()
                .map(|d| json!({"pointer": d.pointer, "rule": d.rule, "severity": d.severity.to_string(), "message": d.message}))
                .collect();
            let mut line = json!({
                "file": file,
                "line": o.line,
                "ok": !failed,
                "protocol": o.protocol,
                "type": o.type_name,
                "violations": violations,
            });
            if o.omitted > 0 {
                line["omitted"] = json!(o.omitted);
            }
            serde_json::to_writer(&mut self.out, &line)?;
            self.out.write_all(b"\n")
        } else {
            let file = escape(file);
            for d in &o.diags {
                let pointer = if d.pointer.is_empty() { "/" } else { &d.pointer };
                let severity = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                writeln!(self.out, "{file}:{}: {}: {severity} [{}]: {}", o.line, escape(pointer), d.rule, escape(&d.message))?;
            }
            if o.omitted > 0 {
                let errors = match o.omitted_errors {
                    0 => String::new(),
                    n => format!(" ({n} of them errors)"),
                };
                writeln!(self.out, "{file}:{}: /: and {} more findings{errors}, not printed (--max-findings)", o.line, o.omitted)?;
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

/// What the text report prints of keys, values and file names: a finding stays on its line
/// and nothing reaches the terminal as a control sequence. Line breaks, control characters
/// (C0, DEL, C1: ESC, NUL, ...) and the characters that reorder text (bidi controls) are
/// printed as `\n`, `\r`, `\t` or `\u{..}`.
pub fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    fn needs(c: char) -> bool {
        c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    if !s.contains(needs) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_what_could_forge_lines_or_reach_the_terminal() {
        assert_eq!(escape("plain `key` é"), "plain `key` é");
        assert_eq!(escape("a\n0 passed, 0 failed\n"), "a\\n0 passed, 0 failed\\n");
        assert_eq!(escape("\u{1b}[31mred\0\r\t\u{7f}\u{9b}\u{202e}"), "\\u{1b}[31mred\\u{0}\\r\\t\\u{7f}\\u{9b}\\u{202e}");
    }
}
