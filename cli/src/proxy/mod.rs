//! `mcp-schema proxy`: runs a stdio MCP server as a child, passes every byte between the host
//! (this process's stdin and stdout) and the server unchanged, and checks both directions as
//! one session with the same [`Checker`](crate::check::Checker) as `mcp-schema check`.
//!
//! A forwarder per direction reads a chunk, hands the lines it completes to a bounded queue
//! (queue.rs) without waiting, and writes the chunk on; the recorder every mode shares
//! (recorder.rs) numbers the lines of both directions in the order they were queued and writes
//! `--record`; a checker child process checks them
//! (checking.rs), so a crash in checking never ends the proxy. A forwarder never waits on the
//! others: a line that does not fit in a queue is counted and left unchecked (or unrecorded), and
//! its bytes have already passed. The server's stderr passes through whole lines (output.rs), and
//! the signals that would end the proxy stop the server as MCP's stdio shutdown says (signals.rs).

pub(crate) mod checking;
pub mod http;
mod lines;
pub(crate) mod output;
pub(crate) mod queue;
pub(crate) mod recorder;
mod setup;
mod signals;

use std::collections::VecDeque;
use std::io;
use std::process::{ChildStdin, ChildStdout, Command as Process, Stdio};
use std::thread;
use std::time::Instant;

use crate::vocab::Direction;
use lines::CHUNK;
use output::Out;
use queue::Queued;
use recorder::{Lines, Recording};
use signals::exit_code;

pub use checking::{check_one, CRASH_ENV};
pub use lines::{forward, write_record_line, Event, Line, LineSplitter, ServerInput, Tap};
pub use queue::{QUEUE_BYTES, QUEUE_LINES};
pub use setup::ProxyArgs;
pub use signals::StopTimes;
pub(crate) use checking::{CheckEvent, Numbered};
pub(crate) use setup::{fail, open_outputs};

/// The threads that carry a stdio session's traffic, started on the server's pipes: the plain
/// proxy's [`forward_both`], or the bridge's (`proxy --to`, started by `cmd::proxy`, so the
/// proxy does not call up into the bridge that runs on its pieces).
/// It starts checking and recording on `sinks` ([`recorder::start`]).
pub(crate) type StartTraffic<'a> = Box<dyn FnOnce(ChildStdin, ChildStdout, recorder::Sinks) -> Traffic + 'a>;

/// Runs the stdio proxy until the server exits, with `start` carrying the traffic; returns the
/// server's exit status (128 + the signal if a signal ended it), 2 if the proxy could not start,
/// or 2 for a server that exited with 0 when the findings or the recording could not be written
/// (said on stderr).
pub(crate) fn run_stdio(a: &ProxyArgs, start: StartTraffic) -> i32 {
    let (stderr, findings, record) = match open_outputs(a) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let caught = match signals::catch() {
        Ok(c) => c,
        Err(e) => return fail(&format!("catching signals: {e}")),
    };
    let mut child =
        match Process::new(&a.command[0]).args(&a.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
            Ok(c) => c,
            Err(e) => return fail(&format!("could not start `{}`: {e}", a.command[0])),
        };
    let (Some(server_in), Some(server_out), Some(server_err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
        return fail("the server's stdin, stdout and stderr are not pipes");
    };

    let server_log_read = output::LastRead::default();
    let server_log = {
        let (out, shared, last_read) = (stderr.clone(), stderr.same(&findings), server_log_read.clone());
        thread::spawn(move || output::relay_lines(server_err, out, shared, last_read))
    };
    let traffic = start(server_in, server_out, recorder::Sinks { args: a, findings: findings.clone(), record });

    let (status, stop) = signals::wait(&mut child, &caught, a.stop, &*traffic.close_server_input);
    server_log_read.touch();
    if let Some(stop) = &stop {
        // Said at once: a host that stops the proxy may kill it soon after.
        let line = signals::describe(stop, status.as_ref().ok().map(|s| exit_code(*s)), a.check.json);
        let out = findings.clone();
        output::join_unless_stalled(thread::spawn(move || out.write_lines(line.as_bytes())), &[&findings]);
    }
    // What the server wrote before it exited still reaches the host; after a stop, not for longer
    // than the stop's own wait (a process the server left behind may hold its stdout open).
    let server_side = traffic.server_side;
    match &stop {
        None => drop(server_side.join()),
        Some(_) => {
            let given_up = Instant::now() + a.stop.kill_after;
            output::join_unless(server_side, || Instant::now() > given_up);
        }
    }
    // From here on nothing waits on an output nobody reads (a host that pipes stderr and never
    // reads it): the findings not written by then are lost, the exit is not.
    // The server's last stderr lines, unless something it left running keeps the pipe open.
    output::join_unless(server_log, || stderr.stalled() || server_log_read.quiet_for(output::STALL));
    let record_error = traffic.recording.finish(&findings);
    if let (Some(summary), true) = (traffic.summary, a.check.summary) {
        summary(&findings, a.check.json);
    }
    let failed = output::report_write_errors(&stderr, &findings, &record_error);
    match status {
        Ok(s) if failed && exit_code(s) == 0 => 2,
        Ok(s) => exit_code(s),
        Err(e) => fail(&format!("waiting for the server: {e}")),
    }
}

/// Writes what the traffic has to add to `--summary` (the bridge's verdicts) to the findings
/// output, as JSON if asked.
pub(crate) type Summary = Box<dyn FnOnce(&Out, bool) + Send>;

/// The threads that carry the traffic (forwarders or the bridge) and record it.
pub(crate) struct Traffic {
    /// Ends when the server's output has reached the host.
    pub server_side: thread::JoinHandle<()>,
    /// The recorder and the checker child.
    pub recording: recorder::Started,
    pub summary: Option<Summary>,
    /// Closes the server's stdin (the stop's first step) once what was written is out, unless a
    /// write to it is blocked (a server that does not read): then the signals that follow stop it.
    pub close_server_input: Box<dyn Fn() + Send + Sync>,
}

/// The plain proxy: a forwarder per direction, bytes unchanged, and the recorder.
pub(crate) fn forward_both(
    server_in: ChildStdin,
    server_out: ChildStdout,
    sinks: recorder::Sinks,
) -> Traffic {
    let (tap, from_forwarders) = queue::queue(QUEUE_LINES);
    let recording = recorder::start(sinks, &tap, from_forwarders, Piped { recent: Default::default() });
    // The host's side is not joined: it may wait on the host's stdin long after the server is gone.
    let host_tap = tap.clone();
    let server_in = ServerInput::new(server_in);
    let to_server = server_in.clone();
    thread::spawn(move || {
        forward(io::stdin().lock(), &to_server, Direction::ClientToServer, &host_tap);
        // The host closed the proxy's stdin (or the server its own): the server's closes too.
        to_server.close();
    });
    let server_tap = tap.clone();
    let server_side = thread::spawn(move || {
        forward(server_out, io::stdout().lock(), Direction::ServerToClient, &server_tap);
    });
    let close_server_input = Box::new(move || server_in.close());
    Traffic { server_side, recording, summary: None, close_server_input }
}

/// The plain stdio proxy's recorder: each line of either pipe recorded as it travelled and checked
/// raw; the recent lines' numbers kept per direction, to name the lines a failed write did not deliver.
struct Piped {
    recent: [VecDeque<(u64, u64)>; 2],
}

/// The recent lines' numbers kept per direction (a chunk holds at most this many lines of two bytes).
const RECENT: usize = CHUNK / 2 + 1;

impl Queued for Event {
    fn bytes(&self) -> usize {
        match self {
            Event::Line(line) => line.bytes.len(),
            Event::Undelivered { .. } => 0,
        }
    }
}

impl Lines for Piped {
    type Item = Event;

    fn take(&mut self, event: Event, rec: &mut Recording) {
        match event {
            Event::Line(line) => {
                let number = rec.record_with(|w| write_record_line(w, &line));
                let mine = &mut self.recent[line.dir as usize];
                if mine.len() == RECENT {
                    mine.pop_front();
                }
                mine.push_back((line.seq, number));
                rec.check(CheckEvent::Line(Numbered { number, line, stream: 0 }));
            }
            Event::Undelivered { dir, from_seq } => {
                let numbers: Vec<u64> = self.recent[dir as usize].iter().filter(|(seq, _)| *seq >= from_seq).map(|(_, n)| *n).collect();
                if !numbers.is_empty() {
                    rec.tell(CheckEvent::Undelivered(numbers));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::CheckArgs;
    use crate::check::Checker;
    use crate::input::MAX_LINE;
    use std::sync::atomic::Ordering;

    fn split(chunks: &[&[u8]]) -> Vec<(Vec<u8>, Option<usize>, bool)> {
        let mut out = Vec::new();
        let mut splitter = LineSplitter::new(Direction::ClientToServer);
        for c in chunks {
            splitter.push(c, |l| out.push((l.bytes, l.too_long, l.terminated)));
        }
        splitter.finish(|l| out.push((l.bytes, l.too_long, l.terminated)));
        out
    }

    #[test]
    fn lines_are_cut_across_chunks() {
        let got = split(&[b"{\"a\"", b":1}\n\n  \r\n\xff\xfe", b"\nta", b"il"]);
        assert_eq!(got, vec![(b"{\"a\":1}".to_vec(), None, true), (b"\xff\xfe".to_vec(), None, true), (b"tail".to_vec(), None, false)]);
    }

    #[test]
    fn a_line_too_long_to_keep_is_reported_by_its_length() {
        let mut splitter = LineSplitter::new(Direction::ServerToClient);
        let mut got = Vec::new();
        let mib = vec![b'x'; 1 << 20];
        let chunks = MAX_LINE / mib.len() + 1;
        for _ in 0..chunks {
            splitter.push(&mib, |l| got.push(l));
        }
        splitter.push(b"\n{}\n", |l| got.push(l));
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].too_long, got[0].bytes.len()), (Some(chunks << 20), 0));
        assert_eq!((got[1].too_long, &got[1].bytes[..]), (None, &b"{}"[..]));

        let outcome = check_one(&mut Checker::new(&CheckArgs::default()), 7, &got[0]);
        assert_eq!((outcome.line, outcome.diags[0].rule, outcome.failed()), (7, "line.too-long", true));
    }

    fn tap(capacity: usize) -> (Tap, std::sync::mpsc::Receiver<queue::Entry<Event>>) {
        queue::queue(capacity)
    }

    #[test]
    fn forwarding_never_waits_for_the_checker() {
        let input: Vec<u8> =
            (0..10_000).flat_map(|i| format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}\n").into_bytes()).collect();
        // A queue nobody reads: the lines past its room are lost, the bytes all pass.
        let (full, _rx) = tap(10);
        let mut out = Vec::new();
        assert_eq!(forward(&input[..], &mut out, Direction::ClientToServer, &full), input.len() as u64);
        assert_eq!(out, input);
        assert_eq!(full.lost.load(Ordering::Relaxed), 10_000 - 10);
        // No reader at all (the checker is gone): the same.
        let (gone, rx) = tap(10);
        drop(rx);
        let mut out = Vec::new();
        forward(&input[..], &mut out, Direction::ClientToServer, &gone);
        assert_eq!(out, input);
        assert_eq!(gone.lost.load(Ordering::Relaxed), 10_000);
    }

    #[test]
    fn record_lines_keep_the_message_bytes() {
        let mut out = Vec::new();
        let line = |bytes: &[u8], too_long, terminated| Line { dir: Direction::ServerToClient, bytes: bytes.to_vec(), too_long, terminated, seq: 0 };
        write_record_line(&mut out, &line(b"{\"id\":1,  \"result\":{}}\r", None, true)).unwrap();
        write_record_line(&mut out, &line(b"not json \xff", None, false)).unwrap();
        write_record_line(&mut out, &line(b"", Some(MAX_LINE + 1), true)).unwrap();
        let expected = format!("{{\"dir\":\"s2c\",\"msg\":{{\"id\":1,  \"result\":{{}}}}}}\nnot json \u{fffd}\n{{\"dir\":\"s2c\",\"msg\":null,\"skipped\":{}}}\n", MAX_LINE + 1);
        assert_eq!(String::from_utf8_lossy(&out), expected);
    }
}
