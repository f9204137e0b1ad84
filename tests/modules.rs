//! The table of modules (`mcp_spec_types::modules`, `for_each_module!`) is `schema/codegen.toml`, and the
//! hand-written per-version lists keep up with it. Code built from `for_each_module!` (the CLI's version
//! table, fuzz targets, example tests) follows the config by itself or fails to compile; the lists below
//! cannot (each starts at the version that introduced its feature), so a version added to the config and
//! forgotten in one of them fails here.

use mcp_spec_types::modules::{ModuleInfo, ModuleKind, MODULES};
use mcp_schema_tests::{config, workspace_root};

#[test]
fn the_table_is_the_config() {
    let config = config();
    let expected: Vec<ModuleInfo> = config
        .modules
        .iter()
        .map(|m| ModuleInfo {
            name: leak(&m.name),
            label: leak(m.label()),
            feature: leak(&m.feature),
            kind: match (&m.overlay, &m.protocol) {
                (Some(_), _) => ModuleKind::Overlay,
                (None, Some(_)) => ModuleKind::Version,
                (None, None) => ModuleKind::Extension,
            },
            protocol: m.protocol.as_deref().map(leak),
            base: m.overlay.as_ref().and(m.share_with.as_deref()).map(leak),
            released: !m.unreleased,
        })
        .collect();
    assert_eq!(MODULES, expected.as_slice());
    assert_eq!(mcp_spec_types::modules::LATEST, config.latest.as_deref());
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
    let released: Vec<&ModuleInfo> = MODULES.iter().filter(|m| m.kind == ModuleKind::Version && m.released).collect();
    let mut problems = Vec::new();
    for file in HAND_WRITTEN_LISTS {
        let text = std::fs::read_to_string(workspace_root().join(file)).unwrap();
        for (list, named) in lists(&text) {
            problems.extend(missing(&released, &named).into_iter().map(|m| format!("{file}: `{list}!` has no line for `{}` (feature \"{}\")", m.name, m.feature)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The released versions after the first one `named` holds that it lacks.
fn missing<'a>(released: &[&'a ModuleInfo], named: &[&str]) -> Vec<&'a ModuleInfo> {
    let Some(first) = released.iter().position(|m| named.contains(&m.name)) else { return Vec::new() };
    released[first..].iter().filter(|m| !named.contains(&m.name)).copied().collect()
}

/// Each top-level macro call in `text` (a line starting `name!(`, up to `);`), with the modules it
/// names as `"feature", module` or `"feature" => module`. Calls that name no module are left out.
fn lists(text: &str) -> Vec<(String, Vec<&'static str>)> {
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
        let named: Vec<&'static str> = MODULES
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
    let found = lists(text);
    assert_eq!(found[0].0, "icon_info");
    assert_eq!(found[1], ("tool".to_string(), vec!["v2024_11_05", "v2025_03_26"]));
    let newest = released.last().unwrap().name;
    assert!(missing(&released, &found[0].1).iter().any(|m| m.name == newest));
    // A list that names every released version from its first one is complete.
    let all: Vec<&str> = released.iter().map(|m| m.name).collect();
    assert!(missing(&released, &all[1..]).is_empty());
}
