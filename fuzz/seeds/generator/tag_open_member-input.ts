export interface Email {
  channel: "email";
  address: string;
}

export interface Sms {
  channel: "sms";
  number: string;
}

/** Any other channel: the name is free text. */
export interface CustomChannel {
  channel: string;
  target?: unknown;
}

export type Contact = Email | Sms | CustomChannel;
