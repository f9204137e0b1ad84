//! What `mcp-schema proxy` adds to a stdio session: latency per message (p50, p99) and
//! throughput, against the same server on a direct pipe.
//!
//! The server is `cat`, the fastest echo there is: each line the host writes comes straight
//! back. The messages are `ping` requests (valid in both directions, so the checker finds
//! nothing and does its full work), checked as 2025-11-25, findings to a file.
//!
//! - Latency: one message at a time, the host waits for the echo before sending the next;
//!   `MCP_SCHEMA_PROXY_BENCH_ROUNDS` round trips (default 5000) after 500 untimed ones. A
//!   round trip crosses the proxy twice (host to server, server to host), so the added latency
//!   per message is half the added round trip.
//! - Throughput: a writer thread sends `MCP_SCHEMA_PROXY_BENCH_MB` megabytes (default 64) of
//!   1 KiB messages as fast as the pipe takes them while the host reads the echo; MB/s of the
//!   echo received. At this rate the checker falls behind and lets lines pass unchecked; the
//!   count is printed.
//!
//!     cargo bench -p mcp-spec-types-cli --bench proxy

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
    name: &'static str,
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
    Server { name: if through_proxy { "proxy" } else { "direct" }, child }
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

/// The proxy's last findings lines: the counts, and how many lines went unchecked.
fn proxy_summary(findings: &str) -> String {
    let text = std::fs::read_to_string(findings).unwrap_or_default();
    text.lines().rev().take(2).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("; ")
}

fn main() {
    let rounds = env_number("MCP_SCHEMA_PROXY_BENCH_ROUNDS", 5000);
    let megabytes = env_number("MCP_SCHEMA_PROXY_BENCH_MB", 64);
    let findings = std::env::temp_dir().join(format!("mcp-schema-proxy-bench-{}.txt", std::process::id()));
    let findings = findings.to_str().unwrap();

    println!("latency: {rounds} round trips of a 300-byte ping through `cat`");
    let mut p50 = [Duration::ZERO; 2];
    let mut p99 = [Duration::ZERO; 2];
    for (i, through_proxy) in [false, true].into_iter().enumerate() {
        let mut server = start(through_proxy, findings);
        let times = latency(&mut server, rounds);
        (p50[i], p99[i]) = (percentile(&times, 0.5), percentile(&times, 0.99));
        println!(
            "  {:6}  round trip p50 {:7.1} µs  p99 {:7.1} µs  max {:7.1} µs",
            server.name,
            micros(p50[i]),
            micros(p99[i]),
            micros(*times.last().unwrap())
        );
    }
    println!("  proxy findings: {}", proxy_summary(findings));
    let added = |a: Duration, b: Duration| (micros(b) - micros(a)) / 2.0;
    println!("  added per message (half the added round trip): p50 {:.1} µs, p99 {:.1} µs", added(p50[0], p50[1]), added(p99[0], p99[1]));

    println!("throughput: {megabytes} MB of 1 KiB pings through `cat`");
    let mut rates = [0.0; 2];
    for (i, through_proxy) in [false, true].into_iter().enumerate() {
        let mut server = start(through_proxy, findings);
        rates[i] = throughput(&mut server, megabytes << 20);
        println!("  {:6}  {:8.1} MB/s", server.name, rates[i]);
    }
    println!("  proxy findings: {}", proxy_summary(findings));
    println!("  proxy / direct: {:.2}", rates[1] / rates[0]);
    let _ = std::fs::remove_file(findings);
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
