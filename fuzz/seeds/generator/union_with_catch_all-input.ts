/** Any object: the catch-all member. */
export interface Reply {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

export interface ListReply extends Reply {
  items: string[];
  next?: string;
}

export interface CountReply extends Reply {
  count: number;
  items?: string[];
}

/** One member takes every object, so a key that one member names is only a guess. */
export type AnyReply = Reply | ListReply | CountReply;
