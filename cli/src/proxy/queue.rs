//! The traffic's way into the recorder (recorder.rs): a bounded queue that offering never waits
//! on. An item that finds no room, in the queue or in the bytes both queues may hold, is counted
//! lost: neither recorded nor checked.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use crate::input::MAX_LINE;

/// Lines waiting in each queue (traffic to recorder, recorder to checker).
pub const QUEUE_LINES: usize = 4096;

/// Bytes of lines waiting in both queues together; past it new lines are neither recorded nor
/// checked. Room for two lines of the longest length kept, so memory stays bounded.
pub const QUEUE_BYTES: usize = 2 * MAX_LINE + (64 << 20);

/// An item the traffic queues for the recorder: the bytes it holds there, and the lines it counts
/// as when it is lost.
pub trait Queued {
    fn bytes(&self) -> usize;
    fn lines(&self) -> u64 {
        1
    }
}

/// What the recorder's queue carries: an item, or the end of the traffic.
pub enum Entry<T> {
    Item(T),
    End,
}

/// The traffic's way into the recorder: offering never waits.
pub struct Queue<T> {
    tx: SyncSender<Entry<T>>,
    /// Bytes of items in both queues (to the recorder, to the checker).
    pub queued_bytes: Arc<AtomicUsize>,
    /// Lines that found no room (or no recorder): neither recorded nor checked.
    pub lost: Arc<AtomicU64>,
}

impl<T> Clone for Queue<T> {
    fn clone(&self) -> Self {
        Queue { tx: self.tx.clone(), queued_bytes: self.queued_bytes.clone(), lost: self.lost.clone() }
    }
}

/// A queue of `capacity` items, and the recorder's end of it.
pub fn queue<T>(capacity: usize) -> (Queue<T>, Receiver<Entry<T>>) {
    let (tx, rx) = sync_channel(capacity);
    (Queue { tx, queued_bytes: Arc::new(AtomicUsize::new(0)), lost: Arc::new(AtomicU64::new(0)) }, rx)
}

impl<T: Queued> Queue<T> {
    /// Queues `item` if the queues have room for its bytes and the recorder's queue for it; else
    /// counts its lines lost.
    pub fn offer(&self, item: T) {
        let (size, lines) = (item.bytes(), item.lines());
        if self.queued_bytes.fetch_add(size, Ordering::Relaxed) + size > QUEUE_BYTES || self.tx.try_send(Entry::Item(item)).is_err() {
            self.queued_bytes.fetch_sub(size, Ordering::Relaxed);
            self.lost.fetch_add(lines, Ordering::Relaxed);
        }
    }
}

impl<T> Queue<T> {
    /// Queues `item`, waiting for room (for what must not be lost and holds no line's bytes).
    pub fn send(&self, item: T) {
        let _ = self.tx.send(Entry::Item(item));
    }

    /// Tells the recorder the traffic is over (waits for room: call it from a thread of its own
    /// when the recorder may be stalled).
    pub fn end(&self) {
        let _ = self.tx.send(Entry::End);
    }
}

