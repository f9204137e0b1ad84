/**
 * A point on a map, as a client reports it.
 *
 * Pair it with {@link Marker} to draw it, or see {@link Missing} for nothing.
 */
export interface Position {
  /**
   * Degrees north of the equator.
   *
   * @TJS-type number
   * @minimum -90
   * @maximum 90
   */
  latitude: number;
  /**
   * Where the tiles come from.
   *
   * @format uri
   */
  tiles?: string;
  /**
   * Recent positions, newest first.
   *
   * @maxItems 8
   */
  trail?: number[];
  /**
   * The old name of `label`.
   *
   * @deprecated Read `label` instead.
   */
  title?: string;
  /**
   * Set by servers that know the elevation.
   *
   * @nullable
   */
  elevation?: number | null;
}

/**
 * A pin drawn at a {@link Position | position}.
 *
 * @internal
 */
export interface Marker {
  at: Position;
  /** Short caption. */
  label: string;
}

/** @deprecated */
export type Legacy = string;
