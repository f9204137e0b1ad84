export interface Recipient {
  address: string;
}

export interface Letter {
  /** One recipient, or several. */
  to: Recipient | Recipient[];
  /** A tag or a list of tags. */
  tags?: string | string[];
}
