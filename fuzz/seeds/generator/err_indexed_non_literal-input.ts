export interface Sample {
  kind: string;
}

export declare const KIND: Sample["kind"];
