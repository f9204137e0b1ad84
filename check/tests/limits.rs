//! A checker holds what its [`Limits`] let it hold, counted by the allocator of the test binary
//! rather than by the tables' own estimates: a hostile session (thousands of requests left in
//! flight with long ids and progress tokens, a thousand listed tools with distinct schemas, HTTP
//! exchanges left open with every `Mcp-Param-*` header a request may keep, SSE event ids) grows a
//! checker built with `Limits::within(4 MiB)` by less than 4 MiB, and the checker says what it
//! forgot; the same traffic grows a checker with the default limits past it.
//!
//! `cargo test -p mcp-spec-check --test limits -- --nocapture` prints the figures.

#![deny(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcp_spec_check::check::{Checker, Direction, Dropped};
use mcp_spec_check::settings::{Limits, Settings};
use mcp_spec_check::transport::{Headers, HttpLine, MsgAt, Part};
use mcp_spec_types::tree::Doc;
use serde_json::json;

/// The system allocator, counting what each thread holds.
struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counter left; its frees are not counted.
    let _ = HELD.try_with(|held| held.set(held.get() + delta));
}

#[allow(unsafe_code)]
// SAFETY: every call is passed to `System` unchanged, with the caller's own guarantees; the
// counter is a const-initialised thread local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    #[allow(unsafe_code)]
    // SAFETY: as `System::alloc`, which it calls.
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        #[allow(unsafe_code)]
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        let block = unsafe { System.alloc(layout) };
        block
    }

    #[allow(unsafe_code)]
    // SAFETY: as `System::dealloc`, which it calls.
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        #[allow(unsafe_code)]
        // SAFETY: `ptr` came from this allocator with this layout.
        let () = unsafe { System.dealloc(ptr, layout) };
    }

    #[allow(unsafe_code)]
    // SAFETY: as `System::realloc`, which it calls.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        #[allow(unsafe_code)]
        // SAFETY: the caller's pointer, layout and size, as `GlobalAlloc::realloc` requires.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn held() -> isize {
    HELD.with(Cell::get)
}

const MIB: usize = 1 << 20;

/// `n` bytes of `c`, then `i`: a long value no other round repeats.
fn long(c: char, n: usize, i: usize) -> String {
    format!("{}{i}", c.to_string().repeat(n))
}

/// Feeds the hostile session, through the entry points a layer calls; returns the lines fed.
fn hostile(c: &mut Checker, rounds: usize) -> u64 {
    let mut line = 0;
    let mut next = || {
        line += 1;
        line
    };
    let message = |c: &mut Checker, dir: Direction, at: MsgAt, text: String, n: u64| {
        let doc = Doc::parse(&text).unwrap();
        c.message_at(dir, doc.root(), &at, n);
    };
    let head = |sid: bool| {
        let mut h = Headers::default();
        for (k, v) in [("Accept", "application/json, text/event-stream"), ("Content-Type", "application/json"), ("Host", "h")] {
            h.add(k, v);
        }
        if sid {
            h.add("Mcp-Session-Id", "s1");
            h.add("MCP-Protocol-Version", "2025-11-25");
        }
        h
    };
    let req = |x| MsgAt { x, part: Part::Request, event: None, event_id: None };
    let resp = |x, event: Option<u64>, id: Option<String>| MsgAt { x, part: Part::Response, event, event_id: id };
    let mut json_resp = Headers::default();
    json_resp.add("Content-Type", "application/json");
    json_resp.add("Mcp-Session-Id", "s1");
    // The handshake and a listing of a thousand tools, each with a schema of its own.
    c.http(&HttpLine::Request { x: 0, method: "POST".into(), path: "/mcp".into(), query: None, headers: head(false) }, next());
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "c", "version": "1"}}});
    message(c, Direction::ClientToServer, req(0), init.to_string(), next());
    c.http(&HttpLine::Response { x: 0, status: 200, headers: json_resp.clone() }, next());
    let result = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "resources": {"subscribe": true}}, "serverInfo": {"name": "s", "version": "1"}}});
    message(c, Direction::ServerToClient, resp(0, None, None), result.to_string(), next());
    c.http(&HttpLine::End { x: 0, bytes: None, complete: true, error: None }, next());
    c.http(&HttpLine::Request { x: 1, method: "POST".into(), path: "/mcp".into(), query: None, headers: head(true) }, next());
    message(c, Direction::ClientToServer, req(1), json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(), next());
    message(c, Direction::ClientToServer, req(1), json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string(), next());
    let tools: Vec<_> = (0..1000).map(|i| json!({"name": format!("tool{i}"), "inputSchema": {"type": "object", "properties": {long('p', 64, i): {"type": "string", "maxLength": i}}, "required": [long('p', 64, i)]}})).collect();
    message(c, Direction::ServerToClient, resp(1, None, None), json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string(), next());
    // Rounds: a POST left open with all the headers it may keep, a call with a long id and
    // progress token never answered, a subscription and a cursor, an SSE event with a long id,
    // and a request of the server's with a long id, never answered either.
    for i in 0..rounds {
        let x = 2 + i as u64;
        let mut h = head(true);
        for p in 0..32 {
            h.add(&format!("Mcp-Param-{}", long('n', 900, p)), &long('v', 1000, i));
        }
        c.http(&HttpLine::Request { x, method: "POST".into(), path: "/mcp".into(), query: None, headers: h }, next());
        let call = json!({"jsonrpc": "2.0", "id": long('i', 1000, i), "method": "tools/call", "params": {"name": "tool1", "arguments": {}, "_meta": {"progressToken": long('t', 1000, i)}}});
        message(c, Direction::ClientToServer, req(x), call.to_string(), next());
        let subscribe = json!({"jsonrpc": "2.0", "id": long('s', 500, i), "method": "resources/subscribe", "params": {"uri": format!("file:///{}", long('u', 1000, i))}});
        message(c, Direction::ClientToServer, req(x), subscribe.to_string(), next());
        let page = json!({"jsonrpc": "2.0", "id": long('l', 500, i), "method": "resources/list", "params": {"cursor": long('c', 1000, i)}});
        message(c, Direction::ClientToServer, req(x), page.to_string(), next());
        let mut sse = Headers::default();
        sse.add("Content-Type", "text/event-stream");
        c.http(&HttpLine::Response { x, status: 200, headers: sse }, next());
        let ask = json!({"jsonrpc": "2.0", "id": long('r', 1000, i), "method": "ping"});
        message(c, Direction::ServerToClient, resp(x, Some(0), Some(long('e', 1000, i))), ask.to_string(), next());
    }
    line
}

/// What the state of a checker with `limits` holds after the hostile session, and what it forgot.
fn grown(limits: Limits, rounds: usize) -> (usize, Dropped) {
    let settings = Settings { limits, ..Settings::default() };
    let before = held();
    let mut c = Checker::new(settings);
    let built = held();
    let lines = hostile(&mut c, rounds);
    let after = held();
    let dropped = c.dropped();
    drop(c);
    println!(
        "limits {limits:?} (worst case by their estimates {:.1} MiB): {lines} lines; the checker takes {} KiB built, its state grows by {:.1} MiB; dropped {dropped:?}",
        limits.worst_case() as f64 / MIB as f64,
        (built - before) / 1024,
        (after - built) as f64 / MIB as f64
    );
    ((after - built).max(0) as usize, dropped)
}

#[test]
fn a_hostile_session_stays_within_the_checkers_limits() {
    // What the first checker builds once for every later one (the version tables' caches).
    hostile(&mut Checker::new(Settings::default()), 10);
    let budget = 4 * MIB;
    let limits = Limits::within(budget);
    assert!(limits.worst_case() <= budget, "{limits:?}: {} bytes", limits.worst_case());
    let rounds = 3000;
    let (small, dropped) = grown(limits, rounds);
    assert!(small <= budget, "a checker within {budget} bytes grew by {small}");
    assert!(dropped.entries > 0 && dropped.exchanges > 0, "{dropped:?}");
    // The traffic is hostile enough that the default limits hold more: the limits, not the traffic, bound it.
    let (default, dropped) = grown(Limits::default(), rounds);
    assert!(default > budget, "the default limits held {default} bytes");
    // Every round's exchange and the one of `tools/list` stay open; past the default's 1,024 the oldest are forgotten.
    assert_eq!(dropped.exchanges, rounds as u64 + 1 - Limits::default().open_exchanges as u64, "{dropped:?}");
}

#[test]
fn limits_within_a_budget_shrink_with_it() {
    let big = Limits::within(256 * MIB);
    let small = Limits::within(MIB);
    assert!(small.table_bytes < big.table_bytes && small.open_exchanges <= big.open_exchanges && small.event_ids <= big.event_ids);
    for bytes in [MIB, 16 * MIB, 256 * MIB] {
        let l = Limits::within(bytes);
        println!("within {} MiB: {l:?}, worst case {:.1} MiB", bytes / MIB, l.worst_case() as f64 / MIB as f64);
        assert!(l.worst_case() <= bytes, "{l:?}");
    }
    // Never below one exchange and one session, whatever the budget.
    let tiny = Limits::within(0);
    assert!(tiny.open_exchanges == 1 && tiny.sessions == 1 && tiny.event_ids == 16);
    println!("default: {:?}, worst case {:.0} MiB", Limits::default(), Limits::default().worst_case() as f64 / MIB as f64);
}
