export const OUT_OF_STOCK = -32050;

export interface Error {
  code: number;
  message: string;
  data?: unknown;
}

/** Sent when an order cannot be filled. */
export interface OrderFailed {
  id: string;
  error: Error & {
    code: typeof OUT_OF_STOCK;
    data: {
      /** What ran out. */
      item: string;
      restock?: string;
    };
  };
}
