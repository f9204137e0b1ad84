//! Typed reading from a line's text, after its value tree is gone.
//!
//! The validators and the session rules need the `serde_json::Value` tree; the typed reading
//! does not. Reading the typed value from the tree held both at once (on a flood of small objects
//! the typed copy is a third of the tree again). So [`Checker::check_as`](super::Checker) only
//! notes which part of the line it would read as which type, and once the tree is dropped each
//! part is read from the text: the peak is the larger of the two, not their sum.

use serde_json::value::RawValue;
use std::collections::BTreeMap;

use super::{error, Outcome};
use crate::versions::Module;

/// A typed reading left for after the tree: the module, the type, the JSON pointer of the part.
pub(super) struct Deferred {
    pub module: &'static Module,
    pub ty: &'static str,
    pub pointer: String,
    /// How many findings the outcome had then: its finding goes there, as reading from the tree
    /// would have put it (the proxy checks trees; both report in the same order).
    pub at: usize,
}

/// Reads each noted part of `text` as its type; a failure is the `deserialize` finding that
/// reading from the tree gave.
pub(super) fn run(text: &str, reads: Vec<Deferred>, out: &mut Outcome) {
    // Last first, so the earlier places stay where they were.
    for d in reads.into_iter().rev() {
        let Some(entry) = (d.module.dynamic)(d.ty) else { continue };
        // The value parsed, so every pointer the checker made leads somewhere.
        let Some(part) = at_pointer(text, &d.pointer) else { continue };
        if let Err(e) = (entry.read_json)(part) {
            let diag = error(&d.pointer, "deserialize", format!("not a valid {} of {}: {}", d.ty, d.module.label, without_position(&e)));
            out.diags.insert(d.at.min(out.diags.len()), diag);
        }
    }
}

/// The text of the part of `text` at `pointer` (as the checker writes them: keys escaped with
/// `~0`/`~1`, array indexes). Only the containers on the way are split, one level each.
fn at_pointer<'t>(text: &'t str, pointer: &str) -> Option<&'t str> {
    let mut cur = text;
    if pointer.is_empty() {
        return Some(cur);
    }
    for seg in pointer.strip_prefix('/')?.split('/') {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        let next: &'t RawValue = if cur.trim_start().starts_with('[') {
            let items: Vec<&'t RawValue> = serde_json::from_str(cur).ok()?;
            items.get(seg.parse::<usize>().ok()?)?
        } else {
            // A repeated key: the last one, as the tree keeps it.
            let keys: BTreeMap<String, &'t RawValue> = serde_json::from_str(cur).ok()?;
            keys.get(&seg)?
        };
        cur = next.get();
    }
    Some(cur)
}

/// The error's text without serde_json's " at line L column C" (a place in the part, not the line).
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&suffix) {
        Some(t) if e.line() > 0 => t.to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_lead_to_parts() {
        let text = r#" {"msg": {"a/b": [1, {"x~y": "z"}], "a/b": [2, {"x~y": "w"}]}, "dir": "c2s"} "#;
        assert_eq!(at_pointer(text, ""), Some(text));
        assert_eq!(at_pointer(text, "/dir"), Some(r#""c2s""#));
        assert_eq!(at_pointer(text, "/msg/a~1b/1/x~0y"), Some(r#""w""#), "the last repeated key");
        assert_eq!(at_pointer(text, "/msg/a~1b/2"), None);
    }
}
