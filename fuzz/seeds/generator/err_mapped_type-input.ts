export type Flags = { [K in "a" | "b"]: boolean };
