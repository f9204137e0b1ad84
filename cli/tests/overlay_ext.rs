//! `--ext resource-metadata` checks draft traffic with the resource-metadata proposal overlay.

use crate::common;

use common::{run, TempFile};

const SESSION: &str = concat!(
    r#"{"dir":"c2s","protocol":"draft","msg":{"jsonrpc":"2.0","id":1,"method":"resources/metadata","params":{"uri":"file:///a","_meta":{"io.modelcontextprotocol/protocolVersion":"draft","io.modelcontextprotocol/clientCapabilities":{}}}}}"#,
    "\n",
    r#"{"dir":"s2c","protocol":"draft","msg":{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","metadata":[{"uri":"file:///a","name":"a","size":3}]}}}"#,
    "\n",
    r#"{"dir":"s2c","protocol":"draft","msg":{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///a","name":"a","mimeType":"text/plain","text":"x"},{"uri":"file:///b","name":"a","mimeType":"text/html","text":"y"}]}}}"#,
    "\n",
);

#[test]
fn draft_without_the_overlay_does_not_know_resources_metadata() {
    let f = TempFile::new("s.jsonl", SESSION.as_bytes());
    let r = run(&["check", f.path()], None);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains(":1: /msg/method: error [unknown-variant]"), "{}", r.stdout);
}

#[test]
fn the_overlay_types_the_new_method_and_checks_multi_format_reads() {
    let f = TempFile::new("s.jsonl", SESSION.as_bytes());
    // Line 3 answers no request, so it is typed as a generic result; give it its type to get the proposal's rules.
    let r = run(&["check", "--ext", "resource-metadata", f.path()], None);
    assert!(!r.stdout.contains(":1:") && !r.stdout.contains(":2:"), "{}", r.stdout);
    let typed = TempFile::new(
        "r.jsonl",
        br#"{"protocol":"draft","type":"ReadResourceResult","msg":{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///a","name":"a","mimeType":"text/plain","text":"x"},{"uri":"file:///b","name":"a","mimeType":"text/html","text":"y"}]}}
"#,
    );
    let r = run(&["check", "--ext", "resource-metadata", typed.path()], None);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains(":1: /msg/contents/1/uri: error [resources.same-uri]"), "{}", r.stdout);
}

/// An old-form embedded resource (top-level `annotations`, which the proposal removes) and read
/// contents without `name` (a server older than the proposal) pass `--roundtrip`, with warnings.
#[test]
fn old_forms_round_trip_with_warnings() {
    let session = concat!(
        r#"{"dir":"c2s","protocol":"draft","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"draft","io.modelcontextprotocol/clientCapabilities":{}}}}}"#,
        "\n",
        r#"{"dir":"s2c","protocol":"draft","msg":{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"resource","resource":{"uri":"file:///a","name":"a","text":"t"},"annotations":{"priority":0.5}}]}}}"#,
        "\n",
        r#"{"protocol":"draft","type":"ReadResourceResult","msg":{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///a","mimeType":"text/plain","text":"x"}]}}"#,
        "\n",
    );
    let f = TempFile::new("old.jsonl", session.as_bytes());
    let r = run(&["check", "--roundtrip", "--ext", "resource-metadata", f.path()], None);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(!r.stdout.contains("[roundtrip]"), "{}", r.stdout);
    assert!(r.stdout.contains(":2: /msg/result/content/0/annotations: warning [resources.embedded-annotations]"), "{}", r.stdout);
    assert!(r.stdout.contains(":3: /msg/contents/0: warning [resources.contents-name]"), "{}", r.stdout);
}

/// With the request known, every element of the answer has the requested URI: a read of
/// `file:///a` answered with (consistent) contents of `file:///b` is reported, and the right
/// URI is not.
#[test]
fn answers_are_compared_with_the_requested_uri() {
    const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"draft","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let line = |id: u32, method: &str, uri: &str| {
        format!(r#"{{"dir":"c2s","protocol":"draft","msg":{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"uri":"{uri}",{META}}}}}}}"#)
    };
    let session = [
        line(1, "resources/read", "file:///a"),
        r#"{"dir":"s2c","protocol":"draft","msg":{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///b","name":"b","mimeType":"text/plain","text":"x"}]}}}"#.to_string(),
        line(2, "resources/metadata", "file:///a"),
        r#"{"dir":"s2c","protocol":"draft","msg":{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","metadata":[{"uri":"file:///b","name":"b"}]}}}"#.to_string(),
        line(3, "resources/read", "file:///a"),
        r#"{"dir":"s2c","protocol":"draft","msg":{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///a","name":"a","mimeType":"text/plain","text":"x"}]}}}"#.to_string(),
    ]
    .join("\n");
    let f = TempFile::new("uri.jsonl", session.as_bytes());
    let r = run(&["check", "--ext", "resource-metadata", f.path()], None);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains(":2: /msg/result/contents/0/uri: error [resources.same-uri]"), "{}", r.stdout);
    assert!(r.stdout.contains(":4: /msg/result/metadata/0/uri: error [resources.same-uri]"), "{}", r.stdout);
    assert!(!r.stdout.contains(":6:"), "{}", r.stdout);
}
