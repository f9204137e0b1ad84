//! The Skills extension (`io.modelcontextprotocol/skills`, feature `skills`), on protocol 2026-07-28
//! and later: a server of a folder of skills and a client that verifies what it reads.
//!
//! **Server** ([`SkillsServer`]): every directory of the folder that holds a `SKILL.md` is a skill,
//! served under `skill://` with its path in the folder (`acme/billing/refunds` has the prefix
//! `acme/billing`; a skill inside another is a skill of its own and also files of the outer one). At
//! load, each skill's frontmatter is read (YAML, as JSON), its name checked against the Agent Skills
//! naming rules and its directory's name, and every file under it listed with its size and
//! `sha256:` digest, computed once. A skill that breaks a rule, holds a link out of the folder, or is
//! over the per-skill limits (512 files, 16 MiB, which servers SHOULD NOT pass) is refused, with the
//! reason, in [`Loaded::refused`]. The server answers `skills/list` (paginated, `ttlMs` and
//! `cacheScope`), `skills/get` (-32602 for a URI that is no skill's `SKILL.md`), `resources/list`,
//! `resources/read` (text when the file is UTF-8, a base64 blob otherwise; -32602 for a URI it does
//! not serve) and `resources/directory/read` (each directory as `inode/directory` without a trailing
//! slash, its direct children; -32602 for what is not a directory), and declares `resources` and
//! the extension with `directoryRead`.
//!
//! **Client** ([`SkillsClient`], [`HeldSkill`]): see [`client`].
//!
//! ```
//! use mcp_spec_engine::skills::{HeldSkill, SkillsServer, VerifyError};
//! use mcp_spec_engine::{Id, Request};
//! use mcp_spec_types::skills::{ReadResourceResult, Skill};
//! use serde_json::json;
//!
//! let folder = std::env::temp_dir().join(format!("skills-doc-{}", std::process::id()));
//! std::fs::create_dir_all(folder.join("team/greeting")).unwrap();
//! std::fs::write(folder.join("team/greeting/SKILL.md"), "---\nname: greeting\ndescription: Says hello.\n---\nSay hello.\n").unwrap();
//! let (server, loaded) = SkillsServer::load(&folder).unwrap();
//! assert!(loaded.refused.is_empty());
//!
//! let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
//! let ask = |method: &str, params: serde_json::Value| {
//!     let request = Request { id: Id::Number(1), method: method.into(), params: Some(params) };
//!     server.handle("2026-07-28", &request).unwrap()
//! };
//! let uri = "skill://team/greeting/SKILL.md";
//! let got = ask("skills/get", json!({"_meta": meta, "uri": uri})).unwrap();
//! let mut held = HeldSkill::new(serde_json::from_value::<Skill>(got["skill"].clone()).unwrap());
//! let read: ReadResourceResult = serde_json::from_value(ask("resources/read", json!({"_meta": meta, "uri": uri})).unwrap()).unwrap();
//! assert_eq!(held.verify(uri, &read).unwrap(), b"---\nname: greeting\ndescription: Says hello.\n---\nSay hello.\n");
//! // A file the entry does not list is refused before it is asked for.
//! assert!(matches!(held.may_read("skill://team/greeting/extra.md"), Err(VerifyError::Unlisted { .. })));
//! std::fs::remove_dir_all(&folder).unwrap();
//! ```

pub mod client;
pub mod folder;
pub mod frontmatter;
mod serve;
#[cfg(test)]
mod tests;

pub use client::{ClientError, HeldSkill, SkillsClient, Transport, VerifyError};
pub use folder::{Loaded, OverLimits, Refused};
pub use serve::{SkillsServer, PAGE_SIZE};

/// The naming rules, limits and digest form, where the checker has them.
pub use mcp_spec_types::validate::skills as rules;

/// The extension's key in `capabilities.extensions` (the checker's, [`rules::EXTENSION_ID`]).
pub use rules::EXTENSION_ID as EXTENSION;

/// The first protocol version the extension is specified on.
pub const FIRST_VERSION: &str = "2026-07-28";

// Versions compare as strings: dates in order, then "draft".
fn since_skills(version: &str) -> bool {
    version >= FIRST_VERSION
}
