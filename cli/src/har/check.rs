//! A HAR's messages through the checker, in time order, each finding naming its entry and place.

use std::io::{self, Read, Write};

use std::collections::{HashSet, VecDeque};

use serde_json::{json, Value};

use super::read::read_entries;
use super::{Content, Entry, HarStats, Part, Piece, Skip, FILE_MAX, HELD_MAX, UNTERMINATED};
use crate::check::Checker;
use crate::vocab::{Diag, Outcome};
use crate::report::Reporter;
use mcp_spec_types::validate::Severity;

/// Whether the first bytes of a file are a HAR's: a JSON object whose first key is `log` (what
/// every HAR writer puts first). Used when the name does not end in `.har`.
pub fn looks_like_har(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let ws = |b: &&u8| b" \t\r\n".contains(b);
    let mut it = head.iter().skip_while(ws);
    if it.next() != Some(&b'{') {
        return false;
    }
    let rest: Vec<u8> = it.skip_while(ws).take(5).copied().collect();
    rest == b"\"log\""
}

/// Checks the HAR read from `r` (give it buffered): findings go to `rep` under `name`, with `line`
/// the entry's index and `place` the entry's HTTP context and the message's place in it. Each
/// session (`Mcp-Session-Id`, the request's or else the response's) is a stream of its own, in the
/// order the sessions start; `end_stream` ends each but the last (the caller ends that one, as it
/// does a file's), and the checker is reset between them. Returns the counts.
pub fn check_har<R: Read, W: Write>(
    checker: &mut Checker,
    name: &str,
    r: R,
    rep: &mut Reporter<W>,
    end_stream: &mut dyn FnMut(&mut Checker, &mut Reporter<W>) -> io::Result<()>,
) -> io::Result<HarStats> {
    let mut stats = HarStats::default();
    let mut entries = Vec::new();
    let stopped = read_entries(Limit { inner: r, left: FILE_MAX }, &mut entries, &mut stats).err();
    let mut order: Vec<(i128, usize)> = Vec::with_capacity(entries.len());
    // An entry with no readable time keeps its predecessor's, so it stays after it; equal times keep file order.
    let mut last = i128::MIN;
    for (i, e) in entries.iter().enumerate() {
        let t = e.started.unwrap_or(last);
        stats.reordered |= t < last;
        last = last.max(t);
        order.push((t, i));
    }
    if stats.reordered {
        order.sort_by_key(|&(t, i)| (t, i));
    }
    let transport = transport_findings(&entries, &order);
    for (n, group) in by_session(&entries, &order).iter().enumerate() {
        if n > 0 {
            end_stream(checker, rep)?;
            checker.reset_stream();
        }
        check_group(checker, name, &entries, group, &transport, rep, &mut stats)?;
    }
    if let Some(e) = stopped {
        let what = if e.contains(CUT) { format!("the HAR is larger than {FILE_MAX} bytes: checked up to there") } else { format!("not a HAR (or cut short): {e}") };
        let o = Outcome { line: stats.entries as u64, place: Some(format!("entry {}", stats.entries)), diags: vec![diag("", "har", Severity::Error, what)], ..Outcome::default() };
        rep.outcome(name, &o)?;
    }
    Ok(stats)
}

const CUT: &str = "HAR file limit";

/// Sessions checked apart in one HAR; the entries of any later session join the entries without one.
const SESSIONS_MAX: usize = 256;

/// The entries (indexes, in `order`) grouped by session, the groups in the order their first
/// entry comes; entries without a session id are one group of their own.
fn by_session(entries: &[Entry], order: &[(i128, usize)]) -> Vec<Vec<usize>> {
    let mut keys: Vec<Option<&str>> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &(_, i) in order {
        let mut key = entries[i].at.session_id.as_deref();
        if key.is_some() && !keys.contains(&key) && keys.len() >= SESSIONS_MAX {
            key = None;
        }
        let g = match keys.iter().position(|k| *k == key) {
            Some(g) => g,
            None => {
                keys.push(key);
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        groups[g].push(i);
    }
    groups
}

/// The transport rules over every entry in time order (sessions interleaved, as they happened):
/// per entry, each finding with the piece it is about (`None`: the entry's request or response).
fn transport_findings(entries: &[Entry], order: &[(i128, usize)]) -> Vec<Vec<(Option<usize>, Diag)>> {
    let mut t = crate::transport::Transport::new("entry");
    let mut out: Vec<Vec<(Option<usize>, Diag)>> = entries.iter().map(|_| Vec::new()).collect();
    for &(_, i) in order {
        let e = &entries[i];
        if e.skip == Some(Skip::HeldFull) {
            continue;
        }
        e.feed(&e.pieces(), &mut t, &mut out[i]);
    }
    out
}

/// Reads at most `left` bytes; one more is an error (so serde reports where it stopped).
struct Limit<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Limit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(io::Error::other(CUT));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

fn diag(pointer: &str, rule: &'static str, severity: Severity, message: String) -> Diag {
    Diag { pointer: pointer.to_string(), rule, severity, message }
}

/// A response's id, as text (`None` for anything else: a request, a notification, a batch).
fn response_id(p: &Piece) -> Option<String> {
    match &p.content {
        Content::Msg(Value::Object(m)) if !m.contains_key("method") && (m.contains_key("result") || m.contains_key("error")) => m.get("id").map(Value::to_string),
        _ => None,
    }
}

/// Checks one session's entries in order. A 2024-11-05 HTTP+SSE stream (a GET whose first event is
/// `endpoint`) carries the server's messages for the whole session while the client POSTs its own,
/// and a HAR keeps no time per event: so its messages are checked after the POSTs, each response
/// once the POST of its request was checked, with what precedes it on the stream.
fn check_group<W: Write>(checker: &mut Checker, name: &str, entries: &[Entry], group: &[usize], transport: &[Vec<(Option<usize>, Diag)>], rep: &mut Reporter<W>, stats: &mut HarStats) -> io::Result<()> {
    let mut streams: Vec<(usize, VecDeque<(usize, Piece)>)> = Vec::new();
    let mut asked: HashSet<String> = HashSet::new();
    for &i in group {
        let e = &entries[i];
        let pieces = e.pieces();
        let legacy = e.at.method.as_deref() == Some("GET") && pieces.iter().find(|p| p.part == Part::Response).and_then(|p| p.sse.as_ref()).is_some_and(|m| m.kind.as_deref() == Some("endpoint"));
        if legacy {
            check_entry(checker, name, e, Vec::new(), true, &transport[i], rep, stats)?;
            streams.push((i, pieces.into_iter().enumerate().collect()));
        } else {
            for p in pieces.iter().filter(|p| p.part == Part::Request) {
                if let Content::Msg(Value::Object(m)) = &p.content {
                    if let (Some(_), Some(id)) = (m.get("method"), m.get("id")) {
                        asked.insert(id.to_string());
                    }
                }
            }
            check_entry(checker, name, e, pieces.into_iter().enumerate().collect(), true, &transport[i], rep, stats)?;
        }
        for (s, queue) in &mut streams {
            // Up to the last response whose request was sent: what comes after it waits for the next POST.
            let mut upto = 0;
            for (k, (_, p)) in queue.iter().enumerate() {
                match response_id(p) {
                    Some(id) if asked.contains(&id) => upto = k + 1,
                    Some(_) => break,
                    None => {}
                }
            }
            let ready: Vec<(usize, Piece)> = queue.drain(..upto).collect();
            check_entry(checker, name, &entries[*s], ready, false, &transport[*s], rep, stats)?;
        }
    }
    for (s, queue) in streams {
        check_entry(checker, name, &entries[s], queue.into_iter().collect(), false, &transport[s], rep, stats)?;
    }
    Ok(())
}

/// Checks `pieces` of an entry (index and piece), after the findings on the entry as a whole when `head`.
#[allow(clippy::too_many_arguments)]
fn check_entry<W: Write>(checker: &mut Checker, name: &str, e: &Entry, pieces: Vec<(usize, Piece)>, head: bool, transport: &[(Option<usize>, Diag)], rep: &mut Reporter<W>, stats: &mut HarStats) -> io::Result<()> {
    let line = e.at.line;
    if head && e.skip == Some(Skip::HeldFull) {
        let msg = format!("not checked: the MCP bodies held to order the entries reached {HELD_MAX} bytes");
        let o = Outcome { line, place: Some(e.at.place(None, None)), diags: vec![diag("", "har.held", Severity::Error, msg)], ..Outcome::default() };
        return rep.outcome(name, &o);
    }
    // What the transport rules found on the entry's request or response as a whole.
    let whole: Vec<Diag> = transport.iter().filter(|(p, _)| head && p.is_none()).map(|(_, d)| checker.strictly(d.clone())).collect();
    if !whole.is_empty() {
        let mut o = Outcome { line, place: Some(e.at.place(None, None)), http: Some(e.at.http(None, None)), diags: whole, ..Outcome::default() };
        checker.bound(&mut o);
        rep.outcome(name, &o)?;
    }
    for (n, Piece { part, event, content, .. }) in pieces {
        let tpart = if part == Part::Request { crate::transport::Part::Request } else { crate::transport::Part::Response };
        let ev = event.as_ref().map(|(i, id)| (*i as u64, id.as_deref()));
        let own: Vec<Diag> = transport.iter().filter(|(p, _)| *p == Some(n)).map(|(_, d)| checker.strictly(d.clone())).collect();
        let mut o = match content {
            Content::Msg(msg) => {
                stats.messages += 1;
                let dir = if part == Part::Request { "c2s" } else { "s2c" };
                let mut o = checker.check_value(json!({"dir": dir, "msg": msg}), line);
                // Pointers into the message itself: the wrapper is the checker's, not the file's.
                for d in &mut o.diags {
                    if let Some(p) = d.pointer.strip_prefix("/msg") {
                        d.pointer = p.to_string();
                    }
                }
                o
            }
            // An event without a message is context: an outcome only if a transport rule reports on it.
            Content::Bare if own.is_empty() => continue,
            Content::Bare => Outcome { line, ..Outcome::default() },
            Content::Bad(why) if why.starts_with(UNTERMINATED) => Outcome { line, diags: vec![diag("", "sse.unterminated", Severity::Warning, why)], ..Outcome::default() },
            Content::Bad(why) => {
                let rule = if why.contains("not JSON") { "json" } else { "har.body" };
                Outcome { line, diags: vec![diag("", rule, Severity::Error, why)], ..Outcome::default() }
            }
        };
        if !own.is_empty() {
            o.diags.extend(own);
            checker.bound(&mut o);
        }
        o.place = Some(e.at.place(Some(tpart), ev));
        o.http = Some(e.at.http(Some(tpart), ev));
        rep.outcome(name, &o)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        assert!(looks_like_har(b"\xef\xbb\xbf {\n  \"log\": {"));
        assert!(looks_like_har(b"{\"log\""));
        assert!(!looks_like_har(b"{\"jsonrpc\":\"2.0\"}"));
        assert!(!looks_like_har(b"{\"lo"));
        assert!(!looks_like_har(b""));
    }

    #[test]
    fn entries_are_grouped_by_session_and_the_number_of_groups_is_bounded() {
        let entry = |session: Option<String>| Entry {
            at: crate::transport::Where { session_id: session, ..Default::default() },
            query: None,
            req: Default::default(),
            resp: Default::default(),
            started: None,
            request: Default::default(),
            response: Default::default(),
            skip: None,
        };
        // No id, A, B, A: three groups in the order they start, A's entries together.
        let entries: Vec<Entry> = [None, Some("A"), Some("B"), Some("A")].iter().map(|s| entry(s.map(str::to_owned))).collect();
        let order: Vec<(i128, usize)> = (0..entries.len()).map(|i| (0, i)).collect();
        assert_eq!(by_session(&entries, &order), vec![vec![0], vec![1, 3], vec![2]]);
        // Past the limit, later sessions join the entries without an id.
        let entries: Vec<Entry> = (0..SESSIONS_MAX + 10).map(|i| entry(Some(format!("s{i}")))).collect();
        let order: Vec<(i128, usize)> = (0..entries.len()).map(|i| (0, i)).collect();
        let groups = by_session(&entries, &order);
        assert_eq!(groups.len(), SESSIONS_MAX + 1);
        assert_eq!(groups[SESSIONS_MAX], (SESSIONS_MAX..SESSIONS_MAX + 10).collect::<Vec<_>>());
    }

    #[test]
    fn reading_stops_at_the_file_limit() {
        let har = br#"{"log": {"entries": [{"request": {"url": "http://h/"}}, {"request": {"url": "http://h/"}}]}}"#;
        let (mut out, mut stats) = (Vec::new(), HarStats::default());
        let e = read_entries(Limit { inner: &har[..], left: 40 }, &mut out, &mut stats).unwrap_err();
        assert!(e.contains(CUT), "{e}");
        let mut stats = HarStats::default();
        read_entries(Limit { inner: &har[..], left: har.len() as u64 }, &mut out, &mut stats).unwrap();
        assert_eq!(stats.entries, 2);
    }
}
