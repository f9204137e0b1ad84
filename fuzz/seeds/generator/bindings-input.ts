/** Bound in config to a fixed Rust type instead of being generated. */
export type AnyJson = string | number | boolean | null | AnyJson[] | { [key: string]: AnyJson };

export interface Envelope {
  body: AnyJson;
  extras?: AnyJson[];
}
