//! The client's `notifications/cancelled`: its `requestId` is the client's id, which upstream is
//! one of the bridge's (client.rs rewrites every request's id), so it is rewritten the same way.
//! A request that waits in an input round (the bridge asked the client for input: the server is
//! not running it) ends there: the round's state is dropped, the bridge's own input requests to
//! the client are cancelled too, and nothing is sent upstream again.

use serde_json::{json, Map, Value};

use super::core::{Bridge, Down, Output, UpKind};
use super::record::{Leg, Verdict};
use crate::vocab::Direction;

impl Bridge {
    /// `true`: the cancellation was handled here and goes no further; `false`: it goes upstream,
    /// its `requestId` rewritten.
    pub(super) fn cancel_from_client(&mut self, line: &[u8], msg: &mut Map<String, Value>, out: &mut Output) -> bool {
        let method = "notifications/cancelled";
        let Some(request_id) = msg.get("params").and_then(|p| p.get("requestId")).cloned() else { return false };
        let tag = self.tag;
        let found = self.up.iter().find(|(_, u)| u.client_id.as_ref() == Some(&request_id) && u.tag == tag && u.kind != UpKind::OwnInitialize).map(|(k, _)| k.clone());
        let Some(k) = found else {
            let what = "cancels no request of this client that the bridge sent on".to_string();
            self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Dropped, method, what, None);
            return true;
        };
        if k.starts_with("input:") {
            self.up.remove(&k);
            let asked: Vec<String> = self.down.iter().filter(|(_, d)| matches!(d, Down::Input { up, .. } if *up == k)).map(|(id, _)| id.clone()).collect();
            let what = format!("the request waited in an input round: the round ends, it is not sent again; {} input requests to the client cancelled", asked.len());
            self.note(out, Leg::Client, Direction::ClientToServer, line, Verdict::Answered, method, what, None);
            for id in asked {
                self.down.remove(&id);
                let id: Value = serde_json::from_str(&id).unwrap_or(Value::Null);
                let reason = "the request it was for was cancelled";
                self.send_client(out, &json!({"jsonrpc": "2.0", "method": method, "params": {"requestId": id, "reason": reason}}));
            }
            return true;
        }
        let up_id: Value = serde_json::from_str(&k).unwrap_or(Value::Null);
        if let Some(p) = msg.get_mut("params").and_then(Value::as_object_mut) {
            p.insert("requestId".into(), up_id);
        }
        false
    }
}
