//! The transport rules (area `transport`): a stable id, the severity the page's wording gives
//! (MUST: error, SHOULD: warning), the versions whose transports page states the rule, and where
//! it says so, in brief. A rule applies to an exchange when the exchange's version (the session's
//! negotiated one, else its `MCP-Protocol-Version` header, else the latest) is one of its versions.
//! Each had an id with a slash before (`transport/post-accept`), kept in `was`.

use mcp_spec_types::validate::Severity;

pub use super::Rule;

/// The versions a rule applies to: the first, and the last if it is not the latest.
type Span = (&'static str, Option<&'static str>);

const fn error(id: &'static str, was: &'static [&'static str], (since, until): Span, source: &'static str) -> Rule {
    let r = super::rule(id, "transport", Severity::Error, source).was(was).since(since);
    Rule { until, ..r }
}

const fn warning(id: &'static str, was: &'static [&'static str], (since, until): Span, source: &'static str) -> Rule {
    let r = super::rule(id, "transport", Severity::Warning, source).was(was).since(since);
    Rule { until, ..r }
}

const ALL: Span = (super::FIRST, None);
const LEGACY: Span = ("2024-11-05", Some("2024-11-05"));
/// Streamable HTTP in every version that has it.
const STREAMABLE: Span = ("2025-03-26", None);
/// Streamable HTTP with sessions, the GET stream and resumption (removed in 2026-07-28).
const SESSIONS: Span = ("2025-03-26", Some("2025-11-25"));
const HEADER: Span = ("2025-06-18", None);
const NEGOTIATED_HEADER: Span = ("2025-06-18", Some("2025-11-25"));
const PRIMING: Span = ("2025-11-25", Some("2025-11-25"));
const STATELESS: Span = ("2026-07-28", None);

/// Whether `version`'s Streamable HTTP is stateless (no sessions: each request carries its
/// version and capabilities, and is answered on its own POST's response).
pub fn stateless(version: &str) -> bool {
    use crate::versions::version_index;
    version_index(version).zip(version_index(STATELESS.0)).is_some_and(|(v, since)| v >= since)
}

pub static POST_ACCEPT: Rule = error(
    "transport.post-accept",
    &["transport/post-accept"],
    STREAMABLE,
    "Streamable HTTP, sending messages: the client MUST send an `Accept` header on every POST that lists both `application/json` and `text/event-stream`",
);
pub static POST_BODY: Rule = error(
    "transport.post-body",
    &["transport/post-body"],
    STREAMABLE,
    "Streamable HTTP, sending messages: a POST body MUST be one JSON-RPC request, notification or response (2025-03-26: or a batch of them; 2026-07-28: a request or notification, never a response); here a POST with no message, with more than one, or (2026-07-28) with a response",
);
pub static ACCEPTED_202: Rule = error(
    "transport.accepted-202",
    &["transport/accepted-202"],
    STREAMABLE,
    "Streamable HTTP, sending messages: a POST of only notifications or responses MUST be answered 202 Accepted with no body when accepted, else with an HTTP error status whose body is at most a JSON-RPC error response",
);
pub static REQUEST_CONTENT_TYPE: Rule = error(
    "transport.request-content-type",
    &["transport/request-content-type"],
    STREAMABLE,
    "Streamable HTTP, sending messages: a POST holding a request MUST be answered with `Content-Type: application/json` or `text/event-stream` (checked on 2xx answers)",
);
pub static JSON_ANSWER: Rule = warning(
    "transport.json-answer",
    &["transport/json-answer"],
    STREAMABLE,
    "Streamable HTTP, sending messages: an `application/json` answer returns one JSON object, the response to the POST's request (the page's MUST is on the content type: a JSON answer that holds no response to a request of the POST is a warning; a request the client cancelled is owed none)",
);
pub static SSE_ANSWER: Rule = warning(
    "transport.sse-answer",
    &["transport/sse-answer"],
    STREAMABLE,
    "Streamable HTTP, sending messages: the SSE stream SHOULD eventually include the response to each request of the POST and SHOULD NOT close before it; a stream that ended whole without it and sent no event id to resume from (a request the client cancelled while the stream was open is owed no response)",
);
pub static SSE_PRIMING: Rule = warning(
    "transport.sse-priming",
    &["transport/sse-priming"],
    PRIMING,
    "Streamable HTTP (2025-11-25), sending messages: when it opens an SSE stream for a POST the server SHOULD first send an event with an id and empty data, so the client can reconnect",
);
pub static SSE_RETRY: Rule = warning(
    "transport.sse-retry",
    &["transport/sse-retry"],
    PRIMING,
    "Streamable HTTP (2025-11-25), sending messages: a server that closes the connection before the stream is done (the POST's request unanswered) SHOULD send an event with a `retry` field first (not for a request the client cancelled meanwhile: its stream is done)",
);
pub static SSE_NO_REQUESTS: Rule = error(
    "transport.sse-no-requests",
    &["transport/sse-no-requests"],
    STATELESS,
    "Streamable HTTP (2026-07-28), receiving messages: the server MUST NOT send JSON-RPC requests on a response's SSE stream (input requests travel inside results)",
);
pub static SSE_DATA: Rule = error(
    "transport.sse-data",
    &["transport/sse-data"],
    ALL,
    "HTTP+SSE / Streamable HTTP: the server's messages travel as SSE `message` events whose data is the JSON-RPC message; a `message` event whose data is not JSON",
);
pub static GET_ACCEPT: Rule = error(
    "transport.get-accept",
    &["transport/get-accept"],
    SESSIONS,
    "Streamable HTTP, listening for messages: a GET MUST carry an `Accept` header listing `text/event-stream`",
);
pub static GET_RESPONSE: Rule = error(
    "transport.get-response",
    &["transport/get-response"],
    SESSIONS,
    "Streamable HTTP, listening for messages: the server MUST answer a GET with `Content-Type: text/event-stream` or with 405 Method Not Allowed (a 2xx with another content type)",
);
pub static GET_NO_RESPONSE: Rule = error(
    "transport.get-no-response",
    &["transport/get-no-response"],
    SESSIONS,
    "Streamable HTTP, listening for messages: the server MUST NOT send a JSON-RPC response on the GET stream unless it resumes a stream (a GET without `Last-Event-ID`)",
);
pub static SESSION_ID_CHARS: Rule = error(
    "transport.session-id-chars",
    &["transport/session-id-chars"],
    SESSIONS,
    "Streamable HTTP, session management: the session id MUST contain only visible ASCII (0x21 to 0x7E)",
);
pub static SESSION_ID_MISSING: Rule = error(
    "transport.session-id-missing",
    &["transport/session-id-missing"],
    SESSIONS,
    "Streamable HTTP, session management: once the server assigned a session id the client MUST send it in `Mcp-Session-Id` on every later request (a request other than `initialize` without it while a session is open)",
);
pub static SESSION_ID_UNISSUED: Rule = warning(
    "transport.session-id-unissued",
    &[],
    SESSIONS,
    "Streamable HTTP, session management: the session id is one the server assigns (in `Mcp-Session-Id` on the answer to `initialize`) and the client sends on later requests; a request carries one no response in the recording assigned (a warning: the session may predate the recording; `proxy --http` checks such requests on the shared stream, not on a stream of their own)",
);
pub static SESSION_REQUIRED_400: Rule = warning(
    "transport.session-required-400",
    &["transport/session-required-400"],
    SESSIONS,
    "Streamable HTTP, session management: a server that requires sessions (it assigned one) SHOULD answer a request without `Mcp-Session-Id`, other than `initialize`, with 400 Bad Request",
);
pub static SESSION_ENDED_404: Rule = error(
    "transport.session-ended-404",
    &["transport/session-ended-404"],
    SESSIONS,
    "Streamable HTTP, session management: after the session ended (a DELETE of it answered 2xx) the server MUST answer requests carrying its id with 404 Not Found",
);
pub static SESSION_RESTART: Rule = error(
    "transport.session-restart",
    &["transport/session-restart"],
    SESSIONS,
    "Streamable HTTP, session management: a client answered 404 to a request with a session id MUST start a new session (an `initialize` without an id); it sent the ended id again",
);
pub static VERSION_HEADER: Rule = error(
    "transport.protocol-version-header",
    &["transport/protocol-version-header"],
    HEADER,
    "Streamable HTTP, protocol version header: the client MUST send `MCP-Protocol-Version` on every request after initialization (2026-07-28: on every POST; checked on those of a request, as the page leaves notification POSTs' headers undefined)",
);
pub static VERSION_NEGOTIATED: Rule = warning(
    "transport.protocol-version-negotiated",
    &["transport/protocol-version-negotiated"],
    NEGOTIATED_HEADER,
    "Streamable HTTP, protocol version header: the version the client sends SHOULD be the one negotiated at initialization",
);
pub static VERSION_META: Rule = error(
    "transport.protocol-version-meta",
    &["transport/protocol-version-meta"],
    STATELESS,
    "Streamable HTTP (2026-07-28), request metadata: the `MCP-Protocol-Version` header MUST match `_meta` `io.modelcontextprotocol/protocolVersion` of the request body",
);
pub static VERSION_400: Rule = error(
    "transport.protocol-version-400",
    &["transport/protocol-version-400"],
    HEADER,
    "Streamable HTTP, protocol version header: a request whose `MCP-Protocol-Version` is invalid or unsupported (here: no known version; 2026-07-28: or not the body's) MUST be answered 400 Bad Request (checked on 2xx answers)",
);
pub static EVENT_ID_UNIQUE: Rule = error(
    "transport.event-id-unique",
    &["transport/event-id-unique"],
    SESSIONS,
    "Streamable HTTP, resumability: an SSE event id MUST be unique across all streams of the session (of the client, without sessions); an id sent again, not as a replay of its own stream",
);
pub static LAST_EVENT_ID_KNOWN: Rule = warning(
    "transport.last-event-id-known",
    &["transport/last-event-id-known"],
    SESSIONS,
    "Streamable HTTP, resumability: a client resumes with `Last-Event-ID` set to the last event id it received; an id the recording never saw the server send (a warning: it may predate the recording)",
);
pub static RESUME_SAME_STREAM: Rule = error(
    "transport.resume-same-stream",
    &["transport/resume-same-stream"],
    SESSIONS,
    "Streamable HTTP, resumability: the server MUST NOT replay messages that would have been delivered on a different stream; a resumed stream sent an event id first sent on another stream",
);
pub static ORIGIN: Rule = warning(
    "transport.origin",
    &["transport/origin"],
    ALL,
    "HTTP+SSE / Streamable HTTP, security: servers MUST validate `Origin` (2025-11-25 on: an invalid one gets 403); an observer cannot see the server's allow-list, so a request whose `Origin` names another host than `Host` that was answered 2xx is a warning",
);
pub static SSE_ENDPOINT_FIRST: Rule = error(
    "transport.sse-endpoint-first",
    &["transport/sse-endpoint-first"],
    LEGACY,
    "HTTP+SSE (2024-11-05): when a client connects the server MUST send an `endpoint` event with the URI to POST to (the first event of the stream)",
);
pub static SSE_POST_ENDPOINT: Rule = error(
    "transport.sse-post-endpoint",
    &["transport/sse-post-endpoint"],
    LEGACY,
    "HTTP+SSE (2024-11-05): all later client messages MUST be POSTed to the URI of the `endpoint` event",
);

pub static MCP_METHOD_HEADER: Rule = error(
    "transport.mcp-method-header",
    &["transport/mcp-method-header"],
    STATELESS,
    "Streamable HTTP (2026-07-28), standard request headers: every request's POST MUST carry `Mcp-Method` with the body's `method`",
);
pub static MCP_NAME_HEADER: Rule = error(
    "transport.mcp-name-header",
    &["transport/mcp-name-header"],
    STATELESS,
    "Streamable HTTP (2026-07-28), standard request headers: a `tools/call`, `prompts/get` or `resources/read` POST MUST carry `Mcp-Name` with `params.name` (or `params.uri`; the Tasks extension's `tasks/get`, `tasks/update`, `tasks/cancel`: `params.taskId`), in the base64 sentinel form `=?base64?...?=` when the value is not plain header-safe ASCII",
);
pub static MCP_PARAM_HEADER: Rule = error(
    "transport.mcp-param-header",
    &["transport/mcp-param-header"],
    STATELESS,
    "Streamable HTTP (2026-07-28), custom headers from tool parameters: for each argument its tool's `inputSchema` marks with `x-mcp-header`, the client MUST send `Mcp-Param-{Name}` with the argument's value (encoded as the value-encoding rules say), and none when the argument is absent",
);
pub static X_MCP_HEADER: Rule = error(
    "transport.x-mcp-header",
    &["transport/x-mcp-header"],
    STATELESS,
    "Streamable HTTP (2026-07-28), schema extension: an `x-mcp-header` value MUST be a non-empty HTTP token, unique without case in the `inputSchema`, on an integer, string or boolean property reachable from the root through `properties` alone; otherwise the tool definition is invalid (and clients exclude it)",
);
pub static HEADER_MISMATCH_400: Rule = error(
    "transport.header-mismatch-400",
    &["transport/header-mismatch-400"],
    STATELESS,
    "Streamable HTTP (2026-07-28), server validation: a server MUST reject a request whose mirrored headers are missing or do not match the body with `400 Bad Request` (and the JSON-RPC error -32020 `HeaderMismatch`)",
);

/// Every transport rule, in the order the catalogue lists them.
pub static RULES: &[&Rule] = &[
    &POST_ACCEPT,
    &POST_BODY,
    &ACCEPTED_202,
    &REQUEST_CONTENT_TYPE,
    &JSON_ANSWER,
    &SSE_ANSWER,
    &SSE_PRIMING,
    &SSE_RETRY,
    &SSE_NO_REQUESTS,
    &SSE_DATA,
    &GET_ACCEPT,
    &GET_RESPONSE,
    &GET_NO_RESPONSE,
    &SESSION_ID_CHARS,
    &SESSION_ID_MISSING,
    &SESSION_ID_UNISSUED,
    &SESSION_REQUIRED_400,
    &SESSION_ENDED_404,
    &SESSION_RESTART,
    &VERSION_HEADER,
    &VERSION_NEGOTIATED,
    &VERSION_META,
    &VERSION_400,
    &EVENT_ID_UNIQUE,
    &LAST_EVENT_ID_KNOWN,
    &RESUME_SAME_STREAM,
    &ORIGIN,
    &SSE_ENDPOINT_FIRST,
    &SSE_POST_ENDPOINT,
    &MCP_METHOD_HEADER,
    &MCP_NAME_HEADER,
    &MCP_PARAM_HEADER,
    &X_MCP_HEADER,
    &HEADER_MISMATCH_400,
];
