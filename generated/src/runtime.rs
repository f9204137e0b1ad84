//! Hand-written support shared by every generated module.
//!
//! The public part is small: [`JsonObject`], [`Nullable`], and the traits
//! [`RequestMethod`], [`NotificationMethod`] and [`SchemaType`]. The rest sits
//! in [`__private`] and is only meant for the generated serde impls.

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

/// A response, read for the request it answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Response<T> {
    Result { id: Value, result: T },
    Error { id: Option<Value>, error: RpcError },
}

/// Reads a JSON-RPC response to a request of type `R`: its `result` as `R::Result`, or its `error`.
///
/// ```
/// # #[cfg(feature = "v2026-07-28")] {
/// use mcp_schema::runtime::{read_response, Response};
/// use mcp_schema::v2026_07_28::ListToolsRequest;
/// let json = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[]}}"#;
/// let Response::Result { result, .. } = read_response::<ListToolsRequest>(json).unwrap() else { panic!() };
/// assert!(result.tools.is_empty());
/// # }
/// ```
pub fn read_response<R: RequestMethod>(json: &str) -> Result<Response<R::Result>, serde_json::Error> {
    use serde::de::Error as _;
    let mut v: Value = serde_json::from_str(json)?;
    let o = v.as_object_mut().ok_or_else(|| serde_json::Error::custom("a response must be an object"))?;
    let id = o.remove("id");
    match (o.remove("result"), o.remove("error")) {
        (Some(result), None) => Ok(Response::Result { id: id.unwrap_or(Value::Null), result: serde_json::from_value(result)? }),
        (None, Some(error)) => Ok(Response::Error { id, error: serde_json::from_value(error)? }),
        (Some(_), Some(_)) => Err(serde_json::Error::custom("a response must not set both `result` and `error`")),
        (None, None) => Err(serde_json::Error::custom("a response must set `result` or `error`")),
    }
}

/// Writes a successful JSON-RPC response: `{"jsonrpc": "2.0", "id": id, "result": result}`.
pub fn write_response<I: Serialize, T: Serialize>(id: &I, result: &T) -> Result<Value, serde_json::Error> {
    Ok(serde_json::json!({"jsonrpc": "2.0", "id": serde_json::to_value(id)?, "result": serde_json::to_value(result)?}))
}

/// Writes a JSON-RPC error response. `id` is `None` only when the request's id could not be read
/// (the message is then written with `"id": null`, as JSON-RPC 2.0 asks).
pub fn write_error<I: Serialize>(id: Option<&I>, error: &RpcError) -> Result<Value, serde_json::Error> {
    let id = match id {
        Some(i) => serde_json::to_value(i)?,
        None => Value::Null,
    };
    Ok(serde_json::json!({"jsonrpc": "2.0", "id": id, "error": serde_json::to_value(error)?}))
}

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
    /// MCP Apps' UI metadata on tools and resources.
    pub const UI: &str = "ui";

    /// Typed reads and writes of `_meta` keys; the map stays open to any other key.
    pub trait MetaExt {
        /// The value under `key` read as `T`; `None` when absent.
        fn get_as<T: DeserializeOwned>(&self, key: &str) -> Option<Result<T, serde_json::Error>>;
        /// Writes `value` under `key`.
        fn set_as<T: Serialize>(&mut self, key: &str, value: &T) -> Result<(), serde_json::Error>;

        fn progress_token(&self) -> Option<&Value>;
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

        fn progress_token(&self) -> Option<&Value> {
            self.get(PROGRESS_TOKEN)
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

/// Typed reading, writing and validation chosen by schema name at run time (feature `dynamic`).
#[cfg(feature = "dynamic")]
pub mod dynamic {
    use super::*;
    use crate::validate::{validate_json, Options, Report, Validate};

    type Json<T> = Result<T, serde_json::Error>;

    /// One type's run-time entry points.
    pub struct DynType {
        pub name: &'static str,
        /// Reads JSON text; gives the schema name of what was read (a union's variant).
        pub read_json: fn(&str) -> Json<&'static str>,
        pub read_value: fn(&Value) -> Json<&'static str>,
        /// Reads and writes back.
        pub roundtrip_json: fn(&str) -> Json<(Value, &'static str)>,
        pub roundtrip_value: fn(&Value) -> Json<(Value, &'static str)>,
        pub validate: fn(&Value, &Options) -> Report,
    }

    impl DynType {
        pub const fn of<T: Serialize + DeserializeOwned + SchemaType + Validate>(name: &'static str) -> DynType {
            DynType {
                name,
                read_json: read_json::<T>,
                read_value: read_value::<T>,
                roundtrip_json: roundtrip_json::<T>,
                roundtrip_value: roundtrip_value::<T>,
                validate: validate_json::<T>,
            }
        }
    }

    fn read_json<T: DeserializeOwned + SchemaType>(json: &str) -> Json<&'static str> {
        Ok(serde_json::from_str::<T>(json)?.schema_name())
    }

    fn read_value<T: DeserializeOwned + SchemaType>(v: &Value) -> Json<&'static str> {
        Ok(T::deserialize(v)?.schema_name())
    }

    fn roundtrip_json<T: Serialize + DeserializeOwned + SchemaType>(json: &str) -> Json<(Value, &'static str)> {
        let t: T = serde_json::from_str(json)?;
        Ok((serde_json::to_value(&t)?, t.schema_name()))
    }

    fn roundtrip_value<T: Serialize + DeserializeOwned + SchemaType>(v: &Value) -> Json<(Value, &'static str)> {
        let t = T::deserialize(v)?;
        Ok((serde_json::to_value(&t)?, t.schema_name()))
    }

    /// Looks a name up in a module's sorted table.
    pub fn find(table: &'static [DynType], name: &str) -> Option<&'static DynType> {
        table.binary_search_by(|d| d.name.cmp(name)).ok().map(|i| &table[i])
    }
}

#[doc(hidden)]
pub mod __private {
    //! Building blocks of the generated serde impls. Not a stable API.

    use super::*;
    use serde::de::{MapAccess, Visitor};
    use std::fmt;
    use std::marker::PhantomData;

    pub use serde;
    pub use serde_json;

    /// An object key, borrowed from the input when it has no escapes.
    pub enum Key<'de> {
        Borrowed(&'de str),
        Owned(String),
    }

    impl<'de> Key<'de> {
        pub fn as_str(&self) -> &str {
            match self {
                Key::Borrowed(s) => s,
                Key::Owned(s) => s,
            }
        }

        pub fn into_string(self) -> String {
            match self {
                Key::Borrowed(s) => s.to_string(),
                Key::Owned(s) => s,
            }
        }
    }

    impl<'de> Deserialize<'de> for Key<'de> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Key<'de>;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a string")
                }
                fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                    Ok(Key::Borrowed(v))
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                    Ok(Key::Owned(v.to_string()))
                }
                fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                    Ok(Key::Owned(v))
                }
            }
            d.deserialize_str(V)
        }
    }

    /// Where a field's value comes from: straight from the input, or from a
    /// value buffered before a union's tag was seen.
    pub trait FieldSource<'de> {
        type Error: de::Error;
        fn take<T: Deserialize<'de>>(self) -> Result<T, Self::Error>;
    }

    pub struct FromMap<'a, A>(pub &'a mut A);

    impl<'de, 'a, A: MapAccess<'de>> FieldSource<'de> for FromMap<'a, A> {
        type Error = A::Error;
        fn take<T: Deserialize<'de>>(self) -> Result<T, A::Error> {
            self.0.next_value()
        }
    }

    pub struct FromValue<E>(pub Value, pub PhantomData<E>);

    impl<E> FromValue<E> {
        pub fn new(v: Value) -> Self {
            FromValue(v, PhantomData)
        }
    }

    impl<'de, E: de::Error> FieldSource<'de> for FromValue<E> {
        type Error = E;
        fn take<T: Deserialize<'de>>(self) -> Result<T, E> {
            T::deserialize(self.0).map_err(E::custom)
        }
    }

    /// Collects one object's fields; generated for every struct and tagged union.
    pub trait Builder {
        type Output;
        fn field<'de, S: FieldSource<'de>>(&mut self, key: Key<'de>, src: S) -> Result<(), S::Error>;
        fn finish<E: de::Error>(self) -> Result<Self::Output, E>;
    }

    /// A union that picks its variant from one field before reading the rest.
    pub trait Tagged: Sized {
        const TAG: &'static str;
        const EXPECTING: &'static str;
        type Builder: Builder<Output = Self>;
        /// The builder for a tag value, or for an absent tag (`None`); `None` back means the tag is required.
        fn builder_for(tag: Option<&str>) -> Option<Self::Builder>;
    }

    struct StructVisitor<B>(&'static str, PhantomData<B>);

    impl<'de, B: Builder + Default> Visitor<'de> for StructVisitor<B> {
        type Value = B::Output;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a {} object", self.0)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<B::Output, A::Error> {
            let mut b = B::default();
            while let Some(key) = map.next_key::<Key<'de>>()? {
                b.field(key, FromMap(&mut map))?;
            }
            b.finish()
        }
    }

    pub fn deserialize_struct<'de, D: Deserializer<'de>, B: Builder + Default>(d: D, name: &'static str) -> Result<B::Output, D::Error> {
        d.deserialize_map(StructVisitor::<B>(name, PhantomData))
    }

    struct TaggedVisitor<U>(PhantomData<U>);

    impl<'de, U: Tagged> Visitor<'de> for TaggedVisitor<U> {
        type Value = U;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(U::EXPECTING)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
            // Fields before the tag are kept as values; everything after it streams into the chosen variant.
            let mut before: Vec<(String, Value)> = Vec::new();
            while let Some(key) = map.next_key::<Key<'de>>()? {
                if key.as_str() != U::TAG {
                    let v: Value = map.next_value()?;
                    before.push((key.into_string(), v));
                    continue;
                }
                let tag: Value = map.next_value()?;
                let Some(name) = tag.as_str() else {
                    return Err(de::Error::custom(format_args!("`{}` must be a string, found {}", U::TAG, kind_name(&tag))));
                };
                let mut b = U::builder_for(Some(name)).ok_or_else(|| de::Error::custom(format_args!("unsupported `{}` value {name:?}", U::TAG)))?;
                b.field(Key::Borrowed(U::TAG), FromValue::<A::Error>::new(tag))?;
                for (k, v) in before {
                    b.field(Key::Owned(k), FromValue::<A::Error>::new(v))?;
                }
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    b.field(key, FromMap(&mut map))?;
                }
                return b.finish();
            }
            let mut b = U::builder_for(None).ok_or_else(|| de::Error::missing_field(U::TAG))?;
            for (k, v) in before {
                b.field(Key::Owned(k), FromValue::<A::Error>::new(v))?;
            }
            b.finish()
        }
    }

    pub fn deserialize_tagged<'de, D: Deserializer<'de>, U: Tagged>(d: D) -> Result<U, D::Error> {
        d.deserialize_map(TaggedVisitor::<U>(PhantomData))
    }

    pub fn kind_name(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    // Field setters used by generated builders.

    pub fn required<'de, T: Deserialize<'de>, S: FieldSource<'de>>(slot: &mut Option<T>, name: &'static str, src: S) -> Result<(), S::Error> {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(name));
        }
        *slot = Some(src.take()?);
        Ok(())
    }

    /// An optional field. `null`, which the schema does not allow here, is kept
    /// among the unknown fields so that it is written back as it came.
    pub fn optional<'de, T: Deserialize<'de>, S: FieldSource<'de>>(slot: &mut Option<T>, key: Key<'de>, src: S, extra: &mut JsonObject) -> Result<(), S::Error> {
        if slot.is_some() || extra.contains_key(key.as_str()) {
            return Err(de::Error::custom(format_args!("duplicate field `{}`", key.as_str())));
        }
        match src.take::<Option<T>>()? {
            Some(v) => *slot = Some(v),
            None => {
                extra.insert(key.into_string(), Value::Null);
            }
        }
        Ok(())
    }

    /// An optional field that may hold any JSON value, `null` included.
    pub fn optional_value<'de, S: FieldSource<'de>>(slot: &mut Option<Value>, name: &'static str, src: S) -> Result<(), S::Error> {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(name));
        }
        *slot = Some(src.take::<Value>()?);
        Ok(())
    }

    pub fn unknown<'de, S: FieldSource<'de>>(extra: &mut JsonObject, key: Key<'de>, src: S) -> Result<(), S::Error> {
        let v: Value = src.take()?;
        if extra.insert(key.as_str().to_string(), v).is_some() {
            return Err(de::Error::custom(format_args!("duplicate field `{}`", key.as_str())));
        }
        Ok(())
    }

    /// An unknown key whose value the schema types through an index signature.
    pub fn rest<'de, T: Deserialize<'de>, S: FieldSource<'de>>(rest: &mut std::collections::BTreeMap<String, T>, key: Key<'de>, src: S) -> Result<(), S::Error> {
        let v: T = src.take()?;
        if rest.insert(key.as_str().to_string(), v).is_some() {
            return Err(de::Error::custom(format_args!("duplicate field `{}`", key.as_str())));
        }
        Ok(())
    }

    /// A value the schema fixes for a field.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum Lit {
        Str(&'static str),
        Int(i64),
        Float(f64),
        Bool(bool),
    }

    impl Lit {
        pub fn matches(self, v: &Value) -> bool {
            match self {
                Lit::Str(s) => v.as_str() == Some(s),
                Lit::Int(i) => v.as_i64() == Some(i) && !v.is_f64(),
                Lit::Float(x) => v.as_f64() == Some(x),
                Lit::Bool(b) => v.as_bool() == Some(b),
            }
        }
    }

    impl fmt::Display for Lit {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            match self {
                Lit::Str(s) => write!(f, "{s:?}"),
                Lit::Int(i) => write!(f, "{i}"),
                Lit::Float(x) => write!(f, "{x}"),
                Lit::Bool(b) => write!(f, "{b}"),
            }
        }
    }

    /// A field whose value the schema fixes; it is checked here and never stored.
    pub fn literal<'de, S: FieldSource<'de>>(seen: &mut bool, name: &'static str, expected: Lit, src: S) -> Result<(), S::Error> {
        if *seen {
            return Err(de::Error::duplicate_field(name));
        }
        let ok = match expected {
            Lit::Str(s) => src.take::<Key<'de>>().map(|k| k.as_str() == s)?,
            _ => {
                let v: Value = src.take()?;
                expected.matches(&v)
            }
        };
        if !ok {
            return Err(de::Error::custom(format_args!("`{name}` must be {expected}")));
        }
        *seen = true;
        Ok(())
    }

    pub fn need<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
        slot.ok_or_else(|| E::missing_field(name))
    }

    pub fn need_literal<E: de::Error>(seen: bool, name: &'static str) -> Result<(), E> {
        if seen {
            Ok(())
        } else {
            Err(E::missing_field(name))
        }
    }

    /// How well a JSON value fits a type, for unions decided by the keys present:
    /// `None` when it cannot be that type, else higher for a closer fit.
    pub trait Shape {
        fn score(v: &Value) -> Option<u32>;
        /// The same question asked about a field's value: kind, literals and
        /// required keys, without descending any further.
        fn fits(v: &Value) -> Option<u32> {
            Self::score(v)
        }
    }

    /// A field's shallow check, as stored in the generated tables.
    pub type Fit = fn(&Value) -> Option<u32>;

    macro_rules! shape {
        ($($t:ty => $test:expr),* $(,)?) => { $(impl Shape for $t { fn score(v: &Value) -> Option<u32> { let f: fn(&Value) -> bool = $test; f(v).then_some(1) } })* };
    }
    shape! {
        String => |v| v.is_string(),
        i64 => |v| v.is_i64() || v.is_u64(),
        serde_json::Number => |v| v.is_number(),
        bool => |v| v.is_boolean(),
        () => |v| v.is_null(),
        JsonObject => |v| v.is_object(),
    }

    impl Shape for Value {
        fn score(_: &Value) -> Option<u32> {
            Some(0)
        }
    }

    impl<T> Shape for Vec<T> {
        fn score(v: &Value) -> Option<u32> {
            v.is_array().then_some(1)
        }
    }

    impl<T> Shape for std::collections::BTreeMap<String, T> {
        fn score(v: &Value) -> Option<u32> {
            v.is_object().then_some(1)
        }
    }

    impl<T: Shape> Shape for Nullable<T> {
        fn score(v: &Value) -> Option<u32> {
            if v.is_null() {
                Some(1)
            } else {
                T::score(v)
            }
        }
        fn fits(v: &Value) -> Option<u32> {
            if v.is_null() {
                Some(1)
            } else {
                T::fits(v)
            }
        }
    }

    impl<T: Shape> Shape for Box<T> {
        fn score(v: &Value) -> Option<u32> {
            T::score(v)
        }
        fn fits(v: &Value) -> Option<u32> {
            T::fits(v)
        }
    }

    /// Scores a struct: every required key present and every literal equal;
    /// then each known key present adds how well its value fits (a value that
    /// cannot be that field's type rules the struct out).
    pub fn score_object(v: &Value, required: &[&str], fields: &[(&str, Fit)], literals: &[(&str, bool, Lit)]) -> Option<u32> {
        let o = v.as_object()?;
        let mut score = shallow_object(o, required, literals)?;
        for (k, fit) in fields {
            if let Some(found) = o.get(*k) {
                score += 1 + fit(found)?;
            }
        }
        Some(score)
    }

    /// A struct's shallow check: required keys and literals only.
    pub fn fits_object(v: &Value, required: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
        shallow_object(v.as_object()?, required, literals)
    }

    fn shallow_object(o: &JsonObject, required: &[&str], literals: &[(&str, bool, Lit)]) -> Option<u32> {
        if !required.iter().all(|k| o.contains_key(*k)) {
            return None;
        }
        let mut score = 1;
        for (k, must, value) in literals {
            match o.get(*k) {
                Some(found) if !value.matches(found) => return None,
                Some(_) => score += 2,
                None if *must => return None,
                None => {}
            }
        }
        Some(score)
    }

    /// The index of the best score; the first one wins a tie.
    pub fn best(scores: &[Option<u32>]) -> Option<usize> {
        let mut best: Option<(usize, u32)> = None;
        for (i, s) in scores.iter().enumerate() {
            if let Some(s) = s {
                if best.is_none_or(|(_, b)| *s > b) {
                    best = Some((i, *s));
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// A compatibility move: puts `value` under `key` inside `target` unless it has
    /// one already, in which case the value is handed back to stay where it was.
    pub fn move_into<T: Serialize + DeserializeOwned, E: de::Error>(target: &mut T, key: &str, value: Value) -> Result<Option<Value>, E> {
        let mut v = serde_json::to_value(&*target).map_err(E::custom)?;
        match v.as_object_mut() {
            Some(o) if !o.contains_key(key) => {
                o.insert(key.to_string(), value);
            }
            _ => return Ok(Some(value)),
        }
        *target = T::deserialize(v).map_err(E::custom)?;
        Ok(None)
    }

    /// Reads a union decided by the keys present, once the best variant is known.
    pub fn from_value<T: DeserializeOwned, E: de::Error>(v: Value) -> Result<T, E> {
        T::deserialize(v).map_err(E::custom)
    }
}

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
