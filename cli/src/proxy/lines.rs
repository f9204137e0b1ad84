//! The forwarders' side: a byte stream cut into lines, offered to the recorder without waiting,
//! and the chunk written on (with what did not reach the receiver when the write fails); the
//! server's stdin, which the host's forwarder writes and the stop closes.

use std::io::{self, Read, Write};
use std::process::ChildStdin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, TryLockError};

use crate::vocab::{dir_name, Direction};
use crate::input::MAX_LINE;

/// What a forwarder reads at once.
pub(crate) const CHUNK: usize = 64 << 10;

/// One line of one direction, without its `\n`.
#[derive(Debug)]
pub struct Line {
    pub dir: Direction,
    /// Empty for a line longer than [`MAX_LINE`] (not kept).
    pub bytes: Vec<u8>,
    /// The length of a line longer than [`MAX_LINE`].
    pub too_long: Option<usize>,
    /// `false` for the last bytes of a stream that ended without `\n`.
    pub terminated: bool,
    /// Its index among the lines of its direction, blank lines included.
    pub seq: u64,
}

#[derive(Debug)]
pub enum Event {
    Line(Line),
    /// Writing to the receiver failed: the lines of `dir` from `from_seq` on did not reach it.
    Undelivered { dir: Direction, from_seq: u64 },
}

/// A forwarder's way into the recorder's queue: it never waits.
pub type Tap = super::queue::Queue<Event>;

/// Copies `from` to `to` chunk by chunk, flushing each, and offers every line a chunk
/// completes to `tap` just before the chunk goes out. Ends at the end of `from` (then `to` is dropped, which closes
/// the server's stdin) or when `to` fails (its reader is gone; `from` is dropped with it): then
/// the lines of the chunk that did not go out are reported undelivered, and the unfinished last
/// line is not offered at all. Returns the bytes forwarded.
pub fn forward(mut from: impl Read, mut to: impl Write, dir: Direction, tap: &Tap) -> u64 {
    let mut buf = vec![0u8; CHUNK];
    let mut lines = LineSplitter::new(dir);
    let mut total = 0u64;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // The lines go to the queue before their bytes go on (offering never waits): a line
        // the server answers is then always queued before the answer, so the checker sees the
        // session in causal order.
        let first = lines.seq;
        lines.push(&buf[..n], |line| tap.offer(Event::Line(line)));
        let written = write_counted(&mut to, &buf[..n]);
        total += written as u64;
        if written < n {
            // Blocking is fine: this direction is over.
            let from_seq = first + memchr::memchr_iter(b'\n', &buf[..written]).count() as u64;
            tap.send(Event::Undelivered { dir, from_seq });
            return total;
        }
    }
    lines.finish(|line| tap.offer(Event::Line(line)));
    total
}

/// Writes and flushes `bytes`; returns how many went out (all of them unless `to` failed).
fn write_counted(to: &mut impl Write, bytes: &[u8]) -> usize {
    let mut done = 0;
    while done < bytes.len() {
        match to.write(&bytes[done..]) {
            Ok(0) => return done,
            Ok(k) => done += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return done,
        }
    }
    // A buffered writer fails at the flush: the bytes after the last `\n` it passed on stayed
    // behind, and they end no line of this chunk.
    if to.flush().is_err() {
        return memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1).min(done);
    }
    done
}

/// Cuts a byte stream into lines on `\n`, keeping at most [`MAX_LINE`] bytes of a line.
pub struct LineSplitter {
    dir: Direction,
    current: Vec<u8>,
    /// The length of the current line so far, kept or not.
    len: usize,
    /// The lines cut so far, blank ones included.
    pub seq: u64,
}

impl LineSplitter {
    pub fn new(dir: Direction) -> Self {
        LineSplitter { dir, current: Vec::new(), len: 0, seq: 0 }
    }

    /// Adds the next bytes; calls `emit` for each line they complete.
    pub fn push(&mut self, mut bytes: &[u8], mut emit: impl FnMut(Line)) {
        while let Some(i) = memchr::memchr(b'\n', bytes) {
            self.extend(&bytes[..i]);
            self.take(true, &mut emit);
            bytes = &bytes[i + 1..];
        }
        self.extend(bytes);
    }

    /// The end of the stream: what is left is a line without `\n`.
    pub fn finish(&mut self, mut emit: impl FnMut(Line)) {
        if self.len > 0 {
            self.take(false, &mut emit);
        }
    }

    fn extend(&mut self, piece: &[u8]) {
        self.len += piece.len();
        if self.len <= MAX_LINE {
            self.current.extend_from_slice(piece);
        } else if !self.current.is_empty() {
            self.current = Vec::new();
        }
    }

    fn take(&mut self, terminated: bool, emit: &mut impl FnMut(Line)) {
        let len = std::mem::take(&mut self.len);
        let bytes = std::mem::take(&mut self.current);
        let seq = self.seq;
        self.seq += 1;
        // Blank lines carry no message; `check` skips them too.
        if len <= MAX_LINE && bytes.iter().all(|b| b" \t\r".contains(b)) {
            return;
        }
        let too_long = (len > MAX_LINE).then_some(len);
        emit(Line { dir: self.dir, bytes, too_long, terminated, seq });
    }
}

/// The server's stdin, shared by the host's forwarder (which writes to it) and the stop (which
/// closes it while the forwarder may be waiting for the host). Closing drops the pipe's only write
/// end, so the server reads its end; a write in progress finishes first.
#[derive(Clone)]
pub struct ServerInput(Arc<ServerInputInner>);

struct ServerInputInner {
    pipe: Mutex<Option<ChildStdin>>,
    /// Asked to close: a write that finds this closes the pipe instead.
    closing: AtomicBool,
}

impl ServerInput {
    pub fn new(pipe: ChildStdin) -> Self {
        ServerInput(Arc::new(ServerInputInner { pipe: Mutex::new(Some(pipe)), closing: AtomicBool::new(false) }))
    }

    /// Closes the pipe now, or (from another thread) after the write in progress, which may wait
    /// for a server that does not read; never waits itself. No write starts after it.
    pub fn close(&self) {
        self.0.closing.store(true, Ordering::SeqCst);
        match self.0.pipe.try_lock() {
            Ok(mut pipe) => drop(pipe.take()),
            Err(TryLockError::Poisoned(p)) => drop(p.into_inner().take()),
            Err(TryLockError::WouldBlock) => {
                let inner = self.0.clone();
                std::thread::spawn(move || inner.pipe.lock().unwrap_or_else(PoisonError::into_inner).take());
            }
        }
    }
}

impl Write for &ServerInput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut pipe = self.0.pipe.lock().unwrap_or_else(PoisonError::into_inner);
        if self.0.closing.load(Ordering::SeqCst) {
            pipe.take();
        }
        match pipe.as_mut() {
            Some(p) => p.write(buf),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One line of the recording: a JSON line as `{"dir":..,"msg":LINE}` with the message's bytes as
/// they travelled (trailing whitespace and a byte order mark aside); anything else as it travelled, so that
/// `mcp-schema check` reports it the way the proxy did. A line too long to keep is
/// `{"dir":..,"msg":null,"skipped":LENGTH}`, which fails the check.
pub fn write_record_line(w: &mut impl Write, line: &Line) -> io::Result<()> {
    let dir = dir_name(line.dir);
    if let Some(len) = line.too_long {
        return writeln!(w, "{{\"dir\":\"{dir}\",\"msg\":null,\"skipped\":{len}}}");
    }
    // Only JSON's own whitespace: a trailing form feed (which `trim_ascii_end` would take) makes the line no JSON,
    // and the recording must read as the receiver read it.
    let end = line.bytes.iter().rposition(|b| !b" \t\r\n".contains(b)).map_or(0, |i| i + 1);
    let trimmed = &line.bytes[..end];
    // With its mark, `check` would read the line with no direction (a wrapper, even).
    let trimmed = trimmed.strip_prefix(BOM).unwrap_or(trimmed);
    if serde_json::from_slice::<serde::de::IgnoredAny>(trimmed).is_ok() {
        write!(w, "{{\"dir\":\"{dir}\",\"msg\":")?;
        w.write_all(trimmed)?;
        w.write_all(b"}\n")
    } else {
        w.write_all(&line.bytes)?;
        w.write_all(b"\n")
    }
}

pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";
