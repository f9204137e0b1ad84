//! What a long line costs the bridge, counted by the allocator of the test binary: which big
//! buffers it allocates on its way through (the tree, the message sent; no copy of the line or of
//! its parts, none for its recording lines). Counted per thread, so tests running beside it do
//! not disturb the figures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use serde_json::Value;

use super::hardening_tests::{long_call, older_client_with_a_2026_server};
use super::into_line;

/// The system allocator, counting on the threads that ask it to.
struct Counting;

thread_local! {
    /// `Some(n)`: this thread counts the allocations of `n` bytes or more.
    static BIG_FROM: Cell<Option<usize>> = const { Cell::new(None) };
    static BIG: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn counted(size: usize, sign: isize) {
    let _ = BIG_FROM.try_with(|from| {
        let Some(from) = from.get() else { return };
        let live = LIVE.with(|l| {
            l.set(l.get() + sign * size as isize);
            l.get()
        });
        PEAK.with(|p| p.set(p.get().max(live)));
        if sign > 0 && size >= from {
            BIG.with(|b| b.set(b.get() + 1));
        }
    });
}

// SAFETY: each call goes to the system allocator as it came; the counters take no memory.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    // SAFETY: as GlobalAlloc::alloc, passed on.
    #[allow(unsafe_code)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(layout.size(), 1);
        // SAFETY: the caller's layout, as GlobalAlloc::alloc requires.
        #[allow(unsafe_code)]
        let p = unsafe { System.alloc(layout) };
        p
    }

    // SAFETY: as GlobalAlloc::dealloc, passed on.
    #[allow(unsafe_code)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        counted(layout.size(), -1);
        // SAFETY: a pointer this allocator gave with this layout, as GlobalAlloc::dealloc requires.
        #[allow(unsafe_code)]
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Counts what `f` allocates on this thread: (allocations of `big` bytes or more, peak of the bytes
/// held past those held before).
fn count<T>(big: usize, f: impl FnOnce() -> T) -> (T, usize, usize) {
    BIG.with(|b| b.set(0));
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    BIG_FROM.with(|b| b.set(Some(big)));
    let out = f();
    BIG_FROM.with(|b| b.set(None));
    (out, BIG.with(Cell::get), PEAK.with(Cell::get).max(0) as usize)
}

#[test]
fn a_long_line_is_neither_copied_nor_its_parts_on_its_way_through_the_bridge() {
    let mut b = older_client_with_a_2026_server();
    let mut array = b"[".to_vec();
    for _ in 0..1_000_000 {
        array.extend_from_slice(br#"{"k":1},"#);
    }
    array.extend_from_slice(br#"{"k":1}]"#);
    let call = long_call(7, &[("a", array)]);
    let len = call.len();
    let mut buffer = Vec::with_capacity(len + 4096);
    buffer.extend_from_slice(&call);
    drop(call);
    let big = len / 4;
    // The line in, converted: its tree (one buffer) and the message sent (one); the skeleton is small.
    let (mut out, converted, peak) = count(big, || b.from_client_shared(bytes::Bytes::from(buffer), None));
    println!("a {len}-byte line through the bridge: {converted} allocations of {big} bytes or more, peak {peak} bytes held past the line");
    assert_eq!((out.to_server.len(), out.records.len()), (1, 2));
    assert!(converted <= 3, "{converted} big allocations: the line or its parts were copied");
    // Held once it is through: the message sent, nothing of the line's tree or parts.
    let held = out.to_server[0].len();
    assert!(held < len + (64 << 10));
    // Its recording lines are made in the two buffers.
    drop(std::mem::take(&mut out.to_server));
    let (lines, recorded, _) = count(big, || out.records.drain(..).map(|r| into_line(r, None)).collect::<Vec<_>>());
    println!("its two recording lines: {recorded} allocations of {big} bytes or more");
    assert_eq!(recorded, 0, "a recording line was copied");
    let sent: Value = serde_json::from_slice(&lines[1]).unwrap();
    assert_eq!(sent["msg"]["params"]["arguments"]["a"].as_array().map(Vec::len), Some(1_000_001));
}
