//! A Skills server of a folder: the skills [`folder::load`] found, answering `skills/list`,
//! `skills/get`, `resources/list`, `resources/read` and `resources/directory/read` with the types of
//! the generated `skills` module.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde::Serialize;
use serde_json::{json, Value};

use super::folder::{self, Loaded, LoadedSkill, OverLimits};
use super::rules::DIRECTORY_MIME_TYPE;
use super::{since_skills, EXTENSION};
use crate::Request;
use mcp_spec_types::negotiate::INVALID_PARAMS;
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::skills::{
    BlobResourceContents, CacheableResultCacheScope, GetSkillRequestParams, GetSkillResult, ListResourcesResult, ListSkillsResult, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResult, Resource, Skill, SkillFrontmatter, SkillResource, SkillResources, TextResourceContents,
};

/// Entries per page of `skills/list`, `resources/list` and `resources/directory/read` by default.
pub const PAGE_SIZE: usize = 100;

/// One served file: where it is, and the resource metadata it is listed with.
#[derive(Debug, Clone)]
struct Served {
    path: PathBuf,
    resource: Resource,
}

/// The skills of a folder, served (see the [module documentation](super)).
#[derive(Debug, Clone)]
pub struct SkillsServer {
    root: PathBuf,
    skills: Vec<LoadedSkill>,
    files: BTreeMap<String, Served>,
    // Directory URI → its direct children's URIs (files and directories), in order.
    directories: BTreeMap<String, Vec<String>>,
    page_size: usize,
    ttl_ms: u64,
    public: bool,
}

impl SkillsServer {
    /// Loads `root` with the per-skill limits refused; [`Loaded::refused`] says which skills are not
    /// served and why.
    pub fn load(root: &Path) -> io::Result<(Self, Loaded)> {
        Self::load_with(root, OverLimits::Refuse)
    }

    pub fn load_with(root: &Path, over_limits: OverLimits) -> io::Result<(Self, Loaded)> {
        let loaded = folder::load(root, over_limits)?;
        Ok((Self::of(root.canonicalize()?, loaded.skills.clone()), loaded))
    }

    fn of(root: PathBuf, skills: Vec<LoadedSkill>) -> Self {
        let mut files = BTreeMap::new();
        let mut directories: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for skill in &skills {
            for file in &skill.files {
                let leaf = file.uri.rsplit('/').next().unwrap_or_default();
                let mut resource = Resource::new(leaf, file.uri.as_str());
                resource.mime_type = Some(mime_type(&file.path));
                resource.size = i64::try_from(file.size).ok();
                files.entry(file.uri.clone()).or_insert(Served { path: file.path.clone(), resource });
                // Every directory from the authority down holds the next level.
                let mut child = file.uri.as_str();
                while let Some((parent, _)) = child.rsplit_once('/').filter(|(p, _)| p.len() > folder::SCHEME.len()) {
                    let children = directories.entry(parent.to_owned()).or_default();
                    if !children.iter().any(|c| c == child) {
                        children.push(child.to_owned());
                    }
                    child = parent;
                }
            }
        }
        // A `SKILL.md` is listed with its skill's name and description, as the spec recommends.
        for skill in &skills {
            if let Some(served) = files.get_mut(&skill.uri) {
                served.resource.name = skill.name().to_owned();
                served.resource.description = skill.description().map(str::to_owned);
            }
        }
        for children in directories.values_mut() {
            children.sort();
        }
        SkillsServer { root, skills, files, directories, page_size: PAGE_SIZE, ttl_ms: 0, public: false }
    }

    /// Entries per page (at least 1).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// `ttlMs` and `cacheScope` of the listings, the entries and the reads, as
    /// [`Router::cache`](crate::tools::Router): by default 0 and private.
    pub fn cache(mut self, ttl_ms: u64, public: bool) -> Self {
        (self.ttl_ms, self.public) = (ttl_ms, public);
        self
    }

    pub fn skills(&self) -> &[LoadedSkill] {
        &self.skills
    }

    /// The server's capabilities: `resources` and the extension with `directoryRead`.
    pub fn capabilities(&self) -> Value {
        json!({"resources": {}, "extensions": {EXTENSION: {"directoryRead": true}}})
    }

    /// Answers `request` when it is one of this server's methods in a session of 2026-07-28 or
    /// later; `None` otherwise (the caller answers it, or -32601).
    pub fn handle(&self, version: &str, request: &Request) -> Option<Result<Value, RpcError>> {
        if !since_skills(version) {
            return None;
        }
        let params = request.params.clone().unwrap_or_else(|| json!({}));
        Some(match request.method.as_str() {
            "skills/list" => self.list_skills(&params),
            "skills/get" => self.get_skill(params),
            "resources/list" => self.list_resources(&params),
            "resources/read" => self.read(params),
            "resources/directory/read" => self.read_directory(params),
            _ => return None,
        })
    }

    fn scope(&self) -> CacheableResultCacheScope {
        if self.public { CacheableResultCacheScope::Public } else { CacheableResultCacheScope::Private }
    }

    fn ttl(&self) -> i64 {
        i64::try_from(self.ttl_ms).unwrap_or(i64::MAX)
    }

    fn list_skills(&self, params: &Value) -> Result<Value, RpcError> {
        let (page, next) = self.page(&self.skills, params)?;
        let mut result = ListSkillsResult::new(self.ttl(), self.scope(), page.iter().map(entry).collect());
        result.next_cursor = next;
        to_value(&result)
    }

    fn get_skill(&self, params: Value) -> Result<Value, RpcError> {
        let params: GetSkillRequestParams = read_params(params, "skills/get")?;
        let skill = self.skills.iter().find(|s| s.uri == params.uri).ok_or_else(|| invalid(format!("No skill is served at {}", params.uri)))?;
        to_value(&GetSkillResult::new(self.ttl(), self.scope(), entry(skill)))
    }

    fn list_resources(&self, params: &Value) -> Result<Value, RpcError> {
        let all: Vec<&Served> = self.files.values().collect();
        let (page, next) = self.page(&all, params)?;
        let mut result = ListResourcesResult::new(self.ttl(), self.scope(), page.iter().map(|s| s.resource.clone()).collect());
        result.next_cursor = next;
        to_value(&result)
    }

    fn read(&self, params: Value) -> Result<Value, RpcError> {
        let params: ReadResourceRequestParams = read_params(params, "resources/read")?;
        let served = self.files.get(&params.uri).ok_or_else(|| invalid(format!("No resource is served at {}", params.uri)))?;
        let bytes = self.bytes(&served.path)?;
        let mime = served.resource.mime_type.clone();
        let contents = match String::from_utf8(bytes) {
            Ok(text) => TextResourceContents { mime_type: mime, ..TextResourceContents::new(params.uri.as_str(), text) }.into(),
            Err(e) => {
                let blob = base64::engine::general_purpose::STANDARD.encode(e.as_bytes());
                BlobResourceContents { mime_type: mime, ..BlobResourceContents::new(params.uri.as_str(), blob) }.into()
            }
        };
        to_value(&ReadResourceResult::new(self.ttl(), self.scope(), vec![contents]))
    }

    /// A served file's bytes, read now; its path is checked again to be inside the folder (a link
    /// may have been replaced since the folder was loaded).
    fn bytes(&self, path: &Path) -> Result<Vec<u8>, RpcError> {
        let internal = |why: String| RpcError { code: mcp_spec_types::rpc::INTERNAL_ERROR, message: why, data: None };
        let now = path.canonicalize().map_err(|e| internal(format!("the file is gone: {e}")))?;
        if !now.starts_with(&self.root) {
            return Err(internal("the file now leads outside the served folder".into()));
        }
        std::fs::read(&now).map_err(|e| internal(format!("the file cannot be read: {e}")))
    }

    fn read_directory(&self, params: Value) -> Result<Value, RpcError> {
        let params: ReadResourceDirectoryRequestParams = read_params(params, "resources/directory/read")?;
        let children = self.directories.get(&params.uri).ok_or_else(|| invalid(format!("{} is not a directory resource", params.uri)))?;
        let cursor = json!({"cursor": params.cursor});
        let (page, next) = self.page(children, &cursor)?;
        let resources = page
            .iter()
            .map(|uri| {
                // In a directory, each child is named as its entry there (`SKILL.md`, not the skill's name).
                let leaf = uri.rsplit('/').next().unwrap_or_default();
                match self.files.get(uri) {
                    Some(served) => Resource { name: leaf.to_owned(), ..served.resource.clone() },
                    None => Resource { mime_type: Some(DIRECTORY_MIME_TYPE.into()), ..Resource::new(leaf, uri.as_str()) },
                }
            })
            .collect();
        let mut result = ReadResourceDirectoryResult::new(resources);
        result.next_cursor = next;
        // Not a cacheable result in the spec, but the TypeScript SDK's client refuses one without
        // these (both SDKs' servers send them); a result may carry keys it does not name.
        result.extra.insert("ttlMs".into(), Value::from(self.ttl()));
        result.extra.insert("cacheScope".into(), serde_json::to_value(self.scope()).unwrap_or_default());
        to_value(&result)
    }

    /// The page `params.cursor` names (the offset as text) and the next one's cursor.
    fn page<'a, T>(&self, all: &'a [T], params: &Value) -> Result<(&'a [T], Option<String>), RpcError> {
        let start = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => c.parse::<usize>().ok().filter(|&at| at <= all.len()).ok_or_else(|| invalid(format!("Invalid params: `{}` is not a cursor of this server", c.chars().take(64).collect::<String>())))?,
            Some(_) => return Err(invalid("Invalid params: the cursor is not a string".into())),
        };
        let end = start.saturating_add(self.page_size).min(all.len());
        Ok((&all[start..end], (end < all.len()).then(|| end.to_string())))
    }
}

/// A skill's entry as `skills/list` and `skills/get` give it.
fn entry(skill: &LoadedSkill) -> Skill {
    let mut frontmatter = SkillFrontmatter::new(skill.name(), skill.description().unwrap_or_default());
    frontmatter.extra = skill.frontmatter.iter().filter(|(k, _)| !matches!(k.as_str(), "name" | "description")).map(|(k, v)| (k.clone(), v.clone())).collect();
    let files = skill.files.iter().map(|f| SkillResource::new(f.uri.as_str(), f.digest.as_str(), i64::try_from(f.size).unwrap_or(i64::MAX))).collect();
    Skill::new(skill.uri.as_str(), frontmatter, SkillResources::SkillResourceArray(files))
}

/// A MIME type from the file's extension; `text/plain` for others.
fn mime_type(path: &Path) -> String {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    match ext.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "py" => "text/x-python",
        "sh" => "text/x-shellscript",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "html" | "htm" => "text/html",
        "csv" => "text/csv",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "bin" => "application/octet-stream",
        _ => "text/plain",
    }
    .to_owned()
}

fn invalid(message: String) -> RpcError {
    RpcError { code: INVALID_PARAMS, message, data: None }
}

fn read_params<T: serde::de::DeserializeOwned>(params: Value, method: &str) -> Result<T, RpcError> {
    serde_json::from_value(params).map_err(|e| invalid(format!("Invalid params of {method}: {e}")))
}

fn to_value(result: &impl Serialize) -> Result<Value, RpcError> {
    serde_json::to_value(result).map_err(|e| RpcError { code: mcp_spec_types::rpc::INTERNAL_ERROR, message: format!("the result did not serialize: {e}"), data: None })
}
