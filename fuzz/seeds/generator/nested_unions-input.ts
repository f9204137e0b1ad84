export interface Apple {
  kind: "apple";
  crisp: boolean;
}

export interface Pear {
  kind: "pear";
}

export interface Carrot {
  kind: "carrot";
  length: number;
}

export type Fruit = Apple | Pear;

/** A union of a union and a struct; `kind` decides through both levels. */
export type Produce = Fruit | Carrot;

export interface Basket {
  items: Produce[];
}
