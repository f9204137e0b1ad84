//! The small text formats inside a HAR: SSE streams, base64 bodies and `startedDateTime`.

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The `id` in force when the event was dispatched (the last event id, as the SSE rules keep it).
    pub id: Option<String>,
    /// The `event` field, if the event had one (MCP sends the default, `message`).
    pub event: Option<String>,
    /// Whether the event set its id itself (an `id` field), rather than keeping the last one.
    pub own_id: bool,
    /// The `retry` field (milliseconds), if the event had a valid one.
    pub retry: Option<u64>,
}

/// What an SSE body held: the events a client would have dispatched, and whether the body ended
/// inside an event (which the SSE rules discard).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sse {
    pub events: Vec<SseEvent>,
    /// Bytes of `data` in an event the body ended before the blank line that dispatches it.
    pub unterminated: Option<usize>,
    /// A `retry` field in a block that dispatched no event (no `data`): it still takes effect.
    pub lone_retry: Option<u64>,
}

/// Parses a whole SSE body by the event-stream rules ([`crate::sse`], the parser `proxy --http`
/// runs on live streams).
pub fn parse_sse(body: &str) -> Sse {
    let mut parser = crate::sse::SseParser::new(usize::MAX);
    let mut out = Sse::default();
    parser.push(body.as_bytes(), |e| out.events.push(SseEvent { data: e.data, id: e.id, event: e.event, own_id: e.has_id, retry: e.retry }));
    out.unterminated = parser.finish();
    out.lone_retry = parser.lone_retry;
    out
}

// base64 also decodes the Mcp-Name sentinel (transport), so it lives in the leaf `input`.
pub use crate::input::base64;

/// `startedDateTime` (ISO 8601 with a zone, as HAR 1.2 requires) as nanoseconds since 1970, to
/// order entries; `None` if it is not such a date.
pub fn instant(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> { b.get(r.clone()).filter(|d| d.iter().all(u8::is_ascii_digit)).and_then(|_| s[r].parse().ok()) };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b'T' | b't' | b' ')) || b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
        return None;
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut i = 19;
    let mut nanos = 0i128;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            if i - start < 9 {
                nanos = nanos * 10 + i128::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        nanos *= 10i128.pow(9u32.saturating_sub((i - start) as u32));
    }
    let offset = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&c @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
            let m = num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?;
            if c == b'-' {
                -m
            } else {
                m
            }
        }
        _ => return None,
    };
    // Days from the civil date (proleptic Gregorian).
    let (y, m) = if mo <= 2 { (y - 1, mo + 9) } else { (y, mo - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset * 60;
    Some(i128::from(secs) * 1_000_000_000 + nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(data: &str, id: Option<&str>) -> SseEvent {
        SseEvent { data: data.into(), id: id.map(Into::into), event: None, own_id: id.is_some(), retry: None }
    }

    #[test]
    fn sse_lines_end_three_ways() {
        let s = parse_sse(": hi\r\nid: 1\r\ndata: {\"a\":\r\ndata:1}\r\n\r\nid: 2\rdata: x\r\rdata: y\n\n");
        assert_eq!(s.events, vec![ev("{\"a\":\n1}", Some("1")), ev("x", Some("2")), SseEvent { own_id: false, ..ev("y", Some("2")) }]);
        assert_eq!(s.unterminated, None);
    }

    #[test]
    fn sse_priming_event_and_types() {
        let s = parse_sse("id: p\ndata:\n\nevent: message\ndata: z\nid\n\n");
        assert_eq!(s.events, vec![ev("", Some("p")), SseEvent { data: "z".into(), id: Some(String::new()), event: Some("message".into()), own_id: true, retry: None }]);
        // `retry` on an event, and alone (not dispatched, still in effect).
        let s = parse_sse("retry: 500\nid: a\ndata:\n\nretry: x\ndata: 1\n\nretry: 9\n\n");
        assert_eq!((s.events[0].retry, s.events[1].retry, s.lone_retry), (Some(500), None, Some(9)));
        // No data at all: nothing dispatched.
        assert!(parse_sse("id: 3\n\n").events.is_empty());
    }

    #[test]
    fn sse_unterminated_event_is_not_dispatched() {
        let s = parse_sse("data: a\n\ndata: b\ndata: c");
        assert_eq!(s.events, vec![ev("a", None)]);
        assert_eq!(s.unterminated, Some(3));
        assert_eq!(parse_sse("data: a\n").unterminated, Some(2));
    }

    #[test]
    fn base64_decodes_and_refuses_garbage() {
        assert_eq!(base64("eyJhIjoxfQ==").unwrap(), b"{\"a\":1}");
        assert_eq!(base64("eyJh\nIjoxfQ").unwrap(), b"{\"a\":1}");
        assert!(base64("ey*J").is_err());
        assert!(base64("eyJ=a").is_err());
        assert!(base64("a").is_err());
    }

    #[test]
    fn instants_order_across_zones() {
        let a = instant("2025-01-02T10:00:00.5Z").unwrap();
        let b = instant("2025-01-02T11:00:00.400+01:00").unwrap();
        assert!(b < a);
        assert_eq!(instant("1970-01-01T00:00:01Z"), Some(1_000_000_000));
        for bad in ["", "2025-01-02", "2025-13-02T10:00:00Z", "2025-01-02T10:00:00", "2025-01-02T10:00:00.Z", "é025-01-02T10:00:00Z"] {
            assert_eq!(instant(bad), None, "{bad}");
        }
    }
}
