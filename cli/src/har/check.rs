//! A HAR's messages through the checker, in time order, each finding naming its entry and place.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};

use mcp_spec_types::tree::Doc;

use super::plan::{Plan, Planner};
use super::read::{read_entries, RawEntry};
use super::{Body, Content, Entry, HarStats, Part, Piece, FILE_MAX, UNTERMINATED};
use crate::check::Checker;
use crate::vocab::{Diag, Direction, Outcome};
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

/// Checks the HAR read from `r` (give it buffered; it is read twice, so a file): findings go to
/// `rep` under `name`, with `line` the entry's index and `place` the entry's HTTP context and the
/// message's place in it. Each session (`Mcp-Session-Id`, the request's or else the response's) is
/// a stream of its own, in the order the sessions start; `end_stream` ends each but the last (the
/// caller ends that one, as it does a file's), and the checker is reset between them. The first
/// pass decides which entries are MCP and their order ([`plan`](super::plan)); the second checks
/// each as soon as its turn comes, holding at most `held_max` bytes of entries read before their
/// turn. Returns the counts.
pub fn check_har<R: BufRead + Seek, W: Write>(
    checker: &mut Checker,
    name: &str,
    mut r: R,
    held_max: usize,
    rep: &mut Reporter<W>,
    end_stream: &mut dyn FnMut(&mut Checker, &mut Reporter<W>) -> io::Result<()>,
) -> io::Result<HarStats> {
    let mut stats = HarStats::default();
    let mut planner = Planner::default();
    let mut repeated = Vec::new();
    skip_bom(&mut r)?;
    let mut index = 0;
    let stopped = read_entries(
        Limit { inner: &mut r, left: FILE_MAX },
        &mut |raw| {
            planner.take(&Entry::from_raw(index, raw), &mut stats);
            index += 1;
        },
        &mut repeated,
    )
    .err();
    let plan = planner.finish(&mut stats);
    r.seek(SeekFrom::Start(0)).map_err(|e| io::Error::other(format!("a HAR is read twice, and this one cannot be read again: {e}")))?;
    skip_bom(&mut r)?;
    let mut run = Run::new(plan, held_max, checker, name, rep, end_stream);
    let mut index = 0;
    // The same entries again: where this pass stops, the first one did.
    let _ = read_entries(
        Limit { inner: &mut r, left: FILE_MAX },
        &mut |raw| {
            run.arrive(index, raw);
            index += 1;
        },
        &mut Vec::new(),
    );
    run.finish()?;
    let (held_out, first_out) = (run.held_out, run.first_out);
    (stats.messages, stats.held_out) = (run.messages, held_out);
    drop(run);
    let mut notes = Vec::new();
    if let Some(first) = first_out {
        let msg = format!("{held_out} MCP entries not checked, from entry {first} on: holding the entries read before their turn to be checked (a later session's, or entries out of time order) would pass the budget of {held_max} bytes (`check --har-held`)");
        notes.push((first as u64, diag("", "har.held", Severity::Error, msg)));
    }
    if !repeated.is_empty() {
        let msg = format!("a key appears more than once: {}; JSON readers disagree on which one counts (names should be unique, RFC 8259 section 4), so only the first was read", repeated.join(", "));
        notes.push((0, diag("", "har", Severity::Error, msg)));
    }
    if let Some(e) = stopped {
        let what = if e.contains(CUT) { format!("the HAR is larger than {FILE_MAX} bytes: checked up to there") } else { format!("not a HAR (or cut short): {e}") };
        notes.push((stats.entries as u64, diag("", "har", Severity::Error, what)));
    }
    for (line, d) in notes {
        let o = Outcome { line, place: Some(format!("entry {line}")), diags: vec![d], ..Outcome::default() };
        rep.outcome(name, &o)?;
    }
    Ok(stats)
}

/// HAR 1.2: a file is UTF-8, and readers accept a byte order mark at its start and ignore it.
fn skip_bom<R: BufRead>(r: &mut R) -> io::Result<()> {
    if r.fill_buf()?.starts_with(b"\xef\xbb\xbf") {
        r.consume(3);
    }
    Ok(())
}

const CUT: &str = "HAR file limit";

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
    let Content::Msg(text) = &p.content else { return None };
    let doc = Doc::parse(text).ok()?;
    let m = doc.root().as_object()?;
    if !m.contains_key("method") && (m.contains_key("result") || m.contains_key("error")) {
        m.get("id").map(|id| id.to_string())
    } else {
        None
    }
}

/// Where an entry is in the second pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not read yet.
    Waiting,
    /// Read and held, waiting for its turn in time order (the transport rules).
    Read,
    /// Through the transport rules, held until its session's turn (the checker).
    Transported,
    Checked,
    /// Not checked: holding it would have passed the budget (or the file ended before it).
    Out,
}

/// The second pass: entries arrive in file order and are checked in the plan's orders as soon as
/// each one's turn comes; those read before their turn are held.
struct Run<'a, W: Write> {
    checker: &'a mut Checker,
    name: &'a str,
    rep: &'a mut Reporter<W>,
    end_stream: &'a mut dyn FnMut(&mut Checker, &mut Reporter<W>) -> io::Result<()>,
    plan: Plan,
    state: Vec<State>,
    /// Entries held (by position in the plan) with their weight, and what the transport rules found on each.
    held: HashMap<u32, (Entry, usize)>,
    found: HashMap<u32, Vec<(Option<usize>, Diag)>>,
    held_bytes: usize,
    held_max: usize,
    /// The next position in `plan.indexes` an arriving entry may be.
    next: usize,
    /// The transport rules over every entry in time order (sessions interleaved, as they happened).
    transport: crate::transport::Transport,
    by_time: usize,
    by_session: usize,
    /// How many sessions after the first were started.
    sessions: usize,
    group: Group,
    messages: usize,
    held_out: usize,
    first_out: Option<u32>,
    error: Option<io::Error>,
}

impl<'a, W: Write> Run<'a, W> {
    fn new(plan: Plan, held_max: usize, checker: &'a mut Checker, name: &'a str, rep: &'a mut Reporter<W>, end_stream: &'a mut dyn FnMut(&mut Checker, &mut Reporter<W>) -> io::Result<()>) -> Self {
        Run {
            checker,
            name,
            rep,
            end_stream,
            state: vec![State::Waiting; plan.indexes.len()],
            plan,
            held: HashMap::new(),
            found: HashMap::new(),
            held_bytes: 0,
            held_max,
            next: 0,
            transport: crate::transport::Transport::new("entry"),
            by_time: 0,
            by_session: 0,
            sessions: 0,
            group: Group::default(),
            messages: 0,
            held_out: 0,
            first_out: None,
            error: None,
        }
    }

    /// Entry `index` of the file, as read.
    fn arrive(&mut self, index: usize, raw: RawEntry) {
        let Some(&want) = self.plan.indexes.get(self.next) else { return };
        if self.error.is_some() || want as usize != index {
            return;
        }
        let pos = self.next as u32;
        self.next += 1;
        let e = Entry::from_raw(index, raw);
        let weight = e.weight();
        self.held.insert(pos, (e, weight));
        self.held_bytes += weight;
        self.state[pos as usize] = State::Read;
        if let Err(e) = self.advance() {
            self.error = Some(e);
            return;
        }
        // Its turn has not come: it stays, if it fits.
        if self.held_bytes > self.held_max && self.held.contains_key(&pos) {
            self.drop_out(pos);
        }
    }

    fn drop_out(&mut self, pos: u32) {
        if let Some((_, w)) = self.held.remove(&pos) {
            self.held_bytes -= w;
        }
        self.found.remove(&pos);
        self.state[pos as usize] = State::Out;
        self.held_out += 1;
        let index = self.plan.indexes[pos as usize];
        self.first_out = Some(self.first_out.map_or(index, |f| f.min(index)));
    }

    /// Runs the transport rules and the checker as far as the entries read allow.
    fn advance(&mut self) -> io::Result<()> {
        while let Some(pos) = self.plan.by_time(self.by_time) {
            match self.state[pos as usize] {
                State::Waiting => break,
                State::Read => {
                    let (e, _) = &self.held[&pos];
                    let mut out = Vec::new();
                    e.feed(&e.pieces(), &self.plan.cancelled(e), &mut self.transport, &mut out);
                    if !out.is_empty() {
                        self.found.insert(pos, out);
                    }
                    self.state[pos as usize] = State::Transported;
                }
                _ => {}
            }
            self.by_time += 1;
        }
        while let Some(pos) = self.plan.by_session(self.by_session) {
            let state = self.state[pos as usize];
            if matches!(state, State::Waiting | State::Read) {
                break;
            }
            if self.plan.session_starts.get(self.sessions) == Some(&self.by_session) {
                // The next session: the last one ends (its 2024-11-05 streams' messages left, its end rules).
                self.group.finish(self.checker, self.name, self.rep, &mut self.messages)?;
                (self.end_stream)(self.checker, self.rep)?;
                self.checker.reset_stream();
                self.sessions += 1;
            }
            if state == State::Transported {
                let (e, w) = self.held.remove(&pos).expect("a transported entry is held");
                self.held_bytes -= w;
                let found = self.found.remove(&pos).unwrap_or_default();
                self.group.check(e, found, self.checker, self.name, self.rep, &mut self.messages)?;
                self.state[pos as usize] = State::Checked;
            }
            self.by_session += 1;
        }
        Ok(())
    }

    /// The end of the file: entries it never reached are out, the rest is checked.
    fn finish(&mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        for pos in 0..self.state.len() {
            if self.state[pos] == State::Waiting {
                self.state[pos] = State::Out;
            }
        }
        self.advance()?;
        self.group.finish(self.checker, self.name, self.rep, &mut self.messages)
    }
}

/// One session's state in the second pass: its 2024-11-05 HTTP+SSE streams, and the ids its
/// client's requests used.
#[derive(Default)]
struct Group {
    streams: Vec<Legacy>,
    asked: HashSet<String>,
}

/// A 2024-11-05 HTTP+SSE stream: the GET (without its bodies), what the transport rules found on
/// it, and its pieces not checked yet, each with the id it answers.
struct Legacy {
    entry: Entry,
    found: Vec<(Option<usize>, Diag)>,
    queue: VecDeque<(usize, Piece, Option<String>)>,
}

impl Group {
    /// Checks one entry of the session. A 2024-11-05 HTTP+SSE stream (a GET whose first event is
    /// `endpoint`) carries the server's messages for the whole session while the client POSTs its
    /// own, and a HAR keeps no time per event: so its messages are checked after the POSTs, each
    /// response once the POST of its request was checked, with what precedes it on the stream.
    fn check<W: Write>(&mut self, mut e: Entry, found: Vec<(Option<usize>, Diag)>, checker: &mut Checker, name: &str, rep: &mut Reporter<W>, messages: &mut usize) -> io::Result<()> {
        let pieces = e.pieces();
        if e.is_legacy_stream(&pieces) {
            check_entry(checker, name, &e, Vec::new(), true, &found, rep, messages)?;
            // The stream's events are its pieces now: its text is not needed again.
            e.request = Body::Empty;
            e.response = Body::Empty;
            let queue = pieces
                .into_iter()
                .enumerate()
                .map(|(k, p)| {
                    let id = response_id(&p);
                    (k, p, id)
                })
                .collect();
            self.streams.push(Legacy { entry: e, found, queue });
        } else {
            for p in pieces.iter().filter(|p| p.part == Part::Request) {
                if let Content::Msg(text) = &p.content {
                    if let Some(m) = Doc::parse(text).ok().as_ref().and_then(|d| d.root().as_object()) {
                        if let (Some(_), Some(id)) = (m.get("method"), m.get("id")) {
                            self.asked.insert(id.to_string());
                        }
                    }
                }
            }
            // A stateless version's entry is an exchange of its own (mcp-spec-check's scope.rs).
            let own = e.stateless();
            if own {
                checker.begin_exchange(e.at.x);
            }
            check_entry(checker, name, &e, pieces.into_iter().enumerate().collect(), true, &found, rep, messages)?;
            if own {
                checker.end_exchange(e.at.x);
            }
        }
        for s in &mut self.streams {
            // Up to the last response whose request was sent: what comes after it waits for the next POST.
            let mut upto = 0;
            for (k, (_, _, id)) in s.queue.iter().enumerate() {
                match id {
                    Some(id) if self.asked.contains(id) => upto = k + 1,
                    Some(_) => break,
                    None => {}
                }
            }
            let ready: Vec<(usize, Piece)> = s.queue.drain(..upto).map(|(k, p, _)| (k, p)).collect();
            check_entry(checker, name, &s.entry, ready, false, &s.found, rep, messages)?;
        }
        Ok(())
    }

    /// The end of the session: what its 2024-11-05 streams still hold.
    fn finish<W: Write>(&mut self, checker: &mut Checker, name: &str, rep: &mut Reporter<W>, messages: &mut usize) -> io::Result<()> {
        for s in std::mem::take(&mut self.streams) {
            check_entry(checker, name, &s.entry, s.queue.into_iter().map(|(k, p, _)| (k, p)).collect(), false, &s.found, rep, messages)?;
        }
        self.asked.clear();
        Ok(())
    }
}

/// Checks `pieces` of an entry (index and piece), after the findings on the entry as a whole when `head`.
#[allow(clippy::too_many_arguments)]
fn check_entry<W: Write>(checker: &mut Checker, name: &str, e: &Entry, pieces: Vec<(usize, Piece)>, head: bool, transport: &[(Option<usize>, Diag)], rep: &mut Reporter<W>, messages: &mut usize) -> io::Result<()> {
    let line = e.at.line;
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
            Content::Msg(text) => {
                *messages += 1;
                let dir = if part == Part::Request { Direction::ClientToServer } else { Direction::ServerToClient };
                // The one message parsed at a time (it parsed as JSON when the entry was read).
                let doc = Doc::parse(&text).unwrap_or_else(|_| Doc::parse("null").expect("JSON"));
                let mut o = checker.check_wrapped(dir, doc.root(), line);
                drop(doc);
                drop(text);
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
    fn reading_stops_at_the_file_limit() {
        let har = br#"{"log": {"entries": [{"request": {"url": "http://h/"}}, {"request": {"url": "http://h/"}}]}}"#;
        let e = read_entries(Limit { inner: &har[..], left: 40 }, &mut |_| {}, &mut Vec::new()).unwrap_err();
        assert!(e.contains(CUT), "{e}");
        let mut n = 0;
        read_entries(Limit { inner: &har[..], left: har.len() as u64 }, &mut |_| n += 1, &mut Vec::new()).unwrap();
        assert_eq!(n, 2);
    }
}
