//! The Skills server of a folder and the client's verification: each check has a case it accepts
//! and one it refuses.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::*;
use crate::{Id, Request};
use mcp_spec_types::skills::{ReadResourceResult, Skill, SkillResources};

/// A fresh folder under the system's temporary directory, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(test: &str) -> Self {
        let path = std::env::temp_dir().join(format!("mcp-skills-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        Folder(path)
    }

    fn file(&self, relative: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.0.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
        self
    }

    fn skill(&self, dir: &str, name: &str) -> &Self {
        self.file(&format!("{dir}/SKILL.md"), format!("---\nname: {name}\ndescription: The {name} skill.\nmetadata:\n  version: \"1\"\n---\n# {name}\n"))
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
}

fn ask(server: &SkillsServer, method: &str, params: Value) -> Result<Value, mcp_spec_types::runtime::RpcError> {
    let mut params = params;
    params["_meta"] = meta();
    let request = Request { id: Id::Number(1), method: method.into(), params: Some(params) };
    server.handle("2026-07-28", &request).expect("a method of the server")
}

/// The folder every server test serves: a prefixed skill, a nested one, a binary file.
fn sample(test: &str) -> Folder {
    let folder = Folder::new(test);
    folder.skill("acme/billing/refunds", "refunds").file("acme/billing/refunds/examples/mail.md", "Dear customer,\n");
    folder.skill("forms", "forms").file("forms/templates/a.md", "A\n").file("forms/data.bin", [0u8, 159, 146, 150]);
    folder.skill("forms/signing", "signing");
    folder.file("README.md", "not in any skill\n");
    folder
}

fn held(server: &SkillsServer, uri: &str) -> HeldSkill {
    let got = ask(server, "skills/get", json!({"uri": uri})).unwrap();
    HeldSkill::new(serde_json::from_value(got["skill"].clone()).unwrap())
}

fn read(server: &SkillsServer, uri: &str) -> ReadResourceResult {
    serde_json::from_value(ask(server, "resources/read", json!({"uri": uri})).unwrap()).unwrap()
}

#[test]
fn a_folder_is_served_with_every_file_digested() {
    let folder = sample("served");
    let (server, loaded) = SkillsServer::load(&folder.0).unwrap();
    assert!(loaded.refused.is_empty(), "{:?}", loaded.refused);
    let uris: Vec<&str> = server.skills().iter().map(|s| s.uri.as_str()).collect();
    assert_eq!(uris, ["skill://acme/billing/refunds/SKILL.md", "skill://forms/SKILL.md", "skill://forms/signing/SKILL.md"]);
    let forms = &server.skills()[1];
    let files: Vec<&str> = forms.files.iter().map(|f| f.uri.as_str()).collect();
    // Complete: SKILL.md, the binary file and the nested skill's file too.
    assert_eq!(files, ["skill://forms/SKILL.md", "skill://forms/data.bin", "skill://forms/signing/SKILL.md", "skill://forms/templates/a.md"]);
    let bin = &forms.files[1];
    assert_eq!((bin.size, bin.digest.as_str()), (4, folder::digest_bytes(&[0, 159, 146, 150]).as_str()));
    assert!(rules::is_digest(&bin.digest));

    let list = ask(&server, "skills/list", json!({})).unwrap();
    assert_eq!((list["resultType"].as_str(), list["ttlMs"].as_i64(), list["cacheScope"].as_str()), (Some("complete"), Some(0), Some("private")));
    assert_eq!(list["skills"][1]["frontmatter"], json!({"name": "forms", "description": "The forms skill.", "metadata": {"version": "1"}}));
    let text = read(&server, "skill://forms/templates/a.md");
    assert_eq!(serde_json::to_value(&text).unwrap()["contents"][0]["text"], "A\n");
    let blob = serde_json::to_value(read(&server, "skill://forms/data.bin")).unwrap();
    assert_eq!(blob["contents"][0]["blob"], "AJ+Slg==");
    let all = ask(&server, "resources/list", json!({})).unwrap();
    // The nested skill's `SKILL.md` is one resource, though two skills list it.
    assert_eq!(all["resources"].as_array().unwrap().len(), 6);
    assert_eq!(all["resources"][0]["name"], "refunds");
    println!("{} skills, {} resources", uris.len(), all["resources"].as_array().unwrap().len());
}

#[test]
fn listings_are_paginated() {
    let folder = sample("pages");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let server = server.page_size(2);
    let first = ask(&server, "skills/list", json!({})).unwrap();
    assert_eq!((first["skills"].as_array().unwrap().len(), first["nextCursor"].as_str()), (2, Some("2")));
    let second = ask(&server, "skills/list", json!({"cursor": "2"})).unwrap();
    assert_eq!((second["skills"].as_array().unwrap().len(), second.get("nextCursor")), (1, None));
    assert_eq!(ask(&server, "skills/list", json!({"cursor": "9"})).unwrap_err().code, -32602);
}

#[test]
fn unknown_skills_and_files_are_invalid_params() {
    let folder = sample("unknown");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    assert!(ask(&server, "skills/get", json!({"uri": "skill://forms/SKILL.md"})).is_ok());
    assert_eq!(ask(&server, "skills/get", json!({"uri": "skill://forms/nothing/SKILL.md"})).unwrap_err().code, -32602);
    // A file that is not a skill's `SKILL.md` is not a skill either.
    assert_eq!(ask(&server, "skills/get", json!({"uri": "skill://forms/templates/a.md"})).unwrap_err().code, -32602);
    assert_eq!(ask(&server, "resources/read", json!({"uri": "skill://forms/missing.md"})).unwrap_err().code, -32602);
    // A URI is looked up, never joined to a path: `..` reaches nothing.
    assert_eq!(ask(&server, "resources/read", json!({"uri": "skill://forms/../README.md"})).unwrap_err().code, -32602);
    assert_eq!(ask(&server, "resources/read", json!({"uri": "skill://README.md"})).unwrap_err().code, -32602);
}

#[test]
fn directories_list_their_direct_children() {
    let folder = sample("directories");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let dir = ask(&server, "resources/directory/read", json!({"uri": "skill://forms"})).unwrap();
    let children: Vec<(&str, &str)> = dir["resources"].as_array().unwrap().iter().map(|r| (r["name"].as_str().unwrap(), r["mimeType"].as_str().unwrap())).collect();
    assert_eq!(children, [("SKILL.md", "text/markdown"), ("data.bin", "application/octet-stream"), ("signing", "inode/directory"), ("templates", "inode/directory")]);
    assert_eq!(dir["resources"][2]["uri"], "skill://forms/signing");
    assert_eq!((dir["ttlMs"].as_i64(), dir["cacheScope"].as_str()), (Some(0), Some("private")));
    let prefix = ask(&server, "resources/directory/read", json!({"uri": "skill://acme"})).unwrap();
    assert_eq!(prefix["resources"][0]["uri"], "skill://acme/billing");
    for not_a_directory in ["skill://forms/SKILL.md", "skill://forms/", "skill://nowhere"] {
        assert_eq!(ask(&server, "resources/directory/read", json!({"uri": not_a_directory})).unwrap_err().code, -32602, "{not_a_directory}");
    }
}

#[test]
fn skills_are_served_from_2026_07_28_only() {
    let folder = sample("versions");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let request = Request { id: Id::Number(1), method: "skills/list".into(), params: None };
    assert!(server.handle("2025-11-25", &request).is_none());
    assert!(server.handle("2026-07-28", &request).is_some());
    assert_eq!(server.capabilities(), json!({"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {"directoryRead": true}}}));
}

#[test]
fn names_that_break_the_rules_are_refused() {
    let folder = Folder::new("names");
    folder.skill("good-name", "good-name").skill("Bad_Name", "Bad_Name").skill("elsewhere", "other-name");
    folder.file("no-description/SKILL.md", "---\nname: no-description\n---\n");
    folder.file("no-frontmatter/SKILL.md", "# just text\n");
    let (server, loaded) = SkillsServer::load(&folder.0).unwrap();
    assert_eq!(server.skills().len(), 1);
    let refused: Vec<String> = loaded.refused.iter().map(|r| r.path.display().to_string()).collect();
    assert_eq!(refused, ["Bad_Name", "elsewhere", "no-description", "no-frontmatter"]);
    assert!(loaded.refused[0].why.contains("naming rules"), "{}", loaded.refused[0]);
    assert!(loaded.refused[1].why.contains("not the directory's name"), "{}", loaded.refused[1]);
}

#[test]
fn skills_over_the_limits_are_refused_or_warned() {
    let folder = Folder::new("limits");
    folder.skill("small", "small").skill("many", "many");
    for i in 0..rules::MAX_ENTRIES {
        folder.file(&format!("many/files/{i}.txt"), "x");
    }
    let (server, loaded) = SkillsServer::load(&folder.0).unwrap();
    assert_eq!(server.skills().len(), 1);
    assert!(loaded.refused[0].why.contains("513 files"), "{}", loaded.refused[0]);
    let (server, loaded) = SkillsServer::load_with(&folder.0, OverLimits::Warn).unwrap();
    assert_eq!((server.skills().len(), loaded.warnings.len()), (2, 1));
}

#[cfg(unix)]
#[test]
fn links_out_of_the_folder_are_refused() {
    let outside = Folder::new("outside");
    outside.file("secret.txt", "not to be served\n").skill("elsewhere", "elsewhere");
    let folder = Folder::new("links");
    folder.skill("inside", "inside").file("inside/real.md", "real\n").skill("leaky", "leaky");
    std::os::unix::fs::symlink("real.md", folder.0.join("inside/alias.md")).unwrap();
    std::os::unix::fs::symlink(outside.0.join("secret.txt"), folder.0.join("leaky/secret.txt")).unwrap();
    std::os::unix::fs::symlink(outside.0.join("elsewhere"), folder.0.join("elsewhere")).unwrap();
    let (server, loaded) = SkillsServer::load(&folder.0).unwrap();
    let served: Vec<&str> = server.skills().iter().map(|s| s.uri.as_str()).collect();
    // A link inside the folder is served; one that leads out refuses its skill; a linked-in skill is not walked.
    assert_eq!(served, ["skill://inside/SKILL.md"]);
    assert_eq!(server.skills()[0].files.len(), 3);
    assert_eq!(loaded.refused.len(), 1);
    assert!(loaded.refused[0].why.contains("outside the folder"), "{}", loaded.refused[0]);
    assert_eq!(ask(&server, "resources/read", json!({"uri": "skill://leaky/secret.txt"})).unwrap_err().code, -32602);
}

fn entry_with(server: &SkillsServer, uri: &str, change: impl FnOnce(&mut Skill)) -> HeldSkill {
    let mut skill = held(server, uri).entry().clone();
    change(&mut skill);
    HeldSkill::new(skill)
}

fn files_mut(skill: &mut Skill) -> &mut Vec<mcp_spec_types::skills::SkillResource> {
    match &mut skill.resources {
        SkillResources::SkillResourceArray(files) => files,
        SkillResources::Dynamic(_) => panic!("a listed skill"),
    }
}

#[test]
fn reads_are_verified_by_size_and_digest() {
    let folder = sample("verify");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let (skill, file) = ("skill://forms/SKILL.md", "skill://forms/templates/a.md");
    assert_eq!(held(&server, skill).verify(file, &read(&server, file)).unwrap(), b"A\n");
    let mut wrong_size = entry_with(&server, skill, |s| files_mut(s).iter_mut().filter(|f| f.uri == file).for_each(|f| f.size += 1));
    assert!(matches!(wrong_size.verify(file, &read(&server, file)), Err(VerifyError::Size { entry: 3, read: 2, .. })));
    let other = folder::digest_bytes(b"B\n");
    let mut wrong_digest = entry_with(&server, skill, |s| files_mut(s).iter_mut().filter(|f| f.uri == file).for_each(|f| f.digest = other.clone()));
    assert!(matches!(wrong_digest.verify(file, &read(&server, file)), Err(VerifyError::Digest { .. })));
    // The file changed on disk after the entry was taken: the same size, other bytes.
    let mut before = held(&server, skill);
    fs::write(folder.0.join("forms/templates/a.md"), "B\n").unwrap();
    assert!(matches!(before.verify(file, &read(&server, file)), Err(VerifyError::Digest { .. })));
}

#[test]
fn unlisted_files_are_refused_before_reading() {
    let folder = sample("unlisted");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let skill = "skill://forms/SKILL.md";
    let listed = held(&server, skill);
    assert!(listed.may_read("skill://forms/data.bin").is_ok());
    let without = entry_with(&server, skill, |s| files_mut(s).retain(|f| !f.uri.ends_with("data.bin")));
    assert_eq!(without.may_read("skill://forms/data.bin"), Err(VerifyError::Unlisted { uri: "skill://forms/data.bin".into() }));
    let mut without = without;
    assert!(matches!(without.verify("skill://forms/data.bin", &read(&server, "skill://forms/data.bin")), Err(VerifyError::Unlisted { .. })));
}

#[test]
fn skill_md_frontmatter_is_compared_with_the_entry() {
    let folder = sample("frontmatter");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let skill = "skill://forms/SKILL.md";
    assert!(held(&server, skill).verify(skill, &read(&server, skill)).is_ok());
    let mut changed = entry_with(&server, skill, |s| {
        s.frontmatter.extra.insert("metadata".into(), json!({"version": "2"}));
    });
    match changed.verify(skill, &read(&server, skill)) {
        Err(VerifyError::Frontmatter { field, .. }) => assert_eq!(field, "metadata"),
        other => panic!("{other:?}"),
    }
    // The nested skill's `SKILL.md`, read as a file of the outer skill, is not its frontmatter.
    assert!(held(&server, skill).verify("skill://forms/signing/SKILL.md", &read(&server, "skill://forms/signing/SKILL.md")).is_ok());
}

#[test]
fn dynamic_skills_are_read_unverified_within_the_bound() {
    let folder = sample("dynamic");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let skill = "skill://forms/SKILL.md";
    let mut dynamic = entry_with(&server, skill, |s| s.resources = SkillResources::Dynamic(mcp_spec_types::skills::SkillResourcesDynamic::Dynamic));
    assert!(dynamic.may_read("skill://forms/anything.md").is_ok());
    assert!(matches!(dynamic.may_read("skill://other/file.md"), Err(VerifyError::OutsideSkill { .. })));
    assert_eq!(dynamic.verify("skill://forms/templates/a.md", &read(&server, "skill://forms/templates/a.md")).unwrap(), b"A\n");
    // 2 bytes read already: one byte past the bound in all.
    let big = "x".repeat(usize::try_from(rules::MAX_TOTAL_BYTES).unwrap() - 1);
    let answer: ReadResourceResult = serde_json::from_value(json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": [{"uri": "skill://forms/big.txt", "text": big}]})).unwrap();
    assert!(matches!(dynamic.verify("skill://forms/big.txt", &answer), Err(VerifyError::OverLimit { .. })));
    // The bound is on what was read: the same file fits a fresh hold.
    let mut fresh = entry_with(&server, skill, |s| s.resources = SkillResources::Dynamic(mcp_spec_types::skills::SkillResourcesDynamic::Dynamic));
    assert!(fresh.verify("skill://forms/big.txt", &answer).is_ok());
}

/// The server in process, as a client's transport: each request answered by `handle`.
struct InProcess<'a> {
    server: &'a SkillsServer,
    sent: Vec<String>,
}

impl Transport for InProcess<'_> {
    fn send<R: mcp_spec_types::runtime::RequestMethod>(&mut self, request: R) -> Result<R::Result, crate::CallError> {
        use crate::{CallError, RequestError};
        let request = serde_json::to_value(request).unwrap();
        let method = request["method"].as_str().unwrap().to_owned();
        self.sent.push(method.clone());
        let mut params = request.get("params").cloned().unwrap_or_else(|| json!({}));
        params["_meta"] = meta();
        let request = Request { id: Id::Number(1), method, params: Some(params) };
        match self.server.handle("2026-07-28", &request).expect("a method of the server") {
            Ok(result) => serde_json::from_value(result).map_err(|e| CallError::Request(RequestError::Unreadable(e.to_string()))),
            Err(error) => Err(CallError::Request(RequestError::Rpc(error))),
        }
    }
}

#[test]
fn the_client_pages_through_listings_and_verifies_reads() {
    let folder = sample("client");
    let (server, _) = SkillsServer::load(&folder.0).unwrap();
    let server = server.page_size(1);
    let transport = InProcess { server: &server, sent: Vec::new() };
    let mut client = SkillsClient::new(transport, &server.capabilities()).unwrap();
    let skills = client.list().unwrap();
    assert_eq!(skills.len(), 3);
    let children = client.read_directory("skill://forms").unwrap();
    assert_eq!(children.len(), 4);
    let mut held = HeldSkill::new(client.get("skill://forms/SKILL.md").unwrap());
    assert_eq!(client.read(&mut held, "skill://forms/data.bin").unwrap(), [0, 159, 146, 150]);
    let sent = client.transport().sent.len();
    assert!(matches!(client.read(&mut held, "skill://forms/unlisted.md"), Err(ClientError::Verify(VerifyError::Unlisted { .. }))));
    // Refused before a request went out.
    assert_eq!(client.transport().sent.len(), sent);
    assert!(matches!(client.get("skill://nowhere/SKILL.md"), Err(ClientError::Call(_))));
    let counts = client.transport().sent.iter().fold(std::collections::BTreeMap::<&str, usize>::new(), |mut m, s| {
        *m.entry(s.as_str()).or_default() += 1;
        m
    });
    println!("requests sent: {counts:?}");
    assert_eq!((counts["skills/list"], counts["resources/directory/read"]), (3, 4));
    // Without `directoryRead` declared, no directory read is sent.
    let undeclared = json!({"resources": {}, "extensions": {EXTENSION: {}}});
    let mut client = SkillsClient::new(InProcess { server: &server, sent: Vec::new() }, &undeclared).unwrap();
    assert!(matches!(client.read_directory("skill://forms"), Err(ClientError::NotDeclared(_))));
    assert!(client.transport().sent.is_empty());
    assert!(matches!(SkillsClient::new(InProcess { server: &server, sent: Vec::new() }, &json!({"resources": {}})), Err(ClientError::NotDeclared(_))));
}
