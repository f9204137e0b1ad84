//! The contenders and validators shared by the `compare` and `profile` benches.

// The 2026-07-28 examples include types that version deprecates; they are read all the same.
#![allow(deprecated)]

use std::hint::black_box;
use std::rc::Rc;

use mcp_spec_types::tree::Node;
use mcp_spec_types::validate::{validate_node, Options};
use mcp_spec_types::WriteJson;
use mcp_schema_bench::{Corpus, Dir, Kind, Msg};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A typed value that can be written back; lets the write benchmark hold any contender's type.
pub trait Write {
    /// With `serde_json::to_writer`.
    fn write_to(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
    /// With the generated crate's writer (same bytes): `mcp_spec_types::to_vec_into`, the entry
    /// point users call, for a value in [`Fast`], else `mcp_spec_types::serialize_to_vec_into`.
    fn write_fast(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
}

impl<T: Serialize> Write for T {
    fn write_to(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, self)
    }
    fn write_fast(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        mcp_spec_types::serialize_to_vec_into(out, self)
    }
}

/// A value the generated crate's JSON-only path writes (`Value` and mcp-schema's types).
pub struct Fast<T>(pub T);

impl<T: Serialize + WriteJson> Write for Fast<T> {
    fn write_to(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, &self.0)
    }
    fn write_fast(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        mcp_spec_types::to_vec_into(out, &self.0);
        Ok(())
    }
}

pub type ParseFn = Rc<dyn Fn(&Msg) -> bool>;
pub type DecodeFn = Rc<dyn Fn(&Msg) -> Result<Box<dyn Write>, String>>;

/// Which serializer a contender's write row uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    SerdeJson,
    McpSchema,
}

#[allow(dead_code)] // `profile` uses only the ids.
pub struct Contender {
    /// Row label.
    pub name: &'static str,
    /// Criterion id (ASCII).
    pub id: &'static str,
    /// What the contender reads each message as.
    pub reads_as: String,
    /// `None`: cannot represent this corpus, with the reason.
    pub run: Result<(ParseFn, Option<DecodeFn>), String>,
    pub writer: Writer,
    /// A second row for a reading already measured: only its write is benchmarked.
    pub write_only: bool,
}

impl Contender {
    pub fn write(&self, v: &dyn Write, out: &mut Vec<u8>) -> serde_json::Result<()> {
        match self.writer {
            Writer::SerdeJson => v.write_to(out),
            Writer::McpSchema => v.write_fast(out),
        }
    }
}

/// [`typed`] for a type the generated crate's JSON-only path writes: its fast write row uses it.
fn typed_fast<T, F>(name: &'static str, id: &'static str, reads_as: impl Into<String>, f: F) -> Contender
where
    T: Serialize + WriteJson + 'static,
    F: Fn(&Msg) -> Result<T, String> + Clone + 'static,
{
    // The reading row reads the value as it is; only the writes need the wrapper (wrapping
    // there would be a copy of every message that the other contenders' rows do not make).
    let g = f.clone();
    let decode: DecodeFn = Rc::new(move |m| g(m).map(|t| Box::new(Fast(t)) as Box<dyn Write>));
    contender(name, id, reads_as, parse_fn(f), decode)
}

/// A contender for a type read straight from the line's bytes.
fn typed<T, F>(name: &'static str, id: &'static str, reads_as: impl Into<String>, f: F) -> Contender
where
    T: Write + 'static,
    F: Fn(&Msg) -> Result<T, String> + Clone + 'static,
{
    let g = f.clone();
    let decode: DecodeFn = Rc::new(move |m| g(m).map(|t| Box::new(t) as Box<dyn Write>));
    contender(name, id, reads_as, parse_fn(f), decode)
}

/// The reading row of a contender: reads each message and keeps nothing. The value is looked
/// at where it was returned, not moved out (a copy of every message).
fn parse_fn<T: 'static, F: Fn(&Msg) -> Result<T, String> + 'static>(f: F) -> ParseFn {
    Rc::new(move |m| match &f(m) {
        Ok(t) => {
            black_box(t);
            true
        }
        Err(_) => false,
    })
}

fn contender(name: &'static str, id: &'static str, reads_as: impl Into<String>, parse: ParseFn, decode: DecodeFn) -> Contender {
    Contender { name, id, reads_as: reads_as.into(), run: Ok((parse, Some(decode))), writer: Writer::SerdeJson, write_only: false }
}

fn na(name: &'static str, id: &'static str, why: impl Into<String>) -> Contender {
    Contender { name, id, reads_as: String::new(), run: Err(why.into()), writer: Writer::SerdeJson, write_only: false }
}

fn from_slice<'a, T: Deserialize<'a>>(b: &'a [u8]) -> Result<T, String> {
    serde_json::from_slice(b).map_err(|e| e.to_string())
}

/// The generated crate's own reader (guesses members of catch-all unions, see
/// `mcp_spec_types::from_slice`); same values as `serde_json::from_slice`.
fn mcp_from_slice<'a, T: Deserialize<'a>>(b: &'a [u8]) -> Result<T, String> {
    mcp_spec_types::from_slice(b).map_err(|e| e.to_string())
}

/// Through the compact tree: `Doc::parse_slice`, then the type read from its root with the
/// tree's serde `Deserializer` (strings borrowed from the text, numbers parsed on demand).
fn tree_from_slice<T: serde::de::DeserializeOwned>(b: &[u8]) -> Result<T, String> {
    let doc = mcp_spec_types::tree::Doc::parse_slice(b).map_err(|e| e.to_string())?;
    T::deserialize(doc.root()).map_err(|e| e.to_string())
}

/// A row that only reads (its writes would repeat another row's).
fn parse_only<T: 'static>(name: &'static str, id: &'static str, reads_as: impl Into<String>, f: fn(&Msg) -> Result<T, String>) -> Contender {
    let parse = parse_fn(f);
    Contender { name, id, reads_as: reads_as.into(), run: Ok((parse, None)), writer: Writer::SerdeJson, write_only: false }
}

fn ignored() -> Contender {
    let parse: ParseFn = Rc::new(|m| serde_json::from_slice::<IgnoredAny>(&m.bytes).is_ok());
    Contender {
        name: "serde::de::IgnoredAny (floor)",
        id: "ignored",
        reads_as: "IgnoredAny".into(),
        run: Ok((parse, None)),
        writer: Writer::SerdeJson,
        write_only: false,
    }
}

fn value() -> Contender {
    typed_fast("serde_json::Value (baseline)", "value", "Value", |m: &Msg| from_slice::<Value>(&m.bytes))
}

/// Either side's type, written as whichever it holds.
pub enum Side<C, S> {
    C(C),
    S(S),
}

impl<C: Serialize, S: Serialize> Serialize for Side<C, S> {
    fn serialize<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        match self {
            Side::C(c) => c.serialize(s),
            Side::S(v) => v.serialize(s),
        }
    }
}

impl<C: WriteJson, S: WriteJson> WriteJson for Side<C, S> {
    fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Side::C(c) => c.write_json(out),
            Side::S(v) => v.write_json(out),
        }
    }
}

/// The same plain response envelope for every library's specific result type, so the
/// "specific" rows compare only the result types.
#[derive(Serialize, Deserialize)]
struct Response<R> {
    jsonrpc: String,
    id: i64,
    result: R,
}

/// The derived `Serialize`'s bytes, for mcp-schema's result types.
impl<R: WriteJson> WriteJson for Response<R> {
    fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"jsonrpc\":");
        self.jsonrpc.write_json(out);
        out.extend_from_slice(b",\"id\":");
        self.id.write_json(out);
        out.extend_from_slice(b",\"result\":");
        self.result.write_json(out);
        out.push(b'}');
    }
}

/// `validate`: validates what `parse` reads, as the same types (the direction and the keys pick the type).
/// 2026-07-28 has no server-to-client requests, so the type for one is an argument.
macro_rules! validate_by_direction {
    ($server_request:ident) => {
        pub fn validate(msg: &Msg, v: Node<'_>, o: &Options) -> usize {
            let Some(obj) = v.as_object() else { return validate_node::<m::JSONRPCMessage>(v, o).violations.len() };
            let method = obj.contains_key("method");
            let report = match (msg.dir, method, obj.get("id"), obj.get("result")) {
                (Dir::C2S, true, Some(_), _) => validate_node::<m::ClientRequest>(v, o),
                (Dir::C2S, true, None, _) => validate_node::<m::ClientNotification>(v, o),
                (Dir::S2C, true, Some(_), _) => validate_node::<m::$server_request>(v, o),
                (Dir::S2C, true, None, _) => validate_node::<m::ServerNotification>(v, o),
                (Dir::C2S, false, Some(_), Some(r)) => validate_node::<m::ClientResult>(r, o),
                (Dir::S2C, false, Some(_), Some(r)) => validate_node::<m::ServerResult>(r, o),
                _ => validate_node::<m::JSONRPCMessage>(v, o),
            };
            report.violations.len()
        }
    };
}

/// The generated crate's fully typed reading of one line: the version's `ClientMessage` or
/// `ServerMessage` by direction, straight from the bytes (requests and notifications typed by
/// `method`, results by the result union, in one pass).
macro_rules! mcp_typed {
    ($modname:ident, $m:ident) => {
        mod $modname {
            use super::*;
            use mcp_spec_types::$m as m;

            pub fn parse(msg: &Msg) -> Result<Side<m::ClientMessage, m::ServerMessage>, String> {
                Ok(match msg.dir {
                    Dir::C2S => Side::C(mcp_from_slice(&msg.bytes)?),
                    Dir::S2C => Side::S(mcp_from_slice(&msg.bytes)?),
                })
            }

            /// `parse` through the compact tree.
            pub fn parse_tree(msg: &Msg) -> Result<Side<m::ClientMessage, m::ServerMessage>, String> {
                Ok(match msg.dir {
                    Dir::C2S => Side::C(tree_from_slice(&msg.bytes)?),
                    Dir::S2C => Side::S(tree_from_slice(&msg.bytes)?),
                })
            }

            /// `parse` through `serde_json::from_slice` (no guessing).
            pub fn parse_serde_json(msg: &Msg) -> Result<Side<m::ClientMessage, m::ServerMessage>, String> {
                Ok(match msg.dir {
                    Dir::C2S => Side::C(from_slice(&msg.bytes)?),
                    Dir::S2C => Side::S(from_slice(&msg.bytes)?),
                })
            }

            validate_by_direction!(ServerRequest);

            pub fn envelope(msg: &Msg) -> Result<m::JSONRPCMessage, String> {
                from_slice(&msg.bytes)
            }
        }
    };
}

mcp_typed!(mcp_2024_11_05, v2024_11_05);
mcp_typed!(mcp_2025_03_26, v2025_03_26);
mcp_typed!(mcp_2025_06_18, v2025_06_18);
mcp_typed!(mcp_2025_11_25, v2025_11_25);

/// 2026-07-28, for the spec examples and the SDK sessions.
mod mcp_2026_07_28 {
    use super::*;
    use mcp_spec_types::v2026_07_28 as m;

    pub fn parse(msg: &Msg) -> Result<Side<m::ClientMessage, m::ServerMessage>, String> {
        Ok(match msg.dir {
            Dir::C2S => Side::C(mcp_from_slice(&msg.bytes)?),
            Dir::S2C => Side::S(mcp_from_slice(&msg.bytes)?),
        })
    }

    pub fn parse_serde_json(msg: &Msg) -> Result<Side<m::ClientMessage, m::ServerMessage>, String> {
        Ok(match msg.dir {
            Dir::C2S => Side::C(from_slice(&msg.bytes)?),
            Dir::S2C => Side::S(from_slice(&msg.bytes)?),
        })
    }

    pub fn parse_tree(msg: &Msg) -> Result<Side<m::ClientMessage, m::ServerMessage>, String> {
        Ok(match msg.dir {
            Dir::C2S => Side::C(tree_from_slice(&msg.bytes)?),
            Dir::S2C => Side::S(tree_from_slice(&msg.bytes)?),
        })
    }

    pub fn envelope(msg: &Msg) -> Result<m::JSONRPCMessage, String> {
        from_slice(&msg.bytes)
    }

    validate_by_direction!(JSONRPCMessage);

    /// Reads a spec example as the type it is filed under.
    macro_rules! named {
        ($($t:ident),* $(,)?) => {
            pub fn named(msg: &Msg) -> Result<Box<dyn Write>, String> {
                match msg.ty.as_deref().unwrap_or("") {
                    $(stringify!($t) => mcp_from_slice::<m::$t>(&msg.bytes).map(|t| Box::new(Fast(t)) as Box<dyn Write>),)*
                    other => Err(format!("no type {other} in the table")),
                }
            }
            pub fn validate_named(msg: &Msg, v: Node<'_>, o: &Options) -> usize {
                match msg.ty.as_deref().unwrap_or("") {
                    $(stringify!($t) => validate_node::<m::$t>(v, o).violations.len(),)*
                    _ => validate_node::<m::JSONRPCMessage>(v, o).violations.len(),
                }
            }
            pub fn named_ok(msg: &Msg) -> bool {
                match msg.ty.as_deref().unwrap_or("") {
                    $(stringify!($t) => match mcp_from_slice::<m::$t>(&msg.bytes) { Ok(t) => { black_box(&t); true } Err(_) => false },)*
                    _ => false,
                }
            }
        };
    }
    named!(
        AudioContent, BlobResourceContents, BooleanSchema, CallToolRequest, CallToolRequestParams, CallToolResult,
        CallToolResultResponse, CancelledNotification, CancelledNotificationParams, ClientCapabilities, CompleteRequest,
        CompleteRequestParams, CompleteResult, CompleteResultResponse, CreateMessageRequest, CreateMessageRequestParams,
        CreateMessageResult, DiscoverRequest, DiscoverResult, DiscoverResultResponse, ElicitRequest,
        ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult, EmbeddedResource, GetPromptRequest,
        GetPromptRequestParams, GetPromptResult, GetPromptResultResponse, HeaderMismatchError, ImageContent,
        InputRequests, InputRequiredResult, InputResponses, InternalError, InvalidParamsError, ListPromptsRequest,
        ListPromptsResult, ListPromptsResultResponse, ListResourceTemplatesRequest, ListResourceTemplatesResult,
        ListResourceTemplatesResultResponse, ListResourcesRequest, ListResourcesResult, ListResourcesResultResponse,
        ListRootsRequest, ListRootsResult, ListToolsRequest, ListToolsResult, ListToolsResultResponse,
        LoggingMessageNotification, LoggingMessageNotificationParams, MethodNotFoundError,
        MissingRequiredClientCapabilityError, ModelPreferences, NumberSchema, PaginatedRequestParams, ParseError,
        ProgressNotification, ProgressNotificationParams, PromptListChangedNotification, ReadResourceRequest,
        ReadResourceResult, ReadResourceResultResponse, Resource, ResourceLink, ResourceListChangedNotification,
        ResourceUpdatedNotification, ResourceUpdatedNotificationParams, Root, SamplingMessage, ServerCapabilities,
        StringSchema, SubscriptionsAcknowledgedNotification, SubscriptionsListenRequest, SubscriptionsListenResult,
        SubscriptionsListenResultResponse, TextContent, TextResourceContents, TitledMultiSelectEnumSchema,
        TitledSingleSelectEnumSchema, Tool, ToolListChangedNotification, ToolResultContent, ToolUseContent,
        UnsupportedProtocolVersionError, UntitledMultiSelectEnumSchema, UntitledSingleSelectEnumSchema,
    );
}

fn rmcp_msg(m: &Msg) -> Result<Side<rmcp::model::ClientJsonRpcMessage, rmcp::model::ServerJsonRpcMessage>, String> {
    Ok(match m.dir {
        Dir::C2S => Side::C(from_slice(&m.bytes)?),
        Dir::S2C => Side::S(from_slice(&m.bytes)?),
    })
}

fn rms_msg(
    m: &Msg,
) -> Result<Side<rust_mcp_schema::schema_utils::ClientMessage, rust_mcp_schema::schema_utils::ServerMessage>, String> {
    Ok(match m.dir {
        Dir::C2S => Side::C(from_slice(&m.bytes)?),
        Dir::S2C => Side::S(from_slice(&m.bytes)?),
    })
}

const RMS_ONE: &str =
    "rust-mcp-schema 2.0 compiles one protocol version per build (two version features together fail to compile); this run uses 2025_11_25";

pub fn contenders(c: &Corpus) -> Vec<Contender> {
    let mut v = vec![ignored(), value()];
    match c.kind {
        Kind::Session => {
            macro_rules! mcp {
                ($md:ident, $label:literal) => {{
                    v.push(typed_fast("mcp-schema JSONRPCMessage (envelope)", "mcp-envelope", concat!($label, "::JSONRPCMessage"), $md::envelope));
                    v.push(typed_fast(
                        "mcp-schema typed message",
                        "mcp-typed",
                        concat!($label, "::{Client,Server}Message by direction, mcp_spec_types::from_slice"),
                        $md::parse,
                    ));
                    v.push(parse_only(
                        "mcp-schema typed message, serde_json::from_slice",
                        "mcp-typed-sj",
                        concat!($label, "::{Client,Server}Message by direction, serde_json::from_slice (parse only)"),
                        $md::parse_serde_json,
                    ));
                    v.push(parse_only(
                        "mcp-schema typed message, through the compact tree",
                        "mcp-typed-tree",
                        concat!($label, "::{Client,Server}Message by direction, tree::Doc::parse_slice then T::deserialize(root) (parse only)"),
                        $md::parse_tree,
                    ));
                }};
            }
            match c.version {
                "2024-11-05" => mcp!(mcp_2024_11_05, "v2024_11_05"),
                "2025-03-26" => mcp!(mcp_2025_03_26, "v2025_03_26"),
                "2025-06-18" => mcp!(mcp_2025_06_18, "v2025_06_18"),
                "2026-07-28" => mcp!(mcp_2026_07_28, "v2026_07_28"),
                _ => mcp!(mcp_2025_11_25, "v2025_11_25"),
            }
            v.push(typed("rmcp typed message", "rmcp-typed", "{Client,Server}JsonRpcMessage", rmcp_msg));
            let rms_as = if c.version == "2025-11-25" {
                "schema_utils::{Client,Server}Message".to_string()
            } else {
                format!("schema_utils::{{Client,Server}}Message of 2025-11-25 (its {} types cannot be built beside them)", c.version)
            };
            if c.version == "2026-07-28" {
                v.push(na("rust-mcp-schema typed message", "rms-typed", RMS_ONE));
            } else {
                v.push(typed("rust-mcp-schema typed message", "rms-typed", rms_as, rms_msg));
            }
        }
        Kind::ToolsList | Kind::ResourceRead => {
            let tools = c.kind == Kind::ToolsList;
            let r = if tools { "ListToolsResult" } else { "ReadResourceResult" };
            v.push(typed_fast("mcp-schema JSONRPCMessage (envelope)", "mcp-envelope", "v2025_11_25::JSONRPCMessage", mcp_2025_11_25::envelope));
            v.push(typed_fast("mcp-schema typed message", "mcp-typed", "v2025_11_25::ServerMessage, mcp_spec_types::from_slice", mcp_2025_11_25::parse));
            v.push(parse_only(
                "mcp-schema typed message, serde_json::from_slice",
                "mcp-typed-sj",
                "v2025_11_25::ServerMessage, serde_json::from_slice (parse only)",
                mcp_2025_11_25::parse_serde_json,
            ));
            v.push(typed("rmcp typed message", "rmcp-typed", "ServerJsonRpcMessage", rmcp_msg));
            v.push(typed("rust-mcp-schema typed message", "rms-typed", "schema_utils::ServerMessage", rms_msg));
            let spec = format!("Response<{r}> (same derived envelope for all three)");
            if tools {
                v.push(typed_fast("mcp-schema specific result", "mcp-specific", format!("{spec}, v2025_11_25, mcp_spec_types::from_slice"), |m: &Msg| {
                    mcp_from_slice::<Response<mcp_spec_types::v2025_11_25::ListToolsResult>>(&m.bytes)
                }));
                v.push(typed("rmcp specific result", "rmcp-specific", spec.clone(), |m: &Msg| {
                    from_slice::<Response<rmcp::model::ListToolsResult>>(&m.bytes)
                }));
                v.push(typed("rust-mcp-schema specific result", "rms-specific", spec, |m: &Msg| {
                    from_slice::<Response<rust_mcp_schema::ListToolsResult>>(&m.bytes)
                }));
            } else {
                v.push(typed_fast("mcp-schema specific result", "mcp-specific", format!("{spec}, v2025_11_25, mcp_spec_types::from_slice"), |m: &Msg| {
                    mcp_from_slice::<Response<mcp_spec_types::v2025_11_25::ReadResourceResult>>(&m.bytes)
                }));
                v.push(typed("rmcp specific result", "rmcp-specific", spec.clone(), |m: &Msg| {
                    from_slice::<Response<rmcp::model::ReadResourceResult>>(&m.bytes)
                }));
                v.push(typed("rust-mcp-schema specific result", "rms-specific", spec, |m: &Msg| {
                    from_slice::<Response<rust_mcp_schema::ReadResourceResult>>(&m.bytes)
                }));
            }
        }
        Kind::SpecMessages => {
            v.push(typed_fast("mcp-schema JSONRPCMessage (envelope)", "mcp-envelope", "v2026_07_28::JSONRPCMessage", mcp_2026_07_28::envelope));
            v.push(typed_fast(
                "mcp-schema typed message",
                "mcp-typed",
                "v2026_07_28::{Client,Server}Message by direction, mcp_spec_types::from_slice",
                mcp_2026_07_28::parse,
            ));
            v.push(parse_only(
                "mcp-schema typed message, serde_json::from_slice",
                "mcp-typed-sj",
                "v2026_07_28::{Client,Server}Message by direction, serde_json::from_slice (parse only)",
                mcp_2026_07_28::parse_serde_json,
            ));
            v.push(parse_only(
                "mcp-schema typed message, through the compact tree",
                "mcp-typed-tree",
                "v2026_07_28::{Client,Server}Message by direction, tree::Doc::parse_slice then T::deserialize(root) (parse only)",
                mcp_2026_07_28::parse_tree,
            ));
            let parse: ParseFn = Rc::new(mcp_2026_07_28::named_ok);
            let decode: DecodeFn = Rc::new(mcp_2026_07_28::named);
            v.push(Contender {
                name: "mcp-schema specific type",
                id: "mcp-specific",
                reads_as: "the type each example is filed under (CallToolRequest, ListToolsResultResponse, ...), mcp_spec_types::from_slice".into(),
                run: Ok((parse, Some(decode))),
                writer: Writer::SerdeJson,
                write_only: false,
            });
            v.push(typed("rmcp typed message", "rmcp-typed", "{Client,Server}JsonRpcMessage", rmcp_msg));
            v.push(na("rust-mcp-schema typed message", "rms-typed", RMS_ONE));
        }
        Kind::SpecAll => {
            let parse: ParseFn = Rc::new(mcp_2026_07_28::named_ok);
            let decode: DecodeFn = Rc::new(mcp_2026_07_28::named);
            v.push(Contender {
                name: "mcp-schema specific type",
                id: "mcp-specific",
                reads_as: "the type each example is filed under, mcp_spec_types::from_slice".into(),
                run: Ok((parse, Some(decode))),
                writer: Writer::SerdeJson,
                write_only: false,
            });
            v.push(na(
                "rmcp",
                "rmcp-typed",
                "rmcp's model has no one-to-one type for each schema name (params, capabilities, error objects are shaped differently)",
            ));
            v.push(na("rust-mcp-schema", "rms-typed", RMS_ONE));
        }
    }
    with_fast_writer(v)
}

/// Adds, after the rows, a write-only copy of `Value` and of every mcp-schema reading that
/// writes with the generated crate's JSON-only path through the entry point users call,
/// `mcp_spec_types::to_vec_into` (over `WriteJson`),
/// instead of `serde_json::to_writer`.
fn with_fast_writer(mut v: Vec<Contender>) -> Vec<Contender> {
    let mut extra = Vec::new();
    for k in &mut v {
        let Ok((parse, Some(decode))) = &k.run else { continue };
        let (name, id) = match k.id {
            "value" => ("serde_json::Value through mcp_spec_types::to_vec_into", "value-mcpw"),
            "mcp-envelope" => ("mcp-schema JSONRPCMessage (envelope), mcp_spec_types::to_vec_into", "mcp-envelope-mcpw"),
            "mcp-typed" => ("mcp-schema typed message, mcp_spec_types::to_vec_into", "mcp-typed-mcpw"),
            "mcp-specific" if k.name.ends_with("type") => ("mcp-schema specific type, mcp_spec_types::to_vec_into", "mcp-specific-mcpw"),
            "mcp-specific" => ("mcp-schema specific result, mcp_spec_types::to_vec_into", "mcp-specific-mcpw"),
            _ => {
                k.reads_as.push_str("; writes with serde_json::to_writer");
                continue;
            }
        };
        extra.push(Contender {
            name,
            id,
            reads_as: format!("{}; writes with mcp_spec_types::to_vec_into (write only)", k.reads_as),
            run: Ok((parse.clone(), Some(decode.clone()))),
            writer: Writer::McpSchema,
            write_only: true,
        });
        k.reads_as.push_str("; writes with serde_json::to_writer");
    }
    v.extend(extra);
    v
}

/// What validation costs per corpus: `validate_node::<T>` on the message's compact tree, with the types the
/// typed reading uses.
pub fn validator(c: &Corpus) -> Box<dyn Fn(&Msg, Node<'_>) -> usize> {
    let o = Options::default();
    match (c.kind, c.version) {
        (Kind::Session, "2024-11-05") => Box::new(move |m, v| mcp_2024_11_05::validate(m, v, &o)),
        (Kind::Session, "2025-03-26") => Box::new(move |m, v| mcp_2025_03_26::validate(m, v, &o)),
        (Kind::Session, "2025-06-18") => Box::new(move |m, v| mcp_2025_06_18::validate(m, v, &o)),
        (Kind::Session, "2026-07-28") => Box::new(move |m, v| mcp_2026_07_28::validate(m, v, &o)),
        (Kind::Session, _) => Box::new(move |m, v| mcp_2025_11_25::validate(m, v, &o)),
        (Kind::ToolsList, _) => Box::new(move |_, v| {
            v.get("result").map_or(0, |r| validate_node::<mcp_spec_types::v2025_11_25::ListToolsResult>(r, &o).violations.len())
        }),
        (Kind::ResourceRead, _) => Box::new(move |_, v| {
            v.get("result").map_or(0, |r| validate_node::<mcp_spec_types::v2025_11_25::ReadResourceResult>(r, &o).violations.len())
        }),
        (Kind::SpecMessages | Kind::SpecAll, _) => Box::new(move |m, v| mcp_2026_07_28::validate_named(m, v, &o)),
    }
}

