export interface Fine {
  a: string;
}

export interface Holder<T> {
  item: T;
}
