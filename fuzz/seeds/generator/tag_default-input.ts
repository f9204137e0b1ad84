/** The usual answer; `status` may be left out. */
export interface Done {
  status?: "done";
  output: string;
}

export interface Pending {
  status: "pending";
  retryAfter: number;
}

/** Read by `status`; without it the answer is `Done`. */
export type Answer = Done | Pending;
