//! One value as one type (typed reading, validators, round trip) and the findings' severities.

use mcp_spec_types::validate::{describe, Options, Severity};
use serde_json::Value;

use super::{error, push_report, Checker, Diag, Outcome};
use crate::session::rules::Rule;
use crate::versions::Module;

impl Checker {
    /// [`Checker::check_as`] without naming the value's type in the outcome.
    pub(super) fn check_quietly(&self, module: &'static Module, ty: &'static str, value: &Value, prefix: &str, out: &mut Outcome) {
        let named = out.type_name.take();
        self.check_as(module, ty, value, prefix, out);
        out.type_name = named;
    }

    /// The three checks on one value as one type: typed reading, the validators, the round trip.
    pub(super) fn check_as(&self, module: &'static Module, ty: &'static str, value: &Value, prefix: &str, out: &mut Outcome) {
        if out.type_name.is_none() {
            out.type_name = Some(ty);
        }
        let Some(entry) = (module.dynamic)(ty) else {
            out.diags.push(error(prefix, "internal", format!("{} has no type `{ty}`", module.label)));
            return;
        };
        if self.validate {
            // Only what can still be kept is collected; the rest is counted.
            let budget = self.max_findings.saturating_sub(out.diags.len());
            let options = Options { max_violations: budget, ..self.options };
            push_report(prefix, (entry.validate)(value, &options), out);
            crate::compat_icons::check(module, ty, value, &options, prefix, out);
        }
        // Writing back costs as much as reading; only --roundtrip needs it.
        let read = if self.roundtrip {
            Some((entry.roundtrip_value)(value))
        } else {
            Some((entry.read_value)(value).map(|name| (Value::Null, name)))
        };
        match read {
            None => {}
            Some(Err(e)) => out.diags.push(error(prefix, "deserialize", format!("not a valid {ty} of {}: {e}", module.label))),
            Some(Ok((again, _))) => {
                if self.roundtrip {
                    if let Some((at, msg)) = first_difference(value, &again) {
                        let p = format!("{prefix}{at}");
                        out.diags.push(error(&p, "roundtrip", format!("re-serialized {ty} differs: {msg}")));
                    }
                }
            }
        }
    }

    /// A finding of a rule in the session rule table, with the severity it gives (`--strict`: error).
    /// A transport rule's finding, under `--strict` an error.
    pub(crate) fn strictly(&self, mut d: Diag) -> Diag {
        if self.strict {
            d.severity = Severity::Error;
        }
        d
    }

    pub(super) fn rule(&self, rule: &'static Rule, pointer: &str, message: String) -> Diag {
        let severity = if self.strict { Severity::Error } else { rule.severity };
        Diag { pointer: pointer.to_string(), rule: rule.id, severity, message }
    }

    pub(super) fn warning(&self, pointer: &str, rule: &'static str, message: String) -> Diag {
        let severity = if self.strict { Severity::Error } else { Severity::Warning };
        Diag { pointer: pointer.to_string(), rule, severity, message }
    }
}

/// The first place where two values differ, as a JSON pointer and a description.
/// Values come from serde_json, whose parser stops at 128 levels, so the recursion is bounded.
pub fn first_difference(a: &Value, b: &Value) -> Option<(String, String)> {
    fn escape(k: &str) -> String {
        k.replace('~', "~0").replace('/', "~1")
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some((at, msg)) = first_difference(p, q) {
                            return Some((format!("/{}{at}", escape(k)), msg));
                        }
                    }
                    (Some(p), None) => return Some((format!("/{}", escape(k)), format!("{} was dropped", describe(p)))),
                    (None, Some(q)) => return Some((format!("/{}", escape(k)), format!("{} was added", describe(q)))),
                    (None, None) => {}
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if let Some((at, msg)) = first_difference(p, q) {
                    return Some((format!("/{i}{at}"), msg));
                }
            }
            match x.len().cmp(&y.len()) {
                std::cmp::Ordering::Equal => None,
                std::cmp::Ordering::Greater => Some((format!("/{}", y.len()), format!("{} was dropped", describe(&x[y.len()])))),
                std::cmp::Ordering::Less => Some((format!("/{}", x.len()), format!("{} was added", describe(&y[x.len()])))),
            }
        }
        _ if a == b => None,
        _ => Some((String::new(), format!("{} was written back as {}", describe(a), describe(b)))),
    }
}
