//! SIGTERM, SIGINT and SIGHUP sent to the proxy go on to the server, which then exits (or not) as
//! it would without the proxy; the proxy reaps it and exits with its status. Without this the
//! signal ended the proxy alone and a server that ignores the end of its input stayed behind.

use std::io;
use std::thread;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

pub const FORWARDED: [i32; 3] = [SIGTERM, SIGINT, SIGHUP];

/// Catches the signals from now on (before the server starts, so none is lost in between).
pub fn catch() -> io::Result<Signals> {
    Signals::new(FORWARDED)
}

/// Sends each caught signal to `pid` until the returned handle is closed (after the server was
/// reaped, so a reused pid is never signalled).
pub fn forward_to(mut signals: Signals, pid: u32) -> Handle {
    let handle = signals.handle();
    thread::spawn(move || {
        for sig in signals.forever() {
            // SAFETY: kill(2) takes plain integers; it touches no memory of this process.
            unsafe {
                libc::kill(pid as libc::pid_t, sig);
            }
        }
    });
    handle
}

/// The checker child ignores these signals: a terminal's Ctrl-C reaches the whole process group,
/// and the checker must outlive it to report the session's end. It ends with its input.
pub fn ignore_in_checker() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in FORWARDED {
        let _ = signal_hook::flag::register(sig, flag.clone());
    }
}
