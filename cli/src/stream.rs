//! Checking streams: the files of `check`, one JSONL stream, and the end of a stream (shared with
//! `proxy`, whose checker child ends its session the same way).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};

use crate::args::CheckArgs;
use crate::check::Checker;
use crate::har;
use crate::input::{empty_file, file_too_large, is_har_file, is_json_file, read_long_line, too_long, LineRead, MAX_LINE};
use crate::report::{Reporter, Summary};

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
                    let stats = har::check_har(&mut checker, f, r, a.har_held, &mut rep, &mut end)?;
                    let held_out = if stats.held_out > 0 { format!(", {} not checked (past --har-held)", stats.held_out) } else { String::new() };
                    let _ = writeln!(err, "mcp-schema: {f}: HAR: {} entries, {} skipped (not MCP), {} messages checked{held_out}{}", stats.entries, stats.not_mcp, stats.messages, if stats.reordered { ", in startedDateTime order" } else { "" });
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
    for o in checker.finish_transport() {
        rep.outcome(file, &o)?;
    }
    let end = checker.finish_stream();
    for o in &end.outcomes {
        rep.late(file, o)?;
    }
    summary.unanswered.extend(end.unanswered.into_iter().map(|u| (file.to_string(), u)));
    summary.unanswered_total += end.unanswered_total;
    Ok(())
}

/// Writes the summary (`--summary`) over every stream the checker saw.
pub(crate) fn write_summary<W: Write>(checker: &Checker, rep: &mut Reporter<W>, summary: Summary<'_>) -> io::Result<()> {
    let counts = checker.session().message_counts();
    let summary = Summary { messages: Some(&counts), evictions: checker.session().evictions(), ..summary };
    rep.summary(&summary)
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

/// JSONL: one value per line, lines split on `\n` only, checked as they are read.
pub fn check_jsonl<R: BufRead, W: Write>(checker: &mut Checker, name: &str, mut reader: R, rep: &mut Reporter<W>) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut line = 0u64;
    loop {
        buf.clear();
        // A long line's buffer is sized once (not doubled) and dropped after it (below).
        let read = read_long_line(&mut reader, &mut buf, MAX_LINE, 0)?;
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
        if buf.capacity() > crate::input::LONG_LINE {
            // Don't keep a huge buffer around after one huge line.
            buf = Vec::with_capacity(1 << 16);
        }
    }
}
