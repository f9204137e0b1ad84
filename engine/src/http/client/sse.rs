//! A server-sent events reader, bounded: the fields MCP uses (`data`, `id`, `retry`), an event
//! of more than its bound is an error, never more memory.

/// One event: its data lines joined with `\n`, and its `id` when it had one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SseEvent {
    pub data: Vec<u8>,
    pub id: Option<String>,
}

/// Reads events from the chunks of a body as they come.
pub(crate) struct SseReader {
    max_event: usize,
    // The bytes of the line being read, and the event being built.
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    id: Option<String>,
    /// The last `retry` the server set, in milliseconds.
    pub retry_ms: Option<u64>,
    /// The last event id the stream set (the spec keeps it across events).
    pub last_id: Option<String>,
}

/// An event (or a line) longer than the bound.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TooLong(pub usize);

impl SseReader {
    pub fn new(max_event: usize) -> Self {
        SseReader { max_event, line: Vec::new(), data: Vec::new(), has_data: false, id: None, retry_ms: None, last_id: None }
    }

    /// Starts on a new stream (a resumption): what was half read of the last one is dropped;
    /// the last event id and `retry` stay.
    pub fn new_stream(&mut self) {
        self.line.clear();
        self.data.clear();
        self.has_data = false;
        self.id = None;
    }

    /// Feeds a chunk; the events it completes.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, TooLong> {
        let mut events = Vec::new();
        for &b in chunk {
            if b == b'\n' {
                if self.line.last() == Some(&b'\r') {
                    self.line.pop();
                }
                let line = std::mem::take(&mut self.line);
                if let Some(event) = self.take_line(&line) {
                    events.push(event);
                }
            } else {
                if self.line.len() + self.data.len() >= self.max_event {
                    return Err(TooLong(self.max_event));
                }
                self.line.push(b);
            }
        }
        Ok(events)
    }

    fn take_line(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            let data = std::mem::take(&mut self.data);
            // An event without data (only an id, a retry, a comment) dispatches nothing.
            let event = std::mem::take(&mut self.has_data).then(|| SseEvent { data, id: self.id.take() });
            self.id = None;
            return event;
        }
        if line.starts_with(b":") {
            return None;
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(i) => (&line[..i], line[i + 1..].strip_prefix(b" ").unwrap_or(&line[i + 1..])),
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"id" if !value.contains(&0) => {
                let id = String::from_utf8_lossy(value).into_owned();
                self.last_id = Some(id.clone());
                self.id = Some(id);
            }
            b"retry" => {
                if let Some(ms) = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                    self.retry_ms = Some(ms);
                }
            }
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_events_across_chunks_with_ids_retry_and_comments() {
        let mut r = SseReader::new(1 << 10);
        let mut got = r.feed(b": hello\nretry: 250\nid: a1\ndata: {\"x\"").unwrap();
        assert!(got.is_empty());
        got.extend(r.feed(b":1}\r\n\r\nid: a2\n\ndata: one\ndata:two\n\n").unwrap());
        assert_eq!(got, [SseEvent { data: br#"{"x":1}"#.to_vec(), id: Some("a1".into()) }, SseEvent { data: b"one\ntwo".to_vec(), id: None }]);
        assert_eq!((r.retry_ms, r.last_id.as_deref()), (Some(250), Some("a2")));
    }

    #[test]
    fn an_event_past_the_bound_is_an_error() {
        let mut r = SseReader::new(16);
        assert_eq!(r.feed(b"data: 0123456789\ndata: 0123456789\n\n"), Err(TooLong(16)));
        let mut r = SseReader::new(16);
        assert_eq!(r.feed(b"data: 012345\n\n").unwrap().len(), 1);
    }
}
