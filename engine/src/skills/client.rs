//! A Skills client: the listing (every page), one skill's entry, and reads of a skill's files
//! verified against the entry the client holds, as the spec asks of a host:
//!
//! - a file the held entry lists is returned only if its size and SHA-256 digest are the entry's;
//! - a file of the skill the entry does not list is refused before any request is sent;
//! - a `SKILL.md` read also has its frontmatter compared, field by field, with the entry's;
//! - a skill whose `resources` is `"dynamic"` has nothing to verify against: its files (inside its
//!   directory) are returned as read, up to 16 MiB in all, the per-skill bound.
//!
//! [`HeldSkill`] is the verification alone (no I/O); [`SkillsClient`] sends the requests through
//! any [`Transport`] (the blocking [`Connection`](crate::blocking::Connection) is one).

use std::fmt;
use std::time::Duration;

use base64::Engine as _;
use serde_json::Value;

use super::frontmatter;
use super::rules::{is_digest, skill_directory, within, MAX_TOTAL_BYTES};
use super::{folder, EXTENSION};
use crate::{CallError, Client};
use mcp_spec_types::runtime::RequestMethod;
use mcp_spec_types::skills::{
    ClientCapabilities, GetSkillRequest, GetSkillRequestParams, ListSkillsRequest, PaginatedRequestParams, ReadResourceDirectoryRequest, ReadResourceDirectoryRequestParams, ReadResourceRequest, ReadResourceRequestParams, ReadResourceResult, ReadResourceResultContentsItem, ReadResourceResultResponseResult, RequestId, RequestMetaObject, Resource, Skill,
    SkillResource, SkillResources, LATEST_PROTOCOL_VERSION,
};

/// Pages a listing may take before the client stops (a server whose cursors never end).
pub const MAX_PAGES: usize = 10_000;

/// Why a read's content was not returned. A size, digest or frontmatter mismatch and an unlisted
/// file are the spec's verification failures: the content is not what the entry describes.
#[derive(Debug, Clone, PartialEq)]
pub enum VerifyError {
    /// The held entry does not list this file of the skill: not sent.
    Unlisted { uri: String },
    /// The URI is not the skill's `SKILL.md` nor inside its directory: not sent.
    OutsideSkill { uri: String },
    Size { uri: String, entry: u64, read: u64 },
    Digest { uri: String, entry: String, read: String },
    /// The `SKILL.md` read has frontmatter that differs from the entry's at `field`.
    Frontmatter { uri: String, field: String, entry: Option<Value>, read: Option<Value> },
    /// The `SKILL.md` read has no frontmatter that can be compared.
    FrontmatterUnreadable { uri: String, why: String },
    /// A `"dynamic"` skill's reads passed 16 MiB in all.
    OverLimit { uri: String, total: u64 },
    /// The answer holds no content for the URI, or a blob that is not base64.
    NoContent { uri: String, why: String },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            VerifyError::Unlisted { uri } => write!(f, "{uri}: the held entry does not list this file (not read)"),
            VerifyError::OutsideSkill { uri } => write!(f, "{uri}: not a file of this skill (not read)"),
            VerifyError::Size { uri, entry, read } => write!(f, "{uri}: {read} bytes read, the entry says {entry}"),
            VerifyError::Digest { uri, entry, read } => write!(f, "{uri}: the content's digest is {read}, the entry says {entry}"),
            VerifyError::Frontmatter { uri, field, entry, read } => {
                let shown = |v: &Option<Value>| v.as_ref().map_or_else(|| "absent".to_owned(), Value::to_string);
                write!(f, "{uri}: frontmatter `{field}` is {} in the file, {} in the entry", shown(read), shown(entry))
            }
            VerifyError::FrontmatterUnreadable { uri, why } => write!(f, "{uri}: {why}"),
            VerifyError::OverLimit { uri, total } => write!(f, "{uri}: {total} bytes read from this dynamic skill, over {MAX_TOTAL_BYTES}"),
            VerifyError::NoContent { uri, why } => write!(f, "{uri}: {why}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// A skill's entry, held while its files are read: what each read is verified against.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldSkill {
    entry: Skill,
    // Bytes returned so far, counted for a dynamic skill's bound.
    read: u64,
}

impl HeldSkill {
    pub fn new(entry: Skill) -> Self {
        HeldSkill { entry, read: 0 }
    }

    pub fn entry(&self) -> &Skill {
        &self.entry
    }

    /// The listed files, or `None` for a `"dynamic"` skill.
    pub fn files(&self) -> Option<&[SkillResource]> {
        match &self.entry.resources {
            SkillResources::SkillResourceArray(files) => Some(files),
            SkillResources::Dynamic(_) => None,
        }
    }

    /// Whether `uri` may be read under this entry (checked before the request is sent): its listed
    /// file, or for a dynamic skill `None` when the URI is the skill's.
    pub fn may_read(&self, uri: &str) -> Result<Option<&SkillResource>, VerifyError> {
        match self.files() {
            Some(files) => files.iter().find(|f| f.uri == uri).map(Some).ok_or_else(|| VerifyError::Unlisted { uri: uri.to_owned() }),
            None => {
                let dir = skill_directory(&self.entry.uri).unwrap_or_default();
                if uri == self.entry.uri || within(dir, uri) { Ok(None) } else { Err(VerifyError::OutsideSkill { uri: uri.to_owned() }) }
            }
        }
    }

    /// The content of `uri` in a `resources/read` result, if it is what the entry describes.
    pub fn verify(&mut self, uri: &str, result: &ReadResourceResult) -> Result<Vec<u8>, VerifyError> {
        let listed = self.may_read(uri)?.cloned();
        let bytes = content(uri, result)?;
        let read = bytes.len() as u64;
        match listed {
            Some(file) => {
                let entry = u64::try_from(file.size).unwrap_or(u64::MAX);
                if read != entry {
                    return Err(VerifyError::Size { uri: uri.to_owned(), entry, read });
                }
                let digest = folder::digest_bytes(&bytes);
                if !is_digest(&file.digest) || digest != file.digest {
                    return Err(VerifyError::Digest { uri: uri.to_owned(), entry: file.digest, read: digest });
                }
            }
            None => {
                let total = self.read.saturating_add(read);
                if total > MAX_TOTAL_BYTES {
                    return Err(VerifyError::OverLimit { uri: uri.to_owned(), total });
                }
            }
        }
        if uri == self.entry.uri {
            self.same_frontmatter(uri, &bytes)?;
        }
        self.read = self.read.saturating_add(read);
        Ok(bytes)
    }

    fn same_frontmatter(&self, uri: &str, bytes: &[u8]) -> Result<(), VerifyError> {
        let unreadable = |why: String| VerifyError::FrontmatterUnreadable { uri: uri.to_owned(), why };
        let text = std::str::from_utf8(bytes).map_err(|_| unreadable("SKILL.md is not UTF-8 text".into()))?;
        let file = frontmatter::parse(text).map_err(|e| unreadable(e.to_string()))?;
        let entry = match serde_json::to_value(&self.entry.frontmatter) {
            Ok(Value::Object(entry)) => entry,
            _ => return Err(unreadable("the entry's frontmatter is not an object".into())),
        };
        match frontmatter::first_difference(&file, &entry) {
            None => Ok(()),
            Some((field, read, entry)) => Err(VerifyError::Frontmatter { uri: uri.to_owned(), field: field.to_owned(), entry: entry.cloned(), read: read.cloned() }),
        }
    }
}

/// The bytes of `uri`'s content in a read result (text as UTF-8, a blob decoded).
fn content(uri: &str, result: &ReadResourceResult) -> Result<Vec<u8>, VerifyError> {
    let none = |why: &str| VerifyError::NoContent { uri: uri.to_owned(), why: why.to_owned() };
    let item = result.contents.iter().find(|c| match c {
        ReadResourceResultContentsItem::TextResourceContents(t) => t.uri == uri,
        ReadResourceResultContentsItem::BlobResourceContents(b) => b.uri == uri,
    });
    match item.ok_or_else(|| none("the answer has no content for this URI"))? {
        ReadResourceResultContentsItem::TextResourceContents(t) => Ok(t.text.clone().into_bytes()),
        ReadResourceResultContentsItem::BlobResourceContents(b) => base64::engine::general_purpose::STANDARD.decode(&b.blob).map_err(|_| none("the blob is not base64")),
    }
}

/// Sends one typed request and reads its answer.
pub trait Transport {
    fn send<R: RequestMethod>(&mut self, request: R) -> Result<R::Result, CallError>;
}

/// How long the blocking connection waits for each answer.
pub const TIMEOUT: Duration = Duration::from_secs(30);

impl Transport for crate::blocking::Connection<Client> {
    fn send<R: RequestMethod>(&mut self, request: R) -> Result<R::Result, CallError> {
        self.call(request, Some(TIMEOUT), |_, _| {})
    }
}

/// A request failed, or its content did not verify.
#[derive(Debug)]
pub enum ClientError {
    Call(CallError),
    Verify(VerifyError),
    /// The server did not declare what the request needs (the extension, or `directoryRead`).
    NotDeclared(&'static str),
    /// The listing's cursors did not end within [`MAX_PAGES`] pages.
    TooManyPages,
    /// The server asked for input to read a file, which a skill's read has none to give.
    InputRequired,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ClientError::Call(e) => write!(f, "{e}"),
            ClientError::Verify(e) => write!(f, "verification failed: {e}"),
            ClientError::NotDeclared(what) => write!(f, "the server did not declare {what}"),
            ClientError::TooManyPages => write!(f, "the listing did not end within {MAX_PAGES} pages"),
            ClientError::InputRequired => write!(f, "the server asked for input to read a file"),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<CallError> for ClientError {
    fn from(e: CallError) -> Self {
        ClientError::Call(e)
    }
}

impl From<VerifyError> for ClientError {
    fn from(e: VerifyError) -> Self {
        ClientError::Verify(e)
    }
}

/// The Skills methods of one server, through `transport`.
pub struct SkillsClient<T> {
    transport: T,
    directory_read: bool,
}

// The engine's per-request client writes the real `_meta` over this one.
fn meta() -> RequestMetaObject {
    RequestMetaObject::new(LATEST_PROTOCOL_VERSION, ClientCapabilities::default())
}

impl<T: Transport> SkillsClient<T> {
    /// A client of a server whose `capabilities` (from `server/discover`) declare the extension;
    /// [`ClientError::NotDeclared`] otherwise.
    pub fn new(transport: T, capabilities: &Value) -> Result<Self, ClientError> {
        let declared = capabilities.get("extensions").and_then(|e| e.get(EXTENSION)).ok_or(ClientError::NotDeclared("the Skills extension"))?;
        let directory_read = declared.get("directoryRead") == Some(&Value::Bool(true));
        Ok(SkillsClient { transport, directory_read })
    }

    pub fn transport(&mut self) -> &mut T {
        &mut self.transport
    }

    pub fn into_transport(self) -> T {
        self.transport
    }

    /// Every skill the server lists, page after page.
    pub fn list(&mut self) -> Result<Vec<Skill>, ClientError> {
        all_pages(|cursor| {
            let params = PaginatedRequestParams { cursor, ..PaginatedRequestParams::new(meta()) };
            let page = self.transport.send(ListSkillsRequest::new(params, RequestId::Integer(0)))?;
            Ok((page.skills, page.next_cursor))
        })
    }

    /// The entry of the skill whose `SKILL.md` is `uri`.
    pub fn get(&mut self, uri: &str) -> Result<Skill, ClientError> {
        let request = GetSkillRequest::new(GetSkillRequestParams::new(meta(), uri), RequestId::Integer(0));
        Ok(self.transport.send(request)?.skill)
    }

    /// The content of `uri`, a file of `held`, verified (see the module documentation). An
    /// unlisted file is refused without a request.
    pub fn read(&mut self, held: &mut HeldSkill, uri: &str) -> Result<Vec<u8>, ClientError> {
        held.may_read(uri)?;
        let result = self.read_unverified(uri)?;
        Ok(held.verify(uri, &result)?)
    }

    /// `resources/read` of any URI, as the server answers it (no skill's entry involved).
    pub fn read_unverified(&mut self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        match self.transport.send(ReadResourceRequest::new(ReadResourceRequestParams::new(meta(), uri), RequestId::Integer(0)))? {
            ReadResourceResultResponseResult::ReadResourceResult(result) => Ok(result),
            ReadResourceResultResponseResult::InputRequiredResult(_) => Err(ClientError::InputRequired),
        }
    }

    /// The direct children of the directory resource `uri`, every page; only from a server that
    /// declared `directoryRead`.
    pub fn read_directory(&mut self, uri: &str) -> Result<Vec<Resource>, ClientError> {
        if !self.directory_read {
            return Err(ClientError::NotDeclared("`directoryRead`"));
        }
        all_pages(|cursor| {
            let params = ReadResourceDirectoryRequestParams { cursor, ..ReadResourceDirectoryRequestParams::new(meta(), uri) };
            let page = self.transport.send(ReadResourceDirectoryRequest::new(params, RequestId::Integer(0)))?;
            Ok((page.resources, page.next_cursor))
        })
    }
}

/// Every page of a listing, at most [`MAX_PAGES`] of them: `page` asks for the one after a cursor.
fn all_pages<I, C>(mut page: impl FnMut(Option<C>) -> Result<(Vec<I>, Option<C>), ClientError>) -> Result<Vec<I>, ClientError> {
    let mut items = Vec::new();
    let mut cursor = None;
    for _ in 0..MAX_PAGES {
        let (got, next) = page(cursor.take())?;
        items.extend(got);
        match next {
            Some(next) => cursor = Some(next),
            None => return Ok(items),
        }
    }
    Err(ClientError::TooManyPages)
}
