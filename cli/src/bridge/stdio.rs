//! The bridge on the stdio proxy: a reader per side feeds the [`Bridge`] line by line; a writer per
//! side passes its lines on in the order the bridge gave them; the recorder (`Bridged`, as over
//! HTTP) writes both legs to `--record` and hands each line to the checker child, which checks the
//! two legs as two streams.
//! As in the plain proxy, recording and checking never hold up the traffic: a record that finds no
//! room in the queue is counted and lost.

use std::io::{self, BufReader, Read, Write};
use std::process::{ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use bytes::Bytes;

use super::record::{Bridged, Counts, Item};
use super::Bridge;
use crate::proxy::output::Out;
use crate::proxy::queue::Queue;
use crate::proxy::recorder::{self, Sinks};
use crate::proxy::{Traffic, QUEUE_LINES};
use crate::input::{read_long_line, LineRead, MAX_LINE};

/// The shared bridge and the queues its outputs go to.
struct Wiring {
    bridge: Mutex<Bridge>,
    to_client: Mutex<Option<SyncSender<Bytes>>>,
    to_server: Mutex<Option<SyncSender<Bytes>>>,
    records: Queue<Item>,
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
        self.records.offer(Item::Records(out.records));
    }
}

/// Starts the bridge between this process's stdin/stdout (the client) and the server's pipes.
pub(crate) fn start(
    to: usize,
    server_in: ChildStdin,
    server_out: ChildStdout,
    sinks: Sinks,
) -> Traffic {
    let (to_client, client_lines) = sync_channel::<Bytes>(QUEUE_LINES);
    let (to_server, server_lines) = sync_channel::<Bytes>(QUEUE_LINES);
    let (records, from_bridge) = crate::proxy::queue::queue(QUEUE_LINES);
    let wiring = Arc::new(Wiring { bridge: Mutex::new(Bridge::new(to)), to_client: Mutex::new(Some(to_client)), to_server: Mutex::new(Some(to_server)), records: records.clone(), client_done: AtomicBool::new(false) });
    let verdicts = Arc::new(Mutex::new(Counts::default()));
    let ended = {
        let (wiring, verdicts) = (wiring.clone(), verdicts.clone());
        // The verdicts for the summary, once the traffic is over.
        Box::new(move || *verdicts.lock().unwrap_or_else(PoisonError::into_inner) = wiring.bridge.lock().unwrap_or_else(PoisonError::into_inner).counts.clone())
    };
    let recording = recorder::start(sinks, &records, from_bridge, Bridged { ended: Some(ended) });
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
    // The stop: the server's writer ends once its queue is written, which closes the server's stdin.
    let close_server_input = Box::new(move || drop(wiring.to_server.lock().unwrap_or_else(PoisonError::into_inner).take()));
    let summary: Option<crate::proxy::Summary> = Some(Box::new(move |findings: &Out, json| write_summary(&verdicts, findings, json)));
    Traffic { server_side, recording, summary, close_server_input }
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
