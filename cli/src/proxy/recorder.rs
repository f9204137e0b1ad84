//! The one recorder of every proxy mode (stdio, `--http`, and the bridge over either), and the
//! one place that starts checking and recording ([`start`]).
//!
//! The threads that carry the traffic offer each item to a bounded [`Queue`] without waiting (an
//! item that finds no room is counted lost: neither recorded nor checked). The recorder thread
//! takes the items in the order they were queued and hands each to its mode's [`Lines`], which
//! writes the recording's lines through [`Recording`] (numbered in the order written) and passes
//! what the checker reads to the checker child (checking.rs), again without waiting. What differs
//! per mode is only what an item becomes: a line of a pipe (`proxy`), an HTTP line routed to its
//! session's stream (`proxy --http`), a bridge's record of one leg (`proxy --to`).

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};

use super::checking::{self, CheckEvent, Checking};
use super::queue::{Entry, Queue, QUEUE_LINES};
use super::output::{self, Out};
use super::setup::ProxyArgs;

/// What one mode makes of its items: the recording's lines and the checker's events.
pub trait Lines: Send + 'static {
    type Item: Send + 'static;
    /// One item, in the order the traffic queued them.
    fn take(&mut self, item: Self::Item, rec: &mut Recording);
    /// After the last item, before the checker hears the end (what was held back goes now).
    fn finish(&mut self, _rec: &mut Recording) {}
    /// After the checker has heard the end.
    fn ended(self)
    where
        Self: Sized,
    {
    }
}

/// The recorder's side every mode shares: `--record`, the lines' numbers and the checker's queue.
pub struct Recording {
    file: Option<io::BufWriter<File>>,
    error: Arc<Mutex<Option<String>>>,
    to_checker: SyncSender<CheckEvent>,
    queued_bytes: Arc<AtomicUsize>,
    number: u64,
    unchecked: u64,
}

impl Recording {
    /// Numbers the next line of the recording and writes it with `write` (which adds its `\n`);
    /// returns its number. A write error stops the recording and is kept for the end.
    pub fn record_with(&mut self, write: impl FnOnce(&mut io::BufWriter<File>) -> io::Result<()>) -> u64 {
        self.number += 1;
        if let Some(Err(e)) = self.file.as_mut().map(write) {
            self.failed(e);
        }
        self.number
    }

    /// Numbers and writes `line` (without its `\n`); returns its number.
    pub fn record(&mut self, line: &[u8]) -> u64 {
        self.record_with(|w| w.write_all(line).and_then(|()| w.write_all(b"\n")))
    }

    /// The number of the last line recorded.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Bytes of items in both queues.
    pub fn queued_bytes(&self) -> &AtomicUsize {
        &self.queued_bytes
    }

    /// Hands `event` to the checker without waiting; one that finds no room is counted unchecked
    /// (its bytes no longer queued).
    pub fn check(&mut self, event: CheckEvent) {
        let size = event.bytes();
        if self.to_checker.try_send(event).is_err() {
            self.queued_bytes.fetch_sub(size, Ordering::Relaxed);
            self.unchecked += 1;
        }
    }

    /// Tells the checker something it must hear (the lines undelivered), waiting for room.
    pub fn tell(&self, event: CheckEvent) {
        let _ = self.to_checker.send(event);
    }

    /// Tells the checker something unless its queue is full.
    pub fn tell_if_room(&self, event: CheckEvent) {
        let _ = self.to_checker.try_send(event);
    }

    fn flush(&mut self) {
        if let Some(Err(e)) = self.file.as_mut().map(|w| w.flush()) {
            self.failed(e);
        }
    }

    fn failed(&mut self, e: io::Error) {
        *self.error.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("writing the recording: {e}"));
        self.file = None;
    }
}

/// The recorder thread: the items in queue order through `lines`; the recording flushed whenever
/// the queue is empty; at the end, the checker told how many lines were lost on the way.
fn record<L: Lines>(from: Receiver<Entry<L::Item>>, mut lines: L, mut rec: Recording, lost: &AtomicU64) {
    let mut next = from.recv().ok();
    while let Some(Entry::Item(item)) = next {
        lines.take(item, &mut rec);
        next = match from.try_recv() {
            Ok(entry) => Some(entry),
            Err(_) => {
                rec.flush();
                from.recv().ok()
            }
        };
    }
    lines.finish(&mut rec);
    rec.flush();
    rec.tell(CheckEvent::End { unrecorded: lost.load(Ordering::Relaxed), unchecked: rec.unchecked });
    lines.ended();
}

/// Where a mode's checking and recording go: the arguments (the checker child's), the findings
/// output and the opened `--record`.
pub struct Sinks<'a> {
    pub args: &'a ProxyArgs,
    pub findings: Out,
    pub record: Option<io::BufWriter<File>>,
}

/// Checking and recording, running.
pub struct Started {
    recorder: JoinHandle<()>,
    checker: Checking,
    end: Box<dyn FnOnce() + Send>,
    /// The recording's write error, if any ([`Started::finish`] returns it).
    error: Arc<Mutex<Option<String>>>,
}

/// Starts the checker child and the recorder thread that feeds it with `lines`, reading `from`
/// (the receiving end of `queue`). Every mode starts here.
pub fn start<L: Lines>(sinks: Sinks, queue: &Queue<L::Item>, from: Receiver<Entry<L::Item>>, lines: L) -> Started {
    let (to_checker, from_recorder) = sync_channel(QUEUE_LINES);
    let error = Arc::new(Mutex::new(None));
    let rec = Recording { file: sinks.record, error: error.clone(), to_checker, queued_bytes: queue.queued_bytes.clone(), number: 0, unchecked: 0 };
    let lost = queue.lost.clone();
    let recorder = thread::spawn(move || record(from, lines, rec, &lost));
    let checker = checking::start(sinks.args, sinks.findings, from_recorder, queue.queued_bytes.clone());
    let q = queue.clone();
    Started { recorder, checker, end: Box::new(move || q.end()), error }
}

impl Started {
    /// The traffic is over: the recorder told so, then its last lines recorded and checked unless
    /// `findings` stalls (a host that never reads it).
    pub fn finish(self, findings: &Out) -> Arc<Mutex<Option<String>>> {
        // Sent from a thread: the recorder may itself be waiting on a stalled checker.
        thread::spawn(self.end);
        output::join_unless_stalled(self.recorder, &[findings]);
        self.checker.finish(findings);
        self.error
    }
}

/// Runs `lines` over `items` on this thread, with no recording file; returns what the checker got.
#[cfg(test)]
pub fn replay<L: Lines>(lines: L, items: impl IntoIterator<Item = L::Item>) -> Vec<CheckEvent> {
    let (q, from) = super::queue::queue(1 << 12);
    // The items were never offered: their bytes are counted as if they had been (more than enough).
    q.queued_bytes.store(1 << 30, Ordering::Relaxed);
    items.into_iter().for_each(|i| q.send(i));
    q.end();
    let (to_checker, checked) = sync_channel(1 << 12);
    let rec = Recording { file: None, error: Arc::default(), to_checker, queued_bytes: q.queued_bytes.clone(), number: 0, unchecked: 0 };
    record(from, lines, rec, &q.lost);
    checked.try_iter().collect()
}
