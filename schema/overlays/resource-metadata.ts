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
 * @overlay replace
 */
export interface TextResourceContents extends Resource {
  /**
   * The text of the resource, in this representation. Set only when the
   * content can be represented as text.
   */
  text: string;
}

/**
 * A resource's binary content, with the resource's own metadata.
 *
 * @overlay replace
 */
export interface BlobResourceContents extends Resource {
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
 * `resource.annotations`. For compatibility, a message in the old form is
 * still read: its top-level `annotations` are moved into `resource` (unless
 * `resource` already has its own), and writing always uses the new form.
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
