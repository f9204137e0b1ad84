export type Left = Right;
export type Right = Left;

export interface Holder {
  value: Left;
}
