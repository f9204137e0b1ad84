//! Protocol 2026-07-28: a POST without `Mcp-Session-Id` whose request is not `initialize` is one
//! request on its own. The adapter gives it a `Server::stateless` engine, which checks its
//! version and `_meta` (-32022, -32602; the adapter: a `MCP-Protocol-Version` header that differs
//! is -32020), answers `server/discover`, `ping` and `logging/setLevel` (-32601), validates the
//! params against 2026-07-28, and completes the result (`resultType`, `ttlMs`/`cacheScope`, the
//! server's identity). What remains is the application: methods 2026-07-28 does not have
//! (-32601, answered at once so as JSON with 404), the `test_input_required_result_*` tools and
//! prompt here (InputRequiredResult and the retry), everything else the 2025-11-25 handlers of
//! `ctx.rs`, whose params and results 2026-07-28 shares.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::OnceLock;

use mcp_spec_engine::http::server::RequestContext;
use mcp_spec_engine::{LogLevel, Request};
use mcp_spec_types::negotiate::CLIENT_CAPABILITIES_META_KEY;
use mcp_spec_types::rpc::{Envelope, INVALID_PARAMS, METHOD_NOT_FOUND};
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::v2025_11_25::RESOURCE_NOT_FOUND;
use mcp_spec_types::v2026_07_28 as next;
use serde_json::{json, Map, Value};

use super::{read_message, App, Ctx};

/// Answers a request without a session.
pub(super) async fn run(ctx: &Ctx, request: &Request) -> Result<Value, RpcError> {
    if !<next::ClientMessage as Envelope>::is_request_method(&request.method) {
        let message = format!("Method not found: {}", request.method);
        return Err(RpcError { code: METHOD_NOT_FOUND, message, data: None });
    }
    match input_required(&ctx.cx, request) {
        Some(Ok(Answer::Result(result))) => return Ok(result),
        // The engine wrote the answer; what is returned here is not sent.
        Some(Ok(Answer::Written)) => return Ok(Value::Null),
        Some(Err(error)) => return Err(error),
        None => {}
    }
    if request.params.as_ref().and_then(|p| p.get("name")).is_some_and(|n| n == "test_logging_tool") {
        for step in ["started", "working", "done"] {
            ctx.log(LogLevel::Info, Some("test_logging_tool"), &format!("Tool {step}"));
        }
        return Ok(text("Logging test completed".into()));
    }
    session_handlers(ctx, request).await
}

enum Answer {
    Result(Value),
    /// The engine has the answer to write (an `InputRequiredResult`).
    Written,
}

/// The 2025-11-25 handlers (`Ctx::run`), and what 2026-07-28 changes in their answers.
async fn session_handlers(ctx: &Ctx, request: &Request) -> Result<Value, RpcError> {
    match ctx.run(request).await {
        Ok(mut result) => {
            if let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) {
                for (name, description) in [
                    (
                        "test_missing_capability",
                        "Needs the client's sampling capability",
                    ),
                    (
                        "test_logging_tool",
                        "Logs three messages, for a request that set a log level",
                    ),
                    (
                        "test_streaming_elicitation",
                        "Asks for a name with an InputRequiredResult",
                    ),
                ] {
                    tools.push(json!({"name": name, "description": description, "inputSchema": {"type": "object"}}));
                }
            }
            Ok(result)
        }
        // SEP-2164: 2026-07-28 answers an unknown resource with invalid params (2025-11-25: -32002).
        Err(error) if error.code == RESOURCE_NOT_FOUND => Err(RpcError {
            code: INVALID_PARAMS,
            ..error
        }),
        Err(error) => Err(error),
    }
}

// requestState: a payload and a keyed hash of it, so that a state the client changed is refused.
// The key is this process's (a real server shares an HMAC key among its instances).
fn key() -> &'static RandomState {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    KEY.get_or_init(RandomState::new)
}

fn sign(payload: &str) -> String {
    format!("{payload}.{:016x}", key().hash_one(payload))
}

/// The payload of a state this server signed.
fn verify(state: &str) -> Option<&str> {
    let (payload, mac) = state.rsplit_once('.')?;
    (format!("{:016x}", key().hash_one(payload)) == mac).then_some(payload)
}

fn elicit(message: &str, field: &str) -> Value {
    let schema =
        json!({"type": "object", "properties": {field: {"type": "string"}}, "required": [field]});
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": schema}})
}

fn sample(question: &str) -> Value {
    json!({"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": question}}], "maxTokens": 100}})
}

fn roots() -> Value {
    json!({"method": "roots/list"})
}

fn text(text: String) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

fn invalid(message: &str) -> RpcError {
    RpcError {
        code: INVALID_PARAMS,
        message: format!("Invalid params: {message}"),
        data: None,
    }
}

/// The InputRequiredResult tools and prompt: `None` for any other request.
fn input_required(cx: &RequestContext, request: &Request) -> Option<Result<Answer, RpcError>> {
    let name = request.params.as_ref()?.get("name")?.as_str()?;
    let round = Round {
        request,
        responses: request.input_responses().cloned().unwrap_or_default(),
        state: request.request_state(),
    };
    let (responses, state) = (&round.responses, round.state);
    let has = |key: &str| round.has(key);
    let field = |key: &str, field: &str| round.field(key, field);
    let mut ask = |asks: Vec<(&str, Value)>, state: Option<String>| -> Result<Answer, RpcError> {
        let asks: Map<String, Value> = asks.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        match cx.respond_input_required(asks, state.as_deref()) {
            Ok(_) => Ok(Answer::Written),
            Err(e) => Err(invalid(&e.to_string())),
        }
    };
    let outcome = match (request.method.as_str(), name) {
        ("tools/call", "test_missing_capability") => match request
            .meta(CLIENT_CAPABILITIES_META_KEY)
            .and_then(|c| c.get("sampling"))
        {
            Some(_) => Ok(Answer::Result(text("The client declared sampling".into()))),
            None => Err(RpcError {
                code: next::MISSING_REQUIRED_CLIENT_CAPABILITY,
                message: "Missing required client capability: sampling".into(),
                data: Some(json!({"requiredCapabilities": {"sampling": {}}})),
            }),
        },
        ("tools/call", "test_streaming_elicitation") => match field("user_name", "name") {
            Some(name) => Ok(Answer::Result(text(format!("Hello, {name}!")))),
            None => ask(
                vec![("user_name", elicit("What is your name?", "name"))],
                None,
            ),
        },
        ("tools/call", "test_input_required_result_elicitation") => {
            match field("user_name", "name") {
                Some(name) => Ok(Answer::Result(text(format!("Hello, {name}!")))),
                None if has("user_name") => Err(invalid(
                    "inputResponses.user_name is not an accepted form with a name",
                )),
                None => ask(
                    vec![("user_name", elicit("What is your name?", "name"))],
                    None,
                ),
            }
        }
        ("tools/call", "test_input_required_result_sampling") => match responses
            .get("capital_question")
            .and_then(|r| r.pointer("/content/text"))
            .and_then(Value::as_str)
        {
            Some(answer) => Ok(Answer::Result(text(format!(
                "The model answered: {answer}"
            )))),
            None => ask(
                vec![("capital_question", sample("What is the capital of France?"))],
                None,
            ),
        },
        ("tools/call", "test_input_required_result_list_roots") => match responses
            .get("client_roots")
            .and_then(|r| r.get("roots"))
            .and_then(Value::as_array)
        {
            Some(roots) => Ok(Answer::Result(text(format!(
                "The client has {} root(s): {}",
                roots.len(),
                roots
                    .iter()
                    .filter_map(|r| r.get("uri")?.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))),
            None => ask(vec![("client_roots", roots())], None),
        },
        ("tools/call", "test_input_required_result_request_state")
        | ("tools/call", "test_input_required_result_tampered_state") => match state {
            None => ask(vec![("confirm", elicit("Go on?", "ok"))], Some(sign(name))),
            Some(s) if verify(s) == Some(name) => Ok(Answer::Result(text(
                "state-ok: the requestState came back intact".into(),
            ))),
            Some(_) => Err(invalid("requestState failed its integrity check")),
        },
        ("tools/call", "test_input_required_result_multiple_inputs") => {
            multiple_inputs(&round, &mut ask)
        }
        ("tools/call", "test_input_required_result_multi_round") => multi_round(&round, &mut ask),
        ("tools/call", "test_input_required_result_capabilities") => {
            by_capabilities(&round, &mut ask)
        }
        ("prompts/get", "test_input_required_result_prompt") => match field("context", "context") {
            Some(context) => Ok(Answer::Result(
                json!({"messages": [{"role": "user", "content": {"type": "text", "text": format!("Use this context: {context}")}}]}),
            )),
            None => ask(
                vec![(
                    "context",
                    elicit("What context should the prompt use?", "context"),
                )],
                None,
            ),
        },
        _ => return None,
    };
    Some(outcome)
}

/// What one request of an InputRequiredResult scenario brings back: the client's answers to
/// the last round's asks, and the state the server signed for that round.
struct Round<'r> {
    request: &'r Request,
    responses: Map<String, Value>,
    state: Option<&'r str>,
}

impl Round<'_> {
    fn has(&self, key: &str) -> bool {
        self.responses.get(key).is_some_and(Value::is_object)
    }

    /// The field an accepted form filled in.
    fn field(&self, key: &str, field: &str) -> Option<String> {
        self.responses
            .get(key)
            .and_then(|r| r.pointer(&format!("/content/{field}")))
            .and_then(Value::as_str)
            .map(str::to_owned)
    }
}

/// Answers with a round of asks (and the state to bring back) instead of a result.
type Ask<'a> = dyn FnMut(Vec<(&str, Value)>, Option<String>) -> Result<Answer, RpcError> + 'a;

/// Three asks in one round; the result once all three come back under a valid state.
fn multiple_inputs(round: &Round, ask: &mut Ask) -> Result<Answer, RpcError> {
    let state = round.state;
    match state.and_then(verify) {
        Some("multiple") if round.has("name") && round.has("greeting") && round.has("roots") => {
            Ok(Answer::Result(text("All three inputs received".into())))
        }
        Some(_) | None if state.is_some() && state.and_then(verify).is_none() => {
            Err(invalid("requestState failed its integrity check"))
        }
        _ => ask(
            vec![
                ("name", elicit("What is your name?", "name")),
                ("greeting", sample("Say hello")),
                ("roots", roots()),
            ],
            Some(sign("multiple")),
        ),
    }
}

/// Two rounds: a name, then a colour, with the name carried in the signed state.
fn multi_round(round: &Round, ask: &mut Ask) -> Result<Answer, RpcError> {
    match (
        round.state.map(|s| verify(s).ok_or(())),
        round.field("step1", "name"),
        round.field("step2", "color"),
    ) {
        (Some(Err(())), _, _) => Err(invalid("requestState failed its integrity check")),
        (Some(Ok(p)), _, Some(color)) if p.starts_with("round-2:") => Ok(Answer::Result(text(
            format!("{} likes {color}", &p["round-2:".len()..]),
        ))),
        (Some(Ok("round-1")), Some(name), _) => ask(
            vec![("step2", elicit("Your favourite colour?", "color"))],
            Some(sign(&format!("round-2:{name}"))),
        ),
        _ => ask(
            vec![("step1", elicit("What is your name?", "name"))],
            Some(sign("round-1")),
        ),
    }
}

/// Asks only with the capabilities this request's `_meta` declared: the engine refuses the others.
fn by_capabilities(round: &Round, ask: &mut Ask) -> Result<Answer, RpcError> {
    if !round.responses.is_empty() {
        return Ok(Answer::Result(text(format!(
            "Received {} input(s)",
            round.responses.len()
        ))));
    }
    let declared = |c: &str| {
        round
            .request
            .meta(CLIENT_CAPABILITIES_META_KEY)
            .and_then(|m| m.get(c))
            .is_some()
    };
    let mut asks = Vec::new();
    if declared("elicitation") {
        asks.push(("name", elicit("What is your name?", "name")));
    }
    if declared("sampling") {
        asks.push(("greeting", sample("Say hello")));
    }
    if declared("roots") {
        asks.push(("roots", roots()));
    }
    if asks.is_empty() {
        Ok(Answer::Result(text(
            "The client declared nothing to ask it with".into(),
        )))
    } else {
        ask(asks, None)
    }
}

impl App {
    /// Writes a line the engine made, checked as a 2026-07-28 message.
    pub(super) fn write_next(&self, line: &[u8]) -> String {
        match read_message::<next::ServerMessage>(line) {
            Ok(message) => mcp_conformance::write(&message, self.checker.as_ref()),
            Err(e) => {
                eprintln!("finding: the engine wrote a line that does not read as 2026-07-28: {e}");
                String::from_utf8_lossy(line).into_owned()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_state_does_not_verify() {
        let state = sign("round-1");
        assert_eq!(verify(&state), Some("round-1"));
        assert_eq!(verify(&state.replace("round-1", "round-2")), None);
        assert_eq!(verify("round-1"), None);
    }
}
