export interface Scale {
  type: "number" | "integer";
  title?: string;
}

export interface Toggle {
  type: "boolean";
  title?: string;
}

export interface Text {
  type: "string";
  title?: string;
}

export interface Choice {
  type: "string";
  enum: string[];
}

/** Two members share `type: "string"`, so keys decide; a closed `type` still rules a member out. */
export type Field = Scale | Toggle | Text | Choice;

export interface Call {
  id: string;
  op: string;
}

export interface Signal {
  op: string;
}

/** A `Signal` has no `id` (configured as `never`), so an object with one is never a `Signal`. */
export type Frame = Call | Signal;

export interface Answer {
  /** Untagged, but configured as any number. */
  values?: { [key: string]: string | number };
  count: number;
}

export interface Reply {
  mode: "fast" | "slow";
  data: string;
}

export interface Quick {
  mode: "instant";
}

export interface Note {
  note?: string;
}

/** `Note` takes any object, so `data` only guesses a `Reply`: a `mode` that `Quick` claims takes the guess back. */
export type Outcome = Reply | Quick | Note;
