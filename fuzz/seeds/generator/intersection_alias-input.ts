export interface Timestamps {
  created: string;
  updated?: string;
}

export interface Owner {
  owner: string;
}

/** A note carries both, plus its text. */
export type Note = Timestamps & Owner & { text: string };
