//! Memory and output stay bounded by what is kept, not by what a peer sends: long ids, cursors
//! and methods, huge echoed values, a `.json` file far over the limit. Each case writes its
//! input to a file as it builds it, runs the binary on it and measures the child's peak resident
//! set size (Linux `wait4`), the output's size and the findings.
//!
//! The child starts from this process's memory (a spawn shares it until `exec`, and the kernel
//! keeps the larger peak), so this process stays small: inputs are streamed to a file, output
//! is counted, not kept.

use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// What one run of `mcp-schema` gave.
struct Run {
    code: i32,
    /// The first 64 KiB of stdout.
    stdout: String,
    /// How many bytes stdout had.
    out_bytes: usize,
    /// The child's peak resident set size in MiB (0 where it cannot be measured).
    peak_mib: u64,
}

/// A file in a fresh temporary directory, removed when dropped.
pub(crate) struct TempFile(PathBuf);

impl TempFile {
    pub(crate) fn new(name: &str, write: impl FnOnce(&mut dyn Write)) -> TempFile {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("mcp-schema-bounds-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let mut w = BufWriter::new(std::fs::File::create(&path).unwrap());
        write(&mut w);
        w.flush().unwrap();
        TempFile(path)
    }
    pub(crate) fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

/// Runs `mcp-schema ARGS`.
fn run(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-schema")).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the binary runs");
    let mut out = child.stdout.take().unwrap();
    let (mut kept, mut out_bytes, mut buf) = (Vec::new(), 0, vec![0u8; 1 << 16]);
    loop {
        let n = out.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        out_bytes += n;
        let room = (64usize << 10).saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
    let (code, peak_mib) = wait(child);
    eprintln!("mcp-schema {}: exit {code}, peak RSS {peak_mib} MiB, {out_bytes} bytes of output", args.join(" "));
    Run { code, stdout: String::from_utf8_lossy(&kept).into_owned(), out_bytes, peak_mib }
}

/// Waits for the child: its exit status and peak RSS (of this child alone, unlike
/// `RUSAGE_CHILDREN`, which other tests' children share).
#[cfg(target_os = "linux")]
fn wait(child: std::process::Child) -> (i32, u64) {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is a struct of integers, for which all zero bytes are a valid value. std has
    // no peak memory of one child; `RUSAGE_CHILDREN` would add every other test's children.
    #[allow(unsafe_code)]
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4(2) on our own child, not reaped yet (the handle is forgotten below, so std
    // never waits for the pid again), with out-pointers to two live locals of the right types.
    #[allow(unsafe_code)]
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    // Reaped: the handle must not wait again.
    std::mem::forget(child);
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    (code, usage.ru_maxrss as u64 / 1024)
}

#[cfg(not(target_os = "linux"))]
fn wait(mut child: std::process::Child) -> (i32, u64) {
    (child.wait().unwrap().code().unwrap_or(-1), 0)
}

/// Writes one JSONL line.
fn line(w: &mut dyn Write, v: &Value) {
    serde_json::to_writer(&mut *w, v).unwrap();
    w.write_all(b"\n").unwrap();
}

/// Writes one JSONL line whose `@` is a distinct string of `len` bytes (`"0000000ixxx…"`),
/// streamed so that this process never holds it.
fn line_with(w: &mut dyn Write, template: &str, i: usize, len: usize) {
    let (before, after) = template.split_once('@').expect("a template with `@`");
    write!(w, "{before}\"{i:08}").unwrap();
    let chunk = [b'x'; 1 << 16];
    let mut left = len - 8;
    while left > 0 {
        let n = left.min(chunk.len());
        w.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    writeln!(w, "\"{after}").unwrap();
}

const MIB: usize = 1 << 20;

/// The binary's own footprint plus a few lines in flight; the unbounded tables held several
/// copies of every long key instead (hundreds of MiB here).
const PEAK_LIMIT_MIB: u64 = 64;

/// Unanswered requests both ways with 1 MiB string ids: the pairing tables keep digests, the
/// summary a prefix of each id.
#[test]
fn long_ids_are_kept_as_digests() {
    let input = TempFile::new("ids.jsonl", |w| {
        for i in 0..20 {
            let dir = if i % 2 == 0 { "c2s" } else { "s2c" };
            line_with(w, &format!(r#"{{"dir":"{dir}","msg":{{"jsonrpc":"2.0","id":@,"method":"ping"}}}}"#), i, MIB);
        }
        // A response with a long id still finds its request.
        line_with(w, r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":@,"result":{}}}"#, 0, MIB);
    });
    let r = run(&["check", "--protocol", "2025-11-25", "--summary", input.path()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(!r.stdout.contains("stream.response-unmatched"), "the long id matched its request");
    assert!(r.stdout.contains("summary: unanswered requests: 19"), "{}", r.stdout);
    assert!(r.out_bytes < 64 << 10, "the summary shows id prefixes: {} bytes", r.out_bytes);
    assert!(r.peak_mib < PEAK_LIMIT_MIB, "peak RSS {} MiB", r.peak_mib);
}

/// `tools/list` pages with 1 MiB cursors: the cursor table keeps digests, and a cursor that
/// was returned is still recognised.
#[test]
fn long_cursors_are_kept_as_digests() {
    let input = TempFile::new("cursors.jsonl", |w| {
        line(w, &json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}}));
        line(w, &json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}}));
        line(w, &json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}}));
        line(w, &json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}));
        for i in 1..=30 {
            line_with(w, &format!(r#"{{"dir":"s2c","msg":{{"jsonrpc":"2.0","id":{i},"result":{{"tools":[],"nextCursor":@}}}}}}"#), i, MIB);
            line_with(w, &format!(r#"{{"dir":"c2s","msg":{{"jsonrpc":"2.0","id":{},"method":"tools/list","params":{{"cursor":@}}}}}}"#, i + 1), i, MIB);
        }
    });
    let r = run(&["check", input.path()]);
    assert_eq!(r.code, 0, "every cursor was returned before: {}", r.stdout);
    assert!(r.peak_mib < PEAK_LIMIT_MIB, "peak RSS {} MiB", r.peak_mib);
}

/// Notifications with 1 MiB method names: each finding and each summary row shows a prefix.
#[test]
fn long_methods_are_clipped() {
    let input = TempFile::new("methods.jsonl", |w| {
        for i in 0..30 {
            line_with(w, r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","method":@}}"#, i, MIB);
        }
    });
    let r = run(&["check", "--protocol", "2025-11-25", "--summary", input.path()]);
    assert_eq!(r.code, 1);
    assert!(r.out_bytes < 64 << 10, "{} bytes of output for 30 lines", r.out_bytes);
    assert!(r.stdout.contains("… (1048576 bytes)"), "a clipped method says its length");
    assert!(r.peak_mib < PEAK_LIMIT_MIB, "peak RSS {} MiB", r.peak_mib);
}

/// A huge value a finding names (a version, an id, a method, an unknown key, a progress token)
/// is echoed as a prefix with its length, not in full.
#[test]
fn huge_values_are_not_echoed() {
    let input = TempFile::new("echo.jsonl", |w| {
        let big = 8 * MIB;
        line_with(w, r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":@,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#, 0, big);
        line_with(w, r#"{"jsonrpc":"2.0","id":@,"result":{}}"#, 1, big);
        line_with(w, r#"{"jsonrpc":"2.0","method":@}"#, 2, big);
        line_with(w, r#"{"msg":{"method":"notifications/initialized"},@:1}"#, 3, big);
        line_with(w, r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":@,"progress":1}}"#, 4, big);
    });
    let r = run(&["check", "--protocol", "2025-11-25", input.path()]);
    assert_eq!(r.code, 1);
    assert!(r.out_bytes < 32 << 10, "{} bytes of output: {}", r.out_bytes, r.stdout);
    assert!(r.stdout.contains("(8388608 bytes)"), "{}", r.stdout);
}

/// A numeric `protocolVersion` is the field's finding, on the newest `initialize`, not
/// "`initialize` is not a method" of a version without it.
#[test]
fn numeric_protocol_version_names_the_field() {
    let input = TempFile::new("init.jsonl", |w| {
        line(w, &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 20250618, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}));
    });
    let r = run(&["check", input.path()]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains(":1: /params/protocolVersion: error [type]: "), "{}", r.stdout);
    assert!(!r.stdout.contains("/method"), "{}", r.stdout);
}

/// A `.json` file over the limit is skipped by its size, without reading it (it used to be read
/// up to the limit into a buffer grown by doubling: about 300 MiB).
#[test]
fn oversized_json_file_is_not_read() {
    let input = TempFile::new("huge.json", |_| {});
    // Sparse: no disk space, reads as zeros.
    std::fs::OpenOptions::new().write(true).open(&input.0).unwrap().set_len(2 << 30).unwrap();
    let r = run(&["check", input.path()]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("error [line.too-long]: file too large"), "{}", r.stdout);
    assert!(r.peak_mib < 64, "peak RSS {} MiB", r.peak_mib);
}
