//! JSON-RPC batches, which protocol version 2025-03-26 alone has (`JSONRPCBatchRequest`,
//! `JSONRPCBatchResponse` in its schema; 2025-06-18 removed them): a line that is an array of
//! messages. Each member is read as a line of its own would be; the answers to its requests
//! (those the engine gives at once and those the application gives later) are written together
//! as one array once the last is given, as JSON-RPC 2.0 asks, and nothing at all when it had no
//! requests. An empty array is -32600, and so is a batch with more members than the queues have
//! room for (the engine's bound on what one line may cause).

use std::collections::HashMap;

use super::{Endpoint, Policy};
use crate::{wire, Dropped, Event, Id};
use mcp_spec_types::rpc::INVALID_REQUEST;
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::tree::Array;

/// The one protocol version with batches.
pub(crate) const VERSION: &str = "2025-03-26";

#[derive(Default)]
pub(crate) struct Batches {
    next: u64,
    // The batch being read, if the line is one.
    reading: Option<u64>,
    open: HashMap<u64, Open>,
}

/// A batch whose requests are not all answered.
struct Open {
    // Its requests in flight.
    waiting: usize,
    // The answers so far, each a JSON text.
    answers: Vec<Vec<u8>>,
    // The first of its requests, which the array is written for (a transport with a channel
    // per request sends it where that request came).
    first: Option<Id>,
}

impl Endpoint {
    /// A line that is an array of messages, its members nodes of the line's tree.
    pub(super) fn handle_batch<P: Policy>(&mut self, members: Array<'_>, side: &mut P) {
        let count = members.len();
        // Each member may cause an event; the caller drained both queues before the line.
        let room = self.config.max_queued.saturating_sub(self.events.len().max(self.transmit.len()));
        if count == 0 || count > room {
            let message = if count == 0 { "Invalid Request: an empty batch".to_owned() } else { format!("Invalid Request: a batch of more than {room} messages") };
            self.write_for(None, wire::error(None, side.null_id(), &RpcError { code: INVALID_REQUEST, message, data: None }));
            let why = if count == 0 { "an empty batch" } else { "a batch of more messages than `Config::max_queued`" };
            return self.events.push_back(Event::Dropped(Dropped::Malformed(why)));
        }
        let batch = self.batch.next;
        self.batch.next += 1;
        self.batch.open.insert(batch, Open { waiting: 0, answers: Vec::new(), first: None });
        self.batch.reading = Some(batch);
        for member in members {
            self.handle_message(wire::classify(member), side);
        }
        self.batch.reading = None;
        self.batch_done(batch);
    }

    /// The batch being read, for a request of it that goes in flight: its answer is waited for.
    pub(super) fn batch_joined(&mut self, id: &Id) -> Option<u64> {
        let batch = self.batch.reading?;
        let open = self.batch.open.get_mut(&batch)?;
        open.waiting += 1;
        open.first.get_or_insert_with(|| id.clone());
        Some(batch)
    }

    /// The answer to a request (or to a line that is none) given while reading: into the batch
    /// being read, else written.
    pub(super) fn reply(&mut self, id: Option<&Id>, line: Vec<u8>) {
        match self.batch.reading.and_then(|b| self.batch.open.get_mut(&b)) {
            Some(open) => {
                if open.first.is_none() {
                    open.first = id.cloned();
                }
                open.answers.push(line);
            }
            None => self.write_for(id, line),
        }
    }

    /// A request of `batch` ended, with its answer unless the peer cancelled it.
    pub(super) fn batch_answered(&mut self, batch: u64, answer: Option<Vec<u8>>) {
        let Some(open) = self.batch.open.get_mut(&batch) else { return };
        open.waiting = open.waiting.saturating_sub(1);
        open.answers.extend(answer);
        self.batch_done(batch);
    }

    /// Writes the batch's answers as one array once it is read and none is left to come.
    fn batch_done(&mut self, batch: u64) {
        let waiting = self.batch.open.get(&batch).map_or(0, |open| open.waiting);
        if waiting > 0 || self.batch.reading == Some(batch) {
            return;
        }
        let Some(open) = self.batch.open.remove(&batch) else { return };
        // JSON-RPC: a batch of notifications alone gets nothing, not an empty array.
        if open.answers.is_empty() {
            return;
        }
        let mut array = Vec::with_capacity(open.answers.iter().map(|a| a.len() + 1).sum::<usize>() + 1);
        array.push(b'[');
        for (n, answer) in open.answers.iter().enumerate() {
            if n > 0 {
                array.push(b',');
            }
            array.extend_from_slice(answer);
        }
        array.push(b']');
        self.write_for(open.first.as_ref(), array);
    }
}
