export type RequestId = string | number;
export type ProgressToken = string | number;

export const INVALID_PARAMS = -32602;

export interface Request {
  method: string;
  params?: { [key: string]: unknown };
}

export interface Notification {
  method: string;
  params?: { [key: string]: unknown };
}

export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

export type EmptyResult = Result;

export interface Error {
  code: number;
  message: string;
  data?: unknown;
}

export interface JSONRPCErrorResponse {
  jsonrpc: "2.0";
  id?: RequestId;
  error: Error;
}

/** Log severities, least severe first. */
export type Level = "debug" | "info" | "error";

export interface PingRequest extends Request {
  jsonrpc: "2.0";
  id: RequestId;
  method: "ping";
}

export interface ReadRequest extends Request {
  jsonrpc: "2.0";
  id: RequestId;
  method: "read";
  params: { uri: string; token?: ProgressToken };
}

export interface ReadResult extends Result {
  text: string;
}

export interface LogNotification extends Notification {
  jsonrpc: "2.0";
  method: "notifications/log";
  params: { level: Level };
}

export type ClientRequest = PingRequest | ReadRequest;
export type ClientNotification = LogNotification;
export type ClientResult = EmptyResult | ReadResult;

export interface TextBlock {
  type: "text";
  text: string;
}

export interface ImageBlock {
  type: "image";
  data: string;
}

export interface AudioBlock {
  type: "audio";
  data: string;
}

/** A nested union: `TextBlock` converts through `Media`, `AudioBlock` is held twice and converts into neither. */
export type Media = TextBlock | ImageBlock;
export type Block = Media | AudioBlock;
export type Twice = AudioBlock | Block;
