export interface Range {
  bounds: [number, number];
}
