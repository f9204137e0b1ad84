//! Strings and numbers: escaping (eight bytes at a time), keys, and serde_json's number
//! formatting and key errors.

use super::*;

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// A mask whose lowest set bit is the high bit of the first byte (in little-endian
/// order) that JSON escapes: `"`, `\` or a byte below 0x20. Zero when there is none.
/// Borrows can set bits above the first hit, never below it, so the lowest bit is exact.
#[inline(always)]
pub(super) fn special(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v;
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (zero_in(quote) | zero_in(backslash) | control) & HIGHS
}

/// What follows the backslash for each byte below 0x20 (`u` means `\u00xx`).
pub(super) const SHORT: [u8; 32] = {
    let mut t = [b'u'; 32];
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t
};

/// How much of a long clean string is scanned before it is copied (see [`write_str_general`]).
pub(super) const COPY_RUN: usize = 16 * 1024;

#[cold]
pub(super) fn escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match b {
        b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
        _ => match SHORT[b as usize] {
            b'u' => out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xf) as usize]]),
            c => out.extend_from_slice(&[b'\\', c]),
        },
    }
}

/// Whether a byte is one JSON escapes, for the byte-wise paths.
#[inline(always)]
pub(super) fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

pub(super) const SPACES: u64 = ONES * b' ' as u64;

/// The bytes of a string shorter than 8 in one word, first byte lowest, zeros above.
/// Overlapping loads instead of a byte loop or a copy into a padded buffer.
#[inline(always)]
pub(super) fn short_word(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]) as u64;
        lo | hi << (8 * (n - 4))
    } else if n > 0 {
        b[0] as u64 | (b[n / 2] as u64) << (8 * (n / 2)) | (b[n - 1] as u64) << (8 * (n - 1))
    } else {
        0
    }
}

#[inline(always)]
pub(super) fn word(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Writes `s` as a JSON string. Most strings in MCP values are keys and short words,
/// so strings up to 16 bytes are checked with one or two (overlapping) word loads and
/// copied with fixed-size stores; longer ones are scanned a word at a time and clean
/// runs copied with one `extend_from_slice`.
#[inline]
pub(super) fn write_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let n = b.len();
    if n < 8 {
        let w = short_word(b);
        if special(w | SPACES << (8 * n)) == 0 {
            // `"`, the bytes, `"`, then zeros: 16 bytes written, the excess cut off.
            let x = b'"' as u128 | (w as u128) << 8 | (b'"' as u128) << (8 * (n + 1));
            out.extend_from_slice(&x.to_le_bytes());
            out.truncate(out.len() - (14 - n));
            return;
        }
    } else if n <= 16 {
        let (w1, w2) = (word(b, 0), word(b, n - 8));
        if special(w1) | special(w2) == 0 {
            out.reserve(18);
            out.push(b'"');
            out.extend_from_slice(&w1.to_le_bytes());
            out.truncate(out.len() - (16 - n));
            out.extend_from_slice(&w2.to_le_bytes());
            out.push(b'"');
            return;
        }
    }
    write_str_general(out, b);
}

/// `,"key":`, the start of an object entry: [`write_str`] with the comma and colon written
/// in the same stores for the short clean keys that most keys are.
#[inline]
pub(super) fn write_key(out: &mut Vec<u8>, key: &str) {
    let b = key.as_bytes();
    let n = b.len();
    if n < 8 {
        let w = short_word(b);
        if special(w | SPACES << (8 * n)) == 0 {
            // `,"`, the bytes, `":`, then zeros: 16 bytes written, the excess cut off.
            let x = b',' as u128
                | (b'"' as u128) << 8
                | (w as u128) << 16
                | (b'"' as u128) << (8 * (n + 2))
                | (b':' as u128) << (8 * (n + 3));
            out.extend_from_slice(&x.to_le_bytes());
            out.truncate(out.len() - (12 - n));
            return;
        }
    } else if n <= 16 {
        let (w1, w2) = (word(b, 0), word(b, n - 8));
        if special(w1) | special(w2) == 0 {
            out.reserve(20);
            out.extend_from_slice(b",\"");
            out.extend_from_slice(&w1.to_le_bytes());
            out.truncate(out.len() - (16 - n));
            out.extend_from_slice(&w2.to_le_bytes());
            out.extend_from_slice(b"\":");
            return;
        }
    }
    out.push(b',');
    write_str_general(out, b);
    out.push(b':');
}

pub(super) fn write_str_general(out: &mut Vec<u8>, b: &[u8]) {
    let n = b.len();
    out.reserve(n + 2);
    out.push(b'"');
    let (mut start, mut i) = (0, 0);
    while i + 8 <= n {
        // Inside a clean run of 32 bytes or more (a base64 blob, a file's text), 64 bytes at a
        // time with a test that compiles to vector compares; the run is copied every 16 KiB,
        // while its bytes are still in cache, rather than read from memory a second time.
        if i - start >= 32 {
            while let Some(block) = b.get(i..i + 64) {
                if block.iter().fold(0u8, |any, &c| any | needs_escape(c) as u8) != 0 {
                    break;
                }
                i += 64;
                if i - start >= COPY_RUN {
                    out.extend_from_slice(&b[start..i]);
                    start = i;
                }
            }
            if i + 8 > n {
                break;
            }
        }
        // Clean text (descriptions) two words at a time.
        if i + 16 <= n && special(word(b, i)) | special(word(b, i + 8)) == 0 {
            i += 16;
            continue;
        }
        let m = special(word(b, i));
        if m == 0 {
            i += 8;
            continue;
        }
        let j = i + (m.trailing_zeros() / 8) as usize;
        out.extend_from_slice(&b[start..j]);
        escape(out, b[j]);
        i = j + 1;
        start = i;
    }
    // The last partial word: one overlapping load when the string is long enough (it
    // may see an escaped byte again, then the byte loop sorts it out).
    if i < n && (n < 8 || special(word(b, n - 8)) != 0) {
        for j in i..n {
            if needs_escape(b[j]) {
                out.extend_from_slice(&b[start..j]);
                escape(out, b[j]);
                start = j + 1;
            }
        }
    }
    out.extend_from_slice(&b[start..]);
    out.push(b'"');
}

// ---------------------------------------------------------------------------------------
// Numbers: serde_json's own formatter, so digits match it exactly (itoa for integers,
// its float printer for finite floats). Writing to a Vec cannot fail.

#[inline]
pub(super) fn fmt<F: FnOnce(&mut serde_json::ser::CompactFormatter, &mut Vec<u8>) -> io::Result<()>>(out: &mut Vec<u8>, f: F) {
    let _ = f(&mut serde_json::ser::CompactFormatter, out);
}

#[inline]
pub(super) fn write_i64(out: &mut Vec<u8>, v: i64) {
    fmt(out, |f, o| f.write_i64(o, v));
}

#[inline]
pub(super) fn write_u64(out: &mut Vec<u8>, v: u64) {
    fmt(out, |f, o| f.write_u64(o, v));
}

/// serde_json writes non-finite floats as `null`.
#[inline]
pub(super) fn write_f64(out: &mut Vec<u8>, v: f64) {
    if v.is_finite() {
        fmt(out, |f, o| f.write_f64(o, v));
    } else {
        out.extend_from_slice(b"null");
    }
}

#[inline]
pub(super) fn write_f32(out: &mut Vec<u8>, v: f32) {
    if v.is_finite() {
        fmt(out, |f, o| f.write_f32(o, v));
    } else {
        out.extend_from_slice(b"null");
    }
}

/// The error serde_json returns for a map key of this kind, taken from serde_json itself
/// (its constructors are private) so the message and category are the same.
#[cold]
pub(super) fn key_error(float: bool) -> Error {
    struct BadKey(bool);
    impl Serialize for BadKey {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap;
            let mut m = s.serialize_map(Some(1))?;
            if self.0 {
                m.serialize_entry(&f64::NAN, &())?;
            } else {
                m.serialize_entry(&(), &())?;
            }
            m.end()
        }
    }
    let msg = if float { "float key must be finite (got NaN or +/-inf)" } else { "key must be a string" };
    serde_json::to_writer(io::sink(), &BadKey(float)).err().unwrap_or_else(|| <Error as ser::Error>::custom(msg))
}
