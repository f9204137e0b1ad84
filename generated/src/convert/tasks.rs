//! 2025-11-25's tasks (in the core: `task` on requests, `tasks/*`, `CreateTaskResult`) and 2026-07-28 with the
//! Tasks extension (`tasks` module), both ways, for the types whose meaning carries over (features `convert`
//! and `tasks`). Every case that is not a plain copy is a row of `CONVERSIONS.md` (`[[convert.extension]]` in
//! `schema/codegen.toml`), and the error names it.
//!
//! What carries over: a task's state (`ttl`/`pollInterval` are `ttlMs`/`pollIntervalMs`), the task handle
//! (`{task: {...}}` is the flat `CreateTaskResult` with `resultType: "task"`), `tasks/get` and `tasks/cancel`
//! requests, and a task's state in `tasks/get` answers and status notifications while it is `working` or
//! `cancelled`. What does not: 2025-11-25 sends a completed task's result through `tasks/result` and its input
//! requests as requests on that stream, where the extension inlines `result`, `error` and `inputRequests`; a
//! `tasks/cancel` answer carries the task in 2025-11-25 and nothing in the extension; `tasks/update` has no
//! 2025-11-25 counterpart, `tasks/list` and `tasks/result` no extension one (see the table).

use serde::de::DeserializeOwned;
use crate::write::WriteJson;
use serde_json::Value;

use super::__c::{self, Step};
use super::{Convert, ConvertError};
use crate::runtime::JsonObject;
use crate::{tasks as ext, v2025_11_25 as core};

const TO: Step = Step { from: "2025-11-25", to: "2026-07-28" };
const BACK: Step = Step { from: "2026-07-28", to: "2025-11-25" };

/// The fields of 2025-11-25's `Task` whose names changed.
const RENAMED: [(&str, &str); 2] = [("ttl", "ttlMs"), ("pollInterval", "pollIntervalMs")];
/// The fields of a task's state, as the extension names them.
const TASK_FIELDS: [&str; 7] = ["taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"];

fn object<S: WriteJson>(value: S, step: Step, case: &'static str) -> Result<JsonObject, ConvertError> {
    match __c::via_json::<S, Value>(value, "", step, case)? {
        Value::Object(o) => Ok(o),
        _ => Err(__c::not_in_target(step, case)),
    }
}

fn read<T: DeserializeOwned>(o: JsonObject, step: Step, case: &'static str) -> Result<T, ConvertError> {
    __c::via_json(Value::Object(o), "", step, case)
}

/// 2025-11-25's names to the extension's (`forward`), or back.
fn rename(o: &mut JsonObject, forward: bool) {
    for (old, new) in RENAMED {
        let (from, to) = if forward { (old, new) } else { (new, old) };
        if let Some(v) = o.remove(from) {
            o.insert(to.to_string(), v);
        }
    }
}

/// A task's state as 2025-11-25 answers `tasks/get` or notifies it: the extension also needs what the status
/// implies (`inputRequests`, `result`, `error`), which 2025-11-25 sends elsewhere; taken from `extra` if there.
fn detailed(o: &JsonObject, case: &'static str) -> Result<(), ConvertError> {
    let needs = match o.get("status").and_then(Value::as_str) {
        Some("input_required") => "inputRequests",
        Some("completed") => "result",
        Some("failed") => "error",
        _ => return Ok(()),
    };
    match o.contains_key(needs) {
        true => Ok(()),
        false => Err(__c::missing(TO, case, needs)),
    }
}

impl Convert<ext::Task> for core::Task {
    fn convert(self) -> Result<ext::Task, ConvertError> {
        let mut o = object(self, TO, "Task")?;
        rename(&mut o, true);
        read(o, TO, "Task")
    }
}

impl Convert<core::Task> for ext::Task {
    fn convert(self) -> Result<core::Task, ConvertError> {
        let mut o = object(self, BACK, "Task")?;
        rename(&mut o, false);
        read(o, BACK, "Task")
    }
}

impl Convert<ext::CreateTaskResult> for core::CreateTaskResult {
    fn convert(self) -> Result<ext::CreateTaskResult, ConvertError> {
        let mut o = object(self, TO, "CreateTaskResult.task")?;
        let Some(Value::Object(mut task)) = o.remove("task") else { return Err(__c::missing(TO, "CreateTaskResult.task", "task")) };
        rename(&mut task, true);
        for (k, v) in task {
            if o.contains_key(&k) {
                return Err(__c::refused(TO, "CreateTaskResult.task", "task").at(k));
            }
            o.insert(k, v);
        }
        o.insert("resultType".into(), Value::from("task"));
        read(o, TO, "CreateTaskResult.task")
    }
}

impl Convert<core::CreateTaskResult> for ext::CreateTaskResult {
    fn convert(self) -> Result<core::CreateTaskResult, ConvertError> {
        let mut o = object(self, BACK, "CreateTaskResult.task")?;
        o.remove("resultType");
        let mut task = JsonObject::new();
        for k in TASK_FIELDS {
            if let Some(v) = o.remove(k) {
                task.insert(k.to_string(), v);
            }
        }
        rename(&mut task, false);
        o.insert("task".into(), Value::Object(task));
        read(o, BACK, "CreateTaskResult.task")
    }
}

impl Convert<ext::GetTaskResult> for core::GetTaskResult {
    fn convert(self) -> Result<ext::GetTaskResult, ConvertError> {
        let mut o = object(self, TO, "GetTaskResult.status")?;
        rename(&mut o, true);
        detailed(&o, "GetTaskResult.status")?;
        o.insert("resultType".into(), Value::from("complete"));
        read(o, TO, "GetTaskResult.status")
    }
}

impl Convert<core::GetTaskResult> for ext::GetTaskResult {
    fn convert(self) -> Result<core::GetTaskResult, ConvertError> {
        let mut o = object(self, BACK, "GetTaskResult.status")?;
        // Always `"complete"` here, so dropping it loses nothing; `result`, `error` and `inputRequests` stay in `extra`.
        o.remove("resultType");
        rename(&mut o, false);
        read(o, BACK, "GetTaskResult.status")
    }
}

impl Convert<ext::TaskStatusNotification> for core::TaskStatusNotification {
    fn convert(self) -> Result<ext::TaskStatusNotification, ConvertError> {
        let mut o = object(self, TO, "TaskStatusNotification")?;
        o.insert("method".into(), Value::from("notifications/tasks"));
        if let Some(Value::Object(params)) = o.get_mut("params") {
            rename(params, true);
            detailed(params, "TaskStatusNotification").map_err(|e| e.at("params"))?;
        }
        read(o, TO, "TaskStatusNotification")
    }
}

impl Convert<core::TaskStatusNotification> for ext::TaskStatusNotification {
    fn convert(self) -> Result<core::TaskStatusNotification, ConvertError> {
        let mut o = object(self, BACK, "TaskStatusNotification")?;
        o.insert("method".into(), Value::from("notifications/tasks/status"));
        if let Some(Value::Object(params)) = o.get_mut("params") {
            rename(params, false);
        }
        read(o, BACK, "TaskStatusNotification")
    }
}

/// Requests whose wire form is the same in both: `tasks/get`, `tasks/cancel`.
macro_rules! same_wire {
    ($($t:ident),*) => {$(
        impl Convert<ext::$t> for core::$t {
            fn convert(self) -> Result<ext::$t, ConvertError> {
                __c::via_json(self, "", TO, "")
            }
        }
        impl Convert<core::$t> for ext::$t {
            fn convert(self) -> Result<core::$t, ConvertError> {
                __c::via_json(self, "", BACK, "")
            }
        }
    )*};
}
same_wire!(GetTaskRequest, CancelTaskRequest);

impl Convert<ext::CancelTaskResult> for core::CancelTaskResult {
    fn convert(self) -> Result<ext::CancelTaskResult, ConvertError> {
        // The extension acknowledges with an empty result: the task's state has no place there.
        Err(__c::refused(TO, "CancelTaskResult", "taskId"))
    }
}

impl Convert<core::CancelTaskResult> for ext::CancelTaskResult {
    fn convert(self) -> Result<core::CancelTaskResult, ConvertError> {
        Err(__c::missing(BACK, "CancelTaskResult", "taskId"))
    }
}

impl Convert<core::JSONRPCRequest> for ext::UpdateTaskRequest {
    fn convert(self) -> Result<core::JSONRPCRequest, ConvertError> {
        Err(__c::not_in_target(BACK, "UpdateTaskRequest"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Reason;

    fn from<T: DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).unwrap()
    }

    const AT: &str = "2025-11-25T10:30:00Z";

    #[test]
    fn a_task_handle_converts_both_ways() {
        let old: core::CreateTaskResult = from(serde_json::json!({"task": {"taskId": "t", "status": "working", "createdAt": AT, "lastUpdatedAt": AT, "ttl": 60000, "pollInterval": 500}, "_meta": {"k": 1}}));
        let new: ext::CreateTaskResult = old.clone().convert().unwrap();
        assert_eq!(
            serde_json::to_value(&new).unwrap(),
            serde_json::json!({"_meta": {"k": 1}, "resultType": "task", "taskId": "t", "status": "working", "createdAt": AT, "lastUpdatedAt": AT, "ttlMs": 60000, "pollIntervalMs": 500})
        );
        let back: core::CreateTaskResult = new.convert().unwrap();
        assert_eq!(back, old);
    }

    #[test]
    fn a_polled_state_converts_while_it_needs_nothing_else() {
        let state = |status: &str| -> core::GetTaskResult { from(serde_json::json!({"taskId": "t", "status": status, "createdAt": AT, "lastUpdatedAt": AT, "ttl": null})) };
        let new: ext::GetTaskResult = state("working").convert().unwrap();
        assert_eq!(serde_json::to_value(&new).unwrap()["resultType"], "complete");
        assert_eq!(Convert::<core::GetTaskResult>::convert(new).unwrap(), state("working"));
        for (status, key) in [("completed", "result"), ("failed", "error"), ("input_required", "inputRequests")] {
            let e = Convert::<ext::GetTaskResult>::convert(state(status)).unwrap_err();
            assert_eq!((e.reason(), e.case(), e.pointer()), (&Reason::Missing { key: key.into() }, "GetTaskResult.status", format!("/{key}")));
        }
        // The extension's inlined result comes back in 2025-11-25's `extra`, and goes forward again.
        let done: ext::GetTaskResult = from(serde_json::json!({"resultType": "complete", "taskId": "t", "status": "completed", "createdAt": AT, "lastUpdatedAt": AT, "ttlMs": 5, "result": {"content": []}}));
        let old: core::GetTaskResult = done.clone().convert().unwrap();
        assert_eq!(old.extra["result"], serde_json::json!({"content": []}));
        assert_eq!(Convert::<ext::GetTaskResult>::convert(old).unwrap(), done);
    }

    #[test]
    fn status_notifications_change_method() {
        let old: core::TaskStatusNotification = from(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": {"taskId": "t", "status": "cancelled", "createdAt": AT, "lastUpdatedAt": AT, "ttl": 1}}));
        let new: ext::TaskStatusNotification = old.clone().convert().unwrap();
        let v = serde_json::to_value(&new).unwrap();
        assert_eq!((v["method"].as_str(), v["params"]["ttlMs"].as_i64()), (Some("notifications/tasks"), Some(1)));
        assert_eq!(Convert::<core::TaskStatusNotification>::convert(new).unwrap(), old);
    }

    #[test]
    fn what_has_no_counterpart_is_an_error() {
        let cancel: core::CancelTaskResult = from(serde_json::json!({"taskId": "t", "status": "cancelled", "createdAt": AT, "lastUpdatedAt": AT, "ttl": null}));
        let e = Convert::<ext::CancelTaskResult>::convert(cancel).unwrap_err();
        assert_eq!((e.case(), e.reason()), ("CancelTaskResult", &Reason::Refused { key: "taskId".into() }));
        let update: ext::UpdateTaskRequest = from(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/update", "params": {"taskId": "t", "inputResponses": {}}}));
        let e = Convert::<core::JSONRPCRequest>::convert(update).unwrap_err();
        assert_eq!((e.case(), e.reason()), ("UpdateTaskRequest", &Reason::NotInTarget));
        let get: core::GetTaskRequest = from(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"taskId": "t"}}));
        let new: ext::GetTaskRequest = get.clone().convert().unwrap();
        assert_eq!(Convert::<core::GetTaskRequest>::convert(new).unwrap(), get);
    }
}
