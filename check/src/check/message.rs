//! A request or notification: the version it is checked as (negotiated, carried, proposed), its
//! direction and type, and the request kept for its answer; the one call into the session for each
//! message ([`Checker::check_one`]).

use mcp_spec_types::negotiate::{Carried, VersionNote};
use mcp_spec_types::tree::{Node, Object};

use super::{error, Diag, escape_pointer, unknown_version, Checker, Direction, IdKey, ModRef, Outcome, Req, Stream, TaskOrigin, Types, PROTOCOL_META_KEY, TASK_RESULT_METHOD};
use crate::rules::stream::{JSONRPC_BATCH, PROTOCOL_CHANGED, STREAM_DIRECTION, STREAM_PROTOCOL};
use crate::bounded::clip;
use crate::versions::{version_index, Side, VERSIONS};

impl Checker {
    pub(super) fn check_message(&mut self, line_protocol: Option<usize>, dir: Option<Direction>, value: Node<'_>, prefix: &str, out: &mut Outcome) {
        if let Some(items) = value.as_array() {
            let v = self.typing().pick(line_protocol, None);
            let info = &self.types.infos[v];
            out.protocol = Some(info.module.name);
            if !info.batches {
                let msg = format!("a JSON array is not a message in {} (only 2025-03-26 defines batches)", info.module.label);
                out.diags.push(Diag::of(&JSONRPC_BATCH, prefix, msg));
            } else if items.is_empty() {
                out.diags.push(Diag::of(&JSONRPC_BATCH, prefix, "an empty batch"));
            } else {
                for (i, item) in items.iter().enumerate() {
                    self.check_one(line_protocol, dir, item, &format!("{prefix}/{i}"), out);
                }
            }
            return;
        }
        self.check_one(line_protocol, dir, value, prefix, out);
    }

    pub(super) fn check_one(&mut self, line_protocol: Option<usize>, dir: Option<Direction>, value: Node<'_>, prefix: &str, out: &mut Outcome) {
        let Some(o) = self.types.envelope(value, prefix, out) else {
            out.protocol = Some(VERSIONS[self.typing().pick(line_protocol, None)].name);
            return;
        };
        if o.contains_key("method") {
            let (dir, req) = self.typing().request_or_notification(line_protocol, dir, o, prefix, out);
            self.session.enter_request(dir, o, req, prefix, out);
        } else if o.contains_key("result") || o.contains_key("error") {
            // From the fields, not `typing()`: the session is borrowed beside it, typing the response in between.
            let mut typing = Typing { types: &self.types, stream: &mut self.stream };
            self.session.enter_response(dir, o, prefix, out, |matched, seen, out| typing.response(line_protocol, dir, o, prefix, matched, seen, out));
        } else {
            let v = self.typing().pick(line_protocol, None);
            self.types.check_as(self.types.modules[v], "JSONRPCMessage", value, prefix, out);
        }
    }
}

/// Typing one message of the stream being checked: what typing takes ([`Types`]) and the stream's
/// state (its version tracker, tasks). Apart from the session, so a response is typed while the
/// session holds it ([`crate::session::Session::enter_response`]).
pub(super) struct Typing<'c> {
    pub types: &'c Types,
    pub stream: &'c mut Stream,
}

impl Typing<'_> {
    /// The version a message is checked as: the line's, `--protocol`'s, the one it carries, the
    /// session's, else the newest.
    pub(super) fn pick(&self, line: Option<usize>, carried: Option<usize>) -> usize {
        line.or(self.types.fixed).or(carried).or(self.negotiated()).unwrap_or(self.types.latest)
    }

    /// The session's version so far (`None` with `--protocol VERSION`: that one is used).
    pub(super) fn negotiated(&self) -> Option<usize> {
        self.stream.versions.current().filter(|_| self.types.fixed.is_none()).and_then(version_index)
    }

    /// The session's version tracker reads the message (`field`: `params` or `result`); what it
    /// notes becomes findings. Returns the known version the message names itself.
    pub(super) fn read_version(&mut self, o: Object<'_>, dir: Option<Direction>, prefix: &str, field: &str, line_protocol: Option<usize>, out: &mut Outcome) -> Option<usize> {
        // A request or notification other than `initialize` whose params carry no version: the
        // tracker would leave the session's version as it is and note nothing (most messages;
        // building its view of each was a few percent of `check`).
        if field == "params" && o.get("method").and_then(Node::as_str) != Some("initialize") {
            let meta = o.get("params").and_then(|p| p.get("_meta")).and_then(|m| m.get(PROTOCOL_META_KEY));
            if meta.and_then(Node::as_str).is_none() {
                return None;
            }
        }
        // The tracker reads a `Value`: given only the keys it reads (view.rs).
        let view = crate::view::versions(o, PROTOCOL_META_KEY);
        let reading = self.stream.versions.read(&view, dir);
        let meta = format!("{prefix}/{field}/_meta/{}", escape_pointer(PROTOCOL_META_KEY));
        for note in &reading.notes {
            let diag = match *note {
                // The schema types the key as any string, and the receiver answers an unknown one
                // with an error: the request is fine, checked as the stream's version. A result
                // answers with the version the session uses, so an unknown one there is an error.
                VersionNote::Unknown(Carried::Meta(s)) if field == "params" => {
                    let msg = format!("{}; checked as the stream's version (the receiver may answer UNSUPPORTED_PROTOCOL_VERSION)", unknown_version(s));
                    self.types.as_warning(&STREAM_PROTOCOL, &meta, msg)
                }
                VersionNote::Unknown(Carried::Meta(s)) => Diag::of(&STREAM_PROTOCOL, &meta, unknown_version(s)),
                VersionNote::Changed { from, to } if self.types.fixed.is_none() => {
                    let msg = format!("the message carries protocol version {to} but the session uses {from}");
                    self.types.rule(&PROTOCOL_CHANGED, &meta, msg)
                }
                VersionNote::InitializeAgain => {
                    let first = self.stream.initialize_line.map_or_else(|| "?".to_string(), |l| l.to_string());
                    let msg = format!("a second `initialize` in this session (the first is on line {first})");
                    self.types.rule(&PROTOCOL_CHANGED, &format!("{prefix}/method"), msg)
                }
                // A client may propose a version the server does not know; the server answers with its own.
                VersionNote::Unknown(Carried::Proposed(s)) if line_protocol.or(self.types.fixed).is_none() => {
                    let newest = reading.carried.unwrap_or("?");
                    let msg = format!("{}; checking `initialize` as {newest} (the server may answer with another version)", unknown_version(s));
                    self.types.as_warning(&STREAM_PROTOCOL, &format!("{prefix}/params/protocolVersion"), msg)
                }
                VersionNote::Unknown(Carried::Answered(s)) => Diag::of(&STREAM_PROTOCOL, &format!("{prefix}/result/protocolVersion"), unknown_version(s)),
                _ => continue,
            };
            out.diags.push(diag);
        }
        reading.carried.and_then(version_index)
    }

    /// Types a request or notification; returns the way it travelled (as the line gave it, or as
    /// the method decided it) and, for a request, what its answer is typed with.
    pub(super) fn request_or_notification(&mut self, line_protocol: Option<usize>, dir: Option<Direction>, o: Object<'_>, prefix: &str, out: &mut Outcome) -> (Option<Direction>, Option<Req>) {
        let value = o.node();
        let id = o.get("id");
        let is_request = id.is_some();
        let Some(method) = o.get("method").and_then(Node::as_str) else {
            // A non-string method: the generic message type reports it.
            let v = self.pick(line_protocol, None);
            let ty = if is_request { "JSONRPCRequest" } else { "JSONRPCNotification" };
            self.types.check_as(self.types.modules[v], ty, value, prefix, out);
            return (dir, None);
        };
        let params = o.get("params");
        let uri = params.and_then(|p| p.get("uri")).and_then(Node::as_str).map(Box::from);

        // An extension's method (`ui/...` with --ext apps, `tasks/...` and `notifications/tasks` with --ext tasks,
        // `skills/...` and `resources/directory/read` with --ext skills from 2026-07-28 on): typed by the extension's
        // tables, either direction, unless the version's core defines the method itself (2025-11-25's own `tasks/get`).
        let version = self.pick(line_protocol, None);
        let core = &self.types.infos[version];
        let in_core = if is_request { core.requests.contains_key(method) } else { core.notifications.contains_key(method) };
        if let Some((ei, e, info)) = self.types.exts.iter().filter(|_| !in_core).find(|(_, e, info)| e.claims(info, version, method)) {
            let (ei, module) = (*ei, info.module);
            out.protocol = Some(e.name);
            let found = if is_request {
                info.requests.get(method).map(|&(req, res)| (req, Some(res)))
            } else {
                info.notifications.get(method).map(|&t| (t, None))
            };
            let (req_method, result) = match found {
                Some((ty, result)) => {
                    self.types.check_as(module, ty, value, prefix, out);
                    (info.requests.get_key_value(method).map(|(k, _)| *k), result)
                }
                None => {
                    let what = if is_request { "request" } else { "notification" };
                    let msg = format!("`{}` is not a {what} method of {}", clip(method), module.label);
                    out.diags.push(error(&format!("{prefix}/method"), "unknown-variant", msg));
                    (None, None)
                }
            };
            return (dir, id.and(Some(Req { module: ModRef::Ext(ei), method: req_method, result, task: false, uri })));
        }
        // An enabled extension's message in a version before the extension's first (the TypeScript SDK's Skills on
        // 2025-11-25): outside the spec, so not typed (the session reports it: `session.skills.version`); its
        // answer is only required to be an object.
        if !in_core && self.types.exts.iter().any(|(_, e, _)| e.owns(method) && !e.exists_in(version)) {
            out.protocol = Some(core.module.name);
            return (dir, id.and(Some(Req { module: ModRef::Version(version), method: None, result: Some("object"), task: false, uri })));
        }

        // The version: a proposal in `initialize`, or a `_meta` key, is carried by the message itself.
        let carried = self.read_version(o, dir, prefix, "params", line_protocol, out);
        if is_request && method == "initialize" && self.stream.initialize_line.is_none() {
            self.stream.initialize_line = Some(out.line);
        }
        let v = self.pick(line_protocol, carried);
        let info = &self.types.infos[v];
        out.protocol = Some(info.module.name);

        let (specific, result, client, server) = if is_request {
            let found = info.requests.get_key_value(method);
            (found.map(|(_, (t, _))| *t), found.map(|(_, (_, r))| *r), &info.client_requests, &info.server_requests)
        } else {
            (info.notifications.get(method).copied(), None, &info.client_notifications, &info.server_notifications)
        };
        // Without `dir`, the side that sends this method decides it, if only one does.
        let dir = dir.or_else(|| {
            let t = specific?;
            match (client.holds(t).unwrap_or(false), server.holds(t).unwrap_or(false)) {
                (true, false) => Some(Direction::ClientToServer),
                (false, true) => Some(Direction::ServerToClient),
                _ => None,
            }
        });
        let side = dir.map(|d| if d == Direction::ClientToServer { client } else { server });
        let what = if is_request { "requests" } else { "notifications" };
        let generic = if is_request { "JSONRPCRequest" } else { "JSONRPCNotification" };
        let ty: &'static str = match (side, specific) {
            (Some(Side::Union(_, members)), Some(t)) if members.contains(t) => t,
            (Some(Side::Union(name, _)), _) => name,
            (Some(Side::Alias(name)), _) => name,
            (Some(Side::Absent(name)), t) => {
                let sender = if dir == Some(Direction::ClientToServer) { "a client" } else { "a server" };
                let msg = format!("{} defines no {name}: {sender} sends no {what} in this version", info.module.label);
                out.diags.push(Diag::of(&STREAM_DIRECTION, &format!("{prefix}/method"), msg));
                t.unwrap_or(generic)
            }
            (None, Some(t)) => t,
            // An unknown method and no side: the first side that is a union reports it.
            (None, None) => match [client, server].into_iter().find(|s| matches!(s, Side::Union(..))) {
                Some(s) => s.name(),
                None => {
                    let msg = format!("`{}` is not a method of {}", clip(method), info.module.label);
                    out.diags.push(error(&format!("{prefix}/method"), "unknown-variant", msg));
                    generic
                }
            },
        };
        let module = info.module;
        self.types.check_as(module, ty, value, prefix, out);
        // A request the side does not send (checked as the union) gets no typed result.
        let result = if specific == Some(ty) { result } else { None };

        let mut req = None;
        if id.is_some() {
            let info = &self.types.infos[v];
            let req_method = info.requests.get_key_value(method).map(|(k, _)| *k);
            let task = params.and_then(|p| p.get("task")).is_some() && info.task_methods.contains(method);
            let mut typed = Req { module: ModRef::Version(v), method: req_method, result, task, uri };
            let dir = dir.unwrap_or(Direction::ClientToServer);
            if req_method == Some(TASK_RESULT_METHOD) && result.is_some() {
                // The task's result is the result of the request that created it.
                if let Some(origin) = params.and_then(|p| p.get("taskId")).and_then(IdKey::of).and_then(|k| self.task(dir, &k)) {
                    typed.module = origin.module;
                    typed.result = origin.result;
                }
            }
            req = Some(typed);
        }
        // A cancellation is the session observer's: the request leaves flight there.
        (dir, req)
    }

    /// The task `key` created by a request that travelled `dir`.
    pub(super) fn task(&self, dir: Direction, key: &IdKey) -> Option<TaskOrigin> {
        self.stream.tasks[dir.index()].get(key).cloned()
    }
}
