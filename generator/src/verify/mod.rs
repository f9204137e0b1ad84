//! `cargo xtask schema verify`: proves the parse right against the spec's own
//! JSON Schema.
//!
//! Each module with a pinned `schema.json` beside its input is written as JSON
//! Schema from the IR ([`json_schema`]), both documents are read into one
//! normal form ([`node`]) and compared definition by definition ([`compare`]).
//! Differences known to be `schema.json`'s (its generator loses things
//! `schema.ts` says) are listed with reasons in [`allowlist::PATH`]; any other
//! difference fails, and so does an allowlist entry that matches nothing.
//!
//! Like the rest of the crate this does no disk I/O: callers hand in file contents.

pub mod allowlist;
pub mod compare;
mod difference;
pub mod json_schema;
pub mod node;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use crate::config::Config;

use crate::ir::{ItemKind, Origin, TypeSpace};

pub use allowlist::Allowlist;
pub use difference::{Difference, Kind};
use node::Document;

/// How the pinned `schema.json` was made, which decides what is worth comparing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// The spec's: generated from `schema.ts` itself; every definition is compared.
    Spec,
    /// MCP Apps': generated from the package's Zod schemas, with the core types it uses written inline. Only
    /// the extension's own definitions are compared; where the IR refers to a core type the comparison stops.
    Extension,
}

/// One schema to verify.
#[derive(Debug, Clone)]
pub struct Target {
    /// `2025-11-25`, `draft`, or the module name for an extension (`apps`).
    pub name: String,
    pub module: String,
    /// Path of the module's input, relative to the synced upstream folder.
    pub input: String,
    /// Path of the pinned `schema.json`, relative to the synced upstream folder.
    pub schema_json: String,
    pub flavor: Flavor,
}

/// Every module with a pinned `schema.json` beside its input. A module made with a proposal overlay has no
/// official schema of its own.
pub fn targets(config: &Config) -> Vec<Target> {
    let mut out = Vec::new();
    for m in config.modules.iter().filter(|m| m.overlay.is_none()) {
        let Some((dir, _)) = m.input.rsplit_once('/') else { continue };
        let schema_json = format!("{dir}/schema.json");
        let (name, flavor) = match dir.strip_prefix("mcp-spec/schema/") {
            Some(version) => (version.to_string(), Flavor::Spec),
            None => (m.name.clone(), Flavor::Extension),
        };
        out.push(Target { name, module: m.name.clone(), input: m.input.clone(), schema_json, flavor });
    }
    out
}

/// The comparison of one definition.
#[derive(Debug, Clone)]
pub struct DefinitionReport {
    pub name: String,
    pub differences: Vec<Difference>,
    /// Where the IR refers to another module's type, which the extension's schema.json writes inline.
    pub skipped: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct TargetReport {
    pub target: Target,
    pub definitions: Vec<DefinitionReport>,
}

/// Compares one module's IR with its `schema.json`, definition by definition (sorted by name).
pub fn compare_target(space: &TypeSpace, target: &Target, official: &Value) -> Result<TargetReport, String> {
    let module = space.module(&target.module).ok_or_else(|| format!("module `{}` is not in the type space", target.module))?;
    let ours = Document::read(&json_schema::module_schema(module), false).map_err(|e| format!("{}: emitted schema: {e}", target.name))?;
    let theirs = Document::read(official, target.flavor == Flavor::Extension).map_err(|e| format!("{}: {e}", target.schema_json))?;
    let top_level = |key: &String| !key.contains('/');
    let mut definitions = Vec::new();
    for name in theirs.defs.keys().filter(|k| top_level(k)) {
        let report = match ours.def(name) {
            Some(ours_def) => {
                let outcome = compare::Comparer::new(&ours, &theirs, name).run(ours_def, &theirs.defs[name]);
                DefinitionReport { name: name.clone(), differences: outcome.differences, skipped: outcome.skipped }
            }
            // An extension's schema.json may carry the core types it uses as definitions of their own (Tasks does);
            // they are the imported module's, verified against that module's schema.json.
            None if target.flavor == Flavor::Extension && imported_core(space, module, name).is_some() => {
                let core = imported_core(space, module, name).unwrap_or_default();
                DefinitionReport { name: name.clone(), differences: Vec::new(), skipped: vec![(String::new(), format!("{core}::{name}"))] }
            }
            None => DefinitionReport {
                name: name.clone(),
                differences: vec![Difference { definition: name.clone(), pointer: String::new(), kind: Kind::MissingDefinition, detail: "defined in schema.json, not in schema.ts".into() }],
                skipped: Vec::new(),
            },
        };
        definitions.push(report);
    }
    // Exported types schema.json leaves out. Inline types have generated names and are compared where used.
    for item in &module.items {
        let exported = matches!(item.origin, Origin::Declared { exported: true });
        if exported && !matches!(item.kind, ItemKind::Const(_)) && !theirs.defs.contains_key(&item.name) {
            definitions.push(DefinitionReport {
                name: item.name.clone(),
                differences: vec![Difference { definition: item.name.clone(), pointer: String::new(), kind: Kind::ExtraDefinition, detail: "exported by schema.ts, not defined in schema.json".into() }],
                skipped: Vec::new(),
            });
        }
    }
    definitions.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(TargetReport { target: target.clone(), definitions })
}

/// The module a type of `name` comes from when `module` takes types from it (`uses`), if that module has one.
fn imported_core(space: &TypeSpace, module: &crate::ir::Module, name: &str) -> Option<String> {
    module.uses.iter().map(|(m, _)| m).find(|m| space.module(m).is_some_and(|core| core.items.iter().any(|i| i.name == name))).cloned()
}

pub use crate::type_space;

/// A difference with the allowlist entry that covers it, if any.
#[derive(Debug, Clone)]
pub struct Judged {
    pub target: String,
    pub difference: Difference,
    pub allowed_by: Option<usize>,
}

/// The verification of every target against the allowlist.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub reports: Vec<TargetReport>,
    pub judged: Vec<Judged>,
    /// Allowlist entries (index) that match nothing in a verified target (named).
    pub stale: Vec<(usize, String)>,
    pub allowlist: Allowlist,
}

impl Verdict {
    pub fn new(reports: Vec<TargetReport>, allowlist: Allowlist) -> Verdict {
        let mut judged = Vec::new();
        let mut used = BTreeSet::new();
        for r in &reports {
            for d in r.definitions.iter().flat_map(|d| &d.differences) {
                let allowed_by = allowlist.entries.iter().position(|e| e.matches(&r.target.name, d));
                if let Some(i) = allowed_by {
                    used.insert((i, r.target.name.clone()));
                }
                judged.push(Judged { target: r.target.name.clone(), difference: d.clone(), allowed_by });
            }
        }
        let mut stale = Vec::new();
        for (i, e) in allowlist.entries.iter().enumerate() {
            let applicable: Vec<&str> = reports.iter().map(|r| r.target.name.as_str()).filter(|t| e.applies_to(t)).collect();
            let wildcard = e.versions.iter().any(|v| v == "*");
            if wildcard {
                if !applicable.is_empty() && !applicable.iter().any(|t| used.contains(&(i, t.to_string()))) {
                    stale.push((i, "any verified schema".to_string()));
                }
            } else {
                for t in applicable {
                    if !used.contains(&(i, t.to_string())) {
                        stale.push((i, t.to_string()));
                    }
                }
            }
        }
        Verdict { reports, judged, stale, allowlist }
    }

    fn definition_failed(&self, target: &str, definition: &str) -> bool {
        self.judged.iter().any(|j| j.target == target && j.difference.definition == definition && j.allowed_by.is_none())
    }

    /// (passed, failed) definitions over all targets.
    pub fn counts(&self) -> (usize, usize) {
        let mut passed = 0;
        let mut failed = 0;
        for r in &self.reports {
            for d in &r.definitions {
                if self.definition_failed(&r.target.name, &d.name) {
                    failed += 1;
                } else {
                    passed += 1;
                }
            }
        }
        (passed, failed)
    }

    pub fn ok(&self) -> bool {
        self.counts().1 == 0 && self.stale.is_empty()
    }

    /// The command's output: a line per target, then every failure and stale entry (with `verbose`, every
    /// allowed difference too), then the counts.
    pub fn render(&self, verbose: bool) -> String {
        let mut out = String::new();
        for r in &self.reports {
            let name = &r.target.name;
            let failed = r.definitions.iter().filter(|d| self.definition_failed(name, &d.name)).count();
            let allowed = self.judged.iter().filter(|j| &j.target == name && j.allowed_by.is_some()).count();
            let _ = write!(out, "verify {name}: {} definitions compared with {}, {} failed, {allowed} known differences allowed", r.definitions.len(), r.target.schema_json, failed);
            let mut skipped: BTreeSet<&str> = BTreeSet::new();
            for d in &r.definitions {
                skipped.extend(d.skipped.iter().map(|(_, t)| t.as_str()));
            }
            if r.target.flavor == Flavor::Extension {
                let _ = write!(
                    out,
                    "\n  an extension's schema.json (made from Zod): only its own definitions are compared, `{{}}` in a union is read as \
                     `undefined`; not compared: the {} core types it writes inline or defines beside its own ({})",
                    skipped.len(),
                    skipped.iter().map(|t| t.rsplit("::").next().unwrap_or(t)).collect::<Vec<_>>().join(", ")
                );
            }
            out.push('\n');
        }
        for j in self.judged.iter().filter(|j| verbose || j.allowed_by.is_none()) {
            let d = &j.difference;
            let pointer = if d.pointer.is_empty() { "\"\"" } else { &d.pointer };
            let status = match j.allowed_by {
                None => "FAIL".to_string(),
                Some(i) => format!("allowed by entry {}:", i + 1),
            };
            let _ = writeln!(out, "{status} {} {} {pointer} [{}]: {}", j.target, d.definition, d.kind.as_str(), d.detail);
        }
        for (i, where_) in &self.stale {
            let _ = writeln!(out, "STALE {} entry {} ({}): matches nothing in {where_}", allowlist::PATH, i + 1, self.allowlist.entries[*i].describe());
        }
        let (passed, failed) = self.counts();
        let _ = write!(out, "{passed} passed, {failed} failed");
        if !self.stale.is_empty() {
            let _ = write!(out, ", {} stale allowlist entries", self.stale.len());
        }
        out.push('\n');
        out
    }
}

/// Verifies every target of `config` in `space`; `read` returns a file's text by its path relative to the
/// upstream folder (each target's `schema.json`).
pub fn run(space: &TypeSpace, config: &Config, allowlist: Allowlist, read: &mut dyn FnMut(&str) -> Result<String, String>) -> Result<Verdict, String> {
    let mut reports = Vec::new();
    for target in targets(config) {
        let text = read(&target.schema_json)?;
        let official: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", target.schema_json))?;
        reports.push(compare_target(space, &target, &official)?);
    }
    Ok(Verdict::new(reports, allowlist))
}
