//! Writing a [`Node`] back: `Serialize` (numbers as serde_json writes its own, keys in the
//! text's order) and the `Display` built on it.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{Kind, Node};

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.kind() {
            Kind::Null => s.serialize_unit(),
            Kind::Bool(b) => s.serialize_bool(b),
            Kind::Number(n) => n.to_number().serialize(s),
            Kind::String(v) => s.serialize_str(v),
            Kind::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(&x)?;
                }
                seq.end()
            }
            Kind::Object(o) => {
                let mut map = s.serialize_map(None)?;
                for (k, v) in o {
                    map.serialize_entry(k, &v)?;
                }
                map.end()
            }
        }
    }
}

/// `io::Write` onto a formatter: serde_json writes UTF-8 in pieces cut at character boundaries.
struct Adapter<'a, 'b>(&'a mut fmt::Formatter<'b>);

impl std::io::Write for Adapter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let s = std::str::from_utf8(buf).map_err(std::io::Error::other)?;
        self.0.write_str(s).map_err(std::io::Error::other)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(super) fn write_fmt(node: Node<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let alternate = f.alternate();
    let mut w = Adapter(f);
    let r = if alternate { serde_json::to_writer_pretty(&mut w, &node) } else { serde_json::to_writer(&mut w, &node) };
    r.map_err(|_| fmt::Error)
}
