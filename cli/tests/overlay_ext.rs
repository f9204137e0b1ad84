//! `--ext resource-metadata` checks draft traffic with the resource-metadata proposal overlay.

mod common;

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
