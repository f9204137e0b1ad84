/** A base every state shares. */
export interface Base {
  id: string;
}

export interface Running {
  state: "running";
}

export interface Done {
  state: "done";
  /** What came out. */
  output: string;
}

/**
 * The states, as a union declared before the intersection that takes its shape: the enum of `state`
 * is found while lowering `Snapshot` and still belongs after `State`.
 */
export type State = Running | Done;

/** One struct holding every state: `state` is any of the members' values, not the first one's. */
export type Snapshot = Base & State & { at: number };
