export interface Handler {
  name: string;
  run: (input: string) => void;
}
