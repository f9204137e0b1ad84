//! The table path's readers that scan before they read: the unions decided by keys and the
//! JSON-RPC envelope, with the runtime's own builders.

use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer};
use super::{deserialize, gave_up, read_object, read_object_keys, refuse, scan, unknown, Fast, FastRead, Known, Reader, Rule, SeenList, Slot, Slots};
use crate::runtime::__private::{guess_ranks_first, rank, Builder, KeptKeys, Key, Keyed, Lit, MessageVisitor, NoBuilder, Raw, RawObject, ResultResponseBuilder, Tagged};
use crate::runtime::{JsonObject, Message, NoRequests};

/// A union decided by the keys present, with its members read by this path.
pub trait KeyedFast: Keyed {
    /// Reads the object at the reader as one member; `None` for no such member.
    fn read_member_fast(member: usize, r: &mut Reader<'_>) -> Option<Fast<Self>>;
}

/// What the keys scanned so far say about a keyed union's member.
enum Pick<'de, B> {
    /// A key only this member names: it reads the object.
    Decided(B),
    /// A key only this struct member names, in a union with a catch-all: read, then checked.
    Guess(usize, B),
    /// Neither: every key, with its value's text, for the ranking.
    Ranked(RawObject<'de>),
}

/// A union decided by the keys present, as the serde path decides it. The keys are scanned to
/// the first that decides a member (then that member's builder reads the whole object, which is
/// what the serde path does by replaying the keys before it) or that guesses one (read, and kept
/// when the whole ranking would also pick it first, as the serde path checks its guesses);
/// otherwise the members are ranked over all the keys, and the first that reads the object wins.
pub fn read_keyed<'de, U: KeyedFast>(r: &mut Reader<'de>) -> Fast<U>
where
    U::Builder: Slots,
{
    let (pos, depth) = (r.pos, r.depth);
    let kept = match scan_keys::<U>(r, true)? {
        Pick::Decided(mut b) => {
            read_object(r, &mut b)?;
            return b.finish();
        }
        Pick::Guess(member, mut b) => {
            let mut seen = SeenList::new();
            match read_object_keys(r, &mut b, Some(&mut seen)).and_then(|_| b.finish()) {
                Ok(v) if v.settled() && guess_ranks_first::<U>(member, seen.keys()) => return Ok(v),
                Err(e) if gave_up() => return Err(e),
                _ => {}
            }
            r.pos = pos;
            r.depth = depth;
            match scan_keys::<U>(r, false)? {
                Pick::Ranked(kept) => kept,
                _ => return refuse(),
            }
        }
        Pick::Ranked(kept) => kept,
    };
    for member in rank::<U, _>(&KeptKeys::new(&kept)) {
        match U::read_member_fast(member, r) {
            Some(Ok(v)) => return Ok(v),
            // This reader could not read it: nor can it rank the rest.
            Some(Err(e)) if gave_up() => return Err(e),
            _ => {
                r.pos = pos;
                r.depth = depth;
            }
        }
    }
    refuse()
}

/// Scans the object at the reader (leaving the reader where it was) to the first key that decides
/// or, with `guess`, guesses a member; without one, keeps every key with its value's text.
fn scan_keys<'de, U: KeyedFast>(r: &mut Reader<'de>, guess: bool) -> Fast<Pick<'de, U::Builder>> {
    let mut kept = RawObject(Vec::new());
    let mut pick = None;
    scan(r, |key, r| {
        if let Some(b) = U::builder_for_key(key.as_str()) {
            pick = Some(Pick::Decided(b));
            return Ok(true);
        }
        if let Some((member, b)) = U::guess_for_key(key.as_str()).filter(|_| guess) {
            pick = Some(Pick::Guess(member, b));
            return Ok(true);
        }
        r.peek();
        let start = r.pos;
        r.skip()?;
        let text: &'de str = &r.text[start..r.pos];
        kept.0.push((key, Raw::Text(text)));
        Ok(false)
    })?;
    Ok(pick.unwrap_or(Pick::Ranked(kept)))
}

/// Where the JSON-RPC envelope's keys point: the first of `method`, `result` and `error`.
enum Kind<'de> {
    Method(Key<'de>),
    Result,
    Error,
}

/// The JSON-RPC envelope, read as its serde visitor reads it: the first of `method`, `result`
/// and `error` decides; a known method's request or notification is read by its builder; a
/// method neither side names is a request when the message has an `id`; a notification with
/// an `id` is refused.
impl<Id, Req, Notif, Res, Err> FastRead for Message<Id, Req, Notif, Res, Err>
where
    Id: FastRead + de::DeserializeOwned,
    Req: Tagged,
    Req::Builder: Slots,
    Notif: Tagged,
    Notif::Builder: Slots,
    Res: FastRead + de::DeserializeOwned,
    Err: FastRead,
{
    fn read_fast(r: &mut Reader<'_>) -> Fast<Self> {
        let mut kind: Option<Kind<'_>> = None;
        let mut has_id = false;
        scan(r, |key, r| {
            Ok(match (key.as_str(), &kind) {
                ("method", None) => {
                    let method = r.key()?;
                    // A known request needs nothing more from the scan.
                    let known = Req::knows(method.as_str());
                    kind = Some(Kind::Method(method));
                    known
                }
                ("result", None) => {
                    kind = Some(Kind::Result);
                    true
                }
                ("error", None) => {
                    kind = Some(Kind::Error);
                    true
                }
                (key, _) => {
                    has_id |= key == "id";
                    r.skip()?;
                    false
                }
            })
        })?;
        // Each arm maps its member's result rather than unwrapping and wrapping it again: a
        // message is a few hundred bytes, and every rewrapping is a copy.
        match kind {
            Some(Kind::Method(m)) if Req::knows(m.as_str()) || (has_id && !Notif::knows(m.as_str())) => read_chosen::<Req>(r, m.as_str()).map(Message::Request),
            Some(Kind::Method(m)) if !has_id => read_chosen::<Notif>(r, m.as_str()).map(Message::Notification),
            Some(Kind::Method(_)) | None => refuse(),
            Some(Kind::Result) => {
                let mut b = ResultResponseBuilder::<Id, Res>::default();
                read_object(r, &mut b)?;
                b.finish().map(Message::Result)
            }
            Some(Kind::Error) => Err::read_fast(r).map(Message::Error),
        }
    }
}

/// A tagged union whose tag is already known, read by that tag's builder.
fn read_chosen<U: Tagged>(r: &mut Reader<'_>, tag: &str) -> Fast<U>
where
    U::Builder: Slots,
{
    let mut b = U::builder_for(Some(tag)).map_or_else(refuse, Ok)?;
    read_object(r, &mut b)?;
    b.finish()
}

impl<'de, Id, Req, Notif, Res, Err> Deserialize<'de> for Message<Id, Req, Notif, Res, Err>
where
    Id: de::DeserializeOwned + FastRead,
    Req: Tagged + de::DeserializeOwned,
    Req::Builder: Slots,
    Notif: Tagged + de::DeserializeOwned,
    Notif::Builder: Slots,
    Res: de::DeserializeOwned + FastRead,
    Err: de::DeserializeOwned + FastRead,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d, MessageVisitor(PhantomData))
    }
}

impl<Id: FastRead, Res: FastRead> Slots for ResultResponseBuilder<Id, Res> {
    fn known(&self) -> &'static [Known] {
        const KNOWN: &[Known] = &[
            Known { key: "jsonrpc", rule: Rule::Literal(Lit::Str("2.0")) },
            Known { key: "id", rule: Rule::Required },
            Known { key: "result", rule: Rule::Required },
        ];
        KNOWN
    }
    fn slot(&mut self, i: usize) -> Slot<'_> {
        match i {
            0 => Slot::Seen(&mut self.jsonrpc),
            1 => Slot::Value(&mut self.id),
            2 => Slot::Value(&mut self.result),
            _ => Slot::Gone,
        }
    }
    fn unknown<'de>(&mut self, key: Key<'de>, r: &mut Reader<'de>) -> Fast<()> {
        unknown(&mut self.extra, key, r)
    }
    fn extra(&mut self) -> Option<&mut JsonObject> {
        Some(&mut self.extra)
    }
}

impl Slots for NoBuilder {
    fn known(&self) -> &'static [Known] {
        match *self {}
    }
    fn slot(&mut self, _: usize) -> Slot<'_> {
        match *self {}
    }
    fn unknown<'de>(&mut self, _: Key<'de>, _: &mut Reader<'de>) -> Fast<()> {
        match *self {}
    }
    fn extra(&mut self) -> Option<&mut JsonObject> {
        match *self {}
    }
}

impl FastRead for NoRequests {
    fn read_fast(_: &mut Reader<'_>) -> Fast<Self> {
        refuse()
    }
}

