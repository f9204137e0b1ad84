//! The event-stream rules (SSE) as an incremental parser over bytes: `check FILE.har` feeds it a
//! whole body (the CLI's `har::text::parse_sse`), `proxy --http` the chunks of a live stream as they
//! arrive. Lines end with CRLF, LF or CR (a CR at the end of a chunk may be the first half of a
//! CRLF); a blank line dispatches the event; `:` starts a comment; one space after the field's
//! colon is dropped; an `id` with a NUL is ignored; an event with no `data` is not dispatched; a
//! byte order mark at the very start is dropped. Memory is bounded: a line or an event's data past
//! the cap is counted, not kept, and the event is dispatched with [`SseEvent::cut`] set.

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `data` lines joined with `\n` (invalid UTF-8 replaced, as an event-stream decoder does).
    pub data: String,
    /// The `id` in force when the event was dispatched (the last event id, as the SSE rules keep it).
    pub id: Option<String>,
    /// The `event` field, if the event had one (MCP sends the default, `message`).
    pub event: Option<String>,
    /// The `retry` field of this event, if it had a valid one.
    pub retry: Option<u64>,
    /// `Some(length)` when the data was longer than the cap: `data` is then empty.
    pub cut: Option<usize>,
    /// Whether the event carried an `id` field itself (not only the last one in force).
    pub has_id: bool,
}

/// The incremental parser: [`SseParser::push`] each chunk, [`SseParser::finish`] at the end.
pub struct SseParser {
    cap: usize,
    line: Vec<u8>,
    line_len: usize,
    /// The last chunk ended with CR: a LF at the start of the next belongs to it.
    after_cr: bool,
    started: bool,
    data: Option<Vec<u8>>,
    data_len: usize,
    event: Option<String>,
    retry: Option<u64>,
    has_id: bool,
    last_id: Option<String>,
    /// Events dispatched so far.
    pub dispatched: u64,
    /// The `retry` of the last block that dispatched no event (no `data`): it takes effect all the same.
    pub lone_retry: Option<u64>,
}

impl SseParser {
    /// `cap`: the most bytes of one line, and of one event's data, kept.
    pub fn new(cap: usize) -> SseParser {
        SseParser {
            cap,
            line: Vec::new(),
            line_len: 0,
            after_cr: false,
            started: false,
            data: None,
            data_len: 0,
            event: None,
            retry: None,
            has_id: false,
            last_id: None,
            dispatched: 0,
            lone_retry: None,
        }
    }

    /// Feeds the next bytes; calls `emit` for each event they dispatch.
    pub fn push(&mut self, mut bytes: &[u8], mut emit: impl FnMut(SseEvent)) {
        if bytes.is_empty() {
            return;
        }
        if !self.started {
            // The mark may itself come split over chunks: wait for three bytes (or the end).
            let have = self.line.len() + bytes.len();
            if have < 3 && self.line.iter().chain(bytes).zip(BOM).all(|(a, b)| a == b) {
                self.line.extend_from_slice(bytes);
                self.line_len = self.line.len();
                return;
            }
            self.started = true;
            let mut head = std::mem::take(&mut self.line);
            self.line_len = 0;
            if !head.is_empty() {
                head.extend_from_slice(bytes);
                let start = if head.starts_with(BOM) { 3 } else { 0 };
                return self.push(&head[start..], emit);
            }
            bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
        }
        if self.after_cr {
            self.after_cr = false;
            bytes = bytes.strip_prefix(b"\n").unwrap_or(bytes);
        }
        while let Some(i) = memchr::memchr2(b'\r', b'\n', bytes) {
            self.extend(&bytes[..i]);
            self.take_line(&mut emit);
            if bytes[i] == b'\r' {
                match bytes.get(i + 1) {
                    Some(b'\n') => bytes = &bytes[i + 2..],
                    Some(_) => bytes = &bytes[i + 1..],
                    None => {
                        self.after_cr = true;
                        return;
                    }
                }
            } else {
                bytes = &bytes[i + 1..];
            }
        }
        self.extend(bytes);
    }

    /// The end of the stream. An event the stream ended inside is not dispatched (the rules
    /// discard it): returns the bytes of `data` it had, if it had any.
    pub fn finish(&mut self) -> Option<usize> {
        if !self.started && !self.line.is_empty() {
            self.started = true;
            let head = std::mem::take(&mut self.line);
            self.line_len = 0;
            self.push(&head, |_| {});
        }
        if self.line_len > 0 {
            // The last line never completes; its data still counts towards the unfinished event.
            let line = std::mem::take(&mut self.line);
            let len = std::mem::take(&mut self.line_len);
            let (f, v) = field(&line);
            if f == b"data" {
                self.data_len += len.saturating_sub(line.len()) + v.len();
                self.data.get_or_insert_with(Vec::new);
            }
        }
        self.data.take().map(|_| self.data_len)
    }

    /// Bytes held: the line and the event's data kept so far.
    pub fn held(&self) -> usize {
        self.line.len() + self.data.as_ref().map_or(0, Vec::len)
    }

    fn extend(&mut self, piece: &[u8]) {
        self.line_len += piece.len();
        let room = self.cap.saturating_sub(self.line.len());
        self.line.extend_from_slice(&piece[..piece.len().min(room)]);
    }

    fn take_line(&mut self, emit: &mut impl FnMut(SseEvent)) {
        let line = std::mem::take(&mut self.line);
        let len = std::mem::take(&mut self.line_len);
        if len == 0 {
            return self.dispatch(emit);
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (f, v) = field(&line);
        let full = len == line.len();
        match f {
            b"data" => {
                let data = self.data.get_or_insert_with(Vec::new);
                // The value's length as sent (what did not fit in the line is counted too).
                self.data_len += v.len() + (len - line.len()) + 1;
                if full && data.len() + v.len() < self.cap {
                    data.extend_from_slice(v);
                    data.push(b'\n');
                } else {
                    data.clear();
                    data.shrink_to(0);
                }
            }
            b"event" if full => self.event = Some(String::from_utf8_lossy(v).into_owned()),
            b"id" if full && !v.contains(&0) => {
                self.last_id = Some(String::from_utf8_lossy(v).into_owned());
                self.has_id = true;
            }
            b"retry" if !v.is_empty() && v.iter().all(u8::is_ascii_digit) => self.retry = std::str::from_utf8(v).ok().and_then(|s| s.parse().ok()),
            _ => {}
        }
    }

    fn dispatch(&mut self, emit: &mut impl FnMut(SseEvent)) {
        let event = self.event.take();
        let retry = self.retry.take();
        let has_id = std::mem::take(&mut self.has_id);
        let len = std::mem::take(&mut self.data_len);
        let Some(mut data) = self.data.take() else {
            if retry.is_some() {
                self.lone_retry = retry;
            }
            return;
        };
        let len = len.saturating_sub(1); // the `\n` after the last data line
        let cut = (data.len() != len + 1 || len >= self.cap).then_some(len);
        data.pop();
        let data = if cut.is_some() { String::new() } else { String::from_utf8(data).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()) };
        self.dispatched += 1;
        emit(SseEvent { data, id: self.last_id.clone(), event, retry, cut, has_id });
    }
}

const BOM: &[u8] = b"\xef\xbb\xbf";

fn field(line: &[u8]) -> (&[u8], &[u8]) {
    match memchr::memchr(b':', line) {
        Some(i) => (&line[..i], line[i + 1..].strip_prefix(b" ").unwrap_or(&line[i + 1..])),
        None => (line, b""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]], cap: usize) -> (Vec<SseEvent>, Option<usize>) {
        let mut p = SseParser::new(cap);
        let mut out = Vec::new();
        for c in chunks {
            p.push(c, |e| out.push(e));
        }
        let rest = p.finish();
        (out, rest)
    }

    #[test]
    fn every_split_gives_the_same_events() {
        let body: &[u8] = b"\xef\xbb\xbfretry: 3000\r\nid: 1\r\ndata: {\"a\":\r\ndata:1}\r\n\r\n: c\rid: 2\rdata: x\r\rdata: y\n\nevent: endpoint\ndata: /m?s=1\n\ndata: tail";
        let (whole, rest) = all(&[body], 1 << 20);
        assert_eq!(whole.len(), 4);
        assert_eq!((whole[0].data.as_str(), whole[0].id.as_deref(), whole[0].retry, whole[0].has_id), ("{\"a\":\n1}", Some("1"), Some(3000), true));
        assert_eq!((whole[2].data.as_str(), whole[2].id.as_deref(), whole[2].has_id), ("y", Some("2"), false));
        assert_eq!((whole[3].event.as_deref(), whole[3].data.as_str()), (Some("endpoint"), "/m?s=1"));
        assert_eq!(rest, Some(4));
        for i in 0..body.len() {
            for j in i..body.len() {
                assert_eq!(all(&[&body[..i], &body[i..j], &body[j..]], 1 << 20), (whole.clone(), rest), "split at {i}, {j}");
            }
        }
    }

    #[test]
    fn random_bytes_in_random_chunks_give_what_the_whole_gives() {
        // Bytes from a small alphabet where every SSE delimiter is common, split at random.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let alphabet: &[&[u8]] = &[b"\r", b"\n", b"\r\n", b":", b" ", b"data", b"id", b"event", b"retry", b"7", b"\0", b"\xef\xbb\xbf", b"\xff", b"x"];
        for _ in 0..2000 {
            let len = (next() % 60) as usize;
            let body: Vec<u8> = (0..len).flat_map(|_| alphabet[(next() % alphabet.len() as u64) as usize].to_vec()).collect();
            let cap = 1 + (next() % 24) as usize;
            let whole = all(&[&body], cap);
            let mut cuts: Vec<usize> = (0..(next() % 5)).map(|_| (next() % (body.len() as u64 + 1)) as usize).collect();
            cuts.sort();
            let mut chunks = Vec::new();
            let mut at = 0;
            for c in cuts {
                chunks.push(&body[at..c]);
                at = c;
            }
            chunks.push(&body[at..]);
            assert_eq!(all(&chunks, cap), whole, "{body:?} cut as {chunks:?}");
        }
    }

    #[test]
    fn data_past_the_cap_is_counted_not_kept() {
        let big = format!("data: {}\n\ndata: ok\n\n", "x".repeat(100));
        let (events, _) = all(&[big.as_bytes()], 16);
        assert_eq!(events.len(), 2);
        assert_eq!((events[0].cut, events[0].data.as_str()), (Some(100), ""));
        assert_eq!((events[1].cut, events[1].data.as_str()), (None, "ok"));
        // Many short lines past the cap together.
        let lines = "data: 0123456789\n".repeat(10) + "\n";
        let (events, _) = all(&[lines.as_bytes()], 32);
        assert_eq!(events[0].cut, Some(10 * 11 - 1));
    }
}
