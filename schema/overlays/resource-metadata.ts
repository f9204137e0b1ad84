/*
 * Overlay: resource contents metadata and multi-format reads.
 *
 * Proposal: "Resource Contents Metadata and Multi-Format Semantics" (SEP draft,
 * 2026-01-15). Applied on top of the draft schema by `cargo xtask codegen`; the
 * result is the `resource_metadata` module. Written for this project; the type
 * and method names are the proposal's.
 *
 * Directives (JSDoc tags on a declaration):
 *   @overlay replace   the declaration replaces the base one of the same name
 *   @overlay merge     its members are added to (or replace) the base one's; an
 *                      `extends` clause replaces the base's list of bases
 *   @overlay extend    a union alias: its members are appended to the base union
 *   @overlayRemove a b  with `merge`: remove these fields from the base
 * A declaration without a directive is new and must not exist in the base.
 */

/**
 * A resource's text, with the resource's own metadata (name, title,
 * description, icons, annotations, size) as `resources/list` gives it.
 *
 * `name` is optional here although `Resource` requires it: the proposal's
 * compatibility section makes every new field of read contents optional, so
 * contents from servers that predate it still read (validation warns).
 *
 * @overlay replace
 */
export interface TextResourceContents extends Omit<Resource, "name"> {
  /**
   * The resource's name, as `resources/list` gives it. Expected from servers
   * that implement the proposal; absent from older ones.
   */
  name?: string;
  /**
   * The text of the resource, in this representation. Set only when the
   * content can be represented as text.
   */
  text: string;
}

/**
 * A resource's binary content, with the resource's own metadata.
 *
 * `name` is optional, as on `TextResourceContents`.
 *
 * @overlay replace
 */
export interface BlobResourceContents extends Omit<Resource, "name"> {
  /**
   * The resource's name, as `resources/list` gives it. Expected from servers
   * that implement the proposal; absent from older ones.
   */
  name?: string;
  /**
   * The bytes of this representation, base64-encoded.
   *
   * @format byte
   */
  blob: string;
}

/**
 * A resource embedded in a prompt or tool result.
 *
 * The proposal removes the top-level `annotations`: they live in
 * `resource.annotations`. A message in the old form is still read and written
 * back as it came (the top-level `annotations` stay among the unknown keys);
 * validation warns about it, and `EmbeddedResource::annotations()` reads
 * either form.
 *
 * @overlay merge
 * @overlayRemove annotations
 */
export interface EmbeddedResource {}

/**
 * Asks the server for a resource's metadata without its content.
 *
 * @category `resources/metadata`
 */
export interface ReadResourceMetadataRequest extends JSONRPCRequest {
  method: "resources/metadata";
  params: ReadResourceMetadataRequestParams;
}

/**
 * Parameters of a `resources/metadata` request.
 *
 * @category `resources/metadata`
 */
export interface ReadResourceMetadataRequestParams extends RequestParams {
  /**
   * The resource whose metadata is wanted.
   *
   * @format uri
   */
  uri: string;
}

/**
 * The metadata of one resource: one element per format the server offers it
 * in (usually one), each with its own `mimeType` and `size`.
 *
 * @category `resources/metadata`
 */
export interface ReadResourceMetadataResult extends Result {
  /**
   * The resource's metadata, one element per available format.
   */
  metadata: Resource[];
}

/**
 * A successful response to a `resources/metadata` request.
 *
 * @category `resources/metadata`
 */
export interface ReadResourceMetadataResultResponse extends JSONRPCResultResponse {
  result: ReadResourceMetadataResult;
}

/** @overlay extend */
export type ClientRequest = ReadResourceMetadataRequest;

/** @overlay extend */
export type ServerResult = ReadResourceMetadataResult;
