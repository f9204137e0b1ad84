//! A table from tool name to handler, answering `tools/list` and `tools/call`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use super::{arguments, since, JsonSchema, SchemaError, ToolDef, ToolResult};
use crate::Request;
use mcp_spec_types::negotiate::INVALID_PARAMS;
use mcp_spec_types::runtime::RpcError;

type Handler<C> = dyn Fn(Option<&Map<String, Value>>, &mut C) -> ToolResult + Send + Sync;

/// Tools by name, each with its handler. `C` is the context the caller's loop hands each call
/// (whatever lets a handler report progress and see that the call was cancelled); the router only
/// passes it through, so any transport's context fits.
///
/// A router is `Send + Sync` whatever `C` is: share it (`Arc`) with the threads or tasks that run
/// long calls.
pub struct Router<C> {
    tools: Vec<(ToolDef, Box<Handler<C>>)>,
    // The tools routed with `waiting_tool`, by name: their calls block (sleep, I/O, long work).
    waiting: Vec<String>,
    // 2026-07-28's `ttlMs` and `cacheScope` of the listing.
    ttl_ms: u64,
    public: bool,
}

impl<C> Default for Router<C> {
    fn default() -> Self {
        Router { tools: Vec::new(), waiting: Vec::new(), ttl_ms: 0, public: false }
    }
}

impl<C> Router<C> {
    pub fn new() -> Self {
        Self::default()
    }

    /// How long (ms) and how widely a 2026-07-28 client may cache the listing: `ttlMs` and
    /// `cacheScope` (`"public"` or `"private"`). By default 0 and private: stale at once, never
    /// shared across authorization contexts, which is right for any server.
    pub fn cache(mut self, ttl_ms: u64, public: bool) -> Self {
        (self.ttl_ms, self.public) = (ttl_ms, public);
        self
    }

    /// Routes `name` to `handler`, which gets its arguments read as `In` and answers an `Out`
    /// (sent as structured content and as text) or an error text (sent with `isError: true`).
    /// Both schemas come from the types, so the listing and the code cannot disagree.
    pub fn tool<In, Out, F>(self, name: &str, description: &str, handler: F) -> Result<Self, SchemaError>
    where
        In: JsonSchema + DeserializeOwned,
        Out: JsonSchema + Serialize,
        F: Fn(In, &mut C) -> Result<Out, String> + Send + Sync + 'static,
    {
        let def = ToolDef::new::<In>(name)?.output::<Out>().description(description);
        self.route(def, move |args, context| match arguments::<In>(args) {
            Err(e) => e.into(),
            Ok(input) => match handler(input, context) {
                Ok(out) => ToolResult::structured(&out).unwrap_or_else(|e| ToolResult::error(format!("the result did not serialize: {e}"))),
                Err(text) => ToolResult::error(text),
            },
        })
    }

    /// [`tool`](Self::tool), for a handler that blocks (sleeps, waits on I/O, works long):
    /// [`waits`](Self::waits) says so of its calls, so the caller runs them on a thread or a
    /// blocking task and answers quick ones in place, without a thread hand-off per call.
    pub fn waiting_tool<In, Out, F>(mut self, name: &str, description: &str, handler: F) -> Result<Self, SchemaError>
    where
        In: JsonSchema + DeserializeOwned,
        Out: JsonSchema + Serialize,
        F: Fn(In, &mut C) -> Result<Out, String> + Send + Sync + 'static,
    {
        self.waiting.push(name.to_owned());
        self.tool(name, description, handler)
    }

    /// Whether `request` is a `tools/call` of a tool routed with
    /// [`waiting_tool`](Self::waiting_tool): run it off the loop. Everything else the router
    /// answers (`tools/list`, quick tools, unknown names) is quick.
    pub fn waits(&self, request: &Request) -> bool {
        request.method == "tools/call"
            && request.params.as_ref().and_then(|p| p.get("name")).and_then(Value::as_str).is_some_and(|name| self.waiting.iter().any(|w| w == name))
    }

    /// Routes a tool defined by hand: the handler reads the raw `arguments` itself.
    pub fn route<F>(mut self, def: ToolDef, handler: F) -> Result<Self, SchemaError>
    where
        F: Fn(Option<&Map<String, Value>>, &mut C) -> ToolResult + Send + Sync + 'static,
    {
        if self.tools.iter().any(|(d, _)| d.name() == def.name()) {
            return Err(SchemaError::DuplicateName(def.name().to_owned()));
        }
        self.tools.push((def, Box::new(handler)));
        Ok(self)
    }

    /// The tools, in the order they were routed.
    pub fn tools(&self) -> impl Iterator<Item = &ToolDef> {
        self.tools.iter().map(|(def, _)| def)
    }

    /// The `tools/list` result for `version` (every tool, one page).
    pub fn list(&self, version: &str) -> Value {
        let mut result = Map::new();
        if since(version, "2026-07-28") {
            result.insert("resultType".into(), Value::from("complete"));
        }
        result.insert("tools".into(), self.tools().map(|def| def.to_json(version)).collect());
        if since(version, "2026-07-28") {
            result.insert("ttlMs".into(), Value::from(self.ttl_ms));
            result.insert("cacheScope".into(), Value::from(if self.public { "public" } else { "private" }));
        }
        Value::Object(result)
    }

    /// Answers a `tools/call` with these `params`: the handler's result, or -32602 for params
    /// without a tool name or for an unknown tool, as the spec says. Arguments the tool's type
    /// does not read are its `isError` result.
    pub fn call(&self, version: &str, params: Option<&Value>, context: &mut C) -> Result<Value, RpcError> {
        let invalid = |message: String| RpcError { code: INVALID_PARAMS, message, data: None };
        let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str) else {
            return Err(invalid("Invalid params: tools/call needs a string `name`".into()));
        };
        let Some((_, handler)) = self.tools.iter().find(|(def, _)| def.name() == name) else {
            return Err(invalid(format!("Unknown tool: {name}")));
        };
        let args = match params.and_then(|p| p.get("arguments")) {
            None | Some(Value::Null) => None,
            Some(Value::Object(args)) => Some(args),
            Some(_) => return Err(invalid(format!("Invalid params: the arguments of tool {name} are not an object"))),
        };
        Ok(handler(args, context).to_json(version))
    }

    /// Answers `request` when it is `tools/list` or `tools/call`; `None` for any other method.
    /// `version` is the session's (or, from 2026-07-28, the request's) protocol version.
    pub fn handle(&self, version: &str, request: &Request, context: &mut C) -> Option<Result<Value, RpcError>> {
        match request.method.as_str() {
            "tools/list" => Some(Ok(self.list(version))),
            "tools/call" => Some(self.call(version, request.params.as_ref(), context)),
            _ => None,
        }
    }
}
