/** A type that happens to be called `Unknown`. */
export interface Unknown {
  kind: "unknown";
}

export interface Known {
  kind: "known";
}

/** Tagged by `kind` with no open member, so the generator adds its own catch-all variant. */
export type Either = Unknown | Known;
