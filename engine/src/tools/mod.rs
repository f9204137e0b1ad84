//! Tools from Rust types (feature `tools`): a tool's `inputSchema` and `outputSchema` from types
//! that derive [`JsonSchema`], its arguments read into the input type (a bad value becomes an
//! `isError` result naming its JSON pointer), structured results from any `impl Serialize`, and
//! an optional [`Router`] that answers `tools/list` and `tools/call`.
//!
//! Everything is written for the protocol version the session speaks, given as its string
//! (`"2025-11-25"`), so one definition serves every version:
//!
//! - `inputSchema` has `"type": "object"` at its root, as every version requires; a type whose
//!   schema is not an object is a [`SchemaError`]. Subschemas are inlined (an enum field lists its
//!   values where it is used, not behind a `$ref`), except where a type is recursive.
//! - The dialect is JSON Schema 2020-12. From 2025-11-25 on it is the default the spec names, so
//!   no `$schema` is written; earlier versions name no default, so the schema says it.
//! - `outputSchema` and `structuredContent` exist from 2025-06-18. Until 2026-07-28 both must be
//!   objects: an output type that is not is sent as text only. 2026-07-28 takes any JSON value.
//! - A structured result also carries its JSON as a text block, which the spec recommends for
//!   clients that do not read `structuredContent` (and which is all that 2024-11-05 and 2025-03-26
//!   clients get).
//! - 2026-07-28 results carry `"resultType": "complete"`.
//!
//! Typed values come from the same JSON: [`ToolDef::to_tool`] and [`ToolResult::to_result`] read
//! it as any enabled version's `Tool` and `CallToolResult`.
//!
//! ```
//! # #[cfg(feature = "v2025-11-25")] {
//! use mcp_spec_engine::tools::{Router, ToolDef};
//! use mcp_spec_types::v2025_11_25::Tool;
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//! use serde_json::json;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Add { a: i64, b: i64 }
//! #[derive(Serialize, JsonSchema)]
//! struct Sum { sum: i64 }
//!
//! // The context is whatever the caller's loop hands each call (progress, cancellation); here none.
//! let router = Router::<()>::new()
//!     .tool("add", "Adds two integers", |args: Add, _: &mut ()| Ok(Sum { sum: args.a + args.b }))
//!     .unwrap();
//!
//! let tool: Tool = ToolDef::new::<Add>("add").unwrap().output::<Sum>().to_tool().unwrap();
//! assert_eq!(tool.input_schema.required, Some(vec!["a".to_string(), "b".to_string()]));
//!
//! let call = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
//! let result = router.call("2025-11-25", Some(&call), &mut ()).unwrap();
//! assert_eq!(result["structuredContent"], json!({"sum": 5}));
//! assert_eq!(result["content"][0]["text"], "{\"sum\":5}");
//!
//! // A bad argument is the tool's error, for the model to correct, with the value's JSON pointer.
//! let call = json!({"name": "add", "arguments": {"a": 2, "b": "three"}});
//! let result = router.call("2025-11-25", Some(&call), &mut ()).unwrap();
//! assert_eq!(result["isError"], true);
//! assert!(result["content"][0]["text"].as_str().unwrap().contains("`/b`"));
//! # }
//! ```

mod router;
#[cfg(test)]
mod tests;

pub use router::Router;
pub use schemars::JsonSchema;

use std::fmt;

use schemars::generate::SchemaSettings;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The JSON Schema dialect of every schema here; the default from 2025-11-25 on.
pub const DIALECT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

// Versions compare as strings: dates in order, then "draft".
fn since(version: &str, first: &str) -> bool {
    version >= first
}

/// A type whose schema cannot be a tool's `inputSchema`, or a name used twice in a [`Router`].
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaError {
    /// The root of the schema is not `"type": "object"` (tool arguments are always an object).
    NotObject { tool: String, schema: Value },
    /// A [`Router`] already has a tool of this name.
    DuplicateName(String),
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SchemaError::NotObject { tool, schema } => write!(f, "tool `{tool}`: the arguments type's schema is not `\"type\": \"object\"`: {schema}"),
            SchemaError::DuplicateName(name) => write!(f, "a tool named `{name}` is already routed"),
        }
    }
}

impl std::error::Error for SchemaError {}

/// The 2020-12 schema of `T` as an object, without `$schema` and the type's Rust name as `title`.
/// `serialize`: the schema of what `T` writes (outputs) rather than what it reads (arguments).
pub fn schema_of<T: JsonSchema>(serialize: bool) -> Map<String, Value> {
    let settings = SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let settings = if serialize { settings.for_serialize() } else { settings.for_deserialize() };
    let mut schema = match settings.into_generator().into_root_schema_for::<T>().to_value() {
        Value::Object(o) => o,
        // `true` accepts anything, `false` nothing: the same as these objects.
        Value::Bool(true) => Map::new(),
        _ => json!({"not": {}}).as_object().cloned().unwrap_or_default(),
    };
    schema.remove("title");
    schema
}

fn is_object_schema(schema: &Map<String, Value>) -> bool {
    schema.get("type") == Some(&Value::from("object"))
}

/// A tool as every version lists it: name, optional title and description, and its schemas.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    name: String,
    title: Option<String>,
    description: Option<String>,
    input: Map<String, Value>,
    output: Option<Map<String, Value>>,
}

impl ToolDef {
    /// A tool whose arguments read as `In`; [`SchemaError::NotObject`] unless `In`'s schema is an object.
    pub fn new<In: JsonSchema>(name: impl Into<String>) -> Result<Self, SchemaError> {
        let name = name.into();
        let mut input = schema_of::<In>(false);
        if !is_object_schema(&input) {
            return Err(SchemaError::NotObject { tool: name, schema: Value::Object(input) });
        }
        // The spec types each property schema as an object; a boolean schema says the same as one.
        if let Some(Value::Object(properties)) = input.get_mut("properties") {
            for schema in properties.values_mut() {
                match schema {
                    Value::Bool(true) => *schema = json!({}),
                    Value::Bool(false) => *schema = json!({"not": {}}),
                    _ => {}
                }
            }
        }
        Ok(ToolDef { name, title: None, description: None, input, output: None })
    }

    /// The tool's structured results are `Out`s (the schema of what `Out` serializes to).
    pub fn output<Out: JsonSchema>(mut self) -> Self {
        self.output = Some(schema_of::<Out>(true));
        self
    }

    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// A display name (2025-06-18 and later list it).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// `inputSchema` as written from 2025-11-25 on.
    pub fn input_schema(&self) -> &Map<String, Value> {
        &self.input
    }

    pub fn output_schema(&self) -> Option<&Map<String, Value>> {
        self.output.as_ref()
    }

    /// The tool as `version` lists it in `tools/list`.
    pub fn to_json(&self, version: &str) -> Value {
        let dialect = |mut schema: Map<String, Value>| {
            if !since(version, "2025-11-25") {
                schema.insert("$schema".into(), Value::from(DIALECT_2020_12));
            }
            Value::Object(schema)
        };
        let mut tool = Map::new();
        tool.insert("name".into(), Value::from(self.name.as_str()));
        if let (Some(title), true) = (&self.title, since(version, "2025-06-18")) {
            tool.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(description) = &self.description {
            tool.insert("description".into(), Value::from(description.as_str()));
        }
        tool.insert("inputSchema".into(), dialect(self.input.clone()));
        if let Some(output) = self.output.as_ref().filter(|o| output_allowed(version, is_object_schema(o))) {
            tool.insert("outputSchema".into(), dialect(output.clone()));
        }
        Value::Object(tool)
    }

    /// The tool as a version's `Tool` (e.g. `v2025_11_25::Tool`).
    pub fn to_tool<T: Versioned + DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_value(self.to_json(T::VERSION))
    }
}

// Whether `version` has `outputSchema`/`structuredContent` for a value of this shape.
fn output_allowed(version: &str, object: bool) -> bool {
    since(version, "2025-06-18") && (object || since(version, "2026-07-28"))
}

/// A type of one protocol version's module, tied to that version's string.
pub trait Versioned {
    const VERSION: &'static str;
}

macro_rules! versioned {
    ($($feature:literal $module:ident $version:literal;)*) => {$(
        #[cfg(feature = $feature)]
        impl Versioned for mcp_spec_types::$module::Tool { const VERSION: &'static str = $version; }
        #[cfg(feature = $feature)]
        impl Versioned for mcp_spec_types::$module::CallToolResult { const VERSION: &'static str = $version; }
        #[cfg(feature = $feature)]
        impl Versioned for mcp_spec_types::$module::ListToolsResult { const VERSION: &'static str = $version; }
    )*};
}

versioned! {
    "v2024-11-05" v2024_11_05 "2024-11-05";
    "v2025-03-26" v2025_03_26 "2025-03-26";
    "v2025-06-18" v2025_06_18 "2025-06-18";
    "v2025-11-25" v2025_11_25 "2025-11-25";
    "v2026-07-28" v2026_07_28 "2026-07-28";
}
// The draft module's tool types are 2026-07-28's.

/// Arguments that do not read as the tool's input type: where, and what was expected.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgumentError {
    /// The JSON pointer of the bad value within `arguments` (`""`: the arguments object itself,
    /// e.g. for a missing field).
    pub pointer: String,
    /// What was wrong, as serde words it (`unknown variant `km`, expected `m` or `ft``).
    pub message: String,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.pointer.as_str() {
            "" => write!(f, "invalid arguments at `` (the arguments object): {}", self.message),
            pointer => write!(f, "invalid arguments at `{pointer}`: {}", self.message),
        }
    }
}

impl std::error::Error for ArgumentError {}

/// Reads a `tools/call`'s `arguments` as `T` (absent arguments read as `{}`).
pub fn arguments<T: DeserializeOwned>(arguments: Option<&Map<String, Value>>) -> Result<T, ArgumentError> {
    let value = Value::Object(arguments.cloned().unwrap_or_default());
    serde_path_to_error::deserialize(value).map_err(|e| {
        let mut pointer = String::new();
        for segment in e.path().iter() {
            use serde_path_to_error::Segment;
            let token = match segment {
                Segment::Seq { index } => index.to_string(),
                Segment::Map { key } => key.clone(),
                Segment::Enum { variant } => variant.clone(),
                Segment::Unknown => continue,
            };
            // RFC 6901: `~` and `/` in a key are escaped.
            pointer.push('/');
            pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
        }
        ArgumentError { pointer, message: e.into_inner().to_string() }
    })
}

/// A tool's answer to one call, for any version: [`ToolResult::to_json`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    text: String,
    structured: Option<Value>,
    is_error: bool,
}

impl ToolResult {
    /// A structured result: `value`'s JSON as `structuredContent` and as a text block.
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        let structured = serde_json::to_value(value)?;
        Ok(ToolResult { text: structured.to_string(), structured: Some(structured), is_error: false })
    }

    /// A result of one text block.
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult { text: text.into(), structured: None, is_error: false }
    }

    /// A failed call (`isError: true`): the text is for the model to read and correct.
    pub fn error(text: impl Into<String>) -> Self {
        ToolResult { text: text.into(), structured: None, is_error: true }
    }

    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The `CallToolResult` as `version` has it.
    pub fn to_json(&self, version: &str) -> Value {
        let mut result = Map::new();
        if since(version, "2026-07-28") {
            result.insert("resultType".into(), Value::from("complete"));
        }
        result.insert("content".into(), json!([{"type": "text", "text": self.text}]));
        if let Some(structured) = self.structured.as_ref().filter(|s| output_allowed(version, s.is_object())) {
            result.insert("structuredContent".into(), structured.clone());
        }
        if self.is_error {
            result.insert("isError".into(), Value::Bool(true));
        }
        Value::Object(result)
    }

    /// The result as a version's `CallToolResult`.
    pub fn to_result<T: Versioned + DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_value(self.to_json(T::VERSION))
    }
}

impl From<ArgumentError> for ToolResult {
    fn from(e: ArgumentError) -> Self {
        ToolResult::error(e.to_string())
    }
}
