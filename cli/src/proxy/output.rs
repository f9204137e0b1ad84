//! The proxy's outputs (stderr, `--findings FILE`): whole lines only, so the server's stderr lines
//! and the findings never split each other; a write that fails is remembered and reported at the
//! end; a write that blocks (nobody reads the pipe) is seen, so the exit never waits on it.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// A write blocked this long means nobody reads the output: the exit stops waiting for it.
pub const STALL: Duration = Duration::from_secs(2);

/// A server stderr line longer than this is passed on in pieces (memory stays bounded); a
/// finding may then come between two pieces.
const MAX_HELD: usize = 64 << 10;

/// One output shared by threads.
#[derive(Clone)]
pub struct Out(Arc<Inner>);

struct Inner {
    name: String,
    w: Mutex<Box<dyn Write + Send>>,
    /// When the write in progress started (milliseconds since [`epoch`], plus 1); 0 when none.
    busy_since: AtomicU64,
    /// The first write error; later writes are skipped.
    error: Mutex<Option<String>>,
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64 + 1
}

impl Out {
    pub fn new(name: &str, w: Box<dyn Write + Send>) -> Out {
        epoch();
        Out(Arc::new(Inner { name: name.to_string(), w: Mutex::new(w), busy_since: AtomicU64::new(0), error: Mutex::new(None) }))
    }

    /// Whether `other` is the same output (findings on stderr).
    pub fn same(&self, other: &Out) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Writes whole lines at once; `false` if the output has failed (now or before).
    pub fn write_lines(&self, bytes: &[u8]) -> bool {
        let mut w = self.0.w.lock().unwrap_or_else(PoisonError::into_inner);
        if self.failed() {
            return false;
        }
        self.0.busy_since.store(now_ms(), Ordering::Relaxed);
        let r = w.write_all(bytes).and_then(|()| w.flush());
        self.0.busy_since.store(0, Ordering::Relaxed);
        match r {
            Ok(()) => true,
            Err(e) => {
                *self.0.error.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("writing to {}: {e}", self.0.name));
                false
            }
        }
    }

    pub fn failed(&self) -> bool {
        self.0.error.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }

    pub fn error(&self) -> Option<String> {
        self.0.error.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// A write has been blocked for [`STALL`]: the reader is not reading.
    pub fn stalled(&self) -> bool {
        let since = self.0.busy_since.load(Ordering::Relaxed);
        since != 0 && now_ms().saturating_sub(since) > STALL.as_millis() as u64
    }
}

/// Waits for `thread` unless one of `outs` stalls (or has stalled) first; `true` if it ended.
pub fn join_unless_stalled<T>(thread: JoinHandle<T>, outs: &[&Out]) -> bool {
    join_unless(thread, || outs.iter().any(|o| o.stalled()))
}

/// Waits for `thread` until `give_up` says so; `true` if it ended.
pub fn join_unless<T>(thread: JoinHandle<T>, give_up: impl Fn() -> bool) -> bool {
    loop {
        if thread.is_finished() {
            let _ = thread.join();
            return true;
        }
        if give_up() {
            return false;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// When a relay last read something (milliseconds, as [`Out`] counts them).
#[derive(Clone, Default)]
pub struct LastRead(Arc<AtomicU64>);

impl LastRead {
    pub fn touch(&self) {
        self.0.store(now_ms(), Ordering::Relaxed);
    }

    /// Nothing read for `quiet` (a process the server left behind may hold its stderr open).
    pub fn quiet_for(&self, quiet: Duration) -> bool {
        now_ms().saturating_sub(self.0.load(Ordering::Relaxed)) > quiet.as_millis() as u64
    }
}

/// Writes a note of the proxy's own to `out` unless `out` stalls.
/// Says on `stderr` what could not be written (the findings, the recording); whether anything was.
pub fn report_write_errors(stderr: &Out, findings: &Out, record_error: &std::sync::Mutex<Option<String>>) -> bool {
    let record_error = record_error.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    let mut failed = false;
    for (error, what) in [(findings.error(), "findings are missing"), (record_error, "the recording is incomplete")] {
        if let Some(error) = error {
            failed = true;
            note(stderr, format!("{error}: {what}"));
        }
    }
    failed
}

pub fn note(out: &Out, text: String) {
    let o = out.clone();
    let t = thread::spawn(move || o.write_lines(format!("mcp-schema proxy: {text}\n").as_bytes()));
    join_unless_stalled(t, &[out]);
}

/// Passes the server's stderr to `out` line by line. An unterminated last line is passed as it
/// is, with a `\n` added when findings share `out` (else the next finding would continue it).
pub fn relay_lines(mut from: impl Read, out: Out, findings_here: bool, last_read: LastRead) {
    let mut buf = vec![0u8; MAX_HELD];
    let mut held: Vec<u8> = Vec::new();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        last_read.touch();
        let chunk = &buf[..n];
        let Some(last) = memchr::memrchr(b'\n', chunk) else {
            held.extend_from_slice(chunk);
            if held.len() >= MAX_HELD {
                out.write_lines(&held);
                held.clear();
            }
            continue;
        };
        // The whole lines of the chunk (with what was held) go out in one write.
        held.extend_from_slice(&chunk[..=last]);
        out.write_lines(&held);
        held.clear();
        held.extend_from_slice(&chunk[last + 1..]);
    }
    if !held.is_empty() {
        if findings_here {
            held.push(b'\n');
        }
        out.write_lines(&held);
    }
}
