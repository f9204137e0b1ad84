//! What a JSON text will cost as a `serde_json::Value` tree, told from its bytes in one pass
//! without building anything, and the budget a message's tree must fit in. A leaf shared by the
//! bridge (each line from either side), `check`'s line path and the proxy's checker child.
//!
//! The tree costs far more than the text when the text is made of small containers: each
//! non-empty object is a B-tree node of about 0.6 KiB, so `{"k":1},` (8 bytes) takes about 90
//! times its size. Big strings (base64 images, audio, resources) cost about their bytes. Until
//! the checker and the bridge hold a compact tree, a message whose tree would pass its budget is
//! refused before it is parsed: by the bridge with a JSON-RPC error, by the checker as a finding.

use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds, in bytes, of what each piece of a text costs as a `Value` (64-bit, the standard
/// allocator's rounding included): a `{` (one B-tree leaf node, allocated for any non-empty
/// object), an object member (its share of further nodes, about half full at worst), an array
/// element (a 32-byte `Value` in a `Vec` grown by doubling) and a string (its allocation's
/// header and rounding; its bytes are counted as they are).
const PER_OBJECT: u64 = 640;
const PER_MEMBER: u64 = 112;
const PER_ELEMENT: u64 = 64;
const PER_STRING: u64 = 32;
/// The root value.
const ROOT: u64 = 32;

/// A message's tree may take this many times its bytes (or the floor, if more).
pub const TREE_MULTIPLE: u64 = 16;
/// The budget's floor unless `--max-tree-mib` says otherwise: what any message may take, however
/// small (a 1 MiB `tools/list` of dense schemas takes about 60 MiB).
pub const DEFAULT_TREE_FLOOR: u64 = 256 << 20;
/// No message's tree may take more than this (or the floor, if more).
pub const TREE_CAP: u64 = 1 << 30;

static TREE_FLOOR: AtomicU64 = AtomicU64::new(DEFAULT_TREE_FLOOR);

/// Sets the floor of every budget of this process (`--max-tree-mib`).
pub fn set_tree_floor(bytes: u64) {
    TREE_FLOOR.store(bytes, Ordering::Relaxed);
}

/// The budget of a message of `len` bytes: the floor or `TREE_MULTIPLE` times its bytes, whichever
/// is more, and at most the cap (or the floor, if more).
pub fn budget(len: usize) -> u64 {
    let floor = TREE_FLOOR.load(Ordering::Relaxed);
    floor.max(TREE_MULTIPLE.saturating_mul(len as u64)).min(TREE_CAP.max(floor))
}

/// What one pass over a JSON text found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Scan {
    pub bytes: usize,
    pub objects: u64,
    pub members: u64,
    pub elements: u64,
    pub strings: u64,
    pub string_bytes: u64,
    /// The text of the top-level object's `id` when it is a string, number or null (the last one,
    /// as the parser keeps), and whether it has a `method` key.
    pub id: Option<std::ops::Range<usize>>,
    pub has_method: bool,
}

/// A message whose tree would not fit its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooCostly {
    pub bytes: usize,
    pub tree: u64,
    pub budget: u64,
    /// What the scan saw of the message, for the error that answers it: see [`Scan`].
    pub id: Option<std::ops::Range<usize>>,
    pub has_method: bool,
}

impl std::fmt::Display for TooCostly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a message of {} bytes whose value tree would take about {} MiB, over its budget of {} MiB ({TREE_MULTIPLE} times its bytes or --max-tree-mib, at most {} MiB)",
            self.bytes,
            self.tree >> 20,
            self.budget >> 20,
            TREE_CAP.max(TREE_FLOOR.load(Ordering::Relaxed)) >> 20
        )
    }
}

/// Depth up to which the container kind is tracked (the parser refuses deeper texts anyway).
const DEPTH: usize = 256;

impl Scan {
    /// One pass over `text`. Text that is not JSON gives some count; the parser then says why.
    pub fn of(text: &[u8]) -> Scan {
        let mut s = Scan { bytes: text.len(), ..Scan::default() };
        // Per open container: object?, and whether a value has started in it yet.
        let mut kinds = [false; DEPTH];
        let mut started = [false; DEPTH];
        let mut depth = 0usize;
        let mut i = 0;
        // The top-level key just read, and the start of the `id` value being read.
        let mut top_key: Option<std::ops::Range<usize>> = None;
        let mut id_start: Option<usize> = None;
        let at = |d: usize| d.min(DEPTH) - 1;
        while i < text.len() {
            let b = text[i];
            match b {
                b'"' => {
                    let start = i + 1;
                    let end = string_end(text, start);
                    s.strings += 1;
                    s.string_bytes += (end - start) as u64;
                    if depth > 0 && !kinds[at(depth)] && !started[at(depth)] {
                        started[at(depth)] = true;
                        s.elements += 1;
                    }
                    if depth == 1 && kinds[0] {
                        top_key = Some(start..end);
                    }
                    i = end + 1;
                    continue;
                }
                b'{' | b'[' => {
                    if depth > 0 && !kinds[at(depth)] && !started[at(depth)] {
                        started[at(depth)] = true;
                        s.elements += 1;
                    }
                    depth += 1;
                    if depth <= DEPTH {
                        kinds[depth - 1] = b == b'{';
                        started[depth - 1] = false;
                    }
                    if b == b'{' {
                        s.objects += 1;
                    }
                }
                b'}' | b']' => {
                    if depth == 1 {
                        end_id(text, &mut id_start, i, &mut s.id);
                    }
                    depth = depth.saturating_sub(1);
                }
                b':' => {
                    s.members += 1;
                    if depth == 1 {
                        match top_key.take().map(|k| &text[k]) {
                            Some(b"id") => id_start = Some(i + 1),
                            Some(b"method") => s.has_method = true,
                            _ => {}
                        }
                    }
                }
                b',' => {
                    if depth > 0 && !kinds[at(depth)] {
                        s.elements += 1;
                    }
                    if depth == 1 {
                        end_id(text, &mut id_start, i, &mut s.id);
                    }
                }
                b' ' | b'\t' | b'\r' | b'\n' => {}
                _ => {
                    // A number, `true`, `false` or `null` as the first element of an array.
                    if depth > 0 && !kinds[at(depth)] && !started[at(depth)] {
                        started[at(depth)] = true;
                        s.elements += 1;
                    }
                }
            }
            i += 1;
        }
        s
    }

    /// An upper bound of the bytes the text's `Value` tree takes.
    pub fn tree_bytes(&self) -> u64 {
        ROOT + self.objects * PER_OBJECT + self.members * PER_MEMBER + self.elements * PER_ELEMENT + self.strings * PER_STRING + self.string_bytes
    }

    /// `Err` when the tree would not fit the budget of a message this long.
    pub fn fits(&self) -> Result<(), TooCostly> {
        let (tree, budget) = (self.tree_bytes(), budget(self.bytes));
        if tree <= budget {
            Ok(())
        } else {
            Err(TooCostly { bytes: self.bytes, tree, budget, id: self.id.clone(), has_method: self.has_method })
        }
    }
}

/// The most one byte of text adds to [`Scan::tree_bytes`]: a `{` (an object, and an element if it
/// opens one in an array); a `"` adds less (a string and an element, its bytes counted as they
/// are), a `:`, a `,` or a scalar's first byte less still.
const MOST_PER_BYTE: u64 = PER_OBJECT + PER_ELEMENT;

/// Whether `text` may be parsed into a `Value` (see [`Scan::fits`]). A text too short to pass its
/// budget whatever it holds (under about 380 KiB with the default floor: nearly every message) is
/// not scanned.
pub fn check(text: &[u8]) -> Result<(), TooCostly> {
    let most = (text.len() as u64).saturating_mul(MOST_PER_BYTE).saturating_add(ROOT);
    if most <= budget(text.len()) {
        return Ok(());
    }
    Scan::of(text).fits()
}

/// The index of the `"` closing the string that starts at `start` (or the text's end).
fn string_end(text: &[u8], mut i: usize) -> usize {
    loop {
        match memchr::memchr2(b'"', b'\\', &text[i.min(text.len())..]) {
            None => return text.len(),
            Some(j) if text[i + j] == b'\\' => i += j + 2,
            Some(j) => return i + j,
        }
    }
}

/// The top-level `id` value read so far ends at `end`: kept when it is a scalar.
fn end_id(text: &[u8], start: &mut Option<usize>, end: usize, id: &mut Option<std::ops::Range<usize>>) {
    if let Some(s) = start.take() {
        let raw = text[s..end].trim_ascii();
        if !raw.is_empty() && !matches!(raw[0], b'{' | b'[') {
            let from = s + (raw.as_ptr() as usize - text[s..].as_ptr() as usize);
            *id = Some(from..from + raw.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_containers_members_elements_and_strings() {
        let s = Scan::of(br#"{"a":[1,{"k":"xy"},[],"s"],"id":7,"method":"m"}"#);
        assert_eq!((s.objects, s.members, s.elements, s.strings), (2, 4, 4, 7));
        assert_eq!(s.string_bytes, 1 + 1 + 2 + 1 + 2 + 6 + 1);
        assert!(s.has_method);
        assert_eq!(&br#"{"a":[1,{"k":"xy"},[],"s"],"id":7,"method":"m"}"#[s.id.unwrap()], b"7");
        let s = Scan::of(br#"{"x":{"id":1},"id" : "a\"b" }"#);
        assert_eq!(&br#"{"x":{"id":1},"id" : "a\"b" }"#[s.id.clone().unwrap()], br#""a\"b""#);
        assert!(!s.has_method);
        assert_eq!(Scan::of(br#"{"id":{"x":1}}"#).id, None);
    }

    /// No text costs more than [`MOST_PER_BYTE`] per byte, which lets [`check`] skip the scan of a
    /// short one: the costliest texts per byte, and the scan's verdict on texts around the bound.
    #[test]
    fn no_byte_costs_more_than_the_bound() {
        let texts: [&[u8]; 9] = [b"{}", b"[{}]", b"[{},{},{}]", br#"{"":{}}"#, br#"[[],[],{"":""}]"#, br#""""#, b"[1,2,3]", br#"{"a":{"b":{"c":{}}}}"#, b"[[[[[[{}]]]]]]"];
        let mut n = 0;
        for t in texts {
            let s = Scan::of(t);
            assert!(s.tree_bytes() <= ROOT + MOST_PER_BYTE * t.len() as u64, "{}: {}", String::from_utf8_lossy(t), s.tree_bytes());
            n += 1;
        }
        // With the default floor (256 MiB) the bound lets texts up to ~381 KiB through unscanned; longer ones are scanned.
        let at = ((DEFAULT_TREE_FLOOR - ROOT) / MOST_PER_BYTE) as usize;
        let dense = |len: usize| -> Vec<u8> {
            let mut t = b"[".to_vec();
            while t.len() + 3 < len {
                t.extend_from_slice(b"{},");
            }
            t.truncate(t.len() - 1);
            t.push(b']');
            t
        };
        for len in [at - 64, at + 64, 4 * at] {
            let t = dense(len);
            assert_eq!(check(&t).is_ok(), Scan::of(&t).fits().is_ok(), "{len}");
            n += 1;
        }
        assert!(check(&dense(4 * at)).is_err());
        println!("{n} passed, 0 failed");
    }

    #[test]
    fn small_objects_are_refused_and_big_strings_pass() {
        let mut small = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":["#.to_vec();
        while small.len() < 24 << 20 {
            small.extend_from_slice(br#"{"k":1},"#);
        }
        small.extend_from_slice(br#"{"k":1}]}}}"#);
        let e = check(&small).unwrap_err();
        assert!(e.tree > 2 << 30 && e.budget == 16 * small.len() as u64, "{e:?}");
        let mut blob = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"image","mimeType":"image/png","data":""#.to_vec();
        blob.resize(100 << 20, b'A');
        blob.extend_from_slice(br#""}]}}"#);
        assert!(check(&blob).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#).is_ok());
    }
}
