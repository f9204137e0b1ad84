/** Two inline types would both be called `CrateLid`; config renames one. */
export interface Crate {
  lid: { hinged: boolean };
}

export interface CrateLid {
  colour: string;
}
