//! The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640): the rules its page
//! (`specification/stable/skills.mdx` of `modelcontextprotocol/ext-skills` at 0682b7b6) states that one value
//! shows, attached to the `skills` module's types by `schema/codegen.toml`.
//!
//! Every requirement of the page a message can show, and what became of it. "session" rules relate two or
//! more messages and are `mcp-schema check --ext skills`'s (`session.skills.*` in the CLI's session rule
//! table); "n/a" ones no recording can show (the host's own behaviour).
//!
//! | Rule id | The requirement | Decision |
//! |---|---|---|
//! | `literal` | `resultType` is `"complete"` on `ListSkillsResult`, `GetSkillResult`, `ReadResourceDirectoryResult` | encoded by the types |
//! | `required` | `ttlMs` and `cacheScope` on `ListSkillsResult` and `GetSkillResult` (`CacheableResult`) | encoded by the types |
//! | `required` | `frontmatter.name` and `frontmatter.description`; `resources` on every entry | encoded by the types |
//! | `no-variant` | `resources` is an array of `SkillResource` or the string `"dynamic"`, nothing else | encoded by the types |
//! | `skills.digest` | a digest is `sha256:` and 64 lowercase hexadecimal characters | checked here, [`skill_resource`] (error) |
//! | `type` | `size` is an integer | encoded by the types (`[[number_field]]` audit: integer) |
//! | `skills.size` | `size` is a length in bytes: not negative | checked here, [`skill_resource`] (error) |
//! | `skills.uri` | an entry's `uri`, and `skills/get`'s `params.uri`, is a skill's `SKILL.md`: `SKILL.md` explicit, after a skill path of at least one segment | checked here, [`skill`] and [`get_params`] (error) |
//! | `skills.name-path` | the last segment of the skill path equals `frontmatter.name` | checked here, [`skill`] (error) |
//! | `skills.name` | the name follows the Agent Skills naming rules (below) | checked here, [`skill`] (error) |
//! | `skills.description` | the description follows the Agent Skills rules: not empty, at most 1024 characters | checked here, [`skill`] (error) |
//! | `skills.resources-skill-md` | a `resources` array has the entry whose `uri` is the skill's `uri` | checked here, [`skill`] (error) |
//! | `skills.resources-once` | a `resources` array lists each file exactly once | checked here, [`skill`] (error) |
//! | `skills.resources-inside` | each listed `uri` is the `SKILL.md` or a file within the skill's directory | checked here, [`skill`] (error; a `.` or `..` segment counts as outside) |
//! | `skills.limits` | servers SHOULD NOT serve a skill over 512 entries or 16 MiB of `size` in all | checked here, [`skill`] (warning) |
//! | `skills.directory-slash` | directory resources (`inode/directory`) are written without a trailing slash | checked here, [`directory`] (warning: the page says it without MUST) |
//! | session | a directory read lists direct children of the requested `uri` only | `session.skills.directory-child` (needs the request) |
//! | session | `-32602` for an unknown skill and for a directory read of what is not a directory | `session.skills.error-code` |
//! | session | `resources/directory/read` only to a server that declared `directoryRead: true`; `skills/*` only after the server declared the extension; the extension comes with the `resources` capability | `session.skills.directory-undeclared`, `session.skills.undeclared`, `session.skills.resources-capability` |
//! | session | what a host verifies on a read: size and digest, a `SKILL.md`'s frontmatter, no unlisted file of a held skill | `session.skills.content-digest`, `session.skills.frontmatter`, `session.skills.unlisted-read` (warnings) |
//! | n/a | hosts key skills by server and `uri`, gate execution, tag origin, cache safely, retrieve lazily, re-approve on change | host behaviour |
//!
//! The Agent Skills naming rules (`agentskills/agentskills`, `docs/specification.mdx`, "`name` field", read for
//! this module; the reference validator `skills-ref/src/skills_ref/validator.py` agrees): 1 to 64 characters;
//! only lowercase alphanumeric characters (Unicode letters and digits that have no uppercase form count) and
//! hyphens; no hyphen first or last; no two hyphens in a row. The reference validator NFKC-normalises the name
//! first; this module judges the name as sent. (The page's parenthesis says "`a-z` and `-`", its text "unicode
//! lowercase alphanumeric characters"; the reference validator takes Unicode letters, and so does this module.)
//! A URI carries such a name percent-encoded: the last skill-path segment is compared with `frontmatter.name`
//! decoded.

use std::borrow::Cow;

use crate::tree::Node;

use super::Cx;

/// The extension's key in `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/skills";
/// The longest skill name the Agent Skills specification allows, in characters.
pub const NAME_MAX_CHARS: usize = 64;
/// The longest skill description, in characters.
pub const DESCRIPTION_MAX_CHARS: usize = 1024;
/// The most `resources` entries a host must accept per skill (`SKILL.md` included).
pub const MAX_ENTRIES: usize = 512;
/// The most bytes, summed over `size`, a host must accept per skill (16 MiB).
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
/// What a skill's `resources` is when its content is generated and has no stable digests.
pub const DYNAMIC: &str = "dynamic";
/// The MIME type that marks a directory resource.
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";
/// The file every skill has, and which its `uri` names.
pub const SKILL_FILE: &str = "SKILL.md";

/// The skill's directory: its `uri` without `/SKILL.md`, when the `uri` names a `SKILL.md` after a
/// skill path of at least one non-empty segment.
pub fn skill_directory(uri: &str) -> Option<&str> {
    let dir = uri.strip_suffix(SKILL_FILE)?.strip_suffix('/')?;
    let last = dir.rsplit('/').next()?;
    // `skill:///SKILL.md` and `skill://SKILL.md` have no skill path.
    (!last.is_empty() && !last.ends_with(':')).then_some(dir)
}

/// The skill name a `uri` carries: the last segment of its skill path, percent-decoded (a name outside ASCII,
/// which the Agent Skills rules allow, is percent-encoded in a URI: `caf%C3%A9` is `café`).
pub fn path_name(uri: &str) -> Option<Cow<'_, str>> {
    skill_directory(uri)?.rsplit('/').next().map(percent_decoded)
}

/// `s` with its `%XX` escapes decoded, when they decode to UTF-8; else as written.
pub fn percent_decoded(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = super::formats::percent_decode(s).unwrap_or_else(|lenient| lenient);
    String::from_utf8(bytes).map_or(Cow::Borrowed(s), Cow::Owned)
}

/// Whether `uri` is a file within the skill directory `dir` (no `.` or `..` segment, no empty one).
pub fn within(dir: &str, uri: &str) -> bool {
    let Some(rest) = uri.strip_prefix(dir).and_then(|r| r.strip_prefix('/')) else { return false };
    rest.split('/').all(|s| !matches!(s, "" | "." | ".."))
}

/// What breaks the Agent Skills naming rules in `name`, if anything.
pub fn name_problem(name: &str) -> Option<String> {
    let chars = name.chars().count();
    if chars == 0 {
        return Some("the name is empty".into());
    }
    if chars > NAME_MAX_CHARS {
        return Some(format!("the name has {chars} characters, more than {NAME_MAX_CHARS}"));
    }
    let lowercase_alphanumeric = |c: char| c.is_alphanumeric() && c.to_lowercase().eq(std::iter::once(c));
    if let Some(c) = name.chars().find(|&c| c != '-' && !lowercase_alphanumeric(c)) {
        return Some(format!("the name holds {c:?}: only lowercase letters, digits and hyphens are allowed"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("the name starts or ends with a hyphen".into());
    }
    if name.contains("--") {
        return Some("the name holds two hyphens in a row".into());
    }
    None
}

/// Whether a digest is `sha256:` and 64 lowercase hexadecimal characters.
pub fn is_digest(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

/// `SkillResource`: the digest's form, and a size that is a count of bytes.
pub fn skill_resource<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    if let Some((k, digest)) = o.get_key_value("digest").and_then(|(k, d)| Some((k, d.as_str()?))) {
        if !is_digest(digest) {
            cx.key(k, |cx| cx.error("skills.digest", format!("`{}` is not `sha256:` followed by 64 lowercase hexadecimal characters", super::shorten(digest))));
        }
    }
    // A fractional size is the schema's (`type`: an integer).
    if let Some((k, n)) = o.get_key_value("size").and_then(|(k, n)| Some((k, n.as_i64()?))) {
        if n < 0 {
            cx.key(k, |cx| cx.error("skills.size", format!("a size is a count of bytes and cannot be negative; found {n}")));
        }
    }
}

/// `GetSkillRequestParams`: `uri` names a skill's `SKILL.md`.
pub fn get_params<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(uri) = v.get("uri").and_then(Node::as_str) else { return };
    if skill_directory(uri).is_none() {
        cx.key("uri", |cx| cx.error("skills.uri", format!("`{}` does not name a skill's `SKILL.md` (`<scheme>://<skill-path>/SKILL.md`)", super::shorten(uri))));
    }
}

/// `Skill`: the `uri` names the `SKILL.md` of a skill path ending in the frontmatter's name, the name and
/// description follow the Agent Skills rules, and a `resources` array is complete, once each, inside the
/// skill's directory and within the per-skill limits.
pub fn skill<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    let uri = o.get("uri").and_then(Node::as_str);
    let frontmatter = o.get_key_value("frontmatter").and_then(|(k, f)| Some((k, f.as_object()?)));
    let dir = uri.and_then(skill_directory);
    if let (Some(uri), None) = (uri, dir) {
        cx.key("uri", |cx| cx.error("skills.uri", format!("`{}` does not name a skill's `SKILL.md` (`<scheme>://<skill-path>/SKILL.md`)", super::shorten(uri))));
    }
    if let Some((fk, fm)) = frontmatter {
        if let Some((nk, name)) = fm.get_key_value("name").and_then(|(k, n)| Some((k, n.as_str()?))) {
            match uri.and_then(path_name) {
                Some(last) if last != name => cx.key("uri", |cx| {
                    cx.error("skills.name-path", format!("the skill path ends in `{}`, but `frontmatter.name` is `{}`", super::shorten(&last), super::shorten(name)))
                }),
                _ => {}
            }
            if let Some(problem) = name_problem(name) {
                cx.key(fk, |cx| cx.key(nk, |cx| cx.error("skills.name", format!("{problem} (Agent Skills naming rules)"))));
            }
        }
        if let Some((dk, description)) = fm.get_key_value("description").and_then(|(k, d)| Some((k, d.as_str()?))) {
            let chars = description.chars().count();
            let problem = if description.trim().is_empty() {
                Some("the description is empty".to_string())
            } else {
                (chars > DESCRIPTION_MAX_CHARS).then(|| format!("the description has {chars} characters, more than {DESCRIPTION_MAX_CHARS}"))
            };
            if let Some(problem) = problem {
                cx.key(fk, |cx| cx.key(dk, |cx| cx.error("skills.description", format!("{problem} (Agent Skills rules for `description`)"))));
            }
        }
    }
    if let (Some(uri), Some((rk, files))) = (uri, o.get_key_value("resources").and_then(|(k, r)| Some((k, r.as_array()?)))) {
        cx.key(rk, |cx| manifest(uri, dir, files, cx));
    }
}

/// A skill's `resources` array: complete, each file once, inside the skill, within the limits.
fn manifest<'v>(uri: &str, dir: Option<&str>, files: crate::tree::Array<'v>, cx: &mut Cx<'v>) {
    let mut seen: Vec<&str> = Vec::with_capacity(files.len());
    let mut total: f64 = 0.0;
    for (i, entry) in files.iter().enumerate() {
        total += entry.get("size").and_then(Node::as_f64).filter(|n| *n > 0.0).unwrap_or(0.0);
        let Some(file) = entry.get("uri").and_then(Node::as_str) else { continue };
        if seen.contains(&file) {
            cx.index(i, |cx| cx.key("uri", |cx| cx.error("skills.resources-once", format!("`{}` is listed more than once; each file is listed exactly once", super::shorten(file)))));
            continue;
        }
        seen.push(file);
        if let Some(dir) = dir.filter(|d| file != uri && !within(d, file)) {
            let text = format!("`{}` is neither the skill's `SKILL.md` nor a file within its directory `{}`", super::shorten(file), super::shorten(dir));
            cx.index(i, |cx| cx.key("uri", |cx| cx.error("skills.resources-inside", text)));
        }
    }
    if !seen.contains(&uri) {
        cx.error("skills.resources-skill-md", format!("no entry has the skill's own `uri` `{}`: the list is complete, `SKILL.md` included", super::shorten(uri)));
    }
    if files.len() > MAX_ENTRIES {
        cx.warning("skills.limits", format!("{} entries, more than the {MAX_ENTRIES} every host accepts: servers should not serve such a skill, which no host is bound to load", files.len()));
    }
    if total > MAX_TOTAL_BYTES as f64 {
        cx.warning("skills.limits", format!("{total} bytes in all, more than the {MAX_TOTAL_BYTES} (16 MiB) every host accepts: servers should not serve such a skill, which no host is bound to load"));
    }
}

/// `ReadResourceDirectoryResult`: a child directory's `uri` has no trailing slash.
pub fn directory<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some((rk, children)) = v.as_object().and_then(|o| o.get_key_value("resources")).and_then(|(k, r)| Some((k, r.as_array()?))) else { return };
    for (i, child) in children.iter().enumerate() {
        let is_dir = child.get("mimeType").and_then(Node::as_str) == Some(DIRECTORY_MIME_TYPE);
        let Some(uri) = child.get("uri").and_then(Node::as_str) else { continue };
        if is_dir && uri.ends_with('/') {
            let text = format!("the directory `{}` is written with a trailing slash; directory URIs have none", super::shorten(uri));
            cx.key(rk, |cx| cx.index(i, |cx| cx.key("uri", |cx| cx.warning("skills.directory-slash", text))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_agent_skills_rules() {
        let good = ["pdf-processing", "a", "x9", "données", "日本語", &"a".repeat(64)];
        let bad = ["", "PDF", "-a", "a-", "a--b", "a_b", "a b", "a.b", &"a".repeat(65)];
        for n in good {
            assert_eq!(name_problem(n), None, "{n}");
        }
        for n in bad {
            assert!(name_problem(n).is_some(), "{n}");
        }
        println!("{} passed, 0 failed", good.len() + bad.len());
    }

    #[test]
    fn skill_paths_and_directories() {
        assert_eq!(skill_directory("skill://acme/billing/refunds/SKILL.md"), Some("skill://acme/billing/refunds"));
        assert_eq!(path_name("skill://git-workflow/SKILL.md").as_deref(), Some("git-workflow"));
        assert_eq!(path_name("github://o/r/skills/refunds/SKILL.md").as_deref(), Some("refunds"));
        assert_eq!(path_name("skill://kitchen/caf%C3%A9/SKILL.md").as_deref(), Some("café"));
        // Escapes that are no UTF-8 leave the segment as written.
        assert_eq!(path_name("skill://k/a%FF/SKILL.md").as_deref(), Some("a%FF"));
        assert_eq!(percent_decoded("100%"), "100%");
        for no in ["skill://SKILL.md", "skill:///SKILL.md", "skill://a/skill.md", "skill://a/xSKILL.md", "SKILL.md"] {
            assert_eq!(skill_directory(no), None, "{no}");
        }
        assert!(within("skill://a", "skill://a/b/c.md"));
        for no in ["skill://ab/c.md", "skill://a/../b/c.md", "skill://a//c.md", "skill://a/", "skill://a"] {
            assert!(!within("skill://a", no), "{no}");
        }
    }

    #[test]
    fn digests() {
        let hex = "0123456789abcdef".repeat(4);
        assert!(is_digest(&format!("sha256:{hex}")));
        for no in [format!("sha256:{}", hex.to_uppercase()), format!("sha256:{}", &hex[1..]), format!("sha512:{hex}"), hex.clone(), format!("sha256:{hex}0")] {
            assert!(!is_digest(&no), "{no}");
        }
    }
}
