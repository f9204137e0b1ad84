//! Stopping the server. SIGTERM, SIGINT and SIGHUP sent to the proxy start MCP's stdio shutdown
//! (lifecycle, "Shutdown": the client closes the server's input stream, waits for it to exit,
//! sends SIGTERM if it does not exit within a reasonable time, then SIGKILL): the proxy closes the
//! server's stdin and passes the signal on (the server sees what the host sent, as without the
//! proxy); a server still running [`StopTimes::term_after`] later gets SIGTERM, and
//! [`StopTimes::kill_after`] after that SIGKILL. Without the last step a server that ignores both
//! kept the proxy waiting until the host killed it, and then stayed behind with no parent.
//!
//! One thread owns the server's [`Child`](std::process::Child): it reaps it and signals it, so a signal never reaches a
//! process that was reaped already (whose pid may be reused). SIGCHLD wakes it when the server exits.

#[cfg(not(unix))]
use std::io;
#[cfg(not(unix))]
use std::process::Child;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// What the stop did: the signal that began it and what was sent when (after its start).
#[cfg_attr(not(unix), allow(dead_code))]
pub struct Stop {
    signal: i32,
    began: Instant,
    sent: Vec<(i32, Duration)>,
}

#[cfg(unix)]
pub use unix::*;

#[cfg(unix)]
mod unix {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
    use std::sync::Arc;
    use std::thread;

    use signal_hook::consts::{SIGCHLD, SIGHUP, SIGINT, SIGKILL, SIGTERM};
    use signal_hook::iterator::Signals;
    use signal_hook::low_level::emulate_default_handler;

    use std::io;
    use std::process::{Child, ExitStatus};
    use std::time::Instant;

    use crate::proxy::signals::{Stop, StopTimes};

    pub const FORWARDED: [i32; 3] = [SIGTERM, SIGINT, SIGHUP];

    /// The signals caught for the proxy, from before the server starts (none is lost in between)
    /// until the proxy exits.
    pub struct Caught {
        events: Receiver<i32>,
        /// Set once the server is reaped: a stop signal then ends the proxy as it would have
        /// without a handler (nothing is left to stop, and the host wants the proxy gone).
        server_gone: Arc<AtomicBool>,
    }

    pub fn catch() -> io::Result<Caught> {
        let mut signals = Signals::new(FORWARDED.iter().chain(&[SIGCHLD]))?;
        let (tx, events) = channel();
        let server_gone = Arc::new(AtomicBool::new(false));
        let gone = server_gone.clone();
        thread::spawn(move || {
            for sig in signals.forever() {
                if gone.load(Ordering::SeqCst) && FORWARDED.contains(&sig) {
                    let _ = emulate_default_handler(sig);
                }
                let _ = tx.send(sig);
            }
        });
        Ok(Caught { events, server_gone })
    }

    /// Waits for the server to exit, running the stop when a signal comes (`close_input` closes
    /// the server's stdin). Its exit status, and what the stop did if there was one.
    pub fn wait(child: &mut Child, caught: &Caught, times: StopTimes, close_input: &dyn Fn()) -> (io::Result<ExitStatus>, Option<Stop>) {
        let mut stop: Option<Stop> = None;
        // The next step of the stop and when it is due.
        let mut next: Option<(i32, Instant)> = None;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) => {}
                Err(e) => break Err(e),
            }
            let event = match next {
                None => caught.events.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some((_, due)) => caught.events.recv_timeout(due.saturating_duration_since(Instant::now())),
            };
            match event {
                // Some child of the proxy changed state (the server, or the checker): look again.
                Ok(SIGCHLD) => {}
                Ok(sig) => {
                    let stop = stop.get_or_insert_with(|| {
                        close_input();
                        Stop { signal: sig, began: Instant::now(), sent: Vec::new() }
                    });
                    send(child, sig, stop);
                    // A SIGTERM (the first signal or a later one) leaves SIGKILL as the last step.
                    next = match next {
                        Some((SIGKILL, due)) => Some((SIGKILL, due)),
                        _ if sig == SIGTERM => Some((SIGKILL, Instant::now() + times.kill_after)),
                        None => Some((SIGTERM, Instant::now() + times.term_after)),
                        pending => pending,
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    let Some(stop) = stop.as_mut() else { continue };
                    match next.take() {
                        Some((SIGTERM, _)) => {
                            send(child, SIGTERM, stop);
                            next = Some((SIGKILL, Instant::now() + times.kill_after));
                        }
                        _ => {
                            // std's kill is SIGKILL, on a child not reaped yet.
                            let _ = child.kill();
                            stop.sent.push((SIGKILL, stop.began.elapsed()));
                            break child.wait();
                        }
                    }
                }
                // The signal thread is gone (it never ends): wait as before.
                Err(RecvTimeoutError::Disconnected) => break child.wait(),
            }
        };
        caught.server_gone.store(true, Ordering::SeqCst);
        (status, stop)
    }

    /// Sends `sig` to the server, which this thread has not reaped (so the pid is still its).
    fn send(child: &Child, sig: i32, stop: &mut Stop) {
        let Ok(pid) = libc::pid_t::try_from(child.id()) else { return };
        // SAFETY: kill(2) takes two integers and touches no memory of this process. The pid is the
        // server's: only this thread reaps it (`wait` above), and it has not, so the pid cannot
        // have been reused. std offers only SIGKILL (`Child::kill`), and signal-hook signals only
        // this process; no crate in the tree wraps kill(2) safely.
        #[allow(unsafe_code)]
        let sent = unsafe { libc::kill(pid, sig) } == 0;
        if sent {
            stop.sent.push((sig, stop.began.elapsed()));
        }
    }

    /// The checker child ignores these signals: a terminal's Ctrl-C reaches the whole process
    /// group, and the checker must outlive it to report the session's end. It ends with its input.
    pub fn ignore_in_checker() {
        let flag = Arc::new(AtomicBool::new(false));
        for sig in FORWARDED {
            let _ = signal_hook::flag::register(sig, flag.clone());
        }
    }
}

/// Without signals the proxy waits for the server.
#[cfg(not(unix))]
pub struct Caught;

#[cfg(not(unix))]
pub fn catch() -> io::Result<Caught> {
    Ok(Caught)
}

#[cfg(not(unix))]
pub fn wait(child: &mut Child, _: &Caught, _: StopTimes, _: &dyn Fn()) -> (io::Result<ExitStatus>, Option<Stop>) {
    (child.wait(), None)
}

fn name(sig: i32) -> String {
    #[cfg(unix)]
    if let Some(name) = signal_hook::low_level::signal_name(sig) {
        return name.to_string();
    }
    format!("signal {sig}")
}

/// The stop as one line for the findings output: what was sent when, and how the server ended.
pub fn describe(stop: &Stop, exit: Option<i32>, json: bool) -> String {
    let ended = stop.began.elapsed().as_secs_f64();
    if json {
        let sent: Vec<_> = stop.sent.iter().map(|(sig, at)| serde_json::json!({"signal": name(*sig), "after": round(at.as_secs_f64())})).collect();
        let v = serde_json::json!({"stop": {"signal": name(stop.signal), "stdin_closed": true, "sent": sent, "ended_after": round(ended), "exit": exit}});
        return format!("{v}\n");
    }
    // The first signal sent is the host's, passed on at once.
    let later = match stop.sent.first() {
        Some((sig, _)) if *sig == stop.signal => &stop.sent[1..],
        _ => &stop.sent[..],
    };
    let steps: Vec<String> = later.iter().map(|(sig, at)| format!("{} at {:.2} s", name(*sig), at.as_secs_f64())).collect();
    let exit = exit.map_or_else(|| "an unknown status".to_string(), |c| format!("exit status {c}"));
    let then = if steps.is_empty() { String::new() } else { format!("; then {}", steps.join(", ")) };
    format!("mcp-schema proxy: stopping the server on {}: closed its stdin and passed the signal on{then}; it ended at {ended:.2} s, {exit}\n", name(stop.signal))
}

fn round(secs: f64) -> f64 {
    (secs * 1000.0).round() / 1000.0
}

/// How long the stop (signals.rs) gives the server: after the host's SIGINT or SIGHUP (passed on,
/// with the server's stdin closed) before SIGTERM, and after SIGTERM before SIGKILL. One second
/// each: hosts that follow the spec kill the proxy about two seconds after their SIGTERM (the
/// Python SDK waits 2 s), and the server must be gone by then.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopTimes {
    pub term_after: Duration,
    pub kill_after: Duration,
}

impl Default for StopTimes {
    fn default() -> Self {
        StopTimes { term_after: Duration::from_secs(1), kill_after: Duration::from_secs(1) }
    }
}

#[cfg(unix)]
pub(crate) fn exit_code(s: ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    s.code().or_else(|| s.signal().map(|sig| 128 + sig)).unwrap_or(1)
}

#[cfg(not(unix))]
pub(crate) fn exit_code(s: ExitStatus) -> i32 {
    s.code().unwrap_or(1)
}
