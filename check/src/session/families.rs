//! The session rule families behind one interface ([`Family`]) and run from one list
//! (`families!` in `session/mod.rs`): a new family is a module under `session/` with a `Rules`
//! type implementing the trait, and one line in that list, from which come the module, its
//! tables as a field of [`Stream`] (built in `Stream::new`, counted in `Stream::evicted`) and
//! its row of [`FAMILIES`](super::FAMILIES). A unit test fails when a file under `session/` is neither in the list
//! nor named as no family (a file outside the list is not compiled at all).

use super::{Msg, Sink, Stream};
use super::tools;
use crate::vocab::Outcome;

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

impl Runs {
    /// Whether the family runs at all with the `enabled` extensions.
    pub(crate) fn enabled(self, enabled: &[&str]) -> bool {
        match self {
            Runs::Core => true,
            Runs::Extension(name) | Runs::CoreWith(name) => enabled.contains(&name),
        }
    }

    /// Whether the family sees a message, `core` when it is one of a protocol version.
    pub(crate) fn sees(self, core: bool, enabled: &[&str]) -> bool {
        match self {
            Runs::Core => core,
            Runs::Extension(name) => enabled.contains(&name),
            Runs::CoreWith(name) => core && enabled.contains(&name),
        }
    }
}

/// What a family may use besides the stream's tables ([`Stream`]).
pub(crate) struct Cx<'a> {
    /// Whether the stream is a whole session (the module docs of `session`).
    pub whole: bool,
    /// Compiled tool schemas, kept across streams.
    pub schemas: &'a mut tools::SchemaCache,
}

/// What a family keeps for one stream: built from the bytes each table may hold, and what its bounded tables
/// forgot. A new stream and a bridge recording's other leg get their own.
pub(crate) trait Tables {
    fn new(bytes: usize) -> Self;
    /// Entries its bounded tables forgot.
    fn evicted(&self) -> u64 {
        0
    }
}

/// A family that keeps nothing (it reads the observer's observations).
impl Tables for () {
    fn new(_: usize) {}
}

/// One family of session rules: it sees each message once, after the checker typed it.
pub(crate) trait Family {
    const RUNS: Runs;
    /// Its tables, the field of [`Stream`] named as its module (`()`: none).
    type State: Tables;
    /// Reads `msg`, with the stream's tables (its own among them), and reports to `sink`.
    fn observe(stream: &mut Stream, cx: &mut Cx<'_>, msg: &Msg, sink: &mut Sink);
    /// Findings only the end of a whole session can show, each on the line it concerns (`strict`: `--strict`).
    fn finish(stream: &Stream, strict: bool) -> Vec<Outcome> {
        let _ = (stream, strict);
        Vec::new()
    }
}

/// A row of [`FAMILIES`](super::FAMILIES).
pub(crate) struct Entry {
    /// Read by the test that no family module is left out.
    #[cfg_attr(not(test), allow(dead_code))]
    pub module: &'static str,
    pub runs: Runs,
    pub observe: fn(&mut Stream, &mut Cx<'_>, &Msg, &mut Sink),
    pub finish: fn(&Stream, bool) -> Vec<Outcome>,
}

pub(crate) const fn entry<F: Family>(module: &'static str) -> Entry {
    Entry { module, runs: F::RUNS, observe: F::observe, finish: F::finish }
}

/// Declares, from one line per family (the module under `session/` that holds its `Rules`, in the order they
/// report), the modules, [`Stream`] with each family's tables as a field named as its module, `Stream::new`,
/// `Stream::evicted` and [`FAMILIES`](super::FAMILIES).
macro_rules! families {
    ($($(#[doc = $doc:literal])* $family:ident,)*) => {
        $(mod $family;)*

        /// One stream's session state (a bridge recording has one per leg): the observer, and every table a rule
        /// family keeps for the stream. A new stream replaces it whole and a leg switch swaps two of them, so
        /// neither can forget a table.
        pub(crate) struct Stream {
            /// Whether the stream's first message makes it a whole session (see the module docs).
            whole: Option<bool>,
            /// The one model of requests in flight, answers, cancellations, progress and the lifecycle.
            observer: Observer<Waiting>,
            $($(#[doc = $doc])* $family: <$family::Rules as families::Family>::State,)*
        }

        impl Stream {
            pub(crate) fn new(bytes: usize) -> Stream {
                Stream { whole: None, observer: observer(bytes), $($family: families::Tables::new(bytes),)* }
            }

            /// Entries its bounded tables forgot.
            pub(crate) fn evicted(&self) -> u64 {
                self.observer.forgotten() $(+ families::Tables::evicted(&self.$family))*
            }
        }

        /// Every family, in the order they report.
        pub(crate) const FAMILIES: &[families::Entry] = &[$(families::entry::<$family::Rules>(stringify!($family)),)*];
    };
}
pub(crate) use families;

#[cfg(test)]
mod tests {
    use super::super::FAMILIES;

    /// The modules under `session/` that hold no rule family.
    const NOT_FAMILIES: [&str; 4] = ["mod", "counts", "families", "schema_bounds"];

    /// A module under `session/` is a family in the list, or named in [`NOT_FAMILIES`]: a file the list leaves
    /// out is not compiled, so nothing else would notice it.
    #[test]
    fn every_family_module_is_in_the_table() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/session");
        let mut modules: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
        modules.sort();
        let missing: Vec<&String> = modules.iter().filter(|m| !NOT_FAMILIES.contains(&m.as_str()) && !FAMILIES.iter().any(|f| f.module == *m)).collect();
        println!("{} modules, {} families", modules.len(), FAMILIES.len());
        assert!(missing.is_empty(), "session modules left out of the families! list (session/mod.rs): {missing:?}");
    }
}
