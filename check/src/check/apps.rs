//! The MCP Apps view<->host channel (`--ext apps`).

use std::collections::HashSet;

use mcp_spec_engine::observe::{Observer, ObserverConfig};
use mcp_spec_types::tree::{Node, Object};
use mcp_spec_types::validate::describe;

use super::response::unmatched_why;
use crate::rules::stream::{RESPONSE_UNMATCHED};
use super::{error, AppsSide, ModRef, Outcome, Req, Types, ANSWERED_CAP, PENDING_CAP};
use crate::session::Session;
use crate::bounded::shown_node;
use crate::versions::{Module, EXTENSIONS};

/// What the checker needs for the view<->host channel (with `--ext apps`): the unions of what
/// each side sends (the generated `ViewRequest`, `HostNotification`, ...), and the protocol
/// version whose standard messages travel on it.
pub(super) struct AppsChannel {
    pub(super) ext: usize,
    pub(super) base: usize,
    /// Per side ([`AppsSide::index`]): the member types of its request, notification and result unions.
    pub(super) requests: [HashSet<&'static str>; 2],
    pub(super) notifications: [HashSet<&'static str>; 2],
    /// Requests each side sent that wait for an answer (the view as the client), as on the
    /// client/server channel: one model of what is in flight.
    pub(super) pending: Observer<Req>,
}

impl AppsChannel {
    /// Per side ([`AppsSide::index`]): its request, notification and result unions.
    const UNIONS: [(&'static str, &'static str, &'static str); 2] =
        [("ViewRequest", "ViewNotification", "ViewResult"), ("HostRequest", "HostNotification", "HostResult")];

    pub(super) fn new(ext: usize, module: &'static Module, base: usize, bytes: usize) -> AppsChannel {
        let members = |name: &str| -> HashSet<&'static str> {
            module.union_members.iter().find(|(n, _)| *n == name).map(|(_, m)| m.iter().copied().collect()).unwrap_or_default()
        };
        let [view, host] = Self::UNIONS;
        AppsChannel {
            ext,
            base,
            requests: [members(view.0), members(host.0)],
            notifications: [members(view.1), members(host.1)],
            pending: apps_observer(bytes),
        }
    }
}

/// The observer of the view<->host channel's requests, bounded as the client/server one.
pub(super) fn apps_observer(bytes: usize) -> Observer<Req> {
    Observer::new(ObserverConfig { max_in_flight: PENDING_CAP, max_ended: ANSWERED_CAP, max_bytes: bytes })
}

impl AppsChannel {
    /// A line of the MCP Apps view<->host channel: typed by what its sender sends (`ViewMessage`
    /// or `HostMessage` of the apps module, whose standard MCP members are the base version's
    /// types); responses by the request of the other side they answer. Ids are each side's own.
    /// Returns what the session's channel rules need ([`crate::session::Session::observe_apps`]):
    /// the message, whether its sender's unions do not hold it, the method a response answers.
    pub(super) fn check<'v>(&mut self, types: &Types, session: &Session, side: AppsSide, value: Node<'v>, prefix: &str, out: &mut Outcome) -> Option<(Object<'v>, bool, Option<&'static str>)> {
        let (ext, base) = (self.ext, self.base);
        let (ext_info, base_info) = (types.ext_info(ext), &types.infos[base]);
        out.protocol = Some(EXTENSIONS[ext].name);
        let o = types.envelope(value, prefix, out)?;
        // The module that defines a type: the extension's own, else the base version's.
        let module_of = |ty: &str| if ext_info.types.contains(ty) { ext_info.module } else { base_info.module };
        let (requests, notifications, results) = AppsChannel::UNIONS[side.index()];
        let id = o.get("id");
        let mut wrong_side = false;
        let mut answered = None;
        if let Some(method) = o.get("method") {
            let is_request = id.is_some();
            let method = method.as_str().unwrap_or_default();
            let specific = if is_request {
                ext_info.requests.get(method).or_else(|| base_info.requests.get(method)).map(|&(t, r)| (t, Some(r)))
            } else {
                ext_info.notifications.get(method).or_else(|| base_info.notifications.get(method)).map(|&t| (t, None))
            };
            let (own, other) = if is_request {
                (&self.requests[side.index()], &self.requests[side.opposite().index()])
            } else {
                (&self.notifications[side.index()], &self.notifications[side.opposite().index()])
            };
            let sent_here = specific.filter(|(t, _)| own.contains(t));
            wrong_side = specific.is_some_and(|(t, _)| !own.contains(t) && other.contains(t));
            let (module, ty) = match sent_here {
                Some((t, _)) => (module_of(t), t),
                None => (ext_info.module, if is_request { requests } else { notifications }),
            };
            types.check_as(module, ty, value, prefix, out);
            if let Some(id) = id {
                let result = sent_here.and_then(|(_, r)| r);
                let req_method = sent_here.and(ext_info.requests.get_key_value(method).or_else(|| base_info.requests.get_key_value(method))).map(|(k, _)| *k);
                let req = Req { module: ModRef::Ext(ext), method: req_method, result, task: false, uri: None };
                let seen = self.pending.observe_node(out.line, Some(side.direction()), o, || req);
                session.reused_ids(side.dir_name(), Some(id), &seen.observations, prefix, out);
            }
        } else if o.contains_key("result") || o.contains_key("error") {
            let seen = self.pending.observe_node(out.line, Some(side.direction()), o, || unreachable!("an answer keeps nothing"));
            let why = unmatched_why(&seen.observations);
            let matched = seen.answered.map(|a| a.attachment);
            let module_of = |ty: &str| if ext_info.types.contains(ty) { ext_info.module } else { base_info.module };
            match (o.get("result"), &matched) {
                (None, _) => {
                    if let Some(t) = base_info.error_response {
                        types.check_as(base_info.module, t, value, prefix, out);
                    }
                }
                (Some(result), Some(Req { result: Some("object"), .. })) => {
                    out.type_name = Some("object");
                    if !result.is_object() {
                        out.diags.push(error(&format!("{prefix}/result"), "type", format!("expected an object, found {}", describe(result))));
                    }
                }
                (Some(result), Some(Req { result: Some(rt), .. })) => types.check_as(module_of(rt), rt, result, &format!("{prefix}/result"), out),
                (Some(result), _) => {
                    types.check_as(ext_info.module, results, result, &format!("{prefix}/result"), out);
                    if matched.is_none() {
                        let msg = format!("no {} request with id {} is waiting for this response{why}; checked as any result the {} sends", side.opposite().dir_name(), id.map_or("(none)".to_string(), shown_node), side.name());
                        out.diags.push(types.rule(&RESPONSE_UNMATCHED, &format!("{prefix}/id"), msg));
                    }
                }
            }
            answered = matched.and_then(|r| r.method);
        } else {
            types.check_as(base_info.module, "JSONRPCMessage", value, prefix, out);
            return None;
        }
        Some((o, wrong_side, answered))
    }
}
