export interface Parcel {
  sender: string;
  recipient: string;
  weight: number;
  fragile?: boolean;
}

/** A parcel without its addresses, for weighing only. */
export interface Sample extends Omit<Parcel, "sender" | "recipient"> {
  scale: string;
}
