//! The resource-metadata proposal's rules for `resources/read` results that
//! carry several representations of one resource.

use serde_json::Value;

use super::Cx;

/// Metadata every representation of one resource should agree on.
pub const SHARED_METADATA: &[&str] = &["name", "title", "description", "annotations"];

/// All `contents` share one URI (error); each has its own `mimeType` (warning);
/// name, title, description and annotations agree (warning).
pub fn multi_format<'v>(v: &'v Value, cx: &mut Cx<'v>) {
    let Some(contents) = v.get("contents").and_then(Value::as_array) else { return };
    let Some(first) = contents.first() else { return };
    cx.key("contents", |cx| {
        let uri = first.get("uri");
        let mut mime_types: Vec<&Value> = Vec::new();
        for (i, item) in contents.iter().enumerate() {
            cx.index(i, |cx| {
                if item.get("uri") != uri {
                    cx.key("uri", |cx| cx.error("resources.same-uri", "every element of one read must have the requested URI (the first element's)"));
                }
                if let Some(m) = item.get("mimeType") {
                    if mime_types.contains(&m) {
                        cx.key("mimeType", |cx| cx.warning("resources.distinct-mime-types", format!("another element already has the MIME type {m}: each element should be a different format")));
                    }
                    mime_types.push(m);
                }
                if i > 0 {
                    for key in SHARED_METADATA {
                        if item.get(*key) != first.get(*key) {
                            cx.key(key, |cx| cx.warning("resources.consistent-metadata", format!("`{key}` differs from the first element's: the formats of one resource should share their metadata")));
                        }
                    }
                }
            });
        }
    });
}
