//! What a hostile peer costs an engine, as peak resident set size (Linux `VmHWM`):
//! - `server`, `client`: 256 requests, each with a 4 MiB string id (and a 4 MiB progress token),
//!   to a `Server` and to a `Client` (as `sampling/createMessage`), the application taking each
//!   event and holding nothing; also prints what the engine answered, the whole run's time and the
//!   time in `handle_line` alone (the rest is making the lines).
//! - `read-ahead`: a peer that writes 32 MiB lines as fast as the blocking adapter reads them, to
//!   a server whose application takes nothing: what the read-ahead holds.
//!
//! `cargo run --release -p mcp-spec-engine --features v2025-11-25 --example engine_memory -- server|client|read-ahead`
#![forbid(unsafe_code)]

use std::time::Instant;

use mcp_spec_engine::{Client, Config, Event, Server};
use serde_json::json;

const REQUESTS: usize = 256;
const ID_BYTES: usize = 4 << 20;

fn main() {
    let role = std::env::args().nth(1).unwrap_or_else(|| "both".into());
    if role == "server" || role == "both" {
        server();
    }
    if role == "client" || role == "both" {
        client();
    }
    if role == "read-ahead" {
        read_ahead();
    }
}

/// Endless lines of `size` bytes (a notification with a long string), counting the bytes read.
struct Firehose {
    size: usize,
    at: usize,
    taken: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl std::io::Read for Firehose {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        const HEAD: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":""#;
        let n = out.len().min(self.size - self.at);
        for (i, b) in out[..n].iter_mut().enumerate() {
            let at = self.at + i;
            *b = match at {
                _ if at < HEAD.len() => HEAD[at],
                _ if at + 1 == self.size => b'\n',
                _ if at + 4 == self.size => b'"',
                _ if at + 3 >= self.size => b'}',
                _ => b'a',
            };
        }
        self.at = (self.at + n) % self.size;
        self.taken.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

fn read_ahead() {
    let taken = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let input = Firehose { size: 32 << 20, at: 0, taken: taken.clone() };
    let start = Instant::now();
    let conn = mcp_spec_engine::blocking::Connection::new(Server::new(Config::default()), input, std::io::sink());
    // The application takes nothing: the reader thread reads until the read-ahead is full.
    let mut last = 0;
    loop {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let now = taken.load(std::sync::atomic::Ordering::Relaxed);
        if now == last || start.elapsed().as_secs() > 60 {
            break;
        }
        last = now;
    }
    println!("read-ahead: lines of 32 MiB, {} MiB taken from the peer in {:.2?}; peak RSS {} MiB", last >> 20, start.elapsed(), peak_rss_mib());
    // The reader thread waits for room; the process ends with it.
    drop(conn);
}

fn huge(tag: char, n: usize) -> String {
    let mut s = String::with_capacity(ID_BYTES);
    s.push_str(&format!("{tag}{n}-"));
    while s.len() < ID_BYTES {
        s.push('x');
    }
    s
}

fn request_line(method: &str, n: usize, params: serde_json::Value) -> Vec<u8> {
    let mut params = params;
    params["_meta"] = json!({"progressToken": huge('t', n)});
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": huge('i', n), "method": method, "params": params})).unwrap()
}

/// Counts what one line caused: (requests offered, error answers written).
fn count(events: Vec<Event>, lines: Vec<Vec<u8>>) -> (usize, usize) {
    let offered = events.iter().filter(|e| matches!(e, Event::Request(_))).count();
    let errors = lines.iter().filter(|l| l.windows(8).any(|w| w == b"\"error\":")).count();
    (offered, errors)
}

fn server() {
    let mut server = Server::new(Config::default());
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
    server.handle_line(init.to_string().as_bytes()).unwrap();
    let Some(Event::Request(request)) = server.poll_event() else { panic!("no initialize") };
    server.respond(&request.id, &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
    server.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    while server.poll_transmit().is_some() {}
    while server.poll_event().is_some() {}
    let (mut offered, mut errors) = (0, 0);
    let (start, mut reading) = (Instant::now(), std::time::Duration::ZERO);
    for n in 0..REQUESTS {
        let line = request_line("tools/call", n, json!({"name": "t"}));
        let read = Instant::now();
        server.handle_line(&line).unwrap();
        reading += read.elapsed();
        let (o, e) = count(std::iter::from_fn(|| server.poll_event()).collect(), std::iter::from_fn(|| server.poll_transmit()).map(|t| t.line).collect());
        offered += o;
        errors += e;
    }
    println!("server: {REQUESTS} requests with {} MiB ids: {offered} offered, {errors} error answers, {} in flight, {:.2?} ({:.2?} in handle_line); peak RSS {} MiB", ID_BYTES >> 20, server.in_flight(), start.elapsed(), reading, peak_rss_mib());
}

fn client() {
    let mut client = Client::new(Config::default());
    // The client declares `sampling`, so the server's sampling requests reach the application.
    {
        use mcp_spec_types::v2025_11_25 as mcp;
        let capabilities = mcp::ClientCapabilities { sampling: Some(Default::default()), ..Default::default() };
        let params = mcp::InitializeRequestParams::new(mcp::LATEST_PROTOCOL_VERSION, capabilities, mcp::Implementation::new("c", "1"));
        client.request(mcp::InitializeRequest::new(params, mcp::RequestId::Integer(0)), Instant::now(), None).unwrap();
    }
    while client.poll_transmit().is_some() {}
    let (mut offered, mut errors) = (0, 0);
    let (start, mut reading) = (Instant::now(), std::time::Duration::ZERO);
    for n in 0..REQUESTS {
        let line = request_line("sampling/createMessage", n, json!({"messages": [], "maxTokens": 1}));
        let read = Instant::now();
        client.handle_line(&line).unwrap();
        reading += read.elapsed();
        let (o, e) = count(std::iter::from_fn(|| client.poll_event()).collect(), std::iter::from_fn(|| client.poll_transmit()).map(|t| t.line).collect());
        offered += o;
        errors += e;
    }
    println!("client: {REQUESTS} requests with {} MiB ids: {offered} offered, {errors} error answers, {:.2?} ({:.2?} in handle_line); peak RSS {} MiB", ID_BYTES >> 20, start.elapsed(), reading, peak_rss_mib());
}

/// The process's peak resident set size so far (Linux), in MiB; 0 elsewhere.
fn peak_rss_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    kib.unwrap_or(0) >> 10
}
