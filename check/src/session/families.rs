//! The session rule families behind one interface ([`Family`]) and run from one table
//! ([`FAMILIES`]): a new family is a module under `session/` with a `Rules` type implementing the
//! trait, and one line in the table. A unit test fails when a module under `session/` is a family
//! left out of the table.

use super::{Msg, Sink, Stream};
use super::{apps, capabilities, lifecycle, progress, resources, skills, tasks, tools};

/// Which messages a family sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runs {
    /// The messages of a protocol version (not an extension's own, nor their answers).
    Core,
    /// Every message, with the extension (`--ext NAME`) enabled: its rules span its own messages and the core's.
    Extension(&'static str),
    /// The messages of a protocol version, with the extension (`--ext NAME`) enabled.
    CoreWith(&'static str),
}

/// What a family may use besides the stream's tables ([`Stream`]).
pub(crate) struct Cx<'a> {
    /// Whether the stream is a whole session (the module docs of `session`).
    pub whole: bool,
    /// Compiled tool schemas, kept across streams.
    pub schemas: &'a mut tools::SchemaCache,
}

/// One family of session rules: it sees each message once, after the checker typed it.
pub(crate) trait Family {
    /// The module under `session/` it lives in.
    const MODULE: &'static str;
    const RUNS: Runs;
    /// Reads `msg`, with the stream's tables (its own among them), and reports to `sink`.
    fn observe(stream: &mut Stream, cx: &mut Cx<'_>, msg: &Msg, sink: &mut Sink);
}

/// A row of [`FAMILIES`].
pub(crate) struct Entry {
    /// Read by the test that no family module is left out.
    #[cfg_attr(not(test), allow(dead_code))]
    pub module: &'static str,
    pub runs: Runs,
    pub observe: fn(&mut Stream, &mut Cx<'_>, &Msg, &mut Sink),
}

const fn entry<F: Family>() -> Entry {
    Entry { module: F::MODULE, runs: F::RUNS, observe: F::observe }
}

/// Every family, in the order they report (the extensions' first: they see every message).
pub(crate) const FAMILIES: &[Entry] = &[
    entry::<tasks::Rules>(),
    entry::<skills::Rules>(),
    entry::<lifecycle::Rules>(),
    entry::<capabilities::Rules>(),
    entry::<tools::Rules>(),
    entry::<resources::Rules>(),
    entry::<progress::Rules>(),
    entry::<apps::Rules>(),
];

#[cfg(test)]
mod tests {
    use super::FAMILIES;

    /// The modules under `session/` that hold no rule family.
    const NOT_FAMILIES: [&str; 3] = ["mod", "families", "schema_bounds"];

    /// A module under `session/` is a family in the table, or named in [`NOT_FAMILIES`].
    #[test]
    fn every_family_module_is_in_the_table() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/session");
        let mut modules: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
        modules.sort();
        let missing: Vec<&String> = modules.iter().filter(|m| !NOT_FAMILIES.contains(&m.as_str()) && !FAMILIES.iter().any(|f| f.module == *m)).collect();
        println!("{} modules, {} families", modules.len(), FAMILIES.len());
        assert!(missing.is_empty(), "session modules left out of FAMILIES (session/families.rs): {missing:?}");
        let unknown: Vec<&str> = FAMILIES.iter().map(|f| f.module).filter(|f| !modules.iter().any(|m| m == f)).collect();
        assert!(unknown.is_empty(), "FAMILIES names modules that do not exist: {unknown:?}");
    }
}
