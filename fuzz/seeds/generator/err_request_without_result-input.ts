export interface FetchRequest {
  method: "things/fetch";
  id: string;
}
