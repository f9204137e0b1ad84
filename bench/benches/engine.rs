//! `cargo bench -p mcp-schema-bench --bench engine`: what the session engine (`engine::Client`,
//! `engine::Server`) costs per message, against `serde_json::from_slice::<Value>` of the same line
//! (the least any loop that reads JSON does). Each engine step is a whole round: the line handed
//! in, the event taken out, and where there is one, the line written taken out too.
//!
//! - client, answer: `request` (a `tools/call`, serialized and queued) + `poll_transmit` +
//!   `handle_line` of its answer + `poll_event` (the answer matched to its request, not read as a
//!   type); "+ typed" also reads it as `CallToolResult` through the handle.
//! - client, notification: `handle_line` + `poll_event` of a `notifications/message`.
//! - client, progress: `handle_line` + `poll_event` of a `notifications/progress` for a pending
//!   request that asked for progress (tied to it by its token).
//! - server, request: `handle_line` of a `tools/call` + `poll_event` + `respond` with a small
//!   `CallToolResult` + `poll_transmit` of the answer.
//!
//! Here rather than in `generated/benches/`: criterion needs a newer toolchain than the generated
//! crate's `rust-version`, and as its dev-dependency would build with every test of that crate.

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use mcp_spec_engine::{Client, Config, Event, Server};
use mcp_spec_types::v2025_11_25::{CallToolRequest, CallToolRequestParams, CallToolResult, RequestId};
use serde_json::Value;

const ANSWER: &str = r#"{"content":[{"type":"text","text":"{\"sum\":42}"}],"structuredContent":{"sum":42}}"#;
const NOTIFICATION: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"hello"}}"#;
const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":40}}}"#;

fn call() -> CallToolRequest {
    CallToolRequest::new(CallToolRequestParams::new("add"), RequestId::Integer(0))
}

fn client(c: &mut Criterion) {
    let now = Instant::now();
    let timeout = Some(Duration::from_secs(30));
    let mut g = c.benchmark_group("engine/client");

    // The answer's id follows the engine's ids, so each line is made before the timed part.
    let answer_line = |id: i64| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{ANSWER}}}"#).into_bytes();
    g.bench_function("answer: serde_json Value", |b| {
        let line = answer_line(1);
        b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(&line)).unwrap()))
    });
    g.bench_function("answer: engine", |b| {
        let mut engine = Client::new(Config::default());
        let mut next = 1;
        b.iter_batched(
            || {
                let line = answer_line(next);
                next += 1;
                line
            },
            |line| {
                let handle = engine.request(call(), now, timeout).unwrap();
                black_box(engine.poll_transmit().unwrap());
                engine.handle_line(&line).unwrap();
                let Some(Event::Answer(answer)) = engine.poll_event() else { panic!("no answer") };
                black_box((handle, answer))
            },
            criterion::BatchSize::SmallInput,
        )
    });
    g.bench_function("answer: engine + typed", |b| {
        let mut engine = Client::new(Config::default());
        let mut next = 1;
        b.iter_batched(
            || {
                let line = answer_line(next);
                next += 1;
                line
            },
            |line| {
                let handle = engine.request(call(), now, timeout).unwrap();
                black_box(engine.poll_transmit().unwrap());
                engine.handle_line(&line).unwrap();
                let Some(Event::Answer(answer)) = engine.poll_event() else { panic!("no answer") };
                let result: CallToolResult = handle.read(answer).unwrap();
                black_box(result)
            },
            criterion::BatchSize::SmallInput,
        )
    });

    g.bench_function("notification: serde_json Value", |b| {
        b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(NOTIFICATION)).unwrap()))
    });
    g.bench_function("notification: engine", |b| {
        let mut engine = Client::new(Config::default());
        b.iter(|| {
            engine.handle_line(black_box(NOTIFICATION)).unwrap();
            black_box(engine.poll_event().unwrap())
        })
    });

    let progress_line = |n: u64| format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":{n},"total":1000000000}}}}"#).into_bytes();
    g.bench_function("progress: serde_json Value", |b| {
        let line = progress_line(1);
        b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(&line)).unwrap()))
    });
    g.bench_function("progress: engine", |b| {
        let mut engine = Client::new(Config::default());
        let handle = engine.request_with_progress(call(), now, None).unwrap();
        assert_eq!(handle.id(), 1);
        engine.poll_transmit().unwrap();
        let line = progress_line(1);
        b.iter(|| {
            engine.handle_line(black_box(&line)).unwrap();
            let event = engine.poll_event().unwrap();
            debug_assert!(matches!(event, Event::Progress { request: 1, .. }));
            black_box(event)
        })
    });
    g.finish();
}

fn server(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine/server");
    g.bench_function("request: serde_json Value", |b| {
        b.iter(|| black_box(serde_json::from_slice::<Value>(black_box(REQUEST)).unwrap()))
    });
    g.bench_function("request: engine + respond", |b| {
        let mut engine = Server::new(Config::default());
        let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;
        engine.handle_line(init).unwrap();
        let Some(Event::Request(init)) = engine.poll_event() else { panic!("no initialize") };
        engine.respond(&init.id, &serde_json::json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "bench", "version": "1"}})).unwrap();
        engine.poll_transmit().unwrap();
        let result = CallToolResult::structured(serde_json::json!({"sum": 42})).unwrap();
        b.iter(|| {
            engine.handle_line(black_box(REQUEST)).unwrap();
            let Some(Event::Request(request)) = engine.poll_event() else { panic!("no request") };
            engine.respond(&request.id, &result).unwrap();
            black_box(engine.poll_transmit().unwrap())
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = client, server
}
criterion_main!(benches);
