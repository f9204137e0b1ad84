/** Named like the prelude's `Result`, with no `[[rename]]`: a glob import would shadow it. */
export interface Result {
  value: string;
}
