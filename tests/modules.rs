//! The table of modules (`mcp_spec_types::modules`, `for_each_module!`) is `schema/codegen.toml`, and the
//! hand-written per-version lists keep up with it. Code built from `for_each_module!` (the CLI's version
//! table, fuzz targets, example tests) follows the config by itself or fails to compile; the lists below
//! cannot (each starts at the version that introduced its feature), so a version added to the config and
//! forgotten in one of them fails here.

use mcp_spec_types::modules::{ModuleInfo, ModuleKind, MODULES};
use mcp_schema_tests::{config, workspace_root, Tally};

#[test]
fn the_table_is_the_config() {
    let config = config();
    assert_eq!(MODULES, table(&config).as_slice());
    assert_eq!(mcp_spec_types::modules::LATEST, config.latest.as_deref());
}

/// The table of modules `config` makes, as `MODULES` holds it.
fn table(config: &generator::Config) -> Vec<ModuleInfo> {
    config
        .modules
        .iter()
        .map(|m| ModuleInfo {
            name: leak(&m.name),
            label: leak(m.label()),
            feature: leak(&m.feature),
            // An overlay without `protocol` is an extension stated on a core schema (Skills), not a stand-in.
            kind: match (&m.overlay, &m.protocol) {
                (Some(_), Some(_)) => ModuleKind::Overlay,
                (None, Some(_)) => ModuleKind::Version,
                (_, None) => ModuleKind::Extension,
            },
            protocol: m.protocol.as_deref().map(leak),
            base: m.overlay.as_ref().and(m.protocol.as_ref()).and(m.share_with.as_deref()).map(leak),
            released: !m.unreleased,
        })
        .collect()
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

#[test]
fn for_each_module_lists_the_table() {
    macro_rules! names {
        ($($kind:ident $m:ident $feature:literal $protocol:tt $base:tt;)*) => {
            vec![$((stringify!($kind), stringify!($m), $feature)),*]
        };
    }
    let listed: Vec<(&str, &str, &str)> = mcp_spec_types::for_each_module!(names);
    let table: Vec<(&str, &str, &str)> = MODULES.iter().map(|m| (kind_word(m.kind), m.name, m.feature)).collect();
    assert_eq!(listed, table);
}

fn kind_word(kind: ModuleKind) -> &'static str {
    match kind {
        ModuleKind::Version => "version",
        ModuleKind::Extension => "extension",
        ModuleKind::Overlay => "overlay",
    }
}

/// Hand-written files with per-version macro calls (`name!("feature", module ...)`).
const HAND_WRITTEN_LISTS: &[&str] = &["generated/src/shortcuts.rs", "generated/src/validate/apps.rs", "generated/src/validate/icons.rs"];

#[test]
fn hand_written_lists_name_every_later_released_version() {
    let problems = hand_written_list_problems(MODULES);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One line per hand-written list that lacks a released version of `table` it should name.
fn hand_written_list_problems(table: &[ModuleInfo]) -> Vec<String> {
    let released: Vec<&ModuleInfo> = table.iter().filter(|m| m.kind == ModuleKind::Version && m.released).collect();
    let mut problems = Vec::new();
    for file in HAND_WRITTEN_LISTS {
        let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
        for (list, named) in lists(table, &text) {
            problems.extend(missing(&released, &named).into_iter().map(|m| format!("{file}: `{list}!` has no line for `{}` (feature \"{}\")", m.name, m.feature)));
        }
    }
    problems
}

/// The released versions after the first one `named` holds that it lacks.
fn missing<'a>(released: &[&'a ModuleInfo], named: &[&str]) -> Vec<&'a ModuleInfo> {
    let Some(first) = released.iter().position(|m| named.contains(&m.name)) else { return Vec::new() };
    released[first..].iter().filter(|m| !named.contains(&m.name)).copied().collect()
}

/// Each top-level macro call in `text` (a line starting `name!(`, up to `);`), with the modules of
/// `table` it names as `"feature", module` or `"feature" => module`. Calls that name none are left out.
fn lists(table: &[ModuleInfo], text: &str) -> Vec<(String, Vec<&'static str>)> {
    let mut out: Vec<(String, Vec<&'static str>)> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("\n") {
        rest = &rest[start + 1..];
        let Some(bang) = rest.find("!(") else { break };
        let name = &rest[..bang];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            continue;
        }
        let end = rest.find(");").unwrap_or(rest.len());
        let call = &rest[bang + 2..end];
        let named: Vec<&'static str> = table
            .iter()
            .filter(|m| [format!("\"{}\", {}", m.feature, m.name), format!("\"{}\" => {}", m.feature, m.name)].iter().any(|p| call.contains(p.as_str())))
            .map(|m| m.name)
            .collect();
        if named.is_empty() {
            continue;
        }
        match out.iter_mut().find(|(n, _)| n == name) {
            Some((_, all)) => all.extend(named),
            None => out.push((name.to_string(), named)),
        }
    }
    out
}

#[test]
fn a_forgotten_version_is_reported() {
    let released: Vec<&ModuleInfo> = MODULES.iter().filter(|m| m.kind == ModuleKind::Version && m.released).collect();
    let text = "\nicon_info!(\"v2025-11-25\" => v2025_11_25);\ntool!(\"v2024-11-05\", v2024_11_05);\ntool!(\"v2025-03-26\", v2025_03_26);\n";
    let found = lists(MODULES, text);
    assert_eq!(found[0].0, "icon_info");
    assert_eq!(found[1], ("tool".to_string(), vec!["v2024_11_05", "v2025_03_26"]));
    let newest = released.last().unwrap().name;
    assert!(missing(&released, &found[0].1).iter().any(|m| m.name == newest));
    // A list that names every released version from its first one is complete.
    let all: Vec<&str> = released.iter().map(|m| m.name).collect();
    assert!(missing(&released, &all[1..]).is_empty());
}

/// Code that enumerates modules through `for_each_module!` and so follows the table by itself. Where it
/// needs something per module (the fuzz targets' `fuzzed!` rules), a module without it does not compile.
const DERIVED_FROM_THE_TABLE: &[(&str, &str)] = &[
    ("check/src/versions.rs", "for_each_module!(versions)"),
    ("check/src/versions.rs", "for_each_module!(extensions)"),
    ("fuzz/src/lib.rs", "for_each_module!(every_module)"),
    ("tests/spec_examples.rs", "for_each_module!(example_tests)"),
];

#[test]
fn module_lists_outside_the_generator_derive_from_the_table() {
    let problems: Vec<String> = DERIVED_FROM_THE_TABLE
        .iter()
        .filter(|(file, call)| !std::fs::read_to_string(workspace_root().join(file)).unwrap().contains(call))
        .map(|(file, call)| format!("{file} no longer builds its list with `{call}`: a new module would be missed there"))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The modules of `table` that `fuzz/src/lib.rs` has no `fuzzed!` rule for. The fuzz crate is outside the
/// workspace and `cargo xtask test` does not build it, so its compile error would go unseen until someone fuzzes.
fn modules_without_fuzz_rules(table: &[ModuleInfo]) -> Vec<&'static str> {
    let text = std::fs::read_to_string(workspace_root().join("fuzz/src/lib.rs")).unwrap();
    table.iter().filter(|m| !text.contains(&format!("\n    ({}) => {{", m.name))).map(|m| m.name).collect()
}

#[test]
fn fuzz_targets_cover_every_module() {
    assert_eq!(modules_without_fuzz_rules(MODULES), Vec::<&str>::new(), "add a `fuzzed!` rule to fuzz/src/lib.rs for each");
}

/// A seventh protocol version as a maintainer adds one: a `[[module]]` entry and `latest` moved to it.
/// It reuses 2026-07-28's input under a new name, which is all the generator needs to know.
const SEVENTH_VERSION: &str = r#"[[module]]
name = "v2027_01_01"
feature = "v2027-01-01"
input = "mcp-spec/schema/2026-07-28/schema.ts"
title = "MCP protocol version 2027-01-01."
label = "2027-01-01"
protocol = "2027-01-01"

"#;

/// `schema/codegen.toml` with the seventh version added before `draft`, as the releases are ordered.
fn config_with_a_seventh_version() -> generator::Config {
    let text = std::fs::read_to_string(workspace_root().join(generator::config::CONFIG_PATH)).unwrap();
    let (latest, draft) = ("latest = \"v2026_07_28\"\n", "[[module]]\nname = \"draft\"\n");
    assert!(text.contains(latest) && text.contains(draft), "the test edits these lines of the configuration: {latest:?}, {draft:?}");
    let text = text.replacen(latest, "latest = \"v2027_01_01\"\n", 1).replacen(draft, &format!("{SEVENTH_VERSION}{draft}"), 1);
    generator::Config::from_toml(&text).unwrap()
}

/// Adding a version is a config entry plus `cargo xtask codegen`: the generator writes the module file,
/// its declaration and table rows, its features and the conversions to its neighbours, and nothing else
/// changes. Every place outside the
/// generator follows the table or fails a check: the hand-written per-version lists and the fuzz
/// targets are reported (below), the CLI's version table and the spec-example tests derive from it.
#[test]
fn a_seventh_version_reaches_every_place_or_fails_a_check() {
    let config = config_with_a_seventh_version();
    let files = generator::generate(&mcp_schema_tests::inputs(&config), &config).unwrap_or_else(|d| panic!("{d}"));
    let mut tally = Tally::default();

    // What `cargo xtask codegen` would write.
    let generated = workspace_root().join("generated");
    let mut written = Vec::new();
    let mut after = std::collections::HashMap::new();
    for f in &files {
        let committed = std::fs::read_to_string(generated.join(&f.path)).ok().map(|t| t.replace("\r\n", "\n"));
        let wanted = f.merged(committed.as_deref()).unwrap_or_else(|e| panic!("{e}"));
        if committed.as_deref() != Some(wanted.as_str()) {
            written.push(f.path.as_str());
        }
        after.insert(f.path.as_str(), wanted);
    }
    // The new module, its declaration and table rows, its features, and the conversions to and from its
    // neighbours (the pair it now stands between, 2026-07-28 and draft, is no longer adjacent).
    let mut expected = vec![
        "src/generated/v2027_01_01.rs",
        "src/generated/modules.rs",
        "Cargo.toml",
        "src/generated/convert/v2026_07_28_v2027_01_01.rs",
        "src/generated/convert/v2027_01_01_draft.rs",
        "src/generated/convert/mod.rs",
        "src/generated/convert/chains.rs",
        "CONVERSIONS.md",
    ];
    expected.sort_unstable();
    written.sort_unstable();
    tally.check(if written == expected {
        Ok(())
    } else {
        Err(format!("codegen would write {written:?}, not {expected:?}"))
    });
    tally.check(if files.iter().any(|f| f.path == "src/generated/convert/v2026_07_28_draft.rs") {
        Err("the conversions between 2026-07-28 and draft are still adjacent".to_string())
    } else {
        Ok(())
    });
    let expect = |tally: &mut Tally, file: &str, needs: &[&str]| {
        for need in needs {
            let text = after.get(file).map_or("", |t| t.as_str());
            tally.check(if text.contains(need) { Ok(()) } else { Err(format!("{file} has no `{need}`")) });
        }
    };
    expect(&mut tally, "src/generated/v2027_01_01.rs", &["pub const SCHEMA_LABEL: &str = \"2027-01-01\";"]);
    expect(
        &mut tally,
        "src/generated/modules.rs",
        &[
            "#[cfg(feature = \"v2027-01-01\")]\n#[cfg_attr(docsrs, doc(cfg(feature = \"v2027-01-01\")))]\npub mod v2027_01_01;",
            "pub mod latest {\n    pub use crate::v2027_01_01::*;\n}",
            "name: \"v2027_01_01\",\n            label: \"2027-01-01\",\n            feature: \"v2027-01-01\",\n            kind: ModuleKind::Version,\n            protocol: Some(\"2027-01-01\"),",
            "pub const LATEST: Option<&str> = Some(\"v2027_01_01\");",
            "            version v2026_07_28 \"v2026-07-28\" \"2026-07-28\" _;\n            version v2027_01_01 \"v2027-01-01\" \"2027-01-01\" _;\n            version draft",
        ],
    );
    expect(&mut tally, "Cargo.toml", &["\ndefault = [\"v2027-01-01\"]\n", "\"v2026-07-28\", \"v2027-01-01\", \"draft\"", "\nv2027-01-01 = []\n"]);
    expect(&mut tally, "Cargo.toml", &["\nconvert = [\"v2024-11-05\", \"v2025-03-26\", \"v2025-06-18\", \"v2025-11-25\", \"v2026-07-28\", \"v2027-01-01\", \"draft\"]\n"]);
    expect(&mut tally, "CONVERSIONS.md", &["| 2026-07-28 | 2027-01-01 |"]);

    // The places outside the generator: each hand-written list that names the newest version today
    // reports the new one missing, and so do the fuzz targets.
    let table = table(&config);
    let newest = MODULES.iter().rfind(|m| m.kind == ModuleKind::Version && m.released).unwrap().name;
    let lists_with_newest: usize = HAND_WRITTEN_LISTS
        .iter()
        .map(|file| lists(MODULES, &std::fs::read_to_string(workspace_root().join(file)).unwrap()).iter().filter(|(_, named)| named.contains(&newest)).count())
        .sum();
    let problems = hand_written_list_problems(&table);
    tally.check(if lists_with_newest > 0 && problems.len() == lists_with_newest && problems.iter().all(|p| p.contains("no line for `v2027_01_01`")) {
        Ok(())
    } else {
        Err(format!("expected the {lists_with_newest} lists naming `{newest}` to miss `v2027_01_01`, got:\n{}", problems.join("\n")))
    });
    tally.check(match modules_without_fuzz_rules(&table).as_slice() {
        ["v2027_01_01"] => Ok(()),
        other => Err(format!("the fuzz check should miss only `v2027_01_01`, found {other:?}")),
    });
    tally.finish("seventh version");
}
