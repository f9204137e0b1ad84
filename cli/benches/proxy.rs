//! What `mcp-schema proxy` adds to a stdio session: latency per message (p50, p99) and
//! throughput, against the same server on a direct pipe.
//!
//! The server is `cat`, the fastest echo there is: each line the host writes comes straight
//! back. The messages are `ping` requests (valid in both directions, so the checker finds
//! nothing and does its full work), checked as 2025-11-25, findings to a file.
//!
//! Direct and proxy take turns, `MCP_SCHEMA_PROXY_BENCH_REPEAT` times each (default 5).
//!
//! - Latency: one message at a time, the host waits for the echo before sending the next;
//!   `MCP_SCHEMA_PROXY_BENCH_ROUNDS` round trips (default 5000) after 500 untimed ones. A
//!   round trip crosses the proxy twice (host to server, server to host), so the added latency
//!   per message is half the added round trip.
//! - Throughput: a writer thread sends `MCP_SCHEMA_PROXY_BENCH_MB` megabytes (default 64) of
//!   1 KiB messages as fast as the pipe takes them while the host reads the echo; MB/s of the
//!   echo received (median of the runs). At this rate the checker falls behind and lets lines
//!   pass unchecked; how many were checked is printed.
//!
//!     cargo bench -p mcp-spec-types-cli --bench proxy

#![forbid(unsafe_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-schema");

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A `ping` request of about `size` bytes (the padding is in `_meta`), with its `\n`.
fn ping(id: usize, size: usize) -> Vec<u8> {
    let head = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\",\"params\":{{\"_meta\":{{\"pad\":\"");
    let pad = size.saturating_sub(head.len() + 5);
    let mut line = head.into_bytes();
    line.extend(std::iter::repeat_n(b'x', pad));
    line.extend_from_slice(b"\"}}}\n");
    line
}

struct Server {
    child: Child,
}

fn start(through_proxy: bool, findings: &str) -> Server {
    let mut cmd = if through_proxy {
        let mut c = Command::new(BIN);
        c.args(["proxy", "--protocol", "2025-11-25", "--findings", findings, "--", "cat"]);
        c
    } else {
        Command::new("cat")
    };
    let child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("the server starts");
    Server { child }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Round trips one message at a time; returns the sorted round-trip times.
fn latency(server: &mut Server, rounds: usize) -> Vec<Duration> {
    let mut to = server.child.stdin.take().unwrap();
    let mut from = BufReader::new(server.child.stdout.take().unwrap());
    let mut echo = Vec::new();
    let mut times = Vec::with_capacity(rounds);
    for i in 0..rounds + 500 {
        let msg = ping(i, 300);
        let start = Instant::now();
        to.write_all(&msg).unwrap();
        echo.clear();
        from.read_until(b'\n', &mut echo).unwrap();
        let took = start.elapsed();
        assert_eq!(echo, msg, "the echo differs");
        if i >= 500 {
            times.push(took);
        }
    }
    drop(to);
    server.child.wait().unwrap();
    times.sort();
    times
}

/// Sends `total` bytes of 1 KiB messages from a thread, reads the echo; returns MB/s.
fn throughput(server: &mut Server, total: usize) -> f64 {
    let mut to = server.child.stdin.take().unwrap();
    let mut from = server.child.stdout.take().unwrap();
    let messages: Vec<Vec<u8>> = (0..total / 1024).map(|i| ping(i, 1024)).collect();
    let bytes: usize = messages.iter().map(Vec::len).sum();
    let start = Instant::now();
    let writer = std::thread::spawn(move || {
        for m in &messages {
            to.write_all(m).unwrap();
        }
    });
    let mut buf = vec![0u8; 1 << 16];
    let mut got = 0;
    while got < bytes {
        let n = std::io::Read::read(&mut from, &mut buf).unwrap();
        assert!(n > 0, "the echo ended after {got} of {bytes} bytes");
        got += n;
    }
    let secs = start.elapsed().as_secs_f64();
    writer.join().unwrap();
    server.child.wait().unwrap();
    bytes as f64 / 1e6 / secs
}

/// From the proxy's findings: lines checked, and lines that passed unchecked.
fn checked(findings: &str) -> (u64, u64) {
    let text = std::fs::read_to_string(findings).unwrap_or_default();
    let number = |s: &str| s.parse::<u64>().unwrap_or(0);
    let (mut done, mut skipped) = (0, 0);
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("mcp-schema proxy: ") {
            skipped = number(rest.split(' ').next().unwrap_or(""));
        } else if let Some((passed, failed)) = line.split_once(" passed, ") {
            done = number(passed) + number(failed.trim_end_matches(" failed"));
        }
    }
    (done, skipped)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds = env_number("MCP_SCHEMA_PROXY_BENCH_ROUNDS", 5000);
    let megabytes = env_number("MCP_SCHEMA_PROXY_BENCH_MB", 64);
    let repeat = env_number("MCP_SCHEMA_PROXY_BENCH_REPEAT", 5).max(1);
    let findings = std::env::temp_dir().join(format!("mcp-schema-proxy-bench-{}.txt", std::process::id()));
    let findings = findings.to_str().unwrap();
    // Direct and proxy take turns, `repeat` times, so a change in the machine's load hits both.
    let configs = [false, true];

    println!("latency: {repeat} x {rounds} round trips of a 300-byte ping through `cat`, direct and proxy in turn");
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut check_counts = (0, 0);
    for _ in 0..repeat {
        for (i, through_proxy) in configs.into_iter().enumerate() {
            let mut server = start(through_proxy, findings);
            times[i].extend(latency(&mut server, rounds));
            if through_proxy {
                let (done, skipped) = checked(findings);
                check_counts = (check_counts.0 + done, check_counts.1 + skipped);
            }
        }
    }
    let mut p = [[0.0; 2]; 2];
    for (i, t) in times.iter_mut().enumerate() {
        t.sort();
        p[i] = [micros(percentile(t, 0.5)), micros(percentile(t, 0.99))];
        let name = if configs[i] { "proxy" } else { "direct" };
        println!("  {name:6}  round trip p50 {:7.1} µs  p99 {:7.1} µs  max {:9.1} µs", p[i][0], p[i][1], micros(*t.last().unwrap()));
    }
    println!(
        "  added per message (half the added round trip): p50 {:.1} µs, p99 {:.1} µs",
        (p[1][0] - p[0][0]) / 2.0,
        (p[1][1] - p[0][1]) / 2.0
    );
    println!("  lines checked by the proxy: {} of {}", check_counts.0, check_counts.0 + check_counts.1);

    println!("throughput: {repeat} x {megabytes} MB of 1 KiB pings through `cat`, direct and proxy in turn");
    let mut rates: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut check_counts = (0, 0);
    for _ in 0..repeat {
        for (i, through_proxy) in configs.into_iter().enumerate() {
            let mut server = start(through_proxy, findings);
            rates[i].push(throughput(&mut server, megabytes << 20));
            if through_proxy {
                let (done, skipped) = checked(findings);
                check_counts = (check_counts.0 + done, check_counts.1 + skipped);
            }
        }
    }
    for (i, r) in rates.iter().enumerate() {
        let name = if configs[i] { "proxy" } else { "direct" };
        let list: Vec<String> = r.iter().map(|x| format!("{x:.0}")).collect();
        println!("  {name:6}  median {:7.1} MB/s  (runs: {})", median(r.clone()), list.join(", "));
    }
    let ratios = rates[0].iter().zip(&rates[1]).map(|(d, p)| p / d).collect();
    println!("  proxy / direct, median of the turns: {:.2}", median(ratios));
    println!("  lines checked by the proxy: {} of {}", check_counts.0, check_counts.0 + check_counts.1);
    let _ = std::fs::remove_file(findings);
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
