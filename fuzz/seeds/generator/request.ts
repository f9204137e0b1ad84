export interface Request { method: string; params?: { [key: string]: unknown } }
export interface PingRequest extends Request { method: "ping"; }
export interface EmptyResult {}
export type ClientRequest = PingRequest;
