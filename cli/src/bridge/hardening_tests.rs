//! The bridge core facing clients it cannot trust to choose ids well, to wait for what they asked,
//! or to send messages of a sane cost: ids rewritten upstream (issue 42, M4 and L5), a
//! cancellation that ends an input round (M5), messages refused by their tree's cost (H1).

use serde_json::{json, Value};

use super::record::Verdict;
use super::tests::{bridge, line, values};
use super::{Bridge, Output, Reply};

fn sent(out: &Output) -> Value {
    values(&out.to_server).remove(0)
}

/// An older client in session with a 2026-07-28 server: `initialize` answered from `server/discover`.
fn older_client_with_a_2026_server() -> Bridge {
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

#[test]
fn a_message_too_costly_as_a_tree_is_refused_unread() {
    let mut b = older_client_with_a_2026_server();
    // From the client: a request gets -32600 under its id, and nothing goes upstream.
    let out = b.from_client(&costly(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":["#, "]}}}"));
    assert!(out.to_server.is_empty());
    let error = values(&out.to_client).remove(0);
    assert_eq!((&error["id"], &error["error"]["code"]), (&json!(7), &json!(-32600)));
    assert!(error["error"]["message"].as_str().unwrap().contains("value tree would take"), "{error}");
    assert_eq!(out.records[0].note.as_ref().unwrap().verdict, Verdict::Refused);
    // From the server: the answer to the client's request becomes -32603 for the client.
    let call = sent(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list"}))));
    let head = format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{"tools":["#, call["id"]);
    let out = b.from_server(&costly(&head, "]}}"));
    let error = values(&out.to_client).remove(0);
    assert_eq!((&error["id"], &error["error"]["code"]), (&json!(8), &json!(-32603)));
    // A big string costs about its bytes: it passes.
    let blob = "A".repeat(24 << 20);
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "x", "arguments": {"image": blob}}})));
    assert_eq!(out.to_server.len(), 1);
}
