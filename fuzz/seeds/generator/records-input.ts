export interface Seat {
  row: number;
}

export interface Theatre {
  /** Seat by ticket code. */
  seats: Record<string, Seat>;
  /** Anything the box office adds. */
  notes?: Record<string, unknown>;
  /** One optional caption per side. */
  sides: Record<"left" | "right", string | undefined>;
}

/** Opening hours keyed by day name. */
export type Hours = Record<string, string>;
