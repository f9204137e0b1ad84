//! Converting a message between the peer's version and the application's.
//!
//! The conversions are the generated ones (`mcp_spec_types::convert`, field by field, lossless).
//! The method decides the type only at run time here, so they are called by schema name
//! (`convert_json`); code that knows its types calls `Convert::convert` on them directly. What the
//! target cannot hold fails with the JSON pointer and the reason. A converted value must also pass
//! the target version's validation rules, so nothing invalid for the peer leaves this server.

use mcp_spec_types::convert::convert_json;
use mcp_spec_types::runtime::dynamic::DynType;
use mcp_spec_types::validate::{Options, Severity};
use serde_json::Value;

/// Why a value did not convert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// JSON pointer into the value converted.
    pub pointer: String,
    pub reason: String,
    /// The method does not exist in one of the two versions.
    pub unknown_method: bool,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pointer = if self.pointer.is_empty() { "/" } else { &self.pointer };
        write!(f, "{pointer}: {}", self.reason)
    }
}

fn failure(pointer: impl Into<String>, reason: impl Into<String>) -> Failure {
    Failure { pointer: pointer.into(), reason: reason.into(), unknown_method: false }
}

struct Module {
    name: &'static str,
    dynamic: fn(&str) -> Option<&'static DynType>,
    requests: &'static [(&'static str, &'static str, &'static str)],
    notifications: &'static [(&'static str, &'static str)],
}

macro_rules! module {
    ($name:literal, $m:ident) => {
        Module {
            name: $name,
            dynamic: mcp_spec_types::$m::dynamic,
            requests: mcp_spec_types::$m::REQUESTS,
            notifications: mcp_spec_types::$m::NOTIFICATIONS,
        }
    };
}

static MODULES: &[Module] = &[
    module!("2024-11-05", v2024_11_05),
    module!("2025-03-26", v2025_03_26),
    module!("2025-06-18", v2025_06_18),
    module!("2025-11-25", v2025_11_25),
    module!("2026-07-28", v2026_07_28),
];

fn module(version: &str) -> &'static Module {
    MODULES.iter().find(|m| m.name == version).expect("a version this server supports")
}

/// A request or notification of `from`, as the same method's message of `to`.
pub fn message(from: &str, to: &str, message: &Value) -> Result<Value, Failure> {
    let (f, t) = (module(from), module(to));
    let method = message.get("method").and_then(Value::as_str).unwrap_or_default();
    let type_of = |m: &Module| -> Option<&'static str> {
        if message.get("id").is_some() {
            m.requests.iter().find(|r| r.0 == method).map(|r| r.1)
        } else {
            m.notifications.iter().find(|n| n.0 == method).map(|n| n.1)
        }
    };
    match (type_of(f), type_of(t)) {
        (Some(source), Some(target)) => retype(f, source, t, target, message),
        (source, _) => {
            let lacking = if source.is_none() { from } else { to };
            Err(Failure { pointer: "/method".into(), reason: format!("{lacking} has no `{method}`"), unknown_method: true })
        }
    }
}

/// The result of `method` in `from`, as its result in `to`.
pub fn result(from: &str, to: &str, method: &str, result: &Value) -> Result<Value, Failure> {
    let (f, t) = (module(from), module(to));
    let type_of = |m: &Module| m.requests.iter().find(|r| r.0 == method).map(|r| r.2);
    match (type_of(f), type_of(t)) {
        (Some(source), Some(target)) => retype(f, source, t, target, result),
        _ => Err(Failure { pointer: String::new(), reason: format!("`{method}` is not a request of both {from} and {to}"), unknown_method: true }),
    }
}

fn retype(from: &Module, source: &str, to: &Module, target: &str, value: &Value) -> Result<Value, Failure> {
    let lookup = |m: &Module, ty: &str| (m.dynamic)(ty).ok_or_else(|| failure("", format!("{} has no type `{ty}`", m.name)));
    let (source_type, target_type) = (lookup(from, source)?, lookup(to, target)?);
    (source_type.read_value)(value).map_err(|e| failure("", format!("not a valid {source} of {}: {e}", from.name)))?;
    let converted = if from.name == to.name {
        value.clone()
    } else {
        match convert_json(source, from.name, to.name, value) {
            Some(Ok(converted)) => converted,
            Some(Err(e)) => return Err(failure(e.pointer(), e.to_string())),
            None => return Err(failure("", format!("{source} of {} does not convert to {}", from.name, to.name))),
        }
    };
    let report = (target_type.validate)(&converted, &Options::default());
    if let Some(v) = report.violations.iter().find(|v| v.severity == Severity::Error) {
        return Err(failure(v.pointer.clone(), format!("{} (in {})", v.message, to.name)));
    }
    Ok(converted)
}
