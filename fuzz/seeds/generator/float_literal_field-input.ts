export interface Versioned {
  /** Only this exact version is understood. */
  version: 2.5;
  body: string;
}
