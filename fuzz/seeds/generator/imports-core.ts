/** A thing the core module defines. */
export interface Widget {
  id: string;
  size?: number;
}

export type Colour = "red" | "green";
