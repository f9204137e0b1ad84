//! rmcp 3.11's Skills server: its `skills-fs` catalog of a folder (digests computed by rmcp) answers
//! `skills/list`, `skills/get`, `resources/directory/read` and the skill files' `resources/read`; the server
//! declares `resources` and the extension with `directoryRead`. Over stdio, or with --http over Streamable
//! HTTP (rmcp's service in axum at 127.0.0.1, a free port; the first line on stdout is the endpoint's URL).
//!
//!   skills-rmcp-server [--http] SKILLS_FOLDER

#![forbid(unsafe_code)]

use std::sync::Arc;

use rmcp::handler::server::skill_catalog::SkillCatalog;
use rmcp::model::{
    GetSkillRequestParams, GetSkillResult, Implementation, ListResourcesResult, ListSkillsResult,
    PaginatedRequestParams, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

#[derive(Clone)]
struct Skills(Arc<SkillCatalog>);

impl ServerHandler for Skills {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_resources()
            .enable_skills_with_directory_read()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("skills-rmcp", "3.11.0"))
    }

    async fn list_skills(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(self.0.list_skills())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.0.get_skill(&request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.0.read_resource_directory(&request.uri)
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.0.resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match self.0.read_resource(&request.uri) {
            Some(result) => Ok(result.into()),
            None => Err(ErrorData::resource_not_found(request.uri, None)),
        }
    }
}

/// Serves `skills` over Streamable HTTP until SIGTERM, announcing the URL first.
async fn serve_http(skills: Skills) -> Result<(), Box<dyn std::error::Error>> {
    use rmcp::transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpService,
    };
    let service = StreamableHttpService::new(
        move || Ok(skills.clone()),
        LocalSessionManager::default().into(),
        Default::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("http://{}/mcp", listener.local_addr()?);
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            term.recv().await;
        })
        .await?;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let http = args.first().map(String::as_str) == Some("--http");
    if http {
        args.remove(0);
    }
    let folder = args
        .first()
        .ok_or("usage: skills-rmcp-server [--http] SKILLS_FOLDER")?;
    let skills = Skills(Arc::new(SkillCatalog::from_dir(folder)?));
    if http {
        return serve_http(skills).await;
    }
    let running = skills.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
