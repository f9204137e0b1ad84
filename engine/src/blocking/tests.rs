//! Tests of the blocking adapter over in-memory pipes: requests answered across threads, timeouts,
//! and the end of input.

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{read_line, Connection};
use crate::{Client, Config, Event, Request, Server};

/// A reader fed line by line from the test, so the test decides when each line arrives.
struct Feed {
    lines: Receiver<Vec<u8>>,
    buf: Vec<u8>,
}

impl Read for Feed {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.buf.is_empty() {
            match self.lines.recv() {
                Ok(line) => self.buf = line,
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len());
        out[..n].copy_from_slice(&self.buf[..n]);
        self.buf.drain(..n);
        Ok(n)
    }
}

/// What the connection wrote, shared with the test.
#[derive(Clone, Default)]
pub(super) struct Written(pub(super) Arc<Mutex<Vec<u8>>>);

impl Write for Written {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Written {
    pub(super) fn lines(&self) -> Vec<Value> {
        let bytes = self.0.lock().unwrap().clone();
        bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect()
    }
}

pub(super) fn send(feed: &Sender<Vec<u8>>, v: Value) {
    feed.send(format!("{v}\n").into_bytes()).unwrap();
}

/// A connection of `engine` whose input the test feeds line by line and whose output it reads
/// (also for the client conveniences' tests in `client/tests.rs`).
pub(super) fn fed<E: super::Role>(engine: E) -> (Connection<E>, Sender<Vec<u8>>, Written) {
    let (feed, lines) = mpsc::channel();
    let out = Written::default();
    (Connection::new(engine, Feed { lines, buf: Vec::new() }, out.clone()), feed, out)
}

fn server() -> (Connection<Server>, Sender<Vec<u8>>, Written) {
    fed(Server::new(Config::default()))
}

fn next_request<E: super::Role>(conn: &mut Connection<E>) -> Request {
    loop {
        match conn.next_event().unwrap() {
            Some(Event::Request(r)) => return r,
            Some(_) => continue,
            None => panic!("the input ended"),
        }
    }
}

/// Initializes the session: `initialize` answered in place, `notifications/initialized`.
fn initialized() -> (Connection<Server>, Sender<Vec<u8>>, Written) {
    let (mut conn, feed, out) = server();
    send(&feed, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}));
    let init = next_request(&mut conn);
    conn.engine().respond(&init.id, &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
    send(&feed, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert!(matches!(conn.next_event().unwrap(), Some(Event::Notification { .. })));
    (conn, feed, out)
}

#[test]
fn answers_in_place_and_ends_with_the_input() {
    let (mut conn, feed, out) = initialized();
    send(&feed, json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}));
    send(&feed, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let list = next_request(&mut conn);
    conn.engine().respond(&list.id, &json!({"tools": []})).unwrap();
    drop(feed);
    assert_eq!(conn.next_event().unwrap(), None);
    let lines = out.lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[1], json!({"jsonrpc": "2.0", "id": "p", "result": {}}));
    assert_eq!(lines[2], json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}));
}

#[test]
fn long_work_on_a_thread_while_other_requests_are_answered() {
    let (mut conn, feed, out) = initialized();
    send(&feed, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "_meta": {"progressToken": "t"}}}));
    let slow = next_request(&mut conn);
    let mut context = conn.context(&slow);
    assert!(context.wants_progress());
    let (go, wait) = mpsc::channel::<()>();
    let (sent, first_sent) = mpsc::channel::<()>();
    let worker = std::thread::spawn(move || {
        context.progress(1.0, Some(2.0), None).unwrap();
        sent.send(()).unwrap();
        wait.recv().unwrap();
        context.progress(2.0, Some(2.0), Some("done")).unwrap();
        context.respond(&json!({"content": []}));
    });
    // The slow request is still running when this one is answered.
    first_sent.recv().unwrap();
    send(&feed, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let list = next_request(&mut conn);
    conn.engine().respond(&list.id, &json!({"tools": []})).unwrap();
    go.send(()).unwrap();
    drop(feed);
    // The input has ended, but the loop runs until the context has answered.
    assert_eq!(conn.next_event().unwrap(), None);
    worker.join().unwrap();
    let ids: Vec<Value> = out.lines().into_iter().skip(1).map(|l| l.get("id").cloned().unwrap_or_else(|| l["params"]["progress"].clone())).collect();
    assert_eq!(ids, [json!(1.0), json!(2), json!(2.0), json!(1)], "{:?}", out.lines());
}

/// A context's answer is written on its thread as its type writes it (not made a `Value`), and
/// the loop puts those bytes in the engine's envelope.
#[cfg(feature = "v2025-11-25")]
#[test]
fn a_contexts_answer_is_written_as_its_type_writes_it() {
    use mcp_spec_types::v2025_11_25::CallToolResult;
    let (mut conn, feed, out) = initialized();
    send(&feed, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}));
    let call = next_request(&mut conn);
    let context = conn.context(&call);
    let mut typed = CallToolResult::text("a\"b");
    typed.structured_content = json!({"z": 1, "a": [0.1, null]}).as_object().cloned();
    typed.is_error = Some(false);
    let want = [&b"{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":"[..], &mcp_spec_types::to_vec(&typed), b"}\n"].concat();
    std::thread::spawn(move || context.respond(&typed)).join().unwrap();
    drop(feed);
    assert_eq!(conn.next_event().unwrap(), None);
    let written = out.0.lock().unwrap().clone();
    assert!(written.ends_with(&want), "{}", String::from_utf8_lossy(&written));
}

#[test]
fn a_cancelled_context_learns_it_and_nothing_more_is_written() {
    let (mut conn, feed, out) = initialized();
    send(&feed, json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "count", "_meta": {"progressToken": 7}}}));
    let count = next_request(&mut conn);
    let mut context = conn.context(&count);
    context.progress(1.0, None, None).unwrap();
    send(&feed, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}));
    assert!(!context.is_cancelled());
    // The progress queued before the cancellation arrived is written before it is read.
    assert!(matches!(conn.next_event().unwrap(), Some(Event::Cancelled { .. })));
    assert!(context.is_cancelled());
    let written = out.lines().len();
    // Whatever the work still sends is dropped by the engine.
    context.progress(2.0, None, None).unwrap();
    context.respond(&json!({"content": []}));
    drop(feed);
    assert_eq!(conn.next_event().unwrap(), None);
    assert_eq!(out.lines().len(), written, "{:?}", out.lines());
    assert_eq!(out.lines()[written - 1]["params"]["progress"], json!(1.0));
}

#[test]
fn a_context_dropped_unanswered_answers_an_internal_error() {
    let (mut conn, feed, out) = initialized();
    send(&feed, json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "x"}}));
    let call = next_request(&mut conn);
    let mut context = conn.context(&call);
    // No token: the request asked for no progress.
    assert!(context.progress(1.0, None, None).is_err());
    std::thread::spawn(move || drop(context)).join().unwrap();
    drop(feed);
    assert_eq!(conn.next_event().unwrap(), None);
    let last = out.lines().pop().unwrap();
    assert_eq!(last["id"], json!(3));
    assert_eq!(last["error"]["code"], json!(mcp_spec_types::rpc::INTERNAL_ERROR));
}

#[test]
fn the_client_times_out_at_the_engines_deadline() {
    let (feed, lines) = mpsc::channel::<Vec<u8>>();
    let out = Written::default();
    let mut conn = Connection::new(Client::new(Config::default()), Feed { lines, buf: Vec::new() }, out.clone());
    let now = Instant::now();
    #[cfg(feature = "v2025-11-25")]
    {
        use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
        let handle = conn.engine().request(ListToolsRequest::new(RequestId::Integer(0)), now, Some(Duration::from_millis(50))).unwrap();
        let Some(Event::Answer(answer)) = conn.next_event().unwrap() else { panic!("no answer") };
        assert!(now.elapsed() >= Duration::from_millis(50));
        assert!(matches!(handle.read(answer), Err(crate::RequestError::TimedOut)));
        // A timeout's event does not wait for the writer; the cancellation is written meanwhile.
        conn.flush().unwrap();
        let lines = out.lines();
        assert_eq!(lines[1]["method"], json!("notifications/cancelled"));
    }
    drop(feed);
    assert_eq!(conn.next_event().unwrap(), None);
}

#[test]
fn records_both_directions_in_the_engines_order() {
    let (mut conn, feed, _) = server();
    let record = Written::default();
    conn.record(record.clone());
    send(&feed, json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    feed.send(b"not json\r\n".to_vec()).unwrap();
    drop(feed);
    while conn.next_event().unwrap().is_some() {}
    let lines = record.lines();
    assert_eq!(lines[0], json!({"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": 1, "method": "ping"}}));
    assert_eq!(lines[1], json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "result": {}}}));
    assert_eq!(lines[2], json!({"dir": "c2s", "text": "not json"}));
    assert_eq!(lines[3]["msg"]["error"]["code"], json!(mcp_spec_types::rpc::PARSE_ERROR));
}

#[test]
fn an_over_long_line_is_skipped_to_its_end() {
    let mut input = io::Cursor::new(b"0123456789abcdef\n{}\nlast".to_vec());
    let marker = read_line(&mut input, 8).unwrap().unwrap();
    assert!(serde_json::from_slice::<Value>(&marker).is_err());
    assert_eq!(read_line(&mut input, 8).unwrap().unwrap(), b"{}");
    assert_eq!(read_line(&mut input, 8).unwrap().unwrap(), b"last");
    assert_eq!(read_line(&mut input, 8).unwrap(), None);
}

#[test]
fn a_write_error_is_returned() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut conn = Connection::new(Server::new(Config::default()), io::Cursor::new(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".to_vec()), Broken);
    assert_eq!(conn.next_event().unwrap_err().kind(), io::ErrorKind::BrokenPipe);
}

/// A peer that writes lines of `size` bytes as fast as they are read, counting the bytes taken.
struct Firehose {
    size: usize,
    at: usize,
    taken: Arc<std::sync::atomic::AtomicUsize>,
}

impl Read for Firehose {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = out.len().min(self.size - self.at);
        for (i, b) in out[..n].iter_mut().enumerate() {
            // `{"jsonrpc":"2.0","method":"x","params":{"p":"aaa…"}}` would do; blanks and a newline are enough to count.
            *b = if self.at + i + 1 == self.size { b'\n' } else { b'a' };
        }
        self.at = (self.at + n) % self.size;
        self.taken.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

#[test]
fn the_read_ahead_holds_at_most_its_byte_budget() {
    let taken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let input = Firehose { size: 1 << 20, at: 0, taken: taken.clone() };
    let conn = Connection::new(Server::new(Config::default()), input, Written::default());
    // The engine takes nothing: the reader thread reads until the read-ahead is full.
    let mut last = 0;
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(50));
        let now = taken.load(std::sync::atomic::Ordering::Relaxed);
        if now == last {
            break;
        }
        last = now;
    }
    let queued = *conn.gate.queued.lock().unwrap();
    println!("read ahead: {last} bytes taken from the peer, {queued:?} (lines, bytes) queued; budget {} bytes", super::READ_AHEAD_BYTES);
    // The queued lines, the one waiting for room, and the reader's buffer.
    // 64 lines (64 MiB here) before the budget; 16 MiB of lines now, plus the one waiting for room and the reader's buffer.
    assert!(last <= (16 << 20) + (2 << 20) + (64 << 10), "{last} bytes read ahead");
    assert!(queued.unwrap().1 <= super::READ_AHEAD_BYTES);
    drop(conn);
}

/// A writer whose peer never reads: each write waits until the test lets it go.
#[cfg(feature = "v2025-11-25")]
#[derive(Clone, Default)]
struct Stuck(Arc<(Mutex<bool>, std::sync::Condvar)>);

#[cfg(feature = "v2025-11-25")]
impl Stuck {
    fn release(&self) {
        *self.0.0.lock().unwrap() = true;
        self.0.1.notify_all();
    }
}

#[cfg(feature = "v2025-11-25")]
impl Write for Stuck {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let mut released = self.0.0.lock().unwrap();
        while !*released {
            released = self.0.1.wait(released).unwrap();
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
#[cfg(feature = "v2025-11-25")]
fn a_peer_that_never_reads_does_not_stop_the_timeout() {
    use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
    let (feed, lines) = mpsc::channel::<Vec<u8>>();
    let stuck = Stuck::default();
    let mut conn = Connection::new(Client::new(Config::default()), Feed { lines, buf: Vec::new() }, stuck.clone());
    let now = Instant::now();
    let handle = conn.engine().request(ListToolsRequest::new(RequestId::Integer(0)), now, Some(Duration::from_millis(100))).unwrap();
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let event = conn.next_event();
        let _ = done.send((event.map_err(|e| e.to_string()), conn));
    });
    let got = result.recv_timeout(Duration::from_secs(20));
    // Lets the writer (and a thread stuck in it before the fix) go on.
    stuck.release();
    let (event, conn) = got.expect("next_event returned while the peer reads nothing");
    let Ok(Some(Event::Answer(answer))) = event else { panic!("{event:?}") };
    assert!(matches!(handle.read(answer), Err(crate::RequestError::TimedOut)));
    println!("timed out after {:?} with the writer stuck", now.elapsed());
    drop(feed);
    drop(conn);
}
