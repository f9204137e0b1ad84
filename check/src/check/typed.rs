//! One value as one type (typed reading, validators, round trip), with the tables and options
//! that takes ([`Types`]), and the findings' severities.

use mcp_spec_types::tree::{Doc, Kind, Node, Object};
use mcp_spec_types::validate::{describe, jsonrpc, Cx, Options, Severity};

use super::{error, push_report, Diag, Outcome};
use crate::rules::stream::{CHECKER_INTERNAL, LINE_TOO_COSTLY, TYPED_DESERIALIZE, TYPED_ROUNDTRIP, TYPE_NAME};
use crate::session::rules::Rule;
use crate::versions::{Extension, Info, Module};

/// What typing a value needs, the same for every stream: the versions' and extensions' tables, the
/// options, and the version a message is checked as when nothing else says.
pub(super) struct Types {
    /// `--protocol VERSION`: every message checked as that version.
    pub fixed: Option<usize>,
    /// The newest version, for a message nothing else decides.
    pub latest: usize,
    pub roundtrip: bool,
    pub validate: bool,
    pub strict: bool,
    pub options: Options,
    /// The module of each version (an overlay given with `--ext` stands in for its base).
    pub modules: Vec<&'static Module>,
    pub infos: Vec<Info>,
    pub exts: Vec<(usize, &'static Extension, Info)>,
    pub max_findings: usize,
    /// The line being checked would pass its budget as a `Value` tree ([`crate::cost`]): its typed
    /// reading, which builds a `Value` for every part the schema types as any JSON (`arguments`,
    /// `_meta`, `structuredContent`, ...), is skipped.
    pub too_costly: Option<crate::cost::TooCostly>,
}

impl Types {
    /// The message as an object, once the JSON-RPC envelope rules have run on it; `None`, with the
    /// error, when it is not an object. Both channels (client/server and MCP Apps view/host) start here.
    pub(super) fn envelope<'v>(&self, value: Node<'v>, prefix: &str, out: &mut Outcome) -> Option<Object<'v>> {
        let Some(o) = value.as_object() else {
            out.diags.push(error(prefix, "type", format!("a JSON-RPC message is an object, found {}", describe(value))));
            return None;
        };
        if self.validate {
            let mut cx = Cx::new(self.options);
            jsonrpc::envelope(value, &mut cx);
            // The envelope rules include `jsonrpc.version`; the message's own type checks the literal again
            // only where the version's types declare it, so the envelope is the one place for it.
            push_report(prefix, cx.finish(), out);
        }
        Some(o)
    }

    /// [`Types::check_as`] without naming the value's type in the outcome.
    pub(super) fn check_quietly(&self, module: &'static Module, ty: &'static str, value: Node<'_>, prefix: &str, out: &mut Outcome) {
        let named = out.type_name.take();
        self.check_as(module, ty, value, prefix, out);
        out.type_name = named;
    }

    /// The three checks on one value as one type: typed reading, the validators, the round trip.
    pub(super) fn check_as(&self, module: &'static Module, ty: &'static str, value: Node<'_>, prefix: &str, out: &mut Outcome) {
        if out.type_name.is_none() {
            out.type_name = Some(ty);
        }
        let Some(entry) = (module.dynamic)(ty) else {
            out.diags.push(Diag::of(&CHECKER_INTERNAL, prefix, format!("{} has no type `{ty}`", module.label)));
            return;
        };
        let mut unreadable = false;
        // Whether the validators passed the value: no error kept or counted.
        let mut passed = false;
        if self.validate {
            // Only what can still be kept is collected; the rest is counted.
            let budget = self.max_findings.saturating_sub(out.diags.len());
            let options = Options { max_violations: budget, ..self.options };
            let report = (entry.validate_node)(value, &options);
            unreadable = report.refuses_typed_read();
            passed = report.omitted_errors == 0 && report.errors().next().is_none();
            push_report(prefix, report, out);
            crate::compat_icons::check(module, ty, value, &options, prefix, out);
        }
        if let Some(e) = &self.too_costly {
            // The typed reader builds a `Value` of every part typed as any JSON: on such a line it
            // could take ~90 times the line. The validators found what it would refuse: its
            // `deserialize` finding is given from theirs. Without them, or with --roundtrip, the
            // line says what was not done.
            if !self.validate || self.roundtrip {
                let what = if self.roundtrip { "the typed reading and the round trip" } else { "the typed reading" };
                out.diags.push(Diag::of(&LINE_TOO_COSTLY, prefix, format!("{e}; {what} skipped")));
            } else if unreadable {
                let msg = format!("not a valid {ty} of {}: the validators' findings say why (not read typed: {e})", module.label);
                out.diags.push(Diag::of(&TYPED_DESERIALIZE, prefix, msg));
            }
            return;
        }
        // A value the validators passed reads typed (tests/read_agrees.rs holds the two to that, and
        // the `validate` fuzz target): reading it again would only cost time (a quarter of `check`).
        if passed && !self.roundtrip {
            return;
        }
        // Writing back costs as much as reading; only --roundtrip needs it.
        let read = if self.roundtrip {
            (entry.roundtrip_node)(value).map(Some)
        } else {
            (entry.read_node)(value).map(|_| None)
        };
        match read {
            Err(e) => out.diags.push(Diag::of(&TYPED_DESERIALIZE, prefix, format!("not a valid {ty} of {}: {e}", module.label))),
            Ok(None) => {}
            Ok(Some((text, _))) => {
                // The text written back, as a tree of its own to compare with.
                let again = Doc::parse_owned(text).expect("the crate writes JSON");
                if let Some((at, msg)) = first_difference(value, again.root()) {
                    let p = format!("{prefix}{at}");
                    out.diags.push(Diag::of(&TYPED_ROUNDTRIP, &p, format!("re-serialized {ty} differs: {msg}")));
                }
            }
        }
    }

    /// A transport rule's finding, under `--strict` an error.
    pub(super) fn strictly(&self, mut d: Diag) -> Diag {
        if self.strict {
            d.severity = Severity::Error;
        }
        d
    }

    /// A finding of a rule in a rule table, with the severity it gives (`--strict`: error).
    pub(super) fn rule(&self, rule: &'static Rule, pointer: &str, message: String) -> Diag {
        Diag::checked(rule, self.strict, pointer, message)
    }

    /// A finding of an error rule that this case makes a warning (the rule's catalogue entry says
    /// when: an unknown version the receiver answers with an error); `--strict`: error.
    pub(super) fn as_warning(&self, rule: &'static Rule, pointer: &str, message: String) -> Diag {
        let severity = if self.strict { Severity::Error } else { Severity::Warning };
        Diag { pointer: pointer.to_string(), rule: rule.id, severity, message }
    }

    /// `--type` (or a line's `type`): the value as that type of the version, or of an enabled extension.
    pub(super) fn check_document(&self, v: usize, ty: &str, value: Node<'_>, prefix: &str, out: &mut Outcome) {
        let info = &self.infos[v];
        out.protocol = Some(info.module.name);
        if let Some(t) = info.types.get(ty) {
            return self.check_as(info.module, t, value, prefix, out);
        }
        for (_, e, info) in &self.exts {
            if let Some(t) = info.types.get(ty) {
                out.protocol = Some(e.name);
                return self.check_as(info.module, t, value, prefix, out);
            }
        }
        out.diags.push(Diag::of(&TYPE_NAME, prefix, format!("{} has no type `{ty}`", info.module.label)));
    }

    /// The tables of an enabled extension.
    pub(super) fn ext_info(&self, ext: usize) -> &Info {
        &self.exts.iter().find(|(i, ..)| *i == ext).expect("the extension is enabled").2
    }
}

/// The first place where two values differ, as a JSON pointer and a description; an object's
/// keys are compared in sorted order (as two `Value`s would be). Trees come from a parser that
/// stops at serde_json's nesting limit, so the recursion is bounded.
pub fn first_difference(a: Node<'_>, b: Node<'_>) -> Option<(String, String)> {
    fn escape(k: &str) -> String {
        k.replace('~', "~0").replace('/', "~1")
    }
    match (a.kind(), b.kind()) {
        (Kind::Object(x), Kind::Object(y)) => {
            // Most objects come back with the same keys in the same order: walked in step.
            if x.len() == y.len() && x.keys().zip(y.keys()).all(|(p, q)| p == q) {
                let mut pairs: Vec<(&str, Node, Node)> = x.iter().zip(y.values()).map(|((k, p), q)| (k, p, q)).collect();
                pairs.sort_unstable_by(|l, r| l.0.cmp(r.0));
                return pairs.into_iter().find_map(|(k, p, q)| first_difference(p, q).map(|(at, msg)| (format!("/{}{at}", escape(k)), msg)));
            }
            let mut keys: Vec<&str> = x.keys().chain(y.keys()).collect();
            keys.sort_unstable();
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
        (Kind::Array(x), Kind::Array(y)) => {
            let (mut xs, mut ys) = (x.iter(), y.iter());
            let mut i = 0;
            loop {
                match (xs.next(), ys.next()) {
                    (Some(p), Some(q)) => {
                        if let Some((at, msg)) = first_difference(p, q) {
                            return Some((format!("/{i}{at}"), msg));
                        }
                    }
                    (Some(p), None) => return Some((format!("/{i}"), format!("{} was dropped", describe(p)))),
                    (None, Some(q)) => return Some((format!("/{i}"), format!("{} was added", describe(q)))),
                    (None, None) => return None,
                }
                i += 1;
            }
        }
        _ if same_scalar(a, b) => None,
        _ => Some((String::new(), format!("{} was written back as {}", describe(a), describe(b)))),
    }
}

/// Whether two values that are not both objects or both arrays are equal, as `Value`s would be.
fn same_scalar(a: Node<'_>, b: Node<'_>) -> bool {
    match (a.kind(), b.kind()) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool(p), Kind::Bool(q)) => p == q,
        (Kind::String(p), Kind::String(q)) => p == q,
        (Kind::Number(p), Kind::Number(q)) => p.text() == q.text() || p.to_number() == q.to_number(),
        _ => false,
    }
}
