//! A Skills host client (`io.modelcontextprotocol/skills`, protocol 2026-07-28) on the engine's `skills`
//! feature: lists every skill (every page), gets each one and checks it is its listing, reads and verifies
//! every file of every skill (size, digest, and the `SKILL.md` frontmatter against the entry), asks for a
//! skill that is not served and for a file no skill lists, and where the server declares `directoryRead`,
//! reads every directory of every skill and a URI that is not a directory. One line per step; a file that
//! does not verify ends the run with its reason.
//!
//! `skills_client [--version 2026-07-28] SERVER ARGS...` starts the server over stdio;
//! `skills_client URL` speaks Streamable HTTP to it.
//!
//! ```sh
//! cargo run -q -p mcp-schema-examples --bin skills_client -- cargo run -q -p mcp-schema-examples --bin skills_server -- path/to/skills
//! ```

#![forbid(unsafe_code)]
use std::collections::{BTreeSet, VecDeque};
use std::error::Error;
use std::process::Command;
use std::time::Duration;

use mcp_spec_engine::skills::client::TIMEOUT;
use mcp_spec_engine::skills::{rules, ClientError, HeldSkill, SkillsClient, Transport, FIRST_VERSION};
use mcp_spec_engine::{blocking, http, CallError, Client, Config, PerRequest, RequestError};
use mcp_spec_types::runtime::RequestMethod;
use mcp_spec_types::skills::{DiscoverRequest, RequestId, RequestMetaObject, RequestParams, Skill, SkillResources};
use serde_json::{json, Value};

/// Streamable HTTP through the engine's async client, driven to completion on a runtime of its own.
struct Http {
    runtime: tokio::runtime::Runtime,
    conn: http::client::Connection,
}

impl Transport for Http {
    fn send<R: RequestMethod>(&mut self, request: R) -> Result<R::Result, CallError> {
        self.runtime.block_on(self.conn.call(request, Some(TIMEOUT), |_, _| {}))
    }
}

fn discover<T: Transport>(transport: &mut T) -> Result<Value, Box<dyn Error>> {
    let found = transport.send(DiscoverRequest::new(RequestParams::new(RequestMetaObject::default()), RequestId::Integer(0)))?;
    Ok(serde_json::to_value(found.capabilities)?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).skip_while(|a| a == "--").collect();
    if args.first().map(String::as_str) == Some("--version") {
        let version = args.get(1).cloned().unwrap_or_default();
        if version != FIRST_VERSION {
            return Err(format!("Skills is specified on {FIRST_VERSION} only, not {version}").into());
        }
        args.drain(..2);
    }
    let (program, rest) = args.split_first().ok_or("usage: skills_client [--version 2026-07-28] SERVER ARGS... | URL")?;
    let info = json!({"name": "skills_client", "version": "0.1.0"});
    let client = || -> Result<Client, Box<dyn Error>> { Ok(Client::per_request(Config::default(), PerRequest::new(FIRST_VERSION, &json!({}))?.client_info(&info)?)) };
    if program.starts_with("http://") || program.starts_with("https://") {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let conn = runtime.block_on(async { http::client::Connection::new(program, client()?, http::client::Limits::default()).map_err(Box::<dyn Error>::from) })?;
        let mut transport = Http { runtime, conn };
        let capabilities = discover(&mut transport)?;
        return tour(&mut SkillsClient::new(transport, &capabilities)?);
    }
    let mut conn = blocking::Connection::spawn(client()?, Command::new(program).args(rest))?;
    let capabilities = discover(&mut conn)?;
    let mut skills = SkillsClient::new(conn, &capabilities)?;
    let toured = tour(&mut skills);
    skills.into_transport().close(Duration::from_secs(5))?;
    toured
}

/// An entry the Agent Skills rules or the digest form would refuse.
fn invalid(skill: &Skill) -> bool {
    let bad_digest = matches!(&skill.resources, SkillResources::SkillResourceArray(files) if files.iter().any(|f| !rules::is_digest(&f.digest)));
    rules::name_problem(&skill.frontmatter.name).is_some() || rules::path_name(&skill.uri).is_none() || bad_digest
}

fn tour<T: Transport>(skills: &mut SkillsClient<T>) -> Result<(), Box<dyn Error>> {
    let entries = skills.list()?;
    println!("list: {} skills, {} invalid", entries.len(), entries.iter().filter(|s| invalid(s)).count());
    for listed in &entries {
        let got = skills.get(&listed.uri)?;
        if &got != listed {
            return Err(format!("skills/get {} differs from its listing", listed.uri).into());
        }
        let mut held = HeldSkill::new(got);
        let files: Vec<String> = held.files().unwrap_or_default().iter().map(|f| f.uri.clone()).collect();
        let mut bytes = 0;
        for uri in &files {
            bytes += skills.read(&mut held, uri)?.len();
        }
        println!("skill {} {}: {} files, {bytes} bytes verified", listed.uri, listed.frontmatter.name, files.len());
    }
    println!("get unknown: {}", code(skills.get("skill://not-served/SKILL.md")));
    // Past the held entry, which refuses an unlisted file before sending: the server's own answer.
    if let Some(first) = entries.first() {
        let unlisted = first.uri.replace(rules::SKILL_FILE, "not-listed.md");
        println!("read unlisted: {}", code(skills.read_unverified(&unlisted)));
    }
    let mut seen = BTreeSet::new();
    for listed in &entries {
        let root = rules::skill_directory(&listed.uri).unwrap_or(&listed.uri).to_owned();
        let mut pending = VecDeque::from([root]);
        while let Some(dir) = pending.pop_front() {
            if !seen.insert(dir.clone()) {
                continue;
            }
            let children = match skills.read_directory(&dir) {
                Err(ClientError::NotDeclared(what)) => {
                    println!("directoryRead: not declared ({what})");
                    return Ok(());
                }
                other => other?,
            };
            pending.extend(children.iter().filter(|r| r.mime_type.as_deref() == Some(rules::DIRECTORY_MIME_TYPE)).map(|r| r.uri.clone()));
            println!("directory {dir}: {}", children.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(" "));
        }
    }
    if let Some(first) = entries.first() {
        println!("directory of a file: {}", code(skills.read_directory(&first.uri)));
    }
    Ok(())
}

/// The JSON-RPC error code of a call that should fail, or what happened instead.
fn code<T>(result: Result<T, ClientError>) -> String {
    match result {
        Ok(_) => "no error".into(),
        Err(ClientError::Call(CallError::Request(RequestError::Rpc(e)))) => e.code.to_string(),
        Err(e) => e.to_string(),
    }
}
