//! A minimal MCP client over stdio (protocol 2025-11-25), written with the generated types alone.
//!
//! It starts the `stdio_server` example (built next to this binary) and talks to it over its
//! stdin and stdout: `initialize`, `notifications/initialized`, `tools/list`, then two
//! `tools/call`s, one of a tool the server does not have. Each answer is read as the type its
//! request names (`RequestMethod::Result`), and what it says is printed.
//!
//! ```sh
//! cargo build -q -p mcp-schema-examples && cargo run -q -p mcp-schema-examples --bin stdio_client
//! ```

use std::io::{self, BufRead, BufReader, Lines, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

use mcp_spec_types::runtime::{read_response, Message, RequestMethod, Response};
use mcp_spec_types::v2025_11_25::{
    self as mcp, CallToolRequest, CallToolRequestParams, ClientMessage, ClientRequest,
    InitializeRequest, ListToolsRequest, RequestId,
};
use serde_json::json;

fn main() -> io::Result<()> {
    let server = std::env::current_exe()?
        .with_file_name(format!("stdio_server{}", std::env::consts::EXE_SUFFIX));
    let mut child = Command::new(server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut server = Connection {
        to: child.stdin.take().expect("piped stdin"),
        from: BufReader::new(child.stdout.take().expect("piped stdout")).lines(),
        next_id: 0,
    };

    let info = mcp::Implementation::new("example-stdio-client", "0.1.0");
    let params = mcp::InitializeRequestParams::new(
        mcp::LATEST_PROTOCOL_VERSION,
        mcp::ClientCapabilities::default(),
        info,
    );
    let init = server.request(|id| InitializeRequest::new(params, id))?;
    let init = ok(init)?;
    println!(
        "server: {} {}, protocol {}",
        init.server_info.name, init.server_info.version, init.protocol_version
    );
    server.send(&Message::Notification(
        mcp::InitializedNotification::default().into(),
    ))?;

    let tools = ok(server.request(ListToolsRequest::new)?)?;
    for tool in &tools.tools {
        let description = tool.description.as_deref().unwrap_or_default();
        println!("tool: {} - {description}", tool.name);
    }

    for (name, arguments) in [("add", json!({"a": 2, "b": 40})), ("weather", json!({}))] {
        let params = CallToolRequestParams {
            arguments: arguments.as_object().cloned(),
            ..CallToolRequestParams::new(name)
        };
        match server.request(|id| CallToolRequest::new(params, id))? {
            Response::Result { result, .. } => {
                let structured = result.structured_content.map(serde_json::Value::Object);
                println!(
                    "{name}: structured content {}",
                    structured.unwrap_or_default()
                );
            }
            Response::Error { error, .. } => {
                println!("{name}: error {} {}", error.code, error.message);
            }
        }
    }

    // End of input ends the server.
    drop(server);
    let status = child.wait()?;
    println!("server exited: {}", status.success());
    Ok(())
}

/// A server at the other end of two pipes.
struct Connection {
    to: ChildStdin,
    from: Lines<BufReader<ChildStdout>>,
    next_id: i64,
}

impl Connection {
    fn send(&mut self, message: &ClientMessage) -> io::Result<()> {
        writeln!(self.to, "{}", mcp_spec_types::to_string(message)?)?;
        self.to.flush()
    }

    /// Sends a request and reads its response as the request's result type, or its error. This
    /// server asks nothing of the client, so the next line is the answer.
    fn request<R: RequestMethod + Into<ClientRequest>>(
        &mut self,
        make: impl FnOnce(RequestId) -> R,
    ) -> io::Result<Response<R::Result>> {
        self.next_id += 1;
        self.send(&Message::Request(
            make(RequestId::Integer(self.next_id)).into(),
        ))?;
        let line = self
            .from
            .next()
            .unwrap_or_else(|| Err(io::Error::other("the server closed its output")))?;
        read_response::<R>(&line).map_err(io::Error::other)
    }
}

/// The result of a request that must succeed.
fn ok<T>(response: Response<T>) -> io::Result<T> {
    match response {
        Response::Result { result, .. } => Ok(result),
        Response::Error { error, .. } => Err(io::Error::other(format!(
            "error {}: {}",
            error.code, error.message
        ))),
    }
}
