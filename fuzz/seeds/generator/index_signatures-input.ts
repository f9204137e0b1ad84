/** Anything goes beside `id`. */
export interface Loose {
  id: string;
  [key: string]: unknown;
}

/** Every other key holds a count. */
export interface Counts {
  total: number;
  [key: string]: number;
}

/** Only extra keys: a map from label to colour. */
export interface Palette {
  [label: string]: string;
}

export interface Holder {
  /** Free-form settings. */
  settings: { [key: string]: unknown };
  /** Tag name to weight. */
  weights?: { [tag: string]: number };
}
