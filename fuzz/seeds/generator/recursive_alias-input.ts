/** Any value that JSON can hold, spelled out. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A tree whose children are trees. */
export interface Tree {
  label: string;
  children?: Tree[];
  payload?: Json;
}
