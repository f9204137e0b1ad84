//! The schema modules the checker knows, as one table of function pointers, and
//! what it derives from each module's tables (method sets per side, type names).

use std::collections::{HashMap, HashSet};

use mcp_spec_types::runtime::dynamic::DynType;
use mcp_spec_types::validate::Options;

/// `<module>::dynamic`: a type's run-time entry points by schema name.
pub type DynamicFn = fn(&str) -> Option<&'static DynType>;

/// One generated module.
pub struct Module {
    /// What selects it: a protocol version (`2025-11-25`, `draft`) or an extension name (`apps`).
    pub name: &'static str,
    /// The Rust module (`v2025_11_25`).
    pub module: &'static str,
    /// `SCHEMA_LABEL`, used in messages.
    pub label: &'static str,
    pub dynamic: DynamicFn,
    pub requests: &'static [(&'static str, &'static str, &'static str)],
    pub notifications: &'static [(&'static str, &'static str)],
    pub types: &'static [(&'static str, &'static str)],
    pub union_members: &'static [(&'static str, &'static [&'static str])],
    /// Alias name -> the type it names (`ClientNotification` -> `CancelledNotification` in 2026-07-28).
    pub aliases: &'static [(&'static str, &'static str)],
}

macro_rules! module {
    ($name:literal, $m:ident) => {
        Module {
            name: $name,
            module: stringify!($m),
            label: mcp_spec_types::$m::SCHEMA_LABEL,
            dynamic: mcp_spec_types::$m::dynamic,
            requests: mcp_spec_types::$m::REQUESTS,
            notifications: mcp_spec_types::$m::NOTIFICATIONS,
            types: mcp_spec_types::$m::TYPES,
            union_members: mcp_spec_types::$m::UNION_MEMBERS,
            aliases: mcp_spec_types::$m::ALIASES,
        }
    };
}

/// Keeps the `version` rows of [`mcp_spec_types::for_each_module`], as `&[Module]`.
macro_rules! versions {
    (@ [$($out:tt)*]) => { &[$($out)*] };
    (@ [$($out:tt)*] version $m:ident $feature:literal $protocol:literal $base:tt; $($rest:tt)*) => {
        versions!(@ [$($out)* module!($protocol, $m),] $($rest)*)
    };
    (@ [$($out:tt)*] $kind:ident $m:ident $feature:literal $protocol:tt $base:tt; $($rest:tt)*) => {
        versions!(@ [$($out)*] $($rest)*)
    };
    ($($rows:tt)*) => { versions!(@ [] $($rows)*) };
}

/// Every protocol version, oldest first: the `version` modules of `schema/codegen.toml`.
pub static VERSIONS: &[Module] = mcp_spec_types::for_each_module!(versions);

/// The latest released version: what `--protocol auto` falls back to.
pub const LATEST: &str = latest_protocol();

/// The protocol of the module `mcp_spec_types::latest` re-exports (a compile error if there is none).
const fn latest_protocol() -> &'static str {
    use mcp_spec_types::modules::{LATEST, MODULES};
    let Some(latest) = LATEST else { panic!("schema/codegen.toml names no latest module") };
    let mut i = 0;
    while i < MODULES.len() {
        if same(MODULES[i].name, latest) {
            if let Some(protocol) = MODULES[i].protocol {
                return protocol;
            }
        }
        i += 1;
    }
    panic!("the latest module is not a protocol version")
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// An extension `--ext NAME` turns on: its module (messages whose method starts
/// with `prefix` are typed by it) and what it changes in the validator options.
pub struct Extension {
    /// The module's Cargo feature (`apps`, `resource-metadata`).
    pub name: &'static str,
    pub module: Module,
    /// Messages of the extension's own: methods starting with one of these (`ui/`; a whole method name
    /// names itself); none for an overlay.
    pub method_prefixes: &'static [&'static str],
    pub options: fn(&mut Options),
    /// A proposal overlay: the protocol version whose module this one stands in for.
    pub replaces: Option<&'static str>,
    /// An extension with its own channel (MCP Apps: view <-> host, `dir` `view2host`/`host2view`):
    /// the protocol version of the standard messages on it, whose types its unions take.
    pub channel_base: Option<&'static str>,
    /// An extension stated as an overlay on a protocol version's schema (Skills on 2026-07-28): it types
    /// sessions of that version or later only, and as its tables hold that version's messages too, only
    /// `method_prefixes` claim a message for it.
    pub on: Option<&'static str>,
}

impl Extension {
    /// Whether `method`, which the session's core (`version`, an index into [`VERSIONS`]) does not define,
    /// is the extension's, typed by `info` (its tables).
    pub fn claims(&self, info: &Info, version: usize, method: &str) -> bool {
        let own = self.owns(method);
        match self.on.map(version_index) {
            Some(first) => own && first.is_some_and(|first| version >= first),
            None => own || info.requests.contains_key(method) || info.notifications.contains_key(method),
        }
    }

    /// Whether `method` is one of the extension's own messages (by its prefixes), whatever the version.
    pub fn owns(&self, method: &str) -> bool {
        self.method_prefixes.iter().any(|p| method.starts_with(p))
    }

    /// Whether the extension is specified for `version` (an index into [`VERSIONS`]): from its `on` version on.
    pub fn exists_in(&self, version: usize) -> bool {
        self.on.and_then(version_index).is_none_or(|first| version >= first)
    }

    /// Why `method` cannot go to `version` (an index into [`VERSIONS`]), named to the reader as `carrier`;
    /// `None` where the extension exists. `convert` and the bridge both refuse with it.
    pub fn refusal(&self, method: &str, version: usize, carrier: &str) -> Option<String> {
        let first = self.on.unwrap_or("?");
        (!self.exists_in(version)).then(|| format!("`{}` is the {} extension's, which exists only from {first}: {carrier} cannot carry it", crate::bounded::clip(method), self.name))
    }
}

/// The extension stated on a protocol version (Skills, on 2026-07-28) that owns `method`, if any: its messages
/// exist from that version on, whatever the version's own tables hold.
pub fn versioned(method: &str) -> Option<&'static Extension> {
    EXTENSIONS.iter().find(|e| e.on.is_some() && e.owns(method))
}

/// What each extension or overlay changes beyond its types. A module of
/// `schema/codegen.toml` missing here is a compile error ("no rules expected").
macro_rules! extension {
    (apps, $name:literal, $module:expr, $replaces:expr) => {
        // The apps input's imports are bound to 2025-11-25 (`[module.imports]` in schema/codegen.toml).
        Extension { name: $name, module: $module, method_prefixes: &["ui/"], options: |o| o.apps = true, replaces: $replaces, channel_base: Some("2025-11-25"), on: None }
    };
    (tasks, $name:literal, $module:expr, $replaces:expr) => {
        // `tasks/*` and `notifications/tasks` on the client/server channel of 2026-07-28 (the input's imports are
        // bound to it); in a version whose core has tasks (2025-11-25) the core's types win.
        Extension { name: $name, module: $module, method_prefixes: &["tasks/"], options: |_| {}, replaces: $replaces, channel_base: None, on: None }
    };
    (resource_metadata, $name:literal, $module:expr, $replaces:expr) => {
        Extension { name: $name, module: $module, method_prefixes: &[], options: |_| {}, replaces: $replaces, channel_base: None, on: None }
    };
    (skills, $name:literal, $module:expr, $replaces:expr) => {
        // `skills/*` and `resources/directory/read` on the client/server channel, in sessions of 2026-07-28 or
        // later: the page specifies the extension against that revision (its module is 2026-07-28's schema.ts
        // with the page's types added, `schema/overlays/skills.ts`).
        Extension {
            name: $name,
            module: $module,
            method_prefixes: &["skills/", "resources/directory/read"],
            options: |_| {},
            replaces: $replaces,
            channel_base: None,
            on: Some("2026-07-28"),
        }
    };
}

/// Keeps the `extension` and `overlay` rows of [`mcp_spec_types::for_each_module`], as `&[Extension]`.
/// An overlay types its protocol's messages and stands in for that version's module.
macro_rules! extensions {
    (@ [$($out:tt)*]) => { &[$($out)*] };
    (@ [$($out:tt)*] extension $m:ident $feature:literal _ _; $($rest:tt)*) => {
        extensions!(@ [$($out)* extension!($m, $feature, module!($feature, $m), None),] $($rest)*)
    };
    (@ [$($out:tt)*] overlay $m:ident $feature:literal $protocol:literal $base:ident; $($rest:tt)*) => {
        extensions!(@ [$($out)* extension!($m, $feature, module!($protocol, $m), Some($protocol)),] $($rest)*)
    };
    (@ [$($out:tt)*] version $m:ident $feature:literal $protocol:tt $base:tt; $($rest:tt)*) => {
        extensions!(@ [$($out)*] $($rest)*)
    };
    ($($rows:tt)*) => { extensions!(@ [] $($rows)*) };
}

/// Every extension and overlay, in `schema/codegen.toml` order.
pub static EXTENSIONS: &[Extension] = mcp_spec_types::for_each_module!(extensions);

/// How a side's union (`ClientRequest`, ...) exists in a version.
pub enum Side {
    /// A union: the flattened member type names.
    Union(&'static str, HashSet<&'static str>),
    /// An alias of one type (e.g. `ClientNotification = CancelledNotification` in 2026-07-28).
    Alias(&'static str),
    /// The version has no such union (servers send no requests in 2026-07-28).
    Absent(&'static str),
}

impl Side {
    /// Whether the side's union holds `ty`; `None` when that cannot be told (an alias).
    pub fn holds(&self, ty: &str) -> Option<bool> {
        match self {
            Side::Union(_, members) => Some(members.contains(ty)),
            Side::Alias(_) => None,
            Side::Absent(_) => Some(false),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Side::Union(n, _) | Side::Alias(n) | Side::Absent(n) => n,
        }
    }
}

/// What the checker derives once from a module's tables.
pub struct Info {
    pub module: &'static Module,
    /// method -> (request type, result type)
    pub requests: HashMap<&'static str, (&'static str, &'static str)>,
    /// method -> notification type
    pub notifications: HashMap<&'static str, &'static str>,
    pub types: HashSet<&'static str>,
    pub client_requests: Side,
    pub server_requests: Side,
    pub client_notifications: Side,
    pub server_notifications: Side,
    /// `JSONRPCErrorResponse`, or `JSONRPCError` in the versions that call it so.
    pub error_response: Option<&'static str>,
    /// `JSONRPCResultResponse`, or `JSONRPCResponse` in the versions where that is the success response.
    pub result_response: Option<&'static str>,
    /// The version defines JSON-RPC batches (2025-03-26).
    pub batches: bool,
    /// `CreateTaskResult`, in the versions with tasks (2025-11-25).
    pub task_result: Option<&'static str>,
    /// Methods whose request params take `task` (`TaskAugmentedRequestParams`).
    pub task_methods: HashSet<&'static str>,
}

impl Info {
    pub fn new(module: &'static Module) -> Info {
        let types: HashSet<&'static str> = module.types.iter().map(|(n, _)| *n).collect();
        let kind = |name: &str| module.types.iter().find(|(n, _)| *n == name).map(|(_, k)| *k);
        let side = |name: &'static str| match kind(name) {
            Some("union") => {
                let members = module
                    .union_members
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, m)| m.iter().copied().collect())
                    .unwrap_or_default();
                Side::Union(name, members)
            }
            Some(_) => Side::Alias(name),
            None => Side::Absent(name),
        };
        let error_response = ["JSONRPCErrorResponse", "JSONRPCError"].into_iter().find(|t| types.contains(t));
        let result_response = if types.contains("JSONRPCResultResponse") {
            Some("JSONRPCResultResponse")
        } else if kind("JSONRPCResponse") == Some("struct") {
            Some("JSONRPCResponse")
        } else {
            None
        };
        Info {
            module,
            requests: module.requests.iter().map(|(m, req, res)| (*m, (*req, *res))).collect(),
            notifications: module.notifications.iter().map(|(m, t)| (*m, *t)).collect(),
            client_requests: side("ClientRequest"),
            server_requests: side("ServerRequest"),
            client_notifications: side("ClientNotification"),
            server_notifications: side("ServerNotification"),
            error_response,
            result_response,
            batches: types.contains("JSONRPCBatchRequest"),
            task_result: types.contains("CreateTaskResult").then_some("CreateTaskResult"),
            task_methods: if types.contains("CreateTaskResult") { task_methods(module) } else { HashSet::new() },
            types,
        }
    }
}

/// The requests whose params declare `task`. The tables name no fields, so each request type
/// is asked: a `task` of the wrong kind is reported at `/params/task` only where the params
/// type declares the key (elsewhere it is an unknown key, which params allow).
fn task_methods(module: &'static Module) -> HashSet<&'static str> {
    module
        .requests
        .iter()
        .filter(|(method, ty, _)| {
            let probe = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": method, "params": {"task": false}});
            (module.dynamic)(ty).is_some_and(|t| (t.validate)(&probe, &Options::default()).violations.iter().any(|v| v.pointer == "/params/task"))
        })
        .map(|(method, ..)| *method)
        .collect()
}

/// The version a protocol string names, by its index in [`VERSIONS`].
pub fn version_index(protocol: &str) -> Option<usize> {
    VERSIONS.iter().position(|m| m.name == protocol)
}

/// The names `--protocol` accepts, for messages.
pub fn version_names() -> String {
    let names: Vec<&str> = VERSIONS.iter().map(|m| m.name).collect();
    names.join(", ")
}

pub fn extension_names() -> String {
    let names: Vec<&str> = EXTENSIONS.iter().map(|e| e.name).collect();
    names.join(", ")
}

/// Every request and notification method of the versions and the extensions, from their tables.
pub fn methods() -> &'static HashSet<&'static str> {
    static METHODS: std::sync::OnceLock<HashSet<&'static str>> = std::sync::OnceLock::new();
    METHODS.get_or_init(|| {
        let modules = VERSIONS.iter().chain(EXTENSIONS.iter().map(|e| &e.module));
        modules.flat_map(|m| m.requests.iter().map(|r| r.0).chain(m.notifications.iter().map(|n| n.0))).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_of_versions_and_extensions() {
        let methods = methods();
        println!("{} methods", methods.len());
        for known in ["initialize", "server/discover", "tools/call", "notifications/initialized", "tasks/get", "skills/list", "ui/initialize"] {
            assert!(methods.contains(known), "{known}");
        }
        for unknown in ["tools/run", "notifications", "", "Tools/call"] {
            assert!(!methods.contains(unknown), "{unknown}");
        }
    }

    #[test]
    fn task_augmented_methods_come_from_the_types() {
        let methods = |v: &str| {
            let mut m: Vec<_> = Info::new(&VERSIONS[version_index(v).unwrap()]).task_methods.into_iter().collect();
            m.sort_unstable();
            m
        };
        assert_eq!(methods("2025-11-25"), ["elicitation/create", "sampling/createMessage", "tools/call"]);
        assert!(methods("2025-06-18").is_empty() && methods("2026-07-28").is_empty());
    }

    /// Every module of the crate is a version or an extension here, under the name users give.
    #[test]
    fn every_module_is_a_version_or_an_extension() {
        use mcp_spec_types::modules::{ModuleKind, MODULES};
        for m in MODULES {
            match m.kind {
                ModuleKind::Version => {
                    let v = VERSIONS.iter().find(|v| v.module == m.name).unwrap_or_else(|| panic!("{} is not in VERSIONS", m.name));
                    assert_eq!(Some(v.name), m.protocol);
                    assert_eq!(v.label, m.label);
                }
                ModuleKind::Extension | ModuleKind::Overlay => {
                    let e = EXTENSIONS.iter().find(|e| e.module.module == m.name).unwrap_or_else(|| panic!("{} is not in EXTENSIONS", m.name));
                    assert_eq!(e.name, m.feature);
                    assert_eq!(e.replaces, if m.kind == ModuleKind::Overlay { m.protocol } else { None });
                }
            }
        }
        assert_eq!(VERSIONS.len() + EXTENSIONS.len(), MODULES.len());
        assert_eq!(VERSIONS[version_index(LATEST).unwrap()].label, mcp_spec_types::latest::SCHEMA_LABEL);
    }
}
