//! `cargo test` catches drift too: the committed `generated/` must be exactly
//! what the generator makes from the pinned inputs (`cargo xtask codegen --check`
//! is the same check with a friendlier message).

use mcp_schema_tests::{workspace_root, Tally};

#[test]
fn generated_crate_matches_the_pinned_inputs() {
    let root = workspace_root();
    let config = mcp_schema_tests::config();
    let inputs = mcp_schema_tests::inputs(&config);
    let files = generator::generate(&inputs, &config).unwrap_or_else(|d| panic!("{d}"));
    let mut tally = Tally::default();
    for f in &files {
        // Of a hand-written file with a generated block (Cargo.toml), only the block is compared.
        let committed = std::fs::read_to_string(root.join("generated").join(&f.path)).ok().map(|text| text.replace("\r\n", "\n"));
        tally.check(match f.merged(committed.as_deref()) {
            Ok(wanted) if committed.as_deref() == Some(wanted.as_str()) => Ok(()),
            Ok(_) => Err(format!("generated/{} is stale: run `cargo xtask codegen`", f.path)),
            Err(e) => Err(format!("generated/{e}")),
        });
    }
    tally.finish("drift");
    // Same inputs, same bytes.
    assert_eq!(generator::generate(&inputs, &config).unwrap(), files);
}
