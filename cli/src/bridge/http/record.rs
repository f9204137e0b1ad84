//! The recorder thread: the handlers queue finished recording lines in order (under their
//! session's lock, so a session's lines never overtake each other); this thread numbers them,
//! writes `--record` and hands each message line to the checker on its session's stream. As in
//! the other proxies, a line that finds no room in the queue is counted and lost.

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::bridge::{into_line, wait_until_unique, Record};
use crate::proxy::{CheckEvent, QUEUE_BYTES};

pub enum Item {
    /// One recording line (without its `\n`); `stream`: checked on that checker stream (message
    /// lines), `None`: only recorded (HTTP context).
    Line { text: Vec<u8>, stream: Option<u64> },
    /// A message's record, its line made here ([`into_line`]: in its own buffer once the peer's
    /// side has let it go, waiting a moment for a line sent).
    Record { record: Box<Record>, http: Option<Value>, stream: Option<u64> },
    Stop,
}

#[derive(Clone)]
pub struct Recorder {
    pub queue: SyncSender<Item>,
    pub queued_bytes: Arc<AtomicUsize>,
    pub lost: Arc<AtomicU64>,
}

/// An HTTP context line (`{"http":...}`) of one leg: `check` reads each leg's exchanges apart.
pub fn on_leg(line: String, leg: crate::bridge::Leg) -> Vec<u8> {
    let name = match leg {
        crate::bridge::Leg::Client => "client",
        crate::bridge::Leg::Server => "server",
    };
    match line.strip_prefix('{') {
        Some(rest) => format!("{{\"leg\":\"{name}\",{rest}").into_bytes(),
        None => line.into_bytes(),
    }
}

impl Recorder {
    pub fn send(&self, mut text: Vec<u8>, stream: Option<u64>) {
        if text.last() == Some(&b'\n') {
            text.pop();
        }
        let size = text.len();
        self.queue_item(size, Item::Line { text, stream });
    }

    /// A message's record, to be made into its recording line on the recorder's thread.
    pub fn send_record(&self, record: Record, http: Option<Value>, stream: Option<u64>) {
        self.queue_item(record.bytes.len(), Item::Record { record: Box::new(record), http, stream });
    }

    fn queue_item(&self, size: usize, item: Item) {
        if self.queued_bytes.fetch_add(size, Ordering::Relaxed) + size > QUEUE_BYTES || self.queue.try_send(item).is_err() {
            self.queued_bytes.fetch_sub(size, Ordering::Relaxed);
            self.lost.fetch_add(1, Ordering::Relaxed);
        }
    }
}

pub fn record_lines(from: Receiver<Item>, mut record: Option<io::BufWriter<File>>, to_checker: SyncSender<CheckEvent>, rec: &Recorder, error: &Mutex<Option<String>>) {
    let (mut number, mut unchecked) = (0u64, 0u64);
    let fail = |e: io::Error| *error.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("writing the recording: {e}"));
    let mut next = from.recv().ok();
    while let Some(item) = next {
        let (text, stream) = match item {
            Item::Line { text, stream } => (text, stream),
            Item::Record { record, http, stream } => {
                let counted = record.bytes.len();
                if record.note.is_none() {
                    wait_until_unique(&record.bytes, rec.queued_bytes.load(Ordering::Relaxed));
                }
                let mut text = into_line(*record, http.as_ref());
                text.pop();
                // The queue counts the line from here.
                rec.queued_bytes.fetch_add(text.len(), Ordering::Relaxed);
                rec.queued_bytes.fetch_sub(counted, Ordering::Relaxed);
                (text, stream)
            }
            Item::Stop => break,
        };
        number += 1;
        if let Some(w) = &mut record {
            if let Err(e) = w.write_all(&text).and_then(|()| w.write_all(b"\n")) {
                fail(e);
                record = None;
            }
        }
        let size = text.len();
        match stream {
            // The checker's queue counts the line's bytes until the checker child has it.
            Some(stream) => {
                if to_checker.try_send(CheckEvent::Wrapped { number, stream, bytes: text }).is_err() {
                    rec.queued_bytes.fetch_sub(size, Ordering::Relaxed);
                    unchecked += 1;
                }
            }
            None => drop(rec.queued_bytes.fetch_sub(size, Ordering::Relaxed)),
        }
        next = match from.try_recv() {
            Ok(item) => Some(item),
            Err(_) => {
                if let Some(Err(e)) = record.as_mut().map(|w| w.flush()) {
                    fail(e);
                    record = None;
                }
                from.recv().ok()
            }
        };
    }
    if let Some(Err(e)) = record.as_mut().map(|w| w.flush()) {
        fail(e);
    }
    let _ = to_checker.send(CheckEvent::End { unrecorded: rec.lost.load(Ordering::Relaxed), unchecked });
}
