//! The bridge on the stdio proxy: a reader per side feeds the [`Bridge`] line by line; a writer per
//! side passes its lines on in the order the bridge gave them; a recorder writes both legs to
//! `--record` and hands each line to the checker child, which checks the two legs as two streams.
//! As in the plain proxy, recording and checking never hold up the traffic: a record that finds no
//! room in the queue is counted and lost.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::process::{ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use bytes::Bytes;

use super::record::{into_line, wait_until_unique, Counts, Record};
use super::Bridge;
use crate::proxy::output::Out;
use crate::proxy::{CheckEvent, Traffic, QUEUE_BYTES, QUEUE_LINES};
use crate::input::{read_long_line, LineRead, MAX_LINE};

enum Recorded {
    Records(Vec<Record>),
    End,
}

/// The shared bridge and the queues its outputs go to.
struct Wiring {
    bridge: Mutex<Bridge>,
    to_client: Mutex<Option<SyncSender<Bytes>>>,
    to_server: Mutex<Option<SyncSender<Bytes>>>,
    records: SyncSender<Recorded>,
    queued_bytes: Arc<AtomicUsize>,
    lost: AtomicU64,
    /// The client closed its side: the server's closes once the bridge has sent what it owes it.
    client_done: AtomicBool,
}

impl Wiring {
    /// One line through the bridge; its outputs queued in order (under the bridge's lock, so two
    /// sides' lines never overtake each other).
    fn feed(&self, line: Line, from_client: bool) {
        let mut bridge = self.bridge.lock().unwrap_or_else(PoisonError::into_inner);
        let out = match (line, from_client) {
            (Line::Long(b), true) => bridge.from_client_shared(b, None),
            (Line::Long(b), false) => bridge.from_server_shared(b),
            (Line::Short(l), true) => bridge.from_client(l),
            (Line::Short(l), false) => bridge.from_server(l),
        };
        if let Some(to_client) = self.to_client.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            for l in out.to_client {
                let _ = to_client.send(l);
            }
        }
        if let Some(to_server) = self.to_server.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            for l in out.to_server {
                let _ = to_server.send(l);
            }
        }
        if self.client_done.load(Ordering::Relaxed) && bridge.settled() {
            self.to_server.lock().unwrap_or_else(PoisonError::into_inner).take();
        }
        let size: usize = out.records.iter().map(|r| r.bytes.len()).sum();
        let n = out.records.len() as u64;
        if self.queued_bytes.fetch_add(size, Ordering::Relaxed) + size > QUEUE_BYTES || self.records.try_send(Recorded::Records(out.records)).is_err() {
            self.queued_bytes.fetch_sub(size, Ordering::Relaxed);
            self.lost.fetch_add(n, Ordering::Relaxed);
        }
    }
}

/// Starts the bridge between this process's stdin/stdout (the client) and the server's pipes.
pub(crate) fn start(
    to: usize,
    server_in: ChildStdin,
    server_out: ChildStdout,
    record: Option<io::BufWriter<File>>,
    to_checker: SyncSender<CheckEvent>,
    record_error: Arc<Mutex<Option<String>>>,
) -> Traffic {
    let (to_client, client_lines) = sync_channel::<Bytes>(QUEUE_LINES);
    let (to_server, server_lines) = sync_channel::<Bytes>(QUEUE_LINES);
    let (records, from_bridge) = sync_channel(QUEUE_LINES);
    let queued_bytes = Arc::new(AtomicUsize::new(0));
    let wiring = Arc::new(Wiring { bridge: Mutex::new(Bridge::new(to)), to_client: Mutex::new(Some(to_client)), to_server: Mutex::new(Some(to_server)), records: records.clone(), queued_bytes: queued_bytes.clone(), lost: AtomicU64::new(0), client_done: AtomicBool::new(false) });
    thread::spawn(move || write_lines(server_lines, server_in));
    let client_writer = thread::spawn(move || write_lines(client_lines, io::stdout().lock()));
    // The client's side is not joined: it may wait on stdin long after the server is gone.
    let w = wiring.clone();
    thread::spawn(move || {
        read_lines(io::stdin().lock(), |line| w.feed(line, true));
        // The client is done: the server's stdin closes once its queue is written, unless the
        // bridge still owes the server something (its initialization, a retry): then after that.
        let bridge = w.bridge.lock().unwrap_or_else(PoisonError::into_inner);
        w.client_done.store(true, Ordering::Relaxed);
        if bridge.settled() {
            w.to_server.lock().unwrap_or_else(PoisonError::into_inner).take();
        }
    });
    let w = wiring.clone();
    let server_side = thread::spawn(move || {
        read_lines(server_out, |line| w.feed(line, false));
        // The server is done: what was queued for the client reaches it.
        w.to_client.lock().unwrap_or_else(PoisonError::into_inner).take();
        let _ = client_writer.join();
    });
    let verdicts = Arc::new(Mutex::new(Counts::default()));
    let recorder = {
        let (wiring, queued_bytes, verdicts) = (wiring.clone(), queued_bytes.clone(), verdicts.clone());
        thread::spawn(move || {
            record_lines(from_bridge, record, to_checker, &wiring.lost, &queued_bytes, &record_error);
            // The verdicts for the summary, once the traffic is over.
            *verdicts.lock().unwrap_or_else(PoisonError::into_inner) = wiring.bridge.lock().unwrap_or_else(PoisonError::into_inner).counts.clone();
        })
    };
    // The stop: the server's writer ends once its queue is written, which closes the server's stdin.
    let close_server_input = Box::new(move || drop(wiring.to_server.lock().unwrap_or_else(PoisonError::into_inner).take()));
    let summary: Option<crate::proxy::Summary> = Some(Box::new(move |findings: &Out, json| write_summary(&verdicts, findings, json)));
    Traffic { server_side, end: Box::new(move || drop(records.send(Recorded::End))), recorder, queued_bytes, summary, close_server_input }
}

/// A line read: a short one borrowed from the reader's buffer, a long one's buffer handed over
/// (the bridge and the recording share it; nothing else keeps a handle on it, so its recording
/// line is made in it).
enum Line<'a> {
    Short(&'a [u8]),
    Long(Bytes),
}

/// Reads lines (without `\n`) until the end; a line longer than [`MAX_LINE`] is skipped (said on
/// stderr).
fn read_lines(from: impl Read, mut each: impl FnMut(Line)) {
    let mut r = BufReader::with_capacity(1 << 16, from);
    let mut buf = Vec::with_capacity(1 << 16);
    loop {
        buf.clear();
        match read_long_line(&mut r, &mut buf, MAX_LINE, super::elide::WRAP_ROOM) {
            Ok(LineRead::Line) if buf.len() >= super::elide::ELIDE_LINE => {
                // Room for its recording line's wrapper, while nothing else of it is held.
                buf.reserve(super::elide::WRAP_ROOM);
                each(Line::Long(Bytes::from(std::mem::replace(&mut buf, Vec::with_capacity(1 << 16)))));
            }
            Ok(LineRead::Line) => each(Line::Short(&buf)),
            Ok(LineRead::TooLong(len)) => eprintln!("mcp-schema proxy: a line of {len} bytes is too long for the bridge (at most {MAX_LINE}); dropped"),
            Ok(LineRead::Eof) | Err(_) => return,
        }
        if buf.capacity() > 1 << 24 {
            buf = Vec::with_capacity(1 << 16);
        }
    }
}

/// Writes each queued line with its `\n`, flushing whenever the queue is empty; ends when the
/// queue closes or the reader is gone.
fn write_lines(from: Receiver<Bytes>, to: impl Write) {
    let mut w = io::BufWriter::with_capacity(1 << 16, to);
    let mut next = from.recv().ok();
    while let Some(line) = next {
        if w.write_all(&line).and_then(|()| w.write_all(b"\n")).is_err() {
            return;
        }
        next = match from.try_recv() {
            Ok(l) => Some(l),
            Err(_) => {
                if w.flush().is_err() {
                    return;
                }
                from.recv().ok()
            }
        };
    }
    let _ = w.flush();
}

/// Numbers the records, writes them to the recording and passes each recording line to the checker.
fn record_lines(from: Receiver<Recorded>, mut record: Option<io::BufWriter<File>>, to_checker: SyncSender<CheckEvent>, lost: &AtomicU64, queued_bytes: &AtomicUsize, error: &Mutex<Option<String>>) {
    let (mut number, mut unchecked) = (0u64, 0u64);
    while let Ok(Recorded::Records(records)) = from.recv() {
        for r in records {
            number += 1;
            let size = r.bytes.len();
            // Made in the message's buffer when the record holds its last handle: a long line sent
            // (no note) is let go by its writer soon, and not copied if that is within a short wait.
            if r.note.is_none() {
                wait_until_unique(&r.bytes, queued_bytes.load(Ordering::Relaxed));
            }
            let mut line = into_line(r, None);
            if let Some(w) = &mut record {
                if let Err(e) = w.write_all(&line) {
                    *error.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("writing the recording: {e}"));
                    record = None;
                }
            }
            // The queue counted the message's bytes; the checker gets the wrapper line (moved).
            queued_bytes.fetch_sub(size, Ordering::Relaxed);
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            let (size, bytes) = (line.len(), line);
            queued_bytes.fetch_add(size, Ordering::Relaxed);
            if to_checker.try_send(CheckEvent::Wrapped { number, stream: 0, bytes }).is_err() {
                queued_bytes.fetch_sub(size, Ordering::Relaxed);
                unchecked += 1;
            }
        }
        if let Some(Err(e)) = record.as_mut().map(|w| w.flush()) {
            *error.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("writing the recording: {e}"));
            record = None;
        }
    }
    let _ = to_checker.send(CheckEvent::End { unrecorded: lost.load(Ordering::Relaxed), unchecked });
}

/// `--summary`: the verdicts per method, after the checker's summary.
pub(crate) fn write_summary(counts: &Mutex<Counts>, findings: &Out, json: bool) {
    let counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
    let mut text = Vec::new();
    if json {
        let _ = writeln!(text, "{}", counts.to_json());
    } else {
        let _ = counts.write_text(&mut text);
    }
    findings.write_lines(&text);
}
