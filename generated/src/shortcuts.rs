//! Shortcuts for the values people build by hand, for every version whose types
//! allow them. Everything else has `new` (the required fields) and `Default`.
//!
//! ```
//! # #[cfg(feature = "v2026-07-28")] {
//! use mcp_spec_types::v2026_07_28::{CallToolResult, ContentBlock, Implementation, Tool};
//! let result = CallToolResult::text("It is 21°C in Paris.");
//! assert!(matches!(&result.content[0], ContentBlock::TextContent(t) if t.text.starts_with("It is")));
//! let tool = Tool::with_input_schema("weather", serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}})).unwrap();
//! let server = Implementation::new("weather-server", "1.0.0").with_website("https://example.com");
//! # let _ = (tool, server);
//! # }
//! ```

use serde_json::Value;

#[allow(unused_imports)]
use crate::runtime::JsonObject;

/// Reads a JSON value as an object, for structured content and input schemas.
#[allow(dead_code)] // unused when no version with object-only structured content is enabled
fn object(v: Value) -> Result<JsonObject, serde_json::Error> {
    match v {
        Value::Object(o) => Ok(o),
        other => Err(<serde_json::Error as serde::de::Error>::custom(format_args!("expected a JSON object, found {other}"))),
    }
}

macro_rules! content_shortcuts {
    ($feature:literal, $m:ident, structured: $structured:ident) => {
        #[cfg(feature = $feature)]
        const _: () = {
            use crate::$m::{CallToolResult, ContentBlock, TextContent};

            impl ContentBlock {
                /// A text block.
                pub fn text(text: impl Into<String>) -> Self {
                    ContentBlock::TextContent(TextContent::new(text))
                }
            }

            impl CallToolResult {
                /// A successful result holding one text block.
                pub fn text(text: impl Into<String>) -> Self {
                    CallToolResult::new(vec![ContentBlock::text(text)])
                }

                /// A successful result with structured content, and its JSON text as a text block
                /// for clients that do not read `structuredContent`.
                pub fn structured(content: Value) -> Result<Self, serde_json::Error> {
                    let text = content.to_string();
                    let structured = $structured(content)?;
                    Ok(CallToolResult { structured_content: Some(structured), ..CallToolResult::new(vec![ContentBlock::text(text)]) })
                }

                /// A tool error the model should see (`isError: true`), with its message.
                pub fn error(message: impl Into<String>) -> Self {
                    CallToolResult { is_error: Some(true), ..CallToolResult::text(message) }
                }
            }
        };
    };
}

/// Structured content is an object up to 2025-11-25 and any JSON value from 2026-07-28.
#[allow(dead_code)]
fn any(v: Value) -> Result<Value, serde_json::Error> {
    Ok(v)
}

content_shortcuts!("v2025-06-18", v2025_06_18, structured: object);
content_shortcuts!("v2025-11-25", v2025_11_25, structured: object);
content_shortcuts!("v2026-07-28", v2026_07_28, structured: any);
content_shortcuts!("resource-metadata", resource_metadata, structured: any);

macro_rules! tool_shortcuts {
    ($feature:literal, $m:ident) => {
        #[cfg(feature = $feature)]
        const _: () = {
            use crate::$m::{Tool, ToolInputSchema};

            impl Tool {
                /// A tool whose input schema is given as JSON (it must be an object with `"type": "object"`).
                pub fn with_input_schema(name: impl Into<String>, input_schema: Value) -> Result<Self, serde_json::Error> {
                    let schema: ToolInputSchema = serde_json::from_value(input_schema)?;
                    Ok(Tool::new(name, schema))
                }
            }
        };
    };
}

tool_shortcuts!("v2024-11-05", v2024_11_05);
tool_shortcuts!("v2025-03-26", v2025_03_26);
tool_shortcuts!("v2025-06-18", v2025_06_18);
tool_shortcuts!("v2025-11-25", v2025_11_25);
tool_shortcuts!("v2026-07-28", v2026_07_28);

macro_rules! implementation_shortcuts {
    ($feature:literal, $m:ident) => {
        #[cfg(feature = $feature)]
        const _: () = {
            use crate::$m::{Icon, Implementation};

            impl Implementation {
                /// Adds an icon (SEP-973); check it with [`crate::validate`] or pick one with [`crate::validate::icons::pick`].
                pub fn with_icon(mut self, icon: Icon) -> Self {
                    self.icons.get_or_insert_with(Vec::new).push(icon);
                    self
                }

                /// Sets `websiteUrl`.
                pub fn with_website(mut self, url: impl Into<String>) -> Self {
                    self.website_url = Some(url.into());
                    self
                }
            }

            impl Icon {
                /// An icon at `src` (`https:` or `data:`) with its MIME type.
                pub fn with_type(src: impl Into<String>, mime_type: impl Into<String>) -> Self {
                    Icon { mime_type: Some(mime_type.into()), ..Icon::new(src) }
                }

                /// An icon carried inline as a `data:` URI.
                pub fn data(mime_type: &str, bytes: &[u8]) -> Self {
                    use base64::Engine;
                    let src = format!("data:{mime_type};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes));
                    Icon::with_type(src, mime_type)
                }

                /// Adds sizes such as `48x48` or `any`.
                pub fn with_sizes<S: Into<String>>(mut self, sizes: impl IntoIterator<Item = S>) -> Self {
                    self.sizes.get_or_insert_with(Vec::new).extend(sizes.into_iter().map(Into::into));
                    self
                }

                /// Sets the theme the icon is for (`light` or `dark`).
                pub fn with_theme(mut self, theme: &str) -> Self {
                    self.theme = Some(crate::$m::IconTheme::from_wire(theme));
                    self
                }
            }
        };
    };
}

implementation_shortcuts!("v2025-11-25", v2025_11_25);
implementation_shortcuts!("v2026-07-28", v2026_07_28);

#[cfg(feature = "resource-metadata")]
impl crate::resource_metadata::EmbeddedResource {
    /// The annotations in either form: `resource.annotations` (the proposal's),
    /// else the top-level `annotations` of the old form, which reading keeps
    /// among the unknown keys (`None` when that value is not `Annotations`;
    /// validation reports it).
    pub fn annotations(&self) -> Option<std::borrow::Cow<'_, crate::resource_metadata::Annotations>> {
        use crate::resource_metadata::EmbeddedResourceResource as R;
        let current = match &self.resource {
            R::TextResourceContents(c) => c.annotations.as_ref(),
            R::BlobResourceContents(c) => c.annotations.as_ref(),
        };
        if let Some(a) = current {
            return Some(std::borrow::Cow::Borrowed(a));
        }
        let old = self.extra.get("annotations")?;
        serde::Deserialize::deserialize(old).ok().map(std::borrow::Cow::Owned)
    }
}
