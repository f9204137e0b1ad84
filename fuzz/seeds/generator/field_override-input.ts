export interface Shape {
  kind: string;
  /** How many corners; unknown for a generic shape. */
  corners?: number;
  colour?: string;
}

/** A triangle narrows `kind` to a literal and makes `corners` required. */
export interface Triangle extends Shape {
  kind: "triangle";
  corners: number;
}
