export interface Thing {
  a: string;
  b: number;
}

export interface Pick {
  key: keyof Thing;
}
