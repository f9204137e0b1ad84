//! The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): the rules its prose states
//! that one value shows, attached to the `tasks` module's types by `schema/codegen.toml`.
//!
//! Every MUST, MUST NOT, SHOULD and REQUIRED of `tasks.md` and the SEP, and what became of it.
//! "session" rules relate two or more messages and are `mcp-schema check --ext tasks`'s (`tasks.x` here is
//! `session.tasks.x` in the CLI's session rule table); "n/a" ones no recording can show. Rows marked "SEP" are
//! the SEP's own (its differences from 2025-11-25 and migration); the rest are tasks.md's, which the SEP repeats.
//!
//! | Rule id | The requirement | Decision |
//! |---|---|---|
//! | `literal` | a server sets `resultType: "task"` on a `CreateTaskResult` | encoded by the types |
//! | `literal` | `resultType` is `"complete"` on `GetTaskResult`, `UpdateTaskResult`, `CancelTaskResult` | encoded by the types |
//! | `required` | a `tasks/get` answer carries `inputRequests` for `input_required`, `result` for `completed`, `error` for `failed` | encoded by the types for `DetailedTask`; checked here, [`detailed`], for `GetTaskResult` and `notifications/tasks` params, which read every member as one struct (error) |
//! | `tasks.timestamp` | `createdAt` and `lastUpdatedAt` are ISO 8601 timestamps | checked here, [`task`] (error) |
//! | `tasks.timestamp-order` | a task is not updated before it was created | checked here, [`task`] (warning: the schema says it only through the fields' meaning) |
//! | `tasks.duration` | `ttlMs` and `pollIntervalMs` are durations in integer milliseconds | checked here, [`task`] (error when negative; `format.int` checks the integer range) |
//! | `tasks.failed-message` | a `failed` task SHOULD carry a `statusMessage` with diagnostics | checked here, [`task`] (warning) |
//! | `tasks.result-status` | a request that completed with a result makes its task `completed` with the `result`; one that ended with a JSON-RPC error makes it `failed` with the `error` (so no `result` on a task that is not `completed`, no `error` on one that is not `failed`) | checked here, [`task`] (error) |
//! | `tasks.empty-ack` | a server acknowledges `tasks/update` and `tasks/cancel` with an empty result | checked here, [`empty_ack`] (error; `_meta` and `resultType` are every result's) |
//! | `tasks.undeclared` (session) | a server MUST NOT return `CreateTaskResult` to a request that did not declare the extension | session |
//! | `tasks.unsupported-method` (session) | `resultType: "task"` only answers a supported method (`tools/call`); a client reads it anywhere else as invalid | session |
//! | `tasks.undeclared-request` (session) | `tasks/get`, `tasks/update`, `tasks/cancel` from a client that does not declare the extension are answered with `-32021` | session |
//! | `tasks.listen-undeclared` (session) | `subscriptions/listen` asking for task notifications without the extension is answered with `-32021` | session |
//! | `tasks.unknown-id` (session) | an unknown `taskId` is answered with `-32602`: MUST for `tasks/get`, SHOULD for `tasks/update` and `tasks/cancel` | session (error, warning) |
//! | `tasks.status-transition` (session) | status moves `working` <-> `input_required` -> terminal; a terminal status is final | session |
//! | `tasks.input-key` (session) | an `inputRequests` key is unique over the task's life: never reused after its answer, never for another request | session |
//! | `tasks.update-key` (session) | each `inputResponses` key of `tasks/update` is a currently outstanding `inputRequests` key | session |
//! | `tasks.cancel-notification` (session) | `notifications/cancelled` is not used to cancel a task | session |
//! | `tasks.completed-result` (session) | a `completed` task's `result` is what the request would have returned (a `CallToolResult` for `tools/call`) | session |
//! | `tasks.result-removed` (session) | SEP: `tasks/result` is removed; calling it gets `-32601` | session |
//! | `tasks.legacy-capability` (session) | SEP: no 2025-11-25 `tasks` capability under a version with the extension; declare the extension instead | session (on `server/discover`'s answer) |
//! | `tasks.undeclared` (session) | SEP: the legacy capability or a `task` parameter is no opt-in: a client declaring only those is non-declaring | session (only `extensions` counts as declaring) |
//! | `tasks.gone` (session) | a task whose `ttlMs` is `null` (unlimited) is not reported missing (warning: retention is the server's choice) | session |
//! | n/a | a client that declared the extension handles either result shape; it inspects `inputRequests` | client behaviour |
//! | n/a | SEP (2025-11-25's design): a client puts `task` only on requests whose tool supports tasks | 2025-11-25's rule, checked there by the core's types |
//! | n/a | a server that cannot serve a non-declaring client without a task answers `-32021` naming the extension | the reason for an error is not in the message |
//! | n/a | `CreateTaskResult` only once `tasks/get` would resolve it (and after consistency) | shown by `tasks.unknown-id` when a `tasks/get` of a created task fails; not separately |
//! | n/a | `inputRequests` holds every outstanding request; clients treat each like the standalone request | server state, client behaviour |
//! | n/a | `failed` only for JSON-RPC errors; an `isError` tool result is `completed` | the type carries it (`FailedTask.error` is a JSON-RPC error object); whether the cause was one is not in the message |
//! | n/a | no `notifications/progress` or `notifications/message` on a task's `subscriptions/listen` stream | not attributable to a task on stdio; not checked |
//! | n/a | on Streamable HTTP, `Mcp-Name` is the `taskId` of `tasks/*` requests | transport: `transport.mcp-name-header` in the CLI's transport rule table |
//! | n/a | unguessable task ids, authorization on each request, the same trust model for `inputRequests` | security behaviour |
//! | n/a | clients SHOULD honour `pollIntervalMs`, deduplicate `inputRequests`, persist task ids | client behaviour (timing is not in the messages) |

use crate::tree::Node;

use super::Cx;

/// The extension's key in `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/tasks";

/// A task's state (`Task` and every type that carries one: `CreateTaskResult`, `GetTaskResult`,
/// the `DetailedTask` members, `notifications/tasks` params).
pub fn task<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    let mut times = [None, None];
    for (slot, key) in times.iter_mut().zip(["createdAt", "lastUpdatedAt"]) {
        let Some(s) = o.get(key).and_then(Node::as_str) else { continue };
        match timestamp(s) {
            Some(t) => *slot = Some(t),
            None => cx.key(key, |cx| cx.error("tasks.timestamp", format!("`{}` is not an ISO 8601 date and time (`2025-11-25T10:30:00Z`)", super::shorten(s)))),
        }
    }
    if let [Some(created), Some(updated)] = times {
        if updated < created {
            cx.key("lastUpdatedAt", |cx| cx.warning("tasks.timestamp-order", "the task was last updated before it was created"));
        }
    }
    for key in ["ttlMs", "pollIntervalMs"] {
        if let Some((k, n)) = o.get_key_value(key) {
            if n.as_f64().is_some_and(|x| x < 0.0) {
                cx.key(k, |cx| cx.error("tasks.duration", format!("a duration in milliseconds cannot be negative, found {n}")));
            }
        }
    }
    let status = o.get("status").and_then(Node::as_str);
    if status == Some("failed") && !o.contains_key("statusMessage") {
        cx.warning("tasks.failed-message", "a failed task should carry a `statusMessage` with diagnostic information");
    }
    // A request that ended with a result makes its task `completed`, one that ended with an error `failed`:
    // the outcome and the status go together (an unknown status is the `enum` rule's).
    if let Some(status) = status.filter(|s| matches!(*s, "working" | "input_required" | "completed" | "failed" | "cancelled")) {
        for (field, owner) in [("result", "completed"), ("error", "failed")] {
            if let (Some((k, _)), true) = (o.get_key_value(field), status != owner) {
                cx.key(k, |cx| cx.error("tasks.result-status", format!("a `{status}` task carries `{field}`, which only a `{owner}` task has: a request that ended with it makes the task `{owner}`")));
            }
        }
    }
}

/// `GetTaskResult`, `TaskStatusNotificationParams`: `Result & DetailedTask`, read as one struct that holds
/// every member, so the member the status names decides which fields are required (as schema.json's `anyOf`).
pub fn detailed<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    let needs = match o.get("status").and_then(Node::as_str) {
        Some("input_required") => "inputRequests",
        Some("completed") => "result",
        Some("failed") => "error",
        _ => return,
    };
    if !o.contains_key(needs) {
        let status = o.get("status").and_then(Node::as_str).unwrap_or_default();
        cx.error("required", format!("a task with status `{status}` carries `{needs}`"));
    }
}

/// `UpdateTaskResult`, `CancelTaskResult`: the server acknowledges with an empty result.
pub fn empty_ack<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    for k in o.keys().filter(|k| !matches!(*k, "resultType" | "_meta")) {
        cx.key(k, |cx| cx.error("tasks.empty-ack", format!("the acknowledgement is an empty result; `{}` does not belong in it", super::shorten(k))));
    }
}

/// An ISO 8601 extended date and time (`YYYY-MM-DDTHH:MM[:SS[.f]]` with `Z`, `±HH:MM`, `±HHMM`, `±HH`
/// or no zone) as seconds on one scale, for ordering two timestamps of one task. `None` if it is not one.
pub fn timestamp(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        part.iter().all(u8::is_ascii_digit).then(|| part.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b'T' | b't')) {
        return None;
    }
    let (hour, minute) = (digits(11..13)?, digits(14..16)?);
    if b.get(13) != Some(&b':') {
        return None;
    }
    let mut i = 16;
    let mut second = 0.0;
    if b.get(i) == Some(&b':') {
        second = digits(17..19)? as f64;
        i = 19;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            i = start;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
            second += s[start - 1..i].parse::<f64>().ok()?;
        }
    }
    let offset = match &b[i..] {
        [] => 0,
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let z = |r| digits(r);
            let (h, m) = match rest.len() {
                2 => (z(i + 1..i + 3)?, 0),
                4 => (z(i + 1..i + 3)?, z(i + 3..i + 5)?),
                5 if rest[2] == b':' => (z(i + 1..i + 3)?, z(i + 4..i + 6)?),
                _ => return None,
            };
            if h > 23 || m > 59 {
                return None;
            }
            (h * 60 + m) * if *sign == b'-' { -1 } else { 1 }
        }
        _ => return None,
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&month) || day < 1 || day > month_days[(month - 1) as usize] || hour > 23 || minute > 59 || second >= 61.0 {
        return None;
    }
    // Days from a fixed epoch (the proleptic Gregorian calendar), so timestamps compare across months and years.
    let (y, m) = if month <= 2 { (year - 1, month + 9) } else { (year, month - 3) };
    let days = 365 * y + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + day;
    Some((days * 86_400 + hour * 3_600 + (minute - offset) * 60) as f64 + second)
}

#[cfg(test)]
mod tests {
    use super::timestamp;

    #[test]
    fn timestamps_read_and_order() {
        let t = |s| timestamp(s).unwrap_or_else(|| panic!("{s}"));
        assert!(t("2025-11-25T10:30:00Z") < t("2025-11-25T10:40:00Z"));
        assert_eq!(t("2025-11-25T10:30:00Z"), t("2025-11-25T11:30:00+01:00"));
        assert_eq!(t("2025-11-25T10:30:00Z"), t("2025-11-25T10:30:00+0000"));
        assert!(t("2025-12-31T23:59:59.5Z") < t("2026-01-01T00:00:00Z"));
        assert!(t("2026-11-26T01:30:00.123456+00:00") > t("2026-11-26T01:30:00Z"));
        for bad in ["", "2025-11-25", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2025-11-25 10:30:00Z", "2025-11-25T10:30:00.Z", "2025-11-25T10:30:00+1", "yesterday", "2025-11-25T10:30:00Zjunk", "２０２５-11-25T10:30:00Z"] {
            assert_eq!(timestamp(bad), None, "{bad}");
        }
    }
}
