//! Reading a message so that every request gets an answer, and building the answers.
//!
//! [`read_message`] reads one JSON-RPC message as a version's `ClientMessage` or `ServerMessage`
//! on the crate's fast reader. When the message does not read, the error, [`Invalid`], still says
//! what the envelope said (request, notification or response, its `id` and `method`) and which
//! JSON-RPC error answers it, so a receiver's loop is one `match`:
//!
//! ```
//! # #[cfg(feature = "v2025-11-25")] {
//! use mcp_spec_types::rpc::{read_message, ErrorResponse};
//! use mcp_spec_types::runtime::Message;
//! use mcp_spec_types::v2025_11_25::{CallToolResult, ClientMessage, ClientRequest, RequestId, ServerMessage};
//!
//! fn answer(line: &str) -> Option<ServerMessage> {
//!     match read_message::<ClientMessage>(line) {
//!         Ok(Message::Request(ClientRequest::CallToolRequest(call))) => {
//!             Some(ServerMessage::result(call.id, CallToolResult::text(format!("called {}", call.params.name))))
//!         }
//!         Ok(Message::Request(other)) => Some(other.method_not_found().into()),
//!         Ok(_) => None, // notifications and responses get no answer
//!         Err(invalid) => invalid.error_response().map(Into::into),
//!     }
//! }
//!
//! // `tools/call` without `name`: -32602, answered with the request's own id.
//! let reply = answer(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}"#).unwrap();
//! let Message::Error(e) = reply else { panic!() };
//! assert_eq!((e.id, e.error.code), (Some(RequestId::Integer(7)), mcp_spec_types::rpc::INVALID_PARAMS));
//! // A method the server does not serve: -32601.
//! let Some(Message::Error(e)) = answer(r#"{"jsonrpc":"2.0","id":"a","method":"x/y"}"#) else { panic!() };
//! assert_eq!(e.error.code, mcp_spec_types::rpc::METHOD_NOT_FOUND);
//! // Not JSON: -32700 without an id (written with none: see `ErrorResponse`).
//! let Some(Message::Error(e)) = answer("{") else { panic!() };
//! assert_eq!((e.id, e.error.code), (None, mcp_spec_types::rpc::PARSE_ERROR));
//! # }
//! ```

use crate::read::fast::{FastRead, Slots};
use std::fmt;

use serde::de::DeserializeOwned;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::runtime::__private::Tagged;
use crate::runtime::{JsonObject, Message, ResultResponse, RpcError};

/// JSON-RPC 2.0: the input is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0: the JSON is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC 2.0: the method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC 2.0: invalid method parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC 2.0: internal JSON-RPC error.
pub const INTERNAL_ERROR: i64 = -32603;

/// A version's `ClientMessage` or `ServerMessage`: what [`read_message`] needs to know about it.
pub trait Envelope: DeserializeOwned {
    /// The version's `RequestId`.
    type Id: DeserializeOwned;
    /// Whether `method` is one of this side's requests.
    fn is_request_method(method: &str) -> bool;
    /// Whether `method` is one of this side's notifications.
    fn is_notification_method(method: &str) -> bool;
    /// Whether this message is a request ([`Reader`] validates requests only).
    fn is_request(&self) -> bool {
        false
    }
}

impl<Id, Req, Notif, Res, Err> Envelope for Message<Id, Req, Notif, Res, Err>
where
    Id: DeserializeOwned + FastRead,
    Req: Tagged + DeserializeOwned,
    Req::Builder: Slots,
    Notif: Tagged + DeserializeOwned,
    Notif::Builder: Slots,
    Res: DeserializeOwned + FastRead,
    Err: DeserializeOwned + FastRead,
{
    type Id = Id;
    // A union keeps methods it does not name in `Unknown`; `knows` is true for named ones only.
    fn is_request_method(method: &str) -> bool {
        Req::knows(method)
    }
    fn is_notification_method(method: &str) -> bool {
        Notif::knows(method)
    }
    fn is_request(&self) -> bool {
        matches!(self, Message::Request(_))
    }
}

/// What kind of message the envelope said it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// It has a `method` and an `id`: it gets an answer.
    Request,
    /// It has a `method` and no `id`: it gets no answer.
    Notification,
    /// It has `result` or `error`: it gets no answer.
    Response,
    /// Not JSON, not an object, or none of the above: answered without an id (see [`ErrorResponse`]).
    Unreadable,
}

/// A message that did not read as the version's envelope, with what its envelope said and the
/// JSON-RPC error that answers it.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid<Id> {
    pub kind: Kind,
    /// The message's id when it is one of the version's ids (a string or an integer).
    pub id: Option<Id>,
    /// The message's `method`, when it has a string one.
    pub method: Option<String>,
    /// The answer's error: [`PARSE_ERROR`], [`INVALID_REQUEST`], [`METHOD_NOT_FOUND`] or
    /// [`INVALID_PARAMS`], and a message that says what was wrong.
    pub error: RpcError,
}

impl<Id: Clone> Invalid<Id> {
    /// The error answer to write back: `None` for a notification or a response, which get none.
    pub fn error_response(&self) -> Option<ErrorResponse<Id>> {
        match self.kind {
            Kind::Request | Kind::Unreadable => Some(ErrorResponse { id: self.id.clone(), error: self.error.clone() }),
            Kind::Notification | Kind::Response => None,
        }
    }
}

impl<Id> Invalid<Id> {
    /// The JSON-RPC error code that answers the message.
    pub fn code(&self) -> i64 {
        self.error.code
    }
}

impl<Id> fmt::Display for Invalid<Id> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.error.message, self.error.code)
    }
}

impl<Id: fmt::Debug> std::error::Error for Invalid<Id> {}

/// Reads one JSON-RPC message as `M` (a version's `ClientMessage` or `ServerMessage`), on the crate's
/// fast reader ([`crate::from_slice`]). A request whose method the version does not define reads as
/// the request union's `Unknown` variant (answer it with `method_not_found()`); a message that does not
/// read at all is an [`Invalid`], which knows its id and the error that answers it:
///
/// - not JSON: [`PARSE_ERROR`], no id;
/// - not an object, no `jsonrpc: "2.0"`, an id that is not a string or an integer, a `method` that is
///   not a string, a notification's method with an `id`: [`INVALID_REQUEST`];
/// - a request of a method the version defines whose params do not fit: [`INVALID_PARAMS`];
/// - any other request that does not read: [`METHOD_NOT_FOUND`].
///
/// Batches (JSON arrays, 2025-03-26 only) are not read here: they are [`INVALID_REQUEST`].
pub fn read_message<M: Envelope>(json: impl AsRef<[u8]>) -> Result<M, Invalid<M::Id>> {
    let bytes = json.as_ref();
    match crate::from_slice::<M>(bytes) {
        Ok(m) => Ok(m),
        Err(e) => Err(diagnose::<M>(bytes, &e)),
    }
}

/// Reads requests as [`read_message`] does, then validates each request of a method the version
/// defines against the version's rules ([`crate::validate`]): a request that reads but breaks a
/// rule is an [`Invalid`] answered with [`INVALID_PARAMS`], whose message names the first broken
/// rule's JSON pointer and rule id, and whose `data` lists them (`{"violations": [{"pointer",
/// "rule", "message"}], "omitted": N}`).
///
/// Reading stays lenient (a newer peer's value is kept, e.g. `LoggingLevel::Other`); validation is
/// where a server refuses it. `Reader::default()` validates; [`Reader::lenient`] is
/// [`read_message`]. Notifications, responses and requests of methods the version does not define
/// (the union's `Unknown`, answered with `method_not_found()`) are not validated. Validation reads
/// the line a second time, into its compact tree ([`crate::tree`]): see BENCHMARKS.md, "Validating requests", for
/// its cost per message.
///
/// ```
/// # #[cfg(feature = "v2025-11-25")] {
/// use mcp_spec_types::rpc::{read_message, Reader, INVALID_PARAMS};
/// use mcp_spec_types::runtime::Message;
/// use mcp_spec_types::v2025_11_25::{ClientMessage, ClientRequest, LoggingLevel, RequestId};
///
/// let line = r#"{"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":{"level":"verbose"}}"#;
/// // Read leniently, the level is kept as `Other`...
/// let Ok(Message::Request(ClientRequest::SetLevelRequest(r))) = read_message::<ClientMessage>(line) else { panic!() };
/// assert_eq!(r.params.level, LoggingLevel::Other("verbose".into()));
/// // ...validated, the request is answered with -32602 naming the pointer and the rule.
/// let invalid = Reader::default().read::<ClientMessage>(line).unwrap_err();
/// assert_eq!((invalid.code(), invalid.id), (INVALID_PARAMS, Some(RequestId::Integer(7))));
/// assert!(invalid.error.message.starts_with("Invalid params: /params/level: [enum]"), "{}", invalid.error.message);
/// assert_eq!(invalid.error.data.unwrap()["violations"][0]["pointer"], "/params/level");
/// # }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Reader {
    /// Validate requests of the methods the version defines (default: yes).
    pub validate_requests: bool,
    /// The validation options; `max_violations` also bounds the answer's `data` (default 8).
    pub options: crate::validate::Options,
}

impl Default for Reader {
    fn default() -> Self {
        Reader { validate_requests: true, options: crate::validate::Options { max_violations: 8, ..Default::default() } }
    }
}

impl Reader {
    /// Reads without validating: the same as [`read_message`].
    pub fn lenient() -> Self {
        Reader { validate_requests: false, ..Reader::default() }
    }

    /// Reads one message as `M` and, when it is a request of a method `M` defines, validates it.
    pub fn read<M: Envelope + crate::validate::Validate>(&self, json: impl AsRef<[u8]>) -> Result<M, Invalid<M::Id>> {
        let bytes = json.as_ref();
        let message = read_message::<M>(bytes)?;
        if !self.validate_requests || !message.is_request() {
            return Ok(message);
        }
        // It read, so it is JSON: its compact tree, for the validators.
        let Ok(doc) = crate::tree::Doc::parse_slice(bytes) else { return Ok(message) };
        let request = doc.root();
        let method = request.get("method").and_then(crate::tree::Node::as_str);
        if !method.is_some_and(M::is_request_method) {
            return Ok(message);
        }
        let report = crate::validate::validate_node::<M>(request, &self.options);
        if report.is_valid() {
            return Ok(message);
        }
        let id = request.get("id").and_then(|i| <M::Id as serde::Deserialize>::deserialize(i).ok());
        Err(answer_invalid(id, method, &report))
    }
}

/// Reads one message with [`Reader::default()`]: requests that break the version's rules are
/// [`INVALID_PARAMS`] (see [`Reader`]).
pub fn read_message_checked<M: Envelope + crate::validate::Validate>(json: impl AsRef<[u8]>) -> Result<M, Invalid<M::Id>> {
    Reader::default().read(json)
}

/// The [`INVALID_PARAMS`] answer to a request that read but broke the rules in `report`.
pub fn invalid_params<Id: DeserializeOwned>(request: &Value, report: &crate::validate::Report) -> Invalid<Id> {
    let id = request.get("id").and_then(|i| <Id as serde::Deserialize>::deserialize(i).ok());
    answer_invalid(id, request.get("method").and_then(Value::as_str), report)
}

/// [`invalid_params`] from the request's id and method.
fn answer_invalid<Id>(id: Option<Id>, method: Option<&str>, report: &crate::validate::Report) -> Invalid<Id> {
    let errors: Vec<_> = report.errors().collect();
    let message = match errors.first() {
        Some(v) => {
            let at = if v.pointer.is_empty() { "(root)" } else { &v.pointer };
            format!("Invalid params: {at}: [{}] {}", v.rule, v.message)
        }
        None => "Invalid params".to_string(),
    };
    let violations: Vec<Value> = errors.iter().map(|v| serde_json::json!({"pointer": v.pointer, "rule": v.rule, "message": v.message})).collect();
    let data = serde_json::json!({"violations": violations, "omitted": report.omitted_errors});
    Invalid {
        kind: Kind::Request,
        id,
        method: method.map(str::to_string),
        error: RpcError { code: INVALID_PARAMS, message, data: Some(data) },
    }
}

/// Why a message did not read, from a second, untyped read (only on this rare path).
fn diagnose<M: Envelope>(bytes: &[u8], typed: &serde_json::Error) -> Invalid<M::Id> {
    let unreadable = |code, message: String| Invalid { kind: Kind::Unreadable, id: None, method: None, error: RpcError { code, message, data: None } };
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return unreadable(PARSE_ERROR, format!("Parse error: {e}")),
    };
    let Value::Object(o) = value else {
        return unreadable(INVALID_REQUEST, format!("Invalid Request: a message is a JSON object, found {}", crate::runtime::__private::kind_name(&value)));
    };
    let raw_id = o.get("id");
    let id = raw_id.and_then(|i| <M::Id as serde::Deserialize>::deserialize(i).ok());
    let method = o.get("method");
    let kind = match (method, raw_id) {
        (Some(_), Some(_)) => Kind::Request,
        (Some(_), None) => Kind::Notification,
        (None, _) if o.contains_key("result") || o.contains_key("error") => Kind::Response,
        (None, _) => Kind::Unreadable,
    };
    let invalid_request = |why: String| (INVALID_REQUEST, format!("Invalid Request: {why}"));
    let (code, message) = if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        invalid_request("a message carries `\"jsonrpc\": \"2.0\"`".into())
    } else if let (Some(raw), None) = (raw_id, &id) {
        invalid_request(format!("an id is a string or an integer, found {}", crate::runtime::__private::kind_name(raw)))
    } else {
        match (method.map(|m| m.as_str()), kind) {
            (Some(None), _) => invalid_request("`method` is a string".into()),
            (Some(Some(m)), Kind::Request) if M::is_request_method(m) => (INVALID_PARAMS, format!("Invalid params: {typed}")),
            (Some(Some(m)), Kind::Request) if M::is_notification_method(m) => invalid_request(format!("`{m}` is a notification, which has no `id`")),
            (Some(Some(m)), Kind::Request) => (METHOD_NOT_FOUND, format!("Method not found: `{m}`")),
            (Some(Some(m)), Kind::Notification) if M::is_notification_method(m) => (INVALID_PARAMS, format!("Invalid params: {typed}")),
            (Some(Some(m)), Kind::Notification) if M::is_request_method(m) => invalid_request(format!("`{m}` is a request, which has an `id`")),
            _ if kind == Kind::Unreadable => invalid_request("not a request, notification or response: no `method`, `result` or `error`".into()),
            _ => invalid_request(typed.to_string()),
        }
    };
    Invalid { kind, id, method: method.and_then(Value::as_str).map(str::to_string), error: RpcError { code, message, data: None } }
}

/// A JSON-RPC error response of any version: `{"jsonrpc": "2.0", "id": …, "error": {…}}`.
///
/// When the request's id could not be read (`id: None`: not JSON, not a request object), what is
/// written depends on the version, because MCP narrows JSON-RPC 2.0 here:
///
/// - Converted `Into` the `JSONRPCErrorResponse` of 2025-11-25 and later (and into their
///   `ClientMessage` / `ServerMessage`), the answer has **no `id` key**: those schemas make the
///   error's `id` optional and a `RequestId` a string or an integer, never `null`, and the
///   reference TypeScript client refuses an `"id": null` message. The crate's validation agrees
///   (`jsonrpc.id`).
/// - Written as it is (for 2025-06-18 and earlier, whose error type requires an id, and for
///   JSON-RPC 2.0 peers), it has `"id": null`, as JSON-RPC 2.0 asks; those versions' schemas
///   allow no id-less answer at all.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse<Id> {
    pub id: Option<Id>,
    pub error: RpcError,
}

impl<Id> ErrorResponse<Id> {
    pub fn new(id: Option<Id>, code: i64, message: impl Into<String>) -> Self {
        ErrorResponse { id, error: RpcError { code, message: message.into(), data: None } }
    }

    /// The [`METHOD_NOT_FOUND`] answer for `method`.
    pub fn method_not_found(id: Option<Id>, method: &str) -> Self {
        Self::new(id, METHOD_NOT_FOUND, format!("Method not found: `{method}`"))
    }

    /// The same answer with the error's `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.error.data = Some(data);
        self
    }
}

impl<Id: Serialize> Serialize for ErrorResponse<Id> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("jsonrpc", "2.0")?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("error", &self.error)?;
        m.end()
    }
}

impl<Id, Req, Notif, Res, Err> Message<Id, Req, Notif, Res, Err> {
    /// The successful answer to the request `id`; `result` is any member of the result union.
    pub fn result(id: Id, result: impl Into<Res>) -> Self {
        Message::Result(ResultResponse::new(id, result.into()))
    }

    /// An error answer (the version's error response, or an [`ErrorResponse`] where it converts).
    pub fn error(error: impl Into<Err>) -> Self {
        Message::Error(error.into())
    }
}

impl<Id, Req, Notif, Res, Err> From<ResultResponse<Id, Res>> for Message<Id, Req, Notif, Res, Err> {
    fn from(r: ResultResponse<Id, Res>) -> Self {
        Message::Result(r)
    }
}

impl<Id, Req, Notif, Res, Err: From<ErrorResponse<Id>>> From<ErrorResponse<Id>> for Message<Id, Req, Notif, Res, Err> {
    fn from(e: ErrorResponse<Id>) -> Self {
        Message::Error(e.into())
    }
}

/// The `id` of a request kept among unknown keys (before 2025-11-25 requests do not declare it).
#[doc(hidden)]
pub fn id_in<Id: DeserializeOwned>(o: &JsonObject) -> Option<Id> {
    o.get("id").and_then(|v| <Id as serde::Deserialize>::deserialize(v).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Issue 28, item 4: an open enum reads leniently, but a server reading with the default
    // `Reader` answers a value outside it with -32602, in every version with `logging/setLevel`.
    macro_rules! set_level_cases {
        ($($feature:literal $m:ident;)*) => {$(
            #[cfg(feature = $feature)]
            mod $m {
                use super::*;
                use crate::runtime::Message;
                use crate::$m::{ClientMessage, ClientRequest, LoggingLevel, RequestId};

                const VERBOSE: &str = r#"{"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":{"level":"verbose"}}"#;

                #[test]
                fn set_level_outside_the_enum_is_invalid_params() {
                    let invalid = read_message_checked::<ClientMessage>(VERBOSE).unwrap_err();
                    assert_eq!((invalid.kind, invalid.id.clone(), invalid.code()), (Kind::Request, Some(RequestId::Integer(7)), INVALID_PARAMS));
                    assert_eq!(invalid.method.as_deref(), Some("logging/setLevel"));
                    assert!(invalid.error.message.starts_with("Invalid params: /params/level: [enum] "), "{}", invalid.error.message);
                    let data = invalid.error.data.clone().unwrap();
                    assert_eq!(data["violations"][0]["pointer"], "/params/level");
                    assert_eq!(data["violations"][0]["rule"], "enum");
                    // The answer carries the request's id.
                    let answer = invalid.error_response().unwrap();
                    assert_eq!(answer.id, Some(RequestId::Integer(7)));
                }

                #[test]
                fn lenient_reading_keeps_the_value() {
                    for read in [read_message::<ClientMessage>(VERBOSE), Reader::lenient().read::<ClientMessage>(VERBOSE)] {
                        let Ok(Message::Request(ClientRequest::SetLevelRequest(r))) = read else { panic!("{read:?}") };
                        assert_eq!(r.params.level, LoggingLevel::Other("verbose".into()));
                    }
                }

                #[test]
                fn valid_and_unknown_requests_and_notifications_pass() {
                    let ok = r#"{"jsonrpc":"2.0","id":"a","method":"logging/setLevel","params":{"level":"warning"}}"#;
                    assert!(matches!(read_message_checked::<ClientMessage>(ok), Ok(Message::Request(ClientRequest::SetLevelRequest(_)))));
                    // A method the version does not define is the application's -32601, not -32602.
                    let unknown = r#"{"jsonrpc":"2.0","id":1,"method":"x/y","params":{"level":5}}"#;
                    assert!(matches!(read_message_checked::<ClientMessage>(unknown), Ok(Message::Request(_))));
                    // Notifications are not validated (they get no answer).
                    let note = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"_meta":{"bad key":1}}}"#;
                    assert!(matches!(read_message_checked::<ClientMessage>(note), Ok(Message::Notification(_))));
                    // What does not read keeps its answer.
                    assert_eq!(read_message_checked::<ClientMessage>("{").unwrap_err().code(), PARSE_ERROR);
                }

            }
        )*};
    }

    set_level_cases! {
        "v2024-11-05" v2024_11_05;
        "v2025-03-26" v2025_03_26;
        "v2025-06-18" v2025_06_18;
        "v2025-11-25" v2025_11_25;
    }

    /// The runtime declares the JSON-RPC codes (and `negotiate` -32022) for code built without a
    /// module; each module's copies come from its `schema.ts`: they must stay equal.
    macro_rules! codes_agree {
        ($($feature:literal $m:ident;)*) => {$(
            #[cfg(feature = $feature)]
            #[test]
            fn $m() {
                use crate::$m as v;
                assert_eq!([PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR], [v::PARSE_ERROR, v::INVALID_REQUEST, v::METHOD_NOT_FOUND, v::INVALID_PARAMS, v::INTERNAL_ERROR]);
            }
        )*};
    }
    mod the_runtime_codes_are_the_schemas {
        use super::super::*;
        codes_agree! {
            "v2024-11-05" v2024_11_05;
            "v2025-03-26" v2025_03_26;
            "v2025-06-18" v2025_06_18;
            "v2025-11-25" v2025_11_25;
            "v2026-07-28" v2026_07_28;
        }
        #[cfg(feature = "v2026-07-28")]
        #[test]
        fn unsupported_protocol_version() {
            assert_eq!(crate::negotiate::UNSUPPORTED_PROTOCOL_VERSION, crate::v2026_07_28::UNSUPPORTED_PROTOCOL_VERSION);
        }
    }

    // A request with many broken rules: the answer's `data` keeps `max_violations` of them.
    #[cfg(feature = "v2025-11-25")]
    #[test]
    fn the_answer_is_bounded() {
        use crate::v2025_11_25::ClientMessage;
        let keys: serde_json::Map<String, Value> = (0..50).map(|i| (format!("bad key {i}"), Value::from(i))).collect();
        let line = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "t", "_meta": keys}}).to_string();
        let invalid = read_message_checked::<ClientMessage>(&line).unwrap_err();
        let data = invalid.error.data.unwrap();
        assert_eq!(data["violations"].as_array().unwrap().len(), 8, "{data}");
        assert_eq!(data["omitted"], 42);
    }

    // Issue 28, item 5: an answer to a message whose id could not be read, as each version with an
    // optional error id writes it: no `id` key (its `RequestId` is never `null`), and valid.
    macro_rules! id_less_answers {
        ($($feature:literal $m:ident;)*) => {$(
            #[cfg(feature = $feature)]
            #[test]
            fn $m() {
                use crate::$m::{ClientMessage, ServerMessage};
                for (line, code, message) in [
                    ("{", PARSE_ERROR, "Parse error: EOF while parsing an object at line 1 column 1"),
                    ("[]", INVALID_REQUEST, "Invalid Request: a message is a JSON object, found an array"),
                    (r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, INVALID_REQUEST, "Invalid Request: an id is a string or an integer, found null"),
                ] {
                    let invalid = read_message_checked::<ClientMessage>(line).unwrap_err();
                    assert_eq!(invalid.code(), code, "{line}");
                    let answer: ServerMessage = invalid.error_response().unwrap().into();
                    let written = crate::to_string(&answer);
                    let want = format!(r#"{{"jsonrpc":"2.0","error":{{"code":{code},"message":{}}}}}"#, Value::from(message));
                    assert_eq!(written, want, "{line}");
                    assert_eq!(serde_json::to_string(&answer).unwrap(), want, "{line}");
                    let report = crate::validate::validate_json::<ServerMessage>(&serde_json::from_str(&written).unwrap(), &Default::default());
                    assert!(report.is_valid(), "{report:?}");
                    // What JSON-RPC 2.0 alone would write is refused by these versions' rules.
                    let null_id = crate::validate::validate_json::<ServerMessage>(&serde_json::to_value(invalid.error_response().unwrap()).unwrap(), &Default::default());
                    assert_eq!(null_id.violations[0].rule, "jsonrpc.id");
                }
            }
        )*};
    }

    id_less_answers! {
        "v2025-11-25" v2025_11_25;
        "v2026-07-28" v2026_07_28;
    }

    // Versions whose error requires an id: the version-free answer is written with `"id": null`.
    #[test]
    fn the_version_free_answer_writes_a_null_id() {
        let answer = ErrorResponse::<i64>::new(None, PARSE_ERROR, "Parse error");
        assert_eq!(serde_json::to_string(&answer).unwrap(), r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#);
    }
}
