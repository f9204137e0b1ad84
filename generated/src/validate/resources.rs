//! The resource-metadata proposal's rules: `resources/read` results that carry
//! several representations of one resource, `resources/metadata` results (one
//! element per format), the metadata on read contents, and the deprecated
//! top-level `annotations` of `EmbeddedResource`.
//!
//! The same-URI rule wants the URI the client asked for, which a result alone
//! does not carry. The `[[check]]` entries compare with the first element's
//! URI instead; [`check_read_result`] and [`check_metadata_result`] take the
//! requested URI, and a checker that pairs responses with requests and has
//! already run the type's validation adds only [`check_requested_uri`].
//!
//! Not checked here, because one message cannot show it: a server with the
//! `resources` capability answers `resources/metadata` (the proposal's MUST).

use crate::tree::Node;

use super::Cx;

/// Metadata every representation of one resource should agree on.
pub const SHARED_METADATA: &[&str] = &["name", "title", "description", "annotations"];

/// `ReadResourceResult` (`[[check]]`): [`check_read_result`] without the requested URI.
pub fn multi_format<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    check_read_result(v, None, cx);
}

/// `ReadResourceMetadataResult` (`[[check]]`): [`check_metadata_result`] without the requested URI.
pub fn metadata_result<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    check_metadata_result(v, None, cx);
}

/// A `resources/read` result: every element of `contents` has the requested URI
/// (error; the first element's when `requested_uri` is `None`); each has its own
/// MIME type, compared case-insensitively (warning); name, title, description and
/// annotations agree (warning).
pub fn check_read_result<'v>(v: Node<'v>, requested_uri: Option<&str>, cx: &mut Cx<'v>) {
    formats(v, "contents", requested_uri, cx);
}

/// A `resources/metadata` result: the rules of [`check_read_result`] on `metadata`,
/// which lists the formats of one resource as a read's `contents` does.
pub fn check_metadata_result<'v>(v: Node<'v>, requested_uri: Option<&str>, cx: &mut Cx<'v>) {
    formats(v, "metadata", requested_uri, cx);
}

/// The same-URI rule against the requested URI, for a checker that has already
/// validated the result as its type (which compared every element with the first
/// one's URI): reports only what that missed, the elements that share the first
/// element's URI when that URI is not the requested one. `field` is `contents`
/// (`resources/read`) or `metadata` (`resources/metadata`).
pub fn check_requested_uri<'v>(v: Node<'v>, field: &'static str, requested_uri: &str, cx: &mut Cx<'v>) {
    let Some(items) = v.get(field).and_then(Node::as_array) else { return };
    let Some(first) = items.first().and_then(uri_of) else { return };
    if first == requested_uri {
        return;
    }
    cx.key(field, |cx| {
        for (i, item) in items.iter().enumerate() {
            if uri_of(item) == Some(first) {
                cx.index(i, |cx| cx.key("uri", |cx| not_requested(first, requested_uri, cx)));
            }
        }
    });
}

/// An element's MIME type for the distinct-formats rule: `Some(None)` when it has none,
/// `None` when it is not a string (the schema's `type` error; left out here).
fn mime_type(item: Node<'_>) -> Option<Option<&str>> {
    match item.get("mimeType") {
        None => Some(None),
        Some(m) => m.as_str().map(|m| Some(m.trim())),
    }
}

fn uri_of(item: Node<'_>) -> Option<&str> {
    item.get("uri").and_then(Node::as_str)
}

fn not_requested(uri: &str, requested: &str, cx: &mut Cx<'_>) {
    cx.error("resources.same-uri", format!("`{uri}` is not the requested URI `{requested}`: every element must describe the requested resource"));
}

fn formats<'v>(v: Node<'v>, field: &'static str, requested_uri: Option<&str>, cx: &mut Cx<'v>) {
    let Some(items) = v.get(field).and_then(Node::as_array) else { return };
    let Some(first) = items.first() else { return };
    cx.key(field, |cx| {
        // `None`: no `mimeType`; two such elements are no more distinct formats than two equal types.
        let mut mime_types: Vec<Option<&str>> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            cx.index(i, |cx| {
                // A missing or non-string `uri` is the schema's `required`/`type` error already.
                if let Some(uri) = uri_of(item) {
                    match requested_uri {
                        Some(requested) if uri != requested => cx.key("uri", |cx| not_requested(uri, requested, cx)),
                        None => match uri_of(first) {
                            Some(first_uri) if uri != first_uri => cx.key("uri", |cx| {
                                cx.error("resources.same-uri", format!("`{uri}` differs from the first element's URI `{first_uri}`: every element must describe the one requested resource"))
                            }),
                            _ => {}
                        },
                        _ => {}
                    }
                }
                // MIME types are case-insensitive (RFC 2045), so `Text/Plain` repeats `text/plain`.
                if let Some(mime) = mime_type(item) {
                    let seen = mime_types.iter().any(|s| match (s, mime) {
                        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                        (a, b) => *a == b,
                    });
                    if seen {
                        match mime {
                            Some(m) => cx.key("mimeType", |cx| cx.warning("resources.distinct-mime-types", format!("another element already has the MIME type `{m}`: each element should be a different format"))),
                            None => cx.warning("resources.distinct-mime-types", "neither this element nor an earlier one has a `mimeType`: each element should be a different format, named by its MIME type"),
                        }
                    }
                    mime_types.push(mime);
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

/// `TextResourceContents` and `BlobResourceContents` (`[[check]]`): `name` is
/// expected from servers that implement the proposal (its absence, allowed for
/// older servers, is a warning); `size` is the size in bytes of this
/// representation: the text's UTF-8 bytes, the blob's decoded bytes (warning).
pub fn contents<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    if !o.contains_key("name") {
        cx.warning("resources.contents-name", "read contents without `name` (a server that predates the resource-metadata proposal): the proposal expects the resource's metadata here");
    }
    let Some(size) = o.get("size").and_then(Node::as_i64) else { return };
    let actual = match (o.get("text").and_then(Node::as_str), o.get("blob").and_then(Node::as_str)) {
        (Some(text), _) => Some((text.len(), "the text's UTF-8 encoding")),
        // Undecodable base64 is `format.byte`'s error; there is no size to compare then.
        (None, Some(blob)) => super::formats::base64(blob).ok().map(|()| (decoded_len(blob), "the decoded blob")),
        (None, None) => None,
    };
    if let Some((len, what)) = actual {
        if usize::try_from(size).ok() != Some(len) {
            cx.key("size", |cx| cx.warning("resources.size", format!("`size` is {size} but {what} is {len} bytes: `size` should be this representation's size")));
        }
    }
}

/// The byte count of valid padded base64, without decoding it (blobs can be large).
fn decoded_len(b64: &str) -> usize {
    let pad = b64.bytes().rev().take_while(|&c| c == b'=').count();
    b64.len() / 4 * 3 - pad
}

/// `EmbeddedResource` (`[[check]]`): the top-level `annotations` the proposal
/// removes (warning); the value is still checked as `Annotations`, since
/// `EmbeddedResource::annotations()` reads it.
#[cfg(feature = "resource-metadata")]
pub fn embedded<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(annotations) = v.get("annotations") else { return };
    cx.key("annotations", |cx| {
        let where_ = if v.get("resource").is_some_and(|r| r.get("annotations").is_some()) {
            "; `resource.annotations` is present and takes precedence"
        } else {
            ""
        };
        cx.warning("resources.embedded-annotations", format!("top-level `annotations` on an embedded resource are deprecated by the resource-metadata proposal: put them in `resource.annotations`{where_}"));
        <crate::resource_metadata::Annotations as super::Validate>::validate_json(annotations, cx);
    });
}
