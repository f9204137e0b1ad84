export interface Answer {
  value: string;
  /** Never sent together with `value`. */
  error?: never;
  /** Present and `null` means "cleared"; absent means "unchanged". */
  comment?: string | null;
  /** Always present, possibly `null`. */
  parent: number | null;
}

export type MaybeAnswer = Answer | null;
