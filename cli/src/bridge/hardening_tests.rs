//! The bridge core facing clients it cannot trust to choose ids well, to wait for what they asked,
//! or to send messages of a sane cost: ids rewritten upstream (issue 42, M4 and L5), a
//! cancellation that ends an input round (M5), messages of many small objects (H1: passed since the
//! compact tree, refused only where a whole `Value` is still needed).

use serde_json::{json, Value};

use super::record::Verdict;
use super::tests::{bridge, line, values};
use super::{Bridge, Output, Reply};

fn sent(out: &Output) -> Value {
    values(&out.to_server).remove(0)
}

/// An older client in session with a 2026-07-28 server: `initialize` answered from `server/discover`.
pub(super) fn older_client_with_a_2026_server() -> Bridge {
    let mut b = bridge("2026-07-28");
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "old", "version": "1"}}})));
    let discover = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}});
    b.from_server(&line(json!({"jsonrpc": "2.0", "id": sent(&out)["id"], "result": discover})));
    b.from_client(&line(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})));
    b
}

fn input_required() -> Value {
    let sampling = json!({"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi?"}}], "maxTokens": 10}});
    json!({"resultType": "input_required", "inputRequests": {"s1": sampling}, "requestState": "opaque"})
}

#[test]
fn a_client_id_like_the_bridges_own_keeps_its_answer() {
    // L5: the bridge's ids are predictable (`mcp-schema-bridge/N`); a client may use the next one.
    let mut b = older_client_with_a_2026_server();
    let call = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask", "arguments": {}}}))));
    let list = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": "mcp-schema-bridge/3", "method": "tools/list"}))));
    // The call needs input: the bridge asks the client, then sends the call again with its own next id.
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": call["id"], "result": input_required()})));
    let asked = values(&out.to_client).remove(0);
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": "yes"}, "model": "m"});
    let retry = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": asked["id"], "result": reply}))));
    assert_ne!(retry["id"], list["id"], "every id upstream is the bridge's, and each is new");
    let tools = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": []});
    let answer = values(&b.from_server(&line(json!({"jsonrpc": "2.0", "id": list["id"], "result": tools}))).to_client).remove(0);
    assert_eq!((&answer["id"], &answer["result"]["tools"]), (&json!("mcp-schema-bridge/3"), &json!([])), "{answer}");
    let done = json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]});
    let answer = values(&b.from_server(&line(json!({"jsonrpc": "2.0", "id": retry["id"], "result": done}))).to_client).remove(0);
    assert_eq!((&answer["id"], &answer["result"]["content"][0]["text"]), (&json!(1), &json!("done")), "{answer}");
}

#[test]
fn clients_with_the_same_ids_get_their_own_answers() {
    // M4: stateless 2026-07-28 clients through one bridge, each starting at id 1 (an HTTP POST each).
    let mut b = bridge("2025-11-25");
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let call = |who: &str| line(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"who": who}, "_meta": meta}}));
    let init = sent(&b.from_client_at(&call("a"), Some(10)));
    assert!(b.from_client_at(&call("b"), Some(11)).to_server.is_empty(), "held until the server is initialized");
    let result = json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}});
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": init["id"], "result": result})));
    let ups: Vec<Value> = values(&out.to_server).into_iter().filter(|m| m["method"] == "tools/call").collect();
    assert_eq!(ups.len(), 2);
    assert_ne!(ups[0]["id"], ups[1]["id"]);
    // Answered in the other order: each reaches its own client's exchange, under the client's id 1.
    for up in ups.iter().rev() {
        let who = up["params"]["arguments"]["who"].as_str().unwrap();
        let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": up["id"], "result": {"content": [{"type": "text", "text": who}]}})));
        let answer = values(&out.to_client).remove(0);
        assert_eq!(answer["id"], 1);
        let tag = if who == "a" { 10 } else { 11 };
        assert_eq!((out.replies[0], answer["result"]["content"][0]["text"].as_str()), (Reply::Answer(Some(tag)), Some(who)));
    }
}

#[test]
fn cancelling_during_an_input_round_ends_it() {
    // M5: the client cancels its call while the bridge asks it for input; its late answer to the
    // input request must not send the call upstream again.
    let mut b = older_client_with_a_2026_server();
    let call = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ask", "arguments": {}}}))));
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": call["id"], "result": input_required()})));
    let asked = values(&out.to_client).remove(0);
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5, "reason": "user"}})));
    assert!(out.to_server.is_empty(), "nothing runs upstream: the server answered already");
    // The bridge's own input request is cancelled in turn.
    assert_eq!(values(&out.to_client), vec![json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": asked["id"], "reason": "the request it was for was cancelled"}})]);
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": "yes"}, "model": "m"});
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "id": asked["id"], "result": reply})));
    assert!(out.to_server.is_empty() && out.to_client.is_empty(), "{:?}", values(&out.to_server));
    assert!(b.settled(), "no input round left");
    // A call in flight upstream: its cancellation goes on, under the bridge's id for it.
    let call = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "slow", "arguments": {}}}))));
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 6}})));
    assert_eq!(sent(&out)["params"]["requestId"], call["id"]);
    // One that names no request of the client's goes nowhere (upstream it could name another's).
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}})));
    assert!(out.to_server.is_empty());
}

/// A message of small objects whose tree would pass the default budget (256 MiB) by far.
fn costly(head: &str, tail: &str) -> Vec<u8> {
    let mut text = head.as_bytes().to_vec();
    while text.len() < 4 << 20 {
        text.extend_from_slice(br#"{"k":1},"#);
    }
    text.extend_from_slice(br#"{"k":1}"#);
    text.extend_from_slice(tail.as_bytes());
    text
}

/// The bytes a `Value` of `bytes` is written as (keys sorted): what the bridge writes.
fn as_value_writes(bytes: &[u8]) -> Vec<u8> {
    serde_json::to_vec(&serde_json::from_slice::<Value>(bytes).unwrap()).unwrap()
}

#[test]
fn a_message_of_many_small_objects_is_converted_and_one_that_must_be_read_whole_is_refused() {
    let mut b = older_client_with_a_2026_server();
    // From the client: 4 MiB of small objects in the arguments (a free-form value, carried as it is)
    // goes on converted, written as its whole `Value` would be.
    let call = costly(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":["#, "]}}}");
    let out = b.from_client(&call);
    assert_eq!((out.to_server.len(), out.to_client.len()), (1, 0));
    assert_eq!(out.to_server[0], as_value_writes(&out.to_server[0]));
    let up = sent(&out);
    let original: Value = serde_json::from_slice(&call).unwrap();
    assert_eq!(up["params"]["arguments"], original["params"]["arguments"]);
    assert_eq!(up["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(out.records[0].note.as_ref().unwrap().verdict, Verdict::Converted);
    // From the server: a list of 4 MiB of small objects is a typed array, which the conversion
    // reads whole: over its budget, the client's request gets -32603 saying why.
    let list = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list"}))));
    let head = format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{"tools":["#, list["id"]);
    let out = b.from_server(&costly(&head, "]}}"));
    let error = values(&out.to_client).remove(0);
    assert_eq!((&error["id"], &error["error"]["code"]), (&json!(8), &json!(-32603)));
    assert!(error["error"]["message"].as_str().unwrap().contains("value tree would take"), "{error}");
    // The answer to the call: a big string costs about its bytes; it passes, unchanged.
    let blob = "QUJD".repeat(1 << 20);
    let answer = json!({"jsonrpc": "2.0", "id": up["id"], "result": {"resultType": "complete", "content": [{"type": "image", "mimeType": "image/png", "data": blob}]}});
    let out = b.from_server(&line(answer));
    let back = values(&out.to_client).remove(0);
    assert_eq!((&back["id"], &back["result"]["content"][0]["data"]), (&json!(7), &json!(blob)));
    assert_eq!(out.to_client[0], as_value_writes(&out.to_client[0]));
    // A long string in a typed field is checked as itself: bad base64 there is refused.
    let call = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "x", "arguments": {}}}))));
    let bad = format!("{}!", "QUJD".repeat(1 << 17));
    let answer = json!({"jsonrpc": "2.0", "id": call["id"], "result": {"resultType": "complete", "content": [{"type": "image", "mimeType": "image/png", "data": bad}]}});
    let error = values(&b.from_server(&line(answer)).to_client).remove(0);
    assert_eq!((&error["id"], &error["error"]["code"]), (&json!(10), &json!(-32603)));
    assert!(error["error"]["message"].as_str().unwrap().contains("base64: its length (524289)"), "{error}");
}

#[test]
fn a_long_message_with_a_repeated_key_is_converted_as_a_value_reads_it() {
    let mut b = older_client_with_a_2026_server();
    // Last wins, at the top, in the arguments and inside the objects elided from the skeleton.
    let head = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"first","arguments":{"z":0,"a":["#;
    let mut call = head.as_bytes().to_vec();
    while call.len() < 1 << 20 {
        call.extend_from_slice(br#"{"k":1,"k":2},"#);
    }
    call.extend_from_slice(br#"{"k":3}],"z":9},"name":"x"},"id":9}"#);
    let out = b.from_client(&call);
    assert_eq!(out.to_server.len(), 1, "{:?}", out.records[0].note);
    let up = sent(&out);
    let original: Value = serde_json::from_slice(&call).unwrap();
    assert_eq!((&up["params"]["name"], &up["params"]["arguments"]["z"]), (&json!("x"), &json!(9)));
    assert_eq!(up["params"]["arguments"], original["params"]["arguments"]);
    assert_eq!(up["params"]["arguments"]["a"][0], json!({"k": 2}));
    // The elided array goes on as the client wrote it, its repeated keys too (a reader that takes
    // the last one, as `Value` does, reads the same); the rest is written as its `Value` would be.
    let array = &call[memchr::memmem::find(&call, b"[").unwrap()..memchr::memmem::rfind(&call, b"]").unwrap() + 1];
    assert!(memchr::memmem::find(&out.to_server[0], array).is_some());
    assert!(out.to_server[0].starts_with(br#"{"id":"mcp-schema-bridge/"#), "{:?}", String::from_utf8_lossy(&out.to_server[0][..80]));
    // Its answer goes to the client under the last `id`.
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": up["id"], "result": {"content": []}})));
    assert_eq!(values(&out.to_client).remove(0)["id"], json!(9));
}

/// A long `tools/call` whose arguments hold `parts` (JSON texts), each a part the bridge elides.
pub(super) fn long_call(id: u64, parts: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut call = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"x","arguments":{{"#).into_bytes();
    for (i, (k, text)) in parts.iter().enumerate() {
        if i > 0 {
            call.push(b',');
        }
        call.extend_from_slice(format!("\"{k}\":").as_bytes());
        call.extend_from_slice(text);
    }
    call.extend_from_slice(b"}}}");
    call
}

#[test]
fn a_long_message_goes_on_with_its_elided_parts_as_the_peer_wrote_them() {
    let mut b = older_client_with_a_2026_server();
    // An array of small objects with their keys out of order and escapes; an object of 2000 keys,
    // the last first; a long string with escapes.
    let mut array = b"[".to_vec();
    for i in 0..40_000 {
        array.extend_from_slice(format!(r#"{{"z":{i},"a":"\u00e9\/","m":-0}},"#).as_bytes());
    }
    array.extend_from_slice(br#"{"z":0}]"#);
    let object = format!("{{{}}}", (0..2000).rev().map(|i| format!(r#""k{i}":[{i}, true ,null]"#)).collect::<Vec<_>>().join(","));
    let string = format!(r#""{}\n\u0041""#, "Q".repeat(20_000));
    let parts = [("list", array), ("map", object.into_bytes()), ("text", string.into_bytes())];
    let call = long_call(7, &parts);
    assert!(call.len() > 1 << 20);
    let mut buffer = Vec::with_capacity(call.len() + 4096);
    buffer.extend_from_slice(&call);
    let at = buffer.as_ptr();
    let mut out = b.from_client_shared(bytes::Bytes::from(buffer), None);
    assert_eq!((out.to_server.len(), out.records.len()), (1, 2));
    let sent = out.to_server[0].clone();
    for (k, text) in &parts {
        assert!(memchr::memmem::find(&sent, text).is_some(), "{k} is not byte for byte the client's");
    }
    let up: Value = serde_json::from_slice(&sent).unwrap();
    let original: Value = serde_json::from_slice(&call).unwrap();
    assert_eq!(up["params"]["arguments"], original["params"]["arguments"]);
    assert_eq!(up["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    // The recording: the client's line is made into its recording line in its own buffer (the
    // record holds the last handle on it), the server's once the line sent is gone.
    let received = super::into_line(out.records.remove(0), None);
    assert_eq!(received.as_ptr(), at, "the client's line was copied");
    assert!(received.starts_with(br#"{"leg":"client","dir":"c2s","msg":{"jsonrpc""#) && received.ends_with(b"}\n"));
    let wrapped: Value = serde_json::from_slice(&received).unwrap();
    assert_eq!((&wrapped["msg"], &wrapped["bridge"]["verdict"]), (&original, &json!("converted")));
    let sent_at = out.to_server[0].as_ptr();
    drop((out.to_server, sent));
    let line = super::into_line(out.records.remove(0), None);
    assert_eq!(line.as_ptr(), sent_at, "the line sent was copied");
    assert_eq!(serde_json::from_slice::<Value>(&line).unwrap()["msg"], up);
}

#[test]
fn a_shared_message_is_copied_once_into_its_recording_line() {
    let r = super::Record { leg: super::Leg::Server, dir: crate::vocab::Direction::ServerToClient, bytes: bytes::Bytes::from_static(br#"{"jsonrpc":"2.0","method":"m"}"#), note: None };
    let kept = r.bytes.clone();
    let line = super::into_line(r, None);
    assert_eq!(line, br#"{"leg":"server","dir":"s2c","msg":{"jsonrpc":"2.0","method":"m"}}"#.iter().chain(b"\n").copied().collect::<Vec<u8>>());
    assert_ne!(line.as_ptr(), kept.as_ptr());
    // Not JSON: as it travelled.
    let r = super::Record { leg: super::Leg::Client, dir: crate::vocab::Direction::ClientToServer, bytes: bytes::Bytes::from(b"not json".to_vec()), note: None };
    assert_eq!(super::into_line(r, None), b"not json\n");
}

/// Numbers past 64 bits and long exponents in a long message: the elided part goes on as the peer
/// wrote it, the part kept in the skeleton as a `Value` reads it (finding a part's text once passed
/// over such numbers with the typed reader, which refuses them, and panicked).
#[test]
fn a_long_message_with_numbers_past_64_bits_goes_on() {
    let mut b = older_client_with_a_2026_server();
    let big = "123456789012345678901234567890";
    let mut array = b"[".to_vec();
    for i in 0..40_000 {
        array.extend_from_slice(format!(r#"{{"n":{big},"e":1e-4000,"i":{i}}},"#).as_bytes());
    }
    array.extend_from_slice(format!("[{big}, -1.5E-400000]]").as_bytes());
    let kept = format!(r#"{{"n":{big},"e":[1e-4000]}}"#);
    let parts = [("list", array), ("small", kept.into_bytes())];
    let call = long_call(8, &parts);
    assert!(call.len() > super::elide::ELIDE_LINE);
    let out = b.from_client_shared(bytes::Bytes::from(call.clone()), None);
    assert_eq!((out.to_server.len(), out.records.len()), (1, 2));
    let sent = &out.to_server[0];
    assert!(memchr::memmem::find(sent, &parts[0].1).is_some(), "the elided list is not byte for byte the client's");
    let (up, original): (Value, Value) = (serde_json::from_slice(sent).unwrap(), serde_json::from_slice(&call).unwrap());
    assert_eq!(up["params"]["arguments"], original["params"]["arguments"]);
}
