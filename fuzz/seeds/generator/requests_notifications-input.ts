export interface Request {
  method: string;
  params?: { [key: string]: unknown };
}

export interface Notification {
  method: string;
  params?: { [key: string]: unknown };
}

export interface Result {
  [key: string]: unknown;
}

export type EmptyResult = Result;

/** Asks for the time; answered by `ClockResult` (by name). */
export interface ClockRequest extends Request {
  method: "clock/read";
}

export interface ClockResult extends Result {
  now: string;
}

/** Checks the line; answered by `EmptyResult` (by config). */
export interface EchoRequest extends Request {
  method: "echo";
}

/** Told when the clock jumps. */
export interface ClockJumpedNotification extends Notification {
  method: "notifications/clock/jumped";
  params: { by: number };
}
