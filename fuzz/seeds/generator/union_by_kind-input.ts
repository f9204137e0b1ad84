/** A ticket number or a ticket code. */
export type TicketId = string | number;

export interface Flag {
  name: string;
}

/** One of each JSON kind. */
export type Anything = string | number | boolean | string[] | Flag;

export interface Ticket {
  id: TicketId;
  /** Inline, by kind. */
  seat?: number | string;
}
