//! Printing outcomes: text lines or JSON lines, and the counts.

use std::collections::BTreeMap;
use std::io::{self, Write};

use mcp_spec_types::validate::Severity;
use serde_json::json;

use crate::vocab::Outcome;
use crate::session::{MessageKey, Unanswered};

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
    /// Findings per (rule, severity), for `--summary`.
    findings: BTreeMap<(&'static str, Severity), u64>,
}

/// What `--summary` prints at the end, besides the findings per rule the reporter counted.
#[derive(Debug, Default)]
pub struct Summary<'a> {
    /// Messages per (direction, kind, method), over every file.
    pub messages: Option<&'a BTreeMap<MessageKey, u64>>,
    /// Requests left unanswered at the end of each file (the first ones), with the file.
    pub unanswered: Vec<(String, Unanswered)>,
    pub unanswered_total: usize,
    /// Entries the bounded session tables forgot (0 unless a stream outgrew them).
    pub evictions: u64,
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

impl<W: Write> Reporter<W> {
    pub fn new(out: W, json: bool) -> Self {
        Reporter { out, json, counts: Counts::default(), findings: BTreeMap::new() }
    }

    /// Where the report goes, for lines of the caller's own (`convert`'s counts, I/O errors).
    pub fn inner(&mut self) -> &mut W {
        &mut self.out
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
        self.print(file, o)
    }

    /// Prints findings the end of a stream found about an earlier line (already counted): if
    /// they fail it, it moves from passed to failed.
    pub fn late(&mut self, file: &str, o: &Outcome) -> io::Result<()> {
        if o.failed() {
            self.counts.failed += 1;
            self.counts.passed = self.counts.passed.saturating_sub(1);
        }
        self.print(file, o)
    }

    fn print(&mut self, file: &str, o: &Outcome) -> io::Result<()> {
        let failed = o.failed();
        for d in &o.diags {
            *self.findings.entry((d.rule, d.severity)).or_insert(0) += 1;
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
            if let Some(p) = &o.place {
                line["place"] = json!(p);
            }
            if let Some(h) = &o.http {
                line["http"] = h.clone();
            }
            serde_json::to_writer(&mut self.out, &line)?;
            self.out.write_all(b"\n")
        } else {
            let file = escape(file);
            let at = match &o.place {
                Some(p) => escape(p).into_owned(),
                None => o.line.to_string(),
            };
            for d in &o.diags {
                let pointer = if d.pointer.is_empty() { "/" } else { &d.pointer };
                let severity = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                writeln!(self.out, "{file}:{at}: {}: {severity} [{}]: {}", escape(pointer), d.rule, escape(&d.message))?;
            }
            if o.omitted > 0 {
                let errors = match o.omitted_errors {
                    0 => String::new(),
                    n => format!(" ({n} of them errors)"),
                };
                writeln!(self.out, "{file}:{at}: /: and {} more findings{errors}, not printed (--max-findings)", o.omitted)?;
            }
            Ok(())
        }
    }

    /// `--summary`: messages per method and direction, findings per rule, unanswered requests.
    pub fn summary(&mut self, s: &Summary) -> io::Result<()> {
        let messages = s.messages.into_iter().flatten();
        if self.json {
            let messages: Vec<_> = messages
                .map(|((leg, dir, kind, method), n)| {
                    let mut row = json!({"dir": dir, "kind": kind, "method": method, "count": n});
                    if !leg.is_empty() {
                        row["leg"] = json!(leg);
                    }
                    row
                })
                .collect();
            let findings: Vec<_> = self.findings.iter().map(|((rule, sev), n)| json!({"rule": rule, "severity": severity_name(*sev), "count": n})).collect();
            let unanswered: Vec<_> = s
                .unanswered
                .iter()
                .map(|(file, u)| json!({"file": file, "line": u.line, "dir": u.dir, "id": u.id, "method": u.method}))
                .collect();
            let line = json!({"summary": {
                "messages": messages,
                "findings": findings,
                "unanswered": unanswered,
                "unanswered_total": s.unanswered_total,
                "evicted": s.evictions,
            }});
            serde_json::to_writer(&mut self.out, &line)?;
            return self.out.write_all(b"\n");
        }
        // A bridge recording (`proxy --to`) has two legs: each message is counted on the leg it travelled.
        let legs = s.messages.is_some_and(|m| m.keys().any(|k| !k.0.is_empty()));
        if legs {
            writeln!(self.out, "summary: messages per leg (leg: direction, kind, method: count; client: between the client and the bridge, server: between the bridge and the server)")?;
        } else {
            writeln!(self.out, "summary: messages (direction, kind, method: count)")?;
        }
        for ((leg, dir, kind, method), n) in messages {
            let leg = if leg.is_empty() { String::new() } else { format!("{leg}: ") };
            writeln!(self.out, "  {leg}{dir} {kind} {}: {n}", escape(method))?;
        }
        if legs {
            writeln!(self.out, "summary: findings per rule (both legs; a finding the bridge passed on is counted once, on the leg it came in)")?;
        } else {
            writeln!(self.out, "summary: findings per rule")?;
        }
        if self.findings.is_empty() {
            writeln!(self.out, "  none")?;
        }
        for ((rule, sev), n) in &self.findings {
            writeln!(self.out, "  {rule} ({}): {n}", severity_name(*sev))?;
        }
        writeln!(self.out, "summary: unanswered requests: {}", s.unanswered_total)?;
        for (file, u) in &s.unanswered {
            writeln!(self.out, "  {}:{}: {} request {} `{}`", escape(file), u.line, u.dir, escape(&u.id), escape(&u.method))?;
        }
        if s.unanswered.len() < s.unanswered_total {
            writeln!(self.out, "  and {} more", s.unanswered_total - s.unanswered.len())?;
        }
        if s.evictions > 0 {
            writeln!(self.out, "summary: session state forgot {} entries (tables are bounded)", s.evictions)?;
        }
        Ok(())
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
