/** A category may sit under another one. */
export interface Category {
  name: string;
  /** The category this one sits under. */
  parent?: Category;
}

export interface Num {
  kind: "num";
  value: number;
}

/** Recursion through a union: a sum of two expressions. */
export interface Sum {
  kind: "sum";
  left: Expr;
  right: Expr;
}

export type Expr = Num | Sum;
