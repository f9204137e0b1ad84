//! `call`, `next_event_until` and `close` on the blocking adapter.

use std::io;
use std::process::Command;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
use serde_json::json;

use super::super::tests::{fed, send, Written};
use super::super::Connection;
use crate::{CallError, Client, Closed, Config, Event, RequestError};

fn client() -> (Connection<Client>, Sender<Vec<u8>>, Written) {
    fed(Client::new(Config::default()))
}

#[test]
fn call_returns_its_answer_and_hands_every_other_event_over() {
    let (mut conn, feed, out) = client();
    // The server's lines before the answer: a notification, progress, a ping (the engine answers it).
    send(&feed, json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    send(&feed, json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}));
    send(&feed, json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}));
    send(&feed, json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}}));
    let mut others = Vec::new();
    let tools = conn.call_with_progress(ListToolsRequest::new(RequestId::Integer(0)), None, |_, e| others.push(e)).unwrap();
    assert_eq!(tools.tools[0].name, "t");
    assert!(matches!(&others[..], [Event::Notification { .. }, Event::Progress { request: 1, .. }]), "{others:?}");
    conn.flush().unwrap();
    let written = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(written.contains(r#"{"id":"p","jsonrpc":"2.0","result":{}}"#), "{written}");

    // An error answer, a timeout and the end of input are the call's error.
    send(&feed, json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}}));
    let refused = conn.call(ListToolsRequest::new(RequestId::Integer(0)), None, |_, _| {});
    assert!(matches!(refused, Err(CallError::Request(RequestError::Rpc(e))) if e.code == -32601));
    let late = conn.call(ListToolsRequest::new(RequestId::Integer(0)), Some(Duration::from_millis(20)), |_, _| {});
    assert!(matches!(late, Err(CallError::Request(RequestError::TimedOut))), "{late:?}");
    drop(feed);
    let ended = conn.call(ListToolsRequest::new(RequestId::Integer(0)), None, |_, _| {});
    assert!(matches!(ended, Err(CallError::Ended)), "{ended:?}");
}

#[test]
fn next_event_until_gives_up_at_its_deadline_and_the_connection_goes_on() {
    let (mut conn, feed, _out) = client();
    // Nothing pending, nothing arriving: `next_event` would wait forever.
    let timed_out = conn.next_event_timeout(Duration::from_millis(30)).unwrap_err();
    assert_eq!(timed_out.kind(), io::ErrorKind::TimedOut);
    // A "read for a while" loop ends at its deadline even while lines keep coming.
    let (stop, mut seen) = (Instant::now() + Duration::from_millis(100), 0);
    let chatter = std::thread::spawn({
        let feed = feed.clone();
        move || {
            for _ in 0..40 {
                send(&feed, json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}));
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    });
    loop {
        match conn.next_event_until(stop) {
            Ok(Some(_)) => seen += 1,
            Ok(None) => panic!("the input ended"),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => break,
            Err(e) => panic!("{e}"),
        }
    }
    chatter.join().unwrap();
    println!("{seen} notifications read before the deadline");
    // Still usable: a line that arrives later is read.
    send(&feed, json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    loop {
        if let Some(Event::Notification { method, .. }) = conn.next_event().unwrap() {
            if method == "notifications/tools/list_changed" {
                break;
            }
        }
    }
}

#[test]
fn close_without_a_process_reports_whether_the_peer_ended() {
    let (conn, feed, _) = client();
    assert_eq!(conn.close(Duration::from_millis(30)).unwrap(), Closed::StillOpen);
    drop(feed);
    let (conn, feed, _) = client();
    drop(feed);
    assert_eq!(conn.close(Duration::from_secs(30)).unwrap(), Closed::Ended(None));
}

#[cfg(unix)]
#[test]
fn close_ends_a_child_at_end_of_input_or_kills_it_past_its_grace() {
    // A server that ends when its stdin ends.
    let polite = Connection::spawn(Client::new(Config::default()), Command::new("sh").args(["-c", "cat >/dev/null; exit 3"])).unwrap();
    let started = Instant::now();
    let Closed::Ended(Some(status)) = polite.close(Duration::from_secs(30)).unwrap() else { panic!("not ended") };
    assert_eq!(status.code(), Some(3));
    println!("a child that ends with its input: closed in {:?}", started.elapsed());
    // One that ignores it.
    let stubborn = Connection::spawn(Client::new(Config::default()), Command::new("sleep").arg("60")).unwrap();
    let started = Instant::now();
    let Closed::Killed(status) = stubborn.close(Duration::from_millis(100)).unwrap() else { panic!("not killed") };
    assert!(!status.success());
    println!("a child that ignores its input: killed after {:?}", started.elapsed());
}
