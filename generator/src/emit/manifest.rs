//! The crate root and manifest, derived from the module list.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::config::{Config, ModuleConfig};
use crate::ir::TypeSpace;

/// What a module is, as the table of modules tells consumers.
fn kind(m: &ModuleConfig) -> &'static str {
    match (&m.overlay, &m.protocol) {
        (Some(_), _) => "overlay",
        (None, Some(_)) => "version",
        (None, None) => "extension",
    }
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
        let base = match (&m.overlay, &m.share_with) {
            (Some(_), Some(b)) => quote!(Some(#b)),
            _ => quote!(None),
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

pub fn lib_rs(space: &TypeSpace, config: &Config) -> TokenStream {
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
    let convert = (version_features(space, config).len() > 1).then(|| {
        quote! {
            #[cfg(feature = "convert")]
            #[cfg_attr(docsrs, doc(cfg(feature = "convert")))]
            pub mod convert;
        }
    });
    quote! {
        #![doc = include_str!("../README.md")]
        #![cfg_attr(docsrs, feature(doc_cfg))]
        #![forbid(unsafe_code)]

        pub mod negotiate;
        pub mod rpc;
        pub mod runtime;
        pub mod shortcuts;
        pub mod validate;
        pub mod write;
        mod read;
        pub use rpc::read_message;
        pub use runtime::{from_slice, from_str};
        pub use write::{to_string, to_vec, to_vec_into, to_writer};
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
        let base = match (&m.overlay, &m.share_with) {
            (Some(_), Some(b)) => b.as_str(),
            _ => "_",
        };
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

pub fn cargo_toml(space: &TypeSpace, config: &Config) -> String {
    let mut features = String::new();
    let latest = space.modules.iter().filter(|m| m.name.starts_with('v')).map(|m| m.feature.clone()).last().unwrap_or_default();
    features.push_str(&format!("default = [\"{latest}\"]\n"));
    let all: Vec<String> = space.modules.iter().map(|m| format!("\"{}\"", m.feature)).collect();
    features.push_str(&format!("full = [{}]\n", all.join(", ")));
    features.push_str("# Typed reading and validation by schema name at run time (`roundtrip_json`, `validate_json_as`), for tools.\ndynamic = []\n");
    let versions: Vec<String> = version_features(space, config).iter().map(|f| format!("\"{f}\"")).collect();
    if versions.len() > 1 {
        features.push_str(&format!("# Conversions between protocol versions (`convert`): needs every version module.\nconvert = [{}]\n", versions.join(", ")));
    }
    for m in &space.modules {
        let deps: Vec<String> = config
            .modules
            .iter()
            .find(|c| c.name == m.name)
            .map(|c| c.imports.values().chain(&c.share_with).filter_map(|target| space.module(target)).map(|t| format!("\"{}\"", t.feature)).collect())
            .unwrap_or_default();
        features.push_str(&format!("{} = [{}]\n", m.feature, deps.join(", ")));
    }
    format!(
        r#"# @generated by `cargo xtask codegen` from schema/codegen.toml. Do not edit.
[package]
name = "{name}"
version = "{version}"
description = "Typed, lossless Rust for every Model Context Protocol schema version and MCP Apps, generated from the spec's schema.ts."
edition.workspace = true
license.workspace = true
rust-version.workspace = true
readme = "README.md"
keywords = ["mcp", "model-context-protocol", "json-rpc", "serde"]
categories = ["encoding", "api-bindings"]

[dependencies]
# No `derive`: the generated and hand-written impls need only the traits, so a build skips syn and serde_derive.
serde = {{ version = "1", default-features = false, features = ["std"] }}
# float_roundtrip: floats are read exactly, so writing them back gives the same number.
# raw_value: unions decided by keys keep values as JSON text, not trees, until decided.
serde_json = {{ workspace = true, features = ["float_roundtrip", "raw_value"] }}
base64 = "0.22"

[features]
{features}
[package.metadata.docs.rs]
all-features = true
rustdoc-args = ["--cfg", "docsrs"]
"#,
        name = config.package.name,
        version = config.package.version,
    )
}
