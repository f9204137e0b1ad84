export type Blob = string;

export interface Upload {
  data: Blob;
}
