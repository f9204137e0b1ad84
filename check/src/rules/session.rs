//! The session rules (area `session`): rules over a session's messages, `--ext apps`,
//! `--ext tasks` and `--ext skills` included. Each had a slashed id before (`session/lifecycle/initialize-first`),
//! kept in `was`.

use mcp_spec_types::validate::Severity;

pub use super::Rule;

const fn error(id: &'static str, was: &'static [&'static str], source: &'static str) -> Rule {
    super::rule(id, "session", Severity::Error, source).was(was)
}

const fn warning(id: &'static str, was: &'static [&'static str], source: &'static str) -> Rule {
    super::rule(id, "session", Severity::Warning, source).was(was)
}

/// A rule of the Tasks extension, which 2026-07-28 introduces.
const fn tasks(rule: Rule) -> Rule {
    rule.since("2026-07-28")
}

/// A rule of the Skills extension, specified against 2026-07-28.
const fn skills(rule: Rule) -> Rule {
    rule.since("2026-07-28")
}

/// Reported as a request enters the session (`Session::enter_request`), from what the observer
/// saw of its id (and on the MCP Apps channel, from that channel's observer); its area is `stream`.
pub static ID_REUSED: Rule = Rule { area: "stream", ..error(
    "stream.id-reused",
    &["id.reused"],
    "basic protocol, requests: the request ID MUST NOT have been previously used by the requestor within the same session (an id of an unanswered, answered or cancelled request of the same direction)",
) };
pub static INITIALIZE_FIRST: Rule = error(
    "session.lifecycle.initialize-first",
    &["session/lifecycle/initialize-first"],
    "lifecycle, initialization: the initialization phase MUST be the first interaction between client and server",
);
pub static CLIENT_BEFORE_RESULT: Rule = warning(
    "session.lifecycle.client-early",
    &["session/lifecycle/client-early"],
    "lifecycle, initialization: the client SHOULD NOT send requests other than pings before the server has answered `initialize`",
);
pub static SERVER_BEFORE_INITIALIZED: Rule = warning(
    "session.lifecycle.server-early",
    &["session/lifecycle/server-early"],
    "lifecycle, initialization: the server SHOULD NOT send requests other than pings and logging before it receives `notifications/initialized`",
);
pub static INITIALIZED_ORDER: Rule = error(
    "session.lifecycle.initialized-order",
    &["session/lifecycle/initialized-order"],
    "lifecycle, initialization: after successful initialization (the server's answer) the client MUST send `notifications/initialized`",
);
pub static SERVER_CAPABILITY: Rule = error(
    "session.capabilities.server",
    &["session/capabilities/server"],
    "lifecycle, operation: both parties MUST only use capabilities that were successfully negotiated (here: what the server declared in `initialize`'s result, or `server/discover` in 2026-07-28)",
);
pub static CLIENT_CAPABILITY: Rule = error(
    "session.capabilities.client",
    &["session/capabilities/client"],
    "lifecycle, operation: both parties MUST only use capabilities that were successfully negotiated (here: what the client declared in `initialize`, or in the request's `_meta` clientCapabilities in 2026-07-28)",
);
pub static TOOL_INPUT: Rule = error(
    "session.tools.input-schema",
    &["session/tools/input-schema"],
    "schema, CallToolRequestParams.arguments: the arguments conform to the tool's input schema (from the last `tools/list`)",
);
pub static TOOL_OUTPUT: Rule = warning(
    "session.tools.output-schema",
    &["session/tools/output-schema"],
    "schema, CallToolResult.structuredContent: if the tool defined an outputSchema, this SHOULD conform to that schema",
);
pub static TOOL_UNLISTED: Rule = warning(
    "session.tools.unlisted",
    &["session/tools/unlisted"],
    "tools: a client finds tools with `tools/list`; a called tool that no listing in the session named (warning, as the issue asks)",
);
pub static TOOL_SCHEMA: Rule = error(
    "session.tools.schema-invalid",
    &["session/tools/schema-invalid"],
    "schema, Tool.inputSchema/outputSchema: a JSON Schema (2020-12 when no `$schema` says otherwise); it must be valid against its draft's meta-schema",
);
pub static TOOL_SCHEMA_UNUSABLE: Rule = warning(
    "session.tools.schema-unusable",
    &["session/tools/schema-unusable"],
    "schema, Tool.inputSchema/outputSchema: a `$schema` the checker does not know, a schema it cannot compile offline (a remote `$ref`), or one past the checker's bounds (subschemas, validation depth through `$ref` chains, subschemas applying to one value, cycles that never move into the value): not used to check calls (warning: the schema may be valid, the checker declines it)",
);
pub static TOOL_PATTERN_UNDECIDED: Rule = warning(
    "session.tools.pattern-undecided",
    &["session/tools/pattern-undecided"],
    "schema, CallToolRequestParams.arguments / CallToolResult.structuredContent: the value must conform to the tool's schema; a `pattern` whose match exceeded the checker's backtracking budget is undecided, not a violation (warning)",
);
pub static READ_URI: Rule = warning(
    "session.resources.read-uri",
    &["session/resources/read-uri"],
    "schema, ReadResourceResult: the contents of the resource asked for; none of them carries the requested URI",
);
pub static UPDATED_UNSUBSCRIBED: Rule = warning(
    "session.resources.updated-unsubscribed",
    &["session/resources/updated-unsubscribed"],
    "schema, ResourceUpdatedNotification: this should only be sent if the client previously sent a resources/subscribe request (for that URI)",
);
pub static CURSOR_UNKNOWN: Rule = error(
    "session.pagination.cursor",
    &["session/pagination/cursor"],
    "pagination: clients MUST treat cursors as opaque tokens (not made up or modified): a `cursor` is a `nextCursor` the same method returned",
);
pub static PROGRESS_TOKEN: Rule = error(
    "session.progress.token",
    &["session/progress/token"],
    "progress: progress notifications MUST only reference tokens that were provided in an active request (one still unanswered)",
);
pub static PROGRESS_INCREASING: Rule = error(
    "session.progress.increasing",
    &["session/progress/increasing"],
    "progress: the `progress` value MUST increase with each notification, even if the total is unknown",
);
pub static PROGRESS_CANCELLED: Rule = warning(
    "session.progress.cancelled",
    &["session/progress/cancelled"],
    "cancellation: the result will be unused, so any associated processing SHOULD cease; progress: tokens MUST be of an active request: a `progressToken` of a request the other side cancelled, after the cancellation (a warning: the notification MAY cross the cancellation in flight)",
);
pub static CANCEL_UNKNOWN: Rule = error(
    "session.cancel.unknown-request",
    &["session/cancel/unknown-request"],
    "cancellation: cancellation notifications MUST only reference requests previously issued in the same direction",
);
pub static CANCEL_INITIALIZE: Rule = error(
    "session.cancel.initialize",
    &["session/cancel/initialize"],
    "cancellation: the `initialize` request MUST NOT be cancelled by clients",
);
pub static APPS_UI_RESOURCE: Rule = warning(
    "session.apps.ui-resource",
    &["session/apps/ui-resource"],
    "MCP Apps (SEP-1865), tool metadata: the resource MUST exist on the server and the host MUST use `resources/read` to fetch it; a tool's `_meta.ui.resourceUri` that the session never listed nor read: its existence is unconfirmed (warning; servers MAY leave UI resources out of `resources/list`)",
);
pub static APPS_UI_MISSING: Rule = error(
    "session.apps.ui-resource-missing",
    &["session/apps/ui-resource-missing"],
    "MCP Apps (SEP-1865), tool metadata: the resource MUST exist on the server; the `resources/read` of a tool's `_meta.ui.resourceUri` was answered with an error",
);
pub static APPS_WRONG_SIDE: Rule = error(
    "session.apps.wrong-side",
    &["session/apps/wrong-side"],
    "MCP Apps (SEP-1865, ext-apps 2.0.4 types): each `ui/*` message has one sender (\"View -> Host\", \"Host -> View\"); on the view<->host channel a message only the other side sends (schema/codegen.toml `[[union]]` ViewRequest, HostNotification, ...)",
);
pub static APPS_INITIALIZE_FIRST: Rule = error(
    "session.apps.initialize-first",
    &["session/apps/initialize-first"],
    "MCP Apps (SEP-1865), lifecycle: the view opens with the MCP-like handshake `ui/initialize` -> `ui/notifications/initialized` (as MCP's initialization MUST be the first interaction); another message of the view came before its `ui/initialize` (the sandbox's own `ui/notifications/sandbox-*` excepted; the host's early messages are `host-early`, on their own lines)",
);
pub static APPS_VIEW_EARLY: Rule = warning(
    "session.apps.view-early",
    &["session/apps/view-early"],
    "MCP Apps (SEP-1865), lifecycle: as in MCP, the view SHOULD NOT send requests other than `ping` before the host answered `ui/initialize`",
);
pub static APPS_HOST_EARLY: Rule = error(
    "session.apps.host-early",
    &["session/apps/host-early"],
    "MCP Apps (SEP-1865), sandbox proxy: the Host MUST NOT send any request or notification to the Guest UI before it receives an `initialized` notification (also when the view never sent `ui/initialize`)",
);
pub static APPS_TOOL_INPUT_ONCE: Rule = warning(
    "session.apps.tool-input-once",
    &["session/apps/tool-input-once"],
    "MCP Apps (SEP-1865), notifications: `ui/notifications/tool-input` \"is sent at most once\" (stated without MUST: a warning); a second one from the host",
);
pub static APPS_PARTIAL_AFTER_INPUT: Rule = error(
    "session.apps.partial-after-input",
    &["session/apps/partial-after-input"],
    "MCP Apps (SEP-1865), notifications: with `ui/notifications/tool-input-partial` the host MUST stop sending once `ui/notifications/tool-input` is sent with complete arguments",
);
pub static APPS_AFTER_TEARDOWN: Rule = warning(
    "session.apps.after-teardown",
    &["session/apps/after-teardown"],
    "MCP Apps (SEP-1865), cleanup: the host sends `ui/resource-teardown` before tearing the view down and waits for its response; a message on the channel after that response",
);
pub static APPS_TOOL_HIDDEN: Rule = error(
    "session.apps.tool-visibility",
    &["session/apps/tool-visibility"],
    "MCP Apps (SEP-1865), visibility: Host MUST reject `tools/call` requests from apps for tools that don't include \"app\" in visibility (`_meta.ui.visibility` as the server listed it): reported on the view's call, and again on a host's result that accepts it",
);

pub static TASKS_UNDECLARED: Rule = tasks(error(
    "session.tasks.undeclared",
    &["session/tasks/undeclared"],
    "Tasks extension, capability negotiation: a server MUST NOT return `CreateTaskResult` (`resultType: \"task\"`) to a client that did not include the extension capability on its request, regardless of prior declarations",
));
pub static TASKS_UNSUPPORTED_METHOD: Rule = tasks(error(
    "session.tasks.unsupported-method",
    &["session/tasks/unsupported-method"],
    "Tasks extension, supported methods and reservations: only `tools/call` may be answered with a task; a client MUST interpret `CreateTaskResult` in answer to another request as invalid, and `resultType: \"task\"` is reserved for it",
));
pub static TASKS_UNDECLARED_REQUEST: Rule = tasks(error(
    "session.tasks.undeclared-request",
    &["session/tasks/undeclared-request"],
    "Tasks extension, protocol errors: servers MUST answer `tasks/get`, `tasks/update` and `tasks/cancel` from a client that does not declare the extension on the request with `-32021` (Missing Required Client Capability)",
));
pub static TASKS_LISTEN_UNDECLARED: Rule = tasks(error(
    "session.tasks.listen-undeclared",
    &["session/tasks/listen-undeclared"],
    "Tasks extension, task status notifications: a `subscriptions/listen` asking for `taskIds` from a client that does not declare the extension MUST be answered with `-32021` (not acknowledged)",
));
pub static TASKS_UNKNOWN_ID: Rule = tasks(error(
    "session.tasks.unknown-id",
    &["session/tasks/unknown-id"],
    "Tasks extension, protocol errors: a `tasks/get` for an invalid or nonexistent `taskId` MUST be answered with `-32602` (Invalid params); whole sessions only, where every task was created in view",
));
pub static TASKS_UNKNOWN_ID_ACK: Rule = tasks(warning(
    "session.tasks.unknown-id-ack",
    &["session/tasks/unknown-id-ack"],
    "Tasks extension, protocol errors: a `tasks/update` or `tasks/cancel` for an invalid or nonexistent `taskId` SHOULD be answered with `-32602` (warning); whole sessions only",
));
pub static TASKS_GONE: Rule = tasks(warning(
    "session.tasks.gone",
    &["session/tasks/gone"],
    "Tasks extension, `ttlMs`: null means an unlimited time to live; a task last seen with `ttlMs: null` answered as not found (`-32602`) (warning: servers are not required to retain tasks indefinitely)",
));
pub static TASKS_STATUS: Rule = tasks(error(
    "session.tasks.status-transition",
    &["session/tasks/status-transition"],
    "Tasks extension, task status: `working` and `input_required` move to each other or to a terminal status (`completed`, `failed`, `cancelled`), and a terminal status is final",
));
pub static TASKS_INPUT_KEY: Rule = tasks(error(
    "session.tasks.input-key",
    &["session/tasks/input-key"],
    "Tasks extension, task update requests: each `inputRequests` key MUST be unique over the task's lifetime: a server MUST NOT use one key for two distinct requests, nor reuse it for a new request after its answer",
));
pub static TASKS_UPDATE_KEY: Rule = tasks(error(
    "session.tasks.update-key",
    &["session/tasks/update-key"],
    "Tasks extension, UpdateTaskRequest: each `inputResponses` key MUST correspond to a currently outstanding `inputRequests` key of the task (issued in view, and not answered by an earlier `tasks/update`; a task whose creation was in view and that never listed `inputRequests`, never `input_required`, has none)",
));
pub static TASKS_CANCEL_NOTIFICATION: Rule = tasks(error(
    "session.tasks.cancel-notification",
    &["session/tasks/cancel-notification"],
    "Tasks extension, task cancellation: the `notifications/cancelled` notification MUST NOT be used for task cancellation (here: naming the request a task answered; `tasks/cancel` is the way)",
));
pub static TASKS_RESULT_REMOVED: Rule = tasks(error(
    "session.tasks.result-removed",
    &["session/tasks/result-removed"],
    "Tasks extension (SEP-2663, differences from 2025-11-25): `tasks/result` is removed; clients calling it MUST receive `-32601` (Method Not Found)",
));
pub static TASKS_LEGACY_CAPABILITY: Rule = tasks(error(
    "session.tasks.legacy-capability",
    &["session/tasks/legacy-capability"],
    "Tasks extension (SEP-2663, migration): servers that advertised 2025-11-25's `tasks` capability MUST declare `io.modelcontextprotocol/tasks` instead and MUST NOT advertise the legacy capability under a protocol version that includes the extension (here: `server/discover`'s capabilities)",
));
pub static TASKS_COMPLETED_RESULT: Rule = tasks(error(
    "session.tasks.completed-result",
    &["session/tasks/completed-result"],
    "Tasks extension, error handling: if the request completed with a result, the task uses `completed` and the `result` field MUST contain that result: it is checked as the result of the request that created the task (`CallToolResult` for `tools/call`)",
));

pub static SKILLS_VERSION: Rule = warning(
    "session.skills.version",
    &[],
    "Skills extension (SEP-2640), Protocol Revision: the extension is specified against base revision 2026-07-28 or later; a Skills message (`skills/*`, `resources/directory/read`) in a session of an earlier version is outside the spec: reported, not checked (warning: the TypeScript SDK sends them on 2025-11-25)",
)
.until("2025-11-25");
pub static SKILLS_UNDECLARED: Rule = skills(error(
    "session.skills.undeclared",
    &[],
    "Skills extension (SEP-2640), Capability Negotiation: clients issue `skills/list` and `skills/get` only after observing the server's declaration (and both parties MUST only use capabilities successfully negotiated): a `skills/*` request after the server's capabilities (`initialize` or `server/discover`) came without `io.modelcontextprotocol/skills`",
));
pub static SKILLS_DIRECTORY_UNDECLARED: Rule = skills(error(
    "session.skills.directory-undeclared",
    &[],
    "Skills extension (SEP-2640), Capability Negotiation: clients MUST NOT call `resources/directory/read` against a server that has not declared `directoryRead: true` (here: its capabilities are in view without it)",
));
pub static SKILLS_RESOURCES_CAPABILITY: Rule = skills(error(
    "session.skills.resources-capability",
    &[],
    "Skills extension (SEP-2640), Capability Negotiation: a server declaring the extension MUST also declare the `resources` capability",
));
pub static SKILLS_ERROR_CODE: Rule = skills(error(
    "session.skills.error-code",
    &[],
    "Skills extension (SEP-2640), Error Handling: servers MUST answer `skills/get` for a `uri` that is no skill they serve, and `resources/directory/read` of a `uri` that does not exist or is not a directory, with -32602 (Invalid params), internal errors with -32603: an error answer with another code (-32601 where the server did not declare the method, and the base protocol's -32020 and -32022, excepted)",
));
pub static SKILLS_DIRECTORY_CHILD: Rule = skills(warning(
    "session.skills.directory-child",
    &[],
    "Skills extension (SEP-2640), Reading Directories: the result holds the direct children of the requested directory and is not recursive: a child whose `uri` is not the directory's, a slash and one segment (stated without MUST: a warning)",
));
pub static SKILLS_CONTENT_DIGEST: Rule = skills(warning(
    "session.skills.content-digest",
    &[],
    "Skills extension (SEP-2640), Integrity and Verification: a host MUST verify a read file listed in a skill's `resources` against its `size` and `digest` (text: its UTF-8 bytes; blob: base64-decoded) and MUST NOT use content that fails; here against the session's last `skills/list` or `skills/get` entry (warning: a wrong entry and a skill changed since it was fetched look the same, and the host's use is not in the traffic)",
));
pub static SKILLS_FRONTMATTER: Rule = skills(warning(
    "session.skills.frontmatter",
    &[],
    "Skills extension (SEP-2640), Frontmatter and Frontmatter Verification: an entry's `frontmatter` MUST be identical in content to its `SKILL.md`'s YAML frontmatter, and a host MUST NOT load a skill whose fetched `SKILL.md` differs field by field; here a read `SKILL.md` against the session's last entry (warning, as `session.skills.content-digest`)",
));
pub static SKILLS_UNLISTED_READ: Rule = skills(warning(
    "session.skills.unlisted-read",
    &[],
    "Skills extension (SEP-2640), the Acting Window and the Held Entry: a `resources` array is complete, so a read of a file within a skill that its held entry does not list is a verification failure equivalent to a digest mismatch; here a file within a skill of the session's last entries, answered by the server (warning, as `session.skills.content-digest`)",
));

/// Every session rule, in the order cli/README.md lists them.
pub static RULES: &[&Rule] = &[
    &ID_REUSED,
    &INITIALIZE_FIRST,
    &CLIENT_BEFORE_RESULT,
    &SERVER_BEFORE_INITIALIZED,
    &INITIALIZED_ORDER,
    &SERVER_CAPABILITY,
    &CLIENT_CAPABILITY,
    &TOOL_INPUT,
    &TOOL_OUTPUT,
    &TOOL_UNLISTED,
    &TOOL_SCHEMA,
    &TOOL_SCHEMA_UNUSABLE,
    &TOOL_PATTERN_UNDECIDED,
    &READ_URI,
    &UPDATED_UNSUBSCRIBED,
    &CURSOR_UNKNOWN,
    &PROGRESS_TOKEN,
    &PROGRESS_INCREASING,
    &PROGRESS_CANCELLED,
    &CANCEL_UNKNOWN,
    &CANCEL_INITIALIZE,
    &APPS_UI_RESOURCE,
    &APPS_UI_MISSING,
    &APPS_WRONG_SIDE,
    &APPS_INITIALIZE_FIRST,
    &APPS_VIEW_EARLY,
    &APPS_HOST_EARLY,
    &APPS_AFTER_TEARDOWN,
    &APPS_TOOL_INPUT_ONCE,
    &APPS_PARTIAL_AFTER_INPUT,
    &APPS_TOOL_HIDDEN,
    &TASKS_UNDECLARED,
    &TASKS_UNSUPPORTED_METHOD,
    &TASKS_UNDECLARED_REQUEST,
    &TASKS_LISTEN_UNDECLARED,
    &TASKS_UNKNOWN_ID,
    &TASKS_UNKNOWN_ID_ACK,
    &TASKS_GONE,
    &TASKS_STATUS,
    &TASKS_INPUT_KEY,
    &TASKS_UPDATE_KEY,
    &TASKS_CANCEL_NOTIFICATION,
    &TASKS_COMPLETED_RESULT,
    &TASKS_RESULT_REMOVED,
    &TASKS_LEGACY_CAPABILITY,
    &SKILLS_VERSION,
    &SKILLS_UNDECLARED,
    &SKILLS_DIRECTORY_UNDECLARED,
    &SKILLS_RESOURCES_CAPABILITY,
    &SKILLS_ERROR_CODE,
    &SKILLS_DIRECTORY_CHILD,
    &SKILLS_CONTENT_DIGEST,
    &SKILLS_FRONTMATTER,
    &SKILLS_UNLISTED_READ,
];
