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
//! // Not JSON: -32700 with a null id.
//! let Some(Message::Error(e)) = answer("{") else { panic!() };
//! assert_eq!((e.id, e.error.code), (None, mcp_spec_types::rpc::PARSE_ERROR));
//! # }
//! ```

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
}

impl<Id, Req, Notif, Res, Err> Envelope for Message<Id, Req, Notif, Res, Err>
where
    Id: DeserializeOwned,
    Req: Tagged + DeserializeOwned,
    Notif: Tagged + DeserializeOwned,
    Res: DeserializeOwned,
    Err: DeserializeOwned,
{
    type Id = Id;
    // A union keeps methods it does not name in `Unknown`; `knows` is true for named ones only.
    fn is_request_method(method: &str) -> bool {
        Req::knows(method)
    }
    fn is_notification_method(method: &str) -> bool {
        Notif::knows(method)
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
    /// Not JSON, not an object, or none of the above: answered with a `null` id (JSON-RPC 2.0).
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
/// - not JSON: [`PARSE_ERROR`], id `null`;
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

/// A JSON-RPC error response of any version: `{"jsonrpc": "2.0", "id": …, "error": {…}}`, with
/// `"id": null` when the request's id could not be read. Converts `Into` the `JSONRPCErrorResponse`
/// of versions 2025-11-25 and later, and into their `ClientMessage` / `ServerMessage`; it is written
/// as it is for earlier versions, whose error type requires an id.
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
