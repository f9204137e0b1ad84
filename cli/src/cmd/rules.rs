//! `mcp-schema rules`: prints the rule catalogue ([`crate::rules::catalogue`]) as a table, as
//! JSON, or (for the docs) as Markdown.

use std::io::{self, Write};

use clap::Args;
use serde_json::{json, Value};

use crate::args::UsageError;
use crate::bounded::clip;
use crate::rules::{catalogue, Rule, FIRST};

pub const USAGE: &str = "mcp-schema rules [--json] [--area AREA] [ID...]";

const AFTER_HELP: &str = "\
Prints every rule `check`, `proxy` and `convert` can report: its id, severity
(error for the spec's MUST, warning for SHOULD; --strict makes warnings
errors), area, the versions it applies to, and where it comes from. An ID may
be one a rule had before (`session/lifecycle/initialize-first`), or a prefix of
ids ending at a dot (`session.tasks` selects every `session.tasks.*` rule).

exit status: 0, 2 usage error (also an ID or AREA that matches no rule, or
nothing both select).";

/// Lists the rules the checker reports.
#[derive(Debug, Args)]
#[command(args_override_self = true, after_help = AFTER_HELP)]
pub struct RulesCmd {
    /// A JSON array of objects (id, area, severity, since, until, source, was) instead of a table
    #[arg(long)]
    pub json: bool,
    /// Only the rules of AREA (`session`, `transport`, `stream`, `line`, `icon`, ...)
    #[arg(long, value_name = "AREA")]
    pub area: Option<String>,
    /// Only these rules (by id, by an id they had before, or by a prefix of ids ending at a dot: `session.tasks`)
    #[arg(value_name = "ID")]
    pub ids: Vec<String>,
}

/// Whether `id` names `r`: its id, an id it had before, or a prefix of its id ending at a dot.
fn names(r: &Rule, id: &str) -> bool {
    let prefix = id.strip_suffix('.').unwrap_or(id);
    r.id == id || r.was.contains(&id) || r.id.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('.'))
}

impl RulesCmd {
    /// The rules selected, in catalogue order.
    pub fn selected(&self) -> Vec<Rule> {
        let area = |r: &Rule| self.area.as_deref().is_none_or(|a| r.area == a);
        let named = |r: &Rule| self.ids.is_empty() || self.ids.iter().any(|i| names(r, i));
        catalogue().into_iter().filter(|r| area(r) && named(r)).collect()
    }
}

impl super::Cmd for RulesCmd {
    const NAME: &'static str = "rules";
    type Args = RulesCmd;

    /// The command, once every ID and the AREA name some rule and together select one: a filter that
    /// selects nothing is a mistyped name, not an empty catalogue.
    fn resolve(self) -> Result<RulesCmd, UsageError> {
        let all = catalogue();
        if let Some(a) = self.area.as_deref().filter(|a| !all.iter().any(|r| r.area == *a)) {
            let areas: std::collections::BTreeSet<&str> = all.iter().map(|r| r.area).collect();
            return Err(UsageError(format!("no rule has the area `{}` (the areas: {})", clip(a), areas.into_iter().collect::<Vec<_>>().join(", "))));
        }
        if let Some(id) = self.ids.iter().find(|i| !all.iter().any(|r| names(r, i))) {
            return Err(UsageError(format!("no rule is named `{}` (an id, an id a rule had before, or a prefix of ids such as `session.tasks`; `mcp-schema rules` lists them)", clip(id))));
        }
        if let (Some(a), true) = (self.area.as_deref(), self.selected().is_empty()) {
            return Err(UsageError(format!("none of the rules named is of the area `{}`", clip(a))));
        }
        Ok(self)
    }

    /// Prints the selected rules to standard output.
    fn run(c: &RulesCmd) -> i32 {
        let rules = c.selected();
        let text = if c.json { format!("{}\n", serde_json::to_string_pretty(&to_json(&rules)).unwrap_or_default()) } else { table(&rules) };
        let _ = io::stdout().lock().write_all(text.as_bytes());
        0
    }

    fn usage(_: &[String]) -> &'static str {
        USAGE
    }
}


/// The versions a rule applies to, in words: `all`, `2025-03-26 on`, `2025-11-25`, `2025-03-26 to 2025-11-25`.
pub fn versions(r: &Rule) -> String {
    match r.until {
        None if r.since == FIRST => "all".into(),
        None => format!("{} on", r.since),
        Some(u) if u == r.since => u.into(),
        Some(u) => format!("{} to {u}", r.since),
    }
}

/// One object per rule.
pub fn to_json(rules: &[Rule]) -> Value {
    Value::Array(rules.iter().map(|r| json!({"id": r.id, "area": r.area, "severity": r.severity_name(), "since": r.since, "until": r.until, "source": r.source, "was": r.was})).collect())
}

/// A text table: id, severity, area and versions in aligned columns, then the source (and `was`).
pub fn table(rules: &[Rule]) -> String {
    let rows: Vec<[String; 5]> = rules.iter().map(|r| [r.id.into(), r.severity_name().into(), r.area.into(), versions(r), with_was(r)]).collect();
    let head = ["RULE", "SEVERITY", "AREA", "VERSIONS", "SOURCE"].map(String::from);
    let mut widths = [0; 4];
    for row in std::iter::once(&head).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&head).chain(&rows) {
        for (w, cell) in widths.iter().zip(row) {
            out.push_str(&format!("{cell:<w$}  "));
        }
        out.push_str(&row[4]);
        out.push('\n');
    }
    out
}

fn with_was(r: &Rule) -> String {
    match r.was {
        [] => r.source.into(),
        was => format!("{} (was: {})", r.source, was.join(", ")),
    }
}

/// A Markdown table of `rules` (the docs' tables are this, between their BEGIN/END markers).
pub fn markdown(rules: &[Rule]) -> String {
    let mut out = String::from("| Rule | Severity | Versions | Where it comes from (in short) | Was |\n|---|---|---|---|---|\n");
    for r in rules {
        let was: Vec<String> = r.was.iter().map(|w| format!("`{w}`")).collect();
        out.push_str(&format!("| `{}` | {} | {} | {} | {} |\n", r.id, r.severity_name(), versions(r), r.source.replace('|', "\\|"), was.join(", ")));
    }
    out
}

/// `docs/rules.md`: every rule, one table per area in catalogue order.
pub fn document() -> String {
    let all = catalogue();
    let mut areas: Vec<&str> = Vec::new();
    for r in &all {
        if !areas.contains(&r.area) {
            areas.push(r.area);
        }
    }
    let mut out = String::from(
        "# The rule catalogue\n\nEvery rule `mcp-schema check`, `proxy` and `convert` can report, and the validator \
         (`mcp_spec_types::validate`) with them: generated from the catalogue (`mcp-schema rules` prints the same; \
         `UPDATE_RULES=1 cargo test -p mcp-spec-types-cli --test rules` rewrites this file, the test fails when it is stale). \
         Severity: error for the spec's MUST, warning for its SHOULD (`--strict` makes warnings errors). Versions: the \
         protocol versions the rule applies to. Was: the id the rule had before.\n",
    );
    for area in areas {
        let rules: Vec<Rule> = all.iter().filter(|r| r.area == area).copied().collect();
        let plural = if rules.len() == 1 { "" } else { "s" };
        out.push_str(&format!("\n## `{area}` ({} rule{plural})\n\n", rules.len()));
        out.push_str(&markdown(&rules));
    }
    out
}
