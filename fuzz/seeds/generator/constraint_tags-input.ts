/**
 * An account a client shows, with the bounds a schema may state on strings.
 */
export interface Account {
  /**
   * The handle, short enough for a badge.
   *
   * @maxLength 32
   * @pattern ^[a-z][a-z0-9_]*$
   */
  handle: string;
  /**
   * Where the avatar comes from.
   *
   * @pattern ^(https://|data:image/)
   */
  avatar?: string;
  /**
   * An opaque token the server hands back.
   *
   * @maxLength 4096
   */
  cursor?: string;
  /**
   * Milliseconds the account stays cached.
   *
   * @format int
   */
  ttlMs: number | null;
}
