/** Closed: only these three. */
export type Size = "small" | "medium" | "large";

/** Open: these are known, any other string is allowed too. */
export type Flavour = "vanilla" | "mint-chip" | "2x-chocolate" | string;

export interface Cone {
  size: Size;
  flavour?: Flavour;
  /** An inline closed union. */
  wrap: "paper" | "foil";
}
