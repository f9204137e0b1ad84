//! The validator's rule table: every rule id validation reports, its severity (the one a
//! violation usually gets: MUST is an error, SHOULD a warning; the text says when a case gets the
//! other), its area, the first version whose types carry it, and where the rule comes from with
//! what it checks. `mcp-schema rules` prints it with the CLI's rules.

use super::Severity;

/// One validation rule.
#[derive(Debug)]
pub struct Rule {
    /// Stable id, as [`super::Violation::rule`] reports it.
    pub id: &'static str,
    /// `schema` for the schema's own keywords (single-segment ids); else the id's first segment.
    pub area: &'static str,
    pub severity: Severity,
    /// The first protocol version whose types carry the rule (extensions: the first they attach to).
    pub since: &'static str,
    /// Where the rule comes from, and what it checks.
    pub source: &'static str,
}

const fn error(id: &'static str, area: &'static str, since: &'static str, source: &'static str) -> Rule {
    Rule { id, area, severity: Severity::Error, since, source }
}

const fn warning(id: &'static str, area: &'static str, since: &'static str, source: &'static str) -> Rule {
    Rule { id, area, severity: Severity::Warning, since, source }
}

/// Every rule id validation reports.
pub const RULES: &[Rule] = &[
    error("type", "schema", "2024-11-05", "schema.json: a value has the JSON type the schema gives it (string, integer, number, boolean, object, array)"),
    error("required", "schema", "2024-11-05", "schema.json: a field the schema requires is present"),
    error("literal", "schema", "2024-11-05", "schema.json: a field the schema fixes to one value has it"),
    error("enum", "schema", "2024-11-05", "schema.json: a closed string enumeration holds one of its values"),
    error("never", "schema", "2024-11-05", "schema.json: a field typed `never` is absent"),
    error("minimum", "schema", "2024-11-05", "schema.json: `@minimum`"),
    error("maximum", "schema", "2024-11-05", "schema.json: `@maximum`"),
    error("max-items", "schema", "2024-11-05", "schema.json: `@maxItems`"),
    error("max-length", "schema", "2024-11-05", "schema.json: `@maxLength`: at most that many characters (Unicode scalar values, as JSON Schema counts)"),
    error("pattern", "schema", "2024-11-05", "schema.json: `@pattern`: the string matches the regular expression somewhere (unanchored, as JSON Schema's `pattern`)"),
    error("format.uri", "format", "2024-11-05", "schema.ts `@format` annotations: `@format uri`: an absolute URI"),
    error("format.uri-template", "format", "2024-11-05", "schema.ts `@format` annotations: `@format uri-template`: an RFC 6570 template"),
    error("format.byte", "format", "2024-11-05", "schema.ts `@format` annotations: `@format byte`: base64"),
    error("format.int", "format", "2024-11-05", "schema.ts `@format` annotations: `@format int`: an integer JavaScript holds exactly (at most 2^53 - 1 either side of zero)"),
    error("serialize", "schema", "2024-11-05", "serde: `validate` on a typed value checks its JSON form; the value does not serialize (a custom `Serialize` failed)"),
    error("unknown-variant", "schema", "2024-11-05", "schema.json: a `method`, `type` or other tag the schema version does not define"),
    error("no-variant", "schema", "2024-11-05", "schema.json: a value matches no member of a union"),
    error("meta.key-name", "meta", "2024-11-05", "basic protocol, `_meta`: `_meta` key syntax: prefix labels and name"),
    warning("meta.reserved-key", "meta", "2024-11-05", "basic protocol, `_meta`: a key under an MCP-reserved prefix (`mcp` or `modelcontextprotocol` as the second label, or as any label but the last) that the version does not define"),
    error("jsonrpc.version", "jsonrpc", "2024-11-05", "JSON-RPC 2.0 and basic protocol, messages: a message carries `\"jsonrpc\": \"2.0\"`"),
    error("jsonrpc.id", "jsonrpc", "2024-11-05", "JSON-RPC 2.0 and basic protocol, messages: a request or response id is a string or an integer (signed 64-bit), never null"),
    error("jsonrpc.response", "jsonrpc", "2024-11-05", "JSON-RPC 2.0 and basic protocol, messages: a response sets exactly one of `result` and `error`"),
    error("jsonrpc.message", "jsonrpc", "2024-11-05", "JSON-RPC 2.0 and basic protocol, messages: a message is a request, a notification or a response"),
    error("jsonrpc.error", "jsonrpc", "2024-11-05", "JSON-RPC 2.0 and basic protocol, messages: an error has an integer `code` and a string `message`"),
    error("icon.scheme", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: an icon's source is `https:` or `data:`"),
    error("icon.mime-type", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: an icon's type is PNG, JPEG, SVG or WebP (unknown type: warning)"),
    error("icon.data", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: a `data:` icon decodes"),
    error("icon.size", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: a `data:` icon is within the size limit"),
    error("icon.content", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: a `data:` icon's media type, its `mimeType` and its bytes (by magic number) are the same image type"),
    warning("icon.sizes", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: each `sizes` entry of an icon is `WxH` in pixels or `any` (the schema's \"should\")"),
    error("icon.svg-active", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: a `data:` SVG icon has no scripts, event handlers, `javascript:` URLs, `foreignObject` or external references"),
    error("icon.svg-markup", "icon", "2025-11-25", "schema.ts `Icon` (SEP-973) and security best practices: a `data:` SVG icon is well-formed UTF-8 XML using only the icon allowlist: no DTD subset, entity, CDATA or processing instruction, only listed elements, attributes and value functions (see `validate::icons::svg`)"),
    error("link.scheme", "link", "2025-11-25", "schema.ts `websiteUrl` (SEP-973); MCP Apps `ui/open-link`: `websiteUrl` and the `ui/open-link` URL are `https:` or `http:` (other schemes run code or open local files or apps)"),
    error("resources.same-uri", "resources", "2026-07-28", "resource-metadata proposal (overlay `resource_metadata`): every element of a multi-format read or of a `resources/metadata` result has the requested URI"),
    warning("resources.distinct-mime-types", "resources", "2026-07-28", "resource-metadata proposal (overlay `resource_metadata`): each element of a multi-format read or metadata result is a different MIME type, compared case-insensitively"),
    warning("resources.consistent-metadata", "resources", "2026-07-28", "resource-metadata proposal (overlay `resource_metadata`): name, title, description and annotations agree across a read's or metadata result's elements"),
    warning("resources.contents-name", "resources", "2026-07-28", "resource-metadata proposal (overlay `resource_metadata`): read contents carry `name` (absent from servers older than the proposal: warning)"),
    warning("resources.size", "resources", "2026-07-28", "resource-metadata proposal (overlay `resource_metadata`): `size` on read contents is that representation's size in bytes"),
    warning("resources.embedded-annotations", "resources", "2026-07-28", "resource-metadata proposal (overlay `resource_metadata`): the top-level `annotations` of an embedded resource, which the proposal removes"),
    error("input-required.request-or-state", "input-required", "2026-07-28", "schema.ts (2026-07-28) `InputRequiredResult`: an `InputRequiredResult` carries `inputRequests`, `requestState` or both"),
    error("capabilities.extension-key", "capabilities", "2026-07-28", "schema.ts (2026-07-28) capabilities `extensions`: a capabilities `extensions` key follows the `_meta` key syntax, with a prefix"),
    error("sampling.tool-use-id", "sampling", "2026-07-28", "schema.ts (2026-07-28) `ToolResultContent`: a `tool_result` block's `toolUseId` is the `id` of a `tool_use` block in an earlier sampling message"),
    error("apps.ui-uri", "apps", "2024-11-05", "MCP Apps (SEP-1865): an MCP Apps UI resource URI starts with `ui://`"),
    error("apps.mime-type", "apps", "2024-11-05", "MCP Apps (SEP-1865): an MCP Apps UI resource is `text/html;profile=mcp-app`"),
    error("apps.content", "apps", "2024-11-05", "MCP Apps (SEP-1865): an MCP Apps UI resource's content is `text` or `blob`"),
    error("apps.csp-origin", "apps", "2024-11-05", "MCP Apps (SEP-1865): MCP Apps CSP domain lists hold origins (`scheme://host[:port]`, `*.` wildcard not over a public suffix, no IPv6 address), wherever a CSP travels"),
    warning("apps.csp-limit", "apps", "2024-11-05", "MCP Apps (SEP-1865): an MCP Apps CSP domain list holds at most 64 origins, and all together fit a policy of 8 KiB (warning: a host keeps what fits)"),
    warning("apps.deprecated-key", "apps", "2024-11-05", "MCP Apps (SEP-1865): the flat `_meta[\"ui/resourceUri\"]` key"),
    error("tasks.timestamp", "tasks", "2026-07-28", "Tasks extension (SEP-2663): a task's `createdAt` and `lastUpdatedAt` are ISO 8601 date-times"),
    warning("tasks.timestamp-order", "tasks", "2026-07-28", "Tasks extension (SEP-2663): a task's `lastUpdatedAt` is not before its `createdAt`"),
    error("tasks.duration", "tasks", "2026-07-28", "Tasks extension (SEP-2663): a task's `ttlMs` and `pollIntervalMs` are not negative"),
    warning("tasks.failed-message", "tasks", "2026-07-28", "Tasks extension (SEP-2663): a `failed` task carries a `statusMessage` (the extension's \"should\")"),
    error("tasks.result-status", "tasks", "2026-07-28", "Tasks extension (SEP-2663), Task Execution Errors: a request that completed with a result makes its task `completed` and `result` MUST contain it; one that ended with a JSON-RPC error makes it `failed` and `error` MUST contain it: a `result` on a task that is not `completed`, an `error` on one that is not `failed`"),
    error("tasks.empty-ack", "tasks", "2026-07-28", "Tasks extension (SEP-2663): `tasks/update` and `tasks/cancel` are acknowledged with an empty result (only `resultType` and `_meta`)"),
    error("skills.digest", "skills", "2026-07-28", "Skills extension (SEP-2640), Skill Entries and Integrity: a `SkillResource` digest is `sha256:` and 64 lowercase hexadecimal characters"),
    error("skills.size", "skills", "2026-07-28", "Skills extension (SEP-2640), Resources: a `SkillResource` `size` is the file's length in bytes, not negative (its integer type is the schema's)"),
    error("skills.uri", "skills", "2026-07-28", "Skills extension (SEP-2640), Skill URIs, Resource Mapping and Getting a Skill: an entry's `uri`, and `skills/get`'s `params.uri`, is a skill's `SKILL.md`, explicit in the URI after a skill path of one or more segments"),
    error("skills.name-path", "skills", "2026-07-28", "Skills extension (SEP-2640), Resource Mapping and Frontmatter: the final skill-path segment of the entry's `uri` MUST equal `frontmatter.name`"),
    error("skills.name", "skills", "2026-07-28", "Skills extension (SEP-2640), Resource Mapping: the skill name MUST satisfy the Agent Skills naming rules (1-64 lowercase alphanumeric characters and hyphens, no hyphen first, last or doubled)"),
    error("skills.description", "skills", "2026-07-28", "Skills extension (SEP-2640), Skill Format: the frontmatter's `description` is as the Agent Skills specification defines it (not empty, at most 1024 characters)"),
    error("skills.resources-skill-md", "skills", "2026-07-28", "Skills extension (SEP-2640), Resources: a `resources` array MUST be complete, including an entry whose `uri` equals the skill's `uri`"),
    error("skills.resources-once", "skills", "2026-07-28", "Skills extension (SEP-2640), Resources: a `resources` array lists every file of the skill exactly once"),
    error("skills.resources-inside", "skills", "2026-07-28", "Skills extension (SEP-2640), Resources: each listed `uri` MUST be the skill's `SKILL.md` or a file within the skill's directory (a `.` or `..` segment is outside)"),
    warning("skills.limits", "skills", "2026-07-28", "Skills extension (SEP-2640), Limits: servers SHOULD NOT serve a skill over 512 `resources` entries or 16 MiB (16,777,216 bytes) of `size` in all; no host is bound to load it"),
    warning("skills.directory-slash", "skills", "2026-07-28", "Skills extension (SEP-2640), Directory Resources: a directory resource (`mimeType` `inode/directory`) is written without a trailing slash (stated without MUST: a warning)"),
    error("apps.client-capability", "apps", "2024-11-05", "MCP Apps (SEP-1865): the `io.modelcontextprotocol/ui` client capability has `mimeTypes` (listing no `text/html;profile=mcp-app`: warning)"),
];
