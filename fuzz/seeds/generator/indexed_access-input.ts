export interface WaterOrder {
  method: "garden/water";
  litres: number;
}

/** The method name, reused without repeating it. */
export declare const WATER_METHOD: WaterOrder["method"];

/** Declared with a literal type directly. */
export declare const VERSION: "1.2";

export interface WaterLog {
  /** The same literal, through indexed access in a field. */
  method: WaterOrder["method"];
  when: string;
}
