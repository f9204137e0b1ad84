export interface ByName {
  name: string;
  exact?: boolean;
}

export interface ByCode {
  code: string;
}

export interface ByRange {
  from: number;
  to: number;
}

/** No shared tag: the keys present decide. */
export type Lookup = ByName | ByCode | ByRange;
