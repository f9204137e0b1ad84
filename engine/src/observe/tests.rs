//! Tests of the observer: what it makes of each message in either direction, held against a plain
//! model on random traffic.

use serde_json::{json, Value};

use super::*;

const C2S: Direction = Direction::ClientToServer;
const S2C: Direction = Direction::ServerToClient;

struct Watch {
    observer: Observer<u64>,
    // The same messages seen as compact trees (`observe_node`): every test checks both agree.
    tree: Observer<u64>,
    at: u64,
}

impl Watch {
    fn new() -> Watch {
        Watch::with(ObserverConfig::default())
    }

    fn with(config: ObserverConfig) -> Watch {
        Watch { observer: Observer::new(config.clone()), tree: Observer::new(config), at: 0 }
    }

    fn see(&mut self, dir: Option<Direction>, v: Value) -> Seen<u64> {
        self.at += 1;
        let at = self.at;
        let seen = self.observer.observe(at, dir, v.as_object().unwrap(), || at * 100);
        let doc = mcp_spec_types::tree::Doc::from_value(&v);
        let tree = self.tree.observe_node(at, dir, doc.root().as_object().unwrap(), || at * 100);
        let answered = |s: &Seen<u64>| s.answered.as_ref().map(|a| (a.request, a.at, a.attachment, a.initialize));
        assert_eq!((&tree.observations, tree.direction, answered(&tree)), (&seen.observations, seen.direction, answered(&seen)), "{v}");
        assert_eq!((self.tree.version(), self.tree.is_initialized(), self.tree.forgotten()), (self.observer.version(), self.observer.is_initialized(), self.observer.forgotten()));
        seen
    }

    fn obs(&mut self, dir: Direction, v: Value) -> Vec<Observation> {
        self.see(Some(dir), v).observations
    }

    /// `initialize` (id 0), its answer and `notifications/initialized`: positions 1 to 3.
    fn started() -> Watch {
        let mut w = Watch::new();
        assert!(w.obs(C2S, req(0, "initialize", json!({"protocolVersion": "2025-11-25"}))).is_empty());
        assert!(w.obs(S2C, ok(0, json!({"protocolVersion": "2025-11-25"}))).is_empty());
        assert!(w.obs(C2S, note("notifications/initialized", json!({}))).is_empty());
        w
    }
}

fn req(id: impl Into<Value>, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params})
}

fn note(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn ok(id: impl Into<Value>, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "result": result})
}

fn call(id: i64, token: Value) -> Value {
    req(id, "tools/call", json!({"name": "count", "_meta": {"progressToken": token}}))
}

fn progress(token: Value, p: f64) -> Value {
    note("notifications/progress", json!({"progressToken": token, "progress": p}))
}

fn cancel(id: impl Into<Value>) -> Value {
    note("notifications/cancelled", json!({"requestId": id.into()}))
}

/// Issue 28, item 6: a cancelled request's late progress and late result are both reported, by
/// the one entry that left flight at the cancellation.
#[test]
fn late_progress_and_late_answer_of_a_cancelled_request() {
    let mut w = Watch::started();
    w.obs(C2S, call(2, json!("p")));
    assert!(w.obs(S2C, progress(json!("p"), 1.0)).is_empty());
    assert!(w.obs(C2S, cancel(2)).is_empty());
    assert!(!w.observer.is_in_flight(C2S, &json!(2)));
    assert_eq!(w.obs(S2C, progress(json!("p"), 2.0)), [Observation::ProgressAfterCancel { request_at: 4, cancelled_at: 6 }]);
    assert_eq!(w.obs(S2C, ok(2, json!({}))), [Observation::AnsweredAfterCancel { request_at: 4, cancelled_at: 6 }]);
}

/// A request the observer saw answered is in flight for neither progress nor answers.
#[test]
fn an_answered_request_is_not_in_flight() {
    let mut w = Watch::started();
    w.obs(C2S, call(2, json!(9)));
    let seen = w.see(Some(S2C), ok(2, json!({})));
    let answered = seen.answered.expect("answers the call");
    assert_eq!((answered.request, answered.at, answered.attachment), (C2S, 4, 400), "the attachment comes back with the answer");
    assert_eq!(w.obs(S2C, progress(json!(9), 1.0)), [Observation::ProgressAfterAnswer { request_at: 4, answered_at: 5 }]);
    assert_eq!(w.obs(S2C, ok(2, json!({}))), [Observation::AnsweredAgain { request_at: 4 }]);
    // A cancellation that crossed the answer is no cancellation of an unknown request.
    assert!(w.obs(C2S, cancel(2)).is_empty());
    assert_eq!(w.observer.in_flight_len(C2S), 0);
}

#[test]
fn progress_increases_per_request() {
    let mut w = Watch::started();
    w.obs(C2S, call(2, json!("a")));
    assert!(w.obs(S2C, progress(json!("a"), 1.0)).is_empty());
    assert_eq!(w.obs(S2C, progress(json!("a"), 1.0)), [Observation::ProgressNotIncreasing { last: 1.0, last_at: 5, progress: 1.0 }]);
    // A token given again by a new request starts over.
    w.obs(S2C, ok(2, json!({})));
    w.obs(C2S, call(3, json!("a")));
    assert!(w.obs(S2C, progress(json!("a"), 0.5)).is_empty());
    // Progress for the token of a request that went the other way is for no request in flight.
    assert_eq!(w.obs(C2S, progress(json!("a"), 2.0)), [Observation::ProgressUnknownToken { forgotten: false }]);
}

#[test]
fn ids_and_answers() {
    let mut w = Watch::started();
    w.obs(C2S, req(2, "ping", json!({})));
    assert_eq!(w.obs(C2S, req(2, "ping", json!({}))), [Observation::DuplicateId { open_at: 4 }]);
    w.obs(S2C, ok(2, json!({})));
    assert_eq!(w.obs(C2S, req(2, "ping", json!({}))), [Observation::ReusedId { request_at: 5 }]);
    // Ids are per direction: the server's id 2 is its own.
    assert!(w.obs(S2C, req(2, "ping", json!({}))).is_empty());
    assert_eq!(w.obs(S2C, ok(77, json!({}))), [Observation::UnknownAnswer { forgotten: false }]);
    // Without a direction, an answer finds its request either way, and takes its direction.
    let seen = w.see(None, ok(2, json!({})));
    assert_eq!((seen.direction, seen.answered.map(|a| a.request)), (Some(S2C), Some(C2S)));
    let seen = w.see(None, ok(2, json!({})));
    assert_eq!(seen.answered.map(|a| a.request), Some(S2C));
}

#[test]
fn cancellations() {
    let mut w = Watch::started();
    assert_eq!(w.obs(C2S, cancel(0)), [Observation::CancelInitialize]);
    assert_eq!(w.obs(C2S, cancel(5)), [Observation::CancelUnknown { forgotten: false }]);
    w.obs(S2C, req(5, "roots/list", json!({})));
    // The client's cancellation is of the client's requests: the server's id 5 is not one.
    assert_eq!(w.obs(C2S, cancel(5)), [Observation::CancelUnknown { forgotten: false }]);
    assert!(w.obs(S2C, cancel(5)).is_empty());
    assert_eq!(w.obs(C2S, ok(5, json!({"roots": []}))), [Observation::AnsweredAfterCancel { request_at: 6, cancelled_at: 8 }]);
}

#[test]
fn cancelling_initialize_leaves_it_in_flight() {
    let mut w = Watch::new();
    w.obs(C2S, req(1, "initialize", json!({})));
    assert_eq!(w.obs(C2S, cancel(1)), [Observation::CancelInitialize]);
    let seen = w.see(Some(S2C), ok(1, json!({"protocolVersion": "2025-06-18"})));
    assert!(seen.observations.is_empty() && seen.answered.is_some());
    assert_eq!(w.observer.version(), Some("2025-06-18"));
}

#[test]
fn lifecycle() {
    let mut w = Watch::new();
    w.obs(C2S, req(1, "ping", json!({})));
    assert_eq!(w.obs(C2S, req(2, "initialize", json!({}))), [Observation::InitializeNotFirst { first_at: 1 }]);
    assert!(w.obs(C2S, req(3, "ping", json!({}))).is_empty());
    assert_eq!(w.obs(C2S, req(4, "tools/list", json!({}))), [Observation::RequestBeforeInitialized { initialize_at: 2 }]);
    assert!(w.obs(S2C, note("notifications/message", json!({"level": "info", "data": 1}))).is_empty());
    assert_eq!(w.obs(S2C, note("notifications/tools/list_changed", json!({}))), [Observation::ServerBeforeInitialized { request: false }]);
    assert_eq!(w.obs(C2S, note("notifications/initialized", json!({}))), [Observation::InitializedBeforeAnswer { initialize_at: 2 }]);
    assert!(w.observer.is_initialized());
    assert!(w.obs(S2C, req(9, "roots/list", json!({}))).is_empty());
}

#[test]
fn odd_messages_do_not_panic() {
    let mut w = Watch::new();
    for v in [json!({}), json!({"method": 5, "id": 1}), json!({"id": null, "result": 1}), json!({"method": "notifications/progress"}), json!({"method": "notifications/progress", "params": {"progressToken": {}}}), json!({"method": "notifications/cancelled", "params": 3}), json!({"id": [1], "method": "x"}), json!({"id": 1.5, "method": "x"})] {
        w.see(None, v);
    }
    // A non-integer number id still matches its answer.
    assert!(w.see(None, ok(1.5, json!({}))).answered.is_some());
}

fn long(i: usize) -> String {
    format!("{}{i}", "x".repeat(100_000))
}

/// Hostile ids: a table holds its cap, counts what it forgot, and a long id costs a digest.
#[test]
fn tables_are_bounded() {
    let mut w = Watch::with(ObserverConfig { max_in_flight: 8, max_ended: 4, max_bytes: 1 << 20 });
    for i in 0..20 {
        w.obs(C2S, call(i, json!(format!("t{i}"))));
    }
    assert_eq!(w.observer.in_flight_len(C2S), 8);
    assert_eq!(w.observer.in_flight(C2S).next().map(|r| r.at), Some(13), "the oldest remembered comes first");
    assert_eq!(w.observer.forgotten(), 2 * 12, "12 requests and their 12 tokens");
    // An answer to a forgotten request is unknown, and says the table forgot some.
    assert_eq!(w.obs(S2C, ok(0, json!({}))), [Observation::UnknownAnswer { forgotten: true }]);
    // 1000 ids of 100 kB each, under a 1 MiB budget: the long ids are digests, nothing is forgotten by bytes.
    let mut w = Watch::with(ObserverConfig { max_in_flight: 2000, max_ended: 2000, max_bytes: 1 << 20 });
    for i in 0..1000 {
        w.obs(C2S, req(long(i), "ping", json!({})));
    }
    assert_eq!((w.observer.in_flight_len(C2S), w.observer.forgotten()), (1000, 0));
    assert!(w.see(Some(S2C), ok(long(999), json!({}))).answered.is_some());
}

/// Ended requests the table forgot were not in flight: progress for an unknown token is still
/// known to be for no request in flight.
#[test]
fn forgetting_ended_requests_keeps_what_is_in_flight_certain() {
    let mut w = Watch::with(ObserverConfig { max_in_flight: 8, max_ended: 2, max_bytes: 1 << 20 });
    for i in 0..5 {
        w.obs(C2S, call(i, json!(i)));
        w.obs(S2C, ok(i, json!({})));
    }
    assert_eq!(w.observer.forgotten(), 2 * 3, "3 ended ids and their 3 tokens");
    assert_eq!(w.obs(S2C, progress(json!("never"), 1.0)), [Observation::ProgressUnknownToken { forgotten: false }]);
    assert_eq!(w.obs(S2C, ok(99, json!({}))), [Observation::UnknownAnswer { forgotten: false }]);
    // A cancellation of a forgotten id may be of a request issued long ago.
    assert_eq!(w.obs(C2S, cancel(99)), [Observation::CancelUnknown { forgotten: true }]);
}

/// Random traffic from a small alphabet (ids, tokens, directions, kinds), against a plain model
/// of what is in flight: the observer agrees on every step, and nothing panics.
#[test]
fn random_traffic_agrees_with_a_plain_model() {
    use std::collections::{HashMap, HashSet};
    let mut sequence = crate::tests::xorshift(0x2545_f491_4f6c_dd1d);
    let mut next = move |n: u64| sequence() % n;
    // A 200-byte id is kept as a digest.
    let ids = [json!(1), json!(2), json!(3), json!("a"), json!("l".repeat(200)), json!(1.5), json!(null)];
    let mut w = Watch::new();
    // Per direction: id -> token, for requests in flight (by the id's JSON text).
    let mut open: [HashMap<String, Option<String>>; 2] = Default::default();
    let mut ended_cancelled: [HashSet<String>; 2] = Default::default();
    for step in 0..20_000 {
        let dir = [Some(C2S), Some(S2C), None][next(3) as usize];
        let id = ids[next(ids.len() as u64) as usize].clone();
        let key = id.to_string();
        let token = ["t1", "t2"][next(2) as usize];
        let msg = match next(6) {
            0 | 1 => req(id.clone(), "tools/call", json!({"_meta": {"progressToken": token}})),
            2 => ok(id.clone(), json!({})),
            3 => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -1, "message": "no"}}),
            4 => cancel(id.clone()),
            _ => progress(json!(token), next(5) as f64),
        };
        let seen = w.see(dir, msg.clone());
        let o = msg.as_object().unwrap();
        let req_dir = |d: Option<Direction>| d.unwrap_or(C2S).index();
        if o.contains_key("method") && o.contains_key("id") && !id.is_null() {
            let i = req_dir(dir);
            open[i].insert(key.clone(), Some(token.into()));
            ended_cancelled[i].remove(&key);
            assert!(w.observer.is_in_flight(super::BOTH[i], &id), "step {step}: a request is in flight");
        } else if o.contains_key("result") || o.contains_key("error") {
            // An answer takes out the request of the other way (either, without a direction).
            let ways: Vec<usize> = match dir {
                Some(d) => vec![d.opposite().index()],
                None => vec![0, 1],
            };
            let found = ways.iter().copied().find(|&i| !id.is_null() && open[i].contains_key(&key));
            assert_eq!(seen.answered.as_ref().map(|a| a.request.index()), found, "step {step}: {msg}");
            if let Some(i) = found {
                open[i].remove(&key);
            } else if dir.is_some() && ended_cancelled[ways[0]].contains(&key) {
                // (Without a direction, either side's ended request may be the one named.)
                assert!(matches!(seen.observations[..], [Observation::AnsweredAfterCancel { .. }]), "step {step}: {:?}", seen.observations);
            }
        } else if msg["method"] == "notifications/cancelled" {
            let ways: Vec<usize> = match dir {
                Some(d) => vec![d.index()],
                None => vec![0, 1],
            };
            for i in ways {
                if open[i].remove(&key).is_some() {
                    ended_cancelled[i].insert(key.clone());
                }
            }
        }
        for i in 0..2 {
            assert_eq!(w.observer.in_flight_len(super::BOTH[i]), open[i].len(), "step {step}: {msg}");
        }
    }
}

/// A repeated key counts with its last value, on a tree as in a `Value` of the same text.
#[test]
fn a_tree_with_repeated_keys_is_seen_as_its_value() {
    let lines = [
        (C2S, r#"{"jsonrpc":"2.0","id":0,"method":"ping","method":"initialize","params":{}}"#),
        (S2C, r#"{"jsonrpc":"2.0","id":5,"result":{"protocolVersion":"x"},"id":0,"result":{"protocolVersion":"2025-11-25"}}"#),
        (C2S, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        (C2S, r#"{"jsonrpc":"2.0","id":"a","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"_meta":{"progressToken":7}}}"#),
        (S2C, r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progressToken":7,"progress":2}}"#),
        (S2C, r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":3,"progress":1}}"#),
        (C2S, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a","requestId":1}}"#),
        (S2C, r#"{"jsonrpc":"2.0","id":1,"id":"a","result":{}}"#),
        (S2C, r#"{"jsonrpc":"2.0","id":1,"result":{},"method":7}"#),
    ];
    let (mut value, mut tree) = (Observer::<()>::new(ObserverConfig::default()), Observer::<()>::new(ObserverConfig::default()));
    let (mut passed, mut failed) = (0, 0);
    let mut all = Vec::new();
    for (at, (dir, line)) in lines.into_iter().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        let a = value.observe(at as u64, Some(dir), v.as_object().unwrap(), || ()).observations;
        let doc = mcp_spec_types::tree::Doc::parse(line).unwrap();
        let b = tree.observe_node(at as u64, Some(dir), doc.root().as_object().unwrap(), || ()).observations;
        if a == b {
            passed += 1;
        } else {
            failed += 1;
            eprintln!("{line}: Value {a:?}, tree {b:?}");
        }
        all.extend(b);
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
    assert_eq!(tree.version(), Some("2025-11-25"));
    // The last token (7) and the last progress (1 after 2): not increasing; the last id ("a")
    // answers nothing; a `method` that is no string (the last line) makes no message.
    assert_eq!(all, [Observation::ProgressNotIncreasing { last: 2.0, last_at: 4, progress: 1.0 }, Observation::UnknownAnswer { forgotten: false }]);
}
