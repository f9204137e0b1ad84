//! Responses: typed by the request they answer, else as any result the responder sends.

use mcp_spec_engine::observe::Observation;
use mcp_spec_types::tree::{Doc, Node, Object};
use mcp_spec_types::validate::{describe, Cx, Options};

use super::{error, Diag, push_report, Direction, Typing, IdKey, ModRef, Outcome, Req, TaskOrigin, EXT_TASK_RESULT, METADATA_RESULT};
use crate::rules::stream::{RESPONSE_RESULT, RESPONSE_UNMATCHED};
use crate::bounded::shown_node;
use crate::vocab::dir_name;
use crate::versions::EXTENSIONS;

/// Error codes the schema types with their own error response, by version: 2025-11-25's
/// `URLElicitationRequiredError`, 2026-07-28's header, capability and version errors (the capability
/// and version ones require `data`). A version without the type checks the code as any error.
const CODED_ERRORS: [(i64, &str); 4] = [
    (mcp_spec_types::v2025_11_25::URL_ELICITATION_REQUIRED, "URLElicitationRequiredError"),
    (mcp_spec_types::v2026_07_28::HEADER_MISMATCH, "HeaderMismatchError"),
    (mcp_spec_types::v2026_07_28::MISSING_REQUIRED_CLIENT_CAPABILITY, "MissingRequiredClientCapabilityError"),
    (mcp_spec_types::v2026_07_28::UNSUPPORTED_PROTOCOL_VERSION, "UnsupportedProtocolVersionError"),
];

/// Why an answer matched no request in flight, when the observer knows: the one notion of in
/// flight, which a request answered or cancelled has left.
pub(super) fn unmatched_why(seen: &[Observation]) -> String {
    seen.iter()
        .find_map(|o| match *o {
            Observation::AnsweredAfterCancel { request_at, cancelled_at } => Some(format!(" (the request of line {request_at} was cancelled on line {cancelled_at})")),
            Observation::AnsweredAgain { request_at } => Some(format!(" (the request of line {request_at} was answered already)")),
            _ => None,
        })
        .unwrap_or_default()
}

impl Typing<'_> {
    /// A response; `matched` is the request the session's observer paired it with (and the way
    /// that request travelled), `seen` what the observer made of it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn response(&mut self, line_protocol: Option<usize>, dir: Option<Direction>, o: Object<'_>, prefix: &str, matched: Option<(Direction, Req)>, seen: &[Observation], out: &mut Outcome) {
        let value = o.node();
        let result = o.get("result");
        let is_error = o.contains_key("error");

        // The version: an `initialize` answer, or a `_meta` key, is carried by the message itself.
        let carried = self.read_version(o, dir, prefix, "result", line_protocol, out);
        let request_version = match matched.as_ref().map(|(_, r)| r.module) {
            Some(ModRef::Version(v)) => Some(v),
            _ => None,
        };
        // The version a response carries, else its request's, before the session's.
        let v = self.pick(line_protocol, carried.or(request_version));
        let info = &self.types.infos[v];
        out.protocol = Some(info.module.name);

        if is_error {
            if result.is_none() {
                // A code the version gives its own error type (with the `data` it requires) is checked as that type.
                let code = o.get("error").and_then(|e| e.get("code")).and_then(Node::as_i64);
                let coded = code.and_then(|c| CODED_ERRORS.iter().find(|(k, _)| *k == c)).map(|&(_, t)| t).filter(|t| info.types.contains(t));
                match coded.or(info.error_response) {
                    Some(t) => self.types.check_as(info.module, t, value, prefix, out),
                    None => self.types.check_as(info.module, "JSONRPCMessage", value, prefix, out),
                }
            }
            return;
        }
        let Some(result) = result else { return };
        let result_prefix = format!("{prefix}/result");
        if let Some((req_dir, req)) = &matched {
            // The id of an answer obeys the rules of the request's id (the envelope alone lets
            // through what the version's `RequestId` refuses, e.g. an integer above 2^63-1).
            if let (Some(id), true) = (o.get("id"), info.types.contains("RequestId")) {
                self.types.check_quietly(info.module, "RequestId", id, &format!("{prefix}/id"), out);
            }
            // A task-augmented request is answered with the task, if the receiver made one.
            let task_result = match (req.task, info.task_result) {
                (true, Some(t)) if result.get("task").is_some() => Some(t),
                _ => None,
            };
            // Remember the task, so `tasks/result` naming it is typed by this request's result.
            let task_id = task_result.and(result.get("task")).and_then(|t| t.get("taskId")).and_then(IdKey::of);
            if let Some(task_id) = task_id {
                self.stream.tasks[req_dir.index()].insert(task_id, TaskOrigin { module: req.module, result: req.result });
            }
            let info = &self.types.infos[v];
            // With --ext tasks, `resultType: "task"` is the extension's task handle, whatever the request (answering
            // an unsupported one is the session rule `session.tasks.unsupported-method`), in versions without core tasks.
            let ext_task = match (result.get("resultType").and_then(Node::as_str), info.task_result) {
                (Some("task"), None) => self.types.exts.iter().find(|(_, _, i)| i.types.contains(EXT_TASK_RESULT)),
                _ => None,
            };
            if let Some((ei, _, ext_info)) = ext_task {
                out.protocol = Some(EXTENSIONS[*ei].name);
                self.types.check_as(ext_info.module, EXT_TASK_RESULT, result, &result_prefix, out);
                return;
            }
            if let Some(rt) = task_result.or(req.result) {
                let typed_by = match req.module {
                    ModRef::Ext(i) => {
                        out.protocol = Some(EXTENSIONS[i].name);
                        self.types.exts.iter().find(|(e, ..)| *e == i).map(|(.., info)| info)
                    }
                    ModRef::Version(_) => Some(info),
                };
                if rt == "object" {
                    // A result the schema types as a plain object (`{}`).
                    out.type_name = Some("object");
                    if !result.is_object() {
                        out.diags.push(error(&result_prefix, "type", format!("expected an object, found {}", describe(result))));
                    }
                    return;
                }
                if let Some(typed_by) = typed_by.filter(|i| i.types.contains(rt)) {
                    self.types.check_as(typed_by.module, rt, result, &result_prefix, out);
                    // The resource-metadata proposal (whose module has `resources/metadata`): every
                    // element has the URI that was asked for, now that the request is known.
                    if let (true, Some(uri)) = (self.types.validate && typed_by.types.contains(METADATA_RESULT), req.uri.as_deref()) {
                        let field = if rt == METADATA_RESULT { "metadata" } else { "contents" };
                        let mut cx = Cx::new(self.types.options);
                        mcp_spec_types::validate::resources::check_requested_uri(result, field, uri, &mut cx);
                        push_report(&result_prefix, cx.finish(), out);
                    }
                    return;
                }
            }
        }
        // Unmatched (or a method the version does not define): the generic response, and the
        // result as every result the responding side sends.
        let info = &self.types.infos[v];
        let module = info.module;
        if let Some(t) = info.result_response {
            self.types.check_as(module, t, value, prefix, out);
        }
        self.check_any_result(v, dir, result, &result_prefix, out);
        if matched.is_none() {
            let id = o.get("id").map(shown_node).unwrap_or_else(|| "(none)".into());
            let way = match dir {
                Some(d) => format!(" travelling {}", dir_name(d.opposite())),
                None => String::new(),
            };
            let msg = format!("no request{way} with id {id} is waiting for this response{}; checked as any result the responder sends", unmatched_why(seen));
            out.diags.push(self.types.rule(&RESPONSE_UNMATCHED, &format!("{prefix}/id"), msg));
        }
    }

    /// A result whose request is unknown: it must be one of the results the responding side
    /// sends. `EmptyResult` (and any result without required keys) takes every object, so it
    /// only counts when no specific result claims one of the result's keys: a result that a
    /// specific type rejects below its top level (a wrong `content`, a bad `tools` item) is
    /// reported against the closest such type.
    pub(super) fn check_any_result(&self, v: usize, dir: Option<Direction>, result: Node<'_>, prefix: &str, out: &mut Outcome) {
        let info = &self.types.infos[v];
        let module = info.module;
        let union = if dir == Some(Direction::ClientToServer) { "ClientResult" } else { "ServerResult" };
        if !self.types.validate {
            if info.types.contains(union) {
                self.types.check_as(module, union, result, prefix, out);
            }
            return;
        }
        if !result.is_object() {
            out.diags.push(error(prefix, "type", format!("expected a result (an object), found {}", describe(result))));
            return;
        }
        // The responder answers the other side's requests.
        let requester = match dir {
            Some(Direction::ClientToServer) => Some(&info.server_requests),
            Some(Direction::ServerToClient) => Some(&info.client_requests),
            None => None,
        };
        let mut candidates: Vec<&'static str> = Vec::new();
        for (req, res) in info.requests.values() {
            if requester.is_none_or(|s| s.holds(req).unwrap_or(true)) && !candidates.contains(res) {
                candidates.push(res);
            }
        }
        if let Some(t) = info.task_result {
            candidates.push(t);
        }
        candidates.sort_unstable();
        let options = Options { max_violations: self.types.max_findings, ..self.types.options };
        let empty = Doc::parse("{}").expect("JSON");
        let mut catch_all = None;
        // The type with the fewest errors among those that claim a key, and among all.
        let mut closest: Option<(&'static str, usize)> = None;
        let mut fewest: Option<(&'static str, usize)> = None;
        for ty in candidates {
            let Some(entry) = (module.dynamic)(ty) else { continue };
            let report = (entry.validate_node)(result, &options);
            let errors = report.errors().count() + report.omitted_errors;
            if errors == 0 {
                if (entry.validate_node)(empty.root(), &options).is_valid() {
                    catch_all.get_or_insert(ty);
                    continue;
                }
                out.type_name.get_or_insert(ty);
                return;
            }
            // Only missing keys at the top: the result has none of this type's keys.
            let claims = report.errors().any(|e| !(e.pointer.is_empty() && e.rule == "required"));
            if claims && closest.is_none_or(|(_, n)| errors < n) {
                closest = Some((ty, errors));
            }
            if fewest.is_none_or(|(_, n)| errors < n) {
                fewest = Some((ty, errors));
            }
        }
        match (closest, catch_all) {
            (None, Some(ty)) => self.types.check_as(module, ty, result, prefix, out),
            _ => {
                let closest = closest.or(fewest).map(|(ty, _)| ty);
                let mut msg = format!("the result is no result the responder sends in {}", module.label);
                if let Some(ty) = closest {
                    msg.push_str(&format!("; closest: {ty}"));
                }
                out.diags.push(Diag::of(&RESPONSE_RESULT, prefix, msg));
                if let Some(ty) = closest {
                    self.types.check_as(module, ty, result, prefix, out);
                }
            }
        }
    }
}
