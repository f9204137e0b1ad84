export interface Base {
  a: string;
  b: string;
}

export interface Narrow extends Omit<Base, "b" | "c"> {
  d: number;
}
