//! `@maxLength` and `@pattern`: no published schema uses them yet (spec PR #2778 adds them to the draft), so
//! their cases call the checks the generated code calls; tests/goldens/constraint_tags shows the generated calls
//! and tests/golden-compile runs them on a generated type.

use super::{Case, Check};
use mcp_spec_types::tree::Doc;
use mcp_spec_types::validate::{Cx, Options, Pattern, Severity};
use serde_json::json;

pub fn cases() -> Vec<Case> {
    let max_length: Check = |v, o| {
        let doc = Doc::from_value(v);
        let mut cx = Cx::new(*o);
        cx.max_length(doc.root(), 4);
        cx.finish()
    };
    let pattern: Check = |v, o| {
        static P: std::sync::OnceLock<Pattern> = std::sync::OnceLock::new();
        let doc = Doc::from_value(v);
        let mut cx = Cx::new(*o);
        cx.pattern(doc.root(), P.get_or_init(|| Pattern::new("^(https://|data:)")));
        cx.finish()
    };
    vec![
        // Four characters of more than one byte each are four characters.
        Case { rule: "max-length", check: max_length, valid: json!("éééé"), invalid: json!("abcde"), pointer: "", severity: Severity::Error },
        Case { rule: "pattern", check: pattern, valid: json!("https://x/icon.png"), invalid: json!("javascript:alert(1)"), pointer: "", severity: Severity::Error },
    ]
}

#[test]
fn non_strings_are_the_type_rules_business() {
    let (number, array) = (Doc::parse("123456").unwrap(), Doc::parse(r#"["x"]"#).unwrap());
    let mut cx = Cx::new(Options::default());
    cx.max_length(number.root(), 2);
    cx.pattern(array.root(), &Pattern::new("^y"));
    assert!(cx.finish().violations.is_empty());
}
