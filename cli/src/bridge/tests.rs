//! The bridge core on scripted lines: each case of the module docs, what each side receives, the
//! verdicts, and the recording's legs checked clean by `check`.

use serde_json::{json, Value};

use super::record::{write_line, Verdict};
use super::{Bridge, Output};
use crate::args::CheckArgs;
use crate::check::Checker;
use crate::versions::version_index;

pub(super) fn bridge(to: &str) -> Bridge {
    Bridge::new(version_index(to).unwrap())
}

pub(super) fn line(v: Value) -> Vec<u8> {
    serde_json::to_vec(&v).unwrap()
}

pub(super) fn values(lines: &[impl AsRef<[u8]>]) -> Vec<Value> {
    lines.iter().map(|l| serde_json::from_slice(l.as_ref()).unwrap()).collect()
}

/// Every record of a session, for checking the recording afterwards.
#[derive(Default)]
struct Session {
    recording: Vec<u8>,
}

impl Session {
    fn keep(&mut self, out: &Output) {
        for r in &out.records {
            write_line(&mut self.recording, r).unwrap();
        }
    }

    fn client(&mut self, b: &mut Bridge, v: Value) -> Output {
        let out = b.from_client(&line(v));
        self.keep(&out);
        out
    }

    fn server(&mut self, b: &mut Bridge, v: Value) -> Output {
        let out = b.from_server(&line(v));
        self.keep(&out);
        out
    }

    /// The recording as `check` reads it: (line, rule, message) of every error and warning.
    fn findings(&self) -> Vec<(u64, &'static str, String)> {
        let mut checker = Checker::new(&CheckArgs::default());
        let mut found = Vec::new();
        for (i, l) in self.recording.split(|&b| b == b'\n').enumerate() {
            if let Some(o) = checker.check_line(l, i as u64 + 1) {
                found.extend(o.diags.into_iter().map(|d| (o.line, d.rule, format!("{}: {}", d.pointer, d.message))));
            }
        }
        let end = checker.finish_stream();
        for o in end.outcomes {
            found.extend(o.diags.into_iter().map(|d| (o.line, d.rule, d.message)));
        }
        found
    }
}

fn verdict(b: &Bridge, v: Verdict) -> u64 {
    b.counts.total(v)
}

const META: &str = "_meta";
const PV: &str = "io.modelcontextprotocol/protocolVersion";
const CAPS: &str = "io.modelcontextprotocol/clientCapabilities";

#[test]
fn an_older_client_with_a_2026_server() {
    let mut b = bridge("2026-07-28");
    let mut s = Session::default();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {"sampling": {}}, "clientInfo": {"name": "old", "version": "1"}}});
    let out = s.client(&mut b, init);
    // The bridge asks the server's `server/discover`, with the client's capabilities.
    assert!(out.to_client.is_empty());
    let discover = &values(&out.to_server)[0];
    assert_eq!(discover["method"], "server/discover");
    assert_eq!(discover["params"][META][PV], "2026-07-28");
    assert_eq!(discover["params"][META][CAPS], json!({"sampling": {}}));
    let id = discover["id"].clone();
    let result = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}, "logging": {}, "resources": {"subscribe": true}}, "instructions": "hi", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "new", "version": "2"}}});
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": id, "result": result}));
    let answer = &values(&out.to_client)[0];
    assert_eq!(answer["id"], 0);
    assert_eq!(answer["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(answer["result"]["serverInfo"]["name"], "new");
    assert_eq!(answer["result"]["capabilities"]["tools"], json!({}));
    assert_eq!(answer["result"]["instructions"], "hi");
    assert_eq!(b.client_version(), Some("2025-06-18"));

    // `notifications/initialized` has nowhere to go; `ping` is answered by the bridge.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert!(out.to_server.is_empty() && out.to_client.is_empty());
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    assert_eq!(values(&out.to_client), vec![json!({"jsonrpc": "2.0", "id": 1, "result": {}})]);
    assert!(out.to_server.is_empty());

    // tools/list: stamped with the per-request keys; the answer loses what 2025-06-18 lacks.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let sent = &values(&out.to_server)[0];
    assert_eq!(sent["params"][META][PV], "2026-07-28");
    assert_eq!(sent["params"][META][CAPS], json!({"sampling": {}}));
    assert_eq!(sent["params"][META]["io.modelcontextprotocol/clientInfo"]["name"], "old");
    // Upstream, the request carries an id of the bridge's.
    assert!(sent["id"].as_str().unwrap().starts_with("mcp-schema-bridge/"), "{sent}");
    let tools = json!({"resultType": "complete", "ttlMs": 5, "cacheScope": "private", "tools": [{"name": "add", "inputSchema": {"type": "object"}}]});
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": sent["id"], "result": tools}));
    let answer = &values(&out.to_client)[0];
    assert_eq!(answer["result"], json!({"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}));

    // A subscription is a stream in 2026-07-28, not a request: refused with the row, answered with an error.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 3, "method": "resources/subscribe", "params": {"uri": "file:///a"}}));
    assert!(out.to_server.is_empty());
    let error = &values(&out.to_client)[0];
    assert_eq!(error["id"], 3);
    assert_eq!(error["error"]["code"], -32601);
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("CONVERSIONS.md") && message.contains("SubscribeRequest"), "{message}");
    let refused = out.records.iter().find_map(|r| r.note.clone()).unwrap();
    assert_eq!(refused.verdict, Verdict::Refused);
    assert!(refused.row.as_deref().unwrap().contains("ClientRequest.SubscribeRequest"), "{refused:?}");

    // `logging/setLevel` (not in 2026-07-28): answered; the level rides in each later request's `_meta`.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 4, "method": "logging/setLevel", "params": {"level": "debug"}}));
    assert!(out.to_server.is_empty());
    assert_eq!(values(&out.to_client), vec![json!({"jsonrpc": "2.0", "id": 4, "result": {}})]);
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "add", "arguments": {}}}));
    let call = values(&out.to_server)[0].clone();
    assert_eq!(call["params"][META]["io.modelcontextprotocol/logLevel"], "debug");
    // Cancelling it: 2026-07-28 keeps `notifications/cancelled`; its requestId is the bridge's id upstream.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}));
    assert_eq!(values(&out.to_server)[0]["params"]["requestId"], call["id"]);

    assert_eq!((verdict(&b, Verdict::Answered), verdict(&b, Verdict::Dropped), verdict(&b, Verdict::Refused)), (3, 1, 1));
    assert_eq!(verdict(&b, Verdict::Converted), 5);
    assert_eq!(s.findings(), vec![]);
}

#[test]
fn input_requests_of_a_2026_server_become_requests_to_an_older_client() {
    let mut b = bridge("2026-07-28");
    let mut s = Session::default();
    s.client(&mut b, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "old", "version": "1"}}}));
    let discover = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}});
    s.server(&mut b, json!({"jsonrpc": "2.0", "id": "mcp-schema-bridge/1", "result": discover}));
    s.client(&mut b, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let call = values(&s.client(&mut b, json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ask", "arguments": {}}})).to_server)[0].clone();
    let sampling = json!({"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi?"}}], "maxTokens": 10}});
    let input = json!({"resultType": "input_required", "inputRequests": {"s1": sampling}, "requestState": "opaque"});
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": call["id"], "result": input.clone()}));
    let asked = &values(&out.to_client)[0];
    assert_eq!(asked["method"], "sampling/createMessage");
    assert_eq!(asked["params"]["maxTokens"], 10);
    let asked_id = asked["id"].clone();
    assert!(asked_id.as_str().unwrap().starts_with("mcp-schema-bridge/"));
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": "yes"}, "model": "m"});
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": asked_id, "result": reply}));
    let retry = &values(&out.to_server)[0];
    assert_eq!(retry["method"], "tools/call");
    assert_eq!(retry["params"]["requestState"], "opaque");
    assert_eq!(retry["params"]["inputResponses"]["s1"]["content"]["text"], "yes");
    assert_eq!(retry["params"]["inputResponses"]["s1"]["resultType"], "complete");
    assert_ne!(retry["id"], 5);
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": retry["id"], "result": {"resultType": "complete", "content": [{"type": "text", "text": "done"}]}}));
    let answer = &values(&out.to_client)[0];
    assert_eq!(answer, &json!({"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "done"}]}}));
    assert_eq!(s.findings(), vec![]);

    // A request too long to keep for a retry (memory stays bounded): its input round is an error to the client.
    let big = "x".repeat(70 << 10);
    let call = values(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "ask", "arguments": {"big": big}}}))).to_server)[0].clone();
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": call["id"], "result": input})));
    let error = &values(&out.to_client)[0];
    assert_eq!((&error["id"], &error["error"]["code"]), (&json!(6), &json!(-32603)));
    assert!(out.to_server.is_empty());
}

#[test]
fn a_2026_client_with_an_older_server() {
    let mut b = bridge("2025-11-25");
    let mut s = Session::default();
    let meta = json!({PV: "2026-07-28", CAPS: {"elicitation": {}}, "io.modelcontextprotocol/clientInfo": {"name": "new", "version": "2"}});
    // The first request: the bridge initializes the server first and holds it.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {META: meta}}));
    assert!(out.to_client.is_empty());
    let init = &values(&out.to_server)[0];
    assert_eq!(init["method"], "initialize");
    assert_eq!(init["params"]["protocolVersion"], "2025-11-25");
    assert_eq!(init["params"]["capabilities"], json!({"elicitation": {}}));
    assert_eq!(init["params"]["clientInfo"]["name"], "new");
    let result = json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "prompts": {}}, "serverInfo": {"name": "old", "version": "1"}, "instructions": "hi"});
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": init["id"], "result": result}));
    assert_eq!(values(&out.to_server), vec![json!({"jsonrpc": "2.0", "method": "notifications/initialized"})]);
    let discover = &values(&out.to_client)[0];
    assert_eq!(discover["id"], 1);
    assert_eq!(discover["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(discover["result"]["capabilities"], json!({"tools": {}, "prompts": {}}));
    assert_eq!(discover["result"][META]["io.modelcontextprotocol/serverInfo"]["name"], "old");

    // A request loses the per-request keys; its result gains `resultType` (and the cache keys of a list).
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {META: meta}}));
    let sent = values(&out.to_server)[0].clone();
    assert_eq!(sent, json!({"jsonrpc": "2.0", "id": sent["id"], "method": "tools/list", "params": {}}));
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": sent["id"], "result": {"tools": [{"name": "ask", "inputSchema": {"type": "object"}}]}}));
    let answer = &values(&out.to_client)[0];
    assert_eq!(answer["result"]["resultType"], "complete");
    assert_eq!(answer["result"]["ttlMs"], 0);
    assert_eq!(answer["result"]["cacheScope"], "private");

    // Other capabilities later: noted, the server keeps the first.
    let other = json!({PV: "2026-07-28", CAPS: {}});
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask", "arguments": {}, META: other}}));
    let note = out.records[0].note.clone().unwrap();
    assert!(note.what.contains("clientCapabilities differ"), "{note:?}");
    let call = values(&out.to_server)[0].clone();

    // The server's elicitation while the call runs: an InputRequiredResult for the call; the retry answers it.
    let ask = json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create", "params": {"message": "name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string"}}}}});
    let out = s.server(&mut b, ask);
    let input = &values(&out.to_client)[0];
    assert_eq!(input["id"], 3);
    assert_eq!(input["result"]["resultType"], "input_required");
    let (k, request) = input["result"]["inputRequests"].as_object().unwrap().iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert!(request.get("id").is_none());
    let responses = json!({k.clone(): {"resultType": "complete", "action": "accept", "content": {"n": "x"}}});
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "ask", "arguments": {}, "inputResponses": responses, META: other}}));
    assert_eq!(values(&out.to_server), vec![json!({"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {"n": "x"}}})]);
    assert!(out.to_client.is_empty());
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": call["id"], "result": {"content": [{"type": "text", "text": "x"}]}}));
    let answer = &values(&out.to_client)[0];
    assert_eq!(answer["id"], 4);
    assert_eq!(answer["result"]["resultType"], "complete");

    // Server ping: answered by the bridge (2026-07-28 has none).
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}));
    assert_eq!(values(&out.to_server), vec![json!({"jsonrpc": "2.0", "id": 9, "result": {}})]);
    // A server request with nothing in flight cannot be carried: refused with an error to the server.
    let ask = json!({"jsonrpc": "2.0", "id": 10, "method": "elicitation/create", "params": {"message": "again?", "requestedSchema": {"type": "object", "properties": {}}}});
    let out = s.server(&mut b, ask);
    let error = &values(&out.to_server)[0];
    assert_eq!(error["error"]["code"], -32601);
    assert!(error["error"]["message"].as_str().unwrap().contains("ServerRequest"));
    assert_eq!(s.findings(), vec![]);
}

#[test]
fn two_versions_before_2026() {
    let mut b = bridge("2024-11-05");
    let mut s = Session::default();
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1", "title": "C"}}}));
    let init = &values(&out.to_server)[0];
    assert_eq!(init["params"]["protocolVersion"], "2024-11-05");
    let result = json!({"protocolVersion": "2024-11-05", "capabilities": {"tools": {}, "logging": {}}, "serverInfo": {"name": "s", "version": "1"}});
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": init["id"], "result": result}));
    assert_eq!(values(&out.to_client)[0]["result"]["protocolVersion"], "2025-11-25");
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(out.to_server.len(), 1);
    // A request 2024-11-05 lacks: refused with the row.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/list"}));
    assert!(out.to_server.is_empty());
    assert_eq!(values(&out.to_client)[0]["error"]["code"], -32601);
    // Content 2024-11-05 lacks in a result the other way: fine; audio from a newer client cannot go back.
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t", "arguments": {}}}));
    assert_eq!(out.to_server.len(), 1);
    let call = values(&out.to_server)[0].clone();
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": call["id"], "result": {"content": [{"type": "text", "text": "ok"}]}}));
    assert_eq!(values(&out.to_client)[0]["result"]["content"][0]["text"], "ok");
    // A server request passes with its id; the client's answer goes back converted.
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}));
    assert_eq!(values(&out.to_client), vec![json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})]);
    let out = s.client(&mut b, json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
    assert_eq!(values(&out.to_server), vec![json!({"jsonrpc": "2.0", "id": 7, "result": {}})]);
    let out = s.server(&mut b, json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}));
    assert_eq!(out.to_client.len(), 1);
    assert_eq!(b.server_version(), "2024-11-05");
    // The client asked for what the server (as the bridge told it) did not declare: the client leg's finding.
    let rules: Vec<&str> = s.findings().iter().map(|f| f.1).collect();
    assert_eq!(rules, vec!["session.capabilities.server"]);
}

#[test]
fn the_same_version_passes_bytes_unchanged() {
    let mut b = bridge("2025-11-25");
    let init = b"{\"jsonrpc\":\"2.0\", \"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}";
    let out = b.from_client(init);
    assert_eq!(out.to_server, vec![init.to_vec()]);
    let odd = b"not json \xff";
    assert_eq!(b.from_server(odd).to_client, vec![odd.to_vec()]);
    assert_eq!(verdict(&b, Verdict::Forwarded), 2);
}

#[test]
fn bad_input_is_refused_not_passed() {
    let mut b = bridge("2026-07-28");
    b.from_client(&line(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})));
    // The last two: found by the bridge fuzz target, passed on converted with their `jsonrpc` as it came.
    for bad in [&b"{"[..], b"[1,2]", b"7", b"\xff\xfe", b"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":5}", b"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}", b"{\"id\":1,\"method\":\"tools/list\"}"] {
        let out = b.from_client(bad);
        assert!(out.to_server.is_empty(), "{bad:?} passed");
        let out = b.from_server(bad);
        assert!(out.to_client.is_empty(), "{bad:?} passed");
    }
    // An answer to nothing is dropped.
    assert!(b.from_server(&line(json!({"jsonrpc": "2.0", "id": 77, "result": {}}))).to_client.is_empty());
}

/// A small xorshift, so the mutations are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn mangled_lines_never_panic_and_every_output_is_json() {
    let corpus = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": {"name": "c", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": {PV: "2026-07-28", CAPS: {}}}}),
        json!({"jsonrpc": "2.0", "id": "mcp-schema-bridge/1", "result": {"resultType": "input_required", "inputRequests": {"k": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}}}}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "requestState": "s"}}),
        json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create", "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t", "inputResponses": {"bridge-1": {"action": "accept"}}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "no"}}),
    ];
    let texts: Vec<Vec<u8>> = corpus.iter().map(|v| serde_json::to_vec(v).unwrap()).collect();
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for to in ["2024-11-05", "2025-11-25", "2026-07-28"] {
        for round in 0..300 {
            let mut b = bridge(to);
            for _ in 0..12 {
                let mut l = texts[(rng.next() % texts.len() as u64) as usize].clone();
                // Mostly whole messages (so the bridge gets far), some cut or with a byte changed.
                match rng.next() % 4 {
                    0 => l.truncate((rng.next() % (l.len() as u64 + 1)) as usize),
                    1 => {
                        let i = (rng.next() % l.len() as u64) as usize;
                        l[i] = (rng.next() & 0xff) as u8;
                    }
                    _ => {}
                }
                let out = if rng.next() % 2 == 0 { b.from_client(&l) } else { b.from_server(&l) };
                if b.client_version() == Some(to) && out.records.iter().any(|r| r.note.as_ref().is_some_and(|n| n.verdict == Verdict::Forwarded)) {
                    continue; // the same version: bytes pass as they came
                }
                for sent in out.to_client.iter().chain(&out.to_server) {
                    assert!(serde_json::from_slice::<Value>(sent).is_ok(), "round {round} to {to}: not JSON: {}", String::from_utf8_lossy(sent));
                }
            }
        }
    }
}

#[test]
fn a_server_that_refuses_the_bridges_initialize_fails_the_held_requests() {
    let mut b = bridge("2025-06-18");
    let meta = json!({PV: "2026-07-28", CAPS: {}});
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {META: meta}})));
    let init = &values(&out.to_server)[0];
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": init["id"], "error": {"code": -32602, "message": "no"}})));
    let error = &values(&out.to_client)[0];
    assert_eq!((&error["id"], &error["error"]["code"]), (&json!(1), &json!(-32603)));
    assert!(error["error"]["message"].as_str().unwrap().contains("refused the bridge's `initialize`"));
    assert!(out.to_server.is_empty());
    // And so is every later request.
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {META: meta}})));
    assert_eq!(values(&out.to_client)[0]["id"], 2);
}

#[test]
fn requests_waiting_per_side_are_bounded_by_bytes_as_well_as_count() {
    use super::core::{key, Up, UpKind};
    let mut b = bridge("2025-11-25");
    let big = Value::String("x".repeat(1 << 20));
    for i in 0..200 {
        b.track_up(&json!(i), Up::forward(json!(i), "tools/call", UpKind::Forward, big.clone()));
    }
    assert!(b.up.bytes() <= 64 << 20, "{}", b.up.bytes());
    assert!(b.up.len() < 200 && b.up.contains(&key(&json!(199))) && !b.up.contains(&key(&json!(0))));
}

/// Skills exists only from 2026-07-28: an older client's `skills/*` goes to a 2026-07-28 server unchanged but for
/// the per-request keys, and its answer comes back unchanged; a 2026-07-28 client's is refused to an older server.
#[test]
fn skills_pass_up_and_are_refused_down() {
    let mut b = bridge("2026-07-28");
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}});
    let discover = values(&b.from_client(&line(init)).to_server)[0].clone();
    let caps = json!({"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}});
    let result = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "supportedVersions": ["2026-07-28"], "capabilities": caps, "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "new", "version": "2"}}});
    b.from_server(&line(json!({"jsonrpc": "2.0", "id": discover["id"], "result": result})));
    let out = b.from_client(&line(json!({"jsonrpc": "2.0", "id": 7, "method": "skills/get", "params": {"uri": "skill://a/SKILL.md"}})));
    let sent = &values(&out.to_server)[0];
    assert_eq!((sent["method"].as_str(), sent["params"]["uri"].as_str(), sent["params"][META][PV].as_str()), (Some("skills/get"), Some("skill://a/SKILL.md"), Some("2026-07-28")));
    let skill = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "skill": {"uri": "skill://a/SKILL.md", "frontmatter": {"name": "a", "description": "d"}, "resources": "dynamic"}});
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": sent["id"], "result": skill.clone()})));
    assert_eq!(values(&out.to_client), vec![json!({"jsonrpc": "2.0", "id": 7, "result": skill})]);
    assert_eq!(verdict(&b, Verdict::Refused), 0);

    let mut b = bridge("2025-11-25");
    let meta = json!({PV: "2026-07-28", CAPS: {}, "io.modelcontextprotocol/clientInfo": {"name": "new", "version": "2"}});
    let init = values(&b.from_client(&line(json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {META: meta}}))).to_server)[0].clone();
    let result = json!({"protocolVersion": "2025-11-25", "capabilities": {"resources": {}}, "serverInfo": {"name": "old", "version": "1"}});
    let out = b.from_server(&line(json!({"jsonrpc": "2.0", "id": init["id"], "result": result})));
    assert_eq!(values(&out.to_server), vec![json!({"jsonrpc": "2.0", "method": "notifications/initialized"})]);
    let error = &values(&out.to_client)[0];
    assert_eq!((error["id"].as_i64(), error["error"]["code"].as_i64()), (Some(1), Some(-32601)));
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("the skills extension's, which exists only from 2026-07-28"), "{message}");
    assert_eq!(verdict(&b, Verdict::Refused), 1);
}
