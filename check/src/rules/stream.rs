//! The checker's rules on lines and streams (areas `line`, `stream`, `jsonrpc`, `typed`, `har`,
//! `sse`, `checker`): whether a line is a message at all, how the wrapper of a recording's line
//! reads, and what the stream shows beyond one message. `stream.id-reused` is in the session table,
//! whose cases cover it. Single-segment ids are the basic checks of a line; the `stream.` ids
//! were `response.unmatched`, `response.result` and `protocol.changed` before.

use mcp_spec_types::validate::Severity;

use super::{rule, Rule};

const fn error(id: &'static str, area: &'static str, source: &'static str) -> Rule {
    rule(id, area, Severity::Error, source)
}

const fn warning(id: &'static str, area: &'static str, source: &'static str) -> Rule {
    rule(id, area, Severity::Warning, source)
}

pub static LINE_UTF8: Rule = error("utf8", "line", "stdio transport and JSON (RFC 8259): messages are UTF-8 encoded; a line with an invalid byte sequence");
pub static LINE_JSON: Rule = error("json", "line", "stdio transport, messages: each line is one JSON-RPC message; a line (a HAR body, a `.json` file) that is not JSON, or a file with no value");
pub static LINE_TOO_LONG: Rule = error("line.too-long", "line", "the checker's bound: a line or a file longer than it reads (`MAX_LINE`) is skipped, reported rather than read");
pub static LINE_TOO_COSTLY: Rule = error("line.too-costly", "line", "the checker's bound: a part of a line that must be read into a `serde_json::Value` (a listed tool's schema, a call's arguments or a result's structuredContent for the `jsonschema` crate) whose value tree would take more than its budget (16 times its bytes or `--max-tree-mib`, at most 1 GiB: small objects cost about 90 times their text) is not checked against the tool's schema, reported rather than read; a line whose whole tree would pass it is not read typed (the validators report what the typed reader would refuse; with `--no-validate` or `--roundtrip` it is reported); the bridge refuses a whole message past it with a JSON-RPC error");
pub static LINE_BOM: Rule = error("line.bom", "line", "JSON (RFC 8259, 8.1): JSON text sent over a network must not start with a byte order mark; the message after the mark is checked");
pub static LINE_UNTERMINATED: Rule = warning("line.unterminated", "line", "stdio transport: messages are delimited by newlines; the stream ended inside the last line, which the receiver may never read (`proxy`)");
pub static LINE_UNDELIVERED: Rule = warning("line.undelivered", "line", "`proxy`: a line that could not be written to its receiver (it had closed its end), checked as if delivered");
pub static LINE_HTTP: Rule = error("line.http", "line", "recording format (cli/README.md): a line's `http` context is an object of the documented shape");
pub static LINE_KEY: Rule = warning("line.key", "line", "recording format: a wrapped line (`msg`) has only the wrapper keys; another key may mean a message without `jsonrpc`");
pub static LINE_DIR: Rule = error("line.dir", "line", "recording format: `dir` is `c2s` or `s2c` (`--ext apps`: also the view<->host channel's)");
pub static LINE_LEG: Rule = error("line.leg", "line", "recording format: `leg` is `client` or `server` (a bridge recording's two streams)");
pub static LINE_TYPE: Rule = error("line.type", "line", "recording format: `type` is a type name (a string)");
pub static TYPE_NAME: Rule = error("type-name", "line", "recording format: the type a line's `type` names exists in the version checked (or an extension enabled)");
pub static STREAM_PROTOCOL: Rule = error(
    "protocol",
    "stream",
    "lifecycle, version negotiation: a protocol version (a line's `protocol`, `initialize`'s `protocolVersion` or 2026-07-28's `_meta` version) is one the schema knows (a warning where the receiver answers an unknown one with an error)",
);
pub static STREAM_DIRECTION: Rule = error("direction", "stream", "schema, the message unions of each side (`ClientRequest`, `ServerNotification`, ...): a side sends only what its version lets it send (2026-07-28: the server sends no requests)");
pub static JSONRPC_BATCH: Rule = error("jsonrpc.batch", "jsonrpc", "JSON-RPC batches: only 2025-03-26 defines them, and a batch is not empty");
pub static PROTOCOL_CHANGED: Rule = warning(
    "stream.protocol-changed",
    "stream",
    "lifecycle: a session negotiates one version; a second `initialize` or a message carrying another version in the same stream",
)
.was(&["protocol.changed"]);
pub static RESPONSE_UNMATCHED: Rule = warning(
    "stream.response-unmatched",
    "stream",
    "basic protocol, responses: a response has the id of the request it answers; no request of the other direction with this id is waiting (never sent, answered already, cancelled or forgotten)",
)
.was(&["response.unmatched"]);
pub static RESPONSE_RESULT: Rule = error(
    "stream.response-result",
    "stream",
    "basic protocol, responses: the result of an unmatched response is still one of the results its sender sends",
)
.was(&["response.result"]);
pub static TYPED_DESERIALIZE: Rule = error("deserialize", "typed", "the crate's typed reading: the value reads as the Rust type of its schema type (`check` without `--no-typed`)");
pub static TYPED_ROUNDTRIP: Rule = error("roundtrip", "typed", "the crate's lossless reading: the typed value writes back as the JSON it was read from (`--roundtrip`)");
pub static CHECKER_INTERNAL: Rule = error("internal", "checker", "a bug of the checker (it panicked on the value, or a table it needs is missing); please report it");
pub static HAR_FILE: Rule = error("har", "har", "HAR 1.2: the file is a HAR within the checker's size bound (checked up to the cut), with each key once at its top and in `log` (RFC 8259: names should be unique)");
pub static HAR_HELD: Rule = error("har.held", "har", "the checker's bound (`--har-held`): the MCP entries held while they wait for their turn (a later session's, out of time order) exceeded it; those entries are not checked, one finding counts them");
pub static HAR_BODY: Rule = error("har.body", "har", "HAR 1.2 and Streamable HTTP: an MCP body of an entry is readable (decoded text, a known content type, an SSE stream that parses)");
pub static SSE_UNTERMINATED: Rule = warning("sse.unterminated", "sse", "Server-Sent Events: an event ends with a blank line; a stream that ends inside one is discarded by the SSE rules, so it is not checked");

/// Every rule of the area, in the order the catalogue lists them.
pub static RULES: &[&Rule] = &[
    &LINE_UTF8,
    &LINE_JSON,
    &LINE_TOO_LONG,
    &LINE_TOO_COSTLY,
    &LINE_BOM,
    &LINE_UNTERMINATED,
    &LINE_UNDELIVERED,
    &LINE_HTTP,
    &LINE_KEY,
    &LINE_DIR,
    &LINE_LEG,
    &LINE_TYPE,
    &TYPE_NAME,
    &STREAM_PROTOCOL,
    &STREAM_DIRECTION,
    &JSONRPC_BATCH,
    &PROTOCOL_CHANGED,
    &RESPONSE_UNMATCHED,
    &RESPONSE_RESULT,
    &TYPED_DESERIALIZE,
    &TYPED_ROUNDTRIP,
    &CHECKER_INTERNAL,
    &HAR_FILE,
    &HAR_HELD,
    &HAR_BODY,
    &SSE_UNTERMINATED,
];
