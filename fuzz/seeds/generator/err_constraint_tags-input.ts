export interface Bad {
  /**
   * @maxLength many
   */
  a: string;
  /**
   * @pattern [unclosed
   */
  b: string;
  /**
   * @pattern
   */
  c: string;
  /**
   * A rule the generator does not know must not pass as a doc note.
   *
   * @minLength 3
   */
  d: string;
}
