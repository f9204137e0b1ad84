//! `cargo xtask schema diff` against committed output: 2025-11-25 -> 2026-07-28 as text and JSON in
//! `tests/goldens-diff/` (`UPDATE_GOLDENS=1` rewrites them), plus the changes that diff must always show.

use generator::diff::{self, render, Diff};
use generator::ir::TypeSpace;
use mcp_schema_tests::{workspace_root, Tally};

fn config() -> generator::Config {
    mcp_schema_tests::config()
}

/// Every module's IR, from the synced inputs and the repository's overlays.
fn type_space(config: &generator::Config) -> TypeSpace {
    let inputs = mcp_schema_tests::inputs(config);
    generator::verify::type_space(&inputs, config).unwrap_or_else(|d| panic!("{d}"))
}

fn diff_of(space: &TypeSpace, config: &generator::Config, a: &str, b: &str) -> Diff {
    let find = |name: &str| diff::find_module(space, config, name).unwrap_or_else(|| panic!("no module `{name}`"));
    diff::diff(find(a), find(b))
}

/// Compares `actual` with the committed file, or writes it under `UPDATE_GOLDENS=1`.
fn golden(tally: &mut Tally, file: &str, actual: &str) {
    let path = workspace_root().join("tests/goldens-diff").join(file);
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default().replace("\r\n", "\n");
    tally.check(if expected == actual {
        Ok(())
    } else {
        let first = expected.lines().zip(actual.lines()).position(|(e, a)| e != a).unwrap_or(expected.lines().count().min(actual.lines().count()));
        Err(format!("tests/goldens-diff/{file} differs from the diff's output from line {} (run with UPDATE_GOLDENS=1 to bless)", first + 1))
    });
}

#[test]
fn diff_2025_11_25_to_2026_07_28() {
    let config = config();
    let space = type_space(&config);
    let d = diff_of(&space, &config, "2025-11-25", "2026-07-28");
    let text = render::text(&d, "2025-11-25", "2026-07-28");
    let mut tally = Tally::default();
    golden(&mut tally, "2025-11-25..2026-07-28.txt", &text);
    golden(&mut tally, "2025-11-25..2026-07-28.json", &render::json(&d));

    // What the release notes of 2026-07-28 must not miss, whatever the golden says.
    let must_show = [
        "  - initialize (InitializeRequest -> InitializeResult)",
        "  - ping (PingRequest -> EmptyResult)",
        "  + server/discover (DiscoverRequest -> DiscoverResult)",
        "  + subscriptions/listen (SubscriptionsListenRequest -> SubscriptionsListenResult)",
        "  - notifications/initialized (InitializedNotification)",
        "  + -32022: UNSUPPORTED_PROTOCOL_VERSION, UnsupportedProtocolVersionError",
        "  + -32021: MISSING_REQUIRED_CLIENT_CAPABILITY, MissingRequiredClientCapabilityError",
        "  + -32020: HEADER_MISMATCH, HeaderMismatchError",
    ];
    for line in must_show {
        tally.check(if text.lines().any(|l| l == line) { Ok(()) } else { Err(format!("the text diff lacks the line `{line}`")) });
    }
    // `resultType` is required on every result; `_meta` on every request's params.
    let changed = |name: &str| d.types.changed.iter().find(|c| c.name == name);
    for result in ["Result", "CallToolResult", "ListToolsResult", "ReadResourceResult", "GetPromptResult", "CompleteResult"] {
        let added = changed(result).and_then(|c| c.fields_added.iter().find(|f| f.name == "resultType"));
        tally.check(match added {
            Some(f) if f.required => Ok(()),
            other => Err(format!("{result}: expected `resultType` added as required, got {other:?}")),
        });
    }
    for params in ["RequestParams", "CallToolRequestParams", "PaginatedRequestParams", "ReadResourceRequestParams", "GetPromptRequestParams"] {
        let meta = changed(params).and_then(|c| c.fields_changed.iter().find(|f| f.name == "_meta"));
        tally.check(match meta.and_then(|f| f.required.as_ref()) {
            Some(r) if !r.from && r.to => Ok(()),
            _ => Err(format!("{params}: expected `_meta` optional -> required, got {meta:?}")),
        });
    }
    tally.finish("schema diff 2025-11-25 -> 2026-07-28");
}

#[test]
fn renames_and_empty_diffs() {
    let config = config();
    let space = type_space(&config);
    let d = diff_of(&space, &config, "2025-03-26", "2025-06-18");
    assert!(d.types.renamed.iter().any(|r| r.from == "ResourceReference" && r.to == "ResourceTemplateReference"), "{:?}", d.types.renamed);
    assert!(!d.types.removed.iter().any(|t| t.name == "ResourceReference"), "a renamed type is not also removed");

    let same = diff_of(&space, &config, "v2025_11_25", "2025-11-25");
    assert!(same.is_empty(), "{same:#?}");
    assert!(render::text(&same, "v2025_11_25", "2025-11-25").ends_with("\nno changes\n"));

    // Backwards is the mirror image.
    let forward = diff_of(&space, &config, "2025-11-25", "2026-07-28");
    let backward = diff_of(&space, &config, "2026-07-28", "2025-11-25");
    let names = |v: &[diff::Method]| v.iter().map(|m| m.method.clone()).collect::<Vec<_>>();
    assert_eq!(names(&forward.requests.added), names(&backward.requests.removed));
    assert_eq!(names(&forward.requests.removed), names(&backward.requests.added));
    assert_eq!(forward.error_codes.added, backward.error_codes.removed);
}
