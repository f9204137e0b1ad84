//! The JSON-RPC envelope [`Message`]'s visitor and the builders it uses.

use super::*;

#[doc(hidden)]
pub enum NoBuilder {}

impl Builder for NoBuilder {
    type Output = NoRequests;
    fn field<'de, S: FieldSource<'de>>(&mut self, _: Key<'de>, _: S) -> Result<(), S::Error> {
        match *self {}
    }
    fn finish<E: de::Error>(self) -> Result<NoRequests, E> {
        match self {}
    }
}

#[doc(hidden)]
pub struct ResultResponseBuilder<Id, Res> {
    pub(crate) jsonrpc: bool,
    pub(crate) id: Option<Id>,
    pub(crate) result: Option<Res>,
    pub(crate) extra: JsonObject,
}

impl<Id, Res> Default for ResultResponseBuilder<Id, Res> {
    fn default() -> Self {
        ResultResponseBuilder { jsonrpc: false, id: None, result: None, extra: JsonObject::new() }
    }
}

impl<Id: DeserializeOwned, Res: DeserializeOwned> Builder for ResultResponseBuilder<Id, Res> {
    type Output = ResultResponse<Id, Res>;
    fn field<'de, S: FieldSource<'de>>(&mut self, key: Key<'de>, src: S) -> Result<(), S::Error> {
        match key.as_str() {
            "jsonrpc" => literal(&mut self.jsonrpc, "jsonrpc", Lit::Str("2.0"), src),
            "id" => required(&mut self.id, "id", src),
            "result" => required(&mut self.result, "result", src),
            _ => unknown(&mut self.extra, key, src),
        }
    }
    fn finish<E: de::Error>(self) -> Result<ResultResponse<Id, Res>, E> {
        need_literal::<E>(self.jsonrpc, "jsonrpc")?;
        Ok(ResultResponse { id: need(self.id, "id")?, result: need(self.result, "result")?, extra: self.extra })
    }
}

#[doc(hidden)]
pub struct MessageVisitor<M>(pub PhantomData<M>);

/// Reads a tagged union whose tag was just read, replaying the keys kept before it.
pub(super) fn stream_tagged<'de, U: Tagged, A: MapAccess<'de>>(tag: Key<'de>, kept: RawObject<'de>, map: &mut A) -> Result<U, A::Error> {
    let mut b = U::builder_for(Some(tag.as_str())).ok_or_else(|| de::Error::custom(format_args!("unsupported `{}` value {:?}", U::TAG, tag.as_str())))?;
    // As a kept value, so that the builder's dispatch runs for two kinds of source, not three.
    let tag = match tag {
        Key::Borrowed(s) => Raw::Str(s),
        Key::Owned(s) => Raw::Value(Value::String(s)),
    };
    b.field(Key::Borrowed(U::TAG), FromRaw(&tag)).map_err(kept_error)?;
    for (k, v) in kept.0 {
        b.field(k, FromRaw(&v)).map_err(kept_error)?;
    }
    read_fields(map, &mut b)?;
    b.finish()
}

pub(super) const NOTIFICATION_WITH_ID: &str = "a notification has no `id`: a message with one is a request or a response";

/// The rest of a notification's keys, refusing `id`.
pub(super) struct NoId<'m, A>(&'m mut A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for NoId<'_, A> {
    type Error = A::Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        // Keys are read as `Key` by every caller here; the name is checked before the seed sees it.
        match self.0.next_key::<Key<'de>>()? {
            None => Ok(None),
            Some(k) if k.as_str() == "id" => Err(de::Error::custom(NOTIFICATION_WITH_ID)),
            Some(k) => seed.deserialize(KeyDeserializer::<A::Error>(k, PhantomData)).map(Some),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

/// Hands a key already read to a seed.
pub(super) struct KeyDeserializer<'de, E>(Key<'de>, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for KeyDeserializer<'de, E> {
    type Error = E;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, E> {
        match self.0 {
            Key::Borrowed(s) => v.visit_borrowed_str(s),
            other => v.visit_string(other.into_string()),
        }
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, Id, Req, Notif, Res, Err> Entry<'de> for MessageVisitor<Message<Id, Req, Notif, Res, Err>>
where
    Id: DeserializeOwned,
    Req: Tagged + DeserializeOwned,
    Notif: Tagged + DeserializeOwned,
    Res: DeserializeOwned,
    Err: DeserializeOwned,
{
    fn enter<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, Id, Req, Notif, Res, Err> Visitor<'de> for MessageVisitor<Message<Id, Req, Notif, Res, Err>>
where
    Id: DeserializeOwned,
    Req: Tagged + DeserializeOwned,
    Notif: Tagged + DeserializeOwned,
    Res: DeserializeOwned,
    Err: DeserializeOwned,
{
    type Value = Message<Id, Req, Notif, Res, Err>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kept = RawObject(Vec::new());
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "method" => {
                    let method = map.next_value::<Key<'de>>()?;
                    if Req::knows(method.as_str()) {
                        return stream_tagged::<Req, A>(method, kept, &mut map).map(Message::Request);
                    }
                    if Notif::knows(method.as_str()) {
                        // A message with an `id` (valid or not) is never a notification.
                        if kept.get("id").is_some() {
                            return Err(de::Error::custom(NOTIFICATION_WITH_ID));
                        }
                        return stream_tagged::<Notif, _>(method, kept, &mut NoId(&mut map)).map(Message::Notification);
                    }
                    // A method neither side names: `id` tells, once every key is in.
                    kept.0.push((key, Raw::Value(Value::String(method.into_string()))));
                    while let Some(k) = map.next_key::<Key<'de>>()? {
                        let v = keep(&mut map)?;
                        kept.0.push((k, v));
                    }
                    return if kept.get("id").is_some() {
                        kept.read_as::<Req>().map(Message::Request).map_err(kept_error)
                    } else {
                        kept.read_as::<Notif>().map(Message::Notification).map_err(kept_error)
                    };
                }
                "result" => {
                    let mut b = ResultResponseBuilder::<Id, Res>::default();
                    for (k, v) in kept.0 {
                        b.field(k, FromRaw(&v)).map_err(kept_error)?;
                    }
                    b.map_field(key, &mut map)?;
                    read_fields(&mut map, &mut b)?;
                    return b.finish().map(Message::Result);
                }
                "error" => {
                    let v = keep(&mut map)?;
                    kept.0.push((key, v));
                    while let Some(k) = map.next_key::<Key<'de>>()? {
                        let v = keep(&mut map)?;
                        kept.0.push((k, v));
                    }
                    return kept.read_as::<Err>().map(Message::Error).map_err(kept_error);
                }
                _ => {
                    let v = keep(&mut map)?;
                    kept.0.push((key, v));
                }
            }
        }
        Err(de::Error::custom("not a JSON-RPC message: it has none of `method`, `result` and `error`"))
    }
}
