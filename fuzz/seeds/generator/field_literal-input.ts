export interface Verdict {
  /** The prose says this is always "final" here. */
  stage: string;
  score: number;
}
