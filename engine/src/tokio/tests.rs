//! Tests of the tokio adapter over duplex streams: tasks, progress, cancellation, and a context
//! dropped before it answers.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};

use super::{read_line, Connection};
use crate::{Config, Event, Request, Server};

/// The peer's end: lines in, lines out.
pub(super) struct Peer {
    pub(super) to: WriteHalf<DuplexStream>,
    pub(super) from: Lines<BufReader<ReadHalf<DuplexStream>>>,
}

impl Peer {
    pub(super) async fn send(&mut self, v: Value) {
        self.to.write_all(format!("{v}\n").as_bytes()).await.unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = self.from.next_line().await.unwrap().expect("a line");
        serde_json::from_str(&line).unwrap()
    }
}

/// A connection of `engine` over an in-memory pipe, and the peer's end of it (also for the client
/// conveniences' tests in `client/tests.rs`).
pub(super) fn piped<E: super::Role>(engine: E) -> (Connection<E>, Peer) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    let conn = Connection::new(engine, read, write);
    let (from, to) = tokio::io::split(ours);
    (conn, Peer { to, from: BufReader::new(from).lines() })
}

fn server() -> (Connection<Server>, Peer) {
    piped(Server::new(Config::default()))
}

async fn next_request(conn: &mut Connection<Server>) -> Request {
    loop {
        match conn.next_event().await.unwrap() {
            Some(Event::Request(r)) => return r,
            Some(_) => continue,
            None => panic!("the input ended"),
        }
    }
}

async fn initialized() -> (Connection<Server>, Peer) {
    let (mut conn, mut peer) = server();
    peer.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})).await;
    let init = next_request(&mut conn).await;
    conn.engine().respond(&init.id, &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
    peer.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    assert!(matches!(conn.next_event().await.unwrap(), Some(Event::Notification { .. })));
    assert_eq!(peer.recv().await["id"], json!(0));
    (conn, peer)
}

pub(super) fn run(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(test)
}

#[test]
fn a_task_counts_while_another_request_is_answered_and_stops_when_cancelled() {
    run(async {
        let (mut conn, mut peer) = initialized().await;
        peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "count", "_meta": {"progressToken": 1}}})).await;
        let count = next_request(&mut conn).await;
        let mut context = conn.context(&count);
        let (step, mut stepped) = tokio::sync::mpsc::unbounded_channel();
        let work = tokio::spawn(async move {
            for n in 1..=100 {
                if context.is_cancelled() {
                    return n;
                }
                context.progress(n as f64, None, None).unwrap();
                let _ = step.send(n);
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            context.respond(&json!({"content": []}));
            0
        });
        // The loop runs the session (and writes the task's progress) while the peer talks.
        let session = tokio::spawn(async move {
            assert_eq!(peer.recv().await["params"]["progress"], json!(1.0));
            peer.send(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})).await;
            loop {
                let line = peer.recv().await;
                if line["id"] == json!(2) {
                    break;
                }
            }
            peer.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})).await;
            peer.to.shutdown().await.unwrap();
            let mut after = Vec::new();
            while let Ok(Some(line)) = peer.from.next_line().await {
                after.push(line);
            }
            after
        });
        let mut cancelled = false;
        while let Some(event) = conn.next_event().await.unwrap() {
            cancelled |= matches!(event, Event::Cancelled { .. });
        }
        drop(conn); // closes the peer's reading end
        let after = session.await.unwrap();
        assert!(cancelled);
        let stopped_at = work.await.unwrap();
        assert!(stopped_at > 1, "the task stopped at step {stopped_at}");
        assert!(stepped.recv().await.is_some());
        // Progress queued before the cancellation was read may still come; nothing after it,
        // and no result at all.
        assert!(after.iter().all(|l| !l.contains("\"result\"")), "{after:?}");
    });
}

#[test]
fn a_context_dropped_unanswered_answers_and_the_input_end_waits_for_it() {
    run(async {
        let (mut conn, mut peer) = initialized().await;
        peer.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "x"}})).await;
        let call = next_request(&mut conn).await;
        let context = conn.context(&call);
        peer.to.shutdown().await.unwrap();
        let late = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(context);
        });
        // The input has ended; the loop still waits for the context.
        assert_eq!(conn.next_event().await.unwrap(), None);
        late.await.unwrap();
        let answer = peer.recv().await;
        assert_eq!(answer["id"], json!(3));
        assert_eq!(answer["error"]["code"], json!(mcp_spec_types::rpc::INTERNAL_ERROR));
    });
}

#[test]
#[cfg(feature = "v2025-11-25")]
fn the_client_times_out_at_the_engines_deadline() {
    use crate::{Client, RequestError};
    use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
    run(async {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(theirs);
        let mut conn = Connection::new(Client::new(Config::default()), read, write);
        let start = std::time::Instant::now();
        let handle = conn.engine().request(ListToolsRequest::new(RequestId::Integer(0)), start, Some(Duration::from_millis(30))).unwrap();
        let Some(Event::Answer(answer)) = conn.next_event().await.unwrap() else { panic!("no answer") };
        assert!(start.elapsed() >= Duration::from_millis(30));
        assert!(matches!(handle.read(answer), Err(RequestError::TimedOut)));
        drop(ours);
    });
}

#[test]
fn an_over_long_line_is_skipped_to_its_end() {
    run(async {
        let mut input = &b"0123456789abcdef\n{}\r\nlast"[..];
        let marker = read_line(&mut input, 8).await.unwrap().unwrap();
        assert!(serde_json::from_slice::<Value>(&marker).is_err());
        assert_eq!(read_line(&mut input, 8).await.unwrap().unwrap(), b"{}");
        assert_eq!(read_line(&mut input, 8).await.unwrap().unwrap(), b"last");
        assert_eq!(read_line(&mut input, 8).await.unwrap(), None);
    });
}

#[test]
fn next_event_cancelled_mid_write_leaves_no_line_cut_short() {
    use tokio::io::AsyncReadExt;
    run(async {
        // A pipe of 1 KiB and a peer that reads 512 bytes at a time: every long line takes many writes.
        let (ours, theirs) = tokio::io::duplex(1024);
        let (read, write) = tokio::io::split(theirs);
        let mut conn = Connection::new(Server::new(Config::default()), read, write);
        let (mut from, mut to) = tokio::io::split(ours);
        let reader = tokio::spawn(async move {
            let (mut all, mut buf) = (Vec::new(), [0u8; 512]);
            loop {
                match from.read(&mut buf).await.unwrap() {
                    0 => return all,
                    n => all.extend_from_slice(&buf[..n]),
                }
                if all.len() % (16 << 10) < 512 {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
        });
        let send = |v: Value| format!("{v}\n").into_bytes();
        to.write_all(&send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))).await.unwrap();
        let init = next_request(&mut conn).await;
        conn.engine().respond(&init.id, &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
        to.write_all(&send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))).await.unwrap();
        assert!(matches!(conn.next_event().await.unwrap(), Some(Event::Notification { .. })));
        const CALLS: usize = 8;
        for n in 1..=CALLS {
            to.write_all(&send(json!({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "big"}}))).await.unwrap();
            let call = next_request(&mut conn).await;
            let text = format!("{n}").repeat(256 << 10);
            conn.engine().respond(&call.id, &json!({"content": [{"type": "text", "text": text}]})).unwrap();
        }
        // Nothing more arrives, so each call writes until the timeout cancels it.
        let (cancelled, mut mid_line) = (100, 0);
        for _ in 0..cancelled {
            let timed_out = tokio::time::timeout(Duration::from_millis(1), conn.next_event()).await.is_err();
            assert!(timed_out, "no event is due");
            mid_line += (conn.written < conn.writing.len()) as usize;
        }
        conn.flush().await.unwrap();
        conn.output.shutdown().await.unwrap();
        drop(to);
        let all = reader.await.unwrap();
        println!("{cancelled} calls cancelled, {mid_line} of them in the middle of a line; the peer read {} bytes", all.len());
        assert!(mid_line > 0);
        let lines: Vec<Value> = all.split(|b| *b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).expect("a whole line of JSON")).collect();
        let ids: Vec<Value> = lines.iter().map(|l| l["id"].clone()).collect();
        assert_eq!(ids, (0..=CALLS).map(|n| json!(n)).collect::<Vec<_>>());
    });
}

#[test]
#[cfg(feature = "v2025-11-25")]
fn a_peer_that_never_reads_does_not_stop_the_timeout() {
    use crate::{Client, RequestError};
    use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
    run(async {
        // A pipe of 64 bytes nobody reads: the request line never goes out whole.
        let (ours, theirs) = tokio::io::duplex(64);
        let (read, write) = tokio::io::split(theirs);
        let mut conn = Connection::new(Client::new(Config::default()), read, write);
        let start = std::time::Instant::now();
        let handle = conn.engine().request(ListToolsRequest::new(RequestId::Integer(0)), start, Some(Duration::from_millis(50))).unwrap();
        let event = tokio::time::timeout(Duration::from_secs(20), conn.next_event()).await.expect("next_event returned while the peer reads nothing");
        let Some(Event::Answer(answer)) = event.unwrap() else { panic!("no answer") };
        assert!(matches!(handle.read(answer), Err(RequestError::TimedOut)));
        drop(ours);
    });
}

#[test]
fn the_read_ahead_holds_at_most_its_byte_budget() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    /// A peer that writes lines of 1 MiB as fast as they are read, counting the bytes taken.
    struct Firehose(usize, Arc<AtomicUsize>);
    impl tokio::io::AsyncRead for Firehose {
        fn poll_read(mut self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>, buf: &mut tokio::io::ReadBuf<'_>) -> std::task::Poll<std::io::Result<()>> {
            const SIZE: usize = 1 << 20;
            let n = buf.remaining().min(SIZE - self.0);
            let line_end = self.0 + n == SIZE;
            buf.put_slice(&vec![b'a'; n - line_end as usize]);
            if line_end {
                buf.put_slice(b"\n");
            }
            self.0 = (self.0 + n) % SIZE;
            self.1.fetch_add(n, Ordering::Relaxed);
            std::task::Poll::Ready(Ok(()))
        }
    }
    use std::sync::Arc;
    run(async {
        let taken = Arc::new(AtomicUsize::new(0));
        let conn = Connection::new(Server::new(Config::default()), Firehose(0, taken.clone()), tokio::io::sink());
        // The engine takes nothing: the reader task reads until the read-ahead is full.
        let mut last = 0;
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let now = taken.load(Ordering::Relaxed);
            if now == last {
                break;
            }
            last = now;
        }
        println!("read ahead: {last} bytes taken from the peer; budget {} bytes", super::READ_AHEAD_BYTES);
        // 64 lines (64 MiB here) before the budget; 16 MiB of lines now, plus the one waiting for room and the reader's buffer.
        assert!(last <= (16 << 20) + (2 << 20) + (64 << 10), "{last} bytes read ahead");
        drop(conn);
    });
}
