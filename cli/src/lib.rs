//! `mcp-schema check`: checks MCP traffic and documents against every schema version.
//!
//! The binary (`src/main.rs`) only calls [`run`]; the pieces are public so the
//! benchmark can drive the checker in memory.

pub mod args;
pub mod bounded;
pub mod bridge;
pub mod check;
pub mod compat_icons;
pub mod convert;
pub mod har;
pub mod proxy;
pub mod report;
pub mod session;
pub mod sse;
pub mod versions;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use args::{CheckArgs, Command};
use check::{Checker, Diag, Outcome};
use mcp_spec_types::validate::Severity;
use report::{Reporter, Summary};

/// The longest line (or `.json` file) read whole; a longer one is reported and skipped
/// (memory stays bounded).
pub const MAX_LINE: usize = 128 << 20;

/// Runs the command line (without the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let stderr = io::stderr();
    match args::parse(args) {
        Err(e) => {
            let usage = match args.first().map(String::as_str) {
                Some("proxy") if args.iter().any(|a| a == "--http") => "proxy --http --listen ADDR --upstream URL [OPTIONS]",
                Some("proxy") => "proxy [OPTIONS] -- COMMAND [ARGS...]",
                Some("convert") => "convert --to VERSION [--from VERSION|auto] [--max-findings N] FILE...",
                _ => "check [OPTIONS] FILE...",
            };
            let _ = writeln!(stderr.lock(), "mcp-schema: {e}\nusage: mcp-schema {usage} (see --help)");
            2
        }
        Ok(Command::Help) => {
            let _ = io::stdout().lock().write_all(args::usage().as_bytes());
            0
        }
        Ok(Command::Check(a)) => check_files(&a, io::stdout().lock(), &mut stderr.lock()),
        Ok(Command::ConvertHelp) => {
            let _ = io::stdout().lock().write_all(convert::usage().as_bytes());
            0
        }
        Ok(Command::Convert(a)) => convert::convert_files(&a, io::stdout().lock(), &mut stderr.lock()),
        Ok(Command::Proxy(a)) => proxy::run(&a),
    }
}

/// Checks every file of `a`, printing to `out`; I/O errors go to `err`. Returns the exit status.
pub fn check_files(a: &CheckArgs, out: impl Write, err: &mut impl Write) -> i32 {
    let mut checker = Checker::new(a);
    let mut rep = Reporter::new(io::BufWriter::with_capacity(1 << 16, out), a.json);
    let mut io_error = false;
    let mut summary = Summary::default();
    for f in &a.files {
        checker.reset_stream();
        let r = if f == "-" {
            check_jsonl(&mut checker, "<stdin>", io::stdin().lock(), &mut rep)
        } else {
            File::open(f).and_then(|file| {
                let mut r = BufReader::with_capacity(1 << 20, file);
                // A HAR by its extension or by its first bytes (`{"log"`), whatever it is called.
                if is_har_file(f) || har::looks_like_har(r.fill_buf()?) {
                    // Each session but the last ends here; the last ends below, as a file does.
                    let mut end = |c: &mut Checker, rep: &mut Reporter<_>| end_stream(c, f, rep, &mut summary);
                    let stats = har::check_har(&mut checker, f, r, &mut rep, &mut end)?;
                    let _ = writeln!(err, "mcp-schema: {f}: HAR: {} entries, {} skipped (not MCP), {} messages checked{}", stats.entries, stats.not_mcp, stats.messages, if stats.reordered { ", in startedDateTime order" } else { "" });
                    Ok(())
                } else if is_json_file(f) {
                    check_json_file(&mut checker, f, &mut rep)
                } else {
                    check_jsonl(&mut checker, f, r, &mut rep)
                }
            })
        };
        if let Err(e) = r {
            let _ = writeln!(err, "mcp-schema: {f}: {e}");
            io_error = true;
        }
        let name = if f == "-" { "<stdin>" } else { f.as_str() };
        if let Err(e) = end_stream(&mut checker, name, &mut rep, &mut summary) {
            let _ = writeln!(err, "mcp-schema: writing the results: {e}");
            return 2;
        }
    }
    if a.summary {
        if let Err(e) = write_summary(&checker, &mut rep, summary) {
            let _ = writeln!(err, "mcp-schema: writing the results: {e}");
            return 2;
        }
    }
    match rep.finish() {
        Err(e) => {
            let _ = writeln!(err, "mcp-schema: writing the results: {e}");
            2
        }
        Ok(_) if io_error => 2,
        Ok(c) if c.failed > 0 => 1,
        Ok(_) => 0,
    }
}

/// Ends one stream, as `check` does for each file and `proxy` for its session: reports what only
/// the whole stream shows (unanswered requests, a UI resource never seen) and keeps what the
/// summary needs.
pub(crate) fn end_stream<W: Write>(checker: &mut Checker, file: &str, rep: &mut Reporter<W>, summary: &mut Summary) -> io::Result<()> {
    let end = checker.finish_stream();
    for o in &end.outcomes {
        rep.late(file, o)?;
    }
    summary.unanswered.extend(end.unanswered.into_iter().map(|u| (file.to_string(), u)));
    summary.unanswered_total += end.unanswered_total;
    Ok(())
}

/// Writes the summary (`--summary`) over every stream the checker saw.
pub(crate) fn write_summary<'c, W: Write>(checker: &'c Checker, rep: &mut Reporter<W>, mut summary: Summary<'c>) -> io::Result<()> {
    summary.messages = Some(checker.session().message_counts());
    summary.evictions = checker.session().evictions();
    rep.summary(&summary)
}

fn is_har_file(f: &str) -> bool {
    Path::new(f).extension().is_some_and(|e| e.eq_ignore_ascii_case("har"))
}

pub(crate) fn is_json_file(f: &str) -> bool {
    Path::new(f).extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// A `.json` file: one value (which may span lines), at most [`MAX_LINE`] bytes like a JSONL line.
fn check_json_file<W: Write>(checker: &mut Checker, name: &str, rep: &mut Reporter<W>) -> io::Result<()> {
    let mut file = File::open(name)?;
    // A regular file's size says at once whether it is too large (nothing is read), and sizes the
    // buffer: growing it by doubling while reading held up to three times the limit.
    let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let mut bytes = Vec::with_capacity(size.map_or(1 << 16, |n| n.min(MAX_LINE as u64) as usize + 1));
    if size.is_none_or(|n| n <= MAX_LINE as u64) {
        // Read one byte past the limit to tell a file at the limit from a longer one (a pipe's size is unknown).
        (&mut file).take(MAX_LINE as u64 + 1).read_to_end(&mut bytes)?;
    }
    if size.is_some_and(|n| n > MAX_LINE as u64) || bytes.len() > MAX_LINE {
        return rep.outcome(name, &file_too_large());
    }
    let start = bytes.iter().position(|b| !b" \t\r\n".contains(b)).unwrap_or(0);
    let line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count() as u64;
    let outcome = checker.check_line(&bytes, line).unwrap_or_else(empty_file);
    rep.outcome(name, &outcome)
}

/// One error about the whole line: how `check` and `convert` report input they cannot read.
fn line_error(line: u64, rule: &'static str, message: String) -> Outcome {
    Outcome { line, diags: vec![Diag { pointer: String::new(), rule, severity: Severity::Error, message }], ..Outcome::default() }
}

pub(crate) fn too_long(line: u64, len: usize) -> Outcome {
    line_error(line, "line.too-long", format!("line too long: {len} bytes (at most {MAX_LINE} are read); skipped"))
}

pub(crate) fn file_too_large() -> Outcome {
    line_error(1, "line.too-long", format!("file too large: more than {MAX_LINE} bytes (at most that is read); skipped"))
}

pub(crate) fn empty_file() -> Outcome {
    line_error(1, "json", "empty file: no JSON value".into())
}

/// JSONL: one value per line, lines split on `\n` only, checked as they are read.
pub fn check_jsonl<R: BufRead, W: Write>(checker: &mut Checker, name: &str, mut reader: R, rep: &mut Reporter<W>) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut line = 0u64;
    loop {
        buf.clear();
        let read = read_line(&mut reader, &mut buf, MAX_LINE)?;
        let outcome = match read {
            LineRead::Eof => return Ok(()),
            LineRead::Line => {
                line += 1;
                checker.check_line(&buf, line)
            }
            LineRead::TooLong(len) => {
                line += 1;
                Some(too_long(line, len))
            }
        };
        if let Some(o) = outcome {
            rep.outcome(name, &o)?;
        }
        if buf.capacity() > 1 << 24 {
            // Don't keep a huge buffer around after one huge line.
            buf = Vec::with_capacity(1 << 16);
        }
    }
}

pub(crate) enum LineRead {
    Eof,
    Line,
    TooLong(usize),
}

/// Reads up to the next `\n` (not included) into `buf`; a line longer than `max` is consumed
/// but not kept.
pub(crate) fn read_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<LineRead> {
    let mut len = 0usize;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(match (any, len > max) {
                (false, _) => LineRead::Eof,
                (true, false) => LineRead::Line,
                (true, true) => LineRead::TooLong(len),
            });
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (&avail[..i], Some(i + 1)),
            None => (avail, None),
        };
        len += chunk.len();
        if len <= max {
            buf.extend_from_slice(chunk);
        } else {
            buf.clear();
        }
        let used = done.unwrap_or(avail.len());
        r.consume(used);
        if done.is_some() {
            return Ok(if len > max { LineRead::TooLong(len) } else { LineRead::Line });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_on_newline_only() {
        let data = "a\u{2028}b\r\n\nc".as_bytes();
        let mut r = BufReader::with_capacity(2, data);
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        loop {
            buf.clear();
            match read_line(&mut r, &mut buf, 100).unwrap() {
                LineRead::Eof => break,
                LineRead::Line => lines.push(String::from_utf8(buf.clone()).unwrap()),
                LineRead::TooLong(n) => lines.push(format!("too long {n}")),
            }
        }
        assert_eq!(lines, vec!["a\u{2028}b\r", "", "c"]);
    }

    #[test]
    fn long_lines_are_skipped() {
        let data = b"0123456789\nab\n";
        let mut r = BufReader::with_capacity(3, &data[..]);
        let mut buf = Vec::new();
        assert!(matches!(read_line(&mut r, &mut buf, 5).unwrap(), LineRead::TooLong(10)));
        buf.clear();
        assert!(matches!(read_line(&mut r, &mut buf, 5).unwrap(), LineRead::Line));
        assert_eq!(buf, b"ab");
    }
}
