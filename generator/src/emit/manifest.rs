//! What the module list of `schema/codegen.toml` puts into the crate around the version modules.
//!
//! The crate's root (`src/lib.rs`) and its manifest (`Cargo.toml`) are hand-written: the runtime, the
//! validators and the package metadata are not generated, so their files are not either. The generator
//! writes only what follows from the module list:
//!
//! - `src/generated/modules.rs`, a whole generated file that the root pulls in with `include!`: one
//!   `#[cfg(feature)] pub mod` per module, `latest`, the table `modules` and `for_each_module!`.
//!   `include!` rather than a child module because the version modules must sit at the crate root
//!   (`mcp_spec_types::v2025_11_25`); `mod` items of an included file resolve next to that file, which
//!   is `src/` like the root.
//! - The `[features]` of the modules (one per module, `full`, `default`), as a marked block of the
//!   hand-written `Cargo.toml` ([`FEATURES_BEGIN`] .. [`FEATURES_END`]). A block, not a check that asks
//!   for edits: adding a module changes three lines there (its feature, `full`, perhaps `default`), and
//!   adding a version stays a `[[module]]` entry plus `cargo xtask codegen`. `codegen --check` compares
//!   only the block, so the manifest's other lines are free to edit.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::config::{Config, ModuleConfig};
use crate::ir::TypeSpace;

/// What a module is, as the table of modules tells consumers. An overlay stands in for the version it
/// names in `protocol`; one without `protocol` is an extension written on a core schema (Skills on
/// 2026-07-28), whose messages go along with that version's.
fn kind(m: &ModuleConfig) -> &'static str {
    match (&m.overlay, &m.protocol) {
        (Some(_), Some(_)) => "overlay",
        (None, Some(_)) => "version",
        (_, None) => "extension",
    }
}

/// The module an overlay stands in for; `None` for any other kind.
fn stands_in_for(m: &ModuleConfig) -> Option<&str> {
    (kind(m) == "overlay").then_some(m.share_with.as_deref()).flatten()
}

/// `pub mod modules`: the table of modules as data (see [`for_each_module`] for the same table for macros).
fn module_table(space: &TypeSpace, config: &Config) -> TokenStream {
    let modules: Vec<&ModuleConfig> = space.modules.iter().filter_map(|m| config.modules.iter().find(|c| c.name == m.name)).collect();
    let rows = modules.iter().map(|m| {
        let (name, feature, label) = (&m.name, &m.feature, m.label());
        let kind = format_ident!(
            "{}",
            match kind(m) {
                "version" => "Version",
                "overlay" => "Overlay",
                _ => "Extension",
            }
        );
        let protocol = match &m.protocol {
            Some(p) => quote!(Some(#p)),
            None => quote!(None),
        };
        let base = match stands_in_for(m) {
            Some(b) => quote!(Some(#b)),
            None => quote!(None),
        };
        let released = !m.unreleased;
        quote! {
            ModuleInfo { name: #name, label: #label, feature: #feature, kind: ModuleKind::#kind, protocol: #protocol, base: #base, released: #released },
        }
    });
    let latest = match &config.latest {
        Some(l) => quote!(Some(#l)),
        None => quote!(None),
    };
    quote! {
        /// Every module of this crate, as data: generated from `schema/codegen.toml`, in its order.
        pub mod modules {
            /// What a module is.
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub enum ModuleKind {
                /// A protocol version (`v2025_11_25`, `draft`).
                Version,
                /// An extension whose messages go along with a protocol version's (`apps`).
                Extension,
                /// A proposal applied to a protocol version, standing in for its module.
                Overlay,
            }

            /// One module of this crate.
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub struct ModuleInfo {
                /// The Rust module (`v2025_11_25`).
                pub name: &'static str,
                /// How messages name the schema (the module's `SCHEMA_LABEL`).
                pub label: &'static str,
                /// The Cargo feature that enables the module.
                pub feature: &'static str,
                /// A protocol version, an extension or an overlay.
                pub kind: ModuleKind,
                /// The protocol version whose messages the module types (`2025-11-25`, `draft`); `None` for an extension.
                pub protocol: Option<&'static str>,
                /// For an overlay: the module it stands in for.
                pub base: Option<&'static str>,
                /// `false` for the draft and proposals on it, which change without notice.
                pub released: bool,
            }

            /// Every module, whether or not its feature is on.
            pub const MODULES: &[ModuleInfo] = &[#(#rows)*];

            /// The module `latest` re-exports.
            pub const LATEST: Option<&str> = #latest;
        }

    }
}

/// The folder of the generated crate that the generator owns: every whole file it writes lands
/// here, and `cargo xtask codegen` removes any other file it finds here. Hand-written code stays
/// outside it, so tools and readers that skip generated code still see the runtime.
pub const GENERATED_DIR: &str = "src/generated";

/// `src/generated/modules.rs`: the module declarations, `latest` and the table of modules, included by the
/// hand-written root (see [`for_each_module`] for the macro that follows them).
pub fn modules_rs(space: &TypeSpace, config: &Config) -> TokenStream {
    let mods = space.modules.iter().map(|m| {
        let name = format_ident!("{}", m.name);
        let feature = &m.feature;
        quote! {
            #[cfg(feature = #feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = #feature)))]
            pub mod #name;
        }
    });
    let latest = config.latest.as_ref().and_then(|l| space.module(l)).map(|m| {
        let name = format_ident!("{}", m.name);
        let feature = &m.feature;
        let doc = format!(" The newest released protocol version: [`{}`].", m.name);
        quote! {
            #[doc = #doc]
            #[cfg(feature = #feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = #feature)))]
            pub mod latest {
                pub use crate::#name::*;
            }
        }
    });
    let table = module_table(space, config);
    // `mod` items of this file resolve in its own folder, where only generated files live; the
    // conversions' front (`Convert`, routes) is hand-written beside the root.
    let convert_path = "../convert/mod.rs";
    let convert = (version_features(space, config).len() > 1).then(|| {
        quote! {
            #[cfg(feature = "convert")]
            #[cfg_attr(docsrs, doc(cfg(feature = "convert")))]
            #[path = #convert_path]
            pub mod convert;
        }
    });
    quote! {
        #(#mods)*
        #latest
        #table
        #convert
    }
}

/// `for_each_module!`, the table of modules for macros, so that code enumerating modules (the CLI, fuzz
/// targets, tests) follows `schema/codegen.toml`. Written as text: a formatter would run the entries together.
pub fn for_each_module(space: &TypeSpace, config: &Config) -> String {
    let mut entries = String::new();
    for m in space.modules.iter().filter_map(|m| config.modules.iter().find(|c| c.name == m.name)) {
        let protocol = m.protocol.as_ref().map_or("_".to_string(), |p| format!("{p:?}"));
        let base = stands_in_for(m).unwrap_or("_");
        entries.push_str(&format!("            {} {} {:?} {protocol} {base};\n", kind(m), m.name, m.feature));
    }
    format!(
        r#"
/// Calls `$callback!` with every module, in `schema/codegen.toml` order, one per line:
/// `kind name "feature" "protocol"|_ base|_;` where kind is `version`, `extension` or `overlay`
/// and base is the module an overlay stands in for. `for_each_module!(cb, args...)` passes
/// `(args...)` before the rows. For crates that enable every module (`full`): a module whose
/// feature is off does not compile.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_module {{
    ($callback:ident) => {{
        $callback! {{
{entries}        }}
    }};
    ($callback:ident, $($args:tt)*) => {{
        $callback! {{
            ($($args)*)
{entries}        }}
    }};
}}
"#
    )
}

/// The features of the protocol version modules, which `convert` converts between.
fn version_features(space: &TypeSpace, config: &Config) -> Vec<String> {
    config.modules.iter().filter(|c| c.protocol.is_some() && c.overlay.is_none()).filter_map(|c| space.module(&c.name)).map(|m| m.feature.clone()).collect()
}

/// The first line of the generated block in the hand-written `Cargo.toml`.
pub const FEATURES_BEGIN: &str = "# BEGIN generated by `cargo xtask codegen` from schema/codegen.toml: edit that file, not the lines up to END.";
/// Its last line.
pub const FEATURES_END: &str = "# END generated by `cargo xtask codegen`";

/// The features of the modules, markers included: `default` (the `latest` module's), `full` (every
/// module) and one per module, enabling the modules it imports from or shares with.
pub fn features_block(space: &TypeSpace, config: &Config) -> String {
    let feature_list = |features: Vec<&str>| features.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(", ");
    let default = config.latest.as_ref().and_then(|l| space.module(l)).map(|m| m.feature.as_str());
    let mut block = format!("{FEATURES_BEGIN}\n");
    block.push_str(&format!("default = [{}]\n", feature_list(default.into_iter().collect())));
    block.push_str(&format!("full = [{}]\n", feature_list(space.modules.iter().map(|m| m.feature.as_str()).collect())));
    for m in &space.modules {
        let enables: Vec<&str> = config
            .modules
            .iter()
            .find(|c| c.name == m.name)
            .map(|c| c.imports.values().chain(&c.share_with).filter_map(|target| space.module(target)).map(|t| t.feature.as_str()).collect())
            .unwrap_or_default();
        block.push_str(&format!("{} = [{}]\n", m.feature, feature_list(enables)));
    }
    let versions = version_features(space, config);
    if versions.len() > 1 {
        block.push_str("# Conversions between protocol versions (`convert`): needs every version module.\n");
        block.push_str(&format!("convert = [{}]\n", feature_list(versions.iter().map(String::as_str).collect())));
    }
    block.push_str(FEATURES_END);
    block.push('\n');
    block
}
