export interface Crate {
  label: string;
}

export interface Shipment {
  /** The crates, or `"pending"` while they are still being counted. */
  crates: Crate[] | "pending";
  /** A weight in kilograms, or `"unweighed"`. */
  weight?: number | "unweighed";
}
