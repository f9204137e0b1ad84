//! Drives an MCP server with `tools/call` `convert` round trips and prints what it measured.
//!
//! `mcp-load [--http] [--clients N] [--calls N] [--warmup N] SERVER [ARGS...]` starts `SERVER` itself:
//! over stdio it is the child's stdin and stdout, and `--clients N` keeps N requests in flight on that
//! one connection (a stdio server has one client; its concurrency is requests in flight). With `--http`
//! the server is given `--listen 127.0.0.1:PORT` and each client is a session of its own on its own
//! connection (`initialize`, `notifications/initialized`, then the calls, at `/mcp`). Every client
//! first makes `--warmup` calls; then the clock starts and they make `--calls` calls in all.
//!
//! Output, one line of `key=value`: calls per second, p50 and p99 latency (µs), the server's CPU time per
//! measured call (µs, from `/proc/PID/stat`: steadier than wall figures on a busy machine), and its peak
//! resident memory (`VmHWM`, KiB) when the load ends.

#![forbid(unsafe_code)]

mod http;
mod stdio;

use std::time::{Duration, Instant};

/// The protocol version both servers are asked for.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

struct Options {
    http: bool,
    clients: usize,
    calls: usize,
    warmup: usize,
    server: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options { http: false, clients: 1, calls: 20_000, warmup: 500, server: Vec::new() };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<usize>().ok()).ok_or(format!("{a} needs a number"));
        match a.as_str() {
            "--http" => o.http = true,
            "--clients" => o.clients = number()?.max(1),
            "--calls" => o.calls = number()?,
            "--warmup" => o.warmup = number()?,
            _ => {
                o.server.push(a);
                o.server.extend(args.by_ref());
            }
        }
    }
    if o.server.is_empty() {
        return Err("usage: mcp-load [--http] [--clients N] [--calls N] [--warmup N] SERVER [ARGS...]".into());
    }
    Ok(o)
}

/// The body of call `id`.
pub fn convert_call(id: u64) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"convert","arguments":{{"value":{id},"from":"feet","to":"meters"}}}}}}"#).into_bytes()
}

pub fn initialize(id: u64) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-load","version":"0.0.0"}}}}}}"#).into_bytes()
}

pub const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Checks the answer to `initialize`: the server took [`PROTOCOL_VERSION`].
pub fn check_initialized(answer: &serde_json::Value) -> Result<(), String> {
    match answer.pointer("/result/protocolVersion") {
        Some(v) if v == PROTOCOL_VERSION => Ok(()),
        _ => Err(format!("initialize: not {PROTOCOL_VERSION}: {answer}")),
    }
}

/// Checks an answer to call `id`: a result that is not a tool error, with the converted value.
pub fn check_answer(id: u64, answer: &serde_json::Value) -> Result<(), String> {
    let result = answer.get("result").ok_or_else(|| format!("call {id}: no result: {answer}"))?;
    let value = result.pointer("/structuredContent/value").and_then(serde_json::Value::as_f64);
    match value {
        Some(v) if result.get("isError") != Some(&serde_json::Value::Bool(true)) && (v - id as f64 * 0.3048).abs() < 1e-6 * (1.0 + v.abs()) => Ok(()),
        _ => Err(format!("call {id}: unexpected result: {answer}")),
    }
}

/// What each client's measured calls took.
pub type Latencies = Vec<Duration>;

/// The server's user + system CPU time so far, and its peak resident set in KiB.
fn server_usage(pid: u32, ticks_per_second: f64) -> Result<(Duration, u64), String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // Fields after the command name (which may hold spaces) start at the third: state.
    let after = &stat[stat.rfind(')').ok_or("bad stat")? + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: f64 = fields[11].parse::<f64>().map_err(|e| e.to_string())? + fields[12].parse::<f64>().map_err(|e| e.to_string())?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    let hwm = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).ok_or("no VmHWM")?;
    Ok((Duration::from_secs_f64(ticks / ticks_per_second), hwm))
}

fn ticks_per_second() -> f64 {
    let out = std::process::Command::new("getconf").arg("CLK_TCK").output();
    out.ok().and_then(|o| String::from_utf8(o.stdout).ok()).and_then(|s| s.trim().parse().ok()).unwrap_or(100.0)
}

/// Between warm-up and measurement: every client and the measurer wait at `warmed`; the measurer
/// reads the server's CPU time and starts the clock, then all pass `go`.
pub struct Start {
    pub warmed: tokio::sync::Barrier,
    pub go: tokio::sync::Barrier,
}

impl Start {
    pub async fn wait(&self) {
        self.warmed.wait().await;
        self.go.wait().await;
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), String> {
    let o = options()?;
    let tps = ticks_per_second();
    let start = std::sync::Arc::new(Start { warmed: tokio::sync::Barrier::new(o.clients + 1), go: tokio::sync::Barrier::new(o.clients + 1) });
    let per_client = o.calls.div_ceil(o.clients);
    let load = Load { clients: o.clients, warmup: o.warmup, calls: per_client, start: start.clone() };
    let mut run = if o.http { http::start(&o.server, load).await? } else { stdio::start(&o.server, load).await? };
    start.warmed.wait().await;
    let (cpu_before, _) = server_usage(run.pid, tps)?;
    let t0 = Instant::now();
    start.go.wait().await;
    let mut all = Latencies::new();
    for client in run.clients.drain(..) {
        all.extend(client.await.map_err(|e| e.to_string())??);
    }
    let elapsed = t0.elapsed();
    let (cpu_after, hwm) = server_usage(run.pid, tps)?;
    (run.stop)().await;
    all.sort();
    let n = all.len();
    let pct = |p: usize| all[(n * p / 100).min(n - 1)].as_secs_f64() * 1e6;
    println!(
        "calls={n} clients={} calls_per_s={:.0} p50_us={:.0} p99_us={:.0} server_cpu_us_per_call={:.1} vmhwm_kib={hwm}",
        o.clients,
        n as f64 / elapsed.as_secs_f64(),
        pct(50),
        pct(99),
        (cpu_after - cpu_before).as_secs_f64() * 1e6 / n as f64
    );
    Ok(())
}

/// What each client does: `warmup` calls, wait at `start`, then `calls` calls.
pub struct Load {
    pub clients: usize,
    pub warmup: usize,
    pub calls: usize,
    pub start: std::sync::Arc<Start>,
}

/// A started load: the server's pid, one task per client, and how to end the server.
pub struct Parts {
    pub pid: u32,
    pub clients: Vec<tokio::task::JoinHandle<Result<Latencies, String>>>,
    pub stop: Box<dyn FnOnce() -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>>,
}

#[cfg(test)]
mod tests {
    use super::{check_answer, check_initialized};
    use serde_json::json;

    #[test]
    fn answers_checked() {
        let good = json!({"result": {"structuredContent": {"value": 3.048, "unit": "meters"}}});
        assert_eq!(check_answer(10, &good), Ok(()));
        assert!(check_answer(11, &good).is_err(), "another call's value");
        let tool_error = json!({"result": {"isError": true, "structuredContent": {"value": 3.048}}});
        assert!(check_answer(10, &tool_error).is_err());
        assert!(check_answer(10, &json!({"error": {"code": -32602, "message": "no"}})).is_err());
        assert_eq!(check_initialized(&json!({"result": {"protocolVersion": "2025-11-25"}})), Ok(()));
        assert!(check_initialized(&json!({"result": {"protocolVersion": "2025-06-18"}})).is_err());
    }
}
