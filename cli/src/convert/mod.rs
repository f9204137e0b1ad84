//! `mcp-schema convert`: rewrites MCP traffic from one protocol version to another.
//!
//! Reads like `check` (the same line limit while reading, the same checks on the source), writes
//! each converted line as soon as it is done, and reports what it refused as `check` reports findings
//! (escaped, capped per value). The conversion of one message is [`message`].

mod message;
pub use crate::rules::convert as rules;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};

use serde_json::{Map, Value};

pub use message::{retype, Converted, Converter};

use crate::args::Protocol;
use crate::report::Reporter;
use crate::input::{empty_file, file_too_large, is_json_file, read_line, too_long, LineRead, MAX_LINE};

#[derive(Debug, Clone)]
pub struct ConvertArgs {
    /// Index into [`VERSIONS`].
    pub to: usize,
    pub from: Protocol,
    /// Findings kept per value, as `check --max-findings`.
    pub max_findings: usize,
    pub files: Vec<String>,
}

/// Why converting a file stopped early.
enum Stop {
    /// Reading the input failed: reported, and the next file goes on.
    Input(io::Error),
    /// Writing the output or the findings failed: nothing more can be done.
    Output(io::Error),
}

/// Where a file's results go: converted values to `out`, findings to the reporter.
struct Sink<'a, O: Write, E: Write> {
    out: &'a mut O,
    rep: &'a mut Reporter<E>,
    name: &'a str,
    pretty: bool,
    flush_each: bool,
}

impl<O: Write, E: Write> Sink<'_, O, E> {
    fn put(&mut self, line: u64, c: Converted) -> Result<(), Stop> {
        let mut outcome = c.outcome;
        outcome.line = line;
        self.rep.outcome(self.name, &outcome).map_err(Stop::Output)?;
        if let Some(v) = c.value {
            let written = if self.pretty { serde_json::to_writer_pretty(&mut *self.out, &v) } else { serde_json::to_writer(&mut *self.out, &v) };
            written.map_err(io::Error::from).and_then(|()| self.out.write_all(b"\n")).map_err(Stop::Output)?;
        }
        if self.flush_each {
            self.rep.inner().flush().and_then(|()| self.out.flush()).map_err(Stop::Output)?;
        }
        Ok(())
    }
}

/// Converts every file of `a`: converted values to `out`, findings and the counts to `err`.
/// Returns the exit status.
pub fn convert_files(a: &ConvertArgs, out: impl Write, err: &mut impl Write) -> i32 {
    let mut converter = Converter::new(a);
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let mut rep = Reporter::new(io::BufWriter::new(&mut *err), false);
    let mut io_error = false;
    for f in &a.files {
        converter.reset_stream();
        let name = if f == "-" { "<stdin>" } else { f.as_str() };
        let mut sink = Sink { out: &mut out, rep: &mut rep, name, pretty: f != "-" && is_json_file(f), flush_each: false };
        let r = if f == "-" {
            // A pipe may be a live session: each converted line goes out at once.
            sink.flush_each = true;
            convert_jsonl(&mut converter, io::stdin().lock(), &mut sink)
        } else if sink.pretty {
            convert_json_file(&mut converter, f, &mut sink)
        } else {
            File::open(f).map_err(Stop::Input).and_then(|file| convert_jsonl(&mut converter, BufReader::with_capacity(1 << 20, file), &mut sink))
        };
        match r {
            Ok(()) => {}
            Err(Stop::Input(e)) => {
                io_error = true;
                if writeln!(rep.inner(), "mcp-schema: {}: {e}", crate::report::escape(f)).is_err() {
                    return 2;
                }
            }
            Err(Stop::Output(e)) => {
                let _ = writeln!(rep.inner(), "mcp-schema: writing the output: {e}").and_then(|()| rep.inner().flush());
                return 2;
            }
        }
    }
    if let Err(e) = out.flush() {
        let _ = writeln!(rep.inner(), "mcp-schema: writing the output: {e}").and_then(|()| rep.inner().flush());
        return 2;
    }
    let c = rep.counts;
    if writeln!(rep.inner(), "{} converted, {} failed", c.passed, c.failed).and_then(|()| rep.inner().flush()).is_err() {
        return 2;
    }
    if io_error {
        2
    } else if c.failed > 0 {
        1
    } else {
        0
    }
}

/// JSONL: each line converted and written as it is read, with `check`'s line limit while reading.
fn convert_jsonl<R: BufRead, O: Write, E: Write>(converter: &mut Converter, mut reader: R, sink: &mut Sink<O, E>) -> Result<(), Stop> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut line = 0u64;
    loop {
        buf.clear();
        let read = read_line(&mut reader, &mut buf, MAX_LINE).map_err(Stop::Input)?;
        let converted = match read {
            LineRead::Eof => return Ok(()),
            LineRead::Line => {
                line += 1;
                converter.convert_line(&buf, line)
            }
            LineRead::TooLong(len) => {
                line += 1;
                Some(Converted { value: None, outcome: too_long(line, len) })
            }
        };
        if let Some(c) = converted {
            sink.put(line, c)?;
        }
        if buf.capacity() > 1 << 24 {
            // Don't keep a huge buffer around after one huge line.
            buf = Vec::with_capacity(1 << 16);
        }
    }
}

/// A `.json` file: one value, at most [`MAX_LINE`] bytes, as `check` reads it.
fn convert_json_file<O: Write, E: Write>(converter: &mut Converter, name: &str, sink: &mut Sink<O, E>) -> Result<(), Stop> {
    let mut bytes = Vec::new();
    let file = File::open(name).map_err(Stop::Input)?;
    file.take(MAX_LINE as u64 + 1).read_to_end(&mut bytes).map_err(Stop::Input)?;
    if bytes.len() > MAX_LINE {
        return sink.put(1, Converted { value: None, outcome: file_too_large() });
    }
    let start = bytes.iter().position(|b| !b" \t\r\n".contains(b)).unwrap_or(0);
    let line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count() as u64;
    match converter.convert_line(&bytes, line) {
        Some(c) => sink.put(line, c),
        None => sink.put(1, Converted { value: None, outcome: empty_file() }),
    }
}

/// A wrapper line's keys as `Map`, for tests and callers that build lines.
pub fn wrapper(msg: Value, dir: &str) -> Value {
    let mut o = Map::new();
    o.insert("dir".into(), Value::String(dir.into()));
    o.insert("msg".into(), msg);
    Value::Object(o)
}

#[cfg(test)]
mod tests;
