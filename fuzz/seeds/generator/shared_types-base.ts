export interface Request {
  method: string;
  params?: { [key: string]: unknown };
}

export interface Result {
  [key: string]: unknown;
}

/** A point; the same in both versions, docs aside. */
export interface Point {
  x: number;
  y: number;
}

/** Changes in the next version: `label` becomes required. */
export interface Marker {
  at: Point;
  label?: string;
}

/** The same text in both versions, but it holds `Marker`, which changes. */
export interface Layer {
  markers: Marker[];
}

export type Shape = { kind: "dot"; at: Point } | { kind: "line"; from: Point; to: Point };

/** Asks for a point; answered by `PointResult`. */
export interface PointRequest extends Request {
  method: "point/get";
}

export interface PointResult extends Result {
  point: Point;
}

/** Asks for a marker; its result changes, so it is not shared either. */
export interface MarkerRequest extends Request {
  method: "marker/get";
}

export interface MarkerResult extends Result {
  marker: Marker;
}
