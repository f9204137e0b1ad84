//! The checker runs in a child process (this binary, `proxy --checker-child`), fed the numbered
//! lines through a pipe: a stack overflow or abort while checking ends that process only, never
//! the proxy or the traffic. The proxy relays the child's findings to the findings output; if the
//! child dies before the session's end, that becomes a finding on the line it was checking and
//! checking stops (later lines pass unchecked).
//!
//! A thread with a big stack would only move the limit (a peer controls the depth) and
//! `catch_unwind` cannot catch an overflow; a process costs one pipe copy per line.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};


use super::lines::Line;
use super::output::Out;
use super::setup::ProxyArgs;
use crate::args::CheckArgs;
use crate::check::Checker;
use crate::rules::stream::{CHECKER_INTERNAL, LINE_UNDELIVERED};
use crate::vocab::{Diag, Direction, Outcome};
use crate::report::{Reporter, Summary};

/// Checks one line as a message of its direction (the pipe it came through): a JSON line as
/// `{"dir": .., "msg": LINE}` (the recording's line, so pointers and line numbers match it);
/// anything else is reported as not UTF-8 or not JSON, never read as a wrapper line.
pub fn check_one(checker: &mut Checker, number: u64, line: &Line) -> Outcome {
    checker.check_received(line.dir, &line.bytes, line.too_long, line.terminated, number)
}

/// A line with its number in the session (its line in the recording) and the checker stream it
/// belongs to (0 for stdio; `proxy --http` gives each `Mcp-Session-Id` its own).
pub struct Numbered {
    pub number: u64,
    pub line: Line,
    pub stream: u64,
}

/// What the recorder hands the checker child.
pub enum CheckEvent {
    Line(Numbered),
    /// A recording line checked as `check` reads it (a bridge's line, with its `leg`; an HTTP
    /// line), on a checker stream (0 for stdio; the HTTP modes give each session its own).
    Wrapped { number: u64, stream: u64, bytes: Vec<u8> },
    /// The numbers of lines that did not reach their receiver (recorded and checked already).
    Undelivered(Vec<u64>),
    /// A stream is over (`proxy --http`: its session was deleted): report its end now.
    EndStream(u64),
    /// The traffic is over: how many lines were lost before the recorder and before the checker.
    End {
        unrecorded: u64,
        unchecked: u64,
    },
}

impl CheckEvent {
    /// The bytes this event holds in the queues (counted until the checker child has them).
    pub fn bytes(&self) -> usize {
        match self {
            CheckEvent::Line(n) => n.line.bytes.len(),
            CheckEvent::Wrapped { bytes, .. } => bytes.len(),
            CheckEvent::Undelivered(_) | CheckEvent::EndStream(_) | CheckEvent::End { .. } => 0,
        }
    }
}

/// The child writes this line before it checks line N (`\x01N`), and `\x02` when the session's
/// end is reported; no finding line starts with either byte.
const CHECKING: u8 = 1;
const DONE: u8 = 2;

/// Debug builds only: a line containing this env variable's value makes the checker child
/// overflow its stack (tests of the containment).
pub const CRASH_ENV: &str = "MCP_SCHEMA_PROXY_TEST_CRASH";

/// The checker: the relay thread ends when the child's output ends (and the crash, if any, is
/// reported).
pub struct Checking {
    pub relay: JoinHandle<()>,
    child: Arc<Mutex<Option<Child>>>,
}

impl Checking {
    /// Waits for the last findings unless `findings` stalls; then ends the child. `true` if all came.
    pub fn finish(self, findings: &Out) -> bool {
        if super::output::join_unless_stalled(self.relay, &[findings]) {
            return true;
        }
        if let Some(c) = self.child.lock().unwrap_or_else(PoisonError::into_inner).as_mut() {
            let _ = c.kill();
        }
        false
    }
}

/// Starts the checker child and the threads that feed it and relay its findings to `findings`.
pub fn start(a: &ProxyArgs, findings: Out, from: Receiver<CheckEvent>, queued_bytes: Arc<AtomicUsize>) -> Checking {
    let label = a.record.clone().unwrap_or_else(|| "<proxy>".to_string());
    let role = format!("{}{label}", if a.record.is_some() { 'r' } else { '-' });
    let spawned = std::env::current_exe().and_then(|exe| {
        Process::new(exe)
            .arg("proxy")
            .arg(format!("--checker-child={role}"))
            .args(&a.check_options)
            .args(["--", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    });
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            let _ = findings.write_lines(format!("mcp-schema proxy: could not start the checker ({e}): the traffic passes unchecked\n").as_bytes());
            let relay = thread::spawn(move || drain(from, &queued_bytes));
            return Checking { relay, child: Arc::new(Mutex::new(None)) };
        }
    };
    let (stdin, stdout, stderr) = (child.stdin.take().unwrap(), child.stdout.take().unwrap(), child.stderr.take().unwrap());
    thread::spawn(move || feed(from, stdin, &queued_bytes));
    // What the child says when it dies (a panic message, "has overflowed its stack"): the start only.
    let last_words = thread::spawn(move || {
        let (mut stderr, mut v) = (stderr, Vec::new());
        let _ = (&mut stderr).take(4096).read_to_end(&mut v);
        let _ = io::copy(&mut stderr, &mut io::sink());
        String::from_utf8_lossy(&v).into_owned()
    });
    let child = Arc::new(Mutex::new(Some(child)));
    let relay = {
        let (child, json) = (child.clone(), a.check.json);
        thread::spawn(move || relay(stdout, &findings, &child, last_words, &label, json))
    };
    Checking { relay, child }
}

/// Passes the lines to the child; when it is gone, drops them (keeping the byte count right).
fn feed(from: Receiver<CheckEvent>, to: ChildStdin, queued_bytes: &AtomicUsize) {
    let mut w = io::BufWriter::with_capacity(1 << 16, to);
    let mut next = from.recv().ok();
    while let Some(event) = next {
        let size = match &event {
            CheckEvent::Line(n) => n.line.bytes.len(),
            CheckEvent::Wrapped { bytes, .. } => bytes.len(),
            _ => 0,
        };
        let end = matches!(event, CheckEvent::End { .. });
        let written = write_frame(&mut w, &event);
        queued_bytes.fetch_sub(size, Ordering::Relaxed);
        if written.is_err() {
            return drain(from, queued_bytes);
        }
        if end {
            let _ = w.flush();
            return;
        }
        next = match from.try_recv() {
            Ok(e) => Some(e),
            Err(_) => {
                if w.flush().is_err() {
                    return drain(from, queued_bytes);
                }
                from.recv().ok()
            }
        };
    }
}

fn drain(from: Receiver<CheckEvent>, queued_bytes: &AtomicUsize) {
    while let Ok(event) = from.recv() {
        match event {
            CheckEvent::Line(n) => {
                queued_bytes.fetch_sub(n.line.bytes.len(), Ordering::Relaxed);
            }
            CheckEvent::Wrapped { bytes, .. } => {
                queued_bytes.fetch_sub(bytes.len(), Ordering::Relaxed);
            }
            CheckEvent::End { .. } => return,
            CheckEvent::Undelivered(_) | CheckEvent::EndStream(_) => {}
        }
    }
}

/// The frames' tags on the pipe to the checker child: one per [`CheckEvent`], named so two kinds never share one.
const LINE: u8 = 1;
const END: u8 = 2;
const UNDELIVERED: u8 = 3;
const END_STREAM: u8 = 4;
const WRAPPED: u8 = 5;

fn write_frame(w: &mut impl Write, event: &CheckEvent) -> io::Result<()> {
    match event {
        CheckEvent::Line(Numbered { number, line, stream }) => {
            w.write_all(&[LINE, (line.dir == Direction::ServerToClient) as u8, line.terminated as u8])?;
            for n in [*number, *stream, line.too_long.unwrap_or(0) as u64, line.bytes.len() as u64] {
                w.write_all(&n.to_le_bytes())?;
            }
            w.write_all(&line.bytes)
        }
        CheckEvent::Wrapped { number, stream, bytes } => {
            w.write_all(&[WRAPPED])?;
            w.write_all(&number.to_le_bytes())?;
            w.write_all(&stream.to_le_bytes())?;
            w.write_all(&(bytes.len() as u64).to_le_bytes())?;
            w.write_all(bytes)
        }
        CheckEvent::End { unrecorded, unchecked } => {
            w.write_all(&[END])?;
            w.write_all(&unrecorded.to_le_bytes())?;
            w.write_all(&unchecked.to_le_bytes())
        }
        CheckEvent::EndStream(stream) => {
            w.write_all(&[END_STREAM])?;
            w.write_all(&stream.to_le_bytes())
        }
        CheckEvent::Undelivered(numbers) => {
            w.write_all(&[UNDELIVERED])?;
            w.write_all(&(numbers.len() as u64).to_le_bytes())?;
            numbers.iter().try_for_each(|n| w.write_all(&n.to_le_bytes()))
        }
    }
}

fn read_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn read_frame(r: &mut impl Read) -> io::Result<CheckEvent> {
    let mut tag = [0u8; 1];
    r.read_exact(&mut tag)?;
    match tag[0] {
        LINE => {
            let mut flags = [0u8; 2];
            r.read_exact(&mut flags)?;
            let (number, stream, too_long, len) = (read_u64(r)?, read_u64(r)?, read_u64(r)?, read_u64(r)?);
            // The parent never sends more than MAX_LINE bytes; a bigger length is a broken pipe.
            if len > crate::input::MAX_LINE as u64 {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "frame too long"));
            }
            let mut bytes = vec![0u8; len as usize];
            r.read_exact(&mut bytes)?;
            let dir = if flags[0] == 1 { Direction::ServerToClient } else { Direction::ClientToServer };
            let too_long = (too_long > 0).then_some(too_long as usize);
            Ok(CheckEvent::Line(Numbered { number, line: Line { dir, bytes, too_long, terminated: flags[1] == 1, seq: 0 }, stream }))
        }
        END => Ok(CheckEvent::End { unrecorded: read_u64(r)?, unchecked: read_u64(r)? }),
        WRAPPED => {
            let (number, stream, len) = (read_u64(r)?, read_u64(r)?, read_u64(r)?);
            // A recording line is a message with its wrapper: at most MAX_LINE and the wrapper's few bytes.
            if len > crate::input::MAX_LINE as u64 + 4096 {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "frame too long"));
            }
            let mut bytes = vec![0u8; len as usize];
            r.read_exact(&mut bytes)?;
            Ok(CheckEvent::Wrapped { number, stream, bytes })
        }
        UNDELIVERED => {
            let count = read_u64(r)?.min(1 << 20);
            (0..count).map(|_| read_u64(r)).collect::<io::Result<Vec<_>>>().map(CheckEvent::Undelivered)
        }
        END_STREAM => Ok(CheckEvent::EndStream(read_u64(r)?)),
        _ => Err(io::Error::new(io::ErrorKind::InvalidData, "unknown frame")),
    }
}

/// Copies the child's findings to `findings` line by line; at its end, a crash becomes a finding.
fn relay(stdout: impl Read, findings: &Out, child: &Mutex<Option<Child>>, last_words: JoinHandle<String>, label: &str, json: bool) {
    let mut r = BufReader::with_capacity(1 << 16, stdout);
    let mut line = Vec::new();
    let (mut checking, mut done) = (0u64, false);
    loop {
        line.clear();
        match r.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        match line.first() {
            Some(&CHECKING) => checking = std::str::from_utf8(&line[1..]).ok().and_then(|s| s.trim_end().parse().ok()).unwrap_or(checking),
            Some(&DONE) => done = true,
            // A failed output is drained, so the child never blocks on it.
            _ => {
                let _ = findings.write_lines(&line);
            }
        }
    }
    let status = child.lock().unwrap_or_else(PoisonError::into_inner).take().map(|mut c| c.wait());
    if done {
        return;
    }
    let words = last_words.join().unwrap_or_default();
    let how = if words.contains("overflowed its stack") {
        "a stack overflow".to_string()
    } else if let Some(l) = words.lines().find(|l| l.contains("panicked")) {
        format!("a panic: {l}")
    } else {
        match status {
            Some(Ok(s)) => format!("exit status {}", super::signals::exit_code(s)),
            _ => "an unknown status".to_string(),
        }
    };
    let message = format!("the checker crashed while checking this line ({how}): checking stopped, the traffic goes on unchecked (a bug)");
    let outcome = Outcome { line: checking, diags: vec![Diag::of(&CHECKER_INTERNAL, "", message)], ..Outcome::default() };
    let mut text = Vec::new();
    let _ = Reporter::new(&mut text, json).outcome(label, &outcome);
    if !json {
        text.extend_from_slice(b"mcp-schema proxy: checking stopped: the checker crashed; later lines passed unchecked\n");
    }
    let _ = findings.write_lines(&text);
}

/// The output of the checker child: the reporter's findings and the progress marks, in order.
#[derive(Clone)]
struct Shared(std::rc::Rc<std::cell::RefCell<io::BufWriter<io::Stdout>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// `proxy --checker-child=ROLE`: checks the framed lines on stdin, writes findings to stdout.
/// ROLE is `r` (with a recording) or `-`, then the file name the findings name.
pub fn child_main(args: &CheckArgs, role: &str) -> i32 {
    #[cfg(unix)]
    super::signals::ignore_in_checker();
    lower_priority();
    let recording = role.starts_with('r');
    let file = role.get(1..).unwrap_or("<proxy>");
    let out = Shared(std::rc::Rc::new(std::cell::RefCell::new(io::BufWriter::with_capacity(1 << 16, io::stdout()))));
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    // One checker per stream, in the order the streams start (a few at most: `proxy --http` bounds them).
    let mut checkers: Vec<(u64, Checker)> = vec![(0, Checker::new(args))];
    let mut rep = Reporter::new(out.clone(), args.json);
    // What the streams ended so far leave for the summary.
    let mut counts = std::collections::BTreeMap::new();
    let mut summary = Summary::default();
    let mut ended_evictions = 0;
    let crash_on = crash_marker();
    let (unrecorded, unchecked) = loop {
        let Ok(event) = read_frame(&mut input) else {
            // The proxy is gone without an end: nothing to report to.
            return 0;
        };
        match event {
            CheckEvent::Line(Numbered { number, line, stream }) => {
                let at = match checkers.iter().position(|(s, _)| *s == stream) {
                    Some(i) => i,
                    None => {
                        checkers.push((stream, Checker::new(args)));
                        checkers.len() - 1
                    }
                };
                if !checking_line(&out, number, crash_on.as_deref(), &line.bytes) {
                    return 0;
                }
                let outcome = check_one(&mut checkers[at].1, number, &line);
                // Flushed before waiting for input too, so findings show up while the session runs.
                if rep.outcome(file, &outcome).is_err() || (input.buffer().is_empty() && out.clone().flush().is_err()) {
                    return 0;
                }
            }
            CheckEvent::Wrapped { number, stream, bytes } => {
                let at = match checkers.iter().position(|(s, _)| *s == stream) {
                    Some(i) => i,
                    None => {
                        checkers.push((stream, Checker::new(args)));
                        checkers.len() - 1
                    }
                };
                if !checking_line(&out, number, crash_on.as_deref(), &bytes) {
                    return 0;
                }
                // A bridge's recording lines (`proxy --to`: a stream per client session); `leg` splits them in the checker.
                let outcome = checkers[at].1.check_line(&bytes, number);
                if outcome.is_some_and(|o| rep.outcome(file, &o).is_err()) || (input.buffer().is_empty() && out.clone().flush().is_err()) {
                    return 0;
                }
            }
            CheckEvent::Undelivered(numbers) => {
                for n in numbers {
                    let message = "this line did not reach its receiver: writing it failed (the receiver had closed its end); it was checked as if it had".to_string();
                    let o = Outcome { line: n, diags: vec![Diag::of(&LINE_UNDELIVERED, "", message)], ..Outcome::default() };
                    if rep.late(file, &o).is_err() {
                        return 0;
                    }
                }
            }
            CheckEvent::EndStream(stream) => {
                let Some(at) = checkers.iter().position(|(s, _)| *s == stream) else { continue };
                let (_, mut checker) = checkers.remove(at);
                if crate::stream::end_stream(&mut checker, file, &mut rep, &mut summary).is_err() {
                    return 0;
                }
                for (k, n) in checker.session().message_counts() {
                    *counts.entry(k.clone()).or_insert(0) += n;
                }
                ended_evictions += checker.session().evictions();
                let mut o = out.clone();
                if input.buffer().is_empty() && o.flush().is_err() {
                    return 0;
                }
            }
            CheckEvent::End { unrecorded, unchecked } => break (unrecorded, unchecked),
        }
    };
    // The end of the session: what only the whole session shows (unanswered requests, a UI
    // resource never seen), then the summary if asked for, as `check` does at the end of a file.
    for (_, checker) in &mut checkers {
        if crate::stream::end_stream(checker, file, &mut rep, &mut summary).is_err() {
            return 0;
        }
    }
    let written = match &checkers[..] {
        [(_, one)] if counts.is_empty() => !args.summary || crate::stream::write_summary(one, &mut rep, summary).is_ok(),
        // The counts of every stream together.
        left => {
            for (_, c) in left {
                for (k, n) in c.session().message_counts() {
                    *counts.entry(k.clone()).or_insert(0) += n;
                }
            }
            summary.messages = Some(&counts);
            summary.evictions = ended_evictions + left.iter().map(|(_, c)| c.session().evictions()).sum::<u64>();
            !args.summary || rep.summary(&summary).is_ok()
        }
    };
    if !written {
        return 0;
    }
    let mut o = out.clone();
    let passed_unchecked = unchecked + unrecorded;
    if passed_unchecked > 0 {
        let _ = match (args.json, recording) {
            (true, true) => writeln!(o, "{}", serde_json::json!({"unchecked": passed_unchecked, "unrecorded": unrecorded})),
            (true, false) => writeln!(o, "{}", serde_json::json!({"unchecked": passed_unchecked})),
            (false, recording) => {
                let missing = if recording { format!(" ({unrecorded} of them missing from the recording)") } else { String::new() };
                writeln!(o, "mcp-schema proxy: {passed_unchecked} lines passed unchecked{missing}: the checker fell behind the traffic")
            }
        };
    }
    let _ = rep.finish();
    let _ = o.write_all(&[DONE, b'\n']).and_then(|()| o.flush());
    0
}

/// Says which line is checked next (flushed, so a crash is reported on the right line); the test
/// hook's crash. `false`: the proxy is gone.
fn checking_line(out: &Shared, number: u64, crash_on: Option<&[u8]>, bytes: &[u8]) -> bool {
    let mut o = out.clone();
    if writeln!(o, "\x01{number}").and_then(|()| o.flush()).is_err() {
        return false;
    }
    if crash_on.is_some_and(|m| memchr::memmem::find(bytes, m).is_some()) {
        overflow(0);
    }
    true
}

#[cfg(debug_assertions)]
fn crash_marker() -> Option<Vec<u8>> {
    std::env::var_os(CRASH_ENV).filter(|v| !v.is_empty()).map(|v| v.into_encoded_bytes())
}

#[cfg(not(debug_assertions))]
fn crash_marker() -> Option<Vec<u8>> {
    None
}

/// Recurses until the stack overflows (the test hook above).
#[allow(unconditional_recursion)]
fn overflow(n: u64) -> u64 {
    let frame = std::hint::black_box([n; 64]);
    overflow(n + 1) + frame[0]
}

/// Gives the checker the lowest CPU priority, so that on a busy machine the forwarders (and the
/// server and host) get the CPU before a checker that is behind.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority(2) takes integers only (who = 0: this process) and touches no memory of
    // it; a failure leaves the priority as it was, which is fine. std has no way to set a process's
    // priority, and no crate in the tree wraps this call safely.
    #[allow(unsafe_code)]
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of frame reads back as itself (two kinds once shared a tag, and a bridge's
    /// recording lines were read as the end of a stream).
    #[test]
    fn every_frame_reads_back_as_its_kind() {
        let events = [
            CheckEvent::Line(Numbered { number: 7, line: Line { dir: Direction::ServerToClient, bytes: b"{}".to_vec(), too_long: None, terminated: true, seq: 0 }, stream: 3 }),
            CheckEvent::Wrapped { number: 8, stream: 2, bytes: b"{\"leg\":\"client\"}".to_vec() },
            CheckEvent::EndStream(5),
            CheckEvent::Undelivered(vec![1, 2]),
            CheckEvent::End { unrecorded: 1, unchecked: 2 },
        ];
        let mut pipe = Vec::new();
        for e in &events {
            write_frame(&mut pipe, e).unwrap();
        }
        let mut r = &pipe[..];
        let read: Vec<String> = events.iter().map(|_| format!("{:?}", std::mem::discriminant(&read_frame(&mut r).unwrap()))).collect();
        let sent: Vec<String> = events.iter().map(|e| format!("{:?}", std::mem::discriminant(e))).collect();
        assert_eq!(read, sent);
        assert!(r.is_empty());
    }
}
