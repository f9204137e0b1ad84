//! Reading input: lines with a length cap, file kinds by extension, and the outcomes that report
//! input which cannot be read. A leaf shared by `check`, `convert`, `proxy` and the bridge.

use std::io::{self, BufRead};
use std::path::Path;


use crate::rules::stream::{LINE_JSON, LINE_TOO_LONG};
use crate::rules::Rule;
use crate::vocab::{Diag, Outcome};

/// The longest line (or `.json` file) read whole; a longer one is reported and skipped
/// (memory stays bounded).
pub const MAX_LINE: usize = 128 << 20;

pub fn is_har_file(f: &str) -> bool {
    Path::new(f).extension().is_some_and(|e| e.eq_ignore_ascii_case("har"))
}

pub fn is_json_file(f: &str) -> bool {
    Path::new(f).extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// One error about the whole line: how `check` and `convert` report input they cannot read.
pub fn line_error(line: u64, rule: &'static Rule, message: String) -> Outcome {
    Outcome { line, diags: vec![Diag::of(rule, "", message)], ..Outcome::default() }
}

pub fn too_long(line: u64, len: usize) -> Outcome {
    line_error(line, &LINE_TOO_LONG, format!("line too long: {len} bytes (at most {MAX_LINE} are read); skipped"))
}

pub fn file_too_large() -> Outcome {
    line_error(1, &LINE_TOO_LONG, format!("file too large: more than {MAX_LINE} bytes (at most that is read); skipped"))
}

pub fn empty_file() -> Outcome {
    line_error(1, &LINE_JSON, "empty file: no JSON value".into())
}

pub enum LineRead {
    Eof,
    Line,
    TooLong(usize),
}

/// Reads up to the next `\n` (not included) into `buf`; a line longer than `max` is consumed
/// but not kept.
pub fn read_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<LineRead> {
    read_line_into(r, buf, max, None)
}

/// From this many bytes on, [`read_long_line`] stops growing the buffer by doubling.
pub const LONG_LINE: usize = 1 << 20;

/// [`read_line`] for a caller that drops or hands off the buffer after a long line (`check`, the
/// stdio bridge): once the line passes [`LONG_LINE`] bytes, the buffer gets room for `max` bytes and
/// `spare` more (a caller's room past the line: the bridge's recording wrapper) at once. That is
/// address space, not memory: the pages past the line are never touched. Grown by doubling instead,
/// the buffer left each smaller copy freed behind it, which mimalloc keeps resident for a while:
/// about one more line's worth at the peak.
pub fn read_long_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize, spare: usize) -> io::Result<LineRead> {
    read_line_into(r, buf, max, Some(spare))
}

/// `reserve`: `None` grows the buffer as `Vec` does; `Some(spare)` as [`read_long_line`] says.
fn read_line_into<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize, reserve: Option<usize>) -> io::Result<LineRead> {
    let mut len = 0usize;
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(match (any, len > max) {
                (false, _) => LineRead::Eof,
                (true, false) => LineRead::Line,
                (true, true) => LineRead::TooLong(len),
            });
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (&avail[..i], Some(i + 1)),
            None => (avail, None),
        };
        len += chunk.len();
        if len <= max {
            if let Some(spare) = reserve.filter(|_| buf.len() + chunk.len() > buf.capacity().max(LONG_LINE)) {
                buf.reserve_exact(max.max(buf.len() + chunk.len()) + spare - buf.len());
            }
            buf.extend_from_slice(chunk);
        } else {
            buf.clear();
        }
        let used = done.unwrap_or(avail.len());
        r.consume(used);
        if done.is_some() {
            return Ok(if len > max { LineRead::TooLong(len) } else { LineRead::Line });
        }
    }
}

/// Decodes standard base64 (padding optional, whitespace between groups allowed, as HAR writers
/// wrap it; the transport rules decode the Mcp-Name sentinel with it); `Err` names the first byte that is not base64.
pub fn base64(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut acc, mut bits, mut pad) = (0u32, 0u32, 0usize);
    for (i, b) in text.bytes().enumerate() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => {
                pad += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return Err(format!("byte {} is not base64", i + 1)),
        };
        if pad > 0 {
            return Err(format!("byte {} follows the `=` padding", i + 1));
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err("a single base64 character is left over at the end".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn lines_split_on_newline_only() {
        let data = "a\u{2028}b\r\n\nc".as_bytes();
        let mut r = BufReader::with_capacity(2, data);
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        loop {
            buf.clear();
            match read_line(&mut r, &mut buf, 100).unwrap() {
                LineRead::Eof => break,
                LineRead::Line => lines.push(String::from_utf8(buf.clone()).unwrap()),
                LineRead::TooLong(n) => lines.push(format!("too long {n}")),
            }
        }
        assert_eq!(lines, vec!["a\u{2028}b\r", "", "c"]);
    }

    /// Past [`LONG_LINE`], a line's buffer gets room for the longest line at once (doubling would
    /// give it 4 x LONG_LINE for this line, short of the 5 x of the limit); later lines fit in it.
    #[test]
    fn a_long_lines_buffer_grows_once_to_the_limit() {
        let long = vec![b'x'; 3 * LONG_LINE];
        let mut data = long.clone();
        data.extend_from_slice(b"\nshort\n");
        let mut r = BufReader::with_capacity(1 << 16, &data[..]);
        let (mut buf, max) = (Vec::with_capacity(1 << 16), 5 * LONG_LINE);
        assert!(matches!(read_long_line(&mut r, &mut buf, max, 0).unwrap(), LineRead::Line));
        assert_eq!(buf, long);
        assert!(buf.capacity() >= max, "{}", buf.capacity());
        let (at, capacity) = (buf.as_ptr(), buf.capacity());
        buf.clear();
        assert!(matches!(read_long_line(&mut r, &mut buf, max, 0).unwrap(), LineRead::Line));
        assert_eq!(buf, b"short");
        assert_eq!((buf.as_ptr(), buf.capacity()), (at, capacity));
        // A line over the limit is still consumed and not kept.
        let data = vec![b'y'; 2 * LONG_LINE + 1];
        let mut r = BufReader::with_capacity(1 << 16, &data[..]);
        let mut buf = Vec::new();
        assert!(matches!(read_long_line(&mut r, &mut buf, 2 * LONG_LINE, 0).unwrap(), LineRead::TooLong(n) if n == 2 * LONG_LINE + 1));
        assert!(buf.is_empty());
        println!("3 passed, 0 failed");
    }

    #[test]
    fn long_lines_are_skipped() {
        let data = b"0123456789\nab\n";
        let mut r = BufReader::with_capacity(3, &data[..]);
        let mut buf = Vec::new();
        assert!(matches!(read_line(&mut r, &mut buf, 5).unwrap(), LineRead::TooLong(10)));
        buf.clear();
        assert!(matches!(read_line(&mut r, &mut buf, 5).unwrap(), LineRead::Line));
        assert_eq!(buf, b"ab");
    }
}
