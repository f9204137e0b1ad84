//! What the bridge says about each message: its verdict, and the lines of both legs it gives the
//! recording (`{"leg":"client","dir":"c2s","msg":...,"bridge":{"verdict":"converted",...}}`),
//! made on the recorder's thread ([`Bridged`], over stdio and HTTP alike).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::Ordering;

use serde_json::Value;

use crate::proxy::queue::Queued;
use crate::proxy::recorder::{Lines, Recording};
use crate::proxy::CheckEvent;
use crate::vocab::Direction;

/// The side of the bridge a line travelled: between the client and the bridge (checked as the
/// client's version), or between the bridge and the server (checked as `--to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leg {
    Client,
    Server,
}

impl Leg {
    pub fn name(self) -> &'static str {
        match self {
            Leg::Client => "client",
            Leg::Server => "server",
        }
    }
}

/// What became of one message the bridge received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Passed on unchanged, byte for byte.
    Forwarded,
    /// Passed on in the other side's version.
    Converted,
    /// Answered by the bridge itself (a `ping` the other side's version lacks, `initialize` from
    /// `server/discover`, ...).
    Answered,
    /// Not passed on: the other side's version cannot carry it (the sender of a request gets an error).
    Refused,
    /// Not passed on because the other side's version has no use for it (`notifications/initialized`
    /// to a server without `initialize`).
    Dropped,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [Verdict::Forwarded, Verdict::Converted, Verdict::Answered, Verdict::Refused, Verdict::Dropped];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Forwarded => "forwarded",
            Verdict::Converted => "converted",
            Verdict::Answered => "answered",
            Verdict::Refused => "refused",
            Verdict::Dropped => "dropped",
        }
    }
}

/// The verdict on a received line, with what changed (or why not) in short and the row of
/// `generated/CONVERSIONS.md` a refusal comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub verdict: Verdict,
    /// The method, or for a response the method it answers with ` result`/` error`.
    pub method: String,
    pub what: String,
    pub row: Option<String>,
}

/// One line of the recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub leg: Leg,
    pub dir: Direction,
    /// The message's JSON text as it travelled; anything else as it travelled.
    pub bytes: bytes::Bytes,
    /// On the lines the bridge received (each gets one); `None` on what it sent.
    pub note: Option<Note>,
}

/// Counts per verdict and method, for `--summary`.
#[derive(Debug, Default, Clone)]
pub struct Counts(pub BTreeMap<(Verdict, String), u64>);

/// Methods kept per verdict in the counts; a peer inventing methods gets one `(other)` row.
const METHODS_KEPT: usize = 256;

impl Counts {
    pub fn add(&mut self, note: &Note) {
        let key = (note.verdict, crate::bounded::clip(&note.method).into_owned());
        let per_verdict = self.0.keys().filter(|(v, _)| *v == note.verdict).count();
        let key = if self.0.contains_key(&key) || per_verdict < METHODS_KEPT { key } else { (note.verdict, "(other)".to_string()) };
        *self.0.entry(key).or_default() += 1;
    }

    /// Adds another session's counts (`proxy --http --to`: one bridge per client session).
    pub fn merge(&mut self, other: &Counts) {
        for ((v, m), n) in &other.0 {
            let per_verdict = self.0.keys().filter(|(x, _)| x == v).count();
            let key = (*v, m.clone());
            let key = if self.0.contains_key(&key) || per_verdict < METHODS_KEPT { key } else { (*v, "(other)".to_string()) };
            *self.0.entry(key).or_default() += n;
        }
    }

    pub fn total(&self, verdict: Verdict) -> u64 {
        self.0.iter().filter(|((v, _), _)| *v == verdict).map(|(_, n)| n).sum()
    }

    /// The summary's lines: one per verdict with its count, then its methods.
    pub fn write_text(&self, w: &mut impl Write) -> io::Result<()> {
        writeln!(w, "bridge verdicts:")?;
        for v in Verdict::ALL {
            let total = self.total(v);
            if total == 0 {
                continue;
            }
            let methods: Vec<String> = self.0.iter().filter(|((verdict, _), _)| *verdict == v).map(|((_, m), n)| format!("{m} {n}")).collect();
            writeln!(w, "  {:<10} {total:>6}  ({})", v.name(), methods.join(", "))?;
        }
        Ok(())
    }

    pub fn to_json(&self) -> Value {
        let mut verdicts = serde_json::Map::new();
        for v in Verdict::ALL {
            let methods: serde_json::Map<String, Value> = self.0.iter().filter(|((verdict, _), _)| *verdict == v).map(|((_, m), n)| (m.clone(), Value::from(*n))).collect();
            if !methods.is_empty() {
                verdicts.insert(v.name().into(), serde_json::json!({"total": self.total(v), "methods": methods}));
            }
        }
        serde_json::json!({"bridge": verdicts})
    }
}

/// The recording's line for `r`: a JSON message inside its wrapper, with `leg` and, on a received
/// line, `bridge`; anything else as it travelled (so `check` reports it as it is).
pub fn write_line(w: &mut impl Write, r: &Record) -> io::Result<()> {
    write_line_with(w, r, None)
}

/// [`write_line`] with the line's `http` object (`proxy --http --to`: where the message travelled).
pub fn write_line_with(w: &mut impl Write, r: &Record, http: Option<&Value>) -> io::Result<()> {
    let (head, tail) = wrapper(r, http);
    w.write_all(&head)?;
    w.write_all(&r.bytes)?;
    w.write_all(&tail)
}

/// [`write_line_with`] into a buffer, taking `r`: the line is made in the message's own buffer
/// when `r` holds its only handle and there is room around it (the wrapper's head is moved in
/// front, so a long message is not copied again), else in a new buffer of the line's size.
pub fn into_line(r: Record, http: Option<&Value>) -> Vec<u8> {
    let (head, tail) = wrapper(&r, http);
    let n = r.bytes.len();
    let fresh = |msg: &[u8]| [&head[..], msg, &tail[..]].concat();
    if !r.bytes.is_unique() {
        return fresh(&r.bytes);
    }
    let mut line = Vec::from(r.bytes);
    if line.capacity() - n < head.len() + tail.len() {
        return fresh(&line);
    }
    line.resize(n + head.len(), 0);
    line.copy_within(0..n, head.len());
    line[..head.len()].copy_from_slice(&head);
    line.extend_from_slice(&tail);
    line
}

/// Waits, at most [`UNIQUE_WAIT`], until the bytes of a long line have no other handle (a
/// writer's, once it has written them): then [`into_line`] makes its recording line in them. Not
/// while the recorder's queue holds `queued` bytes past half its bound: it copies then, rather than
/// fall behind.
pub fn wait_until_unique(bytes: &bytes::Bytes, queued: usize) {
    if bytes.len() < super::elide::ELIDE_LINE || queued > crate::proxy::QUEUE_BYTES / 2 {
        return;
    }
    let start = std::time::Instant::now();
    while !bytes.is_unique() && start.elapsed() < UNIQUE_WAIT {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// How long a recorder waits for a writer to let a long line go before it copies the line (the
/// recording and the checker wait; the traffic never does).
const UNIQUE_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// What goes before and after a record's bytes in its recording line (the `\n` included).
fn wrapper(r: &Record, http: Option<&Value>) -> (Vec<u8>, Vec<u8>) {
    if serde_json::from_slice::<serde::de::IgnoredAny>(&r.bytes).is_err() {
        return (Vec::new(), b"\n".to_vec());
    }
    let dir = crate::vocab::dir_name(r.dir);
    let head = format!("{{\"leg\":\"{}\",\"dir\":\"{dir}\",\"msg\":", r.leg.name()).into_bytes();
    let mut w = Vec::new();
    if let Some(n) = &r.note {
        let mut bridge = serde_json::json!({"verdict": n.verdict.name(), "method": n.method});
        if !n.what.is_empty() {
            bridge["what"] = Value::from(n.what.as_str());
        }
        if let Some(row) = &n.row {
            bridge["row"] = Value::from(row.as_str());
        }
        let _ = write!(w, ",\"bridge\":{bridge}");
    }
    if let Some(h) = http {
        let _ = write!(w, ",\"http\":{h}");
    }
    w.extend_from_slice(b"}\n");
    (head, w)
}

/// What the bridge's transports queue for the recorder (crate::proxy::recorder).
pub enum Item {
    /// An HTTP context line (`{"leg":..,"http":...}`, without its `\n`): recorded only, as `check`
    /// reads each leg's exchanges apart.
    Line(Vec<u8>),
    /// A message's record, its line made on the recorder's thread ([`into_line`]: in its own buffer
    /// once the peer's side has let it go, waiting a moment for a line sent), checked on `stream`.
    Record { record: Box<Record>, http: Option<Value>, stream: Option<u64> },
    /// The records of one line through the stdio bridge, in order, checked on stream 0; lost together.
    Records(Vec<Record>),
}

/// An HTTP context line (`{"http":...}`) of one leg.
pub fn on_leg(line: String, leg: Leg) -> Item {
    match line.strip_prefix('{') {
        Some(rest) => Item::Line(format!("{{\"leg\":\"{}\",{rest}", leg.name()).into_bytes()),
        None => Item::Line(line.into_bytes()),
    }
}

impl Queued for Item {
    fn bytes(&self) -> usize {
        match self {
            Item::Line(text) => text.len(),
            Item::Record { record, .. } => record.bytes.len(),
            Item::Records(records) => records.iter().map(|r| r.bytes.len()).sum(),
        }
    }

    fn lines(&self) -> u64 {
        match self {
            Item::Records(records) => records.len() as u64,
            Item::Line(_) | Item::Record { .. } => 1,
        }
    }
}

/// The bridge's recorder, over stdio or HTTP: each record made into its recording line (with both
/// legs' `leg`), which is what the checker reads; `ended` runs once the checker has heard the end.
pub(crate) struct Bridged {
    pub ended: Option<Box<dyn FnOnce() + Send>>,
}

impl Lines for Bridged {
    type Item = Item;

    fn take(&mut self, item: Item, rec: &mut Recording) {
        match item {
            Item::Line(text) => {
                rec.record(&text);
                rec.queued_bytes().fetch_sub(text.len(), Ordering::Relaxed);
            }
            Item::Record { record, http, stream } => record_one(*record, http.as_ref(), stream, rec),
            Item::Records(records) => records.into_iter().for_each(|r| record_one(r, None, Some(0), rec)),
        }
    }

    fn ended(self) {
        if let Some(ended) = self.ended {
            ended();
        }
    }
}

fn record_one(record: Record, http: Option<&Value>, stream: Option<u64>, rec: &mut Recording) {
    let counted = record.bytes.len();
    // Made in the message's buffer when the record holds its last handle: a long line sent (no
    // note) is let go by its writer soon, and not copied if that is within a short wait.
    if record.note.is_none() {
        wait_until_unique(&record.bytes, rec.queued_bytes().load(Ordering::Relaxed));
    }
    let mut text = into_line(record, http);
    text.pop();
    // The queue counts the line from here.
    rec.queued_bytes().fetch_add(text.len(), Ordering::Relaxed);
    rec.queued_bytes().fetch_sub(counted, Ordering::Relaxed);
    let number = rec.record(&text);
    match stream {
        // The checker's queue counts the line's bytes until the checker child has it.
        Some(stream) => rec.check(CheckEvent::Wrapped { number, stream, bytes: text }),
        None => drop(rec.queued_bytes().fetch_sub(text.len(), Ordering::Relaxed)),
    }
}
