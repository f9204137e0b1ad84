//! Scenario content: the tools' forms, resources and prompts the suite calls for.

use super::*;

/// A form's requested schema with these fields.
pub(super) fn form<const N: usize>(
    fields: [(&str, mcp::PrimitiveSchemaDefinition); N],
) -> mcp::ElicitRequestFormParamsRequestedSchema {
    let properties = fields.map(|(name, field)| (name.to_owned(), field));
    mcp::ElicitRequestFormParamsRequestedSchema::new(BTreeMap::from(properties))
}

pub(super) fn strings<const N: usize>(values: [&str; N]) -> Vec<String> {
    values.map(str::to_owned).to_vec()
}

/// The form `test_elicitation` asks for: two required strings.
pub(super) fn contact_form() -> mcp::ElicitRequestFormParamsRequestedSchema {
    let text = |description: &str| mcp::StringSchema {
        description: Some(description.into()),
        ..Default::default()
    };
    let (username, email) = (text("User's response"), text("User's email address"));
    mcp::ElicitRequestFormParamsRequestedSchema {
        required: Some(strings(["username", "email"])),
        ..form([("username", username.into()), ("email", email.into())])
    }
}

/// SEP-1034: a field of each kind, each with a default.
pub(super) fn defaults_form() -> mcp::ElicitRequestFormParamsRequestedSchema {
    let name = mcp::StringSchema {
        default: Some("John Doe".into()),
        ..Default::default()
    };
    let number = |kind, default| mcp::NumberSchema {
        default: Some(default),
        ..mcp::NumberSchema::new(kind)
    };
    let age = number(mcp::NumberSchemaType::Integer, 30.into());
    let score = Number::from_f64(95.5).expect("finite");
    let score = number(mcp::NumberSchemaType::Number, score);
    let status = mcp::UntitledSingleSelectEnumSchema {
        default: Some("active".into()),
        ..mcp::UntitledSingleSelectEnumSchema::new(strings(["active", "inactive", "pending"]))
    };
    let verified = mcp::BooleanSchema {
        default: Some(true),
        ..Default::default()
    };
    form([
        ("name", name.into()),
        ("age", age.into()),
        ("score", score.into()),
        ("status", status.into()),
        ("verified", verified.into()),
    ])
}

/// SEP-1330: every kind of enum field.
pub(super) fn enums_form() -> mcp::ElicitRequestFormParamsRequestedSchema {
    use mcp::TitledMultiSelectEnumSchemaItemsAnyOfItem as Choice;
    use mcp::TitledSingleSelectEnumSchemaOneOfItem as OneOf;
    let options = || strings(["option1", "option2", "option3"]);
    let untitled_single = mcp::UntitledSingleSelectEnumSchema::new(options());
    let titled_single = mcp::TitledSingleSelectEnumSchema::new(vec![
        OneOf::new("value1", "First Option"),
        OneOf::new("value2", "Second Option"),
        OneOf::new("value3", "Third Option"),
    ]);
    let legacy = mcp::LegacyTitledEnumSchema {
        enum_names: Some(strings(["Option One", "Option Two", "Option Three"])),
        ..mcp::LegacyTitledEnumSchema::new(strings(["opt1", "opt2", "opt3"]))
    };
    let items = mcp::UntitledMultiSelectEnumSchemaItems::new(options());
    let untitled_multi = mcp::UntitledMultiSelectEnumSchema::new(items);
    let items = mcp::TitledMultiSelectEnumSchemaItems::new(vec![
        Choice::new("value1", "First Choice"),
        Choice::new("value2", "Second Choice"),
        Choice::new("value3", "Third Choice"),
    ]);
    let titled_multi = mcp::TitledMultiSelectEnumSchema::new(items);
    form([
        ("untitledSingle", untitled_single.into()),
        ("titledSingle", titled_single.into()),
        ("legacyEnum", legacy.into()),
        ("untitledMulti", untitled_multi.into()),
        ("titledMulti", titled_multi.into()),
    ])
}

pub(super) fn resources() -> Vec<mcp::Resource> {
    let resource = |uri: &str, name: &str, mime: &str, description: &str| mcp::Resource {
        description: Some(description.into()),
        mime_type: Some(mime.into()),
        ..mcp::Resource::new(name, uri)
    };
    vec![
        resource(
            "test://static-text",
            "static-text",
            "text/plain",
            "A fixed text resource",
        ),
        resource(
            "test://static-binary",
            "static-binary",
            "image/png",
            "A fixed PNG image",
        ),
        resource(
            "test://watched-resource",
            "watched-resource",
            "text/plain",
            "A resource to subscribe to",
        ),
    ]
}

pub(super) fn image() -> ContentBlock {
    mcp::ImageContent::new(PNG, "image/png").into()
}

pub(super) fn embedded_text(uri: &str, mime_type: &str, text: &str) -> ContentBlock {
    let contents = mcp::TextResourceContents {
        mime_type: Some(mime_type.into()),
        ..mcp::TextResourceContents::new(uri, text)
    };
    mcp::EmbeddedResource::new(contents.into()).into()
}

pub(super) fn tools() -> Vec<mcp::Tool> {
    let no_arguments = json!({"type": "object", "properties": {}});
    let text_argument = |name: &str, description: &str| json!({"type": "object", "properties": {name: {"type": "string", "description": description}}, "required": [name]});
    let list = [
        (
            "test_simple_text",
            "Returns one text block",
            no_arguments.clone(),
        ),
        (
            "test_image_content",
            "Returns a PNG image",
            no_arguments.clone(),
        ),
        (
            "test_audio_content",
            "Returns a WAV clip",
            no_arguments.clone(),
        ),
        (
            "test_embedded_resource",
            "Returns an embedded text resource",
            no_arguments.clone(),
        ),
        (
            "test_multiple_content_types",
            "Returns text, an image and a resource",
            no_arguments.clone(),
        ),
        (
            "test_tool_with_logging",
            "Logs three messages while it runs",
            no_arguments.clone(),
        ),
        (
            "test_error_handling",
            "Always fails, as a tool error",
            no_arguments.clone(),
        ),
        (
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100",
            no_arguments.clone(),
        ),
        (
            "test_sampling",
            "Asks the client's model",
            text_argument("prompt", "The prompt to send to the model"),
        ),
        (
            "test_elicitation",
            "Asks the user for a name and an email",
            text_argument("message", "The message to show the user"),
        ),
        (
            "test_elicitation_sep1034_defaults",
            "Asks for fields that all have defaults",
            no_arguments.clone(),
        ),
        (
            "test_elicitation_sep1330_enums",
            "Asks with every kind of enum",
            no_arguments.clone(),
        ),
        (
            "test_reconnection",
            "Closes its stream before answering; resume with Last-Event-ID",
            no_arguments.clone(),
        ),
        (
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
                "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
                "additionalProperties": false
            }),
        ),
    ];
    list.into_iter()
        .map(|(name, description, schema)| mcp::Tool {
            description: Some(description.into()),
            ..mcp::Tool::with_input_schema(name, schema).expect("an object schema")
        })
        .collect()
}

pub(super) fn read_resource(uri: &str) -> Result<mcp::ReadResourceResult, Failure> {
    use mcp::ReadResourceResultContentsItem as Item;
    let text = |mime: &str, text: String| {
        Item::TextResourceContents(mcp::TextResourceContents {
            mime_type: Some(mime.into()),
            ..mcp::TextResourceContents::new(uri, text)
        })
    };
    let item = match uri {
        "test://static-text" => text(
            "text/plain",
            "This is the content of the static text resource.".into(),
        ),
        "test://watched-resource" => {
            text("text/plain", "This resource is watched for updates.".into())
        }
        "test://static-binary" => Item::BlobResourceContents(mcp::BlobResourceContents {
            mime_type: Some("image/png".into()),
            ..mcp::BlobResourceContents::new(uri, PNG)
        }),
        _ => match uri
            .strip_prefix("test://template/")
            .and_then(|rest| rest.strip_suffix("/data"))
        {
            Some(id) if !id.is_empty() && !id.contains('/') => {
                let data =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                text("application/json", data.to_string())
            }
            _ => {
                let not_found = error(mcp::RESOURCE_NOT_FOUND, "Resource not found");
                return Err(not_found.with_data(json!({ "uri": uri })));
            }
        },
    };
    Ok(mcp::ReadResourceResult::new(vec![item]))
}

pub(super) fn prompts() -> Vec<mcp::Prompt> {
    let argument = |name: &str, description: &str| mcp::PromptArgument {
        description: Some(description.into()),
        required: Some(true),
        ..mcp::PromptArgument::new(name)
    };
    let prompt = |name: &str, description: &str, arguments: Vec<mcp::PromptArgument>| mcp::Prompt {
        description: Some(description.into()),
        arguments: (!arguments.is_empty()).then_some(arguments),
        ..mcp::Prompt::new(name)
    };
    vec![
        prompt("test_simple_prompt", "A prompt without arguments", vec![]),
        prompt(
            "test_prompt_with_arguments",
            "A prompt with two arguments",
            vec![
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ],
        ),
        prompt(
            "test_prompt_with_embedded_resource",
            "A prompt that embeds a resource",
            vec![argument("resourceUri", "URI of the resource to embed")],
        ),
        prompt("test_prompt_with_image", "A prompt with an image", vec![]),
    ]
}

pub(super) fn get_prompt(
    name: &str,
    arguments: BTreeMap<String, String>,
) -> Result<mcp::GetPromptResult, Failure> {
    let user = |content: ContentBlock| mcp::PromptMessage::new(mcp::Role::User, content);
    let argument = |key: &str| {
        arguments
            .get(key)
            .cloned()
            .ok_or_else(|| error(rpc::INVALID_PARAMS, format!("missing argument `{key}`")))
    };
    let messages = match name {
        "test_simple_prompt" => vec![user(ContentBlock::text(
            "This is a simple prompt for testing.",
        ))],
        "test_prompt_with_arguments" => {
            let (arg1, arg2) = (argument("arg1")?, argument("arg2")?);
            vec![user(ContentBlock::text(format!(
                "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
            )))]
        }
        "test_prompt_with_embedded_resource" => vec![
            user(embedded_text(
                &argument("resourceUri")?,
                "text/plain",
                "Embedded resource content for testing.",
            )),
            user(ContentBlock::text(
                "Please process the embedded resource above.",
            )),
        ],
        "test_prompt_with_image" => vec![
            user(image()),
            user(ContentBlock::text("Please analyze the image above.")),
        ],
        other => {
            return Err(error(
                rpc::INVALID_PARAMS,
                format!("unknown prompt: {other}"),
            ))
        }
    };
    Ok(mcp::GetPromptResult::new(messages))
}
