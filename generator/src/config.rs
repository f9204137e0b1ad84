//! The project's declarative configuration (`schema/codegen.toml`): which inputs
//! become which modules, and every special case, each with its reason.

use serde::Deserialize;
use std::collections::BTreeMap;

/// Where the configuration lives, relative to the repository root.
pub const CONFIG_PATH: &str = "schema/codegen.toml";

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The module `latest` re-exports: the newest released protocol version.
    #[serde(default)]
    pub latest: Option<String>,
    /// How doc tests name the generated crate (the library name of `package` when unset).
    #[serde(default)]
    pub crate_name: Option<String>,
    /// The generated crate's package name, which generated docs import (`generated/Cargo.toml` has it too).
    #[serde(default)]
    pub package: Package,
    /// Inputs in generation order; a module may only import from modules listed before it.
    #[serde(rename = "module")]
    pub modules: Vec<ModuleConfig>,
    /// Schema types written as a fixed Rust type instead of being generated.
    #[serde(default)]
    pub bindings: BTreeMap<String, Binding>,
    /// Result types for requests that do not follow the `XRequest` -> `XResult` naming.
    #[serde(default)]
    pub request_results: BTreeMap<String, String>,
    /// Fields the schema requires that are read leniently (absent is accepted) and validated as required.
    #[serde(default, rename = "lenient_field")]
    pub lenient_fields: Vec<LenientField>,
    /// Fields a compatibility rule moves when reading an older form.
    #[serde(default, rename = "moved_field")]
    pub moved_fields: Vec<MovedField>,
    /// Fields whose value the spec fixes in prose rather than in the type.
    #[serde(default, rename = "field_literal")]
    pub field_literals: Vec<FieldLiteral>,
    /// Fields the schema leaves out that the protocol forbids: typed `never` (the key must be absent).
    #[serde(default, rename = "never_field")]
    pub never_fields: Vec<NeverField>,
    /// Untagged `number` fields that hold any JSON number (as if tagged `@TJS-type number`).
    #[serde(default, rename = "number_field")]
    pub number_fields: Vec<NumberField>,
    /// Names for inline types, keyed `Parent.field`, where the default `{Parent}{Field}` collides.
    #[serde(default)]
    pub inline_names: BTreeMap<String, String>,
    /// Rust names for fields, keyed `Type.field`, where the snake-case name collides.
    #[serde(default)]
    pub field_names: BTreeMap<String, String>,
    #[serde(default)]
    pub validation: Validation,
    /// Hand-written rules (in `generated/src/validate/`) attached to schema types.
    #[serde(default, rename = "check")]
    pub checks: Vec<Check>,
    /// Typed whole-message envelopes (`runtime::Message`), emitted in every module that has their types.
    #[serde(default, rename = "envelope")]
    pub envelopes: Vec<Envelope>,
    /// Unions the input does not declare, added to a module as if it did (`export type Name = A | B`).
    #[serde(default, rename = "union")]
    pub unions: Vec<DeclaredUnion>,
    /// Types stored behind a `Box` wherever a struct field holds them.
    #[serde(default, rename = "boxed")]
    pub boxed: Vec<Boxed>,
    /// Rust names for schema types whose own name would shadow a name of the standard prelude.
    #[serde(default, rename = "rename")]
    pub renames: Vec<Rename>,
    /// Error codes the spec's prose defines and a version's schema does not name, emitted as constants.
    #[serde(default, rename = "error_code")]
    pub error_codes: Vec<ErrorCode>,
    /// String enums whose declaration order means something (the derived `Ord` follows it), documented on the type.
    #[serde(default, rename = "ordered_enum")]
    pub ordered_enums: Vec<OrderedEnum>,
    /// Conversions between protocol versions (`mcp_spec_types::convert`): renames and refusals.
    #[serde(default)]
    pub convert: ConvertConfig,
    /// The text this was read from, so that diagnostics about it can name a line.
    #[serde(skip)]
    pub source: String,
}

/// `[convert]`: what the generated conversions between protocol versions cannot find in the IR.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ConvertConfig {
    /// Types that carry another name from one version on.
    #[serde(default, rename = "rename")]
    pub renames: Vec<ConvertRename>,
    /// Fields that must not be kept in `extra` when the target version lacks them: converting fails instead.
    #[serde(default, rename = "refuse")]
    pub refusals: Vec<ConvertRefusal>,
    /// The hand-written conversions between a version's core and an extension on another version
    /// (`generated/src/convert/<extension>.rs`): their cases, for `CONVERSIONS.md`.
    #[serde(default, rename = "extension")]
    pub extension_cases: Vec<ConvertExtensionCase>,
}

/// One case of a hand-written conversion to or from an extension, as a row of `CONVERSIONS.md`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvertExtensionCase {
    pub from: String,
    pub to: String,
    /// What the error's `case` says (`Where`).
    pub place: String,
    pub when: String,
    pub outcome: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvertRename {
    /// The schema name up to the version before `since`.
    pub from: String,
    /// The schema name from `since` on.
    pub to: String,
    /// The first module (a version) that uses `to`.
    pub since: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvertRefusal {
    /// The field's wire name, in every type that has it.
    pub field: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Boxed {
    /// Schema type names, in every module that has them.
    pub types: Vec<String>,
    pub reason: String,
}

/// A schema type emitted under another Rust name. Its schema name (`schema_name()`, validation messages,
/// the registry tables, `dynamic`) stays the schema's.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    #[serde(rename = "type")]
    pub type_name: String,
    pub rust: String,
    pub reason: String,
}

/// A `pub const NAME: i64` error code in the listed modules (all when empty).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorCode {
    pub name: String,
    pub code: i64,
    #[serde(default)]
    pub modules: Vec<String>,
    /// The constant's doc line.
    pub doc: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderedEnum {
    #[serde(rename = "type")]
    pub type_name: String,
    /// What the order is, for the docs: "severity".
    pub by: String,
    pub reason: String,
}

impl Config {
    /// The Rust name of a schema type: its own, unless a `[[rename]]` entry gives another.
    pub fn rust_type_name<'a>(&'a self, schema_name: &'a str) -> &'a str {
        self.renames.iter().find(|r| r.type_name == schema_name).map_or(schema_name, |r| r.rust.as_str())
    }

    /// Whether struct fields of this schema type are stored boxed.
    pub fn is_boxed(&self, type_name: &str) -> bool {
        self.boxed.iter().any(|b| b.types.iter().any(|t| t == type_name))
    }
}

/// `[package]`: what users depend on. The library keeps the package's name (with `_`), so the
/// import path is what the dependency line suggests. The version lives in the hand-written manifest only.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub name: String,
}

impl Default for Package {
    /// For configurations without `[package]` (golden cases), the project's own name.
    fn default() -> Package {
        Package { name: "mcp-spec-types".into() }
    }
}

impl Package {
    /// The library's name: the path users import.
    pub fn lib_name(&self) -> String {
        self.name.replace('-', "_")
    }
}

/// `[[union]]`: a union declared in the config for one module. Members the module's input does not
/// declare are imported from the module's one `[module.imports]` package.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclaredUnion {
    pub module: String,
    pub name: String,
    /// The type's docs.
    pub doc: String,
    pub members: Vec<String>,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    pub name: String,
    /// Who sends these messages, for the docs.
    pub sender: String,
    pub id: String,
    /// Tagged unions, read by `method`.
    pub request: String,
    pub notification: String,
    pub result: String,
    /// The error response type; the first name the module has is used (it was renamed in 2025-11-25).
    pub error: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Validation {
    /// The field whose keys follow the `_meta` naming rules.
    #[serde(default)]
    pub meta_field: Option<String>,
    /// The rule that checks `_meta` keys, given the keys the schema declares there.
    #[serde(default)]
    pub meta_check: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// Schema type names, in every module that has them.
    pub types: Vec<String>,
    /// Modules it applies to; empty means all.
    #[serde(default)]
    pub modules: Vec<String>,
    /// Function under `crate::validate`, called as `f(value, cx)`.
    pub run: String,
    /// Cargo feature the function needs.
    #[serde(default)]
    pub feature: Option<String>,
    /// `validate::Options` flag that turns the rule on.
    #[serde(default)]
    pub option: Option<String>,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleConfig {
    /// Rust module name, e.g. `v2025_11_25`.
    pub name: String,
    /// Cargo feature that enables the module.
    pub feature: String,
    /// Path of the input, relative to the synced upstream folder.
    pub input: String,
    /// One line for the module docs.
    pub title: String,
    /// How messages name this schema, e.g. `2025-11-25` or `MCP Apps`; the module name if unset.
    #[serde(default)]
    pub label: Option<String>,
    /// What an untagged TypeScript `number` means: `integer` (the spec's schemas, whose JSON Schema is made with
    /// `--defaultNumberType integer`) or `number`.
    #[serde(default)]
    pub untagged_number: UntaggedNumber,
    /// An overlay (path from the repository root) applied to `input`: with `protocol`, a proposal that stands in
    /// for that version's module; without, an extension stated on a core schema (its messages go along with it).
    #[serde(default)]
    pub overlay: Option<String>,
    /// Bare-module imports (`from "pkg"`) mapped to a generated module.
    #[serde(default)]
    pub imports: BTreeMap<String, String>,
    /// A module listed earlier whose identical types this one re-exports instead of compiling them again.
    #[serde(default)]
    pub share_with: Option<String>,
    /// The protocol version whose messages the module types (`2025-11-25`, `draft`); unset for an extension.
    /// A module with a protocol and no overlay is a protocol version.
    #[serde(default)]
    pub protocol: Option<String>,
    /// The module may change without notice (the draft and proposals on it).
    #[serde(default)]
    pub unreleased: bool,
}

#[derive(Debug, Clone, Copy, Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum UntaggedNumber {
    #[default]
    Integer,
    Number,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// Rust type path.
    pub rust: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LenientField {
    /// The declaring type; types that inherit the field inherit the leniency.
    #[serde(rename = "type")]
    pub type_name: String,
    pub field: String,
    /// The value constructors (`new`) write, for a string-enum field.
    #[serde(default)]
    pub write: Option<String>,
    pub reason: String,
}

/// Reading `type.field` (no longer defined) moves its value into the object in `type.into`, unless that object
/// already has the field; writing then uses the new place.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovedField {
    pub modules: Vec<String>,
    #[serde(rename = "type")]
    pub type_name: String,
    pub field: String,
    pub into: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldLiteral {
    /// Modules it applies to; empty means every module that has the type.
    #[serde(default)]
    pub modules: Vec<String>,
    #[serde(rename = "type")]
    pub type_name: String,
    pub field: String,
    pub value: String,
    pub reason: String,
}

/// A key the protocol forbids on a type: added as a `never` field, so that validation reports it and a union
/// decided by keys never takes an object that has it as this member.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NeverField {
    #[serde(rename = "type")]
    pub type_name: String,
    pub field: String,
    pub reason: String,
}

/// A field whose untagged `number`s (at any depth of its type: array elements, map values, union members) are
/// any JSON number rather than integers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberField {
    /// Modules it applies to; empty means every module that has the field.
    #[serde(default)]
    pub modules: Vec<String>,
    #[serde(rename = "type")]
    pub type_name: String,
    pub field: String,
    pub reason: String,
}

impl ModuleConfig {
    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.name)
    }
}

impl Config {
    pub fn from_toml(text: &str) -> Result<Config, String> {
        let mut config: Config = toml::from_str(text).map_err(|e| format!("{CONFIG_PATH}: {e}"))?;
        config.source = text.to_string();
        Ok(config)
    }

    /// Where `"value"` (quoted, as TOML writes a string) first appears in the configuration text;
    /// line 1, column 1 when it does not (a configuration built in code).
    pub fn locate(&self, value: &str) -> crate::diagnostics::Location {
        let quoted = format!("\"{value}\"");
        let (line, col) = self
            .source
            .lines()
            .enumerate()
            .find_map(|(i, l)| l.find(&quoted).map(|c| (i + 1, l[..c].chars().count() + 1)))
            .unwrap_or((1, 1));
        crate::diagnostics::Location { file: CONFIG_PATH.into(), line, col }
    }

    /// The files `generate` needs, each once, in module order: a module's upstream
    /// input, then its overlay. The caller reads them (the generator does no I/O).
    pub fn input_files(&self) -> Vec<InputFile> {
        let mut out: Vec<InputFile> = Vec::new();
        for m in &self.modules {
            let upstream = InputFile { path: m.input.clone(), origin: InputOrigin::Upstream };
            if !out.contains(&upstream) {
                out.push(upstream);
            }
            if let Some(overlay) = &m.overlay {
                out.push(InputFile { path: overlay.clone(), origin: InputOrigin::Project });
            }
        }
        out
    }

    /// [`Config::input_files`], each read by `read`: what `generate` takes.
    pub fn read_inputs<E>(&self, mut read: impl FnMut(&InputFile) -> Result<String, E>) -> Result<Vec<crate::Input>, E> {
        self.input_files().into_iter().map(|f| Ok(crate::Input { source: read(&f)?, path: f.path })).collect()
    }
}

/// A file the generator reads, named as `Input::path` must name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    pub path: String,
    pub origin: InputOrigin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputOrigin {
    /// Relative to the synced upstream folder (pinned in `schema/pins.toml`).
    Upstream,
    /// Relative to the repository root: the project's own overlay files.
    Project,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_files_name_each_upstream_file_once_and_every_overlay() {
        let config = Config::from_toml(
            r#"
            [[module]]
            name = "a"
            feature = "a"
            input = "spec/a.ts"
            title = "A"
            [[module]]
            name = "b"
            feature = "b"
            input = "spec/a.ts"
            title = "B"
            overlay = "schema/overlays/b.ts"
            [[module]]
            name = "c"
            feature = "c"
            input = "spec/c.ts"
            title = "C"
            "#,
        )
        .unwrap();
        let files: Vec<(String, InputOrigin)> = config.input_files().into_iter().map(|f| (f.path, f.origin)).collect();
        assert_eq!(
            files,
            [
                ("spec/a.ts".to_string(), InputOrigin::Upstream),
                ("schema/overlays/b.ts".to_string(), InputOrigin::Project),
                ("spec/c.ts".to_string(), InputOrigin::Upstream),
            ]
        );
    }
}
