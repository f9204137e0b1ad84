//! The cost guard, where the bridge still makes a whole `Value` of a message: a long line whose
//! skeleton is itself big (`elide.rs`), or whose parts must be read whole (what the bridge answers
//! itself or keeps past the line, a conversion that does not carry a part as it is). Such a
//! message whose value tree would pass its budget ([`crate::cost`]) is refused unread: a request
//! gets a JSON-RPC error, an answer the bridge waits for becomes an error for whoever waits for
//! it, anything else is dropped; each is a line of its leg with the reason.

use serde_json::{Map, Value};

use super::core::{error_response, key, Bridge, Down, Output, UpKind, INTERNAL_ERROR, INVALID_REQUEST};
use super::elide;
use super::record::{Leg, Verdict};
use crate::cost::TooCostly;
use crate::vocab::Direction;

impl Bridge {
    pub(super) fn too_costly(&mut self, out: &mut Output, leg: Leg, line: &[u8], e: &TooCostly) {
        let id = e.id.clone().and_then(|r| serde_json::from_slice::<Value>(&line[r]).ok());
        let reason = e.to_string();
        let message = format!("mcp-schema bridge: {reason}; refused unread");
        let dir = if leg == Leg::Client { Direction::ClientToServer } else { Direction::ServerToClient };
        let label = if e.has_method { "(a request or notification, unread)" } else { "(an answer, unread)" };
        self.note(out, leg, dir, line, Verdict::Refused, label, reason, None);
        let Some(id) = id else { return };
        match (leg, e.has_method) {
            // A request: its sender gets -32600 (the message is not one the bridge can take).
            (Leg::Client, true) => self.send_client(out, &error_response(id, INVALID_REQUEST, message)),
            (Leg::Server, true) => self.send_server(out, &error_response(id, INVALID_REQUEST, message)),
            // The client's answer to a server request: the server gets an error instead.
            (Leg::Client, false) => match self.down.remove(&key(&id)) {
                Some(Down::Forward { server_id, .. }) => self.send_server(out, &error_response(server_id, INTERNAL_ERROR, message)),
                Some(Down::Input { up, .. }) => {
                    if let Some(up) = self.up.remove(&up) {
                        if let Some(client_id) = up.client_id {
                            self.send_answer(out, &error_response(client_id, INTERNAL_ERROR, message), up.tag);
                        }
                    }
                }
                None => {}
            },
            // The server's answer to a request: whoever sent it gets an error instead.
            (Leg::Server, false) => match self.up.remove(&key(&id)) {
                Some(up) if up.kind == UpKind::OwnInitialize => self.server_initialized(Err(serde_json::json!({"code": INTERNAL_ERROR, "message": message})), out),
                Some(up) => {
                    if let Some(client_id) = up.client_id {
                        self.send_answer(out, &error_response(client_id, INTERNAL_ERROR, message), up.tag);
                    }
                }
                None => {}
            },
        }
    }

    /// `msg` with its long line's parts in place (`elide.rs`), for what the bridge answers itself
    /// or keeps; `false`: they are too costly as a tree, and the line was refused unread.
    pub(super) fn whole(&mut self, msg: &mut Map<String, Value>, leg: Leg, line: &[u8], out: &mut Output) -> bool {
        if !elide::active() {
            return true;
        }
        let mut v = Value::Object(std::mem::take(msg));
        if let Err(e) = elide::materialize(&mut v) {
            // The whole line's scan says it with the message's id.
            let e = crate::cost::check(line).err().unwrap_or(e);
            self.too_costly(out, leg, line, &e);
            return false;
        }
        if let Value::Object(o) = v {
            *msg = o;
        }
        true
    }
}
