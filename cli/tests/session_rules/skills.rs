//! `--ext skills`: the Skills extension's session rules on 2026-07-28, each with a session that keeps it
//! and the same session broken in one place. Lines 1-2 are `server/discover` and its answer; the skill is
//! `skill://acme/refunds/SKILL.md`, with one supporting file `examples/a.md`.

use super::common::lines::{c2s, ok, req, s2c};
use super::Case;
use serde_json::{json, Value};

const EXT: &[&str] = &["--ext", "skills"];
const SKILL: &str = "skill://acme/refunds/SKILL.md";
const FILE: &str = "skill://acme/refunds/examples/a.md";
/// The skill's `SKILL.md` (88 bytes) and its digest.
const SKILL_TEXT: &str = "---\nname: refunds\ndescription: Handle refund requests.\n---\n# Refunds\nSee examples/a.md.\n";
const SKILL_DIGEST: &str = "sha256:bfc2209723f7bbf5f3f55f0d5108b71bb959512b9079e9206d73040b3a98d309";
/// `examples/a.md` (15 bytes) and its digest.
const FILE_TEXT: &str = "Dear customer,\n";
const FILE_DIGEST: &str = "sha256:7b7c2be2390a57bc8874adae23a60940ac18fa1fdadca60de307406f50d1aee8";

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}})
}

fn request(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta();
    c2s(req(id, method, params))
}

fn complete(mut result: Value, cacheable: bool) -> Value {
    result["resultType"] = json!("complete");
    if cacheable {
        result["ttlMs"] = json!(0);
        result["cacheScope"] = json!("private");
    }
    result
}

fn failed(id: i64, code: i64) -> Value {
    s2c(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": "no"}}))
}

/// The server's capabilities: `resources`, and the extension with `directoryRead`.
fn caps(extension: Option<Value>, resources: bool) -> Value {
    let mut c = json!({"tools": {}});
    if resources {
        c["resources"] = json!({});
    }
    if let Some(e) = extension {
        c["extensions"] = json!({"io.modelcontextprotocol/skills": e});
    }
    c
}

/// `server/discover` (1) answered with `capabilities` (2), then `rest`.
fn discovered(capabilities: Value, rest: Vec<Value>) -> Vec<Value> {
    let result = json!({"supportedVersions": ["2026-07-28"], "capabilities": capabilities, "serverInfo": {"name": "s", "version": "1"}});
    let mut v = vec![request(1, "server/discover", json!({})), s2c(ok(1, complete(result, true)))];
    v.extend(rest);
    v
}

fn served(rest: Vec<Value>) -> Vec<Value> {
    discovered(caps(Some(json!({"directoryRead": true})), true), rest)
}

fn entry(description: &str) -> Value {
    json!({
        "uri": SKILL,
        "frontmatter": {"name": "refunds", "description": description},
        "resources": [{"uri": SKILL, "digest": SKILL_DIGEST, "size": 88}, {"uri": FILE, "digest": FILE_DIGEST, "size": 15}],
    })
}

/// `skills/list` (3) answered with the skill (4), then `rest`.
fn listed(description: &str, rest: Vec<Value>) -> Vec<Value> {
    served([vec![request(3, "skills/list", json!({})), s2c(ok(3, complete(json!({"skills": [entry(description)]}), true)))], rest].concat())
}

/// `resources/read` of `uri` (5) answered with `text` (6).
fn read(uri: &str, text: &str) -> Vec<Value> {
    let contents = json!([{"uri": uri, "mimeType": "text/markdown", "text": text}]);
    vec![request(5, "resources/read", json!({"uri": uri})), s2c(ok(5, complete(json!({"contents": contents}), true)))]
}

/// `resources/directory/read` of the skill's root (3) answered with `children` (4).
fn directory(children: Value) -> Vec<Value> {
    vec![request(3, "resources/directory/read", json!({"uri": "skill://acme/refunds"})), s2c(ok(3, complete(json!({"resources": children}), false)))]
}

fn child(uri: &str, mime: &str) -> Value {
    json!({"uri": uri, "name": uri.rsplit('/').next().unwrap(), "mimeType": mime})
}

/// A 2025-11-25 session (lines 1-3), then `skills/list` (4).
fn old_session() -> Vec<Value> {
    vec![
        c2s(req(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))),
        s2c(ok(1, json!({"protocolVersion": "2025-11-25", "capabilities": caps(Some(json!({})), true), "serverInfo": {"name": "s", "version": "1"}}))),
        c2s(super::common::lines::note("notifications/initialized", json!({}))),
        c2s(req(4, "skills/list", json!({}))),
    ]
}

pub const CASES: &[Case] = &[
    Case {
        name: "skills: a Skills message before 2026-07-28 is reported",
        flags: EXT,
        accept: || served(vec![request(4, "skills/list", json!({}))]),
        reject: old_session,
        expect: ("session.skills.version", 4, "/msg/method", "warning"),
    },
    Case {
        name: "skills: skills/* only to a server that declared the extension",
        flags: EXT,
        accept: || served(vec![request(3, "skills/list", json!({}))]),
        reject: || discovered(caps(None, true), vec![request(3, "skills/list", json!({}))]),
        expect: ("session.skills.undeclared", 3, "/msg/method", "error"),
    },
    Case {
        name: "skills: a directory read only to a server that declared directoryRead",
        flags: EXT,
        accept: || served(vec![request(3, "resources/directory/read", json!({"uri": "skill://acme/refunds"}))]),
        reject: || discovered(caps(Some(json!({})), true), vec![request(3, "resources/directory/read", json!({"uri": "skill://acme/refunds"}))]),
        expect: ("session.skills.directory-undeclared", 3, "/msg/method", "error"),
    },
    Case {
        name: "skills: a server declaring the extension declares resources",
        flags: EXT,
        accept: || served(vec![]),
        reject: || discovered(caps(Some(json!({})), false), vec![]),
        expect: ("session.skills.resources-capability", 2, "/msg/result/capabilities", "error"),
    },
    Case {
        name: "skills: an unknown skill is -32602",
        flags: EXT,
        accept: || served(vec![request(3, "skills/get", json!({"uri": "skill://acme/none/SKILL.md"})), failed(3, -32602)]),
        reject: || served(vec![request(3, "skills/get", json!({"uri": "skill://acme/none/SKILL.md"})), failed(3, -32601)]),
        expect: ("session.skills.error-code", 4, "/msg/error/code", "error"),
    },
    Case {
        name: "skills: a directory read lists direct children",
        flags: EXT,
        accept: || served(directory(json!([child(SKILL, "text/markdown"), child("skill://acme/refunds/examples", "inode/directory")]))),
        reject: || served(directory(json!([child(SKILL, "text/markdown"), child(FILE, "text/markdown")]))),
        expect: ("session.skills.directory-child", 4, "/msg/result/resources/1/uri", "warning"),
    },
    Case {
        name: "skills: a listed file reads as its entry's size and digest",
        flags: EXT,
        accept: || listed("Handle refund requests.", read(FILE, FILE_TEXT)),
        reject: || listed("Handle refund requests.", read(FILE, "Dear client,\n")),
        expect: ("session.skills.content-digest", 6, "/msg/result/contents/0", "warning"),
    },
    Case {
        name: "skills: a read SKILL.md has its entry's frontmatter",
        flags: EXT,
        accept: || listed("Handle refund requests.", read(SKILL, SKILL_TEXT)),
        reject: || listed("Handles refunds.", read(SKILL, SKILL_TEXT)),
        expect: ("session.skills.frontmatter", 6, "/msg/result/contents/0", "warning"),
    },
    Case {
        name: "skills: a file of a held skill is one its entry lists",
        flags: EXT,
        accept: || listed("Handle refund requests.", read(FILE, FILE_TEXT)),
        reject: || listed("Handle refund requests.", read("skill://acme/refunds/examples/b.md", FILE_TEXT)),
        expect: ("session.skills.unlisted-read", 6, "/msg/result/contents/0/uri", "warning"),
    },
];
