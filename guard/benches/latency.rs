//! What the layer costs in front of a service that answers at once: the time from a request's call
//! to its answer's last byte, with and without the layer (p50, p99), exchanges per second at 1 and
//! 64 concurrent clients on a two-worker runtime, and the memory a session holds in the layer.
//!
//! Traffic: the recorded 2025-11-25 sessions (bench/data/sessions: each client plays one, as its
//! own `Mcp-Session-Id`; every request answered with the answer recorded for it), and a
//! `tools/list` of 1,000 tools with schemas (about 0.5 MB) answered to a session that asks for it
//! again and again. Rounds alternate bare and guarded, so the machine's load falls on both alike.
//!
//! `cargo bench -p mcp-spec-guard --bench latency` (release; a few minutes). `GUARD_BENCH_ROUNDS`
//! sets the rounds per case (default 5).

#![deny(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use mcp_spec_guard::{Config, GuardLayer, McpChecks};
use serde_json::{json, Value};
use tower_layer::Layer;
use tower_service::Service;

/// The system allocator, counting the bytes held by the whole process.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

#[allow(unsafe_code)]
// SAFETY: every call is passed to `System` unchanged, with the caller's own guarantees; the
// counter is an atomic, which never allocates.
unsafe impl GlobalAlloc for Counting {
    #[allow(unsafe_code)]
    // SAFETY: as `System::alloc`, which it calls.
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        #[allow(unsafe_code)]
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        let block = unsafe { System.alloc(layout) };
        block
    }

    #[allow(unsafe_code)]
    // SAFETY: as `System::dealloc`, which it calls.
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        #[allow(unsafe_code)]
        // SAFETY: `ptr` came from this allocator with this layout.
        let () = unsafe { System.dealloc(ptr, layout) };
    }

    #[allow(unsafe_code)]
    // SAFETY: as `System::realloc`, which it calls.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HELD.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        #[allow(unsafe_code)]
        // SAFETY: the caller's pointer, layout and size, as `GlobalAlloc::realloc` requires.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One POST of a script and what the service answers it with.
struct Exchange {
    body: Bytes,
    /// The recorded answer (a JSON body), or none (202: a notification or a client's answer).
    answer: Option<Bytes>,
    initialize: bool,
}

/// A client's script: its session's POSTs in order, and its protocol version.
struct Script {
    version: String,
    exchanges: Vec<Exchange>,
}

/// The c2s messages of a recorded session, each with the s2c answer that has its id.
fn script_of(text: &str) -> Script {
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a recorded line")).collect();
    let mut answers: HashMap<String, Bytes> = HashMap::new();
    for l in &lines {
        let m = &l["msg"];
        if l["dir"] == "s2c" && m.get("method").is_none() {
            answers.entry(m["id"].to_string()).or_insert_with(|| Bytes::from(m.to_string()));
        }
    }
    let mut version = String::from("2025-11-25");
    let mut exchanges = Vec::new();
    for l in lines.iter().filter(|l| l["dir"] == "c2s") {
        let m = &l["msg"];
        let initialize = m["method"] == "initialize";
        if initialize {
            version = m["params"]["protocolVersion"].as_str().unwrap_or("2025-11-25").to_string();
        }
        let is_request = m.get("method").is_some() && m.get("id").is_some();
        let answer = if is_request { answers.get(&m["id"].to_string()).cloned() } else { None };
        exchanges.push(Exchange { body: Bytes::from(m.to_string()), answer, initialize });
    }
    Script { version, exchanges }
}

/// A `tools/list` session: `initialize`, then the same large `tools/list` over and over.
fn tools_list_script(repeats: usize) -> Script {
    let tools: Vec<Value> = (0..1000)
        .map(|i| {
            json!({"name": format!("tool_{i}"), "description": format!("Tool number {i}, which does one thing well."),
                   "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "depth": {"type": "integer", "minimum": 0}}, "required": ["path"]}})
        })
        .collect();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
    let init_answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "bench", "version": "1"}}});
    let mut exchanges = vec![Exchange { body: Bytes::from(init.to_string()), answer: Some(Bytes::from(init_answer.to_string())), initialize: true }];
    exchanges.push(Exchange { body: Bytes::from(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()), answer: None, initialize: false });
    for i in 1..=repeats {
        let answer = json!({"jsonrpc": "2.0", "id": i, "result": {"tools": tools}});
        exchanges.push(Exchange {
            body: Bytes::from(json!({"jsonrpc": "2.0", "id": i, "method": "tools/list"}).to_string()),
            answer: Some(Bytes::from(answer.to_string())),
            initialize: false,
        });
    }
    Script { version: "2025-11-25".into(), exchanges }
}

/// The service: answers each POST with the answer its `x-bench-answer` header names, at once.
#[derive(Clone)]
struct Answering {
    answers: Arc<Vec<Option<Bytes>>>,
}

impl<B> Service<Request<B>> for Answering
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Debug,
{
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let headers = request.headers();
        let index: usize = headers.get("x-bench-answer").and_then(|v| v.to_str().ok()?.parse().ok()).expect("every request names its answer");
        let session = headers.get("x-bench-session").cloned();
        let answer = self.answers[index].clone();
        Box::pin(async move {
            // Read as a service reads it (the guarded service's body comes through the layer).
            let _ = request.into_body().collect().await.expect("the request body");
            let mut r = Response::builder();
            let body = match answer {
                Some(body) => {
                    r = r.status(StatusCode::OK).header("content-type", "application/json");
                    if let Some(s) = session {
                        r = r.header("mcp-session-id", s);
                    }
                    body
                }
                None => {
                    r = r.status(StatusCode::ACCEPTED);
                    Bytes::new()
                }
            };
            Ok(r.body(Full::new(body)).expect("a valid response"))
        })
    }
}

/// The answers of all scripts in one table, and each exchange's index in it.
fn answer_table(scripts: &[Script]) -> (Arc<Vec<Option<Bytes>>>, Vec<Vec<usize>>) {
    let mut table = Vec::new();
    let mut indexes = Vec::new();
    for s in scripts {
        indexes.push(s.exchanges.iter().map(|e| {
            table.push(e.answer.clone());
            table.len() - 1
        }).collect());
    }
    (Arc::new(table), indexes)
}

/// Plays `script` once as session `session` through `svc`, pushing each exchange's time.
async fn play<S, RB>(mut svc: S, script: &Script, indexes: &[usize], session: &str, times: &mut Vec<Duration>)
where
    S: Service<Request<Full<Bytes>>, Response = Response<RB>, Error = Infallible>,
    RB: http_body::Body<Data = Bytes>,
    RB::Error: std::fmt::Debug,
{
    let mut opened = false;
    for (e, &index) in script.exchanges.iter().zip(indexes) {
        let mut r = Request::post("/mcp").header("content-type", "application/json").header("accept", "application/json, text/event-stream").header("x-bench-answer", index.to_string());
        if e.initialize {
            r = r.header("x-bench-session", session);
            opened = true;
        } else if opened {
            r = r.header("mcp-session-id", session).header("mcp-protocol-version", &script.version);
        }
        let request = r.body(Full::new(e.body.clone())).expect("a valid request");
        let start = Instant::now();
        std::future::poll_fn(|cx| svc.poll_ready(cx)).await.expect("infallible");
        let response = svc.call(request).await.expect("infallible");
        let _ = response.into_body().collect().await.expect("the whole answer");
        times.push(start.elapsed());
    }
}

/// One round: `clients` tasks, each playing its scripts `passes` times; every exchange's time and the wall time.
fn round<S, RB>(rt: &tokio::runtime::Runtime, svc: S, scripts: &Arc<Vec<Script>>, indexes: &Arc<Vec<Vec<usize>>>, clients: usize, passes: usize, tag: &str) -> (Vec<Duration>, Duration)
where
    S: Service<Request<Full<Bytes>>, Response = Response<RB>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send,
    RB: http_body::Body<Data = Bytes> + Send + 'static,
    RB::Error: std::fmt::Debug,
{
    let start = Instant::now();
    let times = rt.block_on(async {
        let mut tasks = Vec::new();
        for c in 0..clients {
            let (svc, scripts, indexes, tag) = (svc.clone(), scripts.clone(), indexes.clone(), tag.to_string());
            tasks.push(tokio::spawn(async move {
                let mut times = Vec::new();
                for p in 0..passes {
                    let i = c % scripts.len();
                    play(svc.clone(), &scripts[i], &indexes[i], &format!("{tag}-{c}-{p}"), &mut times).await;
                }
                times
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("a client task"));
        }
        all
    });
    (times, start.elapsed())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Bare and guarded rounds in turn; prints one table row per kind.
fn case(rt: &tokio::runtime::Runtime, name: &str, scripts: Vec<Script>, clients: usize, passes: usize, rounds: usize) {
    let (answers, indexes) = answer_table(&scripts);
    let (scripts, indexes) = (Arc::new(scripts), Arc::new(indexes));
    let bare = Answering { answers };
    let mut results: [(Vec<Duration>, Duration); 2] = [(Vec::new(), Duration::ZERO), (Vec::new(), Duration::ZERO)];
    for r in 0..rounds {
        // A fresh layer each round: its sessions start empty, as a new gateway's.
        let guarded = GuardLayer::new(Config::default(), McpChecks::default()).layer(bare.clone());
        let (t, w) = round(rt, bare.clone(), &scripts, &indexes, clients, passes, &format!("b{r}"));
        results[0].0.extend(t);
        results[0].1 += w;
        let (t, w) = round(rt, guarded, &scripts, &indexes, clients, passes, &format!("g{r}"));
        results[1].0.extend(t);
        results[1].1 += w;
    }
    for (label, (mut times, wall)) in ["bare", "guarded"].into_iter().zip(results) {
        times.sort();
        let rate = times.len() as f64 / wall.as_secs_f64();
        println!("| {name} | {clients} | {label} | {:.1} | {:.1} | {:.0} | {} |", micros(percentile(&times, 0.5)), micros(percentile(&times, 0.99)), rate, times.len());
    }
}

/// The bytes the layer holds per session: `n` sessions each open and list the 1,000 tools once.
fn memory_per_session(rt: &tokio::runtime::Runtime, n: usize) {
    let script = tools_list_script(1);
    let (answers, indexes) = answer_table(std::slice::from_ref(&script));
    let layer = GuardLayer::new(Config::default(), McpChecks::default());
    let guarded = layer.layer(Answering { answers });
    let before = HELD.load(Ordering::Relaxed);
    rt.block_on(async {
        let mut times = Vec::new();
        for s in 0..n {
            play(guarded.clone(), &script, &indexes[0], &format!("m{s}"), &mut times).await;
        }
    });
    let held = HELD.load(Ordering::Relaxed) - before;
    println!("memory: {n} sessions of a 1,000-tool tools/list held {:.1} MiB in the layer: {:.1} KiB per session", held as f64 / (1 << 20) as f64, held as f64 / n as f64 / 1024.0);
    drop(guarded);
    drop(layer);
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    let rounds: usize = std::env::var("GUARD_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/data/sessions");
    let mut files: Vec<_> = std::fs::read_dir(dir).expect("bench/data/sessions").flatten().map(|e| e.path()).filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("2025-11-25-")).collect();
    files.sort();
    let sessions = || files.iter().map(|p| script_of(&std::fs::read_to_string(p).expect("a session file"))).collect::<Vec<_>>();
    let exchanges: usize = sessions().iter().map(|s| s.exchanges.len()).sum();
    println!("{} recorded 2025-11-25 sessions ({exchanges} POSTs), {rounds} rounds per case, load {}", files.len(), std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split(' ').next().unwrap_or("?"));
    println!();
    println!("| traffic | clients | service | p50 µs | p99 µs | exchanges/s | exchanges |");
    println!("|---|---|---|---|---|---|---|");
    case(&rt, "recorded sessions", sessions(), 1, 4, rounds);
    case(&rt, "recorded sessions", sessions(), 64, 1, rounds);
    case(&rt, "tools/list of 1,000 tools", vec![tools_list_script(20)], 1, 1, rounds);
    case(&rt, "tools/list of 1,000 tools", vec![tools_list_script(4)], 64, 1, rounds);
    println!();
    memory_per_session(&rt, 200);
}
