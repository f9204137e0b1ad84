export interface Broken {
  name: string
  size number;
}
