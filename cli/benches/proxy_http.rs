//! What `mcp-schema proxy --http` adds to Streamable HTTP: latency per round trip (p50, p99) of a
//! POST answered with JSON and of a POST answered with an SSE stream, and the throughput of a long
//! GET SSE stream, through the proxy (the release build `cargo bench` makes) against a direct
//! connection to the same upstream.
//!
//! The upstream is a small hyper server in this process: a POST of a `ping` request is answered
//! with its result (`/json`: an `application/json` body; `/sse`: one event on a
//! `text/event-stream`), a GET of `/stream` streams `notifications/message` events of about 1 KiB.
//! The client is hyper too, on one kept-alive connection. The proxy checks as 2025-11-25,
//! findings to a file.
//!
//! Direct and proxy take turns, `MCP_SCHEMA_PROXY_BENCH_REPEAT` times each (default 3).
//! - Latency: `MCP_SCHEMA_PROXY_BENCH_ROUNDS` round trips (default 2000) one at a time, after 200
//!   untimed ones. A round trip carries two messages (request and answer); the added latency per
//!   message is about half the added round trip.
//! - Throughput: a GET stream of `MCP_SCHEMA_PROXY_BENCH_MB` megabytes (default 64); MB/s of events
//!   received (median of the runs). The checker falls behind at this rate and lets events pass
//!   unchecked: how many it checked is printed.
//!
//!     cargo bench -p mcp-spec-types-cli --bench proxy_http

#![forbid(unsafe_code)]

use std::convert::Infallible;
use std::io::{BufRead, BufReader};
use std::pin::Pin;
use std::process::{Child, Command, Stdio};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Either, Full};
use hyper::body::{Frame, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-schema");

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A body fed through a channel, a frame per `Bytes`.
struct Chan(tokio::sync::mpsc::Receiver<Bytes>);

impl hyper::body::Body for Chan {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b))))
    }
}

/// The `id` of a request body (`"id":N`), to answer it.
fn id_of(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    text.split("\"id\":").nth(1).map(|r| r.chars().take_while(char::is_ascii_digit).collect()).unwrap_or_else(|| "0".into())
}

fn event(i: usize) -> Bytes {
    let pad = "x".repeat(900);
    Bytes::from(format!("id: {i}\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"{pad}\"}}}}\n\n"))
}

async fn upstream(stream_bytes: usize) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let Ok((s, _)) = listener.accept().await else { return };
            let _ = s.set_nodelay(true);
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: Request<Incoming>| async move {
                    let path = req.uri().path().to_string();
                    let body = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                    let answer = format!("{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{}}}}", id_of(&body));
                    let resp = match path.as_str() {
                        "/json" => Response::builder().header("content-type", "application/json").body(Either::Left(Full::new(Bytes::from(answer)))),
                        "/sse" => Response::builder().header("content-type", "text/event-stream").body(Either::Left(Full::new(Bytes::from(format!("id: 1\ndata: {answer}\n\n"))))),
                        _ => {
                            let (tx, rx) = tokio::sync::mpsc::channel(64);
                            tokio::spawn(async move {
                                let mut sent = 0;
                                let mut i = 0;
                                while sent < stream_bytes {
                                    let e = event(i);
                                    sent += e.len();
                                    i += 1;
                                    if tx.send(e).await.is_err() {
                                        return;
                                    }
                                }
                            });
                            Response::builder().header("content-type", "text/event-stream").body(Either::Right(Chan(rx)))
                        }
                    };
                    Ok::<_, Infallible>(resp.unwrap())
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(s), service).await;
            });
        }
    });
    port
}

struct Proxy {
    child: Child,
    port: u16,
}

fn start_proxy(upstream: u16, findings: &str) -> Proxy {
    let mut child = Command::new(BIN)
        .args(["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", &format!("http://127.0.0.1:{upstream}/"), "--protocol", "2025-11-25", "--findings", findings])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the proxy starts");
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    let port = line.split("127.0.0.1:").nth(1).and_then(|r| r.split(',').next()).and_then(|p| p.parse().ok()).expect("the proxy names its port");
    Proxy { child, port }
}

impl Proxy {
    fn stop(mut self) {
        Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().expect("kill -INT the proxy");
        self.child.wait().unwrap();
    }
}

type Client = hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// `first`: the first request id (the runs share one checker stream: ids are not reused).
async fn round_trips(c: &Client, port: u16, path: &str, rounds: usize, first: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(rounds);
    for i in first..first + rounds + 200 {
        let body = format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}");
        let req = Request::post(format!("http://127.0.0.1:{port}{path}"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(Full::new(Bytes::from(body)))
            .unwrap();
        let start = Instant::now();
        let resp = c.request(req).await.unwrap();
        let got = resp.into_body().collect().await.unwrap().to_bytes();
        let took = start.elapsed();
        assert!(memchr_id(&got, i), "the answer is not to {i}: {got:?}");
        if i >= first + 200 {
            times.push(took);
        }
    }
    times.sort();
    times
}

fn memchr_id(got: &[u8], i: usize) -> bool {
    String::from_utf8_lossy(got).contains(&format!("\"id\":{i},"))
}

async fn stream(c: &Client, port: u16) -> (f64, usize) {
    let req = Request::get(format!("http://127.0.0.1:{port}/stream")).header("accept", "text/event-stream").body(Full::new(Bytes::new())).unwrap();
    let start = Instant::now();
    let mut body = c.request(req).await.unwrap().into_body();
    let mut got = 0usize;
    while let Some(f) = body.frame().await {
        if let Ok(d) = f.unwrap().into_data() {
            got += d.len();
        }
    }
    (got as f64 / 1e6 / start.elapsed().as_secs_f64(), got)
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let repeat = env_number("MCP_SCHEMA_PROXY_BENCH_REPEAT", 3);
    let rounds = env_number("MCP_SCHEMA_PROXY_BENCH_ROUNDS", 2000);
    let mb = env_number("MCP_SCHEMA_PROXY_BENCH_MB", 64);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let up = rt.block_on(upstream(mb << 20));
    let findings = std::env::temp_dir().join(format!("mcp-schema-proxy-http-bench-{}.txt", std::process::id()));
    let findings = findings.to_str().unwrap().to_string();
    let client: Client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http();

    let mut lat: [[Vec<Duration>; 2]; 2] = Default::default();
    let mut rates: [Vec<f64>; 2] = Default::default();
    let mut checked = String::new();
    for _ in 0..repeat {
        for (via, through) in [false, true].into_iter().enumerate() {
            let proxy = through.then(|| start_proxy(up, &findings));
            let port = proxy.as_ref().map_or(up, |p| p.port);
            for (k, path) in ["/json", "/sse"].iter().enumerate() {
                lat[k][via].extend(rt.block_on(round_trips(&client, port, path, rounds, k * (rounds + 200))));
            }
            let (rate, _) = rt.block_on(stream(&client, port));
            rates[via].push(rate);
            if let Some(p) = proxy {
                p.stop();
                checked = std::fs::read_to_string(&findings).unwrap_or_default().lines().filter(|l| l.contains("passed") || l.contains("unchecked")).collect::<Vec<_>>().join("; ");
            }
        }
    }
    let _ = std::fs::remove_file(&findings);
    println!("| Round trip | Direct p50 | Direct p99 | Proxy p50 | Proxy p99 | Added per message (p50) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (k, name) in ["POST → JSON", "POST → SSE"].iter().enumerate() {
        for v in &mut lat[k] {
            v.sort();
        }
        let (d50, d99, p50, p99) = (percentile(&lat[k][0], 0.5), percentile(&lat[k][0], 0.99), percentile(&lat[k][1], 0.5), percentile(&lat[k][1], 0.99));
        println!("| {name} | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs |", micros(d50), micros(d99), micros(p50), micros(p99), (micros(p50) - micros(d50)) / 2.0);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (d, p) = (median(&mut rates[0]), median(&mut rates[1]));
    println!("\nGET SSE stream of {mb} MB (~1 KiB events): direct {d:.0} MB/s, through the proxy {p:.0} MB/s ({:.0}%)", p / d * 100.0);
    println!("the proxy's checker, last run: {checked}");
    println!("({repeat} runs of {rounds} round trips each way)");
}
