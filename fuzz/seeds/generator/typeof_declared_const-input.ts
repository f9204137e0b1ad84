export interface WaterOrder {
  method: "garden/water";
  litres: number;
}

/** Declared, not defined: its type is one literal. */
export declare const WATER_METHOD: WaterOrder["method"];

export interface WaterLog {
  method: typeof WATER_METHOD;
  when: string;
}
