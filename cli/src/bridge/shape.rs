//! One message from one version to another with the generated conversions, and the keys only one
//! side's version has: the per-request `_meta` keys and `resultType` of 2026-07-28, which the
//! bridge adds on the way to a 2026-07-28 peer and takes off on the way back.

use mcp_spec_types::convert::{convert_json, target_type_name};
use mcp_spec_types::negotiate::{CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY};
use mcp_spec_types::tree::Doc;
use mcp_spec_types::validate::{Options, Severity};
use serde_json::{Map, Value};

use super::elide;
use crate::versions::{Info, Side};

/// Why a message cannot reach the other side: the row of `generated/CONVERSIONS.md` when the
/// conversion names one (`2025-11-25 -> 2026-07-28, ClientRequest.PingRequest`), and the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub row: Option<String>,
    pub reason: String,
}

impl Refusal {
    pub fn new(reason: impl Into<String>) -> Refusal {
        Refusal { row: None, reason: reason.into() }
    }
}

fn row(from: &str, to: &str, case: &str) -> String {
    format!("{from} -> {to}, {case}")
}

/// `value`, a `source` of `from`, as a `target` of `to`: converted (through the versions between),
/// then validated as `target` (errors only), so nothing the receiver's version rejects goes out.
/// A value with markers of a long line's parts (`elide.rs`) is converted as it is when the
/// conversion carries them unchanged, else whole (within the cost budget).
pub fn convert(from: &Info, to: &Info, source: &str, target: &str, mut value: Value) -> Result<Value, Refusal> {
    if from.module.name == to.module.name {
        return Ok(value);
    }
    if elide::has_markers(&value) {
        let run = |v: &Value| match convert_json(source, from.module.name, to.module.name, v) {
            Some(Ok(c)) => Ok(c),
            _ => Err(()),
        };
        if let Some(p) = elide::probe(&value, run) {
            return validated(to, target, p.value, !p.untyped);
        }
        elide::materialize(&mut value).map_err(|e| Refusal::new(e.to_string()))?;
    }
    let converted = match convert_json(source, from.module.name, to.module.name, &value) {
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            let row = (!e.case().is_empty()).then(|| row(e.from_version(), e.to_version(), e.case()));
            let pointer = e.pointer();
            let at = if pointer.is_empty() { String::new() } else { format!("{pointer}: ") };
            return Err(Refusal { row, reason: format!("{at}{}", e.reason()) });
        }
        None => return Err(Refusal::new(format!("{source} of {} has no conversion to {}", from.module.label, to.module.label))),
    };
    validated(to, target, converted, false)
}

/// `converted` if `target`'s rules find no error in it. With markers of long strings in typed
/// fields (`typed`), the rules are run on the tree of its text with those strings in place.
fn validated(to: &Info, target: &str, converted: Value, typed: bool) -> Result<Value, Refusal> {
    let Some(ty) = (to.module.dynamic)(target) else {
        return Err(Refusal::new(format!("{} has no type `{target}`", to.module.label)));
    };
    let options = Options { max_violations: 4, ..Options::default() };
    let text = if typed { elide::validation_text(&converted) } else { None };
    let report = match text.as_deref().map(Doc::parse_slice) {
        Some(Ok(doc)) => (ty.validate_node)(doc.root(), &options),
        _ => (ty.validate)(&converted, &options),
    };
    match report.violations.iter().find(|v| v.severity == Severity::Error) {
        Some(v) => Err(Refusal::new(format!("{}: {} (in {}, after converting)", v.pointer, v.message, to.module.label))),
        None => Ok(converted),
    }
}

/// Whether `to`'s side (client or server) sends a message of type `target` at all; the refusal
/// names the row of the sender's union when it does not (servers send no requests in 2026-07-28).
pub fn sent_by(from: &Info, to: &Info, side: &Side, target: Option<&str>, union: &str, method: &str, msg: &Value) -> Result<(), Refusal> {
    let missing = match (side, target) {
        (Side::Absent(name), _) => {
            let reason = format!("{} defines no {name}: that side sends no such message there", to.module.label);
            return Err(Refusal { row: Some(row(from.module.name, to.module.name, name)), reason });
        }
        (_, None) => true,
        (Side::Union(_, members), Some(t)) => !members.is_empty() && !members.contains(t),
        (Side::Alias(_), Some(_)) => false,
    };
    if !missing {
        return Ok(());
    }
    // The union's conversion names the row (`ClientRequest.PingRequest`); read whole, if it fits.
    let whole;
    let msg = if elide::has_markers(msg) {
        let mut v = msg.clone();
        match elide::materialize(&mut v) {
            Ok(()) => {
                whole = v;
                &whole
            }
            Err(_) => msg,
        }
    } else {
        msg
    };
    match convert_json(union, from.module.name, to.module.name, msg) {
        Some(Err(e)) if !e.case().is_empty() => {
            Err(Refusal { row: Some(row(e.from_version(), e.to_version(), e.case())), reason: format!("{}: {} has no `{method}` here", e.reason(), to.module.label) })
        }
        _ => Err(Refusal::new(format!("{} has no `{method}` that this side sends", to.module.label))),
    }
}

/// The per-request keys a 2026-07-28 request carries in `params._meta`.
pub const PER_REQUEST_KEYS: [&str; 4] = [PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY];

/// Puts the per-request keys in a request's `params._meta` (`params` made if absent); the request's own
/// values of the version and capabilities are replaced, its `clientInfo` and `logLevel` kept.
pub fn stamp(msg: &mut Value, version: &str, capabilities: &Value, info: Option<&Value>, level: Option<&Value>) {
    let Some(o) = msg.as_object_mut() else { return };
    let params = o.entry("params").or_insert_with(|| Value::Object(Map::new()));
    let Some(params) = params.as_object_mut() else { return };
    let meta = params.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
    let Some(meta) = meta.as_object_mut() else { return };
    meta.insert(PROTOCOL_VERSION_META_KEY.into(), Value::from(version));
    meta.insert(CLIENT_CAPABILITIES_META_KEY.into(), capabilities.clone());
    if let Some(info) = info {
        meta.entry(CLIENT_INFO_META_KEY).or_insert_with(|| info.clone());
    }
    if let Some(level) = level {
        meta.entry(LOG_LEVEL_META_KEY).or_insert_with(|| level.clone());
    }
}

/// Takes the per-request keys out of `params._meta` (and `_meta` itself when nothing else is left);
/// returns them.
pub fn unstamp(msg: &mut Value) -> Map<String, Value> {
    let mut taken = Map::new();
    let Some(params) = msg.get_mut("params").and_then(Value::as_object_mut) else { return taken };
    let Some(meta) = params.get_mut("_meta").and_then(Value::as_object_mut) else { return taken };
    for k in PER_REQUEST_KEYS {
        if let Some(v) = meta.remove(k) {
            taken.insert(k.to_string(), v);
        }
    }
    if meta.is_empty() {
        params.remove("_meta");
    }
    taken
}

/// A result from a version before 2026-07-28 as a 2026-07-28 server writes it: `resultType`
/// `complete` (what a 2026-07-28 client assumes when it is absent), and for the cacheable list
/// results (whose type requires them) `ttlMs` 0 and `cacheScope` `private`: no caching promised.
/// Returns the keys added.
pub fn complete_result(result: &mut Value, cacheable: bool) -> Vec<&'static str> {
    let mut added = Vec::new();
    let Some(o) = result.as_object_mut() else { return added };
    if !o.contains_key("resultType") {
        o.insert("resultType".into(), Value::from("complete"));
        added.push("resultType");
    }
    if cacheable {
        if !o.contains_key("ttlMs") {
            o.insert("ttlMs".into(), Value::from(0));
            added.push("ttlMs");
        }
        if !o.contains_key("cacheScope") {
            o.insert("cacheScope".into(), Value::from("private"));
            added.push("cacheScope");
        }
    }
    added
}

/// The keys of a 2026-07-28 result an older peer has no use for, taken off after converting: a
/// `complete` `resultType` (the only kind older versions have), `ttlMs`, `cacheScope`, and the
/// server's identity in `_meta` (older versions reserve the key without defining it).
pub fn plain_result(result: &mut Value) -> Vec<&'static str> {
    let mut taken = Vec::new();
    let Some(o) = result.as_object_mut() else { return taken };
    if let Some(Value::Object(meta)) = o.get_mut("_meta") {
        if meta.remove(SERVER_INFO_META_KEY).is_some() {
            taken.push("_meta serverInfo");
        }
        if meta.is_empty() {
            o.remove("_meta");
        }
    }
    if o.get("resultType").and_then(Value::as_str) == Some("complete") {
        o.remove("resultType");
        taken.push("resultType");
    }
    for k in ["ttlMs", "cacheScope"] {
        if o.remove(k).is_some() {
            taken.push(k);
        }
    }
    taken
}

/// A result of `method` from `from` to `to`. To 2026-07-28 it gains `resultType` (and the cache
/// keys a list result requires); from it, those are taken off. A 2026-07-28 result type that is a
/// union with `InputRequiredResult` (`CallToolResultResponseResult`) converts as its plain member.
pub fn convert_result(from: &Info, to: &Info, method: &str, result: &mut Value, what: &mut Vec<String>) -> Result<Value, Refusal> {
    let (Some(source), Some(target)) = (from.requests.get(method).map(|r| r.1), to.requests.get(method).map(|r| r.1)) else {
        return Err(Refusal::new(format!("`{method}` is a request of only one of the versions")));
    };
    let source = if target_type_name(source, from.module.name, to.module.name).is_some() { source } else { target };
    // Version names are dates, and `draft` sorts after them.
    let (from_new, to_new) = (from.module.name >= "2026-07-28", to.module.name >= "2026-07-28");
    if to_new && !from_new {
        let mut added = complete_result(result, false);
        let mut r = convert(from, to, source, target, result.clone());
        if r.as_ref().err().and_then(|e| e.row.as_deref()).is_some_and(|row| row.ends_with(".ttlMs") || row.ends_with(".cacheScope")) {
            added.extend(complete_result(result, true));
            r = convert(from, to, source, target, result.clone());
        }
        if !added.is_empty() {
            what.push(format!("added {}", added.join(", ")));
        }
        return r;
    }
    let mut r = convert(from, to, source, target, result.clone())?;
    if from_new && !to_new {
        let taken = plain_result(&mut r);
        if !taken.is_empty() {
            what.push(format!("took off {}", taken.join(", ")));
        }
    }
    Ok(r)
}
