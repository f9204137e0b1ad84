/** What a peer can do; large, and sent once per session. */
export interface Capabilities {
  /** Extra features. */
  experimental?: { [key: string]: object };
  roots?: { listChanged?: boolean };
  sampling?: object;
}

/** A node that holds itself: boxed for recursion already, whatever the configuration says. */
export interface Node {
  capabilities?: Capabilities;
  child?: Node;
}

/** Holds the configured type in every field form. */
export interface Hello {
  /** Required: the constructor takes it unboxed. */
  capabilities: Capabilities;
  /** Optional. */
  fallback?: Capabilities;
  /** In an array the elements stay inline: a `Vec` already keeps them on the heap. */
  history?: Capabilities[];
  name: string;
}
