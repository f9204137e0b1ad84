//! Request handling: what each request gets (tools, resources, prompts, completion, logging,
//! and the requests a tool sends back to the client).

use super::*;

/// One request being answered: the application, and the request's context on the adapter.
pub(super) struct Ctx {
    pub(super) app: Arc<App>,
    pub(super) cx: RequestContext,
}

pub(super) fn error(code: i64, message: impl Into<String>) -> Failure {
    ErrorResponse::new(None, code, message)
}

impl Ctx {
    /// The request read as 2025-11-25, answered (2026-07-28 shares its params and results).
    pub(super) async fn run(&self, request: &engine::Request) -> Result<Value, RpcError> {
        let mut line = serde_json::Map::new();
        line.insert("jsonrpc".into(), json!("2.0"));
        line.insert("id".into(), request.id.to_value());
        line.insert("method".into(), json!(request.method));
        if let Some(params) = &request.params {
            line.insert("params".into(), params.clone());
        }
        let Ok(Message::Request(typed)) =
            read_message::<ClientMessage>(Value::Object(line).to_string())
        else {
            return Err(error(rpc::INVALID_PARAMS, "Invalid params").error);
        };
        match self.result(typed).await {
            Ok(result) => Ok(serde_json::to_value(&result).unwrap_or_default()),
            Err(failure) => Err(failure.error),
        }
    }

    /// Whether the client declared `capability` (in `initialize`, or in a 2026-07-28 request's `_meta`).
    pub(super) fn declared(&self, capability: &str) -> bool {
        self.cx
            .client_capabilities()
            .is_some_and(|c| c.get(capability).is_some())
    }

    pub(super) async fn result(&self, request: ClientRequest) -> Result<ServerResult, Failure> {
        use ClientRequest as R;
        let empty = || Ok(mcp::EmptyResult::default().into());
        match request {
            R::CompleteRequest(r) => {
                let typed = r.params.argument.value.to_lowercase();
                let values = ["paris", "park", "party"]
                    .iter()
                    .filter(|v| v.starts_with(&typed))
                    .map(|v| v.to_string());
                let completion = mcp::CompleteResultCompletion::new(values.collect());
                Ok(mcp::CompleteResult::new(completion).into())
            }
            R::ListToolsRequest(_) => Ok(mcp::ListToolsResult::new(tools()).into()),
            R::CallToolRequest(r) => Ok(self.call_tool(r.params).await?.into()),
            R::ListResourcesRequest(_) => Ok(mcp::ListResourcesResult::new(resources()).into()),
            R::ListResourceTemplatesRequest(_) => {
                let template = mcp::ResourceTemplate {
                    description: Some("JSON data for an id".into()),
                    mime_type: Some("application/json".into()),
                    ..mcp::ResourceTemplate::new("template-data", "test://template/{id}/data")
                };
                Ok(mcp::ListResourceTemplatesResult::new(vec![template]).into())
            }
            R::ReadResourceRequest(r) => Ok(read_resource(&r.params.uri)?.into()),
            R::SubscribeRequest(r) => {
                self.subscriptions(|s| {
                    s.insert(r.params.uri);
                });
                empty()
            }
            R::UnsubscribeRequest(r) => {
                self.subscriptions(|s| {
                    s.remove(&r.params.uri);
                });
                empty()
            }
            R::ListPromptsRequest(_) => Ok(mcp::ListPromptsResult::new(prompts()).into()),
            R::GetPromptRequest(r) => {
                let arguments = r.params.arguments.unwrap_or_default();
                Ok(get_prompt(&r.params.name, arguments)?.into())
            }
            // The engine answers `initialize`, `ping` and `logging/setLevel` itself.
            other => Err(other.method_not_found()),
        }
    }

    /// The session's `resources/subscribe` set.
    fn subscriptions(&self, f: impl FnOnce(&mut BTreeSet<String>)) {
        let session = self.cx.session_id().unwrap_or_default();
        if let Ok(mut all) = self.app.subscriptions.lock() {
            f(all.entry(session).or_default());
        }
    }

    /// A log message about this request, at or above the session's level (2026-07-28: the
    /// request's, none without one): the engine decides.
    pub(super) fn log(&self, level: LogLevel, logger: Option<&str>, text: &str) {
        let _ = self.cx.log(level, logger, &text);
    }

    /// Progress for this request, if it asked for it (a progress token).
    pub(super) fn progress(&self, step: f64) {
        let _ = self.cx.progress(step, Some(100.0), None);
    }

    /// Sends a request to the client on this request's stream and waits for its answer.
    pub(super) async fn ask<Q: RequestMethod>(&self, request: Q) -> Result<Q::Result, Failure> {
        use mcp_spec_engine::http::server::ServerRequestError as E;
        match self.cx.request(request).await {
            Ok(result) => Ok(result),
            Err(E::Failed(mcp_spec_engine::RequestError::Rpc(e))) => Err(error(e.code, e.message)),
            Err(E::Refused(e)) => Err(error(rpc::INVALID_REQUEST, e.to_string())),
            Err(other) => Err(error(rpc::INTERNAL_ERROR, other.to_string())),
        }
    }

    pub(super) async fn call_tool(
        &self,
        params: CallToolRequestParams,
    ) -> Result<CallToolResult, Failure> {
        let pause = || tokio::time::sleep(Duration::from_millis(50));
        let arguments = params.arguments.unwrap_or_default();
        let text_arg = |name: &str| {
            arguments
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        Ok(match params.name.as_str() {
            "test_simple_text" => {
                CallToolResult::text("This is a simple text response for testing.")
            }
            "test_image_content" => CallToolResult::new(vec![image()]),
            "test_audio_content" => {
                CallToolResult::new(vec![mcp::AudioContent::new(WAV, "audio/wav").into()])
            }
            "test_embedded_resource" => CallToolResult::new(vec![embedded_text(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
            )]),
            "test_multiple_content_types" => CallToolResult::new(vec![
                ContentBlock::text("Multiple content types test:"),
                image(),
                embedded_text(
                    "test://mixed-content-resource",
                    "application/json",
                    r#"{"test":"data","value":123}"#,
                ),
            ]),
            "test_tool_with_logging" => {
                self.log(LogLevel::Info, None, "Tool execution started");
                pause().await;
                self.log(LogLevel::Info, None, "Tool processing data");
                pause().await;
                self.log(LogLevel::Info, None, "Tool execution completed");
                CallToolResult::text("Logging test completed")
            }
            "test_error_handling" => {
                CallToolResult::error("This tool intentionally returns an error for testing")
            }
            "test_tool_with_progress" => {
                for step in [0, 50, 100] {
                    self.progress(f64::from(step));
                    if step < 100 {
                        pause().await;
                    }
                }
                CallToolResult::text("Progress test completed")
            }
            "test_sampling" => {
                if !self.declared("sampling") {
                    return Ok(CallToolResult::error(
                        "the client does not support sampling",
                    ));
                }
                let prompt = mcp::TextContent::new(text_arg("prompt"));
                let message = mcp::SamplingMessage::new(mcp::Role::User, prompt.into());
                let params = mcp::CreateMessageRequestParams::new(vec![message], 100);
                let ask = mcp::CreateMessageRequest::new(params, RequestId::Integer(0));
                let reply = self.ask(ask).await?;
                let text = match &reply.content {
                    mcp::SamplingMessageContent::SamplingMessageContentBlock(
                        mcp::SamplingMessageContentBlock::TextContent(t),
                    ) => t.text.clone(),
                    other => format!("({})", other.schema_name()),
                };
                CallToolResult::text(format!("LLM response: {text}"))
            }
            "test_elicitation" => {
                let reply = self.elicit(&text_arg("message"), contact_form()).await?;
                CallToolResult::text(format!("User response: {reply}"))
            }
            "test_elicitation_sep1034_defaults" => {
                let message = "Please review your profile (every field has a default)";
                let reply = self.elicit(message, defaults_form()).await?;
                CallToolResult::text(format!("Elicitation completed: {reply}"))
            }
            "test_elicitation_sep1330_enums" => {
                let message = "Please pick from each kind of list";
                let reply = self.elicit(message, enums_form()).await?;
                CallToolResult::text(format!("Elicitation completed: {reply}"))
            }
            "test_reconnection" => {
                // Close the connection before the result: the client resumes with Last-Event-ID.
                pause().await;
                self.cx.disconnect();
                tokio::time::sleep(Duration::from_millis(200)).await;
                CallToolResult::text("Reconnection test completed successfully")
            }
            // `json_schema_2020_12_tool` only needs to be listed; calling it echoes the arguments.
            "json_schema_2020_12_tool" => {
                CallToolResult::text(serde_json::to_string(&arguments).unwrap_or_default())
            }
            other => return Err(error(rpc::INVALID_PARAMS, format!("unknown tool: {other}"))),
        })
    }

    /// Asks the client to fill in a form; answers `action=…, content=…`.
    pub(super) async fn elicit(
        &self,
        message: &str,
        requested_schema: mcp::ElicitRequestFormParamsRequestedSchema,
    ) -> Result<String, Failure> {
        if !self.declared("elicitation") {
            return Err(error(
                rpc::INVALID_REQUEST,
                "the client does not support elicitation",
            ));
        }
        let params = mcp::ElicitRequestFormParams::new(message, requested_schema);
        let reply = self
            .ask(mcp::ElicitRequest::new(
                params.into(),
                RequestId::Integer(0),
            ))
            .await?;
        let content = serde_json::to_value(&reply.content).unwrap_or_default();
        Ok(format!(
            "action={}, content={content}",
            reply.action.as_str()
        ))
    }
}
