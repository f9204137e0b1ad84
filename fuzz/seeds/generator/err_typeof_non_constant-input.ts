export interface Sample {
  kind: string;
}

export interface Copy {
  kind: typeof Sample;
}
