/*
 * Overlay: the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640).
 *
 * Source: `specification/stable/skills.mdx` of the repository
 * modelcontextprotocol/ext-skills at commit 0682b7b6 (named in full in
 * schema/codegen.toml). The extension publishes no `schema.ts`: its page states
 * the types in TypeScript code fences, written against protocol revision
 * 2026-07-28. Applied on top of the pinned 2026-07-28 schema by
 * `cargo xtask codegen`; the result is the `skills` module. Written for this
 * project; the type, field and method names are the page's.
 *
 * Where the page is loose, the base protocol's conventions decide:
 * - each request's params are a named `...Params` type on the base's
 *   `RequestParams` (the page writes them inline, and `skills/get` on the
 *   untyped `Request`): on 2026-07-28 every request carries the `_meta` that
 *   names its protocol version and the client's capabilities;
 * - each result gets its `...ResultResponse`, as the base's methods have.
 * The page's "`resultType` MUST be `complete`" on each result is the field's
 * literal type (as the Tasks extension's schema.ts writes it); its other prose
 * rules (digest format, completeness of `resources`, naming, limits) are
 * validators, not types.
 *
 * Directives: see the header of `resource-metadata.ts` (`@overlay extend`
 * appends to a union of the base; a declaration without one is new).
 */

/* Skill entries */

/**
 * One file of a skill, with the size and SHA-256 digest of its bytes.
 *
 * @category `skills`
 */
export interface SkillResource {
  /**
   * The file's resource URI; `resources/read` returns its content.
   *
   * @format uri
   */
  uri: string;
  /**
   * The SHA-256 digest of the file's raw bytes: `sha256:` followed by 64
   * lowercase hexadecimal digits.
   */
  digest: string;
  /**
   * The file's length in bytes: the bytes the digest is computed over.
   */
  size: number;
}

/**
 * What a server says about one skill, the same in `skills/list` and
 * `skills/get`: where its `SKILL.md` is, that file's frontmatter, and the
 * skill's files.
 *
 * @category `skills`
 */
export interface Skill {
  /**
   * The URI of the skill's `SKILL.md`; `resources/read` returns it.
   *
   * @format uri
   */
  uri: string;
  /**
   * The YAML frontmatter of the skill's `SKILL.md` as a JSON object, every
   * field the author wrote, unchanged. `name` and `description` are always
   * there.
   */
  frontmatter: {
    /**
     * The skill's name; the last segment of the skill's path is the same.
     */
    name: string;
    /**
     * What the skill does and when to use it.
     */
    description: string;
    [key: string]: unknown;
  };
  /**
   * Every file of the skill (`SKILL.md` included, each once), or `"dynamic"`
   * when its content is generated and has no stable digests.
   */
  resources: SkillResource[] | "dynamic";
}

/* skills/list */

/**
 * Asks the server for its skills, a page at a time.
 *
 * @category `skills/list`
 */
export interface ListSkillsRequest extends PaginatedRequest {
  method: "skills/list";
}

/**
 * A page of the server's skills. The listing may be partial: a skill that is
 * not listed can still be asked for with `skills/get`.
 *
 * @category `skills/list`
 */
export interface ListSkillsResult extends PaginatedResult, CacheableResult {
  /**
   * Always `"complete"`: the page gives this method no other kind of answer.
   */
  resultType: "complete";
  skills: Skill[];
}

/**
 * A successful response to a `skills/list` request.
 *
 * @category `skills/list`
 */
export interface ListSkillsResultResponse extends JSONRPCResultResponse {
  result: ListSkillsResult;
}

/* skills/get */

/**
 * Parameters of a `skills/get` request.
 *
 * @category `skills/get`
 */
export interface GetSkillRequestParams extends RequestParams {
  /**
   * The URI of the skill's `SKILL.md`.
   *
   * @format uri
   */
  uri: string;
}

/**
 * Asks the server for one skill's entry, by the URI of its `SKILL.md`.
 *
 * @category `skills/get`
 */
export interface GetSkillRequest extends JSONRPCRequest {
  method: "skills/get";
  params: GetSkillRequestParams;
}

/**
 * The entry of the skill a `skills/get` named, as it is now.
 *
 * @category `skills/get`
 */
export interface GetSkillResult extends CacheableResult {
  /**
   * Always `"complete"`: the page gives this method no other kind of answer.
   */
  resultType: "complete";
  skill: Skill;
}

/**
 * A successful response to a `skills/get` request.
 *
 * @category `skills/get`
 */
export interface GetSkillResultResponse extends JSONRPCResultResponse {
  result: GetSkillResult;
}

/* resources/directory/read */

/**
 * Parameters of a `resources/directory/read` request.
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryRequestParams extends PaginatedRequestParams {
  /**
   * The directory resource to list (`mimeType` `inode/directory`, no
   * trailing slash).
   *
   * @format uri
   */
  uri: string;
}

/**
 * Asks the server for the direct children of a directory resource, a page
 * at a time. Only to servers that declared `directoryRead`.
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryRequest extends PaginatedRequest {
  method: "resources/directory/read";
  params: ReadResourceDirectoryRequestParams;
}

/**
 * A page of a directory's direct children: files with their resource
 * metadata, subdirectories as directory resources.
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryResult extends PaginatedResult {
  /**
   * Always `"complete"`: the page gives this method no other kind of answer.
   */
  resultType: "complete";
  /**
   * The children; empty for an empty directory.
   */
  resources: Resource[];
}

/**
 * A successful response to a `resources/directory/read` request.
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryResultResponse extends JSONRPCResultResponse {
  result: ReadResourceDirectoryResult;
}

/* Capability */

/**
 * What a server declares under `extensions["io.modelcontextprotocol/skills"]`
 * of its capabilities. An empty object: the extension without its optional
 * method.
 *
 * @category `skills`
 */
export interface SkillsExtensionCapability {
  /**
   * The server answers `resources/directory/read`. Absent means `false`.
   */
  directoryRead?: boolean;
}

/** @overlay extend */
export type ClientRequest = ListSkillsRequest | GetSkillRequest | ReadResourceDirectoryRequest;

/** @overlay extend */
export type ServerResult = ListSkillsResult | GetSkillResult | ReadResourceDirectoryResult;
