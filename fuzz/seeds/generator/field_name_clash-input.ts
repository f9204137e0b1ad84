/** Valid TypeScript whose field names meet on the Rust side. */
export interface Profile {
  /** Collides with the generated catch-all field `extra`. */
  extra: string;
  displayName: string;
  /** Same snake_case name as `displayName`. */
  display_name?: string;
}
