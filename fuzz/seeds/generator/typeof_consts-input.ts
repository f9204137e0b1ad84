/** The dialect this file describes. */
export const DIALECT = "greenhouse/1";
/** Sent when a sensor stops answering. */
export const SENSOR_LOST = -40012;
export const RATIO = 0.5;

export interface Hello {
  dialect: typeof DIALECT;
}

export interface SensorLost {
  code: typeof SENSOR_LOST;
  sensor: string;
}
