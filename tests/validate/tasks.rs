//! The Tasks extension's validation rules (`tasks.*`, `format.int`): one accepting and one rejecting case each.

use super::Case;
use mcp_spec_types::tasks;
use mcp_spec_types::validate::{self, Options, Report, Severity};
use serde_json::{json, Value};

type Check = super::Check;

fn task(extra: Value) -> Value {
    let mut t = json!({"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:40:00Z", "ttlMs": 60000});
    t.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    t
}

fn handle(extra: Value) -> Value {
    let mut t = task(extra);
    t["resultType"] = json!("task");
    t
}

pub fn cases() -> Vec<Case> {
    let (e, w) = (Severity::Error, Severity::Warning);
    vec![
        Case { rule: "format.int", check: check!(tasks::Task), valid: task(json!({"ttlMs": 9007199254740991_i64})), invalid: task(json!({"ttlMs": 9007199254740992_i64})), pointer: "/ttlMs", severity: e },
        Case { rule: "tasks.timestamp", check: check!(tasks::CreateTaskResult), valid: handle(json!({"createdAt": "2025-11-25T11:30:00+01:00"})), invalid: handle(json!({"createdAt": "yesterday"})), pointer: "/createdAt", severity: e },
        Case { rule: "tasks.timestamp-order", check: check!(tasks::Task), valid: task(json!({})), invalid: task(json!({"lastUpdatedAt": "2025-11-25T10:29:59Z"})), pointer: "/lastUpdatedAt", severity: w },
        Case { rule: "tasks.duration", check: check!(tasks::CreateTaskResult), valid: handle(json!({"pollIntervalMs": 0})), invalid: handle(json!({"pollIntervalMs": -5})), pointer: "/pollIntervalMs", severity: e },
        Case {
            rule: "tasks.failed-message",
            check: check!(tasks::FailedTask),
            valid: task(json!({"status": "failed", "statusMessage": "rate limited", "error": {"code": -32603, "message": "rate limited"}})),
            invalid: task(json!({"status": "failed", "error": {"code": -32603, "message": "rate limited"}})),
            pointer: "",
            severity: w,
        },
        Case {
            rule: "tasks.result-status",
            check: check!(tasks::GetTaskResult),
            valid: task(json!({"resultType": "complete", "status": "completed", "result": {"content": []}})),
            invalid: task(json!({"resultType": "complete", "status": "working", "result": {"content": []}})),
            pointer: "/result",
            severity: e,
        },
        Case {
            rule: "tasks.empty-ack",
            check: check!(tasks::UpdateTaskResult),
            valid: json!({"resultType": "complete", "_meta": {}}),
            invalid: json!({"resultType": "complete", "taskId": "t1"}),
            pointer: "/taskId",
            severity: e,
        },
    ]
}

/// `Result & DetailedTask` is read as one struct: the status decides which member's field is required.
#[test]
fn a_detailed_task_needs_its_status_field() {
    let check: Check = check!(tasks::GetTaskResult);
    let got = |extra: Value| -> Report {
        let mut v = task(extra);
        v["resultType"] = json!("complete");
        check(&v, &Options::default())
    };
    assert!(got(json!({})).is_valid());
    assert!(got(json!({"status": "completed", "result": {"content": []}})).is_valid());
    for (status, field) in [("input_required", "inputRequests"), ("completed", "result"), ("failed", "error")] {
        let r = got(json!({"status": status}));
        assert!(r.violations.iter().any(|v| v.rule == "required" && v.message.contains(field)), "{status}: {:?}", r.violations);
    }
    // The outcome goes with its status: no `result` before `completed`, no `error` but on `failed`.
    for (status, extra, field) in [("working", json!({"result": {"content": []}}), "/result"), ("input_required", json!({"inputRequests": {}, "result": {}}), "/result"), ("cancelled", json!({"error": {"code": -32603, "message": "x"}}), "/error"), ("completed", json!({"result": {}, "error": {"code": -32603, "message": "x"}}), "/error")] {
        let mut extra = extra;
        extra["status"] = json!(status);
        let r = got(extra);
        let found: Vec<_> = r.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect();
        assert_eq!(found, [("tasks.result-status", field)], "{status}");
    }
    let notification: Check = check!(tasks::TaskStatusNotificationParams);
    let r = notification(&task(json!({"status": "failed", "statusMessage": "x", "error": {"code": -32603, "message": "x"}, "result": {}})), &Options::default());
    assert_eq!(r.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect::<Vec<_>>(), [("tasks.result-status", "/result")]);
    // The five statuses, and no other.
    let r = got(json!({"status": "paused"}));
    assert_eq!(r.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect::<Vec<_>>(), [("enum", "/status")]);
}
