//! rmcp 3.11's client as a Skills host, against the server given on the command line over stdio: the
//! same steps and the same output lines as ../ts-client.mjs, so the two hosts can be compared on any server.
//! rmcp's client sends the calls and leaves verification to the host: each file's size and digest are checked
//! here with rmcp's `SkillResource::verify`; the `SKILL.md` frontmatter is not compared (rmcp's parser is private).
//!
//!   skills-rmcp-client [--version 2026-07-28|2025-11-25] SERVER [ARGS...]

#![forbid(unsafe_code)]

use std::collections::{BTreeSet, VecDeque};

use base64::Engine;
use rmcp::model::{
    ClientCapabilities, ClientConfig, GetSkillRequestParams, Implementation, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ResourceContents,
    SkillResources, DIRECTORY_MIME_TYPE,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, Peer, RoleClient, ServiceError};
use rmcp::transport::TokioChildProcess;

type Failure = Box<dyn std::error::Error>;

/// The JSON-RPC error code of a failed call, or why it did not fail.
fn error_code<T>(result: Result<T, ServiceError>) -> String {
    match result {
        Ok(_) => "no error".into(),
        Err(ServiceError::McpError(error)) => error.code.0.to_string(),
        Err(other) => other.to_string(),
    }
}

/// The bytes of the one content of a `resources/read` result.
fn bytes_of(contents: &[ResourceContents], uri: &str) -> Result<Vec<u8>, Failure> {
    let [content] = contents else {
        return Err(format!("{uri}: {} contents, not one", contents.len()).into());
    };
    Ok(match content {
        ResourceContents::TextResourceContents { text, .. } => text.clone().into_bytes(),
        ResourceContents::BlobResourceContents { blob, .. } => {
            base64::engine::general_purpose::STANDARD.decode(blob)?
        }
        other => return Err(format!("{uri}: unexpected contents {other:?}").into()),
    })
}

async fn host(peer: &Peer<RoleClient>) -> Result<(), Failure> {
    let entries = peer.list_all_skills().await?;
    println!("list: {} skills, 0 invalid", entries.len());
    for listed in &entries {
        let skill = peer
            .get_skill(GetSkillRequestParams::new(&listed.uri))
            .await?
            .skill;
        if &skill != listed {
            return Err(format!("skills/get {} differs from its listing", listed.uri).into());
        }
        let files = match &skill.resources {
            SkillResources::Files(files) => files.clone(),
            _ => Vec::new(),
        };
        let mut total = 0;
        for file in &files {
            let read = peer
                .read_resource(ReadResourceRequestParams::new(&file.uri))
                .await?;
            let bytes = bytes_of(&read.contents, &file.uri)?;
            file.verify(&bytes)?;
            total += bytes.len();
        }
        println!(
            "skill {} {}: {} files, {total} bytes verified",
            skill.uri,
            skill.frontmatter.name,
            files.len()
        );
    }
    println!(
        "get unknown: {}",
        error_code(
            peer.get_skill(GetSkillRequestParams::new("skill://not-served/SKILL.md"))
                .await
        )
    );
    let unlisted = entries
        .first()
        .ok_or("no skills listed")?
        .uri
        .replace("/SKILL.md", "/not-listed.md");
    let read = peer
        .read_resource(ReadResourceRequestParams::new(unlisted))
        .await;
    println!("read unlisted: {}", error_code(read));
    let directory_read = peer
        .peer_info()
        .is_some_and(|info| info.capabilities.supports_directory_read());
    if !directory_read {
        println!("directoryRead: not declared");
        return Ok(());
    }
    // A nested skill's root is also a directory of the skill around it: read once.
    let mut seen = BTreeSet::new();
    for listed in &entries {
        let mut pending = VecDeque::from([listed.uri.trim_end_matches("/SKILL.md").to_string()]);
        while let Some(dir) = pending.pop_front() {
            if !seen.insert(dir.clone()) {
                continue;
            }
            let read = peer
                .read_resource_directory(ReadResourceDirectoryRequestParams::new(&dir))
                .await?;
            let children = read.resources;
            pending.extend(
                children
                    .iter()
                    .filter(|r| r.mime_type.as_deref() == Some(DIRECTORY_MIME_TYPE))
                    .map(|r| r.uri.clone()),
            );
            let names: Vec<&str> = children.iter().map(|r| r.name.as_str()).collect();
            println!("directory {dir}: {}", names.join(" "));
        }
    }
    let file = &entries.first().ok_or("no skills listed")?.uri;
    println!(
        "directory of a file: {}",
        error_code(
            peer.read_resource_directory(ReadResourceDirectoryRequestParams::new(file))
                .await
        )
    );
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Failure> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut version = ProtocolVersion::V_2026_07_28;
    if args.first().map(String::as_str) == Some("--version") && args.len() > 1 {
        version = match args[1].as_str() {
            "2026-07-28" => ProtocolVersion::V_2026_07_28,
            "2025-11-25" => ProtocolVersion::V_2025_11_25,
            other => return Err(format!("unsupported --version {other}").into()),
        };
        args.drain(..2);
    }
    let (command, rest) = args
        .split_first()
        .ok_or("usage: skills-rmcp-client [--version V] SERVER [ARGS...]")?;
    let mut server = tokio::process::Command::new(command);
    server.args(rest);
    let lifecycle = if version.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![version.clone()],
        }
    };
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("skills-rmcp-host", "3.11.0"),
    )
    .with_protocol_version(version);
    let client = info
        .serve_with_lifecycle(TokioChildProcess::new(server)?, lifecycle)
        .await?;
    let outcome = host(client.peer()).await;
    client.cancel().await?;
    outcome
}
