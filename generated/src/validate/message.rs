//! Validation of a whole message as a version's `ClientMessage` or `ServerMessage`, dispatched as the
//! reader dispatches it: `method` with an `id` is a request, without one a notification; `result`
//! and `error` make a response.

use crate::tree::Node;

use super::{jsonrpc, Cx, Validate};
use crate::runtime::{Message, NoRequests};

impl<Id, Req: Validate, Notif: Validate, Res: Validate, Err: Validate> Validate for Message<Id, Req, Notif, Res, Err> {
    fn validate_json<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
        let envelope_from = cx.out.len();
        jsonrpc::envelope(v, cx);
        let Some(o) = v.as_object() else { return };
        let typed_from = cx.out.len();
        if o.contains_key("method") {
            if o.contains_key("id") {
                Req::validate_json(v, cx);
            } else {
                Notif::validate_json(v, cx);
            }
        } else if o.contains_key("error") && !o.contains_key("result") {
            Err::validate_json(v, cx);
        } else if let Some(result) = o.get("result") {
            cx.key("result", |cx| Res::validate_json(result, cx));
        }
        // Where the envelope rules found something (`/jsonrpc`, `/id`, `/error/...`), a type that
        // declares the same field would say it again: keep the envelope's finding.
        let said: Vec<String> = cx.out[envelope_from..typed_from].iter().map(|v| v.pointer.clone()).filter(|p| !p.is_empty()).collect();
        let mut i = typed_from;
        while i < cx.out.len() {
            let p = &cx.out[i].pointer;
            if said.iter().any(|s| p == s || p.strip_prefix(s.as_str()).is_some_and(|rest| rest.starts_with('/'))) {
                cx.out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

impl Validate for NoRequests {
    fn validate_json<'v>(_: Node<'v>, cx: &mut Cx<'v>) {
        cx.error("unknown-variant", "this side sends no requests in this protocol version");
    }
}
