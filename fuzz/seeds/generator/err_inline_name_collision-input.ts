export interface Crate {
  lid: { hinged: boolean };
}

export interface CrateLid {
  colour: string;
}
