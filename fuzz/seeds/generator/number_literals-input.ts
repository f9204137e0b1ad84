/** Written in hexadecimal. */
export const MASK = 0xff;
/** Written with a separator. */
export const LIMIT = 1_000;
export const NEGATIVE_HEX = -0x10;

export interface Frame {
  /** A literal field written in hexadecimal. */
  marker: 0x7f;
  size: number;
}
