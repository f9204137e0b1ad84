//! Reading a HAR as a stream: each entry is read, reduced to what MCP needs, and dropped, so
//! memory holds one entry's strings and the MCP bodies kept for ordering, not the file.

use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::BODY_MAX;

/// A string kept only up to `N` bytes: a longer one is dropped as soon as it is read, with its length
/// (a capped string; the capped map is `bounded::Capped`).
#[derive(Debug, Clone, Default)]
pub(crate) enum StrUpTo<const N: usize> {
    #[default]
    Absent,
    Kept(String),
    Long(usize),
}

impl<const N: usize> StrUpTo<N> {
    pub(crate) fn kept(&self) -> Option<&str> {
        match self {
            StrUpTo::Kept(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de, const N: usize> Deserialize<'de> for StrUpTo<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;
        impl<const N: usize> Visitor<'_> for V<N> {
            type Value = StrUpTo<N>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<StrUpTo<N>, E> {
                Ok(if s.len() > N { StrUpTo::Long(s.len()) } else { StrUpTo::Kept(s.to_string()) })
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<StrUpTo<N>, E> {
                Ok(if s.len() > N { StrUpTo::Long(s.len()) } else { StrUpTo::Kept(s) })
            }
            fn visit_unit<E: de::Error>(self) -> Result<StrUpTo<N>, E> {
                Ok(StrUpTo::Absent)
            }
        }
        d.deserialize_any(V::<N>)
    }
}

/// A duration in milliseconds as HAR 1.2 writes it (a number); anything else reads as `None`
/// rather than making the file unreadable.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Millis(pub Option<f64>);

impl<'de> Deserialize<'de> for Millis {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Millis;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of milliseconds")
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Millis, E> {
                Ok(Millis(Some(n).filter(|n| n.is_finite() && *n >= 0.0)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Millis, E> {
                self.visit_f64(n as f64)
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Millis, E> {
                self.visit_f64(n as f64)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Millis, E> {
                Ok(Millis(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Millis, E> {
                Ok(Millis(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Millis, E> {
                Ok(Millis(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Millis, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Millis(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Millis, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Millis(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// The headers the transport rules read, by name (case-insensitive); the others are skipped as they are read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Headers(pub crate::transport::Headers);

const HEADER_MAX: usize = 4096;

impl<'de> Deserialize<'de> for Headers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Header {
            #[serde(default)]
            name: StrUpTo<256>,
            #[serde(default)]
            value: StrUpTo<HEADER_MAX>,
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Headers;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of headers")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Headers, A::Error> {
                let mut h = crate::transport::Headers::default();
                while let Some(x) = seq.next_element::<Header>()? {
                    if let (Some(name), Some(value)) = (x.name.kept(), x.value.kept()) {
                        h.add(name, value);
                    }
                }
                Ok(Headers(h))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Headers, E> {
                Ok(Headers::default())
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawBody {
    #[serde(default)]
    pub mime_type: StrUpTo<256>,
    #[serde(default)]
    pub text: StrUpTo<BODY_MAX>,
    /// `base64` for a binary body; HAR 1.2 has it on `content`, some writers on `postData` too.
    #[serde(default)]
    pub encoding: StrUpTo<64>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Request {
    #[serde(default)]
    method: StrUpTo<64>,
    #[serde(default)]
    url: StrUpTo<8192>,
    #[serde(default)]
    headers: Headers,
    #[serde(default)]
    post_data: Option<RawBody>,
}

#[derive(Deserialize, Default)]
pub(crate) struct Response {
    #[serde(default)]
    status: Option<i64>,
    #[serde(default)]
    headers: Headers,
    #[serde(default)]
    content: Option<RawBody>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawEntry {
    #[serde(default)]
    pub started_date_time: StrUpTo<64>,
    /// The exchange's total time in milliseconds (`None`: absent or not a number).
    #[serde(default)]
    pub time: Millis,
    #[serde(default)]
    pub request: Request,
    #[serde(default)]
    pub response: Response,
}

/// Reads the HAR from `r`, handing each entry to `each` in file order. `Err` is where the JSON
/// stopped being a HAR (the entries before it were handed on). A key repeated at the top of the
/// file or in `log` is not read again (the first one counts) and is named in `repeated`: JSON
/// readers disagree on which of two equal names wins (RFC 8259, section 4: names SHOULD be
/// unique), so such a file must not pass as if it were clear.
pub(crate) fn read_entries<R: Read>(r: R, each: &mut dyn FnMut(RawEntry), repeated: &mut Vec<String>) -> Result<(), String> {
    let mut de = serde_json::Deserializer::from_reader(r);
    let mut sink = Sink { each, repeated };
    Root(&mut sink).deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())
}

struct Sink<'a> {
    each: &'a mut dyn FnMut(RawEntry),
    repeated: &'a mut Vec<String>,
}

/// Keys remembered per object to find a repeated one (a HAR's `log` has seven).
const KEYS_TRACKED: usize = 64;

/// The keys of one object so far: whether `k` was seen before (noted in `repeated` with `at`).
fn repeated_key(seen: &mut Vec<String>, k: &StrUpTo<64>, at: &str, repeated: &mut Vec<String>) -> bool {
    let Some(k) = k.kept() else { return false };
    if seen.iter().any(|s| s == k) {
        if repeated.len() < KEYS_TRACKED {
            repeated.push(format!("`{}` {at}", crate::bounded::clip(k)));
        }
        return true;
    }
    if seen.len() < KEYS_TRACKED {
        seen.push(k.to_string());
    }
    false
}

struct Root<'a, 'b>(&'a mut Sink<'b>);
struct Log<'a, 'b>(&'a mut Sink<'b>);
struct Entries<'a, 'b>(&'a mut Sink<'b>);

impl<'de> DeserializeSeed<'de> for Root<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Root<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a HAR object with `log`")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut seen, mut keys) = (false, Vec::new());
        while let Some(k) = map.next_key::<StrUpTo<64>>()? {
            if !repeated_key(&mut keys, &k, "at the top of the file", self.0.repeated) && k.kept() == Some("log") {
                seen = true;
                map.next_value_seed(Log(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        if !seen {
            return Err(de::Error::custom("no `log` object: not a HAR"));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Log<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Log<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the HAR `log` object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut seen, mut keys) = (false, Vec::new());
        while let Some(k) = map.next_key::<StrUpTo<64>>()? {
            if !repeated_key(&mut keys, &k, "in `log`", self.0.repeated) && k.kept() == Some("entries") {
                seen = true;
                map.next_value_seed(Entries(&mut *self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        if !seen {
            return Err(de::Error::custom("`log` has no `entries`"));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Entries<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Entries<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the `entries` array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(raw) = seq.next_element::<RawEntry>()? {
            (self.0.each)(raw);
        }
        Ok(())
    }
}

impl Request {
    pub(crate) fn parts(self) -> (StrUpTo<64>, StrUpTo<8192>, Headers, Option<RawBody>) {
        (self.method, self.url, self.headers, self.post_data)
    }
}

impl Response {
    pub(crate) fn parts(self) -> (Option<i64>, Headers, Option<RawBody>) {
        (self.status, self.headers, self.content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_string_is_dropped_with_its_length() {
        let c: StrUpTo<4> = serde_json::from_str("\"hello\"").unwrap();
        assert!(matches!(c, StrUpTo::Long(5)));
        let c: StrUpTo<5> = serde_json::from_str("\"hello\"").unwrap();
        assert_eq!(c.kept(), Some("hello"));
    }

    #[test]
    fn a_repeated_key_is_named_and_the_first_one_counts() {
        let har = br#"{"log": {"entries": [{}], "entries": [{}, {}]}, "log": {"entries": [{}, {}, {}]}}"#;
        let (mut n, mut repeated) = (0, Vec::new());
        read_entries(&har[..], &mut |_| n += 1, &mut repeated).unwrap();
        assert_eq!(n, 1);
        assert_eq!(repeated, vec!["`entries` in `log`".to_string(), "`log` at the top of the file".to_string()]);
    }
}
