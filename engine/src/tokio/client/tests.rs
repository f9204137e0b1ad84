//! `call`, `next_event_until` and `close` on the tokio adapter.

use std::io;
use std::time::{Duration, Instant};

use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

use super::super::tests::{piped, run, Peer};
use super::super::Connection;
use crate::{CallError, Client, Closed, Config, Event, RequestError};

fn client() -> (Connection<Client>, Peer) {
    piped(Client::new(Config::default()))
}

#[test]
fn call_returns_its_answer_and_hands_every_other_event_over() {
    run(async {
        let (mut conn, mut peer) = client();
        peer.send(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})).await;
        peer.send(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}})).await;
        peer.send(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})).await;
        let mut others = Vec::new();
        let tools = conn.call_with_progress(ListToolsRequest::new(RequestId::Integer(0)), None, |_, e| others.push(e)).await.unwrap();
        assert!(tools.tools.is_empty());
        assert!(matches!(&others[..], [Event::Notification { .. }, Event::Progress { request: 1, .. }]), "{others:?}");
        let sent: Value = serde_json::from_str(&peer.from.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(sent["method"], "tools/list");
        let late = conn.call(ListToolsRequest::new(RequestId::Integer(0)), Some(Duration::from_millis(20)), |_, _| {}).await;
        assert!(matches!(late, Err(CallError::Request(RequestError::TimedOut))), "{late:?}");
        drop(peer);
        let ended = conn.call(ListToolsRequest::new(RequestId::Integer(0)), None, |_, _| {}).await;
        assert!(matches!(ended, Err(CallError::Ended) | Err(CallError::Io(_))), "{ended:?}");
    });
}

#[test]
fn next_event_until_gives_up_at_its_deadline_and_the_connection_goes_on() {
    run(async {
        let (mut conn, mut peer) = client();
        let timed_out = conn.next_event_until(Instant::now() + Duration::from_millis(30)).await.unwrap_err();
        assert_eq!(timed_out.kind(), io::ErrorKind::TimedOut);
        peer.send(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})).await;
        let next = conn.next_event_timeout(Duration::from_secs(30)).await.unwrap();
        assert!(matches!(next, Some(Event::Notification { .. })), "{next:?}");
    });
}

#[test]
fn close_reports_whether_the_peer_ended_within_its_grace() {
    run(async {
        let (conn, _peer) = client();
        assert_eq!(conn.close(Duration::from_millis(30)).await.unwrap(), Closed::StillOpen);
        let (conn, mut peer) = client();
        // A peer that ends when its input does.
        let polite = tokio::spawn(async move {
            while let Ok(Some(_)) = peer.from.next_line().await {}
            peer.to.shutdown().await.unwrap();
        });
        assert_eq!(conn.close(Duration::from_secs(30)).await.unwrap(), Closed::Ended(None));
        polite.await.unwrap();
    });
}

/// `call` is written once over `adapter::ClientLoop`; its future stays `Send` for this adapter,
/// so an application can run it in a spawned task (checked when this compiles).
#[test]
fn a_calls_future_is_send() {
    fn send<T: Send>(_: &T) {}
    let _ = |conn: &mut Connection<Client>| {
        send(&conn.call(ListToolsRequest::new(RequestId::Integer(0)), None, |_, _| {}));
        send(&conn.call_with_progress(ListToolsRequest::new(RequestId::Integer(0)), None, |_, _| {}));
    };
}
