//! A Skills server (`io.modelcontextprotocol/skills`, protocol 2026-07-28) of a folder, on the engine's
//! `skills` feature: every directory holding a `SKILL.md` is a skill, with its files' digests computed
//! at start. Skills the server will not serve (a name against the Agent Skills rules, a link out of the
//! folder, over the per-skill limits) are named on stderr.
//!
//! `skills_server FOLDER` serves over stdio; `skills_server --http FOLDER` over Streamable HTTP on a free
//! port of 127.0.0.1, whose endpoint URL is the first line it prints (`--listen ADDR` picks the address).
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin skills_client -- cargo run -q -p mcp-schema-examples --bin skills_server -- path/to/skills
//! ```

#![forbid(unsafe_code)]
use std::path::PathBuf;
use std::sync::Arc;

use mcp_spec_engine::blocking::Connection;
use mcp_spec_engine::http::server::{serve, McpService, RequestContext};
use mcp_spec_engine::skills::{SkillsServer, FIRST_VERSION};
use mcp_spec_engine::{Config, Event, Request, Server, ServerInfo};
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::rpc::METHOD_NOT_FOUND;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let folder = args.iter().rev().find(|a| !a.starts_with("--")).map(PathBuf::from).ok_or("usage: skills_server [--http [--listen ADDR]] FOLDER")?;
    let (skills, loaded) = SkillsServer::load(&folder)?;
    for refused in &loaded.refused {
        eprintln!("not served: {refused}");
    }
    for warning in &loaded.warnings {
        eprintln!("warning: {warning}");
    }
    // The extension exists from 2026-07-28 on: no other version is served.
    let info = ServerInfo::new("skills_server", "0.1.0").versions(&[FIRST_VERSION]).capabilities(&skills.capabilities())?;
    let skills = Arc::new(skills);
    if !args.iter().any(|a| a == "--http") {
        return stdio(info, &skills);
    }
    let listen = args.iter().skip_while(|a| *a != "--listen").nth(1).cloned().unwrap_or_else(|| "127.0.0.1:0".into());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&listen).await?;
        println!("http://{}/mcp", listener.local_addr()?);
        let service = McpService::new(info, move |request: Request, cx: RequestContext| {
            let skills = skills.clone();
            async move { skills.handle(&cx.version(), &request) }
        });
        Ok(serve(listener, service).await?)
    })
}

fn stdio(info: ServerInfo, skills: &SkillsServer) -> Result<(), Box<dyn std::error::Error>> {
    let mut conn = Connection::stdio(Server::with_info(Config::default(), info));
    while let Some(event) = conn.next_event()? {
        let Event::Request(request) = event else { continue };
        let version = conn.engine().version_of(&request.id).unwrap_or(FIRST_VERSION).to_owned();
        let cx = conn.context(&request);
        match skills.handle(&version, &request) {
            Some(Ok(result)) => cx.respond(&result),
            Some(Err(error)) => cx.respond_error(error),
            None => cx.respond_error(RpcError { code: METHOD_NOT_FOUND, message: format!("Method not found: {}", request.method), data: None }),
        }
    }
    Ok(())
}
