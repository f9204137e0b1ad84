//! Hand-written support shared by every generated module.
//!
//! The public part is small: [`JsonObject`], [`Nullable`], the envelope [`Message`] (each
//! version's `ClientMessage` and `ServerMessage`) with [`ResultResponse`], and the traits
//! [`RequestMethod`], [`NotificationMethod`] and [`SchemaType`]. The rest sits
//! in `__private`, hidden from the docs, and is only meant for the generated serde impls.

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::Value;

/// Any JSON object. Key order is not significant in MCP.
pub type JsonObject = serde_json::Map<String, Value>;

/// A request type: its `method` and the type a successful response carries in `result`.
pub trait RequestMethod: Serialize + DeserializeOwned {
    const METHOD: &'static str;
    type Result: Serialize + DeserializeOwned;
}

/// A notification type and its `method`.
pub trait NotificationMethod: Serialize + DeserializeOwned {
    const METHOD: &'static str;
}

/// Every generated type knows its schema name; a union answers with the
/// variant it holds, down to the innermost one.
pub trait SchemaType {
    fn schema_name(&self) -> &'static str;
}

/// Conversions between any generated type and [`serde_json::Value`].
pub trait JsonConvert: Serialize + DeserializeOwned {
    fn to_json(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        serde_json::from_value(value)
    }

    /// Reads from a borrowed value, without cloning it first.
    fn from_json_ref(value: &Value) -> Result<Self, serde_json::Error> {
        Self::deserialize(value)
    }
}

impl<T: Serialize + DeserializeOwned + SchemaType> JsonConvert for T {}

/// A JSON-RPC error object, as every version defines it.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    /// Written only when present; `null` reads as absent.
    pub data: Option<Value>,
}

// Written by hand so the crate needs serde without `derive` (no syn/quote in a cold build).
impl Serialize for RpcError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("RpcError", if self.data.is_some() { 3 } else { 2 })?;
        st.serialize_field("code", &self.code)?;
        st.serialize_field("message", &self.message)?;
        match &self.data {
            Some(data) => st.serialize_field("data", data)?,
            None => st.skip_field("data")?,
        }
        st.end()
    }
}

impl<'de> Deserialize<'de> for RpcError {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const FIELDS: &[&str] = &["code", "message", "data"];

        enum Field {
            Code,
            Message,
            Data,
            Other,
        }

        impl Field {
            fn from_name(name: &[u8]) -> Self {
                match name {
                    b"code" => Field::Code,
                    b"message" => Field::Message,
                    b"data" => Field::Data,
                    _ => Field::Other,
                }
            }
        }

        impl<'de> Deserialize<'de> for Field {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct FieldVisitor;
                impl de::Visitor<'_> for FieldVisitor {
                    type Value = Field;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("field identifier")
                    }
                    fn visit_u64<E: de::Error>(self, i: u64) -> Result<Field, E> {
                        Ok(match i {
                            0 => Field::Code,
                            1 => Field::Message,
                            2 => Field::Data,
                            _ => Field::Other,
                        })
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<Field, E> {
                        Ok(Field::from_name(s.as_bytes()))
                    }
                    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<Field, E> {
                        Ok(Field::from_name(b))
                    }
                }
                d.deserialize_identifier(FieldVisitor)
            }
        }

        struct RpcErrorVisitor;
        impl<'de> de::Visitor<'de> for RpcErrorVisitor {
            type Value = RpcError;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("struct RpcError")
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<RpcError, A::Error> {
                let code = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &"struct RpcError with 3 elements"))?;
                let message = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &"struct RpcError with 3 elements"))?;
                let data = seq.next_element()?.unwrap_or_default();
                Ok(RpcError { code, message, data })
            }

            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<RpcError, A::Error> {
                let (mut code, mut message, mut data) = (None, None, None);
                while let Some(key) = map.next_key::<Field>()? {
                    match key {
                        Field::Code if code.is_some() => return Err(de::Error::duplicate_field("code")),
                        Field::Code => code = Some(map.next_value()?),
                        Field::Message if message.is_some() => return Err(de::Error::duplicate_field("message")),
                        Field::Message => message = Some(map.next_value()?),
                        Field::Data if data.is_some() => return Err(de::Error::duplicate_field("data")),
                        Field::Data => data = Some(map.next_value::<Option<Value>>()?),
                        Field::Other => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(RpcError {
                    code: code.ok_or_else(|| de::Error::missing_field("code"))?,
                    message: message.ok_or_else(|| de::Error::missing_field("message"))?,
                    data: data.flatten(),
                })
            }
        }

        d.deserialize_struct("RpcError", FIELDS, RpcErrorVisitor)
    }
}

/// A response, read for the request it answers. `Id` is the id's type: a [`Value`] by default
/// (what [`read_response`] gives), a version's `RequestId` from [`read_response_typed`].
#[derive(Debug, Clone, PartialEq)]
pub enum Response<T, Id = Value> {
    Result { id: Id, result: T },
    /// `id` is `None` when the response has none (or, for a typed `Id`, a `null` one).
    Error { id: Option<Id>, error: RpcError },
}

/// Reads a JSON-RPC response to a request of type `R`: its `result` as `R::Result`, or its `error`.
///
/// ```
/// # #[cfg(feature = "v2026-07-28")] {
/// use mcp_spec_types::runtime::{read_response, Response};
/// use mcp_spec_types::v2026_07_28::ListToolsRequest;
/// let json = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[]}}"#;
/// let Response::Result { result, .. } = read_response::<ListToolsRequest>(json).unwrap() else { panic!() };
/// assert!(result.tools.is_empty());
/// # }
/// ```
pub fn read_response<R: RequestMethod>(json: &str) -> Result<Response<R::Result>, serde_json::Error> {
    read_response_typed::<R, Value>(json)
}

/// [`read_response`] with the id read as `Id` (a version's `RequestId`): a result's id must be
/// one; an error's `null` or absent id is `None`.
///
/// ```
/// # #[cfg(feature = "v2025-11-25")] {
/// use mcp_spec_types::runtime::{read_response_typed, Response};
/// use mcp_spec_types::v2025_11_25::{ListToolsRequest, RequestId};
/// let json = r#"{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}"#;
/// let Response::Result { id, .. } = read_response_typed::<ListToolsRequest, RequestId>(json).unwrap() else { panic!() };
/// assert_eq!(id, RequestId::String("a".into()));
/// let json = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
/// let Response::Error { id, .. } = read_response_typed::<ListToolsRequest, RequestId>(json).unwrap() else { panic!() };
/// assert_eq!(id, None);
/// # }
/// ```
pub fn read_response_typed<R: RequestMethod, Id: DeserializeOwned>(json: &str) -> Result<Response<R::Result, Id>, serde_json::Error> {
    use serde::de::Error as _;
    let mut v: Value = serde_json::from_str(json)?;
    let o = v.as_object_mut().ok_or_else(|| serde_json::Error::custom("a response must be an object"))?;
    let id = o.remove("id");
    match (o.remove("result"), o.remove("error")) {
        (Some(result), None) => Ok(Response::Result { id: Id::deserialize(id.unwrap_or(Value::Null))?, result: serde_json::from_value(result)? }),
        (None, Some(error)) => {
            // A `Value` id keeps `null` as it was; a typed one cannot hold it, and JSON-RPC 2.0
            // answers with a `null` id exactly when the request's id could not be read.
            let id = match id {
                None => None,
                Some(v) => match Id::deserialize(&v) {
                    Ok(id) => Some(id),
                    Err(_) if v.is_null() => None,
                    Err(e) => return Err(e),
                },
            };
            Ok(Response::Error { id, error: serde_json::from_value(error)? })
        }
        (Some(_), Some(_)) => Err(serde_json::Error::custom("a response must not set both `result` and `error`")),
        (None, None) => Err(serde_json::Error::custom("a response must set `result` or `error`")),
    }
}

/// Reads a result already read without its request (a `ServerResult` or `ClientResult`
/// from a [`Message`] envelope, or a [`Value`]) as the result of request `R`, once the
/// caller knows which request it answers: the same as [`read_response`] gives for that
/// response. The result is written and read again, so any member converts, including an
/// `EmptyResult` whose keys fit `R::Result`.
///
/// A result union takes its catch-all (`EmptyResult`) only for an object without a key that
/// identifies another member; to take any object as an untyped result on purpose, read it as
/// `EmptyResult` (every key kept: `_meta`, the rest in `extra`) or as a [`Value`].
///
/// ```
/// # #[cfg(feature = "v2025-11-25")] {
/// use mcp_spec_types::runtime::{result_for, Message};
/// use mcp_spec_types::v2025_11_25::{EmptyResult, ListToolsRequest, ServerMessage};
/// let line = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#;
/// let Message::Result(r) = mcp_spec_types::from_str::<ServerMessage>(line).unwrap() else { panic!() };
/// let tools = result_for::<ListToolsRequest>(&r.result).unwrap();
/// assert_eq!(tools.tools[0].name, "t");
/// // Any object, on purpose: nothing is checked against the result types.
/// let any: EmptyResult = serde_json::from_str(r#"{"tools":"not a list"}"#).unwrap();
/// assert!(any.extra.contains_key("tools"));
/// # }
/// ```
pub fn result_for<R: RequestMethod>(result: &impl Serialize) -> Result<R::Result, serde_json::Error> {
    serde_json::from_value(serde_json::to_value(result)?)
}

/// Writes a successful JSON-RPC response: `{"jsonrpc": "2.0", "id": id, "result": result}`.
pub fn write_response<I: Serialize, T: Serialize>(id: &I, result: &T) -> Result<Value, serde_json::Error> {
    Ok(serde_json::json!({"jsonrpc": "2.0", "id": serde_json::to_value(id)?, "result": serde_json::to_value(result)?}))
}

/// Writes a JSON-RPC error response. `id` is `None` only when the request's id could not be read
/// (the message is then written with `"id": null`, as JSON-RPC 2.0 asks; for 2025-11-25 and later
/// write the version's `JSONRPCErrorResponse`, which has no `id` then: see [`crate::rpc::ErrorResponse`]).
pub fn write_error<I: Serialize>(id: Option<&I>, error: &RpcError) -> Result<Value, serde_json::Error> {
    let id = match id {
        Some(i) => serde_json::to_value(i)?,
        None => Value::Null,
    };
    Ok(serde_json::json!({"jsonrpc": "2.0", "id": id, "error": serde_json::to_value(error)?}))
}

/// The names of Streamable HTTP's MCP headers.
pub mod header;

/// Keys the spec defines inside `_meta`, and typed access to them on any `_meta` map.
pub mod meta {
    use super::*;

    pub const PROGRESS_TOKEN: &str = "progressToken";
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
    /// 2025-11-25: the task a request, notification or result belongs to (`RelatedTaskMetadata`).
    pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
    /// MCP Apps' UI metadata on tools and resources.
    pub const UI: &str = "ui";

    /// Typed reads and writes of `_meta` keys; the map stays open to any other key.
    pub trait MetaExt {
        /// The value under `key` read as `T`; `None` when absent.
        fn get_as<T: DeserializeOwned>(&self, key: &str) -> Option<Result<T, serde_json::Error>>;
        /// Writes `value` under `key`.
        fn set_as<T: Serialize>(&mut self, key: &str, value: &T) -> Result<(), serde_json::Error>;

        /// The request's `progressToken`, read as `T`: the version's `ProgressToken` (a string
        /// or an integer); `None` when absent, an error for any other JSON (`null`, a float, ...).
        ///
        /// ```
        /// # #[cfg(feature = "v2025-11-25")] {
        /// use mcp_spec_types::runtime::meta::MetaExt;
        /// use mcp_spec_types::runtime::JsonObject;
        /// use mcp_spec_types::v2025_11_25::ProgressToken;
        /// let meta: JsonObject = serde_json::from_str(r#"{"progressToken": 7}"#).unwrap();
        /// assert_eq!(meta.progress_token::<ProgressToken>().unwrap().unwrap(), ProgressToken::Integer(7));
        /// let meta: JsonObject = serde_json::from_str(r#"{"progressToken": 1.5}"#).unwrap();
        /// assert!(meta.progress_token::<ProgressToken>().unwrap().is_err());
        /// # }
        /// ```
        fn progress_token<T: DeserializeOwned>(&self) -> Option<Result<T, serde_json::Error>>;
        fn protocol_version(&self) -> Option<&str>;
    }

    impl MetaExt for JsonObject {
        fn get_as<T: DeserializeOwned>(&self, key: &str) -> Option<Result<T, serde_json::Error>> {
            self.get(key).map(T::deserialize)
        }

        fn set_as<T: Serialize>(&mut self, key: &str, value: &T) -> Result<(), serde_json::Error> {
            self.insert(key.to_string(), serde_json::to_value(value)?);
            Ok(())
        }

        fn progress_token<T: DeserializeOwned>(&self) -> Option<Result<T, serde_json::Error>> {
            self.get_as(PROGRESS_TOKEN)
        }

        fn protocol_version(&self) -> Option<&str> {
            self.get(PROTOCOL_VERSION).and_then(Value::as_str)
        }
    }
}

/// `T | null` in the schema: `null` is a value of its own, distinct from an absent field.
#[derive(Debug, Clone, PartialEq)]
pub enum Nullable<T> {
    Null,
    Value(T),
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Null => s.serialize_unit(),
            Nullable::Value(v) => v.serialize(s),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<T>::deserialize(d)? {
            None => Nullable::Null,
            Some(v) => Nullable::Value(v),
        })
    }
}

macro_rules! schema_name {
    ($name:literal: $($t:ty),*) => { $(impl SchemaType for $t { fn schema_name(&self) -> &'static str { $name } })* };
}
schema_name!("string": String);
schema_name!("integer": i64);
schema_name!("number": serde_json::Number);
schema_name!("boolean": bool);
schema_name!("object": JsonObject);
schema_name!("value": Value);

impl SchemaType for () {
    fn schema_name(&self) -> &'static str {
        "null"
    }
}

impl<T> SchemaType for Vec<T> {
    fn schema_name(&self) -> &'static str {
        "array"
    }
}

impl<T> SchemaType for std::collections::BTreeMap<String, T> {
    fn schema_name(&self) -> &'static str {
        "object"
    }
}

impl<T: SchemaType> SchemaType for Nullable<T> {
    fn schema_name(&self) -> &'static str {
        match self {
            Nullable::Null => "null",
            Nullable::Value(v) => v.schema_name(),
        }
    }
}

impl<T: SchemaType> SchemaType for Box<T> {
    fn schema_name(&self) -> &'static str {
        (**self).schema_name()
    }
}

// Its docs are inside the file, where its links resolve.
#[cfg(feature = "dynamic")]
pub mod dynamic;

/// One JSON-RPC message as its receiver reads it, typed down to the params and the result.
///
/// Each schema module names two of these: `ClientMessage` (what a client sends: its
/// requests, notifications, results for the server's requests, and errors) and
/// `ServerMessage` (the same from the server). The type parameters are the version's
/// `RequestId`, its request and notification unions of that side, its result union and its
/// error response; users name the aliases, never the parameters. A receiver's loop is one
/// `match` on the four variants:
///
/// ```
/// # #[cfg(feature = "v2025-11-25")] {
/// use mcp_spec_types::runtime::Message;
/// use mcp_spec_types::v2025_11_25::{ClientMessage, ClientRequest, EmptyResult, ServerMessage};
///
/// let line = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
/// let answer: Option<ServerMessage> = match mcp_spec_types::read_message::<ClientMessage>(line) {
///     Ok(Message::Request(ClientRequest::PingRequest(ping))) => Some(ServerMessage::result(ping.id, EmptyResult::default())),
///     Ok(Message::Request(other)) => Some(other.method_not_found().into()),
///     Ok(Message::Notification(_) | Message::Result(_) | Message::Error(_)) => None,
///     Err(invalid) => invalid.error_response().map(Into::into),
/// };
/// assert_eq!(mcp_spec_types::to_string(&answer.unwrap()), r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
/// # }
/// ```
///
/// The object is read in one pass: `method`
/// picks the request or notification type and the rest streams into it; `result` streams
/// into the result union; only the keys that come before the deciding one are kept
/// aside. A `method` neither side names is read by the presence of `id`, into the union's
/// `Unknown` variant.
///
/// In versions before 2025-11-25 the request and notification types do not declare
/// `jsonrpc` and `id`, so there those keys are kept in the value's `extra`.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<Id, Req, Notif, Res, Err> {
    Request(Req),
    Notification(Notif),
    Result(ResultResponse<Id, Res>),
    Error(Err),
}

/// The requests of a side that sends none (in 2026-07-28 the server asks the client
/// for input inside its results instead). Never constructed.
#[derive(Debug, Clone, PartialEq)]
pub enum NoRequests {}

impl Serialize for NoRequests {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

impl<'de> Deserialize<'de> for NoRequests {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::custom("this protocol version has no requests in this direction"))
    }
}

#[doc(hidden)]
impl __private::Tagged for NoRequests {
    const TAG: &'static str = "method";
    const EXPECTING: &'static str = "no request";
    type Builder = __private::NoBuilder;
    fn builder_for(_: Option<&str>) -> Option<__private::NoBuilder> {
        None
    }
    fn knows(_: &str) -> bool {
        false
    }
}

/// A successful response with its `result` typed: `{"jsonrpc": "2.0", "id": …, "result": …}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultResponse<Id, Res> {
    pub id: Id,
    pub result: Res,
    /// Keys JSON-RPC does not define, kept as received so they are written back.
    pub extra: JsonObject,
}

impl<Id, Res> ResultResponse<Id, Res> {
    /// The successful answer to the request `id`.
    pub fn new(id: Id, result: Res) -> Self {
        ResultResponse { id, result, extra: JsonObject::new() }
    }
}

impl<Id: Serialize, Res: Serialize> Serialize for ResultResponse<Id, Res> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("jsonrpc", "2.0")?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("result", &self.result)?;
        for (k, v) in &self.extra {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

// Generic over any `Id` and `Res`: read through serde (the envelope's own path reads it inside a message).
impl<Id, Res> __private::ReadRest for ResultResponse<Id, Res> {
    const OFFERS: bool = false;
    fn read_rest<E: serde::de::Error>(_: &str, _: u32) -> Result<Self, E> {
        Err(E::custom("left to serde_json"))
    }
}

impl<'de, Id: DeserializeOwned, Res: DeserializeOwned> Deserialize<'de> for ResultResponse<Id, Res> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        __private::deserialize_struct::<D, __private::ResultResponseBuilder<Id, Res>>(d, "JSON-RPC result response")
    }
}

impl<Id: Serialize, Req: Serialize, Notif: Serialize, Res: Serialize, Err: Serialize> Serialize for Message<Id, Req, Notif, Res, Err> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Message::Request(v) => v.serialize(s),
            Message::Notification(v) => v.serialize(s),
            Message::Result(v) => v.serialize(s),
            Message::Error(v) => v.serialize(s),
        }
    }
}

impl<Id, Req: SchemaType, Notif: SchemaType, Res, Err: SchemaType> SchemaType for Message<Id, Req, Notif, Res, Err> {
    fn schema_name(&self) -> &'static str {
        match self {
            Message::Request(v) => v.schema_name(),
            Message::Notification(v) => v.schema_name(),
            Message::Result(_) => "JSONRPCResultResponse",
            Message::Error(v) => v.schema_name(),
        }
    }
}

impl SchemaType for NoRequests {
    fn schema_name(&self) -> &'static str {
        match *self {}
    }
}

// `Message`'s `Deserialize` is in `read::fast`, beside the crate reader's own path for it.

#[doc(hidden)]
pub mod __private;

#[cfg(test)]
mod tests {
    use super::RpcError;
    use serde_json::json;

    // The JSON a `#[derive]` with `skip_serializing_if`/`default` on `data` gave.
    #[test]
    fn rpc_error_json() {
        let plain = RpcError { code: -32601, message: "no such method".into(), data: None };
        assert_eq!(serde_json::to_string(&plain).unwrap(), r#"{"code":-32601,"message":"no such method"}"#);
        let with_data = RpcError { data: Some(json!({"a": [1]})), ..plain.clone() };
        assert_eq!(serde_json::to_string(&with_data).unwrap(), r#"{"code":-32601,"message":"no such method","data":{"a":[1]}}"#);
        for (text, want) in [
            (r#"{"code":-32601,"message":"no such method"}"#, &plain),
            (r#"{"message":"no such method","data":null,"code":-32601,"extra":{"x":1}}"#, &plain),
            (r#"{"code":-32601,"message":"no such method","data":{"a":[1]}}"#, &with_data),
            (r#"[-32601,"no such method"]"#, &plain),
        ] {
            assert_eq!(&serde_json::from_str::<RpcError>(text).unwrap(), want, "{text}");
        }
        for (v, msg) in [
            (json!({"message": "m"}), "missing field `code`"),
            (json!({"code": 1}), "missing field `message`"),
            (json!({"code": "1", "message": "m"}), "invalid type: string \"1\", expected i64"),
            (json!([1]), "invalid length 1, expected struct RpcError with 3 elements"),
            (json!("x"), "invalid type: string \"x\", expected struct RpcError"),
        ] {
            assert_eq!(serde_json::from_value::<RpcError>(v).unwrap_err().to_string(), msg);
        }
        let dup = serde_json::from_str::<RpcError>(r#"{"code":1,"code":2,"message":"m"}"#).unwrap_err().to_string();
        assert!(dup.starts_with("duplicate field `code`"), "{dup}");
    }
}
