//! Unions decided by the keys present: ranking, guessing and the streaming visitor.

use super::*;

/// A union decided by the keys present, read without building a tree.
///
/// A key that only one member names, in a union none of whose members takes every
/// object, decides at once: the fields before it are replayed and the rest streams
/// into that member. Otherwise the members are ranked by the keys ([`score_keys`]),
/// leaving out a member whose closed enum holds a value another member claims
/// ([`unclaimed`]) and a catch-all when a key identifying another member is present
/// ([`names_none`]), and the first that reads the object wins.
pub trait Keyed: Sized {
    const MEMBERS: usize;
    const EXPECTING: &'static str;
    const NO_MATCH: &'static str;
    type Builder: Builder<Output = Self>;
    /// The builder of the member that `key` alone decides.
    fn builder_for_key(key: &str) -> Option<Self::Builder>;
    /// In a union with a member that takes any object: the struct member that `key`
    /// alone names, as a guess that [`from_slice`](crate::from_slice) confirms or
    /// takes back.
    fn guess_for_key(_key: &str) -> Option<(usize, Self::Builder)> {
        None
    }
    /// Whether a guessed member's closed enums hold no value another member claims: the
    /// ranking of the whole object, which a guess skips, would rule it out ([`unclaimed`]).
    fn settled(&self) -> bool {
        true
    }
    /// In a union with a catch-all: the member naming most of the object's keys that rule
    /// the catch-all out ([`names_none`]). When no member ranks, its error is the union's.
    fn closest<K: KeySet + ?Sized>(_o: &K) -> Option<usize> {
        None
    }
    fn score<K: KeySet + ?Sized>(member: usize, o: &K) -> Option<u32>;
    /// Reads the object as one member; `None` when that member cannot even start
    /// (a tagged member without a readable tag).
    fn read_member(member: usize, o: &RawObject<'_>) -> Option<Result<Self, KeptError>>;

    /// Reads the object as the best-ranked member that can read it; with none, the
    /// best-ranked member's error.
    fn read(o: &RawObject<'_>) -> Result<Self, KeptError> {
        let mut first_err = None;
        for i in rank::<Self, _>(&KeptKeys::new(o)) {
            match Self::read_member(i, o) {
                Some(Ok(v)) => return Ok(v),
                Some(Err(e)) => {
                    first_err.get_or_insert(e);
                }
                None => {}
            }
        }
        if first_err.is_none() {
            // No member ranks, but one names keys that rule the catch-all out: its error
            // (a missing field) says more than that no member matches.
            if let Some(Some(Err(e))) = Self::closest(o).map(|i| Self::read_member(i, o)) {
                return Err(e);
            }
        }
        Err(first_err.unwrap_or_else(|| de::Error::custom(Self::NO_MATCH)))
    }
}

/// The members that rank for `o`, best first; a tie keeps declaration order.
pub(crate) fn rank<U: Keyed, K: KeySet + ?Sized>(o: &K) -> Ranking {
    let mut ranking = Ranking { scores: [None; RANKED_ON_STACK], more: Vec::new() };
    for i in 0..U::MEMBERS {
        let score = U::score(i, o);
        match ranking.scores.get_mut(i) {
            Some(slot) => *slot = score,
            None => ranking.more.push(score),
        }
    }
    ranking
}

/// Members a ranking keeps without allocating; every schema's unions have fewer.
pub(super) const RANKED_ON_STACK: usize = 32;

/// The scores of a union's members, handed out best first. The first member usually reads
/// the object, so the order is found one member at a time rather than sorted.
pub(crate) struct Ranking {
    pub(super) scores: [Option<u32>; RANKED_ON_STACK],
    pub(super) more: Vec<Option<u32>>,
}

impl Iterator for Ranking {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let mut best: Option<(usize, u32)> = None;
        for (i, score) in self.scores.iter().chain(&self.more).enumerate() {
            if let Some(s) = *score {
                if best.is_none_or(|(_, b)| s > b) {
                    best = Some((i, s));
                }
            }
        }
        let (i, _) = best?;
        match self.scores.get_mut(i) {
            Some(slot) => *slot = None,
            None => self.more[i - RANKED_ON_STACK] = None,
        }
        Some(i)
    }
}

/// [`ranks_first`] for a member guessed at a key that no other member names, over the keys
/// `seen` (distinct; the builder refuses a repeated key). A struct's key-only score is one plus
/// two for each of its fields present ([`score_keys`] over [`SeenKeys`]), a union's the best of
/// its members'. So when the guessed member names every key, its score is `1 + 2 × keys`, and
/// every other member scores at least two less, lacking the key of the guess: it ranks first
/// without the others being scored. Otherwise the whole ranking decides.
pub(crate) fn guess_ranks_first<U: Keyed>(member: usize, seen: &[Key]) -> bool {
    let keys = SeenKeys::new(seen);
    let quick = names_every_key::<U>(member, &keys);
    debug_assert!(!quick || ranks_first::<U, _>(member, &keys), "a guess that names every key ranks first");
    quick || ranks_first::<U, _>(member, &keys)
}

/// Whether `member` names every key of `seen`: its score is the highest any member can have.
pub(super) fn names_every_key<U: Keyed>(member: usize, seen: &SeenKeys) -> bool {
    U::score(member, seen) == Some(1 + 2 * seen.keys.len() as u32)
}

/// Whether `member` comes first in [`rank`]'s order, without building it.
pub(super) fn ranks_first<U: Keyed, K: KeySet + ?Sized>(member: usize, o: &K) -> bool {
    let Some(mine) = U::score(member, o) else { return false };
    (0..U::MEMBERS).filter(|&i| i != member).all(|i| U::score(i, o).is_none_or(|s| s < mine || (s == mine && member < i)))
}

/// Reads a tagged union's builder from a kept object: its tag, as a string.
pub fn tagged_builder<U: Tagged>(o: &RawObject) -> Option<U::Builder> {
    U::builder_for(o.get(U::TAG).and_then(Raw::string).as_deref())
}

pub struct KeyedVisitor<U>(PhantomData<U>);

impl<U> Default for KeyedVisitor<U> {
    fn default() -> Self {
        KeyedVisitor(PhantomData)
    }
}

impl<'de, U: Keyed> Entry<'de> for KeyedVisitor<U> {
    fn enter<D: Deserializer<'de>>(self, d: D) -> Result<U, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, U: Keyed> Visitor<'de> for KeyedVisitor<U> {
    type Value = U;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(U::EXPECTING)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
        let mut kept = RawObject(Vec::new());
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if let Some(mut b) = U::builder_for_key(key.as_str()) {
                for (k, v) in kept.0 {
                    b.field(k, FromRaw(&v)).map_err(kept_error)?;
                }
                b.map_field(key, &mut map)?;
                read_fields(&mut map, &mut b)?;
                return b.finish();
            }
            if let Some((member, b)) = U::guess_for_key(key.as_str()).filter(|_| guessing()) {
                return stream_guess::<U, A>(member, b, kept, key, map);
            }
            let v = keep(&mut map)?;
            kept.0.push((key, v));
        }
        U::read(&kept).map_err(kept_error)
    }
}

/// Streams the rest of an object into a guessed member, then checks that reading
/// the whole object first (see [`Keyed::read`]) would have tried that member first:
/// its score must beat every other member's best possible score over the same keys.
/// A wrong guess (taken back, or a member that cannot read the object) is an error
/// and is also recorded, so that [`from_slice`](crate::from_slice) reads the input
/// again without guessing even where a caller swallowed the error and went on.
pub(super) fn stream_guess<'de, U: Keyed, A: MapAccess<'de>>(member: usize, b: U::Builder, kept: RawObject<'de>, key: Key<'de>, map: A) -> Result<U, A::Error> {
    let read = stream_guessed::<U, A>(member, b, kept, key, map);
    if read.is_err() {
        GUESS.with(|g| g.set(Guess::Wrong));
    }
    read
}

pub(super) fn stream_guessed<'de, U: Keyed, A: MapAccess<'de>>(member: usize, mut b: U::Builder, kept: RawObject<'de>, key: Key<'de>, mut map: A) -> Result<U, A::Error> {
    let mut seen = Vec::with_capacity(kept.0.len() + 4);
    for (k, v) in kept.0 {
        seen.push(k.reborrow());
        b.field(k, FromRaw(&v)).map_err(kept_error)?;
    }
    seen.push(key.reborrow());
    b.map_field(key, &mut map)?;
    while let Some(k) = map.next_key::<Key<'de>>()? {
        seen.push(k.reborrow());
        b.map_field(k, &mut map)?;
    }
    let out = b.finish()?;
    if out.settled() && guess_ranks_first::<U>(member, &seen) {
        Ok(out)
    } else {
        Err(de::Error::custom(GUESS_TAKEN_BACK))
    }
}

pub(crate) const GUESS_TAKEN_BACK: &str = "another member of the union ranks first for these keys";

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Guess {
    Off,
    On,
    /// A guess went wrong in this read: no more guessing, and the read is done again.
    Wrong,
}

thread_local! {
    static GUESS: std::cell::Cell<Guess> = const { std::cell::Cell::new(Guess::Off) };
}

pub(crate) fn guessing() -> bool {
    GUESS.with(|g| g.get()) == Guess::On
}

/// Guessing on or off until this is dropped; then the previous setting is put back (also
/// when the read unwinds).
pub(crate) struct Guessing(Guess);

impl Guessing {
    pub(crate) fn set(on: bool) -> Self {
        Guessing(GUESS.with(|g| g.replace(if on { Guess::On } else { Guess::Off })))
    }

    /// Whether a guess went wrong since the setting.
    pub(crate) fn went_wrong(&self) -> bool {
        GUESS.with(|g| g.get()) == Guess::Wrong
    }
}

impl Drop for Guessing {
    fn drop(&mut self) {
        GUESS.with(|g| g.set(self.0));
    }
}

/// Runs `f` with guessing on or off; returns what it returned and whether a guess
/// went wrong.
pub(crate) fn with_guessing<T>(on: bool, f: impl FnOnce() -> T) -> (T, bool) {
    let setting = Guessing::set(on);
    let out = f();
    let wrong = setting.went_wrong();
    (out, wrong)
}

/// Keeps a map's next value unread. A source that knows its size is a tree already
/// (`Value`, `&Value`): its values are taken as they are rather than printed as text.
pub(super) fn keep<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Raw<'de>, A::Error> {
    if map.size_hint().is_some() {
        map.next_value().map(Raw::Value)
    } else {
        map.next_value()
    }
}

/// The kept fields as a map, for a type that is read whole once they are all in.
pub struct RawMap<'r, 'de> {
    fields: std::slice::Iter<'r, (Key<'de>, Raw<'de>)>,
    value: Option<&'r Raw<'de>>,
}

impl<'r, 'de> MapAccess<'de> for RawMap<'r, 'de> {
    type Error = KeptError;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, KeptError> {
        let Some((k, v)) = self.fields.next() else { return Ok(None) };
        self.value = Some(v);
        let key: de::value::CowStrDeserializer<KeptError> = de::IntoDeserializer::into_deserializer(std::borrow::Cow::Owned(k.as_str().to_string()));
        seed.deserialize(key).map(Some)
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, KeptError> {
        match self.value.take() {
            Some(Raw::Text(text)) => {
                within_depth::<KeptError>(text)?;
                seed.deserialize(&mut serde_json::Deserializer::from_str(text))
            }
            Some(Raw::Value(v)) => seed.deserialize(v.clone()),
            Some(Raw::Str(s)) => seed.deserialize(StrValue(s)),
            None => Err(de::Error::custom("value asked for before its key")),
        }
    }
}

impl<'de> RawObject<'de> {
    /// Reads the kept fields as one `T`.
    pub fn read_as<T: Deserialize<'de>>(&self) -> Result<T, KeptError> {
        T::deserialize(MapDe(RawMap { fields: self.0.iter(), value: None }))
    }
}


