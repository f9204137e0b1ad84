/** Where a job stands. */
export type Status = "complete" | "pending";

/** A job: an absent `status` means it completed. */
export interface Job {
  id: string;
  status: Status;
}

/** A task: also lenient about `status`, but with no value to assume. */
export interface Task {
  id: string;
  status: Status;
}

/** A report: its `status` is plainly required. */
export interface Report {
  id: string;
  status: Status;
}
