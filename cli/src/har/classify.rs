//! Which entries of a HAR are MCP. A page may talk JSON-RPC to other services too (an Ethereum
//! node's `eth_call`, a language server over HTTP): checked as MCP, each of their messages would be
//! a false finding. An entry is MCP when something in it is MCP's own:
//!
//! - an MCP header on the request (`Mcp-Session-Id`, `MCP-Protocol-Version`, 2026-07-28's
//!   `Mcp-Method`), or `Mcp-Session-Id` on the response (the `initialize` answer assigns it);
//! - a message whose method is one of MCP's (any version's or extension's requests and
//!   notifications, or a `notifications/...` name; not `ping` nor `tasks/...`, which A2A uses
//!   too), an `initialize` whose params carry `protocolVersion` (a language server's `initialize`
//!   has none), or a result that does;
//! - a 2024-11-05 HTTP+SSE stream: a GET answered with SSE whose first event is `endpoint`.
//!
//! An entry with JSON-RPC but none of these (a `ping`, a response a client POSTs, a method an
//! extension added) is MCP when it went to an endpoint (scheme, host and path) that some MCP
//! entry of the same file went to; otherwise it is skipped as not MCP.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::read::StrUpTo;
use super::text::parse_sse;
use super::{is_sse, Body, Entry};

/// What an entry shows of MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// Something only MCP has.
    Mcp,
    /// JSON-RPC that MCP may send too: MCP when its endpoint is one an MCP entry used.
    JsonRpc,
    NotMcp,
}

/// The class of `e`.
pub(crate) fn class(e: &Entry) -> Class {
    let (req, resp) = (&e.req, &e.resp);
    if req.session_id.is_some() || req.protocol_version.is_some() || req.mcp_method.is_some() || resp.session_id.is_some() {
        return Class::Mcp;
    }
    let mut found = Class::NotMcp;
    for (body, response) in [(&e.request, false), (&e.response, true)] {
        let Body::Text { mime, text } = body else { continue };
        if memchr::memmem::find(text.as_bytes(), b"\"jsonrpc\"").is_none() {
            if response && e.at.method.as_deref() == Some("GET") && is_sse(mime, text) && parse_sse(text).events.first().is_some_and(|ev| ev.event.as_deref() == Some("endpoint")) {
                return Class::Mcp;
            }
            continue;
        }
        found = Class::JsonRpc;
        let mcp = if response && is_sse(mime, text) {
            parse_sse(text).events.iter().any(|ev| probe(&ev.data))
        } else {
            probe(text.strip_prefix('\u{feff}').unwrap_or(text))
        };
        if mcp {
            return Class::Mcp;
        }
    }
    found
}

/// Whether the JSON text (a message or a batch) has a message only MCP sends.
fn probe(text: &str) -> bool {
    serde_json::from_str::<Probes>(text).is_ok_and(|p| p.0)
}

/// Whether `method` is one of the methods of every schema module the checker knows
/// ([`crate::versions::methods`]) that no other JSON-RPC protocol uses.
fn mcp_method(method: &str) -> bool {
    // Names other JSON-RPC protocols use as well: they need more (see `Probe`). A2A (agent to
    // agent) has `tasks/get` and `tasks/cancel`; an MCP client sends those with its
    // `MCP-Protocol-Version` header (every version with tasks requires it) or to its MCP endpoint.
    let shared = matches!(method, "initialize" | "ping") || method.starts_with("tasks/");
    !shared && crate::versions::methods().contains(method)
}

/// The visits of every JSON kind but an object, for a probe that only an object can satisfy:
/// anything else is read past and answers `false`.
macro_rules! not_an_object {
    ($probe:ident) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<$probe, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($probe(false))
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<$probe, E> {
            Ok($probe(false))
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$probe, E> {
            Ok($probe(false))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$probe, E> {
            Ok($probe(false))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$probe, E> {
            Ok($probe(false))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$probe, E> {
            Ok($probe(false))
        }
        fn visit_unit<E: de::Error>(self) -> Result<$probe, E> {
            Ok($probe(false))
        }
    };
}

/// A message or a batch: whether any of it is MCP's own.
struct Probes(bool);

impl<'de> Deserialize<'de> for Probes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Probes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message or a batch")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Probes, A::Error> {
                Probe::visit(map).map(Probes)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Probes, A::Error> {
                let mut any = false;
                while let Some(p) = seq.next_element::<Probe>()? {
                    any |= p.0;
                }
                Ok(Probes(any))
            }
        }
        d.deserialize_any(V)
    }
}

/// One message: whether it is MCP's own (an MCP method, or `initialize` or a result with `protocolVersion`).
struct Probe(bool);

impl Probe {
    fn visit<'de, A: MapAccess<'de>>(mut map: A) -> Result<bool, A::Error> {
        let (mut method, mut versioned, mut result) = (None, false, false);
        while let Some(k) = map.next_key::<StrUpTo<64>>()? {
            match k.kept() {
                Some("method") => method = map.next_value::<StrUpTo<128>>()?.kept().map(str::to_string),
                Some("params") => versioned |= map.next_value::<HasVersion>()?.0,
                Some("result") => {
                    result = true;
                    versioned |= map.next_value::<HasVersion>()?.0;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(match method.as_deref() {
            Some("initialize") => versioned,
            Some(m) => m.starts_with("notifications/") || mcp_method(m),
            None => result && versioned,
        })
    }
}

impl<'de> Deserialize<'de> for Probe {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Probe;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Probe, A::Error> {
                Probe::visit(map).map(Probe)
            }
            not_an_object!(Probe);
        }
        d.deserialize_any(V)
    }
}

/// Whether an object has a `protocolVersion` key (anything else: no).
struct HasVersion(bool);

impl<'de> Deserialize<'de> for HasVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = HasVersion;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("params or a result")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HasVersion, A::Error> {
                let mut has = false;
                while let Some(k) = map.next_key::<StrUpTo<64>>()? {
                    has |= k.kept() == Some("protocolVersion");
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(HasVersion(has))
            }
            not_an_object!(HasVersion);
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_messages_and_others() {
        for mcp in [
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}"#,
            r#"{"jsonrpc": "2.0", "method": "notifications/whatever"}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {}}}"#,
            r#"[{"jsonrpc": "2.0", "id": 1, "method": "eth_call"}, {"jsonrpc": "2.0", "id": 2, "method": "resources/list"}]"#,
        ] {
            assert!(probe(mcp), "{mcp}");
        }
        for other in [
            r#"{"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": "0x0"}, "latest"]}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": 1, "rootUri": null, "capabilities": {}}}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [{"protocolVersion": 1}]}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "textDocument/completion"}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": "t1"}}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "result": "0x1"}"#,
            r#"[1, "a", null]"#,
            "not json",
        ] {
            assert!(!probe(other), "{other}");
        }
    }
}
