//! The properties of the CLI's fuzz targets: the checker's session rules (`session`) and the
//! proxy's line handling (`proxy_lines`). See tests/HOSTILE.md, section Fuzzing.

use mcp_spec_types_cli::args::CheckArgs;
use mcp_spec_types_cli::check::{Checker, Direction, Outcome, PENDING_CAP};
use mcp_spec_types_cli::proxy::{self, Line, LineSplitter};
use mcp_spec_types_cli::report::Reporter;
use mcp_spec_types_cli::session::{SESSION_CAP, SUMMARY_METHODS_CAP, UNANSWERED_LISTED};
use mcp_spec_types_cli::versions::EXTENSIONS;
use mcp_spec_types_cli::vocab::dir_name;
use mcp_spec_types_cli::MAX_LINE;
use mcp_spec_types::validate::Severity;

use crate::show;

/// The checker's settings for an input: session rules on, `--ext apps`, and `--ext tasks` for every other
/// setting; strictness, the findings cap and the report format come from the input's length, so every seed
/// gets one setting and mutations try the others.
fn args_for(knob: usize) -> CheckArgs {
    let ext = |name: &str| EXTENSIONS.iter().position(|e| e.name == name).expect("the CLI knows the extension");
    let mut extensions = vec![ext("apps")];
    if knob & 16 == 16 {
        extensions.push(ext("tasks"));
    }
    CheckArgs { extensions, strict: knob & 1 == 1, json: knob & 8 == 8, max_findings: 1 + (knob >> 1) % 4, ..CheckArgs::default() }
}

/// Rows of `--summary`'s message counts past [`SUMMARY_METHODS_CAP`]: one `(other)` row per
/// leg (none, `client`, `server`), direction (`c2s`, `s2c`, `?`, the two MCP Apps sides) and
/// kind (request, notification, result, error).
const OTHER_ROWS: usize = 3 * 5 * 4;

/// What must hold of every outcome: findings within the cap (the rest counted), each with a
/// JSON pointer and a rule id, and the text report of it at most the cap plus its summary line.
fn check_outcome(o: &Outcome, a: &CheckArgs, input: &[u8]) {
    assert!(o.diags.len() <= a.max_findings, "line {}: {} findings kept, the cap is {}\ninput: {}", o.line, o.diags.len(), a.max_findings, show(input));
    assert!(o.omitted_errors <= o.omitted, "line {}: more omitted errors than omitted findings", o.line);
    for d in &o.diags {
        assert!(d.pointer.is_empty() || d.pointer.starts_with('/'), "line {}: `{}` is not a JSON pointer ({})\ninput: {}", o.line, d.pointer, d.rule, show(input));
        assert!(!d.rule.is_empty() && !d.rule.contains(char::is_whitespace), "line {}: rule id `{}`", o.line, d.rule);
        assert!(!d.message.is_empty(), "line {}: a finding without a message ({})", o.line, d.rule);
    }
    let mut out = Vec::new();
    let mut rep = Reporter::new(&mut out, a.json);
    rep.outcome("f", o).expect("writing to memory");
    let printed = out.iter().filter(|&&b| b == b'\n').count();
    let most = if a.json { 1 } else { a.max_findings + 1 };
    assert!(printed <= most, "line {}: {printed} report lines for one outcome (at most {most})\ninput: {}", o.line, show(input));
}

/// The session's tables stay within their caps (what the public accessors show).
fn check_tables(c: &Checker, input: &[u8]) {
    assert!(c.pending_requests() <= 2 * PENDING_CAP, "{} pending requests\ninput: {}", c.pending_requests(), show(input));
    assert!(c.session().waiting() <= 2 * SESSION_CAP, "{} requests waiting in the session\ninput: {}", c.session().waiting(), show(input));
    let rows = c.session().message_counts().len();
    assert!(rows <= SUMMARY_METHODS_CAP + OTHER_ROWS, "{rows} message-count rows\ninput: {}", show(input));
}

/// `session`: the input is JSONL (wrapper lines `{"dir":..,"msg":..}`), checked line by line as
/// `mcp-schema check --ext apps` does, then the end of the stream. Never panics; findings
/// within the cap; tables within their caps.
pub fn session(data: &[u8]) {
    let a = args_for(data.len());
    let mut checker = Checker::new(&a);
    let mut number = 0u64;
    for line in data.split(|&b| b == b'\n') {
        number += 1;
        if let Some(o) = checker.check_line(line, number) {
            assert_eq!(o.line, number, "an outcome on another line");
            check_outcome(&o, &a, data);
        }
        check_tables(&checker, data);
    }
    let end = checker.finish_stream();
    for o in &end.outcomes {
        assert!(o.line >= 1 && o.line <= number, "a late finding on line {} of {number}", o.line);
        check_outcome(o, &a, data);
    }
    assert!(end.unanswered.len() <= UNANSWERED_LISTED && end.unanswered.len() <= end.unanswered_total);
    assert!(end.unanswered_total <= 2 * SESSION_CAP, "{} unanswered", end.unanswered_total);
    // A second stream on the same checker starts clean (`check` does this per file).
    checker.reset_stream();
    assert_eq!(checker.pending_requests(), 0);
    assert_eq!(checker.session().waiting(), 0);
}

/// Messages counted per direction so far (`c2s`, `s2c`, neither).
fn counts_by_dir(c: &Checker) -> [u64; 3] {
    let mut n = [0; 3];
    for ((_, dir, _, _), count) in c.session().message_counts() {
        n[match dir {
            "c2s" => 0,
            "s2c" => 1,
            _ => 2,
        }] += count;
    }
    n
}

/// Asserts that the messages `c` counted since `before` all went the way of `dir`.
fn counted_as(c: &Checker, before: [u64; 3], dir: Direction, what: &str, line: &[u8]) {
    let after = counts_by_dir(c);
    let (own, others) = match dir {
        Direction::ClientToServer => (0, [1, 2]),
        Direction::ServerToClient => (1, [0, 2]),
    };
    for i in others {
        assert!(
            after[i] == before[i],
            "{what}: a line from the {} pipe was read as a message of another direction ({} more {})\nline: {}",
            dir_name(dir),
            after[i] - before[i],
            ["c2s", "s2c", "without a direction"][i],
            show(line)
        );
    }
    assert!(after[own] >= before[own]);
}

/// Reads the input of `proxy_lines`: `[count: u16 LE][count × (flags, len u16 LE)][bytes]`.
/// Each descriptor sends the next `len` bytes (at least one) down the pipe its flags' low bit
/// names (0: host to server, 1: server to host); the bytes left go down the last pipe used.
pub fn proxy_chunks(data: &[u8]) -> Vec<(Direction, &[u8])> {
    let [lo, hi, rest @ ..] = data else { return vec![(Direction::ClientToServer, data)] };
    let count = (u16::from_le_bytes([*lo, *hi]) as usize).min(rest.len() / 3);
    let (heads, mut bytes) = rest.split_at(count * 3);
    let mut chunks = Vec::new();
    let mut dir = Direction::ClientToServer;
    for h in heads.chunks_exact(3) {
        dir = if h[0] & 1 == 0 { Direction::ClientToServer } else { Direction::ServerToClient };
        let len = (u16::from_le_bytes([h[1], h[2]]) as usize).max(1).min(bytes.len());
        let (chunk, more) = bytes.split_at(len);
        chunks.push((dir, chunk));
        bytes = more;
    }
    if !bytes.is_empty() {
        chunks.push((dir, bytes));
    }
    chunks
}

/// The lines a stream must be cut into: split on `\n`, blank lines (spaces, tabs, `\r`) left
/// out, each with its length if it is too long to keep, and whether a `\n` ended it.
fn expected_lines(stream: &[u8]) -> Vec<(&[u8], bool)> {
    let mut out = Vec::new();
    let mut pieces: Vec<&[u8]> = stream.split(|&b| b == b'\n').collect();
    let last = pieces.pop().unwrap_or_default();
    for p in pieces {
        out.push((p, true));
    }
    out.push((last, false));
    out.retain(|(p, _)| p.len() > MAX_LINE || !p.iter().all(|b| b" \t\r".contains(b)));
    out
}

/// `proxy_lines`: the input is cut into chunks of two pipes ([`proxy_chunks`]), each pipe's
/// chunks go through its own `LineSplitter` and every line, in the order the pipes completed
/// them, through `check_one` (one checker, as the proxy's) and `write_record_line`; the
/// recording is read back by a second checker as `check` reads a file.
/// Properties: the lines of each pipe are its bytes cut on `\n` without the blank lines (a
/// line too long to keep reported by its exact length); a recorded line is one line; a line
/// is checked, and read back from the recording, as a message of its pipe's direction only;
/// the recording read back gives the proxy's findings; nothing panics.
pub fn proxy_lines(data: &[u8]) {
    let chunks = proxy_chunks(data);
    let a = args_for(data.len());
    let mut splitters = [LineSplitter::new(Direction::ClientToServer), LineSplitter::new(Direction::ServerToClient)];
    let mut lines: Vec<Line> = Vec::new();
    for &(dir, chunk) in &chunks {
        splitters[dir as usize].push(chunk, |l| lines.push(l));
    }
    for s in &mut splitters {
        s.finish(|l| lines.push(l));
    }

    for dir in [Direction::ClientToServer, Direction::ServerToClient] {
        let stream: Vec<u8> = chunks.iter().filter(|(d, _)| *d == dir).flat_map(|(_, c)| c.iter().copied()).collect();
        let expected = expected_lines(&stream);
        let got: Vec<&Line> = lines.iter().filter(|l| l.dir == dir).collect();
        assert_eq!(got.len(), expected.len(), "{}: {} lines, expected {}\nstream: {}", dir_name(dir), got.len(), expected.len(), show(&stream));
        for (l, (want, terminated)) in got.iter().zip(&expected) {
            match l.too_long {
                Some(len) => assert!(len == want.len() && len > MAX_LINE && l.bytes.is_empty(), "a line reported too long at {len} bytes is {}", want.len()),
                None => assert!(l.bytes == *want, "{}: line {} is not the stream's {}", dir_name(dir), show(&l.bytes), show(want)),
            }
            assert_eq!(l.terminated, *terminated, "{}: the end of the line {}", dir_name(dir), show(want));
        }
    }

    let mut proxy_checker = Checker::new(&a);
    let mut reader = Checker::new(&a);
    for (i, line) in lines.iter().enumerate() {
        let number = i as u64 + 1;
        let before = counts_by_dir(&proxy_checker);
        let checked = proxy::check_one(&mut proxy_checker, number, line);
        counted_as(&proxy_checker, before, line.dir, "check_one", &line.bytes);

        let mut recorded = Vec::new();
        proxy::write_record_line(&mut recorded, line).expect("writing to memory");
        assert_eq!(recorded.iter().position(|&b| b == b'\n'), Some(recorded.len() - 1), "a recorded line is not one line: {}", show(&recorded));
        let recorded = &recorded[..recorded.len() - 1];
        let before = counts_by_dir(&reader);
        let reread = reader.check_line(recorded, number);
        counted_as(&reader, before, line.dir, "the recording read back", recorded);

        if line.too_long.is_none() {
            let reread = reread.unwrap_or_else(|| panic!("a recorded line reads as blank: {}", show(recorded)));
            // Rules only the pipe shows (the recording keeps the message, not the line's framing).
            let key = |o: &Outcome| {
                let mut k: Vec<_> = o.diags.iter().filter(|d| !matches!(d.rule, "line.unterminated" | "line.bom" | "line.undelivered")).map(|d| (d.rule, d.severity == Severity::Error, d.pointer.clone())).collect();
                k.sort();
                k
            };
            assert!(
                key(&checked) == key(&reread) && checked.omitted == reread.omitted,
                "the recording read back gives other findings than the proxy's\nline: {}\nrecorded: {}\nproxy: {:?}\nread back: {:?}",
                show(&line.bytes),
                show(recorded),
                (&checked.diags, checked.omitted, checked.omitted_errors),
                (&reread.diags, reread.omitted, reread.omitted_errors)
            );
        }
    }
}
