//! MCP Apps (`--ext apps`): a tool's UI resource exists. (That a `ui://` resource is read with
//! the MCP Apps MIME type is the validator's `apps.mime-type`: read contents carry their URI.)

use std::collections::BTreeMap;

use mcp_spec_types::validate::Severity;

use super::rules::{APPS_UI_MISSING, APPS_UI_RESOURCE};
use super::{resources, tools, Msg, Sink};
use crate::check::{Diag, Outcome};

/// A `resources/read` answered with an error: if a tool names that URI as its UI, the resource
/// it must have is missing.
pub(crate) fn observe(msg: &Msg, tools: &tools::State, sink: &mut Sink) {
    let Some(req) = &msg.answers else { return };
    if &*req.method != "resources/read" {
        return;
    }
    let (Some(uri), None) = (req.param_str("uri"), msg.result) else { return };
    let named_by = tools.tools.iter_in_order().find(|(_, t)| t.ui_uri.as_deref() == Some(uri));
    if let Some((name, t)) = named_by {
        let text = format!("reading `{uri}`, the UI resource of the tool `{name}` (line {}), failed", t.line);
        sink.report(&APPS_UI_MISSING, msg.pointer("/error"), text);
    }
}

/// The end of a whole session: tools whose UI resource was never listed nor read.
pub(crate) fn finish(strict: bool, tools: &tools::State, resources: &resources::State) -> Vec<Outcome> {
    let severity = if strict { Severity::Error } else { APPS_UI_RESOURCE.severity };
    let mut by_line: BTreeMap<u64, Vec<Diag>> = BTreeMap::new();
    for (name, t) in tools.tools.iter_in_order() {
        let Some(uri) = &t.ui_uri else { continue };
        if resources.seen_uris.contains(uri) {
            continue;
        }
        let message = format!("the UI resource `{uri}` of the tool `{name}` was never listed nor read in this session, so its existence is unconfirmed");
        by_line.entry(t.line).or_default().push(Diag { pointer: format!("{}/_meta/ui/resourceUri", t.pointer), rule: APPS_UI_RESOURCE.id, severity, message });
    }
    by_line.into_iter().map(|(line, diags)| Outcome { line, diags, ..Outcome::default() }).collect()
}
