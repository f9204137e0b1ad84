//! What one incoming line costs the engine in memory while it is read: the peak of the bytes this
//! thread holds during `handle_line`, counted by a global allocator, against the line's length.
//! The engine parses a line once into a compact tree (`tree::Doc`: 8 bytes per value and key,
//! strings borrowed), so a line of many small objects costs a small multiple of its size where
//! the engine decides alone (an answer to no request, a refused request, a notification it
//! consumes); a `serde_json::Value` of it costs a B-tree node (about half a KiB) per object.
//! A request its version's rules refuse is validated on the tree, and bounded too. What the
//! application is handed (the params of a request it is offered) is a `Value` still: that case
//! is printed, not bounded.
//!
//! `cargo test -p mcp-spec-engine --test line_cost -- --nocapture` prints the figures.

#![deny(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcp_spec_engine::{Client, Config, Dropped, Event, Server};

/// The system allocator, counting what each thread holds and the most it held.
struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counters left; its frees are not counted.
    let _ = HELD.try_with(|held| {
        let now = held.get() + delta;
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

#[allow(unsafe_code)]
// SAFETY: every call is passed to `System` unchanged, with the caller's own guarantees; the
// counters are const-initialised thread locals of `Cell`s, which never allocate.
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
        // SAFETY: `ptr` came from `alloc`/`realloc` above with this layout.
        let () = unsafe { System.dealloc(ptr, layout) };
    }

    #[allow(unsafe_code)]
    // SAFETY: as `System::realloc`, which it calls.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A block that grows is counted as the new one taken before the old one is given back,
        // as a move would be; one that shrinks as what it gives back.
        let (old, new) = (layout.size() as isize, new_size as isize);
        count(if new > old { new } else { new - old });
        #[allow(unsafe_code)]
        // SAFETY: the caller's pointer, layout and size, as `GlobalAlloc::realloc` requires.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if new > old {
            count(-old);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes this thread held at once while `f` ran, above what it held before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = HELD.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let out = f();
    let peak = PEAK.with(Cell::get) - before;
    (out, peak.max(0) as usize)
}

/// `n` small objects, `{"k":1}` each, as a JSON array's text.
fn objects(n: usize) -> String {
    let mut s = String::with_capacity(n * 8 + 2);
    s.push('[');
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(r#"{"k":1}"#);
    }
    s.push(']');
    s
}

const OBJECTS: usize = 200_000;
/// The bound on the engine's peak, in multiples of the line's length. The tree is three entries
/// of 8 bytes per `{"k":1},` of 8 bytes (3x), and its tape doubles as it grows (the old block
/// and the new at once); a `Value` of the same line is some 80x.
const BOUND: usize = 8;

/// A server whose application answered `initialize`, with the line-level bounds of `config`.
fn session(config: Config) -> Server {
    let mut s = Server::new(config);
    s.handle_line(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#).unwrap();
    let Some(Event::Request(init)) = s.poll_event() else { panic!("initialize offered") };
    s.respond(&init.id, &serde_json::json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})).unwrap();
    s.handle_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
    while s.poll_transmit().is_some() {}
    while s.poll_event().is_some() {}
    s
}

/// An engine that reads a line and gives its first event.
type Handler = Box<dyn FnMut(&[u8]) -> Option<Event>>;

/// Each line the engine decides about alone costs at most [`BOUND`] times its length, where a
/// `Value` of it would cost far more (printed beside it).
#[test]
fn a_line_of_many_small_objects_costs_a_small_multiple_of_its_size() {
    let items = objects(OBJECTS);
    let cases: Vec<(&str, Handler, String)> = vec![
        (
            "client: an answer to no request",
            {
                let mut c = Client::new(Config::default());
                Box::new(move |line| {
                    c.handle_line(line).unwrap();
                    c.poll_event()
                })
            },
            format!(r#"{{"jsonrpc":"2.0","id":77,"result":{{"items":{items}}}}}"#),
        ),
        (
            "client: progress for no request",
            {
                let mut c = Client::new(Config::default());
                Box::new(move |line| {
                    c.handle_line(line).unwrap();
                    c.poll_event()
                })
            },
            format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":5,"progress":1,"items":{items}}}}}"#),
        ),
        (
            "server: a request before initialize",
            {
                let mut s = Server::new(Config::default());
                Box::new(move |line| {
                    s.handle_line(line).unwrap();
                    s.poll_event()
                })
            },
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"items":{items}}}}}}}"#),
        ),
        (
            "server: an id past Config::max_id_len",
            {
                let mut s = session(Config { max_id_len: 16, ..Config::default() });
                Box::new(move |line| {
                    s.handle_line(line).unwrap();
                    s.poll_event()
                })
            },
            format!(r#"{{"jsonrpc":"2.0","id":"{}","method":"tools/call","params":{{"name":"t","arguments":{{"items":{items}}}}}}}"#, "i".repeat(64)),
        ),
        (
            "server: a cancellation of no request",
            {
                let mut s = session(Config::default());
                Box::new(move |line| {
                    s.handle_line(line).unwrap();
                    s.poll_event()
                })
            },
            format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":99,"reason":"r","items":{items}}}}}"#),
        ),
    ];
    let (mut passed, mut failed) = (0, 0);
    for (name, mut handle, line) in cases {
        let (value, value_peak) = peak_of(|| serde_json::from_slice::<serde_json::Value>(line.as_bytes()).unwrap());
        drop(value);
        let (event, peak) = peak_of(|| handle(line.as_bytes()));
        let times = peak as f64 / line.len() as f64;
        println!("{name}: line {} KiB, engine peak {} KiB ({times:.1}x), a Value of it {} KiB ({:.0}x); event {:?}", line.len() >> 10, peak >> 10, value_peak >> 10, value_peak as f64 / line.len() as f64, event.as_ref().map(short));
        if peak <= BOUND * line.len() {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("{name}: {peak} bytes at the peak, more than {BOUND}x the line's {}", line.len());
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// What the application is offered is a `Value` of the params: the cost of that, for comparison.
#[test]
fn an_offered_request_costs_the_value_of_its_params() {
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"items":{}}}}}}}"#, objects(OBJECTS));
    let mut s = session(Config { validate: false, ..Config::default() });
    let ((), peak) = peak_of(|| s.handle_line(line.as_bytes()).unwrap());
    let Some(Event::Request(request)) = s.poll_event() else { panic!("offered") };
    let expected: serde_json::Value = serde_json::from_slice(line.as_bytes()).unwrap();
    assert_eq!(request.params.as_ref(), expected.get("params"));
    println!("server: an offered request: line {} KiB, peak {} KiB ({:.0}x)", line.len() >> 10, peak >> 10, peak as f64 / line.len() as f64);
}

/// A request its version's rules refuse (-32602) is validated on its tree: bounded as the
/// cases above.
#[cfg(feature = "v2025-11-25")]
#[test]
fn a_request_the_rules_refuse_costs_a_small_multiple_of_its_size() {
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"arguments":{{"items":{}}}}}}}"#, objects(OBJECTS));
    let mut s = session(Config::default());
    let ((), peak) = peak_of(|| s.handle_line(line.as_bytes()).unwrap());
    assert!(s.poll_event().is_none(), "refused, not offered");
    let answer: serde_json::Value = serde_json::from_slice(&s.poll_transmit().expect("an answer").line).unwrap();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    println!("server: a request the rules refuse: line {} KiB, peak {} KiB ({:.1}x)", line.len() >> 10, peak >> 10, peak as f64 / line.len() as f64);
    assert!(peak <= BOUND * line.len(), "{peak} bytes at the peak, more than {BOUND}x the line's {}", line.len());
}

fn short(event: &Event) -> String {
    match event {
        Event::Dropped(Dropped::UnknownProgressToken(token)) => format!("Dropped(UnknownProgressToken({token}))"),
        Event::Dropped(d) => format!("Dropped({d:?})"),
        other => format!("{:.60}", format!("{other:?}")),
    }
}
