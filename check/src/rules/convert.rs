//! Why `convert` refuses a message (area `convert`, after the source passed `check`'s rules): a
//! stable id, and where the refusal comes from. Every one is an error: the message is left out of
//! the output.

use mcp_spec_types::validate::Severity;

pub use super::Rule;

const fn refusal(id: &'static str, source: &'static str) -> Rule {
    super::rule(id, "convert", Severity::Error, source)
}

pub static DIRECTION: Rule = refusal(
    "convert.direction",
    "generated/CONVERSIONS.md, `ServerRequest` rows: the target's sender sends no such message (2026-07-28: \"the target's server sends no requests\"); an answer to a request refused so is refused too",
);
pub static METHOD: Rule = refusal("convert.method", "the method registry of the source or the target version has no such request or notification");
pub static RESPONSE: Rule = refusal("convert.response", "a result is typed by the request it answers: none seen in the stream, or a method one version lacks");
pub static REFUSED: Rule = refusal("convert.refused", "generated/CONVERSIONS.md: a case whose row says `error` (the reason names the step and the case)");
pub static TARGET_INVALID: Rule = refusal("convert.target-invalid", "the target version's validation rules, run on the converted value (errors only)");
pub static SOURCE: Rule = refusal("convert.source", "the value does not read as its source type (the typed read before converting)");
pub static TYPE: Rule = refusal("convert.type", "a type or message kind one of the versions does not have (not an object, no error response type, no conversion)");
pub static BATCH: Rule = refusal("convert.batch", "2025-03-26 is the only version that defines JSON-RPC batches");

/// Every refusal rule.
pub static RULES: &[&Rule] = &[&DIRECTION, &METHOD, &RESPONSE, &REFUSED, &TARGET_INVALID, &SOURCE, &TYPE, &BATCH];
