//! Compiles the expected outputs of the generator goldens so they cannot rot.
//!
//! One module per valid case under `tests/goldens/`, mounted from its expected
//! source; the golden test fails when a valid case is missing here. Generated code
//! refers to `crate::runtime` and, across modules, to `crate::<module>`, so every
//! module sits at the crate root under the name its case configures.

#![forbid(unsafe_code)]

pub mod runtime {
    pub use mcp_spec_types::runtime::*;
}

pub mod validate {
    pub use mcp_spec_types::validate::*;
}

pub mod rpc {
    pub use mcp_spec_types::rpc::*;
}

pub mod write {
    pub use mcp_spec_types::write::*;
}

pub mod read {
    pub use mcp_spec_types::read::*;
}

pub mod tree {
    pub use mcp_spec_types::tree::*;
}

#[path = "../../goldens/bindings/expected.rs"]
pub mod bindings;
#[path = "../../goldens/builder_api/expected.rs"]
pub mod builder_api;
#[path = "../../goldens/boxed_fields/expected.rs"]
pub mod boxed_fields;
#[path = "../../goldens/constraint_tags/expected.rs"]
pub mod constraint_tags;
#[path = "../../goldens/intersection_alternatives/expected.rs"]
pub mod intersection_alternatives;
#[path = "../../goldens/docs_and_tags/expected.rs"]
pub mod docs_and_tags;
#[path = "../../goldens/extends_many/expected.rs"]
pub mod extends_many;
#[path = "../../goldens/extends_omit/expected.rs"]
pub mod extends_omit;
#[path = "../../goldens/field_literal/expected.rs"]
pub mod field_literal;
#[path = "../../goldens/field_override/expected.rs"]
pub mod field_override;
#[path = "../../goldens/float_literal_field/expected.rs"]
pub mod float_literal_field;
#[path = "../../goldens/imports/expected.imports_core.rs"]
pub mod imports_core;
#[path = "../../goldens/imports/expected.imports_ext.rs"]
pub mod imports_ext;
#[path = "../../goldens/index_signatures/expected.rs"]
pub mod index_signatures;
#[path = "../../goldens/indexed_access/expected.rs"]
pub mod indexed_access;
#[path = "../../goldens/inline_names/expected.rs"]
pub mod inline_names;
#[path = "../../goldens/inline_objects/expected.rs"]
pub mod inline_objects;
#[path = "../../goldens/intersection_alias/expected.rs"]
pub mod intersection_alias;
#[path = "../../goldens/intersection_error_field/expected.rs"]
pub mod intersection_error_field;
#[path = "../../goldens/keyed_literal_sets/expected.rs"]
pub mod keyed_literal_sets;
#[path = "../../goldens/lenient_same_field_name/expected.rs"]
pub mod lenient_same_field_name;
#[path = "../../goldens/literal_unions/expected.rs"]
pub mod literal_unions;
#[path = "../../goldens/nested_unions/expected.rs"]
pub mod nested_unions;
#[path = "../../goldens/never_and_null/expected.rs"]
pub mod never_and_null;
#[path = "../../goldens/number_literals/expected.rs"]
pub mod number_literals;
#[path = "../../goldens/records/expected.rs"]
pub mod records;
#[path = "../../goldens/recursive_alias/expected.rs"]
pub mod recursive_alias;
#[path = "../../goldens/recursive_struct/expected.rs"]
pub mod recursive_struct;
#[path = "../../goldens/requests_notifications/expected.rs"]
pub mod requests_notifications;
#[path = "../../goldens/shared_types/expected.shared_base.rs"]
pub mod shared_base;
#[path = "../../goldens/shared_types/expected.shared_next.rs"]
pub mod shared_next;
#[path = "../../goldens/single_or_array/expected.rs"]
pub mod single_or_array;
#[path = "../../goldens/tag_default/expected.rs"]
pub mod tag_default;
#[path = "../../goldens/tag_open_member/expected.rs"]
pub mod tag_open_member;
#[path = "../../goldens/tagged_method/expected.rs"]
pub mod tagged_method;
#[path = "../../goldens/tagged_type/expected.rs"]
pub mod tagged_type;
#[path = "../../goldens/typeof_consts/expected.rs"]
pub mod typeof_consts;
#[path = "../../goldens/typeof_declared_const/expected.rs"]
pub mod typeof_declared_const;
#[path = "../../goldens/union_by_keys/expected.rs"]
pub mod union_by_keys;
#[path = "../../goldens/union_by_kind/expected.rs"]
pub mod union_by_kind;
#[path = "../../goldens/union_kind_literal/expected.rs"]
pub mod union_kind_literal;
#[path = "../../goldens/union_with_catch_all/expected.rs"]
pub mod union_with_catch_all;

#[cfg(test)]
mod roundtrip;

/// The constraint tags' generated checks run: `@maxLength` and `@pattern` on `constraint_tags::Account`.
#[cfg(test)]
mod constraint_tags_run {
    use mcp_spec_types::validate::{validate_json, Options};
    use serde_json::json;

    #[test]
    fn length_and_pattern_are_checked() {
        let ok = json!({"handle": "ada_1", "avatar": "https://x/a.png", "ttlMs": null});
        assert!(validate_json::<super::constraint_tags::Account>(&ok, &Options::default()).violations.is_empty());
        let bad = json!({"handle": "Ada".repeat(11), "avatar": "ftp://x", "ttlMs": 9007199254740992_u64});
        let r = validate_json::<super::constraint_tags::Account>(&bad, &Options::default());
        let found: Vec<(&str, &str)> = r.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect();
        assert_eq!(found, [("max-length", "/handle"), ("pattern", "/handle"), ("pattern", "/avatar"), ("format.int", "/ttlMs")]);
    }
}

/// `Base & (Running | Done) & {...}`: one struct whose `state` holds either member's value.
#[cfg(test)]
mod intersection_alternatives_run {
    use super::intersection_alternatives::{Snapshot, StateState};
    use mcp_spec_types::validate::{validate_json, Options};
    use serde_json::json;

    #[test]
    fn every_members_literal_reads() {
        for (state, want) in [("running", StateState::Running), ("done", StateState::Done)] {
            let s: Snapshot = serde_json::from_value(json!({"id": "a", "state": state, "at": 1})).unwrap();
            assert_eq!(s.state, want);
        }
        let r = validate_json::<Snapshot>(&json!({"id": "a", "state": "paused", "at": 1}), &Options::default());
        assert_eq!(r.violations.iter().map(|v| (v.rule, v.pointer.as_str())).collect::<Vec<_>>(), [("enum", "/state")]);
    }
}
